// SPDX-License-Identifier: MIT
// The reader scans events with its own fast scanner (LoadOptions::fastScanner) and passes the
// events it declines to simdjson. These tests check that the result is exactly that of simdjson
// for every event (fastScanner = false), on input with bracket and quote patterns inside strings and
// args, malformed and odd elements, and that both paths really ran.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stop_token>
#include <thread>

#include "core/import/json/json_scan.h"
#include "core/base/mapped_file.h"
#include "core/import/slice_builder.h"
#include "core/import/json/json_trace_reader.h"
#include "core/base/string_pool.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;

namespace {

/// Events whose text contains the batch-cut pattern `}, {"` inside args arrays and at the end of
/// strings, plus every kind of element the per-event path reports on.
std::string trickyTrace() {
  std::string j = "[";
  j += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},)";
  j += R"({"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"worker"}},)";
  for (int i = 0; i < 400; ++i) {
    const std::string ts = std::to_string(1000000 + i * 10) + ".125";
    const std::string tid = std::to_string(i % 3);
    // A nested array of objects: `}, {"` outside strings, at depth 3.
    j += R"({"ph":"X","name":"op)" + std::to_string(i % 7) + R"(","pid":1,"tid":)" + tid + R"(,"ts":")" + ts +
         R"(","dur":8.5,"args":{"list":[{"a":1}, {"b":2}, {"c":"x"}]}},)";
    // A string that ends with `}, {` followed by its closing quote: `}, {"` again.
    j += R"({"name":"str}, {","ph":"X","pid":1,"tid":)" + tid + R"(,"ts":")" + ts + R"(","dur":1,"args":{"s":"a}, {"}},)";
    if (i % 50 == 7) j += ",";                   // empty element
    if (i % 50 == 9) j += "42,";                 // not an object
    if (i % 50 == 11) j += R"({"ph":"X","name":"bad" "pid":1,"tid":1,"ts":"5","dur":1},)";  // malformed
    if (i % 50 == 13) j += R"({"ph":"X","name":"nots","pid":1,"tid":1,"dur":1},)";  // no ts
    if (i % 5 == 0)
      j += R"({"ph":"s","cat":"c","name":"n","id":)" + std::to_string(i) + R"(,"pid":1,"tid":)" + tid +
           R"(,"ts":")" + ts + R"("},{"ph":"f","bp":"e","cat":"c","name":"n","id":)" + std::to_string(i) +
           R"(,"pid":1,"tid":)" + std::to_string((i + 1) % 3) + R"(,"ts":")" + std::to_string(1000000 + i * 10 + 10) +
           R"(.125"},)";
    if (i % 9 == 0)
      j += R"({"ph":"C","name":"mem","pid":1,"tid":0,"ts":")" + ts + R"(","args":{"KB":)" + std::to_string(i) + "}},";
    if (i % 11 == 0)
      j += R"({"ph":"B","name":"be","pid":"p","tid":"t","ts":")" + ts + R"("},{"ph":"E","pid":"p","tid":"t","ts":")" +
           std::to_string(1000000 + i * 10 + 3) + R"(.000"},)";
    if (i % 13 == 0) j += R"({"ph":"X","name":"esc\"aped\\}, {\"","pid":null,"tid":2,"ts":")" + ts + R"(","dur":2},)";
  }
  j += R"({"ph":"X","name":"last","pid":1,"tid":0,"ts":"2000000.000","dur":1},])";
  return j;
}

std::shared_ptr<core::Trace> loadWith(const std::string& json, bool fastScanner, unsigned threads = 1) {
  core::LoadOptions o;
  o.threads = threads;
  o.fastScanner = fastScanner;
  auto r = core::loadTraceFromMemory(json, "tricky", o);
  REQUIRE(r.ok());
  return r.trace;
}

