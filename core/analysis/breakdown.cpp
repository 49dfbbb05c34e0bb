// SPDX-License-Identifier: MIT
// What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5).

#include "core/analysis/breakdown.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/analysis.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"

namespace npuscope::core {

namespace {

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

std::string pct(TimeNs part, TimeNs whole) {
  return formatPercent(whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0, 1);
}

/// Intersection of two sorted disjoint interval sets.
Intervals intersect(const Intervals& a, const Intervals& b) {
  Intervals out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const TimeNs s = std::max(a[i].start, b[j].start), e = std::min(a[i].end, b[j].end);
    if (s < e) out.push_back({s, e});
    if (a[i].end < b[j].end) ++i;
    else ++j;
  }
  return out;
}

enum class PlaneTask : std::uint8_t { Transfer, Wait, Signal };

/// Notify waits (Notify_Wait, "Notify Wait", NOTIFY_WAIT) wait; other notify tasks (Notify_Record)
/// signal; everything else on a plane moves or reduces data.
PlaneTask planeTaskKind(std::string_view name) {
  const std::string n = lower(name);
  if (n.rfind("notify", 0) != 0) return PlaneTask::Transfer;
  return n.find("wait") != std::string::npos ? PlaneTask::Wait : PlaneTask::Signal;
}

bool onDevice(const Process& p, int device) { return p.deviceId == device || (device < 0 && p.deviceId < 0); }

}  // namespace

const char* operatorClass(std::string_view opTypeOrName) {
  const std::string t = lower(opTypeOrName);
  if (t.find("flashattention") != std::string::npos || t.find("fusedinferattention") != std::string::npos)
    return "FlashAttention";
  if (t.rfind("conv", 0) == 0) return "Convolution";
  if (t.find("matmul") != std::string::npos || t.find("gemm") != std::string::npos) return "MatMul";
  return "Other";
}

