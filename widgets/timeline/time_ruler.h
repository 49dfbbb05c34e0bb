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

/// The time ruler above the lane canvas: major ticks labelled with core::formatDuration relative
/// to the profile start, minor ticks, and the time selection shaded with its duration. Dragging
/// on the ruler selects a time range; a click without drag clears it; the wheel zooms.
class TimeRuler : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kHeight = 30;  ///< px

  explicit TimeRuler(TimelineContext* ctx, QWidget* parent = nullptr);
  /// Paints the ruler into `p` over a `size` area at the origin (also used by renderToImage).
  void paintTo(QPainter& p, QSize size) const;
  [[nodiscard]] QSize sizeHint() const override { return {400, kHeight}; }

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
