// SPDX-License-Identifier: MIT
// Issue 15, item 7: the fast scanner and the simdjson path are two readers of the same events;
// they must give the same trace (slices, args ranges, flows, counters, warning counts and
// examples) on every input, malformed ones included. A differential test: every JSON file of
// ../shared/cases, and small traces whose args object is mutated in the ways a truncated or
// hand-edited file breaks it, each followed by more than 64 bytes (the fast scanner's SIMD
// skip works on 64-byte blocks) and as the file's last event. The reference is the
// simdjson-only path (LoadOptions::fastScanner = false); the 1- vs 2-part split is checked too.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/import/json/json_trace_reader.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;

namespace {

namespace fs = std::filesystem;

std::shared_ptr<const core::Trace> loadWith(const std::string& json, bool fast, unsigned threads) {
  core::LoadOptions o;
  o.threads = threads;
  o.fastScanner = fast;
  o.minPartBytes = 64;  // let a small input really split
  auto r = core::loadTraceFromMemory(json, "agreement", o);
  if (!r.ok()) return nullptr;
  return r.trace;
}

/// Everything a reader decides, as text: equal texts = the same trace.
std::string fingerprint(const core::Trace* t) {
  if (!t) return "(no trace)";
  std::ostringstream s;
  s << "events " << t->eventCount << "\nwarnings";
  for (std::size_t k = 0; k < core::ImportStats::kKinds; ++k)
    if (t->stats.counts[k]) s << ' ' << core::warningKey(static_cast<core::ImportWarning>(k)) << '=' << t->stats.counts[k];
  s << '\n';
  for (const auto& e : t->stats.examples) s << "  e.g. " << core::warningKey(e.first) << ": " << e.second << '\n';
  for (const auto& l : t->lanes) {
    s << "lane " << t->processes[l.process].name << " / " << l.name << '\n';
    for (std::size_t i = 0; i < l.sliceCount(); ++i)
      s << "  " << t->strings.view(l.names[i]) << ' ' << l.start[i] << ' ' << l.end[i] << " args@" << l.argsOffset[i]
        << '+' << l.argsLength[i] << " flags " << int(l.flags[i]) << '\n';
  }
  s << "flows " << t->flows.size() << " counters " << t->counters.size() << '\n';
  for (const auto& n : t->notes) s << "note " << n << '\n';
  return s.str();
}

/// Args objects broken in the ways JSON breaks: each replaces ARGS in the event below.
const char* const kBadArgs[] = {
    R"({"a" 1})",          R"({"a":1 "b":2})",   R"({"a":1,})",        R"({,"a":1})",        R"({"a":})",
    R"({"a":tru})",        R"({"a":nul})",       R"({"a":1e+-})",      R"({"a":01})",        R"({"a":-})",
    R"({"a":.5})",         R"({"a":+1})",        R"({"a":1.})",        R"({"a":NaN})",       R"({a:1})",
    R"({"a":[1,2}})",      R"({"a":{"b":1]})",   R"({"a":[1,,2]})",    R"({"a":"x\q"})",     R"({"a":"\u12"})",
    R"({"a":1}})",         R"({"a":[}]})",       R"({"a":"b":"c"})",   R"({"a":[1 2]})",     R"({"a":true false})",
    "{\"a\":\"\xFF\xFE\"}", "{\"a\":\"x\x01y\"}", R"({"a":"\ud800"})", R"({"a":{"b":{"c":[[[[]]]]}}})", R"({})",
};

std::string eventWith(const std::string& args, int i) {
  return R"({"ph":"X","name":"e)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(1000 + 10 * i) +
         R"(,"dur":5,"args":)" + args + "}";
}

/// A good event of about 100 bytes, so that more than 64 bytes follow the mutated one.
std::string filler(int i) {
  return R"({"ph":"X","name":"fill","pid":1,"tid":2,"ts":)" + std::to_string(1000 + 10 * i) +
         R"(,"dur":1,"args":{"pad":"0123456789012345678901234567890123456789"}})";
}

