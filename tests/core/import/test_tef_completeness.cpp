// SPDX-License-Identifier: MIT
// Trace Event Format completeness in the JSON reader: flow v2 (bind_id, flow_in, flow_out on X
// slices and B events; on E events ignored and counted, as Perfetto), instant scopes (s: t / p / g, anything else warned), and gzip recognised by its magic
// bytes whatever the file is called, multi-member and truncated. Small hand-written traces; the
// expected values are counted by hand in the comments. Every in-memory case is loaded with the
// fast scanner and with the simdjson path alone (LoadOptions::fastScanner = false), which must
// agree.

#include <catch2/catch.hpp>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<core::Trace> loadJson(const std::string& json, bool fast) {
  core::LoadOptions o;
  o.threads = 1;
  o.fastScanner = fast;
  auto r = core::loadTraceFromMemory(json, "tef.json", o);
  INFO(r.error);
  REQUIRE(r.ok());
  return r.trace;
}

/// Slices on the lane "process / thread", or -1 when there is no such lane.
long slicesOn(const core::Trace& t, const std::string& process, const std::string& thread) {
  const int l = test::laneIndex(t, process, thread);
  return l < 0 ? -1 : static_cast<long>(t.lanes[static_cast<std::size_t>(l)].sliceCount());
}

using npuscope::test::TempDir;

/// Writes `text` gzip-compressed to `path`; "ab" appends another gzip member.
void writeGzip(const fs::path& path, const std::string& text, const char* mode = "wb") {
  gzFile gz = gzopen(path.c_str(), mode);
  REQUIRE(gz);
  REQUIRE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(gz) == Z_OK);
}

/// n X events named e0 .. e{n-1} on one thread, 1 us apart, as a JSON array.
std::string numberedEvents(int n) {
  std::string j = "[";
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    if (i) j.append(",\n");
    j.append(R"({"ph":"X","name":"e)").append(k).append(R"(","pid":1,"tid":1,"ts":)").append(k).append(R"(,"dur":1})");
  }
  j.append("]");
  return j;
}

}  // namespace

TEST_CASE("TEF flow v2: bind_id with flow_out / flow_in binds the slice itself", "[tef]") {
  // By hand: "parent" [0,100) on 1/1 carries flow_out bind_id 7; "child" [0,50) starts with it
  // (deeper, same ts) and must not take the flow. "dest" on 1/2 has flow_in 7 -> parent->dest.
  // String bind_id "0x10": "a" (1/1) -> "b" (1/2). "c" (1/2) has flow_in 99 with no flow_out:
  // one FlowEndWithoutStart. "d" has bind_id 5 with flow_out false: no flow. "e" (1/1) uses its
  // `id` 12 (no bind_id) with flow_out, "f" (1/2) flow_in bind_id 12 -> e->f.
  const std::string json = R"({"traceEvents":[
{"ph":"X","name":"parent","pid":1,"tid":1,"ts":0,"dur":100,"bind_id":7,"flow_out":true},
{"ph":"X","name":"child","pid":1,"tid":1,"ts":0,"dur":50},
{"ph":"X","name":"dest","pid":1,"tid":2,"ts":200,"dur":10,"bind_id":7,"flow_in":true},
{"ph":"X","name":"a","pid":1,"tid":1,"ts":300,"dur":5,"bind_id":"0x10","flow_out":true},
{"ph":"X","name":"b","pid":1,"tid":2,"ts":400,"dur":5,"bind_id":"0x10","flow_in":true},
{"ph":"X","name":"c","pid":1,"tid":2,"ts":500,"dur":5,"bind_id":99,"flow_in":true},
{"ph":"X","name":"d","pid":1,"tid":1,"ts":600,"dur":5,"bind_id":5,"flow_out":false},
{"ph":"X","name":"e","pid":1,"tid":1,"ts":700,"dur":5,"id":12,"flow_out":true},
{"ph":"X","name":"f","pid":1,"tid":2,"ts":800,"dur":5,"bind_id":12,"flow_in":true}
]})";
  for (const bool fast : {true, false}) {
    INFO("fastScanner " << fast);
    const auto t = loadJson(json, fast);
    CHECK(test::flowPairs(*t) == std::vector<std::string>{"a->b", "e->f", "parent->dest"});
    CHECK(t->stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);
    CHECK(t->stats.count(core::ImportWarning::FlowStartWithoutEnd) == 0);
    CHECK(t->eventCount == 9);
  }
}

