// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_layout.h"

#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

using namespace npuscope;
using widgets::LaneLayout;
using widgets::LayoutRow;

TEST_CASE("layout rows of the 2-lane trace", "[layout]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  const auto& m = layout.metrics();
  const auto& rows = layout.rows();
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].kind == LayoutRow::Kind::Rank);
  CHECK(rows[1].kind == LayoutRow::Kind::Process);
  CHECK(rows[2].kind == LayoutRow::Kind::Slices);
  CHECK((rows[2].lane == 0 && rows[2].depth == 0));
  CHECK((rows[3].lane == 0 && rows[3].depth == 1));
  CHECK(rows[4].kind == LayoutRow::Kind::Process);
  CHECK((rows[5].lane == 1 && rows[5].depth == 0));
  CHECK(rows[2].y == m.rankHeader + m.processHeader);
  CHECK(rows[3].y == rows[2].y + m.sliceRow);
  CHECK(rows[3].height == m.sliceRow + m.laneGap);  // last depth row of its lane
  CHECK(rows[5].y == rows[4].y + m.processHeader);
  CHECK(layout.totalHeight() == rows[5].y + rows[5].height);
  for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i].y == rows[i - 1].y + rows[i - 1].height);

  CHECK(layout.rowAt(-1) == -1);
  CHECK(layout.rowAt(0) == 0);
  CHECK(layout.rowAt(rows[3].y + 1) == 3);
  CHECK(layout.rowAt(layout.totalHeight()) == -1);
  CHECK(layout.rowOfSlice(0, 1, 0) == 5);
  CHECK(layout.rowOfSlice(0, 0, 1) == 3);
  CHECK(layout.rankTitle(0) == QStringLiteral("rank 0 · NPU 0"));
  CHECK(layout.lanePath(0, 1) == QStringLiteral("rank 0 · NPU 0 / Ascend Hardware / Stream 7"));
}

TEST_CASE("collapse and expand processes and ranks", "[layout]") {
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({testing::makeTwoLaneTrace(), testing::makeTwoLaneTrace()}));
  REQUIRE(layout.rows().size() == 12);
  const auto rev = layout.revision();
  REQUIRE(layout.toggleRow(1));  // CANN of rank 0
  CHECK(layout.revision() > rev);
  CHECK(layout.rows().size() == 10);
  CHECK_FALSE(layout.isProcessExpanded(0, 0));
  // A hidden lane maps to its process header on request.
  CHECK(layout.rowOfSlice(0, 0, 0) == -1);
  CHECK(layout.rowOfSlice(0, 0, 0, true) == 1);
  layout.setRankExpanded(1, false);
  CHECK(layout.rows().size() == 5);
  CHECK(layout.rows()[4].kind == LayoutRow::Kind::Rank);
  CHECK(layout.rowOfSlice(1, 1, 0, true) == 4);
  CHECK(layout.rankTitle(1) == QStringLiteral("rank 1 · NPU 0"));
  CHECK(layout.rows()[3].kind == LayoutRow::Kind::Slices);
  CHECK_FALSE(layout.toggleRow(3));  // a slice row
}

TEST_CASE("counter-only processes start collapsed", "[layout]") {
  auto t = testing::makeTwoLaneTrace();
  const auto p = testing::addProcess(*t, 300, "AI Core Freq", core::Process::Role::Counter);
  core::CounterSeries cs;
  cs.process = p;
  cs.name = t->strings.intern("AI Core Freq");
  cs.key = t->strings.intern("MHz");
  cs.ts = {testing::kBase, testing::kBase + 4000};
  cs.value = {1800, 1200};
  t->counters.push_back(cs);
  LaneLayout layout;
  layout.setProfile(testing::makeProfile({t}));
  REQUIRE(layout.rows().size() == 7);
  CHECK(layout.rows().back().kind == LayoutRow::Kind::Process);
  CHECK_FALSE(layout.rows().back().expanded);
  layout.toggleRow(6);
  REQUIRE(layout.rows().size() == 8);
  const LayoutRow& c = layout.rows().back();
  CHECK(c.kind == LayoutRow::Kind::Counter);
  CHECK(c.counterMax == 1800);
  CHECK(c.counterMin == 0);
  CHECK(layout.rowTitle(c) == QStringLiteral("AI Core Freq [MHz]"));
}
