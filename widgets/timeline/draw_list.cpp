// SPDX-License-Identifier: MIT
#include "widgets/timeline/draw_list.h"

#include "core/base/counter_units.h"
#include "core/base/page_memory.h"

#include <QFontMetricsF>
#include <algorithm>
#include <climits>
#include <limits>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/query/lod.h"
#include "core/base/time_format.h"
#include "widgets/timeline/color_palette.h"

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


}  // namespace

QPolygonF fillOutline(const QPolygonF& poly) {
  if (poly.size() < 3) return poly;
  QPolygonF out;
  out.reserve(poly.size());
  out << poly.front();
  for (qsizetype i = 1; i + 1 < poly.size(); ++i) {
    const QPointF a = out.back(), b = poly[i], c = poly[i + 1];
    const bool onRun = (a.y() == b.y() && b.y() == c.y() && (a.x() <= b.x()) == (b.x() <= c.x())) ||
                       (a.x() == b.x() && b.x() == c.x() && (a.y() <= b.y()) == (b.y() <= c.y()));
    if (!onRun) out << b;
  }
  out << poly.back();
  return out;
}

namespace {

// Step-area polygon of a counter series in view. Samples falling in the same pixel column keep
// their maximum; the output is O(widthPx) points and the cost O(widthPx * log n).
DrawCounter buildCounter(const core::Trace& trace, const LayoutRow& row, int rowIndex, const TimeRange& view,
                         double width, double top, double height) {
  DrawCounter dc;
  dc.row = rowIndex;
  dc.color = ColorPalette::chrome().counter;
  const core::CounterSeries& cs = trace.counters[row.counter];
  dc.maxText = counterValueText(trace, row.counter, row.counterMax);
  if (cs.ts.empty()) return dc;
  const double lo = row.counterMin, hi = row.counterMax;
  const double span = hi - lo;
  const double base = top + height;
  auto yOf = [&](double v) { return span > 0 ? base - (v - lo) / span * height : base; };
  // First sample whose value is held at view.start.
  auto it = std::upper_bound(cs.ts.begin(), cs.ts.end(), view.start);
  std::size_t i = it == cs.ts.begin() ? 0 : static_cast<std::size_t>(it - cs.ts.begin()) - 1;
  const auto xOf = [&](TimeNs t) {
    return std::clamp(core::timeToX(t, view, width), -kClampMarginPx, width + kClampMarginPx);
  };
  const TimeNs holdEnd = std::max(trace.range.end, cs.ts.back());
  const double xEnd = xOf(holdEnd);
  QPolygonF& poly = dc.area;
  double firstX = xOf(cs.ts[i]);
  poly << QPointF(firstX, yOf(lo > 0 ? lo : 0.0));
  double curX = firstX;
  double curV = cs.value[i];
  double colMax = curV;
  long curCol = static_cast<long>(std::floor(curX));
  poly << QPointF(curX, yOf(curV));
  // Column by column: the samples [k, m) of one pixel column are found by a galloping search and
  // their maximum by core::counterRangeMax (block maxima), so the cost is O(widthPx * log n).
  const std::size_t limit =
      static_cast<std::size_t>(std::lower_bound(cs.ts.begin() + static_cast<std::ptrdiff_t>(i), cs.ts.end(), view.end) -
                               cs.ts.begin());
  const auto xAt = [&](std::size_t k) { return xOf(cs.ts[k]); };
  const auto colOfTime = [&](TimeNs t) { return static_cast<long>(std::floor(xOf(t))); };
  const long lastCol = static_cast<long>(std::floor(width + kClampMarginPx));
  const double nsPerPx = static_cast<double>(view.duration()) / width;
  // First index in [from, limit) whose column is after `col` (columns never decrease with k):
  // the first time of the next column is found once (exactly, by colOfTime), then a galloping
  // search compares timestamps only (no division per probe).
  // Neighbouring columns hold about as many samples: the search for a column's end starts where
  // the previous column's count predicts it.
  std::size_t lastCount = 0;
  const auto columnEnd = [&](std::size_t from, long col) {
    if (col >= lastCol) return limit;  // clamped: every later sample is in this column
    const TimeNs tEnd = core::firstTimeAfterColumn(col, view.start, nsPerPx, colOfTime);
    return core::counterLowerBound(cs, from, limit, tEnd, from + lastCount);
  };
  // The samples at a column's end lie far apart in memory when zoomed out (a cache miss for its
  // time and one for its value): fetch those of the column kAheadCols to the right early, found
  // by walking the block starts (CounterLod::ts8, in cache) forwards.
  constexpr long kAheadCols = 8;
  const std::vector<TimeNs>& blockStarts = cs.lod.ts8;
  const bool haveBlocks = blockStarts.size() * core::CounterLod::kBlock >= cs.ts.size();
  std::size_t aheadBlock = i / core::CounterLod::kBlock;
  const auto fetchAhead = [&](long col) {
    if (!haveBlocks) return;
    const TimeNs t = view.start + static_cast<TimeNs>(static_cast<double>(col + kAheadCols + 1) * nsPerPx);
    // The last block starting at or before t, searched from where the last column's count puts it.
    const std::size_t from = aheadBlock + 1;
    aheadBlock = core::gallopLowerBoundNear(from, blockStarts.size(), from + lastCount / core::CounterLod::kBlock,
                                            t + 1, [&](std::size_t b) { return blockStarts[b]; }) - 1;
    // The block's first and last sample (indices kept inside the series), and the one before.
    const std::size_t n = std::min(cs.ts.size(), cs.value.size());
    const std::size_t j = std::min(aheadBlock * core::CounterLod::kBlock, n - 1);
    const std::size_t last = std::min(j + 7, n - 1);
    __builtin_prefetch(cs.ts.data() + j);
    __builtin_prefetch(cs.ts.data() + last);
    __builtin_prefetch(cs.value.data() + (j > 0 ? j - 1 : 0));
    __builtin_prefetch(cs.value.data() + last);
  };
  for (std::size_t k = i + 1; k < limit;) {
    const double x = xAt(k);
    const long col = static_cast<long>(std::floor(x));
    fetchAhead(col);
    const std::size_t m = columnEnd(k + 1, col);
    lastCount = m - k;
    const double mMax = core::counterRangeMax(cs, k, m);
    if (col == curCol) {
      // Same pixel column: keep the maximum visible, remember the latest value to hold.
      colMax = std::max(colMax, mMax);
    } else {
      poly << QPointF(x, poly.back().y());
      poly << QPointF(x, yOf(cs.value[k]));
      curX = x;
      curCol = col;
      colMax = mMax;
    }
    curV = cs.value[m - 1];
    if (poly.back().y() > yOf(colMax)) poly.back().setY(yOf(colMax));
    k = m;
  }
  // Hold the last value (or the one of the last column) until the trace end or the view end.
  const double stopX = std::min(xEnd, width + kClampMarginPx);
  if (stopX > poly.back().x()) poly << QPointF(stopX, yOf(curV));
  poly << QPointF(poly.back().x(), yOf(lo > 0 ? lo : 0.0));
  dc.fillArea = fillOutline(poly);
  return dc;
}

}  // namespace

