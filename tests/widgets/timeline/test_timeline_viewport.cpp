// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeline_viewport.h"

#include <QSignalSpy>
#include <catch2/catch.hpp>

#include "core/query/lod.h"

using npuscope::core::TimeNs;
using npuscope::core::TimeRange;
using npuscope::widgets::TimelineViewport;

namespace {
constexpr TimeNs kT0 = 1'700'000'000'000'000'000;
constexpr TimeRange kTrace{kT0, kT0 + 1'000'000};  // 1 ms
}  // namespace

TEST_CASE("viewport starts fitted to the trace", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange(kTrace);
  CHECK(vp.visibleRange() == kTrace);
  CHECK(vp.limitRange() == TimeRange{kT0 - 50'000, kT0 + 1'050'000});
  CHECK_FALSE(vp.canUndo());
}

TEST_CASE("zoomAt keeps the anchor at the same pixel", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange(kTrace);
  const double rel = GENERATE(0.0, 0.1, 0.37, 0.5, 0.9, 1.0);
  const double factor = GENERATE(2.0, 1.5, 10.0, 1.0 / 1.4);
  // Start from a zoomed-in view in the middle so that zooming out does not hit the limits.
  vp.setVisibleRange({kT0 + 400'000, kT0 + 500'000});
  const TimeRange before = vp.visibleRange();
  const TimeNs anchor = before.start + static_cast<TimeNs>(rel * static_cast<double>(before.duration()));
  const double width = 1000.0;
  const double xBefore = npuscope::core::timeToX(anchor, before, width);
  vp.zoomAt(anchor, factor);
  const TimeRange after = vp.visibleRange();
  CHECK(after.duration() == Approx(static_cast<double>(before.duration()) / factor).margin(1.0));
  CHECK(npuscope::core::timeToX(anchor, after, width) == Approx(xBefore).margin(0.02));
}

TEST_CASE("zoom is clamped to 100 ns and to the trace plus margins", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange(kTrace);
  for (int i = 0; i < 60; ++i) vp.zoomAt(kT0 + 500'000, 3.0);
  CHECK(vp.visibleRange().duration() == TimelineViewport::kMinVisibleNs);
  CHECK(vp.visibleRange().contains(kT0 + 500'000));
  for (int i = 0; i < 60; ++i) vp.zoomAt(kT0 + 500'000, 1.0 / 3.0);
  CHECK(vp.visibleRange() == vp.limitRange());

  // Panning never leaves the limit range.
  vp.setVisibleRange({kT0, kT0 + 100'000});
  vp.panBy(-10'000'000);
  CHECK(vp.visibleRange() == TimeRange{vp.limitRange().start, vp.limitRange().start + 100'000});
  vp.panBy(10'000'000);
  CHECK(vp.visibleRange() == TimeRange{vp.limitRange().end - 100'000, vp.limitRange().end});

  // A requested range far outside the trace is pulled back in, duration kept.
  vp.setVisibleRange({kT0 + 5'000'000, kT0 + 5'000'500});
  CHECK(vp.visibleRange().duration() == 500);
  CHECK(vp.visibleRange().end == vp.limitRange().end);
  // Too small: widened to 100 ns around its centre.
  vp.setVisibleRange({kT0 + 1000, kT0 + 1010});
  CHECK(vp.visibleRange() == TimeRange{kT0 + 1005 - 50, kT0 + 1005 + 50});
}

TEST_CASE("undo restores the range before the last zoom gesture", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange(kTrace);
  const TimeRange full = vp.visibleRange();
  // Three consecutive zoomAt calls are one gesture: one undo goes back to the full view.
  vp.zoomAt(kT0 + 250'000, 2.0);
  vp.zoomAt(kT0 + 250'000, 2.0);
  vp.zoomAt(kT0 + 250'000, 2.0);
  CHECK(vp.historySize() == 1);
  const TimeRange zoomed = vp.visibleRange();
  CHECK(zoomed.duration() == 125'000);
  // Panning is not a zoom; it ends the gesture.
  vp.panBy(1000);
  const TimeRange panned = vp.visibleRange();
  vp.setVisibleRange({kT0 + 10'000, kT0 + 20'000});
  CHECK(vp.historySize() == 2);
  REQUIRE(vp.undoZoom());
  CHECK(vp.visibleRange() == panned);
  REQUIRE(vp.undoZoom());
  CHECK(vp.visibleRange() == full);
  CHECK_FALSE(vp.undoZoom());

  vp.setVisibleRange({kT0 + 10'000, kT0 + 20'000});
  vp.fitAll();
  CHECK(vp.visibleRange() == full);
  REQUIRE(vp.undoZoom());
  CHECK(vp.visibleRange() == TimeRange{kT0 + 10'000, kT0 + 20'000});
}

TEST_CASE("selection and zoom to selection", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange(kTrace);
  QSignalSpy sel(&vp, &TimelineViewport::selectionChanged);
  QSignalSpy vis(&vp, &TimelineViewport::visibleRangeChanged);
  vp.setSelection({kT0 + 3000, kT0 + 1000});  // reversed: normalised
  CHECK(vp.selection() == TimeRange{kT0 + 1000, kT0 + 3000});
  CHECK(sel.count() == 1);
  vp.zoomToSelection();
  CHECK(vp.visibleRange() == TimeRange{kT0 + 1000, kT0 + 3000});
  CHECK(vis.count() == 1);
  CHECK(vis.takeFirst().at(0).value<TimeRange>() == TimeRange{kT0 + 1000, kT0 + 3000});
  vp.clearSelection();
  CHECK_FALSE(vp.hasSelection());
  CHECK(sel.count() == 2);
  // Zooming to no selection does nothing.
  vp.zoomToSelection();
  CHECK(vis.count() == 0);
}

TEST_CASE("empty trace range makes every operation a no-op", "[viewport]") {
  TimelineViewport vp;
  vp.setTraceRange({});
  vp.zoomAt(5, 2.0);
  vp.panBy(100);
  vp.fitAll();
  CHECK(vp.visibleRange().empty());
  CHECK_FALSE(vp.undoZoom());
}
