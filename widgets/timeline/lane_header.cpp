// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_header.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>

#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/timeline_context.h"

namespace npuscope::widgets {

namespace {

constexpr int kIndentRank = 6;
constexpr int kIndentProcess = 16;
constexpr int kIndentLane = 34;

void drawTriangle(QPainter& p, QPointF c, bool expanded, QColor color) {
  QPainterPath path;
  const double s = 4.0;
  if (expanded) {
    path.moveTo(c.x() - s, c.y() - s / 2);
    path.lineTo(c.x() + s, c.y() - s / 2);
    path.lineTo(c.x(), c.y() + s / 2 + 1);
  } else {
    path.moveTo(c.x() - s / 2, c.y() - s);
    path.lineTo(c.x() + s / 2 + 1, c.y());
    path.lineTo(c.x() - s / 2, c.y() + s);
  }
  path.closeSubpath();
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  p.fillPath(path, color);
  p.restore();
}

}  // namespace

LaneHeader::LaneHeader(TimelineContext* ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFixedWidth(kDefaultWidth);
  setMouseTracking(false);
}

void drawStaticLine(QPainter& p, const QFontMetricsF& metrics, const QRect& rect, const QStaticText& text) {
  // Scaled to device pixels (a device pixel ratio of 2), the static layout placed CJK glyphs
  // differently from drawText (Qt 6.4, 9 pt): draw those with drawText itself.
  if (p.deviceTransform().type() > QTransform::TxTranslate) {
    p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, text.text());
    return;
  }
  // qt_format_text lays drawText's one line out ascent + descent tall, centres that height, and
  // clips to the rect when the line does not fit in it.
  const qreal height = metrics.ascent() + metrics.descent();
  const QPointF topLeft(rect.x(), rect.y() + (rect.height() - height) / 2);
  if (text.size().width() <= rect.width() && height <= rect.height()) {
    p.drawStaticText(topLeft, text);
    return;
  }
  p.save();
  p.setClipRect(rect, Qt::IntersectClip);
  p.drawStaticText(topLeft, text);
  p.restore();
}

/// The header's three fonts and their metrics, made once per paint.
struct LaneHeader::Fonts {
  QFont fonts[3];  ///< base, bold, small
  QFontMetricsF metrics[3];
  explicit Fonts(const QFont& f)
      : fonts{f, withBold(f), scaled(f, 0.92)}, metrics{QFontMetricsF(fonts[0]), QFontMetricsF(fonts[1]), QFontMetricsF(fonts[2])} {}
  static QFont withBold(QFont f) {
    f.setBold(true);
    return f;
  }
  static QFont scaled(QFont f, double k) {
    f.setPointSizeF(f.pointSizeF() * k);
    return f;
  }
};

qreal LaneHeader::drawLine(QPainter& p, const Fonts& fonts, int which, const QRect& rect, const QString& text) const {
  QString key = QString::number(which) + QLatin1Char('/') + QString::number(rect.width()) + QLatin1Char('/') + text;
  auto it = m_lines.find(key);
  if (it == m_lines.end()) {
    if (m_lines.size() > 4096) m_lines.clear();  // a few per row of the layout: stays small
    Line line;
    const QString el = QFontMetrics(fonts.fonts[which]).elidedText(text, Qt::ElideRight, rect.width());
    line.empty = el.isEmpty();
    line.advance = QFontMetrics(fonts.fonts[which]).horizontalAdvance(el);
    line.text = QStaticText(el);
    line.text.setTextFormat(Qt::PlainText);
    line.text.prepare(QTransform(), fonts.fonts[which]);
    it = m_lines.insert(std::move(key), std::move(line));
  }
  if (it->empty) return 0;
  p.setFont(fonts.fonts[which]);
  drawStaticLine(p, fonts.metrics[which], rect, it->text);
  return it->advance;
}

