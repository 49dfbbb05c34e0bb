// SPDX-License-Identifier: MIT
// The reader's dialect, on the cases of ../shared/cases (expected values from each case.md).
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/model/slice_args.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::findSlice;
using npuscope::test::laneIndex;
using npuscope::test::load;
using npuscope::test::shared;

namespace {
void checkCase01Slices(const core::Trace& t) {
  REQUIRE(t.lanes.size() == 2);
  const int py = laneIndex(t, "Python", "Thread 7");
  const int hw = laneIndex(t, "Ascend Hardware", "Stream 2");
  REQUIRE(py >= 0);
  REQUIRE(hw >= 0);
  CHECK(t.lanes[py].sliceCount() == 3);
  CHECK(t.lanes[hw].sliceCount() == 3);
  struct Expect { const char* name; core::TimeNs start, dur; };
  const Expect expected[] = {
      {"aten::rms_norm", 1731400000123440100, 9500}, {"aten::matmul", 1731400000123450300, 6200},
      {"aten::to", 1731400000123457000, 2000},       {"RmsNorm", 1731400000123456789, 5160},
      {"MatMulV2", 1731400000123461951, 3040},       {"Cast", 1731400000123465000, 1250},
  };
  for (const auto& e : expected) {
    INFO(e.name);
    const auto r = findSlice(t, e.name);
    REQUIRE(r.valid());
    CHECK(t.sliceRange(r).start == e.start);
    CHECK(t.sliceRange(r).duration() == e.dur);
    CHECK(t.lanes[r.lane].depthOf(r.index) == 0);
  }
  // Gaps of 2 ns and 9 ns on Stream 2, no nesting.
  CHECK(t.lanes[hw].depthCount() == 1);
  CHECK(t.sliceRange(findSlice(t, "MatMulV2")).start - t.sliceRange(findSlice(t, "RmsNorm")).end == 2);
  CHECK(t.sliceRange(findSlice(t, "Cast")).start - t.sliceRange(findSlice(t, "MatMulV2")).end == 9);
  CHECK(npuscope::test::flowPairs(t) ==
        std::vector<std::string>{"aten::matmul->MatMulV2", "aten::rms_norm->RmsNorm", "aten::to->Cast"});
  CHECK(t.stats.total() == 0);
}
}  // namespace

TEST_CASE("case 01: string ts with ns decimals is exact") {
  checkCase01Slices(*load(shared("cases/01-string-ts-ns-decimals/trace_view.json")));
  checkCase01Slices(*load(shared("cases/01-string-ts-ns-decimals/trace_view_dur_string.json")));
}

TEST_CASE("case 02: numeric epoch-us ts above 2^53 ns is exact") {
  const auto t = load(shared("cases/02-numeric-epoch-ts-precision/trace_view.json"));
  checkCase01Slices(*t);
  // RmsNorm at +16.689 us from the trace start.
  CHECK(t->sliceRange(findSlice(*t, "RmsNorm")).start - t->range.start == 16689);
}

TEST_CASE("case 04: flow ids beyond 2^53 compare exactly - beyond uint64 rejected") {
  const auto t = load(shared("cases/04-flow-id-beyond-2p53/trace_view.json"));
  CHECK(npuscope::test::flowPairs(*t) ==
        std::vector<std::string>{"aten::add->Add", "aten::mul->Mul", "aten::sub->Sub"});
  CHECK(t->stats.count(core::ImportWarning::InvalidFlowId) == 1);
  CHECK(t->sliceRange(findSlice(*t, "Add")).start == 1731400000123461951);
  CHECK(t->sliceRange(findSlice(*t, "Mul")).start == 1731400000123461990);
  CHECK(t->sliceRange(findSlice(*t, "Sub")).start == 1731400000123480000);
}

