// SPDX-License-Identifier: MIT
#pragma once
// Interval-set arithmetic on sorted, disjoint, half-open [start, end) ns ranges.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/base/page_memory.h"
#include "core/base/types.h"

namespace npuscope::core {

/// Sorted, pairwise disjoint, non-empty half-open intervals.
using Intervals = std::vector<TimeRange>;

namespace detail {

/// v.push_back(r), growing by doubling through reserveLarge (core/base/page_memory.h): the interval
/// sets of a 10 M event trace are tens of MB, written once per analysis, and page faults were
/// most of the analyses' time on a fresh process.
inline void pushInterval(Intervals& v, TimeRange r) { pushLarge(v, r, 1024); }

}  // namespace detail

/// Union of two interval sets, each sorted by start and pairwise disjoint (touching intervals
/// merge; empty ones are dropped). O(|a| + |b|).
[[nodiscard]] inline Intervals mergeUnion(const Intervals& a, const Intervals& b) {
  Intervals out;
  detail::reserveLarge(out, a.size() + b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const TimeRange& r = j >= b.size() || (i < a.size() && a[i].start <= b[j].start) ? a[i++] : b[j++];
    if (r.empty()) continue;
    if (!out.empty() && r.start <= out.back().end) out.back().end = std::max(out.back().end, r.end);
    else out.push_back(r);
  }
  detail::releaseSpare(out);
  return out;
}

/// Builds the union of intervals added one by one. Intervals that arrive sorted by start (a lane's
/// row, lanes one after another) are coalesced as they come, so memory holds the union rather than
/// every interval; each sorted run is merged with the others at the end, O(n log runs). Input in
/// no order (more than 64 runs) is sorted instead, O(n log n).
class UnionBuilder {
 public:
  void add(TimeRange r) {
    if (r.empty()) return;
    if (m_v.size() == m_runs.back() || r.start < m_lastStart) {
      if (m_v.size() != m_runs.back()) m_runs.push_back(m_v.size());  // a new run
      detail::pushInterval(m_v, r);
    } else if (r.start <= m_v.back().end) {
      m_v.back().end = std::max(m_v.back().end, r.end);
    } else {
      detail::pushInterval(m_v, r);
    }
    m_lastStart = r.start;
  }
  /// The union: sorted, disjoint, touching intervals merged. Leaves the builder empty.
  [[nodiscard]] Intervals take() {
    Intervals v = std::move(m_v);
    std::vector<std::size_t> runs = std::move(m_runs);
    m_v.clear();
    m_runs.assign(1, 0);
    if (runs.size() == 1) {
      detail::releaseSpare(v);
      return v;
    }
    if (runs.size() > 64) {
      std::sort(v.begin(), v.end(), [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
      std::size_t n = 0;
      for (const TimeRange& r : v) {
        if (n && r.start <= v[n - 1].end) v[n - 1].end = std::max(v[n - 1].end, r.end);
        else v[n++] = r;
      }
      v.resize(n);
      detail::releaseSpare(v);
      return v;
    }
    // Bottom-up merge of adjacent runs, ping-ponging between v and one buffer: log2(runs) passes.
    runs.push_back(v.size());
    Intervals buf;
    detail::reserveLarge(buf, v.size());
    while (runs.size() > 2) {
      std::vector<std::size_t> next{0};
      buf.clear();
      for (std::size_t k = 0; k + 1 < runs.size(); k += 2) {
        const std::size_t e1 = runs[k + 1], e2 = k + 2 < runs.size() ? runs[k + 2] : e1;
        std::size_t i = runs[k], j = e1;
        const std::size_t first = buf.size();
        while (i < e1 || j < e2) {
          const TimeRange& r = j >= e2 || (i < e1 && v[i].start <= v[j].start) ? v[i++] : v[j++];
          if (buf.size() > first && r.start <= buf.back().end) buf.back().end = std::max(buf.back().end, r.end);
          else buf.push_back(r);
        }
        next.push_back(buf.size());
      }
      std::swap(v, buf);
      runs = std::move(next);
    }
    detail::releaseSpare(v);
    return v;
  }

 private:
  Intervals m_v;
  std::vector<std::size_t> m_runs{0};  ///< start index of each run in m_v
  TimeNs m_lastStart = 0;
};

/// Union of arbitrary intervals (consumed). Empty ones are dropped; touching ones merge.
/// O(n log runs) for input made of a few runs sorted by start, else O(n log n).
[[nodiscard]] inline Intervals unionOf(std::vector<TimeRange> v) {
  UnionBuilder b;
  for (const TimeRange& r : v) b.add(r);
  return b.take();
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
      if (b[k].start > cur) detail::pushInterval(out, {cur, b[k].start});
      cur = std::max(cur, b[k].end);
      ++k;
    }
    if (cur < r.end) detail::pushInterval(out, {cur, r.end});
  }
  detail::releaseSpare(out);
  return out;
}

/// [begin, end) \ (a u b) for two sorted, disjoint interval sets, without building a u b.
/// Equals subtract({{begin, end}}, mergeUnion(a, b)). O(|a| + |b|).
[[nodiscard]] inline Intervals gapsWithin(TimeNs begin, TimeNs end, const Intervals& a, const Intervals& b) {
  Intervals out;
  if (begin >= end) return out;
  TimeNs cur = begin;  // end of the covered time so far
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const TimeRange& r = j >= b.size() || (i < a.size() && a[i].start <= b[j].start) ? a[i++] : b[j++];
    if (r.empty()) continue;
    if (r.start >= end) break;
    if (r.start > cur) detail::pushInterval(out, {cur, r.start});
    cur = std::max(cur, r.end);
  }
  if (cur < end) detail::pushInterval(out, {cur, end});
  detail::releaseSpare(out);
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

/// Length of the interval of `v` that ends exactly at `t` (ns), or 0 when none does: e.g. the
/// Free time just before a device task that starts at `t`. O(log |v|).
[[nodiscard]] inline TimeNs idleEndingAt(const Intervals& v, TimeNs t) {
  const auto it = std::lower_bound(v.begin(), v.end(), t, [](const TimeRange& r, TimeNs x) { return r.end < x; });
  return it != v.end() && it->end == t ? it->end - it->start : 0;
}

}  // namespace npuscope::core
