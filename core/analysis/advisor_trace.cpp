// SPDX-License-Identifier: MIT
// The advisor's trace rules: ACLOP online compilation, short element-wise ops whose launch
// outlasts them, host<->device transfers inside the step, synchronise-after-launch, GC pauses,
// forward vs backward; the environment variables of profiler_metadata.json. docs/diagnosis.md §6.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include <simdjson.h>

#include "core/base/ascii.h"
#include "core/analysis/advisor_rules.h"
#include "core/analysis/trace_query.h"
#include "core/base/file_access.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"

namespace npuscope::core {

namespace {

bool hasCann(const Trace& t) {
  for (const Lane& l : t.lanes)
    if (t.processes[l.process].role == Process::Role::Cann && l.sliceCount() > 0) return true;
  return false;
}

std::string ratioText(double r) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", r);
  return b;
}

/// Element-wise and normalisation op types (tutorial §4: Add, ReLU, Norm ...), lower case.
bool isElementwise(std::string_view typeLower) {
  static constexpr std::string_view kExact[] = {
      "add", "addv2", "adds", "sub", "subs", "mul", "muls", "div", "divs", "realdiv", "relu", "relugrad", "gelu",
      "gelugrad", "fastgelu", "fastgelugrad", "sigmoid", "sigmoidgrad", "tanh", "tanhgrad", "exp", "log", "sqrt",
      "rsqrt", "neg", "abs", "cast", "maximum", "minimum", "pow", "square", "leakyrelu", "swish", "silu",
      "reciprocal", "sign", "floor", "ceil", "round", "less", "lessequal", "greater", "greaterequal", "equal",
      "notequal", "logicaland", "logicalor", "logicalnot", "select", "selectv2", "zeroslike", "oneslike", "fill",
      "axpy", "axpyv2", "dropoutdomask", "clipbyvalue", "addcmul", "addcdiv", "lerp"};
  static constexpr std::string_view kPrefix[] = {"layernorm", "batchnorm", "rmsnorm", "groupnorm", "instancenorm",
                                                 "bninfer",   "bntraining", "softmax", "logsoftmax", "addlayernorm"};
  for (auto e : kExact)
    if (typeLower == e) return true;
  for (auto p : kPrefix)
    if (typeLower.starts_with(p)) return true;
  return false;
}

/// The op type of a device task: its kernel_details.csv Type (row, when it has one), else the last
/// `_` part of its name (aclnnMul_MulAiCore_Mul -> Mul).
std::string_view typeFromName(std::string_view n) {
  const auto u = n.rfind('_');
  return u == std::string_view::npos ? n : n.substr(u + 1);
}

/// The host API that launched device task `r`: the outermost AscendCL@ ancestor of the start of
/// its HostToDevice flow (format notes §3), or invalid.
/// `cursor`: a position in t.flowsByTo kept by a caller that visits tasks in (lane, index) order,
/// so that the flows into r are found by walking forward instead of a search per task (same flows,
/// same order as Trace::flowsTo).
SliceRef launchingApi(const Trace& t, SliceRef r, NameId h2d, std::size_t& cursor) {
  const auto apiOf = [&](const Flow& f) {
    SliceRef api;
    if (f.category != h2d || !f.from.valid()) return api;
    for (SliceRef c = f.from; c.valid(); c = detail::parentOf(t, c))
      if (t.sliceName(c).starts_with("AscendCL@")) api = c;
    return api;
  };
  if (t.flowsByTo.size() != t.flows.size()) {  // a hand-built trace that was never indexed
    for (std::uint32_t fi : t.flowsTo(r))
      if (const SliceRef api = apiOf(t.flows[fi]); api.valid()) return api;
    return {};
  }
  const auto before = [&](const SliceRef& s) { return s.lane != r.lane ? s.lane < r.lane : s.index < r.index; };
  while (cursor < t.flowsByTo.size() && before(t.flows[t.flowsByTo[cursor]].to)) ++cursor;
  for (std::size_t k = cursor; k < t.flowsByTo.size() && t.flows[t.flowsByTo[k]].to == r; ++k)
    if (const SliceRef api = apiOf(t.flows[t.flowsByTo[k]]); api.valid()) return api;
  return {};
}

bool inSteps(const RankAnalysis& a, TimeNs ts) {
  if (a.steps.empty()) return true;
  for (const StepWindow& s : a.steps)
    if (s.host.contains(ts)) return true;
  return false;
}

bool isPythonTransfer(std::string_view n) {
  return n == "aten::item" || n == "aten::_local_scalar_dense" || n == "acl_memcpy_host_to_device" ||
         n == "acl_memcpy_device_to_host" || n == "Tensor.item" || n == "aten::_copy_from_and_resize";
}
bool isCannTransfer(std::string_view n) { return n == "AscendCL@aclrtMemcpy"; }
/// Why a layer is missing: on a partial capture (partialCaptureReason) the layer may have been
/// cut off with the rest of the file, so the Level0 reason `level0` is not given.
std::string missingLayerWhy(const Trace& t, std::string level0) {
  const std::string p = partialCaptureReason(t);
  if (p.empty()) return level0;
  return i18n::format(npuTr("npuscope::core::Advisor", "the capture is partial (%1), so the layer may have been cut off (not necessarily a "
                                "Level0 capture)"),
                      {p});
}
/// A CUDA / HIP runtime copy call on a Kineto trace's CPU threads (cat cuda_runtime):
/// cudaMemcpy*, hipMemcpy*, less the device-to-device and peer copies.
bool isGpuRuntimeTransfer(std::string_view n) {
  if (!n.starts_with("cudaMemcpy") && !n.starts_with("hipMemcpy")) return false;
  return n.find("DtoD") == std::string_view::npos && n.find("Peer") == std::string_view::npos;
}
/// A Kineto gpu_memcpy device event between host and device ("Memcpy HtoD (Pageable -> Device)").
bool isGpuDeviceTransfer(std::string_view n) { return n.starts_with("Memcpy HtoD") || n.starts_with("Memcpy DtoH"); }

}  // namespace