void requireSame(const core::Trace& a, const core::Trace& b) {
  CHECK(a.eventCount == b.eventCount);
  CHECK(a.stats.counts == b.stats.counts);
  REQUIRE(a.stats.examples.size() == b.stats.examples.size());
  for (std::size_t i = 0; i < a.stats.examples.size(); ++i) {
    CHECK(a.stats.examples[i].first == b.stats.examples[i].first);
    CHECK(a.stats.examples[i].second == b.stats.examples[i].second);
  }
  CHECK(a.strings.size() == b.strings.size());
  for (std::size_t i = 0; i < a.strings.size(); ++i)
    if (a.strings.view(static_cast<core::NameId>(i)) != b.strings.view(static_cast<core::NameId>(i))) FAIL("string differs");
  REQUIRE(a.processes.size() == b.processes.size());
  for (std::size_t i = 0; i < a.processes.size(); ++i) CHECK(a.processes[i].name == b.processes[i].name);
  REQUIRE(a.lanes.size() == b.lanes.size());
  for (std::size_t l = 0; l < a.lanes.size(); ++l) {
    const auto& x = a.lanes[l];
    const auto& y = b.lanes[l];
    CHECK(x.name == y.name);
    CHECK(x.start == y.start);
    CHECK(x.end == y.end);
    CHECK(x.names == y.names);
    CHECK(x.categories == y.categories);
    CHECK(x.argsOffset == y.argsOffset);
    CHECK(x.argsLength == y.argsLength);
    CHECK(x.flags == y.flags);
    CHECK(x.rowBegin == y.rowBegin);
  }
  REQUIRE(a.flows.size() == b.flows.size());
  for (std::size_t i = 0; i < a.flows.size(); ++i) {
    CHECK(a.flows[i].from == b.flows[i].from);
    CHECK(a.flows[i].to == b.flows[i].to);
  }
  REQUIRE(a.counters.size() == b.counters.size());
  for (std::size_t i = 0; i < a.counters.size(); ++i) {
    CHECK(a.counters[i].ts == b.counters[i].ts);
    CHECK(a.counters[i].value == b.counters[i].value);
  }
}

}  // namespace

TEST_CASE("fast scanner: gives the simdjson-only result, declined events included") {
  const std::string json = trickyTrace();
  const auto reference = loadWith(json, false);
  // Sanity of the reference itself, so that "same as reference" is not vacuous.
  CHECK(reference->stats.count(core::ImportWarning::EmptyElement) == 8);
  CHECK(reference->stats.count(core::ImportWarning::NotAnObject) == 8);
  CHECK(reference->stats.count(core::ImportWarning::ParseError) == 8);
  CHECK(reference->stats.count(core::ImportWarning::MissingTimestamp) == 8);
  CHECK(reference->sliceCount() == 400 * 2 + 37 + 31 + 1);
  CHECK(reference->flows.size() == 80);
  CHECK(reference->argsText(npuscope::test::findSlice(*reference, "op3")) == R"({"list":[{"a":1}, {"b":2}, {"c":"x"}]})");
  CHECK(reference->argsText(npuscope::test::findSlice(*reference, "str}, {")) == R"({"s":"a}, {"})");
  requireSame(*reference, *loadWith(json, true));
}

TEST_CASE("fast scanner: it is used, and the events it declines go through simdjson") {
  const std::string json = trickyTrace();
  core::LoadOptions o;
  std::uint64_t fastEvents = 0, declined = 0;
  o.fastScanner = true;
  const auto read = core::detail::readTraceEvents(json, 1, o);
  REQUIRE(read.error.empty());
  for (const auto& p : read.parts) {
    fastEvents += p.fastEvents;
    declined += p.declinedEvents;
  }
  // The bad elements above are declined by the scanner: both paths ran.
  CHECK(fastEvents > 100);
  CHECK(declined > 0);
  o.fastScanner = false;
  const auto perEvent = core::detail::readTraceEvents(json, 1, o);
  REQUIRE(perEvent.parts.size() == 1);
  CHECK(perEvent.parts[0].fastEvents == 0);
  CHECK(perEvent.parts[0].declinedEvents == 0);
  // A clean run of events parses without a single fallback.
  std::string clean = "[";
  for (int i = 0; i < 2000; ++i)
    clean += R"({"ph":"X","name":"k","pid":1,"tid":1,"ts":")" + std::to_string(1000 + i * 10) + R"(.000","dur":5,"args":{"l":[{"a":1}]}},)";
  clean.back() = ']';
  o.fastScanner = true;
  const auto cleanRead = core::detail::readTraceEvents(clean, 1, o);
  REQUIRE(cleanRead.parts.size() == 1);
  CHECK(cleanRead.parts[0].fastEvents > 10);
  CHECK(cleanRead.parts[0].declinedEvents == 0);
  CHECK(cleanRead.parts[0].events == 2000);
}