void checkAgreement(const std::string& json, const std::string& what) {
  const auto reference = loadWith(json, false, 1);
  const std::string ref = fingerprint(reference.get());
  INFO(what << "\ninput: " << json.substr(0, 400));
  CHECK(fingerprint(loadWith(json, true, 1).get()) == ref);
  CHECK(fingerprint(loadWith(json, true, 2).get()) == ref);
  CHECK(fingerprint(loadWith(json, false, 2).get()) == ref);
}

}  // namespace

TEST_CASE("fast scanner and simdjson path agree on every case file") {
  std::size_t files = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(test::shared("cases"), ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !(name.ends_with(".json"))) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    checkAgreement(ss.str(), e.path().string());
    ++files;
  }
  CHECK(files >= 20);  // the cases hold more than 20 JSON files; 0 would mean the folder moved
}

TEST_CASE("fast scanner and simdjson path agree on every committed differential fuzz seed") {
  // fuzz/seeds/fuzz_json_differential: the generated seeds and the inputs of fixed findings
  // (finding-*), checked here in the Release suite as the fuzz job's replay checks them.
  std::size_t files = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(std::string(NPUSCOPE_SOURCE_DIR) + "/fuzz/seeds/fuzz_json_differential", ec)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    checkAgreement(ss.str(), e.path().string());
    ++files;
  }
  CHECK(files >= 6);  // 5 generated seeds and 1 finding (ls fuzz/seeds/fuzz_json_differential)
}

TEST_CASE("fast scanner and simdjson path agree on events with a malformed args object") {
  int n = 0;
  for (const char* bad : kBadArgs) {
    // The mutated event in the middle (more than 64 bytes follow) and last (fewer follow).
    // (Built with += : GCC 12 gives a false -Wrestrict on "[" + std::string&&.)
    std::string last = "[";
    last += filler(0);
    last += ",";
    last += eventWith(bad, 1);
    std::string middle = last;
    middle += ",";
    middle += filler(2);
    middle += ",";
    middle += filler(3);
    middle += "]";
    last += "]";
    checkAgreement(middle, std::string("middle: ") + bad);
    checkAgreement(last, std::string("last: ") + bad);
    ++n;
  }
  CHECK(n == 30);
}

TEST_CASE("counter events with a malformed args object read as no args on both paths") {
  // Found by fuzz_json_differential (2026-12-01; fixed in 1c047a9): {"":"":} made the fast scanner count a
  // BadCounterValue for the member before the break, which the simdjson path (args blanked)
  // never sees. Hand counts: a broken object = no args = no counter and no warning; the sound
  // object {"MHz":1800,"bad":"x"} = 1 counter (1800) and 1 BadCounterValue ("x" is no number).
  const auto counterEvent = [](const std::string& args) {
    return R"([{"ph":"C","name":"freq","pid":1,"tid":1,"ts":5,"args":)" + args + "}]";
  };
  const auto badCounterValues = [](const core::Trace& t) { return t.stats.count(core::ImportWarning::BadCounterValue); };
  for (const char* broken : {R"({"":"":})", R"({"MHz":1800,"bad":"x":})", R"({"bad":"x","MHz":1800:})"}) {
    const std::string json = counterEvent(broken);
    checkAgreement(json, std::string("counter: ") + broken);
    for (const bool fast : {false, true}) {
      INFO(broken << (fast ? " fast scanner" : " simdjson"));
      const auto t = loadWith(json, fast, 1);
      REQUIRE(t);
      CHECK(t->counters.empty());
      CHECK(badCounterValues(*t) == 0);
    }
  }
  const std::string sound = counterEvent(R"({"MHz":1800,"bad":"x"})");
  checkAgreement(sound, "counter: sound args");
  for (const bool fast : {false, true}) {
    const auto t = loadWith(sound, fast, 1);
    REQUIRE(t);
    REQUIRE(t->counters.size() == 1);
    REQUIRE(t->counters[0].value.size() == 1);
    CHECK(t->counters[0].value[0] == 1800.0);
    CHECK(badCounterValues(*t) == 1);
  }
}

