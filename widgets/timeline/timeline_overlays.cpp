// SPDX-License-Identifier: MIT
// Top-Down overlays: bubble bands and dispatch-chain arrows (geometry, painting, hit-testing),
// plus the TimelineWidget / LaneCanvas members that drive them (kept here, away from the
// general timeline code).
#include "widgets/timeline/timeline_overlays.h"

#include <QCoreApplication>
#include <QPaintEngine>
#include <QPainter>
#include <QFontMetrics>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/model/overlap_process.h"
#include "core/query/lod.h"
#include "core/base/time_format.h"
#include "widgets/analysis_labels.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/direct_target.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/render_passes.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_context.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

namespace {

QString dur(TimeNs ns) { return QString::fromStdString(core::formatDuration(ns)); }

constexpr QRgb kBubble = 0xffea580c;  // orange-600: bubbles
constexpr QRgb kChain = 0xff7c3aed;   // violet-600: dispatch chain
constexpr QRgb kSliceSet = 0xffdb2777; // pink-600: the Advice dock's evidence

// What p.fillRect(QRectF(0, top, width, height), QBrush(tex)) with the brush origin at 0 gives,
// where tex holds `strip`'s texels in the texel columns `cols` ([a, b), disjoint) and is clear
// elsewhere: strip (ARGB32 premultiplied, 8 rows, at least `width` px wide) tiled from the
// painter's origin and blended over what is there (blendOver) in those columns only (clear texels
// blend to what is there), written straight into the painter's image. Qt hands a fill of more
// than ~96 lines to its thread pool and blends every pixel of it, clear or not; zoomed out the
// shading covers little of a tall run. False, with nothing drawn, when the painter cannot be
// written that way: not a whole-pixel translation onto a premultiplied 32-bit image of its own
// (directTarget), antialiased, another composition mode or an opacity.
bool blendColumnsDirect(QPainter& p, const QImage& strip, const std::vector<std::pair<int, int>>& cols, double top,
                        double width, double height) {
  if (!paintsLikeAliasedFill(p) || strip.format() != QImage::Format_ARGB32_Premultiplied || strip.isNull() ||
      width > strip.width())
    return false;
  const QTransform m = p.deviceTransform();
  const std::optional<QPoint> whole = wholePixelShift(m);
  if (!whole) return false;
  const QPoint shift = *whole;
  const std::optional<DirectTarget> target = directTarget(p, shift, /*blend=*/true);
  if (!target) return false;
  const QRect r = deviceFillRect(QRectF(0, top, width, height), m) & target->clip;
  if (r.isEmpty()) return true;
  // Device column x shows texel column x - shift.x (the fill starts at logical 0 and is no wider
  // than the strip); row y shows texel row (y - shift.y) mod strip.height(), as Qt's tiled
  // texture blend (blend_tiled_argb) reads it.
  std::vector<std::pair<int, int>> runs;  // the device columns [a, b) of cols inside r
  for (const auto& [a, b] : cols) {
    const int x0 = std::max(a + shift.x(), r.left()), x1 = std::min(b + shift.x(), r.right() + 1);
    if (x0 < x1) runs.emplace_back(x0, x1);
  }
  const int th = strip.height();
  for (int y = r.top(); y <= r.bottom(); ++y) {
    const auto* src = reinterpret_cast<const quint32*>(strip.constScanLine(((y - shift.y()) % th + th) % th));
    quint32* dst = target->line(y);
    for (const auto& [a, b] : runs) blendOverLine(dst + a, src + (a - shift.x()), b - a);
  }
  return true;
}

const core::RankAnalysis* analysisOf(const core::Profile& p, int rank) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= p.ranks.size()) return nullptr;
  return p.ranks[static_cast<std::size_t>(rank)].analysis.get();
}

// Index into analysis.devices for a process, or -1.
int deviceIndexOf(const core::RankAnalysis& a, const core::Process& proc) {
  for (std::size_t d = 0; d < a.devices.size(); ++d)
    if (a.devices[d].device == proc.deviceId) return static_cast<int>(d);
  return a.devices.size() == 1 ? 0 : -1;
}

