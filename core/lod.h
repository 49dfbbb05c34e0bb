// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/trace.h"
#include "core/types.h"

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

/// Culls and merges the slices of depth row `depth` of `lane` visible in `view` for a row drawn
/// `widthPx` pixels wide. Slices at least `minBoxPx` wide are returned as they are; runs of
/// narrower ones are merged per pixel column with a lower_bound seek to the next pixel boundary,
/// so the cost is O(widthPx * log n) whatever the number of slices. Output is appended to `out`
/// in time order. Zero-length slices in view are returned (draw them at least 1 px wide).
void visibleSpans(const Lane& lane, std::uint32_t depth, TimeRange view, double widthPx,
                  std::vector<SpanBox>& out, double minBoxPx = 1.0);

/// First index in row `depth` whose slice ends after `t` (or is zero-length at t), i.e. the
/// first slice that can be visible from t on. Returns rowBegin[depth+1] when none.
[[nodiscard]] std::uint32_t firstVisibleInRow(const Lane& lane, std::uint32_t depth, TimeNs t);

/// The slice of row `depth` under time `t`, with a tolerance of `slackNs` on both sides for thin
/// slices (hit-testing a click). Returns kInvalidIndex when none.
[[nodiscard]] std::uint32_t hitTest(const Lane& lane, std::uint32_t depth, TimeNs t,
                                    TimeNs slackNs);

}  // namespace npuscope::core
