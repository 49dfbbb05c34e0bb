// SPDX-License-Identifier: MIT
// Issue 15, items 4 and 5: timestamps near the int64-ns limits and numbers that do not fit their
// integer type. Nothing may wrap (a negative duration drawn, a slice lost) or be undefined
// behaviour (the sanitizer job, scripts/test_sanitizers.sh, runs these under UBSan): a ts beyond
// +-kMaxTimeNs is skipped (MissingTimestamp), a dur whose end would pass it is taken as 0
// (BadDuration), a pid that does not fit is the fallback process (BadPid). Every case runs on both reader paths.
// The expected numbers are computed by hand in the comments (1 us = 1000 ns).
#include <catch2/catch.hpp>

#include "core/base/time_limits.h"
#include "core/import/json/json_scan.h"
#include "core/model/trace.h"
#include "core/tables/csv.h"
#include "core/tables/tables.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using core::ImportWarning;

namespace {

std::shared_ptr<const core::Trace> loadBoth(const std::string& json, bool fast) {
  core::LoadOptions o;
  o.threads = 1;
  o.fastScanner = fast;
  const core::LoadResult r = core::loadTraceFromMemory(json, "limits.json", o);
  REQUIRE(r.ok());
  return r.trace;
}

}  // namespace

TEST_CASE("kMaxTimeNs is 2^62 - 1 and two of them still fit int64") {
  CHECK(core::kMaxTimeNs == 4611686018427387903LL);  // 2^62 - 1
  CHECK(core::kMaxTimeNs <= INT64_MAX / 2);
}

TEST_CASE("doubleToInt refuses NaN and values beyond the type, clampedNs saturates") {
  std::int64_t i = 0;
  CHECK_FALSE(core::doubleToInt(1e30, i));
  CHECK_FALSE(core::doubleToInt(-1e30, i));
  CHECK_FALSE(core::doubleToInt(9223372036854775808.0, i));  // 2^63
  CHECK_FALSE(core::doubleToInt(std::nan(""), i));
  REQUIRE(core::doubleToInt(-3.9, i));
  CHECK(i == -3);  // truncated, as static_cast
  int small = 0;
  CHECK_FALSE(core::doubleToInt(2147483648.0, small));  // 2^31
  REQUIRE(core::doubleToInt(2147483647.0, small));
  CHECK(small == 2147483647);
  CHECK(core::clampedNs(1e30) == core::kMaxTimeNs);
  CHECK(core::clampedNs(-1e30) == -core::kMaxTimeNs);
  CHECK(core::clampedNs(std::nan("")) == 0);
  CHECK(core::clampedNs(1234.5) == 1235);
}

TEST_CASE("a ts beyond 2^62 ns is skipped with a warning, on both paths") {
  for (const bool fast : {true, false}) {
    INFO("fast scanner " << fast);
    // ts 9200000000000000 us = 9.2e18 ns: fits int64 but is beyond kMaxTimeNs (4.61e18 ns).
    // ts 9.2e18 us = 9.2e21 ns does not fit int64 at all: unreadable. "99999999999999999999" too
    // (20 digits: the fast path's accumulator used to overflow before its length check).
    const auto t = loadBoth(R"([
      {"ph":"X","name":"far","pid":1,"tid":1,"ts":9200000000000000,"dur":1},
      {"ph":"X","name":"farther","pid":1,"tid":1,"ts":9.2e18,"dur":1},
      {"ph":"X","name":"digits","pid":1,"tid":1,"ts":"99999999999999999999","dur":1},
      {"ph":"X","name":"digits2","pid":1,"tid":1,"ts":99999999999999999999,"dur":1},
      {"ph":"X","name":"ok","pid":1,"tid":1,"ts":1000,"dur":10}])", fast);
    CHECK(t->stats.count(ImportWarning::MissingTimestamp) == 4);
    CHECK(test::countSlices(*t, "ok") == 1);
    CHECK(test::countSlices(*t, "far") == 0);
    CHECK(t->range.start == 1'000'000);   // 1000 us
    CHECK(t->range.end == 1'010'000);     // 1010 us
  }
}

