// SPDX-License-Identifier: MIT
#include "core/import/slice_builder.h"
#include "core/import/lazy_warning.h"

#include <algorithm>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#endif
#include <atomic>
#include <map>
#include <memory>
#include <numeric>
#include <span>
#include <thread>
#include <unordered_map>

#include "core/base/parse_number.h"
#include "core/import/json/json_scan.h"
#include "core/base/time_format.h"
#include "core/base/guard.h"
#include "core/analysis/task_kinds.h"

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

bool OverlapTally::add(TimeNs amount, NameId slice, TimeNs start, TimeNs end, NameId over, TimeNs overEnd) {
  if (deviceTasks && amount < kMinorOverlapNs) {
    ++minor;
    largestMinor = std::max(largestMinor, amount);
    return false;
  }
  if (deviceTasks && strings && isNeverComputeName(strings->view(slice)) && isNeverComputeName(strings->view(over))) {
    ++concurrent;
    largestConcurrent = std::max(largestConcurrent, amount);
    for (NameId n : {over, slice})
      if (concurrentNames.size() < 4 && std::find(concurrentNames.begin(), concurrentNames.end(), n) == concurrentNames.end())
        concurrentNames.push_back(n);
    return false;
  }
  ++partial;
  if (strings && examples.size() < ImportStats::kExamplesPerKind) examples.push_back({slice, over, start, end, overEnd});
  return true;
}

void OverlapTally::report(ImportStats& stats, const std::string& laneLabel) const {
  for (std::size_t k = 0; k < partial; ++k) {
    if (k < examples.size()) {
      const Example& x = examples[k];
      const auto quoted = [&](NameId id) { return "'" + std::string(strings->view(id)) + "'"; };
      stats.add(ImportWarning::PartialOverlap,
                "on " + laneLabel + ": " + quoted(x.slice) + " (" + formatTimestampUs(x.start) + " - " +
                    formatTimestampUs(x.end) + ") starts " + formatDuration(x.overEnd - x.start) + " before " +
                    quoted(x.over) + " ends (" + formatTimestampUs(x.overEnd) + ") and ends after it");
    } else {
      stats.add(ImportWarning::PartialOverlap, "on " + laneLabel);
    }
  }
  if (minor)
    stats.add(ImportWarning::MinorOverlap, minor,
              "on " + laneLabel + ": " + std::to_string(minor) + " slice(s), the largest overlap " + std::to_string(largestMinor) +
                  " ns");
  if (concurrent) {
    std::string names;
    for (NameId n : concurrentNames) names += (names.empty() ? "" : ", ") + std::string(strings->view(n));
    stats.add(ImportWarning::ConcurrentCommTasks, concurrent,
              "on " + laneLabel + ": " + std::to_string(concurrent) + " task(s) (" + names + "), the largest overlap " +
                  formatDuration(largestConcurrent));
  }
}

std::size_t assignDepths(const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
                         std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& depth,
                         std::vector<std::uint8_t>& flags, OverlapTally* tally, const std::vector<NameId>* names) {
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
      ++overlaps;
      bool warn = true;
      if (tally) {
        const std::uint32_t over = stack.back();
        warn = tally->add(end[over] - start[i], names ? (*names)[i] : 0, start[i], end[i], names ? (*names)[over] : 0, end[over]);
      }
      flags[i] |= warn ? kSlicePartialOverlap : kSliceMinorOverlap;
    }
    depth[i] = static_cast<std::uint32_t>(stack.size());
    stack.push_back(i);
  }
  return overlaps;
}

namespace {

// ---- Memory: give the pages of import records back to the system as soon as they are dead, so
// that the peak resident size of a load stays near the size of the finished trace. glibc keeps
// freed heap memory (and raises its mmap threshold after each large free), so freeing alone does
// not lower the resident size; MADV_DONTNEED on the whole pages inside a dead buffer does, at once.

/// Releases, page by page, the part of a buffer that a sequential pass has consumed: call
/// consumed(upTo) as the pass advances; [begin, upTo) must never be read again. Works in steps
/// of 2 MiB (whole huge pages, few system calls).
class ProgressiveRelease {
 public:
  ProgressiveRelease() = default;
  explicit ProgressiveRelease(const void* begin) : m_done(reinterpret_cast<std::uintptr_t>(begin)) {}
  void consumed(const void* upTo) {
    const auto u = reinterpret_cast<std::uintptr_t>(upTo);
    if (u < m_done + kStep) return;
    const std::uintptr_t e = u & ~(kStep - 1);
    if (e > m_done) {
      releasePages(reinterpret_cast<const void*>(m_done), e - m_done);
      m_done = e;
    }
  }

 private:
  static constexpr std::uintptr_t kStep = 2u << 20;
  std::uintptr_t m_done = 0;
};

// ---- Threads.

/// Runs job(j, worker) for j in [0, count) on `workers` threads (the calling thread is worker 0),
/// handing out jobs in order of j. Stops handing out jobs once `stop` is requested.
template <class F>
void parallelJobs(unsigned workers, std::size_t count, const std::stop_token& stop, F&& job) {
  workers = static_cast<unsigned>(std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(count, 1)));
  std::atomic<std::size_t> next{0};
  ExceptionSlot failure;  // the first exception of any worker, rethrown on the calling thread
  auto work = [&](unsigned w) {
    failure.run([&] {
      for (;;) {
        if (stop.stop_requested() || failure.failed()) return;
        const std::size_t j = next.fetch_add(1, std::memory_order_relaxed);
        if (j >= count) return;
        job(j, w);
      }
    });
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
    work(0);
  }
  failure.rethrow();
}

/// How often long loops look at the stop token (items between two looks).
constexpr std::size_t kStopPoll = 1u << 14;

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
  NameId name = kEmptyName;  ///< thread_name metadata (Trace::strings), kEmptyName when none
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

/// Sizes every slice column of `lane` to `n` (large buffers advised by reserveLarge).
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

/// Reserves `n` slices in every column of `lane`, filled later by push_back (reserveLarge: huge
/// pages, resident as they fill).
void reserveColumnsLazy(Lane& lane, std::size_t n) {
  reserveLarge(lane.start, n);
  reserveLarge(lane.end, n);
  reserveLarge(lane.names, n);
  reserveLarge(lane.categories, n);
  reserveLarge(lane.argsOffset, n);
  reserveLarge(lane.argsLength, n);
  reserveLarge(lane.flags, n);
}

