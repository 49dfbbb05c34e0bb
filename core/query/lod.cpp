// SPDX-License-Identifier: MIT
#include "core/query/lod.h"

#include "core/base/guard.h"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

namespace npuscope::core {

std::uint32_t firstVisibleInRow(const Lane& lane, std::uint32_t depth, TimeNs t) {
  const std::uint32_t b = lane.rowBegin[depth], e = lane.rowBegin[depth + 1];
  // Rows are disjoint and sorted, so `end` is sorted too. A zero-length slice at t is visible.
  auto it = std::lower_bound(lane.end.begin() + b, lane.end.begin() + e, t);
  std::uint32_t i = static_cast<std::uint32_t>(it - lane.end.begin());
  // Slices ending exactly at t are not visible unless zero-length at t.
  while (i < e && lane.end[i] == t && lane.start[i] != t) ++i;
  return i;
}

namespace {

struct SpanQuery {
  const Lane& lane;
  TimeRange view;
  double nsPerPx;
  double minBoxNs;
  double boundaryPx;  // max(minBoxPx, 1)
  std::vector<SpanBox>& out;
  // The columns' arrays, read once (LaneColumn::data() picks inline or heap storage).
  const TimeNs* starts = lane.start.data();
  const TimeNs* ends = lane.end.data();
  const NameId* names = lane.names.data();

  [[nodiscard]] TimeNs dur(std::uint32_t i) const { return ends[i] - starts[i]; }

  // The first pixel boundary after time s.
  [[nodiscard]] TimeNs boundaryAfter(TimeNs s) const {
    const double px = std::floor(static_cast<double>(s - view.start) / nsPerPx);
    TimeNs boundary = view.start + static_cast<TimeNs>(std::ceil((px + boundaryPx) * nsPerPx));
    return boundary <= s ? s + 1 : boundary;
  }

  // Emits the box that starts at slice i (merging up to `e`) and returns the slice after it.
  std::uint32_t sliceBox(std::uint32_t i, std::uint32_t e) {
    const TimeNs s = starts[i];
    const TimeNs en = ends[i];
    if (static_cast<double>(en - s) >= minBoxNs) {
      out.push_back({s, en, i, 1, i, names[i], en - s});
      return i + 1;
    }
    // Sub-pixel: merge every slice starting before the next pixel boundary after s.
    const TimeNs boundary = boundaryAfter(s);
    const std::uint32_t j = gallopLowerBound(i + 1, e, boundary, [&](std::uint32_t k) { return starts[k]; });
    // Representative: the longest of the first few members (bounded work per box).
    std::uint32_t longest = i;
    const std::uint32_t probeEnd = std::min(j, i + kSliceProbe);
    for (std::uint32_t k = i + 1; k < probeEnd; ++k)
      if (dur(k) > dur(longest)) longest = k;
    out.push_back({s, std::max(ends[j - 1], en), i, j - i, longest, names[longest], dur(longest)});
    return j;
  }

  // Merges the visible slices from i0 on, one by one.
  void slices(std::uint32_t i0, std::uint32_t rowEnd) {
    for (std::uint32_t i = i0; i < rowEnd && starts[i] < view.end;) i = sliceBox(i, rowEnd);
  }