TEST_CASE("case 14: object form reads only top-level traceEvents and trailing keys") {
  const auto t = load(shared("cases/14-object-form-extra-keys/kineto_like.pt.trace.json"));
  CHECK(npuscope::test::countSlices(*t, "NOT_AN_EVENT") == 0);
  const int lane = laneIndex(*t, "python3", "1");
  REQUIRE(lane >= 0);
  const auto step = findSlice(*t, "ProfilerStep#3");
  REQUIRE(step.valid());
  CHECK(t->sliceRange(step) == core::TimeRange{100000, 150000});
  CHECK(t->lanes[step.lane].depthOf(step.index) == 0);
  const auto lin = findSlice(*t, "aten::linear");
  CHECK(t->sliceRange(lin) == core::TimeRange{110000, 130000});
  CHECK(t->lanes[lin.lane].depthOf(lin.index) == 1);
  const auto marker = findSlice(*t, "marker");
  REQUIRE(marker.valid());
  CHECK(t->sliceRange(marker).start == 120000);
  CHECK((t->lanes[marker.lane].flags[marker.index] & core::kSliceInstant) != 0);
  REQUIRE(t->rankFromFile.has_value());
  CHECK(*t->rankFromFile == 3);
  REQUIRE(t->baseTimeNanoseconds.has_value());
  CHECK(*t->baseTimeNanoseconds == 1731400000000000000);
  CHECK(t->traceName == "rank3.pt.trace.json");
  CHECK(t->stats.total() == 0);
}

TEST_CASE("case 15: array without closing bracket, truncated files") {
  const std::string dir = shared("cases/15-array-no-closing-bracket/");
  for (const char* f : {"a_unterminated.json", "b_unterminated_trailing_comma.json"}) {
    INFO(f);
    const auto t = load(dir + f);
    CHECK(t->sliceCount() == 3);
    CHECK(t->stats.total() == 0);
  }
  const auto c = load(dir + "c_truncated_mid_event.json");
  CHECK(c->sliceCount() == 2);
  CHECK(findSlice(*c, "typecheck").valid());
  CHECK(findSlice(*c, "codegen").valid());
  CHECK(c->stats.count(core::ImportWarning::TruncatedEvent) == 1);
  CHECK(c->stats.total() == 1);
  REQUIRE(!c->stats.examples.empty());
  CHECK(c->stats.examples[0].second == "file ends inside an event at byte 189");
  const auto d = load(dir + "d_object_unterminated.json");
  CHECK(d->sliceCount() == 3);
  CHECK(d->stats.count(core::ImportWarning::UnterminatedObject) == 1);
  CHECK(d->stats.total() == 1);
}

TEST_CASE("case 16: trailing comma, empty chunk and the torch_npu comma-bracket ending") {
  const std::string dir = shared("cases/16-trailing-comma-and-empty-chunk/");
  for (const char* f : {"a_object_trailing_comma.json", "b_empty_chunk_double_comma.json", "c_append_empty_list.json"}) {
    INFO(f);
    const auto t = load(dir + f);
    CHECK(t->sliceCount() == 2);
    CHECK(t->sliceRange(findSlice(*t, "Foo")) == core::TimeRange{10500, 30750});
    CHECK(t->sliceRange(findSlice(*t, "Bar")) == core::TimeRange{40000, 45000});
    const bool doubleComma = std::string(f).rfind("b_", 0) == 0;
    CHECK(t->stats.count(core::ImportWarning::EmptyElement) == (doubleComma ? 1u : 0u));
    CHECK(t->stats.total() == (doubleComma ? 1u : 0u));
  }
}

TEST_CASE("case 27: pid/tid as strings - numeric 1 and string \"1\" are distinct - null/bool pid") {
  const auto t = load(shared("cases/27-pid-tid-strings/trace.json"));
  const int cpu = laneIndex(*t, "CPU functions", "1");
  REQUIRE(cpu >= 0);
  CHECK(t->lanes[cpu].sliceCount() == 2);
  CHECK(t->sliceRange(findSlice(*t, "aten::mul")) == core::TimeRange{0, 3000});
  CHECK(t->sliceRange(findSlice(*t, "aten::add")) == core::TimeRange{5000, 7000});
  CHECK(laneIndex(*t, "simd_A", "simd") >= 0);
  CHECK(laneIndex(*t, "7", "worker-1") >= 0);
  // Numeric pid 1 and string pid "1": two processes, each with one lane "1".
  const auto num = findSlice(*t, "num_pid"), str = findSlice(*t, "str_pid");
  REQUIRE(num.valid());
  REQUIRE(str.valid());
  CHECK(t->lanes[num.lane].process != t->lanes[str.lane].process);
  CHECK(t->processes[t->lanes[num.lane].process].pidText.empty());
  CHECK(t->processes[t->lanes[str.lane].process].pidText == "1");
  // null and true pid: fallback process, 2 warnings, slices kept.
  CHECK(t->stats.count(core::ImportWarning::BadPid) == 2);
  const auto nul = findSlice(*t, "null_pid"), boo = findSlice(*t, "bool_pid");
  REQUIRE(nul.valid());
  REQUIRE(boo.valid());
  CHECK(t->processes[t->lanes[nul.lane].process].name == "(invalid pid)");
}