CommBreakdown commBreakdown(const Trace& trace, int device, const Intervals& exposed, const CommunicationJson* json) {
  CommBreakdown c;
  c.exposed = totalOf(exposed);
  if (json) {
    if (!json->error.empty()) c.jsonMessage = json->error;
    if (!json->ops.empty()) {
      c.json = json->sum();
      c.jsonOps = json->ops.size();
    } else if (c.jsonMessage.empty()) {
      c.jsonMessage = npuTr("npuscope::core::Breakdown", "communication.json holds no op");
    }
    if (!json->warnings.empty() && c.jsonMessage.empty())
      c.jsonMessage = i18n::format(npuTr("npuscope::core::Breakdown", "%1 problem(s), first: %2"),
                                   {std::to_string(json->warnings.size()), json->warnings.front()});
  } else {
    c.jsonMessage = npuTr("npuscope::core::Breakdown", "no communication.json");
  }

  // Groups in display (thread sort) order: a lane whose name contains "Communication" opens a
  // group, the Plane lanes after it belong to it (msprof-analyze _filter_meta_id).
  struct Plane {
    std::string name;
    TimeNs waitSum = 0;    // msprof-analyze's counted Notify_Wait durations, whole capture
    Intervals msprofWaits; // those tasks as a union
  };
  struct Group {
    std::string name;
    Intervals ops;
    std::vector<Plane> planes;
  };
  std::vector<Group> groups;
  std::vector<TimeRange> transfer, wait;
  std::vector<std::int8_t> kindOf(trace.strings.size(), -1);  // planeTaskKind per name, decided once
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const Process& p = trace.processes[lane.process];
    if (p.role != Process::Role::Communication || !onDevice(p, device)) continue;
    if (lane.name.find("Communication") != std::string::npos) {
      Group g;
      g.name = lane.name;
      UnionBuilder u;
      const std::uint32_t end0 = lane.rowBegin[std::min<std::size_t>(1, lane.depthCount())];
      for (std::uint32_t i = lane.rowBegin[0]; i < end0; ++i) u.add({lane.start[i], lane.end[i]});
      g.ops = u.take();
      groups.push_back(std::move(g));
      continue;
    }
    if (lane.name.rfind("Plane", 0) != 0) continue;
    if (groups.empty()) groups.push_back(Group{"(no group)", {}, {}});
    Plane pl;
    pl.name = lane.name;
    // Tasks in start order for the RDMA pattern (the last four task kinds on this plane).
    std::vector<std::uint32_t> order(lane.sliceCount());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return lane.start[a] < lane.start[b]; });
    if (!order.empty()) ++c.planes;
    // The last four task kinds: R = RDMASend, N = Notify_Wait, O = other; none before the first task.
    char last4[4] = {'O', 'O', 'O', 'O'};
    bool anyTask = false;
    const NameId rdmaSend = trace.strings.find("RDMASend");
    std::vector<TimeRange> counted;
    for (std::uint32_t i : order) {
      const TimeRange r{lane.start[i], lane.end[i]};
      const NameId nameId = lane.names[i];
      std::int8_t& kind = kindOf[nameId];
      if (kind < 0) kind = static_cast<std::int8_t>(planeTaskKind(trace.name(nameId)));
      const auto k = static_cast<PlaneTask>(kind);
      if (k == PlaneTask::Transfer) transfer.push_back(r);
      else if (k == PlaneTask::Wait) wait.push_back(r);
      char mode = 'O';
      if (nameId == rdmaSend) mode = 'R';
      else if (k == PlaneTask::Wait) {
        mode = 'N';
        // msprof-analyze: a Notify_Wait after RDMASend,RDMASend or after RDMASend,RDMASend,
        // Notify_Wait,RDMASend belongs to the RDMA transfer, not to the wait.
        const bool rdma = anyTask && ((last4[0] == 'R' && last4[1] == 'R' && last4[2] == 'N' && last4[3] == 'R') ||
                                      (last4[2] == 'R' && last4[3] == 'R'));
        if (!rdma) {
          counted.push_back(r);
          pl.waitSum += r.end - r.start;
        }
      }
      last4[0] = last4[1];
      last4[1] = last4[2];
      last4[2] = last4[3];
      last4[3] = mode;
      anyTask = true;
    }
    pl.msprofWaits = unionOf(std::move(counted));
    groups.back().planes.push_back(std::move(pl));
  }
  c.fromTrace = c.planes > 0;
  if (!c.fromTrace) return c;

  const Intervals tr = intersect(exposed, unionOf(std::move(transfer)));
  const Intervals wt = subtract(intersect(exposed, unionOf(std::move(wait))), tr);
  c.transmitting = totalOf(tr);
  c.waiting = totalOf(wt);
  c.other = c.exposed - c.transmitting - c.waiting;

  for (const Group& g : groups) {
    if (g.planes.empty()) continue;
    const Plane* best = nullptr;
    for (const Plane& pl : g.planes)
      if (!best || pl.waitSum < best->waitSum) best = &pl;
    const TimeNs groupExposed = totalOf(intersect(exposed, g.ops));
    const TimeNs w = totalOf(intersect(exposed, best->msprofWaits));
    c.msprofWait += w;
    c.msprofTransmit += std::max<TimeNs>(0, groupExposed - w);
    if (!c.msprofPlanes.empty()) c.msprofPlanes += ", ";
    c.msprofPlanes += g.name + ": " + best->name;
  }
  return c;
}

