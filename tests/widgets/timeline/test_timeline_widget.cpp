// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeline_widget.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/markers.h"
#include "widgets/timeline/timeline_viewport.h"

using namespace npuscope;
using testing::kBase;
using widgets::TimelineWidget;

namespace {

bool isBlank(const QImage& img) {
  const QRgb first = img.pixel(0, 0);
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if (img.pixel(x, y) != first) return false;
  return true;
}

}  // namespace

TEST_CASE("setProfile fits all and clear empties", "[timeline_widget]") {
  TimelineWidget w;
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  w.setProfile(profile);
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase, kBase + 10'000});
  CHECK(w.layout().rows().size() == 6);
  w.setVisibleRange({kBase + 1000, kBase + 2000});
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase + 1000, kBase + 2000});
  w.fitAll();
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase, kBase + 10'000});
  w.clear();
  CHECK(w.layout().rows().empty());
  CHECK_FALSE(w.profile());
}

TEST_CASE("renderToImage draws the composite offscreen without showing", "[timeline_widget]") {
  TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  const qreal dpr = GENERATE(1.0, 2.0);
  const QSize size(800, 300);
  const QImage img = w.renderToImage(size, dpr);
  REQUIRE(img.size() == size * dpr);
  CHECK(img.devicePixelRatio() == dpr);
  CHECK_FALSE(isBlank(img));
  // "late" spans [5000, 9000) ns of the 10 us view on the canvas right of the lane headers;
  // sample its right part (the label sits on the left) in the middle of row 2.
  const int canvasW = size.width() - w.headerWidth();
  const double x = w.headerWidth() + core::timeToX(kBase + 8800, w.viewport()->visibleRange(), canvasW);
  const double y = w.rulerHeight() + w.layout().rows()[2].y + 8;
  const QColor px = img.pixelColor(static_cast<int>(x * dpr), static_cast<int>(y * dpr));
  CHECK(px.rgb() == QColor::fromRgb(widgets::ColorPalette::colorForName("late")).rgb());
  // The rank header row is painted with the rank header colour at the left of the canvas.
  const QColor hdr = img.pixelColor(static_cast<int>((w.headerWidth() + 400) * dpr),
                                    static_cast<int>((w.rulerHeight() + 13) * dpr));
  CHECK(hdr.rgb() == QColor::fromRgb(widgets::ColorPalette::kRankHeader).rgb());
  CHECK_FALSE(w.isVisible());
}

TEST_CASE("clicking a slice selects it, clicking empty space clears", "[timeline_widget]") {
  TimelineWidget w;
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  w.setProfile(profile);
  w.resize(1000, 400);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  QSignalSpy spy(&w, &TimelineWidget::sliceSelected);
  widgets::LaneCanvas* canvas = w.canvas();
  const core::TimeRange view = w.viewport()->visibleRange();
  auto xOf = [&](core::TimeNs t) { return static_cast<int>(core::timeToX(t, view, canvas->width())); };

  // "inner2" [500, 900) at depth 1 of lane 0 (row 3).
  const int y3 = w.layout().rows()[3].y + 8;
  QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(xOf(kBase + 700), y3));
  REQUIRE(spy.count() == 1);
  CHECK(spy.at(0).at(0).value<widgets::RankSliceRef>() == widgets::RankSliceRef{0, core::SliceRef{0, 4}});
  CHECK(w.selectedSlice() == core::SliceRef{0, 4});

  // kernelB on lane 1 (row 5).
  QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(xOf(kBase + 6000), w.layout().rows()[5].y + 8));
  REQUIRE(spy.count() == 2);
  CHECK(spy.at(1).at(0).value<widgets::RankSliceRef>().slice == core::SliceRef{1, 1});

  // Empty space of row 2 (between "tail" and "late").
  QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(xOf(kBase + 3000), w.layout().rows()[2].y + 8));
  REQUIRE(spy.count() == 3);
  CHECK(spy.at(2).at(0).value<widgets::RankSliceRef>().rank == -1);
  CHECK_FALSE(spy.at(2).at(0).value<widgets::RankSliceRef>().slice.valid());
  CHECK_FALSE(w.selectedSlice().valid());
}