TEST_CASE("TEF flow v2 on B / E events: a begin binds its slice, an end is ignored and counted", "[tef]") {
  // By hand (issue 26 item 3): "open" B at 0 / E at 100 on 1/1 carries flow_out bind_id 3 on its
  // B -> "sink" (X on 1/2, flow_in 3): open->sink. "src" (X on 1/2, flow_out 4) -> "late" (B at
  // 300 / E at 350 on 1/1, flow_in 4 on its B): src->late. "closing" (B 400 / E 450 on 1/1) has
  // flow_out 5 on its E: ignored as Perfetto's importer ignores it (flows on B and X only), one
  // FlowOnEnd; "orphan" (X on 1/2, flow_in 5) then has no start: one FlowEndWithoutStart.
  const std::string json = R"({"traceEvents":[
{"ph":"B","name":"open","pid":1,"tid":1,"ts":0,"bind_id":3,"flow_out":true},
{"ph":"E","pid":1,"tid":1,"ts":100},
{"ph":"X","name":"sink","pid":1,"tid":2,"ts":150,"dur":10,"bind_id":3,"flow_in":true},
{"ph":"X","name":"src","pid":1,"tid":2,"ts":200,"dur":10,"bind_id":4,"flow_out":true},
{"ph":"B","name":"late","pid":1,"tid":1,"ts":300,"bind_id":4,"flow_in":true},
{"ph":"E","pid":1,"tid":1,"ts":350},
{"ph":"B","name":"closing","pid":1,"tid":1,"ts":400},
{"ph":"E","pid":1,"tid":1,"ts":450,"bind_id":5,"flow_out":true},
{"ph":"X","name":"orphan","pid":1,"tid":2,"ts":500,"dur":10,"bind_id":5,"flow_in":true}
]})";
  for (const bool fast : {true, false}) {
    INFO("fastScanner " << fast);
    const auto t = loadJson(json, fast);
    CHECK(test::flowPairs(*t) == std::vector<std::string>{"open->sink", "src->late"});
    CHECK(t->stats.count(core::ImportWarning::FlowOnEnd) == 1);
    CHECK(t->stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);
    CHECK(t->stats.count(core::ImportWarning::FlowStartWithoutEnd) == 0);
  }
}

TEST_CASE("TEF instant scopes: thread, process and global lanes, invalid scope warned", "[tef]") {
  // By hand: on 1/1 an X slice plus the instants "t-inst" (s t), "noscope" (no s), "bad" (s "x")
  // and "bad2" (s 3): 5 slices, 2 InvalidInstantScope. "p-inst" (s p, pid 1) goes to pid 1's
  // lane "(process instants)"; "g-inst" (s g, pid 2) and "g2" (s g, pid 1) to the global lane.
  const std::string json = R"([
{"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"i","name":"t-inst","pid":1,"tid":1,"ts":10,"s":"t"},
{"ph":"i","name":"noscope","pid":1,"tid":1,"ts":11},
{"ph":"I","name":"p-inst","pid":1,"tid":1,"ts":12,"s":"p"},
{"ph":"i","name":"g-inst","pid":2,"tid":5,"ts":13,"s":"g"},
{"ph":"i","name":"g2","pid":1,"tid":1,"ts":14,"s":"g"},
{"ph":"i","name":"bad","pid":1,"tid":1,"ts":15,"s":"x"},
{"ph":"i","name":"bad2","pid":1,"tid":1,"ts":16,"s":3}
])";
  for (const bool fast : {true, false}) {
    INFO("fastScanner " << fast);
    const auto t = loadJson(json, fast);
    CHECK(slicesOn(*t, "1", "1") == 5);
    CHECK(slicesOn(*t, "1", "(process instants)") == 1);
    CHECK(slicesOn(*t, "(global instants)", "(global instants)") == 2);
    CHECK(slicesOn(*t, "2", "5") == -1);  // pid 2's only event was global
    CHECK(t->stats.count(core::ImportWarning::InvalidInstantScope) == 2);
    const core::SliceRef p = test::findSlice(*t, "p-inst");
    REQUIRE(p.valid());
    CHECK((t->lanes[p.lane].flags[p.index] & core::kSliceInstant) != 0);
  }
}

