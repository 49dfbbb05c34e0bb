// SPDX-License-Identifier: MIT
// Nesting, B/E matching, flows, async tracks and display order, on ../shared/cases (expected values
// from each case.md) and on hand-built inputs.
#include <catch2/catch.hpp>

#include "core/import/raw_events.h"
#include "core/import/slice_builder.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::findSlice;
using npuscope::test::laneIndex;
using npuscope::test::load;
using npuscope::test::shared;

namespace {
std::uint32_t depthOf(const core::Trace& t, const char* name, int nth = 0) {
  const auto r = findSlice(t, name, nth);
  REQUIRE(r.valid());
  return t.lanes[r.lane].depthOf(r.index);
}
}  // namespace

TEST_CASE("case 05: unmatched B/E events") {
  const auto t = load(shared("cases/05-be-unmatched/trace.json"));
  const int main = laneIndex(*t, "1", "main");
  REQUIRE(main >= 0);
  CHECK(t->lanes[main].sliceCount() == 3);
  CHECK(t->sliceRange(findSlice(*t, "step")) == core::TimeRange{10000, 30000});
  CHECK(depthOf(*t, "step") == 0);
  CHECK(t->sliceRange(findSlice(*t, "fwd")) == core::TimeRange{12000, 20000});
  CHECK(depthOf(*t, "fwd") == 1);
  const auto opt = findSlice(*t, "opt");
  REQUIRE(opt.valid());
  CHECK(t->sliceRange(opt) == core::TimeRange{40000, 50000});  // drawn to the trace end
  CHECK((t->lanes[opt.lane].flags[opt.index] & core::kSliceUnfinished) != 0);
  CHECK(depthOf(*t, "opt") == 0);
  CHECK(t->sliceRange(findSlice(*t, "read")) == core::TimeRange{0, 50000});
  CHECK(t->stats.count(core::ImportWarning::OrphanEnd) == 2);
  CHECK(t->stats.count(core::ImportWarning::EndNameMismatch) == 1);
  CHECK(t->stats.count(core::ImportWarning::UnterminatedBegin) == 1);
  CHECK(t->stats.total() == 4);
}

TEST_CASE("case 06: partial overlaps are kept and flagged - nesting ignores file order") {
  const auto t = load(shared("cases/06-x-partial-overlap/trace.json"));
  const int ov = laneIndex(*t, "7", "overlap");
  REQUIRE(ov >= 0);
  CHECK(t->lanes[ov].sliceCount() == 4);
  CHECK(depthOf(*t, "A") == 0);
  CHECK(depthOf(*t, "D") == 0);
  CHECK(depthOf(*t, "C") > depthOf(*t, "A"));
  const auto b = findSlice(*t, "B");
  CHECK(t->sliceRange(b).duration() == 100000);
  CHECK((t->lanes[b.lane].flags[b.index] & core::kSlicePartialOverlap) != 0);
  CHECK(t->stats.count(core::ImportWarning::PartialOverlap) == 1);
  const auto a = findSlice(*t, "A");
  CHECK(t->lanes[a.lane].selfTime(a.index) == 50000);  // B clipped to A: 100 - 50 us, never negative
  CHECK(depthOf(*t, "parent") == 0);
  CHECK(depthOf(*t, "child") == 1);
  CHECK(depthOf(*t, "P2") == 0);
  CHECK(depthOf(*t, "C2") == 1);
}

TEST_CASE("case 07: zero-duration slices use half-open nesting") {
  const auto t = load(shared("cases/07-zero-duration/trace.json"));
  CHECK(t->sliceCount() == 8);
  CHECK(depthOf(*t, "P") == 0);
  CHECK(depthOf(*t, "z_at_start") == 1);
  CHECK(depthOf(*t, "z_inside") == 1);
  CHECK(depthOf(*t, "z_at_end") == 0);
  CHECK(depthOf(*t, "be_zero") == 0);
  CHECK(depthOf(*t, "z_twin", 0) == 0);
  CHECK(depthOf(*t, "z_twin", 1) == 0);
  CHECK(depthOf(*t, "tail") == 0);
  CHECK(t->sliceRange(findSlice(*t, "z_inside")).duration() == 0);
  CHECK(t->range == core::TimeRange{100000, 510000});
  CHECK(t->stats.total() == 0);
  // A zero-length slice is hit exactly at its instant.
  const auto z = findSlice(*t, "z_inside");
  CHECK(t->lanes[z.lane].enclosingSlice(150000) == z.index);
}