/// Places pending slices into the lane's columns by depth row.
void fillLane(Pending& p, Lane& lane, ImportStats& stats, const std::string& laneLabel, const StringPool& strings) {
  std::vector<std::uint32_t> order, depth;
  OverlapTally tally(laneLabel, &strings);
  (void)assignDepths(p.start, p.end, order, depth, p.flags, &tally, &p.name);
  tally.report(stats, laneLabel);
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

/// One part's slices of a thread and that part's string-id map (nullptr: the ids are global).
struct RawPart {
  RecordBuffer<RawSlice>* slices;
  const NameId* names;
  const std::vector<LongArgs>* longArgs;  ///< the part's side table of long args
};

/// Per-worker buffers reused from lane to lane (warm memory: no page faults after the first lane).
struct LaneScratch {
  RecordBuffer<RawSlice> merged;
  struct SortKey {
    TimeNs start;
    TimeNs negDur;
    std::uint32_t index;
  };
  std::vector<SortKey> keys;
  std::vector<LongArgs> mergedLong;  ///< long args of `merged`
  std::vector<std::uint32_t> order, depth, stack;
  std::vector<TimeNs> ends;
  std::vector<NameId> open;  ///< names of the slices whose ends are in `ends` (buildSortedLane)
  void release() {
    freeNow(merged);
    freeNow(mergedLong);
    freeNow(keys);
    freeNow(order);
    freeNow(depth);
    freeNow(stack);
    freeNow(ends);
    freeNow(open);
  }
};

/// Nesting order of slices (Lane): start ascending, then duration descending (file order last).
inline bool nestingOrdered(const RawSlice& a, const RawSlice& b) {
  return a.ts < b.ts || (a.ts == b.ts && a.dur >= b.dur);
}

constexpr std::uint32_t kOverlapBit = 0x80000000u;  // in LaneScratch::depth: partial overlap
constexpr std::uint32_t kMinorBit = 0x40000000u;    // in LaneScratch::depth: informational overlap
constexpr std::uint32_t kDepthBits = ~(kOverlapBit | kMinorBit);

/// The common case of buildLane: complete (X) slices only, already in nesting order over the
/// concatenation of the parts (the file lists each thread's events by start). Nests them in one
/// pass without sorting or copying, then writes the columns; when the lane has one depth row the
/// columns are written front to back while the raw records are released behind. Returns false
/// (and leaves the lane incomplete) when the input is not in nesting order or on a stop request.
bool buildSortedLane(std::vector<RawPart>& src, std::size_t n, Lane& lane, ImportStats& stats, const StringPool& strings,
                     const std::string& label, LaneScratch& s, const std::stop_token& stop, bool& cancelled) {
  s.depth.resize(n);
  s.ends.clear();
  s.open.clear();
  std::size_t k = 0;
  OverlapTally tally(label, &strings);
  std::uint32_t maxDepth = 0;
  const RawSlice* prev = nullptr;
  for (const RawPart& part : src) {
    for (const RawSlice& r : *part.slices) {
      if (prev && !nestingOrdered(*prev, r)) return false;
      prev = &r;
      if ((k & (kStopPoll - 1)) == 0 && stop.stop_requested()) {
        cancelled = true;
        return false;
      }
      const TimeNs st = r.ts, en = r.ts + r.dur;
      while (!s.ends.empty() && s.ends.back() <= st) {
        s.ends.pop_back();
        s.open.pop_back();
      }
      std::uint32_t d = static_cast<std::uint32_t>(s.ends.size());
      maxDepth = std::max(maxDepth, d + 1);
      if (!s.ends.empty() && s.ends.back() < en)
        d |= tally.add(s.ends.back() - st, r.name, st, en, s.open.back(), s.ends.back()) ? kOverlapBit : kMinorBit;
      s.depth[k++] = d;
      s.ends.push_back(en);
      s.open.push_back(r.name);
    }
  }
  tally.report(stats, label);
  std::vector<std::uint32_t> rowBegin(maxDepth + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++rowBegin[(s.depth[i] & kDepthBits) + 1];
  for (std::size_t d = 1; d < rowBegin.size(); ++d) rowBegin[d] += rowBegin[d - 1];
  const auto flagsOf = [](const RawSlice& r, std::uint32_t d) {
    return static_cast<std::uint8_t>(r.flags() | ((d & kOverlapBit) ? kSlicePartialOverlap : 0) | ((d & kMinorBit) ? kSliceMinorOverlap : 0));
  };
  k = 0;
  if (maxDepth <= 1) {
    // One row: the column order is the input order. Columns grow block by block (a cache-warm
    // resize, no zero-filling of the whole column ahead) while the raw records are released.
    reserveColumnsLazy(lane, n);
    constexpr std::size_t kBlock = 8192;
    for (RawPart& part : src) {
      ProgressiveRelease release(part.slices->data());
      const RawSlice* const data = part.slices->data();
      const std::size_t m = part.slices->size();
      for (std::size_t b = 0; b < m; b += kBlock) {
        const std::size_t e = std::min(m, b + kBlock), at0 = lane.start.size(), len = e - b;
        lane.start.resize(at0 + len);
        lane.end.resize(at0 + len);
        lane.names.resize(at0 + len);
        lane.categories.resize(at0 + len);
        lane.argsOffset.resize(at0 + len);
        lane.argsLength.resize(at0 + len);
        lane.flags.resize(at0 + len);
        TimeNs* const start = lane.start.data() + at0;
        TimeNs* const end = lane.end.data() + at0;
        NameId* const nm = lane.names.data() + at0;
        NameId* const cat = lane.categories.data() + at0;
        std::uint64_t* const ao = lane.argsOffset.data() + at0;
        std::uint32_t* const al = lane.argsLength.data() + at0;
        std::uint8_t* const fl = lane.flags.data() + at0;
        const std::uint32_t* const depth = s.depth.data() + k;
        for (std::size_t i = 0; i < len; ++i) {
          const RawSlice& r = data[b + i];
          start[i] = r.ts;
          end[i] = r.ts + r.dur;
          nm[i] = r.name;
          cat[i] = r.cat;
          ao[i] = r.argsOffset(part.longArgs);
          al[i] = r.argsLength(part.longArgs);
          fl[i] = flagsOf(r, depth[i]);
        }
        k += len;
        release.consumed(data + e);
        if ((b & (kStopPoll - 1)) == 0 && stop.stop_requested()) {
          cancelled = true;
          return false;
        }
      }
    }
  } else {
    resizeColumns(lane, n);
    std::vector<std::uint32_t> cursor(rowBegin.begin(), rowBegin.end() - 1);
    for (const RawPart& part : src) {
      for (const RawSlice& r : *part.slices) {
        const std::uint32_t d = s.depth[k++];
        const std::uint32_t at = cursor[d & kDepthBits]++;
        lane.start[at] = r.ts;
        lane.end[at] = r.ts + r.dur;
        lane.names[at] = r.name;
        lane.categories[at] = r.cat;
        lane.argsOffset[at] = r.argsOffset(part.longArgs);
        lane.argsLength[at] = r.argsLength(part.longArgs);
        lane.flags[at] = flagsOf(r, d);
      }
      if (stop.stop_requested()) {
        cancelled = true;
        return false;
      }
    }
  }
  lane.rowBegin = std::move(rowBegin);
  if (lane.rowBegin.empty()) lane.rowBegin.push_back(0);
  return true;
}

/// Copies the lane's slices of every part into `s.merged` (long args through `s.mergedLong`), B/E
/// pairs matched into complete slices: B and E events in time order (stable: file order at equal
/// ts), an E closes the innermost open B; an E without B is dropped (OrphanEnd), an E whose name
/// differs from its B's is kept (EndNameMismatch), a B never closed ends at `maxTs`
/// (UnterminatedBegin, kSliceUnfinished). Chrome trace format, "Duration Events".
void mergeAndMatchBeginEnd(std::vector<RawPart>& src, std::size_t total, TimeNs maxTs, const StringPool& strings,
                           ImportStats& stats, const std::string& label, LaneScratch& s) {
  RecordBuffer<RawSlice>* items = &s.merged;
  items->clear();
  s.mergedLong.clear();
  reserveLarge(*items, total);
  // A record copied from part `k` keeps its long args through the scratch table.
  const auto pushItem = [&](RawSlice r, std::uint32_t k) {
    if (r.hasLongArgs()) r.setArgs(r.argsOffset(src[k].longArgs), r.argsLength(src[k].longArgs), s.mergedLong);
    items->push_back(r);
  };
  struct BE { TimeNs ts; std::uint32_t part; std::uint32_t idx; };
  std::vector<BE> be;
  for (std::uint32_t k = 0; k < src.size(); ++k) {
    const auto& raw = *src[k].slices;
    for (std::uint32_t i = 0; i < raw.size(); ++i) {
      if (raw[i].ph() == 'X') pushItem(raw[i], k);
      else be.push_back({raw[i].ts, k, i});
    }
  }
  if (be.empty()) return;
  std::stable_sort(be.begin(), be.end(), [](const BE& a, const BE& b) { return a.ts < b.ts; });
  std::vector<std::pair<const RawSlice*, std::uint32_t>> open;  // (B record, its part)
  auto push = [&](const RawSlice& b, std::uint32_t part, TimeNs end, std::uint8_t flags) {
    RawSlice r = b;
    r.dur = end - b.ts;
    r.setFlags(flags);
    r.setPh('X');
    pushItem(r, part);
  };
  for (const BE& e : be) {
    const RawSlice& ev = (*src[e.part].slices)[e.idx];
    if (ev.ph() == 'B') {
      open.emplace_back(&ev, e.part);
      continue;
    }
    if (open.empty()) {
      addWarning(stats, ImportWarning::OrphanEnd, [&] { return "orphan E at " + formatTimestampUs(ev.ts) + " on " + label; });
      continue;
    }
    const auto [b, bPart] = open.back();
    open.pop_back();
    if (ev.name != kEmptyName && ev.name != b->name)
      addWarning(stats, ImportWarning::EndNameMismatch, [&, bName = b->name] {  // (clang 14 cannot capture a binding)
        return "E \"" + std::string(strings.view(ev.name)) + "\" closes B \"" + std::string(strings.view(bName)) +
               "\" at " + formatTimestampUs(ev.ts);
      });
    push(*b, bPart, ev.ts, b->flags());
  }
  for (const auto& [b, bPart] : open) {
    stats.add(ImportWarning::UnterminatedBegin,
              "B \"" + std::string(strings.view(b->name)) + "\" at " + formatTimestampUs(b->ts) + " never ended");
    push(*b, bPart, std::max(b->ts, maxTs), static_cast<std::uint8_t>(b->flags() | kSliceUnfinished));
  }
}

/// The nesting order of `v` (start asc, duration desc, file order) as indices in `s.order`, or
/// nullptr when `v` is already in that order.
const std::uint32_t* nestingOrder(const RecordBuffer<RawSlice>& v, LaneScratch& s) {
  const std::size_t n = v.size();
  bool sorted = true;
  for (std::size_t i = 1; i < n && sorted; ++i) sorted = nestingOrdered(v[i - 1], v[i]);
  if (sorted) return nullptr;
  const auto keyLess = [](const LaneScratch::SortKey& a, const LaneScratch::SortKey& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.negDur != b.negDur) return a.negDur < b.negDur;
    return a.index < b.index;
  };
  // Usually a few slices are out of place (a parent written after its children, as Kineto
  // does with ProfilerStep#N): keep the in-order ones, sort the others, merge. The same order
  // as sorting all the keys, which is the fallback when many are out of place.
  s.keys.clear();
  s.order.clear();
  std::uint32_t last = 0;
  bool any = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!any || nestingOrdered(v[last], v[i])) {
      s.order.push_back(i);
      last = i;
      any = true;
    } else {
      s.keys.push_back({v[i].ts, -v[i].dur, i});
    }
  }
  if (s.keys.size() <= n / 16) {
    std::sort(s.keys.begin(), s.keys.end(), keyLess);
    std::vector<std::uint32_t>& kept = s.stack;  // free until the nesting pass
    kept.swap(s.order);
    s.order.clear();
    s.order.reserve(n);
    std::size_t a = 0, b = 0;
    while (a < kept.size() || b < s.keys.size()) {
      if (b == s.keys.size() ||
          (a < kept.size() && keyLess({v[kept[a]].ts, -v[kept[a]].dur, kept[a]}, s.keys[b])))
        s.order.push_back(kept[a++]);
      else
        s.order.push_back(s.keys[b++].index);
    }
  } else {
    s.keys.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) s.keys[i] = {v[i].ts, -v[i].dur, i};
    std::sort(s.keys.begin(), s.keys.end(), keyLess);
    s.order.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.order[i] = s.keys[i].index;
  }
  return s.order.data();
}

/// Nests `v` (visited in `order`, or in place when null) by the rule of assignDepths, flags the
/// partial overlaps (one PartialOverlap warning each) and writes the lane's depth-row columns.
void nestIntoColumns(RecordBuffer<RawSlice>& v, const std::vector<LongArgs>* itemsLong, const std::uint32_t* order,
                     Lane& lane, ImportStats& stats, const StringPool& strings, const std::string& label,
                     LaneScratch& s) {
  const std::size_t n = v.size();
  s.depth.resize(n);
  s.stack.clear();
  OverlapTally tally(label, &strings);
  std::uint32_t maxDepth = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order ? order[k] : static_cast<std::uint32_t>(k);
    const TimeNs st = v[i].ts, en = v[i].ts + v[i].dur;
    while (!s.stack.empty() && v[s.stack.back()].ts + v[s.stack.back()].dur <= st) s.stack.pop_back();
    auto d = static_cast<std::uint32_t>(s.stack.size());
    maxDepth = std::max(maxDepth, d + 1);
    // The overlap kind rides on the depth (RawSlice keeps three flag bits; kSliceMinorOverlap is
    // the fourth), as in buildSortedLane.
    if (!s.stack.empty() && v[s.stack.back()].ts + v[s.stack.back()].dur < en) {
      const RawSlice& over = v[s.stack.back()];
      d |= tally.add(over.ts + over.dur - st, v[i].name, st, en, over.name, over.ts + over.dur) ? kOverlapBit : kMinorBit;
    }
    s.depth[i] = d;
    s.stack.push_back(i);
  }
  tally.report(stats, label);
  std::vector<std::uint32_t> rowBegin(maxDepth + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++rowBegin[(s.depth[i] & kDepthBits) + 1];
  for (std::size_t d = 1; d < rowBegin.size(); ++d) rowBegin[d] += rowBegin[d - 1];
  resizeColumns(lane, n);
  std::vector<std::uint32_t> cursor(rowBegin.begin(), rowBegin.end() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order ? order[k] : static_cast<std::uint32_t>(k);
    const RawSlice& r = v[i];
    const std::uint32_t d = s.depth[i];
    const std::uint32_t at = cursor[d & kDepthBits]++;
    lane.start[at] = r.ts;
    lane.end[at] = r.ts + r.dur;
    lane.names[at] = r.name;
    lane.categories[at] = r.cat;
    lane.argsOffset[at] = r.argsOffset(itemsLong);
    lane.argsLength[at] = r.argsLength(itemsLong);
    lane.flags[at] = static_cast<std::uint8_t>(r.flags() | ((d & kOverlapBit) ? kSlicePartialOverlap : 0) |
                                               ((d & kMinorBit) ? kSliceMinorOverlap : 0));
  }
  lane.rowBegin = std::move(rowBegin);
  if (lane.rowBegin.empty()) lane.rowBegin.push_back(0);
}