TEST_CASE("fast scanner with several parallel parts matches simdjson-only in a single part") {
  std::string json = trickyTrace();
  // Repeat the body to pass the 1 MB-per-part minimum so that 2 and 8 parts really split.
  std::string body = json.substr(1, json.size() - 2);
  std::string big = "[";
  while (big.size() < (3u << 20)) big += body + ",";
  big.back() = ']';
  const auto reference = loadWith(big, false, 1);
  for (unsigned threads : {2u, 8u})
    for (bool fastScanner : {false, true}) {
      INFO("threads " << threads << " fastScanner " << fastScanner);
      requireSame(*reference, *loadWith(big, fastScanner, threads));
    }
}

TEST_CASE("parseMicrosToNs: fast path and general path agree on the edges") {
  using core::detail::parseMicrosToNs;
  CHECK(parseMicrosToNs("\"1704161511420306.491\"") == 1704161511420306491);
  CHECK(parseMicrosToNs("23.47") == 23470);
  CHECK(parseMicrosToNs("-3") == -3000);
  CHECK(parseMicrosToNs("5.") == 5000);
  CHECK(parseMicrosToNs(".5") == 500);
  CHECK(parseMicrosToNs("0005.000") == 5000);
  CHECK(parseMicrosToNs(" 7 ") == 7000);
  CHECK(parseMicrosToNs("12.77012757357446") == 12770);
  CHECK(parseMicrosToNs("0.0005") == 1);
  CHECK(parseMicrosToNs("1.5e3") == 1500000);
  CHECK(parseMicrosToNs("9223372036854775.807") == INT64_MAX);
  CHECK(!parseMicrosToNs("9223372036854775.808"));
  CHECK(parseMicrosToNs("-9223372036854775.808") == INT64_MIN);
  CHECK(parseMicrosToNs("99999999999999999") == std::nullopt);
  CHECK(parseMicrosToNs("1.2.3") == std::nullopt);
  CHECK(parseMicrosToNs("abc") == std::nullopt);
  CHECK(parseMicrosToNs("") == std::nullopt);
}

TEST_CASE("fast scanner: escapes, quotes and brackets inside args strings at every block offset") {
  // The args skipper works on 64-byte blocks (escape carry, in-string carry across blocks). Shift
  // a string holding backslash runs, escaped quotes and brackets over every offset of a block, and
  // compare with simdjson's reading of every event (fastScanner = false).
  std::string json = "[";
  int events = 0;
  for (int pad = 0; pad < 130; ++pad) {
    for (int run = 1; run <= 4; ++run) {
      const std::string backslashes(static_cast<std::size_t>(2 * run), '\\');  // even: literal backslashes
      json += R"({"ph":"X","name":"e)" + std::to_string(pad) + R"(","pid":1,"tid":1,"ts":")" + std::to_string(1000 + events) +
              R"(","dur":0.5,"args":{")" + std::string(static_cast<std::size_t>(pad), 'k') + R"(":")" + backslashes +
              R"(\"}{[x\\\"]","arr":[1,{"a":"]}"},[]],"o":{"q":"\\"}}},)";
      ++events;
    }
  }
  json.back() = ']';
  const auto reference = loadWith(json, false);
  REQUIRE(reference->eventCount == static_cast<std::uint64_t>(events));
  REQUIRE(reference->sliceCount() == static_cast<std::size_t>(events));
  const auto fast = loadWith(json, true);
  requireSame(*reference, *fast);
  core::LoadOptions o;
  o.fastScanner = true;
  const auto read = core::detail::readTraceEvents(json, 1, o);
  REQUIRE(read.parts.size() == 1);
  CHECK(read.parts[0].fastEvents == static_cast<std::uint64_t>(events));  // all on the fast path
  CHECK(read.parts[0].declinedEvents == 0);
  // Hand check of one args text: pad 0, run 1.
  CHECK(reference->argsText(npuscope::test::findSlice(*reference, "e0")) ==
        R"({"":"\\\"}{[x\\\"]","arr":[1,{"a":"]}"},[]],"o":{"q":"\\"}})");
}