ComputeBreakdown computeBreakdown(const Trace& trace, const std::vector<SliceRef>& computeTasks,
                                  const KernelDetails* kernels) {
  ComputeBreakdown b;
  std::unordered_map<TimeNs, const KernelRow*> byStart;
  if (kernels)
    for (const KernelRow& k : kernels->rows)
      if (k.start && !k.isCommunication()) byStart.emplace(*k.start, &k);
  // The backward threads: the lanes holding the end of a fwdbwd flow (torch_npu draws it from the
  // forward op to its backward op only when their threads differ, format §2.6).
  std::unordered_set<std::uint32_t> bwdLanes;
  const NameId fwdbwd = trace.strings.find("fwdbwd");
  const NameId asyncNpu = trace.strings.find("async_npu");
  // A Kineto trace's launch flows are ac2g, from the runtime launch on the launching thread (§6.1).
  const NameId ac2g = trace.strings.find("ac2g");
  if (fwdbwd != kInvalidIndex)
    for (const Flow& f : trace.flows)
      if (f.category == fwdbwd && f.to.valid()) bwdLanes.insert(f.to.lane);
  const bool passMarked = !bwdLanes.empty();
  b.passNote = passMarked ? npuTr("npuscope::core::Breakdown", "backward = launched from a thread that ends a fwdbwd flow")
                          : npuTr("npuscope::core::Breakdown", "not marked (no fwdbwd flow)");

  // Each part's union length, swept in global start order (the tasks are visited through a k-way
  // merge of their sorted runs, below): nothing is stored per task.
  struct Acc {
    TimeNs curEnd = INT64_MIN;
    TimeNs total = 0;
    std::size_t n = 0;
    Intervals u;  // the union itself, for the exclusive attribution below
    void add(TimeRange t) {
      if (t.end > curEnd) {
        total += t.end - std::max(t.start, curEnd);
        curEnd = t.end;
      }
      if (u.empty() || t.start > u.back().end) u.push_back(t);
      else u.back().end = std::max(u.back().end, t.end);
      ++n;
    }
  };
  std::map<std::string, Acc> core, cls, pass;
  for (const char* k : {"FlashAttention", "Convolution", "MatMul", "Other"}) cls[k];
  // Each task's parts, decided once per kernel_details row or per kernel name (a name has one
  // Task Type), and held as pointers to the map's vectors: no string work per task.
  using Parts = std::pair<Acc*, Acc*>;
  const auto partsFor = [&](std::string coreKey, const std::string& typeText) -> Parts {
    if (coreKey.empty() || coreKey == "N/A") coreKey = "unknown";
    return {&core[coreKey], &cls[operatorClass(typeText)]};
  };
  std::unordered_map<const KernelRow*, Parts> partsOfRow;
  std::vector<Parts> partsOfName(trace.strings.size(), Parts{nullptr, nullptr});  // by NameId
  // The pass of each task: the first async_npu flow into it, from a backward thread (2) or not
  // (1); 0 without one. One pass over the flows, per-lane columns of the task lanes only.
  std::vector<std::vector<std::uint8_t>> passOf(trace.lanes.size());
  if (passMarked && (asyncNpu != kInvalidIndex || ac2g != kInvalidIndex)) {
    for (const SliceRef& r : computeTasks)
      if (r.valid() && r.lane < trace.lanes.size() && passOf[r.lane].empty())
        passOf[r.lane].assign(trace.lanes[r.lane].sliceCount(), 0);
    for (const Flow& f : trace.flows)
      if ((f.category == asyncNpu || f.category == ac2g) && f.from.valid() && f.to.valid() && f.to.lane < passOf.size() &&
          f.to.index < passOf[f.to.lane].size() && passOf[f.to.lane][f.to.index] == 0)
        passOf[f.to.lane][f.to.index] = bwdLanes.count(f.from.lane) ? 2 : 1;
  }
  Acc* passPart[3] = {&pass["forward"], &pass["backward"], &pass["no launch"]};
  std::size_t fromRows = 0;
  // computeTasks come lane by lane, row by row: runs sorted by start. Merge the runs.
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) in computeTasks
  {
    TimeNs prev = INT64_MIN;
    for (std::size_t i = 0; i < computeTasks.size(); ++i) {
      const SliceRef& r = computeTasks[i];
      const TimeNs st = r.valid() && r.lane < trace.lanes.size() ? trace.lanes[r.lane].start[r.index] : prev;
      if (runs.empty() || st < prev) runs.push_back({i, i});
      runs.back().second = i + 1;
      prev = st;
    }
  }
  using Head = std::pair<TimeNs, std::size_t>;  // (start, run)
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  const auto startOf = [&](std::size_t i) {
    const SliceRef& r = computeTasks[i];
    return r.valid() && r.lane < trace.lanes.size() ? trace.lanes[r.lane].start[r.index] : INT64_MIN;
  };
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (runs[k].first < runs[k].second) heads.push({startOf(runs[k].first), k});
  Acc all;
  while (!heads.empty()) {
    const std::size_t k = heads.top().second;
    heads.pop();
    const SliceRef r = computeTasks[runs[k].first++];
    if (runs[k].first < runs[k].second) heads.push({startOf(runs[k].first), k});
    if (!r.valid() || r.lane >= trace.lanes.size()) continue;
    const TimeRange t = trace.sliceRange(r);
    all.add(t);
    const auto it = byStart.find(t.start);
    const KernelRow* row = it == byStart.end() ? nullptr : it->second;
    Parts parts;
    if (row) {
      ++fromRows;
      auto pr = partsOfRow.find(row);
      if (pr == partsOfRow.end())
        pr = partsOfRow.emplace(row, partsFor(row->core, row->type.empty() || row->type == "N/A" ? row->name : row->type))
                 .first;
      parts = pr->second;
    } else {
      const NameId n = trace.lanes[r.lane].names[r.index];
      Parts& pn = partsOfName[n];
      if (!pn.first) pn = partsFor(sliceArg(trace, r, "Task Type").value_or(""), std::string(trace.name(n)));
      parts = pn;
    }
    parts.first->add(t);
    parts.second->add(t);
    if (passMarked) {
      const std::uint8_t pw = r.index < passOf[r.lane].size() ? passOf[r.lane][r.index] : 0;
      passPart[pw == 0 ? 2 : pw == 2 ? 1 : 0]->add(t);
    }
  }
  for (auto it = pass.begin(); it != pass.end();) it = it->second.n == 0 ? pass.erase(it) : std::next(it);
  b.tasks = all.n;
  b.total = all.total;
  b.coreSource = fromRows == b.tasks && b.tasks > 0 ? "kernel_details.csv Accelerator Core"
                 : fromRows > 0 ? i18n::format(npuTr("npuscope::core::Breakdown", "kernel_details.csv Accelerator Core (%1 without a row: trace "
                                                       "Task Type)"),
                                               {countNoun(b.tasks - fromRows, npuTr("npuscope::core::Breakdown", "task"), npuTr("npuscope::core::Breakdown", "tasks"))})
                                : npuTr("npuscope::core::Breakdown", "trace Task Type");
  b.classSource = fromRows == b.tasks && b.tasks > 0 ? "kernel_details.csv Type"
                  : fromRows > 0 ? npuTr("npuscope::core::Breakdown", "kernel_details.csv Type, else task name")
                                 : npuTr("npuscope::core::Breakdown", "task name");
  // Each part's exclusive time: Computing minus the union of the other parts of its split (the
  // time it alone runs); what is left is the split's overlap (docs/diagnosis.md §5.2).
  const auto parts = [&all](std::map<std::string, Acc>& m, TimeNs& overlap) {
    std::vector<BreakdownPart> v;
    TimeNs exclusiveSum = 0;
    for (auto& [k, acc] : m) {
      BreakdownPart p;
      p.key = k;
      p.tasks = acc.n;
      p.ns = acc.total;
      Intervals others;
      for (auto& [k2, acc2] : m)
        if (k2 != k && !acc2.u.empty()) others = mergeUnion(others, acc2.u);
      p.exclusive = acc.total > 0 ? std::max<TimeNs>(0, all.total - totalOf(others)) : 0;
      exclusiveSum += p.exclusive;
      v.push_back(std::move(p));
    }
    overlap = std::max<TimeNs>(0, all.total - exclusiveSum);
    return v;
  };
  b.byCore = parts(core, b.coreOverlap);
  std::sort(b.byCore.begin(), b.byCore.end(), [](const auto& x, const auto& y) { return x.exclusive > y.exclusive; });
  std::vector<BreakdownPart> c = parts(cls, b.classOverlap);
  for (const char* k : {"FlashAttention", "Convolution", "MatMul", "Other"})
    for (auto& p : c)
      if (p.key == k) b.byClass.push_back(p);
  if (passMarked) {
    std::vector<BreakdownPart> p = parts(pass, b.passOverlap);
    for (const char* k : {"forward", "backward", "no launch"})
      for (auto& x : p)
        if (x.key == k) b.byPass.push_back(x);
  }
  return b;
}

