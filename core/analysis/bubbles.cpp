// SPDX-License-Identifier: MIT
// Bubbles: device idle gaps (Free intervals), the host activity during each, and a cause label.

#include <algorithm>
#include <climits>
#include <cstdio>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/model/slice_args.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"

namespace npuscope::core {

const char* bubbleCauseKey(BubbleCause c) {
  switch (c) {
    case BubbleCause::DeviceCopy: return "device_copy";
    case BubbleCause::DeviceWait: return "device_wait";
    case BubbleCause::Queued: return "queued";
    case BubbleCause::Synchronization: return "synchronization";
    case BubbleCause::HostToDeviceCopy: return "host_to_device_copy";
    case BubbleCause::AclopCompile: return "aclop_compile";
    case BubbleCause::AclopExecute: return "aclop_execute";
    case BubbleCause::DataLoading: return "data_loading";
    case BubbleCause::FirstCall: return "first_call";
    case BubbleCause::SlowDispatch: return "slow_dispatch";
    case BubbleCause::HostIdle: return "host_idle";
    case BubbleCause::Unknown: return "unknown";
  }
  return "unknown";
}

const char* bubbleCauseLabel(BubbleCause c) {
  switch (c) {
    case BubbleCause::DeviceCopy: return "Device copy";
    case BubbleCause::DeviceWait: return "Device wait";
    case BubbleCause::Queued: return "Queued on the device";
    case BubbleCause::Synchronization: return "Synchronization";
    case BubbleCause::HostToDeviceCopy: return "HostToDevice copy";
    case BubbleCause::AclopCompile: return "ACLOP compile";
    case BubbleCause::AclopExecute: return "ACLOP execution on the host";
    case BubbleCause::DataLoading: return "Data loading";
    case BubbleCause::FirstCall: return "First call (warm-up)";
    case BubbleCause::SlowDispatch: return "Slow dispatch";
    case BubbleCause::HostIdle: return "Host idle";
    case BubbleCause::Unknown: return "Unknown";
  }
  return "Unknown";
}

const char* bubbleCauseFreeAnalysisCategory(BubbleCause c) {
  switch (c) {
    case BubbleCause::DeviceCopy:
    case BubbleCause::DeviceWait: return "device task running";
    case BubbleCause::Synchronization:
    case BubbleCause::HostToDeviceCopy:
    case BubbleCause::AclopCompile:
    case BubbleCause::AclopExecute:
    case BubbleCause::SlowDispatch: return "abnormal CANN layer";
    case BubbleCause::DataLoading:
    case BubbleCause::HostIdle: return "Idle PyTorch layer";
    case BubbleCause::Queued:
    case BubbleCause::FirstCall:
    case BubbleCause::Unknown: return "";
  }
  return "";
}

const char* launchTimingKey(LaunchTiming t) {
  switch (t) {
    case LaunchTiming::AfterGapStart: return "after_gap_start";
    case LaunchTiming::BeforeGapStart: return "before_gap_start";
    case LaunchTiming::Unknown: return "unknown";
  }
  return "unknown";
}

TimeNs CauseTotals::totalNs() const {
  TimeNs t = 0;
  for (TimeNs v : ns) t += v;
  return t;
}

BubbleCause CauseTotals::top() const {
  std::size_t best = static_cast<std::size_t>(BubbleCause::Unknown);
  TimeNs bestNs = 0;
  for (std::size_t c = 0; c < kBubbleCauseCount; ++c)
    if (ns[c] > bestNs) {
      bestNs = ns[c];
      best = c;
    }
  return static_cast<BubbleCause>(best);
}

bool hostLayersRecorded(const Trace& trace) {
  for (const Lane& lane : trace.lanes) {
    const auto role = trace.processes[lane.process].role;
    if ((role == Process::Role::Python || role == Process::Role::Cann) && lane.sliceCount() > 0) return true;
  }
  return false;
}

namespace detail {
bool torchLayerRecorded(const Trace& trace) {
  if (isKinetoTrace(trace)) return true;
  for (const Lane& lane : trace.lanes)
    if (trace.processes[lane.process].role == Process::Role::Python && lane.sliceCount() > 0) return true;
  return false;
}
}  // namespace detail

namespace {

bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

/// Host calls that wait for the device. CUDA / HIP runtime: cuda*Synchronize, hip*Synchronize
/// (Kineto traces, format notes §6.1).
bool isSyncName(std::string_view n) {
  return ((n.starts_with("cuda") || n.starts_with("hip")) && has(n, "Synchronize")) || has(n, "aclrtSynchronize") || has(n, "SynchronizeStream") || has(n, "SynchronizeDevice") ||
         has(n, "aten::item") || has(n, "aten::_local_scalar_dense") || has(n, "Tensor.item") ||
         has(n, "aten::is_nonzero") || has(n, "aten::nonzero");
}
bool isH2DName(std::string_view n) {
  return n.starts_with("cudaMemcpy") || n.starts_with("hipMemcpy") || has(n, "aclrtMemcpy") || has(n, "acl_memcpy_host_to_device") || has(n, "MemcpyAsync") ||
         has(n, "aten::pin_memory");
}
/// The ACLOP compile step (AscendCL@opCompile), not the aclopCompileAndExecute that encloses it.
bool isCompileStep(std::string_view n) { return n.ends_with("opCompile") && !has(n, "CompileAndExecute"); }
bool isAclopExecute(std::string_view n) { return has(n, "aclopCompileAndExecute"); }
bool isCopyTask(std::string_view n) {
  return n.starts_with("MEMCPY") || n.starts_with("Memcpy") || n.starts_with("SDMA") || n.starts_with("PCIE_DMA");
}
bool isWaitTask(std::string_view n) {
  return n.starts_with("EVENT_WAIT") || n.starts_with("Notify_Wait") || n.starts_with("Notify Wait") ||
         n.ends_with("_WAIT_SQE");
}
/// A Kineto runtime call (cat cuda_runtime, cuda_driver or privateuse1_runtime, §6.1): the layer
/// that plays CANN's part on a Kineto trace.
bool isRuntimeCategory(std::string_view cat) {
  return cat == "cuda_runtime" || cat == "cuda_driver" || cat == "privateuse1_runtime";
}
bool isDataLoader(std::string_view n) { return has(n, "DataLoader") || has(n, "dataloader"); }

std::string pct(double f) { return formatPercent(f, 0); }

}  // namespace

std::string detail::callerOf(const Trace& trace, SliceRef op) {
  for (SliceRef c = op; c.valid(); c = detail::parentOf(trace, c)) {
    const auto stack = sliceArg(trace, c, "Call stack");
    if (!stack || stack->empty()) continue;
    // Frames are separated by ";\r\n" (or ";"); the first is the innermost.
    std::string_view s(*stack);
    while (!s.empty()) {
      const auto end = s.find(';');
      std::string_view frame = s.substr(0, end);
      while (!frame.empty() && (frame.front() == '\r' || frame.front() == '\n' || frame.front() == ' ')) frame.remove_prefix(1);
      if (!frame.empty() && !has(frame, "site-packages") && !has(frame, "/torch/") && !has(frame, "torch_npu"))
        return std::string(frame);
      if (end == std::string_view::npos) break;
      s.remove_prefix(end + 1);
    }
  }
  return {};
}

namespace {

/// "name 1.2 ms in aten_op called from file.py(12): fn": a host slice and where it was called from.
std::string describe(const Trace& trace, SliceRef r) {
  std::string s = std::string(trace.sliceName(r)) + " " + formatDuration(trace.sliceRange(r).duration());
  // For a CANN API, the torch op (or Dequeue) on the same OS thread tells where it was called from.
  SliceRef op = r;
  if (trace.processes[trace.lanes[r.lane].process].role == Process::Role::Cann) {
    const auto py = detail::laneByRoleAndTid(trace, Process::Role::Python, trace.lanes[r.lane].tid);
    if (py != kInvalidIndex) {
      const auto idx = trace.lanes[py].enclosingSlice(trace.lanes[r.lane].start[r.index]);
      if (idx != kInvalidIndex) {
        op = {py, idx};
        if (!trace.sliceName(op).starts_with("ProfilerStep#"))
          s += i18n::format(npuTr("npuscope::core::Bubbles", " in %1"), {trace.sliceName(op)});
      }
    }
  }
  const std::string caller = detail::callerOf(trace, op);
  if (!caller.empty()) s += i18n::format(npuTr("npuscope::core::Bubbles", " called from %1"), {caller});
  return s;
}

/// Summed duration of the slices inside `r` (same lane, deeper rows) whose name satisfies `pred`.
template <class Pred>
TimeNs childTime(const Trace& trace, SliceRef r, Pred pred) {
  const Lane& lane = trace.lanes[r.lane];
  const TimeNs s = lane.start[r.index], e = lane.end[r.index];
  TimeNs sum = 0;
  for (std::uint32_t d = lane.depthOf(r.index) + 1; d < lane.depthCount(); ++d) {
    auto it = std::lower_bound(lane.start.begin() + lane.rowBegin[d], lane.start.begin() + lane.rowBegin[d + 1], s);
    for (auto i = static_cast<std::uint32_t>(it - lane.start.begin()); i < lane.rowBegin[d + 1] && lane.start[i] < e; ++i)
      if (pred(trace.name(lane.names[i]))) sum += std::min(lane.end[i], e) - lane.start[i];
  }
  return sum;
}

/// The host slice with the largest overlap of one kind.
struct Hit {
  SliceRef r;
  TimeNs overlap = 0;
};

/// gatherActivity's name tests (the predicates above), decided once per NameId of a slice name or
/// category: a bit each, kKnown once computed. Per findBubbles call, shared by all its gaps.
class NameFlags {
 public:
  enum : std::uint32_t {
    kKnown = 1u << 0, kStep = 1u << 1, kSync = 1u << 2, kH2D = 1u << 3, kCompile = 1u << 4, kAclop = 1u << 5,
    kLoader = 1u << 6, kQueue = 1u << 7, kLaunchName = 1u << 8, kHasLaunch = 1u << 9, kCopyTask = 1u << 10,
    kWaitTask = 1u << 11, kStreamWaitEvent = 1u << 12, kPythonFunction = 1u << 13, kCpuOp = 1u << 14,
    kRuntimeCategory = 1u << 15
  };
  explicit NameFlags(const Trace& trace) : m_trace(trace), m_bits(trace.strings.size(), 0) {}
  std::uint32_t operator()(NameId id) {
    std::uint32_t& b = m_bits[id];
    if (!b) b = compute(m_trace.name(id));
    return b;
  }