TEST_CASE("case 30: empty and near-empty files") {
  const std::string dir = shared("cases/30-empty-files/");
  for (const char* f : {"empty.json", "whitespace.json"}) {
    auto r = core::loadTrace(dir + f);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("file is empty") != std::string::npos);
  }
  for (const char* f : {"empty_array.json", "empty_events.json"}) {
    INFO(f);
    const auto t = load(dir + f);
    CHECK(t->sliceCount() == 0);
    CHECK(t->range.empty());
    REQUIRE(!t->notes.empty());
    CHECK(t->notes.back() == "0 events");
  }
  const auto obj = load(dir + "empty_object.json");
  CHECK(obj->sliceCount() == 0);
  CHECK(std::find(obj->notes.begin(), obj->notes.end(), "no traceEvents found") != obj->notes.end());
  const auto meta = load(dir + "only_metadata.json");
  CHECK(meta->sliceCount() == 0);
  REQUIRE(meta->processes.size() == 1);
  CHECK(meta->processes[0].name == "Python");
  REQUIRE(meta->lanes.size() == 2);
  CHECK(meta->lanes[0].name == "Thread 1");
  CHECK(meta->lanes[1].name == "Thread 2");
  CHECK(meta->notes.back() == "no slices");
}

TEST_CASE("the same trace parsed in 1, 2 and 8 parts gives identical lanes and flows") {
  // Build a trace big enough to be split (several MB).
  std::string json = "[";
  json += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},)";
  for (int i = 0; i < 60000; ++i) {
    const long long ts = 1000000LL + i * 10LL;
    json += R"({"ph":"X","name":"op)" + std::to_string(i % 97) + R"(","pid":1,"tid":)" + std::to_string(i % 3) +
            R"(,"ts":")" + std::to_string(ts) + R"(.125","dur":8.5,"args":{"nested":[{"a":1},{"b":"},{\""}],"s":"x"}},)";
    if (i % 10 == 0)
      json += R"({"ph":"s","cat":"c","name":"n","id":)" + std::to_string(i) + R"(,"pid":1,"tid":)" +
              std::to_string(i % 3) + R"(,"ts":")" + std::to_string(ts) + R"(.125"},{"ph":"f","bp":"e","cat":"c","name":"n","id":)" +
              std::to_string(i) + R"(,"pid":1,"tid":)" + std::to_string((i + 1) % 3) + R"(,"ts":")" +
              std::to_string(ts + 10) + R"(.125"},)";
  }
  json += "]";
  std::vector<std::shared_ptr<core::Trace>> traces;
  for (unsigned parts : {1u, 2u, 8u}) traces.push_back(npuscope::test::loadMemory(json, parts));
  for (std::size_t k = 1; k < traces.size(); ++k) {
    const auto& a = *traces[0];
    const auto& b = *traces[k];
    REQUIRE(a.lanes.size() == b.lanes.size());
    CHECK(a.sliceCount() == 60000);
    CHECK(b.sliceCount() == 60000);
    for (std::size_t l = 0; l < a.lanes.size(); ++l) {
      CHECK(a.lanes[l].start == b.lanes[l].start);
      CHECK(a.lanes[l].end == b.lanes[l].end);
      CHECK(a.lanes[l].argsOffset == b.lanes[l].argsOffset);
      CHECK(a.lanes[l].rowBegin == b.lanes[l].rowBegin);
      for (std::size_t i = 0; i < a.lanes[l].sliceCount(); ++i)
        if (a.name(a.lanes[l].names[i]) != b.name(b.lanes[l].names[i])) FAIL("name differs");
    }
    REQUIRE(a.flows.size() == 6000);
    REQUIRE(b.flows.size() == a.flows.size());
    for (std::size_t i = 0; i < a.flows.size(); ++i) {
      CHECK(a.flows[i].from == b.flows[i].from);
      CHECK(a.flows[i].to == b.flows[i].to);
    }
    CHECK(a.stats.total() == b.stats.total());
    CHECK(a.eventCount == b.eventCount);
  }
  // Lazy args point at the right text.
  const auto& t = *traces[2];
  CHECK(t.argsText({0, 0}) == R"({"nested":[{"a":1},{"b":"},{\""}],"s":"x"})");
}

