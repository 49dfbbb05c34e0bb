// SPDX-License-Identifier: MIT
// The first screen (issue 14): deep lanes fold to a few rows, sticky group labels, the wheel.
#include <QApplication>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/lane_header.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using testing::kBase;
using widgets::LaneLayout;
using widgets::LayoutRow;

namespace {

// A "Python" process with one lane of `depth` nested slices (a with_stack call stack: slice d
// spans [kBase + d, kBase + 10000 - d)), then an "Ascend Hardware" process with one lane.
std::shared_ptr<core::Trace> makeDeepTrace(std::uint32_t depth) {
  auto t = std::make_shared<core::Trace>();
  const auto py = testing::addProcess(*t, 100, "Python", core::Process::Role::Python);
  const auto hw = testing::addProcess(*t, 200, "Ascend Hardware", core::Process::Role::AscendHardware, "NPU 0");
  t->processes[hw].deviceId = 0;
  std::vector<testing::SliceSpec> stack;
  for (std::uint32_t d = 0; d < depth; ++d)
    stack.push_back({d, kBase + d, kBase + 10'000 - d, "frame" + std::to_string(d), "python_function", 0, ""});
  testing::addLane(*t, py, 1, "Thread 1", stack);
  testing::addLane(*t, hw, 7, "Stream 7", {{0, kBase + 100, kBase + 900, "kernel", "", 0, ""}});
  testing::finishRange(*t);
  return t;
}

void sendWheel(QWidget* w, QPointF pos, QPoint angle, Qt::KeyboardModifiers mods = {}) {
  QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

}  // namespace

TEST_CASE("a deep lane starts folded to a few rows and unfolds on demand", "[lane_layout][fold]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({makeDeepTrace(12)}));
  // Hand count, folded: rank header, Python header, 4 depth rows (kFoldedRows), Ascend Hardware
  // header, 1 row = 8 rows.
  REQUIRE(LaneLayout::kFoldedRows == 4);
  const auto& rows = layout.rows();
  REQUIRE(rows.size() == 8);
  CHECK(rows[2].foldable);
  CHECK_FALSE(rows[2].expanded);
  CHECK(rows[5].depth == 3);
  CHECK(rows[5].hiddenDepths == 8);  // depths 4..11
  CHECK(rows[6].kind == LayoutRow::Kind::Process);
  CHECK(layout.isLaneFolded(0, 0));
  // A hidden depth maps to the fold row only when asked for a stand-in.
  CHECK(layout.rowOfSlice(0, 0, 10) == -1);
  CHECK(layout.rowOfSlice(0, 0, 10, true) == 5);
  CHECK(layout.rowOfSlice(0, 0, 2) == 4);
  CHECK(layout.rowOfSlice(0, 1, 0) == 7);

  // The lane's first row toggles it: 1 + 1 + 12 + 1 + 1 = 16 rows.
  REQUIRE(layout.toggleRow(2));
  CHECK(layout.rows().size() == 16);
  CHECK(layout.rows()[2].expanded);
  CHECK(layout.rows()[13].depth == 11);
  CHECK(layout.rows()[13].hiddenDepths == 0);
  CHECK(layout.rowOfSlice(0, 0, 10) == 12);

  // The choices survive a new profile of the same files (F5) through expandState.
  const LaneLayout::ExpandState kept = layout.expandState();
  layout.setProfile(testing::makeProfile({makeDeepTrace(12)}));
  CHECK(layout.rows().size() == 8);
  layout.setExpandState(kept);
  CHECK(layout.rows().size() == 16);
  // Out-of-range keys are ignored.
  LaneLayout::ExpandState bogus;
  bogus.lanesFolded[{5, 0}] = false;
  bogus.processes[{0, 99}] = false;
  layout.setExpandState(bogus);
  CHECK(layout.rows().size() == 8);
}

TEST_CASE("a lane of kDeepLane levels or fewer is never folded", "[lane_layout][fold]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({makeDeepTrace(LaneLayout::kDeepLane)}));
  // 1 + 1 + 8 + 1 + 1 rows, nothing foldable.
  CHECK(layout.rows().size() == 12);
  CHECK_FALSE(layout.rows()[2].foldable);
  CHECK_FALSE(layout.toggleRow(2));
}

TEST_CASE("selecting a slice hidden by a fold unfolds its lane", "[timeline_widget][fold]") {
  widgets::TimelineWidget w;
  w.resize(900, 300);
  w.setProfile(testing::makeProfile({makeDeepTrace(12)}));
  REQUIRE(w.layout().rows().size() == 8);
  // Slice "frame10" is the only slice of depth 10: lane 0, index 10 (one slice per depth).
  w.selectSlice(0, core::SliceRef{0, 10});
  CHECK(w.selectedSlice() == core::SliceRef{0, 10});
  CHECK(w.layout().rows().size() == 16);
  CHECK_FALSE(w.layout().isLaneFolded(0, 0));
}

TEST_CASE("showing a dispatch chain unfolds the lanes that hide its links", "[timeline_widget][fold]") {
  widgets::TimelineWidget w;
  w.resize(900, 300);
  w.setProfile(testing::makeProfile({makeDeepTrace(12)}));
  REQUIRE(w.layout().isLaneFolded(0, 0));
  // A chain of frame2 (shown while folded: depth 2 < kFoldedRows) and the device kernel keeps
  // the fold.
  core::DispatchChain shallow;
  shallow.links.push_back({core::ChainLayer::PythonApi, core::SliceRef{0, 2}, ""});
  shallow.links.push_back({core::ChainLayer::DeviceTask, core::SliceRef{1, 0}, "HostToDevice"});
  w.setChainHighlight(0, shallow);
  CHECK(w.layout().isLaneFolded(0, 0));
  CHECK(w.layout().rows().size() == 8);
  // frame9 (lane 0, index 9: one slice per depth) lies below the 4 shown rows: its lane opens,
  // all 12 levels (hand count: 1 + 1 + 12 + 1 + 1 = 16 rows), and frame9 has a row of its own.
  core::DispatchChain deep = shallow;
  deep.links.front().slice = core::SliceRef{0, 9};
  w.setChainHighlight(0, deep);
  CHECK_FALSE(w.layout().isLaneFolded(0, 0));
  CHECK(w.layout().rows().size() == 16);
  CHECK(w.layout().rowOfSlice(0, 0, 9) == 11);
  // The same chain again keeps it open; a chain that does not need it (the shallow one) or
  // clearing folds again what the chain opened (8 rows as before).
  w.setChainHighlight(0, deep);
  CHECK_FALSE(w.layout().isLaneFolded(0, 0));
  w.setChainHighlight(0, shallow);
  CHECK(w.layout().isLaneFolded(0, 0));
  CHECK(w.layout().rows().size() == 8);
  w.setChainHighlight(0, deep);
  CHECK_FALSE(w.layout().isLaneFolded(0, 0));
  w.clearChainHighlight();
  CHECK(w.layout().isLaneFolded(0, 0));
  CHECK(w.layout().rows().size() == 8);
  // A lane the user opened himself is not the chain's: clearing leaves it open.
  widgets::LaneLayout::ExpandState open = w.expandState();
  open.lanesFolded[{0, 0u}] = false;
  w.setExpandState(open);
  REQUIRE_FALSE(w.layout().isLaneFolded(0, 0));
  w.setChainHighlight(0, deep);
  w.clearChainHighlight();
  CHECK_FALSE(w.layout().isLaneFolded(0, 0));
  // A ref out of range is ignored.
  deep.links.front().slice = core::SliceRef{0, 99};
  w.setChainHighlight(0, deep);
  CHECK(w.chainRank() == 0);
}

TEST_CASE("sticky labels name the groups of the top row", "[lane_header][sticky]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({makeDeepTrace(30)}));
  layout.setLaneFolded(0, 0, false);
  const auto& rows = layout.rows();
  // At the top nothing is pinned: every header is visible where it is.
  CHECK(widgets::LaneHeader::stickyRows(layout, 0).empty());
  // Scrolled into the middle of the 30-level stack (row 2 + 15 = depth 15): the rank, the
  // process and the lane's first row are pinned, in that order.
  const int y = rows[17].y + 3;
  CHECK(widgets::LaneHeader::stickyRows(layout, y) == std::vector<int>{0, 1, 2});
  // 2 px into the Ascend Hardware lane's row: the rank, that process (not Python) and the lane
  // itself, whose row top is above the viewport.
  const int hwRow = static_cast<int>(rows.size()) - 1;
  CHECK(widgets::LaneHeader::stickyRows(layout, rows[static_cast<std::size_t>(hwRow)].y + 2) ==
        std::vector<int>{0, hwRow - 1, hwRow});

  // Painted: the pinned process name shows at the top of the header column.
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({makeDeepTrace(30)}));
  w.setExpandState({{}, {}, {{{0, 0}, false}}});
  w.resize(900, 260);
  w.setVerticalScroll(w.layout().rows()[17].y + 3);
  const QImage img = w.renderToImage(QSize(900, 260));
  // The rank header background (ColorPalette::kRankHeader) fills the first pinned strip.
  const QColor top = img.pixelColor(w.headerWidth() - 20, w.rulerHeight() + 12);
  const QColor row = img.pixelColor(w.headerWidth() - 20, w.rulerHeight() + 120);
  CHECK(top != row);

  // 2 px into the last lane (one row, 22 px with its gap): its pinned label is pushed up to
  // y = 2 by the end of its group, into the rank's pinned strip (0..26 px); it slides under the
  // rank's label, which stays on top (it was painted over it).
  w.setExpandState({});
  const auto& wrows = w.layout().rows();
  // A composite whose lanes are 20 px tall, so that this scroll is a valid one.
  const QSize composite(900, w.rulerHeight() + 20);
  QImage pushed(w.headerWidth(), 20, QImage::Format_ARGB32_Premultiplied);
  {
    QPainter p(&pushed);
    w.paintPart(p, widgets::TimelineWidget::Part::Header, composite, wrows.back().y + 2);
  }
  CHECK(pushed.pixelColor(w.headerWidth() - 20, 10) ==
        QColor::fromRgb(widgets::ColorPalette::chrome().rankHeader));
}

TEST_CASE("a sticky lane label names the lane below the pinned group labels", "[lane_header][sticky]") {
  // Python: lane A (1 level), lane B (6 levels, not folded); then Ascend Hardware. Rows: 0 rank,
  // 1 Python, 2 lane A, 3..8 lane B depth 0..5, 9 Ascend Hardware, 10 its lane.
  auto t = makeDeepTrace(6);
  testing::addLane(*t, 0, 2, "Thread 0 (first)", {{0, kBase, kBase + 50, "only", "python_function", 0, ""}});
  std::swap(t->lanes[0], t->lanes[2]);  // process order: Python's lanes A, B, then the device's
  std::swap(t->lanes[1], t->lanes[2]);
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({t}));
  const auto& rows = layout.rows();
  REQUIRE(rows.size() == 11);
  REQUIRE(rows[2].lane == 0);
  REQUIRE(rows[3].lane == 1);
  REQUIRE(rows[3].depth == 0);
  // 2 px into lane A's row: the rank and Python labels cover that row and the top of lane B's
  // rows (their heights add up past lane A's row); lane B's rows show below them, so lane B is
  // the one named, not lane A, whose row is hidden.
  const int scroll = rows[2].y + 2;
  REQUIRE(scroll + rows[0].height + rows[1].height > rows[3].y);
  CHECK(widgets::LaneHeader::stickyRows(layout, scroll) == std::vector<int>{0, 1, 3});
  // Pinned under the rank and process labels, at the top of the viewport.
  const auto pins = widgets::LaneHeader::pinnedRows(layout, scroll, QSize(200, 300));
  REQUIRE(pins.size() == 3);
  CHECK(pins[2].rect.top() == rows[0].height + rows[1].height);
}

TEST_CASE("the pinned rank and process labels are opaque strips across the lanes", "[lane_canvas][sticky]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({makeDeepTrace(30)}));
  w.setExpandState({{}, {}, {{{0, 0}, false}}});
  w.resize(900, 260);
  w.setVerticalScroll(w.layout().rows()[17].y + 3);
  const QImage img = w.renderToImage(QSize(900, 260));
  // Every frame of the stack spans the whole capture, so without the strip the canvas shows a
  // slice at every row; the strip of the pinned rank label (the first 26 px) has the rank
  // header's colour across the lanes, the process strip below it the process header's.
  const auto& rows = w.layout().rows();
  const int x = w.headerWidth() + 300;
  CHECK(img.pixelColor(x, w.rulerHeight() + rows[0].height / 2) ==
        QColor::fromRgb(widgets::ColorPalette::chrome().rankHeader));
  CHECK(img.pixelColor(x, w.rulerHeight() + rows[0].height + rows[1].height / 2) ==
        QColor::fromRgb(widgets::ColorPalette::chrome().processHeader));
}

TEST_CASE("the wheel scrolls, Ctrl+wheel zooms, Shift+wheel pans, and the old binding is a setting",
          "[lane_canvas][wheel]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace(), testing::makeTwoLaneTrace(),
                                     testing::makeTwoLaneTrace()}));
  w.resize(1000, 200);  // shorter than the content
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  auto* canvas = w.canvas();
  CHECK_FALSE(w.wheelZooms());
  const core::TimeRange all = w.viewport()->visibleRange();

  sendWheel(canvas, QPointF(200, 50), QPoint(0, -120));  // one notch down: scroll 60 px
  CHECK(w.verticalScroll() == 60);
  CHECK(w.viewport()->visibleRange() == all);

  sendWheel(canvas, QPointF(200, 50), QPoint(0, 240), Qt::ControlModifier);
  const core::TimeRange zoomed = w.viewport()->visibleRange();
  CHECK(zoomed.duration() < all.duration());
  CHECK(w.verticalScroll() == 60);

  sendWheel(canvas, QPointF(200, 50), QPoint(0, -120), Qt::ShiftModifier);  // pan right by 10 %
  const core::TimeRange panned = w.viewport()->visibleRange();
  CHECK(panned.duration() == zoomed.duration());
  CHECK(panned.start > zoomed.start);
  CHECK(w.verticalScroll() == 60);

  w.setWheelZooms(true);
  sendWheel(canvas, QPointF(200, 50), QPoint(0, 240));
  CHECK(w.viewport()->visibleRange().duration() < panned.duration());
  sendWheel(canvas, QPointF(200, 50), QPoint(0, -120), Qt::ShiftModifier);
  CHECK(w.verticalScroll() == 120);
}