TEST_CASE("keyboard navigation on the canvas", "[timeline_widget]") {
  TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  w.resize(1000, 400);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  auto* vp = w.viewport();
  const core::TimeRange full = vp->visibleRange();
  QTest::keyClick(w.canvas(), Qt::Key_W);
  QTest::keyClick(w.canvas(), Qt::Key_W);
  const core::TimeRange zoomed = vp->visibleRange();
  CHECK(zoomed.duration() < full.duration());
  QTest::keyClick(w.canvas(), Qt::Key_D);
  CHECK(vp->visibleRange().start > zoomed.start);
  CHECK(vp->visibleRange().duration() == zoomed.duration());
  QTest::keyClick(w.canvas(), Qt::Key_A);
  QTest::keyClick(w.canvas(), Qt::Key_Left);
  CHECK(vp->visibleRange().start < zoomed.start);
  QTest::keyClick(w.canvas(), Qt::Key_S);
  CHECK(vp->visibleRange().duration() > zoomed.duration());
  QTest::keyClick(w.canvas(), Qt::Key_Backspace);  // undo the W W S... gesture chain
  CHECK(vp->visibleRange().duration() <= full.duration());
  vp->setSelection({kBase + 2000, kBase + 3000});
  QTest::keyClick(w.canvas(), Qt::Key_Z, Qt::ShiftModifier);
  CHECK(vp->visibleRange() == core::TimeRange{kBase + 2000, kBase + 3000});
  QTest::keyClick(w.canvas(), Qt::Key_0, Qt::ControlModifier);
  CHECK(vp->visibleRange() == full);
  QTest::keyClick(w.canvas(), Qt::Key_Backspace);
  CHECK(vp->visibleRange() == core::TimeRange{kBase + 2000, kBase + 3000});
}

TEST_CASE("Shift+drag selects a time range - selectSlice and zoom to it", "[timeline_widget]") {
  TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  w.resize(1000, 400);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  auto* canvas = w.canvas();
  const core::TimeRange view = w.viewport()->visibleRange();
  const int y = w.layout().rows()[2].y + 8;
  QTest::mousePress(canvas, Qt::LeftButton, Qt::ShiftModifier, QPoint(100, y));
  QMouseEvent move(QEvent::MouseMove, QPointF(300, y), canvas->mapToGlobal(QPointF(300, y)), Qt::NoButton,
                   Qt::LeftButton, Qt::ShiftModifier);
  QApplication::sendEvent(canvas, &move);
  QTest::mouseRelease(canvas, Qt::LeftButton, Qt::ShiftModifier, QPoint(300, y));
  const core::TimeRange sel = w.viewport()->selection();
  CHECK(sel.start == core::xToTime(100, view, canvas->width()));
  CHECK(sel.end == core::xToTime(300, view, canvas->width()));

  QSignalSpy spy(&w, &TimelineWidget::sliceSelected);
  w.selectSlice(0, {0, 2});
  REQUIRE(spy.count() == 1);
  w.zoomToSelectedSlice();
  const core::TimeRange v = w.viewport()->visibleRange();
  CHECK(v.start < kBase + 5000);
  CHECK(v.end > kBase + 9000);
  CHECK(v.duration() < 6000);
}

