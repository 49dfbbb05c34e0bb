// SPDX-License-Identifier: MIT
// Overlap Analysis per device and per step, computed from the device tasks with CANN's rules
// (../shared/docs/ascend-profiling-format.md §4.1) and compared with what the profiler recorded
// (the trace's Overlap Analysis lanes and step_trace_time.csv, §4.2).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/slice_args.h"
#include "core/time_format.h"

namespace npuscope::core {

namespace {


std::optional<long long> stepNumber(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  long long n = 0;
  bool any = false;
  for (char c : name.substr(kPrefix.size())) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
    any = true;
  }
  return any ? std::optional<long long>(n) : std::nullopt;
}

/// CANN's compute task types (msprof op_summary_model.py) and names that are never compute.
bool isComputeTaskType(std::string_view t) {
  return t == "AI_CORE" || t == "AI_VECTOR_CORE" || t == "AI_CPU" || t == "MIX_AIC" || t == "MIX_AIV" ||
         t == "FFTS_PLUS" || t == "DSA_SQE";
}
bool isNeverComputeName(std::string_view n) {
  static constexpr std::string_view kPrefixes[] = {"MEMCPY", "Memcpy", "Memcopy", "MemcopyAsync", "EVENT_", "Notify",
                                                   "SDMA", "Write Value", "PROFILING_", "PLACE_HOLDER", "hcom",
                                                   "STREAM_", "KERNEL_", "Reduce_Inline", "RDMA"};
  for (auto p : kPrefixes)
    if (n.rfind(p, 0) == 0) return true;
  return false;
}
/// HCCL AIV communication kernels and MC2 AICPU kernels are not compute (CANN overlap processor).
bool isExcludedKernel(std::string_view n) { return n.ends_with("AivKernel") || n.ends_with("AicpuKernel"); }

OverlapFigures figuresStartingIn(const Intervals& c, const Intervals& m, const Intervals& no, const Intervals& f,
                                 TimeRange w) {
  OverlapFigures o;
  o.computing = totalStartingIn(c, w);
  o.communication = totalStartingIn(m, w);
  o.commNotOverlapped = totalStartingIn(no, w);
  o.overlapped = o.communication - o.commNotOverlapped;
  o.free = totalStartingIn(f, w);
  // Stage-like span: min start .. max end of the events that start in the window.
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const Intervals* set : {&c, &m, &no, &f}) {
    auto it = std::lower_bound(set->begin(), set->end(), w.start,
                               [](const TimeRange& r, TimeNs t) { return r.start < t; });
    for (; it != set->end() && it->start < w.end; ++it) {
      lo = std::min(lo, it->start);
      hi = std::max(hi, it->end);
    }
  }
  o.e2e = lo <= hi ? hi - lo : 0;
  return o;
}

std::string us(TimeNs ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(ns) / 1000.0);
  return buf;
}

}  // namespace

