// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace npuscope::widgets {

struct TimelineContext;

/// Left column of the timeline: rank group headers, process headers with expand/collapse
/// triangles, and indented thread / counter names, scrolled in sync with the lane canvas
/// (TimelineContext::scrollY). Clicking a rank or process header toggles it.
class LaneHeader : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kDefaultWidth = 240;  ///< px

  explicit LaneHeader(TimelineContext* ctx, QWidget* parent = nullptr);
  /// Paints the header column into `p` over a `size` area (also used by renderToImage).
  void paintTo(QPainter& p, QSize size) const;
  [[nodiscard]] QSize sizeHint() const override { return {kDefaultWidth, 400}; }

 signals:
  /// The row `row` of the layout was clicked on a rank/process header (to toggle it).
  void toggleRequested(int row);
  /// Vertical scroll by `dy` px requested (wheel over the header).
  void scrollRequested(int dy);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  bool event(QEvent*) override;

 private:
  TimelineContext* m_ctx;
};

}  // namespace npuscope::widgets