// Hidden (not run by ctest): renders the synthetic profile and, when present, the shared corpus to
// PNG files in $NPUSCOPE_RENDER_OUT for visual review.
TEST_CASE("render screenshots for review", "[.render]") {
  const QByteArray outDir = qgetenv("NPUSCOPE_RENDER_OUT");
  REQUIRE_FALSE(outDir.isEmpty());
  const QString dir = QString::fromUtf8(outDir);
  {
    TimelineWidget w;
    auto t = testing::makeTwoLaneTrace();
    core::CounterSeries cs;
    cs.process = 1;
    cs.name = t->strings.intern("HBM");
    cs.key = t->strings.intern("MB");
    cs.ts = {kBase + 0, kBase + 2000, kBase + 4000, kBase + 7000};
    cs.value = {10, 40, 20, 35};
    t->counters.push_back(cs);
    w.setProfile(testing::makeProfile({t, testing::makeTwoLaneTrace()}));
    w.selectSlice(0, {0, 0});
    w.viewport()->setSelection({kBase + 5200, kBase + 6100});
    w.markers()->addPoint(kBase + 3000, QStringLiteral("checkpoint"));
    w.markers()->addRange({kBase + 7500, kBase + 9500}, QStringLiteral("slow phase"));
    CHECK(w.renderToImage(QSize(1200, 420), 1.0).save(dir + QStringLiteral("/synthetic.png")));
    CHECK(w.renderToImage(QSize(1200, 420), 2.0).save(dir + QStringLiteral("/synthetic@2x.png")));
  }
  const QByteArray corpus = qgetenv("NPUSCOPE_RENDER_CORPUS");
  if (!corpus.isEmpty()) {
    auto res = core::loadProfile(corpus.toStdString());
    REQUIRE(res.ok());
    TimelineWidget w;
    w.setProfile(res.profile);
    QElapsedTimer timer;
    timer.start();
    const QImage first = w.renderToImage(QSize(1600, 900), 1.0);
    WARN("full view render: " << timer.nsecsElapsed() / 1000 << " us, layout rows " << w.layout().rows().size());
    CHECK(first.save(dir + QStringLiteral("/corpus.png")));
    for (int i = 0; i < 3; ++i) {
      timer.restart();
      (void)w.renderToImage(QSize(1600, 900), 1.0);
      WARN("again: " << timer.nsecsElapsed() / 1000 << " us");
    }
    const core::TimeRange r = res.profile->range();
    w.setVisibleRange({r.start + r.duration() / 2, r.start + r.duration() / 2 + r.duration() / 200});
    CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-zoom.png")));
    w.setVerticalScroll(600);
    CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-zoom-scrolled.png")));
    // A flow's source slice selected, zoomed to show both ends.
    const auto& t0 = res.profile->ranks[0].trace;
    if (t0 && !t0->flows.empty()) {
      const core::Flow& f = t0->flows[t0->flows.size() / 2];
      w.selectSlice(0, f.from);
      const core::TimeNs a = std::min(f.fromTs, f.toTs), b = std::max(f.fromTs, f.toTs);
      const core::TimeNs pad = std::max<core::TimeNs>((b - a) / 2, 20'000);
      w.setVisibleRange({a - pad, b + pad});
      w.setAllProcessesExpanded(true);
      w.selectSlice(0, f.from);
      CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-flow.png")));
    }
    // Every flow category drawn (coloured per category), markers, the counters expanded.
    QSet<QString> cats;
    for (const auto& rk : res.profile->ranks)
      if (rk.trace)
        for (const auto& f : rk.trace->flows) cats.insert(QString::fromUtf8(rk.trace->name(f.category).data(), static_cast<qsizetype>(rk.trace->name(f.category).size())));
    w.setVisibleFlowCategories(cats);
    w.setAllProcessesExpanded(true);
    w.setVisibleRange({r.start, r.start + r.duration() / 4});
    w.markers()->addPoint(r.start + r.duration() / 16, QStringLiteral("checkpoint"));
    w.markers()->addRange({r.start + r.duration() / 10, r.start + r.duration() / 6}, QStringLiteral("slow phase"));
    w.setVerticalScroll(0);
    CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-flows-markers.png")));
    w.setVerticalScroll(w.layout().totalHeight());
    CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-counters.png")));
    widgets::ColorPalette::setDarkChrome(true);
    w.setVerticalScroll(0);
    CHECK(w.renderToImage(QSize(1600, 900), 1.0).save(dir + QStringLiteral("/corpus-flows-markers-dark.png")));
    widgets::ColorPalette::setDarkChrome(false);
  }
}