TEST_CASE("fast scanner: declined events go to simdjson with the same result") {
  // id2, escaped names, float pid, raw control byte in a string, mismatched brackets, ts with 4
  // decimals and exponent: each must give the general path's answer.
  const std::string json = std::string("[") +
      R"({"ph":"b","name":"a","cat":"c","id2":{"local":"0x1"},"pid":1,"tid":1,"ts":"10"},)" +
      R"({"ph":"X","name":"n\"q","pid":1,"tid":1,"ts":"11","dur":1},)" +
      R"({"ph":"X","name":"fp","pid":1.5,"tid":1,"ts":"12","dur":1},)" +
      "{\"ph\":\"X\",\"name\":\"ctl\x01\",\"pid\":1,\"tid\":1,\"ts\":\"13\",\"dur\":1}," +
      R"({"ph":"X","name":"unbal","pid":1,"tid":1,"ts":"14","dur":1,"args":{"a":[1}]}},)" +
      R"({"ph":"X","name":"t4","pid":1,"tid":1,"ts":"15.0001","dur":1},)" +
      R"({"ph":"X","name":"te","pid":1,"tid":1,"ts":1.6e1,"dur":"1"}])";
  const auto reference = loadWith(json, false);
  const auto fast = loadWith(json, true);
  requireSame(*reference, *fast);
  // By hand: the raw control byte is rejected by simdjson, and the event is then repaired (case
  // 19: the byte shown as the text \u0001, one ControlCharacter warning); ctl, n"q, fp, unbal,
  // t4 and te load as slices, the id2 event as an async slice ("a", never ended). "15.0001" us = 15000.1 ns rounds to 15000; 1.6e1 us = 16000 ns.
  // The general path skips args without typing brackets: `{"a":[1}]}` ends the event one brace
  // early (args text `{"a":[1}]`), the event loads, and the left-over `}` is reported.
  CHECK(reference->stats.count(core::ImportWarning::ParseError) == 0);
  CHECK(reference->stats.count(core::ImportWarning::ControlCharacter) == 1);
  CHECK(reference->stats.count(core::ImportWarning::NotAnObject) == 1);
  CHECK(reference->sliceCount() == 7);  // six X slices and the async slice "a" on its track
  CHECK(npuscope::test::findSlice(*reference, "n\"q").lane != core::kInvalidIndex);
  CHECK(npuscope::test::findSlice(*reference, "ctl\\u0001").lane != core::kInvalidIndex);
  const auto t4 = npuscope::test::findSlice(*reference, "t4");
  CHECK(reference->lanes[t4.lane].start[t4.index] == 15000);
  const auto te = npuscope::test::findSlice(*reference, "te");
  CHECK(reference->lanes[te.lane].start[te.index] == 16000);
}

namespace {

/// Reads `json` through a window of `windowBytes` (ReadSource with fd -1: memcpy from the bytes)
/// in `threads` parts, and builds the trace.
std::shared_ptr<core::Trace> loadWindowed(const std::string& json, std::size_t windowBytes, unsigned threads,
                                          core::detail::ReadResult* rawOut = nullptr) {
  core::LoadOptions o;
  core::detail::ReadSource source;
  source.windowBytes = windowBytes;
  core::detail::ReadResult read = core::detail::readTraceEvents(json, threads, o, source);
  REQUIRE(read.error.empty());
  REQUIRE(!read.cancelled);
  if (rawOut) {
    rawOut->notes = read.notes;
    rawOut->top = read.top;
    for (const auto& p : read.parts) {
      core::detail::WorkerOut w;
      w.stop = p.stop;
      w.stopOffset = p.stopOffset;
      w.events = p.events;
      w.fastEvents = p.fastEvents;
      w.declinedEvents = p.declinedEvents;
      rawOut->parts.push_back(std::move(w));
    }
  }
  auto trace = std::make_shared<core::Trace>();
  trace->file = core::MappedFile::fromMemory(json);
  REQUIRE(core::detail::buildTrace(std::move(read), *trace, std::stop_token{}));
  trace->indexFlows();
  return trace;
}

std::string bigTrickyTrace(std::size_t bytes = 3u << 20) {
  const std::string json = trickyTrace();
  std::string body = json.substr(1, json.size() - 2);
  std::string big = "[";
  while (big.size() < bytes) big += body + ",";
  big.back() = ']';
  return big;
}

}  // namespace

