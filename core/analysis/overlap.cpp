// SPDX-License-Identifier: MIT
// Overlap Analysis per device and per step, computed from the device tasks with CANN's rules
// (../shared/docs/ascend-profiling-format.md §4.1) and compared with what the profiler recorded
// (the trace's Overlap Analysis lanes and step_trace_time.csv, §4.2).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/base/time_limits.h"
#include "core/analysis/analysis.h"
#include "core/analysis/task_kinds.h"
#include "core/analysis/trace_query.h"
#include "core/base/parse_number.h"
#include "core/model/slice_args.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"

namespace npuscope::core {

namespace {


std::optional<long long> stepNumber(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  // The leading digits; more than fit a long long (they would wrap) is no step number.
  const std::string_view rest = name.substr(kPrefix.size());
  std::size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  return parseInteger<long long>(rest.substr(0, n));
}

/// A sorted, disjoint interval set read in place: an Intervals, or the start/end columns of a
/// lane whose slices already form such a set (the Overlap Analysis lanes), so that those need
/// no copy.
struct SetView {
  const TimeRange* ranges = nullptr;  ///< Intervals storage, or null for columns
  const TimeNs* starts = nullptr;
  const TimeNs* ends = nullptr;
  std::size_t n = 0;
  static SetView of(const Intervals& v) { return {v.data(), nullptr, nullptr, v.size()}; }
  [[nodiscard]] TimeNs start(std::size_t i) const { return ranges ? ranges[i].start : starts[i]; }
  [[nodiscard]] TimeNs end(std::size_t i) const { return ranges ? ranges[i].end : ends[i]; }
  /// First index whose start is >= t.
  [[nodiscard]] std::size_t lowerBound(TimeNs t) const {
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (start(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  [[nodiscard]] TimeNs total() const {
    TimeNs t = 0;
    for (std::size_t i = 0; i < n; ++i) t += end(i) - start(i);
    return t;
  }
};

OverlapFigures figuresStartingIn(SetView c, SetView m, SetView no, SetView f, TimeRange w, TimeRange* span = nullptr) {
  // One pass per set: the summed durations of the intervals starting in the window, and the
  // stage-like span min start .. max end of those intervals.
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  const auto sumStartingIn = [&](const SetView& set) {
    std::size_t i = set.lowerBound(w.start);
    TimeNs sum = 0;
    if (i < set.n && set.start(i) < w.end) lo = std::min(lo, set.start(i));
    for (; i < set.n && set.start(i) < w.end; ++i) {
      sum += set.end(i) - set.start(i);
      hi = std::max(hi, set.end(i));
    }
    return sum;
  };
  OverlapFigures o;
  o.computing = sumStartingIn(c);
  o.communication = sumStartingIn(m);
  o.commNotOverlapped = sumStartingIn(no);
  o.overlapped = o.communication - o.commNotOverlapped;
  o.free = sumStartingIn(f);
  o.e2e = lo <= hi ? hi - lo : 0;
  if (span) *span = lo <= hi ? TimeRange{lo, hi} : TimeRange{};
  return o;
}

std::string us(TimeNs ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(ns) / 1000.0);
  return buf;
}

/// msprof's iterations as steps, for a trace without ProfilerStep#N (an msprof export, format
/// notes §6): the `Iteration N` slices (cat `Iteration Time`) of a `Step Trace...` thread, i.e.
/// msprof's Step Trace(Model ID:k) thread under Ascend Hardware or step_trace's own process.
/// They are device-side windows (FP start .. iteration end), so host and device get the slice's
/// range; the caller then widens the device window to the tasks attributed to it by time.
std::vector<StepWindow> msprofIterationSteps(const Trace& trace) {
  std::vector<StepWindow> steps;
  constexpr std::string_view kPrefix = "Iteration ";
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    if (!lane.name.starts_with("Step Trace") && !trace.processes[lane.process].name.starts_with("Step Trace")) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const std::string_view name = trace.strings.view(lane.names[i]);
      if (!name.starts_with(kPrefix)) continue;
      const auto n = parseInteger<long long>(name.substr(kPrefix.size()));
      if (!n) continue;  // "Iteration Refresh 3" and other markers
      StepWindow s;
      s.number = *n;
      s.host = {lane.start[i], lane.end[i]};
      s.hostSlice = {l, i};
      s.iteration = true;
      steps.push_back(s);
    }
  }
  return steps;
}

}  // namespace

std::vector<StepWindow> stepWindows(const Trace& trace, const std::stop_token& stop) {
  std::vector<StepWindow> steps;
  constexpr std::size_t kPoll = detail::kAnalysisStopPoll - 1;
  // Which distinct names are ProfilerStep#N, and their numbers: decided once per name.
  std::vector<bool> isStep(trace.strings.size(), false);
  std::unordered_map<NameId, long long> stepOf;
  for (NameId id = 0; id < isStep.size(); ++id)
    if (const auto n = stepNumber(trace.strings.view(id))) {
      isStep[id] = true;
      stepOf.emplace(id, *n);
    }
  for (std::uint32_t l = 0; !stepOf.empty() && l < trace.lanes.size(); ++l) {
    if (stop.stop_requested()) return steps;
    const Lane& lane = trace.lanes[l];
    const auto role = trace.processes[lane.process].role;
    if (role != Process::Role::Python && role != Process::Role::Other) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      if ((i & kPoll) == kPoll && stop.stop_requested()) return steps;
      if (!isStep[lane.names[i]]) continue;
      StepWindow s;
      s.number = stepOf[lane.names[i]];
      s.host = {lane.start[i], lane.end[i]};
      s.hostSlice = {l, i};
      steps.push_back(s);
    }
  }
  if (steps.empty()) steps = msprofIterationSteps(trace);
  std::sort(steps.begin(), steps.end(), [](const StepWindow& a, const StepWindow& b) { return a.host.start < b.host.start; });
  // Nested duplicates (a ProfilerStep inside another) keep the outermost.
  steps.erase(std::unique(steps.begin(), steps.end(),
                          [](const StepWindow& a, const StepWindow& b) { return a.number == b.number; }),
              steps.end());
  if (steps.empty()) return steps;
  // Kernels launched from each host step, through async_npu flows (torch op -> device task): a
  // launch at host time t widens the device window of every step whose host window holds t
  // (start <= t <= end). One pass over the flows, no copy of them.
  std::vector<TimeNs> maxEnd(steps.size());  // running max of host.end, to stop scanning back
  for (std::size_t k = 0; k < steps.size(); ++k)
    maxEnd[k] = std::max(steps[k].host.end, k ? maxEnd[k - 1] : INT64_MIN);
  std::vector<TimeNs> launchLo(steps.size(), INT64_MAX), launchHi(steps.size(), INT64_MIN);
  bool anyLaunch = false;
  // Kineto traces (format notes §6.1) link the runtime launch to its kernel with ac2g flows
  // instead: the launch is inside the torch op, so its ts lies in the same host step.
  const NameId asyncNpu = trace.strings.find("async_npu"), ac2g = trace.strings.find("ac2g");
  if (asyncNpu != kInvalidIndex || ac2g != kInvalidIndex)
    for (std::size_t n = 0; n < trace.flows.size(); ++n) {
      if ((n & kPoll) == kPoll && stop.stop_requested()) return steps;
      const Flow& f = trace.flows[n];
      if (f.category != asyncNpu && !(f.category == ac2g && f.to.valid() && detail::isDeviceTaskLane(trace, f.to.lane)))
        continue;
      // A Kineto record of the kernel is no launch: the op that issued the kernel places it.
      TimeNs t = f.fromTs;
      if (f.category == ac2g && detail::isKernelRecord(trace, f)) {
        const SliceRef op = detail::kinetoIssuingOp(trace, f.from);
        if (!op.valid()) continue;
        t = trace.lanes[op.lane].start[op.index];
      }
      anyLaunch = true;
      auto it = std::upper_bound(steps.begin(), steps.end(), t, [](TimeNs v, const StepWindow& s) { return v < s.host.start; });
      if (it == steps.begin()) continue;
      const TimeRange task = trace.sliceRange(f.to);
      for (auto k = static_cast<std::size_t>(it - steps.begin()); k-- > 0 && maxEnd[k] >= t;)
        if (steps[k].host.end >= t) {
          launchLo[k] = std::min(launchLo[k], task.start);
          launchHi[k] = std::max(launchHi[k], task.end);
        }
    }
  if (anyLaunch) {
    for (std::size_t k = 0; k < steps.size(); ++k) {
      StepWindow& s = steps[k];
      const TimeNs lo = launchLo[k], hi = launchHi[k];
      s.device = {lo <= hi ? lo : s.host.start, std::max(s.host.end, lo <= hi ? hi : s.host.end)};
    }
    return steps;
  }
  // No flows: attribute device tasks to the last step that started at or before them.
  std::vector<TimeNs>& lo = launchLo;
  std::vector<TimeNs>& hi = launchHi;
  for (const Lane& lane : trace.lanes) {
    if (stop.stop_requested()) return steps;
    if (!detail::isDeviceTaskLane(trace, static_cast<std::uint32_t>(&lane - trace.lanes.data())) &&
        trace.processes[lane.process].role != Process::Role::Communication)
      continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      if ((i & kPoll) == kPoll && stop.stop_requested()) return steps;
      const TimeRange t{lane.start[i], lane.end[i]};
      auto it = std::upper_bound(steps.begin(), steps.end(), t.start,
                                 [](TimeNs v, const StepWindow& s) { return v < s.host.start; });
      std::size_t k = it == steps.begin() ? 0 : static_cast<std::size_t>(it - steps.begin()) - 1;
      if (k + 1 == steps.size() && t.start > steps[k].host.end) continue;  // after the last step
      lo[k] = std::min(lo[k], t.start);
      hi[k] = std::max(hi[k], t.end);
    }
  }
  for (std::size_t k = 0; k < steps.size(); ++k)
    steps[k].device = {lo[k] <= hi[k] ? lo[k] : steps[k].host.start,
                       std::max(steps[k].host.end, lo[k] <= hi[k] ? hi[k] : steps[k].host.end)};
  return steps;
}

