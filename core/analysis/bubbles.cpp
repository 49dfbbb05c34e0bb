// SPDX-License-Identifier: MIT
// Bubbles: device idle gaps (Free intervals), the host activity during each, and a cause label.

#include <algorithm>
#include <cstdio>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/model/slice_args.h"
#include "core/base/time_format.h"

namespace npuscope::core {

const char* bubbleCauseKey(BubbleCause c) {
  switch (c) {
    case BubbleCause::Synchronization: return "synchronization";
    case BubbleCause::HostToDeviceCopy: return "host_to_device_copy";
    case BubbleCause::SlowDispatch: return "slow_dispatch";
    case BubbleCause::HostIdle: return "host_idle";
    case BubbleCause::CommunicationWait: return "communication_wait";
    case BubbleCause::Unknown: return "unknown";
  }
  return "unknown";
}

const char* bubbleCauseLabel(BubbleCause c) {
  switch (c) {
    case BubbleCause::Synchronization: return "Synchronization";
    case BubbleCause::HostToDeviceCopy: return "HostToDevice copy";
    case BubbleCause::SlowDispatch: return "Slow dispatch";
    case BubbleCause::HostIdle: return "Host idle";
    case BubbleCause::CommunicationWait: return "Communication wait";
    case BubbleCause::Unknown: return "Unknown";
  }
  return "Unknown";
}

namespace {

bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool isSyncName(std::string_view n) {
  return has(n, "aclrtSynchronize") || has(n, "SynchronizeStream") || has(n, "SynchronizeDevice") ||
         has(n, "aten::item") || has(n, "aten::_local_scalar_dense") || has(n, "Tensor.item") ||
         has(n, "aclrtSynchronizeEvent") || has(n, "aten::is_nonzero") || has(n, "aten::nonzero");
}
bool isH2DName(std::string_view n) {
  return has(n, "aclrtMemcpy") || has(n, "acl_memcpy_host_to_device") || has(n, "HostToDevice") ||
         has(n, "MemcpyAsync") || has(n, "aten::pin_memory");
}
bool isCompileName(std::string_view n) { return has(n, "aclopCompileAndExecute") || has(n, "opCompile"); }
bool isWaitTask(std::string_view n) { return has(n, "EVENT_WAIT") || has(n, "Notify Wait") || has(n, "Notify_Wait"); }
bool isDataLoader(std::string_view n) { return has(n, "DataLoader") || has(n, "dataloader"); }

std::string pct(double f) {
  char b[16];
  std::snprintf(b, sizeof b, "%.0f%%", f * 100.0);
  return b;
}

/// The first user frame of a torch op's "Call stack" arg (with_stack), e.g. "train.py(88): main".
std::string callerOf(const Trace& trace, SliceRef op) {
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

}  // namespace

BubbleCause classifyBubble(const Trace& trace, TimeRange gap, std::string& detail, std::vector<SliceRef>& hostSlices) {
  detail.clear();
  hostSlices.clear();
  if (gap.empty()) return BubbleCause::Unknown;
  const double len = static_cast<double>(gap.duration());
  struct Hit { SliceRef r; TimeNs overlap; };
  Hit sync{{}, 0}, h2d{{}, 0}, compile{{}, 0}, loader{{}, 0};
  std::vector<TimeRange> busy;
  std::size_t launches = 0, ops = 0;
  TimeNs waitOnDevice = 0;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const auto role = trace.processes[lane.process].role;
    const bool host = role == Process::Role::Python || role == Process::Role::Cann || role == Process::Role::PythonGc;
    const bool device = role == Process::Role::AscendHardware;
    if (!host && !device) continue;
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      // Slices of this row overlapping the gap: rows are disjoint and sorted.
      auto it = std::upper_bound(lane.end.begin() + lane.rowBegin[d], lane.end.begin() + lane.rowBegin[d + 1], gap.start);
      for (auto i = static_cast<std::uint32_t>(it - lane.end.begin()); i < lane.rowBegin[d + 1] && lane.start[i] < gap.end; ++i) {
        const TimeNs ov = std::min(lane.end[i], gap.end) - std::max(lane.start[i], gap.start);
        if (ov <= 0) continue;
        const std::string_view n = trace.name(lane.names[i]);
        if (device) {
          if (isWaitTask(n)) waitOnDevice += ov;
          continue;
        }
        if (n.rfind("ProfilerStep#", 0) == 0) continue;
        const SliceRef r{l, i};
        const std::string_view cat = trace.name(lane.categories[i]);
        if (hostSlices.size() < 24 && cat != "python_function") hostSlices.push_back(r);
        if (isSyncName(n) && ov > sync.overlap) sync = {r, ov};
        if (isH2DName(n) && ov > h2d.overlap) h2d = {r, ov};
        if (isCompileName(n) && ov > compile.overlap) compile = {r, ov};
        if (isDataLoader(n) && ov > loader.overlap) loader = {r, ov};
        if (cat == "python_function" || isDataLoader(n)) continue;
        busy.push_back({std::max(lane.start[i], gap.start), std::min(lane.end[i], gap.end)});
        if (lane.start[i] >= gap.start) {
          if (n.rfind("Dequeue", 0) == 0 || has(n, "launch") || n.rfind("AscendCL@aclnn", 0) == 0) ++launches;
          if (cat == "cpu_op") ++ops;
        }
      }
    }
  }
  const double coverage = static_cast<double>(totalOf(unionOf(busy))) / len;
  auto describe = [&](const Hit& h) {
    std::string s = std::string(trace.sliceName(h.r)) + " " + formatDuration(trace.sliceRange(h.r).duration());
    // For a CANN API, the torch op on the same OS thread tells where it was called from.
    SliceRef op = h.r;
    if (trace.processes[trace.lanes[h.r.lane].process].role == Process::Role::Cann) {
      const auto py = detail::laneByRoleAndTid(trace, Process::Role::Python, trace.lanes[h.r.lane].tid);
      if (py != kInvalidIndex) {
        const auto idx = trace.lanes[py].enclosingSlice(trace.lanes[h.r.lane].start[h.r.index]);
        if (idx != kInvalidIndex) {
          op = {py, idx};
          if (trace.sliceName(op).rfind("ProfilerStep#", 0) != 0) s += " in " + std::string(trace.sliceName(op));
        }
      }
    }
    const std::string caller = callerOf(trace, op);
    if (!caller.empty()) s += " called from " + caller;
    return s;
  };
  if (sync.overlap * 4 >= gap.duration()) {
    detail = describe(sync) + " (" + pct(static_cast<double>(sync.overlap) / len) + " of the gap)";
    return BubbleCause::Synchronization;
  }
  if (h2d.overlap * 4 >= gap.duration()) {
    detail = describe(h2d) + " (" + pct(static_cast<double>(h2d.overlap) / len) + " of the gap)";
    return BubbleCause::HostToDeviceCopy;
  }
  if (compile.overlap * 4 >= gap.duration()) {
    detail = "operator compilation: " + describe(compile);
    return BubbleCause::SlowDispatch;
  }
  if (waitOnDevice * 2 >= gap.duration()) {
    detail = "the device waits on an event/notify task for " + pct(static_cast<double>(waitOnDevice) / len) + " of the gap";
    return BubbleCause::CommunicationWait;
  }
  if (loader.overlap * 2 >= gap.duration()) {
    detail = "data loading: " + describe(loader);
    return BubbleCause::HostIdle;
  }
  if (coverage >= 0.5 && launches + ops >= 3) {
    detail = "the host was busy dispatching: " + std::to_string(ops) + " torch ops and " + std::to_string(launches) +
             " launches started in the gap (host busy " + pct(coverage) + ")";
    return BubbleCause::SlowDispatch;
  }
  if (coverage < 0.2) {
    detail = "no torch/CANN activity for " + pct(1.0 - coverage) + " of the gap: Python work outside torch or data loading";
    return BubbleCause::HostIdle;
  }
  if (launches + ops > 0) {
    detail = "host partly busy (" + pct(coverage) + "), " + std::to_string(ops + launches) + " ops/launches in the gap";
    return BubbleCause::SlowDispatch;
  }
  detail = "host busy " + pct(coverage) + " without launches";
  return BubbleCause::Unknown;
}