TEST_CASE("load preview: tracks, names and time range known before the trace is built") {
  // Two processes; the metadata comes last (as msprof writes some of it), thread 7 has none.
  const std::string json = R"([
    {"ph":"X","name":"a","pid":10,"tid":7,"ts":"100.5","dur":2},
    {"ph":"X","name":"b","pid":"p2","tid":3,"ts":"90","dur":1},
    {"ph":"C","name":"mem","pid":10,"tid":0,"ts":"120","args":{"v":1}},
    {"ph":"M","name":"process_name","pid":10,"tid":0,"args":{"name":"Python"}},
    {"ph":"M","name":"process_sort_index","pid":10,"tid":0,"args":{"sort_index":4}},
    {"ph":"M","name":"thread_name","pid":"p2","tid":3,"args":{"name":"Stream 3"}}
  ])";
  std::vector<core::LoadPreview> previews;
  core::LoadOptions o;
  o.preview = [&](const core::LoadPreview& p) { previews.push_back(p); };
  auto r = core::loadTraceFromMemory(json, "preview.json", o);
  REQUIRE(r.ok());
  REQUIRE(!previews.empty());
  const core::LoadPreview& p = previews.back();
  CHECK(p.fraction == 1.0);
  CHECK(p.events == 6);
  REQUIRE(p.hasRange);
  CHECK(p.minTs == 90'000);   // "90" us
  CHECK(p.maxTs == 120'000);  // the counter at 120 us (slice a ends at 102.5 us)
  // Threads of slices and of the metadata records (the C event has no lane of its own).
  REQUIRE(p.tracks.size() == 2);
  CHECK(p.tracks[0].pid == "10");
  CHECK(p.tracks[0].tid == "7");
  CHECK(p.tracks[0].processName == "Python");
  CHECK(p.tracks[0].processSortIndex == 4);
  CHECK(p.tracks[0].threadName.empty());
  CHECK(p.tracks[1].pid == "p2");
  CHECK(p.tracks[1].tid == "3");
  CHECK(p.tracks[1].processName.empty());
  CHECK(p.tracks[1].threadName == "Stream 3");
}

TEST_CASE("load preview: not called after a cancel") {
  std::stop_source stop;
  stop.request_stop();
  int calls = 0;
  core::LoadOptions o;
  o.stop = stop.get_token();
  o.preview = [&](const core::LoadPreview&) { ++calls; };
  auto r = core::loadTraceFromMemory(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}])", "c.json", o);
  CHECK_FALSE(r.ok());
  CHECK(calls == 0);
}

namespace {
/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
#define FFFD "\xEF\xBF\xBD"

/// The names of the slices of the only lane, in start order, with their [start, end) in ns.
std::vector<std::pair<std::string, core::TimeRange>> laneSlices(const core::Trace& t) {
  std::vector<std::pair<std::string, core::TimeRange>> v;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      v.emplace_back(std::string(t.sliceName({l, i})), t.sliceRange({l, i}));
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
  return v;
}
using Named = std::vector<std::pair<std::string, core::TimeRange>>;
}  // namespace

TEST_CASE("case 19 a: invalid UTF-8 in a name and in args is replaced by U+FFFD, one warning per string") {
  const auto t = load(shared("cases/19-invalid-utf8-control-chars/a_invalid_utf8.json"));
  // case.md: 4 slices at 0, 10, 20, 30 us (dur 5); third name "lat\uFFFDn_1".
  CHECK(laneSlices(*t) == Named{{"hipMemcpy", {0, 5000}},
                                {"hipLaunchKernel", {10000, 15000}},
                                {"lat" FFFD "n_1", {20000, 25000}},
                                {"tail", {30000, 35000}}});
  CHECK(laneIndex(*t, t->processes[0].name, "api") >= 0);
  // One warning per affected string: the kname arg and the third name.
  CHECK(t->stats.count(core::ImportWarning::InvalidUtf8) == 2);
  CHECK(t->stats.count(core::ImportWarning::ParseError) == 0);
  CHECK(t->stats.total() == 2);
}