void LaneHeader::paintTo(QPainter& p, QSize size) const {
  const Fonts fonts(font());
  // The kept lines were laid out in the fonts of their time.
  if (const QString key = fonts.fonts[0].key(); key != m_linesFontKey) {
    m_lines.clear();
    m_linesFontKey = key;
  }
  const QRect all(QPoint(0, 0), size);
  p.fillRect(all, QColor::fromRgb(ColorPalette::chrome().headerBackground));
  const LaneLayout& layout = m_ctx->layout;
  const auto& rows = layout.rows();
  const int sy = m_ctx->scrollY;
  const auto [r0, r1] = layout.rowsIn(sy, sy + size.height());
  const int w = size.width();
  for (int i = r0; i < r1; ++i) {
    const LayoutRow& r = rows[static_cast<std::size_t>(i)];
    paintRow(p, r, QRect(0, r.y - sy, w, r.height), w, fonts);
  }
  // Sticky labels (pinnedRows): painted inner first, so that a lane pushed up slides under its
  // process's and rank's labels instead of over them.
  const std::vector<PinnedRow> pinnedRows = LaneHeader::pinnedRows(layout, sy, size);
  for (auto it = pinnedRows.rbegin(); it != pinnedRows.rend(); ++it) {
    if (it->row.kind == LayoutRow::Kind::Slices) {
      p.fillRect(it->rect, QColor::fromRgb(ColorPalette::chrome().headerBackground));
      p.fillRect(QRect(0, it->rect.bottom(), w, 1), QColor::fromRgb(ColorPalette::chrome().grid));
    }
    paintRow(p, it->row, it->rect, w, fonts);
  }
  p.setPen(QColor::fromRgb(ColorPalette::chrome().separator));
  p.drawLine(w - 1, 0, w - 1, size.height());
}

void LaneHeader::paintRow(QPainter& p, const LayoutRow& r, const QRect& rect, int w, const Fonts& fonts) const {
  const LaneLayout& layout = m_ctx->layout;
  const int sy = m_ctx->scrollY;
  {
    QString title = layout.rowTitle(r);
    switch (r.kind) {
      case LayoutRow::Kind::Rank: {
        p.fillRect(rect, QColor::fromRgb(ColorPalette::chrome().rankHeader));
        p.setPen(QColor::fromRgb(ColorPalette::chrome().separator));
        p.drawLine(rect.left(), rect.top(), rect.right(), rect.top());
        drawTriangle(p, QPointF(kIndentRank + 5, rect.center().y() + 0.5), r.expanded,
                     QColor::fromRgb(ColorPalette::chrome().text));
        p.setPen(QColor::fromRgb(ColorPalette::chrome().text));
        drawLine(p, fonts, 1, rect.adjusted(kIndentRank + 14, 0, -6, 0), title);
        break;
      }
      case LayoutRow::Kind::Process: {
        p.fillRect(rect, QColor::fromRgb(ColorPalette::chrome().processHeader));
        p.setPen(QColor::fromRgb(ColorPalette::chrome().grid));
        p.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom());
        drawTriangle(p, QPointF(kIndentProcess + 5, rect.center().y() + 0.5), r.expanded,
                     QColor::fromRgb(ColorPalette::chrome().textDim));
        // Process label ("NPU 0") in dim text after the name.
        const auto& t = m_ctx->profile->ranks[static_cast<std::size_t>(r.rank)].trace;
        QString label;
        if (t && r.process < t->processes.size() && !t->processes[r.process].label.empty())
          label = QString::fromStdString(t->processes[r.process].label);
        p.setPen(QColor::fromRgb(ColorPalette::chrome().text));
        const QRect tr = rect.adjusted(kIndentProcess + 14, 0, -6, 0);
        const qreal advance = drawLine(p, fonts, 1, tr, title);
        if (!label.isEmpty()) {
          const int used = static_cast<int>(advance) + 6;
          if (used < tr.width() - 20) {
            p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
            drawLine(p, fonts, 2, tr.adjusted(used, 0, 0, 0), label);
          }
        }
        break;
      }
      case LayoutRow::Kind::Slices:
      case LayoutRow::Kind::Counter: {
        const bool first = r.kind == LayoutRow::Kind::Counter || r.depth == 0;
        p.fillRect(rect, QColor::fromRgb(r.band ? ColorPalette::chrome().backgroundAlt : ColorPalette::chrome().background));
        if (r.hiddenDepths > 0) {
          // The last shown row of a folded deep lane: how much is hidden, click to unfold.
          p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
          const QRect tr(kIndentLane, rect.top(), w - kIndentLane - 6, m_ctx->layout.metrics().sliceRow);
          drawLine(p, fonts, 2, tr, LaneHeader::tr("+%1 more levels").arg(r.hiddenDepths));
        }
        if (r.foldable)
          drawTriangle(p, QPointF(kIndentLane - 9, rect.top() + m_ctx->layout.metrics().sliceRow / 2.0 + 0.5),
                       r.expanded, QColor::fromRgb(ColorPalette::chrome().textDim));
        if (!first) break;
        p.setPen(QColor::fromRgb(r.kind == LayoutRow::Kind::Counter ? ColorPalette::chrome().textDim : ColorPalette::chrome().text));
        const int h = r.kind == LayoutRow::Kind::Counter ? r.height : m_ctx->layout.metrics().sliceRow;
        drawLine(p, fonts, 0, QRect(kIndentLane, r.y - sy, w - kIndentLane - 6, h), title);
        break;
      }
    }
  }
}

