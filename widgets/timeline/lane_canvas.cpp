// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_canvas.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/query/lod.h"
#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_header.h"
#include "widgets/timeline/render_passes.h"
#include "widgets/timeline/time_ruler.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_context.h"
#include "widgets/timeline/timeline_viewport.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString dur(TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }

}  // namespace

LaneCanvas::LaneCanvas(TimelineContext* ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(100, 60);
  // The default passes, in paint order (render_passes.h, timeline_overlays.h).
  addRenderPass(std::make_unique<BoxesPass>());
  m_nameMarks = static_cast<NameMarksPass*>(addRenderPass(std::make_unique<NameMarksPass>()));
  addRenderPass(std::make_unique<LabelsPass>());
  addRenderPass(std::make_unique<CountersPass>());
  m_bubbles = static_cast<BubblesPass*>(addRenderPass(std::make_unique<BubblesPass>()));
  m_chain = static_cast<ChainPass*>(addRenderPass(std::make_unique<ChainPass>()));
  addRenderPass(std::make_unique<HoverPass>());
  addRenderPass(std::make_unique<SelectionPass>());
  addRenderPass(std::make_unique<FlowArrowsPass>());
  addRenderPass(std::make_unique<TimeSelectionPass>());
}

TimelineRenderPass* LaneCanvas::addRenderPass(std::unique_ptr<TimelineRenderPass> pass, const char* before) {
  auto at = m_passes.end();
  if (before) {
    const std::string_view name(before);
    at = std::find_if(m_passes.begin(), m_passes.end(), [&](const auto& p) { return name == p->name(); });
  }
  TimelineRenderPass* raw = pass.get();
  m_passes.insert(at, std::move(pass));
  update();
  return raw;
}

void LaneCanvas::invalidate() {
  m_listValid = false;
  update();
}

const DrawList& LaneCanvas::drawList(QSize size) {
  const TimeRange view = m_ctx->viewport->visibleRange();
  if (m_listValid && m_listView == view && m_listSize == size && m_listScroll == m_ctx->scrollY &&
      m_listRevision == m_ctx->layout.revision())
    return m_list;
  if (m_ctx->profile) {
    DrawParams params;
    params.view = view;
    params.widthPx = size.width();
    params.yTop = m_ctx->scrollY;
    params.yBottom = m_ctx->scrollY + size.height();
    params.font = font();
    params.colors = &m_colors;
    buildDrawList(*m_ctx->profile, m_ctx->layout, params, m_list);
  } else {
    m_list = {};
  }
  m_listView = view;
  m_listSize = size;
  m_listScroll = m_ctx->scrollY;
  m_listRevision = m_ctx->layout.revision();
  m_listValid = true;
  return m_list;
}

const DrawBox* LaneCanvas::boxAt(QPointF pos) {
  const DrawList& list = drawList(size());
  return hitTestDrawList(list, m_ctx->layout, QPointF(pos.x(), pos.y() + m_ctx->scrollY), 2.0);
}