TEST_CASE("TEF gzip: recognised by its magic bytes under any name", "[tef]") {
  TempDir dir;
  // 3 X events (hand count), gzip-compressed into a file called .json.
  writeGzip(dir.root / "trace.json", numberedEvents(3));
  const auto r = core::loadTrace((dir.root / "trace.json").string());
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(r.trace->eventCount == 3);
  CHECK(test::countSlices(*r.trace, "e2") == 1);
  // The same bytes named .gz load the same.
  fs::copy_file(dir.root / "trace.json", dir.root / "trace.json.gz");
  const auto g = core::loadTrace((dir.root / "trace.json.gz").string());
  REQUIRE(g.ok());
  CHECK(g.trace->eventCount == 3);
}

TEST_CASE("TEF gzip: a multi-member file is read member after member", "[tef]") {
  TempDir dir;
  // The JSON text cut in two, each half its own gzip member (gzip's "ab" mode appends one): the
  // 10 events of numberedEvents(10) all load.
  const std::string json = numberedEvents(10);
  const std::size_t half = json.size() / 2;
  writeGzip(dir.root / "multi.json.gz", json.substr(0, half));
  writeGzip(dir.root / "multi.json.gz", json.substr(half), "ab");
  const auto r = core::loadTrace((dir.root / "multi.json.gz").string());
  INFO(r.error);
  REQUIRE(r.ok());
  CHECK(r.trace->eventCount == 10);
  CHECK(test::countSlices(*r.trace, "e9") == 1);
  CHECK(r.trace->stats.count(core::ImportWarning::TruncatedGzip) == 0);
}

TEST_CASE("TEF gzip: a truncated file keeps the events before the cut and warns", "[tef]") {
  TempDir dir;
  // 2000 events, compressed, then the compressed bytes cut at 60%: a prefix e0 .. e(k-1) loads
  // (0 < k < 2000, the last event before the cut may be partial and is dropped), with one
  // TruncatedGzip warning; the message has no raw binary byte.
  const int n = 2000;
  writeGzip(dir.root / "full.json.gz", numberedEvents(n));
  std::ifstream in(dir.root / "full.json.gz", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(dir.root / "cut.json", std::ios::binary) << bytes.substr(0, bytes.size() * 6 / 10);
  const auto r = core::loadTrace((dir.root / "cut.json").string());
  INFO(r.error);
  REQUIRE(r.ok());
  const std::size_t k = test::countSlices(*r.trace, "e0") == 1 ? r.trace->lanes.at(0).sliceCount() : 0;
  CHECK(k > 0);
  CHECK(k < static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < k; ++i) {
    std::string name = "e";
    name.append(std::to_string(i));
    CHECK(test::countSlices(*r.trace, name) == 1);
  }
  CHECK(r.trace->stats.count(core::ImportWarning::TruncatedGzip) == 1);
  for (const auto& [kind, text] : r.trace->stats.examples)
    for (char c : text) CHECK(static_cast<unsigned char>(c) >= 0x20);
}

TEST_CASE("a partial overlap names its two slices, and communication tasks overlapping on a stream are concurrency, not mis-nesting", "[tef]") {
  // By hand (issue 26 item 5). Ascend Hardware tid 4: "SDMA" [0, 10 us) and "Notify Wait"
  // [5, 20 us): two communication tasks 5 us apart, concurrency (HCCL's links on one stream):
  // one informational line. "k_kernel" [25, 35 us) and "SDMA" [30, 40 us): a kernel and a copy,
  // a real partial overlap of 5 us. Python tid 1: "p" [0, 10 us), "q" [9.56, 19.56 us): 440 ns.
  // The same events in three orders reach the three nesting paths of the builder: in order
  // (X only), out of order (sorted first), and with "q" as a B/E pair (matched first).
  const std::string meta = R"({"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
{"ph":"M","name":"thread_name","pid":9,"tid":4,"args":{"name":"Stream 4"}},
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"Thread 1"}},)";
  const std::string a = R"({"ph":"X","name":"SDMA","pid":9,"tid":4,"ts":0,"dur":10})";
  const std::string b = R"({"ph":"X","name":"Notify Wait","pid":9,"tid":4,"ts":5,"dur":15})";
  const std::string c = R"({"ph":"X","name":"k_kernel","pid":9,"tid":4,"ts":25,"dur":10})";
  const std::string d = R"({"ph":"X","name":"SDMA","pid":9,"tid":4,"ts":30,"dur":10})";
  const std::string p = R"({"ph":"X","name":"p","pid":1,"tid":1,"ts":0,"dur":10})";
  const std::string q = R"({"ph":"X","name":"q","pid":1,"tid":1,"ts":9.56,"dur":10})";
  const std::string pq = p + R"(,{"ph":"B","name":"q","pid":1,"tid":1,"ts":9.56},{"ph":"E","pid":1,"tid":1,"ts":19.56})";
  const std::string inOrder = "[" + meta + a + "," + b + "," + c + "," + d + "," + p + "," + q + "]";
  const std::string outOfOrder = "[" + meta + d + "," + b + "," + c + "," + a + "," + q + "," + p + "]";
  const std::string beginEnd = "[" + meta + a + "," + b + "," + c + "," + d + "," + pq + "]";
  for (const std::string* json : {&inOrder, &outOfOrder, &beginEnd})
    for (const bool fast : {true, false}) {
      INFO("fastScanner " << fast << " input " << *json);
      const auto t = loadJson(*json, fast);
      CHECK(t->stats.count(core::ImportWarning::ConcurrentCommTasks) == 1);
      CHECK(t->stats.count(core::ImportWarning::PartialOverlap) == 2);  // SDMA over k_kernel, q over p
      CHECK(t->stats.total() == 2);
      std::vector<std::string> partial, concurrent;
      for (const auto& [kind, example] : t->stats.examples) {
        if (kind == core::ImportWarning::PartialOverlap) partial.push_back(example);
        if (kind == core::ImportWarning::ConcurrentCommTasks) concurrent.push_back(example);
      }
      CHECK_THAT(partial, Catch::Matchers::UnorderedEquals(std::vector<std::string>{
                              "on Ascend Hardware / Stream 4: 'SDMA' (30.000 us - 40.000 us) starts 5 us before 'k_kernel' "
                              "ends (35.000 us) and ends after it",
                              "on Python / Thread 1: 'q' (9.560 us - 19.560 us) starts 440 ns before 'p' ends (10.000 us) "
                              "and ends after it"}));
      REQUIRE(concurrent.size() == 1);
      CHECK(concurrent[0] == "on Ascend Hardware / Stream 4: 1 task(s) (SDMA, Notify Wait), the largest overlap 5 us");
    }
}

