// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/base/ticks.h"
#include "core/base/types.h"

namespace npuscope::widgets {

struct TimelineContext;

/// Ruler ticks for `view` drawn over `widthPx`, aligned to round values *relative to* `origin`
/// (the profile start), returned in absolute ns like core::computeTicks.
[[nodiscard]] core::Ticks relativeTicks(core::TimeRange view, double widthPx, core::TimeNs origin);

/// The time ruler above the lane canvas: major ticks labelled with core::formatTickLabel relative
/// to the profile start, minor ticks, the time selection shaded with its duration, and, when
/// there are markers, a band on top with their names (paintRulerMarkers). Dragging
/// on the ruler selects a time range; a click without drag clears it; the wheel zooms.
class TimeRuler : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kHeight = 30;  ///< px of the ticks and their labels (the ruler without markers)

  explicit TimeRuler(TimelineContext* ctx, QWidget* parent = nullptr);
  /// Paints the ruler into `p` over a `size` area at the origin (also used by renderToImage).
  /// The ticks and their labels take the bottom kHeight px; a taller ruler (markerBandHeight())
  /// has a marker band on top where the markers' names go, so they never hide a tick label.
  void paintTo(QPainter& p, QSize size) const;
  /// Height of the band above the ticks where marker names are drawn: one line of the ruler's
  /// font (0.9 of the widget font) plus 3 px.
  [[nodiscard]] int markerBandHeight() const;
  /// The ruler's height: kHeight, plus markerBandHeight() while the timeline has markers.
  [[nodiscard]] int preferredHeight() const;
  /// Sets the fixed height to preferredHeight() (after the markers change).
  void updateHeight();
  [[nodiscard]] QSize sizeHint() const override { return {400, preferredHeight()}; }

 signals:
  void wheelZoom(double x, double factor);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;

 private:
  TimelineContext* m_ctx;
  double m_pressX = -1;
  bool m_dragging = false;
};

}  // namespace npuscope::widgets