namespace detail {

/// (c) aclopCompileAndExecute >= 20 per step (advisor timeline_op_dispatch_analyzer.py).
void ruleAclop(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  Finding f;
  f.rule = "aclop_compile";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more aclopCompileAndExecute calls per step"),
                             {std::to_string(c.thresholds.aclopPerStep)});
  f.source = "msprof-analyze advisor timeline_op_dispatch_analyzer.py, MAX_OP_COMPILE_NUM = 20 (format notes §4.5); "
             "the verdict's suggestion uses the same count (docs/diagnosis.md §2)";
  if (!hasCann(t)) {
    f.title = npuTr("npuscope::core::Advisor", "ACLOP compilation: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "the CANN layer was not recorded: %1"),
                             {missingLayerWhy(t, npuTr("npuscope::core::Advisor", "Level0 prunes it"))});
    out.push_back(std::move(f));
    return;
  }
  std::vector<std::pair<double, SliceRef>> ev;
  TimeNs sum = 0;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    if (t.processes[lane.process].role != Process::Role::Cann) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i)
      if (t.name(lane.names[i]).find("aclopCompileAndExecute") != std::string_view::npos) {
        sum += lane.end[i] - lane.start[i];
        ev.push_back({static_cast<double>(lane.end[i] - lane.start[i]), SliceRef{li, i}});
      }
  }
  const std::size_t n = ev.size();
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 calls in %2 (%3 per step), %4 in all"),
                           {std::to_string(n), countNoun(c.steps, npuTr("npuscope::core::Advisor", "step"), npuTr("npuscope::core::Advisor", "steps")),
                            std::to_string(n / c.steps), us(sum)});
  // The device gaps whose cause is ACLOP on the host (compile or execute, docs/diagnosis.md §3):
  // the device time the ACLOP path costs, which is what switching to ACLNN can give back.
  TimeNs gapNs = 0;
  std::size_t gaps = 0;
  bool topCause = false, hostKnown = false;
  for (const DeviceAnalysis& d : c.analysis.devices) {
    for (const BubbleCause bc : {BubbleCause::AclopCompile, BubbleCause::AclopExecute}) {
      gapNs += d.causes.ns[static_cast<std::size_t>(bc)];
      gaps += d.causes.count[static_cast<std::size_t>(bc)];
    }
    const BubbleCause top = d.causes.top();
    topCause |= d.causes.totalNs() > 0 && (top == BubbleCause::AclopCompile || top == BubbleCause::AclopExecute);
    hostKnown |= d.gapsFound > 0 && c.analysis.verdict.hostRecorded;
  }
  const std::string gapText =
      i18n::format(npuTr("npuscope::core::Advisor", "ACLOP on the host (compile or execute) is the cause of %1 holding %2 (the bubbles, "
                             "docs/diagnosis.md §3)"),
                   {countNoun(gaps, npuTr("npuscope::core::Advisor", "device gap"), npuTr("npuscope::core::Advisor", "device gaps")), us(gapNs)});
  if (n >= c.thresholds.aclopPerStep * c.steps && n > 0) {
    f.title = npuTr("npuscope::core::Advisor", "Operators compiled online (ACLOP)");
    f.severity = Severity::Issue;
    // At stake: the device gaps ACLOP holds when the bubble causes are known (the calls' own host
    // time is hidden whenever the host runs ahead of the device); else their host time, which
    // adviseRank bounds by the Free time.
    if (hostKnown) {
      f.atStakePerStep = c.perStep(static_cast<double>(gapNs));
      f.numbers += clauseSep() + gapText;
    } else {
      f.atStakePerStep = c.perStep(static_cast<double>(sum));
    }
    f.fix = npuTr("npuscope::core::Advisor", "Call torch_npu.npu.set_compile_mode(jit_compile=False) and torch_npu.npu.config.allow_internal_format="
            "False so that prebuilt ACLNN binaries are used.");
  } else {
    // Below the call-count mark, but the bubble analysis may still find ACLOP (compile or execute
    // on the host) holding the device idle: then "ok" would contradict the verdict's bubble
    // summary. The time those gaps hold is at stake; an issue when ACLOP is the cause holding the
    // most gap time on a device (what the verdict names), else information.
    if (gapNs > 0) {
      f.title = npuTr("npuscope::core::Advisor", "ACLOP calls below the count mark, but they leave the device idle");
      f.severity = topCause ? Severity::Issue : Severity::Info;
      f.atStakePerStep = c.perStep(static_cast<double>(gapNs));
      f.numbers += clauseSep() + gapText;
      f.fix = npuTr("npuscope::core::Advisor", "Those operators still take the ACLOP path: set torch_npu.npu.set_compile_mode(jit_compile=False) and "
              "torch_npu.npu.config.allow_internal_format=False, or find their ACLNN / fused replacements.");
    } else {
      f.title = npuTr("npuscope::core::Advisor", "ACLOP calls below the mark");
      f.severity = Severity::Ok;
    }
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (d) Many short element-wise/normalisation ops whose host launch outlasts their device time.
void ruleShortOps(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  std::unordered_map<TimeNs, const KernelRow*> rows;
  if (c.kernels)
    for (const KernelRow& k : c.kernels->rows)
      if (k.start && !k.isCommunication()) rows.emplace(*k.start, &k);
  const NameId h2d = t.strings.find("HostToDevice");
  std::size_t ew = 0, known = 0, n = 0;
  double stake = 0;
  TimeNs hostSum = 0, devSum = 0, idleBefore = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  std::map<std::string, std::size_t> types;
  // Whether a type is element-wise, decided once per kernel_details row or per task name (-1: not
  // yet); the tasks counted per name go into `types` after the loop (no string work per task).
  std::vector<std::int8_t> ewOfName(t.strings.size(), -1), ewOfRow(c.kernels ? c.kernels->rows.size() : 0, -1);
  std::unordered_map<NameId, std::size_t> countOfName;
  std::size_t flowCursor = 0;  // launchingApi's position in flowsByTo: tasks come in (lane, index) order
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    if (!isDeviceTaskLane(t, li)) continue;
    const Lane& lane = t.lanes[li];
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const SliceRef r{li, i};
      const auto it = rows.empty() ? rows.end() : rows.find(lane.start[i]);
      const KernelRow* row = it != rows.end() && !it->second->type.empty() ? it->second : nullptr;
      std::int8_t& e = row ? ewOfRow[static_cast<std::size_t>(row - c.kernels->rows.data())] : ewOfName[lane.names[i]];
      if (e < 0) e = isElementwise(asciiLower(row ? std::string_view(row->type) : typeFromName(t.name(lane.names[i])))) ? 1 : 0;
      if (!e) continue;
      ++ew;
      if (h2d == kInvalidIndex) continue;
      const SliceRef api = launchingApi(t, r, h2d, flowCursor);
      if (!api.valid()) continue;
      ++known;
      const TimeNs host = t.sliceRange(api).duration(), dev = lane.end[i] - lane.start[i];
      if (host <= dev) continue;
      ++n;
      hostSum += host;
      devSum += dev;
      // What a faster launch could save is the device's idle time just before the task, never
      // more than the launch's excess (host - dev): when the host runs ahead, the launch's length
      // is hidden behind earlier device work and costs nothing.
      const Intervals* free = c.freeOfDevice(t.processes[lane.process].deviceId);
      const TimeNs idle = free ? std::min(host - dev, idleEndingAt(*free, lane.start[i])) : 0;
      idleBefore += idle;
      stake += static_cast<double>(idle);
      ev.push_back({static_cast<double>(host - dev), r});
      if (row) ++types[row->type];
      else ++countOfName[lane.names[i]];
    }
  }
  for (const auto& [name, count] : countOfName) types[std::string(typeFromName(t.name(name)))] += count;
  if (ew == 0) return;
  Finding f;
  f.rule = "short_ops";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more element-wise/normalisation ops per step whose host launch API "
                                       "outlasts the task"),
                             {std::to_string(c.thresholds.shortOpsPerStep)});
  f.source = "tutorial §4 (element-wise ops, short but many: fusion) and single-card Top-Down 步骤四; the count "
             "mark is npuscope's; host time = the AscendCL@ API of the task's HostToDevice flow (format notes §3)";
  if (known == 0) {
    f.title = npuTr("npuscope::core::Advisor", "Short element-wise ops: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 element-wise/normalisation tasks; their launching CANN API was not recorded"),
                             {std::to_string(ew)});
    out.push_back(std::move(f));
    return;
  }
  std::vector<std::pair<std::string, std::size_t>> top(types.begin(), types.end());
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string list;
  for (std::size_t i = 0; i < top.size() && i < 5; ++i)
    list += (i ? itemSep() : std::string()) + top[i].first + " x" + std::to_string(top[i].second);
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 element-wise/normalisation tasks with a known launch (%3 per step) take "
                                     "longer to launch (%4) than to run (%5)"),
                           {std::to_string(n), std::to_string(known), std::to_string(n / c.steps), us(hostSum),
                            us(devSum)}) +
              (list.empty() ? "" : ": " + list) +
              i18n::format(npuTr("npuscope::core::Advisor", "; the device is idle %1 just before them (the most a faster launch can save)"),
                           {us(idleBefore)});
  if (n >= c.thresholds.shortOpsPerStep * c.steps) {
    f.title = npuTr("npuscope::core::Advisor", "Many short element-wise ops: launch-bound");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(stake);
    f.fix = npuTr("npuscope::core::Advisor", "Fuse these small operators: use the fused APIs (torch_npu.npu_* fused ops, fused optimizers) or graph "
            "mode (torch.compile with torchair) so that one launch does the work of many.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Short element-wise ops below the mark");
    f.severity = Severity::Ok;
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

namespace {

/// What ruleTransfers counts inside the steps: the host transfers (Python scalar reads and
/// copies, blocking CANN copies, GPU runtime copy calls) with their names and call sites, and on
/// a GPU the device's host<->device copies apart.
struct TransferTally {
  std::vector<std::pair<double, SliceRef>> ev;  ///< (length, slice) of each host transfer
  std::map<std::string, std::size_t> names, sites;
  TimeNs sum = 0;
  bool hostRecorded = false;  ///< a Python or CANN lane holds a slice
  /// GPU (CUDA / ROCm Kineto): a runtime call (cuda*, hip*) was recorded on a CPU thread.
  bool gpuRuntimeRecorded = false;
  std::vector<std::pair<double, SliceRef>> devEv;  ///< the gpu_memcpy device copies
  TimeNs devSum = 0;
};

/// Whether `r` is under a Python transfer (then it is that transfer's work, counted once).
bool underPythonTransfer(const Trace& t, SliceRef r) {
  for (SliceRef p = parentOf(t, r); p.valid(); p = parentOf(t, p))
    if (isPythonTransfer(t.sliceName(p))) return true;
  return false;
}

/// Whether the host slice `r` (named `name`, on a Python or CANN lane) is a transfer of its own:
/// a Python scalar read or copy (or a GPU runtime copy call) not under another, or a blocking
/// CANN copy not under a Python transfer of its thread.
bool isOwnHostTransfer(const AdvisorContext& c, const Lane& lane, Process::Role role, SliceRef r, std::string_view name) {
  const Trace& t = c.trace;
  if (role == Process::Role::Python) {
    const bool gpuCopy = c.gpu && isGpuRuntimeTransfer(name);
    return (isPythonTransfer(name) || gpuCopy) && !underPythonTransfer(t, r);
  }
  if (!isCannTransfer(name)) return false;
  // Counted once: a blocking copy under aten::item (same OS thread) is that item.
  const auto py = laneByRoleAndTid(t, Process::Role::Python, lane.tid);
  if (py != kInvalidIndex) {
    const auto idx = t.lanes[py].enclosingSlice(lane.start[r.index]);
    if (idx != kInvalidIndex) {
      const SliceRef pr{py, idx};
      if (isPythonTransfer(t.sliceName(pr)) || underPythonTransfer(t, pr)) return false;
    }
  }
  return true;
}

/// The transfers of the trace inside the steps. GPU: the runtime copy calls (cudaMemcpy*,
/// hipMemcpy*) on the CPU threads are counted like the CANN copies; the gpu_memcpy device copies
/// (Memcpy HtoD / DtoH) are counted apart and stand in for them when no runtime call was recorded.
TransferTally tallyTransfers(const AdvisorContext& c) {
  const Trace& t = c.trace;
  TransferTally tally;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    const auto role = t.processes[lane.process].role;
    if (c.gpu && role == Process::Role::KinetoDevice) {
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        if (!isGpuDeviceTransfer(t.name(lane.names[i])) || !inSteps(c.analysis, lane.start[i])) continue;
        tally.devSum += lane.end[i] - lane.start[i];
        tally.devEv.push_back({static_cast<double>(lane.end[i] - lane.start[i]), SliceRef{li, i}});
      }
      continue;
    }
    if (role != Process::Role::Python && role != Process::Role::Cann) continue;
    if (lane.sliceCount()) tally.hostRecorded = true;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const std::string_view name = t.name(lane.names[i]);
      const SliceRef r{li, i};
      if (c.gpu && role == Process::Role::Python && (name.starts_with("cuda") || name.starts_with("hip")))
        tally.gpuRuntimeRecorded = true;
      if (!isOwnHostTransfer(c, lane, role, r, name)) continue;
      if (!inSteps(c.analysis, lane.start[i])) continue;
      const TimeNs d = lane.end[i] - lane.start[i];
      tally.sum += d;
      ++tally.names[std::string(name)];
      tally.ev.push_back({static_cast<double>(d), r});
      SliceRef site = r;
      if (role == Process::Role::Cann) {
        const auto py = laneByRoleAndTid(t, Process::Role::Python, lane.tid);
        const auto idx = py == kInvalidIndex ? kInvalidIndex : t.lanes[py].enclosingSlice(lane.start[i]);
        site = idx == kInvalidIndex ? SliceRef{} : SliceRef{py, idx};
      }
      if (site.valid())
        if (std::string s = callerOf(t, site); !s.empty()) ++tally.sites[s];
    }
  }
  return tally;
}