NameColorCache::Entry* NameColorCache::entryFor(int rank, const std::shared_ptr<const core::Trace>& tracePtr) {
  if (rank < 0) return nullptr;
  const core::Trace& trace = *tracePtr;
  if (static_cast<std::size_t>(rank) >= m_ranks.size()) m_ranks.resize(static_cast<std::size_t>(rank) + 1);
  Entry& e = m_ranks[static_cast<std::size_t>(rank)];
  // Same address and still alive: the same object (a new trace may reuse a freed one's address).
  if (e.raw != &trace || e.trace.expired()) {
    e.raw = &trace;
    e.trace = tracePtr;
    e.entry.assign(trace.strings.size(), 0);
  }
  if (m_palette.empty()) {
    for (int i = 0; i < ColorPalette::kTableSize; ++i) m_palette.push_back(ColorPalette::tableColor(i));
  }
  return &e;
}

NameColorCache::Lookup NameColorCache::lookup(int rank, const std::shared_ptr<const core::Trace>& trace) {
  Lookup l;
  l.m_cache = this;
  l.m_rank = rank;
  l.m_trace = &trace;
  if (const Entry* e = entryFor(rank, trace)) {
    l.m_slots = e->entry.data();
    l.m_count = e->entry.size();
    l.m_palette = m_palette.data();
  }
  return l;
}

QRgb NameColorCache::color(int rank, const std::shared_ptr<const core::Trace>& tracePtr, core::NameId id) {
  const core::Trace& trace = *tracePtr;
  if (rank < 0 || id >= trace.strings.size()) return ColorPalette::colorForName(trace.name(id));
  Entry& e = *entryFor(rank, tracePtr);
  std::uint8_t& slot = e.entry[id];
  if (slot == 0) {
    const QRgb c = ColorPalette::colorForName(trace.name(id));
    const auto it = std::find(m_palette.begin(), m_palette.end(), c);
    if (it == m_palette.end()) return c;  // not a table colour (never happens): not memoised
    slot = static_cast<std::uint8_t>(it - m_palette.begin() + 1);
  }
  return m_palette[slot - 1u];
}

