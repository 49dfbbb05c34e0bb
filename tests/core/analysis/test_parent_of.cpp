// SPDX-License-Identifier: MIT
// detail::parentOf searches a row by galloping from the last parent it found on
// the thread: its answers must be those of a plain binary search, in any order
// of the questions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "core/analysis/trace_query.h"
#include "tests/core/test_util.h"

using namespace npuscope;

namespace {
/// The parent as a binary search over the row above finds it (the rule before
/// the galloping).
core::SliceRef parentByBinarySearch(const core::Trace &trace,
                                    core::SliceRef r) {
  const core::Lane &lane = trace.lanes[r.lane];
  const std::uint32_t d = lane.depthOf(r.index);
  if (d == 0)
    return {};
  const core::TimeNs t = lane.start[r.index];
  const std::uint32_t b = lane.rowBegin[d - 1], e = lane.rowBegin[d];
  auto it = std::upper_bound(lane.start.begin() + b, lane.start.begin() + e, t);
  if (it == lane.start.begin() + b)
    return {};
  const auto i = static_cast<std::uint32_t>(it - lane.start.begin()) - 1;
  if (t < lane.end[i] || lane.start[i] == t)
    return {r.lane, i};
  return {};
}
} // namespace

TEST_CASE("parentOf: the same parents as a binary search, asked in slice "
          "order, backwards and at random") {
  // The 910B Level1 capture's rank 0: Python threads 4-5 rows deep, CANN
  // threads 2 rows.
  const auto t = test::load(
      test::shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/"
                   "ASCEND_PROFILER_OUTPUT/trace_view.json"));
  std::vector<core::SliceRef> all;
  for (std::uint32_t l = 0; l < t->lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t->lanes[l].sliceCount(); ++i)
      all.push_back({l, i});
  REQUIRE(all.size() > 4000);
  std::size_t withParent = 0;
  const auto check = [&](const std::vector<core::SliceRef> &order) {
    std::size_t wrong = 0;
    for (const core::SliceRef r : order) {
      const core::SliceRef got = core::detail::parentOf(*t, r),
                           want = parentByBinarySearch(*t, r);
      wrong += !(got == want);
      withParent += want.valid();
    }
    CHECK(wrong == 0);
  };
  check(all);
  std::vector<core::SliceRef> back(all.rbegin(), all.rend());
  check(back);
  std::mt19937 rng(43);
  std::shuffle(all.begin(), all.end(), rng);
  check(all);
  CHECK(withParent / 3 >
        1000); // a slice in four has one (each order counted them)
}
