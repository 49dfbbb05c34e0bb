// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_canvas.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/dialogs/shortcuts_dialog.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;

namespace {
void sendWheel(QWidget* w, QPointF pos, QPoint angle, Qt::KeyboardModifiers mods = {}) {
  QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}
}  // namespace

TEST_CASE("with Wheel Zooms on, the wheel zooms at the cursor, Shift+wheel scrolls vertically", "[lane_canvas]") {
  widgets::TimelineWidget w;
  w.setWheelZooms(true);  // the first binding (the default scrolls: test_lane_folding.cpp)
  auto t0 = testing::makeTwoLaneTrace();
  w.setProfile(testing::makeProfile({t0, testing::makeTwoLaneTrace(), testing::makeTwoLaneTrace()}));
  w.resize(1000, 200);  // shorter than the content: vertical scrolling possible
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  auto* canvas = w.canvas();
  const double cw = canvas->width();
  const core::TimeRange before = w.viewport()->visibleRange();
  const double x = 200;
  const core::TimeNs anchor = core::xToTime(x, before, cw);
  sendWheel(canvas, QPointF(x, 50), QPoint(0, 240));
  const core::TimeRange after = w.viewport()->visibleRange();
  CHECK(after.duration() < before.duration());
  CHECK(core::timeToX(anchor, after, cw) == Approx(x).margin(0.5));

  CHECK(w.verticalScroll() == 0);
  sendWheel(canvas, QPointF(x, 50), QPoint(0, -120), Qt::ShiftModifier);
  CHECK(w.verticalScroll() > 0);
  CHECK(w.viewport()->visibleRange() == after);  // no zoom
  QTest::keyClick(canvas, Qt::Key_Home);
  CHECK(w.verticalScroll() == 0);
  QTest::keyClick(canvas, Qt::Key_Down);
  CHECK(w.verticalScroll() == 3 * w.layout().metrics().sliceRow);
}

TEST_CASE("? opens the shortcuts dialog", "[lane_canvas]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  w.resize(800, 300);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  QTest::keyClick(w.canvas(), '?');
  auto* dlg = w.findChild<widgets::ShortcutsDialog*>();
  REQUIRE(dlg);
  CHECK(dlg->isVisible());
  dlg->close();
}

TEST_CASE("hover reports the slice under the mouse", "[lane_canvas]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  w.resize(1000, 400);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  QSignalSpy spy(&w, &widgets::TimelineWidget::hoveredSliceChanged);
  auto* canvas = w.canvas();
  const int x = static_cast<int>(core::timeToX(testing::kBase + 6000, w.viewport()->visibleRange(), canvas->width()));
  QTest::mouseMove(canvas, QPoint(x, w.layout().rows()[5].y + 8));
  REQUIRE(spy.count() >= 1);
  CHECK(spy.last().at(0).value<widgets::RankSliceRef>().slice == core::SliceRef{1, 1});
}
