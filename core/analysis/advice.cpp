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
#include "core/analysis/trace_query.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"

namespace npuscope::core {

namespace {

std::string pct(double f) { return formatPercent(f, 1); }

/// bubbleCauseLabel(c) in the interface language: the widgets' translation of the same label
/// (context npuscope::widgets::AnalysisLabels, resources/translations/), English without one.
std::string causeLabel(BubbleCause c) { return i18n::lookup("npuscope::widgets::AnalysisLabels", bubbleCauseLabel(c)); }

/// The advice for a GPU of a Kineto trace, where it differs from the Ascend one (no CANN, no task
/// queue, no ACLOP, torch.cuda instead of torch.npu), translated; empty when the Ascend text applies.
std::string gpuAdviceFor(BubbleCause c) {
  switch (c) {
    case BubbleCause::Synchronization:
      return npuTr("npuscope::core::Verdict",
                   "Avoid host synchronisation inside the step: remove .item(), .cpu(), print() of device tensors and "
             "torch.cuda.synchronize() from the training loop, or defer them (accumulate on the device and read "
             "every N steps).");
    case BubbleCause::SlowDispatch:
      return npuTr("npuscope::core::Verdict",
                   "The host cannot launch kernels fast enough: fuse small operators, raise the batch size, or capture the "
             "step in a CUDA/HIP graph (torch.compile with mode=\"reduce-overhead\", torch.cuda.graphs).");
    default: return {};
  }
}

std::string adviceFor(BubbleCause c, bool gpu) {
  if (gpu)
    if (std::string g = gpuAdviceFor(c); !g.empty()) return g;
  switch (c) {
    case BubbleCause::DeviceCopy:
      return npuTr("npuscope::core::Verdict",
                   "Copies run on the device while it computes nothing: move host-device copies out of the step, copy "
             "with non_blocking=True from pinned memory, and keep tensors on the device.");
    case BubbleCause::DeviceWait:
      return npuTr("npuscope::core::Verdict",
                   "Streams wait on events: look at what the waiting stream depends on (a collective on another stream, "
             "a recorded event) and overlap or reorder the work.");
    case BubbleCause::Queued:
      return npuTr("npuscope::core::Verdict",
                   "Tasks were launched ahead of the device but it held them: look at what their streams wait for "
             "(events recorded on other streams, collectives) and overlap or reorder that work.");
    case BubbleCause::Synchronization:
      return npuTr("npuscope::core::Verdict",
                   "Avoid host synchronisation inside the step: remove .item(), .cpu(), print() of device tensors and "
             "torch.npu.synchronize() from the training loop, or defer them (accumulate on the device and read "
             "every N steps).");
    case BubbleCause::HostToDeviceCopy:
      return npuTr("npuscope::core::Verdict",
                   "Overlap host-to-device copies with compute: pin host memory (DataLoader pin_memory=True), copy with "
             "non_blocking=True, and prefetch the next batch to the device.");
    case BubbleCause::AclopCompile:
      return npuTr("npuscope::core::Verdict",
                   "Operators are compiled online (ACLOP): call torch_npu.npu.set_compile_mode(jit_compile=False) and "
             "torch_npu.npu.config.allow_internal_format=False so that prebuilt binaries are used.");
    case BubbleCause::AclopExecute:
      return npuTr("npuscope::core::Verdict",
                   "The ACLOP path (aclopCompileAndExecute) is slow on the host even without compiling: prefer the "
             "ACLNN operators (jit_compile=False), and check which operators still take the ACLOP path.");
    case BubbleCause::DataLoading:
      return npuTr("npuscope::core::Verdict",
                   "Data loading holds the step: raise DataLoader num_workers, use pin_memory and prefetch_factor.");
    case BubbleCause::FirstCall:
      return npuTr("npuscope::core::Verdict",
                   "The idle time is warm-up (the first, slow calls of operators): profile steps after it (profiler "
                   "schedule with wait and warmup steps, or skip_first) so that the figures show the steady state; the "
                   "shares of this capture overstate the idle time.");
    case BubbleCause::SlowDispatch:
      return npuTr("npuscope::core::Verdict",
                   "The host cannot dispatch operators fast enough: fuse small operators, raise the batch size, keep the "
             "task queue on (TASK_QUEUE_ENABLE=1 or 2), bind cores, or use graph mode (torchair, torch.compile).");
    case BubbleCause::HostIdle:
      return npuTr("npuscope::core::Verdict",
                   "The host does no torch work during the gaps: look at the Python code between operators (data "
             "preparation, logging, control flow, GC) and move it off the critical path.");
    case BubbleCause::Unknown:
      return {};
  }
  return {};
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

/// The end of the device activity the analysis saw (ns), else the trace's last event.
TimeNs coveredEnd(const Trace& trace, const RankAnalysis& ra) {
  TimeNs end = INT64_MIN;
  for (const DeviceAnalysis& d : ra.devices) {
    if (!d.computing.empty()) end = std::max(end, d.computing.back().end);
    if (!d.communication.empty()) end = std::max(end, d.communication.back().end);
  }
  return end == INT64_MIN ? trace.range.end : end;
}

/// The verdict of the figures; `body` receives the summary after its "headline: " prefix (the
/// partial-capture form puts its reason between the two).
Verdict verdictOfFigures(const Trace& trace, const RankAnalysis& ra, std::string& body);

}  // namespace

std::string partialCaptureReason(const Trace& trace) {
  std::string why;
  const auto add = [&why](const std::string& s) { why += (why.empty() ? "" : clauseSep()) + s; };
  const auto example = [&trace](ImportWarning w, const char* fallback) {
    for (const auto& [kind, text] : trace.stats.examples)
      if (kind == w) return text;
    return std::string(fallback);
  };
  if (trace.stats.count(ImportWarning::TruncatedEvent))
    add(i18n::format(npuTr("npuscope::core::Verdict", "%1 (the rest of the file is missing)"),
                     {example(ImportWarning::TruncatedEvent, "the file ends inside an event")}));
  if (trace.stats.count(ImportWarning::UnterminatedObject))
    add(i18n::format(npuTr("npuscope::core::Verdict", "%1 (the file may end early)"),
                     {example(ImportWarning::UnterminatedObject, "object form not closed")}));
  if (trace.stats.count(ImportWarning::TruncatedGzip))
    add(i18n::format(npuTr("npuscope::core::Verdict", "%1 (the rest of the file is missing)"),
                     {example(ImportWarning::TruncatedGzip, "gzip data ends early")}));
  for (const std::string& n : trace.notes) {
    if (n.find(" shrank from ") != std::string::npos) add(n);
    // json_trace_reader.cpp's note for an array form without its ']'.
    if (n.rfind("closing bracket added", 0) == 0)
      add(npuTr("npuscope::core::Verdict", "the event array was not closed: the profiler may have stopped before it finished writing"));
  }
  return why;
}

Verdict makeVerdict(const Trace& trace, const RankAnalysis& ra) {
  std::string body;
  Verdict v = verdictOfFigures(trace, ra, body);
  // A partial capture (docs/diagnosis.md §2.6): the figures hold for the part that was read
  // only, and say so first.
  v.partialReason = partialCaptureReason(trace);
  if (v.partialReason.empty()) return v;
  v.partial = true;
  v.coveredUntil = coveredEnd(trace, ra);
  std::string rest = std::move(body);
  if (!rest.empty() && rest[0] >= 'a' && rest[0] <= 'z') rest[0] = static_cast<char>(rest[0] - 'a' + 'A');
  v.headline = i18n::format(npuTr("npuscope::core::Verdict", "%1 (partial capture)"), {v.headline});
  const std::string until =
      *v.coveredUntil > trace.range.start
          ? i18n::format(npuTr("npuscope::core::Verdict", ", up to +%1 (ts %2 ns)"),
                         {formatDuration(*v.coveredUntil - trace.range.start), std::to_string(*v.coveredUntil)})
          : "";
  v.summary = i18n::format(npuTr("npuscope::core::Verdict", "%1: %2. The figures cover only the part that was read%3; what the profiler "
                                     "wrote after the cut is missing, so the shares may differ for the whole run. %4"),
                           {v.headline, v.partialReason, until, rest});
  return v;
}

namespace {

/// Sets the summary to "headline: b" and `body` to b (the verdict box drops that prefix by
/// comparing it with the headline, both in the same language).
void setSummary(Verdict& v, std::string& body, std::string b) {
  body = std::move(b);
  v.summary = i18n::format(npuTr("npuscope::core::Verdict", "%1: %2"), {v.headline, body});
}

/// "Computing c, Communication (Not Overlapped) m, Free fr of e2e": the shares of one span, with
/// the wait between msprof iterations when there is one (DeviceAnalysis::betweenIterations).
std::string figuresOf(double c, double m, double fr, TimeNs e2eNs, double between = 0) {
  if (between > 0)
    return i18n::format(npuTr("npuscope::core::Verdict", "Computing %1, Communication (Not Overlapped) %2, Free %3, between iterations %4 of %5"),
                        {pct(c), pct(m), pct(fr), pct(between), formatDuration(e2eNs)});
  return i18n::format(npuTr("npuscope::core::Verdict", "Computing %1, Communication (Not Overlapped) %2, Free %3 of %4"),
                      {pct(c), pct(m), pct(fr), formatDuration(e2eNs)});
}

/// The finding on the device's wait between msprof iterations (DeviceAnalysis::betweenIterations;
/// msprof's step trace records it as Data_aug Bound): how long, per gap against per iteration,
/// and that the run is data-bound when a gap outlasts an iteration on average. "" without one.
std::string betweenIterationsFinding(const DeviceAnalysis& da, const std::vector<StepWindow>& steps, double share) {
  if (da.betweenIterationsNs <= 0 || steps.empty()) return {};
  // Medians: the first iteration of a capture often waits long in its first collective (the
  // MindSpore corpus: 47.6 ms against 15.3 ms after), which a mean would take for the pace.
  const auto median = [](std::vector<TimeNs> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  };
  std::vector<TimeNs> its, gaps;
  for (const StepWindow& s : steps) its.push_back(s.host.end - s.host.start);
  for (const TimeRange& g : da.betweenIterations) gaps.push_back(g.end - g.start);
  const TimeNs perGap = median(gaps), perIteration = median(its);
  std::string s = i18n::format(
      npuTr("npuscope::core::Verdict", "Between its %1 iterations the device waits %2 (%3 of the span) for the next one: msprof's step "
                                       "trace records this time as Data_aug Bound (the next iteration's data is not ready). It is "
                                       "counted in no iteration, so it is neither Free of a step nor a bubble. %4 per gap against %5 "
                                       "per iteration (medians)"),
      {std::to_string(steps.size()), formatDuration(da.betweenIterationsNs), pct(share), formatDuration(perGap), formatDuration(perIteration)});
  s += perGap >= perIteration ? npuTr("npuscope::core::Verdict", ": the data arrives slower than an iteration runs, so the run is data-bound.")
                              : npuTr("npuscope::core::Verdict", ".");
  return s;
}

/// The method's order (docs/diagnosis.md §2): the dominant share of Computing, Communication (Not
/// Overlapped) and Free decides the headline, the summary and where to look first.
void decideDominant(Verdict& v, std::string& body, const OverlapFigures& f, double comp, double comm, double free,
                    bool gpu, double between = 0) {
  const std::string figures = figuresOf(comp, comm, free, f.e2e, between);
  if (between > comp && between > comm && between > free) {
    // msprof iterations separated by more waiting than anything inside them (DeviceAnalysis::
    // betweenIterations): the data pipeline sets the pace.
    v.dominant = "data";
    v.headline = npuTr("npuscope::core::Verdict", "Data-loading bound");
    setSummary(v, body, i18n::format(npuTr("npuscope::core::Verdict", "the device waits between iterations for their data %1 of the "
                                                                      "time; %2."),
                                     {pct(between), figures}));
    v.suggestions.push_back(npuTr("npuscope::core::Verdict", "Make the input pipeline keep up with the device: more parallel data workers "
                                                             "and prefetching (MindSpore dataset num_parallel_workers and prefetch, PyTorch "
                                                             "DataLoader num_workers and pin_memory), augmentation on the device, or data "
                                                             "sink mode."));
  } else if (comp >= comm && comp >= free) {
    v.dominant = "compute";
    v.headline = npuTr("npuscope::core::Verdict", "Compute bound");
    setSummary(v, body, i18n::format(npuTr("npuscope::core::Verdict", "the device computes %1 of the time; %2."), {pct(comp), figures}));
    v.suggestions.push_back(gpu ? npuTr("npuscope::core::Verdict", "Look at the longest kernels in the statistics first: their shapes, data "
                                           "types (mixed precision, tensor cores) and achieved TFLOPS against the GPU's peak.")
                                : npuTr("npuscope::core::Verdict", "Look at the longest kernels in the statistics first: their shapes, formats "
                                           "(TransData), TFLOPS against the chip's peak, and AI_CPU operators."));
  } else if (comm >= free) {
    v.dominant = "communication";
    v.headline = npuTr("npuscope::core::Verdict", "Communication bound");
    setSummary(v, body, i18n::format(npuTr("npuscope::core::Verdict", "communication that is not hidden behind computation takes %1 of the time; %2."),
                                     {pct(comm), figures}));
    v.suggestions.push_back(npuTr("npuscope::core::Verdict", "Look at the collectives first: check for a slow rank (the others wait for it), "
                                     "overlap communication with computation (bucketed gradient all-reduce, async "
                                     "collectives), and review the parallel strategy."));
  } else {
    v.dominant = "free";
    v.headline = npuTr("npuscope::core::Verdict", "Dispatch/host bound");
    setSummary(v, body, i18n::format(npuTr("npuscope::core::Verdict", "the device is idle (Free) %1 of the time (%2); %3."),
                                     {pct(free), formatDuration(f.free), figures}));
  }
}

/// The finding for busy time isolated far from the rest, which stretches E2E and Free (docs/
/// diagnosis.md §1.1): the figures without it, and whether the dominant share would differ.
std::string isolatedActivityFinding(const Trace& trace, const IsolatedActivity& ia, const std::string& dominant) {
  const OverlapFigures& w = ia.without;
  const std::string name =
      ia.task.valid() ? std::string(trace.sliceName(ia.task)) : npuTr("npuscope::core::Verdict", "device activity");
  const std::string intervals = ia.intervals == 1 ? npuTr("npuscope::core::Verdict", "one busy interval")
                                                  : i18n::format(npuTr("npuscope::core::Verdict", "%1 busy intervals"),
                                                                 {std::to_string(ia.intervals)});
  std::string s = i18n::format(
      ia.leading ? npuTr("npuscope::core::Verdict", "The device span includes isolated activity: %1 at ts %2 ns (+%3), %4 %5 before the "
                             "rest of the device activity, which spans %6. Free and E2E above include that gap; "
                             "without it: ")
                 : npuTr("npuscope::core::Verdict", "The device span includes isolated activity: %1 at ts %2 ns (+%3), %4 %5 after the "
                             "rest of the device activity, which spans %6. Free and E2E above include that gap; "
                             "without it: "),
      {name, std::to_string(ia.busy.start), formatDuration(ia.busy.start - trace.range.start), intervals,
       formatDuration(ia.gap), formatDuration(w.e2e)});
  if (w.e2e > 0) {
    const double we = static_cast<double>(w.e2e);
    const double wc = static_cast<double>(w.computing) / we, wm = static_cast<double>(w.commNotOverlapped) / we,
                 wf = static_cast<double>(w.free) / we;
    s += figuresOf(wc, wm, wf, w.e2e);
    const std::string dom = wc >= wm && wc >= wf ? "compute" : wm >= wf ? "communication" : "free";
    s += dom == dominant ? npuTr("npuscope::core::Verdict", " (the same dominant share).")
                         : npuTr("npuscope::core::Verdict", "; the dominant share differs, so the headline depends on whether that "
                                     "activity belongs to the run.");
  }
  return s;
}

/// The finding for events far from the device activity that stretch the trace's span.
std::string farEventsFinding(const Trace& trace, const FarEvents& fe) {
  const TimeNs ts = trace.sliceRange(fe.farthest).start;
  return i18n::format(
      ts < fe.device.start
          ? npuTr("npuscope::core::Verdict", "The trace's span (%1) is stretched by %2 far from the device activity (%3): the farthest, "
                      "%4 on %5, at ts %6 ns, %7 before it. The Top-Down figures use the device activity only; its "
                      "clock or epoch may differ.")
          : npuTr("npuscope::core::Verdict", "The trace's span (%1) is stretched by %2 far from the device activity (%3): the farthest, "
                      "%4 on %5, at ts %6 ns, %7 after it. The Top-Down figures use the device activity only; its "
                      "clock or epoch may differ."),
      {formatDuration(trace.range.duration()),
       countNoun(fe.count, npuTr("npuscope::core::Verdict", "event"), npuTr("npuscope::core::Verdict", "events")),
       formatDuration(fe.device.duration()), trace.sliceName(fe.farthest),
       trace.processes[trace.lanes[fe.farthest.lane].process].name, std::to_string(ts),
       formatDuration(fe.distance)});
}

/// The sentence on the bubbles: the cause holding the most bubble time and the runner-up holding
/// a fifth of it, or why no cause can be told (the host layers not recorded).
std::string bubbleCausesText(const Verdict& v, const CauseTotals& ct, TimeNs bubbleNs, bool gpu) {
  const auto ti = static_cast<std::size_t>(v.topCause);
  std::size_t all = 0;
  for (auto n : ct.count) all += n;
  if (!v.hostRecorded)
    return i18n::format(
        gpu ? npuTr("npuscope::core::Verdict", "The %1 device gaps of 10 us or more (%2) cannot be explained: the host layer (torch ops, "
                        "runtime calls) was not recorded. Capture with the CPU activity on (torch.profiler "
                        "ProfilerActivity.CPU) to see what held the device up.")
            : npuTr("npuscope::core::Verdict", "The %1 device gaps of 10 us or more (%2) cannot be explained: the host layers (Python, "
                        "CANN) were not recorded. Capture with the CPU activity on (torch_npu.profiler "
                        "ProfilerActivity.CPU) to see what held the device up."),
        {std::to_string(all), formatDuration(bubbleNs)});
  std::string s = i18n::format(npuTr("npuscope::core::Verdict", "Of %1 of 10 us or more (%2), %3 holds the most: %4 (%5) in %6"),
                               {countNoun(all, npuTr("npuscope::core::Verdict", "device gap"), npuTr("npuscope::core::Verdict", "device gaps")), formatDuration(bubbleNs),
                                causeLabel(v.topCause), formatDuration(ct.ns[ti]), pct(v.topCauseShare),
                                countNoun(ct.count[ti], npuTr("npuscope::core::Verdict", "gap"), npuTr("npuscope::core::Verdict", "gaps"))});
  // The runner-up when it holds at least a fifth of the bubble time.
  std::size_t second = kBubbleCauseCount;
  for (std::size_t c = 0; c < kBubbleCauseCount; ++c)
    if (c != ti && ct.ns[c] * 5 >= bubbleNs && ct.ns[c] > 0 && (second == kBubbleCauseCount || ct.ns[c] > ct.ns[second]))
      second = c;
  if (second != kBubbleCauseCount)
    s += i18n::format(npuTr("npuscope::core::Verdict", "; then %1 %2 (%3)"),
                      {causeLabel(static_cast<BubbleCause>(second)), formatDuration(ct.ns[second]),
                       pct(static_cast<double>(ct.ns[second]) / static_cast<double>(bubbleNs))});
  s += npuTr("npuscope::core::Verdict", ".");
  return s;
}

/// The bubbles (§2.3): the top cause and its figures, the sentence on them (in the summary when
/// Free dominates, else a finding), and the advice for the causes that matter.
void addBubbleCauses(Verdict& v, std::string& body, const CauseTotals& ct, double free, bool gpu) {
  const TimeNs bubbleNs = ct.totalNs();
  if (bubbleNs <= 0) return;
  const BubbleCause top = ct.top();
  const auto ti = static_cast<std::size_t>(top);
  v.topCause = top;
  v.topCauseNs = ct.ns[ti];
  v.topCauseCount = ct.count[ti];
  v.topCauseShare = static_cast<double>(ct.ns[ti]) / static_cast<double>(bubbleNs);
  const std::string s = bubbleCausesText(v, ct, bubbleNs, gpu);
  if (v.dominant == "free") {
    v.summary += " " + s;
    body += " " + s;
  } else {
    v.findings.push_back(s);
  }
  // Advice for the causes that matter: the top one and any holding a fifth of the bubble time,
  // when Free itself matters (dominant or above the 10% mark).
  if (v.hostRecorded && (v.dominant == "free" || free > 0.10))
    for (std::size_t c = 0; c < kBubbleCauseCount; ++c)
      if ((c == ti || ct.ns[c] * 5 >= bubbleNs) && ct.ns[c] > 0)
        if (std::string a = adviceFor(static_cast<BubbleCause>(c), gpu); !a.empty()) v.suggestions.push_back(std::move(a));
}

/// The method's observations on who sets the pace (单卡 Top-Down 步骤二/四), for when Free
/// matters: launches the device runs at once (the host sets the pace), and one torch op
/// launching many tasks (a fusion candidate).
void addHostPaceFindings(Verdict& v, const Trace& trace, const DeviceAnalysis& da) {
  const ClockSkew& k = da.skew;
  if (k.tasksWithLaunch >= 20 && k.tightLaunches * 2 >= k.tasksWithLaunch && k.medianLatency)
    v.findings.push_back(i18n::format(
        detail::isKinetoTrace(trace)
            ? npuTr("npuscope::core::Verdict", "%1 of the device tasks start within %2 of their launch (median %3): the launch flows "
                        "(ac2g) are nearly vertical, the device runs as soon as the host dispatches, so the host "
                        "sets the pace.")
            : npuTr("npuscope::core::Verdict", "%1 of the device tasks start within %2 of their launch (median %3): the HostToDevice "
                        "flows are nearly vertical, the device runs as soon as the host dispatches, so the host "
                        "sets the pace."),
        {pct(static_cast<double>(k.tightLaunches) / static_cast<double>(k.tasksWithLaunch)),
         formatDuration(kTightLaunchNs), formatDuration(*k.medianLatency)}));
  const FanOut& fo = da.fanOut;
  if (fo.widestTasks >= 2 * kManyTasks && fo.widestOp.valid())
    v.findings.push_back(i18n::format(npuTr("npuscope::core::Verdict", "The torch op %1 launched %2 device tasks; %3 of %4 launched %5 "
                                              "or more: many small tasks from one API are a fusion candidate."),
                                      {trace.sliceName(fo.widestOp), std::to_string(fo.widestTasks),
                                       std::to_string(fo.opsWithMany),
                                       countNoun(fo.ops, npuTr("npuscope::core::Verdict", "op"), npuTr("npuscope::core::Verdict", "ops")),
                                       std::to_string(kManyTasks)}));
}

/// The verdict when there is no device span to read: no device at all (with a Kineto trace's
/// reason), or an empty span.
Verdict noDeviceVerdict(const Trace& trace, const RankAnalysis& ra, std::string& body, Verdict v) {
  v.headline = npuTr("npuscope::core::Verdict", "No device activity");
  if (!ra.devices.empty()) {
    v.summary = npuTr("npuscope::core::Verdict", "The device span is empty.");
    body = v.summary;
  } else if (detail::isKinetoTrace(trace) && !ra.notes.empty()) {
    // A Kineto trace says why (no kernel events, or only CUPTI range-profiler replays).
    setSummary(v, body, ra.notes.back() + ".");
  } else {
    v.summary = npuTr("npuscope::core::Verdict",
                      "No device activity in this trace: open a capture with NPU activity to get the Top-Down analysis.");
    body = v.summary;
  }
  return v;
}

Verdict verdictOfFigures(const Trace& trace, const RankAnalysis& ra, std::string& body) {
  Verdict v;
  v.hostRecorded = hostLayersRecorded(trace);
  if (ra.devices.empty()) return noDeviceVerdict(trace, ra, body, std::move(v));
  const DeviceAnalysis& da = *std::max_element(ra.devices.begin(), ra.devices.end(), [](const auto& a, const auto& b) {
    return a.computed.e2e < b.computed.e2e;
  });
  // The computed figures: the same ones the bubbles come from and the panels show. (The
  // recorded lanes are compared with them in DeviceAnalysis::discrepancies.)
  const OverlapFigures& f = da.computed;
  // A GPU of a Kineto trace (CUDA / ROCm): no Ascend-only name in the texts (format notes §6.1).
  const bool gpu = detail::isGpuDevice(trace, da.device);
  if (f.e2e <= 0) return noDeviceVerdict(trace, ra, body, std::move(v));
  const double e2e = static_cast<double>(f.e2e);
  const double free = static_cast<double>(f.free) / e2e, comp = static_cast<double>(f.computing) / e2e,
               comm = static_cast<double>(f.commNotOverlapped) / e2e;
  const double between = static_cast<double>(da.betweenIterationsNs) / e2e;
  decideDominant(v, body, f, comp, comm, free, gpu, between);
  if (std::string b = betweenIterationsFinding(da, ra.steps, between); !b.empty()) v.findings.push_back(std::move(b));
  for (auto& line : breakdownFindings(da, v)) v.findings.push_back(std::move(line));  // docs/diagnosis.md §5
  if (v.dominant != "free" && free > 0.10)
    v.findings.push_back(i18n::format(npuTr("npuscope::core::Verdict", "The device is also idle (Free) %1 of the time (%2), above the ~10%% "
                                                "mark: dispatch, synchronisation or data movement leave it waiting."),
                                      {pct(free), formatDuration(f.free)}));
  // Busy time isolated far from the rest stretches E2E and Free (docs/diagnosis.md §1.1): kept,
  // and said, with the figures without it.
  for (const IsolatedActivity& ia : da.isolated) v.findings.push_back(isolatedActivityFinding(trace, ia, v.dominant));
  if (ra.farEvents.count > 0 && ra.farEvents.farthest.valid()) v.findings.push_back(farEventsFinding(trace, ra.farEvents));
  // The bubbles: the cause holding the most bubble time over all of them (§2.3).
  addBubbleCauses(v, body, da.causes, free, gpu);
  // The method's observations (单卡 Top-Down 步骤二/四), stated when Free matters.
  if ((v.dominant == "free" || free > 0.10) && v.hostRecorded) addHostPaceFindings(v, trace, da);
  if (da.skew.bound > 0)
    v.findings.push_back(i18n::format(npuTr("npuscope::core::Verdict", "Host and device clocks disagree by at least %1 (%2; the earliest task "
                                                "starts that much before its own launch): launch latencies are shown "
                                                "corrected by that bound."),
                                      {formatDuration(da.skew.bound),
                                       countNoun(da.skew.tasksWithLaunch, npuTr("npuscope::core::Verdict", "launch"), npuTr("npuscope::core::Verdict", "launches"))}));
  // Advisor rule: many ACLOP compilations per step (MAX_OP_COMPILE_NUM = 20).
  const TimeRange all = trace.range.empty() ? TimeRange{INT64_MIN, INT64_MAX} : TimeRange{trace.range.start, trace.range.end + 1};
  const std::size_t compiles = countNamed(trace, "aclopCompileAndExecute", all);
  const std::size_t steps = std::max<std::size_t>(1, ra.steps.size());
  if (compiles / steps >= 20)
    v.suggestions.push_back(i18n::format(npuTr("npuscope::core::Verdict", "%1 aclopCompileAndExecute calls (%2 per step, the advisor's mark "
                                                   "is 20): call torch_npu.npu.set_compile_mode(jit_compile=False) and "
                                                   "torch_npu.npu.config.allow_internal_format=False."),
                                         {std::to_string(compiles), std::to_string(compiles / steps)}));
  std::vector<std::string> unique;
  for (auto& s : v.suggestions)
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  v.suggestions = std::move(unique);
  return v;
}

}  // namespace

}  // namespace npuscope::core
