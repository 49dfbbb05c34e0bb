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

#include "core/base/ascii.h"
#include "core/analysis/analysis.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"

namespace npuscope::core {

namespace detail {

std::unordered_set<std::uint32_t> backwardLanes(const Trace& trace) {
  std::unordered_set<std::uint32_t> lanes;
  const NameId fwdbwd = trace.strings.find("fwdbwd");
  if (fwdbwd != kInvalidIndex)
    for (const Flow& f : trace.flows)
      if (f.category == fwdbwd && f.to.valid()) lanes.insert(f.to.lane);
  return lanes;
}

}  // namespace detail

namespace {

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

bool onDevice(const Process& p, int device) { return p.deviceId == device || (device < 0 && p.deviceId < 0); }

}  // namespace

const char* operatorClass(std::string_view opTypeOrName) {
  const std::string t = asciiLower(opTypeOrName);
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
  for (const Lane& lane : trace.lanes) {
    const Process& p = trace.processes[lane.process];
    if (p.role == Process::Role::Communication && onDevice(p, device) && lane.name.rfind("Plane", 0) == 0 &&
        lane.sliceCount() > 0)
      ++c.planes;
  }
  CommOpIntervals iv;
  c.ops = commOps(trace, device, json, &c.links, &iv);
  c.fromTrace = std::any_of(c.ops.begin(), c.ops.end(), [](const CommOp& o) { return o.hasTasks; });
  if (!c.fromTrace) return c;

  // One split in priority order: synchronization, transit, wait, idle (docs/diagnosis.md §5.1).
  const Intervals sync = intersect(exposed, unionOf(iv.synchronization));
  const Intervals transit = subtract(intersect(exposed, unionOf(std::move(iv.transit))), sync);
  const Intervals busy = mergeUnion(sync, transit);
  const Intervals wait = subtract(intersect(exposed, unionOf(std::move(iv.wait))), busy);
  const Intervals idle = subtract(subtract(exposed, busy), wait);
  c.synchronization = totalOf(sync);
  c.transit = totalOf(transit);
  c.wait = totalOf(wait);
  c.idle = c.exposed - c.synchronization - c.transit - c.wait;
  // Attribution to peers: the part of a class covered by the waits for each peer.
  const auto byPeer = [](const Intervals& within, const std::vector<std::pair<TimeRange, int>>& waits) {
    std::map<int, std::vector<TimeRange>> of;
    for (const auto& [r, peer] : waits) of[peer].push_back(r);
    std::vector<PeerWait> out;
    for (auto& [peer, v] : of) {
      const TimeNs ns = totalOf(intersect(within, unionOf(std::move(v))));
      if (ns > 0) out.push_back(PeerWait{peer, ns, {}});
    }
    std::sort(out.begin(), out.end(), [](const PeerWait& a, const PeerWait& b) { return a.ns > b.ns; });
    return out;
  };
  c.synchronizationByPeer = byPeer(sync, iv.syncWaits);
  std::vector<TimeRange> peerRanges;
  peerRanges.reserve(iv.peerWaits.size());
  for (const auto& pw : iv.peerWaits) peerRanges.push_back(pw.first);
  const Intervals idlePeer = intersect(idle, unionOf(std::move(peerRanges)));
  c.idlePeerWait = totalOf(idlePeer);
  c.idleByPeer = byPeer(idlePeer, iv.peerWaits);
  c.idleOtherTransfer = totalOf(intersect(subtract(idle, idlePeer), unionOf(std::move(iv.otherTransfers))));
  // The longest task behind each peer's share, to select on the timeline.
  for (PeerWait& pw : c.synchronizationByPeer)
    for (const CommOp& o : c.ops)
      if (o.syncPeer.peer == pw.peer && o.syncPeer.longest.valid()) {
        pw.longest = o.syncPeer.longest;
        break;
      }
  for (PeerWait& pw : c.idleByPeer) {
    TimeNs best = 0;
    for (const CommOp& o : c.ops)
      if (o.idleWait.peer == pw.peer && o.idleWait.ns > best) {
        best = o.idleWait.ns;
        pw.longest = o.idleWait.longest;
      }
  }
  return c;
}

namespace {

/// One part of a computing split: its union length, swept in global start order (nothing is
/// stored per task but the union itself, kept for the exclusive attribution), and its task count.
struct PartAcc {
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

/// The pass of each compute task (per lane, per slice): the first async_npu (or Kineto ac2g) flow
/// into it, from a backward thread (2) or not (1); 0 without one. One pass over the flows,
/// per-lane columns of the task lanes only; empty when the passes are not marked.
std::vector<std::vector<std::uint8_t>> passesOf(const Trace& trace, const std::vector<SliceRef>& computeTasks,
                                                const std::unordered_set<std::uint32_t>& bwdLanes) {
  const NameId asyncNpu = trace.strings.find("async_npu");
  // A Kineto trace's launch flows are ac2g, from the runtime launch on the launching thread (§6.1).
  const NameId ac2g = trace.strings.find("ac2g");
  std::vector<std::vector<std::uint8_t>> passOf(trace.lanes.size());
  if (bwdLanes.empty() || (asyncNpu == kInvalidIndex && ac2g == kInvalidIndex)) return passOf;
  for (const SliceRef& r : computeTasks)
    if (r.valid() && r.lane < trace.lanes.size() && passOf[r.lane].empty())
      passOf[r.lane].assign(trace.lanes[r.lane].sliceCount(), 0);
  for (const Flow& f : trace.flows)
    if ((f.category == asyncNpu || f.category == ac2g) && f.from.valid() && f.to.valid() && f.to.lane < passOf.size() &&
        f.to.index < passOf[f.to.lane].size() && passOf[f.to.lane][f.to.index] == 0)
      passOf[f.to.lane][f.to.index] = bwdLanes.count(f.from.lane) ? 2 : 1;
  return passOf;
}

/// Calls `fn(r)` for each task of `computeTasks` in start order. They come lane by lane, row by
/// row: runs sorted by start, visited through a k-way merge of the runs.
template <class Fn>
void forEachByStart(const Trace& trace, const std::vector<SliceRef>& computeTasks, Fn&& fn) {
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
  while (!heads.empty()) {
    const std::size_t k = heads.top().second;
    heads.pop();
    const SliceRef r = computeTasks[runs[k].first++];
    if (runs[k].first < runs[k].second) heads.push({startOf(runs[k].first), k});
    fn(r);
  }
}

/// The parts of one split with their exclusive time: Computing (`all`) minus the union of the
/// other parts of the split (the time the part alone runs); what is left is the split's overlap
/// (docs/diagnosis.md §5.2).
std::vector<BreakdownPart> exclusiveParts(const std::map<std::string, PartAcc>& m, TimeNs all, TimeNs& overlap) {
  std::vector<BreakdownPart> v;
  TimeNs exclusiveSum = 0;
  for (const auto& [k, acc] : m) {
    BreakdownPart p;
    p.key = k;
    p.tasks = acc.n;
    p.ns = acc.total;
    Intervals others;
    for (const auto& [k2, acc2] : m)
      if (k2 != k && !acc2.u.empty()) others = mergeUnion(others, acc2.u);
    p.exclusive = acc.total > 0 ? std::max<TimeNs>(0, all - totalOf(others)) : 0;
    exclusiveSum += p.exclusive;
    v.push_back(std::move(p));
  }
  overlap = std::max<TimeNs>(0, all - exclusiveSum);
  return v;
}

/// Where the core and class splits came from: kernel_details.csv for every task, for some (the
/// rest from the trace's Task Type and task names), or none.
void setSplitSources(ComputeBreakdown& b, std::size_t fromRows) {
  b.coreSource = fromRows == b.tasks && b.tasks > 0 ? "kernel_details.csv Accelerator Core"
                 : fromRows > 0 ? i18n::format(npuTr("npuscope::core::Breakdown", "kernel_details.csv Accelerator Core (%1 without a row: trace "
                                                       "Task Type)"),
                                               {countNoun(b.tasks - fromRows, npuTr("npuscope::core::Breakdown", "task"), npuTr("npuscope::core::Breakdown", "tasks"))})
                                : npuTr("npuscope::core::Breakdown", "trace Task Type");
  b.classSource = fromRows == b.tasks && b.tasks > 0 ? "kernel_details.csv Type"
                  : fromRows > 0 ? npuTr("npuscope::core::Breakdown", "kernel_details.csv Type, else task name")
                                 : npuTr("npuscope::core::Breakdown", "task name");
}

}  // namespace

ComputeBreakdown computeBreakdown(const Trace& trace, const std::vector<SliceRef>& computeTasks,
                                  const KernelDetails* kernels) {
  ComputeBreakdown b;
  std::unordered_map<TimeNs, const KernelRow*> byStart;
  if (kernels)
    for (const KernelRow& k : kernels->rows)
      if (k.start && !k.isCommunication()) byStart.emplace(*k.start, &k);
  const std::unordered_set<std::uint32_t> bwdLanes = detail::backwardLanes(trace);
  const bool passMarked = !bwdLanes.empty();
  b.passNote = passMarked ? npuTr("npuscope::core::Breakdown", "backward = launched from a thread that ends a fwdbwd flow")
                          : npuTr("npuscope::core::Breakdown", "not marked (no fwdbwd flow)");
  std::map<std::string, PartAcc> core, cls, pass;
  for (const char* k : {"FlashAttention", "Convolution", "MatMul", "Other"}) cls[k];
  // Each task's parts, decided once per kernel_details row or per kernel name (a name has one
  // Task Type), and held as pointers to the map's vectors: no string work per task.
  using Parts = std::pair<PartAcc*, PartAcc*>;
  const auto partsFor = [&](std::string coreKey, const std::string& typeText) -> Parts {
    if (coreKey.empty() || coreKey == "N/A") coreKey = "unknown";
    return {&core[coreKey], &cls[operatorClass(typeText)]};
  };
  std::unordered_map<const KernelRow*, Parts> partsOfRow;
  std::vector<Parts> partsOfName(trace.strings.size(), Parts{nullptr, nullptr});  // by NameId
  const std::vector<std::vector<std::uint8_t>> passOf = passesOf(trace, computeTasks, bwdLanes);
  PartAcc* passPart[3] = {&pass["forward"], &pass["backward"], &pass["no launch"]};
  std::size_t fromRows = 0;
  PartAcc all;
  forEachByStart(trace, computeTasks, [&](SliceRef r) {
    if (!r.valid() || r.lane >= trace.lanes.size()) return;
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
  });
  for (auto it = pass.begin(); it != pass.end();) it = it->second.n == 0 ? pass.erase(it) : std::next(it);
  b.tasks = all.n;
  b.total = all.total;
  setSplitSources(b, fromRows);
  b.byCore = exclusiveParts(core, all.total, b.coreOverlap);
  std::sort(b.byCore.begin(), b.byCore.end(), [](const auto& x, const auto& y) { return x.exclusive > y.exclusive; });
  std::vector<BreakdownPart> c = exclusiveParts(cls, all.total, b.classOverlap);
  for (const char* k : {"FlashAttention", "Convolution", "MatMul", "Other"})
    for (auto& p : c)
      if (p.key == k) b.byClass.push_back(p);
  if (passMarked) {
    std::vector<BreakdownPart> p = exclusiveParts(pass, all.total, b.passOverlap);
    for (const char* k : {"forward", "backward", "no launch"})
      for (auto& x : p)
        if (x.key == k) b.byPass.push_back(x);
  }
  return b;
}

namespace {

/// The peers of `v` (longest first) holding at least a quarter of the first one's time, at most 3.
std::string peerList(const std::vector<PeerWait>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 3 && v[i].ns * 4 >= v.front().ns; ++i) {
    if (i) s += itemSep();
    s += v[i].peer >= 0 ? i18n::format(npuTr("npuscope::core::Breakdown", "peer rank %1"), {std::to_string(v[i].peer)})
                        : npuTr("npuscope::core::Breakdown", "an unrecorded peer");
  }
  return s;
}

/// "synchronization 5.5% (waiting for peer rank 1), transit 0.2%, other wait 0.0%, idle 94.3%
/// (other planes wait for peer rank 5 92.1%, other planes move data 1.0%, no task 1.2%)".
std::string splitText(const CommBreakdown& c) {
  std::string sync = i18n::format(npuTr("npuscope::core::Breakdown", "synchronization %1"), {pct(c.synchronization, c.exposed)});
  if (!c.synchronizationByPeer.empty())
    sync += i18n::format(npuTr("npuscope::core::Breakdown", " (waiting for %1)"), {peerList(c.synchronizationByPeer)});
  std::string idle = i18n::format(npuTr("npuscope::core::Breakdown", "idle %1"), {pct(c.idle, c.exposed)});
  if (c.idle > 0) {
    std::vector<std::string> parts;
    if (c.idlePeerWait > 0)
      parts.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "other planes wait for %1 %2"),
                                   {peerList(c.idleByPeer), pct(c.idlePeerWait, c.exposed)}));
    if (c.idleOtherTransfer > 0)
      parts.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "other planes move data %1"), {pct(c.idleOtherTransfer, c.exposed)}));
    const TimeNs none = c.idle - c.idlePeerWait - c.idleOtherTransfer;
    if (none > 0) parts.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "no task recorded %1"), {pct(none, c.exposed)}));
    std::string j;
    for (std::size_t i = 0; i < parts.size(); ++i) j += (i ? itemSep() : std::string()) + parts[i];
    idle += i18n::format(npuTr("npuscope::core::Breakdown", " (%1)"), {j});
  }
  return i18n::format(npuTr("npuscope::core::Breakdown", "%1, transit %2, other wait %3, %4"),
                      {sync, pct(c.transit, c.exposed), pct(c.wait, c.exposed), idle});
}

