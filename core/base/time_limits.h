// SPDX-License-Identifier: MIT
#pragma once
// Range checks for numbers read from files (issue 15, items 4 and 5): nothing read may wrap or
// be converted with undefined behaviour.

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/base/types.h"

namespace npuscope::core {

/// The largest magnitude a timestamp or a slice end may have: 2^62 - 1 ns, about 146 years from
/// the epoch (1970 +- 146 years; every profiler writes epoch ns around 1.7e18 today). Readers
/// skip an event whose ts is beyond it and take a dur whose end would pass it as invalid (0), so
/// that every end, every difference of two times and every range width fits int64
/// (2 x (2^62 - 1) < 2^63): no sum or difference of times can wrap.
inline constexpr TimeNs kMaxTimeNs = (TimeNs(1) << 62) - 1;

/// `d` converted to integer type I when it is a finite value within I's range (the fraction
/// truncated, as static_cast does), else false. A static_cast of an out-of-range or NaN double
/// is undefined behaviour (pid 1e30, a CSV Device_id of 1e20, sort_index 1e300).
template <typename I>
[[nodiscard]] constexpr bool doubleToInt(double d, I& out) {
  // (min - 1, max + 1): max + 1 is a power of two, exact as a double; min - 1 rounds to min for
  // 64-bit types, which only refuses min itself. NaN fails both comparisons.
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min()) - 1.0;
  constexpr double hi = static_cast<double>(std::numeric_limits<I>::max() / 2 + 1) * 2.0;
  if (!(d > lo && d < hi)) return false;
  out = static_cast<I>(d);
  return true;
}

/// A time in ns given as a double (a CSV or JSON summary cell times 1000 or 1e6) rounded to the
/// nearest ns and clamped to +-kMaxTimeNs; NaN gives 0. (std::llround of a value beyond long
/// long's range returns an unspecified value, and a difference with it then overflows.)
[[nodiscard]] inline TimeNs clampedNs(double ns) {
  if (std::isnan(ns)) return 0;
  constexpr double lim = static_cast<double>(kMaxTimeNs);
  if (ns >= lim) return kMaxTimeNs;
  if (ns <= -lim) return -kMaxTimeNs;
  return static_cast<TimeNs>(std::llround(ns));
}

/// a + b held at +-kMaxTimeNs instead of overflowing: for sums of durations read from files. Each
/// is within the limit, but a table's rows can hold any number of them (three near 2^62 pass
/// 2^63: signed overflow, found by the fuzzers in several sums).
[[nodiscard]] constexpr TimeNs clampedSum(TimeNs a, TimeNs b) {
  TimeNs sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? kMaxTimeNs : -kMaxTimeNs;
  return sum > kMaxTimeNs ? kMaxTimeNs : sum < -kMaxTimeNs ? -kMaxTimeNs : sum;
}

}  // namespace npuscope::core
