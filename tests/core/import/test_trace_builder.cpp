// SPDX-License-Identifier: MIT
// TraceBuilder: a reader for a new format only has to call it. A tiny CSV reader (below) is the
// whole of such a reader; the expected values are hand counts written next to each check.
#include <catch2/catch.hpp>

#include <charconv>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/trace_builder.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"

using namespace npuscope;
using core::TraceBuilder;

namespace {

std::vector<std::string_view> splitCsv(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t c = line.find(',');
    out.push_back(line.substr(0, c));
    if (c == std::string_view::npos) return out;
    line.remove_prefix(c + 1);
  }
}

bool toInt(std::string_view s, std::int64_t& v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

/// The test reader. One record per line:
///   pid,tid,name,start_ns,dur_ns                              a complete slice
///   flow,id,from_pid,from_tid,from_ts,to_pid,to_tid,to_ts     a flow (v2 bind id: out at from, in at to)
/// A header line "pid,..." and empty lines are skipped; any other line is a ParseError warning.
bool readCsvTrace(std::string_view text, core::Trace& trace) {
  TraceBuilder b;
  std::size_t lineNo = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++lineNo;
    if (line.empty() || line.starts_with("pid,")) continue;
    const auto f = splitCsv(line);
    std::int64_t v[7] = {};
    if (f.size() == 5 && toInt(f[0], v[0]) && toInt(f[1], v[1]) && toInt(f[3], v[2]) && toInt(f[4], v[3])) {
      b.addSlice(b.thread(b.process(v[0]), v[1]), v[2], v[3], f[2]);
      continue;
    }
    bool ok = f.size() == 8 && f[0] == "flow";
    for (std::size_t i = 1; ok && i < 8; ++i) ok = toInt(f[i], v[i - 1]);
    if (ok) {
      const auto id = static_cast<std::uint64_t>(v[0]);
      b.addFlowOut(b.thread(b.process(v[1]), v[2]), v[3], id, "csv");
      b.addFlowIn(b.thread(b.process(v[4]), v[5]), v[6], id, "csv");
      continue;
    }
    b.countEvent();
    b.addWarning(core::ImportWarning::ParseError, "line " + std::to_string(lineNo) + " is not a slice or a flow");
  }
  return b.finish(trace, {});
}

}  // namespace

TEST_CASE("TraceBuilder: a CSV reader of slices and flows gets nesting, overlap flags, flows, order and ranges") {
  const std::string csv =
      "pid,tid,name,start_ns,dur_ns\n"
      "1,10,step,0,1000\n"
      "1,10,matmul,100,300\n"
      "1,10,add,500,600\n"  // starts inside step, ends at 1100 after step's 1000: partial overlap
      "2,20,kernel,700,100\n"
      "1,11,recv,200,50\n"
      "flow,7,1,10,150,2,20,700\n"  // 150 lies in step and matmul: the deepest is matmul
      "not,a,record\n";
  core::Trace t;
  REQUIRE(readCsvTrace(csv, t));
  // Hand count: 5 slices + 2 flow events + 1 bad line.
  CHECK(t.eventCount == 8);
  CHECK(t.stats.count(core::ImportWarning::ParseError) == 1);
  CHECK(t.stats.count(core::ImportWarning::PartialOverlap) == 1);
  // Processes "1", "2" (natural order of the names, no metadata); lanes by tid inside pid 1.
  REQUIRE(t.processes.size() == 2);
  CHECK(t.processes[0].pid == 1);
  CHECK(t.processes[1].pid == 2);
  REQUIRE(t.lanes.size() == 3);
  CHECK(t.lanes[0].tid == 10);
  CHECK(t.lanes[1].tid == 11);
  CHECK(t.lanes[2].tid == 20);
  CHECK(t.lanes[2].process == 1);
  // Lane (1,10): row 0 = step; row 1 = matmul, add (add flagged).
  const core::Lane& l = t.lanes[0];
  REQUIRE(l.rowBegin == std::vector<std::uint32_t>{0, 1, 3});
  CHECK(t.name(l.names[0]) == "step");
  CHECK(t.name(l.names[1]) == "matmul");
  CHECK(t.name(l.names[2]) == "add");
  CHECK(l.end[2] == 1100);
  CHECK((l.flags[2] & core::kSlicePartialOverlap) != 0);
  CHECK((l.flags[1] & core::kSlicePartialOverlap) == 0);
  // The flow: matmul (lane 0, index 1) -> kernel (lane 2, index 0).
  REQUIRE(t.flows.size() == 1);
  CHECK(t.flows[0].from == core::SliceRef{0, 1});
  CHECK(t.flows[0].to == core::SliceRef{2, 0});
  CHECK(t.flows[0].fromTs == 150);
  CHECK(t.flows[0].toTs == 700);
  CHECK(t.name(t.flows[0].category) == "csv");
  // finish() indexed the flows.
  CHECK(t.flowsByFrom.size() == 1);
  CHECK(t.flowsFrom({0, 1}) == std::vector<std::uint32_t>{0});
  CHECK(t.flowsTo({2, 0}) == std::vector<std::uint32_t>{0});
  // Range: earliest start 0, latest end 1100 (add).
  CHECK(t.range.start == 0);
  CHECK(t.range.end == 1100);
}

