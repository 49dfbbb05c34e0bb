// SPDX-License-Identifier: MIT
#include "widgets/timeline/time_ruler.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/query/lod.h"
#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/markers.h"
#include "widgets/timeline/timeline_context.h"
#include "widgets/timeline/timeline_viewport.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

core::Ticks relativeTicks(TimeRange view, double widthPx, TimeNs origin) {
  core::Ticks t = core::computeTicks({view.start - origin, view.end - origin}, widthPx, 90.0);
  for (auto& v : t.major) v += origin;
  for (auto& v : t.minor) v += origin;
  return t;
}

TimeRuler::TimeRuler(TimelineContext* ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFixedHeight(preferredHeight());
  setCursor(Qt::IBeamCursor);
  setToolTip(tr("Drag to select a time range (Shift+Z zooms to it)"));
}

int TimeRuler::markerBandHeight() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  return QFontMetrics(f).height() + 3;
}

int TimeRuler::preferredHeight() const {
  return kHeight + (m_ctx->markers && m_ctx->markers->size() > 0 ? markerBandHeight() : 0);
}

void TimeRuler::updateHeight() {
  if (height() != preferredHeight() || minimumHeight() != preferredHeight()) setFixedHeight(preferredHeight());
}

void TimeRuler::paintTo(QPainter& p, QSize size) const {
  const QRect all(QPoint(0, 0), size);
  p.fillRect(all, QColor::fromRgb(ColorPalette::chrome().headerBackground));
  p.setPen(QColor::fromRgb(ColorPalette::chrome().separator));
  p.drawLine(0, size.height() - 1, size.width(), size.height() - 1);
  const TimeRange view = m_ctx->viewport->visibleRange();
  const double w = size.width();
  if (view.empty() || w <= 0) return;
  const TimeNs origin = m_ctx->origin();

  // Time selection: shaded band with its duration.
  const TimeRange sel = m_ctx->viewport->selection();
  if (!sel.empty()) {
    const double x0 = std::clamp(core::timeToX(sel.start, view, w), -2.0, w + 2);
    const double x1 = std::clamp(core::timeToX(sel.end, view, w), -2.0, w + 2);
    QColor band = QColor::fromRgb(ColorPalette::chrome().selection);
    band.setAlpha(45);
    p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), size.height() - 1), band);
  }

  const core::Ticks ticks = relativeTicks(view, w, origin);
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  p.setFont(f);
  // The marker band: the rows above the ticks' kHeight (none when the ruler is kHeight tall).
  const int band = std::max(0, size.height() - kHeight);
  if (m_ctx->markers) {
    paintRulerMarkers(p, *m_ctx->markers, view, size, band);
    p.setFont(f);
  }
  const QFontMetricsF fm(f);
  p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
  for (TimeNs t : ticks.minor) {
    const double x = std::round(core::timeToX(t, view, w)) + 0.5;
    p.drawLine(QPointF(x, size.height() - 5), QPointF(x, size.height() - 1));
  }
  double labelEnd = -1e9;  // right end of the last tick label drawn
  for (TimeNs t : ticks.major) {
    const double x = std::round(core::timeToX(t, view, w)) + 0.5;
    p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
    p.drawLine(QPointF(x, size.height() - 11), QPointF(x, size.height() - 1));
    p.setPen(QColor::fromRgb(ColorPalette::chrome().text));
    const QString label = QString::fromStdString(core::formatTickLabel(t - origin, ticks.majorStep));
    // Right of its tick; at the right edge, where it would be cut, left of it (or not at all
    // when that would overlap the previous label).
    const double lw = fm.horizontalAdvance(label);
    const double lx = x + 4 + lw <= w ? x + 4 : x - 4 - lw;
    if (lx < labelEnd + 4) continue;
    p.drawText(QPointF(lx, size.height() - 13 - fm.descent()), label);
    labelEnd = lx + lw;
  }

  if (!sel.empty()) {
    const double x0 = core::timeToX(sel.start, view, w);
    const double x1 = core::timeToX(sel.end, view, w);
    const QString d = QString::fromStdString(core::formatDuration(sel.duration()));
    QFont bf = f;
    bf.setBold(true);
    p.setFont(bf);
    const QFontMetricsF bfm(bf);
    const double tw = bfm.horizontalAdvance(d) + 10;
    double cx = (std::max(x0, 0.0) + std::min(x1, w)) / 2 - tw / 2;
    cx = std::clamp(cx, 0.0, std::max(0.0, w - tw));
    const QRectF box(cx, band + 2, tw, bfm.height() + 2);
    p.fillRect(box, QColor::fromRgb(ColorPalette::chrome().selection));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, d);
    p.setPen(QColor::fromRgb(ColorPalette::chrome().selection));
    if (x0 >= 0 && x0 <= w) p.drawLine(QPointF(x0, 0), QPointF(x0, size.height()));
    if (x1 >= 0 && x1 <= w) p.drawLine(QPointF(x1, 0), QPointF(x1, size.height()));
  }
}

void TimeRuler::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintTo(p, size());
}

void TimeRuler::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  m_pressX = e->position().x();
  m_dragging = false;
}

void TimeRuler::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton) || m_pressX < 0) return;
  const double x = e->position().x();
  if (!m_dragging && std::abs(x - m_pressX) < 3) return;
  m_dragging = true;
  const TimeRange view = m_ctx->viewport->visibleRange();
  const TimeNs a = core::xToTime(m_pressX, view, width());
  const TimeNs b = core::xToTime(x, view, width());
  m_ctx->viewport->setSelection({std::min(a, b), std::max(a, b)});
}

void TimeRuler::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  if (!m_dragging) m_ctx->viewport->clearSelection();
  m_pressX = -1;
  m_dragging = false;
}

void TimeRuler::wheelEvent(QWheelEvent* e) {
  const int dy = e->angleDelta().y();
  if (dy != 0) emit wheelZoom(e->position().x(), std::pow(1.0015, dy));
  e->accept();
}

}  // namespace npuscope::widgets