TEST_CASE("windowed read: every window size gives the in-place result") {
  // The window is refilled while events straddle its end: elements cut at every offset, elements
  // longer than the window (it grows), whitespace runs, scalars that may go on after the window.
  const std::string json = trickyTrace();
  const auto reference = loadWith(json, true);
  core::detail::ReadResult inPlace = core::detail::readTraceEvents(json, 1, core::LoadOptions{});
  for (std::size_t window : {16u, 17u, 64u, 100u, 333u, 1000u, 4096u, 65536u, 1u << 20}) {
    INFO("window " << window);
    core::detail::ReadResult raw;
    const auto windowed = loadWindowed(json, window, 1, &raw);
    requireSame(*reference, *windowed);
    REQUIRE(raw.parts.size() == 1);
    CHECK(raw.parts[0].stop == inPlace.parts[0].stop);
    CHECK(raw.parts[0].stopOffset == inPlace.parts[0].stopOffset);
    CHECK(raw.parts[0].events == inPlace.parts[0].events);
    CHECK(raw.parts[0].fastEvents == inPlace.parts[0].fastEvents);
    CHECK(raw.parts[0].declinedEvents == inPlace.parts[0].declinedEvents);
    // Args are file offsets whatever the window: checked against the text by hand.
    CHECK(windowed->argsText(npuscope::test::findSlice(*windowed, "str}, {")) == R"({"s":"a}, {"})");
  }
  // One event longer than the window: the window grows to hold it.
  std::string longArgs(5000, 'a');
  const std::string one = R"([{"ph":"X","name":"long","pid":1,"tid":1,"ts":"1","dur":1,"args":{"k":")" + longArgs + R"("}}])";
  const auto grown = loadWindowed(one, 64, 1);
  REQUIRE(grown->sliceCount() == 1);
  CHECK(grown->argsText(npuscope::test::findSlice(*grown, "long")) == R"({"k":")" + longArgs + R"("})");
}

TEST_CASE("UTF-8 checked in bulk: every event keeps its verdict, whatever the window or the cut") {
  // Names and args of 2- to 4-byte characters (chunks and windows end inside them), and every
  // 97th event with a bad byte in its name (0xFF) or args (0xC3 before a quote: a truncated
  // sequence): those and only those are repaired, one InvalidUtf8 warning each (counted here as
  // they are written), in place, through windows of many sizes, in 1 and 3 parts and on the
  // simdjson-only path.
  std::string json = "[";
  std::size_t bad = 0;
  for (int i = 0; i < 20000; ++i) {
    json += i ? "," : "";
    json += R"({"ph":"X","pid":1,"tid":)" + std::to_string(i % 3) + R"(,"ts":)" + std::to_string(1000 + i * 10) + R"(,"dur":5,)";
    if (i % 97 == 5) {
      ++bad;
      json += (bad % 2) ? R"("name":"算)" "\xFF" R"(子"})" : R"("name":"é","args":{"k":"v)" "\xC3" R"("}})";
    } else {
      json += R"("name":"算子)" + std::to_string(i % 13) + R"(é","args":{"k":"😀)" + std::to_string(i) + R"("}})";
    }
  }
  json += "]";
  REQUIRE(bad == 207);  // i = 5, 102, ..., 19987: (19987 - 5) / 97 + 1
  core::LoadOptions ref;
  ref.fastScanner = false;
  const auto r = core::loadTraceFromMemory(json, "utf8.json", ref);
  REQUIRE(r.ok());
  const core::Trace& reference = *r.trace;
  CHECK(reference.sliceCount() == 20000);
  CHECK(reference.stats.count(core::ImportWarning::InvalidUtf8) == bad);
  CHECK(npuscope::test::countSlices(reference, "算\xEF\xBF\xBD子") == (bad + 1) / 2);
  for (unsigned parts : {1u, 3u}) {
    INFO("parts " << parts);
    requireSame(reference, *loadWith(json, true, parts));
    for (std::size_t window : {64u, 1001u, 4099u, 65537u}) {
      INFO("window " << window);
      requireSame(reference, *loadWindowed(json, window, parts));
    }
  }
}

