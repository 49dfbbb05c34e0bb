// SPDX-License-Identifier: MIT
// The first-call (warm-up) bubble cause, docs/diagnosis.md §3 rule 10, on hand-built traces: one
// host op covers at least half of a device gap of 1 ms or more and is one of its name's first,
// slow calls (at least 3 calls, >= 10x their lower median, before the first call of at most 2x
// the median). Every expected value is worked out by hand from the events written here (us).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::loadMemory;

namespace {

std::string x(int pid, int tid, const char* name, const char* cat, long long ts, long long dur) {
  return R"({"ph":"X","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"name":")" + name +
         R"(","cat":")" + cat + R"(","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         R"(,"args":{"Task Type":"AI_CORE"}},)" + "\n";
}

/// Device (pid 300, Stream 5): a task at [0, 100) us, then one after each host call. Host (pid
/// 100 Python, tid 1): `conv` calls of the durations given, the first at 50 us; each later call
/// starts 50 us after the previous device task ends, and a 100 us task follows 10 us after it.
/// So the gap after the first task is [100, 50 + first + 10) us.
std::string trace(const std::vector<long long>& conv) {
  std::string b = R"({"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"Python"}},)" "\n"
                  R"({"ph":"M","name":"process_name","pid":300,"tid":0,"args":{"name":"Ascend Hardware"}},)" "\n"
                  R"({"ph":"M","name":"process_labels","pid":300,"tid":0,"args":{"labels":"NPU 0"}},)" "\n";
  b += x(300, 5, "Conv2D", "", 0, 100);
  long long t = 50;
  for (std::size_t i = 0; i < conv.size(); ++i) {
    b += x(100, 1, "aten::conv2d", "cpu_op", t, conv[i]);
    const long long task = t + conv[i] + 10;
    b += x(300, 5, "Conv2D", "", task, 100);
    t = task + 100 + 50;
  }
  b.erase(b.find_last_of(','));
  return "[\n" + b + "\n]\n";
}

/// The bubble starting at 100 us (the first gap), or null.
const core::Bubble* firstGap(const core::RankAnalysis& a) {
  for (const core::DeviceAnalysis& d : a.devices)
    for (const core::Bubble& b : d.bubbles)
      if (b.range.start == 100'000) return &b;
  return nullptr;
}

}  // namespace