/// The Free time of the busiest device while one of the transfers ran: a scalar read blocks until
/// the queued device work is done, so its own length is mostly the device working, not lost.
TimeNs idleDuringTransfers(const AdvisorContext& c, const std::vector<std::pair<double, SliceRef>>& ev) {
  TimeNs idle = 0;
  const DeviceAnalysis* da = nullptr;
  for (const DeviceAnalysis& d : c.analysis.devices)
    if (!da || d.computed.e2e > da->computed.e2e) da = &d;
  if (da) {
    std::vector<TimeRange> spans;
    for (const auto& e : ev) spans.push_back(c.trace.sliceRange(e.second));
    const Intervals u = unionOf(std::move(spans));
    for (const TimeRange& r : u) idle += coveredIn(da->free, r);
  }
  return idle;
}

/// The finding's title, severity and fix from the count: unknown without steps or (below the
/// mark) without the framework layer, an issue from transfersPerStep per step, else ok.
void judgeTransfers(const AdvisorContext& c, std::size_t n, TimeNs idle, Finding& f) {
  if (c.analysis.steps.empty()) {
    // The rule counts transfers inside the step: without any step window it cannot say "ok" or
    // "per step" (docs/diagnosis.md §6).
    f.title = npuTr("npuscope::core::Advisor", "Data transfers: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "no steps recorded (no ProfilerStep#N or Iteration window), so transfers inside "
                                       "the step cannot be told; in the whole capture: %1"),
                             {f.numbers});
  } else if (n < c.thresholds.transfersPerStep * c.steps && !detail::torchLayerRecorded(c.trace)) {
    f.title = npuTr("npuscope::core::Advisor", "Data transfers: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "the framework layer (torch ops: aten::item, .cpu()) was not recorded (MindSpore / "
                                       "GE graph mode through msprof?), only blocking CANN copies can be counted; %1"),
                             {f.numbers});
  } else if (n > 0 && n >= c.thresholds.transfersPerStep * c.steps) {
    f.title = npuTr("npuscope::core::Advisor", "Host<->device transfers inside the step");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(static_cast<double>(idle));
    f.fix = npuTr("npuscope::core::Advisor", "Each .item(), .cpu() or print of a device tensor waits for the device and copies: remove them from the "
            "loop or read every N steps (accumulate on the device), and copy inputs with non_blocking=True.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "No host<->device transfers inside the step");
    f.severity = Severity::Ok;
  }
}

}  // namespace

