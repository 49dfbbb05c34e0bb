// SPDX-License-Identifier: MIT
#include "widgets/timeline/time_ruler.h"

#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

#include "core/base/time_format.h"

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
