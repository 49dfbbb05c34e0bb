// SPDX-License-Identifier: MIT
#include "widgets/timeline/render_passes.h"

#include <QCoreApplication>
#include <QPainter>
#include <QImage>
#include <QPaintEngine>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/profile/profile.h"
#include "core/query/lod.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/direct_arrows.h"
#include "widgets/timeline/direct_target.h"
#include "widgets/timeline/timeline_context.h"
#include "widgets/timeline/timeline_viewport.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

namespace {

// Zig-zag drawn at the open end of an unfinished slice ("did not end").
void drawOpenEnd(QPainter& p, const QRectF& r, QColor c) {
  const double x = r.right();
  QPainterPath path;
  const double step = r.height() / 4.0;
  path.moveTo(x, r.top());
  for (int i = 0; i < 4; ++i) {
    path.lineTo(x - 4, r.top() + step * (i + 0.5));
    path.lineTo(x, r.top() + step * (i + 1));
  }
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  p.setPen(QPen(c, 1.4));
  p.drawPath(path);
  p.restore();
}

// The cubic of a flow arrow from a to b (arrowCubic).
void addArrowCurve(QPainterPath& path, QPointF a, QPointF b) {
  const ArrowCubic c = arrowCubic(a, b);
  path.moveTo(c.p0);
  path.cubicTo(c.p1, c.p2, c.p3);
}

// A 7 px arrowhead at `tip` pointing along `dir` (unit vector): arrowHeadCorners.
QPolygonF arrowHead(QPointF tip, QPointF dir) {
  const auto corners = arrowHeadCorners(tip, dir);
  return QPolygonF{corners[0], corners[1], corners[2]};
}

// Unit direction in which `path` arrives at its current position: along its last segment (the
// last control point of a cubic), or `fallback` when that is degenerate.
QPointF arrivalDirection(const QPainterPath& path, QPointF fallback) {
  const int n = path.elementCount();
  const QPointF b = path.currentPosition();
  for (int i = n - 2; i >= 0; --i) {
    const QPointF d = b - QPointF(path.elementAt(i));
    const double len = std::hypot(d.x(), d.y());
    if (len > 1e-6) return d / len;
    if (path.elementAt(i).isMoveTo()) break;
  }
  return fallback;
}

// A flow arrow from a to b: the curve stroked with `pen` through QPainter::strokePath, then the
// head filled with `brush` (drawArrowHead). Both go straight to the paint engine, which sets its
// pen and brush up again only when handed other QPen / QBrush objects: pass the same ones for
// arrows of one colour. `curve` is scratch space, reused between arrows.
void drawArrow(QPainter& p, QPainterPath& curve, QPointF a, QPointF b, const QPen& pen, const QBrush& brush) {
  curve.clear();
  addArrowCurve(curve, a, b);
  p.strokePath(curve, pen);
  drawArrowHead(p, curve, brush, QPointF(1, 0));
}

void setRankMask(std::vector<std::vector<bool>>& masks, int rankIndex, std::vector<bool> mask) {
  if (rankIndex < 0) return;
  if (masks.size() <= static_cast<std::size_t>(rankIndex)) masks.resize(static_cast<std::size_t>(rankIndex) + 1);
  masks[static_cast<std::size_t>(rankIndex)] = std::move(mask);
}

bool maskHas(const core::Profile* profile, const std::vector<std::vector<bool>>& masks, int rank,
             core::SliceRef ref) {
  if (!profile || rank < 0 || static_cast<std::size_t>(rank) >= masks.size() || !ref.valid()) return false;
  const auto& trace = profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!trace || ref.lane >= trace->lanes.size() || ref.index >= trace->lanes[ref.lane].sliceCount()) return false;
  const auto& mask = masks[static_cast<std::size_t>(rank)];
  const core::NameId id = trace->lanes[ref.lane].names[ref.index];
  return id < mask.size() && mask[id];
}

}  // namespace