  /// The calls of one host slice name (Python, CANN and Python GC lanes; ProfilerStep excluded):
  /// how many, their median duration (the lower one for an even count) and the start of the
  /// first call, in start order, of at most 2x the median (the end of the warm-up).
  struct CallStats {
    std::size_t count = 0;
    TimeNs median = 0;
    TimeNs warmEnd = INT64_MAX;
  };
  /// CallStats of `id`, computed on first use by one scan of the host lanes; null once
  /// kMaxFirstCallNames names were computed (the rule then does not hold: bounded cost).
  const CallStats* callStats(NameId id) {
    if (const auto it = m_calls.find(id); it != m_calls.end()) return &it->second;
    if (m_calls.size() >= kMaxFirstCallNames) return nullptr;
    std::vector<std::pair<TimeNs, TimeNs>> calls;  // (start, duration)
    for (const Lane& lane : m_trace.lanes) {
      const auto role = m_trace.processes[lane.process].role;
      if (role != Process::Role::Python && role != Process::Role::Cann && role != Process::Role::PythonGc) continue;
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i)
        if (lane.names[i] == id) calls.emplace_back(lane.start[i], lane.end[i] - lane.start[i]);
    }
    CallStats st;
    st.count = calls.size();
    if (!calls.empty()) {
      std::vector<TimeNs> d;
      d.reserve(calls.size());
      for (const auto& c : calls) d.push_back(c.second);
      const auto mid = d.begin() + static_cast<std::ptrdiff_t>((d.size() - 1) / 2);
      std::nth_element(d.begin(), mid, d.end());
      st.median = *mid;
      std::sort(calls.begin(), calls.end());
      for (const auto& [start, dur] : calls)
        if (dur <= 2 * st.median) {
          st.warmEnd = start;
          break;
        }
    }
    return &m_calls.emplace(id, st).first->second;
  }
  static constexpr std::size_t kMaxFirstCallNames = 64;