namespace detail {

bool isDeviceTaskLane(const Trace& trace, std::uint32_t lane) { return isDeviceTaskLane(trace, trace.lanes[lane]); }

bool isDeviceTaskLane(const Trace& trace, const Lane& l) {
  const Process::Role role = trace.processes[l.process].role;
  return (role == Process::Role::AscendHardware && !l.name.starts_with("Step Trace")) ||
         role == Process::Role::KinetoDevice;
}

bool isKinetoDeviceLane(const Trace& trace, std::uint32_t lane) {
  return lane < trace.lanes.size() && trace.processes[trace.lanes[lane].process].role == Process::Role::KinetoDevice;
}

KinetoTaskKind kinetoTaskKindOf(const Trace& trace, SliceRef r) {
  const Lane& lane = trace.lanes[r.lane];
  return kinetoTaskKind(trace.name(lane.categories[r.index]), trace.name(lane.names[r.index]));
}

bool isCollectiveLane(const Trace& trace, const Lane& l) {
  return trace.processes[l.process].role == Process::Role::Communication && !l.name.starts_with("Plane");
}

std::string noDeviceNote(const Trace& trace) {
  if (!isKinetoTrace(trace)) return npuTr("npuscope::core::Overlap", "no Ascend Hardware lanes: no device analysis");
  const NameId range = trace.strings.find("cuda_profiler_range");
  for (const Lane& lane : trace.lanes)
    if (range != kInvalidIndex && std::find(lane.categories.begin(), lane.categories.end(), range) != lane.categories.end())
        return npuTr("npuscope::core::Overlap", "Kineto trace without kernel, gpu_memcpy or gpu_memset events: it holds CUPTI range-profiler "
                         "records (cuda_profiler_range), kernels replayed one at a time to read their counters, whose "
                         "times are the replays and not the kernels' timeline: no device analysis");
  return npuTr("npuscope::core::Overlap", "Kineto trace without kernel, gpu_memcpy or gpu_memset events on a device stream: no device analysis");
}

bool isKinetoTrace(const Trace& trace) {
  for (const Process& p : trace.processes)
    if (p.role == Process::Role::KinetoDevice) return true;
  return false;
}

bool isGpuDevice(const Trace& trace, int device) {
  for (const Process& p : trace.processes)
    if (p.role == Process::Role::KinetoDevice && p.deviceId == device && p.label.starts_with("GPU")) return true;
  return false;
}

DeviceTasks collectDeviceTasks(const Trace& trace, int device, const KernelDetails* kernels,
                               const std::stop_token& stop) {
  DeviceTasks d;
  constexpr std::size_t kPoll = kAnalysisStopPoll - 1;
  std::unordered_set<TimeNs> kernelStarts;
  if (kernels)
    for (const KernelRow& k : kernels->rows)
      if (k.start && !k.isCommunication() && (k.device < 0 || device < 0 || k.device == device))
        kernelStarts.insert(*k.start);
  UnionBuilder compute, comm, copies;
  std::size_t matched = 0, commOps = 0;
  // Per distinct name: 0 not seen yet, 1 hcom_ task (communication on a stream), 2 excluded
  // (HCCL AIV / MC2 AICPU kernel), 3 compute by Task Type, 4 not compute by Task Type, 5 other
  // (decided by kernel_details.csv). The Task Type arg is parsed once per kernel name (a kernel
  // name has one task type), which keeps this O(names) in args parsing rather than O(tasks).
  std::vector<std::uint8_t> kind(trace.strings.size(), 0);
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    if (stop.stop_requested()) return d;
    const Lane& lane = trace.lanes[l];
    const Process& p = trace.processes[lane.process];
    if (p.deviceId != device && !(device < 0 && p.deviceId < 0)) continue;
    if (p.role == Process::Role::AscendHardware) {
      if (!isDeviceTaskLane(trace, l)) continue;  // msprof's Step Trace markers are not tasks
      d.hardwareLanes.push_back(l);
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        if ((i & kPoll) == kPoll && stop.stop_requested()) return d;
        const TimeRange r{lane.start[i], lane.end[i]};
        std::uint8_t& k = kind[lane.names[i]];
        if (k == 0) {
          const std::string_view name = trace.name(lane.names[i]);
          if (name.rfind("hcom_", 0) == 0) k = 1;
          else if (isExcludedKernel(name)) k = 2;
          else if (!kernelStarts.empty()) k = 5;
          else {
            const auto type = sliceArg(trace, {l, i}, "Task Type").value_or("");
            k = isComputeTask(type, name) ? 3 : 4;
          }
        }
        if (k == 1) {
          d.hcomOnStreams.push_back(r);
        } else if (k == 5) {
          if (kernelStarts.count(r.start)) {
            compute.add(r);
            d.computeTasks.push_back({l, i});
            ++matched;
          }
        } else if (k == 3) {
          compute.add(r);
          d.computeTasks.push_back({l, i});
        }
      }
    } else if (p.role == Process::Role::KinetoDevice) {
      // A Kineto stream (§6.1): kernels are compute, collective kernels communication, copies
      // neither (they fall in Free, as CANN's MEMCPY tasks do); sync records and annotations
      // are no tasks. The rule is per (category, name), decided once per pair.
      d.hardwareLanes.push_back(l);
      d.kineto = true;
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        if ((i & kPoll) == kPoll && stop.stop_requested()) return d;
        const TimeRange r{lane.start[i], lane.end[i]};
        switch (kinetoTaskKindOf(trace, {l, i})) {
          case KinetoTaskKind::Compute:
            compute.add(r);
            d.computeTasks.push_back({l, i});
            break;
          case KinetoTaskKind::Communication:
            comm.add(r);
            ++commOps;
            break;
          case KinetoTaskKind::Copy: copies.add(r); break;
          case KinetoTaskKind::NotATask: break;
        }
      }
    } else if (p.role == Process::Role::Communication) {
      // HCCL big ops live on the group threads ("Group x Communication"); "Plane k" threads hold
      // the small tasks, which are not the communication set, except where the export's own figure
      // is their union (Trace::communicationFromTasks: a database without OVERLAP_ANALYSIS; the
      // reader gives that union, Trace::communicationTasks, applied below).
      if (!isCollectiveLane(trace, lane)) continue;
      d.communicationLanes.push_back(l);
      for (std::uint32_t i = lane.rowBegin[0]; i < lane.rowBegin[std::min<std::size_t>(1, lane.depthCount())]; ++i) {
        if ((i & kPoll) == kPoll && stop.stop_requested()) return d;
        comm.add({lane.start[i], lane.end[i]});
        ++commOps;
      }
    } else if (p.role == Process::Role::OverlapAnalysis) {
      d.overlapLanes.push_back(l);
    }
  }
  if (!kernelStarts.empty() && matched == 0 && kernels) {
    // kernel_details.csv did not match this trace's tasks: fall back to task types, and say so
    // (the recursive call sets its own rule text; replace it).
    DeviceTasks byType = collectDeviceTasks(trace, device, nullptr, stop);
    byType.computeRule = i18n::format(npuTr("npuscope::core::Overlap", "kernel_details.csv does not match this trace (none of its %1 distinct "
                                                "compute start times is a device task's start), so: %2"),
                                      {std::to_string(kernelStarts.size()), byType.computeRule});
    return byType;
  }
  if (d.computeRule.empty() && d.kineto)
    d.computeRule = npuTr("npuscope::core::Overlap", "Kineto trace: cat kernel, except collective kernels (nccl/rccl/hccl in the name, "
                              "hcom_*); gpu_memcpy/gpu_memset are copies, not compute");
  if (d.computeRule.empty())
    d.computeRule = !kernelStarts.empty()
                        ? i18n::format(npuTr("npuscope::core::Overlap", "kernel_details.csv (%1 matched by start time)"),
                                       {countNoun(matched, npuTr("npuscope::core::Overlap", "task"), npuTr("npuscope::core::Overlap", "tasks"))})
                        : npuTr("npuscope::core::Overlap", "Task Type AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE, and Other-typed "
                                    "tasks not named like memcpy/event/notify tasks");
  d.compute = compute.take();
  d.communication = comm.take();
  d.copies = copies.take();
  if (commOps == 0 && !d.hcomOnStreams.empty()) d.communication = unionOf(d.hcomOnStreams);
  if (trace.communicationFromTasks)
    for (const auto& [dev, tasks] : trace.communicationTasks)
      if (dev == device && !tasks.empty()) d.communication = tasks;
  return d;
}

}  // namespace detail

