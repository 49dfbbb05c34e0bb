// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace npuscope::core {

/// Formats a duration in ns with a unit chosen by magnitude and 3 significant decimals at most:
/// 0 -> "0 ns", 950 -> "950 ns", 1500 -> "1.5 us", 2'345'678 -> "2.346 ms", 3.2e9 -> "3.2 s".
/// Negative values keep their sign. Uses "us" (ASCII) so that CLI output stays ASCII.
[[nodiscard]] std::string formatDuration(TimeNs ns);
/// A ratio (0.187 -> "18.7%" with 1 decimal) with `decimals` digits after the point.
[[nodiscard]] std::string formatPercent(double ratio, int decimals);

/// Formats a ruler tick at `ns` (relative to the trace start) whose ticks are `step` ns apart:
/// the unit is chosen by the magnitude of `ns` as in formatDuration, with as many decimals (all
/// kept, at most 9) as it takes to tell ticks `step` apart, exactly (integer arithmetic). So a
/// 10 us step deep into a long trace reads "9.84001 s", "9.84002 s" where formatDuration would
/// print "9.84 s" for both. step <= 0 falls back to formatDuration.
[[nodiscard]] std::string formatTickLabel(TimeNs ns, TimeNs step);

/// A signed offset from the trace start for captions and the ruler's corner: "+" then
/// formatTickLabel(ns, step) when ns >= 0, else formatTickLabel's "-12.5 ms" (never "+-").
[[nodiscard]] std::string formatSignedOffset(TimeNs ns, TimeNs step);

/// A time offset (e.g. from the trace start) to 1 us: formatTickLabel(ns, 1000), so that starts
/// deep into a long trace read "9.840012 s", not "9.84 s". For start columns and details.
[[nodiscard]] std::string formatTimeOffset(TimeNs ns);

/// Formats an absolute or relative timestamp in ns as microseconds with 3 decimals, exactly,
/// e.g. 1731400000123456789 -> "1731400000123456.789 us" (no floating point).
[[nodiscard]] std::string formatTimestampUs(TimeNs ns);

/// `ns` in microseconds as a plain decimal with 3 places ("1234.500"): a JSON / CSV number, no
/// unit (printf %.3f of ns / 1000).
[[nodiscard]] std::string formatUsNumber(TimeNs ns);

/// `v` with 6 significant digits (printf %.6g): a JSON / CSV number for ratios and shares.
[[nodiscard]] std::string formatNumber6(double v);

/// Ascending ids (ranks, devices) as runs: {0, 1, 3, 4, 5} -> "0-1, 3-5", {2} -> "2". After
/// `maxRuns` runs the rest is ", ..." (the default: every run).
[[nodiscard]] std::string formatIdRuns(const std::vector<int>& ids, std::size_t maxRuns = SIZE_MAX);

}  // namespace npuscope::core