TEST_CASE("a dur ending beyond 2^62 ns is taken as 0 with a warning, never wrapped, on both paths") {
  for (const bool fast : {true, false}) {
    INFO("fast scanner " << fast);
    // ts 1.7e15 us = 1.7e18 ns, dur 4e15 us = 4e18 ns: the end 5.7e18 ns passes kMaxTimeNs
    // (4.61e18). dur 1e19 us does not fit int64 at all. Both are taken as 0 (BadDuration).
    const auto t = loadBoth(R"([
      {"ph":"X","name":"long","pid":1,"tid":1,"ts":1700000000000000,"dur":4000000000000000},
      {"ph":"X","name":"huge","pid":1,"tid":2,"ts":1700000000000000,"dur":1e19}])", fast);
    CHECK(t->stats.count(ImportWarning::BadDuration) == 2);
    const core::SliceRef l = test::findSlice(*t, "long");
    REQUIRE(l.valid());
    CHECK(t->lanes[l.lane].start[l.index] == 1'700'000'000'000'000'000LL);
    CHECK(t->lanes[l.lane].end[l.index] == 1'700'000'000'000'000'000LL);
    const core::SliceRef h = test::findSlice(*t, "huge");
    REQUIRE(h.valid());
    CHECK(t->lanes[h.lane].end[h.index] == t->lanes[h.lane].start[h.index]);
    CHECK(t->range.end == 1'700'000'000'000'000'000LL);
  }
}

TEST_CASE("pid, tid and sort_index that do not fit int64 are refused with warnings, on both paths") {
  for (const bool fast : {true, false}) {
    INFO("fast scanner " << fast);
    const auto t = loadBoth(R"([
      {"ph":"M","name":"process_sort_index","pid":1,"args":{"sort_index":1e300}},
      {"ph":"X","name":"a","pid":1e30,"tid":1,"ts":1000,"dur":1},
      {"ph":"X","name":"b","pid":123456789012345678901234567890,"tid":1,"ts":1000,"dur":1},
      {"ph":"X","name":"c","pid":1,"tid":-1e300,"ts":1000,"dur":1}])", fast);
    CHECK(t->stats.count(ImportWarning::BadSortIndex) == 1);
    CHECK(t->stats.count(ImportWarning::BadPid) == 3);  // a's pid, b's pid, c's tid
    CHECK(test::countSlices(*t, "a") == 1);  // kept, on the fallback process
    CHECK(test::countSlices(*t, "b") == 1);
    CHECK(test::countSlices(*t, "c") == 1);
  }
}

TEST_CASE("baseTimeNanoseconds with too many digits is ignored, not wrapped") {
  const auto t = loadBoth(R"({"baseTimeNanoseconds":99999999999999999999,"traceEvents":[
      {"ph":"X","name":"a","pid":1,"tid":1,"ts":1000,"dur":1}]})", true);
  CHECK_FALSE(t->baseTimeNanoseconds.has_value());
  const auto ok = loadBoth(R"({"baseTimeNanoseconds":1700000000000000000,"traceEvents":[
      {"ph":"X","name":"a","pid":1,"tid":1,"ts":1000,"dur":1}]})", true);
  CHECK(ok->baseTimeNanoseconds == 1700000000000000000LL);
}

TEST_CASE("kernel_details.csv: Device_id, Step and times beyond their types are missing, not wrapped") {
  // Device_id 1e20 and 4294967296 (2^32) do not fit an int; Step 1e30 does not fit long long;
  // Start 9.2e15 us = 9.2e18 ns is beyond kMaxTimeNs.
  const core::CsvTable t = core::parseCsv(
      "Name,Start Time(us),Duration(us),Device_id,Step Id\n"
      "a,1000,10,1e20,1e30\n"
      "b,9200000000000000,10,4294967296,3\n"
      "c,1000,10,2,4\n");
  const core::KernelDetails k = core::parseKernelDetails(t);
  REQUIRE(k.rows.size() == 3);
  CHECK(k.rows[0].device == -1);
  CHECK_FALSE(k.rows[0].step.has_value());
  CHECK(k.rows[0].start == 1'000'000);
  CHECK(k.rows[1].device == -1);
  CHECK_FALSE(k.rows[1].start.has_value());
  CHECK(k.rows[1].step == 3);
  CHECK(k.rows[2].device == 2);
  CHECK(k.rows[2].step == 4);
}