std::vector<StepWindow> stepWindows(const Trace& trace) {
  std::vector<StepWindow> steps;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const auto role = trace.processes[lane.process].role;
    if (role != Process::Role::Python && role != Process::Role::Other) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const auto n = stepNumber(trace.name(lane.names[i]));
      if (!n) continue;
      StepWindow s;
      s.number = *n;
      s.host = {lane.start[i], lane.end[i]};
      s.hostSlice = {l, i};
      steps.push_back(s);
    }
  }
  std::sort(steps.begin(), steps.end(), [](const StepWindow& a, const StepWindow& b) { return a.host.start < b.host.start; });
  // Nested duplicates (a ProfilerStep inside another) keep the outermost.
  steps.erase(std::unique(steps.begin(), steps.end(),
                          [](const StepWindow& a, const StepWindow& b) { return a.number == b.number; }),
              steps.end());
  if (steps.empty()) return steps;
  // Kernels launched from each host step, through async_npu flows (torch op -> device task).
  struct Launch { TimeNs hostTs; TimeRange task; };
  std::vector<Launch> launches;
  for (const Flow& f : trace.flows) {
    const std::string_view cat = trace.name(f.category);
    if (cat != "async_npu") continue;
    launches.push_back({f.fromTs, trace.sliceRange(f.to)});
  }
  std::sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) { return a.hostTs < b.hostTs; });
  if (!launches.empty()) {
    for (StepWindow& s : steps) {
      auto it = std::lower_bound(launches.begin(), launches.end(), s.host.start,
                                 [](const Launch& a, TimeNs t) { return a.hostTs < t; });
      TimeNs lo = INT64_MAX, hi = INT64_MIN;
      for (; it != launches.end() && it->hostTs <= s.host.end; ++it) {
        lo = std::min(lo, it->task.start);
        hi = std::max(hi, it->task.end);
      }
      s.device = {lo <= hi ? lo : s.host.start, std::max(s.host.end, lo <= hi ? hi : s.host.end)};
    }
    return steps;
  }
  // No flows: attribute device tasks to the last step that started at or before them.
  std::vector<TimeRange> tasks;
  for (const Lane& lane : trace.lanes)
    if (trace.processes[lane.process].role == Process::Role::AscendHardware ||
        trace.processes[lane.process].role == Process::Role::Communication)
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) tasks.push_back({lane.start[i], lane.end[i]});
  std::vector<TimeNs> lo(steps.size(), INT64_MAX), hi(steps.size(), INT64_MIN);
  for (const TimeRange& t : tasks) {
    auto it = std::upper_bound(steps.begin(), steps.end(), t.start,
                               [](TimeNs v, const StepWindow& s) { return v < s.host.start; });
    std::size_t k = it == steps.begin() ? 0 : static_cast<std::size_t>(it - steps.begin()) - 1;
    if (k + 1 == steps.size() && t.start > steps[k].host.end) continue;  // after the last step
    lo[k] = std::min(lo[k], t.start);
    hi[k] = std::max(hi[k], t.end);
  }
  for (std::size_t k = 0; k < steps.size(); ++k)
    steps[k].device = {lo[k] <= hi[k] ? lo[k] : steps[k].host.start,
                       std::max(steps[k].host.end, lo[k] <= hi[k] ? hi[k] : steps[k].host.end)};
  return steps;
}

namespace detail {

DeviceTasks collectDeviceTasks(const Trace& trace, int device, const KernelDetails* kernels) {
  DeviceTasks d;
  std::unordered_set<TimeNs> kernelStarts;
  if (kernels)
    for (const KernelRow& k : kernels->rows)
      if (k.start && !k.isCommunication() && (k.device < 0 || device < 0 || k.device == device))
        kernelStarts.insert(*k.start);
  std::vector<TimeRange> compute, comm, all;
  std::size_t matched = 0;
  std::unordered_map<NameId, bool> computeByName;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const Process& p = trace.processes[lane.process];
    if (p.deviceId != device && !(device < 0 && p.deviceId < 0)) continue;
    if (p.role == Process::Role::AscendHardware) {
      d.hardwareLanes.push_back(l);
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        const TimeRange r{lane.start[i], lane.end[i]};
        const std::string_view name = trace.name(lane.names[i]);
        all.push_back(r);
        if (name.rfind("hcom_", 0) == 0) {
          d.hcomOnStreams.push_back(r);
          continue;
        }
        if (isExcludedKernel(name)) continue;
        if (!kernelStarts.empty()) {
          if (kernelStarts.count(r.start)) {
            compute.push_back(r);
            ++matched;
          }
          continue;
        }
        // The Task Type arg is parsed once per kernel name (a kernel name has one task type),
        // which keeps this O(names) in args parsing rather than O(tasks).
        auto [it, inserted] = computeByName.try_emplace(lane.names[i], false);
        if (inserted) {
          const auto type = sliceArg(trace, {l, i}, "Task Type").value_or("");
          it->second = isComputeTaskType(type) ||
                       ((type == "Other" || type == "other" || type == "N/A" || type.empty()) && !isNeverComputeName(name));
        }
        if (it->second) compute.push_back(r);
      }
    } else if (p.role == Process::Role::Communication) {
      // HCCL big ops live on the group threads ("Group x Communication"); "Plane k" threads hold
      // the small tasks, which are not the communication set.
      if (lane.name.rfind("Plane", 0) == 0) continue;
      d.communicationLanes.push_back(l);
      for (std::uint32_t i = lane.rowBegin[0]; i < lane.rowBegin[std::min<std::size_t>(1, lane.depthCount())]; ++i)
        comm.push_back({lane.start[i], lane.end[i]});
    } else if (p.role == Process::Role::OverlapAnalysis) {
      d.overlapLanes.push_back(l);
    }
  }
  if (!kernelStarts.empty() && matched == 0 && kernels) {
    // kernel_details.csv did not match this trace's tasks: fall back to task types.
    d.computeRule = "Task Type (kernel_details.csv rows did not match any task)";
    return collectDeviceTasks(trace, device, nullptr);
  }
  if (d.computeRule.empty())
    d.computeRule = !kernelStarts.empty()
                        ? "kernel_details.csv (" + std::to_string(matched) + " tasks matched by start time)"
                        : "Task Type AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE, and Other-typed tasks "
                          "not named like memcpy/event/notify tasks";
  if (comm.empty() && !d.hcomOnStreams.empty()) comm = d.hcomOnStreams;
  d.compute = unionOf(std::move(compute));
  d.communication = unionOf(std::move(comm));
  d.any = unionOf(std::move(all));
  return d;
}

}  // namespace detail

