// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QRgb>
#include <QSet>
#include <QString>
#include <cstdint>
#include <vector>

#include "core/profile.h"
#include "core/types.h"
#include "widgets/lane_layout.h"

namespace npuscope::widgets {

/// One box to paint: a slice (count == 1) or a run of sub-pixel slices merged by
/// core::visibleSpans (count > 1). Geometry in logical px: x relative to the canvas left edge
/// (x = core::timeToX(start)), y in content coordinates (LaneLayout rows). The rect is exact
/// (x from start, width from end - start, at least kMinBoxWidthPx); the painter may shave 1 device
/// px off wide boxes to separate neighbours, hit-testing uses the exact rect.
struct DrawBox {
  QRectF rect;
  QRgb color = 0;
  int row = -1;                 ///< LaneLayout row index
  int rank = -1;                ///< Profile::ranks index
  core::SliceRef ref;           ///< the slice, or the merged run's longest member
  std::uint32_t first = 0;      ///< first lane index of the run
  std::uint32_t count = 1;      ///< slices in the box
  core::TimeRange time;         ///< extent in ns
  std::uint8_t flags = 0;       ///< core::SliceFlag bits (count == 1 only)
};

/// A label drawn inside a box: text already elided to fit `rect`.
struct DrawLabel {
  QRectF rect;
  QString text;
  QRgb color = 0;
};

/// A counter series as a step-area polygon (value held until the next sample) for one row.
struct DrawCounter {
  int row = -1;
  QPolygonF area;               ///< closed polygon, baseline included
  QRgb color = 0;
  QString maxText;              ///< the series maximum, for the chart's scale label
};

/// Boxes of one layout row: indices [begin, end) into DrawList::boxes, in time order.
struct DrawRowRange {
  int row = -1;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// Everything the lane canvas paints for one viewport, built by buildDrawList (pure).
struct DrawList {
  std::vector<DrawBox> boxes;          ///< grouped by row (ascending), time order inside a row
  std::vector<DrawRowRange> rowRanges; ///< one per row that has boxes, ascending row
  std::vector<DrawLabel> labels;
  std::vector<DrawCounter> counters;
};

/// Inputs of buildDrawList besides the profile and the layout.
struct DrawParams {
  core::TimeRange view;         ///< visible time range, ns
  double widthPx = 0;           ///< canvas width, logical px
  double yTop = 0;              ///< content y range to build, logical px [yTop, yBottom)
  double yBottom = 0;
  double minBoxPx = 1.0;        ///< slices narrower than this are merged (core::visibleSpans)
  double minLabelPx = 20.0;     ///< boxes at least this wide get a label
  QFont font;                   ///< label font, for elision
  bool labels = true;
};

/// Minimum drawn box width, logical px (zero-length slices stay visible).
inline constexpr double kMinBoxWidthPx = 1.0;

/// Builds the draw list: for each Slices row intersecting [yTop, yBottom), the culled and
/// sub-pixel-merged spans of core::visibleSpans as boxes coloured by ColorPalette::colorForName;
/// for collapsed process headers, a summary of the depth-0 spans of its lanes; for Counter rows a
/// step-area polygon. O(rows * widthPx * log n). Pure: no painting, no widget.
[[nodiscard]] DrawList buildDrawList(const core::Profile& profile, const LaneLayout& layout,
                                     const DrawParams& params);

/// The box under `pos` (x canvas px, y content px): the box whose rect contains pos.x, else the
/// nearest within `slackPx`; null when none. O(log boxes).
[[nodiscard]] const DrawBox* hitTestDrawList(const DrawList& list, const LaneLayout& layout,
                                             QPointF pos, double slackPx = 2.0);

/// A flow arrow in canvas coordinates (x canvas px, y content px).
struct FlowArrow {
  QPointF from;
  QPointF to;
  int flowIndex = -1;           ///< index into Trace::flows
  bool ofSelection = false;     ///< true for the selected slice's own flows
};

/// Arrows for the flows of rank `rank` to draw: those where `selected` is the `from` or the `to`
/// slice, plus every flow whose category is in `categories` (empty = none) overlapping `view`
/// (at most `maxArrows`). Flows whose time span does not overlap the view are culled; an end in a
/// collapsed process is drawn to that process's header row. O(flows) for the selection scan.
[[nodiscard]] std::vector<FlowArrow> buildFlowArrows(const core::Profile& profile,
                                                     const LaneLayout& layout, core::TimeRange view,
                                                     double widthPx, int rank,
                                                     core::SliceRef selected,
                                                     const QSet<QString>& categories,
                                                     std::size_t maxArrows = 2000);

/// Rect of one slice (exact, at least kMinBoxWidthPx wide) or an empty rect when its row is not
/// laid out. x may lie outside [0, widthPx].
[[nodiscard]] QRectF sliceRect(const core::Profile& profile, const LaneLayout& layout,
                               core::TimeRange view, double widthPx, int rank, core::SliceRef ref);

}  // namespace npuscope::widgets
