// SPDX-License-Identifier: MIT
// Nesting, B/E matching, flows, async tracks and display order, on ../shared/cases (expected values
// from each case.md) and on hand-built inputs.
#include <catch2/catch.hpp>

#include "core/slice_builder.h"
#include "core/trace.h"
#include "test_util.h"

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

TEST_CASE("case 06: partial overlaps are kept and flagged; nesting ignores file order") {
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

TEST_CASE("case 10: flow ids as numbers, hex and decimal strings; id reuse; async id2") {
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
