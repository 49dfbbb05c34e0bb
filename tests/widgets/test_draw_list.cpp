// SPDX-License-Identifier: MIT
#include "widgets/draw_list.h"

#include <catch2/catch.hpp>
#include <numeric>

#include "test_profiles.h"
#include "widgets/color_palette.h"

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
  auto t = std::make_shared<core::Trace>();
  const auto p = testing::addProcess(*t, 1, "P");
  std::vector<testing::SliceSpec> tiny;
  // 100 slices of 2 ns every 3 ns from 3000: 0.2 px each at 10 ns/px.
  for (int i = 0; i < 100; ++i) tiny.push_back({0, kBase + 3000 + 3 * i, kBase + 3000 + 3 * i + 2, "tiny", "", 0, ""});
  tiny.push_back({0, kBase + 6000, kBase + 7000, "big", "", 0, ""});
  testing::addLane(*t, p, 1, "T", tiny);
  testing::finishRange(*t);
  t->range = {kBase, kBase + 10'000};
  auto profile = testing::makeProfile({t});
  LaneLayout layout;
  layout.setProfile(profile);
  const DrawList list = widgets::buildDrawList(*profile, layout, params());
  auto row = boxesOfRow(list, 2);
  REQUIRE(row.size() >= 2);
  const DrawBox* big = row.back();
  CHECK(big->count == 1);
  CHECK(big->rect == QRectF(600, layout.rows()[2].y, 100, layout.metrics().sliceRow - 1));
  row.pop_back();
  // The merged boxes cover the 100 tiny slices exactly once, in order, within [300, 301.1] px.
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
  // Far fewer boxes than slices: about one per pixel column (30 px of slices).
  CHECK(row.size() <= 31);
  CHECK(row.front()->rect.left() == 300);
  CHECK(row.front()->count == 4);  // 3000, 3003, 3006, 3009 start before the 3010 boundary
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
  CHECK(c.maxText == QStringLiteral("40.00"));
}