namespace {

OverlapFigures totals(const SetView* sets) {
  OverlapFigures o;
  o.computing = sets[0].total();
  o.communication = sets[1].total();
  o.commNotOverlapped = sets[2].total();
  o.overlapped = o.communication - o.commNotOverlapped;
  o.free = sets[3].total();
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (int k = 0; k < 4; ++k)
    if (sets[k].n) {
      lo = std::min(lo, sets[k].start(0));
      hi = std::max(hi, sets[k].end(sets[k].n - 1));
    }
  o.e2e = lo <= hi ? hi - lo : 0;
  return o;
}

/// The union of each Overlap Analysis lane (Computing, Communication, Communication(Not
/// Overlapped), Free) as sets[0..3], and their whole-capture figures. A lane that is already
/// sorted, disjoint and without empty or touching slices (as the profiler writes them) is read in
/// place; any other is unioned into owned[k].
std::optional<OverlapFigures> laneFigures(const Trace& trace, const std::vector<std::uint32_t>& lanes, SetView* sets,
                                          Intervals* owned) {
  if (lanes.empty()) return std::nullopt;
  for (auto l : lanes) {
    const Lane& lane = trace.lanes[l];
    const int k = lane.name == "Computing"                       ? 0
                  : lane.name == "Communication"                 ? 1
                  : lane.name == "Communication(Not Overlapped)" ? 2
                  : lane.name == "Free"                          ? 3
                                                                 : -1;
    if (k < 0) continue;
    const std::size_t n = lane.sliceCount();
    bool clean = lane.depthCount() <= 1;
    for (std::size_t i = 0; clean && i < n; ++i)
      clean = lane.start[i] < lane.end[i] && (i == 0 || lane.start[i] > lane.end[i - 1]);
    if (clean) {
      owned[k].clear();
      sets[k] = {nullptr, lane.start.data(), lane.end.data(), n};
      continue;
    }
    UnionBuilder u;
    for (std::uint32_t i = 0; i < n; ++i) u.add({lane.start[i], lane.end[i]});
    owned[k] = u.take();
    sets[k] = SetView::of(owned[k]);
  }
  return totals(sets);
}

void compare(std::vector<std::string>& out, const std::string& what, TimeNs computed, TimeNs recorded) {
  if (std::llabs(computed - recorded) <= 1000) return;
  out.push_back(i18n::format(npuTr("npuscope::core::Overlap", "%1: computed %2, recorded %3 (difference %4)"),
                             {what, us(computed), us(recorded), us(computed - recorded)}));
}

/// The device task of `dev` starting exactly at `t`, or an invalid ref.
SliceRef taskStartingAt(const Trace& trace, int dev, TimeNs t) {
  for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
    const Lane& lane = trace.lanes[li];
    if (!detail::isDeviceTaskLane(trace, lane) || trace.processes[lane.process].deviceId != dev) continue;
    const auto it = std::lower_bound(lane.start.begin(), lane.start.end(), t);
    if (it != lane.start.end() && *it == t) return {li, static_cast<std::uint32_t>(it - lane.start.begin())};
  }
  return {};
}