/// Builds one thread's lane columns from its raw slices (file order over `src`): B/E matching,
/// then the nesting rule of assignDepths, then the depth-row columns. Same results as
/// Pending + fillLane, without the intermediate columns: when the thread has no B/E events and
/// its slices are already in nesting order (the common case) they are neither copied nor sorted
/// (buildSortedLane); else, with one part, the part's own records are sorted through keys in
/// place. The raw records are freed (pages released) before returning. Returns false when
/// cancelled through `stop`.
bool buildLane(std::vector<RawPart>& src, TimeNs maxTs, const StringPool& strings, Lane& lane,
               ImportStats& stats, const std::string& label, LaneScratch& s, const std::stop_token& stop) {
  // Global string ids first (in place), and whether there are B/E events.
  bool anyBE = false;
  std::size_t total = 0;
  for (RawPart& part : src) {
    total += part.slices->size();
    if (part.names) {
      const NameId* nm = part.names;
      for (RawSlice& r : *part.slices) {
        r.name = nm[r.name];
        r.cat = nm[r.cat];
        anyBE |= r.ph() != 'X';
      }
      part.names = nullptr;
    } else {
      for (const RawSlice& r : *part.slices) anyBE |= r.ph() != 'X';
    }
  }
  const auto freeRaw = [&] {
    for (RawPart& part : src) freeNow(*part.slices);
  };
  if (stop.stop_requested()) return false;
  if (!anyBE) {
    bool cancelled = false;
    if (buildSortedLane(src, total, lane, stats, strings, label, s, stop, cancelled)) {
      freeRaw();
      return true;
    }
    if (cancelled) return false;
    // Not in nesting order: buildSortedLane stopped before writing any column.
  }
  RecordBuffer<RawSlice>* items = nullptr;
  const std::vector<LongArgs>* itemsLong = nullptr;  // the side table of items' long args
  if (!anyBE && src.size() == 1) {
    items = src[0].slices;
    itemsLong = src[0].longArgs;
  } else {
    mergeAndMatchBeginEnd(src, total, maxTs, strings, stats, label, s);
    items = &s.merged;
    itemsLong = &s.mergedLong;
    freeRaw();
  }
  if (stop.stop_requested()) return false;
  const std::uint32_t* order = nestingOrder(*items, s);
  if (stop.stop_requested()) return false;
  nestIntoColumns(*items, itemsLong, order, lane, stats, strings, label, s);
  freeRaw();
  return true;
}

bool processLess(const Process& a, const Process& b) {
  if (a.sortIndex.has_value() != b.sortIndex.has_value()) return a.sortIndex.has_value();
  if (a.sortIndex && *a.sortIndex != *b.sortIndex) return *a.sortIndex < *b.sortIndex;
  const int c = naturalCompare(a.name, b.name);
  if (c != 0) return c < 0;
  if (a.pidText.empty() != b.pidText.empty()) return a.pidText.empty();  // numeric pid first
  return a.pid < b.pid;
}

// ---- Flows.

/// First index in [b, e) whose start is > t (e if none), as std::upper_bound, searching outwards
/// from `h` in [b, e] (galloping): O(log distance) when successive searches are near each other.
std::uint32_t upperBoundFrom(const TimeNs* start, std::uint32_t b, std::uint32_t e, TimeNs t, std::uint32_t h) {
  std::uint32_t lo = 0, hi = 0;
  std::uint32_t step = 1;
  if (h > b && start[h - 1] > t) {  // the answer is before h
    hi = h - 1;                     // start[hi] > t
    for (;;) {
      if (hi - b < step) {
        lo = b;
        break;
      }
      const std::uint32_t p = hi - step;
      if (start[p] <= t) {
        lo = p + 1;
        break;
      }
      hi = p;
      step *= 2;
    }
  } else {  // everything before h is <= t
    lo = h;
    for (;;) {
      if (e - lo <= step) {
        hi = e;
        break;
      }
      const std::uint32_t p = lo + step;
      if (start[p] > t) {
        hi = p;
        break;
      }
      lo = p + 1;
      step *= 2;
    }
  }
  return static_cast<std::uint32_t>(std::upper_bound(start + lo, start + hi, t) - start);
}

/// Lane::enclosingSlice and Lane::nextSlice with the same results, for a sequence of times that
/// mostly increases (the flow events of one thread in file order): each row remembers where its
/// last search ended.
class LaneSearch {
 public:
  explicit LaneSearch(const Lane& lane) : m_lane(lane), m_hint(lane.rowBegin.begin(), lane.rowBegin.end() - 1) {}
  std::uint32_t enclosingSlice(TimeNs t) {
    const Lane& l = m_lane;
    for (std::uint32_t d = l.depthCount(); d-- > 0;) {
      const std::uint32_t b = l.rowBegin[d], e = l.rowBegin[d + 1];
      if (b == e) continue;
      const std::uint32_t ub = upperBoundFrom(l.start.data(), b, e, t, m_hint[d]);
      m_hint[d] = ub;
      if (ub == b) continue;
      const std::uint32_t i = ub - 1;
      if (t < l.end[i] || (l.start[i] == l.end[i] && l.start[i] == t)) return i;
    }
    return kInvalidIndex;
  }
  /// The slice [t, end) itself (a flow v2 endpoint), deepest first; else enclosingSlice(t).
  std::uint32_t exactSlice(TimeNs t, TimeNs end) {
    const Lane& l = m_lane;
    for (std::uint32_t d = l.depthCount(); d-- > 0;) {
      const auto b = l.start.begin() + l.rowBegin[d], e = l.start.begin() + l.rowBegin[d + 1];
      for (auto it = std::lower_bound(b, e, t); it != e && *it == t; ++it) {
        const auto i = static_cast<std::uint32_t>(it - l.start.begin());
        if (l.end[i] == end) return i;
      }
    }
    return enclosingSlice(t);
  }
  std::uint32_t nextSlice(TimeNs t) {
    const Lane& l = m_lane;
    std::uint32_t best = kInvalidIndex;
    for (std::uint32_t d = 0; d < l.depthCount(); ++d) {
      const std::uint32_t b = l.rowBegin[d], e = l.rowBegin[d + 1];
      // lower_bound(t) == upper_bound(t - 1) on integers.
      const std::uint32_t i = t == INT64_MIN ? b : upperBoundFrom(l.start.data(), b, e, t - 1, m_hint[d]);
      m_hint[d] = i;
      if (i == e) continue;
      if (best == kInvalidIndex || l.start[i] < l.start[best]) best = i;
    }
    return best;
  }

 private:
  const Lane& m_lane;
  std::vector<std::uint32_t> m_hint;  // per row, in [rowBegin[d], rowBegin[d+1]]
};

/// Flow group key: events with equal (id, cat, name, kind) form one flow (or fan-out); (cat,
/// name) is RawFlow::key, global once bound (equal keys, equal pairs).
inline bool flowKeyLess(const RawFlow& a, const RawFlow& b) {
  if (a.id != b.id) return a.id < b.id;
  if (a.key != b.key) return a.key < b.key;
  return a.idKind < b.idKind;
}
inline bool sameFlowKey(const RawFlow& a, const RawFlow& b) {
  return a.id == b.id && a.key == b.key && a.idKind == b.idKind;
}

/// A warning of one flow group, with the group's first event (file order) to sort it by.
struct FlowWarning {
  std::uint32_t first;  // global file order of the group's first event
  std::uint32_t seq;    // order of events (warnings and bound flows) inside the group
  ImportWarning kind;
  std::uint8_t side;    // FlowNoEnclosingSlice: 1 end side, 2 start side
  FlowIdKind idKind;
  NameId cat;
  std::uint64_t id;
};

/// A bound flow with its order key (fromTs, first event of its group, seq).
struct BoundFlow {
  Flow flow;
  std::uint32_t first, seq;
};
inline bool boundLess(const BoundFlow& a, const BoundFlow& b) {
  if (a.flow.fromTs != b.flow.fromTs) return a.flow.fromTs < b.flow.fromTs;
  if (a.first != b.first) return a.first < b.first;
  return a.seq < b.seq;
}

/// What one key range of the flow groups produced, in group key order.
struct FlowRangeOut {
  std::vector<BoundFlow> bound;
  std::vector<FlowWarning> warnings;
  std::vector<UnboundStartFlow> unbound;
};

/// One part's flows, sorted by (key, file order), with the slice each event binds to.
struct FlowRun {
  RawFlow* data = nullptr;
  std::size_t size = 0;
  const std::uint32_t* bind = nullptr;  // by RawFlow::order (original index)
  std::uint32_t offset = 0;             // global file order of the part's first flow
};

