// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/profile/profile.h"
#include "core/base/types.h"

namespace npuscope::widgets {

/// One horizontal row of the timeline, in content coordinates (logical px, y grows downwards,
/// 0 = top of the first rank header). Rows tile the content: rows[i+1].y == rows[i].y + height.
struct LayoutRow {
  enum class Kind : std::uint8_t {
    Rank,     ///< group header of one rank ("rank 0 · NPU 0"), collapsible
    Process,  ///< header of one process of a rank, collapsible
    Slices,   ///< one depth row of a thread lane
    Counter,  ///< one counter series drawn as a step-area chart
  };
  Kind kind = Kind::Slices;
  int rank = 0;                                   ///< index into Profile::ranks
  std::uint32_t process = core::kInvalidIndex;    ///< index into Trace::processes (not Rank)
  std::uint32_t lane = core::kInvalidIndex;       ///< Slices: index into Trace::lanes
  std::uint32_t depth = 0;                        ///< Slices: depth row
  std::uint32_t counter = core::kInvalidIndex;    ///< Counter: index into Trace::counters
  int y = 0;                                      ///< top, content px
  int height = 0;                                 ///< px (the last depth row of a lane is taller)
  int band = 0;                                   ///< alternating background parity of its lane
  bool expanded = true;                           ///< Rank/Process: current state; Slices: the
                                                  ///< lane is unfolded (all depth rows shown)
  bool foldable = false;                          ///< Slices, depth 0: a deep lane (see LaneLayout::kDeepLane);
                                                  ///< clicking its header folds / unfolds it
  std::uint32_t hiddenDepths = 0;                 ///< Slices: the last shown row of a folded lane:
                                                  ///< how many deeper rows are hidden
  double counterMin = 0;                          ///< Counter: smallest value of the series (<= 0)
  double counterMax = 0;                          ///< Counter: largest value of the series
};

/// Vertical layout of a Profile: ranks -> processes -> thread lanes (one row per depth) and
/// counter series, with per-rank and per-process expand/collapse state. Pure data, no painting;
/// rebuilt (O(lanes + counter samples)) whenever the profile or an expand state changes.
class LaneLayout {
 public:
  /// Row heights in logical px.
  struct Metrics {
    int rankHeader = 26;
    int processHeader = 22;
    int sliceRow = 18;    ///< height of one depth row; boxes are sliceRow - 1 px tall
    int laneGap = 4;      ///< extra space below the last depth row of a lane
    int counterRow = 34;
  };

  /// A lane deeper than this many depth rows is "deep" (a with_stack Python stack is 30-40):
  /// it starts folded to its first kFoldedRows rows, so the device lanes below it stay on the
  /// first screen (issue 14). Its header row toggles it.
  static constexpr std::uint32_t kDeepLane = 8;
  static constexpr std::uint32_t kFoldedRows = 4;

  LaneLayout() = default;

  /// Sets the profile (null clears) and forgets the expand overrides.
  void setProfile(std::shared_ptr<const core::Profile> profile);
  [[nodiscard]] const std::shared_ptr<const core::Profile>& profile() const { return m_profile; }
  void setMetrics(const Metrics& m);
  [[nodiscard]] const Metrics& metrics() const { return m_metrics; }

  [[nodiscard]] const std::vector<LayoutRow>& rows() const { return m_rows; }
  /// Total content height, px.
  [[nodiscard]] int totalHeight() const { return m_total; }
  /// Incremented on each rebuild (cache key for draw lists).
  [[nodiscard]] std::uint64_t revision() const { return m_revision; }

  /// Index of the row containing content y, or -1 (O(log rows)).
  [[nodiscard]] int rowAt(double y) const;
  /// Row indices [first, last) intersecting content [y0, y1).
  [[nodiscard]] std::pair<int, int> rowsIn(double y0, double y1) const;
  /// Row of slice depth row (rank, lane, depth); when the lane is hidden by a collapsed process or
  /// rank, that header's row when `orCollapsedHeader` (the last shown row of a folded lane for a
  /// depth it hides), else -1.
  [[nodiscard]] int rowOfSlice(int rank, std::uint32_t lane, std::uint32_t depth,
                               bool orCollapsedHeader = false) const;