void arrow(QPainter& p, QPointF a, QPointF b, const QColor& c, double width) {
  QPainterPath path(a);
  const bool vertical = std::abs(a.x() - b.x()) < 6;
  if (vertical) {
    path.lineTo(b);
  } else {
    const double dy = (b.y() - a.y()) * 0.5;
    path.cubicTo(QPointF(a.x(), a.y() + dy), QPointF(b.x(), b.y() - dy), b);
  }
  p.setPen(QPen(c, width, Qt::SolidLine, Qt::RoundCap));
  p.setBrush(Qt::NoBrush);
  p.drawPath(path);
  drawArrowHead(p, path, c, QPointF(0, 1));
}

// The rect of `ref` (sliceRect), or inside a collapsed process or rank / a folded lane the rect
// on the row that stands for it; empty when there is none.
QRectF sliceOrStandInRect(const core::Profile& profile, const LaneLayout& layout, TimeRange view, double widthPx,
                          int rank, const core::Trace& trace, core::SliceRef ref) {
  if (!ref.valid() || ref.lane >= trace.lanes.size() || ref.index >= trace.lanes[ref.lane].sliceCount()) return {};
  QRectF r = sliceRect(profile, layout, view, widthPx, rank, ref);
  if (!r.isEmpty()) return r;
  const core::Lane& lane = trace.lanes[ref.lane];
  const int row = layout.rowOfSlice(rank, ref.lane, lane.depthOf(ref.index), true);
  if (row < 0) return {};
  const LayoutRow& lr = layout.rows()[static_cast<std::size_t>(row)];
  const double x0 = core::timeToX(lane.start[ref.index], view, widthPx);
  const double x1 = std::max(x0 + 1, core::timeToX(lane.end[ref.index], view, widthPx));
  return {x0, static_cast<double>(lr.y), x1 - x0, static_cast<double>(lr.height - 1)};
}

}  // namespace

bool isDeviceProcess(const core::Process& p) {
  using R = core::Process::Role;
  return p.role == R::AscendHardware || core::showsOverlap(p) || p.role == R::Communication ||
         p.role == R::KinetoDevice;
}

std::vector<BubbleBand> buildBubbleBands(const core::Profile& profile, const LaneLayout& layout, TimeRange view,
                                         double widthPx, double yTop, double yBottom, int selectedRank,
                                         int selectedDevice, int selectedBubble) {
  std::vector<BubbleBand> out;
  if (view.empty() || !(widthPx > 0)) return out;
  const auto& rows = layout.rows();
  const auto [r0, r1] = layout.rowsIn(yTop, yBottom);
  // Vertical runs of device rows: (rank, device index, y0, y1).
  struct Run {
    int rank, device;
    double y0, y1;
  };
  std::vector<Run> runs;
  for (int i = r0; i < r1; ++i) {
    const LayoutRow& r = rows[static_cast<std::size_t>(i)];
    if (r.kind != LayoutRow::Kind::Slices && !(r.kind == LayoutRow::Kind::Process && !r.expanded)) continue;
    const core::RankProfile& rp = profile.ranks[static_cast<std::size_t>(r.rank)];
    if (!rp.trace || !rp.analysis || r.process >= rp.trace->processes.size()) continue;
    const core::Process& proc = rp.trace->processes[r.process];
    if (!isDeviceProcess(proc)) continue;
    const int dev = deviceIndexOf(*rp.analysis, proc);
    if (dev < 0) continue;
    if (!runs.empty() && runs.back().rank == r.rank && runs.back().device == dev &&
        std::abs(runs.back().y1 - r.y) < 0.5) {
      runs.back().y1 = r.y + r.height;
    } else {
      runs.push_back({r.rank, dev, static_cast<double>(r.y), static_cast<double>(r.y + r.height)});
    }
  }
  for (const Run& run : runs) {
    const core::DeviceAnalysis& da = analysisOf(profile, run.rank)->devices[static_cast<std::size_t>(run.device)];
    for (std::size_t b = 0; b < da.bubbles.size(); ++b) {
      const TimeRange br = da.bubbles[b].range;
      if (!br.overlaps(view)) continue;
      double x0 = std::clamp(core::timeToX(br.start, view, widthPx), -4.0, widthPx + 4);
      double x1 = std::clamp(core::timeToX(br.end, view, widthPx), -4.0, widthPx + 4);
      if (x1 - x0 < 2) {
        const double c = (x0 + x1) / 2;
        x0 = c - 1;
        x1 = c + 1;
      }
      BubbleBand band;
      band.rect = QRectF(x0, run.y0, x1 - x0, run.y1 - run.y0);
      band.rank = run.rank;
      band.device = run.device;
      band.bubble = static_cast<int>(b);
      band.selected = run.rank == selectedRank && run.device == selectedDevice && band.bubble == selectedBubble;
      out.push_back(band);
    }
  }
  return out;
}

