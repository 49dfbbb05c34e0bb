// SPDX-License-Identifier: MIT
#include "widgets/timeline/draw_list.h"

#include <QImage>
#include <QPainter>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/color_palette.h"

using namespace npuscope;
using testing::kBase;
using widgets::DrawBox;
using widgets::DrawList;
using widgets::DrawParams;
using widgets::LaneLayout;

namespace {

// 10 ns per px: the view [kBase, kBase + 10 us) over 1000 px.
DrawParams params(core::TimeRange view = {kBase, kBase + 10'000}, double width = 1000) {
  DrawParams p;
  p.view = view;
  p.widthPx = width;
  p.yTop = 0;
  p.yBottom = 10'000;
  return p;
}

std::vector<const DrawBox*> boxesOfRow(const DrawList& list, int row) {
  std::vector<const DrawBox*> out;
  for (const auto& b : list.boxes)
    if (b.row == row) out.push_back(&b);
  return out;
}

}  // namespace

TEST_CASE("draw list rects for a known lane and viewport", "[draw_list]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  LaneLayout layout;
  layout.setProfile(profile);
  const int sliceH = layout.metrics().sliceRow - 1;
  const DrawList list = widgets::buildDrawList(*profile, layout, params());

  // Row 2 = lane 0 depth 0: outer [0,1000) ns, tail [1000,1000) (zero-length), late [5000,9000).
  const int y2 = layout.rows()[2].y;
  auto row2 = boxesOfRow(list, 2);
  REQUIRE(row2.size() == 3);
  CHECK(row2[0]->rect == QRectF(0, y2, 100, sliceH));
  CHECK(row2[0]->ref == core::SliceRef{0, 0});
  CHECK(row2[0]->count == 1);
  CHECK(row2[0]->color == widgets::ColorPalette::colorForName("outer"));
  // The zero-length slice is drawn 1 px wide at its instant.
  CHECK(row2[1]->rect == QRectF(100, y2, 1, sliceH));
  CHECK(row2[1]->ref == core::SliceRef{0, 1});
  CHECK(row2[2]->rect == QRectF(500, y2, 400, sliceH));

  // Row 3 = depth 1: inner [100,400), inner2 [500,900).
  auto row3 = boxesOfRow(list, 3);
  REQUIRE(row3.size() == 2);
  CHECK(row3[0]->rect == QRectF(10, layout.rows()[3].y, 30, sliceH));
  CHECK(row3[1]->rect == QRectF(50, layout.rows()[3].y, 40, sliceH));

  // Row 5 = lane 1: flags travel with the boxes.
  auto row5 = boxesOfRow(list, 5);
  REQUIRE(row5.size() == 2);
  CHECK(row5[0]->flags == core::kSlicePartialOverlap);
  CHECK(row5[1]->flags == core::kSliceUnfinished);
  CHECK(row5[1]->rect == QRectF(200, layout.rows()[5].y, 800, sliceH));

  // Row ranges index the boxes by row.
  REQUIRE(list.rowRanges.size() == 3);
  CHECK(list.rowRanges[0].row == 2);
  CHECK(list.rowRanges[0].end - list.rowRanges[0].begin == 3);

  // Labels only for boxes at least 20 px wide: outer, late, inner, inner2, kernelA, kernelB;
  // never for the 1 px tail.
  CHECK(list.labels.size() == 6);
  for (const auto& l : list.labels) CHECK(l.text != QStringLiteral("tail"));
}

TEST_CASE("culling keeps only visible slices, clamped to the canvas", "[draw_list]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  LaneLayout layout;
  layout.setProfile(profile);
  const DrawList list = widgets::buildDrawList(*profile, layout, params({kBase + 5000, kBase + 6000}, 1000));
  auto row2 = boxesOfRow(list, 2);
  REQUIRE(row2.size() == 1);  // only "late" [5000, 9000)
  CHECK(row2[0]->ref == core::SliceRef{0, 2});
  CHECK(row2[0]->rect.left() == 0);
  CHECK(row2[0]->rect.right() <= 1000 + 16);
  CHECK(boxesOfRow(list, 3).empty());
  auto row5 = boxesOfRow(list, 5);
  REQUIRE(row5.size() == 1);  // kernelB [2000, 10000) crosses the whole view
  CHECK(row5[0]->rect.left() < 0);
  CHECK(row5[0]->rect.right() > 1000);
}

TEST_CASE("sub-pixel slices merge into boxes at least 1 px wide", "[draw_list]") {
  // 100 slices of 2 ns every 3 ns from 3000: 0.2 px each at 10 ns/px. Named by the parity of
  // their pixel column, so that the boxes of neighbouring columns differ.
  const auto build = [](bool sameName) {
    auto t = std::make_shared<core::Trace>();
    const auto p = testing::addProcess(*t, 1, "P");
    std::vector<testing::SliceSpec> tiny;
    for (int i = 0; i < 100; ++i) {
      const int start = 3000 + 3 * i;
      const char* name = sameName ? "tiny" : ((start / 10) % 2 ? "odd" : "even");
      tiny.push_back({0, kBase + start, kBase + start + 2, name, "", 0, ""});
    }
    tiny.push_back({0, kBase + 6000, kBase + 7000, "big", "", 0, ""});
    testing::addLane(*t, p, 1, "T", tiny);
    testing::finishRange(*t);
    t->range = {kBase, kBase + 10'000};
    return testing::makeProfile({t});
  };
  auto profile = build(false);
  LaneLayout layout;
  layout.setProfile(profile);
  const DrawList list = widgets::buildDrawList(*profile, layout, params());
  auto row = boxesOfRow(list, 2);
  REQUIRE(row.size() >= 2);
  const DrawBox* big = row.back();
  CHECK(big->count == 1);
  CHECK(big->rect == QRectF(600, layout.rows()[2].y, 100, layout.metrics().sliceRow - 1));
  row.pop_back();
  // The merged boxes cover the 100 tiny slices exactly once, in order, within [300, 331] px.
  std::uint32_t total = 0, next = 0;
  for (const DrawBox* b : row) {
    CHECK(b->count > 1);
    CHECK(b->first == next);
    CHECK(b->rect.width() >= widgets::kMinBoxWidthPx);
    CHECK(b->rect.left() >= 300);
    CHECK(b->rect.right() <= 331);
    next = b->first + b->count;
    total += b->count;
  }
  CHECK(total == 100);
  // Far fewer boxes than slices: one per pixel column (30 px of slices, 2 names alternating).
  CHECK(row.size() == 30);
  CHECK(row.front()->rect.left() == 300);
  CHECK(row.front()->count == 4);  // 3000, 3003, 3006, 3009 start before the 3010 boundary
  CHECK(row[1]->count == 3);       // 3012, 3015, 3018

  // With one name, neighbouring merged boxes (less than a pixel apart) become one box.
  auto same = build(true);
  LaneLayout layout2;
  layout2.setProfile(same);
  const DrawList list2 = widgets::buildDrawList(*same, layout2, params());
  auto row2 = boxesOfRow(list2, 2);
  REQUIRE(row2.size() == 2);
  CHECK(row2[0]->count == 100);
  CHECK(row2[0]->first == 0);
  CHECK(row2[0]->rect.left() == 300);
  // The last column's box [3291, 3299) is 0.8 px, drawn 1 px wide: it ends at 329.1 + 1.
  CHECK(row2[0]->rect.right() == Approx(330.1));
  CHECK(row2[0]->time == core::TimeRange{kBase + 3000, kBase + 3299});
  CHECK(row2[1]->count == 1);
}

TEST_CASE("hit-testing the draw list", "[draw_list]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  LaneLayout layout;
  layout.setProfile(profile);
  const DrawList list = widgets::buildDrawList(*profile, layout, params());
  const double y2 = layout.rows()[2].y + 8;
  const double y5 = layout.rows()[5].y + 8;
  auto hit = [&](double x, double y) {
    const DrawBox* b = widgets::hitTestDrawList(list, layout, QPointF(x, y));
    return b ? b->ref : core::SliceRef{};
  };
  CHECK(hit(50, y2) == core::SliceRef{0, 0});
  CHECK(hit(100.5, y2) == core::SliceRef{0, 1});  // the 1 px zero-length slice
  CHECK(hit(102, y2) == core::SliceRef{0, 1});    // within 2 px of it
  CHECK_FALSE(hit(300, y2).valid());              // gap
  CHECK(hit(700, y5) == core::SliceRef{1, 1});
  CHECK_FALSE(hit(50, layout.rows()[0].y + 5).valid());  // rank header
  CHECK_FALSE(hit(50, -10).valid());
}

TEST_CASE("flow arrows of the selected slice", "[draw_list]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  LaneLayout layout;
  layout.setProfile(profile);
  const double h = layout.metrics().sliceRow - 1;
  const core::TimeRange view{kBase, kBase + 10'000};
  auto arrows = widgets::buildFlowArrows(*profile, layout, view, 1000, 0, {0, 0}, {});
  REQUIRE(arrows.size() == 1);
  CHECK(arrows[0].ofSelection);
  CHECK(arrows[0].from == QPointF(5, layout.rows()[2].y + h / 2));   // fromTs = +50 ns
  CHECK(arrows[0].to == QPointF(20, layout.rows()[5].y + h / 2));    // toTs = +200 ns
  // The target end selects the same flow.
  CHECK(widgets::buildFlowArrows(*profile, layout, view, 1000, 0, {1, 0}, {}).size() == 1);
  // Another slice has no flows; a view not overlapping the flow culls it.
  CHECK(widgets::buildFlowArrows(*profile, layout, view, 1000, 0, {0, 2}, {}).empty());
  CHECK(widgets::buildFlowArrows(*profile, layout, {kBase + 5000, kBase + 6000}, 1000, 0, {0, 0}, {}).empty());
  // Category hook: all flows of a category, without a selection.
  auto byCat = widgets::buildFlowArrows(*profile, layout, view, 1000, -1, {}, {QStringLiteral("async_npu")});
  REQUIRE(byCat.size() == 1);
  CHECK_FALSE(byCat[0].ofSelection);
  CHECK(widgets::buildFlowArrows(*profile, layout, view, 1000, -1, {}, {QStringLiteral("fwdbwd")}).empty());
  // A collapsed process: the arrow ends on its header row.
  layout.setProcessExpanded(0, 1, false);
  arrows = widgets::buildFlowArrows(*profile, layout, view, 1000, 0, {0, 0}, {});
  REQUIRE(arrows.size() == 1);
  const auto& hdr = layout.rows()[4];
  CHECK(arrows[0].to.y() == hdr.y + hdr.height / 2.0);
}

TEST_CASE("collapsed process headers show a summary of their lanes", "[draw_list]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  LaneLayout layout;
  layout.setProfile(profile);
  layout.setProcessExpanded(0, 0, false);  // CANN: rows 0 rank, 1 CANN header, 2 HW header, 3 lane 1
  const DrawList list = widgets::buildDrawList(*profile, layout, params());
  auto summary = boxesOfRow(list, 1);
  REQUIRE(summary.size() == 3);  // depth 0 of lane 0: outer, tail, late
  CHECK(summary[0]->ref == core::SliceRef{0, 0});
  CHECK(summary[0]->rect.height() < layout.rows()[1].height);
  // Hovering the strip finds the slice; the header's empty top part does not.
  const QRectF r = summary[2]->rect;
  const DrawBox* hit = widgets::hitTestDrawList(list, layout, r.center());
  REQUIRE(hit);
  CHECK(hit->ref == core::SliceRef{0, 2});
  CHECK_FALSE(widgets::hitTestDrawList(list, layout, QPointF(r.center().x(), layout.rows()[1].y + 1)));
}

TEST_CASE("counter rows become step-area polygons", "[draw_list]") {
  auto t = testing::makeTwoLaneTrace();
  core::CounterSeries cs;
  cs.process = 1;
  cs.name = t->strings.intern("HBM");
  cs.key = t->strings.intern("MB");
  cs.ts = {kBase + 0, kBase + 2000, kBase + 4000};
  cs.value = {10, 40, 20};
  t->counters.push_back(cs);
  auto profile = testing::makeProfile({t});
  LaneLayout layout;
  layout.setProfile(profile);
  const DrawList list = widgets::buildDrawList(*profile, layout, params());
  REQUIRE(list.counters.size() == 1);
  const auto& c = list.counters[0];
  const auto& row = layout.rows()[static_cast<std::size_t>(c.row)];
  CHECK(row.kind == widgets::LayoutRow::Kind::Counter);
  const QRectF bounds = c.area.boundingRect();
  CHECK(bounds.left() == 0);
  CHECK(bounds.right() == 1000);  // last value held to the trace end
  CHECK(bounds.top() >= row.y);
  CHECK(bounds.bottom() <= row.y + row.height);
  // Steps: the x of every sample appears as a vertical edge.
  int at200 = 0, at400 = 0;
  for (const QPointF& pt : c.area) {
    at200 += pt.x() == 200;
    at400 += pt.x() == 400;
  }
  CHECK(at200 == 2);
  CHECK(at400 == 2);
  // The key "MB" is mebibytes (core::counterUnitOf): the maximum, 40, reads "40 MiB".
  CHECK(c.maxText == QStringLiteral("40 MiB"));
}

namespace {

// The counter polygon as the per-sample algorithm builds it (every sample read): a second route
// to the result of buildDrawList's column-by-column version with block maxima.
QPolygonF counterPolygonBySample(const core::CounterSeries& cs, core::TimeNs traceEnd, core::TimeRange view,
                                 double width, double lo, double hi, double top, double height) {
  const double margin = 16.0;
  const auto yOf = [&](double v) { return hi > lo ? top + height - (v - lo) / (hi - lo) * height : top + height; };
  const auto xOf = [&](core::TimeNs t) { return std::clamp(core::timeToX(t, view, width), -margin, width + margin); };
  auto it = std::upper_bound(cs.ts.begin(), cs.ts.end(), view.start);
  std::size_t i = it == cs.ts.begin() ? 0 : static_cast<std::size_t>(it - cs.ts.begin()) - 1;
  QPolygonF poly;
  poly << QPointF(xOf(cs.ts[i]), yOf(lo > 0 ? lo : 0.0)) << QPointF(xOf(cs.ts[i]), yOf(cs.value[i]));
  double curV = cs.value[i], colMax = curV;
  long curCol = static_cast<long>(std::floor(xOf(cs.ts[i])));
  for (std::size_t k = i + 1; k < cs.ts.size() && cs.ts[k] < view.end; ++k) {
    const double x = xOf(cs.ts[k]);
    const long col = static_cast<long>(std::floor(x));
    if (col == curCol) {
      colMax = std::max(colMax, cs.value[k]);
      curV = cs.value[k];
      if (poly.back().y() > yOf(colMax)) poly.back().setY(yOf(colMax));
      continue;
    }
    poly << QPointF(x, poly.back().y()) << QPointF(x, yOf(cs.value[k]));
    curCol = col;
    curV = colMax = cs.value[k];
  }
  const double stopX = std::min(xOf(std::max(traceEnd, cs.ts.back())), width + margin);
  if (stopX > poly.back().x()) poly << QPointF(stopX, yOf(curV));
  poly << QPointF(poly.back().x(), yOf(lo > 0 ? lo : 0.0));
  return poly;
}

}  // namespace

TEST_CASE("long counter series: the column-by-column polygon equals the per-sample one", "[draw_list]") {
  auto t = testing::makeTwoLaneTrace();
  core::CounterSeries cs;
  cs.process = 1;
  cs.name = t->strings.intern("HBM");
  cs.key = t->strings.intern("MB");
  std::uint64_t x = 88172645463325252ull;  // xorshift: a reproducible jagged series
  for (int i = 0; i < 50'000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    cs.ts.push_back(kBase + i / 5);  // 5 samples per ns: 10'000 ns
    cs.value.push_back(static_cast<double>(x % 1000));
  }
  core::buildCounterLod(cs);
  REQUIRE(!cs.lod.empty());
  t->counters.push_back(cs);
  auto profile = testing::makeProfile({t});
  LaneLayout layout;
  layout.setProfile(profile);
  for (const core::TimeRange view : {core::TimeRange{kBase, kBase + 10'000}, core::TimeRange{kBase + 3'333, kBase + 3'999},
                                     core::TimeRange{kBase - 500, kBase + 20'000}}) {
    const DrawList list = widgets::buildDrawList(*profile, layout, params(view, 700));
    REQUIRE(list.counters.size() == 1);
    const auto& row = layout.rows()[static_cast<std::size_t>(list.counters[0].row)];
    const QPolygonF expected = counterPolygonBySample(t->counters[0], t->range.end, view, 700, row.counterMin,
                                                      row.counterMax, row.y + 12, row.height - 14.0);
    CHECK(list.counters[0].area == expected);
    CHECK(list.counters[0].area.size() <= 2 * 700 + 8);
  }
}

TEST_CASE("box colours come from the name, per trace", "[draw_list]") {
  auto a = testing::makeTwoLaneTrace();
  auto b = std::make_shared<core::Trace>();
  b->strings.intern("renamed");  // id 1 in b is another name than id 1 in a
  widgets::NameColorCache cache;
  std::shared_ptr<const core::Trace> ca = a, cb = b;
  for (core::NameId id = 1; id < a->strings.size(); ++id)
    CHECK(cache.color(0, ca, id) == widgets::ColorPalette::colorForName(a->name(id)));
  // Another trace at the same rank: recomputed, not the memo of the first one.
  CHECK(cache.color(0, cb, 1) == widgets::ColorPalette::colorForName("renamed"));
  CHECK(cache.color(0, ca, 1) == widgets::ColorPalette::colorForName(a->name(1)));
  CHECK(cache.memoryBytes() >= a->strings.size());
}

TEST_CASE("a colour lookup gives each name the colour of its name, memoised or not", "[draw_list]") {
  // 600 names (more than the palette has colours), asked through one Lookup in a scattered order,
  // each twice (the second time from the memo), then again through color(): the oracle is
  // ColorPalette::colorForName of the name.
  auto t = std::make_shared<core::Trace>();
  for (int i = 0; i < 600; ++i) t->strings.intern("op_" + std::to_string(i * 37 % 1009));
  std::shared_ptr<const core::Trace> ct = t;
  widgets::NameColorCache cache;
  const widgets::NameColorCache::Lookup lookup = cache.lookup(3, ct);
  for (int pass = 0; pass < 2; ++pass) {
    for (core::NameId k = 0; k < t->strings.size(); ++k) {
      const core::NameId id = (k * 211) % static_cast<core::NameId>(t->strings.size());
      lookup.prefetch(id);
      CHECK(lookup.color(id) == widgets::ColorPalette::colorForName(t->name(id)));
    }
  }
  for (core::NameId id = 0; id < t->strings.size(); ++id)
    CHECK(cache.color(3, ct, id) == widgets::ColorPalette::colorForName(t->name(id)));
}

namespace {

// Lane 0 "launch" and lane 1 "kernel", N slices each: launch i [100 i, 100 i + 50), kernel i
// [100 i + 20, 100 i + 70) (ns from kBase); flow i (async_npu) from launch i at +10 to kernel i at
// +30. Plus one long fwdbwd flow from launch 0 (at 10) to kernel 150 (at 15030).
std::shared_ptr<core::Profile> makeFlowProfile(int n) {
  auto t = std::make_shared<core::Trace>();
  const auto p = testing::addProcess(*t, 1, "P");
  std::vector<testing::SliceSpec> launch, kernel;
  for (int i = 0; i < n; ++i) {
    launch.push_back({0, kBase + 100 * i, kBase + 100 * i + 50, "launch", "", 0, ""});
    kernel.push_back({0, kBase + 100 * i + 20, kBase + 100 * i + 70, "kernel", "", 0, ""});
  }
  testing::addLane(*t, p, 1, "launch", launch);
  testing::addLane(*t, p, 2, "kernel", kernel);
  const core::NameId npu = t->strings.intern("async_npu"), fwd = t->strings.intern("fwdbwd");
  for (int i = 0; i < n; ++i) {
    core::Flow f;
    f.category = npu;
    f.from = {0, static_cast<std::uint32_t>(i)};
    f.to = {1, static_cast<std::uint32_t>(i)};
    f.fromTs = kBase + 100 * i + 10;
    f.toTs = kBase + 100 * i + 30;
    t->flows.push_back(f);
  }
  core::Flow longFlow;
  longFlow.category = fwd;
  longFlow.from = {0, 0};
  longFlow.to = {1, 150};
  longFlow.fromTs = kBase + 10;
  longFlow.toTs = kBase + 15'030;
  t->flows.insert(t->flows.begin() + 1, longFlow);  // flows stay sorted by fromTs
  t->indexFlows();
  testing::finishRange(*t);
  return testing::makeProfile({t});
}

}  // namespace

TEST_CASE("category flow arrows: every flow zoomed in, one per pixel column zoomed out", "[draw_list]") {
  auto profile = makeFlowProfile(20'000);
  LaneLayout layout;
  layout.setProfile(profile);
  widgets::FlowArrowIndex index;
  const QSet<QString> npu{QStringLiteral("async_npu")};
  // Zoomed in, 10 ns per px: flows 0..99 start in view, 10 px apart: all drawn, in order.
  auto arrows = widgets::buildFlowArrows(*profile, layout, {kBase, kBase + 10'000}, 1000, -1, {}, npu, 20000, &index);
  REQUIRE(arrows.size() == 100);
  for (int i = 0; i < 100; ++i) {
    CHECK(arrows[static_cast<std::size_t>(i)].flowIndex == (i == 0 ? 0 : i + 1));  // the long flow is index 1
    CHECK(arrows[static_cast<std::size_t>(i)].from.x() == Approx(i * 10 + 1));      // fromTs 100 i + 10
  }
  // Zoomed out, 2000 ns per px (20 flows per px, each ending in its own column): 1000 arrows at
  // 1 px columns (1000 arrows) and 2 px columns (500) exceed the budget of 400, 4 px columns give
  // 250: the first flow of every 8000 ns.
  arrows = widgets::buildFlowArrows(*profile, layout, {kBase, kBase + 2'000'000}, 1000, -1, {}, npu, 20000, &index);
  REQUIRE(arrows.size() == 250);
  for (int j = 0; j < 250; ++j) {
    const int flow = 80 * j;
    CHECK(arrows[static_cast<std::size_t>(j)].flowIndex == (flow == 0 ? 0 : flow + 1));
  }
  // A flow starting before the view and ending after it is drawn (from outside the canvas).
  const QSet<QString> fwd{QStringLiteral("fwdbwd")};
  arrows = widgets::buildFlowArrows(*profile, layout, {kBase + 5'005, kBase + 15'005}, 1000, -1, {}, fwd, 20000, &index);
  REQUIRE(arrows.size() == 1);
  CHECK(arrows[0].flowIndex == 1);
  CHECK(arrows[0].from.x() < 0);
  CHECK(arrows[0].to.x() > 1000);
  // The selected slice's own flows are all drawn, and not again as category arrows.
  arrows = widgets::buildFlowArrows(*profile, layout, {kBase, kBase + 10'000}, 1000, 0, {0, 0}, npu, 20000, &index);
  REQUIRE(arrows.size() == 101);
  CHECK(std::count_if(arrows.begin(), arrows.end(), [](const widgets::FlowArrow& a) { return a.ofSelection; }) == 2);
}

TEST_CASE("zoomed far out, passes sure to exceed the budget are skipped: the same arrows", "[draw_list]") {
  // 100,000 flows 100 ns apart, each ending 20 ns after it starts; the whole 10 ms at 1000 px
  // (10,000 ns per px). Hand count: a column examines its first flows, which all end in their own
  // start column, so one arrow per column: 2 px columns give 500 (over the budget of 400), 4 px
  // give 250: the first flow of every 40,000 ns, i.e. every 400th flow (index + 1 past the long
  // flow). The thinning starts at 2 px (a quarter of the 8 px its upper bound allows); a block
  // of 64 flows starts in every 2 px column, so that pass is skipped and one pass runs, not two.
  auto profile = makeFlowProfile(100'000);
  LaneLayout layout;
  layout.setProfile(profile);
  widgets::FlowArrowIndex index;
  const QSet<QString> npu{QStringLiteral("async_npu")};
  const auto arrows = widgets::buildFlowArrows(*profile, layout, {kBase, kBase + 10'000'000}, 1000, -1, {}, npu,
                                               20000, &index);
  REQUIRE(arrows.size() == 250);
  for (int j = 0; j < 250; ++j) {
    const int flow = 400 * j;
    CHECK(arrows[static_cast<std::size_t>(j)].flowIndex == (flow == 0 ? 0 : flow + 1));
  }
  CHECK(index.lastThinningPasses == 1);
}

TEST_CASE("a counter's fill outline covers the pixels of its area, with fewer points", "[draw_list]") {
  // Step areas as buildDrawList makes them (two points per pixel column, at fractional x, the
  // values from a few levels so that neighbouring columns often share one), drawn as the counters
  // pass draws them (the fill outline filled, then the area's outline) and as one drawPolygon of
  // the area with both pen and brush: Qt's own fill is the oracle.
  std::uint64_t seed = 7;
  const auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33; };
  for (int round = 0; round < 20; ++round) {
    QPolygonF area;
    const double base = 60;
    double x = 3.25 + static_cast<double>(next() % 100) / 100.0;
    double y = base - static_cast<double>(next() % 4) * 12.5;
    area << QPointF(x, base) << QPointF(x, y);
    for (int col = 0; col < 300; ++col) {
      x += 0.5 + static_cast<double>(next() % 300) / 100.0;
      area << QPointF(x, y);
      if (next() % 3 == 0) {
        const double to = base - static_cast<double>(next() % 4) * 12.5 - (next() % 2 ? 0.4 : 0.0);
        if (next() % 4 == 0) area << QPointF(x, (y + to) / 2);  // three points on one vertical line
        y = to;
      }
      area << QPointF(x, y);
    }
    // The tail as buildDrawList ends a series held past the view: down its last column.
    if (round % 2) area << QPointF(x, (y + base) / 2) << QPointF(x, base);
    else area << QPointF(x + 5, y) << QPointF(x + 5, base);
    const QPolygonF fill = widgets::fillOutline(area);
    INFO("round " << round << ": " << area.size() << " points, " << fill.size() << " in the fill outline");
    CHECK(fill.size() < area.size() * 3 / 4);
    const QColor line(74, 127, 184);
    QColor tint = line;
    tint.setAlpha(90);
    QImage whole(800, 80, QImage::Format_ARGB32_Premultiplied), split(whole.size(), whole.format());
    whole.fill(0xfff6f7f9);
    split.fill(0xfff6f7f9);
    {
      QPainter p(&whole);
      p.setPen(QPen(line, 1.0));
      p.setBrush(tint);
      p.drawPolygon(area);
    }
    {
      QPainter p(&split);
      p.setPen(Qt::NoPen);
      p.setBrush(tint);
      p.drawPolygon(fill);
      p.setPen(QPen(line, 1.0));
      p.setBrush(Qt::NoBrush);
      p.drawPolygon(area);
    }
    CHECK(split == whole);
  }
}

TEST_CASE("flows starting before the view: one arrow per end column, not a fan", "[draw_list]") {
  // 1000 flows from host slices at kBase + 10 i (all before the view) to 3 device slices inside
  // the view [V, V + 10000) at V + 100, V + 500, V + 900: drawn at 10 ns per px, the 1000 flows
  // end in 3 pixel columns, so 3 arrows, each from off-canvas on the left. (Keyed by start column
  // as well, as before, this drew one arrow per flow: a fan across the whole canvas.)
  auto t = std::make_shared<core::Trace>();
  const auto p = testing::addProcess(*t, 1, "P");
  const core::TimeNs v = kBase + 20'000;
  std::vector<testing::SliceSpec> host, dev;
  for (int i = 0; i < 1000; ++i) host.push_back({0, kBase + 10 * i, kBase + 10 * i + 5, "launch", "", 0, ""});
  for (int k = 0; k < 3; ++k) dev.push_back({0, v + 100 + 400 * k, v + 110 + 400 * k, "kernel", "", 0, ""});
  testing::addLane(*t, p, 1, "host", host);
  testing::addLane(*t, p, 2, "dev", dev);
  const core::NameId npu = t->strings.intern("async_npu");
  for (int i = 0; i < 1000; ++i) {
    core::Flow f;
    f.category = npu;
    f.from = {0, static_cast<std::uint32_t>(i)};
    f.to = {1, static_cast<std::uint32_t>(i % 3)};
    f.fromTs = kBase + 10 * i + 1;
    f.toTs = v + 101 + 400 * (i % 3);
    t->flows.push_back(f);
  }
  t->indexFlows();
  testing::finishRange(*t);
  auto profile = testing::makeProfile({t});
  LaneLayout layout;
  layout.setProfile(profile);
  widgets::FlowArrowIndex index;
  auto arrows = widgets::buildFlowArrows(*profile, layout, {v, v + 10'000}, 1000, -1, {},
                                         QSet<QString>{QStringLiteral("async_npu")}, 20000, &index);
  REQUIRE(arrows.size() == 3);
  std::vector<double> ends;
  for (const auto& a : arrows) {
    CHECK(a.from.x() < 0);
    ends.push_back(a.to.x());
  }
  std::sort(ends.begin(), ends.end());
  CHECK(ends[0] == Approx(10.1));  // (V + 101 - V) / 10 ns per px
  CHECK(ends[1] == Approx(50.1));
  CHECK(ends[2] == Approx(90.1));
}