  // Merges the visible slices from i0 on using the groups of `level`: at the first slice of a
  // sub-pixel group, whole groups are merged up to the pixel boundary; elsewhere (inside a group,
  // or at a group holding a slice at least minBoxNs long) slice by slice as in slices(). A level
  // with summaries reads a group's start, end and longest slice there, in order; one without
  // reads them in the lane's columns.
  void groups(const LaneLod::Level& level, std::uint32_t i0, std::uint32_t rowEnd) {
    const std::uint32_t* first = lane.lod.first.data() + level.begin;
    const std::uint32_t* rep = lane.lod.longest.data() + level.begin;
    const LaneLod::GroupSummary* sum =
        level.summary == LaneLod::kNoSummary ? nullptr : lane.lod.summaryData() + level.summary;
    const std::uint32_t count = level.end - level.begin;
    const auto memberEnd = [&](std::uint32_t g) { return g + 1 < count ? first[g + 1] : rowEnd; };
    const auto groupStart = [&](std::uint32_t g) { return sum ? sum[g].start : starts[first[g]]; };
    const auto groupEnd = [&](std::uint32_t g) { return sum ? sum[g].end : ends[memberEnd(g) - 1]; };
    const auto repDur = [&](std::uint32_t g) { return sum ? sum[g].longestDur : dur(rep[g]); };
    const auto firstOf = [&](std::uint32_t g) { return static_cast<TimeNs>(first[g]); };
    // g: the group holding slice i.
    std::uint32_t g = static_cast<std::uint32_t>(std::upper_bound(first, first + count, i0) - first) - 1;
    // The start of slice i: at the first slice of group g (after a merged box), the group's start
    // (read in order from the summaries, when the level has them).
    const auto startOf = [&](std::uint32_t i) { return i == first[g] ? groupStart(g) : starts[i]; };
    for (std::uint32_t i = i0; i < rowEnd && startOf(i) < view.end;) {
      if (g + 1 < count && first[g + 1] <= i) g = gallopLowerBound(g + 1, count, static_cast<TimeNs>(i) + 1, firstOf) - 1;
      if (first[g] != i || static_cast<double>(groupEnd(g) - groupStart(g)) >= minBoxNs) {
        i = sliceBox(i, rowEnd);
        continue;
      }
      // Without summaries the groups' slices lie far apart in the columns: fetch a few groups ahead.
      if (!sum && g + kPrefetch < count) {
        __builtin_prefetch(starts + first[g + kPrefetch]);
        __builtin_prefetch(ends + first[g + kPrefetch] - 1);
        __builtin_prefetch(starts + rep[g + kPrefetch]);
        __builtin_prefetch(ends + rep[g + kPrefetch]);
      }
      const TimeNs boundary = boundaryAfter(groupStart(g));
      std::uint32_t h = g + 1;
      std::uint32_t longestGroup = g;
      TimeNs longestDur = repDur(g);
      while (h < count && h - g < kGroupProbe && groupStart(h) < boundary) {
        if (const TimeNs d = repDur(h); d > longestDur) {
          longestDur = d;
          longestGroup = h;
        }
        ++h;
      }
      if (h - g == kGroupProbe) h = gallopLowerBound(h, count, boundary, groupStart);
      const std::uint32_t last = memberEnd(h - 1);
      const std::uint32_t longest = rep[longestGroup];
      out.push_back({groupStart(g), groupEnd(h - 1), i, last - i, longest,
                     sum ? sum[longestGroup].longestName : names[longest], longestDur});
      i = last;
      g = std::min(h, count - 1);
    }
  }