void drawArrowHead(QPainter& p, const QPainterPath& path, const QBrush& brush, QPointF fallbackDir) {
  // Through QPainter::fillPath, the painter's pen and brush untouched (switching them per arrow
  // made the raster engine set them up again each time); the pixels drawPolygon with no pen gives.
  QPainterPath head;
  head.addPolygon(arrowHead(path.currentPosition(), arrivalDirection(path, fallbackDir)));
  head.closeSubpath();
  p.fillPath(head, brush);
}

// ---------------------------------------------------------------------------------------------

namespace {

// The rect a box is filled with: wide boxes lose one device pixel on the right.
QRectF fillRectOf(const DrawBox& b, double onePx) {
  QRectF r = b.rect;
  if (r.width() >= 3) r.setWidth(r.width() - onePx);
  return r;
}

bool g_batchedFills = true;  // BoxesPass::setBatchedFills

}  // namespace

bool BoxesPass::fillBatched(QPainter& p, const TimelineFrame& f) {
  if (!paintsLikeAliasedFill(p)) return false;
  const QTransform device = p.deviceTransform();
  if (!g_batchedFills || device.type() > QTransform::TxScale || device.m11() <= 0 || device.m22() <= 0) return false;
  // A world transform that makes the device transform the identity, so that drawRects takes the
  // raster engine's whole-pixel path (it needs at most a translation by whole pixels).
  const QTransform world = device.inverted() * p.worldTransform();
  p.save();
  p.setWorldTransform(world);
  const std::optional<QPoint> whole = wholePixelShift(p.deviceTransform());
  if (!whole) {
    p.restore();
    return false;
  }
  const QPoint shift = *whole;
  m_oneByOne.clear();
  const auto& boxes = f.list.boxes;
  if (const std::optional<DirectTarget> target = directTarget(p, shift)) {
    // Written in the list's order, as one fillRect per box would: later boxes cover earlier ones.
    for (const DrawBox& b : boxes) target->fill(deviceFillRect(fillRectOf(b, f.onePx), device), b.color);
    p.restore();
    return true;
  }
  for (Batch& b : m_batches) b.rects.clear();
  // The batch of a colour: an open-addressed table (a power of two, at most half full) of batch
  // index + 1 by colour hash; the batches, and so the table, are kept between frames.
  const auto slotOf = [&](QRgb color) {
    const std::uint32_t mixed = color * 2654435761u;
    std::size_t h = (mixed ^ (mixed >> 16)) & (m_slots.size() - 1);
    while (m_slots[h] && m_batches[m_slots[h] - 1].color != color) h = (h + 1) & (m_slots.size() - 1);
    return h;
  };
  const auto batchOf = [&](QRgb color) -> std::vector<QRect>& {
    if (2 * (m_batches.size() + 1) > m_slots.size()) {
      m_slots.assign(std::max<std::size_t>(64, 2 * m_slots.size()), 0);
      for (std::size_t b = 0; b < m_batches.size(); ++b) m_slots[slotOf(m_batches[b].color)] = static_cast<std::uint32_t>(b + 1);
    }
    const std::size_t h = slotOf(color);
    if (!m_slots[h]) {
      m_batches.push_back({color, {}});
      m_slots[h] = static_cast<std::uint32_t>(m_batches.size());
    }
    return m_batches[m_slots[h] - 1].rects;
  };
  const auto& rows = f.ctx.layout.rows();
  for (const DrawRowRange& range : f.list.rowRanges) {
    const bool sliceRow = range.row >= 0 && static_cast<std::size_t>(range.row) < rows.size() &&
                          rows[static_cast<std::size_t>(range.row)].kind == LayoutRow::Kind::Slices;
    if (!sliceRow) {
      for (std::uint32_t k = range.begin; k < range.end; ++k) m_oneByOne.push_back(k);
      continue;
    }
    // In a slice row the boxes follow in time, so their device edges do not decrease: a box
    // reaching past the next one's left edge is covered there by the boxes after it.
    m_rowRects.clear();
    bool ordered = true;
    for (std::uint32_t k = range.begin; k < range.end; ++k) {
      const QRect r = deviceFillRect(fillRectOf(boxes[k], f.onePx), device);
      if (!m_rowRects.empty()) {
        const QRect& a = m_rowRects.back();
        ordered = ordered && a.left() <= r.left() && a.left() + a.width() <= r.left() + r.width() &&
                  a.top() == r.top() && a.height() == r.height();
      }
      m_rowRects.push_back(r);
    }
    if (!ordered) {
      for (std::uint32_t k = range.begin; k < range.end; ++k) m_oneByOne.push_back(k);
      continue;
    }
    for (std::size_t i = 0; i < m_rowRects.size(); ++i) {
      QRect r = m_rowRects[i];
      if (i + 1 < m_rowRects.size()) r.setRight(std::min(r.right(), m_rowRects[i + 1].left() - 1));
      if (r.width() > 0 && r.height() > 0) batchOf(boxes[range.begin + i].color).push_back(r.translated(-shift));
    }
  }
  p.setPen(Qt::NoPen);
  for (const Batch& b : m_batches) {
    if (b.rects.empty()) continue;
    p.setBrush(QColor::fromRgb(b.color));
    p.drawRects(b.rects.data(), static_cast<int>(b.rects.size()));
  }
  p.restore();
  return true;
}