TEST_CASE("case 19 b: raw control characters are shown escaped, a raw TAB is kept") {
  const auto t = load(shared("cases/19-invalid-utf8-control-chars/b_raw_control_chars.json"));
  // case.md (preferred): 4 slices, "fn\u0001hidden" shown escaped (six visible characters),
  // "tab\there" with its tab, 1 warning.
  CHECK(laneSlices(*t) == Named{{"|||S(1): <module>", {0, 5000}},
                                {"fn\\u0001hidden", {10000, 15000}},
                                {"tab\there", {20000, 25000}},
                                {"after", {30000, 35000}}});
  CHECK(t->stats.count(core::ImportWarning::ControlCharacter) == 1);
  CHECK(t->stats.total() == 1);
  REQUIRE(t->stats.examples.size() == 1);
  // The 0x01 byte is at file offset 0x6A = 106 (hexdump of the input; case.md names byte 106).
  CHECK(t->stats.examples[0].second == "raw control character shown as \\u00xx in a string at byte 106");
}

TEST_CASE("case 19 c: unicode escapes, surrogate pairs, raw UTF-8 - a lone surrogate becomes U+FFFD") {
  const auto t = load(shared("cases/19-invalid-utf8-control-chars/c_unicode_escapes.json"));
  CHECK(laneSlices(*t) == Named{{"\xE4\xB8\xAD\xE6\x96\x87", {0, 5000}},                 // 中文
                                {"\xF0\x9F\x9A\x80 launch", {10000, 15000}},             // 🚀 launch
                                {"lone " FFFD " half", {20000, 25000}},
                                {"raw \xE4\xB8\xAD\xE6\x96\x87 \xE2\x9C\x93", {30000, 35000}},  // raw 中文 ✓
                                {"esc \"q\" \\ / \t", {40000, 45000}}});
  CHECK(t->stats.count(core::ImportWarning::InvalidUtf8) == 1);
  CHECK(t->stats.total() == 1);
}

TEST_CASE("case 19: repaired events give the same trace in 1, 2 and 8 parts and on the simdjson-only path") {
  // 29400 events; every 7th has a bad string (one of 7 kinds, in turn), so that every part and
  // both reader paths meet some. Warnings per kind, counted by hand from the list below.
  const char* const bad[] = {
      R"("name":"a)" "\xFF" R"(b"})",                  // invalid UTF-8 in the name: 1 InvalidUtf8
      R"("name":"c\ud800d"})",                         // lone surrogate in the name: 1 InvalidUtf8
      R"("name":"e)" "\x01" R"(f"})",                  // raw 0x01: 1 ControlCharacter
      R"("name":"g","cat":"x)" "\xC3" R"("})",         // truncated sequence in cat: 1 InvalidUtf8
      R"("name":"h","args":{"k":"v)" "\xFE" R"("}})",  // invalid UTF-8 in args: 1 InvalidUtf8
      R"("name":"i","args":{"k":"\udc00"}})",          // slice args are not decoded at load: none
      R"("name":"j","tid":"t)" "\x02" R"("})",         // raw 0x02 in a tid string: 1 ControlCharacter
  };
  std::string json = "[";
  std::size_t nBad = 0;
  for (int i = 0; i < 29400; ++i) {
    json += i ? "," : "";
    json += R"({"ph":"X","pid":1,"ts":)" + std::to_string(1000 + i * 10) + R"(,"dur":5,)";
    if (i % 7 == 3) json += bad[nBad++ % 7];
    else json += R"("name":"op)" + std::to_string(i % 11) + R"(","args":{"n":)" + std::to_string(i) + "}}";
  }
  json += "]";
  REQUIRE(nBad == 4200);
  std::vector<std::shared_ptr<core::Trace>> traces;
  for (unsigned parts : {1u, 2u, 8u}) traces.push_back(npuscope::test::loadMemory(json, parts));
  {
    core::LoadOptions o;
    o.fastScanner = false;  // simdjson for every event: the reference path
    auto r = core::loadTraceFromMemory(json, "memory.json", o);
    REQUIRE(r.ok());
    traces.push_back(r.trace);
  }
  const auto& a = *traces[0];
  CHECK(a.sliceCount() == 29400);
  CHECK(a.stats.count(core::ImportWarning::InvalidUtf8) == 600 * 4);
  CHECK(a.stats.count(core::ImportWarning::ControlCharacter) == 600 * 2);
  CHECK(a.stats.total() == 600 * 6);
  CHECK(a.stats.examples.size() == 2 * core::ImportStats::kExamplesPerKind);  // capped, counts kept
  CHECK(npuscope::test::countSlices(a, "a" FFFD "b") == 600);
  CHECK(npuscope::test::countSlices(a, "c" FFFD "d") == 600);
  CHECK(npuscope::test::countSlices(a, "e\\u0001f") == 600);
  for (std::size_t k = 1; k < traces.size(); ++k) {
    INFO("variant " << k);
    const auto& b = *traces[k];
    REQUIRE(b.lanes.size() == a.lanes.size());
    CHECK(laneSlices(a) == laneSlices(b));
    for (std::size_t l = 0; l < a.lanes.size(); ++l) CHECK(a.lanes[l].argsOffset == b.lanes[l].argsOffset);
    CHECK(a.stats.counts == b.stats.counts);
  }
}