TEST_CASE("an args that is no object before a broken args object: both paths keep the event") {
  // Found by fuzz_json_differential (2026-12-01; fixed in b00504c): {"args":0,"args":{""}} made the simdjson path
  // give up (ParseError) where the fast scanner keeps the event with the last args. Hand count:
  // the X event below is kept on both paths as 1 slice [1, 3) us with no ParseError.
  const std::string slice = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":0,"args":{""}}])";
  checkAgreement(slice, "duplicate args, slice");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(slice, fast, 1);
    REQUIRE(t);
    CHECK(t->stats.count(core::ImportWarning::ParseError) == 0);
    REQUIRE(t->lanes.size() == 1);
    REQUIRE(t->lanes[0].sliceCount() == 1);
    CHECK(t->lanes[0].start[0] == 1000);
    CHECK(t->lanes[0].end[0] == 3000);
  }
  checkAgreement(R"([{"ph":"C","name":"c","pid":1,"ts":1,"args":0,"args":{""}}])", "duplicate args, counter");
  checkAgreement(R"([{"ph":"C","name":"c","pid":1,"ts":1,"args":[1],"args":{"a":1}}])", "array then object");
}

TEST_CASE("a metadata event whose args break after the name: no name on both paths") {
  // Found by fuzz_json_differential (2026-12-01, minimised; fixed in 4698078): the fast path named the process
  // "Pyth{" (the member before the break) where the simdjson path (args blanked) names none.
  // Hand count: the broken object reads as no args, so the lane's process keeps its pid "2001".
  const std::string json = R"([{"ph":"M","name":"process_name","pid":2001,"tid":0,"args":{"name": "Pyth{":  "ed 2"}},)"
                           R"({"ph":"X","name":"k","pid":2001,"tid":0,"ts":1,"dur":1}])";
  checkAgreement(json, "metadata with broken args");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    REQUIRE(t->lanes.size() == 1);
    CHECK(t->processes[t->lanes[0].process].name == "2001");
  }
}

TEST_CASE("a metadata event whose malformed args hold an invalid escape: no repair on either path") {
  // Found by fuzz_json_scanner (issue 26 item 2, minimised): {"\x"} is no object by the JSON
  // grammar (a key without a value) but its brackets and strings are sound, so the event is kept
  // without its args (MalformedArgs). The fast path still repaired the args' strings for the
  // metadata and counted an InvalidEscape that the simdjson path, which blanks the object, never
  // sees. Hand count: one MalformedArgs, no InvalidEscape, the thread keeps its default name "1".
  const std::string json = R"([{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"\x"}},)"
                           R"({"ph":"X","name":"k","pid":1,"tid":1,"ts":1,"dur":1}])";
  checkAgreement(json, "thread_name with malformed args holding an invalid escape");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 1);
    CHECK(t->stats.count(core::ImportWarning::InvalidEscape) == 0);
    REQUIRE(t->lanes.size() == 1);
    CHECK(t->lanes[0].name == "1");  // the tid, as for any thread without a thread_name
  }
}

TEST_CASE("a backslash outside a string in args: both paths end the event at the same byte") {
  // Found by fuzz_json_scanner (issue 26 item 2, minimised to {"args":{\"}}): the fast scanner's
  // check of a malformed args object (skipContainerFast) took the backslash before the quote for an
  // escape although it stands outside any string, and kept the event ending at the }}; skipValue,
  // which ends the event for the simdjson path, takes the quote for the start of a string that
  // never closes here. Hand count on both paths: the file ends inside that string, so the event is
  // a TruncatedEvent and no slice is kept (the fast path kept one before, with MalformedArgs).
  const std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{\"}}])";
  checkAgreement(json, "a backslash outside a string in args");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    CHECK(t->stats.count(core::ImportWarning::TruncatedEvent) == 1);
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 0);
    CHECK(t->sliceCount() == 0);
  }
}