void BoxesPass::setBatchedFills(bool on, bool direct) {
  g_batchedFills = on;
  setDirectFillsEnabled(direct);
}

void BoxesPass::paint(QPainter& p, const TimelineFrame& f) {
  if (fillBatched(p, f)) {
    for (std::uint32_t k : m_oneByOne)
      p.fillRect(fillRectOf(f.list.boxes[k], f.onePx), QColor::fromRgb(f.list.boxes[k].color));
  } else {
    for (const DrawBox& b : f.list.boxes) p.fillRect(fillRectOf(b, f.onePx), QColor::fromRgb(b.color));
  }
  for (const DrawBox& b : f.list.boxes) {
    if (!b.flags) continue;
    if (b.flags & core::kSlicePartialOverlap) {
      p.setPen(QPen(QColor::fromRgb(ColorPalette::chrome().overlap), 1.0));
      p.setBrush(Qt::NoBrush);
      p.drawRect(b.rect.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    if ((b.flags & core::kSliceUnfinished) && b.rect.right() <= f.widthPx + 1)
      drawOpenEnd(p, b.rect, QColor::fromRgb(ColorPalette::outline(b.color)));
  }
}

// ---------------------------------------------------------------------------------------------

void NameMarksPass::setHighlight(int rankIndex, std::vector<bool> mask) {
  setRankMask(m_highlight, rankIndex, std::move(mask));
}

void NameMarksPass::setSearch(int rankIndex, std::vector<bool> mask) {
  setRankMask(m_search, rankIndex, std::move(mask));
  m_dim = std::any_of(m_search.begin(), m_search.end(),
                      [](const auto& m) { return std::find(m.begin(), m.end(), true) != m.end(); });
}

void NameMarksPass::clearSearch() {
  m_search.clear();
  m_dim = false;
}

bool NameMarksPass::isHighlighted(const core::Profile* profile, int rank, core::SliceRef ref) const {
  return maskHas(profile, m_highlight, rank, ref);
}

bool NameMarksPass::isSearchMatch(const core::Profile* profile, int rank, core::SliceRef ref) const {
  return maskHas(profile, m_search, rank, ref);
}

void NameMarksPass::paint(QPainter& p, const TimelineFrame& f) {
  if (m_search.empty() && m_highlight.empty()) return;
  const auto has = [&](const std::vector<std::vector<bool>>& masks, const DrawBox& b) {
    if (b.rank < 0 || static_cast<std::size_t>(b.rank) >= masks.size() || !b.ref.valid()) return false;
    const auto& mask = masks[static_cast<std::size_t>(b.rank)];
    if (mask.empty()) return false;
    const core::NameId id = f.profile.ranks[static_cast<std::size_t>(b.rank)].trace->lanes[b.ref.lane].names[b.ref.index];
    return id < mask.size() && mask[id];
  };
  const QColor dim(255, 255, 255, 170);
  const QPen searchPen(QColor::fromRgb(ColorPalette::chrome().searchMatch), 2.0);
  const QPen highlightPen(QColor::fromRgb(ColorPalette::chrome().highlight), 2.0);
  p.setBrush(Qt::NoBrush);
  for (const DrawBox& b : f.list.boxes) {
    const bool match = has(m_search, b);
    if (m_dim && !match) {
      p.fillRect(b.rect, dim);
    } else if (match) {
      p.setPen(searchPen);
      p.drawRect(b.rect.adjusted(0, 0, -1, -1));
    }
    if (has(m_highlight, b)) {
      p.setPen(highlightPen);
      p.drawRect(b.rect.adjusted(-1, -1, 0, 0));
    }
  }
}

// ---------------------------------------------------------------------------------------------

void LabelsPass::paint(QPainter& p, const TimelineFrame& f) {
  p.setFont(f.font);
  for (const DrawLabel& l : f.list.labels) {
    p.setPen(QColor::fromRgb(l.color));
    p.drawText(l.rect, Qt::AlignVCenter | Qt::AlignLeft, l.text);
  }
}

void CountersPass::paint(QPainter& p, const TimelineFrame& f) {
  const auto& rows = f.ctx.layout.rows();
  for (const DrawCounter& c : f.list.counters) {
    QColor fill = QColor::fromRgb(c.color);
    fill.setAlpha(90);
    // On the raster engine the area is filled through its fewer points (fillArea), then its
    // outline stroked: the pixels drawPolygon(area) with this pen and brush gives. Other engines
    // (an SVG export) get the one polygon, as before.
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster;
    const QPen outline(QColor::fromRgb(c.color), 1.0);
    p.setPen(raster ? QPen(Qt::NoPen) : outline);
    p.setBrush(fill);
    p.drawPolygon(raster ? c.fillArea : c.area);
    p.setBrush(Qt::NoBrush);
    if (raster) {
      p.setPen(outline);
      p.drawPolygon(c.area);
    }
    const LayoutRow& r = rows[static_cast<std::size_t>(c.row)];
    QFont small = f.font;
    small.setPointSizeF(small.pointSizeF() * 0.8);
    p.setFont(small);
    p.setPen(QColor::fromRgb(ColorPalette::chrome().textDim));
    p.drawText(QRectF(4, r.y + 1, f.widthPx - 8, 11), Qt::AlignLeft | Qt::AlignVCenter,
               QCoreApplication::translate("npuscope::widgets::Timeline", "max %1").arg(c.maxText));
    p.setFont(f.font);
  }
}

// ---------------------------------------------------------------------------------------------

void HoverPass::paint(QPainter& p, const TimelineFrame& f) {
  if (!f.ctx.hovered.valid()) return;
  for (const DrawBox& b : f.list.boxes) {
    if (b.rank == f.ctx.hoveredRank && b.ref == f.ctx.hovered) {
      p.setPen(QPen(QColor(0, 0, 0, 150), 1.0));
      p.drawRect(b.rect.adjusted(0.5, 0.5, -0.5, -0.5));
      break;
    }
  }
}

void SelectionPass::paint(QPainter& p, const TimelineFrame& f) {
  if (!f.ctx.selected.valid()) return;
  const QRectF r = sliceRect(f.profile, f.ctx.layout, f.view, f.widthPx, f.ctx.selectedRank, f.ctx.selected);
  if (r.isEmpty()) return;
  p.setPen(QPen(QColor::fromRgb(ColorPalette::chrome().selection), 2.0));
  p.drawRect(r.adjusted(-1, -1, 1, 1));
}

void FlowArrowsPass::paint(QPainter& p, const TimelineFrame& f) {
  const auto arrows = buildFlowArrows(f.profile, f.ctx.layout, f.view, f.widthPx, f.ctx.selectedRank,
                                      f.ctx.selected, f.ctx.flowCategories, 20000, &m_index);
  if (arrows.empty()) return;
  // The 1 px arrows go straight into the image when the painter allows it (direct_arrows.h: Qt's
  // antialiased cosmetic stroker was most of this pass); the selection's 2 px arrows, and every
  // arrow on another painter (a scaled export, SVG), go through Qt.
  std::optional<DirectTarget> target;
  QPoint shift;
  if (paintsLikeAliasedFill(p)) {
    if (const std::optional<QPoint> whole = wholePixelShift(p.deviceTransform())) {
      shift = *whole;
      target = directTarget(p, shift, /*blend=*/true);
    }
  }
  p.setRenderHint(QPainter::Antialiasing, true);
  // Each arrow in its category's colour (ColorPalette::flowCategoryColor, the legend of the flow
  // menu), opaque: Qt's raster engine blends a translucent line span by span through its thread
  // pool, ~7x slower than an opaque one. The category arrows are thin; the selected slice's own
  // flows are thicker and drawn last, on top.
  const auto colorOf = [&](const FlowArrow& a) -> QRgb {
    if (a.rank >= 0 && static_cast<std::size_t>(a.rank) < f.profile.ranks.size()) {
      const auto& t = f.profile.ranks[static_cast<std::size_t>(a.rank)].trace;
      if (t && a.flowIndex >= 0 && static_cast<std::size_t>(a.flowIndex) < t->flows.size())
        return ColorPalette::flowCategoryColor(t->name(t->flows[static_cast<std::size_t>(a.flowIndex)].category));
    }
    return ColorPalette::chrome().flow;
  };
  QPainterPath curve;
  std::optional<QPen> pen;  // and its brush: the same objects while the colour and width stay
  QBrush brush;
  CoverageColor coverage;
  std::vector<QPointF> scratch;
  const auto draw = [&](const FlowArrow& a, double width) {
    const QRgb c = colorOf(a);
    if (target && width == 1.0) {
      if (coverage.color() != (c | 0xFF000000u)) coverage = CoverageColor(c);
      if (drawFlowArrowDirect(*target, a.from + shift, a.to + shift, coverage, scratch)) return;
    }
    if (!pen || pen->color().rgb() != (c | 0xFF000000u) || pen->widthF() != width) {
      pen = QPen(QColor::fromRgb(c), width);
      brush = QBrush(QColor::fromRgb(c));
    }
    drawArrow(p, curve, a.from, a.to, *pen, brush);
  };
  for (const FlowArrow& a : arrows)
    if (!a.ofSelection) draw(a, 1.0);
  for (const FlowArrow& a : arrows)
    if (a.ofSelection) draw(a, 2.0);
  p.setRenderHint(QPainter::Antialiasing, false);
}

void TimeSelectionPass::paint(QPainter& p, const TimelineFrame& f) {
  const TimeRange sel = f.ctx.viewport->selection();
  if (sel.empty()) return;
  const double w = f.widthPx;
  const double x0 = std::clamp(core::timeToX(sel.start, f.view, w), -2.0, w + 2);
  const double x1 = std::clamp(core::timeToX(sel.end, f.view, w), -2.0, w + 2);
  QColor band = QColor::fromRgb(ColorPalette::chrome().selection);
  band.setAlpha(28);
  p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), f.size.height()), band);
  const QColor edge = QColor::fromRgb(ColorPalette::chrome().selection);
  p.fillRect(QRectF(x0, 0, 1, f.size.height()), edge);
  p.fillRect(QRectF(x1, 0, 1, f.size.height()), edge);
}

}  // namespace npuscope::widgets
