// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPoint>
#include <QWidget>
#include <cstdint>

#include "core/base/types.h"
#include "widgets/timeline/metatypes.h"
#include "widgets/timeline/draw_list.h"

class QPainter;
class QPainterPath;

namespace npuscope::widgets {

/// Fills a 7 px arrowhead at the end of `path` (its current position), pointing the way the path
/// arrives there (from its last control point or line start), or along `fallbackDir` (a unit
/// vector) when that is degenerate. Shared by the flow arrows and the dispatch-chain overlay.
void drawArrowHead(QPainter& p, const QPainterPath& path, const QColor& c, QPointF fallbackDir);

struct TimelineContext;

/// A bubble under the mouse (indexes into Profile::ranks, RankAnalysis::devices,
/// DeviceAnalysis::bubbles); bubble < 0 when none.
struct BubbleHit {
  int rank = -1;
  int device = -1;
  int bubble = -1;
};

/// The lane area of the timeline. Paints a cached DrawList (rebuilt only when the visible range,
/// size, scroll position or layout change), the selection/hover outlines, flow arrows and the
/// time selection. Handles navigation keys and the mouse (see ShortcutsDialog for the bindings):
/// wheel zooms at the cursor, Shift+wheel scrolls vertically, horizontal wheel pans, left-drag
/// pans, Shift+drag selects a time range, click selects a slice, hover shows a tooltip.
class LaneCanvas : public QWidget {
  Q_OBJECT

 public:
  explicit LaneCanvas(TimelineContext* ctx, QWidget* parent = nullptr);

  /// Paints the canvas into `p` over a `size` area at the origin (also used by renderToImage).
  void paintTo(QPainter& p, QSize size);
  /// The draw list for a canvas of `size` at the current state (cached).
  const DrawList& drawList(QSize size);
  /// The box at canvas position `pos` (widget px) or null.
  const DrawBox* boxAt(QPointF pos);
  /// The bubble band at canvas position `pos` (widget px) when no box is hit, or when `hitBox`
  /// is in an Overlap Analysis lane (timeline_overlays.cpp).
  [[nodiscard]] BubbleHit bubbleAt(QPointF pos, const DrawBox* hitBox);
  /// Forgets the cached draw list (call after the profile or layout changed).
  void invalidate();

  /// Zoom factor of one W/S key press (> 1).
  static constexpr double kKeyZoomFactor = 1.4;
  /// Fraction of the view panned by one A/D/Left/Right press (x4 with Shift).
  static constexpr double kKeyPanFraction = 0.15;

 signals:
  /// A click selected a slice (or cleared the selection: rank -1, invalid ref).
  void sliceClicked(int rankIndex, npuscope::core::SliceRef ref);
  void hoverChanged(int rankIndex, npuscope::core::SliceRef ref);
  /// A click landed in a bubble band (a gap of a device lane).
  void bubbleClicked(int rankIndex, int deviceIndex, int bubbleIndex);
  void scrollRequested(int dy);
  void scrollToRequested(int y);
  void shortcutsRequested();
  void zoomToSliceRequested();

 protected:
  void paintEvent(QPaintEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void leaveEvent(QEvent*) override;

 private:
  enum class Drag { None, Pending, Pan, Select };
  void updateHover(QPointF pos, QPoint globalPos);
  [[nodiscard]] double cursorXOrCenter() const;
  [[nodiscard]] QString tooltipFor(const DrawBox& box) const;
  [[nodiscard]] QString counterTooltip(int row, double x) const;
  void paintNameMarks(QPainter& p, const DrawList& list) const;

  TimelineContext* m_ctx;
  DrawList m_list;
  NameColorCache m_colors;
  FlowArrowIndex m_flowIndex;
  // Cache key of m_list.
  core::TimeRange m_listView;
  QSize m_listSize;
  int m_listScroll = -1;
  std::uint64_t m_listRevision = 0;
  bool m_listValid = false;

  Drag m_drag = Drag::None;
  QPointF m_pressPos;
  core::TimeRange m_pressView;
  int m_pressScroll = 0;
};

}  // namespace npuscope::widgets