const BubbleBand* hitTestBubbleBands(const std::vector<BubbleBand>& bands, QPointF pos) {
  const BubbleBand* best = nullptr;
  for (const BubbleBand& b : bands) {
    if (!b.rect.contains(pos)) continue;
    if (b.selected) return &b;
    if (!best || b.rect.width() < best->rect.width()) best = &b;
  }
  return best;
}

std::vector<ChainArrow> buildChainArrows(const core::Profile& profile, const LaneLayout& layout, TimeRange view,
                                         double widthPx, int rank, const core::DispatchChain& chain) {
  std::vector<ChainArrow> out;
  if (rank < 0 || static_cast<std::size_t>(rank) >= profile.ranks.size() || chain.links.size() < 2) return out;
  const auto& trace = profile.ranks[static_cast<std::size_t>(rank)].trace;
  if (!trace || view.empty() || !(widthPx > 0)) return out;
  auto rectOf = [&](core::SliceRef ref) { return sliceOrStandInRect(profile, layout, view, widthPx, rank, *trace, ref); };
  for (std::size_t i = 0; i + 1 < chain.links.size(); ++i) {
    const QRectF a = rectOf(chain.links[i].slice);
    const QRectF b = rectOf(chain.links[i + 1].slice);
    if (a.isEmpty() || b.isEmpty()) continue;
    ChainArrow arr;
    arr.fromRect = a;
    arr.toRect = b;
    const double tx = b.left();
    const double fx = std::clamp(tx, a.left(), a.right());
    const bool down = b.top() >= a.bottom() - 0.5;
    const bool up = b.bottom() <= a.top() + 0.5;
    arr.from = QPointF(fx, down ? a.bottom() : up ? a.top() : a.center().y());
    arr.to = QPointF(tx, down ? b.top() : up ? b.bottom() : b.center().y());
    out.push_back(arr);
  }
  return out;
}

QPainterPath hatchPath(const QRectF& rect, double period) {
  QPainterPath path;
  if (rect.isEmpty() || !(period > 0)) return path;
  const double l = rect.left(), r = rect.right(), t = rect.top(), b = rect.bottom();
  // The line x + y = c meets the rect for c in [l + t, r + b]; it enters at x = max(l, c - b) and
  // leaves at x = min(r, c - t).
  for (double c = std::ceil((l + t) / period) * period; c <= r + b; c += period) {
    const double x0 = std::max(l, c - b), x1 = std::min(r, c - t);
    if (x1 <= x0) continue;
    path.moveTo(x0, c - x0);
    path.lineTo(x1, c - x1);
  }
  return path;
}

QString bubbleTooltip(const core::Profile& profile, int rank, int device, int bubble) {
  const core::RankAnalysis* a = analysisOf(profile, rank);
  if (!a || device < 0 || static_cast<std::size_t>(device) >= a->devices.size()) return {};
  const auto& bubbles = a->devices[static_cast<std::size_t>(device)].bubbles;
  if (bubble < 0 || static_cast<std::size_t>(bubble) >= bubbles.size()) return {};
  const core::Bubble& b = bubbles[static_cast<std::size_t>(bubble)];
  const TimeNs origin = profile.range().start;
  QString tip = QCoreApplication::translate("npuscope::widgets::Timeline", "<b>Bubble #%1 — %2</b><br>%3<br>%4 → %5")
                    .arg(bubble + 1)
                    .arg(dur(b.range.duration()), bubbleCauseText(b.cause),
                         dur(b.range.start - origin), dur(b.range.end - origin));
  if (!b.detail.empty()) tip += QStringLiteral("<br>") + QString::fromStdString(b.detail).toHtmlEscaped();
  tip += QCoreApplication::translate("npuscope::widgets::Timeline", "<br><i>click to select</i>");
  return tip;
}

void BubblesPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (!m_visible) return;
  const double widthPx = frame.widthPx;
  p.save();
  {
    const auto bands = buildBubbleBands(frame.profile, frame.ctx.layout, frame.view, widthPx, frame.yTop(),
                                        frame.yBottom(), m_selected.rank, m_selected.device, m_selected.bubble);
    QColor fill = QColor::fromRgb(kBubble);
    QColor hatch = fill;
    // An SVG keeps the hatch as lines (a pattern brush or a texture would become a bitmap, and Qt's
    // own SVG renderer of Qt 6.4 draws no <pattern>): the tint, then the lines clipped to the band.
    const bool vector = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::SVG;
    const auto vectorBand = [&p](const QRectF& r, const QColor& tint, const QColor& line) {
      p.fillRect(r, tint);
      p.save();
      p.setBrush(Qt::NoBrush);
      p.setPen(QPen(line, 1.0, Qt::SolidLine, Qt::FlatCap));
      p.drawPath(hatchPath(r));
      p.restore();
    };
    // The unselected bands. Hundreds of bubbles, each a tall translucent fill plus a hatch, cost
    // tens of ms (Qt's raster engine hands every fill taller than ~96 lines to its thread pool):
    // instead, per vertical run of device rows, the bubbles' x ranges are painted once into an
    // 8 px tall texture (tint, then hatch), and the run is filled once with that texture.
    {
      std::vector<const BubbleBand*> order;
      order.reserve(bands.size());
      for (const BubbleBand& b : bands)
        if (!b.selected) order.push_back(&b);
      std::sort(order.begin(), order.end(), [](const BubbleBand* a, const BubbleBand* b) {
        return a->rect.top() != b->rect.top() ? a->rect.top() < b->rect.top() : a->rect.left() < b->rect.left();
      });
      const int texWidth = std::max(1, static_cast<int>(std::ceil(widthPx)) + 8);
      fill.setAlpha(22);
      hatch.setAlpha(70);
      const QBrush hatchBrush(hatch, Qt::BDiagPattern);
      // The shading of a whole texture row (tint, then hatch), painted once: a band's texels are
      // this strip's in the band's columns, since Qt's fillRect of the band on a clear texture
      // gives each pixel the same two blends, the hatch anchored at the texture's origin.
      QImage strip;
      if (!vector) {
        strip = QImage(texWidth, 8, QImage::Format_ARGB32_Premultiplied);
        strip.fill(Qt::transparent);
        QPainter sp(&strip);
        sp.fillRect(QRectF(0, 0, texWidth, 8), fill);
        sp.fillRect(QRectF(0, 0, texWidth, 8), hatchBrush);
      }
      std::vector<std::pair<int, int>> cols;  // a run's texel columns [a, b), disjoint
      for (std::size_t i = 0; i < order.size();) {
        const double top = order[i]->rect.top(), bottom = order[i]->rect.bottom();
        std::size_t j = i;
        cols.clear();
        for (; j < order.size() && order[j]->rect.top() == top && order[j]->rect.bottom() == bottom; ++j) {
          QRectF r = order[j]->rect;
          // Merge the bands that touch (many bubbles share a pixel when zoomed out): the merged
          // bands are more than half a pixel apart, so their pixels are too.
          while (j + 1 < order.size() && order[j + 1]->rect.top() == top && order[j + 1]->rect.bottom() == bottom &&
                 order[j + 1]->rect.left() <= r.right() + 0.5) {
            r.setRight(std::max(r.right(), order[j + 1]->rect.right()));
            ++j;
          }
          const QRectF t(std::max(r.left(), 0.0), 0, std::min(r.right(), widthPx) - std::max(r.left(), 0.0), 8);
          if (t.width() <= 0) continue;
          if (vector) {
            vectorBand(QRectF(t.left(), top, t.width(), bottom - top), fill, hatch);
            continue;
          }
          // The texel columns Qt's aliased fillRect(t) covers (deviceFillRect: edges rounded as
          // Qt rounds them), inside the strip.
          const QRect px = deviceFillRect(t, QTransform());
          const int a = std::max(px.left(), 0), b = std::min(px.left() + px.width(), texWidth);
          if (a < b) cols.emplace_back(a, b);
        }
        const double fillWidth = std::min<double>(texWidth, widthPx);
        if (!vector && !cols.empty() && !blendColumnsDirect(p, strip, cols, top, fillWidth, bottom - top)) {
          QImage tex(texWidth, 8, QImage::Format_ARGB32_Premultiplied);
          tex.fill(Qt::transparent);
          for (int ty = 0; ty < 8; ++ty) {
            const auto* from = reinterpret_cast<const quint32*>(strip.constScanLine(ty));
            auto* to = reinterpret_cast<quint32*>(tex.scanLine(ty));
            for (const auto& [a, b] : cols) std::copy(from + a, from + b, to + a);
          }
          p.save();
          p.setBrushOrigin(0, 0);
          p.fillRect(QRectF(0, top, fillWidth, bottom - top), QBrush(tex));
          p.restore();
        }
        i = j;
      }
    }
    for (const BubbleBand& b : bands) {
      if (!b.selected) continue;
      fill.setAlpha(56);
      hatch.setAlpha(150);
      if (vector) {
        vectorBand(b.rect, fill, hatch);
      } else {
        p.fillRect(b.rect, fill);
        // The pattern in logical px, as the unselected bands' texture: at 2x its lines are 8
        // logical px apart too, not 8 device px (Qt 6.4; pattern brushes are cosmetic by default).
        p.save();
        p.setRenderHint(QPainter::NonCosmeticBrushPatterns, true);
        p.fillRect(b.rect, QBrush(hatch, Qt::BDiagPattern));
        p.restore();
      }
      const QColor edge = QColor::fromRgb(kBubble);
      p.fillRect(QRectF(b.rect.left() - 0.5, b.rect.top(), 1.5, b.rect.height()), edge);
      p.fillRect(QRectF(b.rect.right() - 1, b.rect.top(), 1.5, b.rect.height()), edge);
    }
    // Label of the selected bubble at the top of its first band.
    for (const BubbleBand& b : bands) {
      if (!b.selected) continue;
      const core::Bubble& bub =
          frame.profile.ranks[static_cast<std::size_t>(b.rank)].analysis->devices[static_cast<std::size_t>(b.device)]
              .bubbles[static_cast<std::size_t>(b.bubble)];
      const QString text = QCoreApplication::translate("npuscope::widgets::Timeline", "bubble #%1 · %2 · %3")
                               .arg(b.bubble + 1)
                               .arg(dur(bub.range.duration()), bubbleCauseText(bub.cause));
      const QFontMetricsF fm(p.font());
      const double tw = fm.horizontalAdvance(text) + 10;
      const double x = std::clamp(b.rect.center().x() - tw / 2, 2.0, std::max(2.0, widthPx - tw - 2));
      const QRectF label(x, b.rect.top() + 1, tw, fm.height() + 2);
      p.setRenderHint(QPainter::Antialiasing, true);
      p.setPen(Qt::NoPen);
      p.setBrush(QColor::fromRgb(kBubble));
      p.drawRoundedRect(label, 3, 3);
      p.setRenderHint(QPainter::Antialiasing, false);
      p.setPen(Qt::white);
      p.drawText(label, Qt::AlignCenter, text);
      break;
    }
  }
  p.restore();
}

void ChainPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (m_rank < 0 || m_chain.links.empty()) return;
  const double widthPx = frame.widthPx;
  const TimeRange view = frame.view;
  p.save();
  {
    const QColor c = QColor::fromRgb(kChain);
    // Outline every link that is laid out, then the arrows.
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(c, 1.5));
    for (const core::ChainLink& l : m_chain.links) {
      const QRectF r = sliceRect(frame.profile, frame.ctx.layout, view, widthPx, m_rank, l.slice);
      if (!r.isEmpty()) p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5));
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const ChainArrow& a : buildChainArrows(frame.profile, frame.ctx.layout, view, widthPx, m_rank, m_chain))
      arrow(p, a.from, a.to, c, 1.6);
  }
  p.restore();
}

std::vector<QRectF> buildSliceSetRects(const core::Profile& profile, const LaneLayout& layout, TimeRange view,
                                       double widthPx, double yTop, double yBottom, int rank,
                                       const std::vector<core::SliceRef>& slices, double minWidthPx) {
  std::vector<QRectF> out;
  if (rank < 0 || static_cast<std::size_t>(rank) >= profile.ranks.size() || view.empty() || !(widthPx > 0)) return out;
  const auto& trace = profile.ranks[static_cast<std::size_t>(rank)].trace;
  if (!trace) return out;
  for (const core::SliceRef ref : slices) {
    QRectF r = sliceOrStandInRect(profile, layout, view, widthPx, rank, *trace, ref);
    if (r.isEmpty() || r.right() < 0 || r.left() > widthPx || r.bottom() < yTop || r.top() >= yBottom) continue;
    if (r.width() < minWidthPx) {
      const double c = r.center().x();
      r.setLeft(c - minWidthPx / 2);
      r.setRight(c + minWidthPx / 2);
    }
    out.push_back(r);
  }
  return out;
}

