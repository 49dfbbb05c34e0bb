// SPDX-License-Identifier: MIT
#include "core/base/ticks.h"

#include <cmath>

namespace npuscope::core {

Ticks computeTicks(TimeRange view, double widthPx, double minMajorPx) {
  Ticks t;
  if (view.empty() || !(widthPx > 0) || !(minMajorPx > 0)) return t;
  const double nsPerPx = static_cast<double>(view.duration()) / widthPx;
  const double want = nsPerPx * minMajorPx;  // ns between labels at least
  TimeNs step = 1;
  TimeNs minor = 1;
  // 1-2-5 sequence.
  for (TimeNs decade = 1;; decade *= 10) {
    if (static_cast<double>(decade) >= want) { step = decade; minor = decade >= 10 ? decade / 5 : 1; break; }
    if (static_cast<double>(2 * decade) >= want) { step = 2 * decade; minor = decade >= 5 ? 2 * decade / 4 : decade; break; }
    if (static_cast<double>(5 * decade) >= want) { step = 5 * decade; minor = decade; break; }
    if (decade > (TimeNs{1} << 60) / 10) { step = decade * 10; minor = decade * 2; break; }
  }
  if (minor <= 0) minor = step;
  t.majorStep = step;
  t.minorStep = minor;
  auto firstAtOrAfter = [&](TimeNs s) {
    TimeNs q = view.start / s;
    TimeNs v = q * s;
    if (v < view.start) v += s;
    return v;
  };
  for (TimeNs v = firstAtOrAfter(step); v < view.end; v += step) t.major.push_back(v);
  if (minor < step) {
    for (TimeNs v = firstAtOrAfter(minor); v < view.end; v += minor)
      if (v % step != 0) t.minor.push_back(v);
  }
  return t;
}

}  // namespace npuscope::core
