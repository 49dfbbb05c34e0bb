// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_header.h"

#include <QApplication>
#include <QPainter>
#include <QStaticText>
#include <QStringList>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;

TEST_CASE("clicking a process header collapses and expands it", "[lane_header]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  w.resize(1000, 400);
  w.show();
  REQUIRE(QTest::qWaitForWindowExposed(&w));
  auto* header = w.findChild<widgets::LaneHeader*>();
  REQUIRE(header);
  REQUIRE(w.layout().rows().size() == 6);
  const int y = w.layout().rows()[1].y + 5;  // CANN header
  QTest::mouseClick(header, Qt::LeftButton, {}, QPoint(20, y));
  CHECK(w.layout().rows().size() == 4);
  CHECK_FALSE(w.layout().isProcessExpanded(0, 0));
  QTest::mouseClick(header, Qt::LeftButton, {}, QPoint(20, y));
  CHECK(w.layout().rows().size() == 6);
  // A click on a thread name does nothing.
  QTest::mouseClick(header, Qt::LeftButton, {}, QPoint(40, w.layout().rows()[2].y + 5));
  CHECK(w.layout().rows().size() == 6);
  // The rank header collapses the whole rank.
  QTest::mouseClick(header, Qt::LeftButton, {}, QPoint(10, 5));
  CHECK(w.layout().rows().size() == 1);
}

TEST_CASE("a kept header line is drawn where drawText draws it", "[lane_header]") {
  // drawStaticLine's position against QPainter::drawText's own layout, for several fonts, sizes,
  // rect heights (odd and even), scripts and device pixel ratios: the images must be equal pixel
  // for pixel.
  const QStringList texts{QStringLiteral("Thread 2210417"), QStringLiteral("Communication(Not Overlapped)"),
                          QStringLiteral("通信 (未重叠) 计算"), QStringLiteral("AI Core Freq [MHz] 频率"), QStringLiteral("gy|Ág")};
  int compared = 0;
  for (const qreal dpr : {1.0, 2.0})
  for (const double points : {7.5, 9.0, 10.0, 11.0, 13.5}) {
    for (const bool bold : {false, true}) {
      QFont font = QApplication::font();
      font.setPointSizeF(points);
      font.setBold(bold);
      const QFontMetricsF metrics(font);
      for (const int height : {12, 17, 18, 25, 40}) {
        for (const QString& text : texts) {
          const QRect rect(3, 2, 260, height);
          const auto paint = [&](bool kept) {
            QImage img(static_cast<int>(270 * dpr), static_cast<int>(48 * dpr), QImage::Format_ARGB32_Premultiplied);
            img.setDevicePixelRatio(dpr);
            img.fill(Qt::white);
            QPainter p(&img);
            p.setFont(font);
            p.setPen(Qt::black);
            if (kept) {
              QStaticText st(text);
              st.setTextFormat(Qt::PlainText);
              st.prepare(QTransform(), font);  // as LaneHeader does
              widgets::drawStaticLine(p, metrics, rect, st);
            } else {
              p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, text);
            }
            return img;
          };
          const QImage expected = paint(false);
          INFO("dpr " << dpr << ", " << points << " pt, bold " << bold << ", height " << height << ", " << text.toStdString());
          QImage blank(expected.size(), expected.format());
          blank.fill(Qt::white);
          REQUIRE(expected != blank);  // the text was drawn
          CHECK(paint(true) == expected);
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 500);
}

TEST_CASE("the wheel over the lane names moves one rank a notch, and Ctrl+Down / Ctrl+Up on the lanes too", "[timeline]") {
  // Issue 42 item 2: with 10 ranks the wheel took some 200 notches to cross them.
  widgets::TimelineWidget w;
  w.resize(900, 220);  // shorter than one rank's lanes: every rank header can reach the top
  w.show();
  std::vector<std::shared_ptr<core::Trace>> traces;
  for (int i = 0; i < 5; ++i) traces.push_back(testing::makeTwoLaneTrace());
  w.setProfile(testing::makeProfile(traces));
  std::vector<int> tops;
  for (const auto& r : w.layout().rows())
    if (r.kind == widgets::LayoutRow::Kind::Rank) tops.push_back(r.y);
  REQUIRE(tops.size() == 5);
  // The last rank's header reaches no higher than the end of the lanes allows.
  w.setVerticalScroll(1 << 28);
  const int maxScroll = w.verticalScroll();
  w.setVerticalScroll(0);
  const auto at = [&](std::size_t k) { return std::min(tops[k], maxScroll); };
  QWidget* header = nullptr;
  for (auto* c : w.findChildren<widgets::LaneHeader*>()) header = c;
  REQUIRE(header);
  const auto wheel = [&](int dy) {
    const QPoint p(20, 40);
    QWheelEvent ev(QPointF(p), QPointF(header->mapToGlobal(p)), QPoint(), QPoint(0, dy), Qt::NoButton, Qt::NoModifier,
                   Qt::NoScrollPhase, false);
    QApplication::sendEvent(header, &ev);
  };
  wheel(-120);  // one notch down
  CHECK(w.verticalScroll() == at(1));
  wheel(-120);
  CHECK(w.verticalScroll() == at(2));
  wheel(-60);  // half a notch: nothing yet
  CHECK(w.verticalScroll() == at(2));
  wheel(-60);  // the other half
  CHECK(w.verticalScroll() == at(3));
  wheel(-240);  // past the last rank: as far as the lanes go
  CHECK(w.verticalScroll() == at(4));
  wheel(120);
  CHECK(w.verticalScroll() == tops[3]);
  // Keys on the lanes.
  w.canvas()->setFocus();
  QTest::keyClick(w.canvas(), Qt::Key_Up, Qt::ControlModifier);
  CHECK(w.verticalScroll() == tops[2]);
  QTest::keyClick(w.canvas(), Qt::Key_Down, Qt::ControlModifier);
  CHECK(w.verticalScroll() == tops[3]);
  // Up from inside a rank goes to that rank's header first.
  w.setVerticalScroll(tops[2] + 10);
  QTest::keyClick(w.canvas(), Qt::Key_Up, Qt::ControlModifier);
  CHECK(w.verticalScroll() == tops[2]);
}