TEST_CASE("TraceBuilder: begin and end pairs, instants, unfinished and orphan ends") {
  TraceBuilder b;
  const auto th = b.thread(b.process(5), 1);
  const auto other = b.thread(b.process(5), 2);
  b.beginSlice(th, 10, "outer");
  b.beginSlice(th, 20, "inner");
  b.addInstant(th, 25, "mark");
  b.endSlice(th, 30);
  b.endSlice(th, 50);
  b.endSlice(th, 60);  // no open begin: orphan
  b.beginSlice(th, 70, "open");  // never ended: lasts to the trace end, 100 (the X on `other`)
  b.addSlice(other, 80, 20, "x");
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  CHECK(t.stats.count(core::ImportWarning::OrphanEnd) == 1);
  CHECK(t.stats.count(core::ImportWarning::UnterminatedBegin) == 1);
  REQUIRE(t.lanes.size() == 2);
  const core::Lane& l = t.lanes[0];
  // Row 0: outer [10,50), open [70,100); row 1: inner [20,30); row 2: mark [25,25).
  REQUIRE(l.rowBegin == std::vector<std::uint32_t>{0, 2, 3, 4});
  CHECK(l.start == std::vector<core::TimeNs>{10, 70, 20, 25});
  CHECK(l.end == std::vector<core::TimeNs>{50, 100, 30, 25});
  CHECK((l.flags[1] & core::kSliceUnfinished) != 0);
  CHECK((l.flags[3] & core::kSliceInstant) != 0);
  CHECK(t.name(l.names[3]) == "mark");
}

TEST_CASE("TraceBuilder: owned args read like file args, counters, metadata and display order") {
  TraceBuilder b;
  const auto hw = b.process(7);
  const auto py = b.process(3);
  const auto ctr = b.process(9);
  b.setProcessName(hw, "Ascend Hardware");
  b.setProcessLabels(hw, "NPU 4");
  b.setProcessSortIndex(py, 0);  // sorted first: a sort index beats none
  b.setProcessName(py, "Python");
  const auto stream = b.thread(hw, 2);
  b.setThreadName(stream, "Stream 2");
  b.addSlice(stream, 100, 10, "kernel", "task",
             core::ImportArgs::owned({{"Model Id", "4294967295"}, {"quote", "a\"b\\c"}}));
  b.addSlice(b.thread(py, 1), 90, 30, "forward");
  b.addCounter(ctr, 5, "freq", "MHz", 1000);
  b.addCounter(ctr, 1, "freq", "MHz", 800);  // out of order: sorted
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  // Order: Python (sort index 0), then by name: "9" < "Ascend Hardware" (natural order, digits first).
  REQUIRE(t.processes.size() == 3);
  CHECK(t.processes[0].name == "Python");
  CHECK(t.processes[0].role == core::Process::Role::Python);
  CHECK(t.processes[1].name == "9");
  CHECK(t.processes[1].role == core::Process::Role::Counter);
  CHECK(t.processes[2].name == "Ascend Hardware");
  CHECK(t.processes[2].deviceId == 4);
  REQUIRE(t.lanes.size() == 2);
  CHECK(t.lanes[1].name == "Stream 2");
  const core::SliceRef kernel{1, 0};
  CHECK(t.sliceName(kernel) == "kernel");
  CHECK(core::sliceArg(t, kernel, "Model Id") == std::optional<std::string>("4294967295"));
  CHECK(core::sliceArg(t, kernel, "quote") == std::optional<std::string>("a\"b\\c"));
  CHECK(core::sliceArgs(t, kernel).size() == 2);
  CHECK(t.argsText({0, 0}).empty());
  REQUIRE(t.counters.size() == 1);
  CHECK(t.counters[0].ts == std::vector<core::TimeNs>{1, 5});
  CHECK(t.counters[0].value == std::vector<double>{800, 1000});
}