std::string commBreakdownText(const CommBreakdown& c) {
  std::string s;
  if (c.fromTrace) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: waiting %2, transmitting %3, neither %4 (primary: HCCL "
                               "plane tasks); cross-check msprof-analyze rule (least-waiting plane): wait %5, transmit %6"),
                     {formatDuration(c.exposed), pct(c.waiting, c.exposed), pct(c.transmitting, c.exposed),
                      pct(c.other, c.exposed), pct(c.msprofWait, c.exposed), pct(c.msprofTransmit, c.exposed)});
  } else if (c.exposed > 0 && c.kineto) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: collective kernels on the streams (Kineto trace), waiting vs "
                               "transmitting unknown from the trace"),
                     {formatDuration(c.exposed)});
  } else if (c.exposed > 0) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: no HCCL plane task recorded (Level0?), waiting vs "
                               "transmitting unknown from the trace"),
                     {formatDuration(c.exposed)});
  }
  if (c.json) {
    if (!s.empty()) s += "; ";
    s += i18n::format(c.fromTrace ? npuTr("npuscope::core::Breakdown", "cross-check communication.json (%1): elapse %2, transit %3, wait %4 "
                                              "(of which synchronization %5), idle %6")
                                  : npuTr("npuscope::core::Breakdown", "primary: communication.json (%1): elapse %2, transit %3, wait %4 (of "
                                              "which synchronization %5), idle %6"),
                      {countNoun(c.jsonOps, npuTr("npuscope::core::Breakdown", "op"), npuTr("npuscope::core::Breakdown", "ops")), formatDuration(c.json->elapse),
                       formatDuration(c.json->transit), formatDuration(c.json->wait),
                       formatDuration(c.json->synchronization), formatDuration(c.json->idle)});
  }
  return s;
}