std::size_t NameColorCache::memoryBytes() const {
  std::size_t b = m_ranks.capacity() * sizeof(Entry) + m_palette.capacity() * sizeof(QRgb);
  for (const Entry& e : m_ranks) b += e.entry.capacity();
  return b;
}

DrawList buildDrawList(const core::Profile& profile, const LaneLayout& layout, const DrawParams& p) {
  DrawList out;
  buildDrawList(profile, layout, p, out);
  return out;
}

void buildDrawList(const core::Profile& profile, const LaneLayout& layout, const DrawParams& p, DrawList& out) {
  out.boxes.clear();
  out.rowRanges.clear();
  out.labels.clear();
  out.counters.clear();
  if (p.view.empty() || !(p.widthPx > 0)) return;
  const auto& rows = layout.rows();
  const auto [r0, r1] = layout.rowsIn(p.yTop, p.yBottom);
  const auto& m = layout.metrics();
  const QFontMetricsF fm(p.font);
  const double labelPad = 4.0;
  thread_local std::vector<core::SpanBox> spans;

  // Appends the boxes of `spans` (one lane) to the row. Consecutive merged boxes (count > 1) whose
  // longest slices have the same name and that less than a pixel separates become one box (its
  // `ref` the longer of the two): same picture, fewer boxes to build and fill when zoomed out.
  auto emitSpans = [&](const std::shared_ptr<const core::Trace>& tracePtr, int rank, int rowIndex,
                       std::uint32_t laneIndex, double y, double h, bool withLabels, bool mergeRuns) {
    const core::Trace& trace = *tracePtr;
    const core::Lane& lane = trace.lanes[laneIndex];
    // The flags column, read once (LaneColumn::data() picks inline or heap storage); the name and
    // duration of each box's longest slice come with the span (core::SpanBox).
    const std::uint8_t* flags = lane.flags.data();
    std::optional<NameColorCache::Lookup> colors;
    if (p.colors) colors = p.colors->lookup(rank, tracePtr);
    out.boxes.reserve(out.boxes.size() + spans.size());
    const double nsPerPx = static_cast<double>(p.view.duration()) / p.widthPx;
    DrawBox* run = nullptr;  // the last box, while it is a merged one of this lane
    core::NameId runName = 0;
    TimeNs runLongestDur = 0;  // duration of run->ref
    // A zoomed-out row's boxes have names (and single slices) far apart: their colour slots and
    // flags are fetched kAhead boxes early.
    constexpr std::size_t kAhead = 8;
    for (std::size_t k = 0; k < spans.size(); ++k) {
      if (k + kAhead < spans.size()) {
        const core::SpanBox& ahead = spans[k + kAhead];
        if (colors) colors->prefetch(ahead.longestName);
        if (ahead.count == 1) __builtin_prefetch(flags + ahead.first);
        // and the line of the box written kAhead boxes from now (the list's memory left the cache
        // since the last frame); inside the capacity reserved above, since k + kAhead < spans.size()
        __builtin_prefetch(out.boxes.data() + out.boxes.size() + kAhead, 1);
      }
      const core::SpanBox& s = spans[k];
      const std::uint32_t refIndex = s.count == 1 ? s.first : s.longest;
      const core::NameId nameId = s.longestName;
      if (run && s.count > 1 && nameId == runName && static_cast<double>(s.start - run->time.end) < nsPerPx) {
        const QRectF r = boxRect(s.start, s.end, p.view, p.widthPx, y, h);
        run->rect.setRight(std::max(run->rect.right(), r.right()));
        run->time.end = s.end;
        run->count += s.count;
        if (s.longestDur > runLongestDur) {
          run->ref.index = refIndex;
          runLongestDur = s.longestDur;
        }
        continue;
      }
      // Built whole (not value-initialised, then assigned: that zeroing was a `rep stos` per box).
      DrawBox& b = out.boxes.emplace_back(DrawBox{
          boxRect(s.start, s.end, p.view, p.widthPx, y, h),
          colors ? colors->color(nameId) : ColorPalette::colorForName(trace.name(nameId)), rowIndex, rank,
          core::SliceRef{laneIndex, refIndex}, s.first, s.count, core::TimeRange{s.start, s.end},
          static_cast<std::uint8_t>(s.count == 1 ? flags[s.first] : 0)});
      run = mergeRuns && s.count > 1 ? &b : nullptr;
      runName = nameId;
      runLongestDur = s.longestDur;
      if (withLabels && s.count == 1 && b.rect.width() >= p.minLabelPx) {
        const std::string_view name = trace.name(nameId);
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
      emitSpans(trace, row.rank, ri, row.lane, row.y, m.sliceRow - 1, p.labels, true);
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
        emitSpans(trace, row.rank, ri, l, y, h, false, true);
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

const std::vector<FlowArrowIndex::Kind>& FlowArrowIndex::kinds(int rank,
                                                               const std::shared_ptr<const core::Trace>& tracePtr) {
  const core::Trace& trace = *tracePtr;
  const auto r = static_cast<std::size_t>(std::max(rank, 0));
  if (r >= m_ranks.size()) m_ranks.resize(r + 1);
  Entry& e = m_ranks[r];
  if (e.raw == &trace && !e.trace.expired()) return e.kinds;
  e.raw = &trace;
  e.trace = tracePtr;
  e.kinds.clear();
  // Two passes: the kind of every flow and the size of every kind first, then each kind's
  // columns filled at their final size (growing them by push_back, then trimming them, touched
  // three to four times their size in fresh pages: most of the first arrows frame's 185 ms on
  // 2.2 M flows).
  using Key = std::tuple<core::NameId, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;
  std::map<Key, std::uint32_t> byKey;
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  // The big arrays (~20 bytes per flow: 44 MB at 2.2 M flows) on transparent huge pages
  // (core::detail::reserveLarge): on 4 KiB pages their first touch was ~11,000 page faults and
  // about a third of the first arrows frame.
  std::vector<std::uint32_t> kindOf;
  core::detail::reserveLarge(kindOf, trace.flows.size());
  kindOf.assign(trace.flows.size(), kNone);
  std::vector<std::size_t> sizes;
  Key lastKey{};
  std::uint32_t lastKind = kNone;  // consecutive flows are often of one kind: no map lookup
  for (std::uint32_t i = 0; i < trace.flows.size(); ++i) {
    const core::Flow& f = trace.flows[i];
    if (!f.from.valid() || !f.to.valid() || f.from.lane >= trace.lanes.size() || f.to.lane >= trace.lanes.size())
      continue;
    const core::Lane& fl = trace.lanes[f.from.lane];
    const core::Lane& tl = trace.lanes[f.to.lane];
    if (f.from.index >= fl.sliceCount() || f.to.index >= tl.sliceCount()) continue;
    const Key key = std::make_tuple(f.category, f.from.lane, fl.depthOf(f.from.index), f.to.lane, tl.depthOf(f.to.index));
    if (lastKind == kNone || key != lastKey) {
      const auto [it, fresh] = byKey.try_emplace(key, static_cast<std::uint32_t>(e.kinds.size()));
      if (fresh) {
        Kind k;
        std::tie(k.category, k.fromLane, k.fromDepth, k.toLane, k.toDepth) = key;
        e.kinds.push_back(std::move(k));
        sizes.push_back(0);
      }
      lastKey = key;
      lastKind = it->second;
    }
    kindOf[i] = lastKind;
    ++sizes[lastKind];
  }
  for (std::size_t k = 0; k < e.kinds.size(); ++k) {
    core::detail::reserveLarge(e.kinds[k].flows, sizes[k]);
    core::detail::reserveLarge(e.kinds[k].fromTs, sizes[k]);
    core::detail::reserveLarge(e.kinds[k].toTs, sizes[k]);
  }
  for (std::uint32_t i = 0; i < trace.flows.size(); ++i) {
    if (kindOf[i] == kNone) continue;
    const core::Flow& f = trace.flows[i];
    Kind& k = e.kinds[kindOf[i]];
    k.flows.push_back(i);
    k.fromTs.push_back(f.fromTs);
    k.toTs.push_back(f.toTs);
    k.maxSpan = std::max(k.maxSpan, f.toTs > f.fromTs ? f.toTs - f.fromTs : f.fromTs - f.toTs);
  }
  for (Kind& k : e.kinds) {
    const std::size_t blocks = (k.flows.size() + Kind::kBlock - 1) / Kind::kBlock;
    k.blockLatest.assign(blocks, std::numeric_limits<TimeNs>::min());
    k.blockFirst.resize(blocks);
    for (std::size_t j = 0; j < k.flows.size(); ++j) {
      TimeNs& latest = k.blockLatest[j / Kind::kBlock];
      latest = std::max({latest, k.fromTs[j], k.toTs[j]});
      if (j % Kind::kBlock == 0) k.blockFirst[j / Kind::kBlock] = k.fromTs[j];
    }
  }
  return e.kinds;
}

std::size_t FlowArrowIndex::memoryBytes() const {
  std::size_t b = m_ranks.capacity() * sizeof(Entry);
  for (const Entry& e : m_ranks) {
    b += e.kinds.capacity() * sizeof(Kind);
    for (const Kind& k : e.kinds)
      b += k.flows.capacity() * 4 + (k.fromTs.capacity() + k.blockLatest.capacity()) * sizeof(TimeNs);
  }
  return b;
}

namespace {

/// Turns flows into arrows: each end anchored at the flow's own timestamp on its slice's row
/// (kept inside the slice); a flow whose time span misses the view, or an end whose row is not
/// laid out, gives no arrow.
class ArrowPlacer {
 public:
  ArrowPlacer(const LaneLayout& layout, TimeRange view, double widthPx, std::vector<FlowArrow>& out)
      : m_layout(layout), m_view(view), m_widthPx(widthPx), m_out(out) {}

  /// Appends the arrow of flow `fi` of rank `rk`'s trace `t` (`own`: of the selection).
  void add(int rk, const core::Trace& t, std::size_t fi, bool own) const {
    const core::Flow& f = t.flows[fi];
    const TimeRange span{std::min(f.fromTs, f.toTs), std::max(f.fromTs, f.toTs) + 1};
    if (!span.overlaps(m_view)) return;
    FlowArrow a;
    a.flowIndex = static_cast<int>(fi);
    a.rank = rk;
    a.ofSelection = own;
    if (!endpoint(rk, t, f.from, f.fromTs, a.from) || !endpoint(rk, t, f.to, f.toTs, a.to)) return;
    m_out.push_back(a);
  }

 private:
  /// The point of an end: on `ref`'s row at `ts` clamped to the slice; false when not laid out.
  bool endpoint(int rk, const core::Trace& t, core::SliceRef ref, TimeNs ts, QPointF& pt) const {
    if (!ref.valid() || ref.lane >= t.lanes.size()) return false;
    const core::Lane& lane = t.lanes[ref.lane];
    if (ref.index >= lane.sliceCount()) return false;
    const int row = m_layout.rowOfSlice(rk, ref.lane, lane.depthOf(ref.index), true);
    if (row < 0) return false;
    const LayoutRow& r = m_layout.rows()[static_cast<std::size_t>(row)];
    // Anchor at the flow's own timestamp, kept inside the bound slice.
    const TimeNs t0 = std::clamp(ts, lane.start[ref.index], lane.end[ref.index]);
    const double x = std::clamp(core::timeToX(t0, m_view, m_widthPx), -1e5, m_widthPx + 1e5);
    const double h = r.kind == LayoutRow::Kind::Slices ? m_layout.metrics().sliceRow - 1 : r.height;
    pt = QPointF(x, r.y + h / 2.0);
    return true;
  }

  const LaneLayout& m_layout;
  TimeRange m_view;
  double m_widthPx;
  std::vector<FlowArrow>& m_out;
};

/// The flows (rank, index into its Trace::flows) picked for drawing.
using PickedFlows = std::vector<std::pair<int, std::uint32_t>>;

constexpr std::size_t kExamined = 16;  // flows of a kind examined per column
constexpr std::size_t kDistinct = 2;   // arrows of a kind drawn per column (distinct end columns)

/// The pixel columns of one thinning pass: columns of a given width over the view.
struct Columns {
  TimeRange view;
  double bucketNs = 1;      ///< a column's width, ns
  long long lastColumn = 0;  ///< the column after the view's last one
  /// The column of `ts` (column 0 starts at the view's start).
  [[nodiscard]] long long of(TimeNs ts) const {
    return static_cast<long long>(std::floor(static_cast<double>(ts - view.start) / bucketNs));
  }
};

/// One kind's flows as a thinning pass reads them: its own columns (fromTs, toTs) and, only when
/// a slice of its rank is selected, the Flow itself (the selection's own flows are drawn already).
struct KindScan {
  const FlowArrowIndex::Kind& kind;
  const std::vector<core::Flow>& flows;
  bool ownRank = false;  ///< a slice of this kind's rank is selected
  core::SliceRef selected;
  const Columns& cols;

  /// Its entries (flows by start), and entry k's start.
  [[nodiscard]] std::size_t size() const { return kind.flows.size(); }
  [[nodiscard]] TimeNs from(std::size_t k) const { return kind.fromTs[k]; }
  /// Entry k is drawn: it reaches into the view and is not one of the selection's own flows.
  [[nodiscard]] bool keep(std::size_t k) const {
    if (std::max(kind.fromTs[k], kind.toTs[k]) < cols.view.start) return false;
    if (!ownRank) return true;
    const core::Flow& f = flows[kind.flows[k]];
    return !(f.from == selected || f.to == selected);
  }
  /// The column of entry k's end (clamped to just outside the view).
  [[nodiscard]] long long endColumnOf(std::size_t k) const {
    return std::clamp(cols.of(kind.toTs[k]), -1LL, cols.lastColumn);
  }
  /// The first entry starting at or after v.
  [[nodiscard]] std::size_t firstFrom(TimeNs v) const {
    const TimeNs* from = kind.fromTs.data();
    return static_cast<std::size_t>(std::lower_bound(from, from + size(), v) - from);
  }
  /// The first entry k >= p starting at or after v: a galloping search over blockFirst (in
  /// cache), then a binary search in one block.
  [[nodiscard]] std::size_t firstAtOrAfter(std::size_t p, TimeNs v) const {
    constexpr std::size_t kB = FlowArrowIndex::Kind::kBlock;
    const TimeNs* from = kind.fromTs.data();
    const std::size_t n = size();
    if (p >= n || from[p] >= v) return p;
    // h: the first block after p's that starts at or after v; the answer is in block h - 1
    // or at its end.
    const TimeNs* blockFirst = kind.blockFirst.data();
    const std::size_t h =
        core::gallopLowerBound(p / kB + 1, kind.blockFirst.size(), v, [&](std::size_t b) { return blockFirst[b]; });
    const std::size_t a = std::max(p, (h - 1) * kB), e = std::min(n, h * kB);
    // The block's lines are far from the last column's when zoomed out: ask for all of them at
    // once, so that the binary search waits for one memory latency instead of one per probe.
    for (std::size_t k = a; k < e; k += 8) __builtin_prefetch(from + k);
    return static_cast<std::size_t>(std::lower_bound(from + a, from + e, v) - from);
  }
};

/// 1. The kind's flows starting before the view (at most maxSpan before it) that reach into it:
/// one per end column (their start columns are all off-screen to the left, where arrows from
/// distinct columns are indistinguishable lines; keying by them drew a fan of thousands when the
/// device lags the host); blocks whose flows all end before the view are skipped. False once
/// more than `limit` are picked.
bool pickBeforeView(const KindScan& s, int rk, std::size_t limit, PickedFlows& picked) {
  const TimeRange view = s.cols.view;
  TimeNs earliest = 0;
  if (__builtin_sub_overflow(view.start, s.kind.maxSpan, &earliest)) earliest = std::numeric_limits<TimeNs>::min();
  const std::size_t p0 = s.firstFrom(earliest), pv = s.firstFrom(view.start);
  std::set<long long> drawnEnds;  // end columns drawn for this kind's pre-view flows
  constexpr std::size_t kB = FlowArrowIndex::Kind::kBlock;
  for (std::size_t b = p0 / kB; b * kB < pv; ++b) {
    if (s.kind.blockLatest[b] < view.start) continue;
    for (std::size_t k = std::max(b * kB, p0); k < std::min((b + 1) * kB, pv); ++k) {
      if (!s.keep(k) || !drawnEnds.insert(s.endColumnOf(k)).second) continue;
      picked.emplace_back(rk, s.kind.flows[k]);
      if (picked.size() > limit) return false;
    }
  }
  return true;
}

/// 2. The kind's flows starting in the view, column by column: [p, q) start in the same column
/// (the first time of the next column computed once, exactly, by Columns::of); of the first
/// kExamined of a column, one per distinct end column, at most kDistinct. False once more than
/// `limit` are picked.
bool pickInView(const KindScan& s, int rk, std::size_t limit, PickedFlows& picked) {
  const TimeRange view = s.cols.view;
  const Columns& cols = s.cols;
  const auto bucketOf = [&cols](TimeNs ts) { return cols.of(ts); };
  std::vector<long long> ends;  // end columns picked for the current start column
  const std::size_t n = s.size();
  for (std::size_t p = s.firstFrom(view.start); p < n && s.from(p) < view.end;) {
    const long long col = cols.of(s.from(p));
    const TimeNs next = core::firstTimeAfterColumn(col, view.start, cols.bucketNs, bucketOf);
    const std::size_t q = s.firstAtOrAfter(p + 1, std::min(next, view.end));
    ends.clear();
    for (std::size_t k = p; k < q && k - p < kExamined && ends.size() < kDistinct; ++k) {
      if (!s.keep(k)) continue;
      const long long endCol = s.endColumnOf(k);
      if (std::find(ends.begin(), ends.end(), endCol) != ends.end()) continue;
      ends.push_back(endCol);
      picked.emplace_back(rk, s.kind.flows[k]);
      if (picked.size() > limit) return false;
    }
    p = q;
  }
  return true;
}

/// The flows of the wanted categories of every rank, thinned per kind in pixel columns.
class CategoryFlows {
 public:
  CategoryFlows(const core::Profile& profile, TimeRange view, double widthPx, int rank, core::SliceRef selected,
                const QSet<QString>& categories, FlowArrowIndex& idx)
      : m_profile(profile), m_view(view), m_widthPx(widthPx), m_rank(rank), m_selected(selected), m_idx(idx),
        m_wantByRank(profile.ranks.size()) {
    // The wanted categories of each rank: a flag per NameId.
    for (std::size_t rk = 0; rk < profile.ranks.size(); ++rk) {
      const auto& t = profile.ranks[rk].trace;
      if (!t || t->flows.empty()) continue;
      std::vector<bool>& want = m_wantByRank[rk];
      for (const QString& c : categories) {
        const QByteArray u = c.toUtf8();
        const core::NameId id = t->strings.find(std::string_view(u.constData(), static_cast<std::size_t>(u.size())));
        if (id == core::kInvalidIndex) continue;
        if (want.size() <= id) want.resize(id + 1, false);
        want[id] = true;
      }
    }
  }

  /// Calls fn(rank index, trace, kind) for every kind of a wanted category, while it returns
  /// true; false when it returned false.
  template <class Fn>
  bool forEachWantedKind(Fn&& fn) const {
    for (std::size_t rk = 0; rk < m_profile.ranks.size(); ++rk) {
      const auto& t = m_profile.ranks[rk].trace;
      const std::vector<bool>& want = m_wantByRank[rk];
      if (!t || want.empty()) continue;
      for (const FlowArrowIndex::Kind& kind : m_idx.kinds(static_cast<int>(rk), t))
        if (kind.category < want.size() && want[kind.category] && !fn(rk, *t, kind)) return false;
    }
    return true;
  }

  /// The column width to start thinning with: the narrowest power of two px at which a bound of
  /// the count of arrows from flows starting in view fits the budget, divided by four (columns
  /// narrower than that are not tried), at least 1 px.
  [[nodiscard]] double firstColumnPx() const {
    std::vector<double> inView;  // flows of each wanted kind starting in view
    forEachWantedKind([&](std::size_t, const core::Trace&, const FlowArrowIndex::Kind& kind) {
      inView.push_back(static_cast<double>(std::lower_bound(kind.fromTs.begin(), kind.fromTs.end(), m_view.end) -
                                           std::lower_bound(kind.fromTs.begin(), kind.fromTs.end(), m_view.start)));
      return true;
    });
    const auto bound = [&](double c) {  // >= the arrows picked from flows starting in view
      double n = 0;
      for (double k : inView) n += std::min(k, (std::floor(m_widthPx / c) + 2) * static_cast<double>(kDistinct));
      return n;
    };
    double sure = 1;
    while (sure < kFlowMaxColumnPx && bound(sure) > kFlowArrowBudget) sure *= 2;
    return std::max(1.0, sure / 4);
  }

  /// A lower bound on the count pick(columnPx, ...) picks, exact enough to skip a pass that
  /// would fail: every column of the view in which a block of a kind's entries starts
  /// (Kind::blockFirst, in cache) holds a flow starting in view, and pickInView picks the first
  /// flow it examines in a column whenever it is kept, which a flow starting in view is unless it
  /// is one of the selected slice's own (the kinds of the selection's rank are not counted). No
  /// division per block: a column's end time is found once. Stops once over `limit`.
  [[nodiscard]] std::size_t picksAtLeast(double columnPx, std::size_t limit) const {
    const double nsPerPx = static_cast<double>(m_view.duration()) / m_widthPx;
    const Columns cols{m_view, columnPx * nsPerPx, static_cast<long long>(m_widthPx / columnPx) + 1};
    const auto bucketOf = [&cols](TimeNs ts) { return cols.of(ts); };
    std::size_t n = 0;
    forEachWantedKind([&](std::size_t rk, const core::Trace&, const FlowArrowIndex::Kind& kind) {
      if (static_cast<int>(rk) == m_rank && m_selected.valid()) return true;
      const std::vector<TimeNs>& first = kind.blockFirst;
      TimeNs next = std::numeric_limits<TimeNs>::min();  // the first time after the last column counted
      for (auto it = std::lower_bound(first.begin(), first.end(), m_view.start); it != first.end() && *it < m_view.end;
           ++it) {
        if (*it < next) continue;
        if (++n > limit) return false;
        next = core::firstTimeAfterColumn(cols.of(*it), m_view.start, cols.bucketNs, bucketOf);
      }
      return true;
    });
    return n;
  }

  /// The flows to draw when thinning in columns of `columnPx` into `picked`; stops early
  /// (returns false) once more than `limit` are picked.
  bool pick(double columnPx, std::size_t limit, PickedFlows& picked) const {
    picked.clear();
    const double nsPerPx = static_cast<double>(m_view.duration()) / m_widthPx;
    const Columns cols{m_view, columnPx * nsPerPx, static_cast<long long>(m_widthPx / columnPx) + 1};
    return forEachWantedKind([&](std::size_t rk, const core::Trace& t, const FlowArrowIndex::Kind& kind) {
      const bool ownRank = static_cast<int>(rk) == m_rank && m_selected.valid();
      const KindScan s{kind, t.flows, ownRank, m_selected, cols};
      return pickBeforeView(s, static_cast<int>(rk), limit, picked) && pickInView(s, static_cast<int>(rk), limit, picked);
    });
  }

 private:
  const core::Profile& m_profile;
  TimeRange m_view;
  double m_widthPx;
  int m_rank;
  core::SliceRef m_selected;
  FlowArrowIndex& m_idx;
  std::vector<std::vector<bool>> m_wantByRank;
};

}  // namespace

std::vector<FlowArrow> buildFlowArrows(const core::Profile& profile, const LaneLayout& layout, TimeRange view,
                                       double widthPx, int rank, core::SliceRef selected,
                                       const QSet<QString>& categories, std::size_t maxArrows,
                                       FlowArrowIndex* index) {
  std::vector<FlowArrow> out;
  if (view.empty() || !(widthPx > 0)) return out;
  const ArrowPlacer placer(layout, view, widthPx, out);
  if (rank >= 0 && static_cast<std::size_t>(rank) < profile.ranks.size() && selected.valid()) {
    const auto& t = profile.ranks[static_cast<std::size_t>(rank)].trace;
    if (t) {
      // flowsFrom / flowsTo are O(log flows) on a loaded (indexed) trace.
      std::vector<std::uint32_t> own = t->flowsFrom(selected);
      for (std::uint32_t fi : t->flowsTo(selected))
        if (std::find(own.begin(), own.end(), fi) == own.end()) own.push_back(fi);
      std::sort(own.begin(), own.end());
      for (std::uint32_t fi : own) {
        if (out.size() >= maxArrows) break;
        placer.add(rank, *t, fi, true);
      }
    }
  }
  if (index) index->lastThinningPasses = 0;
  if (categories.isEmpty()) return out;
  FlowArrowIndex localIndex;
  const CategoryFlows flows(profile, view, widthPx, rank, selected, categories, index ? *index : localIndex);
  // The narrowest column (a power of two px) within the budget; the widest regardless.
  const auto budget = static_cast<std::size_t>(kFlowArrowBudget);
  PickedFlows picked;
  double columnPx = flows.firstColumnPx();
  // A pass that would pick more than the budget is skipped: the same column width results.
  while (columnPx < kFlowMaxColumnPx && flows.picksAtLeast(columnPx, budget) > budget) columnPx *= 2;
  int passes = 1;
  while (!flows.pick(columnPx, columnPx < kFlowMaxColumnPx ? budget : maxArrows, picked) && columnPx < kFlowMaxColumnPx) {
    columnPx *= 2;
    ++passes;
  }
  if (index) index->lastThinningPasses = passes;
  for (const auto& [rk, fi] : picked) {
    if (out.size() >= maxArrows) break;
    placer.add(rk, *profile.ranks[static_cast<std::size_t>(rk)].trace, fi, false);
  }
  return out;
}

QString counterValueText(const core::Trace& trace, std::uint32_t counter, double value) {
  if (counter >= trace.counters.size()) return QString::fromStdString(core::formatCounterValue(value, core::CounterUnit::None));
  const core::CounterSeries& cs = trace.counters[counter];
  return QString::fromStdString(core::formatCounterValue(value, core::counterUnitOf(trace.name(cs.name), trace.name(cs.key))));
}

}  // namespace npuscope::widgets