TEST_CASE("TraceBuilder: v1 flows with text ids pair in call order, a cancelled finish builds nothing") {
  TraceBuilder b;
  const auto a = b.thread(b.process(1), 1);
  const auto c = b.thread(b.process(1), 2);
  b.addSlice(a, 0, 100, "launch");
  b.addSlice(c, 200, 50, "task1");
  b.addSlice(c, 300, 50, "task2");
  // s at 10 (in launch); f at 150 without bp:e binds the next slice, task1 (starts 200).
  b.addFlowEvent(a, 10, TraceBuilder::FlowPhase::Start, "x-1", "ac");
  b.addFlowEvent(c, 150, TraceBuilder::FlowPhase::End, "x-1", "ac");
  // An end without start: FlowEndWithoutStart.
  b.addFlowEvent(c, 310, TraceBuilder::FlowPhase::End, "x-2", "ac", {}, true);
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  REQUIRE(t.flows.size() == 1);
  CHECK(t.flows[0].from == core::SliceRef{0, 0});
  CHECK(t.flows[0].to == core::SliceRef{1, 0});
  CHECK(t.stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);

  TraceBuilder cancelled;
  cancelled.addSlice(cancelled.thread(cancelled.process(1), 1), 0, 1, "s");
  std::stop_source stop;
  stop.request_stop();
  core::Trace u;
  CHECK_FALSE(cancelled.finish(u, {stop.get_token()}));
  CHECK(u.lanes.empty());
}

TEST_CASE("TraceBuilder: finish builds the summary levels of a long row") {
  // 4096 adjacent 10 ns slices on one row: zoomed-out levels merge them into fewer groups.
  TraceBuilder b;
  const auto th = b.thread(b.process(1), 1);
  for (int i = 0; i < 4096; ++i) b.addSlice(th, i * 10, 10, "k");
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  REQUIRE(t.lanes.size() == 1);
  CHECK(t.lanes[0].sliceCount() == 4096);
  CHECK_FALSE(t.lanes[0].lod.empty());
}

TEST_CASE("TraceBuilder: ids it never gave are warnings, not crashes") {
  TraceBuilder b;
  const auto th = b.thread(b.process(1), 1);
  b.addSlice(th, 0, 10, "kept");
  b.addSlice(th + 5, 0, 10, "dropped");        // no such thread
  b.addCounter(42, 0, "c", "v", 1.0);          // no such process
  b.addFlowOut(th + 1, 0, 1);                  // no such thread
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  CHECK(t.stats.count(core::ImportWarning::BadPid) == 3);  // hand count: the three calls above
  REQUIRE(t.lanes.size() == 1);
  CHECK(t.lanes[0].sliceCount() == 1);
  CHECK(t.counters.empty());
}

// Found by fuzz/fuzz_sqlite_db: a database row with endNs = 2^63 - 1 gave a slice ending at
// INT64_MAX, and makeVerdict's range end + 1 overflowed (UB). TraceBuilder now keeps the time
// invariant of core/base/time_limits.h as the JSON reader does: a time beyond +-(2^62 - 1) ns is
// skipped (MissingTimestamp), an end beyond it makes the duration 0 (BadDuration).
TEST_CASE("TraceBuilder keeps every time within +-2^62 ns") {
  core::TraceBuilder b;
  const auto p = b.process(1);
  const auto t = b.thread(p, 1);
  b.addSlice(t, 1000, INT64_MAX - 1000, "ends past the limit", "");
  b.addSlice(t, INT64_MAX, 5, "starts past the limit", "");
  b.addInstant(t, INT64_MIN, "instant past the limit", "");
  b.addFlowOut(t, INT64_MAX, 7, "cat", "flow");
  b.addCounter(p, -INT64_MAX, "c", "k", 1.0);
  b.addSlice(t, 2000, 10, "fine", "");
  core::Trace trace;
  REQUIRE(b.finish(trace, {}));
  CHECK(trace.stats.count(core::ImportWarning::MissingTimestamp) == 4);  // hand count: 4 calls above
  CHECK(trace.stats.count(core::ImportWarning::BadDuration) == 1);
  CHECK(trace.sliceCount() == 2);
  CHECK(trace.range.start == 1000);
  CHECK(trace.range.end == 2010);  // the cut slice is 0 long at 1000; "fine" ends at 2010
}

// Found by fuzz/fuzz_sqlite_reader (issue 26 item 2): a database REAL of +inf (ACC_PMU readBwLevel)
// became a counter sample of +inf, which the JSON reader can never produce (its numbers are
// finite) and which would reach the counter lanes and the report as inf. Such a value is skipped
// with a BadCounterValue warning now.
TEST_CASE("TraceBuilder skips a counter value that is not finite") {
  core::TraceBuilder b;
  const auto p = b.process(1);
  b.addCounter(p, 1000, "Acc PMU", "value", std::numeric_limits<double>::infinity());
  b.addCounter(p, 2000, "Acc PMU", "value", -std::numeric_limits<double>::infinity());
  b.addCounter(p, 3000, "Acc PMU", "value", std::numeric_limits<double>::quiet_NaN());
  b.addCounter(p, 4000, "Acc PMU", "value", 2.5);
  core::Trace t;
  REQUIRE(b.finish(t, {}));
  // Hand count: three values that are not finite, one sample kept.
  CHECK(t.stats.count(core::ImportWarning::BadCounterValue) == 3);
  REQUIRE(t.counters.size() == 1);
  CHECK(t.counters[0].ts == std::vector<core::TimeNs>{4000});
  CHECK(t.counters[0].value == std::vector<double>{2.5});
}