TEST_CASE("an event reads the same whatever bytes follow it") {
  // Found by fuzz_json_simdjson (issue 26 item 2, minimised to {"":}}): simdjson On-Demand reads
  // the byte after a malformed document, and the simdjson path parsed an event in place when
  // enough of the file followed it: {"":} (a member without a value) followed by } read as an
  // event without ts, while the same event near the end of the file, copied into a padded buffer,
  // was malformed. Hand count, wherever the event lies and on both paths: the event is malformed
  // (ParseError) and the } after it is a stray delimiter (NotAnObject); no MissingTimestamp.
  // (Built with append: GCC 12's -Wrestrict misreads a chain of + here at -O3.)
  const std::string event = R"({"":})";
  std::string early = "[", last = "[";
  early.append(event).append("},").append(filler(0)).append(",").append(filler(1)).append("]");
  last.append(filler(0)).append(",").append(filler(1)).append(",").append(event).append("}]");
  for (const std::string& json : {early, last}) {
    checkAgreement(json, "an event followed by a stray }");
    for (const bool fast : {false, true}) {
      INFO((fast ? "fast scanner" : "simdjson") << "\n" << json);
      const auto t = loadWith(json, fast, 1);
      REQUIRE(t);
      CHECK(t->stats.count(core::ImportWarning::ParseError) == 1);
      CHECK(t->stats.count(core::ImportWarning::NotAnObject) == 1);
      CHECK(t->stats.count(core::ImportWarning::MissingTimestamp) == 0);
    }
  }
}

namespace {

/// The slice named `name` (the first one), or an invalid ref.
core::SliceRef sliceNamed(const core::Trace& t, std::string_view name) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.strings.view(t.lanes[l].names[i]) == name) return {l, i};
  return {};
}

std::string sliceEvent(const std::string& name, int ts, const std::string& args) {
  return R"({"ph":"X","name":")" + name + R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":5,"args":)" + args + "}";
}

}  // namespace

TEST_CASE("a malformed args object's range ends at its closing brace on both paths") {
  // Found by fuzz_json_simdjson (issue 26 item 2, minimised to args {\0}): the simdjson path took
  // the args range from On-Demand's raw_json(), which does not check what it skips and stopped
  // before the closing brace of {ab} (the range "{ab", no object; the fast scanner's is "{ab}").
  // Hand count: the slice is kept without its args (MalformedArgs), its args range is the 4 bytes
  // {ab}, on both paths.
  std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{ab}},)";
  json.append(filler(0)).append("]");
  checkAgreement(json, "args {ab}");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    const core::SliceRef a = sliceNamed(*t, "a");
    REQUIRE(a.valid());
    CHECK(t->lanes[a.lane].argsOffset[a.index] == json.find("{ab}"));
    CHECK(t->lanes[a.lane].argsLength[a.index] == 4);
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 1);
  }
}

TEST_CASE("members inside a malformed args object are not read as the event's") {
  // Found by fuzz_json_scanner (issue 26 item 2, minimised to {"args":{0,"ts":}}): On-Demand skips
  // an args object without checking it, and on {0,"ts":} the simdjson path then read "ts": }
  // as the event's own ts (unreadable: the event dropped) where the fast scanner keeps the event
  // with its ts of 1 us. Hand count on both paths: slice "a" kept at 1000 ns without its args
  // (MalformedArgs = 1), no MissingTimestamp.
  std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{0,"ts":}},)";
  json.append(filler(0)).append("]");
  checkAgreement(json, "args {0,\"ts\":}");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    const core::SliceRef a = sliceNamed(*t, "a");
    REQUIRE(a.valid());
    CHECK(t->lanes[a.lane].start[a.index] == 1000);
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 1);
    CHECK(t->stats.count(core::ImportWarning::MissingTimestamp) == 0);
  }
  // The first fix retried such an event repaired before blanked, and the repair reported the
  // invalid escape of {:"\u"}, an object read as no args (found by fuzz_json_scanner again). Hand
  // count on both paths: slice "b" kept, MalformedArgs = 1, no InvalidEscape.
  json = R"([{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":1,"args":{:"\u"}},)";
  json.append(filler(0)).append("]");
  checkAgreement(json, "args {:\"\\u\"}");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    CHECK(sliceNamed(*t, "b").valid());
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 1);
    CHECK(t->stats.count(core::ImportWarning::InvalidEscape) == 0);
  }
  // And the retry blanked every args object, the sound last one too, so that a counter lost its
  // values when a broken args came first (found by fuzz_json_scanner again): only the broken ones
  // are blanked. Hand count on both paths: one sample, c.v = 7 at 1000 ns; the event's args (the
  // last) are sound, so no MalformedArgs.
  json = R"([{"ph":"C","name":"c","pid":1,"ts":1,"args":{""},"args":{"v":7}},)";
  json.append(filler(0)).append("]");
  checkAgreement(json, "a broken args, then a sound one, on a counter");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    REQUIRE(t->counters.size() == 1);
    CHECK(t->counters[0].ts == std::vector<core::TimeNs>{1000});
    CHECK(t->counters[0].value == std::vector<double>{7.0});
    CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 0);
  }
}