TEST_CASE("case 18: a UTF-8 BOM is skipped and UTF-16 LE/BE files are transcoded, names intact") {
  const std::string dir = shared("cases/18-bom-utf8-utf16/");
  for (const char* f : {"utf8_no_bom.json", "utf8_bom.json", "utf16le_bom.json", "utf16be_bom.json"}) {
    INFO(f);
    const auto t = load(dir + f);
    // case.md: lane 计算流 (pid 1/tid 1) with 矩阵乘 [0,10] us and MatMul [20,25] us.
    REQUIRE(t->lanes.size() == 1);
    CHECK(t->lanes[0].name == "\xE8\xAE\xA1\xE7\xAE\x97\xE6\xB5\x81");  // 计算流
    CHECK(laneSlices(*t) == Named{{"\xE7\x9F\xA9\xE9\x98\xB5\xE4\xB9\x98", {0, 10000}},  // 矩阵乘
                                  {"MatMul", {20000, 25000}}});
    const bool utf16 = std::string(f).rfind("utf16", 0) == 0;
    CHECK(t->stats.count(core::ImportWarning::Utf16File) == (utf16 ? 1u : 0u));
    CHECK(t->stats.total() == (utf16 ? 1u : 0u));
  }
}

TEST_CASE("case 21: names of 8192 and 614400 characters and a 100000-character arg load whole") {
  const auto t = load(shared("cases/21-extremely-long-names/trace.json"));
  const int lane = laneIndex(*t, t->processes.at(0).name, "Stream 7");
  REQUIRE(lane >= 0);
  const auto v = laneSlices(*t);
  REQUIRE(v.size() == 3);
  // case.md: X [0,30] with an 8192-char name, `short` [40,50], X [60,65] with a 614400-char name.
  CHECK(v[0].first.size() == 8192);
  CHECK(v[0].second == core::TimeRange{0, 30000});
  CHECK(v[1].first == "short");
  CHECK(v[1].second == core::TimeRange{40000, 50000});
  CHECK(v[2].first.size() == 614400);
  CHECK(v[2].second == core::TimeRange{60000, 65000});
  CHECK(t->lanes[lane].depthCount() == 1);
  const auto shortSlice = findSlice(*t, "short");
  REQUIRE(shortSlice.valid());
  const auto shapes = core::sliceArg(*t, shortSlice, "Input Shapes");
  REQUIRE(shapes.has_value());
  CHECK(shapes->size() == 100000);
  CHECK(t->stats.total() == 0);
}

TEST_CASE("an invalid escape in a name keeps the event, the backslash shown as text") {
  const auto t = npuscope::test::loadMemory(R"([{"ph":"X","name":"bad\qname","pid":1,"tid":1,"ts":1,"dur":1},
    {"ph":"X","name":"good","pid":1,"tid":1,"ts":3,"dur":1}])");
  CHECK(laneSlices(*t) == Named{{"bad\\qname", {1000, 2000}}, {"good", {3000, 4000}}});
  CHECK(t->stats.count(core::ImportWarning::InvalidEscape) == 1);
  CHECK(t->stats.total() == 1);
}