/// Pairs the flow events of the groups whose keys lie in [lo[r], hi[r]) of every run r (the same
/// key range in each run): file order inside a group, symmetric (an `f` seen first waits for
/// its `s`), one `s` followed by several `f` fans out. Releases the pages of the events it has
/// consumed as it goes.
/// `prunedCann[t]` is set for a thread whose unbound flow starts of category `h2d` (HostToDevice)
/// are an expected Level0 artefact (see UnboundStartFlow::prunedCann): kept without a warning.
void pairFlowRange(const std::vector<FlowRun>& runs, const std::vector<std::size_t>& lo, const std::vector<std::size_t>& hi,
                   const std::vector<GlobalThread>& threads, const std::vector<std::uint8_t>& prunedCann,
                   const std::vector<std::pair<NameId, NameId>>& flowKeys, NameId h2d, FlowRangeOut& out,
                   const std::stop_token& stop) {
  const std::size_t R = runs.size();
  std::vector<std::size_t> cur(lo);
  std::vector<ProgressiveRelease> release(R);
  std::size_t nf = 0;
  for (std::size_t r = 0; r < R; ++r) {
    release[r] = ProgressiveRelease(runs[r].data + lo[r]);
    for (std::size_t i = lo[r]; i < hi[r]; ++i) nf += runs[r].data[i].ph == 'f';
  }
  reserveLarge(out.bound, nf);  // at most one bound flow per `f`
  struct Ev {
    const RawFlow* f;
    std::uint32_t run;
  };
  std::vector<Ev> group;
  std::vector<Ev> waiting;
  std::size_t groups = 0;
  const auto bindOf = [&](const Ev& e) -> SliceRef {
    const std::uint32_t idx = runs[e.run].bind[e.f->order];
    if (idx == kInvalidIndex) return {};
    return {threads[e.f->thread].lane, idx};
  };
  for (;;) {
    // The smallest key among the runs' cursors; its events, run by run (= file order).
    std::size_t best = R;
    for (std::size_t r = 0; r < R; ++r)
      if (cur[r] < hi[r] && (best == R || flowKeyLess(runs[r].data[cur[r]], runs[best].data[cur[best]]))) best = r;
    if (best == R) break;
    if ((++groups & (kStopPoll - 1)) == 0) {
      if (stop.stop_requested()) return;
      for (std::size_t r = 0; r < R; ++r) release[r].consumed(runs[r].data + cur[r]);
    }
    const RawFlow key = runs[best].data[cur[best]];
    group.clear();
    for (std::size_t r = 0; r < R; ++r)
      while (cur[r] < hi[r] && sameFlowKey(runs[r].data[cur[r]], key)) group.push_back({&runs[r].data[cur[r]++], static_cast<std::uint32_t>(r)});
    const std::uint32_t first = runs[group[0].run].offset + group[0].f->order;
    std::uint32_t seq = 0;
    const NameId cat = flowKeys[key.key].first;
    // A name that was the category and the id is not kept (kFlowNameIsCategoryAndId).
    const NameId name = flowKeys[key.key].second == kFlowNameIsCategoryAndId ? kEmptyName : flowKeys[key.key].second;
    auto warn = [&](ImportWarning w, std::uint8_t side = 0) {
      out.warnings.push_back({first, seq++, w, side, key.idKind, cat, key.id});
    };
    if (key.idKind == FlowIdKind::Invalid) {
      warn(ImportWarning::InvalidFlowId);
      continue;
    }
    const Ev* pending = nullptr;
    const Ev* lastStart = nullptr;  // for a second f after a finished flow (fan-out)
    bool warnedStart = false, warnedEnd = false, warnedStep = false;
    auto finish = [&](const Ev& s, const Ev& f) {
      const SliceRef from = bindOf(s);
      const SliceRef to = bindOf(f);
      if (!from.valid() || !to.valid()) {
        // Keep a start without a slice when its end is bound: at Level0 the HostToDevice `s`
        // sits on the pruned CANN thread, and its tid + ts still locate the launch.
        const GlobalThread& sth = threads[s.f->thread];
        const bool keep = !from.valid() && to.valid() && sth.tid.kind == KeyKind::Number;
        const bool expected = keep && cat == h2d && prunedCann[s.f->thread];
        if (!expected) warn(ImportWarning::FlowNoEnclosingSlice, from.valid() ? 1 : 2);
        if (keep) out.unbound.push_back({cat, sth.tid.v, s.f->ts, to, f.f->ts, name, expected});
        return;
      }
      out.bound.push_back({{cat, name, from, to, s.f->ts, f.f->ts}, first, seq++});
    };
    waiting.clear();
    for (const Ev& e : group) {
      const char ph = e.f->ph;
      if (ph == 's') {
        if (!waiting.empty() && !pending) {
          for (const Ev& w : waiting) finish(e, w);
          waiting.clear();
          lastStart = &e;
          continue;
        }
        if (pending && !warnedStart) {
          warn(ImportWarning::FlowStartWithoutEnd);
          warnedStart = true;
        }
        pending = &e;
      } else if (ph == 't') {
        if (!pending && !lastStart && !warnedStep) {
          warn(ImportWarning::FlowStepWithoutStart);
          warnedStep = true;
        }
      } else {  // 'f'
        if (pending) {
          finish(*pending, e);
          lastStart = pending;
          pending = nullptr;
        } else if (lastStart) {
          finish(*lastStart, e);
        } else {
          waiting.push_back(e);
        }
      }
    }
    if (!waiting.empty() && !warnedEnd) warn(ImportWarning::FlowEndWithoutStart);
    if (pending && !warnedStart) warn(ImportWarning::FlowStartWithoutEnd);
  }
}

/// Level0 (format notes §2.1, §3): the CANN layer was pruned, so a HostToDevice start has no
/// slice; the task was launched from the Dequeue on the Python process's thread with the same OS
/// tid whose span holds the start's ts (torch_npu's rule, as dispatchChain follows it). Each such
/// start inside a Dequeue* slice becomes a bound flow Dequeue -> device task (same category and
/// name), merged into trace.flows by fromTs; the unboundStarts entries stay. One trace note says
/// what happened. O(starts * log slices).
void bindPrunedStarts(Trace& trace) {
  std::size_t pruned = 0;
  for (const UnboundStartFlow& u : trace.unboundStarts) pruned += u.prunedCann;
  if (pruned == 0) return;
  std::vector<std::int8_t> isDequeue(trace.strings.size(), -1);
  const auto dequeueName = [&](NameId id) {
    if (isDequeue[id] < 0) isDequeue[id] = trace.strings.view(id).starts_with("Dequeue") ? 1 : 0;
    return isDequeue[id] == 1;
  };
  std::unordered_map<std::int64_t, std::uint32_t> pythonLane;  // OS tid -> lane of the Python process
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l)
    if (trace.processes[trace.lanes[l].process].role == Process::Role::Python && trace.lanes[l].tidText.empty())
      pythonLane.try_emplace(trace.lanes[l].tid, l);
  std::vector<Flow> added;
  for (const UnboundStartFlow& u : trace.unboundStarts) {
    if (!u.prunedCann) continue;
    const auto it = pythonLane.find(u.fromTid);
    if (it == pythonLane.end()) continue;
    const Lane& lane = trace.lanes[it->second];
    // The deepest Dequeue* slice holding the ts (start <= ts < end).
    std::uint32_t found = kInvalidIndex;
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      const auto b = lane.start.begin() + lane.rowBegin[d], e = lane.start.begin() + lane.rowBegin[d + 1];
      const auto ub = std::upper_bound(b, e, u.fromTs);
      if (ub == b) continue;
      const auto i = static_cast<std::uint32_t>(ub - lane.start.begin()) - 1;
      if (u.fromTs < lane.end[i] && dequeueName(lane.names[i])) found = i;
    }
    if (found == kInvalidIndex) continue;
    added.push_back({u.category, u.name, {it->second, found}, u.to, u.fromTs, u.toTs});
  }
  std::string note = "Level0 capture: the CANN layer was not recorded; " + std::to_string(added.size()) +
                     " HostToDevice launches are bound to the Dequeue on the same OS thread";
  if (added.size() < pruned)
    note += " (" + std::to_string(pruned - added.size()) + " of " + std::to_string(pruned) +
            " lie in no Dequeue and stay unbound)";
  trace.notes.push_back(std::move(note));
  if (added.empty()) return;
  const auto byFrom = [](const Flow& a, const Flow& b) { return a.fromTs < b.fromTs; };
  std::stable_sort(added.begin(), added.end(), byFrom);
  const std::size_t mid = trace.flows.size();
  trace.flows.insert(trace.flows.end(), added.begin(), added.end());
  std::inplace_merge(trace.flows.begin(), trace.flows.begin() + static_cast<std::ptrdiff_t>(mid), trace.flows.end(), byFrom);
}

}  // namespace

