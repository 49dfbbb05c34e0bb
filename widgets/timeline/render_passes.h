// SPDX-License-Identifier: MIT
#pragma once
// The built-in render passes of the lane canvas (render_pass.h), in their default order:
// boxes, name marks, labels, counters, bubbles and chain (timeline_overlays.h), hover,
// selection, flow arrows, time selection.

#include <QBrush>
#include <QColor>
#include <QPointF>
#include <QRect>
#include <vector>

#include "core/base/types.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/render_pass.h"

class QPainterPath;

namespace npuscope::widgets {

/// Fills a 7 px arrowhead at the end of `path` (its current position), pointing the way the path
/// arrives there (from its last control point or line start), or along `fallbackDir` (a unit
/// vector) when that is degenerate, with `brush` (QPainter::fillPath: the painter's own pen and
/// brush are left as they are). Shared by the flow arrows and the dispatch-chain overlay.
void drawArrowHead(QPainter& p, const QPainterPath& path, const QBrush& brush, QPointF fallbackDir);

/// The slice boxes of the draw list (wide boxes lose one device pixel on the right), then their
/// flag marks: partial overlap (red outline), unfinished (zig-zag end).
///
/// On Qt's raster engine, unantialiased, with a transform the boxes can be mapped through to whole
/// device pixels (a translation, or the scale of a whole device pixel ratio), the boxes are filled
/// without one QPainter call per box: each box is rounded to device pixels the way the raster
/// engine rounds an aliased QPainter::fillRect (qRound of each edge). When the engine paints into
/// a 32-bit QImage (the window's backing store, renderToImage) clipped to one rectangle, the
/// boxes (opaque) are written into the image's lines in list order. Else the boxes of a slice
/// row are cut where the next box of the row starts (that later box, painted over it one box at
/// a time, covers the rest) and filled by one QPainter::drawRects per colour. The picture is the
/// same pixel for pixel (tests compare the three ways at device pixel ratios 1 and 2); for
/// drawRects, a row whose boxes are not in left and right edge order is filled box by box, as are
/// the boxes of other painters (SVG, print) and transforms.
class BoxesPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "boxes"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
  /// Whether the fill by colour may be used (default true; false fills every box one at a time)
  /// and whether it may write the boxes straight into the target image's lines (`direct`, default
  /// true; false: QPainter::drawRects per colour). For tests that compare the three. Process-wide;
  /// not thread-safe.
  static void setBatchedFills(bool on, bool direct = true);

 private:
  /// Fills the boxes in whole device pixels: written into the target image in list order, or
  /// the boxes of slice rows by colour with the other rows' boxes (indices into DrawList::boxes)
  /// appended to m_oneByOne; false when the painter does not allow it (nothing drawn).
  bool fillBatched(QPainter& p, const TimelineFrame& frame);

  struct Batch {
    QRgb color = 0;
    std::vector<QRect> rects;  ///< device px
  };
  std::vector<Batch> m_batches;           // kept between frames for their capacity
  std::vector<std::uint32_t> m_oneByOne;  // boxes filled one at a time
  std::vector<QRect> m_rowRects;          // one row's boxes in device px
  std::vector<std::uint32_t> m_slots;     // batch index + 1 by colour hash (fillBatched)
};

/// Search matches and highlighted names: per rank a name-id mask (indexed by that rank's
/// StringPool ids). Matching boxes are outlined; while any rank has a search match, the other
/// boxes are dimmed. One bit test per drawn box.
class NameMarksPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "name-marks"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

  /// Sets the mask of rank `rankIndex` (an empty mask clears that rank). Negative rank: no-op.
  void setHighlight(int rankIndex, std::vector<bool> mask);
  void clearHighlight() { m_highlight.clear(); }
  void setSearch(int rankIndex, std::vector<bool> mask);
  void clearSearch();
  /// Whether any rank has a search match (the others are dimmed).
  [[nodiscard]] bool dimNonMatching() const { return m_dim; }
  /// Whether slice `ref` of rank `rank` of `profile` is marked.
  [[nodiscard]] bool isHighlighted(const core::Profile* profile, int rank, core::SliceRef ref) const;
  [[nodiscard]] bool isSearchMatch(const core::Profile* profile, int rank, core::SliceRef ref) const;

 private:
  std::vector<std::vector<bool>> m_highlight;
  std::vector<std::vector<bool>> m_search;
  bool m_dim = false;
};

/// The slice names of the draw list.
class LabelsPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "labels"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

/// The counter areas and their "max" captions.
class CountersPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "counters"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

/// A thin outline around the hovered box (TimelineContext::hovered).
class HoverPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "hover"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

/// A thick outline around the selected slice (TimelineContext::selected), merged or not.
class SelectionPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "selection"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

/// The selected slice's flows and the flows of TimelineContext::flowCategories in view.
class FlowArrowsPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "flows"; }
  void paint(QPainter& p, const TimelineFrame& frame) override;

 private:
  FlowArrowIndex m_index;  // per-profile cache of buildFlowArrows
};

/// The time selection (TimelineViewport::selection) as a tinted band with edges, canvas px.
class TimeSelectionPass final : public TimelineRenderPass {
 public:
  [[nodiscard]] const char* name() const override { return "time-selection"; }
  [[nodiscard]] Space space() const override { return Space::Canvas; }
  void paint(QPainter& p, const TimelineFrame& frame) override;
};

}  // namespace npuscope::widgets
