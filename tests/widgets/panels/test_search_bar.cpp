// SPDX-License-Identifier: MIT
#include "widgets/panels/search_bar.h"

#include <QLineEdit>
#include <QTest>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/flow_navigation.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using testing::kBase;
using widgets::SearchBar;
using widgets::TimelineWidget;

// Lane 0 of makeTwoLaneTrace: depth 0 outer(0) tail(1) late(2), depth 1 inner(3) inner2(4);
// lane 1: kernelA(0) kernelB(1).

TEST_CASE("SearchBar finds, counts, marks and steps through matches", "[search_bar]") {
  TimelineWidget timeline;
  timeline.resize(1000, 400);
  timeline.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  SearchBar bar(&timeline);
  timeline.show();
  REQUIRE(QTest::qWaitForWindowExposed(&timeline));
  bar.activate();
  CHECK(bar.isVisible());
  CHECK(bar.geometry().right() < timeline.width());

  bar.setText(QStringLiteral("INNER"));
  bar.runQuery();
  REQUIRE(bar.matches().size() == 2);
  CHECK(bar.countText() == QStringLiteral("\u2013 / 2"));
  CHECK(timeline.hasSearchMatches());
  CHECK(timeline.isSearchMatch(0, {0, 3}));
  CHECK(timeline.isSearchMatch(0, {0, 4}));
  CHECK_FALSE(timeline.isSearchMatch(0, {0, 0}));
  CHECK_FALSE(timeline.isSearchMatch(0, {1, 0}));

  // Enter = next, Shift+Enter = previous, wrapping around.
  auto* edit = bar.findChild<QLineEdit*>();
  QTest::keyClick(edit, Qt::Key_Return);
  CHECK(bar.currentIndex() == 0);
  CHECK(timeline.selectedSlice() == core::SliceRef{0, 3});
  CHECK(bar.countText() == QStringLiteral("1 / 2"));
  QTest::keyClick(edit, Qt::Key_Return);
  CHECK(timeline.selectedSlice() == core::SliceRef{0, 4});
  QTest::keyClick(edit, Qt::Key_Return);
  CHECK(timeline.selectedSlice() == core::SliceRef{0, 3});
  QTest::keyClick(edit, Qt::Key_Return, Qt::ShiftModifier);
  CHECK(timeline.selectedSlice() == core::SliceRef{0, 4});
  CHECK(bar.countText() == QStringLiteral("2 / 2"));

  // Regex, then an invalid one.
  bar.setRegex(true);
  bar.setText(QStringLiteral("^inner\\d$"));
  bar.runQuery();
  REQUIRE(bar.matches().size() == 1);
  CHECK(bar.matches()[0].ref == core::SliceRef{0, 4});
  bar.setText(QStringLiteral("inner("));
  bar.runQuery();
  CHECK(bar.matches().empty());
  CHECK_FALSE(bar.errorText().isEmpty());
  CHECK(bar.countText() == QStringLiteral("Invalid regex"));
  CHECK_FALSE(timeline.hasSearchMatches());
  bar.setText(QStringLiteral("^kernel"));
  bar.runQuery();
  CHECK(bar.matches().size() == 2);
  bar.setText(QStringLiteral("nothing"));
  bar.runQuery();
  CHECK(bar.countText() == QStringLiteral("No matches"));

  // Esc closes and clears the marks.
  bar.setText(QStringLiteral("late"));
  bar.runQuery();
  CHECK(timeline.hasSearchMatches());
  QTest::keyClick(edit, Qt::Key_Escape);
  CHECK_FALSE(bar.isVisible());
  CHECK_FALSE(timeline.hasSearchMatches());
  CHECK_FALSE(timeline.isSearchMatch(0, {0, 2}));
}

TEST_CASE("SearchBar merges ranks in time order", "[search_bar]") {
  TimelineWidget timeline;
  timeline.setProfile(testing::makeProfile({testing::makeTwoLaneTrace(), testing::makeTwoLaneTrace()}));
  SearchBar bar(&timeline);
  bar.setText(QStringLiteral("kernel"));
  bar.runQuery();
  REQUIRE(bar.matches().size() == 4);
  CHECK(bar.matches()[0].rank == 0);
  CHECK(bar.matches()[1].rank == 1);
  CHECK(bar.matches()[1].start == kBase + 200);
  CHECK(bar.matches()[2].start == kBase + 2000);
  CHECK(timeline.isSearchMatch(1, {1, 1}));
}

TEST_CASE("revealSlice keeps the zoom when the slice fits, else zooms to it", "[search_bar]") {
  TimelineWidget timeline;
  timeline.resize(1000, 400);
  timeline.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  timeline.setVisibleRange({kBase + 5000, kBase + 6000});
  timeline.revealSlice(0, {0, 3});  // inner [100, 400): 300 ns fits the 1000 ns view
  core::TimeRange v = timeline.viewport()->visibleRange();
  CHECK(v.duration() == 1000);
  CHECK(v.start <= kBase + 100);
  CHECK(v.end >= kBase + 400);
  // Already fully visible: the view does not move.
  timeline.revealSlice(0, {1, 0});  // kernelA [200, 700) lies inside the view around inner
  CHECK(timeline.viewport()->visibleRange() == v);
  // kernelB is 8000 ns: zoom out to it.
  timeline.revealSlice(0, {1, 1});
  v = timeline.viewport()->visibleRange();
  CHECK(v.start <= kBase + 2000);
  CHECK(v.end >= kBase + 10'000);
  CHECK(timeline.selectedSlice() == core::SliceRef{1, 1});
}

TEST_CASE("flowNeighbour follows flows forward and back", "[search_bar][flows]") {
  const auto trace = testing::makeTwoLaneTrace();
  CHECK(widgets::flowNeighbour(*trace, {0, 0}, true) == core::SliceRef{1, 0});   // outer -> kernelA
  CHECK(widgets::flowNeighbour(*trace, {1, 0}, false) == core::SliceRef{0, 0});  // back
  CHECK_FALSE(widgets::flowNeighbour(*trace, {1, 0}, true).valid());
  CHECK_FALSE(widgets::flowNeighbour(*trace, {0, 0}, false).valid());
  CHECK_FALSE(widgets::flowNeighbour(*trace, {}, true).valid());
}

TEST_CASE("Search and highlight marks paint without touching the draw list", "[search_bar]") {
  TimelineWidget timeline;
  timeline.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  const QImage plain = timeline.renderToImage(QSize(800, 300));
  std::vector<bool> mask(64, false);
  mask[timeline.profile()->ranks[0].trace->strings.find("late")] = true;
  timeline.setSearchMatches(0, mask);
  const QImage marked = timeline.renderToImage(QSize(800, 300));
  CHECK(plain != marked);
  timeline.clearSearchMatches();
  timeline.setHighlightedNames(0, mask);
  CHECK(timeline.isHighlighted(0, {0, 2}));
  CHECK(timeline.renderToImage(QSize(800, 300)) != plain);
  timeline.clearHighlightedNames();
  CHECK(timeline.renderToImage(QSize(800, 300)) == plain);
  // A new profile drops the masks.
  timeline.setHighlightedNames(0, mask);
  timeline.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  CHECK_FALSE(timeline.isHighlighted(0, {0, 2}));
}
