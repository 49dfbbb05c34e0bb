// SPDX-License-Identifier: MIT
#include "core/lod.h"

#include <algorithm>
#include <cmath>

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

void visibleSpans(const Lane& lane, std::uint32_t depth, TimeRange view, double widthPx,
                  std::vector<SpanBox>& out, double minBoxPx) {
  if (depth >= lane.depthCount() || view.empty() || !(widthPx > 0)) return;
  const std::uint32_t rowEnd = lane.rowBegin[depth + 1];
  const double nsPerPx = static_cast<double>(view.duration()) / widthPx;
  const double minBoxNs = std::max(minBoxPx, 0.0) * nsPerPx;
  std::uint32_t i = firstVisibleInRow(lane, depth, view.start);
  const TimeNs* starts = lane.start.data();
  while (i < rowEnd && starts[i] < view.end) {
    const TimeNs s = starts[i];
    const TimeNs e = lane.end[i];
    if (static_cast<double>(e - s) >= minBoxNs) {
      out.push_back({s, e, i, 1, i});
      ++i;
      continue;
    }
    // Sub-pixel: merge every slice starting before the next pixel boundary after s.
    const double px = std::floor(static_cast<double>(s - view.start) / nsPerPx);
    TimeNs boundary = view.start + static_cast<TimeNs>(std::ceil((px + std::max(minBoxPx, 1.0)) * nsPerPx));
    if (boundary <= s) boundary = s + 1;
    const std::uint32_t j = static_cast<std::uint32_t>(
        std::lower_bound(lane.start.begin() + i + 1, lane.start.begin() + rowEnd, boundary) -
        lane.start.begin());
    // Representative: the longest of the first few members (bounded work per box).
    std::uint32_t longest = i;
    const std::uint32_t probeEnd = std::min(j, i + 8);
    for (std::uint32_t k = i + 1; k < probeEnd; ++k)
      if (lane.end[k] - starts[k] > lane.end[longest] - starts[longest]) longest = k;
    out.push_back({s, std::max(lane.end[j - 1], e), i, j - i, longest});
    i = j;
  }
}

std::uint32_t hitTest(const Lane& lane, std::uint32_t depth, TimeNs t, TimeNs slackNs) {
  if (depth >= lane.depthCount()) return kInvalidIndex;
  const std::uint32_t b = lane.rowBegin[depth], e = lane.rowBegin[depth + 1];
  if (b == e) return kInvalidIndex;
  // Exact hit first.
  auto it = std::upper_bound(lane.start.begin() + b, lane.start.begin() + e, t);
  if (it != lane.start.begin() + b) {
    const auto i = static_cast<std::uint32_t>(it - lane.start.begin()) - 1;
    if (t < lane.end[i] || (lane.start[i] == lane.end[i] && t == lane.start[i])) return i;
  }
  // Nearest within slack.
  std::uint32_t best = kInvalidIndex;
  TimeNs bestDist = slackNs + 1;
  const auto consider = [&](std::uint32_t i) {
    TimeNs d = 0;
    if (t < lane.start[i]) d = lane.start[i] - t;
    else if (t >= lane.end[i]) d = t - lane.end[i];
    if (d <= slackNs && d < bestDist) { bestDist = d; best = i; }
  };
  const auto k = static_cast<std::uint32_t>(it - lane.start.begin());
  if (k < e) consider(k);
  if (k > b) consider(k - 1);
  return best;
}

}  // namespace npuscope::core