/// (e) Host<->device transfers and scalar reads inside the step.
void ruleTransfers(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  TransferTally tally = tallyTransfers(c);
  std::vector<std::pair<double, SliceRef>>& ev = tally.ev;
  const std::vector<std::pair<double, SliceRef>>& devEv = tally.devEv;
  Finding f;
  f.rule = "transfers";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more host<->device transfers per step (aten::item, _local_scalar_dense, "
                                       "acl_memcpy_*, blocking aclrtMemcpy) inside ProfilerStep"),
                             {std::to_string(c.thresholds.transfersPerStep)});
  f.source = "tutorial §4 (数据传输: remove needless .cpu()/.item()) and single-card Top-Down 步骤四 (取标量、同步拷贝)";
  if (c.gpu) {
    f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more host<->device transfers per step (aten::item, _local_scalar_dense, "
                                         "cudaMemcpy* / hipMemcpy* runtime calls, else Memcpy HtoD / DtoH device copies) "
                                         "inside ProfilerStep"),
                               {std::to_string(c.thresholds.transfersPerStep)});
    f.source += "; on a GPU trace the Kineto cuda_runtime and gpu_memcpy events (format notes §6.1)";
  }
  if (c.gpu && !tally.gpuRuntimeRecorded && devEv.empty()) {
    // Without the runtime layer a copy cannot be seen: never "ok" (docs/diagnosis.md §6).
    f.title = npuTr("npuscope::core::Advisor", "Data transfers: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "neither the CUDA / HIP runtime calls (cuda_runtime) nor a host<->device copy (gpu_memcpy) "
                "was recorded, so copies cannot be counted");
    out.push_back(std::move(f));
    return;
  }
  if (!tally.hostRecorded) {
    f.title = npuTr("npuscope::core::Advisor", "Data transfers: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "the host layers (Python, CANN) were not recorded");
    out.push_back(std::move(f));
    return;
  }
  bool onDevice = false;
  if (ev.empty() && !devEv.empty()) {
    // Device copies with no runtime call recorded: they are the transfers (their time is the device's).
    for (const auto& e : devEv) ++tally.names[std::string(t.sliceName(e.second))];
    ev = devEv;
    tally.sum = tally.devSum;
    onDevice = true;
  }
  const std::size_t n = ev.size();
  std::string list;
  for (const auto& [k, v] : tally.names) list += (list.empty() ? "" : itemSep()) + k + " x" + std::to_string(v);
  f.numbers = i18n::format(onDevice ? npuTr("npuscope::core::Advisor", "%1 transfers in %2, %3 on the device") : npuTr("npuscope::core::Advisor", "%1 transfers in %2, %3 on the host"),
                           {std::to_string(n), countNoun(c.steps, npuTr("npuscope::core::Advisor", "step"), npuTr("npuscope::core::Advisor", "steps")), us(tally.sum)}) +
              (list.empty() ? "" : i18n::format(npuTr("npuscope::core::Advisor", " (%1)"), {list}));
  if (!tally.sites.empty()) {
    std::vector<std::pair<std::string, std::size_t>> top(tally.sites.begin(), tally.sites.end());
    std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    f.numbers += npuTr("npuscope::core::Advisor", "; called from ");
    for (std::size_t i = 0; i < top.size() && i < 3; ++i)
      f.numbers += (i ? itemSep() : std::string()) + top[i].first + " x" + std::to_string(top[i].second);
  } else if (n > 0) {
    f.numbers += npuTr("npuscope::core::Advisor", "; call sites not recorded (with_stack off)");
  }
  // At stake: the device's Free time while a transfer ran on the host.
  const TimeNs idle = idleDuringTransfers(c, ev);
  f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; the device is idle %1 of that time"), {us(idle)});
  if (!devEv.empty() && !onDevice)
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; on the device %1 (Memcpy HtoD / DtoH), %2"),
                              {countNoun(devEv.size(), npuTr("npuscope::core::Advisor", "host<->device copy"), npuTr("npuscope::core::Advisor", "host<->device copies")),
                               us(tally.devSum)});
  judgeTransfers(c, n, idle, f);
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (f) Synchronise-stream right after a launch (advisor synchronize_stream_checker.py).
void ruleSyncStream(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  struct Ev {
    TimeNs ts;
    bool launch;
    SliceRef ref;
  };
  std::vector<Ev> evs;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    if (t.processes[lane.process].role != Process::Role::Cann) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const std::string_view n = t.name(lane.names[i]);
      if (n.starts_with("Node@launch")) evs.push_back({lane.start[i], true, {li, i}});
      else if (n.starts_with("AscendCL@aclrtSynchronizeStream")) evs.push_back({lane.start[i], false, {li, i}});
    }
  }
  Finding f;
  f.rule = "sync_after_launch";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "(synchronise-stream calls right after a Node@launch) / launches > %1"),
                             {ratioText(c.thresholds.syncLaunchRatio)});
  f.source = "msprof-analyze advisor synchronize_stream_checker.py, synchronize.yaml min_co_occurrence_ratio 0.5 "
             "(format notes §4.5): CANN events sorted by start";
  std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
  std::size_t launches = 0, syncs = 0, co = 0;
  TimeNs syncNs = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  for (std::size_t i = 0; i < evs.size(); ++i) {
    if (evs[i].launch) {
      ++launches;
      continue;
    }
    ++syncs;
    const TimeNs d = t.sliceRange(evs[i].ref).duration();
    syncNs += d;
    if (i > 0 && evs[i - 1].launch) {
      ++co;
      ev.push_back({static_cast<double>(d), evs[i].ref});
    }
  }
  if (launches == 0) {
    f.title = npuTr("npuscope::core::Advisor", "Synchronise after launch: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "no Node@launch recorded: %1"),
                             {missingLayerWhy(t, npuTr("npuscope::core::Advisor", "Level0 prunes the CANN layer; older CANN does not write it"))});
    out.push_back(std::move(f));
    return;
  }
  const double ratio = static_cast<double>(co) / static_cast<double>(launches);
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1, %2, %3 right after a launch (ratio %4)"),
                           {countNoun(syncs, npuTr("npuscope::core::Advisor", "synchronise-stream call"), npuTr("npuscope::core::Advisor", "synchronise-stream calls")),
                            countNoun(launches, npuTr("npuscope::core::Advisor", "launch"), npuTr("npuscope::core::Advisor", "launches")), std::to_string(co),
                            ratioText(ratio)});
  if (ratio > c.thresholds.syncLaunchRatio) {
    f.title = npuTr("npuscope::core::Advisor", "Stream synchronised after most launches");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(static_cast<double>(syncNs));
    f.fix = npuTr("npuscope::core::Advisor", "Launches run synchronously, probably ASCEND_LAUNCH_BLOCKING=1: unset it (export ASCEND_LAUNCH_BLOCKING=0) "
            "outside debugging.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Synchronise after launch below the mark");
    f.severity = Severity::Ok;
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (g) Python GC pauses >= 1 ms (advisor gc_checker.py).
void ruleGc(const AdvisorContext& c, std::vector<Finding>& out) {
  const Trace& t = c.trace;
  bool recorded = false;
  std::size_t all = 0;
  TimeNs sum = 0, maxNs = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    if (t.processes[lane.process].role != Process::Role::PythonGc) continue;
    recorded = true;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const TimeNs d = lane.end[i] - lane.start[i];
      ++all;
      maxNs = std::max(maxNs, d);
      if (d < c.thresholds.gcMinNs) continue;
      sum += d;
      ev.push_back({static_cast<double>(d), SliceRef{li, i}});
    }
  }
  Finding f;
  f.rule = "gc";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "a Python GC pause of %1 or more"), {us(c.thresholds.gcMinNs)});
  f.source = "msprof-analyze advisor gc_checker.py, gc.yaml (format notes §4.5)";
  if (!recorded) {
    f.title = npuTr("npuscope::core::Advisor", "GC pauses: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "no Python GC events (the profiler records them only with experimental_config gc_detect_threshold)");
    out.push_back(std::move(f));
    return;
  }
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 GC pauses at or above the mark, %3 in all; the longest %4"),
                           {std::to_string(ev.size()), std::to_string(all), us(sum), us(maxNs)});
  if (!ev.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Long Python GC pauses");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(static_cast<double>(sum));
    f.fix = npuTr("npuscope::core::Advisor", "Garbage collection stops the host: call gc.freeze() after the model is built, raise the thresholds "
            "(gc.set_threshold) or collect between steps (gc.disable() and gc.collect() every N steps).");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "GC pauses short");
    f.severity = Severity::Ok;
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (k) Forward vs backward device time (ComputeBreakdown::byPass, docs/diagnosis.md §5.2).
void ruleForwardBackward(const AdvisorContext& c, std::vector<Finding>& out) {
  const DeviceAnalysis* da = nullptr;
  for (const DeviceAnalysis& d : c.analysis.devices)
    if (!da || d.computed.e2e > da->computed.e2e) da = &d;
  if (!da || da->compute.tasks == 0) return;
  Finding f;
  f.rule = "forward_backward";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "backward / forward device time > %1"), {ratioText(c.thresholds.backwardForwardRatio)});
  f.source = "tutorial §3.3 (backward is about 1-2x forward; far longer hints at an operator without an efficient "
             "NPU backward); pass from the fwdbwd flows (docs/diagnosis.md §5.2)";
  TimeNs fwd = 0, bwd = 0;
  for (const BreakdownPart& p : da->compute.byPass) {
    if (p.key == "forward") fwd = p.ns;
    if (p.key == "backward") bwd = p.ns;
  }
  if (da->compute.byPass.empty() || fwd <= 0) {
    f.title = npuTr("npuscope::core::Advisor", "Forward vs backward: unknown");
    f.severity = Severity::Unknown;
    f.numbers = da->compute.byPass.empty() ? npuTr("npuscope::core::Advisor", "the trace does not mark the passes (no fwdbwd flow)")
                                           : npuTr("npuscope::core::Advisor", "no forward device time found");
    out.push_back(std::move(f));
    return;
  }
  const double ratio = static_cast<double>(bwd) / static_cast<double>(fwd);
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "forward %1, backward %2 per step (ratio %3); forward includes the optimizer step"),
                           {us(c.perStep(static_cast<double>(fwd))), us(c.perStep(static_cast<double>(bwd))),
                            ratioText(ratio)});
  if (ratio > c.thresholds.backwardForwardRatio) {
    f.title = npuTr("npuscope::core::Advisor", "Backward far longer than forward");
    f.severity = Severity::Issue;
    f.atStakePerStep =
        c.perStep(static_cast<double>(bwd) - c.thresholds.backwardForwardRatio * static_cast<double>(fwd));
    f.fix = c.gpu ? npuTr("npuscope::core::Advisor", "Some operator has no efficient backward kernel: look at the longest backward kernels "
                              "(non-fused grads, layout copies) and replace the forward op by one with a fused backward.")
                  : npuTr("npuscope::core::Advisor", "Some operator has no efficient NPU backward: look at the longest backward kernels "
                              "(AI_CPU, TransData, non-fused grads) and replace the forward op by one with a fused NPU "
                              "backward.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Forward vs backward balanced");
    f.severity = Severity::Ok;
  }
  out.push_back(std::move(f));
}