TEST_CASE("device lanes first puts each rank's device processes above the host ones", "[lane_layout][order]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({makeDeepTrace(12), makeDeepTrace(3)}));
  CHECK_FALSE(layout.deviceFirst());
  CHECK(layout.rows()[1].process == 0);  // the trace's order: Python (process 0) first
  layout.setDeviceFirst(true);
  const auto& rows = layout.rows();
  // Hand count, rank 0: header, Ascend Hardware header + 1 row, Python header + 4 folded rows
  // (rows 0..7); rank 1: header (row 8), Ascend Hardware header (row 9) + 1 row, Python header
  // + 3 rows.
  REQUIRE(rows.size() == 15);
  CHECK(rows[1].kind == LayoutRow::Kind::Process);
  CHECK(rows[1].process == 1);
  CHECK(rows[2].lane == 1);
  CHECK(rows[3].process == 0);
  CHECK(rows[8].kind == LayoutRow::Kind::Rank);
  CHECK(rows[9].process == 1);
  CHECK(layout.rowOfSlice(1, 1, 0) == 10);
  CHECK(layout.rowOfSlice(0, 0, 0) == 4);
}

TEST_CASE("device lanes first puts a computed Overlap Analysis on top like a recorded one", "[lane_layout][order]") {
  // As corpus ascend-pt-910a-db-2rank (a .db export without OVERLAP_ANALYSIS): the trace's order
  // is Python, CANN, then the computed overlap process, then Ascend Hardware.
  auto t = std::make_shared<core::Trace>();
  const auto py = testing::addProcess(*t, 1, "Python", core::Process::Role::Python, "CPU");
  const auto cann = testing::addProcess(*t, 2, "CANN", core::Process::Role::Cann, "CPU");
  const auto ov = testing::addProcess(*t, 3, "Overlap Analysis (computed by npuscope)", core::Process::Role::Other,
                                      "NPU 0");
  const auto hw = testing::addProcess(*t, 4, "Ascend Hardware", core::Process::Role::AscendHardware, "NPU 0");
  t->processes[ov].deviceId = t->processes[hw].deviceId = 0;
  testing::addLane(*t, py, 1, "Thread 1", {{0, kBase, kBase + 100, "f", "python_function", 0, ""}});
  testing::addLane(*t, cann, 1, "Thread 1", {{0, kBase, kBase + 100, "c", "", 0, ""}});
  testing::addLane(*t, ov, 0, "Computing", {{0, kBase, kBase + 100, "Computing", "", 0, ""}});
  testing::addLane(*t, hw, 7, "Stream 7", {{0, kBase, kBase + 100, "kernel", "", 0, ""}});
  testing::finishRange(*t);
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({t}));
  layout.setDeviceFirst(true);
  std::vector<std::uint32_t> processes;
  for (const LayoutRow& r : layout.rows())
    if (r.kind == LayoutRow::Kind::Process) processes.push_back(r.process);
  CHECK(processes == std::vector<std::uint32_t>{ov, hw, py, cann});
  // A process of another name and role Other stays with the host ones.
  t->processes[ov].name = "Overlap Analysis (something else)";
  layout.setProfile(testing::makeProfile({t}));
  processes.clear();
  for (const LayoutRow& r : layout.rows())
    if (r.kind == LayoutRow::Kind::Process) processes.push_back(r.process);
  CHECK(processes == std::vector<std::uint32_t>{hw, py, cann, ov});
}