void buildFlowIndex(const std::vector<Flow>& flows, const std::vector<Lane>& lanes, std::vector<std::uint32_t>& byFrom,
                    std::vector<std::uint32_t>& byTo) {
  const auto build = [&](std::vector<std::uint32_t>& index, SliceRef Flow::*side) {
    const std::size_t n = flows.size();
    reserveLarge(index, n);
    index.resize(n);
    const auto indexLess = [&](std::uint32_t a, std::uint32_t b) {
      const SliceRef& x = flows[a].*side;
      const SliceRef& y = flows[b].*side;
      return x.lane != y.lane ? x.lane < y.lane : x.index < y.index;
    };
    // Buckets: one per depth row of every lane.
    std::vector<std::uint32_t> rowBase(lanes.size() + 1, 0);
    for (std::size_t l = 0; l < lanes.size(); ++l) rowBase[l + 1] = rowBase[l] + lanes[l].depthCount();
    std::vector<std::uint32_t> bucket;
    reserveLarge(bucket, n);
    bucket.resize(n);
    bool inLanes = true;
    for (std::size_t i = 0; i < n && inLanes; ++i) {
      const SliceRef& r = flows[i].*side;
      if (r.lane >= lanes.size() || r.index >= lanes[r.lane].sliceCount()) {
        inLanes = false;
        break;
      }
      bucket[i] = rowBase[r.lane] + lanes[r.lane].depthOf(r.index);
    }
    if (!inLanes) {
      std::iota(index.begin(), index.end(), 0u);
      std::stable_sort(index.begin(), index.end(), indexLess);
      return;
    }
    std::vector<std::uint32_t> begin(rowBase.back() + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++begin[bucket[i] + 1];
    for (std::size_t b = 1; b < begin.size(); ++b) begin[b] += begin[b - 1];
    // (slice index, flow index) pairs by bucket, flow index ascending inside each bucket: sorting
    // a bucket's pairs is the stable sort of its flows by slice index.
    std::vector<std::uint64_t> keyed;
    reserveLarge(keyed, n);
    keyed.resize(n);
    {
      std::vector<std::uint32_t> cursor(begin.begin(), begin.end() - 1);
      for (std::size_t i = 0; i < n; ++i)
        keyed[cursor[bucket[i]]++] = (std::uint64_t{(flows[i].*side).index} << 32) | i;
    }
    freeNow(bucket);
    for (std::size_t b = 0; b + 1 < begin.size(); ++b) {
      const auto first = keyed.begin() + begin[b], last = keyed.begin() + begin[b + 1];
      if (!std::is_sorted(first, last)) std::sort(first, last);
    }
    for (std::size_t k = 0; k < n; ++k) index[k] = static_cast<std::uint32_t>(keyed[k]);
    freeNow(keyed);
  };
  if (flows.size() < (1u << 16)) {
    build(byFrom, &Flow::from);
    build(byTo, &Flow::to);
    return;
  }
  ExceptionSlot failure;
  {
    std::jthread other([&] { failure.run([&] { build(byTo, &Flow::to); }); });
    failure.run([&] { build(byFrom, &Flow::from); });
  }
  failure.rethrow();
}

namespace {

// ---- buildTrace, phase by phase. Each phase reads what the previous ones left in BuildState.

/// The state buildTrace's phases share: the reader's parts and the maps from their local ids
/// (strings, processes, threads) to the trace's.
struct BuildState {
  BuildState(std::vector<WorkerOut>& p, Trace& t, const std::stop_token& s) : parts(p), trace(t), stop(s) {}
  std::vector<WorkerOut>& parts;
  Trace& trace;
  const std::stop_token& stop;
  unsigned workers = 1;
  std::vector<std::vector<NameId>> nameMap;  ///< per part; empty: identity
  std::vector<std::vector<std::uint32_t>> procMap, threadMap;
  std::vector<GlobalThread> threads;
  std::vector<Process> procs;
  std::vector<Lane> lanes;                 ///< before the display sort
  std::vector<std::uint32_t> laneThread;   ///< per lane: its thread, kInvalidIndex for async lanes
  std::vector<std::uint8_t> prunedCann;    ///< per thread, see pairFlowRange
  /// The (category, name) pairs of every part's flows with global names (numbered in the order
  /// of first appearance in the file): RawFlow::key once bindAndSortFlows has run.
  FlowKeyTable flowKeys;
  TimeNs maxTs = INT64_MIN;

  [[nodiscard]] const NameId* names(std::size_t k) const { return nameMap[k].empty() ? nullptr : nameMap[k].data(); }
  [[nodiscard]] NameId global(std::size_t k, NameId id) const { return nameMap[k].empty() ? id : nameMap[k][id]; }
  [[nodiscard]] Key globalKey(std::size_t k, Key key) const {
    if (key.kind == KeyKind::String) key.v = global(k, static_cast<NameId>(key.v));
    return key;
  }
};

/// The reader grows its buffers by doubling: the unused halves are resident but dead. Gives them
/// back, and what the reader freed but glibc kept.
void releaseReaderSpare(std::vector<WorkerOut>& parts) {
  for (auto& w : parts) {
    for (auto& v : w.slices) releaseSpare(v);
    releaseSpare(w.flows);
    releaseSpare(w.counters);
    releaseSpare(w.asyncs);
  }
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

/// Phase 1, strings. The first part's pool becomes the trace's (same ids as merging it into an
/// empty pool), the others are absorbed without copying their bytes.
void mergeStrings(BuildState& b) {
  b.nameMap.assign(b.parts.size(), {});
  for (std::size_t k = 0; k < b.parts.size() && !b.stop.stop_requested(); ++k) {
    if (k == 0 && b.trace.strings.size() == 1) b.trace.strings = std::move(b.parts[0].pool);
    else b.nameMap[k] = b.trace.strings.absorb(std::move(b.parts[k].pool), &b.stop);
  }
}

/// Phase 2, processes and threads in order of first appearance, with local -> global maps;
/// event counts and the parts' warnings are merged in part order.
void mergeProcessesAndThreads(BuildState& b) {
  std::unordered_map<Key, std::uint32_t, KeyHash> procIndex;
  std::vector<Key> procKeys;
  b.procMap.assign(b.parts.size(), {});
  b.threadMap.assign(b.parts.size(), {});
  std::unordered_map<std::pair<Key, Key>, std::uint32_t, KeyPairHash> threadIndex;
  std::size_t partThreads = 0;  // at least the global count: no doubling slack in b.threads
  for (const WorkerOut& w : b.parts) partThreads += w.threads.size();
  b.threads.reserve(partThreads);
  for (std::size_t k = 0; k < b.parts.size(); ++k) {
    WorkerOut& w = b.parts[k];
    b.trace.eventCount += w.events;
    b.trace.stats.merge(w.stats);
    for (const Key& lk : w.processes) {
      const Key g = b.globalKey(k, lk);
      auto [it, inserted] = procIndex.try_emplace(g, static_cast<std::uint32_t>(procKeys.size()));
      if (inserted) procKeys.push_back(g);
      b.procMap[k].push_back(it->second);
    }
    for (std::size_t t = 0; t < w.threads.size(); ++t) {
      const auto& [lp, ltid] = w.threads[t];
      const Key gp = procKeys[b.procMap[k][lp]];
      const Key gt = b.globalKey(k, ltid);
      auto [it, inserted] = threadIndex.try_emplace({gp, gt}, static_cast<std::uint32_t>(b.threads.size()));
      if (inserted) {
        GlobalThread th;
        th.process = b.procMap[k][lp];
        th.tid = gt;
        b.threads.push_back(th);
      }
      b.threadMap[k].push_back(it->second);
      if (!w.slices[t].empty()) b.threads[it->second].wantsLane = true;
    }
    // The reader's lookup maps are done with (its processes and threads are in vectors): 26 MB
    // for 200,000 threads, freed before the lanes are built (issue 27 item 3).
    decltype(w.threadIndex)().swap(w.threadIndex);
    decltype(w.processIndex)().swap(w.processIndex);
  }
  b.procs.resize(procKeys.size());
  for (std::size_t i = 0; i < procKeys.size(); ++i) {
    const Key& key = procKeys[i];
    Process& p = b.procs[i];
    if (key.kind == KeyKind::Number) {
      p.pid = key.v;
      p.name = std::to_string(key.v);
    } else if (key.kind == KeyKind::String) {
      p.pidText = std::string(b.trace.strings.view(static_cast<NameId>(key.v)));
      p.name = p.pidText;
    } else {
      p.pidText = "(invalid pid)";
      p.name = p.pidText;
    }
  }
}

/// Phase 3, metadata in file order (the last record wins); then the time range of every timed
/// event (kept when there is nothing else to show) and maxTs (where unfinished slices end).
void applyMetadata(BuildState& b) {
  for (std::size_t k = 0; k < b.parts.size(); ++k) {
    for (const RawMeta& m : b.parts[k].metas) {
      Process& p = b.procs[b.procMap[k][m.process]];
      const std::string_view text = b.trace.strings.view(b.global(k, m.text));
      switch (m.kind) {
        case MetaKind::ProcessName: p.name = text; break;
        case MetaKind::ProcessLabels: p.label = text; break;
        case MetaKind::ProcessSortIndex:
          if (m.valid) p.sortIndex = m.number;
          break;
        case MetaKind::ThreadName: {
          GlobalThread& t = b.threads[b.threadMap[k][m.thread]];
          t.name = b.global(k, m.text);
          t.wantsLane = true;
          break;
        }
        case MetaKind::ThreadSortIndex: {
          GlobalThread& t = b.threads[b.threadMap[k][m.thread]];
          if (m.valid) t.sortIndex = m.number;
          t.wantsLane = true;
          break;
        }
      }
    }
  }
  TimeNs minTs = INT64_MAX, maxTs = INT64_MIN;
  for (const auto& w : b.parts) {
    minTs = std::min(minTs, w.minTs);
    maxTs = std::max(maxTs, w.maxTs);
  }
  b.maxTs = maxTs;
  b.trace.range = minTs <= maxTs ? TimeRange{minTs, maxTs} : TimeRange{0, 0};
}

/// Phase 4, slices per thread: B/E matching, then nesting into columns (buildLane). Lanes are
/// independent, so they are built on as many threads as the reader used (largest lanes first,
/// which also frees the largest raw buffers first); warnings are merged in thread order
/// afterwards, so the result does not depend on the thread count. False when cancelled.
bool buildThreadLanes(BuildState& b) {
  auto& parts = b.parts;
  // The (part, part's thread) pairs of each global thread, in part order: one array and the
  // offsets of each thread's pairs (a vector per thread cost 56 bytes a thread).
  std::vector<std::uint32_t> pairBegin(b.threads.size() + 1, 0);
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::uint32_t t = 0; t < parts[k].threads.size(); ++t)
      if (!parts[k].slices[t].empty()) ++pairBegin[b.threadMap[k][t] + 1];
  std::partial_sum(pairBegin.begin(), pairBegin.end(), pairBegin.begin());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(pairBegin.back());
  {
    std::vector<std::uint32_t> next(pairBegin.begin(), pairBegin.end() - 1);
    for (std::size_t k = 0; k < parts.size(); ++k)
      for (std::uint32_t t = 0; t < parts[k].threads.size(); ++t)
        if (!parts[k].slices[t].empty()) pairs[next[b.threadMap[k][t]]++] = {static_cast<std::uint32_t>(k), t};
  }
  const auto threadParts = [&](std::uint32_t g) {
    return std::span<const std::pair<std::uint32_t, std::uint32_t>>(pairs.data() + pairBegin[g], pairs.data() + pairBegin[g + 1]);
  };
  // A job per wanted lane, built in place in b.lanes (job j is lane j, in thread order). A job
  // keeps an ImportStats only when its lane had something to report: with 200,000 one-slice
  // threads a Lane and an ImportStats per job, then the Lanes moved into b.lanes, were 140 MB of
  // the load's 313 MB peak (issue 27 item 3).
  struct LaneJob {
    std::uint32_t thread = 0;
    std::size_t slices = 0;
    std::unique_ptr<ImportStats> stats;
    bool done = false;
  };
  std::vector<LaneJob> jobs;
  jobs.reserve(static_cast<std::size_t>(
      std::count_if(b.threads.begin(), b.threads.end(), [](const GlobalThread& th) { return th.wantsLane; })));
  for (std::uint32_t g = 0; g < b.threads.size(); ++g)
    if (b.threads[g].wantsLane) {
      LaneJob job;
      job.thread = g;
      for (auto [k, t] : threadParts(g)) job.slices += parts[k].slices[t].size();
      jobs.push_back(std::move(job));
    }
  const std::size_t firstLane = b.lanes.size();
  b.lanes.resize(firstLane + jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const GlobalThread& th = b.threads[jobs[j].thread];
    Lane& lane = b.lanes[firstLane + j];
    lane.process = th.process;
    if (th.tid.kind == KeyKind::Number) lane.tid = th.tid.v;
    else lane.tidText = keyText(th.tid, b.trace.strings);
    const std::string_view threadName = b.trace.strings.view(th.name);
    lane.name = !threadName.empty() ? std::string(threadName) : keyText(th.tid, b.trace.strings);
    lane.sortIndex = th.sortIndex;
  }
  std::vector<std::uint32_t> jobOrder(jobs.size());
  std::iota(jobOrder.begin(), jobOrder.end(), 0u);
  std::stable_sort(jobOrder.begin(), jobOrder.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return jobs[x].slices > jobs[y].slices; });
  std::vector<LaneScratch> scratch(b.workers);
  std::vector<ImportStats> workerStats(b.workers);  // a job's warnings, handed to it when there are any
  parallelJobs(b.workers, jobOrder.size(), b.stop, [&](std::size_t j, unsigned w) {
    LaneJob& job = jobs[jobOrder[j]];
    Lane& lane = b.lanes[firstLane + jobOrder[j]];
    const std::string label = b.procs[lane.process].name + " / " + lane.name;
    std::vector<RawPart> src;
    for (auto [k, t] : threadParts(job.thread)) src.push_back({&parts[k].slices[t], b.names(k), &parts[k].longArgs});
    ImportStats& stats = workerStats[w];
    job.done = buildLane(src, b.maxTs, b.trace.strings, lane, stats, label, scratch[w], b.stop);
    // The thread's raw slices are in the lane now: freed here rather than all at the end, so
    // that the raw buffers and the lanes are not all held at once. (Each buffer belongs to one
    // thread, so one job.)
    for (auto [k, t] : threadParts(job.thread)) parts[k].slices[t].reset();
    const bool any = !stats.examples.empty() ||
                     std::any_of(stats.counts.begin(), stats.counts.end(), [](std::uint64_t n) { return n != 0; });
    if (any) {
      job.stats = std::make_unique<ImportStats>(std::move(stats));
      stats = ImportStats{};
    }
  });
  for (auto& s : scratch) s.release();
  if (b.stop.stop_requested()) return false;
  for (auto& part : parts) std::vector<RecordBuffer<RawSlice>>().swap(part.slices);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (jobs[j].stats) b.trace.stats.merge(*jobs[j].stats);
    b.threads[jobs[j].thread].lane = static_cast<std::uint32_t>(firstLane + j);
    b.laneThread.push_back(jobs[j].thread);
  }
  return true;
}