std::vector<PinnedRow> LaneHeader::pinnedRows(const LaneLayout& layout, int scrollY, QSize size) {
  // The groups the top row belongs to, pinned at the top, each pushed up by the end of its
  // group, outer group first.
  std::vector<PinnedRow> out;
  const auto& rows = layout.rows();
  const auto [r0, r1] = layout.rowsIn(scrollY, scrollY + size.height());
  int top = 0;
  for (const int i : stickyRows(layout, scrollY)) {
    const LayoutRow& r = rows[static_cast<std::size_t>(i)];
    const int h = r.kind == LayoutRow::Kind::Slices ? layout.metrics().sliceRow : r.height;
    // The end of the group: the next row of the same kind or a higher one.
    int end = layout.totalHeight();
    // Rows between the header and the top row belong to the group: start at the top row.
    for (auto j = static_cast<std::size_t>(std::max(i + 1, r0)); j < rows.size(); ++j) {
      const LayoutRow& n = rows[j];
      const bool ends = r.kind == LayoutRow::Kind::Rank      ? n.kind == LayoutRow::Kind::Rank
                        : r.kind == LayoutRow::Kind::Process ? n.kind != LayoutRow::Kind::Slices && n.kind != LayoutRow::Kind::Counter
                                                             : n.lane != r.lane || n.kind != LayoutRow::Kind::Slices;
      if (ends) {
        end = n.y;
        break;
      }
      if (n.y > scrollY + size.height()) break;
    }
    const int y = std::min(top, end - scrollY - h);
    LayoutRow pinned = r;
    pinned.y = y + scrollY;
    pinned.height = h;
    out.push_back({pinned, QRect(0, y, size.width(), h)});
    top = y + h;
  }
  return out;
}

std::vector<int> LaneHeader::stickyRows(const LaneLayout& layout, int scrollY) {
  std::vector<int> out;
  const int top = layout.rowAt(scrollY);
  if (top < 0) return out;
  const auto& rows = layout.rows();
  // The rank and process headers above the top row, and the first row of a lane of that process
  // whose row starts above the viewport.
  const auto groupsOf = [&](int from, int& rankRow, int& processRow, int& laneRow) {
    rankRow = processRow = laneRow = -1;
    const LayoutRow& t = rows[static_cast<std::size_t>(from)];
    for (int i = from; i >= 0; --i) {
      const LayoutRow& r = rows[static_cast<std::size_t>(i)];
      if (r.rank != t.rank) break;
      if (r.kind == LayoutRow::Kind::Rank) {
        rankRow = i;
        break;
      }
      if (r.kind == LayoutRow::Kind::Process && processRow < 0) processRow = i;
      if (r.kind == LayoutRow::Kind::Slices && t.kind == LayoutRow::Kind::Slices && r.lane == t.lane &&
          r.depth == 0 && processRow < 0)
        laneRow = i;
    }
  };
  int rankRow = -1, processRow = -1, laneRow = -1;
  groupsOf(top, rankRow, processRow, laneRow);
  // Only the headers whose own row starts above the viewport (the others are visible as is).
  const auto above = [&](int i, int y) { return i >= 0 && rows[static_cast<std::size_t>(i)].y < y; };
  int covered = 0;
  if (above(rankRow, scrollY)) {
    out.push_back(rankRow);
    covered = rows[static_cast<std::size_t>(rankRow)].height;
    // The rank's pinned label covers the rows under it: the process to name is the one of the
    // first row below it (its header may be hidden under the label too).
    const int below = layout.rowAt(scrollY + covered);
    int rank2 = -1, process2 = -1, lane2 = -1;
    if (below >= 0) groupsOf(below, rank2, process2, lane2);
    if (rank2 == rankRow && process2 >= 0 && process2 != processRow) {
      processRow = process2;
      laneRow = lane2;
    }
  }
  if (above(processRow, scrollY + covered)) {
    out.push_back(processRow);
    covered += rows[static_cast<std::size_t>(processRow)].height;
  }
  // Likewise the lane to name is the one of the first row below the pinned labels (when it
  // belongs to the same process), else the top row's.
  if (covered > 0) {
    const int below = layout.rowAt(scrollY + covered);
    int rank2 = -1, process2 = -1, lane2 = -1;
    if (below >= 0) groupsOf(below, rank2, process2, lane2);
    if (lane2 >= 0 && process2 == processRow && rank2 == rankRow && above(lane2, scrollY + covered)) laneRow = lane2;
  }
  if (above(laneRow, scrollY + covered)) out.push_back(laneRow);
  return out;
}

