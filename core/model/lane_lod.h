// SPDX-License-Identifier: MIT
#pragma once
// Summary levels ("mipmap") of a lane's depth rows, used by core::visibleSpans to draw a
// zoomed-out view in O(visible pixels) instead of O(slices in view). Built once after loading by
// core::buildTraceLod (core/query/lod.h); a Lane without levels (hand-built, still loading) is drawn
// from its slices directly, with the same result up to the merging documented in visibleSpans.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/types.h"

namespace npuscope::core {

/// The summary levels of one Lane.
///
/// A level of depth row d is a partition of that row's slices (in index order) into groups of
/// consecutive slices. Level k is built from level k-1's groups (level 0 from the slices) with a
/// width W_k: scanning in order, a group opens at an element a and takes every following element
/// that starts before start(a) + W_k. So every slice of a group starts in
/// [groupStart, groupStart + reach) with reach R_k = W_k + R_{k-1} (R_{-1} = 0), and the gap
/// between two consecutive slices of one group is below the reach. Widths grow from
/// LodOptions::baseWidth by doubling (skipping widths that could merge nothing). A level is kept
/// only when it has at most half as many groups as the last kept level of the row (the slices
/// for the first), so the groups of all levels of a row number at most its slice count, and
/// usually far fewer: 8 bytes per group (first slice, representative).
struct LaneLod {
  /// One kept level: groups [begin, end) of `first` / `longest`, for depth row `depth`.
  struct Level {
    std::uint32_t depth = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    TimeNs width = 0;  ///< W_k, ns
    TimeNs reach = 0;  ///< R_k, ns: every slice of a group starts before groupStart + reach
  };
  std::vector<Level> levels;           ///< sorted by (depth, reach ascending)
  /// Lane index of the first slice of each group. A group's slices are [first[g], first[g+1])
  /// within its level (the last group of a level ends at its row's end).
  std::vector<std::uint32_t> first;
  /// Lane index of the longest slice of each group (ties: the earliest).
  std::vector<std::uint32_t> longest;

  [[nodiscard]] bool empty() const { return levels.empty(); }
  /// Heap bytes held by the vectors (capacity); the struct itself is part of sizeof(Lane).
  [[nodiscard]] std::size_t memoryBytes() const {
    return levels.capacity() * sizeof(Level) + first.capacity() * 4 + longest.capacity() * 4;
  }
};

/// Block maxima of a counter series' values, so that a zoomed-out frame finds the largest value
/// of each pixel column in O(log) instead of reading every sample (core::counterRangeMax).
/// Empty for short series (they are cheap) and for series built by hand.
struct CounterLod {
  static constexpr std::size_t kBlock = 64;  ///< samples per max64 entry; max4096 takes 64 of those
  std::vector<double> max64;    ///< max64[b] = max of values [64b, 64b + 64)
  std::vector<double> max4096;  ///< max4096[b] = max of values [4096b, 4096b + 4096)
  [[nodiscard]] bool empty() const { return max64.empty(); }
  /// Heap bytes held by the vectors (capacity).
  [[nodiscard]] std::size_t memoryBytes() const { return (max64.capacity() + max4096.capacity()) * sizeof(double); }
};

/// Parameters of buildLaneLod (the defaults are what loadTrace uses).
struct LodOptions {
  TimeNs baseWidth = 512;              ///< W_0, ns (> 0)
  std::uint32_t minRowSlices = 256;    ///< rows with fewer slices get no levels (they are cheap)
  std::uint32_t stopGroups = 256;      ///< stop refining a row once a level has at most this many groups
};

}  // namespace npuscope::core