 private:
  static std::uint32_t compute(std::string_view n) {
    std::uint32_t b = kKnown;
    const auto set = [&b](bool on, std::uint32_t bit) { b |= on ? bit : 0u; };
    set(n.starts_with("ProfilerStep#"), kStep);
    set(isSyncName(n), kSync);
    set(isH2DName(n), kH2D);
    set(isCompileStep(n), kCompile);
    set(isAclopExecute(n), kAclop);
    set(isDataLoader(n), kLoader);
    set(n.starts_with("Dequeue") || n.starts_with("Enqueue"), kQueue);
    set(n.starts_with("Dequeue") || has(n, "launch") || n.starts_with("AscendCL@aclnn"), kLaunchName);
    set(has(n, "Launch"), kHasLaunch);
    set(isCopyTask(n), kCopyTask);
    set(isWaitTask(n), kWaitTask);
    set(n == "Stream Wait Event", kStreamWaitEvent);
    set(n == "python_function", kPythonFunction);
    set(n == "cpu_op", kCpuOp);
    set(isRuntimeCategory(n), kRuntimeCategory);
    return b;
  }
  const Trace& m_trace;
  std::vector<std::uint32_t> m_bits;
  std::unordered_map<NameId, CallStats> m_calls;
};

/// What the host and the device did during a gap: classifyBubble's evidence.
struct GapActivity {
  Hit sync, syncAtStart, h2d, compile, aclop, gc;  ///< a sync slice running at the gap start wins
  /// The host op with the largest overlap: a torch op (cpu_op), a runtime API (Kineto) or a CANN
  /// API, not Enqueue/Dequeue, a data loader or a step; ties: the longer, then the earlier, then
  /// the smaller name.
  Hit longest;
  std::vector<TimeRange> busy, loader, pythonSide, queue, cannSide;  ///< overlapping parts
  std::vector<SliceRef> copyTasks, waitTasks, launchSlices, hostSlices;
  std::size_t launches = 0, ops = 0;  ///< launches and torch ops starting in the gap
  TimeNs copyOnDevice = 0, waitOnDevice = 0;
};

/// GapActivity::longest's order: a larger overlap, then a longer slice, then an earlier start,
/// then the smaller name (tools/oracles/topdown_oracle.py picks the same).
bool longestWins(const Trace& trace, SliceRef r, TimeNs ov, const Hit& best) {
  if (!best.r.valid() || ov != best.overlap) return !best.r.valid() || ov > best.overlap;
  const TimeRange a = trace.sliceRange(r), b = trace.sliceRange(best.r);
  if (a.duration() != b.duration()) return a.duration() > b.duration();
  if (a.start != b.start) return a.start < b.start;
  return trace.sliceName(r) < trace.sliceName(best.r);
}

/// Scans the host lanes (Python, CANN, Python GC) and `device`'s task lanes over `gap`; wait
/// tasks count only on the lane of `after` (the idle stream) when it is valid.
GapActivity gatherActivity(const Trace& trace, int device, TimeRange gap, SliceRef after, NameFlags& flags) {
  using F = NameFlags;
  // The host slice with the largest overlap per kind; a sync slice running at the gap start wins.
  GapActivity a;
  auto& [sync, syncAtStart, h2d, compile, aclop, gc, longest, busy, loader, pythonSide, queue, cannSide, copyTasks,
         waitTasks, launchSlices, hostSlices, launches, ops, copyOnDevice, waitOnDevice] = a;
  constexpr std::size_t kEvidenceCap = 16;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const Process& proc = trace.processes[lane.process];
    const auto role = proc.role;
    const bool host = role == Process::Role::Python || role == Process::Role::Cann || role == Process::Role::PythonGc;
    const bool deviceLane =
        (role == Process::Role::AscendHardware || role == Process::Role::KinetoDevice) && proc.deviceId == device;
    const bool kinetoLane = role == Process::Role::KinetoDevice;
    if (!host && !deviceLane) continue;
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      // Slices of this row overlapping the gap: rows are disjoint and sorted.
      auto it = std::upper_bound(lane.end.begin() + lane.rowBegin[d], lane.end.begin() + lane.rowBegin[d + 1], gap.start);
      for (auto i = static_cast<std::uint32_t>(it - lane.end.begin()); i < lane.rowBegin[d + 1] && lane.start[i] < gap.end; ++i) {
        const TimeNs ov = std::min(lane.end[i], gap.end) - std::max(lane.start[i], gap.start);
        if (ov <= 0) continue;
        const std::uint32_t n = flags(lane.names[i]);
        const SliceRef r{l, i};
        if (deviceLane) {
          // On a Kineto stream the category says what a slice is: copies are gpu_memcpy /
          // gpu_memset, a wait is cuda_sync "Stream Wait Event" (the stream waits for an event).
          const detail::KinetoTaskKind kk =
              kinetoLane ? detail::kinetoTaskKindOf(trace, r) : detail::KinetoTaskKind::NotATask;
          const bool kinetoWait = kinetoLane && (n & F::kStreamWaitEvent);
          if (kinetoLane ? kk == detail::KinetoTaskKind::Copy : (n & F::kCopyTask) != 0) {
            copyOnDevice += ov;
            if (copyTasks.size() < kEvidenceCap) copyTasks.push_back(r);
          } else if ((kinetoLane ? kinetoWait : (n & F::kWaitTask) != 0) &&
                     (!after.valid() || after.lane == l)) {  // a wait on the idle stream
            waitOnDevice += ov;
            if (waitTasks.size() < kEvidenceCap) waitTasks.push_back(r);
          }
          continue;
        }
        if (n & F::kStep) continue;
        const std::uint32_t cat = flags(lane.categories[i]);
        if (hostSlices.size() < 24 && !(cat & F::kPythonFunction)) hostSlices.push_back(r);
        const TimeRange part{std::max(lane.start[i], gap.start), std::min(lane.end[i], gap.end)};
        if (n & F::kSync) {
          if (ov > sync.overlap) sync = {r, ov};
          if (lane.start[i] <= gap.start && gap.start < lane.end[i] && ov > syncAtStart.overlap) syncAtStart = {r, ov};
        }
        if ((n & F::kH2D) && ov > h2d.overlap) h2d = {r, ov};
        if ((n & F::kCompile) && ov > compile.overlap) compile = {r, ov};
        if ((n & F::kAclop) && ov > aclop.overlap) aclop = {r, ov};
        if (role == Process::Role::PythonGc && ov > gc.overlap) gc = {r, ov};
        if (n & F::kLoader) {
          loader.push_back(part);
          continue;
        }
        if (cat & F::kPythonFunction) continue;
        busy.push_back(part);
        // An op: a torch op, a runtime / CANN API (not a user annotation or a queue record).
        const bool op = (cat & F::kCpuOp) || (cat & F::kRuntimeCategory) || role == Process::Role::Cann;
        if (op && !(n & F::kQueue) && longestWins(trace, r, ov, longest)) longest = {r, ov};
        if (role == Process::Role::Cann || (cat & F::kRuntimeCategory)) cannSide.push_back(part);
        else if (n & F::kQueue) queue.push_back(part);
        else if (cat & F::kCpuOp) pythonSide.push_back(part);
        if (lane.start[i] >= gap.start) {
          const bool launch = (n & F::kLaunchName) || ((cat & F::kRuntimeCategory) && (n & F::kHasLaunch));
          if (launch) {
            ++launches;
            if (launchSlices.size() < kEvidenceCap) launchSlices.push_back(r);
          }
          if (cat & F::kCpuOp) ++ops;
        }
      }
    }
  }
  return a;
}

}  // namespace