  /// Expand state. Defaults: ranks expanded; processes expanded except counter-only ones
  /// (Process::Role::Counter, or processes with counters and no thread lanes).
  [[nodiscard]] bool isRankExpanded(int rank) const;
  [[nodiscard]] bool isProcessExpanded(int rank, std::uint32_t process) const;
  void setRankExpanded(int rank, bool expanded);
  void setProcessExpanded(int rank, std::uint32_t process, bool expanded);
  /// Toggles the Rank/Process row `row`; returns false for other rows.
  bool toggleRow(int row);
  /// Expands or collapses every process of every rank.
  void setAllProcessesExpanded(bool expanded);
  /// Whether each rank shows its device processes first, in the Top-Down method's order: Overlap
  /// Analysis, Ascend Hardware, Communication, then the others (each group in the trace's
  /// display order). Off by default (the trace's order, as the profiler wrote it).
  void setDeviceFirst(bool on);
  [[nodiscard]] bool deviceFirst() const { return m_deviceFirst; }
  /// Which lanes are laid out (an export of some lanes, widgets/export/timeline_export.h): with a
  /// filter set, a thread lane or counter series shows only when `filter(rank, lane, counter)`
  /// (one of lane / counter is core::kInvalidIndex) is true, a process only with a row left and
  /// a rank only with a process left. An empty function (the default) shows everything.
  using LaneFilter = std::function<bool(int rank, std::uint32_t lane, std::uint32_t counter)>;
  void setLaneFilter(LaneFilter filter);
  [[nodiscard]] bool hasLaneFilter() const { return static_cast<bool>(m_laneFilter); }
  /// Whether lane `lane` of rank `rank` shows only its first kFoldedRows depth rows (default:
  /// folded when deeper than kDeepLane).
  [[nodiscard]] bool isLaneFolded(int rank, std::uint32_t lane) const;
  void setLaneFolded(int rank, std::uint32_t lane, bool folded);

  /// The user's expand / fold choices, to carry over a reload of the same profile (F5). Keys
  /// are (rank, process) and (rank, lane) indexes, which a reload of the same files keeps.
  struct ExpandState {
    std::map<int, bool> ranks;
    std::map<std::pair<int, std::uint32_t>, bool> processes;
    std::map<std::pair<int, std::uint32_t>, bool> lanesFolded;
  };
  [[nodiscard]] ExpandState expandState() const { return {m_rankExpanded, m_processExpanded, m_laneFolded}; }
  /// Applies `state` (after setProfile); indexes out of range are ignored.
  void setExpandState(const ExpandState& state);

  /// Display texts.
  [[nodiscard]] QString rankTitle(int rank) const;        ///< "rank 0 · NPU 0"
  [[nodiscard]] QString processTitle(int rank, std::uint32_t process) const;
  [[nodiscard]] QString laneTitle(int rank, std::uint32_t lane) const;
  [[nodiscard]] QString counterTitle(int rank, std::uint32_t counter) const;
  /// Title of the row (any kind).
  [[nodiscard]] QString rowTitle(const LayoutRow& row) const;
  /// "rank 0 · NPU 0 / CANN / Thread 7": full path of a lane, for tooltips and details.
  [[nodiscard]] QString lanePath(int rank, std::uint32_t lane) const;
  /// The same for counter series `counter`: "rank 0 · NPU 0 / Memory allocator / PTA Allocated";
  /// "" when out of range.
  [[nodiscard]] QString counterPath(int rank, std::uint32_t counter) const;

 private:
  void rebuild();
  [[nodiscard]] bool defaultProcessExpanded(int rank, std::uint32_t process) const;

  std::shared_ptr<const core::Profile> m_profile;
  Metrics m_metrics;
  bool m_deviceFirst = false;
  LaneFilter m_laneFilter;
  std::vector<LayoutRow> m_rows;
  int m_total = 0;
  std::uint64_t m_revision = 0;
  std::map<int, bool> m_rankExpanded;                                  // overrides
  std::map<std::pair<int, std::uint32_t>, bool> m_processExpanded;     // overrides
  std::map<std::pair<int, std::uint32_t>, bool> m_laneFolded;          // overrides
  std::vector<std::vector<int>> m_laneRow;     // [rank][lane] -> first row or -1
  std::vector<std::vector<int>> m_processRow;  // [rank][process] -> header row or -1
  std::vector<int> m_rankRow;                  // [rank] -> header row or -1
};

/// Short label of a RankProfile: "rank 0 · NPU 0", "rank 1", or the folder label.
[[nodiscard]] QString rankLabel(const core::RankProfile& rp);

}  // namespace npuscope::widgets
