// SPDX-License-Identifier: MIT
// The text report (core/report/report.cpp).
#include <catch2/catch.hpp>

#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

TEST_CASE("case 15: the text report says where a truncated file ends") {
  // case.md: c_truncated_mid_event.json (189 bytes) keeps 2 slices and warns "file ends inside an
  // event at byte 189"; the report shows the first example of each warning kind after its count.
  const auto r = core::loadProfile(shared("cases/15-array-no-closing-bracket/c_truncated_mid_event.json"));
  REQUIRE(r.ok());
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("1 x file ends inside an event") != std::string::npos);
  CHECK(text.find("e.g. file ends inside an event at byte 189") != std::string::npos);
  // A clean file has no warnings section.
  const auto clean = core::loadProfile(shared("cases/15-array-no-closing-bracket/a_unterminated.json"));
  REQUIRE(clean.ok());
  CHECK(core::reportText(*clean.profile).find("e.g.") == std::string::npos);
}