TEST_CASE("case 09: bp:e binds the enclosing slice, no bp the next slice") {
  const auto t = load(shared("cases/09-flow-bp-e-binding/trace_view.json"));
  CHECK(npuscope::test::flowPairs(*t) == std::vector<std::string>{"aten::add->Add", "aten::mm->MatMulV2"});
  CHECK(t->stats.count(core::ImportWarning::FlowNoEnclosingSlice) == 2);
  CHECK(t->stats.total() == 2);
  CHECK(t->sliceCount() == 5);
}

TEST_CASE("case 10: flow ids as numbers, hex and decimal strings - id reuse - async id2") {
  const auto t = load(shared("cases/10-flow-id-string-vs-number/flows.json"));
  CHECK(npuscope::test::flowPairs(*t) ==
        std::vector<std::string>{"P_A->C_A", "P_B->C_B", "P_D1->C_D1", "P_D2->C_D2"});
  CHECK(t->stats.count(core::ImportWarning::FlowStartWithoutEnd) == 1);
  CHECK(t->stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);
  CHECK(t->stats.total() == 2);

  const auto a = load(shared("cases/10-flow-id-string-vs-number/async_id2.json"));
  CHECK(a->stats.count(core::ImportWarning::AsyncWithoutId) == 2);
  CHECK(a->stats.total() == 2);
  // Three async tracks: req in proc-1, req in proc-2, job on the global track.
  REQUIRE(laneIndex(*a, "proc-1", "req") >= 0);
  REQUIRE(laneIndex(*a, "proc-2", "req") >= 0);
  REQUIRE(laneIndex(*a, "Global async", "job") >= 0);
  CHECK(a->lanes.size() == 3);
  CHECK(a->lanes[laneIndex(*a, "proc-1", "req")].start[0] == 0);
  CHECK(a->lanes[laneIndex(*a, "proc-1", "req")].end[0] == 10000);
  CHECK(a->lanes[laneIndex(*a, "proc-2", "req")].start[0] == 2000);
  CHECK(a->lanes[laneIndex(*a, "proc-2", "req")].end[0] == 12000);
  CHECK(a->sliceRange(findSlice(*a, "job")) == core::TimeRange{20000, 30000});
}

TEST_CASE("case 11: dangling flows produce one arrow and one warning per id and kind") {
  const auto t = load(shared("cases/11-flow-dangling-and-unbound/trace.json"));
  CHECK(npuscope::test::flowPairs(*t) == std::vector<std::string>{"src->dst"});
  CHECK(t->stats.count(core::ImportWarning::FlowStartWithoutEnd) == 2);   // ids 100, 500
  CHECK(t->stats.count(core::ImportWarning::FlowEndWithoutStart) == 1);   // id 200
  CHECK(t->stats.count(core::ImportWarning::FlowStepWithoutStart) == 1);  // id 300
  CHECK(t->stats.count(core::ImportWarning::FlowNoEnclosingSlice) == 1);  // id 400
  CHECK(t->stats.total() == 5);
  CHECK(t->sliceCount() == 5);
  for (const auto& l : t->lanes) CHECK(l.depthCount() == 1);
}

TEST_CASE("case 25: process and thread sort indexes, applied after the events") {
  const auto t = load(shared("cases/25-metadata-sort-index/trace.json"));
  std::vector<std::string> order;
  for (const auto& p : t->processes) order.push_back(p.name);
  CHECK(order == std::vector<std::string>{"Overlap Analysis", "Python", "CANN", "HCCL", "Ascend Hardware", "Alpha",
                                          "Bad", "Zeta"});
  CHECK(t->stats.count(core::ImportWarning::BadSortIndex) == 1);
  CHECK(t->stats.total() == 1);
  std::vector<std::string> py, hw;
  for (const auto& l : t->lanes) {
    if (t->processes[l.process].name == "Python") py.push_back(l.name);
    if (t->processes[l.process].name == "Ascend Hardware") hw.push_back(l.name);
  }
  CHECK(py == std::vector<std::string>{"Thread 102", "Thread 103", "Thread 101"});
  CHECK(hw == std::vector<std::string>{"Stream 5", "Stream 12"});
}