namespace {

/// The shortest gap the first-call rule judges: warm-up costs are long, and a short gap covered
/// by one op is what the other rules describe.
constexpr TimeNs kFirstCallMinGapNs = 1'000'000;

/// What the cause rules read of one gap: the gap, what the host and the device did during it,
/// and which host layers the trace has.
struct GapContext {
  const Trace& trace;
  TimeRange gap;
  GapActivity act;
  /// A Kineto trace has no CANN layer and no task queue: its runtime calls (cuda_runtime, ...)
  /// take the CANN share's place in the texts, and no Ascend-only name is printed (§6.1).
  bool kineto = false;
  /// Without a PyTorch layer (MindSpore / GE graph mode through msprof) the host is CANN only:
  /// no "torch op" is named (docs/diagnosis.md §3, wording).
  bool torch = false;

  /// The gap's length, and `ov` as a fraction of it.
  TimeNs len() const { return gap.duration(); }
  double share(TimeNs ov) const { return static_cast<double>(ov) / static_cast<double>(gap.duration()); }
};

/// Rules 1-2: the device itself was busy with copies, or its idle stream waited on an event or
/// notify task, for half the gap. True when one of them decides the cause.
bool deviceSideCause(const GapContext& g, Bubble& b) {
  const Trace& trace = g.trace;
  const GapActivity& a = g.act;
  if (a.copyOnDevice * 2 >= g.len()) {
    b.cause = BubbleCause::DeviceCopy;
    b.evidence = a.copyTasks;
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "copy tasks (%1) run on the device for %2 of the gap"),
                            {std::string(trace.sliceName(a.copyTasks.front())) + (a.copyTasks.size() > 1 ? ", ..." : ""),
                             pct(g.share(a.copyOnDevice))});
    return true;
  }
  if (a.waitOnDevice * 2 >= g.len()) {
    b.cause = BubbleCause::DeviceWait;
    b.evidence = a.waitTasks;
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "the device waits on an event/notify task (%1) for %2 of the gap: a stream "
                                      "dependency or a collective on another stream"),
                            {trace.sliceName(a.waitTasks.front()), pct(g.share(a.waitOnDevice))});
    return true;
  }
  return false;
}

