// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <vector>

#include "core/base/types.h"
#include "widgets/timeline/metatypes.h"

namespace npuscope::widgets {

/// Horizontal zoom / pan / time-selection state of a timeline, separate from painting
/// (Qt Creator's TimelineZoomControl + Hotspot's zoom stack). All times are absolute int64 ns,
/// ranges half-open [start, end).
///
/// Invariants after every call, once a non-empty trace range is set:
///  * visibleRange().duration() >= kMinVisibleNs (100 ns);
///  * visibleRange() lies inside the trace range widened by kMarginFraction of its duration
///    on each side (the view may never drift away from the data).
/// With an empty trace range the viewport is empty and every operation is a no-op.
class TimelineViewport : public QObject {
  Q_OBJECT

 public:
  /// Smallest visible duration, ns.
  static constexpr core::TimeNs kMinVisibleNs = 100;
  /// Allowed overscroll beyond each trace edge, as a fraction of the trace duration.
  static constexpr double kMarginFraction = 0.05;

  explicit TimelineViewport(QObject* parent = nullptr);

  /// Sets the data extent, clears the history and the selection, and fits all.
  void setTraceRange(core::TimeRange range);
  [[nodiscard]] core::TimeRange traceRange() const { return m_trace; }
  /// The trace range widened by the margins: the hard limit of visibleRange().
  [[nodiscard]] core::TimeRange limitRange() const;
  [[nodiscard]] core::TimeRange visibleRange() const { return m_visible; }
  /// The time selection; empty() when there is none.
  [[nodiscard]] core::TimeRange selection() const { return m_selection; }
  [[nodiscard]] bool hasSelection() const { return !m_selection.empty(); }

  /// Sets the visible range (clamped). When `recordHistory`, the previous range can be restored
  /// with undoZoom().
  void setVisibleRange(core::TimeRange range, bool recordHistory = true);
  /// Zooms keeping `anchor` at the same relative position of the view. factor > 1 zooms in (the
  /// visible duration is divided by factor), factor < 1 zooms out. Consecutive zoomAt calls
  /// coalesce into one history entry, so one undo reverts a whole wheel/key zoom gesture.
  void zoomAt(core::TimeNs anchor, double factor);
  /// Shifts the view by `ns` (positive = later), clamped to the limits. Not recorded in history.
  void panBy(core::TimeNs ns);
  /// Shows the whole trace (recorded in history).
  void fitAll();
  /// Zooms to the time selection (recorded); no-op without a selection.
  void zoomToSelection();
  /// Restores the range before the last zoom; returns false when the history is empty.
  bool undoZoom();
  [[nodiscard]] bool canUndo() const { return !m_history.empty(); }
  [[nodiscard]] std::size_t historySize() const { return m_history.size(); }

  /// Sets (or, with an empty range, clears) the time selection. Not clamped to the view.
  void setSelection(core::TimeRange range);
  void clearSelection() { setSelection({}); }

 signals:
  void visibleRangeChanged(npuscope::core::TimeRange range);
  void selectionChanged(npuscope::core::TimeRange range);

 private:
  [[nodiscard]] core::TimeRange clamp(core::TimeRange r) const;
  void apply(core::TimeRange r);
  void pushHistory();

  core::TimeRange m_trace;
  core::TimeRange m_visible;
  core::TimeRange m_selection;
  std::vector<core::TimeRange> m_history;
  bool m_inZoomGesture = false;
};

}  // namespace npuscope::widgets