/// Busy time isolated at an edge of the device activity (docs/diagnosis.md §1.1; IsolatedActivity).
std::vector<IsolatedActivity> isolatedActivity(const Trace& trace, const DeviceAnalysis& da) {
  std::vector<IsolatedActivity> out;
  const Intervals busy = mergeUnion(da.computing, da.communication);
  const std::size_t n = busy.size();
  if (n < 3) return out;
  const std::size_t maxK = std::max<std::size_t>(1, n / 100);
  const auto isolated = [](TimeNs gap, TimeNs rest) {
    return gap >= kIsolatedMinGapNs && static_cast<double>(gap) > kIsolatedGapFactor * static_cast<double>(rest);
  };
  const auto figuresOver = [&](TimeRange w) {
    OverlapFigures f;
    f.computing = coveredIn(da.computing, w);
    f.communication = coveredIn(da.communication, w);
    f.commNotOverlapped = coveredIn(da.commNotOverlapped, w);
    f.overlapped = f.communication - f.commNotOverlapped;
    f.free = coveredIn(da.free, w);
    f.e2e = w.duration();
    return f;
  };
  // Leading: the first k intervals, then a gap; the rest spans busy[k].start .. the last end.
  for (std::size_t k = 1; k <= maxK && k + 2 <= n; ++k) {
    const TimeNs gap = busy[k].start - busy[k - 1].end, rest = busy[n - 1].end - busy[k].start;
    if (!isolated(gap, rest)) continue;
    IsolatedActivity a;
    a.busy = {busy[0].start, busy[k - 1].end};
    a.gap = gap;
    a.leading = true;
    a.intervals = k;
    a.task = taskStartingAt(trace, da.device, busy[0].start);
    a.rest = {busy[k].start, busy[n - 1].end};
    a.without = figuresOver(a.rest);
    out.push_back(a);
    break;
  }
  for (std::size_t k = 1; k <= maxK && k + 2 <= n; ++k) {
    const TimeNs gap = busy[n - k].start - busy[n - k - 1].end, rest = busy[n - k - 1].end - busy[0].start;
    if (!isolated(gap, rest)) continue;
    IsolatedActivity a;
    a.busy = {busy[n - k].start, busy[n - 1].end};
    a.gap = gap;
    a.leading = false;
    a.intervals = k;
    a.task = taskStartingAt(trace, da.device, busy[n - k].start);
    a.rest = {out.empty() ? busy[0].start : out.front().rest.start, busy[n - k - 1].end};
    a.without = figuresOver(a.rest);
    if (!out.empty()) out.front().without = a.without;  // both edges out: the same remainder
    out.push_back(a);
    break;
  }
  return out;
}