/// The launch of the task that ends the gap: a collective whose host launch API covers a quarter
/// of the gap (slow dispatch), or a task launched before the device went idle (queued on the
/// device). True when one of them decides the cause.
bool launchCause(const GapContext& g, Bubble& b, TimeNs skewBound) {
  const Trace& trace = g.trace;
  const TimeRange gap = g.gap;
  // The gap ends at a collective whose host launch API (AscendCL@hcom_*) covers a fair part of it:
  // the dequeue thread was launching the collective and the operators behind it waited.
  if (b.endsAtCollective)
    if (const ChainLink* api = b.chain.find(ChainLayer::CannApi)) {
      const TimeRange r = trace.sliceRange(api->slice);
      const TimeNs ov = std::min(r.end, gap.end) - std::max(r.start, gap.start);
      if (ov * 4 >= g.len()) {
        b.cause = BubbleCause::SlowDispatch;
        b.evidence = {api->slice};
        if (const ChainLink* launch = b.chain.find(ChainLayer::Launch)) b.evidence.push_back(launch->slice);
        b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "collective launch: %1 was launching %2 for %3 of the gap; the operators "
                                          "behind it in the queue waited"),
                                {describe(trace, api->slice), trace.sliceName(b.after), pct(g.share(ov))});
        return true;
      }
    }
  // The task was launched before the device went idle: the host was not late, the device held it.
  if (b.launched == LaunchTiming::BeforeGapStart && !b.chain.launchTs && b.chain.issuedDuring) {
    const ChainLink* op = b.chain.find(ChainLayer::TorchOp);
    b.cause = BubbleCause::Queued;
    b.evidence = {b.after};
    if (op) b.evidence.push_back(op->slice);
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "%1 was issued by %2, which ended %3 before the device went idle, and "
                                      "started only when the gap ended: the host was ahead, the delay is on the device side "
                                      "(the launch itself is not recorded: the runtime record sits at the kernel's own start)"),
                            {trace.sliceName(b.after), op ? std::string(trace.sliceName(op->slice)) : std::string("?"),
                             formatDuration(gap.start - (b.chain.issuedDuring->end - skewBound))});
    return true;
  }
  if (b.launched == LaunchTiming::BeforeGapStart && b.chain.launchTs) {
    b.cause = BubbleCause::Queued;
    b.evidence = {b.after};
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "%1 was launched %2 before the device went idle and started only when the gap "
                                      "ended: the host was ahead, the delay is on the device side (no task of this "
                                      "device in the trace explains it)"),
                            {trace.sliceName(b.after), formatDuration(gap.start - (*b.chain.launchTs - skewBound))});
    return true;
  }
  return false;
}

/// The ACLOP path holds a quarter of the gap: online compilation, else the ACLOP execution on the
/// host outside compilation. True when one of them decides the cause.
bool aclopCause(const GapContext& g, Bubble& b) {
  const Trace& trace = g.trace;
  const Hit& compile = g.act.compile;
  const Hit& aclop = g.act.aclop;
  if (compile.overlap * 4 >= g.len() && compile.r.valid()) {
    b.cause = BubbleCause::AclopCompile;
    b.evidence = {compile.r};
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "operator compilation: %1 (%2 of the gap)"),
                            {describe(trace, compile.r), pct(g.share(compile.overlap))});
    if (aclop.r.valid())
      b.detail += i18n::format(npuTr("npuscope::core::Bubbles", ", inside %1 %2"),
                               {trace.sliceName(aclop.r), formatDuration(trace.sliceRange(aclop.r).duration())});
    return true;
  }
  if (aclop.overlap * 4 >= g.len() && aclop.r.valid()) {
    b.cause = BubbleCause::AclopExecute;
    b.evidence = {aclop.r};
    const TimeNs total = trace.sliceRange(aclop.r).duration();
    const TimeNs compileNs = childTime(trace, aclop.r, isCompileStep);
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "%1: compile step %2, the rest (%3) is the ACLOP path on the host outside "
                                      "compilation (%4 of the gap)"),
                            {describe(trace, aclop.r), formatDuration(compileNs), formatDuration(total - compileNs),
                             pct(g.share(aclop.overlap))});
    return true;
  }
  return false;
}

/// With a task queue: enqueued before the device went idle, launched after it. The main thread
/// had done its part; the dequeue thread launched late (busy with earlier operators). True when
/// that decides the cause.
bool queueCause(const GapContext& g, Bubble& b, TimeNs skewBound) {
  const Trace& trace = g.trace;
  const ChainLink* enq = b.chain.find(ChainLayer::Enqueue);
  const ChainLink* deq = b.chain.find(ChainLayer::Dequeue);
  if (!(enq && deq && b.launched == LaunchTiming::AfterGapStart &&
        trace.sliceRange(enq->slice).start < g.gap.start + skewBound))
    return false;
  b.cause = BubbleCause::SlowDispatch;
  b.evidence = {enq->slice, deq->slice};
  b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "queue side: %1 was enqueued %2 before the device went idle but dequeued %3 "
                                    "after its Enqueue: the dequeue thread was busy with earlier operators "
                                    "(Enqueue/Dequeue %4, CANN %5 of the gap)"),
                          {trace.sliceName(deq->slice),
                           formatDuration(g.gap.start + skewBound - trace.sliceRange(enq->slice).start),
                           formatDuration(trace.sliceRange(deq->slice).start - trace.sliceRange(enq->slice).start),
                           pct(g.share(totalOf(unionOf(g.act.queue)))), pct(g.share(totalOf(unionOf(g.act.cannSide))))});
  return true;
}

/// One kind of host call holds the gap: a synchronisation (running when the device ran out of
/// work, or over a quarter of the gap), a host-to-device copy (a quarter) or data loading (half).
/// True when one of them decides the cause.
bool hostCallCause(const GapContext& g, Bubble& b) {
  const Trace& trace = g.trace;
  const GapActivity& a = g.act;
  const Hit& s = a.syncAtStart.r.valid() ? a.syncAtStart : a.sync;
  if (s.r.valid() && (a.syncAtStart.r.valid() || s.overlap * 4 >= g.len())) {
    b.cause = BubbleCause::Synchronization;
    b.evidence = {s.r};
    b.detail = i18n::format(a.syncAtStart.r.valid()
                                ? npuTr("npuscope::core::Bubbles", "%1 was waiting for the device when it ran out of work (%2 of the gap)")
                                : npuTr("npuscope::core::Bubbles", "%1 (%2 of the gap)"),
                            {describe(trace, s.r), pct(g.share(s.overlap))});
    return true;
  }
  if (a.h2d.overlap * 4 >= g.len() && a.h2d.r.valid()) {
    b.cause = BubbleCause::HostToDeviceCopy;
    b.evidence = {a.h2d.r};
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "%1 (%2 of the gap)"), {describe(trace, a.h2d.r), pct(g.share(a.h2d.overlap))});
    return true;
  }
  const TimeNs loaderNs = totalOf(unionOf(a.loader));
  if (loaderNs * 2 >= g.len() && !a.loader.empty()) {
    b.cause = BubbleCause::DataLoading;
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "data loading covers %1 of the gap"), {pct(g.share(loaderNs))});
    return true;
  }
  return false;
}

