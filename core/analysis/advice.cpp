// SPDX-License-Identifier: MIT
// The verdict: the Top-Down method's reading of the figures (Free share above ~10% = the
// device starves; Computing dominant = operators; Communication dominant = collectives), with
// the advisor's dispatch rules (msprof-analyze: aclopCompileAndExecute >= 20 per step,
// synchronize-after-launch ratio > 0.5).

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/base/time_format.h"

namespace npuscope::core {

namespace {

std::string pct(double f) {
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", f * 100.0);
  return b;
}

const char* adviceFor(BubbleCause c) {
  switch (c) {
    case BubbleCause::Synchronization:
      return "Avoid host synchronisation inside the step: remove .item(), .cpu(), print() of device tensors and "
             "torch.npu.synchronize() from the training loop, or defer them (accumulate on the device and read "
             "every N steps).";
    case BubbleCause::HostToDeviceCopy:
      return "Overlap host-to-device copies with compute: pin host memory (DataLoader pin_memory=True), copy with "
             "non_blocking=True, and prefetch the next batch to the device.";
    case BubbleCause::SlowDispatch:
      return "The host cannot dispatch operators fast enough: fuse small operators, raise the batch size, keep the "
             "task queue on (TASK_QUEUE_ENABLE=1 or 2), bind cores, or use graph mode (torchair); for ACLOP "
             "compilation call torch_npu.npu.set_compile_mode(jit_compile=False).";
    case BubbleCause::HostIdle:
      return "The host is busy outside torch (data loading or Python work): raise DataLoader num_workers, use "
             "pin_memory and prefetch_factor, and move Python work off the critical path.";
    case BubbleCause::CommunicationWait:
      return "Devices wait for collectives or events: check for slow ranks and load imbalance, and overlap "
             "communication with computation.";
    case BubbleCause::Unknown:
      return "Inspect the largest bubbles on the timeline: the host activity around them tells what held the device up.";
  }
  return "";
}

std::size_t countNamed(const Trace& trace, std::string_view needle, TimeRange window) {
  // Whether each distinct name contains `needle`, decided once per name (-1: not yet).
  std::vector<std::int8_t> has(trace.strings.size(), -1);
  std::size_t n = 0;
  for (const Lane& lane : trace.lanes) {
    if (trace.processes[lane.process].role != Process::Role::Cann) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      std::int8_t& h = has[lane.names[i]];
      if (h < 0) h = trace.name(lane.names[i]).find(needle) != std::string_view::npos ? 1 : 0;
      if (h && window.contains(lane.start[i])) ++n;
    }
  }
  return n;
}

}  // namespace

Verdict makeVerdict(const Trace& trace, const RankAnalysis& ra) {
  Verdict v;
  if (ra.devices.empty()) {
    v.summary = "No device activity in this trace: open a capture with NPU activity to get the Top-Down analysis.";
    return v;
  }
  const DeviceAnalysis& da = *std::max_element(ra.devices.begin(), ra.devices.end(), [](const auto& a, const auto& b) {
    return a.computed.e2e < b.computed.e2e;
  });
  // The computed figures: the same ones the bubbles come from and the panels show. (The
  // recorded lanes are compared with them in DeviceAnalysis::discrepancies.)
  const OverlapFigures& f = da.computed;
  if (f.e2e <= 0) {
    v.summary = "The device span is empty.";
    return v;
  }
  const double e2e = static_cast<double>(f.e2e);
  const double free = static_cast<double>(f.free) / e2e, comp = static_cast<double>(f.computing) / e2e,
               comm = static_cast<double>(f.commNotOverlapped) / e2e;
  std::array<TimeNs, 6> byCause{};
  std::array<std::size_t, 6> countByCause{};
  for (const Bubble& b : da.bubbles) {
    byCause[static_cast<std::size_t>(b.cause)] += b.range.duration();
    ++countByCause[static_cast<std::size_t>(b.cause)];
  }
  const auto top = static_cast<std::size_t>(std::max_element(byCause.begin(), byCause.end()) - byCause.begin());
  const auto topCause = static_cast<BubbleCause>(top);
  const std::string figures = "Computing " + pct(comp) + ", Communication (Not Overlapped) " + pct(comm) + ", Free " +
                              pct(free) + " of " + formatDuration(f.e2e);
  if (free > 0.10) {
    v.summary = "Dispatch/host bound: the device is idle (Free) " + pct(free) + " of the time (" + formatDuration(f.free) +
                "), above the 10% mark; " + figures + ".";
    if (byCause[top] > 0) {
      const Bubble* example = nullptr;
      for (const Bubble& b : da.bubbles)
        if (b.cause == topCause) {
          example = &b;
          break;
        }
      v.summary += " Most of the listed bubble time (" + formatDuration(byCause[top]) + " in " +
                   std::to_string(countByCause[top]) + " bubble" + (countByCause[top] == 1 ? "" : "s") + ") is " +
                   bubbleCauseLabel(topCause) + (example && !example->detail.empty() ? ": " + example->detail : "") + ".";
      v.suggestions.push_back(adviceFor(topCause));
    }
    for (std::size_t c = 0; c < byCause.size(); ++c)
      if (c != top && byCause[c] * 5 >= f.free && byCause[c] > 0) v.suggestions.push_back(adviceFor(static_cast<BubbleCause>(c)));
  } else if (comm > comp) {
    v.summary = "Communication bound: communication that is not hidden behind computation takes " + pct(comm) +
                " of the time; " + figures + ".";
    v.suggestions.push_back("Overlap communication with computation (bucketed gradient all-reduce, async collectives), "
                            "check for slow ranks, and review the parallel strategy.");
  } else {
    v.summary = "Compute bound: the device computes " + pct(comp) + " of the time; " + figures + ".";
    v.suggestions.push_back("Look at the longest kernels in the statistics: check their shapes, formats (TransData) "
                            "and AI_CPU operators.");
  }
  // Advisor rule: many ACLOP compilations per step (MAX_OP_COMPILE_NUM = 20).
  const TimeRange all = trace.range.empty() ? TimeRange{INT64_MIN, INT64_MAX} : TimeRange{trace.range.start, trace.range.end + 1};
  const std::size_t compiles = countNamed(trace, "aclopCompileAndExecute", all);
  const std::size_t steps = std::max<std::size_t>(1, ra.steps.size());
  if (compiles / steps >= 20)
    v.suggestions.push_back(std::to_string(compiles) + " aclopCompileAndExecute calls (" + std::to_string(compiles / steps) +
                            " per step): call torch_npu.npu.set_compile_mode(jit_compile=False) and "
                            "torch_npu.npu.config.allow_internal_format=False.");
  std::vector<std::string> unique;
  for (auto& s : v.suggestions)
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  v.suggestions = std::move(unique);
  return v;
}

}  // namespace npuscope::core
