// SPDX-License-Identifier: MIT
// Numbers too long for an int in names and labels: std::stoi threw std::out_of_range on them
// and aborted npuscope. The inputs are written to a fresh temp folder (never into ../shared).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/base/parse_number.h"
#include "core/profile/profile.h"

#include "tests/core/test_util.h"

using namespace npuscope;

namespace {

namespace fs = std::filesystem;

using npuscope::test::TempDir;

/// One Ascend Hardware task of 10 us on a process labelled `label`.
std::string traceWithLabel(const std::string& label) {
  return R"([
    {"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
    {"ph":"M","name":"process_labels","pid":2,"args":{"labels":")" + label + R"("}},
    {"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":"1000.000","dur":10,"args":{"Task Type":"AI_CORE"}}])";
}

bool hasMessageWith(const std::vector<std::string>& messages, const std::string& part) {
  return std::any_of(messages.begin(), messages.end(), [&](const std::string& m) { return m.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("parseInteger takes whole decimal numbers that fit, nothing else") {
  using core::parseInteger;
  CHECK(parseInteger<int>("7") == 7);
  CHECK(parseInteger<int>("-12") == -12);
  CHECK(parseInteger<int>("2147483647") == 2147483647);
  CHECK(!parseInteger<int>("2147483648"));  // INT_MAX + 1
  CHECK(!parseInteger<int>("99999999999"));
  CHECK(parseInteger<long long>("99999999999") == 99999999999LL);
  CHECK(!parseInteger<int>(""));
  CHECK(!parseInteger<int>("12a"));
  CHECK(!parseInteger<int>(" 12"));
  CHECK(!parseInteger<int>("+1"));
}

TEST_CASE("a process labelled NPU 99999999999 loads, as a plain NPU device, with a note") {
  TempDir dir("npu-label");
  dir.write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", traceWithLabel("NPU 99999999999"));
  const auto r = core::loadProfile((dir.root / "x_ascend_pt").string());
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  const auto& trace = r.profile->ranks[0].trace;
  REQUIRE(trace);
  CHECK(trace->sliceCount() == 1);
  // No rank, no device_N folder: the plain-"NPU" device is unknown (-1), as for a label "NPU".
  CHECK(r.profile->ranks[0].device() == -1);
  CHECK(hasMessageWith(trace->notes, "\"NPU 99999999999\": device number out of range"));
  // The same with a rank folder name that gives the plain-"NPU" device: rank 3 from profiler_info_3.json.
  dir.write("y_ascend_pt/profiler_info_3.json", R"({"config":{}})");
  dir.write("y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", traceWithLabel("NPU 99999999999"));
  const auto r3 = core::loadProfile((dir.root / "y_ascend_pt").string());
  REQUIRE(r3.ok());
  CHECK(r3.profile->ranks[0].rank() == 3);
  CHECK(r3.profile->ranks[0].device() == 3);
  CHECK(hasMessageWith(r3.profile->ranks[0].trace->notes, "taken as device 3"));
}

TEST_CASE("profiler_info_99999999999.json gives an unknown rank with a message, or rank_id") {
  TempDir dir("rank-name");
  dir.write("x_ascend_pt/profiler_info_99999999999.json", R"({"config":{}})");
  dir.write("x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", traceWithLabel("NPU 1"));
  const auto r = core::loadProfile((dir.root / "x_ascend_pt").string());
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  CHECK(r.profile->ranks[0].rank() == -1);
  CHECK(r.profile->ranks[0].device() == 1);  // from the label "NPU 1"
  CHECK(hasMessageWith(r.profile->messages, "profiler_info_99999999999.json: rank out of range"));
  // A rank_id inside the file is used instead of the name's number.
  dir.write("y_ascend_pt/profiler_info_99999999999.json", R"({"rank_id":5,"config":{}})");
  dir.write("y_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", traceWithLabel("NPU 1"));
  const auto r5 = core::loadProfile((dir.root / "y_ascend_pt").string());
  REQUIRE(r5.ok());
  CHECK(r5.profile->ranks[0].rank() == 5);
  // Both folders side by side: two ranks, the one without a usable rank last.
  const auto both = core::loadProfile(dir.root.string());
  REQUIRE(both.ok());
  REQUIRE(both.profile->ranks.size() == 2);
  CHECK(both.profile->ranks[0].rank() == 5);
  CHECK(both.profile->ranks[1].rank() == -1);
}