/// One host op holds the gap and is one of its name's first, slow calls: warm-up, not a
/// steady-state cost (docs/diagnosis.md §3, rule 10). True when that decides the cause.
bool firstCallCause(const GapContext& g, Bubble& b, NameFlags& flags) {
  const Trace& trace = g.trace;
  const Hit& longest = g.act.longest;
  if (!(g.len() >= kFirstCallMinGapNs && longest.r.valid() && longest.overlap * 2 >= g.len())) return false;
  const TimeRange r = trace.sliceRange(longest.r);
  const NameFlags::CallStats* st = flags.callStats(trace.lanes[longest.r.lane].names[longest.r.index]);
  if (!(st && st->count >= 3 && r.duration() >= 10 * st->median && r.start < st->warmEnd)) return false;
  b.cause = BubbleCause::FirstCall;
  b.evidence = {longest.r};
  b.detail = i18n::format(npuTr("npuscope::core::Bubbles",
                                "warm-up: %1 covers %2 of the gap and is one of the first calls of %3, whose median "
                                "call takes %4 (%5 calls): a one-off cost (autotuning, lazy initialisation, "
                                "first-time compilation or allocation), not the steady state"),
                          {describe(trace, longest.r), pct(g.share(longest.overlap)), trace.sliceName(longest.r),
                           formatDuration(st->median), std::to_string(st->count)});
  return true;
}

/// The host busy half the gap starting at least three launches or torch ops: slow dispatch, with
/// the shares of the host layers that were busy.
void busyDispatchCause(const GapContext& g, Bubble& b) {
  const GapActivity& a = g.act;
  const double coverage = b.hostCoverage;
  b.cause = BubbleCause::SlowDispatch;
  b.evidence = a.launchSlices;
  const std::string launched = countNoun(a.launches, npuTr("npuscope::core::Bubbles", "launch"), npuTr("npuscope::core::Bubbles", "launches"));
  const std::string started =
      g.torch ? i18n::format(npuTr("npuscope::core::Bubbles", "%1 and %2"), {countNoun(a.ops, npuTr("npuscope::core::Bubbles", "torch op"), npuTr("npuscope::core::Bubbles", "torch ops")), launched})
              : launched;
  const std::string pyShare = pct(g.share(totalOf(unionOf(a.pythonSide)))), cannShare = pct(g.share(totalOf(unionOf(a.cannSide))));
  if (g.kineto)
    b.detail = i18n::format(g.torch ? npuTr("npuscope::core::Bubbles", "the host was busy dispatching: %1 started in the gap (host busy %2: "
                                              "torch ops %3, runtime API %4 of the gap)")
                                    : npuTr("npuscope::core::Bubbles", "the host was busy dispatching: %1 started in the gap (host busy %2: "
                                              "framework %3, runtime API %4 of the gap)"),
                            {started, pct(coverage), pyShare, cannShare});
  else
    b.detail = i18n::format(g.torch ? npuTr("npuscope::core::Bubbles", "the host was busy dispatching: %1 started in the gap (host busy %2: "
                                              "torch ops %3, Enqueue/Dequeue %4, CANN %5 of the gap)")
                                    : npuTr("npuscope::core::Bubbles", "the host was busy dispatching: %1 started in the gap (host busy %2: "
                                              "framework %3, Enqueue/Dequeue %4, CANN %5 of the gap)"),
                            {started, pct(coverage), pyShare, pct(g.share(totalOf(unionOf(a.queue)))), cannShare});
}

/// The last rules, by how much of the gap the host was busy: busy dispatching, idle (Python
/// outside torch, with GC as evidence), or no rule deciding (partly busy, or busy but starting
/// little); without a framework layer an idle CANN layer leaves the cause unknown.
void coverageCause(const GapContext& g, Bubble& b) {
  const GapActivity& a = g.act;
  const Trace& trace = g.trace;
  const double coverage = b.hostCoverage;
  if (coverage >= 0.5 && a.launches + a.ops >= 3) {
    busyDispatchCause(g, b);
    return;
  }
  if (coverage < 0.2 && !g.torch) {
    // No framework layer (MindSpore / GE graph mode through msprof): an idle CANN layer does not
    // say the host was idle; the cause stays unknown (docs/diagnosis.md §3, wording).
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "no CANN activity for %1 of the gap, and the framework layer (e.g. MindSpore / "
                                      "GE graph mode) is not in this capture: what the host did is not recorded, the "
                                      "cause cannot be told"),
                            {pct(1.0 - coverage)});
    return;
  }
  if (const ChainLink* rec = b.chain.find(ChainLayer::Launch);
      coverage < 0.2 && rec && rec->via == "kernel_record" && b.launched == LaunchTiming::Unknown) {
    // A Kineto record of the kernel and no op known to have issued it: the host was idle in the
    // gap, but whether the kernel was already waiting on the device cannot be told.
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "no torch op or runtime activity for %1 of the gap, but when %2 was launched is "
                                      "not recorded (its runtime record sits at the kernel's own start and no op carries its "
                                      "External id): whether the device waited for the host cannot be told"),
                            {pct(1.0 - coverage), trace.sliceName(b.after)});
    return;
  }
  if (coverage < 0.2) {
    b.cause = BubbleCause::HostIdle;
    b.detail = i18n::format(g.kineto ? npuTr("npuscope::core::Bubbles", "no torch op or runtime activity for %1 of the gap: Python work outside "
                                                 "torch, data loading or GC")
                                     : npuTr("npuscope::core::Bubbles", "no torch/CANN activity for %1 of the gap: Python work outside torch, "
                                                 "data loading or GC"),
                            {pct(1.0 - coverage)});
    if (a.gc.r.valid()) {
      b.evidence = {a.gc.r};
      b.detail += i18n::format(npuTr("npuscope::core::Bubbles", "; Python GC ran for %1 of it"), {formatDuration(a.gc.overlap)});
    }
    return;
  }
  if (coverage < 0.5) {
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "host partly busy (%1): no rule decides the cause"), {pct(coverage)});
    return;
  }
  const std::size_t started = a.ops + a.launches;
  const std::string what =
      started == 0
          ? (g.torch ? npuTr("npuscope::core::Bubbles", "no torch op or launch") : npuTr("npuscope::core::Bubbles", "no launch"))
          : i18n::format(npuTr("npuscope::core::Bubbles", "only %1"),
                         {g.torch ? countNoun(started, npuTr("npuscope::core::Bubbles", "torch op/launch"), npuTr("npuscope::core::Bubbles", "torch ops/launches"))
                                  : countNoun(started, npuTr("npuscope::core::Bubbles", "launch"), npuTr("npuscope::core::Bubbles", "launches"))});
  b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "host busy %1 but %2 started in the gap: no rule decides the cause"),
                          {pct(coverage), what});
}