TEST_CASE("assignDepths: longer first at equal start, partial overlap flagged, rows disjoint") {
  std::vector<core::TimeNs> start{0, 0, 5, 20, 8}, end{10, 30, 6, 25, 40};
  std::vector<std::uint32_t> order, depth;
  std::vector<std::uint8_t> flags(5, 0);
  const auto overlaps = core::detail::assignDepths(start, end, order, depth, flags);
  // [0,30) is the root, [0,10) its child, [5,6) a grandchild; [8,40) starts inside [0,10) but
  // ends after it: flagged, placed below it; [20,25) then nests inside [8,40).
  CHECK(depth == std::vector<std::uint32_t>{1, 0, 2, 3, 2});
  CHECK(overlaps == 1);
  CHECK(flags[4] == core::kSlicePartialOverlap);
}

TEST_CASE("assignDepths with names: the partial overlap's warning names both slices (the async lanes' path)") {
  // By hand: "outer" [0, 10 us), "late" [4 us, 12 us): late starts 6 us before outer ends.
  core::StringPool strings;
  const std::vector<core::NameId> names{strings.intern("outer"), strings.intern("late")};
  std::vector<core::TimeNs> start{0, 4'000}, end{10'000, 12'000};
  std::vector<std::uint32_t> order, depth;
  std::vector<std::uint8_t> flags(2, 0);
  core::detail::OverlapTally tally("Python / async", &strings);
  CHECK(core::detail::assignDepths(start, end, order, depth, flags, &tally, &names) == 1);
  core::ImportStats stats;
  tally.report(stats, "Python / async");
  CHECK(stats.count(core::ImportWarning::PartialOverlap) == 1);
  REQUIRE(stats.examples.size() == 1);
  CHECK(stats.examples[0].second ==
        "on Python / async: 'late' (4.000 us - 12.000 us) starts 6 us before 'outer' ends (10.000 us) and ends after it");
}

TEST_CASE("classifyProcess knows the Ascend process names") {
  using R = core::Process::Role;
  CHECK(core::detail::classifyProcess("HCCL") == R::Communication);
  CHECK(core::detail::classifyProcess("Communication") == R::Communication);
  CHECK(core::detail::classifyProcess("Ascend Hardware") == R::AscendHardware);
  CHECK(core::detail::classifyProcess("Overlap Analysis") == R::OverlapAnalysis);
  CHECK(core::detail::classifyProcess("CANN") == R::Cann);
  CHECK(core::detail::classifyProcess("Python") == R::Python);
  CHECK(core::detail::classifyProcess("NPU MEM") == R::Other);
}

namespace {

/// "123.456" (µs, 3 decimals) for a time in ns.
std::string us(long long ns) {
  std::string frac = std::to_string(ns % 1000);
  return std::to_string(ns / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

/// What the generator below wrote, counted while writing (the expected values of the test).
struct Written {
  std::size_t slicesA = 0, slicesB = 0, slicesC = 0, overlaps = 0, mismatches = 0;
  std::size_t bound = 0, unbound = 0, startNoEnd = 0, endNoStart = 0, stepNoStart = 0, invalidId = 0;
  std::size_t samples = 0;
};

/// A trace of several MB (so that 8 parse parts are used) with every path of the builder: a
/// nested thread in nesting order (A, tid 10), a B/E thread (B, tid 11) with mismatched names,
/// one orphan E and one unterminated B, a thread where some children come before their parents
/// and with partial overlaps (C, tid 12), flows of every kind (s before f, f before s, fan-out,
/// dangling s / f / t, no id, an s on a thread without slices, text ids, next-slice binding),
/// counters, and the metadata last.
std::string generateTrace(int n, Written& w) {
  const long long base = 1'000'000'000;  // ns
  const std::string pad = R"(,"args":{"pad":"0123456789abcdef0123456789abcdef0123456789abcdef"}})";
  auto x = [&](int tid, const std::string& name, long long ts, long long dur) {
    return R"({"ph":"X","pid":1,"tid":)" + std::to_string(tid) + R"(,"name":")" + name + R"(","ts":")" + us(ts) +
           R"(","dur":")" + us(dur) + "\"" + pad + ",";
  };
  auto be = [&](char ph, const std::string& name, long long ts) {
    return std::string(R"({"ph":")") + ph + R"(","pid":1,"tid":11,"name":")" + name + R"(","ts":")" + us(ts) + "\"},";
  };
  auto flow = [&](char ph, int tid, long long ts, const std::string& id, const std::string& name, bool bpE) {
    std::string e = std::string(R"({"ph":")") + ph + R"(","cat":"c","name":")" + name + R"(","pid":1,"tid":)" +
                    std::to_string(tid) + R"(,"ts":")" + us(ts) + "\"";
    if (!id.empty()) e += R"(,"id":)" + id;
    if (bpE) e += R"(,"bp":"e")";
    return e + "},";
  };
  std::string j = "[";
  j += be('E', "orphan", base - 5000);
  long long last = base;
  for (int i = 0; i < n; ++i) {
    const long long t = base + i * 10'000LL;
    last = t;
    if (i % 3 == 0) {
      j += x(10, "parentA", t, 8000) + x(10, "childA", t + 1000, 2000);
      w.slicesA += 2;
    } else if (i % 3 == 1) {
      const bool mismatch = (i / 3) % 50 == 0;
      j += be('B', "be", t) + be('E', mismatch ? "zz" : "be", t + 5000);
      w.slicesB += 1;
      w.mismatches += mismatch;
    } else {
      // One parent in 20 after its child: a few slices out of place (the in-order ones are
      // kept, the others sorted and merged in).
      if ((i / 3) % 20 == 0) j += x(12, "childC", t + 1000, 2000) + x(12, "parentC", t, 8000);
      else j += x(12, "parentC", t, 8000) + x(12, "childC", t + 1000, 2000);
      w.slicesC += 2;
      if ((i / 3) % 40 == 0) {
        j += x(12, "overlapC", t + 6000, 6000);  // starts in parentC, ends after it
        w.slicesC += 1;
        w.overlaps += 1;
      }
    }
    if (i % 7 == 0) {
      j += R"({"ph":"C","name":"mem","pid":1,"tid":0,"ts":")" + us(t + 500) + R"(","args":{"a":)" + std::to_string(i) +
           R"(,"b":)" + std::to_string(2 * i) + "}},";
      w.samples += 1;
    }
    if (i % 30 != 0 || i + 2 >= n) continue;
    // Flow k: s in childA of step i, f in the B/E slice of step i+1 (bp:"e").
    const int k = i / 30;
    const std::string id = std::to_string(k);
    const std::string s = flow('s', 10, t + 1500, id, "n", false);
    const std::string f = flow('f', 11, t + 11000, id, "n", true);
    switch (k % 10) {
      case 1: j += f + s; w.bound += 1; break;                       // f first: waits for its s
      case 2: j += s + f + flow('f', 12, t + 21500, id, "n", true);  // fan-out to childC of i+2
        w.bound += 2;
        break;
      case 3: j += s; w.startNoEnd += 1; break;
      case 4: j += f; w.endNoStart += 1; break;
      case 5: j += flow('t', 10, t + 1500, id, "n", false); w.stepNoStart += 1; break;
      case 6: {
        const std::string name = "inv" + id;
        j += flow('s', 10, t + 1500, "", name, false) + flow('f', 11, t + 11000, "", name, true);
        w.invalidId += 1;
        break;
      }
      case 7: j += flow('s', 99, t + 1500, id, "n", false) + f; w.unbound += 1; break;  // tid 99: no slices
      case 8: {
        const std::string text = "\"x" + id + "\"";
        j += flow('s', 10, t + 1500, text, "n", false) + flow('f', 11, t + 11000, text, "n", true);
        w.bound += 1;
        break;
      }
      case 9: j += s + flow('f', 11, t + 9500, id, "n", false); w.bound += 1; break;  // next slice: B at t+10000
      default: j += s + f; w.bound += 1; break;
    }
  }
  j += be('B', "never", last + 100'000);
  w.slicesB += 1;
  j += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},)";
  j += R"({"ph":"M","name":"thread_name","pid":1,"tid":10,"args":{"name":"A"}},)";
  j += R"({"ph":"M","name":"thread_name","pid":1,"tid":11,"args":{"name":"B"}},)";
  j += R"({"ph":"M","name":"thread_name","pid":1,"tid":12,"args":{"name":"C"}}])";
  return j;
}

}  // namespace

TEST_CASE("buildTrace: 1, 2 and 8 parts give the same trace - B/E, unsorted threads, overlaps, every kind of flow") {
  Written w;
  const std::string json = generateTrace(60000, w);
  REQUIRE(json.size() > 9u * 1024 * 1024);  // enough for 8 parts of at least 1 MiB
  std::vector<std::shared_ptr<core::Trace>> traces;
  for (unsigned parts : {1u, 2u, 8u}) traces.push_back(npuscope::test::loadMemory(json, parts));
  using W = core::ImportWarning;
  for (const auto& tp : traces) {
    const core::Trace& t = *tp;
    const int a = laneIndex(t, "Python", "A"), b = laneIndex(t, "Python", "B"), c = laneIndex(t, "Python", "C");
    REQUIRE(a >= 0);
    REQUIRE(b >= 0);
    REQUIRE(c >= 0);
    CHECK(t.lanes.size() == 3);
    CHECK(t.lanes[a].sliceCount() == w.slicesA);
    CHECK(t.lanes[b].sliceCount() == w.slicesB);
    CHECK(t.lanes[c].sliceCount() == w.slicesC);
    CHECK(t.lanes[a].depthCount() == 2);
    CHECK(t.lanes[b].depthCount() == 1);
    CHECK(t.lanes[c].depthCount() == 2);
    // Lane layout: inside a row, sorted by start and disjoint.
    for (const core::Lane& l : t.lanes)
      for (std::uint32_t d = 0; d < l.depthCount(); ++d)
        for (std::uint32_t i = l.rowBegin[d] + 1; i < l.rowBegin[d + 1]; ++i)
          if (!(l.start[i - 1] <= l.start[i] && l.end[i - 1] <= l.start[i])) FAIL("row not sorted/disjoint");
    // Children first in the file, parents at depth 0 all the same.
    CHECK(t.name(t.lanes[c].names[0]) == "parentC");
    CHECK(t.name(t.lanes[c].names[t.lanes[c].rowBegin[1]]) == "childC");
    std::size_t flagged = 0;
    for (auto f : t.lanes[c].flags) flagged += (f & core::kSlicePartialOverlap) != 0;
    CHECK(flagged == w.overlaps);
    const core::Lane& lb = t.lanes[b];
    CHECK((lb.flags.back() & core::kSliceUnfinished) != 0);  // the B never ended, last by start
    CHECK(t.name(lb.names.back()) == "never");
    CHECK(t.stats.count(W::OrphanEnd) == 1);
    CHECK(t.stats.count(W::UnterminatedBegin) == 1);
    CHECK(t.stats.count(W::EndNameMismatch) == w.mismatches);
    CHECK(t.stats.count(W::PartialOverlap) == w.overlaps);
    CHECK(t.flows.size() == w.bound);
    CHECK(t.unboundStarts.size() == w.unbound);
    CHECK(t.stats.count(W::FlowStartWithoutEnd) == w.startNoEnd);
    CHECK(t.stats.count(W::FlowEndWithoutStart) == w.endNoStart);
    CHECK(t.stats.count(W::FlowStepWithoutStart) == w.stepNoStart);
    CHECK(t.stats.count(W::InvalidFlowId) == w.invalidId);
    CHECK(t.stats.count(W::FlowNoEnclosingSlice) == w.unbound);
    for (const core::Flow& f : t.flows) {
      CHECK(t.sliceName(f.from) == "childA");  // the deepest slice around the s
      const std::string_view to = t.sliceName(f.to);
      if (to != "be" && to != "childC") FAIL("flow bound to " << to);
    }
    for (std::size_t i = 1; i < t.flows.size(); ++i)
      if (t.flows[i - 1].fromTs > t.flows[i].fromTs) FAIL("flows not sorted by fromTs");
    REQUIRE(t.counters.size() == 2);
    CHECK(t.counters[0].ts.size() == w.samples);
    CHECK(t.counters[1].ts.size() == w.samples);
  }
  // Identical whatever the number of parts, down to the warning examples.
  const core::Trace& ref = *traces[0];
  for (std::size_t k = 1; k < traces.size(); ++k) {
    const core::Trace& t = *traces[k];
    REQUIRE(t.lanes.size() == ref.lanes.size());
    for (std::size_t l = 0; l < ref.lanes.size(); ++l) {
      const core::Lane& x = ref.lanes[l];
      const core::Lane& y = t.lanes[l];
      CHECK(x.name == y.name);
      CHECK(x.start == y.start);
      CHECK(x.end == y.end);
      CHECK(x.flags == y.flags);
      CHECK(x.argsOffset == y.argsOffset);
      CHECK(x.argsLength == y.argsLength);
      CHECK(x.rowBegin == y.rowBegin);
      for (std::size_t i = 0; i < x.sliceCount(); ++i)
        if (ref.name(x.names[i]) != t.name(y.names[i]) || ref.name(x.categories[i]) != t.name(y.categories[i]))
          FAIL("name differs");
    }
    REQUIRE(t.flows.size() == ref.flows.size());
    for (std::size_t i = 0; i < ref.flows.size(); ++i) {
      const core::Flow& x = ref.flows[i];
      const core::Flow& y = t.flows[i];
      if (!(x.from == y.from && x.to == y.to && x.fromTs == y.fromTs && x.toTs == y.toTs &&
            ref.name(x.category) == t.name(y.category) && ref.name(x.name) == t.name(y.name)))
        FAIL("flow " << i << " differs");
    }
    CHECK(t.flowsByFrom == ref.flowsByFrom);
    CHECK(t.flowsByTo == ref.flowsByTo);
    REQUIRE(t.unboundStarts.size() == ref.unboundStarts.size());
    for (std::size_t i = 0; i < ref.unboundStarts.size(); ++i) {
      CHECK(t.unboundStarts[i].fromTs == ref.unboundStarts[i].fromTs);
      CHECK(t.unboundStarts[i].fromTid == ref.unboundStarts[i].fromTid);
      CHECK(t.unboundStarts[i].to == ref.unboundStarts[i].to);
    }
    CHECK(t.stats.counts == ref.stats.counts);
    CHECK(t.stats.examples == ref.stats.examples);
    for (std::size_t s = 0; s < ref.counters.size(); ++s) {
      CHECK(t.counters[s].ts == ref.counters[s].ts);
      CHECK(t.counters[s].value == ref.counters[s].value);
    }
    CHECK(t.range == ref.range);
  }
}

TEST_CASE("buildTrace: a stop request returns false and leaves nothing built") {
  Written w;
  const std::string json = generateTrace(3000, w);
  core::detail::ReadResult read = core::detail::readTraceEvents(json, 2, {});
  REQUIRE(read.error.empty());
  REQUIRE(!read.parts.empty());
  std::stop_source stop;
  stop.request_stop();
  core::Trace t;
  CHECK_FALSE(core::detail::buildTrace(std::move(read), t, stop.get_token()));
  CHECK(t.lanes.empty());
  CHECK(t.flows.empty());
  CHECK(t.counters.empty());
  CHECK(read.parts.empty());  // the import records are freed
}

TEST_CASE("buildFlowIndex equals a stable sort of the flows by (lane, slice index)") {
  // Two lanes: lane 0 with rows [0,3) [3,5) [5,6), lane 1 with one row of 4 slices.
  std::vector<core::Lane> lanes(2);
  lanes[0].start = {0, 10, 20, 1, 11, 2};
  lanes[0].end = {9, 19, 29, 5, 15, 3};
  lanes[0].rowBegin = {0, 3, 5, 6};
  lanes[1].start = {0, 10, 20, 30};
  lanes[1].end = {5, 15, 25, 35};
  lanes[1].rowBegin = {0, 4};
  std::vector<core::Flow> flows;
  // Every (lane, index) pair several times, in a scrambled order: each row's indices out of
  // order somewhere, and ties (equal ends) whose order must be kept.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> refs{
      {1, 3}, {0, 4}, {0, 0}, {1, 0}, {0, 5}, {0, 3}, {1, 3}, {0, 2}, {0, 1}, {1, 2}, {0, 4}, {1, 1}, {0, 0}, {0, 3}};
  for (std::size_t i = 0; i < refs.size(); ++i) {
    core::Flow f;
    f.from = {refs[i].first, refs[i].second};
    f.to = {refs[refs.size() - 1 - i].first, refs[refs.size() - 1 - i].second};
    f.fromTs = static_cast<core::TimeNs>(i);
    flows.push_back(f);
  }
  // The expected order, written out by hand for `from`: lane 0 index 0 (flows 2, 12), 1 (8),
  // 2 (7), 3 (5, 13), 4 (1, 10), 5 (4); lane 1 index 0 (3), 1 (11), 2 (9), 3 (0, 6).
  std::vector<std::uint32_t> byFrom, byTo;
  core::detail::buildFlowIndex(flows, lanes, byFrom, byTo);
  CHECK(byFrom == std::vector<std::uint32_t>{2, 12, 8, 7, 5, 13, 1, 10, 4, 3, 11, 9, 0, 6});
  // `to` is `from` reversed: flow i's to is flow (13 - i)'s from.
  std::vector<std::uint32_t> expectTo;
  for (auto i : std::vector<std::uint32_t>{2, 12, 8, 7, 5, 13, 1, 10, 4, 3, 11, 9, 0, 6}) expectTo.push_back(13 - i);
  // Ties keep flow order: reverse each pair of equal refs.
  for (std::size_t k = 0; k + 1 < expectTo.size(); ++k)
    if (flows[expectTo[k]].to == flows[expectTo[k + 1]].to && expectTo[k] > expectTo[k + 1])
      std::swap(expectTo[k], expectTo[k + 1]);
  CHECK(byTo == expectTo);
  // A flow pointing outside the lanes: the plain stable sort, same order for the others.
  flows.push_back({core::kEmptyName, core::kEmptyName, {5, 0}, {0, 0}, 99, 99});
  core::detail::buildFlowIndex(flows, lanes, byFrom, byTo);
  CHECK(byFrom == std::vector<std::uint32_t>{2, 12, 8, 7, 5, 13, 1, 10, 4, 3, 11, 9, 0, 6, 14});
}

