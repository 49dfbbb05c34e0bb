// SPDX-License-Identifier: MIT
#include "core/slice_builder.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "core/json_scan.h"
#include "core/time_format.h"

namespace npuscope::core::detail {

Process::Role classifyProcess(std::string_view n) {
  using R = Process::Role;
  if (n == "Python") return R::Python;
  if (n == "Python GC") return R::PythonGc;
  if (n == "CANN") return R::Cann;
  if (n == "Ascend Hardware") return R::AscendHardware;
  if (n == "Communication" || n == "HCCL" || n == "COMMUNICATION") return R::Communication;
  if (n == "Overlap Analysis") return R::OverlapAnalysis;
  return R::Other;
}

std::size_t assignDepths(const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
                         std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& depth,
                         std::vector<std::uint8_t>& flags) {
  const std::size_t n = start.size();
  order.resize(n);
  std::iota(order.begin(), order.end(), 0u);
  // Parents before children at equal start: longer first; ties keep file order.
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    return end[a] - start[a] > end[b] - start[b];
  });
  depth.assign(n, 0);
  std::vector<std::uint32_t> stack;
  std::size_t overlaps = 0;
  for (std::uint32_t i : order) {
    while (!stack.empty() && end[stack.back()] <= start[i]) stack.pop_back();
    if (!stack.empty() && end[stack.back()] < end[i]) {
      flags[i] |= kSlicePartialOverlap;
      ++overlaps;
    }
    depth[i] = static_cast<std::uint32_t>(stack.size());
    stack.push_back(i);
  }
  return overlaps;
}

namespace {

std::string keyText(const Key& k, const StringPool& pool) {
  switch (k.kind) {
    case KeyKind::Number: return std::to_string(k.v);
    case KeyKind::String: return std::string(pool.view(static_cast<NameId>(k.v)));
    case KeyKind::Invalid: return "(invalid)";
  }
  return {};
}

struct GlobalThread {
  std::uint32_t process = 0;
  Key tid;
  std::uint32_t lane = kInvalidIndex;  // final lane index, after display sort
  bool wantsLane = false;
  std::string name;
  std::optional<std::int64_t> sortIndex;
};

/// A complete slice before it is placed in columns.
struct Pending {
  std::vector<TimeNs> start, end;
  std::vector<NameId> name, cat;
  std::vector<std::uint64_t> argsOffset;
  std::vector<std::uint32_t> argsLength;
  std::vector<std::uint8_t> flags;
  void push(TimeNs s, TimeNs e, NameId n, NameId c, std::uint64_t ao, std::uint32_t al, std::uint8_t f) {
    start.push_back(s);
    end.push_back(e);
    name.push_back(n);
    cat.push_back(c);
    argsOffset.push_back(ao);
    argsLength.push_back(al);
    flags.push_back(f);
  }
  [[nodiscard]] std::size_t size() const { return start.size(); }
};

/// Places pending slices into the lane's columns by depth row.
void fillLane(Pending& p, Lane& lane, ImportStats& stats, const std::string& laneLabel) {
  std::vector<std::uint32_t> order, depth;
  const std::size_t overlaps = assignDepths(p.start, p.end, order, depth, p.flags);
  for (std::size_t k = 0; k < overlaps; ++k) stats.add(ImportWarning::PartialOverlap, "on " + laneLabel);
  std::uint32_t maxDepth = 0;
  for (auto d : depth) maxDepth = std::max(maxDepth, d + 1);
  std::vector<std::uint32_t> rowBegin(maxDepth + 1, 0);
  for (auto d : depth) ++rowBegin[d + 1];
  for (std::size_t d = 1; d < rowBegin.size(); ++d) rowBegin[d] += rowBegin[d - 1];
  const std::size_t n = p.size();
  lane.start.resize(n);
  lane.end.resize(n);
  lane.names.resize(n);
  lane.categories.resize(n);
  lane.argsOffset.resize(n);
  lane.argsLength.resize(n);
  lane.flags.resize(n);
  std::vector<std::uint32_t> cursor(rowBegin.begin(), rowBegin.end() - 1);
  for (std::uint32_t i : order) {
    const std::uint32_t at = cursor[depth[i]]++;
    lane.start[at] = p.start[i];
    lane.end[at] = p.end[i];
    lane.names[at] = p.name[i];
    lane.categories[at] = p.cat[i];
    lane.argsOffset[at] = p.argsOffset[i];
    lane.argsLength[at] = p.argsLength[i];
    lane.flags[at] = p.flags[i];
  }
  lane.rowBegin = std::move(rowBegin);
  if (lane.rowBegin.empty()) lane.rowBegin.push_back(0);
}

bool processLess(const Process& a, const Process& b) {
  if (a.sortIndex.has_value() != b.sortIndex.has_value()) return a.sortIndex.has_value();
  if (a.sortIndex && *a.sortIndex != *b.sortIndex) return *a.sortIndex < *b.sortIndex;
  const int c = naturalCompare(a.name, b.name);
  if (c != 0) return c < 0;
  if (a.pidText.empty() != b.pidText.empty()) return a.pidText.empty();  // numeric pid first
  return a.pid < b.pid;
}

}  // namespace