TEST_CASE("an id followed by whitespace is the same id on both paths") {
  // Found by fuzz_json_scanner (issue 26 item 2, minimised to {"ph":"e","id":1 ,"ts":9}): the
  // simdjson path took a numeric id as raw_json_token(), which keeps the whitespace after it, so
  // "id":1 , was the id "1 " (another async track than "1") where the fast scanner reads "1".
  // Hand count on both paths: the b and e below pair into one async slice "a" from 1000 to 5000 ns.
  std::string json = R"([{"ph":"b","name":"a","cat":"c","id":1 ,"pid":1,"tid":1,"ts":1},)"
                     R"({"ph":"e","name":"a","cat":"c","id":1,"pid":1,"tid":1,"ts":5},)";
  json.append(filler(0)).append("]");
  checkAgreement(json, "id 1 followed by a space");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    const core::SliceRef a = sliceNamed(*t, "a");
    REQUIRE(a.valid());
    CHECK(t->lanes[a.lane].start[a.index] == 1000);
    CHECK(t->lanes[a.lane].end[a.index] == 5000);
  }
}

TEST_CASE("a control byte after a backslash is repaired on both paths") {
  // Found by fuzz_json_scanner (issue 26 item 2, minimised to {"":"\<TAB>"}): the fast scanner
  // skipped the byte after a backslash unchecked and kept the event as it is, where simdjson
  // refuses a raw control byte in a string, escaped or not, and the simdjson path repairs the
  // string and reports its invalid escape. Hand count on both paths: slice "a" kept, one
  // InvalidEscape (the backslash before the TAB), no ControlCharacter (a TAB is kept, not said).
  std::string json = "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"x\":\"\\\t\"},";
  json.append(filler(0)).append("]");
  checkAgreement(json, "a TAB after a backslash");
  for (const bool fast : {false, true}) {
    INFO((fast ? "fast scanner" : "simdjson"));
    const auto t = loadWith(json, fast, 1);
    REQUIRE(t);
    CHECK(sliceNamed(*t, "a").valid());
    CHECK(t->stats.count(core::ImportWarning::InvalidEscape) == 1);
    CHECK(t->stats.count(core::ImportWarning::ControlCharacter) == 0);
  }
}