void LaneHeader::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintTo(p, size());
}

void LaneHeader::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const int row = m_ctx->layout.rowAt(e->position().y() + m_ctx->scrollY);
  if (row < 0) return;
  const LayoutRow& r = m_ctx->layout.rows()[static_cast<std::size_t>(row)];
  if (r.kind == LayoutRow::Kind::Rank || r.kind == LayoutRow::Kind::Process || r.foldable) {
    emit toggleRequested(row);
  } else if (r.hiddenDepths > 0) {
    emit toggleRequested(row - static_cast<int>(r.depth));  // the lane's first row folds it
  }
}

void LaneHeader::wheelEvent(QWheelEvent* e) {
  // Over the rank and lane names a notch moves a whole rank; over the lanes the wheel scrolls by
  // rows as elsewhere (LaneCanvas::wheelEvent).
  const int dy = e->angleDelta().y() != 0 ? e->angleDelta().y() : e->angleDelta().x();
  m_wheelRest += dy;
  const int notches = m_wheelRest / 120;
  m_wheelRest -= notches * 120;
  if (notches != 0) emit rankStepRequested(-notches);
  e->accept();
}

bool LaneHeader::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const int row = m_ctx->layout.rowAt(he->pos().y() + m_ctx->scrollY);
    if (row >= 0) {
      const LayoutRow& r = m_ctx->layout.rows()[static_cast<std::size_t>(row)];
      QString tip = m_ctx->layout.rowTitle(r);
      const auto& t = m_ctx->profile->ranks[static_cast<std::size_t>(r.rank)].trace;
      if (t && r.kind == LayoutRow::Kind::Process && r.process < t->processes.size()) {
        const auto& pr = t->processes[r.process];
        tip += QStringLiteral("\npid ") + (pr.pidText.empty() ? QString::number(pr.pid) : QString::fromStdString(pr.pidText));
        tip += r.expanded ? tr("\nclick to collapse") : tr("\nclick to expand");
      } else if (t && r.kind == LayoutRow::Kind::Slices && r.lane < t->lanes.size()) {
        const auto& l = t->lanes[r.lane];
        tip += QStringLiteral("\ntid ") + (l.tidText.empty() ? QString::number(l.tid) : QString::fromStdString(l.tidText)) +
               tr(" · %1 slices · depth %2").arg(l.sliceCount()).arg(l.depthCount());
        if (r.foldable || r.hiddenDepths > 0)
          tip += r.expanded ? tr("\nclick to fold to %1 rows").arg(LaneLayout::kFoldedRows)
                            : tr("\nclick to show every level");
      } else if (t && r.kind == LayoutRow::Kind::Rank) {
        tip += QStringLiteral("\n") + QString::fromStdString(t->path);
      }
      QToolTip::showText(he->globalPos(), tip, this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace npuscope::widgets
