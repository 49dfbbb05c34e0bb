// SPDX-License-Identifier: MIT
#include "widgets/draw_list.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

#include "core/lod.h"
#include "core/time_format.h"
#include "widgets/color_palette.h"

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

namespace {

// Boxes far outside the canvas are clamped so that painting never sees huge coordinates.
constexpr double kClampMarginPx = 16.0;

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QRectF boxRect(TimeNs s, TimeNs e, const TimeRange& view, double width, double y, double h) {
  double x0 = core::timeToX(s, view, width);
  double x1 = core::timeToX(e, view, width);
  x0 = std::clamp(x0, -kClampMarginPx, width + kClampMarginPx);
  x1 = std::clamp(x1, -kClampMarginPx, width + kClampMarginPx);
  if (x1 - x0 < kMinBoxWidthPx) x1 = x0 + kMinBoxWidthPx;
  return {x0, y, x1 - x0, h};
}

QString formatCounterValue(double v) {
  if (std::fabs(v) >= 1e6 || (std::fabs(v) < 1e-3 && v != 0)) return QString::number(v, 'g', 4);
  return QString::number(v, 'f', std::fabs(v) >= 100 ? 0 : 2);
}

// Step-area polygon of a counter series in view. Samples falling in the same pixel column keep
// their maximum, so the cost is O(samples in view) and the output O(widthPx).
DrawCounter buildCounter(const core::Trace& trace, const LayoutRow& row, int rowIndex, const TimeRange& view,
                         double width, double top, double height) {
  DrawCounter dc;
  dc.row = rowIndex;
  dc.color = ColorPalette::kCounter;
  const core::CounterSeries& cs = trace.counters[row.counter];
  dc.maxText = formatCounterValue(row.counterMax);
  if (cs.ts.empty()) return dc;
  const double lo = row.counterMin, hi = row.counterMax;
  const double span = hi - lo;
  const double base = top + height;
  auto yOf = [&](double v) { return span > 0 ? base - (v - lo) / span * height : base; };
  // First sample whose value is held at view.start.
  auto it = std::upper_bound(cs.ts.begin(), cs.ts.end(), view.start);
  std::size_t i = it == cs.ts.begin() ? 0 : static_cast<std::size_t>(it - cs.ts.begin()) - 1;
  const TimeNs holdEnd = std::max(trace.range.end, cs.ts.back());
  const double xEnd = std::clamp(core::timeToX(holdEnd, view, width), -kClampMarginPx, width + kClampMarginPx);
  QPolygonF& poly = dc.area;
  double firstX = std::clamp(core::timeToX(cs.ts[i], view, width), -kClampMarginPx, width + kClampMarginPx);
  poly << QPointF(firstX, yOf(lo > 0 ? lo : 0.0));
  double curX = firstX;
  double curV = cs.value[i];
  double colMax = curV;
  long curCol = static_cast<long>(std::floor(curX));
  poly << QPointF(curX, yOf(curV));
  for (std::size_t k = i + 1; k < cs.ts.size() && cs.ts[k] < view.end; ++k) {
    const double x = std::clamp(core::timeToX(cs.ts[k], view, width), -kClampMarginPx, width + kClampMarginPx);
    const long col = static_cast<long>(std::floor(x));
    if (col == curCol) {
      // Same pixel column: keep the maximum visible, remember the latest value to hold.
      colMax = std::max(colMax, cs.value[k]);
      curV = cs.value[k];
      if (poly.back().y() > yOf(colMax)) poly.back().setY(yOf(colMax));
      continue;
    }
    poly << QPointF(x, poly.back().y());
    poly << QPointF(x, yOf(cs.value[k]));
    curX = x;
    curCol = col;
    curV = colMax = cs.value[k];
  }
  // Hold the last value (or the one of the last column) until the trace end or the view end.
  const double stopX = std::min(xEnd, width + kClampMarginPx);
  if (stopX > poly.back().x()) poly << QPointF(stopX, yOf(curV));
  poly << QPointF(poly.back().x(), yOf(lo > 0 ? lo : 0.0));
  return dc;
}

}  // namespace