TEST_CASE("RawSlice packs args, phase and flags in one word - ranges beyond it go to the side table") {
  using core::detail::RawSlice;
  std::vector<core::detail::LongArgs> table;
  RawSlice r;
  r.setPh('E');
  r.setFlags(core::kSliceInstant | core::kSliceUnfinished);
  r.setArgs(123456789, 4321, table);
  CHECK(table.empty());
  CHECK(r.ph() == 'E');
  CHECK(r.flags() == (core::kSliceInstant | core::kSliceUnfinished));
  CHECK(r.argsOffset(&table) == 123456789u);
  CHECK(r.argsLength(&table) == 4321u);
  // The largest inline values, and one past each limit.
  const std::uint64_t maxOffset = (std::uint64_t{1} << 40) - 1;
  r.setArgs(maxOffset, RawSlice::kLongArgs - 1, table);
  CHECK(table.empty());
  CHECK(r.argsOffset(&table) == maxOffset);
  CHECK(r.argsLength(&table) == RawSlice::kLongArgs - 1);
  r.setArgs(maxOffset + 1, 7, table);
  REQUIRE(table.size() == 1);
  CHECK(r.argsOffset(&table) == maxOffset + 1);
  CHECK(r.argsLength(&table) == 7u);
  r.setArgs(5, 600000, table);
  REQUIRE(table.size() == 2);
  CHECK(r.argsOffset(&table) == 5u);
  CHECK(r.argsLength(&table) == 600000u);
  // Phase and flags survive setArgs, and the reverse.
  CHECK(r.ph() == 'E');
  CHECK(r.flags() == (core::kSliceInstant | core::kSliceUnfinished));
  r.setPh('B');
  r.setFlags(core::kSlicePartialOverlap);
  CHECK(r.argsLength(&table) == 600000u);
  CHECK(r.ph() == 'B');
  CHECK(r.flags() == core::kSlicePartialOverlap);
  r.setPh('X');
  CHECK(r.ph() == 'X');
}