void SliceSetPass::setSlices(int rankIndex, std::vector<core::SliceRef> slices) {
  m_others.clear();
  if (rankIndex < 0 || slices.empty()) {
    m_rank = -1;
    m_slices.clear();
    m_sorted.clear();
    return;
  }
  m_rank = rankIndex;
  m_slices = std::move(slices);
  m_sorted = m_slices;
  const auto key = [](core::SliceRef r) { return std::pair(r.lane, r.index); };
  std::sort(m_sorted.begin(), m_sorted.end(), [&](core::SliceRef a, core::SliceRef b) { return key(a) < key(b); });
}

void SliceSetPass::setSlices(const std::vector<RankSliceRef>& slices) {
  std::vector<std::pair<int, std::vector<core::SliceRef>>> byRank;
  for (const RankSliceRef& r : slices) {
    if (!r.valid()) continue;
    auto it = std::find_if(byRank.begin(), byRank.end(), [&](const auto& e) { return e.first == r.rank; });
    if (it == byRank.end()) it = byRank.insert(byRank.end(), {r.rank, {}});
    it->second.push_back(r.slice);
  }
  if (byRank.empty()) {
    setSlices(-1, {});
    return;
  }
  setSlices(byRank.front().first, std::move(byRank.front().second));
  const auto key = [](core::SliceRef r) { return std::pair(r.lane, r.index); };
  for (std::size_t i = 1; i < byRank.size(); ++i) {
    std::sort(byRank[i].second.begin(), byRank[i].second.end(),
              [&](core::SliceRef a, core::SliceRef b) { return key(a) < key(b); });
    m_others.push_back(std::move(byRank[i]));
  }
}

bool SliceSetPass::contains(int rankIndex, core::SliceRef ref) const {
  const auto key = [](core::SliceRef r) { return std::pair(r.lane, r.index); };
  const auto less = [&](core::SliceRef a, core::SliceRef b) { return key(a) < key(b); };
  for (const auto& [rank, sorted] : m_others)
    if (rank == rankIndex) return std::binary_search(sorted.begin(), sorted.end(), ref, less);
  if (rankIndex != m_rank || m_rank < 0) return false;
  return std::binary_search(m_sorted.begin(), m_sorted.end(), ref, less);
}

void SliceSetPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (m_rank < 0 || m_slices.empty()) return;
  auto rects = buildSliceSetRects(frame.profile, frame.ctx.layout, frame.view, frame.widthPx, frame.yTop(),
                                  frame.yBottom(), m_rank, m_slices);
  for (const auto& [rank, slices] : m_others) {
    const auto more = buildSliceSetRects(frame.profile, frame.ctx.layout, frame.view, frame.widthPx, frame.yTop(),
                                         frame.yBottom(), rank, slices);
    rects.insert(rects.end(), more.begin(), more.end());
  }
  if (rects.empty()) return;
  p.save();
  QColor tint = QColor::fromRgb(kSliceSet);
  tint.setAlpha(60);
  for (const QRectF& r : rects) p.fillRect(r, tint);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(QColor::fromRgb(kSliceSet), 2.0));
  for (const QRectF& r : rects) p.drawRect(r.adjusted(-1, -1, 0, 0));
  p.restore();
}

void MomentPass::paint(QPainter& p, const TimelineFrame& frame) {
  if (m_rank < 0 || m_t < frame.view.start || m_t > frame.view.end) return;
  const double x = std::round(core::timeToX(m_t, frame.view, frame.widthPx)) + 0.5;
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  const QColor c = QColor::fromRgb(kSliceSet);
  p.setPen(QPen(c, 1.5, Qt::DashLine));
  p.drawLine(QPointF(x, 0), QPointF(x, frame.size.height()));
  if (!m_label.isEmpty()) {
    const QFontMetrics fm(frame.font);
    const int w = fm.horizontalAdvance(m_label) + 10, h = fm.height() + 4;
    // Right of the line, or left of it when it would leave the canvas.
    const double left = x + 4 + w <= frame.widthPx ? x + 4 : x - 4 - w;
    const QRectF box(left, 2, w, h);
    p.fillRect(box, c);
    p.setPen(Qt::white);
    p.setFont(frame.font);
    p.drawText(box, Qt::AlignCenter, m_label);
  }
  p.restore();
}