/// The cause of one bubble: the rules of docs/diagnosis.md §3, in order; the first that decides
/// sets the cause, its evidence and its detail.
void classifyWith(const Trace& trace, int device, bool hostRecorded, Bubble& b, TimeNs skewBound, NameFlags& flags) {
  const TimeRange gap = b.range;
  b.detail.clear();
  b.hostSlices.clear();
  b.evidence.clear();
  b.hostCoverage = 0;
  b.cause = BubbleCause::Unknown;
  if (gap.empty()) return;
  GapContext g{trace, gap, gatherActivity(trace, device, gap, b.after, flags), detail::isKinetoTrace(trace),
               detail::torchLayerRecorded(trace)};
  b.hostSlices = std::move(g.act.hostSlices);
  b.hostCoverage = g.share(totalOf(unionOf(g.act.busy)));
  if (!hostRecorded) {
    b.detail = g.kineto ? npuTr("npuscope::core::Bubbles", "the host layer (torch ops, runtime calls) was not recorded in this capture: the "
                                    "cause cannot be told")
                        : npuTr("npuscope::core::Bubbles", "the host layers (Python, CANN) were not recorded in this capture: the cause cannot "
                                    "be told");
    return;
  }
  if (deviceSideCause(g, b) || launchCause(g, b, skewBound) || aclopCause(g, b) || queueCause(g, b, skewBound) ||
      hostCallCause(g, b) || firstCallCause(g, b, flags))
    return;
  coverageCause(g, b);
}

}  // namespace

void classifyBubble(const Trace& trace, int device, bool hostRecorded, Bubble& b, TimeNs skewBound) {
  NameFlags flags(trace);
  classifyWith(trace, device, hostRecorded, b, skewBound, flags);
}

