// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/model/trace.h"
#include "core/base/types.h"

namespace npuscope::core {

/// One box to draw for a depth row: either one slice (count == 1) or a run of `count`
/// consecutive slices of the row merged because each was narrower than the minimum box width.
/// [start, end) is the union's extent in ns; `first` is the lane index of the first slice.
/// `longest` is the lane index of the longest merged slice among those checked (exact when
/// count == 1, a representative otherwise), used for colour and tooltips.
struct SpanBox {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t longest = 0;
  NameId longestName = 0;  ///< lane.names[longest]
  TimeNs longestDur = 0;   ///< duration of slice `longest`, ns
};

/// Maps a time to a pixel x in a view [view.start, view.end) drawn over `widthPx` pixels.
[[nodiscard]] inline double timeToX(TimeNs t, TimeRange view, double widthPx) {
  const double span = static_cast<double>(view.end - view.start);
  return span <= 0 ? 0.0 : static_cast<double>(t - view.start) * widthPx / span;
}
/// Inverse of timeToX (rounded to the nearest ns).
[[nodiscard]] inline TimeNs xToTime(double x, TimeRange view, double widthPx) {
  if (widthPx <= 0) return view.start;
  return view.start + static_cast<TimeNs>(x * static_cast<double>(view.end - view.start) / widthPx +
                                          (x >= 0 ? 0.5 : -0.5));
}

/// First index in [lo, hi) whose key(index) is >= v, for keys sorted ascending, searching
/// outwards from lo (exponential, then binary search): O(log distance), touching memory near lo
/// first. Used to step through sorted columns column by column of a frame.
template <class Index, class Key>
[[nodiscard]] Index gallopLowerBound(Index lo, Index hi, TimeNs v, const Key& key) {
  if (lo >= hi || key(lo) >= v) return lo;
  Index bad = lo;  // key(bad) < v
  std::uint64_t step = 1;
  Index probe = hi;
  for (;;) {
    probe = static_cast<Index>(std::min<std::uint64_t>(hi, bad + step));
    if (probe >= hi || key(probe) >= v) break;
    bad = probe;
    step *= 2;
  }
  Index a = bad + 1, b = probe;  // answer in [a, b]
  while (a < b) {
    const Index m = a + (b - a) / 2;
    if (key(m) < v) a = m + 1;
    else b = m;
  }
  return a;
}

/// gallopLowerBound from a guess: the first index in [lo, hi) whose key is >= v (hi if none), for a
/// non-decreasing key, searched outwards from `guess` (clamped to [lo, hi]) in whichever
/// direction the answer lies: O(log |answer - guess|). Used where the previous column predicts
/// where the next one ends.
template <class Index, class Key>
[[nodiscard]] Index gallopLowerBoundNear(Index lo, Index hi, Index guess, TimeNs v, const Key& key) {
  if (lo >= hi) return lo;
  const Index g = std::clamp(guess, lo, hi);
  Index a = lo, b = hi;  // answer in [a, b]
  if (g < hi && key(g) < v) {
    // Forwards: key(a - 1) < v.
    a = g + 1;
    for (std::uint64_t step = 1;; step *= 2) {
      const Index probe = static_cast<Index>(std::min<std::uint64_t>(hi, a + step - 1));
      if (probe >= hi) break;
      if (key(probe) >= v) {
        b = probe;
        break;
      }
      a = probe + 1;
    }
  } else {
    // Backwards: the answer is <= b (g == hi or key(g) >= v).
    b = g;
    for (std::uint64_t step = 1;; step *= 2) {
      if (b - lo < step) break;
      const Index probe = static_cast<Index>(b - step);
      if (key(probe) < v) {
        a = probe + 1;
        break;
      }
      b = probe;
    }
  }
  while (a < b) {
    const Index m = a + (b - a) / 2;
    if (key(m) < v) a = m + 1;
    else b = m;
  }
  return a;
}

/// The first ns after pixel (or bucket) column `col`: the smallest t with colOf(t) > col, for a
/// non-decreasing colOf that maps `origin` + c * nsPerCol to column c (up to rounding), e.g.
/// floor(timeToX(t)). Found from the estimate origin + ceil((col + 1) * nsPerCol) and corrected
/// by a step or two with colOf itself, so that comparing timestamps against it is exact.
/// colOf must exceed `col` for some t (a column clamped at the right edge never does).
template <class ColOf>
[[nodiscard]] TimeNs firstTimeAfterColumn(long long col, TimeNs origin, double nsPerCol, const ColOf& colOf) {
  TimeNs t = origin + static_cast<TimeNs>(std::ceil(static_cast<double>(col + 1) * nsPerCol));
  while (colOf(t) <= col) ++t;
  while (colOf(t - 1) > col) --t;
  return t;
}

/// Culls and merges the slices of depth row `depth` of `lane` visible in `view` for a row drawn
/// `widthPx` pixels wide (nsPerPx = view.duration() / widthPx, minBoxNs = minBoxPx * nsPerPx).
/// Slices at least minBoxNs long are returned as they are; a narrower slice opens a merged box that
/// takes every following slice starting before the next pixel boundary after it (the boundary
/// max(minBoxPx, 1) px after the start of its pixel column); the box spans its first slice's start
/// to its last slice's end. Output is appended to `out` in time order, boxes never overlap, and
/// every slice in view belongs to exactly one box ([first, first + count) are consecutive).
/// Zero-length slices in view are returned (draw them at least 1 px wide).
///
/// When the lane has summary levels (LaneLod) with a reach of at most nsPerPx for this row, the
/// coarsest such level is used: at the first slice of a group shorter than minBoxNs (all of whose
/// gaps are below one pixel), whole groups are merged up to the pixel boundary, with sequential
/// reads; elsewhere slices are merged one by one as above. So the cost is O(visible pixels), and
/// the only difference to merging slices is that such a box ends on a group boundary, i.e. may
/// take slices starting up to `reach` (< 1 px) after its pixel boundary; gaps wider than 1 px
/// always stay gaps. Without a level the cost is O(boxes * log(slices per box)).
/// `longest` is the longest slice of the box (its colour): exact over up to 16 merged groups, or
/// among the first 32 slices merged one by one.
void visibleSpans(const Lane& lane, std::uint32_t depth, TimeRange view, double widthPx,
                  std::vector<SpanBox>& out, double minBoxPx = 1.0);

/// Builds `lane.lod` (see LaneLod for the definition of the levels), replacing any previous
/// levels. O(slices * levels computed); rows with fewer than options.minRowSlices slices get none.
void buildLaneLod(Lane& lane, const LodOptions& options = {});

/// Builds `series.lod` (block maxima) when the series has at least 256 samples, else clears it.
void buildCounterLod(CounterSeries& series);

/// buildLaneLod for every lane and buildCounterLod for every counter of `trace` (called once by
/// loadTrace after building the trace), spread over up to `threads` threads (0 = hardware
/// concurrency, at most 8).
void buildTraceLod(Trace& trace, const LodOptions& options = {}, unsigned threads = 0);

/// The largest of values [a, b) of `series` (requires a < b <= size). With series.lod built it
/// reads at most 14 values and 14 entries of each level (CounterLod::maxima), the left and the
/// right part as two independent chains of comparisons; else every value.
[[nodiscard]] double counterRangeMax(const CounterSeries& series, std::size_t a, std::size_t b);

/// The first index in [from, limit) of `series` whose time is >= t (limit when none), for
/// from <= limit <= size. With series.lod built: a galloping search over the block starts
/// (CounterLod::ts8) from the block of `hint` (the expected answer, e.g. `from` plus the previous
/// pixel column's sample count; any value is correct, a close one is fast), then a binary search
/// inside one block of 8 samples (one cache line); else a galloping search over the times from
/// `from`. With the summary O(log distance from the hint), else O(log distance from `from`).
[[nodiscard]] std::size_t counterLowerBound(const CounterSeries& series, std::size_t from, std::size_t limit, TimeNs t,
                                            std::size_t hint = 0);

/// The kept level of row `depth` with the largest reach <= maxReachNs, or null when none.
[[nodiscard]] const LaneLod::Level* lodLevelFor(const Lane& lane, std::uint32_t depth, double maxReachNs);

/// First index in row `depth` whose slice ends after `t` (or is zero-length at t), i.e. the
/// first slice that can be visible from t on. Returns rowBegin[depth+1] when none.
[[nodiscard]] std::uint32_t firstVisibleInRow(const Lane& lane, std::uint32_t depth, TimeNs t);

}  // namespace npuscope::core
