// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/base/types.h"

namespace npuscope::core {

/// Ruler ticks for a visible range: major ticks at a 1-2-5 x 10^k ns step chosen so that labels
/// are at least `minMajorPx` apart, and minor ticks at a fifth (or half) of that step.
struct Ticks {
  TimeNs majorStep = 0;
  TimeNs minorStep = 0;
  std::vector<TimeNs> major;  ///< absolute ns, inside [view.start, view.end)
  std::vector<TimeNs> minor;
};

/// Computes ticks for `view` drawn over `widthPx` pixels. Empty result for an empty view or a
/// non-positive width (never divides by zero).
[[nodiscard]] Ticks computeTicks(TimeRange view, double widthPx, double minMajorPx = 90.0);

}  // namespace npuscope::core