void LaneCanvas::paintTo(QPainter& p, QSize size) {
  const QRect all(QPoint(0, 0), size);
  const QColor background = QColor::fromRgb(ColorPalette::chrome().background);
  if (!m_ctx->profile) {
    p.fillRect(all, background);
    p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
    p.drawText(all, Qt::AlignCenter, tr("No profile loaded"));
    return;
  }
  p.setRenderHint(QPainter::Antialiasing, false);
  const TimeRange view = m_ctx->viewport->visibleRange();
  const double w = size.width();
  const int sy = m_ctx->scrollY;
  const DrawList& list = drawList(size);
  const LaneLayout& layout = m_ctx->layout;
  const auto& rows = layout.rows();
  const double dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
  const double onePx = 1.0 / std::max(1.0, dpr);

  // Row backgrounds, each pixel filled once (the colours are opaque): every row in its own colour,
  // top to bottom, and the background in the gaps between rows and below the last one.
  const auto [r0, r1] = layout.rowsIn(sy, sy + size.height());
  int filledTo = 0;  // canvas y above which the gaps are filled
  for (int i = r0; i < r1; ++i) {
    const LayoutRow& r = rows[static_cast<std::size_t>(i)];
    const QRect rect(0, r.y - sy, size.width(), r.height);
    if (rect.top() > filledTo) p.fillRect(QRect(0, filledTo, size.width(), rect.top() - filledTo), background);
    filledTo = std::max(filledTo, rect.bottom() + 1);
    switch (r.kind) {
      case LayoutRow::Kind::Rank:
        p.fillRect(rect, QColor::fromRgb(ColorPalette::chrome().rankHeader));
        p.fillRect(QRect(0, rect.top(), size.width(), 1), QColor::fromRgb(ColorPalette::chrome().separator));
        break;
      case LayoutRow::Kind::Process:
        p.fillRect(rect, QColor::fromRgb(ColorPalette::chrome().processHeader));
        p.fillRect(QRect(0, rect.bottom(), size.width(), 1), QColor::fromRgb(ColorPalette::chrome().grid));
        break;
      default:
        p.fillRect(rect, r.band ? QColor::fromRgb(ColorPalette::chrome().backgroundAlt) : background);
        break;
    }
  }
  if (filledTo < size.height()) p.fillRect(QRect(0, filledTo, size.width(), size.height() - filledTo), background);
  // Vertical grid at the ruler's major ticks.
  const core::Ticks ticks = relativeTicks(view, w, m_ctx->origin());
  QColor grid = QColor::fromRgb(ColorPalette::chrome().grid);
  for (TimeNs t : ticks.major) {
    const double x = std::round(core::timeToX(t, view, w));
    p.fillRect(QRectF(x, 0, onePx, size.height()), grid);
  }
  // Trace extent: dim the area outside the profile's range.
  const TimeRange pr = m_ctx->profile->range();
  {
    QColor outside(0, 0, 0, 10);
    const double xs = core::timeToX(pr.start, view, w), xe = core::timeToX(pr.end, view, w);
    if (xs > 0) p.fillRect(QRectF(0, 0, std::min(xs, w), size.height()), outside);
    if (xe < w) p.fillRect(QRectF(std::max(xe, 0.0), 0, w - std::max(xe, 0.0), size.height()), outside);
  }

  // The passes; consecutive Content passes share one translation, as one painter state.
  const TimelineFrame frame{*m_ctx, *m_ctx->profile, list, view, size, w, sy, onePx, font()};
  bool translated = false;
  for (const auto& pass : m_passes) {
    const bool content = pass->space() == TimelineRenderPass::Space::Content;
    if (content && !translated) {
      p.save();
      p.translate(0, -sy);
      translated = true;
    } else if (!content && translated) {
      p.restore();
      translated = false;
    }
    pass->paint(p, frame);
  }
  if (translated) p.restore();
  // The pinned rank and process labels of the header column (LaneHeader::pinnedRows) continue
  // across the lanes as opaque strips: no other lane's slices show in a group's title row.
  for (const PinnedRow& pin : LaneHeader::pinnedRows(layout, sy, size)) {
    const QRect band(0, pin.rect.top(), size.width(), pin.rect.height());
    if (pin.row.kind == LayoutRow::Kind::Rank) {
      p.fillRect(band, QColor::fromRgb(ColorPalette::chrome().rankHeader));
      p.fillRect(QRect(0, band.top(), size.width(), 1), QColor::fromRgb(ColorPalette::chrome().separator));
    } else if (pin.row.kind == LayoutRow::Kind::Process) {
      p.fillRect(band, QColor::fromRgb(ColorPalette::chrome().processHeader));
      p.fillRect(QRect(0, band.bottom(), size.width(), 1), QColor::fromRgb(ColorPalette::chrome().grid));
    }
  }
  // A profile of CSV/JSON tables only (no trace in any rank): say why the lanes are empty.
  const auto& ranks = m_ctx->profile->ranks;
  if (!ranks.empty() && std::none_of(ranks.begin(), ranks.end(), [](const core::RankProfile& r) { return r.trace; })) {
    const int top = std::max(0, layout.totalHeight() - sy) + 24;
    p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
    p.drawText(QRect(24, top, std::max(0, size.width() - 48), std::max(0, size.height() - top)),
               Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
               tr("No timeline: no rank of this profile has a trace (trace_view.json or a database export). "
                  "The Top-Down panel shows the figures of the profiler's own tables."));
  }
}

void LaneCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintTo(p, size());
}

double LaneCanvas::cursorXOrCenter() const {
  const QPoint local = mapFromGlobal(QCursor::pos());
  if (rect().contains(local)) return local.x();
  return width() / 2.0;
}

void LaneCanvas::keyPressEvent(QKeyEvent* e) {
  TimelineViewport* vp = m_ctx->viewport;
  const TimeRange view = vp->visibleRange();
  const auto mods = e->modifiers();
  const bool shift = mods & Qt::ShiftModifier;
  const bool ctrl = mods & Qt::ControlModifier;
  const auto panStep = [&](int dir) {
    const double frac = kKeyPanFraction * (shift ? 4 : 1);
    vp->panBy(static_cast<TimeNs>(dir * frac * static_cast<double>(view.duration())));
  };
  const auto anchor = [&] { return core::xToTime(cursorXOrCenter(), view, std::max(1, width())); };
  if (e->text() == QStringLiteral("?")) {
    emit shortcutsRequested();
    return;
  }
  switch (e->key()) {
    case Qt::Key_W:
      vp->zoomAt(anchor(), kKeyZoomFactor);
      return;
    case Qt::Key_S:
      vp->zoomAt(anchor(), 1.0 / kKeyZoomFactor);
      return;
    case Qt::Key_A:
    case Qt::Key_Left:
      panStep(-1);
      return;
    case Qt::Key_D:
    case Qt::Key_Right:
      panStep(1);
      return;
    case Qt::Key_Up:
      if (e->modifiers() & Qt::ControlModifier) emit rankStepRequested(-1);
      else emit scrollRequested(-3 * m_ctx->layout.metrics().sliceRow);
      return;
    case Qt::Key_Down:
      if (e->modifiers() & Qt::ControlModifier) emit rankStepRequested(1);
      else emit scrollRequested(3 * m_ctx->layout.metrics().sliceRow);
      return;
    case Qt::Key_PageUp:
      emit scrollRequested(-height() * 9 / 10);
      return;
    case Qt::Key_PageDown:
      emit scrollRequested(height() * 9 / 10);
      return;
    case Qt::Key_Home:
      emit scrollToRequested(0);
      return;
    case Qt::Key_End:
      emit scrollToRequested(m_ctx->layout.totalHeight());
      return;
    case Qt::Key_Z:
      if (shift) {
        vp->zoomToSelection();
        return;
      }
      break;
    case Qt::Key_F:
      emit zoomToSliceRequested();
      return;
    case Qt::Key_M:
      if (ctrl) break;
      if (shift)
        emit rangeMarkerRequested();
      else
        emit pointMarkerRequested(anchor());
      return;
    case Qt::Key_Backspace:
      vp->undoZoom();
      return;
    case Qt::Key_0:
      if (ctrl) {
        vp->fitAll();
        return;
      }
      break;
    case Qt::Key_Escape:
      vp->clearSelection();
      emit sliceClicked(RankSliceRef{});
      return;
    default:
      break;
  }
  QWidget::keyPressEvent(e);
}

void LaneCanvas::contextMenuEvent(QContextMenuEvent* e) {
  if (!m_ctx->profile) return;
  const TimeRange view = m_ctx->viewport->visibleRange();
  const TimeNs t = core::xToTime(e->pos().x(), view, std::max(1, width()));
  QMenu menu(this);
  QAction* point = menu.addAction(tr("Add Marker Here\tM"));
  QAction* range = menu.addAction(tr("Add Range Marker for the Selection\tShift+M"));
  range->setEnabled(!m_ctx->viewport->selection().empty());
  QAction* chosen = menu.exec(e->globalPos());
  if (chosen == point) emit pointMarkerRequested(t);
  else if (chosen == range) emit rangeMarkerRequested();
}

void LaneCanvas::mousePressEvent(QMouseEvent* e) {
  setFocus(Qt::MouseFocusReason);
  if (e->button() != Qt::LeftButton) return;
  m_pressPos = e->position();
  m_pressView = m_ctx->viewport->visibleRange();
  m_pressScroll = m_ctx->scrollY;
  m_drag = (e->modifiers() & Qt::ShiftModifier) ? Drag::Select : Drag::Pending;
  QToolTip::hideText();
}