bool buildTrace(ReadResult&& read, Trace& trace, const std::stop_token& stop) {
  auto& parts = read.parts;
  trace.notes = std::move(read.notes);
  trace.rankFromFile = read.top.rank;
  trace.baseTimeNanoseconds = read.top.baseTimeNanoseconds;
  trace.traceName = read.top.traceName;

  // 1. Strings.
  std::vector<std::vector<NameId>> nameMap(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) nameMap[k] = trace.strings.mergeFrom(parts[k].pool);
  auto globalKey = [&](std::size_t k, Key key) {
    if (key.kind == KeyKind::String) key.v = nameMap[k][static_cast<std::size_t>(key.v)];
    return key;
  };

  // 2. Processes and threads, with local -> global maps.
  std::unordered_map<Key, std::uint32_t, KeyHash> procIndex;
  std::vector<Key> procKeys;
  std::vector<std::vector<std::uint32_t>> procMap(parts.size()), threadMap(parts.size());
  std::unordered_map<std::pair<Key, Key>, std::uint32_t, KeyPairHash> threadIndex;
  std::vector<GlobalThread> threads;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    WorkerOut& w = parts[k];
    trace.eventCount += w.events;
    trace.stats.merge(w.stats);
    for (const Key& lk : w.processes) {
      const Key g = globalKey(k, lk);
      auto [it, inserted] = procIndex.try_emplace(g, static_cast<std::uint32_t>(procKeys.size()));
      if (inserted) procKeys.push_back(g);
      procMap[k].push_back(it->second);
    }
    for (std::size_t t = 0; t < w.threads.size(); ++t) {
      const auto& [lp, ltid] = w.threads[t];
      const Key gp = procKeys[procMap[k][lp]];
      const Key gt = globalKey(k, ltid);
      auto [it, inserted] = threadIndex.try_emplace({gp, gt}, static_cast<std::uint32_t>(threads.size()));
      if (inserted) {
        GlobalThread th;
        th.process = procMap[k][lp];
        th.tid = gt;
        threads.push_back(th);
      }
      threadMap[k].push_back(it->second);
      if (!w.slices[t].empty()) threads[it->second].wantsLane = true;
    }
  }
  std::vector<Process> procs(procKeys.size());
  for (std::size_t i = 0; i < procKeys.size(); ++i) {
    const Key& key = procKeys[i];
    Process& p = procs[i];
    if (key.kind == KeyKind::Number) {
      p.pid = key.v;
      p.name = std::to_string(key.v);
    } else if (key.kind == KeyKind::String) {
      p.pidText = std::string(trace.strings.view(static_cast<NameId>(key.v)));
      p.name = p.pidText;
    } else {
      p.pidText = "(invalid pid)";
      p.name = p.pidText;
    }
  }

  // 3. Metadata, in file order (the last record wins).
  for (std::size_t k = 0; k < parts.size(); ++k) {
    for (const RawMeta& m : parts[k].metas) {
      Process& p = procs[procMap[k][m.process]];
      const std::string_view text = trace.strings.view(nameMap[k][m.text]);
      switch (m.kind) {
        case MetaKind::ProcessName: p.name = text; break;
        case MetaKind::ProcessLabels: p.label = text; break;
        case MetaKind::ProcessSortIndex:
          if (m.valid) p.sortIndex = m.number;
          break;
        case MetaKind::ThreadName: {
          GlobalThread& t = threads[threadMap[k][m.thread]];
          t.name = text;
          t.wantsLane = true;
          break;
        }
        case MetaKind::ThreadSortIndex: {
          GlobalThread& t = threads[threadMap[k][m.thread]];
          if (m.valid) t.sortIndex = m.number;
          t.wantsLane = true;
          break;
        }
      }
    }
  }
  TimeNs minTs = INT64_MAX, maxTs = INT64_MIN;
  for (const auto& w : parts) {
    minTs = std::min(minTs, w.minTs);
    maxTs = std::max(maxTs, w.maxTs);
  }
  const bool anyTime = minTs <= maxTs;
  trace.range = anyTime ? TimeRange{minTs, maxTs} : TimeRange{0, 0};

  // 4. Slices per thread: B/E matching, then nesting into columns.
  std::vector<Lane> lanes;
  std::vector<std::uint32_t> laneThread;
  std::vector<std::vector<std::pair<std::size_t, std::uint32_t>>> threadParts(threads.size());
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::uint32_t t = 0; t < parts[k].threads.size(); ++t)
      if (!parts[k].slices[t].empty()) threadParts[threadMap[k][t]].emplace_back(k, t);
  for (std::uint32_t g = 0; g < threads.size(); ++g) {
    if (stop.stop_requested()) return false;
    GlobalThread& th = threads[g];
    if (!th.wantsLane) continue;
    Lane lane;
    lane.process = th.process;
    if (th.tid.kind == KeyKind::Number) lane.tid = th.tid.v;
    else lane.tidText = keyText(th.tid, trace.strings);
    lane.name = !th.name.empty() ? th.name : keyText(th.tid, trace.strings);
    lane.sortIndex = th.sortIndex;
    const std::string label = procs[th.process].name + " / " + lane.name;
    Pending pending;
    struct BE { TimeNs ts; std::size_t part; std::uint32_t thread; std::uint32_t idx; };
    std::vector<BE> be;
    std::size_t total = 0;
    for (auto [k, t] : threadParts[g]) total += parts[k].slices[t].size();
    pending.start.reserve(total);
    for (auto [k, t] : threadParts[g]) {
      auto& raw = parts[k].slices[t];
      const auto& nm = nameMap[k];
      for (std::uint32_t i = 0; i < raw.size(); ++i) {
        const RawSlice& r = raw[i];
        if (r.ph == 'X')
          pending.push(r.ts, r.ts + r.dur, nm[r.name], nm[r.cat], r.argsOffset, r.argsLength, r.flags);
        else
          be.push_back({r.ts, k, t, i});
      }
    }
    if (!be.empty()) {
      std::stable_sort(be.begin(), be.end(), [](const BE& a, const BE& b) { return a.ts < b.ts; });
      std::vector<const RawSlice*> open;
      std::vector<std::size_t> openPart;
      for (const BE& e : be) {
        const RawSlice& ev = parts[e.part].slices[e.thread][e.idx];
        if (ev.ph == 'B') {
          open.push_back(&ev);
          openPart.push_back(e.part);
          continue;
        }
        if (open.empty()) {
          trace.stats.add(ImportWarning::OrphanEnd, "orphan E at " + formatTimestampUs(ev.ts) + " on " + label);
          continue;
        }
        const RawSlice& b = *open.back();
        const std::size_t bp = openPart.back();
        open.pop_back();
        openPart.pop_back();
        const NameId bName = nameMap[bp][b.name];
        const NameId eName = nameMap[e.part][ev.name];
        if (eName != kEmptyName && eName != bName)
          trace.stats.add(ImportWarning::EndNameMismatch,
                          "E \"" + std::string(trace.strings.view(eName)) + "\" closes B \"" +
                              std::string(trace.strings.view(bName)) + "\" at " + formatTimestampUs(ev.ts));
        pending.push(b.ts, ev.ts, bName, nameMap[bp][b.cat], b.argsOffset, b.argsLength, b.flags);
      }
      for (std::size_t i = 0; i < open.size(); ++i) {
        const RawSlice& b = *open[i];
        const NameId bName = nameMap[openPart[i]][b.name];
        trace.stats.add(ImportWarning::UnterminatedBegin,
                        "B \"" + std::string(trace.strings.view(bName)) + "\" at " + formatTimestampUs(b.ts) + " never ended");
        pending.push(b.ts, std::max(b.ts, maxTs), bName, nameMap[openPart[i]][b.cat], b.argsOffset, b.argsLength,
                     static_cast<std::uint8_t>(b.flags | kSliceUnfinished));
      }
    }
    for (auto [k, t] : threadParts[g]) std::vector<RawSlice>().swap(parts[k].slices[t]);
    fillLane(pending, lane, trace.stats, label);
    th.lane = static_cast<std::uint32_t>(lanes.size());
    laneThread.push_back(g);
    lanes.push_back(std::move(lane));
  }

  // 5. Async (b/e) slices: one lane per (process, name); id2.global ids share a global process.
  {
    struct AsyncKey {
      std::uint32_t process;
      NameId cat, name, id;
      bool operator<(const AsyncKey& o) const {
        return std::tie(process, cat, name, id) < std::tie(o.process, o.cat, o.name, o.id);
      }
    };
    std::map<AsyncKey, std::vector<std::pair<TimeNs, const RawAsync*>>> open;
    std::map<std::pair<std::uint32_t, NameId>, Pending> asyncLanes;
    std::uint32_t globalProc = kInvalidIndex;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      for (const RawAsync& a : parts[k].asyncs) {
        std::uint32_t proc = procMap[k][a.process];
        if (a.global) {
          if (globalProc == kInvalidIndex) {
            globalProc = static_cast<std::uint32_t>(procs.size());
            Process gp;
            gp.pidText = "(global async)";
            gp.name = "Global async";
            procs.push_back(gp);
          }
          proc = globalProc;
        }
        const NameId name = nameMap[k][a.name];
        const AsyncKey key{proc, nameMap[k][a.cat], name, nameMap[k][a.idText]};
        Pending& lanePending = asyncLanes[{proc, name}];
        if (a.ph == 'b') {
          open[key].emplace_back(a.ts, &a);
        } else if (a.ph == 'e') {
          auto it = open.find(key);
          if (it == open.end() || it->second.empty()) {
            trace.stats.add(ImportWarning::OrphanEnd, "async e without b at " + formatTimestampUs(a.ts));
            continue;
          }
          auto [bts, b] = it->second.back();
          it->second.pop_back();
          lanePending.push(bts, a.ts, name, key.cat, b->argsOffset, b->argsLength, 0);
        } else {
          lanePending.push(a.ts, a.ts, name, key.cat, a.argsOffset, a.argsLength, kSliceInstant);
        }
      }
    }
    for (auto& [key, stack] : open)
      for (auto& [bts, b] : stack) {
        trace.stats.add(ImportWarning::UnterminatedBegin, "async b never ended at " + formatTimestampUs(bts));
        asyncLanes[{key.process, key.name}].push(bts, std::max(bts, maxTs), key.name, key.cat, b->argsOffset,
                                                 b->argsLength, kSliceUnfinished);
      }
    for (auto& [key, pending] : asyncLanes) {
      if (pending.size() == 0) continue;
      Lane lane;
      lane.process = key.first;
      lane.name = std::string(trace.strings.view(key.second));
      lane.tidText = "async:" + lane.name;
      fillLane(pending, lane, trace.stats, procs[key.first].name + " / " + lane.name);
      laneThread.push_back(kInvalidIndex);
      lanes.push_back(std::move(lane));
    }
  }

  // 6. Counters: series per (process, name, key).
  {
    std::map<std::tuple<std::uint32_t, NameId, NameId>, std::uint32_t> seriesIndex;
    std::vector<CounterSeries> series;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      for (const RawCounter& c : parts[k].counters) {
        const auto key = std::make_tuple(procMap[k][c.process], nameMap[k][c.name], nameMap[k][c.key]);
        auto [it, inserted] = seriesIndex.try_emplace(key, static_cast<std::uint32_t>(series.size()));
        if (inserted) {
          CounterSeries s;
          s.process = std::get<0>(key);
          s.name = std::get<1>(key);
          s.key = std::get<2>(key);
          series.push_back(std::move(s));
        }
        series[it->second].ts.push_back(c.ts);
        series[it->second].value.push_back(c.value);
      }
      std::vector<RawCounter>().swap(parts[k].counters);
    }
    for (auto& s : series) {
      if (!std::is_sorted(s.ts.begin(), s.ts.end())) {
        std::vector<std::uint32_t> idx(s.ts.size());
        std::iota(idx.begin(), idx.end(), 0u);
        std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return s.ts[a] < s.ts[b]; });
        std::vector<TimeNs> ts(idx.size());
        std::vector<double> v(idx.size());
        for (std::size_t i = 0; i < idx.size(); ++i) {
          ts[i] = s.ts[idx[i]];
          v[i] = s.value[idx[i]];
        }
        s.ts = std::move(ts);
        s.value = std::move(v);
      }
    }
    trace.counters = std::move(series);
  }

  // 7. Roles, devices; display order of processes and lanes.
  std::vector<bool> hasSlices(procs.size(), false), hasCounters(procs.size(), false);
  for (const auto& l : lanes) hasSlices[l.process] = true;
  for (const auto& c : trace.counters) hasCounters[c.process] = true;
  for (std::size_t i = 0; i < procs.size(); ++i) {
    Process& p = procs[i];
    p.role = classifyProcess(p.name);
    if (p.role == Process::Role::Other && !hasSlices[i] && hasCounters[i]) p.role = Process::Role::Counter;
    if (p.label.rfind("NPU ", 0) == 0) {
      const std::string num = p.label.substr(4);
      if (!num.empty() && std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; }))
        p.deviceId = std::stoi(num);
    } else if (p.label == "NPU" && p.pidText.empty() && p.pid >= 0) {
      // Older CANN wrote plain "NPU": only the low 5 bits of a formatted pid are the device
      // id (msprof json_assembler GetFormatPid; Insight decodes pid & 0x1f the same way).
      p.deviceId = static_cast<int>(p.pid & 0x1f);
    }
  }
  // Keep processes that have lanes, counters or a name from metadata.
  std::vector<std::uint32_t> procOrder;
  for (std::uint32_t i = 0; i < procs.size(); ++i) {
    const bool named = procs[i].name != (procs[i].pidText.empty() ? std::to_string(procs[i].pid) : procs[i].pidText);
    if (hasSlices[i] || hasCounters[i] || named) procOrder.push_back(i);
  }
  std::stable_sort(procOrder.begin(), procOrder.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return processLess(procs[a], procs[b]); });
  std::vector<std::uint32_t> procNew(procs.size(), kInvalidIndex);
  for (std::uint32_t i = 0; i < procOrder.size(); ++i) procNew[procOrder[i]] = i;
  std::vector<std::uint32_t> laneOrder(lanes.size());
  std::iota(laneOrder.begin(), laneOrder.end(), 0u);
  std::stable_sort(laneOrder.begin(), laneOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Lane& la = lanes[a];
    const Lane& lb = lanes[b];
    if (procNew[la.process] != procNew[lb.process]) return procNew[la.process] < procNew[lb.process];
    if (la.sortIndex.has_value() != lb.sortIndex.has_value()) return la.sortIndex.has_value();
    if (la.sortIndex && *la.sortIndex != *lb.sortIndex) return *la.sortIndex < *lb.sortIndex;
    const int c = naturalCompare(la.name, lb.name);
    if (c != 0) return c < 0;
    return la.tid < lb.tid;
  });
  std::vector<std::uint32_t> laneNew(lanes.size());
  for (std::uint32_t i = 0; i < laneOrder.size(); ++i) laneNew[laneOrder[i]] = i;
  trace.processes.reserve(procOrder.size());
  for (auto i : procOrder) trace.processes.push_back(std::move(procs[i]));
  trace.lanes.reserve(lanes.size());
  for (auto i : laneOrder) {
    lanes[i].process = procNew[lanes[i].process];
    trace.lanes.push_back(std::move(lanes[i]));
  }
  for (std::uint32_t i = 0; i < laneThread.size(); ++i)
    if (laneThread[i] != kInvalidIndex) threads[laneThread[i]].lane = laneNew[i];
  for (auto& c : trace.counters) c.process = procNew[c.process];
  std::stable_sort(trace.counters.begin(), trace.counters.end(), [&](const CounterSeries& a, const CounterSeries& b) {
    if (a.process != b.process) return a.process < b.process;
    const int c = naturalCompare(trace.strings.view(a.name), trace.strings.view(b.name));
    if (c != 0) return c < 0;
    return naturalCompare(trace.strings.view(a.key), trace.strings.view(b.key)) < 0;
  });

  // 8. Flows: group by (cat, name, id) in file order; bind s to the enclosing slice, f to the
  // enclosing slice with bp:"e" or else to the next slice.
  {
    struct FlowRef { std::size_t part; std::uint32_t idx; };
    struct GroupKey {
      NameId cat, name;
      std::uint64_t id;
      FlowIdKind kind;
      bool operator==(const GroupKey&) const = default;
    };
    struct GroupHash {
      std::size_t operator()(const GroupKey& k) const {
        return std::hash<std::uint64_t>()(k.id) ^ (std::size_t(k.cat) << 20) ^ (std::size_t(k.name) << 40) ^
               static_cast<std::size_t>(k.kind);
      }
    };
    std::unordered_map<GroupKey, std::vector<FlowRef>, GroupHash> groups;
    std::vector<GroupKey> groupOrder;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const auto& nm = nameMap[k];
      for (std::uint32_t i = 0; i < parts[k].flows.size(); ++i) {
        const RawFlow& f = parts[k].flows[i];
        GroupKey key{nm[f.cat], nm[f.name], f.idKind == FlowIdKind::Numeric ? f.id : nm[static_cast<NameId>(f.id)], f.idKind};
        auto [it, inserted] = groups.try_emplace(key);
        if (inserted) groupOrder.push_back(key);
        it->second.push_back({k, i});
      }
    }
    auto bind = [&](std::size_t part, const RawFlow& f, bool isStart) -> SliceRef {
      const GlobalThread& th = threads[threadMap[part][f.thread]];
      if (th.lane == kInvalidIndex) return {};
      const Lane& lane = trace.lanes[th.lane];
      const std::uint32_t idx = (isStart || f.bindEnclosing) ? lane.enclosingSlice(f.ts) : lane.nextSlice(f.ts);
      if (idx == kInvalidIndex) return {};
      return {th.lane, idx};
    };
    for (const GroupKey& key : groupOrder) {
      const auto& refs = groups[key];
      const std::string idText = key.kind == FlowIdKind::Numeric ? std::to_string(key.id)
                                                                 : std::string(trace.strings.view(static_cast<NameId>(key.id)));
      const std::string what = std::string(trace.strings.view(key.cat)) + " id " + idText;
      if (key.kind == FlowIdKind::Invalid) {
        trace.stats.add(ImportWarning::InvalidFlowId, what);
        continue;
      }
      const RawFlow* pending = nullptr;
      std::size_t pendingPart = 0;
      const RawFlow* lastStart = nullptr;  // for a second f after a finished flow (fan-out)
      std::size_t lastStartPart = 0;
      bool warnedStart = false, warnedEnd = false, warnedStep = false;
      auto finish = [&](const RawFlow& s, std::size_t sp, const RawFlow& f, std::size_t fp) {
        const SliceRef from = bind(sp, s, true);
        const SliceRef to = bind(fp, f, false);
        if (!from.valid() || !to.valid()) {
          trace.stats.add(ImportWarning::FlowNoEnclosingSlice,
                          what + (from.valid() ? " (end side)" : " (start side)"));
          return;
        }
        trace.flows.push_back({key.cat, key.name, from, to, s.ts, f.ts});
      };
      // File order, but symmetric: msprof may write the device-side `f` before the host-side
      // `s` (and its ts may even be earlier, clocks differ), so an `f` seen first waits for its
      // `s`. One `s` followed by several `f` fans out (HostToDevice to several tasks).
      std::vector<std::pair<const RawFlow*, std::size_t>> waiting;
      for (const FlowRef& r : refs) {
        const RawFlow& f = parts[r.part].flows[r.idx];
        if (f.ph == 's') {
          if (!waiting.empty() && !pending) {
            for (auto [wf, wp] : waiting) finish(f, r.part, *wf, wp);
            waiting.clear();
            lastStart = &f;
            lastStartPart = r.part;
            continue;
          }
          if (pending && !warnedStart) {
            trace.stats.add(ImportWarning::FlowStartWithoutEnd, what);
            warnedStart = true;
          }
          pending = &f;
          pendingPart = r.part;
        } else if (f.ph == 't') {
          if (!pending && !lastStart && !warnedStep) {
            trace.stats.add(ImportWarning::FlowStepWithoutStart, what);
            warnedStep = true;
          }
        } else {  // 'f'
          if (pending) {
            finish(*pending, pendingPart, f, r.part);
            lastStart = pending;
            lastStartPart = pendingPart;
            pending = nullptr;
          } else if (lastStart) {
            finish(*lastStart, lastStartPart, f, r.part);
          } else {
            waiting.emplace_back(&f, r.part);
          }
        }
      }
      if (!waiting.empty() && !warnedEnd) trace.stats.add(ImportWarning::FlowEndWithoutStart, what);
      if (pending && !warnedStart) trace.stats.add(ImportWarning::FlowStartWithoutEnd, what);
    }
    std::stable_sort(trace.flows.begin(), trace.flows.end(),
                     [](const Flow& a, const Flow& b) { return a.fromTs < b.fromTs; });
  }

  if (trace.eventCount == 0) trace.notes.push_back("0 events");
  else if (trace.sliceCount() == 0) trace.notes.push_back("no slices");
  return !stop.stop_requested();
}

}  // namespace npuscope::core::detail