/// Slices of any lane far outside the rank's device activity (docs/diagnosis.md §1.1; FarEvents).
FarEvents farEvents(const Trace& trace, const std::vector<DeviceAnalysis>& devices) {
  FarEvents fe;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const DeviceAnalysis& d : devices) {
    TimeRange w{INT64_MAX, INT64_MIN};
    for (const Intervals* s : {&d.computing, &d.communication})
      if (!s->empty()) {
        w.start = std::min(w.start, s->front().start);
        w.end = std::max(w.end, s->back().end);
      }
    for (const IsolatedActivity& a : d.isolated) w = a.leading ? TimeRange{a.rest.start, w.end} : TimeRange{w.start, a.rest.end};
    lo = std::min(lo, w.start);
    hi = std::max(hi, w.end);
  }
  if (lo >= hi) return fe;
  fe.device = {lo, hi};
  const double margin = std::max(kIsolatedGapFactor * static_cast<double>(hi - lo), 1e9);
  const TimeNs m = static_cast<TimeNs>(std::min(margin, 1e18));
  const TimeNs before = lo > INT64_MIN + m ? lo - m : INT64_MIN, after = hi < INT64_MAX - m ? hi + m : INT64_MAX;
  for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
    const Lane& lane = trace.lanes[li];
    const auto first = std::lower_bound(lane.start.begin(), lane.start.end(), before);
    const auto last = std::upper_bound(lane.start.begin(), lane.start.end(), after);
    fe.count += static_cast<std::size_t>(first - lane.start.begin()) + static_cast<std::size_t>(lane.start.end() - last);
    if (first != lane.start.begin() && lo - lane.start.front() > fe.distance) {
      fe.distance = lo - lane.start.front();
      fe.farthest = {li, 0};
    }
    if (last != lane.start.end() && lane.start.back() - hi > fe.distance) {
      fe.distance = lane.start.back() - hi;
      fe.farthest = {li, static_cast<std::uint32_t>(lane.start.size() - 1)};
    }
  }
  return fe;
}

