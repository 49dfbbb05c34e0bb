// SPDX-License-Identifier: MIT
#pragma once
// Summary levels ("mipmap") of a lane's depth rows, used by core::visibleSpans to draw a
// zoomed-out view in O(visible pixels) instead of O(slices in view). Built once after loading by
// core::buildTraceLod (core/query/lod.h); a Lane without levels (hand-built, still loading) is drawn
// from its slices directly, with the same result up to the merging documented in visibleSpans.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/types.h"
#include "core/model/lane_column.h"

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
///
/// The coarse levels (at most 1/LodOptions::summaryFraction as many groups as the row has
/// slices) also keep a GroupSummary per group: what a zoomed-out frame reads of a group (its
/// start, its end, its longest slice's duration and name) side by side, so that merging groups
/// reads one array in order instead of four places far apart in the lane's columns (a cache miss
/// each). 32 bytes per group of those levels; a zoomed-in frame reads the finer levels, which
/// have none.
struct LaneLod {
  static constexpr std::uint32_t kNoSummary = 0xFFFFFFFFu;
  /// One kept level: groups [begin, end) of `first` / `longest`, for depth row `depth`.
  struct Level {
    std::uint32_t depth = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    /// Index in `summaries` of the summary of group `begin` (the level's groups follow in order),
    /// or kNoSummary.
    std::uint32_t summary = kNoSummary;
    TimeNs width = 0;  ///< W_k, ns
    TimeNs reach = 0;  ///< R_k, ns: every slice of a group starts before groupStart + reach
  };
  /// What merging reads of one group (see above).
  struct GroupSummary {
    TimeNs start = 0;        ///< start of its first slice, ns
    TimeNs end = 0;          ///< end of its last slice, ns
    TimeNs longestDur = 0;   ///< duration of `longest[g]`, ns
    NameId longestName = 0;  ///< name of `longest[g]`
    std::uint32_t unused = 0;
  };
  std::vector<Level> levels;           ///< sorted by (depth, reach ascending)
  /// Lane index of the first slice of each group. A group's slices are [first[g], first[g+1])
  /// within its level (the last group of a level ends at its row's end).
  LaneColumn<std::uint32_t> first;
  /// Lane index of the longest slice of each group (ties: the earliest).
  LaneColumn<std::uint32_t> longest;
  /// The coarse levels' group summaries; null when none (most lanes: 16 bytes in the Lane, no
  /// heap block). Shared, never changed once built.
  std::shared_ptr<const std::vector<GroupSummary>> summaries;

  [[nodiscard]] bool empty() const { return levels.empty(); }
  /// The summaries' first element (null when none).
  [[nodiscard]] const GroupSummary* summaryData() const { return summaries ? summaries->data() : nullptr; }
  /// Heap bytes held (capacity); the struct itself is part of sizeof(Lane).
  [[nodiscard]] std::size_t memoryBytes() const {
    return levels.capacity() * sizeof(Level) + first.heapBytes() + longest.heapBytes() +
           (summaries ? sizeof(*summaries) + summaries->capacity() * sizeof(GroupSummary) : 0);
  }
};

/// Block maxima of a counter series' values, so that a zoomed-out frame finds the largest value
/// of each pixel column in O(log) instead of reading every sample (core::counterRangeMax).
/// Empty for short series (they are cheap) and for series built by hand.
struct CounterLod {
  static constexpr std::size_t kBlock = 8;         ///< samples per ts8 entry; the fan of every level
  static constexpr std::size_t kMinSamples = 256;  ///< shorter series get no summary
  /// maxima[L][b] = the largest of values [b * 8^(L+1), (b + 1) * 8^(L+1)) (the last entry of a
  /// level may cover fewer), i.e. of maxima[L - 1] [8b, 8b + 8). Levels are added until one has
  /// a single entry. A range then costs at most 7 reads per level and side.
  std::vector<std::vector<double>> maxima;
  /// ts8[b] = ts[8b]: a search for a time goes through this array first (1/8 of the times, in
  /// order) and then reads one line of ts, instead of probing ts far apart (core::counterLowerBound).
  std::vector<TimeNs> ts8;
  [[nodiscard]] bool empty() const { return maxima.empty(); }
  /// Heap bytes held by the vectors (capacity).
  [[nodiscard]] std::size_t memoryBytes() const {
    std::size_t b = maxima.capacity() * sizeof(std::vector<double>) + ts8.capacity() * sizeof(TimeNs);
    for (const auto& level : maxima) b += level.capacity() * sizeof(double);
    return b;
  }
};

/// Parameters of buildLaneLod (the defaults are what loadTrace uses).
struct LodOptions {
  TimeNs baseWidth = 512;              ///< W_0, ns (> 0)
  std::uint32_t minRowSlices = 256;    ///< rows with fewer slices get no levels (they are cheap)
  std::uint32_t stopGroups = 256;      ///< stop refining a row once a level has at most this many groups
  /// Levels with at most 1/summaryFraction as many groups as their row has slices keep a
  /// GroupSummary per group (0: none do).
  std::uint32_t summaryFraction = 8;
};

}  // namespace npuscope::core