namespace {

/// A forward/backward part's key ("forward", "backward", "no launch": JSON ids) for a sentence.
std::string passLabel(const std::string& key) {
  if (key == "forward") return npuTr("npuscope::core::Breakdown", "forward");
  if (key == "backward") return npuTr("npuscope::core::Breakdown", "backward");
  if (key == "no launch") return npuTr("npuscope::core::Breakdown", "no launch");
  return key;
}

/// " / several at once 15.0%" when a split's parts overlap, else "".
std::string overlapPart(TimeNs overlap, TimeNs total, const char* sep) {
  return overlap > 0 ? std::string(sep) + i18n::format(npuTr("npuscope::core::Breakdown", "several at once %1"), {pct(overlap, total)})
                     : std::string();
}

/// Exclusive shares of Computing (docs/diagnosis.md §5.2), each split adding up to 100%:
/// "MatMul 12.0%, Other 88.0%; AI_CORE 40.0% / AI_VECTOR_CORE 60.0%; forward .. / backward ..",
/// with "several at once" for the time two or more parts of a split run together.
std::string computeParts(const ComputeBreakdown& c) {
  std::string s;
  bool first = true;
  for (const auto& p : c.byClass) {
    if (p.ns <= 0) continue;
    s += (first ? "" : ", ") + p.key + " " + pct(p.exclusive, c.total);
    first = false;
  }
  s += overlapPart(c.classOverlap, c.total, ", ");
  s += "; ";
  first = true;
  for (const auto& p : c.byCore) {
    // Core types are names (AI_CORE, ...); "unknown" is the key for tasks without one.
    s += (first ? "" : " / ") + (p.key == "unknown" ? npuTr("npuscope::core::Breakdown", "unknown") : p.key) + " " +
         pct(p.exclusive, c.total);
    first = false;
  }
  s += overlapPart(c.coreOverlap, c.total, " / ");
  if (!c.byPass.empty()) {
    s += "; ";
    first = true;
    for (const auto& p : c.byPass) {
      s += (first ? "" : " / ") + passLabel(p.key) + " " + pct(p.exclusive, c.total);
      first = false;
    }
    s += overlapPart(c.passOverlap, c.total, " / ");
  } else {
    s += i18n::format(npuTr("npuscope::core::Breakdown", "; forward/backward %1"), {c.passNote});
  }
  return s;
}

}  // namespace