TEST_CASE("args longer than RawSlice's packed length load exactly on every builder path") {
  // Args of 600 kB (beyond the 512 KiB packed limit) on: a sorted X lane (tid 1), an unsorted X
  // lane (tid 2: a parent after its child), a B/E lane (tid 3), in 1 and 2 parts. The expected
  // text is built here, not read back through the reader.
  const std::string big(600000, 'x');
  const auto args = [&](int i) { return R"({"k":")" + std::to_string(i) + big + R"("})"; };
  std::string j = "[";
  // Filler events so that two parts really split (1 MB per part minimum).
  for (int i = 0; i < 4; ++i) j += R"({"ph":"X","name":"pad","pid":1,"tid":9,"ts":")" + std::to_string(i) + R"(","dur":1,"args":)" + args(100 + i) + "},";
  j += R"({"ph":"X","name":"s1","pid":1,"tid":1,"ts":"10","dur":5,"args":)" + args(1) + "},";
  j += R"({"ph":"X","name":"s2","pid":1,"tid":1,"ts":"20","dur":5,"args":{"small":1}},)";
  j += R"({"ph":"X","name":"child","pid":1,"tid":2,"ts":"12","dur":2,"args":)" + args(2) + "},";
  j += R"({"ph":"X","name":"parent","pid":1,"tid":2,"ts":"10","dur":10,"args":)" + args(3) + "},";
  j += R"({"ph":"B","name":"be","pid":1,"tid":3,"ts":"10","args":)" + args(4) + "},";
  j += R"({"ph":"E","name":"be","pid":1,"tid":3,"ts":"30"},)";
  j += R"({"ph":"B","name":"open","pid":1,"tid":3,"ts":"40","args":)" + args(5) + "}]";
  for (unsigned threads : {1u, 2u}) {
    INFO("threads " << threads);
    const auto t = npuscope::test::loadMemory(j, threads);
    CHECK(t->argsText(findSlice(*t, "s1")) == args(1));
    CHECK(t->argsText(findSlice(*t, "s2")) == R"({"small":1})");
    CHECK(t->argsText(findSlice(*t, "child")) == args(2));
    CHECK(t->argsText(findSlice(*t, "parent")) == args(3));
    CHECK(t->argsText(findSlice(*t, "be")) == args(4));
    CHECK(t->argsText(findSlice(*t, "open")) == args(5));
    for (int i = 0; i < 4; ++i) CHECK(t->argsText(findSlice(*t, "pad", i)) == args(100 + i));
    CHECK(t->lanes[findSlice(*t, "child").lane].depthOf(findSlice(*t, "child").index) == 1);
    CHECK((t->lanes[findSlice(*t, "open").lane].flags[findSlice(*t, "open").index] & core::kSliceUnfinished) != 0);
  }
}

