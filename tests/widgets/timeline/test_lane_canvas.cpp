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

// Pixels of rows [top, top + 40) of the canvas that differ from the same column near the
// bottom (an empty part of the canvas with the same grid lines): the ink of a text there.
int inkBelowRows(widgets::TimelineWidget& w, QSize size) {
  const QImage img = w.renderToImage(size, 1.0);
  const int top = w.rulerHeight() + w.layout().totalHeight() + 20;
  const int bottom = size.height() - 3;
  int ink = 0;
  for (int y = top; y < top + 40 && y < bottom - 40; ++y)
    for (int x = w.headerWidth(); x < size.width(); ++x) ink += img.pixel(x, y) != img.pixel(x, bottom) ? 1 : 0;
  return ink;
}

TEST_CASE("a profile without any trace says why its lanes are empty", "[canvas]") {
  // Two ranks of tables only (as corpus ascend-pt-cann83-l2-4rank-partial): rank headers and
  // nothing else; below them a sentence.
  const QSize size(900, 400);
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({nullptr, nullptr}));
  CHECK(inkBelowRows(w, size) > 50);
  // With a trace there is no such text.
  widgets::TimelineWidget plain;
  plain.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  CHECK(inkBelowRows(plain, size) == 0);
}
