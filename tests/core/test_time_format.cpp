// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "core/time_format.h"

using namespace npuscope::core;

TEST_CASE("formatDuration picks the unit by magnitude") {
  CHECK(formatDuration(0) == "0 ns");
  CHECK(formatDuration(950) == "950 ns");
  CHECK(formatDuration(1500) == "1.5 us");
  CHECK(formatDuration(2345678) == "2.346 ms");
  CHECK(formatDuration(3200000000) == "3.2 s");
  CHECK(formatDuration(-1500) == "-1.5 us");
}

TEST_CASE("formatTimestampUs is exact for epoch ns") {
  CHECK(formatTimestampUs(1731400000123456789) == "1731400000123456.789 us");
  CHECK(formatTimestampUs(5) == "0.005 us");
}