namespace {

std::optional<OverlapFigures> laneFigures(const Trace& trace, const std::vector<std::uint32_t>& lanes,
                                          std::optional<TimeRange> window, Intervals* sets = nullptr) {
  if (lanes.empty()) return std::nullopt;
  Intervals c, m, no, f;
  for (auto l : lanes) {
    const Lane& lane = trace.lanes[l];
    std::vector<TimeRange> v;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) v.push_back({lane.start[i], lane.end[i]});
    Intervals u = unionOf(std::move(v));
    if (lane.name == "Computing") c = std::move(u);
    else if (lane.name == "Communication") m = std::move(u);
    else if (lane.name == "Communication(Not Overlapped)") no = std::move(u);
    else if (lane.name == "Free") f = std::move(u);
  }
  if (sets) {
    sets[0] = c;
    sets[1] = m;
    sets[2] = no;
    sets[3] = f;
  }
  if (window) return figuresStartingIn(c, m, no, f, *window);
  OverlapFigures o;
  o.computing = totalOf(c);
  o.communication = totalOf(m);
  o.commNotOverlapped = totalOf(no);
  o.overlapped = o.communication - o.commNotOverlapped;
  o.free = totalOf(f);
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const Intervals* s : {&c, &m, &no, &f})
    if (!s->empty()) {
      lo = std::min(lo, s->front().start);
      hi = std::max(hi, s->back().end);
    }
  o.e2e = lo <= hi ? hi - lo : 0;
  return o;
}

void compare(std::vector<std::string>& out, const std::string& what, TimeNs computed, TimeNs recorded) {
  if (std::llabs(computed - recorded) <= 1000) return;
  out.push_back(what + ": computed " + us(computed) + ", recorded " + us(recorded) + " (difference " +
                us(computed - recorded) + ")");
}

}  // namespace