/// Phase 5, async (b/e/n) slices: one lane per (process, name); id2.global ids share a global
/// process. A `b` is closed by the last open `b` of the same (process, cat, name, id); an `e`
/// without one is dropped (OrphanEnd), a `b` never closed ends at maxTs (UnterminatedBegin).
void buildAsyncLanes(BuildState& b) {
  struct AsyncKey {
    std::uint32_t process;
    NameId cat, name, id;
    bool operator<(const AsyncKey& o) const {
      return std::tie(process, cat, name, id) < std::tie(o.process, o.cat, o.name, o.id);
    }
  };
  Trace& trace = b.trace;
  std::map<AsyncKey, std::vector<std::pair<TimeNs, const RawAsync*>>> open;
  std::map<std::pair<std::uint32_t, NameId>, Pending> asyncLanes;
  std::uint32_t globalProc = kInvalidIndex;
  for (std::size_t k = 0; k < b.parts.size(); ++k) {
    for (const RawAsync& a : b.parts[k].asyncs) {
      std::uint32_t proc = b.procMap[k][a.process];
      if (a.global) {
        if (globalProc == kInvalidIndex) {
          globalProc = static_cast<std::uint32_t>(b.procs.size());
          Process gp;
          gp.pidText = "(global async)";
          gp.name = "Global async";
          b.procs.push_back(gp);
        }
        proc = globalProc;
      }
      const NameId name = b.global(k, a.name);
      const AsyncKey key{proc, b.global(k, a.cat), name, b.global(k, a.idText)};
      Pending& lanePending = asyncLanes[{proc, name}];
      if (a.ph == 'b') {
        open[key].emplace_back(a.ts, &a);
      } else if (a.ph == 'e') {
        auto it = open.find(key);
        if (it == open.end() || it->second.empty()) {
          addWarning(trace.stats, ImportWarning::OrphanEnd, [&] { return "async e without b at " + formatTimestampUs(a.ts); });
          continue;
        }
        auto [bts, bev] = it->second.back();
        it->second.pop_back();
        lanePending.push(bts, a.ts, name, key.cat, bev->argsOffset, bev->argsLength, 0);
      } else {
        lanePending.push(a.ts, a.ts, name, key.cat, a.argsOffset, a.argsLength, kSliceInstant);
      }
    }
  }
  for (auto& [key, stack] : open)
    for (auto& [bts, bev] : stack) {
      addWarning(trace.stats, ImportWarning::UnterminatedBegin, [ts = bts] { return "async b never ended at " + formatTimestampUs(ts); });
      asyncLanes[{key.process, key.name}].push(bts, std::max(bts, b.maxTs), key.name, key.cat, bev->argsOffset,
                                               bev->argsLength, kSliceUnfinished);
    }
  // Room for the async lanes at once: b.lanes holds exactly the thread lanes, and growing it by
  // doubling would hold a second copy of all of them for a moment.
  b.lanes.reserve(b.lanes.size() + asyncLanes.size());
  b.laneThread.reserve(b.laneThread.size() + asyncLanes.size());
  for (auto& [key, pending] : asyncLanes) {
    if (pending.size() == 0) continue;
    Lane lane;
    lane.process = key.first;
    lane.name = std::string(trace.strings.view(key.second));
    lane.tidText = "async:" + lane.name;
    fillLane(pending, lane, trace.stats, b.procs[key.first].name + " / " + lane.name, trace.strings);
    b.laneThread.push_back(kInvalidIndex);
    b.lanes.push_back(std::move(lane));
  }
  for (auto& w : b.parts) freeNow(w.asyncs);
}

/// Phase 6, counters: one series per (process, name, key), samples sorted by time (stable).
void buildCounterSeries(BuildState& b) {
  // Two passes: each sample's series first (with its count), then the samples into columns of
  // their exact size. One pass with push_back doubled each column and copied it again to
  // shrink it; a cache of the last two keys missed on every sample of three series written in
  // turn (AI Core Freq, APP/HBM, Device/HBM) and went through the map: 44 ms for 0.67 M samples.
  using SeriesKey = std::tuple<std::uint32_t, NameId, NameId>;
  std::map<SeriesKey, std::uint32_t> seriesIndex;
  std::vector<CounterSeries> series;
  std::vector<std::size_t> count;
  std::vector<std::vector<std::uint32_t>> seriesOf(b.parts.size());
  for (std::size_t k = 0; k < b.parts.size(); ++k) {
    // Samples come in runs of one series, or a few series in turn: remember the last ones.
    constexpr std::size_t kRecent = 8;
    SeriesKey recentKey[kRecent];
    std::uint32_t recent[kRecent];
    std::size_t recentCount = 0, recentNext = 0;
    const RecordBuffer<RawCounter>& samples = b.parts[k].counters;
    std::vector<std::uint32_t>& of = seriesOf[k];
    of.resize(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const RawCounter& c = samples[i];
      const SeriesKey key{b.procMap[k][c.process], b.global(k, c.name), b.global(k, c.key)};
      std::uint32_t si = kInvalidIndex;
      for (std::size_t r = 0; r < recentCount; ++r)
        if (recentKey[r] == key) {
          si = recent[r];
          break;
        }
      if (si == kInvalidIndex) {
        auto [it, inserted] = seriesIndex.try_emplace(key, static_cast<std::uint32_t>(series.size()));
        if (inserted) {
          CounterSeries s;
          s.process = std::get<0>(key);
          s.name = std::get<1>(key);
          s.key = std::get<2>(key);
          series.push_back(std::move(s));
          count.push_back(0);
        }
        si = it->second;
        recentKey[recentNext] = key;
        recent[recentNext] = si;
        recentNext = (recentNext + 1) % kRecent;
        recentCount = std::min(recentCount + 1, kRecent);
      }
      of[i] = si;
      ++count[si];
    }
  }
  for (std::size_t si = 0; si < series.size(); ++si) {
    reserveLarge(series[si].ts, count[si]);
    reserveLarge(series[si].value, count[si]);
  }
  for (std::size_t k = 0; k < b.parts.size(); ++k) {
    const RecordBuffer<RawCounter>& samples = b.parts[k].counters;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      CounterSeries& s = series[seriesOf[k][i]];
      s.ts.push_back(samples[i].ts);
      s.value.push_back(samples[i].value);
    }
    freeNow(b.parts[k].counters);
    freeNow(seriesOf[k]);
  }
  for (auto& s : series) {
    if (!std::is_sorted(s.ts.begin(), s.ts.end())) {
      std::vector<std::uint32_t> idx(s.ts.size());
      std::iota(idx.begin(), idx.end(), 0u);
      std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) { return s.ts[x] < s.ts[y]; });
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
  b.trace.counters = std::move(series);
}

/// Which processes were never named by metadata (their name is still the pid's text).
std::vector<bool> unnamedProcesses(const std::vector<Process>& procs) {
  std::vector<bool> unnamed(procs.size(), false);
  for (std::size_t i = 0; i < procs.size(); ++i)
    unnamed[i] = procs[i].name == (procs[i].pidText.empty() ? std::to_string(procs[i].pid) : procs[i].pidText);
  return unnamed;
}

/// k of a Kineto "GPU k" process label; -1 for a bare "GPU"; -2 for any other label.
int kinetoGpuIndex(std::string_view label) {
  if (label == "GPU") return -1;
  if (!label.starts_with("GPU ")) return -2;
  const auto k = parseInteger<int>(label.substr(4));
  return k && *k >= 0 ? *k : -2;
}