// ---------------------------------------------------------------------------------------------
// LaneCanvas / TimelineWidget members of the overlays.

BubbleRef LaneCanvas::bubbleAt(QPointF pos, const DrawBox* hitBox) {
  if (!m_ctx->profile || !m_bubbles->visible()) return {};
  if (hitBox) {
    // Only the Overlap Analysis lanes (their Free slice is the bubble) pass a click through.
    const auto& trace = m_ctx->profile->ranks[static_cast<std::size_t>(hitBox->rank)].trace;
    if (trace->processes[trace->lanes[hitBox->ref.lane].process].role != core::Process::Role::OverlapAnalysis)
      return {};
  }
  const double y = pos.y() + m_ctx->scrollY;
  const BubbleRef sel = m_bubbles->selected();
  const auto bands = buildBubbleBands(*m_ctx->profile, m_ctx->layout, m_ctx->viewport->visibleRange(), width(), y,
                                      y + 1, sel.rank, sel.device, sel.bubble);
  const BubbleBand* b = hitTestBubbleBands(bands, QPointF(pos.x(), y));
  if (!b) return {};
  return {b->rank, b->device, b->bubble};
}

void TimelineWidget::setBubblesVisible(bool on) {
  m_canvas->bubbles()->setVisible(on);
  m_canvas->update();
}

bool TimelineWidget::bubblesVisible() const { return m_canvas->bubbles()->visible(); }

void TimelineWidget::setSelectedBubble(int rankIndex, int deviceIndex, int bubbleIndex) {
  setSelectedBubble(BubbleRef{rankIndex, deviceIndex, bubbleIndex});
}

void TimelineWidget::setSelectedBubble(BubbleRef ref) {
  m_canvas->bubbles()->setSelected(ref);
  m_canvas->update();
  if (m_viewState) m_viewState->setSelectedBubble(ref);
}

BubbleRef TimelineWidget::selectedBubble() const { return m_canvas->bubbles()->selected(); }

const core::Bubble* TimelineWidget::bubble(int rankIndex, int deviceIndex, int bubbleIndex) const {
  return bubbleOf(m_ctx.profile.get(), BubbleRef{rankIndex, deviceIndex, bubbleIndex});
}

void TimelineWidget::zoomToBubble(int rankIndex, int deviceIndex, int bubbleIndex, double margin) {
  const core::Bubble* b = bubble(rankIndex, deviceIndex, bubbleIndex);
  if (!b) return;
  const TimeNs pad = std::max<TimeNs>(static_cast<TimeNs>(static_cast<double>(b->range.duration()) * margin), 100);
  m_viewport->setVisibleRange({b->range.start - pad, b->range.end + pad}, true);
}

void TimelineWidget::setChainHighlight(int rankIndex, const core::DispatchChain& chain) {
  m_canvas->chain()->setChain(rankIndex, chain);
  // The chain's host links sit deep in the with_stack Python stack (the Python API, the torch
  // op): unfold every folded lane that hides one of them, so that the outlines and arrows reach
  // the slices themselves and not the lane's "+N more levels" row.
  const core::Profile* p = m_ctx.profile.get();
  const core::Trace* t = p && rankIndex >= 0 && static_cast<std::size_t>(rankIndex) < p->ranks.size()
                             ? p->ranks[static_cast<std::size_t>(rankIndex)].trace.get()
                             : nullptr;
  // What the previous chain unfolded is folded again first (unless this chain needs it too), so
  // that the stacks the user folded stay folded once the chain moves on or is cleared.
  using LaneKey = std::pair<int, std::uint32_t>;
  const auto has = [](const std::vector<LaneKey>& v, const LaneKey& k) { return std::find(v.begin(), v.end(), k) != v.end(); };
  std::vector<LaneKey> needed;
  if (t)
    for (const core::ChainLink& link : chain.links) {
      const core::SliceRef s = link.slice;
      if (!s.valid() || s.lane >= t->lanes.size() || s.index >= t->lanes[s.lane].sliceCount()) continue;
      if (t->lanes[s.lane].depthOf(s.index) >= LaneLayout::kFoldedRows && !has(needed, {rankIndex, s.lane}))
        needed.emplace_back(rankIndex, s.lane);
    }
  bool changed = false;
  std::vector<LaneKey> kept;  // lanes a chain opened that this one still needs
  for (const LaneKey& k : m_chainUnfolded) {
    if (has(needed, k)) {
      kept.push_back(k);
    } else if (!m_ctx.layout.isLaneFolded(k.first, k.second)) {
      m_ctx.layout.setLaneFolded(k.first, k.second, true);
      changed = true;
    }
  }
  for (const LaneKey& k : needed)
    if (m_ctx.layout.isLaneFolded(k.first, k.second)) {
      m_ctx.layout.setLaneFolded(k.first, k.second, false);
      changed = true;
      if (!has(kept, k)) kept.push_back(k);
    }
  m_chainUnfolded = std::move(kept);
  if (changed) relayout();
  m_canvas->update();
}