  static constexpr std::uint32_t kSliceProbe = 32;   // slices compared for a merged box's colour
  static constexpr std::uint32_t kGroupProbe = 16;  // groups compared for a merged box's colour
  static constexpr std::uint32_t kPrefetch = 8;
};

}  // namespace

const LaneLod::Level* lodLevelFor(const Lane& lane, std::uint32_t depth, double maxReachNs) {
  const LaneLod::Level* best = nullptr;
  for (const LaneLod::Level& l : lane.lod.levels) {
    if (l.depth != depth) continue;
    if (static_cast<double>(l.reach) <= maxReachNs) best = &l;
    else break;  // sorted by reach within a depth
  }
  return best;
}

void visibleSpans(const Lane& lane, std::uint32_t depth, TimeRange view, double widthPx,
                  std::vector<SpanBox>& out, double minBoxPx) {
  if (depth >= lane.depthCount() || view.empty() || !(widthPx > 0)) return;
  const std::uint32_t rowEnd = lane.rowBegin[depth + 1];
  const double nsPerPx = static_cast<double>(view.duration()) / widthPx;
  SpanQuery q{lane, view, nsPerPx, std::max(minBoxPx, 0.0) * nsPerPx, std::max(minBoxPx, 1.0), out};
  const std::uint32_t i0 = firstVisibleInRow(lane, depth, view.start);
  if (i0 >= rowEnd) return;
  if (const LaneLod::Level* level = lodLevelFor(lane, depth, nsPerPx)) q.groups(*level, i0, rowEnd);
  else q.slices(i0, rowEnd);
}

namespace {

// The kept levels of one depth row, before they are appended to the lane's LaneLod.
struct RowLod {
  std::vector<LaneLod::Level> levels;  // begin/end relative to `first`, summary to `summaries`
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> longest;
  std::vector<LaneLod::GroupSummary> summaries;
};

// Histogram of the start-to-start gaps between consecutive elements by floor(log2(gap)) (a zero
// gap is not counted): 1 + (gaps >= 2^j) is a lower bound of the groups any width 2^j can give.
struct GapHistogram {
  std::array<std::uint64_t, 64> count{};
  void add(TimeNs gap) {
    if (gap > 0) ++count[static_cast<std::size_t>(63 - std::countl_zero(static_cast<std::uint64_t>(gap)))];
  }
  // 1 + the number of gaps >= w (w a power of two).
  [[nodiscard]] std::uint64_t minGroups(TimeNs w) const {
    const int j = 63 - std::countl_zero(static_cast<std::uint64_t>(w));
    std::uint64_t n = 1;
    for (int k = j; k < 64; ++k) n += count[static_cast<std::size_t>(k)];
    return n;
  }
};

// The next width to try: base * 2^j, at least `atLeast`, and the smallest such that the gaps
// still allow a level with at most `target` groups.
TimeNs nextWidth(TimeNs base, TimeNs atLeast, const GapHistogram& gaps, std::uint64_t target) {
  TimeNs w = base;
  constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max() >> 2;
  while (w < kMax && (w < atLeast || gaps.minGroups(w) > target)) w *= 2;
  return w;
}

RowLod buildRowLod(const Lane& lane, std::uint32_t depth, const LodOptions& opt) {
  RowLod row;
  const std::uint32_t b = lane.rowBegin[depth], e = lane.rowBegin[depth + 1];
  const std::uint32_t n = e - b;
  if (n < std::max<std::uint32_t>(opt.minRowSlices, 2)) return row;
  const TimeNs* starts = lane.start.data();
  const TimeNs* ends = lane.end.data();
  const auto dur = [&](std::uint32_t i) { return ends[i] - starts[i]; };
  // The base must be a power of two for GapHistogram::minGroups.
  const TimeNs base = std::bit_ceil(static_cast<std::uint64_t>(std::max<TimeNs>(opt.baseWidth, 1)));
  // Elements of the level being read: the row's slices first (element k = slice b + k, its own
  // representative), then the last level's groups (curFirst / curRep).
  bool fromSlices = true;
  std::vector<std::uint32_t> curFirst, curRep, nextFirst, nextRep;
  GapHistogram gaps;
  for (std::uint32_t k = b + 1; k < e; ++k) gaps.add(starts[k] - starts[k - 1]);
  std::size_t lastKept = n;
  TimeNs width = nextWidth(base, base, gaps, lastKept / 2);
  TimeNs reachBefore = 0;
  constexpr TimeNs kMaxWidth = std::numeric_limits<TimeNs>::max() >> 2;
  for (;;) {
    nextFirst.clear();
    nextRep.clear();
    GapHistogram nextGaps;
    TimeNs open = 0;
    const auto take = [&](std::uint32_t first, std::uint32_t rep) {
      const TimeNs s = starts[first];
      if (nextFirst.empty() || s >= open + width) {
        if (!nextFirst.empty()) nextGaps.add(s - open);
        nextFirst.push_back(first);
        nextRep.push_back(rep);
        open = s;
      } else if (dur(rep) > dur(nextRep.back())) {
        nextRep.back() = rep;
      }
    };
    if (fromSlices) {
      for (std::uint32_t k = b; k < e; ++k) take(k, k);
    } else {
      for (std::size_t k = 0; k < curFirst.size(); ++k) take(curFirst[k], curRep[k]);
    }
    const TimeNs reach = width + reachBefore;
    if (nextFirst.size() * 2 <= lastKept) {
      const auto begin = static_cast<std::uint32_t>(row.first.size());
      row.first.insert(row.first.end(), nextFirst.begin(), nextFirst.end());
      row.longest.insert(row.longest.end(), nextRep.begin(), nextRep.end());
      LaneLod::Level level;
      level.depth = depth;
      level.begin = begin;
      level.end = static_cast<std::uint32_t>(row.first.size());
      level.width = width;
      level.reach = reach;
      if (opt.summaryFraction > 0 && nextFirst.size() * opt.summaryFraction <= n) {
        level.summary = static_cast<std::uint32_t>(row.summaries.size());
        row.summaries.reserve(row.summaries.size() + nextFirst.size());
        for (std::size_t g = 0; g < nextFirst.size(); ++g) {
          const std::uint32_t lastMember = (g + 1 < nextFirst.size() ? nextFirst[g + 1] : e) - 1;
          row.summaries.push_back({starts[nextFirst[g]], ends[lastMember], dur(nextRep[g]), lane.names[nextRep[g]], 0});
        }
      }
      row.levels.push_back(level);
      lastKept = nextFirst.size();
    }
    if (nextFirst.size() <= std::max<std::uint32_t>(opt.stopGroups, 1) || width >= kMaxWidth) break;
    curFirst.swap(nextFirst);
    curRep.swap(nextRep);
    fromSlices = false;
    reachBefore = reach;
    width = nextWidth(base, width * 2, nextGaps, lastKept / 2);
  }
  return row;
}

void appendRow(LaneLod& lod, std::vector<LaneLod::GroupSummary>& summaries, RowLod&& row) {
  const auto offset = static_cast<std::uint32_t>(lod.first.size());
  const auto summaryOffset = static_cast<std::uint32_t>(summaries.size());
  for (LaneLod::Level l : row.levels) {
    l.begin += offset;
    l.end += offset;
    if (l.summary != LaneLod::kNoSummary) l.summary += summaryOffset;
    lod.levels.push_back(l);
  }
  lod.first.insert(lod.first.end(), row.first.begin(), row.first.end());
  lod.longest.insert(lod.longest.end(), row.longest.begin(), row.longest.end());
  summaries.insert(summaries.end(), row.summaries.begin(), row.summaries.end());
}

// Ends a lane's summary levels: the vectors trimmed, the summaries (if any) handed over.
void finishLod(LaneLod& lod, std::vector<LaneLod::GroupSummary>&& summaries) {
  lod.levels.shrink_to_fit();
  lod.first.shrink_to_fit();
  lod.longest.shrink_to_fit();
  if (!summaries.empty()) {
    if (summaries.capacity() != summaries.size()) summaries.shrink_to_fit();
    lod.summaries = std::make_shared<const std::vector<LaneLod::GroupSummary>>(std::move(summaries));
  }
}

}  // namespace

void buildLaneLod(Lane& lane, const LodOptions& options) {
  LaneLod lod;
  std::vector<LaneLod::GroupSummary> summaries;
  for (std::uint32_t d = 0; d < lane.depthCount(); ++d) appendRow(lod, summaries, buildRowLod(lane, d, options));
  finishLod(lod, std::move(summaries));
  lane.lod = std::move(lod);
}

namespace {

// The maxima of consecutive runs of `fan` of the `n` values at `from` (the last run may be shorter).
std::vector<double> blockMaxima(const double* from, std::size_t n, std::size_t fan) {
  std::vector<double> out((n + fan - 1) / fan);
  for (std::size_t b = 0; b < out.size(); ++b) out[b] = *std::max_element(from + b * fan, from + std::min(n, (b + 1) * fan));
  return out;
}

}  // namespace

void buildCounterLod(CounterSeries& series) {
  series.lod = {};
  const std::size_t n = std::min(series.value.size(), series.ts.size());
  if (n < CounterLod::kMinSamples) return;
  CounterLod& lod = series.lod;
  constexpr std::size_t kB = CounterLod::kBlock;
  lod.maxima.push_back(blockMaxima(series.value.data(), n, kB));
  while (lod.maxima.back().size() > 1) {
    const std::vector<double>& below = lod.maxima.back();
    lod.maxima.push_back(blockMaxima(below.data(), below.size(), kB));
  }
  lod.maxima.shrink_to_fit();
  lod.ts8.resize(lod.maxima[0].size());
  for (std::size_t b = 0; b < lod.ts8.size(); ++b) lod.ts8[b] = series.ts[b * kB];
}

std::size_t counterLowerBound(const CounterSeries& series, std::size_t from, std::size_t limit, TimeNs t,
                              std::size_t hint) {
  const TimeNs* ts = series.ts.data();
  const auto at = [&](std::size_t k) { return ts[k]; };
  const std::vector<TimeNs>& blocks = series.lod.ts8;
  constexpr std::size_t kB = CounterLod::kBlock;
  if (from >= limit || ts[from] >= t) return from;
  if (blocks.size() * kB < limit || limit - from <= kB) return gallopLowerBound(from, limit, t, at);
  // The last block starting before t holds the answer (or the answer is its end): `next` is the
  // first block after from's whose start is >= t, searched from the hint's block.
  const std::size_t next = gallopLowerBoundNear(from / kB + 1, blocks.size(), hint / kB + 1, t,
                                                [&](std::size_t b) { return blocks[b]; });
  const std::size_t lo = std::max(from, (next - 1) * kB);
  const std::size_t hi = std::min(limit, next * kB);
  if (lo >= hi) return hi;
  return static_cast<std::size_t>(std::lower_bound(ts + lo, ts + hi, t) - ts);
}

double counterRangeMax(const CounterSeries& series, std::size_t a, std::size_t b) {
  constexpr std::size_t kB = CounterLod::kBlock;
  const double* v = series.value.data();
  const auto scan = [](const double* p, std::size_t from, std::size_t to, double& m) {
    for (std::size_t k = from; k < to; ++k) m = std::max(m, p[k]);
  };
  double left = v[a];
  const auto& levels = series.lod.maxima;
  if (levels.empty() || levels[0].size() * kB < b || b - a < 2 * kB) {
    scan(v, a + 1, b, left);
    return left;
  }
  // [a, b) = values up to an 8-boundary, then at each level entries up to the next level's
  // boundary, and back down on the right. The left and the right part are separate chains.
  double right = v[b - 1];
  std::size_t lo = (a + kB - 1) / kB, hi = b / kB;  // whole entries of level 0: [lo, hi)
  scan(v, a + 1, lo * kB, left);
  scan(v, hi * kB, b - 1, right);
  for (std::size_t level = 0; level < levels.size() && lo < hi; ++level) {
    const double* p = levels[level].data();
    const std::size_t lo2 = (lo + kB - 1) / kB, hi2 = hi / kB;  // whole entries of the next level
    if (level + 1 == levels.size() || lo2 >= hi2) {
      scan(p, lo, hi, left);
      break;
    }
    scan(p, lo, lo2 * kB, left);
    scan(p, hi2 * kB, hi, right);
    lo = lo2;
    hi = hi2;
  }
  return std::max(left, right);
}

void buildTraceLod(Trace& trace, const LodOptions& options, unsigned threads) {
  for (CounterSeries& c : trace.counters) buildCounterLod(c);
  // One task per depth row worth summarising, largest first, shared by the threads.
  struct Task {
    std::uint32_t lane, depth, slices;
  };
  std::vector<Task> tasks;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      const std::uint32_t n = lane.rowBegin[d + 1] - lane.rowBegin[d];
      if (n >= std::max<std::uint32_t>(options.minRowSlices, 2)) tasks.push_back({l, d, n});
    }
  }
  for (Lane& lane : trace.lanes) lane.lod = {};
  if (tasks.empty()) return;
  std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.slices > b.slices; });
  std::vector<RowLod> rows(tasks.size());
  std::atomic<std::size_t> next{0};
  ExceptionSlot failure;  // the first exception of any worker, rethrown after the join
  const auto work = [&] {
    failure.run([&] {
      for (std::size_t k; (k = next.fetch_add(1)) < tasks.size();)
        rows[k] = buildRowLod(trace.lanes[tasks[k].lane], tasks[k].depth, options);
    });
  };
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, tasks.size()));
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  failure.rethrow();
  // Assemble per lane in (depth) order.
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return tasks[a].lane != tasks[b].lane ? tasks[a].lane < tasks[b].lane : tasks[a].depth < tasks[b].depth;
  });
  // `order` groups the rows of a lane together: each lane's summaries are gathered, then handed over.
  std::vector<LaneLod::GroupSummary> summaries;
  for (std::size_t j = 0; j < order.size(); ++j) {
    const std::size_t k = order[j];
    Lane& lane = trace.lanes[tasks[k].lane];
    if (j == 0 || tasks[order[j - 1]].lane != tasks[k].lane) {
      // The lane's first row: its summaries' exact size, so that none is copied twice.
      std::size_t n = 0;
      for (std::size_t i = j; i < order.size() && tasks[order[i]].lane == tasks[k].lane; ++i) n += rows[order[i]].summaries.size();
      summaries.reserve(n);
    }
    appendRow(lane.lod, summaries, std::move(rows[k]));
    rows[k] = {};  // its vectors freed as soon as they are copied
    if (j + 1 == order.size() || tasks[order[j + 1]].lane != tasks[k].lane) {
      finishLod(lane.lod, std::move(summaries));
      summaries = {};
    }
  }
}

}  // namespace npuscope::core
