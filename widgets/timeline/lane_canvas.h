// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPoint>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/types.h"
#include "widgets/timeline/metatypes.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/render_pass.h"
#include "widgets/view_state.h"

class QPainter;
class QPainterPath;

namespace npuscope::widgets {

struct TimelineContext;
class BubblesPass;
class ChainPass;
class NameMarksPass;

/// The lane area of the timeline. Paints the row backgrounds and the grid, then its render passes
/// in order (render_pass.h; by default the boxes, name marks, labels, counters, bubbles, chain,
/// hover, selection, flow arrows and time selection) over a cached DrawList (rebuilt only when
/// the visible range, size, scroll position or layout change). Handles navigation keys and the mouse (see ShortcutsDialog for the bindings):
/// the wheel scrolls vertically, Ctrl+wheel zooms at the cursor, Shift+wheel and the horizontal
/// wheel pan (or, with setWheelZooms(true), the wheel zooms and Shift+wheel scrolls), left-drag
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
  /// is in an Overlap Analysis lane (timeline_overlays.cpp); invalid when none.
  [[nodiscard]] BubbleRef bubbleAt(QPointF pos, const DrawBox* hitBox);
  /// Forgets the cached draw list (call after the profile or layout changed).
  void invalidate();

  /// The render passes, in paint order.
  [[nodiscard]] const std::vector<std::unique_ptr<TimelineRenderPass>>& renderPasses() const { return m_passes; }
  /// Inserts `pass` before the pass named `before` (appends when there is none, e.g. nullptr);
  /// returns it. The canvas owns it; call update() after changing its state.
  TimelineRenderPass* addRenderPass(std::unique_ptr<TimelineRenderPass> pass, const char* before = nullptr);
  /// The built-in overlays whose state the timeline sets.
  [[nodiscard]] BubblesPass* bubbles() const { return m_bubbles; }
  [[nodiscard]] ChainPass* chain() const { return m_chain; }
  [[nodiscard]] NameMarksPass* nameMarks() const { return m_nameMarks; }

  /// Whether the plain wheel zooms (npuscope's first binding; Shift+wheel then scrolls) instead
  /// of scrolling (the default, as the official viewer, Perfetto and chrome://tracing).
  /// Ctrl+wheel zooms either way.
  void setWheelZooms(bool on) { m_wheelZooms = on; }
  [[nodiscard]] bool wheelZooms() const { return m_wheelZooms; }

  /// Zoom factor of one W/S key press (> 1).
  static constexpr double kKeyZoomFactor = 1.4;
  /// Fraction of the view panned by one A/D/Left/Right press (x4 with Shift).
  static constexpr double kKeyPanFraction = 0.15;

  /// Handles a navigation key (W/S/A/D, arrows, Page, Home/End, Z) as a key press on the canvas
  /// would, without going through the application's event dispatch (MainWindow forwards its
  /// application-wide shortcuts here: a sent QKeyEvent would trigger the shortcut again).
  void handleNavigationKey(QKeyEvent* e) { keyPressEvent(e); }

 signals:
  /// A click selected a slice (or cleared the selection: an invalid ref).
  void sliceClicked(npuscope::widgets::RankSliceRef ref);
  void hoverChanged(npuscope::widgets::RankSliceRef ref);
  /// A click landed in a bubble band (a gap of a device lane).
  void bubbleClicked(npuscope::widgets::BubbleRef ref);
  void scrollRequested(int dy);
  void scrollToRequested(int y);
  /// Ctrl+Down / Ctrl+Up: the next or previous rank at the top (TimelineWidget::scrollByRanks).
  void rankStepRequested(int step);
  void shortcutsRequested();
  void zoomToSliceRequested();
  /// M (at the cursor) or the context menu: add a point marker at `t`, ns.
  void pointMarkerRequested(npuscope::core::TimeNs t);
  /// Shift+M or the context menu: add a range marker over the time selection.
  void rangeMarkerRequested();

 protected:
  void paintEvent(QPaintEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void leaveEvent(QEvent*) override;
  void contextMenuEvent(QContextMenuEvent*) override;

 private:
  enum class Drag { None, Pending, Pan, Select };
  void updateHover(QPointF pos, QPoint globalPos);
  [[nodiscard]] double cursorXOrCenter() const;
  [[nodiscard]] QString tooltipFor(const DrawBox& box) const;
  [[nodiscard]] QString counterTooltip(int row, double x) const;

  TimelineContext* m_ctx;
  DrawList m_list;
  NameColorCache m_colors;
  std::vector<std::unique_ptr<TimelineRenderPass>> m_passes;
  BubblesPass* m_bubbles = nullptr;
  ChainPass* m_chain = nullptr;
  NameMarksPass* m_nameMarks = nullptr;
  // Cache key of m_list.
  core::TimeRange m_listView;
  QSize m_listSize;
  int m_listScroll = -1;
  std::uint64_t m_listRevision = 0;
  bool m_listValid = false;

  bool m_wheelZooms = false;
  Drag m_drag = Drag::None;
  QPointF m_pressPos;
  core::TimeRange m_pressView;
  int m_pressScroll = 0;
};

}  // namespace npuscope::widgets
