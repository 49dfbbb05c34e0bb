// SPDX-License-Identifier: MIT
#include "widgets/lane_canvas.h"

#include <QApplication>
#include <QPainter>
#include <QPicture>
#include <set>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "core/lod.h"
#include "test_profiles.h"
#include "widgets/color_palette.h"
#include "widgets/shortcuts_dialog.h"
#include "widgets/timeline_viewport.h"
#include "widgets/timeline_widget.h"

using namespace npuscope;

namespace {
void sendWheel(QWidget* w, QPointF pos, QPoint angle, Qt::KeyboardModifiers mods = {}) {
  QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}
}  // namespace

TEST_CASE("wheel zooms at the cursor, Shift+wheel scrolls vertically", "[lane_canvas]") {
  widgets::TimelineWidget w;
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
  CHECK(spy.last().at(1).value<core::SliceRef>() == core::SliceRef{1, 1});
}

TEST_CASE("boxes set per row into an image look exactly like boxes filled one by one", "[lane_canvas]") {
  // 3000 slices of 1-4 ns with gaps of 0-9 ns and 40 names, and some 40-90 ns ones (3-9 px at
  // ~10 ns per px): narrow boxes go through the per-row line on a raster device, wide ones are
  // filled; on a QPicture (not raster) every box is filled. Both replayed into images must agree.
  auto t = std::make_shared<core::Trace>();
  const auto p = testing::addProcess(*t, 1, "P");
  std::vector<testing::SliceSpec> slices;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  const auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  core::TimeNs at = testing::kBase;
  for (int i = 0; i < 3000; ++i) {
    const core::TimeNs len = next() % 10 == 0 ? 40 + static_cast<core::TimeNs>(next() % 50) : 1 + static_cast<core::TimeNs>(next() % 4);
    at += static_cast<core::TimeNs>(next() % 10);
    slices.push_back({0, at, at + len, "k" + std::to_string(next() % 40), "", 0, ""});
    at += len;
  }
  testing::addLane(*t, p, 1, "T", slices);
  testing::finishRange(*t);
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({t}));
  w.resize(1200, 300);
  const QSize size = w.canvas()->size();
  for (const qreal dpr : {1.0, 2.0}) {
    QImage direct(size * dpr, QImage::Format_ARGB32_Premultiplied);
    direct.setDevicePixelRatio(dpr);
    direct.fill(Qt::white);
    {
      QPainter painter(&direct);
      w.canvas()->paintTo(painter, size);
    }
    QPicture picture;
    {
      QPainter painter(&picture);
      w.canvas()->paintTo(painter, size);
    }
    QImage replayed(size * dpr, QImage::Format_ARGB32_Premultiplied);
    replayed.setDevicePixelRatio(dpr);
    replayed.fill(Qt::white);
    {
      QPainter painter(&replayed);
      painter.drawPicture(0, 0, picture);
    }
    if (dpr == 1.0) {
      CHECK(direct == replayed);
    } else {
      // A QPicture records at 1x, so its grid lines are 1 logical px wide instead of 1 device px:
      // compare the boxes only (pixels of palette colours) over the lane's row.
      std::set<QRgb> palette;
      for (int i = 0; i < widgets::ColorPalette::kTableSize; ++i) palette.insert(widgets::ColorPalette::tableColor(i));
      const int y0 = static_cast<int>(w.layout().rows()[2].y * dpr);
      int mismatches = 0;
      for (int yy = y0; yy < y0 + static_cast<int>(16 * dpr); ++yy)
        for (int xx = 0; xx < direct.width(); ++xx) {
          const QRgb a = direct.pixel(xx, yy), b = replayed.pixel(xx, yy);
          if ((palette.count(a) || palette.count(b)) && a != b) ++mismatches;
        }
      CHECK(mismatches == 0);
    }
    // Not vacuous: the lane's row is not empty.
    const int y = static_cast<int>((w.layout().rows()[2].y + 8) * dpr);
    int coloured = 0;
    for (int px = 0; px < direct.width(); ++px) coloured += direct.pixel(px, y) != direct.pixel(direct.width() - 1, 0);
    CHECK(coloured > direct.width() / 2);
  }
}