void TimelineWidget::clearChainHighlight() { setChainHighlight(-1, {}); }

int TimelineWidget::chainRank() const { return m_canvas->chain()->rank(); }

const core::DispatchChain& TimelineWidget::chainHighlight() const { return m_canvas->chain()->chain(); }

}  // namespace npuscope::widgets

namespace npuscope::widgets {

void TimelineWidget::setHighlightedSlices(int rankIndex, std::vector<core::SliceRef> slices) {
  m_sliceSet->setSlices(rankIndex, std::move(slices));
  m_canvas->update();
}

void TimelineWidget::clearHighlightedSlices() { setHighlightedSlices(-1, {}); }

void TimelineWidget::setHighlightedSlices(const std::vector<RankSliceRef>& slices) {
  m_sliceSet->setSlices(slices);
  m_canvas->update();
}

void TimelineWidget::revealMoment(int rankIndex, core::TimeNs t, const QString& label, const std::string& processName) {
  if (!m_ctx.profile || rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= m_ctx.profile->ranks.size()) return;
  const auto& trace = m_ctx.profile->ranks[static_cast<std::size_t>(rankIndex)].trace;
  if (!trace) return;
  m_moment->setMoment(rankIndex, t, label);
  // The process of the moment's curve: expanded, its header at the top of the lanes.
  std::uint32_t process = core::kInvalidIndex;
  if (!processName.empty())
    for (std::uint32_t p = 0; p < trace->processes.size(); ++p)
      if (trace->processes[p].name == processName) process = p;
  if (process != core::kInvalidIndex) {
    m_ctx.layout.setRankExpanded(rankIndex, true);
    m_ctx.layout.setProcessExpanded(rankIndex, process, true);
    relayout();
    const auto& rows = m_ctx.layout.rows();
    for (const LayoutRow& r : rows)
      if (r.kind == LayoutRow::Kind::Process && r.rank == rankIndex && r.process == process) {
        // Below the rank's header, which stays pinned at the top while its lanes scroll.
        setVerticalScroll(r.y - m_ctx.layout.metrics().rankHeader);
        break;
      }
  }
  const core::TimeRange span = trace->range;
  const core::TimeRange v = m_viewport->visibleRange();
  core::TimeNs width = v.duration();
  if (span.duration() > 0) width = std::min(width, std::max<core::TimeNs>(span.duration() / 20, 1000));
  width = std::max<core::TimeNs>(width, 1000);
  m_viewport->setVisibleRange({t - width / 2, t - width / 2 + width}, true);
  m_canvas->update();
}

void TimelineWidget::clearMoment() {
  m_moment->setMoment(-1, 0, {});
  m_canvas->update();
}

int TimelineWidget::momentRank() const { return m_moment->rank(); }

core::TimeNs TimelineWidget::momentTime() const { return m_moment->time(); }

int TimelineWidget::highlightedSlicesRank() const { return m_sliceSet->rank(); }

const std::vector<core::SliceRef>& TimelineWidget::highlightedSlices() const { return m_sliceSet->slices(); }

bool TimelineWidget::isInHighlightedSlices(int rankIndex, core::SliceRef ref) const {
  return m_sliceSet->contains(rankIndex, ref);
}

}  // namespace npuscope::widgets
