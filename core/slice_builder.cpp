// SPDX-License-Identifier: MIT
#include "core/slice_builder.h"

#include <algorithm>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <atomic>
#include <thread>
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

/// Sizes every slice column of `lane` to `n` (large buffers pre-faulted by reserveLarge).
void resizeColumns(Lane& lane, std::size_t n) {
  const auto size = [n](auto& column) {
    reserveLarge(column, n);
    column.resize(n);
  };
  size(lane.start);
  size(lane.end);
  size(lane.names);
  size(lane.categories);
  size(lane.argsOffset);
  size(lane.argsLength);
  size(lane.flags);
}

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
  resizeColumns(lane, n);
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

/// One part's slices of a thread and that part's string-id map.
struct RawPart {
  std::vector<RawSlice>* slices;
  const std::vector<NameId>* names;
};

/// Per-worker buffers reused from lane to lane (warm memory: no page faults after the first lane).
struct LaneScratch {
  std::vector<RawSlice> merged;
  struct SortKey {
    TimeNs start;
    TimeNs negDur;
    std::uint32_t index;
  };
  std::vector<SortKey> keys;
  std::vector<std::uint32_t> order, depth, stack;
};

/// Builds one thread's lane columns from its raw slices (file order over `src`): B/E matching,
/// then the nesting rule of assignDepths, then the depth-row columns. Same results as
/// Pending + fillLane, without the intermediate columns: when the thread has no B/E events and
/// one part, the part's own records are used in place and, when they are already in nesting
/// order (the common case), not even sorted.
void buildLane(std::vector<RawPart>& src, TimeNs maxTs, const StringPool& strings, Lane& lane,
               ImportStats& stats, const std::string& label, LaneScratch& s) {
  bool anyBE = false;
  for (const RawPart& part : src)
    for (const RawSlice& r : *part.slices)
      if (r.ph != 'X') { anyBE = true; break; }
  std::vector<RawSlice>* items = nullptr;
  if (!anyBE && src.size() == 1) {
    items = src[0].slices;
    const auto& nm = *src[0].names;
    for (RawSlice& r : *items) {
      r.name = nm[r.name];
      r.cat = nm[r.cat];
    }
  } else {
    items = &s.merged;
    items->clear();
    struct BE { TimeNs ts; std::uint32_t part; std::uint32_t idx; };
    std::vector<BE> be;
    for (std::uint32_t k = 0; k < src.size(); ++k) {
      const auto& nm = *src[k].names;
      const auto& raw = *src[k].slices;
      for (std::uint32_t i = 0; i < raw.size(); ++i) {
        RawSlice r = raw[i];
        if (r.ph == 'X') {
          r.name = nm[r.name];
          r.cat = nm[r.cat];
          items->push_back(r);
        } else {
          be.push_back({r.ts, k, i});
        }
      }
    }
    if (!be.empty()) {
      std::stable_sort(be.begin(), be.end(), [](const BE& a, const BE& b) { return a.ts < b.ts; });
      std::vector<std::pair<const RawSlice*, std::uint32_t>> open;
      auto push = [&](const RawSlice& b, const std::vector<NameId>& nm, TimeNs end, std::uint8_t flags) {
        RawSlice r = b;
        r.dur = end - b.ts;
        r.name = nm[b.name];
        r.cat = nm[b.cat];
        r.flags = flags;
        r.ph = 'X';
        items->push_back(r);
      };
      for (const BE& e : be) {
        const RawSlice& ev = (*src[e.part].slices)[e.idx];
        if (ev.ph == 'B') {
          open.emplace_back(&ev, e.part);
          continue;
        }
        if (open.empty()) {
          stats.add(ImportWarning::OrphanEnd, "orphan E at " + formatTimestampUs(ev.ts) + " on " + label);
          continue;
        }
        const auto [b, bp] = open.back();
        open.pop_back();
        const NameId bName = (*src[bp].names)[b->name];
        const NameId eName = (*src[e.part].names)[ev.name];
        if (eName != kEmptyName && eName != bName)
          stats.add(ImportWarning::EndNameMismatch, "E \"" + std::string(strings.view(eName)) + "\" closes B \"" +
                                                        std::string(strings.view(bName)) + "\" at " +
                                                        formatTimestampUs(ev.ts));
        push(*b, *src[bp].names, ev.ts, b->flags);
      }
      for (const auto& [b, bp] : open) {
        const NameId bName = (*src[bp].names)[b->name];
        stats.add(ImportWarning::UnterminatedBegin,
                  "B \"" + std::string(strings.view(bName)) + "\" at " + formatTimestampUs(b->ts) + " never ended");
        push(*b, *src[bp].names, std::max(b->ts, maxTs), static_cast<std::uint8_t>(b->flags | kSliceUnfinished));
      }
    }
  }
  std::vector<RawSlice>& v = *items;
  const std::size_t n = v.size();
  // Nesting order: start asc, duration desc, file order. Usually the file is already in it.
  bool sorted = true;
  for (std::size_t i = 1; i < n && sorted; ++i)
    sorted = v[i - 1].ts < v[i].ts || (v[i - 1].ts == v[i].ts && v[i - 1].dur >= v[i].dur);
  const std::uint32_t* order = nullptr;
  if (!sorted) {
    s.keys.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) s.keys[i] = {v[i].ts, -v[i].dur, i};
    std::sort(s.keys.begin(), s.keys.end(), [](const LaneScratch::SortKey& a, const LaneScratch::SortKey& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.negDur != b.negDur) return a.negDur < b.negDur;
      return a.index < b.index;
    });
    s.order.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.order[i] = s.keys[i].index;
    order = s.order.data();
  }
  s.depth.resize(n);
  s.stack.clear();
  std::size_t overlaps = 0;
  std::uint32_t maxDepth = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order ? order[k] : static_cast<std::uint32_t>(k);
    const TimeNs st = v[i].ts, en = v[i].ts + v[i].dur;
    while (!s.stack.empty() && v[s.stack.back()].ts + v[s.stack.back()].dur <= st) s.stack.pop_back();
    if (!s.stack.empty() && v[s.stack.back()].ts + v[s.stack.back()].dur < en) {
      v[i].flags |= kSlicePartialOverlap;
      ++overlaps;
    }
    const auto d = static_cast<std::uint32_t>(s.stack.size());
    s.depth[i] = d;
    maxDepth = std::max(maxDepth, d + 1);
    s.stack.push_back(i);
  }
  if (overlaps) {
    const std::string where = "on " + label;
    for (std::size_t k = 0; k < overlaps; ++k) stats.add(ImportWarning::PartialOverlap, where);
  }
  std::vector<std::uint32_t> rowBegin(maxDepth + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++rowBegin[s.depth[i] + 1];
  for (std::size_t d = 1; d < rowBegin.size(); ++d) rowBegin[d] += rowBegin[d - 1];
  resizeColumns(lane, n);
  std::vector<std::uint32_t> cursor(rowBegin.begin(), rowBegin.end() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order ? order[k] : static_cast<std::uint32_t>(k);
    const RawSlice& r = v[i];
    const std::uint32_t at = cursor[s.depth[i]]++;
    lane.start[at] = r.ts;
    lane.end[at] = r.ts + r.dur;
    lane.names[at] = r.name;
    lane.categories[at] = r.cat;
    lane.argsOffset[at] = r.argsOffset;
    lane.argsLength[at] = r.argsLength;
    lane.flags[at] = r.flags;
  }
  lane.rowBegin = std::move(rowBegin);
  if (lane.rowBegin.empty()) lane.rowBegin.push_back(0);
  // The raw records are not needed any more: give the memory back now (peak).
  for (RawPart& part : src) std::vector<RawSlice>().swap(*part.slices);
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

  // 4. Slices per thread: B/E matching, then nesting into columns. Lanes are independent, so
  // they are built on as many threads as the reader used (largest lanes first); warnings are
  // merged in thread order afterwards, so the result does not depend on the thread count.
  std::vector<Lane> lanes;
  std::vector<std::uint32_t> laneThread;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> threadParts(threads.size());
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::uint32_t t = 0; t < parts[k].threads.size(); ++t)
      if (!parts[k].slices[t].empty()) threadParts[threadMap[k][t]].emplace_back(static_cast<std::uint32_t>(k), t);
  {
    struct LaneJob {
      std::uint32_t thread = 0;
      std::size_t slices = 0;
      Lane lane;
      ImportStats stats;
    };
    std::vector<LaneJob> jobs;
    for (std::uint32_t g = 0; g < threads.size(); ++g) {
      const GlobalThread& th = threads[g];
      if (!th.wantsLane) continue;
      LaneJob job;
      job.thread = g;
      for (auto [k, t] : threadParts[g]) job.slices += parts[k].slices[t].size();
      Lane& lane = job.lane;
      lane.process = th.process;
      if (th.tid.kind == KeyKind::Number) lane.tid = th.tid.v;
      else lane.tidText = keyText(th.tid, trace.strings);
      lane.name = !th.name.empty() ? th.name : keyText(th.tid, trace.strings);
      lane.sortIndex = th.sortIndex;
      jobs.push_back(std::move(job));
    }
    auto runJob = [&](LaneJob& job, LaneScratch& scratch) {
      const std::string label = procs[job.lane.process].name + " / " + job.lane.name;
      std::vector<RawPart> src;
      for (auto [k, t] : threadParts[job.thread]) src.push_back({&parts[k].slices[t], &nameMap[k]});
      buildLane(src, maxTs, trace.strings, job.lane, job.stats, label, scratch);
    };
    std::vector<std::uint32_t> jobOrder(jobs.size());
    std::iota(jobOrder.begin(), jobOrder.end(), 0u);
    std::stable_sort(jobOrder.begin(), jobOrder.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return jobs[a].slices > jobs[b].slices; });
    const unsigned workers = static_cast<unsigned>(std::clamp<std::size_t>(parts.size(), 1, std::max<std::size_t>(jobs.size(), 1)));
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      LaneScratch scratch;
      for (;;) {
        if (stop.stop_requested()) return;
        const std::size_t j = next.fetch_add(1, std::memory_order_relaxed);
        if (j >= jobOrder.size()) return;
        runJob(jobs[jobOrder[j]], scratch);
      }
    };
    {
      std::vector<std::jthread> pool;
      for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
      work();
    }
    if (stop.stop_requested()) return false;
    for (auto& part : parts) std::vector<std::vector<RawSlice>>().swap(part.slices);
    lanes.reserve(jobs.size());
    for (LaneJob& job : jobs) {
      trace.stats.merge(job.stats);
      threads[job.thread].lane = static_cast<std::uint32_t>(lanes.size());
      laneThread.push_back(job.thread);
      lanes.push_back(std::move(job.lane));
    }
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
  // enclosing slice with bp:"e" or else to the next slice. Groups are formed by one sort of
  // compact records (no per-group containers); the bound flows are then ordered by fromTs, ties
  // in the order of each group's first event, as a stable sort of the groups would give.
  {
    struct FlowRec {
      std::uint64_t id;
      NameId cat, name;
      FlowIdKind kind;
      std::uint32_t part, idx;
      [[nodiscard]] bool sameGroup(const FlowRec& o) const {
        return id == o.id && cat == o.cat && name == o.name && kind == o.kind;
      }
    };
    std::size_t total = 0;
    for (const auto& w : parts) total += w.flows.size();
    std::vector<FlowRec> recs;
    reserveLarge(recs, total);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const auto& nm = nameMap[k];
      const auto& flows = parts[k].flows;
      for (std::uint32_t i = 0; i < flows.size(); ++i) {
        const RawFlow& f = flows[i];
        recs.push_back({f.idKind == FlowIdKind::Numeric ? f.id : nm[static_cast<NameId>(f.id)], nm[f.cat], nm[f.name],
                        f.idKind, static_cast<std::uint32_t>(k), i});
      }
    }
    std::sort(recs.begin(), recs.end(), [](const FlowRec& a, const FlowRec& b) {
      if (a.id != b.id) return a.id < b.id;
      if (a.cat != b.cat) return a.cat < b.cat;
      if (a.name != b.name) return a.name < b.name;
      if (a.kind != b.kind) return a.kind < b.kind;
      if (a.part != b.part) return a.part < b.part;
      return a.idx < b.idx;
    });
    auto bind = [&](std::size_t part, const RawFlow& f, bool isStart) -> SliceRef {
      const GlobalThread& th = threads[threadMap[part][f.thread]];
      if (th.lane == kInvalidIndex) return {};
      const Lane& lane = trace.lanes[th.lane];
      const std::uint32_t idx = (isStart || f.bindEnclosing) ? lane.enclosingSlice(f.ts) : lane.nextSlice(f.ts);
      if (idx == kInvalidIndex) return {};
      return {th.lane, idx};
    };
    // Warnings of one group, in the order the per-group pass met them.
    struct GroupWarning {
      std::uint32_t part, idx;  // first event of the group (file order)
      std::uint32_t seq;
      ImportWarning kind;
      std::uint32_t rec;        // a record of the group (for the text)
      std::uint8_t side;        // FlowNoEnclosingSlice: 1 end side, 2 start side
    };
    std::vector<GroupWarning> warnings;
    struct Bound {
      Flow flow;
      std::uint32_t part, idx, seq;
    };
    std::vector<Bound> bound;
    std::vector<UnboundStartFlow> unboundStarts;
    reserveLarge(bound, total / 2 + 1);
    for (std::size_t g = 0; g < recs.size();) {
      std::size_t e = g + 1;
      while (e < recs.size() && recs[e].sameGroup(recs[g])) ++e;
      const FlowRec& key = recs[g];
      const std::uint32_t firstPart = key.part, firstIdx = key.idx;
      std::uint32_t seq = 0;
      auto warn = [&](ImportWarning w, std::uint8_t side = 0) {
        warnings.push_back({firstPart, firstIdx, seq++, w, static_cast<std::uint32_t>(g), side});
      };
      if (key.kind == FlowIdKind::Invalid) {
        warn(ImportWarning::InvalidFlowId);
        g = e;
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
          warn(ImportWarning::FlowNoEnclosingSlice, from.valid() ? 1 : 2);
          // Keep a start without a slice when its end is bound: at Level0 the HostToDevice `s`
          // sits on the pruned CANN thread, and its tid + ts still locate the launch.
          const GlobalThread& sth = threads[threadMap[sp][s.thread]];
          if (!from.valid() && to.valid() && sth.tid.kind == KeyKind::Number)
            unboundStarts.push_back({key.cat, sth.tid.v, s.ts, to, f.ts});
          return;
        }
        bound.push_back({{key.cat, key.name, from, to, s.ts, f.ts}, firstPart, firstIdx, seq++});
      };
      // File order, but symmetric: msprof may write the device-side `f` before the host-side
      // `s` (and its ts may even be earlier, clocks differ), so an `f` seen first waits for its
      // `s`. One `s` followed by several `f` fans out (HostToDevice to several tasks).
      std::vector<std::pair<const RawFlow*, std::size_t>> waiting;
      for (std::size_t r = g; r < e; ++r) {
        const RawFlow& f = parts[recs[r].part].flows[recs[r].idx];
        const std::size_t fp = recs[r].part;
        if (f.ph == 's') {
          if (!waiting.empty() && !pending) {
            for (auto [wf, wp] : waiting) finish(f, fp, *wf, wp);
            waiting.clear();
            lastStart = &f;
            lastStartPart = fp;
            continue;
          }
          if (pending && !warnedStart) {
            warn(ImportWarning::FlowStartWithoutEnd);
            warnedStart = true;
          }
          pending = &f;
          pendingPart = fp;
        } else if (f.ph == 't') {
          if (!pending && !lastStart && !warnedStep) {
            warn(ImportWarning::FlowStepWithoutStart);
            warnedStep = true;
          }
        } else {  // 'f'
          if (pending) {
            finish(*pending, pendingPart, f, fp);
            lastStart = pending;
            lastStartPart = pendingPart;
            pending = nullptr;
          } else if (lastStart) {
            finish(*lastStart, lastStartPart, f, fp);
          } else {
            waiting.emplace_back(&f, fp);
          }
        }
      }
      if (!waiting.empty() && !warnedEnd) warn(ImportWarning::FlowEndWithoutStart);
      if (pending && !warnedStart) warn(ImportWarning::FlowStartWithoutEnd);
      g = e;
    }
    // Warnings in group first-appearance order; the text is built only when it is kept.
    std::sort(warnings.begin(), warnings.end(), [](const GroupWarning& a, const GroupWarning& b) {
      return std::tie(a.part, a.idx, a.seq) < std::tie(b.part, b.idx, b.seq);
    });
    for (const GroupWarning& w : warnings) {
      if (trace.stats.count(w.kind) >= ImportStats::kExamplesPerKind) {
        trace.stats.add(w.kind);
        continue;
      }
      const FlowRec& key = recs[w.rec];
      const std::string idText = key.kind == FlowIdKind::Numeric ? std::to_string(key.id)
                                                                 : std::string(trace.strings.view(static_cast<NameId>(key.id)));
      std::string what = std::string(trace.strings.view(key.cat)) + " id " + idText;
      if (w.side == 1) what += " (end side)";
      else if (w.side == 2) what += " (start side)";
      trace.stats.add(w.kind, what);
    }
    std::sort(bound.begin(), bound.end(), [](const Bound& a, const Bound& b) {
      if (a.flow.fromTs != b.flow.fromTs) return a.flow.fromTs < b.flow.fromTs;
      return std::tie(a.part, a.idx, a.seq) < std::tie(b.part, b.idx, b.seq);
    });
    reserveLarge(trace.flows, bound.size());
    for (const Bound& b : bound) trace.flows.push_back(b.flow);
    std::stable_sort(unboundStarts.begin(), unboundStarts.end(),
              [](const UnboundStartFlow& a, const UnboundStartFlow& b) { return a.fromTs < b.fromTs; });
    trace.unboundStarts = std::move(unboundStarts);
    for (auto& w : parts) std::vector<RawFlow>().swap(w.flows);
  }

  // The raw records were freed piecemeal; hand the freed heap back to the system so that the
  // resident size after a load is the trace itself (glibc keeps freed arena memory otherwise).
  read.parts.clear();
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  // The time range shown by "fit all" covers the slices and flows. Counter samples are left out
  // unless there is nothing else: memory/bandwidth counters often run far beyond the profiled
  // step (0.52 s of DDR samples around a 60 ms step in the 910A corpus capture).
  {
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (const Lane& lane : trace.lanes) {
      if (lane.sliceCount() == 0) continue;
      if (lane.rowBegin[1] > lane.rowBegin[0]) lo = std::min(lo, lane.start[lane.rowBegin[0]]);
      for (std::uint32_t d = 0; d < lane.depthCount(); ++d)
        if (lane.rowBegin[d + 1] > lane.rowBegin[d]) hi = std::max(hi, lane.end[lane.rowBegin[d + 1] - 1]);
    }
    for (const Flow& f : trace.flows) {
      lo = std::min({lo, f.fromTs, f.toTs});
      hi = std::max({hi, f.fromTs, f.toTs});
    }
    if (lo <= hi) trace.range = {lo, hi};
  }
  if (trace.eventCount == 0) trace.notes.push_back("0 events");
  else if (trace.sliceCount() == 0) trace.notes.push_back("no slices");
  return !stop.stop_requested();
}

}  // namespace npuscope::core::detail