RankAnalysis analyzeRank(const Trace& trace, const KernelDetails* kernels, const std::vector<StepTraceRow>* stepTrace,
                         const AnalysisOptions& options) {
  RankAnalysis ra;
  ra.steps = stepWindows(trace);
  std::set<int> deviceIds;
  for (const Lane& lane : trace.lanes) {
    const Process& p = trace.processes[lane.process];
    if (p.role == Process::Role::AscendHardware) deviceIds.insert(p.deviceId);
  }
  if (deviceIds.empty()) ra.notes.push_back("no Ascend Hardware lanes: no device analysis");
  for (int dev : deviceIds) {
    DeviceAnalysis da;
    da.device = dev;
    detail::DeviceTasks tasks = detail::collectDeviceTasks(trace, dev, kernels);
    da.computeSetRule = tasks.computeRule;
    da.computing = tasks.compute;
    da.communication = tasks.communication;
    da.commNotOverlapped = subtract(tasks.communication, tasks.compute);
    // Free = [begin, end] \ (C u M). The format notes (§4.1, from msprof's source) put every
    // device task in the span, but the Overlap Analysis lanes that torch_npu captures actually
    // hold start at the first Computing/Communication interval and end at the last one: leading
    // MEMCPY_ASYNC / PROFILING_ENABLE tasks are not Free (checked on the 910A and 910B corpus
    // captures, where the lanes' Free then matches to within 0.01 us). Follow the data.
    TimeNs begin = INT64_MAX, end = INT64_MIN;
    for (const Intervals* s : {&tasks.compute, &tasks.communication})
      if (!s->empty()) {
        begin = std::min(begin, s->front().start);
        end = std::max(end, s->back().end);
      }
    if (begin < end) {
      std::vector<TimeRange> busy(tasks.compute.begin(), tasks.compute.end());
      busy.insert(busy.end(), tasks.communication.begin(), tasks.communication.end());
      da.free = subtract(Intervals{{begin, end}}, unionOf(std::move(busy)));
    }
    da.computed.computing = totalOf(da.computing);
    da.computed.communication = totalOf(da.communication);
    da.computed.commNotOverlapped = totalOf(da.commNotOverlapped);
    da.computed.overlapped = da.computed.communication - da.computed.commNotOverlapped;
    da.computed.free = totalOf(da.free);
    da.computed.e2e = begin < end ? end - begin : 0;
    Intervals laneSets[4];
    da.lanes = laneFigures(trace, tasks.overlapLanes, std::nullopt, laneSets);
    if (da.lanes) {
      compare(da.discrepancies, "Computing", da.computed.computing, da.lanes->computing);
      compare(da.discrepancies, "Communication", da.computed.communication, da.lanes->communication);
      compare(da.discrepancies, "Communication(Not Overlapped)", da.computed.commNotOverlapped,
              da.lanes->commNotOverlapped);
      compare(da.discrepancies, "Free", da.computed.free, da.lanes->free);
    }
    // Per step.
    auto addStep = [&](long long number, TimeRange window, TimeNs hostStart) {
      StepOverlap so;
      so.step = number;
      so.window = window;
      so.computed = figuresStartingIn(da.computing, da.communication, da.commNotOverlapped, da.free, window);
      if (da.lanes) so.lanes = figuresStartingIn(laneSets[0], laneSets[1], laneSets[2], laneSets[3], window);
      const Intervals& c = da.lanes ? laneSets[0] : da.computing;
      const Intervals& m = da.lanes ? laneSets[1] : da.communication;
      TimeNs first = INT64_MAX;
      for (const Intervals* s : {&c, &m}) {
        auto it = std::lower_bound(s->begin(), s->end(), window.start,
                                   [](const TimeRange& r, TimeNs t) { return r.start < t; });
        if (it != s->end() && it->start < window.end) first = std::min(first, it->start);
      }
      if (first != INT64_MAX) so.preparing = first - hostStart;
      if (stepTrace)
        for (const StepTraceRow& row : *stepTrace)
          if ((row.step ? *row.step : -1) == number && (row.device < 0 || dev < 0 || row.device == dev)) so.csv = row;
      da.steps.push_back(so);
    };
    if (ra.steps.empty()) {
      addStep(-1, {begin, end == INT64_MIN ? begin : end + 1}, begin);
    } else {
      for (const StepWindow& s : ra.steps) addStep(s.number, s.device, s.host.start);
    }
    for (const StepOverlap& so : da.steps) {
      if (!so.csv) continue;
      const std::string tag = "step " + (so.step >= 0 ? std::to_string(so.step) : std::string("(all)")) + " ";
      const OverlapFigures& basis = so.lanes ? *so.lanes : so.computed;
      const std::string src = so.lanes ? "Overlap Analysis lanes" : "computed";
      auto cmp = [&](const char* what, TimeNs v, double csvUs) {
        const TimeNs c = static_cast<TimeNs>(std::llround(csvUs * 1000.0));
        if (std::llabs(v - c) > 1000)
          da.discrepancies.push_back(tag + what + ": " + src + " " + us(v) + ", step_trace_time.csv " + us(c));
      };
      cmp("Computing", basis.computing, so.csv->computing);
      cmp("Communication(Not Overlapped)", basis.commNotOverlapped, so.csv->commNotOverlapped);
      cmp("Communication", basis.communication, so.csv->communication);
      cmp("Free", basis.free, so.csv->free);
    }
    da.bubbles = detail::findBubbles(trace, da, ra.steps, options);
    ra.devices.push_back(std::move(da));
  }
  ra.verdict = makeVerdict(trace, ra);
  return ra;
}

}  // namespace npuscope::core