namespace detail {

namespace {

/// The device tasks around gap `g` on `deviceLanes`: the last one ending by its start (b.before)
/// and the first starting at its end (b.after). On a Kineto stream only compute, communication
/// and copy slices count (a gpu_user_annotation span or a cuda_sync record is no task).
void locateNeighbours(const Trace& trace, const std::vector<std::uint32_t>& deviceLanes, TimeRange g, Bubble& b) {
  TimeNs bestBefore = INT64_MIN, bestAfter = INT64_MAX;
  b.before = {};
  b.after = {};
  for (std::uint32_t l : deviceLanes) {
    const Lane& lane = trace.lanes[l];
    const bool kineto = isKinetoDeviceLane(trace, l);
    const auto notATask = [&](std::uint32_t i) {
      return kineto && kinetoTaskKindOf(trace, {l, i}) == KinetoTaskKind::NotATask;
    };
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      const auto b0 = lane.end.begin() + lane.rowBegin[d], e0 = lane.end.begin() + lane.rowBegin[d + 1];
      auto it = std::upper_bound(b0, e0, g.start);
      while (it != b0 && notATask(static_cast<std::uint32_t>(it - lane.end.begin()) - 1)) --it;
      if (it != b0) {
        const auto i = static_cast<std::uint32_t>(it - lane.end.begin()) - 1;
        if (lane.end[i] > bestBefore) {
          bestBefore = lane.end[i];
          b.before = {l, i};
        }
      }
      auto st = std::lower_bound(lane.start.begin() + lane.rowBegin[d], lane.start.begin() + lane.rowBegin[d + 1], g.end);
      while (st != lane.start.begin() + lane.rowBegin[d + 1] && notATask(static_cast<std::uint32_t>(st - lane.start.begin())))
        ++st;
      if (st != lane.start.begin() + lane.rowBegin[d + 1]) {
        const auto i = static_cast<std::uint32_t>(st - lane.start.begin());
        if (lane.start[i] < bestAfter) {
          bestAfter = lane.start[i];
          b.after = {l, i};
        }
      }
    }
  }
}

/// Everything about one gap: neighbours, the chain of the task that ends it (skew applied), when
/// that task was launched, and the cause.
void examine(const Trace& trace, const DeviceAnalysis& da, const std::vector<std::uint32_t>& deviceLanes,
             const std::vector<std::uint32_t>& collectiveLanes, bool hostRecorded, TimeRange g, Bubble& b,
             NameFlags& flags) {
  b.range = g;
  b.device = da.device;
  b.chain = {};
  b.launched = LaunchTiming::Unknown;
  b.endsAtCollective = false;
  locateNeighbours(trace, deviceLanes, g, b);
  // A collective starting exactly at the gap's end ends it: its own launch chain is the one that
  // matters (its first device task has no HostToDevice flow of its own).
  for (std::uint32_t l : collectiveLanes) {
    const Lane& lane = trace.lanes[l];
    const auto b0 = lane.start.begin() + lane.rowBegin[0], e0 = lane.start.begin() + lane.rowBegin[1];
    auto it = std::lower_bound(b0, e0, g.end);
    if (it != e0 && *it == g.end) {
      b.after = {l, static_cast<std::uint32_t>(it - lane.start.begin())};
      b.endsAtCollective = true;
      break;
    }
  }
  if (b.endsAtCollective) {
    b.chain = dispatchChain(trace, b.after);
    applySkew(b.chain, da.skew);
  } else if (b.after.valid()) {
    b.chain = dispatchChain(trace, b.after);
    applySkew(b.chain, da.skew);
    // HTA's split: was the task launched after the device went idle (the device waited for the
    // host) or before (it was queued)? Launch time on the device clock: s - skew bound.
    if (b.chain.launchTs)
      b.launched = *b.chain.launchTs - da.skew.bound >= g.start ? LaunchTiming::AfterGapStart : LaunchTiming::BeforeGapStart;
    else if (const auto& op = b.chain.issuedDuring) {
      // Only the op that issued the task is recorded (a Kineto kernel record): the launch lies
      // inside it, so it is before the gap when the op ended before, after when it started after,
      // and unknown when the op spans the gap's start.
      if (op->end - da.skew.bound < g.start) b.launched = LaunchTiming::BeforeGapStart;
      else if (op->start - da.skew.bound >= g.start) b.launched = LaunchTiming::AfterGapStart;
    }
  }
  classifyWith(trace, da.device, hostRecorded, b, da.skew.bound, flags);
  // A gap inside a running HCCL op (between its own tasks: a database export whose Communication
  // is the small tasks, Trace::communicationFromTasks) is the collective waiting for its group,
  // never the host's doing (910A database corpus: 341 us inside hcom_allReduce__307_0_1 between
  // its MEMCPY_ASYNC and NOTIFY_RECORD).
  for (std::uint32_t l : collectiveLanes) {
    const Lane& lane = trace.lanes[l];
    const auto b0 = lane.start.begin() + lane.rowBegin[0], e0 = lane.start.begin() + lane.rowBegin[1];
    auto it = std::upper_bound(b0, e0, g.start);
    if (it == b0) continue;
    const auto i = static_cast<std::uint32_t>(it - lane.start.begin()) - 1;
    if (lane.end[i] < g.end) continue;
    b.cause = BubbleCause::DeviceWait;
    b.evidence = {SliceRef{l, i}};
    b.detail = i18n::format(npuTr("npuscope::core::Bubbles", "inside the collective %1, between its own tasks: the device waits for the "
                                                           "other members of its group, not for the host (this export counts "
                                                           "Communication from the HCCL tasks, so the gap is Free)"),
                            {trace.sliceName(SliceRef{l, i})});
    return;
  }
  if (b.endsAtCollective && b.cause != BubbleCause::SlowDispatch)
    b.detail += i18n::format(npuTr("npuscope::core::Bubbles", "; the gap ends at the collective %1"), {trace.sliceName(b.after)});
}

}  // namespace

std::vector<Bubble> findBubbles(const Trace& trace, const DeviceAnalysis& da, const std::vector<StepWindow>& steps,
                                const AnalysisOptions& options, std::size_t* found, TimeNs* foundNs, CauseTotals* causes) {
  std::vector<TimeRange> gaps;
  TimeNs gapsNs = 0;
  for (const TimeRange& f : da.free)
    if (f.duration() >= options.bubbleThresholdNs) {
      gaps.push_back(f);
      gapsNs += f.duration();
    }
  if (found) *found = gaps.size();
  if (foundNs) *foundNs = gapsNs;
  const bool hostRecorded = hostLayersRecorded(trace);
  std::vector<std::uint32_t> deviceLanes, collectiveLanes;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Process& p = trace.processes[trace.lanes[l].process];
    if (detail::isDeviceTaskLane(trace, l) && p.deviceId == da.device) deviceLanes.push_back(l);
    // The HCCL big ops (group threads; "Plane" threads hold their tasks), as the overlap uses them.
    if (detail::isCollectiveLane(trace, trace.lanes[l]) && p.deviceId == da.device && trace.lanes[l].depthCount() > 0)
      collectiveLanes.push_back(l);
  }
  NameFlags flags(trace);  // name tests, once per name for all gaps
  // The cause of every gap, for the totals the verdict summarises (docs/diagnosis.md §2.3).
  if (causes) {
    *causes = {};
    Bubble scratch;
    for (std::size_t k = 0; k < gaps.size(); ++k) {
      if ((k & 255) == 255 && options.stop.stop_requested()) break;
      examine(trace, da, deviceLanes, collectiveLanes, hostRecorded, gaps[k], scratch, flags);
      const auto c = static_cast<std::size_t>(scratch.cause);
      causes->ns[c] += gaps[k].duration();
      ++causes->count[c];
    }
  }
  std::stable_sort(gaps.begin(), gaps.end(), [](const TimeRange& a, const TimeRange& b) { return a.duration() > b.duration(); });
  if (gaps.size() > options.maxBubbles) gaps.resize(options.maxBubbles);
  std::vector<Bubble> out;
  for (const TimeRange& g : gaps) {
    if (options.stop.stop_requested()) break;  // each bubble scans the host lanes and walks a chain
    Bubble b;
    for (const StepWindow& s : steps)
      if (s.device.contains(g.start)) {
        b.step = s.number;
        break;
      }
    if (b.step < 0)  // between device windows: the host step that was running
      for (const StepWindow& s : steps)
        if (s.host.contains(g.start)) {
          b.step = s.number;
          break;
        }
    examine(trace, da, deviceLanes, collectiveLanes, hostRecorded, g, b, flags);
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace detail
}  // namespace npuscope::core