void LaneCanvas::mouseMoveEvent(QMouseEvent* e) {
  const QPointF pos = e->position();
  if (m_drag == Drag::None) {
    updateHover(pos, e->globalPosition().toPoint());
    return;
  }
  const double w = std::max(1, width());
  if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() >= 4) {
    m_drag = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
  }
  if (m_drag == Drag::Pan) {
    const double nsPerPx = static_cast<double>(m_pressView.duration()) / w;
    const TimeNs targetStart = m_pressView.start - static_cast<TimeNs>(std::llround((pos.x() - m_pressPos.x()) * nsPerPx));
    m_ctx->viewport->panBy(targetStart - m_ctx->viewport->visibleRange().start);
    emit scrollToRequested(m_pressScroll - static_cast<int>(std::lround(pos.y() - m_pressPos.y())));
  } else if (m_drag == Drag::Select) {
    const TimeNs a = core::xToTime(m_pressPos.x(), m_pressView, w);
    const TimeNs b = core::xToTime(pos.x(), m_pressView, w);
    m_ctx->viewport->setSelection({std::min(a, b), std::max(a, b)});
  }
}

void LaneCanvas::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const Drag d = m_drag;
  m_drag = Drag::None;
  unsetCursor();
  if (d == Drag::Pending) {
    const DrawBox* b = boxAt(e->position());
    const BubbleRef gap = bubbleAt(e->position(), b);
    if (b) {
      emit sliceClicked(RankSliceRef{b->rank, b->ref});
    } else {
      m_ctx->viewport->clearSelection();
      emit sliceClicked(RankSliceRef{});
    }
    if (gap.valid()) emit bubbleClicked(gap);
  } else if (d == Drag::Select) {
    // A Shift+click without movement clears the time selection.
    if ((e->position() - m_pressPos).manhattanLength() < 2) m_ctx->viewport->clearSelection();
  }
}

void LaneCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  if (const DrawBox* b = boxAt(e->position())) {
    emit sliceClicked(RankSliceRef{b->rank, b->ref});
    emit zoomToSliceRequested();
  }
}

void LaneCanvas::wheelEvent(QWheelEvent* e) {
  const QPoint d = e->angleDelta();
  const auto mods = e->modifiers();
  const TimeRange view = m_ctx->viewport->visibleRange();
  const auto zoom = [&](int dy) {
    m_ctx->viewport->zoomAt(core::xToTime(e->position().x(), view, std::max(1, width())), std::pow(1.0015, dy));
  };
  const auto pan = [&](int dx) {
    m_ctx->viewport->panBy(static_cast<TimeNs>(-dx / 120.0 * 0.1 * static_cast<double>(view.duration())));
  };
  // Some platforms turn Shift+wheel into a horizontal delta: accept either.
  const int v = d.y() != 0 ? d.y() : d.x();
  if (mods & Qt::ControlModifier) {
    if (v != 0) zoom(v);
  } else if (m_wheelZooms) {
    if (mods & Qt::ShiftModifier)
      emit scrollRequested(-v / 2);
    else if (std::abs(d.x()) > std::abs(d.y()))
      pan(d.x());
    else if (d.y() != 0)
      zoom(d.y());
  } else if ((mods & Qt::ShiftModifier) || std::abs(d.x()) > std::abs(d.y())) {
    pan((mods & Qt::ShiftModifier) ? v : d.x());
  } else if (d.y() != 0) {
    emit scrollRequested(-d.y() / 2);
  }
  e->accept();
}

void LaneCanvas::leaveEvent(QEvent*) {
  if (m_ctx->hovered.valid()) {
    m_ctx->hovered = {};
    m_ctx->hoveredRank = -1;
    emit hoverChanged(RankSliceRef{});
    update();
  }
}