TEST_CASE("first call: a slow first call of a later fast op holding a gap is warm-up", "[analysis][bubbles]") {
  // Calls 5000, 100, 100, 100 us: lower median of (100, 100, 100, 5000) = 100; 5000 >= 10 x 100;
  // the first call of at most 200 us starts after the first one. The gap [100, 5060) us = 4.96 ms
  // is covered by the call [50, 5050) for 4950 us, more than half.
  const auto loaded = loadMemory(trace({5000, 100, 100, 100}));
  REQUIRE(loaded);
  const core::RankAnalysis a = core::analyzeRank(*loaded, nullptr, nullptr);
  const core::Bubble* b = firstGap(a);
  REQUIRE(b != nullptr);
  CHECK(b->range.end == 5'060'000);
  CHECK(b->cause == core::BubbleCause::FirstCall);
  REQUIRE(b->evidence.size() == 1);
  CHECK(loaded->sliceName(b->evidence[0]) == "aten::conv2d");
  CHECK(loaded->sliceRange(b->evidence[0]).start == 50'000);
  CHECK(b->detail.find("median call takes 100 us (4 calls)") != std::string::npos);
  // The verdict's suggestion follows the cause holding the most bubble time.
  CHECK(a.verdict.topCause == core::BubbleCause::FirstCall);
}

TEST_CASE("first call: just below 10x the median is not warm-up", "[analysis][bubbles]") {
  // Calls 5000, 501, 501, 501 us: median 501; 10 x 501 = 5010 > 5000.
  const auto loaded = loadMemory(trace({5000, 501, 501, 501}));
  REQUIRE(loaded);
  const core::RankAnalysis a = core::analyzeRank(*loaded, nullptr, nullptr);
  const core::Bubble* b = firstGap(a);
  REQUIRE(b != nullptr);
  CHECK(b->cause != core::BubbleCause::FirstCall);
  // Exactly 10x (calls 5000, 500, 500, 500) is warm-up.
  const auto at = loadMemory(trace({5000, 500, 500, 500}));
  REQUIRE(at);
  const core::RankAnalysis a2 = core::analyzeRank(*at, nullptr, nullptr);
  REQUIRE(firstGap(a2) != nullptr);
  CHECK(firstGap(a2)->cause == core::BubbleCause::FirstCall);
}

TEST_CASE("first call: a slow call after a fast one is not warm-up", "[analysis][bubbles]") {
  // Calls 100, 5000, 100, 100 us: the first call (at 50 us, 100 us long) is already at most 2 x the
  // median (100), so the warm-up ended there; the slow second call is a steady-state cost. Its
  // gap starts after the second task: [50+100+10+100 = 260, 260 + 50 + 5000 + 10 = 5320) us.
  const auto loaded = loadMemory(trace({100, 5000, 100, 100}));
  REQUIRE(loaded);
  const core::RankAnalysis a = core::analyzeRank(*loaded, nullptr, nullptr);
  bool seen = false;
  for (const core::DeviceAnalysis& d : a.devices)
    for (const core::Bubble& b : d.bubbles)
      if (b.range.start == 260'000) {
        seen = true;
        CHECK(b.range.end == 5'320'000);
        CHECK(b.cause != core::BubbleCause::FirstCall);
      }
  CHECK(seen);
}

TEST_CASE("first call: fewer than 3 calls or a gap under 1 ms is not judged", "[analysis][bubbles]") {
  // Two calls: no median to speak of.
  const auto two = loadMemory(trace({5000, 100}));
  REQUIRE(two);
  const core::RankAnalysis a = core::analyzeRank(*two, nullptr, nullptr);
  REQUIRE(firstGap(a) != nullptr);
  CHECK(firstGap(a)->cause != core::BubbleCause::FirstCall);
  // Calls 900, 10, 10, 10 us: 900 >= 10 x 10 but the gap [100, 960) us is 0.86 ms.
  const auto shortGap = loadMemory(trace({900, 10, 10, 10}));
  REQUIRE(shortGap);
  const core::RankAnalysis s = core::analyzeRank(*shortGap, nullptr, nullptr);
  REQUIRE(firstGap(s) != nullptr);
  CHECK(firstGap(s)->range.end == 960'000);
  CHECK(firstGap(s)->cause != core::BubbleCause::FirstCall);
}

TEST_CASE("first call: the AlexNet CUDA capture's long gaps are warm-up, not slow dispatch", "[analysis][bubbles][corpus]") {
  // kineto-hta-alexnet-cuda: the longest gap (10.858 s) is covered by the first aten::conv2d call.
  // Python over the raw trace (json/gzip): the aten::conv2d durations in start order are 10841225,
  // 1049310, 1953, 1413, 1353, 8825, 14972, 138, 91, 86 us; lower median sorted[(10-1)//2] = 1413 us;
  // 10841225 >= 10 x 1413 and the first call of at most 2 x 1413 us starts later (the 3rd).
  const auto t = npuscope::test::load(
      npuscope::test::shared("corpus/kineto-hta-alexnet-cuda/benchmark_result_2869224_1695835535_trace.json.gz"));
  REQUIRE(t);
  const core::RankAnalysis a = core::analyzeRank(*t, nullptr, nullptr);
  REQUIRE(a.devices.size() == 1);
  REQUIRE(!a.devices[0].bubbles.empty());
  const core::Bubble& b = a.devices[0].bubbles.front();
  CHECK(b.cause == core::BubbleCause::FirstCall);
  CHECK(b.detail.find("aten::conv2d 10.841 s") != std::string::npos);
  CHECK(b.detail.find("median call takes 1.413 ms (10 calls)") != std::string::npos);
  CHECK(a.verdict.topCause == core::BubbleCause::FirstCall);
}