/// Phase 7a, roles and devices of the processes (format notes §2.3, §2.4). A process of role
/// Other with counters and no shown lane is a Counter process. A device number too long for an
/// int is a note in `notes`.
void assignRolesAndDevices(std::vector<Process>& procs, const std::vector<bool>& hasSlices,
                           const std::vector<bool>& hasCounters, int plainNpuDevice, std::vector<std::string>& notes) {
  // A PyTorch Kineto trace (format notes §6.1): device processes are labelled "GPU k" (CUDA,
  // ROCm) or "Ascend NPU" (torch_npu's PrivateUse1 path, process name "NPU"). Ascend exports
  // never use these labels, so their roles are unchanged.
  bool kineto = false;
  for (Process& p : procs) {
    const int gpu = kinetoGpuIndex(p.label);
    if (gpu < -1 && !(p.label == "Ascend NPU" || (p.name == "NPU" && p.label.empty()))) continue;
    kineto = true;
    p.role = Process::Role::KinetoDevice;
    p.deviceId = gpu >= 0 ? gpu : (p.pidText.empty() && p.pid >= 0 && p.pid < 1024 ? static_cast<int>(p.pid) : -1);
  }
  for (std::size_t i = 0; i < procs.size(); ++i) {
    Process& p = procs[i];
    if (p.role == Process::Role::KinetoDevice) continue;
    p.role = classifyProcess(p.name);
    // Kineto's host process (label "CPU") holds the torch ops and the runtime launches: the
    // Python layer of the Top-Down method (§6.1). Only in a trace with a Kineto device process:
    // an Ascend Level0 export has an unnamed "CPU" process (the pruned CANN pid).
    if (kineto && p.role == Process::Role::Other && p.label == "CPU") p.role = Process::Role::Python;
    if (p.role == Process::Role::Other && !hasSlices[i] && hasCounters[i]) p.role = Process::Role::Counter;
    if (p.label.rfind("NPU ", 0) == 0) {
      const std::string num = p.label.substr(4);
      if (!num.empty() && std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        // A number too long for an int ("NPU 99999999999") is no device id: treated as plain "NPU".
        if (const auto id = parseInteger<int>(num)) {
          p.deviceId = *id;
        } else {
          p.deviceId = plainNpuDevice;
          notes.push_back("process label \"" + p.label + "\": device number out of range, taken as " +
                          (plainNpuDevice >= 0 ? "device " + std::to_string(plainNpuDevice) : "unknown"));
        }
      }
    } else if (p.label == "NPU") {
      // Older CANN / msprof wrote plain "NPU" with decimal-concatenated pids (format notes
      // §2.3: Ascend Hardware 3, HCCL 1003611, Overlap Analysis 1003612 in one file): the pid
      // holds no device id. One file is one device, so every such process gets the rank's
      // device (or -1), and Ascend Hardware, HCCL and Overlap Analysis stay together.
      p.deviceId = plainNpuDevice;
    }
  }
}

/// Phase 7b, display order: keeps the processes that have lanes, counters or a name from
/// metadata and the lanes to show, sorts both (processLess; lanes by process, sort index,
/// natural name order, tid) and moves them into the trace; counters follow their process.
void orderForDisplay(BuildState& b, const std::vector<bool>& keepProcess, const std::vector<bool>& laneShown) {
  Trace& trace = b.trace;
  auto& procs = b.procs;
  auto& lanes = b.lanes;
  std::vector<std::uint32_t> procOrder;
  for (std::uint32_t i = 0; i < procs.size(); ++i)
    if (keepProcess[i]) procOrder.push_back(i);
  std::stable_sort(procOrder.begin(), procOrder.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return processLess(procs[x], procs[y]); });
  std::vector<std::uint32_t> procNew(procs.size(), kInvalidIndex);
  for (std::uint32_t i = 0; i < procOrder.size(); ++i) procNew[procOrder[i]] = i;
  std::vector<std::uint32_t> laneOrder;
  for (std::uint32_t i = 0; i < lanes.size(); ++i)
    if (laneShown[i]) laneOrder.push_back(i);
  std::stable_sort(laneOrder.begin(), laneOrder.end(), [&](std::uint32_t x, std::uint32_t y) {
    const Lane& la = lanes[x];
    const Lane& lb = lanes[y];
    if (procNew[la.process] != procNew[lb.process]) return procNew[la.process] < procNew[lb.process];
    if (la.sortIndex.has_value() != lb.sortIndex.has_value()) return la.sortIndex.has_value();
    if (la.sortIndex && *la.sortIndex != *lb.sortIndex) return *la.sortIndex < *lb.sortIndex;
    const int c = naturalCompare(la.name, lb.name);
    if (c != 0) return c < 0;
    return la.tid < lb.tid;
  });
  std::vector<std::uint32_t> laneNew(lanes.size(), kInvalidIndex);
  for (std::uint32_t i = 0; i < laneOrder.size(); ++i) laneNew[laneOrder[i]] = i;
  trace.processes.reserve(procOrder.size());
  for (auto i : procOrder) trace.processes.push_back(std::move(procs[i]));
  // The lanes are put in display order in place (swaps along the permutation), the hidden ones
  // end up at the back and are dropped, and the vector becomes the trace's: no second array of
  // Lanes (72 MB for 200,000 lanes, issue 27 item 3). pos[i]: where original lane i is now;
  // at[j]: which original lane is at j.
  std::vector<std::uint32_t> pos(lanes.size()), at(lanes.size());
  std::iota(pos.begin(), pos.end(), 0u);
  std::iota(at.begin(), at.end(), 0u);
  for (std::uint32_t k = 0; k < laneOrder.size(); ++k) {
    const std::uint32_t from = pos[laneOrder[k]];
    if (from == k) continue;
    std::swap(lanes[k], lanes[from]);
    const std::uint32_t displaced = at[k];
    pos[displaced] = from;
    at[from] = displaced;
    pos[laneOrder[k]] = k;
    at[k] = laneOrder[k];
  }
  lanes.resize(laneOrder.size());
  for (Lane& lane : lanes) lane.process = procNew[lane.process];
  trace.lanes = std::move(lanes);
  lanes.clear();
  for (std::uint32_t i = 0; i < b.laneThread.size(); ++i)
    if (b.laneThread[i] != kInvalidIndex) b.threads[b.laneThread[i]].lane = laneNew[i];
  for (auto& c : trace.counters) c.process = procNew[c.process];
  std::stable_sort(trace.counters.begin(), trace.counters.end(), [&](const CounterSeries& x, const CounterSeries& y) {
    if (x.process != y.process) return x.process < y.process;
    const int c = naturalCompare(trace.strings.view(x.name), trace.strings.view(y.name));
    if (c != 0) return c < 0;
    return naturalCompare(trace.strings.view(x.key), trace.strings.view(y.key)) < 0;
  });
}

/// Phase 7: roles, devices; display order of processes and lanes. A pid without process_name
/// metadata shows only lanes that hold slices: at Level0 the pruned CANN pid keeps its
/// thread_name records and HostToDevice starts but no slices (§2.1).
void rolesAndDisplayOrder(BuildState& b, int plainNpuDevice) {
  const auto& procs = b.procs;
  const auto& lanes = b.lanes;
  const std::vector<bool> unnamed = unnamedProcesses(procs);
  std::vector<bool> laneShown(lanes.size(), true);
  for (std::size_t i = 0; i < lanes.size(); ++i) laneShown[i] = !(unnamed[lanes[i].process] && lanes[i].sliceCount() == 0);
  std::vector<bool> hasSlices(procs.size(), false), hasCounters(procs.size(), false);
  for (std::size_t i = 0; i < lanes.size(); ++i)
    if (laneShown[i]) hasSlices[lanes[i].process] = true;
  for (const auto& c : b.trace.counters) hasCounters[c.process] = true;
  assignRolesAndDevices(b.procs, hasSlices, hasCounters, plainNpuDevice, b.trace.notes);
  std::vector<bool> keepProcess(procs.size(), false);
  bool hasCann = false, hasHardware = false;
  for (std::uint32_t i = 0; i < procs.size(); ++i) {
    keepProcess[i] = hasSlices[i] || hasCounters[i] || !unnamed[i];
    hasCann = hasCann || procs[i].role == Process::Role::Cann;
    hasHardware = hasHardware || procs[i].role == Process::Role::AscendHardware;
  }
  // Unbound HostToDevice starts on an unnamed pid of an Ascend trace (Ascend Hardware present)
  // without CANN process are a Level0 artefact (format notes §2.1).
  b.prunedCann.assign(b.threads.size(), 0);
  if (!hasCann && hasHardware)
    for (std::size_t t = 0; t < b.threads.size(); ++t) b.prunedCann[t] = unnamed[b.threads[t].process] ? 1 : 0;
  orderForDisplay(b, keepProcess, laneShown);
}

/// Phase 8a: each part's flows get global ids and thread indices, are bound to their slices (in
/// file order: warm caches; `s` and bp:"e" `f` to the enclosing slice, other `f` to the next
/// slice) and sorted by (key, file order) in place, on the parts' threads. Returns the runs.
std::vector<FlowRun> bindAndSortFlows(BuildState& b, std::vector<std::vector<std::uint32_t>>& bindOf) {
  auto& parts = b.parts;
  const Trace& trace = b.trace;
  bindOf.assign(parts.size(), {});
  std::vector<std::uint32_t> offset(parts.size() + 1, 0);
  for (std::size_t k = 0; k < parts.size(); ++k) offset[k + 1] = offset[k] + static_cast<std::uint32_t>(parts[k].flows.size());
  // The parts' (category, name) pairs with global names, each once: few in a profiler's trace.
  std::vector<std::vector<std::uint32_t>> keyMap(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) {
    keyMap[k].reserve(parts[k].flowKeys.pairs.size());
    for (const auto& [cat, name] : parts[k].flowKeys.pairs)
      keyMap[k].push_back(b.flowKeys.intern(b.global(k, cat), name == kFlowNameIsCategoryAndId ? name : b.global(k, name)));
    parts[k].flowKeys.clear();
  }
  parallelJobs(b.workers, parts.size(), b.stop, [&](std::size_t k, unsigned) {
    RecordBuffer<RawFlow>& flows = parts[k].flows;
    const std::vector<std::pair<std::uint32_t, TimeNs>>& bindEnds = parts[k].flowBindEnds;
    std::size_t nextBindEnd = 0;
    std::vector<std::uint32_t>& bind = bindOf[k];
    reserveLarge(bind, flows.size());
    bind.resize(flows.size());
    const NameId* nm = b.names(k);
    std::vector<std::optional<LaneSearch>> search(trace.lanes.size());
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if ((i & (kStopPoll - 1)) == 0 && b.stop.stop_requested()) return;
      RawFlow& f = flows[i];
      if (nm && f.idKind != FlowIdKind::Numeric) f.id = nm[static_cast<NameId>(f.id)];
      f.key = keyMap[k][f.key];
      // The slice end of a flow v2 endpoint (bindEnds is in file order, as `i`).
      TimeNs bindEnd = RawFlow::kNoBindEnd;
      if (f.hasBindEnd) {
        while (nextBindEnd < bindEnds.size() && bindEnds[nextBindEnd].first < f.order) ++nextBindEnd;
        if (nextBindEnd < bindEnds.size() && bindEnds[nextBindEnd].first == f.order) bindEnd = bindEnds[nextBindEnd].second;
      }
      f.order = static_cast<std::uint32_t>(i);
      f.thread = b.threadMap[k][f.thread];
      std::uint32_t at = kInvalidIndex;
      const std::uint32_t lane = b.threads[f.thread].lane;
      if (lane != kInvalidIndex && f.idKind != FlowIdKind::Invalid && f.ph != 't') {
        if (!search[lane]) search[lane].emplace(trace.lanes[lane]);
        at = bindEnd != RawFlow::kNoBindEnd        ? search[lane]->exactSlice(f.ts, bindEnd)
             : (f.ph == 's' || f.bindEnclosing) ? search[lane]->enclosingSlice(f.ts)
                                                : search[lane]->nextSlice(f.ts);
      }
      bind[i] = at;
    }
    std::sort(flows.begin(), flows.end(), [](const RawFlow& x, const RawFlow& y) {
      if (!sameFlowKey(x, y)) return flowKeyLess(x, y);
      return x.order < y.order;
    });
  });
  std::vector<FlowRun> runs(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) runs[k] = {parts[k].flows.data(), parts[k].flows.size(), bindOf[k].data(), offset[k]};
  return runs;
}