TEST_CASE("overlaps under 1 us between device tasks are one informational line per lane, host mis-nesting stays a warning", "[tef]") {
  // By hand (issue 26 item 5): on "Ascend Hardware" tid 4, "a" [0, 10 us) and "b" from 9.56 us
  // (0.44 us before a ends, like the corpus's Write Value tasks) and "c" from 19.2 us, 0.8 us
  // before b ends: 2 minor overlaps, the largest 800 ns; "d" from 25 us, 5 us before c (ends
  // 30 us) ends: a real partial overlap. On the Python thread the same 0.44 us overlap is a
  // PartialOverlap warning.
  const std::string json = R"([
{"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
{"ph":"X","name":"a","pid":9,"tid":4,"ts":0,"dur":10},
{"ph":"X","name":"b","pid":9,"tid":4,"ts":9.56,"dur":10.44},
{"ph":"X","name":"c","pid":9,"tid":4,"ts":19.2,"dur":10.8},
{"ph":"X","name":"d","pid":9,"tid":4,"ts":25,"dur":10},
{"ph":"X","name":"p","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","name":"q","pid":1,"tid":1,"ts":9.56,"dur":10}
])";
  for (const bool fast : {true, false}) {
    INFO("fastScanner " << fast);
    const auto t = loadJson(json, fast);
    CHECK(t->stats.count(core::ImportWarning::MinorOverlap) == 2);
    CHECK(t->stats.count(core::ImportWarning::PartialOverlap) == 2);  // d on the stream, q on Python
    CHECK(t->stats.total() == 2);                                     // the minor ones inform only
    std::string line;
    for (const auto& [kind, example] : t->stats.examples)
      if (kind == core::ImportWarning::MinorOverlap) line = example;
    CHECK(line.starts_with("on Ascend Hardware / "));
    CHECK(line.ends_with(": 2 slice(s), the largest overlap 800 ns"));
  }
}