TEST_CASE("windowed read: file ends, truncation and object form as in place") {
  // Each ends differently: closed array, unclosed array, event cut by the end of the file, a
  // scalar last element, whitespace tail, object form with keys after the array.
  const std::vector<std::string> inputs = {
      R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1}])",
      R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1},   )",
      R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":"3","du)",
      R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1}, 12345678)",
      R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1}, 12345678, tru)",
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1}],"traceName":"n","distributedInfo":{"rank":3}})",
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1}],"traceName":"n")",
  };
  for (const std::string& json : inputs) {
    const auto reference = loadWith(json, true);
    core::detail::ReadResult inPlace = core::detail::readTraceEvents(json, 1, core::LoadOptions{});
    for (std::size_t window : {16u, 23u, 64u, 4096u}) {
      INFO(json << " window " << window);
      core::detail::ReadResult raw;
      const auto windowed = loadWindowed(json, window, 1, &raw);
      requireSame(*reference, *windowed);
      CHECK(windowed->notes == reference->notes);
      CHECK(windowed->traceName == reference->traceName);
      CHECK(windowed->rankFromFile == reference->rankFromFile);
      REQUIRE(raw.parts.size() == inPlace.parts.size());
      CHECK(raw.parts.back().stop == inPlace.parts.back().stop);
      CHECK(raw.parts.back().stopOffset == inPlace.parts.back().stopOffset);
    }
  }
  // Hand checks that the cases above differ as intended (so that "same" is not vacuous).
  CHECK(loadWith(inputs[2], true)->stats.count(core::ImportWarning::TruncatedEvent) == 1);
  CHECK(loadWith(inputs[4], true)->stats.count(core::ImportWarning::NotAnObject) == 2);
  CHECK(loadWith(inputs[5], true)->rankFromFile == 3);
}

TEST_CASE("windowed read in several parallel parts matches the in-place single part") {
  const std::string big = bigTrickyTrace();
  const auto reference = loadWith(big, true, 1);
  for (unsigned threads : {2u, 8u})
    for (std::size_t window : {333u, 256u << 10}) {
      INFO("threads " << threads << " window " << window);
      requireSame(*reference, *loadWindowed(big, window, threads));
    }
}

TEST_CASE("parallel read: a worker that runs dry reads half of another's range, same trace") {
  // 12 MiB of the tricky events: `}, {"` inside strings makes some cuts land inside an event,
  // which the reader then reparses from where the part before ended.
  const std::string big = bigTrickyTrace(12u << 20);
  const auto reference = loadWith(big, true, 1);
  // Reading the first half waits at every progress step (about 1 MiB), so the worker of the
  // second half runs dry first and takes half of what is left of the first, and so on. The wait
  // grows until that happened (a loaded test machine may delay the second worker too).
  std::size_t parts = 0;
  for (int waitMs = 20; waitMs <= 640 && parts <= 2; waitMs *= 2) {
    core::LoadOptions o;
    o.minPartBytes = 16u << 10;  // cut while 2 * 8 * 16 KiB are left
    o.readHook = [&](std::size_t offset) {
      if (offset < big.size() / 2) std::this_thread::sleep_for(std::chrono::milliseconds(waitMs));
    };
    for (std::size_t window : {0u, 4096u}) {
      core::detail::ReadSource source;
      source.windowBytes = window;
      core::detail::ReadResult read = core::detail::readTraceEvents(big, 2, o, source);
      REQUIRE(read.error.empty());
      CHECK(read.workers == 2u);
      parts = std::max(parts, read.parts.size());
      INFO("wait " << waitMs << " ms, window " << window << ", parts " << read.parts.size());
      // Each part read its own bytes: a worker that read past its new limit would leave the part
      // cut from it to an empty reparse.
      for (const auto& part : read.parts) CHECK(part.events > 0);
      auto trace = std::make_shared<core::Trace>();
      trace->file = core::MappedFile::fromMemory(big);
      REQUIRE(core::detail::buildTrace(std::move(read), *trace, std::stop_token{}));
      trace->indexFlows();
      requireSame(*reference, *trace);
    }
  }
  CHECK(parts > 2);
}