std::string recordedText(const CommBreakdown& c) {
  if (!c.json) return "";
  return i18n::format(npuTr("npuscope::core::Breakdown", "recorded by the profiler (%1, whole ops, hidden or not): elapse %2, "
                                                         "transit %3, wait %4 (of which synchronization %5), idle %6"),
                      {countNoun(c.jsonOps, npuTr("npuscope::core::Breakdown", "op"), npuTr("npuscope::core::Breakdown", "ops")),
                       formatDuration(c.json->elapse), formatDuration(c.json->transit), formatDuration(c.json->wait),
                       formatDuration(c.json->synchronization), formatDuration(c.json->idle)});
}

}  // namespace

std::string commBreakdownText(const CommBreakdown& c) {
  std::string s;
  if (c.fromTrace) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: %2"), {formatDuration(c.exposed), splitText(c)});
  } else if (c.exposed > 0 && c.kineto) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: collective kernels on the streams (Kineto trace); "
                                                         "its split is unknown (no HCCL plane task)"),
                     {formatDuration(c.exposed)});
  } else if (c.exposed > 0) {
    s = i18n::format(npuTr("npuscope::core::Breakdown", "exposed communication %1: its split is unknown (no HCCL plane task recorded: "
                                                         "Level0 capture?)"),
                     {formatDuration(c.exposed)});
  }
  if (const std::string r = recordedText(c); !r.empty()) s += (s.empty() ? "" : clauseSep()) + r;
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
    s += (first ? "" : itemSep()) + p.key + " " + pct(p.exclusive, c.total);
    first = false;
  }
  s += overlapPart(c.classOverlap, c.total, itemSep().c_str());
  s += clauseSep();
  first = true;
  for (const auto& p : c.byCore) {
    // Core types are names (AI_CORE, ...); "unknown" is the key for tasks without one.
    s += (first ? "" : " / ") + (p.key == "unknown" ? npuTr("npuscope::core::Breakdown", "unknown") : p.key) + " " +
         pct(p.exclusive, c.total);
    first = false;
  }
  s += overlapPart(c.coreOverlap, c.total, " / ");
  if (!c.byPass.empty()) {
    s += clauseSep();
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

std::vector<std::string> breakdownFindings(const DeviceAnalysis& da, const Verdict& v) {
  std::vector<std::string> out;
  const CommBreakdown& c = da.comm;
  if (v.dominant == "communication") {
    // One split with its source and what its largest part means (docs/diagnosis.md §5.1).
    if (c.fromTrace && c.exposed > 0) {
      out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "Of the exposed communication (%1): %2. Source: the HCCL plane "
                                                                    "tasks, the profiler's per-op rule (counted plane) applied to "
                                                                    "the exposed time."),
                                 {formatDuration(c.exposed), splitText(c)}));
      const TimeNs parts[4] = {c.synchronization, c.transit, c.wait, c.idle};
      const std::size_t top = static_cast<std::size_t>(std::max_element(parts, parts + 4) - parts);
      if (top == 0) {
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is synchronization (%1): inside the "
                                                                      "collectives this rank waits for %2 to arrive (it reaches "
                                                                      "them before that peer, whatever the other ranks do). Look "
                                                                      "at what delays that peer before the collective (its "
                                                                      "compute, dispatch or data loading)."),
                                   {formatDuration(c.synchronization), peerList(c.synchronizationByPeer)}));
      } else if (top == 1) {
        std::string bw;
        for (const CommLink& l : c.links)
          if (l.transport != "SDMA" && l.time > 0) {
            char gbs[32], share[16], nom[16];
            std::snprintf(gbs, sizeof gbs, "%.2f GB/s", l.bandwidthGBs());
            std::string b = gbs;
            if (const double nominal = nominalLinkGBs(l.transport, c.chip); nominal > 0) {
              std::snprintf(share, sizeof share, "%.0f%%", 100.0 * l.bandwidthGBs() / nominal);
              std::snprintf(nom, sizeof nom, "%g", nominal);
              b = i18n::format(npuTr("npuscope::core::Breakdown", "%1, %2 of its nominal %3"), {gbs, share, nom});
            }
            bw += (bw.empty() ? "" : ", ") + l.transport + " " + b;
          }
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is transit (%1): data moving on the links (%2). "
                                                                      "Below 80% of the nominal a link is slow (check the link and "
                                                                      "contention with compute); else send fewer, larger messages."),
                                   {formatDuration(c.transit), bw.empty() ? npuTr("npuscope::core::Breakdown", "no bandwidth recorded") : bw}));
      } else if (top == 2) {
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is waiting after the data started to move (%1): "
                                                                      "the peers progress at different speeds inside the ops."),
                                   {formatDuration(c.wait)}));
      } else if (c.idlePeerWait * 2 >= c.idle) {
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is idle on the counted plane (%1), but meanwhile "
                                                                      "other planes wait for %2 (%3): that peer is late to the "
                                                                      "collective; the profiler counts this as Idle, not as "
                                                                      "Synchronization. Look at that rank."),
                                   {formatDuration(c.idle), peerList(c.idleByPeer), formatDuration(c.idlePeerWait)}));
      } else if (c.idleOtherTransfer * 2 >= c.idle) {
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is idle on the counted plane (%1) while other "
                                                                      "planes move data (%2): transfers on the other links."),
                                   {formatDuration(c.idle), formatDuration(c.idleOtherTransfer)}));
      } else {
        out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "The largest part is idle inside the ops (%1) with no task recorded "
                                                                      "on any plane for most of it: its cause is unknown from this "
                                                                      "capture (HCCL's own work, or a stream waiting before the op's "
                                                                      "tasks)."),
                                   {formatDuration(c.idle)}));
      }
    } else if (c.exposed > 0) {
      std::string s = c.kineto ? npuTr("npuscope::core::Breakdown", "The split of the exposed communication is unknown: a Kineto trace "
                                                                    "records collective kernels, not their tasks.")
                               : npuTr("npuscope::core::Breakdown", "The split of the exposed communication is unknown: the capture has "
                                                                    "no HCCL plane tasks (profiler_level Level1 records them).");
      if (const std::string r = recordedText(c); !r.empty()) s += " " + r + ".";
      out.push_back(std::move(s));
    }
  } else if (v.dominant == "compute" && da.compute.total > 0) {
    out.push_back(i18n::format(npuTr("npuscope::core::Breakdown", "Computing (%1) is made of: %2."),
                               {formatDuration(da.compute.total), computeParts(da.compute)}));
  }
  return out;
}

}  // namespace npuscope::core