namespace detail {

std::vector<Bubble> findBubbles(const Trace& trace, const DeviceAnalysis& da, const std::vector<StepWindow>& steps,
                                const AnalysisOptions& options, std::size_t* found, TimeNs* foundNs) {
  std::vector<TimeRange> gaps;
  TimeNs gapsNs = 0;
  for (const TimeRange& f : da.free)
    if (f.duration() >= options.bubbleThresholdNs) {
      gaps.push_back(f);
      gapsNs += f.duration();
    }
  if (found) *found = gaps.size();
  if (foundNs) *foundNs = gapsNs;
  std::stable_sort(gaps.begin(), gaps.end(), [](const TimeRange& a, const TimeRange& b) { return a.duration() > b.duration(); });
  if (gaps.size() > options.maxBubbles) gaps.resize(options.maxBubbles);
  std::vector<std::uint32_t> deviceLanes;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Process& p = trace.processes[trace.lanes[l].process];
    if (detail::isDeviceTaskLane(trace, l) && p.deviceId == da.device) deviceLanes.push_back(l);
  }
  std::vector<Bubble> out;
  for (const TimeRange& g : gaps) {
    if (options.stop.stop_requested()) break;  // each bubble scans the host lanes and walks a chain
    Bubble b;
    b.range = g;
    b.device = da.device;
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
    // The device tasks around the gap: the last one ending by its start, the first starting at its end.
    TimeNs bestBefore = INT64_MIN, bestAfter = INT64_MAX;
    for (std::uint32_t l : deviceLanes) {
      const Lane& lane = trace.lanes[l];
      for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
        const auto b0 = lane.end.begin() + lane.rowBegin[d], e0 = lane.end.begin() + lane.rowBegin[d + 1];
        auto it = std::upper_bound(b0, e0, g.start);
        if (it != b0) {
          const auto i = static_cast<std::uint32_t>(it - lane.end.begin()) - 1;
          if (lane.end[i] > bestBefore) {
            bestBefore = lane.end[i];
            b.before = {l, i};
          }
        }
        auto st = std::lower_bound(lane.start.begin() + lane.rowBegin[d], lane.start.begin() + lane.rowBegin[d + 1], g.end);
        if (st != lane.start.begin() + lane.rowBegin[d + 1]) {
          const auto i = static_cast<std::uint32_t>(st - lane.start.begin());
          if (lane.start[i] < bestAfter) {
            bestAfter = lane.start[i];
            b.after = {l, i};
          }
        }
      }
    }
    b.cause = classifyBubble(trace, g, b.detail, b.hostSlices);
    if (b.after.valid()) {
      b.chain = dispatchChain(trace, b.after);
      const std::string_view next = trace.sliceName(b.after);
      if (next.rfind("hcom", 0) == 0 && b.cause != BubbleCause::Synchronization) {
        b.cause = BubbleCause::CommunicationWait;
        b.detail = "the gap ends with the collective " + std::string(next) + (b.detail.empty() ? "" : "; " + b.detail);
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace detail
}  // namespace npuscope::core
