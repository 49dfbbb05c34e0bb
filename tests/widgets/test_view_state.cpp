// SPDX-License-Identifier: MIT
#include "widgets/view_state.h"

#include <QSignalSpy>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using testing::kBase;
using widgets::BubbleRef;
using widgets::RankSliceRef;
using widgets::ViewState;

TEST_CASE("ViewState emits once per change and never for the same value", "[view_state]") {
  ViewState state;
  QSignalSpy slice(&state, &ViewState::selectedSliceChanged);
  QSignalSpy range(&state, &ViewState::visibleRangeChanged);
  QSignalSpy bubble(&state, &ViewState::selectedBubbleChanged);
  QSignalSpy profile(&state, &ViewState::profileChanged);

  state.setSelectedSlice({0, core::SliceRef{1, 2}});
  state.setSelectedSlice({0, core::SliceRef{1, 2}});
  CHECK(slice.count() == 1);
  CHECK(state.selectedSlice() == RankSliceRef{0, core::SliceRef{1, 2}});
  // A rank without a slice is "none", stored as the default ref.
  state.setSelectedSlice({3, core::SliceRef{}});
  CHECK(slice.count() == 2);
  CHECK(state.selectedSlice() == RankSliceRef{});

  state.setVisibleRange({10, 20});
  state.setVisibleRange({10, 20});
  CHECK(range.count() == 1);

  state.setSelectedBubble({0, 1, 2});
  state.setSelectedBubble({0, 1, 2});
  CHECK(bubble.count() == 1);
  state.setSelectedBubble({0, -1, 2});  // any negative index: none
  CHECK(bubble.count() == 2);
  CHECK_FALSE(state.selectedBubble().valid());

  // A new profile clears the slice and the bubble first.
  state.setSelectedSlice({0, core::SliceRef{1, 2}});
  state.setSelectedBubble({0, 1, 2});
  slice.clear();
  bubble.clear();
  state.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  CHECK(profile.count() == 1);
  CHECK(slice.count() == 1);
  CHECK(bubble.count() == 1);
  CHECK_FALSE(state.selectedSlice().valid());
  CHECK(state.profile() != nullptr);
}

TEST_CASE("ViewState requests are passed on as they are", "[view_state]") {
  ViewState state;
  QSignalSpy slices(&state, &ViewState::sliceActivationRequested);
  QSignalSpy bubbles(&state, &ViewState::bubbleActivationRequested);
  state.activateSlice({1, core::SliceRef{2, 3}});
  state.activateBubble({1, 0, 4});
  REQUIRE(slices.count() == 1);
  REQUIRE(bubbles.count() == 1);
  CHECK(slices.at(0).at(0).value<RankSliceRef>() == RankSliceRef{1, core::SliceRef{2, 3}});
  CHECK(bubbles.at(0).at(0).value<BubbleRef>() == BubbleRef{1, 0, 4});
  // The state itself does not change: the main window decides what "show" means.
  CHECK_FALSE(state.selectedSlice().valid());
}

TEST_CASE("a timeline bound to a ViewState publishes and follows it", "[view_state]") {
  ViewState state;
  widgets::TimelineWidget w;
  w.resize(1000, 400);
  w.setViewState(&state);
  state.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  REQUIRE(w.profile() == state.profile());
  // The two-lane trace spans [kBase, kBase + 10 us) (test_profiles.h): fit all shows it.
  CHECK(state.visibleRange() == core::TimeRange{kBase, kBase + 10'000});

  // Timeline -> state.
  w.selectSlice(0, core::SliceRef{0, 4});
  CHECK(state.selectedSlice() == RankSliceRef{0, core::SliceRef{0, 4}});
  w.setVisibleRange({kBase + 1000, kBase + 3000});
  CHECK(state.visibleRange() == core::TimeRange{kBase + 1000, kBase + 3000});
  w.setSelectedBubble(BubbleRef{0, 0, 1});
  CHECK(state.selectedBubble() == BubbleRef{0, 0, 1});

  // State -> timeline (as a dock would set it).
  QSignalSpy selected(&w, &widgets::TimelineWidget::sliceSelected);
  state.setSelectedSlice({0, core::SliceRef{1, 1}});
  CHECK(w.selection() == RankSliceRef{0, core::SliceRef{1, 1}});
  CHECK(selected.count() == 1);
  state.setVisibleRange({kBase + 5000, kBase + 7000});
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase + 5000, kBase + 7000});
  state.setSelectedBubble({});
  CHECK_FALSE(w.selectedBubble().valid());

  // Unbound: the state no longer moves the timeline.
  w.setViewState(nullptr);
  state.setVisibleRange({kBase, kBase + 1000});
  CHECK(w.viewport()->visibleRange() == core::TimeRange{kBase + 5000, kBase + 7000});
}
