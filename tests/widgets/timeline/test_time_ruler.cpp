// SPDX-License-Identifier: MIT
#include "widgets/timeline/time_ruler.h"

#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

#include "core/base/time_format.h"
#include "core/query/lod.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

#include <algorithm>
#include <cmath>

using namespace npuscope;

TEST_CASE("ruler ticks are round relative to the profile start", "[ruler]") {
  const core::TimeNs origin = 1'700'000'000'000'123'457;
  const core::TimeRange view{origin + 1'234, origin + 1'001'234};
  const core::Ticks t = widgets::relativeTicks(view, 1000, origin);
  REQUIRE(t.majorStep > 0);
  REQUIRE_FALSE(t.major.empty());
  for (core::TimeNs v : t.major) {
    CHECK(view.contains(v));
    CHECK((v - origin) % t.majorStep == 0);
  }
  // 1 ms over 1000 px with labels >= 90 px apart: a 100 us step, labels "100 us", "200 us"...
  CHECK(t.majorStep == 100'000);
  CHECK(core::formatDuration(t.major.front() - origin) == "100 us");
}

TEST_CASE("a tick label at the ruler's right edge goes left of its tick, not cut", "[ruler]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  // A view that ends 50 ns after a round tick (8000 ns: a multiple of every likely step).
  w.setVisibleRange({testing::kBase, testing::kBase + 8'050});
  const core::TimeRange view = w.viewport()->visibleRange();
  REQUIRE(view == core::TimeRange{testing::kBase, testing::kBase + 8'050});
  // A width whose last major tick lies 4 to 12 px from the ruler's right edge (found with the
  // tick helper; the label, some 30 px wide, cannot fit right of it).
  int width = 0;
  double xLast = 0;
  for (int total = 600; total < 1400 && width == 0; ++total) {
    const int rw = total - w.headerWidth();
    const core::Ticks t = widgets::relativeTicks(view, rw, testing::kBase);
    if (t.major.empty()) continue;
    const double x = std::round(core::timeToX(t.major.back(), view, rw)) + 0.5;
    if (rw - x >= 4 && rw - x <= 12) {
      width = total;
      xLast = x;
    }
  }
  REQUIRE(width > 0);
  const QImage img = w.renderToImage(QSize(width, 200), 1.0);
  const int x0 = w.headerWidth() + static_cast<int>(xLast);
  const QRgb background = img.pixel(width - 1, 1);  // the ruler's top right corner
  // Rows of the labels (above the tick marks, which take the bottom 11 rows of the ruler).
  const auto ink = [&](int from, int to) {
    int n = 0;
    for (int y = 2; y < widgets::TimeRuler::kHeight - 12; ++y)
      for (int x = std::max(from, 0); x < std::min(to, width); ++x) n += img.pixel(x, y) != background ? 1 : 0;
    return n;
  };
  CHECK(ink(x0 + 2, width) == 0);     // nothing right of the last tick: no cut label
  CHECK(ink(x0 - 45, x0 - 2) > 10);   // its label, left of it (the previous one ends further left)
}