/// Phase 8b: the groups are paired over key ranges in parallel (a merge of the sorted runs, cut
/// at quantiles of the largest run so that every group falls in one range); each range's bound
/// flows are sorted by boundLess.
std::vector<FlowRangeOut> pairFlowsInRanges(BuildState& b, const std::vector<FlowRun>& runs) {
  const std::size_t R = runs.size();
  const NameId h2d = b.trace.strings.find("HostToDevice");  // kInvalidIndex when absent
  std::size_t total = 0, largest = 0;
  for (std::size_t k = 0; k < R; ++k) {
    total += runs[k].size;
    if (runs[k].size > runs[largest].size) largest = k;
  }
  const std::size_t rangeCount = total < (1u << 16) ? 1 : b.workers;
  std::vector<std::vector<std::size_t>> cut(rangeCount + 1, std::vector<std::size_t>(R));
  for (std::size_t k = 0; k < R; ++k) cut[rangeCount][k] = runs[k].size;
  for (std::size_t j = 1; j < rangeCount; ++j) {
    const RawFlow split = runs[largest].data[runs[largest].size * j / rangeCount];
    for (std::size_t k = 0; k < R; ++k)
      cut[j][k] = static_cast<std::size_t>(
          std::lower_bound(runs[k].data, runs[k].data + runs[k].size, split, flowKeyLess) - runs[k].data);
  }
  std::vector<FlowRangeOut> ranges(rangeCount);
  parallelJobs(b.workers, rangeCount, b.stop, [&](std::size_t j, unsigned) {
    pairFlowRange(runs, cut[j], cut[j + 1], b.threads, b.prunedCann, b.flowKeys.pairs, h2d, ranges[j], b.stop);
    if (!b.stop.stop_requested()) std::sort(ranges[j].bound.begin(), ranges[j].bound.end(), boundLess);
  });
  return ranges;
}

/// Phase 8c: the flow warnings in group first-appearance order; the text is built only while
/// the kind still keeps examples.
void addFlowWarnings(Trace& trace, std::vector<FlowWarning>& warnings) {
  std::sort(warnings.begin(), warnings.end(), [](const FlowWarning& x, const FlowWarning& y) {
    return std::tie(x.first, x.seq) < std::tie(y.first, y.seq);
  });
  for (const FlowWarning& w : warnings) {
    if (trace.stats.count(w.kind) >= ImportStats::kExamplesPerKind) {
      trace.stats.add(w.kind);
      continue;
    }
    const std::string idText = w.idKind == FlowIdKind::Numeric ? std::to_string(w.id)
                                                               : std::string(trace.strings.view(static_cast<NameId>(w.id)));
    std::string what = std::string(trace.strings.view(w.cat)) + " id " + idText;
    if (w.side == 1) what += " (end side)";
    else if (w.side == 2) what += " (start side)";
    trace.stats.add(w.kind, what);
  }
}

/// Phase 8d: merges the sorted ranges' bound flows into trace.flows (ordered by fromTs, ties in
/// the order of each group's first event, as a stable sort of the groups would give), releasing
/// what the merge has read. False when cancelled.
bool mergeBoundFlows(Trace& trace, std::vector<FlowRangeOut>& ranges, std::size_t boundCount, const std::stop_token& stop) {
  const std::size_t rangeCount = ranges.size();
  reserveLarge(trace.flows, boundCount);
  std::vector<std::size_t> at(rangeCount, 0);
  std::vector<ProgressiveRelease> release(rangeCount);
  for (std::size_t j = 0; j < rangeCount; ++j) release[j] = ProgressiveRelease(ranges[j].bound.data());
  for (std::size_t n = 0; n < boundCount; ++n) {
    std::size_t best = rangeCount;
    for (std::size_t j = 0; j < rangeCount; ++j)
      if (at[j] < ranges[j].bound.size() && (best == rangeCount || boundLess(ranges[j].bound[at[j]], ranges[best].bound[at[best]])))
        best = j;
    trace.flows.push_back(ranges[best].bound[at[best]++].flow);
    if ((n & (kStopPoll - 1)) == kStopPoll - 1) {
      for (std::size_t j = 0; j < rangeCount; ++j) release[j].consumed(ranges[j].bound.data() + at[j]);
      if (stop.stop_requested()) return false;
    }
  }
  return true;
}

/// Phase 8, flows: group by (cat, name, id) in file order; bind s to the enclosing slice, f to the
/// enclosing slice with bp:"e" or else to the next slice (8a), pair the groups (8b), then the
/// warnings (8c), the bound flows by fromTs (8d), the unbound starts, and the Level0 starts bound
/// to their Dequeue (bindPrunedStarts). False when cancelled.
bool bindAndPairFlows(BuildState& b) {
  Trace& trace = b.trace;
  std::vector<std::vector<std::uint32_t>> bindOf;
  const std::vector<FlowRun> runs = bindAndSortFlows(b, bindOf);
  if (b.stop.stop_requested()) return false;
  std::vector<FlowRangeOut> ranges = pairFlowsInRanges(b, runs);
  for (auto& w : b.parts) {
    freeNow(w.flows);
    std::vector<std::pair<std::uint32_t, TimeNs>>().swap(w.flowBindEnds);
  }
  for (auto& v : bindOf) freeNow(v);
  if (b.stop.stop_requested()) return false;
  std::vector<FlowWarning> warnings;
  std::vector<UnboundStartFlow> unboundStarts;
  std::size_t boundCount = 0;
  for (auto& r : ranges) {
    warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
    unboundStarts.insert(unboundStarts.end(), r.unbound.begin(), r.unbound.end());
    boundCount += r.bound.size();
    std::vector<FlowWarning>().swap(r.warnings);
    std::vector<UnboundStartFlow>().swap(r.unbound);
  }
  addFlowWarnings(trace, warnings);
  if (!mergeBoundFlows(trace, ranges, boundCount, b.stop)) return false;
  for (auto& r : ranges) freeNow(r.bound);
  std::stable_sort(unboundStarts.begin(), unboundStarts.end(),
                   [](const UnboundStartFlow& x, const UnboundStartFlow& y) { return x.fromTs < y.fromTs; });
  trace.unboundStarts = std::move(unboundStarts);
  bindPrunedStarts(trace);
  return true;
}

/// The time range shown by "fit all" covers the slices and flows. Counter samples are left out
/// unless there is nothing else: memory/bandwidth counters often run far beyond the profiled
/// step (0.52 s of DDR samples around a 60 ms step in the 910A corpus capture). Then the notes
/// for an empty trace.
void finishRangeAndNotes(Trace& trace) {
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
  if (trace.eventCount == 0) trace.notes.push_back("0 events");
  else if (trace.sliceCount() == 0) trace.notes.push_back("no slices");
}

}  // namespace

bool buildTrace(ReadResult&& read, Trace& trace, const std::stop_token& stop, int plainNpuDevice) {
  const TopLevelFacts facts{read.top.rank, read.top.baseTimeNanoseconds, read.top.traceName};
  return buildTrace(read.parts, facts, std::move(read.notes), trace, stop, plainNpuDevice, read.workers);
}

bool buildTrace(std::vector<WorkerOut>& parts, const TopLevelFacts& facts, std::vector<std::string>&& notes,
                Trace& trace, const std::stop_token& stop, int plainNpuDevice, unsigned threads) {
  // On a cancel: free the import records and whatever was built, and give the memory back.
  const auto cancel = [&] {
    parts.clear();
    trace.lanes.clear();
    trace.flows.clear();
    trace.counters.clear();
    trace.unboundStarts.clear();
    trace.lanes.shrink_to_fit();
    trace.flows.shrink_to_fit();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    return false;
  };
  trace.notes = std::move(notes);
  trace.rankFromFile = facts.rank;
  trace.baseTimeNanoseconds = facts.baseTimeNanoseconds;
  trace.traceName = facts.traceName;
  releaseReaderSpare(parts);
  BuildState b(parts, trace, stop);
  b.workers = static_cast<unsigned>(std::max<std::size_t>(parts.size(), 1));
  if (threads != 0) b.workers = std::min(b.workers, threads);  // several files or tables, one thread asked
  mergeStrings(b);
  if (stop.stop_requested()) return cancel();
  mergeProcessesAndThreads(b);
  applyMetadata(b);
  if (!buildThreadLanes(b)) return cancel();
  buildAsyncLanes(b);
  buildCounterSeries(b);
  if (stop.stop_requested()) return cancel();
  rolesAndDisplayOrder(b, plainNpuDevice);
  if (!bindAndPairFlows(b)) return cancel();
  // The raw records were freed piecemeal; hand the freed heap back to the system so that the
  // resident size after a load is the trace itself (glibc keeps freed arena memory otherwise).
  parts.clear();
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  finishRangeAndNotes(trace);
  if (stop.stop_requested()) return cancel();
  return true;
}

}  // namespace npuscope::core::detail