std::string computeBreakdownText(const ComputeBreakdown& c) {
  if (c.total <= 0) return "";
  return i18n::format(npuTr("npuscope::core::Breakdown", "Computing %1: %2"), {formatDuration(c.total), computeParts(c)});
}

namespace {

/// The other two figures than npuscope's plane rule, as "msprof-analyze rule wait 62.4% (+8.1 points);
/// communication.json wait 50.0% of the ops' time (-4.3 points)" (docs/diagnosis.md §5.1).
std::string crossChecks(const CommBreakdown& c, double primary) {
  const auto diff = [primary](double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f", (x - primary) * 100.0);
    return i18n::format(npuTr("npuscope::core::Breakdown", "%1 points"), {b});
  };
  std::string s = i18n::format(
      npuTr("npuscope::core::Breakdown", "msprof-analyze's rule (least-waiting plane) wait %1 (%2)"),
      {pct(c.msprofWait, c.exposed),
       diff(c.exposed > 0 ? static_cast<double>(c.msprofWait) / static_cast<double>(c.exposed) : 0.0)});
  if (c.json && c.json->elapse > 0)
    s += i18n::format(npuTr("npuscope::core::Breakdown", "; communication.json wait %1 of the ops' whole time, hidden or not (%2)"),
                      {pct(c.json->wait, c.json->elapse),
                       diff(static_cast<double>(c.json->wait) / static_cast<double>(c.json->elapse))});
  else
    s += npuTr("npuscope::core::Breakdown", "; communication.json not read");
  return s;
}

}  // namespace