TEST_CASE("a malformed args object is counted once (MalformedArgs) on both paths and in parts") {
  // Issue 15 item 7. Hand count of the trace below, event by event:
  //   kept with a malformed args object, counted (7):
  //     broken1 {"a" 1} (no colon), broken2 {"":"":} (a second colon), broken3 {a:1} (a key
  //     without quotes), broken4 {"a":{"b":[1,{"c":}]}} (a nested value cut short), broken5
  //     {"a":1,"b" 2} (broken after a sound member), the counter "cnt" {"MHz":1800 "b":1}
  //     (a missing comma) and the metadata process_name {"name":"P" "x"} (a missing colon);
  //   not counted: "nots" {"a" 1} has no ts (dropped: one MissingTimestamp, no MalformedArgs);
  //     valid1 .. valid5 are sound JSON (nested objects and arrays, escaped quotes, braces and
  //     brackets inside strings, \u escapes, a surrogate pair, 1e400, -0, -0.0e-0, 1E+2, true,
  //     false, null, {} and [], whitespace everywhere) and "esc" {"a":"x\q"} is an invalid
  //     escape (a string the reader repairs when it reads it, not a grammar error);
  //   plus two fillers. So MalformedArgs = 7, MissingTimestamp = 1, ParseError = 0.
  const std::string valid1 =
      R"({"k":{"n":{"m":[1,{"x":null},[true,false]]}},"s":"q\"uo{te}[\\","u":"\u00e9\ud83d\ude00\u0041"})";
  const std::string valid2 = R"({"big":1e400,"z":-0,"nz":-0.0e-0,"e":1E+2,"f":0.5,"i":-12})";
  const std::string valid3 = R"({})";
  const std::string valid4 = " { \"a\" : [ ] , \"b\" : { } , \"c\" :\t\"}\" \r\n} ";
  const std::string valid5 = R"({"deep":[[[[{"a":[{}]}]]]],"str":"\"}\""})";
  std::string json = "[";
  json += filler(0) + ",";
  json += sliceEvent("broken1", 1010, R"({"a" 1})") + ",";
  json += sliceEvent("valid1", 1020, valid1) + ",";
  json += sliceEvent("broken2", 1030, R"({"":"":})") + ",";
  json += sliceEvent("valid2", 1040, valid2) + ",";
  json += sliceEvent("broken3", 1050, R"({a:1})") + ",";
  json += sliceEvent("valid3", 1060, valid3) + ",";
  json += sliceEvent("broken4", 1070, R"({"a":{"b":[1,{"c":}]}})") + ",";
  json += sliceEvent("valid4", 1080, valid4) + ",";
  json += sliceEvent("broken5", 1090, R"({"a":1,"b" 2})") + ",";
  json += sliceEvent("valid5", 1100, valid5) + ",";
  json += sliceEvent("esc", 1110, R"({"a":"x\q"})") + ",";
  json += R"({"ph":"C","name":"cnt","pid":1,"tid":1,"ts":1120,"args":{"MHz":1800 "b":1}},)";
  json += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"P" "x"}},)";
  json += R"({"ph":"X","name":"nots","pid":1,"tid":1,"dur":1,"args":{"a" 1}},)";
  json += filler(20) + "]";
  const std::size_t broken1At = json.find(R"({"ph":"X","name":"broken1")");
  REQUIRE(broken1At != std::string::npos);
  checkAgreement(json, "malformed args count");
  for (const bool fast : {true, false}) {
    for (const unsigned threads : {1u, 2u, 3u}) {
      INFO((fast ? "fast scanner" : "simdjson") << ", " << threads << " part(s)");
      const auto t = loadWith(json, fast, threads);
      REQUIRE(t);
      CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 7);
      CHECK(t->stats.count(core::ImportWarning::MissingTimestamp) == 1);
      CHECK(t->stats.count(core::ImportWarning::ParseError) == 0);
      // The first example names the first broken event and its position.
      std::string first;
      for (const auto& e : t->stats.examples)
        if (e.first == core::ImportWarning::MalformedArgs) {
          first = e.second;
          break;
        }
      CHECK(first == "malformed args object of \"broken1\" (event at byte " + std::to_string(broken1At) + ")");
      // Kept, without args: the slices are there and read as no args (not the members before
      // the break: broken5 would show a = 1).
      for (const char* name : {"broken1", "broken2", "broken3", "broken4", "broken5"}) {
        INFO(name);
        const core::SliceRef r = sliceNamed(*t, name);
        REQUIRE(r.valid());
        CHECK(core::sliceArgs(*t, r).empty());
        CHECK(core::sliceArgsJson(*t, r).empty());
      }
      CHECK_FALSE(core::sliceArg(*t, sliceNamed(*t, "broken5"), "a").has_value());
      // The sound ones keep their args (counted by hand: valid1 has 3 members, valid2 6, valid3
      // none, valid4 3, valid5 2).
      CHECK(core::sliceArgs(*t, sliceNamed(*t, "valid1")).size() == 3);
      CHECK(core::sliceArgs(*t, sliceNamed(*t, "valid2")).size() == 6);
      CHECK(core::sliceArgs(*t, sliceNamed(*t, "valid3")).empty());
      CHECK(core::sliceArgs(*t, sliceNamed(*t, "valid4")).size() == 3);
      CHECK(core::sliceArgs(*t, sliceNamed(*t, "valid5")).size() == 2);
      CHECK(core::sliceArg(*t, sliceNamed(*t, "valid1"), "s") == std::optional<std::string>("q\"uo{te}[\\"));
      // The counter sample and the process name are not read from broken args.
      CHECK(t->counters.empty());
    }
  }
}

