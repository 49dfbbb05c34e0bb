// SPDX-License-Identifier: MIT
#pragma once
// Top-Down overlays of the timeline: device bubbles shaded across a rank's device lanes, and the
// links of a dispatch chain drawn as arrows. The geometry builders are pure (tested without
// painting); BubblesPass and ChainPass are the lane canvas' render passes that paint them.

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <vector>

#include "core/profile/profile.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/timeline/render_pass.h"
#include "widgets/view_state.h"

class QPainter;

namespace npuscope::widgets {

struct TimelineContext;

/// One shaded bubble over one vertical run of device rows. x in canvas px (may exceed the
/// canvas), y in content px.
struct BubbleBand {
  QRectF rect;
  int rank = -1;    ///< Profile::ranks index
  int device = -1;  ///< RankAnalysis::devices index
  int bubble = -1;  ///< DeviceAnalysis::bubbles index
  bool selected = false;
};

/// Whether lane rows of process `p` are "device rows" that get bubble shading: Ascend Hardware,
/// Overlap Analysis (recorded or computed, core::showsOverlap) and Communication processes, and a Kineto trace's GPU process (its streams:
/// the bubbles of a GPU trace are gaps there, core/analysis/bubbles.cpp).
[[nodiscard]] bool isDeviceProcess(const core::Process& p);

/// Bands of every bubble of every rank's analysis overlapping `view`, over the device rows
/// (Slices rows of device processes, and the headers of collapsed device processes) intersecting
/// content [yTop, yBottom). Adjacent device rows of one rank merge into one band per bubble. A
/// process is matched to the analysis device with the same NPU id (or to the only device).
/// `selectedRank/Device/Bubble` mark the selected one. O(rows + bands).
[[nodiscard]] std::vector<BubbleBand> buildBubbleBands(const core::Profile& profile, const LaneLayout& layout,
                                                       core::TimeRange view, double widthPx, double yTop,
                                                       double yBottom, int selectedRank = -1,
                                                       int selectedDevice = -1, int selectedBubble = -1);

/// The bubble hatch of `rect` as lines, for vector output (an SVG: Qt 6.4's QSvgGenerator turns a
/// pattern brush into a bitmap, and its QSvgRenderer draws no <pattern>): the "/" diagonals
/// x + y = 8k (k integer, px) of Qt::BDiagPattern's 8 px period through the pixel centres,
/// each clipped to `rect`, so the path never leaves it. Empty for an empty rect.
[[nodiscard]] QPainterPath hatchPath(const QRectF& rect, double period = 8.0);

/// The band containing `pos` (x canvas px, y content px), the selected one first; null if none.
[[nodiscard]] const BubbleBand* hitTestBubbleBands(const std::vector<BubbleBand>& bands, QPointF pos);

/// One arrow of a dispatch chain (from the upper layer's slice to the next layer's), canvas px /
/// content px. `from` lies on the source slice at the time closest to the target's start.
struct ChainArrow {
  QPointF from;
  QPointF to;
  QRectF fromRect;
  QRectF toRect;
};

/// Arrows between consecutive links of `chain` (Python API -> ... -> device task) of rank
/// `rank`, for the links whose rows are laid out (a link inside a collapsed process is drawn to
/// that process's header row). Empty when the chain has fewer than two links.
[[nodiscard]] std::vector<ChainArrow> buildChainArrows(const core::Profile& profile, const LaneLayout& layout,
                                                       core::TimeRange view, double widthPx, int rank,
                                                       const core::DispatchChain& chain);

/// The bubbles of every rank's analysis shaded across that rank's device rows (buildBubbleBands),
/// the selected one stronger and labelled. Hit-testing (bubbleAt) uses the same state.
class BubblesPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "bubbles"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

  /// Whether the bubbles are shaded (and clickable); on by default.
  void setVisible(bool on) { m_visible = on; }
  [[nodiscard]] bool visible() const { return m_visible; }
  /// The selected bubble (an invalid ref: none).
  void setSelected(BubbleRef ref) { m_selected = ref; }
  [[nodiscard]] BubbleRef selected() const { return m_selected; }