/// (j) Environment variables of profiler_metadata.json (advisor environment_variable_info.yaml).
void ruleEnvironment(const RankMetadata* meta, std::vector<Finding>& out) {
  Finding f;
  f.rule = "environment";
  f.threshold = npuTr("npuscope::core::Advisor", "ASCEND_LAUNCH_BLOCKING=1, ASCEND_GLOBAL_LOG_LEVEL 0/1, TASK_QUEUE_ENABLE=0 are issues; "
                "ACLNN_CACHE_LIMIT / HOST_CACHE_CAPACITY unset, PYTORCH_NPU_ALLOC_CONF without expandable_segments, "
                "HCCL_ALGO set are worth a look");
  f.source = "msprof-analyze advisor environment_variable_info.yaml; profiler_metadata.json ENV_VARIABLES (format notes §1.2)";
  if (!meta || !meta->envRecorded) {
    f.title = npuTr("npuscope::core::Advisor", "Environment variables: unknown");
    f.severity = Severity::Unknown;
    f.numbers = meta && !meta->message.empty() ? meta->message : npuTr("npuscope::core::Advisor", "profiler_metadata.json has no ENV_VARIABLES");
    out.push_back(std::move(f));
    return;
  }
  std::map<std::string, std::string> env(meta->env.begin(), meta->env.end());
  auto val = [&](const char* k) -> std::optional<std::string> {
    const auto it = env.find(k);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  std::vector<std::string> issues, looks, fixes;
  if (val("ASCEND_LAUNCH_BLOCKING") == std::optional<std::string>("1")) {
    issues.push_back(npuTr("npuscope::core::Advisor", "ASCEND_LAUNCH_BLOCKING=1 (every launch synchronous)"));
    fixes.push_back("export ASCEND_LAUNCH_BLOCKING=0");
  }
  if (const auto v = val("ASCEND_GLOBAL_LOG_LEVEL"); v && (*v == "0" || *v == "1")) {
    issues.push_back(i18n::format(npuTr("npuscope::core::Advisor", "ASCEND_GLOBAL_LOG_LEVEL=%1 (debug/info logging)"), {*v}));
    fixes.push_back("export ASCEND_GLOBAL_LOG_LEVEL=3");
  }
  if (val("TASK_QUEUE_ENABLE") == std::optional<std::string>("0")) {
    issues.push_back(npuTr("npuscope::core::Advisor", "TASK_QUEUE_ENABLE=0 (no task queue)"));
    fixes.push_back("export TASK_QUEUE_ENABLE=2");
  }
  if (const auto v = val("ACLNN_CACHE_LIMIT"); v && v->empty()) looks.push_back(npuTr("npuscope::core::Advisor", "ACLNN_CACHE_LIMIT unset (e.g. 100000 when host bound)"));
  if (const auto v = val("HOST_CACHE_CAPACITY"); v && (v->empty() || *v == "0"))
    looks.push_back(npuTr("npuscope::core::Advisor", "HOST_CACHE_CAPACITY unset (e.g. 20 with dynamic shapes)"));
  if (const auto v = val("PYTORCH_NPU_ALLOC_CONF"); v && v->find("expandable_segments:True") == std::string::npos)
    looks.push_back(npuTr("npuscope::core::Advisor", "PYTORCH_NPU_ALLOC_CONF without expandable_segments:True"));
  if (const auto v = val("HCCL_ALGO"); v && !v->empty()) looks.push_back(i18n::format(npuTr("npuscope::core::Advisor", "HCCL_ALGO=%1 (automatic is usually better)"), {*v}));
  std::string all;
  for (const auto& s : issues) all += (all.empty() ? "" : clauseSep()) + s;
  for (const auto& s : looks) all += (all.empty() ? "" : clauseSep()) + s;
  f.numbers = all.empty() ? i18n::format(npuTr("npuscope::core::Advisor", "%1 variables recorded, none flagged"), {std::to_string(meta->env.size())})
                          : all;
  if (!issues.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Environment slows the run");
    f.severity = Severity::Issue;
    for (const auto& s : fixes) f.fix += (f.fix.empty() ? "" : clauseSep()) + s;
    f.fix += npuTr("npuscope::core::Advisor", ".");
  } else if (!looks.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Environment settings to consider");
    f.severity = Severity::Info;
    f.fix = npuTr("npuscope::core::Advisor", "Set them when the matching bottleneck shows (ACLNN_CACHE_LIMIT=100000, HOST_CACHE_CAPACITY=20 for host-bound "
            "dynamic shapes; PYTORCH_NPU_ALLOC_CONF=expandable_segments:True for fragmentation).");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Environment fine");
    f.severity = Severity::Ok;
  }
  out.push_back(std::move(f));
}

}  // namespace detail