DrawList buildDrawList(const core::Profile& profile, const LaneLayout& layout, const DrawParams& p) {
  DrawList out;
  if (p.view.empty() || !(p.widthPx > 0)) return out;
  const auto& rows = layout.rows();
  const auto [r0, r1] = layout.rowsIn(p.yTop, p.yBottom);
  const auto& m = layout.metrics();
  const QFontMetricsF fm(p.font);
  const double labelPad = 4.0;
  std::vector<core::SpanBox> spans;
  spans.reserve(1024);

  auto emitSpans = [&](const core::Trace& trace, int rank, int rowIndex, std::uint32_t laneIndex,
                       double y, double h, bool withLabels) {
    const core::Lane& lane = trace.lanes[laneIndex];
    for (const core::SpanBox& s : spans) {
      DrawBox b;
      b.rect = boxRect(s.start, s.end, p.view, p.widthPx, y, h);
      b.row = rowIndex;
      b.rank = rank;
      b.ref = {laneIndex, s.count == 1 ? s.first : s.longest};
      b.first = s.first;
      b.count = s.count;
      b.time = {s.start, s.end};
      b.flags = s.count == 1 ? lane.flags[s.first] : 0;
      const std::string_view name = trace.name(lane.names[b.ref.index]);
      b.color = ColorPalette::colorForName(name);
      if (withLabels && s.count == 1 && b.rect.width() >= p.minLabelPx) {
        // Keep the label inside the visible part of the box (sticky at the left edge).
        const double vx0 = std::max(b.rect.left(), 0.0);
        const double vx1 = std::min(b.rect.right(), p.widthPx);
        const double avail = vx1 - vx0 - 2 * labelPad;
        if (avail >= 8.0) {
          const QString text = fm.elidedText(qs(name), Qt::ElideRight, avail);
          if (!text.isEmpty() && text != QStringLiteral("…")) {
            out.labels.push_back({QRectF(vx0 + labelPad, y, avail, h), text, ColorPalette::textColorOn(b.color)});
          }
        }
      }
      out.boxes.push_back(b);
    }
  };

  for (int ri = r0; ri < r1; ++ri) {
    const LayoutRow& row = rows[static_cast<std::size_t>(ri)];
    const auto& trace = profile.ranks[static_cast<std::size_t>(row.rank)].trace;
    if (!trace) continue;
    const auto begin = static_cast<std::uint32_t>(out.boxes.size());
    if (row.kind == LayoutRow::Kind::Slices) {
      if (row.lane >= trace->lanes.size()) continue;
      spans.clear();
      core::visibleSpans(trace->lanes[row.lane], row.depth, p.view, p.widthPx, spans, p.minBoxPx);
      emitSpans(*trace, row.rank, ri, row.lane, row.y, m.sliceRow - 1, p.labels);
    } else if (row.kind == LayoutRow::Kind::Process && !row.expanded) {
      // Summary strip of a collapsed process: depth-0 spans of each of its lanes, overlaid.
      const double h = std::max(4.0, row.height * 0.35);
      const double y = row.y + row.height - h - 2;
      std::size_t lanesDone = 0;
      for (std::uint32_t l = 0; l < trace->lanes.size() && lanesDone < 64; ++l) {
        if (trace->lanes[l].process != row.process) continue;
        ++lanesDone;
        spans.clear();
        core::visibleSpans(trace->lanes[l], 0, p.view, p.widthPx, spans, p.minBoxPx);
        emitSpans(*trace, row.rank, ri, l, y, h, false);
      }
      // Several lanes overlap: keep the row's boxes sorted by x for hit-testing.
      std::stable_sort(out.boxes.begin() + begin, out.boxes.end(),
                       [](const DrawBox& a, const DrawBox& b) { return a.rect.left() < b.rect.left(); });
    } else if (row.kind == LayoutRow::Kind::Counter) {
      if (row.counter >= trace->counters.size()) continue;
      // The top 12 px hold the scale label ("max 1800"); the chart fills the rest.
      const double top = row.y + 12;
      out.counters.push_back(buildCounter(*trace, row, ri, p.view, p.widthPx, top, row.height - 14.0));
    }
    const auto end = static_cast<std::uint32_t>(out.boxes.size());
    if (end > begin) out.rowRanges.push_back({ri, begin, end});
  }
  return out;
}

const DrawBox* hitTestDrawList(const DrawList& list, const LaneLayout& layout, QPointF pos, double slackPx) {
  const int row = layout.rowAt(pos.y());
  if (row < 0) return nullptr;
  auto rr = std::lower_bound(list.rowRanges.begin(), list.rowRanges.end(), row,
                             [](const DrawRowRange& r, int v) { return r.row < v; });
  if (rr == list.rowRanges.end() || rr->row != row) return nullptr;
  const DrawBox* b = list.boxes.data() + rr->begin;
  const DrawBox* e = list.boxes.data() + rr->end;
  // Vertical check: the box band only (headers have a thin summary strip).
  const DrawBox& probe = *b;
  if (pos.y() < probe.rect.top() - 1 || pos.y() > probe.rect.bottom() + 1) return nullptr;
  const double x = pos.x();
  // Slice rows are disjoint and sorted, so right edges are sorted too: binary search. Summary
  // strips of collapsed processes overlay several lanes (sorted by left edge only): scan them.
  const bool sorted = layout.rows()[static_cast<std::size_t>(row)].kind == LayoutRow::Kind::Slices;
  const DrawBox* it = sorted ? std::lower_bound(b, e, x - slackPx,
                                                [](const DrawBox& box, double v) { return box.rect.right() < v; })
                             : b;
  const DrawBox* best = nullptr;
  double bestDist = slackPx + 1e-9;
  for (; it != e && it->rect.left() <= x + slackPx; ++it) {
    double d = 0;
    if (x < it->rect.left()) d = it->rect.left() - x;
    else if (x > it->rect.right()) d = x - it->rect.right();
    // Prefer an exact hit, then the nearest; among exact hits the later (topmost painted) wins.
    if (d < bestDist || (d == 0 && bestDist == 0)) {
      bestDist = d;
      best = &*it;
    }
  }
  return best;
}

