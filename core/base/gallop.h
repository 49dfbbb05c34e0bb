// SPDX-License-Identifier: MIT
#pragma once
// A search that starts from where the previous one ended.

#include <cstddef>

namespace npuscope::core {

/// The first position p in [b, e) for which before(p) is false (before(p) must be true on a
/// prefix of [b, e) and false after it: std::partition_point over positions), or e. Galloping
/// from `hint` when it lies in [b, e): O(log |answer - hint|) calls of before, so that a caller
/// whose successive searches move forward a little (the analyses walk tasks in time order) reads
/// a few neighbouring entries instead of ~20 scattered ones; a hint outside [b, e) gives a plain
/// binary search. The answer does not depend on the hint.
template <class Before>
[[nodiscard]] std::size_t partitionPointNear(std::size_t b, std::size_t e, std::size_t hint, Before&& before) {
  std::size_t lo = b, hi = e;  // the answer lies in [lo, hi]
  if (hint >= b && hint < e) {
    std::size_t step = 1;
    if (before(hint)) {  // after the hint: gallop forward
      lo = hint + 1;
      while (lo + step - 1 < e && before(lo + step - 1)) {
        lo += step;
        step *= 2;
      }
      hi = lo + step - 1 < e ? lo + step - 1 : e;
    } else {  // at or before it: gallop backward
      hi = hint;
      while (hi >= b + step && !before(hi - step)) {
        hi -= step;
        step *= 2;
      }
      lo = hi >= b + step ? hi - step + 1 : b;
    }
  }
  while (lo < hi) {  // binary search in [lo, hi)
    const std::size_t mid = lo + (hi - lo) / 2;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace npuscope::core