namespace {

/// profiler_metadata.json's ENV_VARIABLES into `m`.
void readEnvironment(const std::filesystem::path& p, RankMetadata& m) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return;
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    m.message = "profiler_metadata.json cannot be read";
    return;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.parse(simdjson::padded_string(ss.str())).get(doc)) {
    m.message = std::string("profiler_metadata.json is not valid JSON: ") + simdjson::error_message(err);
    return;
  }
  simdjson::dom::object env;
  if (doc["ENV_VARIABLES"].get(env)) return;
  m.envRecorded = true;
  for (auto [key, value] : env) {
    std::string v;
    std::string_view s;
    if (!value.get(s)) v = std::string(s);
    else v = simdjson::minify(value);
    m.env.emplace_back(std::string(key), std::move(v));
  }
}

}  // namespace

MsprofDeviceInfo msprofDeviceInfo(const std::string& root) {
  namespace fs = std::filesystem;
  MsprofDeviceInfo info;
  std::error_code ec;
  std::vector<fs::path> dirs{fs::path(root)};
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().starts_with("PROF_") && it->is_directory(ec)) dirs.push_back(it->path());
  for (const fs::path& d : dirs)
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->path().filename().string().starts_with("device_") || !it->is_directory(ec)) continue;
      for (fs::directory_iterator f(it->path(), ec), fend; !ec && f != fend; f.increment(ec)) {
        const std::string name = f->path().filename().string();
        if (!name.starts_with("info.json") || name.ends_with(".done") || !f->is_regular_file(ec)) continue;
        if (f->file_size(ec) > (std::uintmax_t{16} << 20)) continue;
        std::ifstream in(f->path(), std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        if (parser.parse(simdjson::padded_string(ss.str())).get(doc)) continue;
        std::string_view v;
        if (doc["platform_version"].get(v)) continue;
        // msprof common_func/constant.py CHIP_V2_1_0 = "1" (Ascend 910, ChipModel), CHIP_V4_1_0 = "5"
        // (Ascend 910B, 24 AI cores in ChipCoreNum): the family only.
        if (v == "1") info.chip = "Ascend910A";
        if (v == "5") info.chip = "Ascend910B";
        // DeviceInfo[0]: ai_core_num (a number) and aic_frequency (MHz, a string in msprof's
        // files: "1000"), as msprof-analyze's chip_peak_flops.py reads them.
        simdjson::dom::array devices;
        simdjson::dom::object first;
        if (!doc["DeviceInfo"].get(devices) && devices.size() > 0 && !devices.at(0).get(first)) {
          std::int64_t cores = 0;
          if (!first["ai_core_num"].get(cores) && cores > 0 && cores < 10'000) info.aiCoreNum = static_cast<int>(cores);
          std::string_view mhzText;
          double mhz = 0;
          std::int64_t mhzInt = 0;
          if (!first["aic_frequency"].get(mhzText)) {
            if (std::from_chars(mhzText.data(), mhzText.data() + mhzText.size(), mhz).ec != std::errc()) mhz = 0;
          }
          else if (!first["aic_frequency"].get(mhzInt)) mhz = static_cast<double>(mhzInt);
          if (mhz > 0 && mhz < 100'000) info.aicFrequencyMhz = mhz;
        }
        return info;
      }
    }
  return info;
}

std::string chipFromMsprofInfo(const std::string& root) { return msprofDeviceInfo(root).chip; }

std::vector<PeakTflops> devicePeaks(const MsprofDeviceInfo& info) {
  if (info.chip.empty() || info.aiCoreNum <= 0 || info.aicFrequencyMhz <= 0) return {};
  // msprof-analyze (Ascend/msprof-analyze 8399c1c) cluster_analyse/cluster_kernels_analysis/
  // operator_mfu/chip_peak_flops.py: peak = ai_core_num * aic_frequency (MHz) * 1e6 *
  // OPS_PER_CYCLE, FLOAT16 16*16*16*2 = 8192; operator_flops.py counts BF16 as FLOAT16.
  const double tflops = static_cast<double>(info.aiCoreNum) * info.aicFrequencyMhz * 1e6 * 8192.0 / 1e12;
  char src[320];
  std::snprintf(src, sizeof src,
                "this capture's info.json DeviceInfo (ai_core_num %d, aic_frequency %g MHz) x 8192 FP16 operations a "
                "cycle: msprof-analyze operator_mfu/chip_peak_flops.py's peak (BF16 counted as FP16)",
                info.aiCoreNum, info.aicFrequencyMhz);
  return {{info.chip, "FP16", tflops, src}, {info.chip, "BF16", tflops, src}};
}

RankMetadata readRankMetadata(const std::string& root) {
  RankMetadata m;
  if (root.empty()) return m;
  namespace fs = std::filesystem;
  readEnvironment(fs::path(root) / "profiler_metadata.json", m);
  const MsprofDeviceInfo device = msprofDeviceInfo(root);
  m.chip = device.chip;
  m.devicePeaks = devicePeaks(device);
  fs::path out = fs::path(root) / "ASCEND_PROFILER_OUTPUT";
  if (!isDirectory(out)) out = fs::path(root);
  // Anything by that name is read, so that a folder, FIFO or dangling link named like the file is
  // said by the reader ("... is a FIFO (named pipe), not a file": it never opens one) instead of
  // the finding claiming there is no such file.
  auto file = [&](const char* name) {
    const fs::path p = out / name;
    std::error_code ec;
    return fs::symlink_status(p, ec).type() != fs::file_type::not_found && !ec ? p.string() : std::string();
  };
  if (const std::string p = file("memory_record.csv"); !p.empty()) m.memoryRecord = readMemoryRecord(p);
  if (const std::string p = file("operator_memory.csv"); !p.empty()) m.operatorMemory = readOperatorMemory(p);
  if (const std::string p = file("communication.json"); !p.empty()) m.communication = readCommunicationJson(p);
  return m;
}

}  // namespace npuscope::core
