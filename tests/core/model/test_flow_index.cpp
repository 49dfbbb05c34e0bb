// SPDX-License-Identifier: MIT
// The flow index (Trace::flowsByFrom / flowsByTo with their sampled keys):
// every lookup agrees with a scan of the flows, on a trace with many more flows
// than one key stride.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/trace_query.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;

TEST_CASE("flow index: flowsTo / flowsFrom and their ranges agree with a scan "
          "of every flow") {
  // Three threads of 400 slices each; flow k runs from slice (k * 7) % 400 of
  // thread k % 3 to slice (k * 13) % 400 of thread (k + 1) % 3: several flows
  // start or end at one slice, many slices have none, and the flows come in no
  // slice order.
  std::string json = "[";
  for (int tid = 1; tid <= 3; ++tid)
    for (int i = 0; i < 400; ++i)
      json += "{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(tid) +
              ",\"ts\":" + std::to_string(i * 10) +
              ",\"dur\":5,\"name\":\"s\"},";
  const int flows = 1000;
  for (int k = 0; k < flows; ++k) {
    const int from = (k * 7) % 400, to = (k * 13) % 400;
    json += "{\"ph\":\"s\",\"pid\":1,\"tid\":" + std::to_string(k % 3 + 1) +
            ",\"ts\":" + std::to_string(from * 10 + 1) +
            ",\"id\":" + std::to_string(k) + ",\"name\":\"f\",\"cat\":\"c\"},";
    json += "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":" +
            std::to_string((k + 1) % 3 + 1) +
            ",\"ts\":" + std::to_string(to * 10 + 1) +
            ",\"id\":" + std::to_string(k) + ",\"name\":\"f\",\"cat\":\"c\"},";
  }
  json.back() = ']';
  const auto t = test::loadMemory(json);
  REQUIRE(t->flows.size() == static_cast<std::size_t>(flows));
  REQUIRE(t->flowsIndexed());
  // The sampled keys cover the index at the stride (what the lookups rely on).
  CHECK(t->flowsByToKeys.size() ==
        (t->flows.size() + core::Trace::kFlowKeyStride - 1) /
            core::Trace::kFlowKeyStride);
  // In slice order (the lookups gallop from this thread's last answer in the
  // lane), backwards and at random (then they start elsewhere): the same
  // answers.
  std::vector<core::SliceRef> order;
  for (std::uint32_t l = 0; l < t->lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t->lanes[l].sliceCount(); ++i)
      order.push_back({l, i});
  const std::size_t slices = order.size();
  order.insert(order.end(), order.rbegin(), order.rend());
  std::vector<core::SliceRef> shuffled(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(slices));
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(43));
  order.insert(order.end(), shuffled.begin(), shuffled.end());
  std::size_t seenTo = 0, seenFrom = 0;
  for (const core::SliceRef r : order) {
    std::vector<std::uint32_t> to, from;
    for (std::uint32_t f = 0; f < t->flows.size(); ++f) {
      if (t->flows[f].to == r)
        to.push_back(f);
      if (t->flows[f].from == r)
        from.push_back(f);
    }
    std::vector<std::uint32_t> gotTo = t->flowsTo(r), gotFrom = t->flowsFrom(r);
    std::sort(gotTo.begin(), gotTo.end());
    std::sort(gotFrom.begin(), gotFrom.end());
    CHECK(gotTo == to);
    CHECK(gotFrom == from);
    const auto [b, e] = t->flowsToRange(r);
    CHECK(e - b == to.size());
    std::vector<std::uint32_t> viaRefs;
    for (const core::Flow *f : core::detail::flowsTo(*t, r))
      viaRefs.push_back(static_cast<std::uint32_t>(f - t->flows.data()));
    std::sort(viaRefs.begin(), viaRefs.end());
    CHECK(viaRefs == to);
    seenTo += to.size();
    seenFrom += from.size();
  }
  CHECK(seenTo == 3 * t->flows.size()); // each order sees every flow once
  CHECK(seenFrom == 3 * t->flows.size());
}

TEST_CASE("flow index: a trace that was never indexed is scanned") {
  core::Trace t;
  t.flows.push_back({});
  t.flows[0].from = {0, 1};
  t.flows[0].to = {2, 0};
  CHECK_FALSE(t.flowsIndexed());
  CHECK(t.flowsTo({2, 0}) == std::vector<std::uint32_t>{0});
  CHECK(t.flowsToRange({2, 0}) == std::pair<std::size_t, std::size_t>{0, 0});
  std::size_t n = 0;
  for (const core::Flow *f : core::detail::flowsFrom(t, {0, 1}))
    n += f == &t.flows[0];
  CHECK(n == 1);
}