/// The Free time of a device from its Computing and Communication sets. Free = [begin, end] \ (C u M) over the span from the
/// first Computing/Communication interval to the last: the format notes (§4.1, from msprof's
/// source) put every device task in the span, but the Overlap Analysis lanes that torch_npu
/// captures actually hold start and end there; leading MEMCPY_ASYNC / PROFILING_ENABLE tasks are
/// not Free (checked on the 910A and 910B corpus captures, where the lanes' Free then matches to
/// within 0.01 us). Follow the data. Returns that span (begin >= end: no interval).
TimeRange computeFree(DeviceAnalysis& da, const Trace& trace, const std::vector<std::uint32_t>& overlapLanes) {
  TimeNs begin = INT64_MAX, end = INT64_MIN;
  for (const Intervals* s : {&da.computing, &da.communication})
    if (!s->empty()) {
      begin = std::min(begin, s->front().start);
      end = std::max(end, s->back().end);
    }
  // Where the profiler's own Free lane (Overlap Analysis) runs on past the last task, its span
  // does too: that idle time is Free of the last step (case 34: step 2's last task ends at
  // 2500 us, its Free slice at 2600 us: Free 100 us, E2E 600 us, as its step_trace_time.csv). The
  // corpus lanes end at the last task (torch_npu 910A/910B, MindSpore): no change there.
  if (begin < end)
    for (const std::uint32_t l : overlapLanes)
      if (const Lane& lane = trace.lanes[l]; lane.name == "Free" && lane.sliceCount() > 0)
        end = std::max(end, *std::max_element(lane.end.begin(), lane.end.end()));
  if (begin < end) da.free = gapsWithin(begin, end, da.computing, da.communication);
  return TimeRange{begin, end};
}