std::vector<std::string> breakdownFindings(const DeviceAnalysis& da, const Verdict& v) {
  std::vector<std::string> out;
  const CommBreakdown& c = da.comm;
  if (v.dominant == "communication") {
    // One primary figure with its source, the others as cross-checks with their difference, and
    // "dominates" only for a clear majority (kClearMajority; docs/diagnosis.md §5.1).
    double waitShare = -1, transmitShare = -1;
    std::string s;
    if (c.fromTrace && c.exposed > 0) {
      waitShare = static_cast<double>(c.waiting) / static_cast<double>(c.exposed);
      transmitShare = static_cast<double>(c.transmitting) / static_cast<double>(c.exposed);
      s = i18n::format(npuTr("npuscope::core::Breakdown", "Of the exposed communication (%1), %2 is waiting (notify waits: another rank or "
                                 "stream is not ready, a synchronisation) and %3 transmitting (data moving on the "
                                 "links); source: the trace's HCCL plane tasks (npuscope's rule). Cross-checks: %4."),
                       {formatDuration(c.exposed), pct(c.waiting, c.exposed), pct(c.transmitting, c.exposed),
                        crossChecks(c, waitShare)});
    } else if (c.json && c.json->elapse > 0) {
      waitShare = static_cast<double>(c.json->wait) / static_cast<double>(c.json->elapse);
      transmitShare = static_cast<double>(c.json->transit) / static_cast<double>(c.json->elapse);
      s = i18n::format(npuTr("npuscope::core::Breakdown", "communication.json: of %1 in %2, %3 is waiting (synchronisation %4) and %5 "
                                 "transmitting; the trace has no plane tasks to place them in the exposed time."),
                       {formatDuration(c.json->elapse), countNoun(c.jsonOps, npuTr("npuscope::core::Breakdown", "op"), npuTr("npuscope::core::Breakdown", "ops")),
                        pct(c.json->wait, c.json->elapse), pct(c.json->synchronization, c.json->elapse),
                        pct(c.json->transit, c.json->elapse)});
    }
    if (!s.empty()) out.push_back(s);
    // The cross-checks (trace primary only): one more than kCrossCheckMargin away means the
    // sources disagree, so no side is said to dominate (docs/diagnosis.md §5.1).
    std::string disagree;
    if (c.fromTrace && c.exposed > 0) {
      const auto far = [&](const std::string& what, double x) {
        if (std::abs(x - waitShare) <= kCrossCheckMargin) return;
        char share[32], diff[32];
        std::snprintf(share, sizeof share, "%.1f%%", x * 100.0);
        std::snprintf(diff, sizeof diff, "%+.1f", (x - waitShare) * 100.0);
        disagree += (disagree.empty() ? "" : "; ") +
                    i18n::format(npuTr("npuscope::core::Breakdown", "%1 wait %2 (%3 points)"), {what, share, diff});
      };
      if (c.msprofWait + c.msprofTransmit > 0)
        far(npuTr("npuscope::core::Breakdown", "msprof-analyze's rule"), static_cast<double>(c.msprofWait) / static_cast<double>(c.exposed));
      if (c.json && c.json->elapse > 0)
        far("communication.json", static_cast<double>(c.json->wait) / static_cast<double>(c.json->elapse));
    }
    if (!disagree.empty())
      out.push_back(i18n::format(
          npuTr("npuscope::core::Breakdown", "The sources disagree on waiting vs transmitting: the plane rule says wait %1 but %2, more than %3 "
                    "points apart, so no side is said to dominate. Check which is right: compare the Notify Wait tasks "
                    "of the HCCL planes with communication.json's Wait and Idle per op, and the plane msprof-analyze "
                    "picks (an idle plane counts as transmitting there)."),
          {formatPercent(waitShare, 1), disagree, std::to_string(static_cast<int>(kCrossCheckMargin * 100.0 + 0.5))}));
    else if (waitShare >= kClearMajority)
      out.push_back(i18n::format(
          npuTr("npuscope::core::Breakdown", "Waiting dominates (%1, at or above two thirds), so the links are not the problem: the rank waits for "
                    "another rank or stream. Compare when the ranks reach each collective (a late rank shows its compute "
                    "or dispatch); when they arrive together the wait is not explained by this capture."),
          {formatPercent(waitShare, 1)}));
    else if (transmitShare >= kClearMajority)
      out.push_back(npuTr("npuscope::core::Breakdown", "Transmitting dominates (at or above two thirds): the time goes to moving data; look at "
                              "the message sizes, the links' bandwidth and the algorithm."));
    else if (waitShare >= 0)
      out.push_back(npuTr("npuscope::core::Breakdown", "Waiting vs transmitting is mixed (neither reaches two thirds): the exposed communication "
                              "is not explained by one side; look at both the slowest rank and the transfers."));
  } else if (v.dominant == "compute" && da.compute.total > 0) {
    out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "Computing (%1) is made of: %2."),
                               {formatDuration(da.compute.total), computeParts(da.compute)}));
  }
  return out;
}

}  // namespace npuscope::core