TEST_CASE("sound args objects are never counted as malformed") {
  // Every args object below is sound JSON; hand count: MalformedArgs = 0 on every path. Each is
  // the last member of its event and the event is followed by more than 64 bytes (the filler)
  // or is the last one.
  const char* const sound[] = {
      R"({})",
      R"({"a":1e400})",
      R"({"a":-1E-400})",
      R"({"a":-0})",
      R"({"a":0.0})",
      R"({"a":123456789012345678901234567890})",
      R"({"a":"\"{\"}"})",
      R"({"a":"\\"})",
      R"({"a":"\\\""})",
      R"({"a":"\u0000\uD834\uDD1E"})",
      R"({"a":[],"b":{},"c":[{}],"d":[[]]})",
      R"({"a":null,"b":true,"c":false})",
      "{\n  \"a\": 1,\n  \"b\": [ 1 , 2 ]\n}",
      R"({"a":{"b":{"c":{"d":{"e":{"f":{"g":[1,[2,[3]]]}}}}}}})",
      R"({"":""})",
      R"({"a":"x","a":"y"})",
  };
  for (const char* args : sound) {
    for (const bool middle : {true, false}) {
      std::string json = "[";  // += : see above (GCC 12's false -Wrestrict)
      json += eventWith(args, 1);
      if (middle) {
        json += ",";
        json += filler(2);
      }
      json += "]";
      for (const bool fast : {true, false}) {
        for (const unsigned threads : {1u, 2u}) {
          INFO(args << (middle ? " (middle)" : " (last)") << (fast ? " fast scanner, " : " simdjson, ") << threads);
          const auto t = loadWith(json, fast, threads);
          REQUIRE(t);
          CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 0);
          CHECK(t->stats.total() == 0);
        }
      }
    }
  }
}

TEST_CASE("malformed args in a counter's nested value, repeated args and deep args agree and count right") {
  // Found in review (6b449d9, 2026-12-02). Hand count, event by event:
  //   "cnt" counter {"MHz":1800,"x":{"a" 1}}: broken inside a nested value (On-Demand would still
  //     read MHz): counted, and no sample is read from it;
  //   "twice" "args":{"x":1},"args":{"a" 1}: the last args object (broken) is the event's: kept,
  //     counted (the simdjson path blanked only the first and dropped the event as ParseError);
  //   "twice2" "args":{"a" 1},"args":{"y":2}: the last (sound) one counts: kept with 1 arg;
  //   "deep" args {"d":[[...70 levels...[1]...]]}: sound, deeper than the fast scanner's 63
  //     levels: kept with 1 arg, not counted (it was counted and shown without args).
  // So MalformedArgs = 2, ParseError = 0, no counter.
  const std::string deep = "{\"d\":" + std::string(70, '[') + "1" + std::string(70, ']') + "}";
  std::string json = "[";
  json += filler(0) + ",";
  json += R"({"ph":"C","name":"cnt","pid":1,"tid":1,"ts":1010,"args":{"MHz":1800,"x":{"a" 1}}},)";
  json += R"({"ph":"X","name":"twice","pid":1,"tid":1,"ts":1020,"dur":5,"args":{"x":1},"args":{"a" 1}},)";
  json += R"({"ph":"X","name":"twice2","pid":1,"tid":1,"ts":1030,"dur":5,"args":{"a" 1},"args":{"y":2}},)";
  json += sliceEvent("deep", 1040, deep) + ",";
  json += filler(20) + "]";
  checkAgreement(json, "review cases");
  for (const bool fast : {true, false}) {
    for (const unsigned threads : {1u, 2u}) {
      INFO((fast ? "fast scanner" : "simdjson") << ", " << threads << " part(s)");
      const auto t = loadWith(json, fast, threads);
      REQUIRE(t);
      CHECK(t->stats.count(core::ImportWarning::MalformedArgs) == 2);
      CHECK(t->stats.count(core::ImportWarning::ParseError) == 0);
      CHECK(t->counters.empty());
      const core::SliceRef twice = sliceNamed(*t, "twice");
      REQUIRE(twice.valid());
      CHECK(core::sliceArgs(*t, twice).empty());
      const core::SliceRef twice2 = sliceNamed(*t, "twice2");
      REQUIRE(twice2.valid());
      CHECK(core::sliceArg(*t, twice2, "y") == std::optional<std::string>("2"));
      const core::SliceRef d = sliceNamed(*t, "deep");
      REQUIRE(d.valid());
      CHECK(core::sliceArgs(*t, d).size() == 1);
    }
  }
}