TEST_CASE("informational overlaps are flagged apart from partial overlaps (not drawn as alarms)", "[import]") {
  // The 910B Level1 capture, rank 0, Ascend Hardware / Stream 4: 308 tasks; nested by start (the
  // longer first), 78 start under 1 us before the open task ends (device clock rounding) and 50
  // more overlap it by longer, all HCCL tasks (Notify Wait, SDMA: running at once). Counted by a
  // Python pass over trace_view.json's X events of that stream (ts/dur as decimals, ns).
  const auto t = npuscope::test::load(
      npuscope::test::shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
  const int stream4 = npuscope::test::laneIndex(*t, "Ascend Hardware", "Stream 4");
  REQUIRE(stream4 >= 0);
  const core::Lane& lane = t->lanes[static_cast<std::size_t>(stream4)];
  REQUIRE(lane.sliceCount() == 308);
  std::size_t minor = 0, partial = 0;
  for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
    minor += (lane.flags[i] & core::kSliceMinorOverlap) != 0;
    partial += (lane.flags[i] & core::kSlicePartialOverlap) != 0;
  }
  CHECK(minor == 78 + 50);
  CHECK(partial == 0);
  // The warnings count them as informational; a Python thread's real partial overlaps keep the
  // alarm flag (as many as the rank's PartialOverlap warnings: 10, on its Python main thread).
  CHECK(t->stats.count(core::ImportWarning::MinorOverlap) == 78);
  CHECK(t->stats.count(core::ImportWarning::ConcurrentCommTasks) == 50);
  std::size_t flagged = 0;
  for (const core::Lane& l : t->lanes)
    for (std::uint32_t i = 0; i < l.sliceCount(); ++i) flagged += (l.flags[i] & core::kSlicePartialOverlap) != 0;
  CHECK(flagged == t->stats.count(core::ImportWarning::PartialOverlap));
}