TEST_CASE("windowed read through a file descriptor: loadTrace reads with pread, same trace as in memory") {
  const std::string big = bigTrickyTrace();
  char dirTemplate[] = "/tmp/npuscope_windowed_read_XXXXXX";
  REQUIRE(::mkdtemp(dirTemplate) != nullptr);
  const std::string dir = dirTemplate;
  // With a UTF-8 BOM, the bytes start at file position 3 (MappedFile::fileOffset).
  for (const bool bom : {false, true}) {
    INFO("bom " << bom);
    const std::string path = dir + (bom ? "/bom.json" : "/plain.json");
    {
      std::ofstream out(path, std::ios::binary);
      if (bom) out << "\xEF\xBB\xBF";
      out << big;
    }
    std::string error;
    const auto file = core::MappedFile::open(path, error);
    REQUIRE(file);
    CHECK(file->fd() >= 0);
    CHECK(file->fileOffset() == (bom ? 3u : 0u));
    const auto source = core::detail::readSourceFor(*file);
    CHECK(source.fd == file->fd());
    CHECK(source.windowBytes == core::detail::kDefaultWindowBytes);
    for (unsigned threads : {1u, 2u}) {
      core::LoadOptions o;
      o.threads = threads;
      const auto r = core::loadTrace(path, o);
      REQUIRE(r.ok());
      requireSame(*loadWith(big, true, 1), *r.trace);
      CHECK(r.trace->argsText(npuscope::test::findSlice(*r.trace, "op3")) == R"({"list":[{"a":1}, {"b":2}, {"c":"x"}]})");
    }
  }
  std::filesystem::remove_all(dir);
  // Bytes not backed by the file (in memory) are read in place.
  CHECK(core::detail::readSourceFor(*core::MappedFile::fromMemory(big)).windowBytes == 0);
}

TEST_CASE("windowed read: a stop request cancels the read") {
  const std::string big = bigTrickyTrace();
  std::stop_source stop;
  stop.request_stop();
  core::LoadOptions o;
  o.stop = stop.get_token();
  for (std::size_t window : {0u, 4096u}) {
    core::detail::ReadSource source;
    source.windowBytes = window;
    const auto read = core::detail::readTraceEvents(big, 2, o, source);
    CHECK(read.cancelled);
    CHECK(read.parts.empty());
  }
}

TEST_CASE("fast scanner: interned names through its cache keep the pool's ids") {
  // Names of equal length that differ in one byte (at the front, the middle and the end, for
  // lengths below 8, 8-16 and above 16), interleaved so that cache slots are reused and
  // overwritten; compared with simdjson's path, which interns without the cache.
  std::vector<std::string> names;
  for (const std::size_t len : {1u, 5u, 8u, 12u, 16u, 17u, 40u})
    for (const std::size_t at : {std::size_t{0}, len / 2, len - 1})
      for (char c : {'a', 'b', 'c'}) {
        std::string n(len, 'x');
        n[at] = c;
        names.push_back(n);
      }
  std::string json = "[";
  for (int i = 0; i < 3000; ++i) {
    const std::string& n = names[static_cast<std::size_t>(i * 7919) % names.size()];
    const std::string& cat = names[static_cast<std::size_t>(i * 104729 + 3) % names.size()];
    json += R"({"ph":"X","name":")" + n + R"(","cat":")" + cat + R"(","pid":1,"tid":1,"ts":")" + std::to_string(10 * i) +
            R"(","dur":1},)";
  }
  json.back() = ']';
  const auto reference = loadWith(json, false);
  const auto fast = loadWith(json, true);
  requireSame(*reference, *fast);
  // By hand: every slice carries the name it was written with.
  REQUIRE(fast->lanes.size() == 1);
  const auto& lane = fast->lanes[0];
  REQUIRE(lane.sliceCount() == 3000);
  for (std::size_t k = 0; k < 3000; ++k) {
    const std::size_t i = static_cast<std::size_t>((lane.start[k] / 1000) / 10);
    if (fast->strings.view(lane.names[k]) != names[i * 7919 % names.size()]) FAIL("name of slice " << i);
    if (fast->strings.view(lane.categories[k]) != names[(i * 104729 + 3) % names.size()]) FAIL("cat of slice " << i);
  }
}
