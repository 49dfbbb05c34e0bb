// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "core/base/time_format.h"

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

TEST_CASE("formatTickLabel keeps the decimals that tell neighbouring ticks apart") {
  // A 10 us step 9.84 s into a long trace (the fresh-eyes review saw every tick read "9.84 s").
  CHECK(formatTickLabel(9'840'000'000, 10'000) == "9.84000 s");
  CHECK(formatTickLabel(9'840'010'000, 10'000) == "9.84001 s");
  CHECK(formatTickLabel(9'840'020'000, 20'000) == "9.84002 s");
  // 0.5 ms step: 4 decimals of a second (0.1 ms per digit).
  CHECK(formatTickLabel(22'351'500'000, 500'000) == "22.3515 s");
  CHECK(formatTickLabel(1'500, 500) == "1.5 us");
  CHECK(formatTickLabel(3'000'000'000, 1'000'000'000) == "3 s");
  CHECK(formatTickLabel(-2'000'000, 1'000'000) == "-2 ms");
  CHECK(formatTickLabel(750, 50) == "750 ns");
  // A 2 ns step 1.000000004 s in: all 9 decimals.
  CHECK(formatTickLabel(1'000'000'004, 2) == "1.000000004 s");
  CHECK(formatTickLabel(1'500, 0) == formatDuration(1'500));
}

TEST_CASE("formatSignedOffset: + after the start, - before it, never +-", "[time_format]") {
  // Hand values: 8.9 ms before the start with a 100 us step is "-8.9 ms" (one decimal of ms
  // tells 100 us apart); 187.7 ms after it "+187.7 ms"; the start itself "+0 ns".
  CHECK(npuscope::core::formatSignedOffset(-8'900'000, 100'000) == "-8.9 ms");
  CHECK(npuscope::core::formatSignedOffset(187'700'000, 100'000) == "+187.7 ms");
  CHECK(npuscope::core::formatSignedOffset(0, 100'000) == "+0 ns");
}
