// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_header.h"

#include <QTest>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"
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