/// With msprof iterations as steps: moves the Free intervals that reach across a boundary between
/// two iterations (from one's end to the next one's start, both the `Iteration N` slices) out of
/// da.free into da.betweenIterations, whole: the device waits there for the next iteration
/// (msprof's Data_aug Bound), not inside one. Steps sorted by start.
void splitBetweenIterations(DeviceAnalysis& da, const std::vector<StepWindow>& steps) {
  if (steps.size() < 2 || !steps.front().iteration) return;
  Intervals keep;
  keep.reserve(da.free.size());
  std::size_t j = 0;  // boundary j: (steps[j].host.end, steps[j + 1].host.start)
  for (const TimeRange& f : da.free) {
    while (j + 1 < steps.size() && steps[j + 1].host.start <= f.start) ++j;
    const bool crosses = j + 1 < steps.size() && steps[j].host.end < steps[j + 1].host.start &&
                         f.start < steps[j + 1].host.start && f.end > steps[j].host.end;
    if (crosses) {
      da.betweenIterations.push_back(f);
      da.betweenIterationsNs += f.end - f.start;
    } else {
      keep.push_back(f);
    }
  }
  da.free = std::move(keep);
}

/// The computed figures of a device (its sets totalled, E2E the span computeFree returned).
void computedTotals(DeviceAnalysis& da, TimeRange span) {
  da.computed.computing = totalOf(da.computing);
  da.computed.communication = totalOf(da.communication);
  da.computed.commNotOverlapped = totalOf(da.commNotOverlapped);
  da.computed.overlapped = da.computed.communication - da.computed.commNotOverlapped;
  da.computed.free = totalOf(da.free);
  da.computed.e2e = span.start < span.end ? span.end - span.start : 0;
}

/// One step's figures: the computed ones of the intervals starting in `window` (and the
/// recorded lanes' when there are), the time from the host step's start to its first device
/// interval (preparing), and its step_trace_time.csv row for device `dev`.
StepOverlap stepOverlap(const DeviceAnalysis& da, const SetView* laneSets, long long number, TimeRange window,
                        TimeNs hostStart, const std::vector<StepTraceRow>* stepTrace, int dev) {
  StepOverlap so;
  so.step = number;
  so.window = window;
  so.computed = figuresStartingIn(SetView::of(da.computing), SetView::of(da.communication),
                                  SetView::of(da.commNotOverlapped), SetView::of(da.free), window, &so.span);
  if (da.lanes) so.lanes = figuresStartingIn(laneSets[0], laneSets[1], laneSets[2], laneSets[3], window);
  const SetView c = da.lanes ? laneSets[0] : SetView::of(da.computing);
  const SetView m = da.lanes ? laneSets[1] : SetView::of(da.communication);
  TimeNs first = INT64_MAX;
  for (const SetView* s : {&c, &m}) {
    const std::size_t i = s->lowerBound(window.start);
    if (i < s->n && s->start(i) < window.end) first = std::min(first, s->start(i));
  }
  if (first != INT64_MAX) so.preparing = first - hostStart;
  if (stepTrace)
    for (const StepTraceRow& row : *stepTrace)
      if ((row.step ? *row.step : -1) == number && (row.device < 0 || dev < 0 || row.device == dev)) so.csv = row;
  return so;
}

/// The discrepancies of each step with its step_trace_time.csv row: a figure (the lanes', else
/// the computed one) more than 1 us from the row's.
void compareStepTrace(DeviceAnalysis& da) {
  for (const StepOverlap& so : da.steps) {
    if (!so.csv) continue;
    const std::string step = so.step >= 0 ? std::to_string(so.step) : npuTr("npuscope::core::Overlap", "(all)");
    const OverlapFigures& basis = so.lanes ? *so.lanes : so.computed;
    const std::string src = so.lanes ? npuTr("npuscope::core::Overlap", "Overlap Analysis lanes") : npuTr("npuscope::core::Overlap", "computed");
    auto cmp = [&](const char* what, TimeNs v, double csvUs) {
      const TimeNs c = clampedNs(csvUs * 1000.0);
      if (std::llabs(v - c) > 1000)
        da.discrepancies.push_back(
            i18n::format(npuTr("npuscope::core::Overlap", "step %1 %2: %3 %4, %5 %6"), {step, what, src, us(v), std::string(so.csv->source), us(c)}));
    };
    cmp("Computing", basis.computing, so.csv->computing);
    cmp("Communication(Not Overlapped)", basis.commNotOverlapped, so.csv->commNotOverlapped);
    cmp("Communication", basis.communication, so.csv->communication);
    cmp("Free", basis.free, so.csv->free);
  }
}

}  // namespace

