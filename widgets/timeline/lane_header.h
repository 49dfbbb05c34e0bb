// SPDX-License-Identifier: MIT
#pragma once

#include <QFontMetricsF>
#include <QHash>
#include <QRect>
#include <QStaticText>
#include <QWidget>
#include <vector>

#include "widgets/timeline/lane_layout.h"

namespace npuscope::widgets {

struct TimelineContext;

/// A sticky label as drawn: the layout row (its y and height as pinned, content px) and its
/// rectangle in the viewport (y 0 = the top of the lanes).
struct PinnedRow {
  LayoutRow row;
  QRect rect;
};

/// Draws `text` (laid out in the painter's font, whose metrics are `metrics`) where
/// QPainter::drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, the same text) draws it: its line,
/// ascent + descent tall, centred in `rect`, at the rect's left, clipped to `rect` when it does
/// not fit. Same pixels, without laying the text out again (test: "a kept header line is drawn
/// where drawText draws it": fonts, sizes, heights, Latin and CJK text, ratios 1 and 2). When the
/// painter scales to device pixels (a device pixel ratio other than 1), it calls drawText.
void drawStaticLine(QPainter& p, const QFontMetricsF& metrics, const QRect& rect, const QStaticText& text);

/// Left column of the timeline: rank group headers, process headers with expand/collapse
/// triangles, and indented thread / counter names, scrolled in sync with the lane canvas
/// (TimelineContext::scrollY). Clicking a rank or process header toggles it; clicking the name
/// of a deep lane (LaneLayout::kDeepLane) or its "+N levels" row folds / unfolds it. Sticky
/// labels: when the rank, process or lane header of the top row is scrolled above the
/// viewport, its name is drawn pinned at the top (pushed up by the next group's header); the
/// lane named is the one of the first row below the pinned rank and process labels.
class LaneHeader : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kDefaultWidth = 240;  ///< px

  explicit LaneHeader(TimelineContext* ctx, QWidget* parent = nullptr);
  /// Paints the header column into `p` over a `size` area (also used by renderToImage).
  void paintTo(QPainter& p, QSize size) const;
  /// The sticky labels at scroll position `scrollY`: the layout rows (a Rank, a Process and a
  /// Slices depth-0 row, in that order) whose names are pinned at the top, each only when its
  /// own row starts above the viewport or under the labels pinned before it. The process and
  /// the lane are those of the first row below the labels pinned before them, so a lane whose
  /// rows show under the pinned rank and process labels is named. Pure (tests).
  [[nodiscard]] static std::vector<int> stickyRows(const LaneLayout& layout, int scrollY);
  /// Where the stickyRows labels go in a viewport of `size` at `scrollY`, outer group first:
  /// stacked from the top, each pushed up by the end of its group. The lane canvas paints the
  /// rank and process strips across the lanes too (opaque), so that no other lane's slices
  /// show beside a pinned group name. Pure (tests).
  [[nodiscard]] static std::vector<PinnedRow> pinnedRows(const LaneLayout& layout, int scrollY, QSize size);
  [[nodiscard]] QSize sizeHint() const override { return {kDefaultWidth, 400}; }

 signals:
  /// The row `row` of the layout was clicked on a rank/process header (to toggle it).
  void toggleRequested(int row);
  /// The wheel over the header: move `step` ranks down (+) or up (-), one notch a rank (issue 42
  /// item 2: 200 notches crossed 10 ranks).
  void rankStepRequested(int step);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  bool event(QEvent*) override;

 private:
  int m_wheelRest = 0;  ///< angle delta not yet a whole notch (touchpads send small steps)
  struct Fonts;
  void paintRow(QPainter& p, const LayoutRow& r, const QRect& rect, int w, const Fonts& fonts) const;
  /// Draws `text` elided to `rect`'s width in font `which` of `fonts` (0 base, 1 bold, 2 small),
  /// vertically centred and left-aligned, as QPainter::drawText(rect, AlignVCenter | AlignLeft,
  /// elided text) would. The same rows are painted every frame: the elided text and its layout
  /// (a QStaticText) are kept per (font, width, text) and only drawn again. Returns the elided
  /// text's advance, px.
  qreal drawLine(QPainter& p, const Fonts& fonts, int which, const QRect& rect, const QString& text) const;
  TimelineContext* m_ctx;
  struct Line {
    QStaticText text;  ///< the elided text, laid out in its font
    qreal advance = 0;
    bool empty = true;
  };
  mutable QHash<QString, Line> m_lines;  ///< drawLine(): by font index, width and text
  mutable QString m_linesFontKey;        ///< QFont::key() of the base font m_lines was made with
};

}  // namespace npuscope::widgets