QRectF sliceRect(const core::Profile& profile, const LaneLayout& layout, TimeRange view, double widthPx,
                 int rank, core::SliceRef ref) {
  if (!ref.valid() || rank < 0 || static_cast<std::size_t>(rank) >= profile.ranks.size()) return {};
  const auto& trace = profile.ranks[static_cast<std::size_t>(rank)].trace;
  if (!trace || ref.lane >= trace->lanes.size() || ref.index >= trace->lanes[ref.lane].sliceCount()) return {};
  const core::Lane& lane = trace->lanes[ref.lane];
  const int row = layout.rowOfSlice(rank, ref.lane, lane.depthOf(ref.index));
  if (row < 0) return {};
  const LayoutRow& r = layout.rows()[static_cast<std::size_t>(row)];
  return boxRect(lane.start[ref.index], lane.end[ref.index], view, widthPx, r.y, layout.metrics().sliceRow - 1);
}

std::vector<FlowArrow> buildFlowArrows(const core::Profile& profile, const LaneLayout& layout, TimeRange view,
                                       double widthPx, int rank, core::SliceRef selected,
                                       const QSet<QString>& categories, std::size_t maxArrows) {
  std::vector<FlowArrow> out;
  if (view.empty() || !(widthPx > 0)) return out;
  const auto& m = layout.metrics();

  auto endpoint = [&](int rk, const core::Trace& t, core::SliceRef ref, TimeNs ts, QPointF& pt) {
    if (!ref.valid() || ref.lane >= t.lanes.size()) return false;
    const core::Lane& lane = t.lanes[ref.lane];
    if (ref.index >= lane.sliceCount()) return false;
    const int row = layout.rowOfSlice(rk, ref.lane, lane.depthOf(ref.index), true);
    if (row < 0) return false;
    const LayoutRow& r = layout.rows()[static_cast<std::size_t>(row)];
    // Anchor at the flow's own timestamp, kept inside the bound slice.
    const TimeNs t0 = std::clamp(ts, lane.start[ref.index], lane.end[ref.index]);
    const double x = std::clamp(core::timeToX(t0, view, widthPx), -1e5, widthPx + 1e5);
    const double h = r.kind == LayoutRow::Kind::Slices ? m.sliceRow - 1 : r.height;
    pt = QPointF(x, r.y + h / 2.0);
    return true;
  };
  auto addFlow = [&](int rk, const core::Trace& t, std::size_t fi, bool own) {
    const core::Flow& f = t.flows[fi];
    const TimeRange span{std::min(f.fromTs, f.toTs), std::max(f.fromTs, f.toTs) + 1};
    if (!span.overlaps(view)) return;
    FlowArrow a;
    a.flowIndex = static_cast<int>(fi);
    a.ofSelection = own;
    if (!endpoint(rk, t, f.from, f.fromTs, a.from) || !endpoint(rk, t, f.to, f.toTs, a.to)) return;
    out.push_back(a);
  };

  if (rank >= 0 && static_cast<std::size_t>(rank) < profile.ranks.size() && selected.valid()) {
    const auto& t = profile.ranks[static_cast<std::size_t>(rank)].trace;
    if (t) {
      for (std::size_t i = 0; i < t->flows.size() && out.size() < maxArrows; ++i) {
        const core::Flow& f = t->flows[i];
        if (f.from == selected || f.to == selected) addFlow(rank, *t, i, true);
      }
    }
  }
  if (categories.isEmpty()) return out;
  for (std::size_t rk = 0; rk < profile.ranks.size(); ++rk) {
    const auto& t = profile.ranks[rk].trace;
    if (!t || t->flows.empty()) continue;
    std::vector<bool> want(t->strings.size(), false);
    bool any = false;
    for (const QString& c : categories) {
      const QByteArray u = c.toUtf8();
      const core::NameId id = t->strings.find(std::string_view(u.constData(), static_cast<std::size_t>(u.size())));
      if (id != core::kInvalidIndex) {
        want[id] = true;
        any = true;
      }
    }
    if (!any) continue;
    // Flows are sorted by fromTs: stop once they start after the view.
    for (std::size_t i = 0; i < t->flows.size() && out.size() < maxArrows; ++i) {
      const core::Flow& f = t->flows[i];
      if (f.fromTs >= view.end) break;
      if (!want[f.category]) continue;
      if (static_cast<int>(rk) == rank && selected.valid() && (f.from == selected || f.to == selected)) continue;
      addFlow(static_cast<int>(rk), *t, i, false);
    }
  }
  return out;
}

}  // namespace npuscope::widgets
