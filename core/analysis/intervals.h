// SPDX-License-Identifier: MIT
#pragma once
// Interval-set arithmetic on sorted, disjoint, half-open [start, end) ns ranges.

#include <algorithm>
#include <vector>

#include "core/types.h"

namespace npuscope::core {

/// Sorted, pairwise disjoint, non-empty half-open intervals.
using Intervals = std::vector<TimeRange>;

/// Union of arbitrary intervals (consumed). Empty ones are dropped; touching ones merge.
[[nodiscard]] inline Intervals unionOf(std::vector<TimeRange> v) {
  const auto byStart = [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; };
  if (!std::is_sorted(v.begin(), v.end(), byStart)) std::sort(v.begin(), v.end(), byStart);
  Intervals out;
  for (const TimeRange& r : v) {
    if (r.empty()) continue;
    if (!out.empty() && r.start <= out.back().end) out.back().end = std::max(out.back().end, r.end);
    else out.push_back(r);
  }
  return out;
}

/// a \ b. O(|a| + |b|).
[[nodiscard]] inline Intervals subtract(const Intervals& a, const Intervals& b) {
  Intervals out;
  std::size_t j = 0;
  for (TimeRange r : a) {
    while (j < b.size() && b[j].end <= r.start) ++j;
    std::size_t k = j;
    TimeNs cur = r.start;
    while (k < b.size() && b[k].start < r.end) {
      if (b[k].start > cur) out.push_back({cur, b[k].start});
      cur = std::max(cur, b[k].end);
      ++k;
    }
    if (cur < r.end) out.push_back({cur, r.end});
  }
  return out;
}

/// Sum of durations, ns.
[[nodiscard]] inline TimeNs totalOf(const Intervals& v) {
  TimeNs t = 0;
  for (const auto& r : v) t += r.duration();
  return t;
}

/// Sum of the full durations of the intervals whose start lies in `window` (torch_npu's step
/// attribution: assign by start, no clipping; _trace_step_time_parser.py).
[[nodiscard]] inline TimeNs totalStartingIn(const Intervals& v, TimeRange window) {
  auto it = std::lower_bound(v.begin(), v.end(), window.start,
                             [](const TimeRange& r, TimeNs t) { return r.start < t; });
  TimeNs t = 0;
  for (; it != v.end() && it->start < window.end; ++it) t += it->duration();
  return t;
}

/// Length of the overlap of `v` with `window`, ns.
[[nodiscard]] inline TimeNs coveredIn(const Intervals& v, TimeRange window) {
  auto it = std::lower_bound(v.begin(), v.end(), window.start,
                             [](const TimeRange& r, TimeNs t) { return r.end <= t; });
  TimeNs t = 0;
  for (; it != v.end() && it->start < window.end; ++it)
    t += std::min(it->end, window.end) - std::max(it->start, window.start);
  return t;
}

}  // namespace npuscope::core