TEST_CASE("keys that look like the ones the fast scanner matches whole read the same on both paths") {
  // The fast scanner matches "ph": "pid": "tid": "ts": "dur": "cat": "name": "args": "id": "bp":
  // (quotes and colon) in one 8-byte compare. Keys that share a prefix with them, lack or add a
  // letter, put a space before the colon, are escaped, or end the buffer must read as the
  // simdjson path reads them; and the plain ones must not be declined.
  const char* const keys[] = {"p", "pi", "pidd", "phx", "t", "ti", "tidx", "ts2", "tss", "n", "nam", "names", "nameX",
                              "a", "arg", "argsy", "i", "idx", "id2x", "b", "bpp", "c", "ca", "cats", "d", "du", "durr",
                              "s2", "bind", "flow", "Ph", "PID"};
  int n = 0;
  for (const char* key : keys) {
    // The look-alike key holding a value of each of the types the real key takes.
    for (const char* value : {"1", "\"x\"", "{\"k\":1}", "2.5"}) {
      std::string json = "[";
      json += filler(0);
      json += R"(,{"ph":"X",")" + std::string(key) + "\":" + value + R"(,"name":"e","pid":1,"tid":1,"ts":5,"dur":1},)";
      json += filler(1);
      json += "]";
      checkAgreement(json, std::string("key ") + key + " value " + value);
      ++n;
    }
  }
  // The real keys, spaced as json.dumps writes them, with a space before the colon, escaped, and
  // as the last bytes the fast scanner may read (fewer than 8 follow the key's quote).
  const std::string shapes[] = {
      R"([{"ph": "X", "name": "a", "pid": 1, "tid": 2, "ts": "10.5", "dur": 3, "cat": "c", "args": {"k": 1}}])",
      R"([{"ph" : "X", "name" :"a", "pid": 1, "tid" : 2, "ts": 10, "dur" :3}])",
      R"([{"p\u0068":"X","n\u0061me":"a","pid":1,"tid":2,"ts":10,"dur":3}])",
      R"([{"ph":"s","cat":"c","name":"f","id":7,"pid":1,"tid":1,"ts":10},{"ph":"f","bp":"e","cat":"c","name":"f","id":7,"pid":1,"tid":1,"ts":12},{"ph":"X","name":"z","pid":1,"tid":1,"ts":9,"dur":5}])",
      R"([{"name":"a","ph":"X","pid":1,"tid":2,"dur":3,"ts":1}])",
      R"([{"dur":3,"ts":1,"name":"a","ph":"X","tid":2,"pid":1}])",
  };
  for (const std::string& json : shapes) {
    checkAgreement(json, json);
    ++n;
  }
  CHECK(n == 32 * 4 + 6);
  // The plain shapes go through the fast scanner whole; the escaped key is declined to simdjson.
  for (std::size_t i = 0; i < std::size(shapes); ++i) {
    core::LoadOptions o;
    const auto read = core::detail::readTraceEvents(shapes[i], 1, o);
    REQUIRE(read.parts.size() == 1);
    INFO(shapes[i]);
    CHECK(read.parts[0].declinedEvents == (i == 2 ? 1u : 0u));
    CHECK(read.parts[0].fastEvents == read.parts[0].events - read.parts[0].declinedEvents);
  }
}