RankAnalysis analyzeRank(const Trace& trace, const KernelDetails* kernels, const std::vector<StepTraceRow>* stepTrace,
                         const AnalysisOptions& options) {
  RankAnalysis ra;
  const std::stop_token& stop = options.stop;
  // Polled between the phases below; the loops inside them poll every kAnalysisStopPoll items.
  const auto cancelled = [&] {
    if (!stop.stop_requested()) return false;
    ra.cancelled = true;
    return true;
  };
  ra.steps = stepWindows(trace, stop);
  if (cancelled()) return ra;
  std::set<int> deviceIds;
  for (const Lane& lane : trace.lanes) {
    const Process& p = trace.processes[lane.process];
    if (p.role == Process::Role::AscendHardware || p.role == Process::Role::KinetoDevice) deviceIds.insert(p.deviceId);
  }
  if (deviceIds.empty()) ra.notes.push_back(detail::noDeviceNote(trace));
  for (int dev : deviceIds) {
    DeviceAnalysis da;
    da.device = dev;
    detail::DeviceTasks tasks = detail::collectDeviceTasks(trace, dev, kernels, stop);
    if (cancelled()) return ra;
    if (tasks.kineto && tasks.compute.empty() && tasks.communication.empty()) {
      // A Kineto device process with no kernel at all (copies only, or only records that are no
      // tasks, e.g. the CUPTI range profiler's): nothing to analyse; an Ascend device keeps its
      // (empty) figures as before.
      ra.notes.push_back(i18n::format(npuTr("npuscope::core::Overlap", "device %1: %2"),
                                      {std::to_string(dev), detail::noDeviceNote(trace)}));
      continue;
    }
    da.computeSetRule = tasks.computeRule;
    da.computing = std::move(tasks.compute);
    da.communication = std::move(tasks.communication);
    da.commNotOverlapped = subtract(da.communication, da.computing);
    // The breakdowns and the fan-out only read the trace, the task list and commNotOverlapped: they
    // run on a second thread while this one does Free, the figures, the clock skew and the bubbles
    // (joined before `da` is stored; a return on cancel joins it too). Without a thread (none could
    // be started, or AnalysisOptions::threads == 1), inline.
    CommBreakdown comm;
    ComputeBreakdown compute;
    FanOut fan;
    const auto sideWork = [&] {
      comm = commBreakdown(trace, dev, da.commNotOverlapped, options.communication);
      comm.chip = options.chip;
      compute = computeBreakdown(trace, tasks.computeTasks, kernels);
      fan = fanOut(trace, dev);
    };
    std::jthread side;
    if (options.threads == 1) {
      sideWork();
    } else {
      try {
        side = std::jthread(sideWork);
      } catch (const std::system_error&) {
        sideWork();
      }
    }
    const auto joinSide = [&] {
      if (side.joinable()) side.join();
      da.comm = std::move(comm);
      da.comm.kineto = tasks.kineto;
      da.compute = std::move(compute);
      da.fanOut = fan;
    };
    if (cancelled()) return ra;
    const TimeRange span = computeFree(da, trace, tasks.overlapLanes);
    splitBetweenIterations(da, ra.steps);
    const TimeNs begin = span.start, end = span.end;
    if (cancelled()) return ra;
    computedTotals(da, span);
    SetView laneSets[4];
    Intervals laneOwned[4];
    da.lanes = laneFigures(trace, tasks.overlapLanes, laneSets, laneOwned);
    if (cancelled()) return ra;
    if (da.lanes) {
      compare(da.discrepancies, "Computing", da.computed.computing, da.lanes->computing);
      compare(da.discrepancies, "Communication", da.computed.communication, da.lanes->communication);
      compare(da.discrepancies, "Communication(Not Overlapped)", da.computed.commNotOverlapped,
              da.lanes->commNotOverlapped);
      compare(da.discrepancies, "Free", da.computed.free, da.lanes->free);
    }
    // Per step.
    if (ra.steps.empty()) {
      // The one row's window is the device span itself, [first start, last end): it ends where the
      // last task (or the profiler's Free lane) ends, not 1 ns past it. Every interval of the span
      // has a positive length, so each starts before that end and is counted.
      da.steps.push_back(stepOverlap(da, laneSets, -1, {begin, end == INT64_MIN ? begin : end}, begin, stepTrace, dev));
    } else {
      for (std::size_t k = 0; k < ra.steps.size(); ++k) {
        if (k % 64 == 63 && cancelled()) return ra;  // each step scans its intervals and the CSV rows
        da.steps.push_back(
            stepOverlap(da, laneSets, ra.steps[k].number, ra.steps[k].device, ra.steps[k].host.start, stepTrace, dev));
      }
    }
    compareStepTrace(da);
    da.isolated = isolatedActivity(trace, da);
    da.skew = clockSkew(trace, dev);
    da.bubbles = detail::findBubbles(trace, da, ra.steps, options, &da.gapsFound, &da.gapsFoundNs, &da.causes);
    joinSide();
    if (cancelled()) return ra;
    ra.devices.push_back(std::move(da));
  }
  ra.farEvents = farEvents(trace, ra.devices);
  ra.verdict = makeVerdict(trace, ra);
  cancelled();  // the verdict scans the CANN lanes once; a stop during it still flags the result
  return ra;
}

}  // namespace npuscope::core