QString LaneCanvas::tooltipFor(const DrawBox& b) const {
  const auto& trace = m_ctx->profile->ranks[static_cast<std::size_t>(b.rank)].trace;
  const core::Lane& lane = trace->lanes[b.ref.lane];
  const TimeNs origin = m_ctx->origin();
  const QString path = m_ctx->layout.lanePath(b.rank, b.ref.lane).toHtmlEscaped();
  if (b.count > 1) {
    return tr("<b>%1 slices</b><br>longest: %2 (%3)<br>span: %4 → %5<br>lane: %6")
        .arg(b.count)
        .arg(qs(trace->sliceName(b.ref)).toHtmlEscaped(), dur(lane.end[b.ref.index] - lane.start[b.ref.index]),
             dur(b.time.start - origin), dur(b.time.end - origin), path);
  }
  const TimeNs s = lane.start[b.ref.index], e = lane.end[b.ref.index];
  QString tip = tr("<b>%1</b><br>start: %2 <span style='color:%5'>(%3)</span><br>duration: %4")
                    .arg(qs(trace->sliceName(b.ref)).toHtmlEscaped(), dur(s - origin),
                         QString::fromStdString(core::formatTimestampUs(s)), dur(e - s),
                         ColorPalette::css(ColorPalette::chrome().textDim));
  if (lane.flags[b.ref.index] & core::kSliceUnfinished) tip += tr(" <i>(did not end)</i>");
  if (lane.flags[b.ref.index] & core::kSlicePartialOverlap)
    tip += QStringLiteral("<br><span style='color:%1'>%2</span>")
               .arg(ColorPalette::css(ColorPalette::chrome().errorText), tr("overlaps a sibling without nesting"));
  else if (lane.flags[b.ref.index] & core::kSliceMinorOverlap)
    tip += QStringLiteral("<br><span style='color:%1'>%2</span>")
               .arg(ColorPalette::css(ColorPalette::chrome().textDim),
                    tr("starts before the previous task ends (device clock rounding or tasks running at once: informational)"));
  tip += tr("<br>lane: %1").arg(path);
  return tip;
}

QString LaneCanvas::counterTooltip(int row, double x) const {
  const LayoutRow& r = m_ctx->layout.rows()[static_cast<std::size_t>(row)];
  const auto& trace = m_ctx->profile->ranks[static_cast<std::size_t>(r.rank)].trace;
  const core::CounterSeries& cs = trace->counters[r.counter];
  const TimeNs t = core::xToTime(x, m_ctx->viewport->visibleRange(), std::max(1, width()));
  auto it = std::upper_bound(cs.ts.begin(), cs.ts.end(), t);
  if (it == cs.ts.begin()) return {};
  const auto i = static_cast<std::size_t>(it - cs.ts.begin()) - 1;
  return tr("<b>%1</b><br>value: %2<br>since: %3")
      .arg(m_ctx->layout.counterTitle(r.rank, r.counter).toHtmlEscaped())
      .arg(counterValueText(*trace, r.counter, cs.value[i]))
      .arg(dur(cs.ts[i] - m_ctx->origin()));
}

void LaneCanvas::updateHover(QPointF pos, QPoint globalPos) {
  if (!m_ctx->profile) return;
  const DrawBox* b = boxAt(pos);
  const int rank = b ? b->rank : -1;
  const core::SliceRef ref = b ? b->ref : core::SliceRef{};
  if (rank != m_ctx->hoveredRank || !(ref == m_ctx->hovered)) {
    m_ctx->hoveredRank = rank;
    m_ctx->hovered = ref;
    emit hoverChanged(RankSliceRef{rank, ref});
    update();
  }
  if (b) {
    QToolTip::showText(globalPos, tooltipFor(*b), this);
    return;
  }
  const int row = m_ctx->layout.rowAt(pos.y() + m_ctx->scrollY);
  if (row >= 0 && m_ctx->layout.rows()[static_cast<std::size_t>(row)].kind == LayoutRow::Kind::Counter) {
    const QString tip = counterTooltip(row, pos.x());
    if (!tip.isEmpty()) {
      QToolTip::showText(globalPos, tip, this);
      return;
    }
  }
  if (const BubbleRef gap = bubbleAt(pos, nullptr); gap.valid()) {
    QToolTip::showText(globalPos, bubbleTooltip(*m_ctx->profile, gap.rank, gap.device, gap.bubble), this);
    return;
  }
  QToolTip::hideText();
}

}  // namespace npuscope::widgets
