// SPDX-License-Identifier: MIT
// Lazy args (core/model/slice_args.cpp): read from the file's bytes when asked, repaired like the
// events the reader repairs.
#include <catch2/catch.hpp>

#include "core/model/slice_args.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::findSlice;
using npuscope::test::load;
using npuscope::test::shared;

#define FFFD "\xEF\xBF\xBD"

TEST_CASE("case 19 a: args with invalid UTF-8 read on demand, bad bytes replaced by U+FFFD") {
  const auto t = load(shared("cases/19-invalid-utf8-control-chars/a_invalid_utf8.json"));
  const auto launch = findSlice(*t, "hipLaunchKernel");
  REQUIRE(launch.valid());
  // case.md: kname = "k\uFFFD\uFFFD_\uFFFD(x" (bytes FF FE and C3 28 in the file).
  CHECK(core::sliceArg(*t, launch, "kname") == std::optional<std::string>("k" FFFD FFFD "_" FFFD "(x"));
  // The args range still points at the file's own bytes (the repaired copy is gone).
  CHECK(t->argsText(launch) == "{\"kname\": \"k\xFF\xFE_\xC3(x\"}");
  CHECK(core::sliceArgsJson(*t, launch) == "{\"kname\": \"k" FFFD FFFD "_" FFFD "(x\"}");
  const auto memcpy = findSlice(*t, "hipMemcpy");
  REQUIRE(memcpy.valid());
  CHECK(core::sliceArgs(*t, memcpy) == std::vector<std::pair<std::string, std::string>>{{"fname", "ok"}});
}

TEST_CASE("args: lone surrogates and raw control bytes are repaired when read") {
  const auto t = npuscope::test::loadMemory(
      "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
      "\"args\":{\"s\":\"x\\udc00y\",\"c\":\"p\x01q\",\"pair\":\"\\ud83d\\ude80\",\"n\":7}}]");
  const auto a = findSlice(*t, "a");
  REQUIRE(a.valid());
  CHECK(core::sliceArgs(*t, a) == std::vector<std::pair<std::string, std::string>>{
                                      {"s", "x" FFFD "y"}, {"c", "p\\u0001q"}, {"pair", "\xF0\x9F\x9A\x80"}, {"n", "7"}});
}

// Found by fuzz/fuzz_json_trace (issue 15 items 7 and 8): the reader keeps an event whose args
// object has sound brackets and strings but a broken member grammar, and sliceArgsJson handed
// those bytes on as they were ({"a" 1}), which a strict parser (the details panel's) rejects.
TEST_CASE("sliceArgsJson of an args object with a broken member grammar is empty, a sound one is kept") {
  const auto t = npuscope::test::loadMemory(
      R"([{"ph":"X","name":"bad","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a" 1}},)"
      R"({"ph":"X","name":"unquoted","pid":1,"tid":1,"ts":3,"dur":1,"args":{a:1}},)"
      R"({"ph":"X","name":"good","pid":1,"tid":1,"ts":5,"dur":1,"args":{"a":1}}])");
  const auto bad = findSlice(*t, "bad");
  const auto unquoted = findSlice(*t, "unquoted");
  const auto good = findSlice(*t, "good");
  REQUIRE(bad.valid());
  REQUIRE(unquoted.valid());
  REQUIRE(good.valid());
  CHECK(t->argsText(bad) == R"({"a" 1})");  // the file's bytes are still there
  CHECK(core::sliceArgsJson(*t, bad).empty());
  CHECK(core::sliceArgsJson(*t, unquoted).empty());
  CHECK(core::sliceArgsJson(*t, good) == R"({"a":1})");
}