 private:
  bool m_visible = true;
  BubbleRef m_selected;
};

/// The links of one dispatch chain outlined and joined by arrows (buildChainArrows), from the
/// Python API / torch op down to the device task.
class ChainPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "chain"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

  /// Shows `chain` of rank `rankIndex`; rank -1 clears.
  void setChain(int rankIndex, core::DispatchChain chain) {
    m_rank = rankIndex;
    m_chain = std::move(chain);
  }
  [[nodiscard]] int rank() const { return m_rank; }
  [[nodiscard]] const core::DispatchChain& chain() const { return m_chain; }

 private:
  int m_rank = -1;
  core::DispatchChain m_chain;
};

/// The rects to outline for exactly the slices `slices` of rank `rank` (sliceRect; a slice inside a
/// collapsed process, rank or folded lane is drawn on the row that stands for it), culled to the
/// visible time range and content [yTop, yBottom); each at least `minWidthPx` wide, centred on
/// the slice. Invalid refs and refs outside the trace are skipped. O(slices).
[[nodiscard]] std::vector<QRectF> buildSliceSetRects(const core::Profile& profile, const LaneLayout& layout,
                                                     core::TimeRange view, double widthPx, double yTop,
                                                     double yBottom, int rank,
                                                     const std::vector<core::SliceRef>& slices,
                                                     double minWidthPx = 4);

/// Outlines exactly a given set of slices of one rank (the Advice dock's evidence of a finding),
/// or of several ranks (the Cluster dock's collective: its op on every rank), unlike
/// NameMarksPass, which marks every slice of a name. Each slice gets a tinted box with a
/// 2 px outline, widened to 4 px when zoomed out so that one short kernel still shows.
class SliceSetPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "slice-set"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

  /// Outlines `slices` of rank `rankIndex` (kept in the given order); rank -1 or an empty list clears.
  void setSlices(int rankIndex, std::vector<core::SliceRef> slices);
  /// Outlines `slices` of any ranks: the first one's rank becomes rank() with its slices in
  /// slices(), the other ranks' are outlined alike (otherRanks()). Empty clears.
  void setSlices(const std::vector<RankSliceRef>& slices);
  void clear() { setSlices(-1, {}); }
  [[nodiscard]] int rank() const { return m_rank; }
  [[nodiscard]] const std::vector<core::SliceRef>& slices() const { return m_slices; }
  /// The outlined slices of the ranks other than rank(), per rank (empty after the one-rank setSlices).
  [[nodiscard]] const std::vector<std::pair<int, std::vector<core::SliceRef>>>& otherRanks() const { return m_others; }
  /// Whether slice `ref` of rank `rankIndex` is one of the outlined slices. O(log n).
  [[nodiscard]] bool contains(int rankIndex, core::SliceRef ref) const;

 private:
  int m_rank = -1;
  std::vector<core::SliceRef> m_slices;  // as given
  std::vector<core::SliceRef> m_sorted;  // sorted by (lane, index), for contains()
  std::vector<std::pair<int, std::vector<core::SliceRef>>> m_others;  // other ranks, each sorted
};

/// One instant of one rank marked across the canvas: a vertical line at `t` with a label at the
/// top (the Advice dock's memory peak, drawn over the allocator's counter lanes). Canvas space.
class MomentPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "moment"; }
  [[nodiscard]] Space space() const override { return Space::Canvas; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

  /// Marks `t` (ns) of rank `rankIndex` with `label`; rank -1 clears.
  void setMoment(int rankIndex, core::TimeNs t, QString label) {
    m_rank = rankIndex;
    m_t = t;
    m_label = std::move(label);
  }
  [[nodiscard]] int rank() const { return m_rank; }
  [[nodiscard]] core::TimeNs time() const { return m_t; }
  [[nodiscard]] const QString& label() const { return m_label; }

 private:
  int m_rank = -1;
  core::TimeNs m_t = 0;
  QString m_label;
};

/// Tooltip for a bubble band (HTML).
[[nodiscard]] QString bubbleTooltip(const core::Profile& profile, int rank, int device, int bubble);

}  // namespace npuscope::widgets
