// SPDX-License-Identifier: MIT
// Two captures compared (core/report/compare.h): the corpus 910B Level0 and Level1 text captures
// against tools/oracles/compare_oracle.py, which reads the profiler's own step_trace_time.csv and
// kernel_details.csv files (tests/data/compare_oracle.json:
//   python3 tools/oracles/compare_oracle.py --json tests/data/compare_oracle.json);
// a capture against itself; captures with other rank counts and formats.

#include <catch2/catch.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <simdjson.h>

#include "core/profile/profile.h"
#include "core/report/compare.h"
#include "core/report/report.h"
#include "core/analysis/rank_summary.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

std::shared_ptr<core::Profile> loadCapture(const std::string& rel) {
  auto r = core::loadProfile(shared("corpus/" + rel));
  REQUIRE(r.profile);
  return r.profile;
}

const core::CompareRow* rowOf(const std::vector<core::CompareRow>& rows, const std::string& key) {
  for (const auto& r : rows)
    if (r.key == key) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("compare: Level0 vs Level1 deltas equal the profiler's CSV differences (compare_oracle.py)", "[compare][oracle][corpus]") {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.load(std::string(NPUSCOPE_SOURCE_DIR) + "/tests/data/compare_oracle.json").get(root) == simdjson::SUCCESS);
  std::size_t steps = 0, types = 0;
  for (simdjson::dom::element pair : root["pairs"].get_array()) {
    const std::string a(std::string_view(pair["a"].get_string())), b(std::string_view(pair["b"].get_string()));
    INFO(a << " vs " << b);
    const auto pa = loadCapture(a), pb = loadCapture(b);
    const core::CompareResult r = core::compareProfiles(*pa, *pb);
    for (simdjson::dom::element rank : pair["ranks"].get_array()) {
      const int id = static_cast<int>(int64_t(rank["rank"]));
      INFO("rank " << id);
      const core::CompareRank* ours = nullptr;
      for (const auto& k : r.ranks)
        if (k.rank == id) ours = &k;
      REQUIRE(ours);
      for (simdjson::dom::element s : rank["steps"].get_array()) {
        const long long n = int64_t(s["step"]);
        const core::CompareStep* st = nullptr;
        for (const auto& x : ours->steps)
          if (x.step == n) st = &x;
        REQUIRE(st);
        REQUIRE(st->a);
        REQUIRE(st->b);
        auto d = [&](core::TimeNs core::OverlapFigures::*m) { return static_cast<double>((*st->b).*m - (*st->a).*m) / 1e3; };
        CHECK(d(&core::OverlapFigures::computing) == Approx(double(s["computing_us"])).margin(1.0));
        CHECK(d(&core::OverlapFigures::commNotOverlapped) == Approx(double(s["communication_not_overlapped_us"])).margin(1.0));
        CHECK(d(&core::OverlapFigures::free) == Approx(double(s["free_us"])).margin(1.0));
        CHECK(d(&core::OverlapFigures::e2e) == Approx(double(s["stage_us"])).margin(1.0));
        ++steps;
      }
      std::size_t oracleTypes = 0;
      for (simdjson::dom::element t : rank["operator_types"].get_array()) {
        const std::string key(std::string_view(t["type"].get_string()));
        INFO(key);
        const core::CompareRow* row = rowOf(ours->operatorTypes, key);
        REQUIRE(row);
        CHECK(static_cast<double>(row->delta()) / 1e3 == Approx(double(t["delta_us"])).margin(0.002));
        CHECK(row->aCount == uint64_t(t["a_count"]));
        CHECK(row->bCount == uint64_t(t["b_count"]));
        ++oracleTypes;
        ++types;
      }
      CHECK(ours->operatorTypes.size() == oracleTypes);
    }
  }
  CHECK(steps == 4);
  CHECK(types > 100);
}

TEST_CASE("compare: other profiler settings are said, and the verdict points at them", "[compare][corpus]") {
  // profiler_info_0.json of each (read by hand): _profiler_level Level0 / Level1, _aic_metrics
  // ACL_AICORE_NONE / ACL_AICORE_PIPE_UTILIZATION; activities, record_shapes, with_stack,
  // profile_memory and _export_type are the same on both.
  const auto a = loadCapture("ascend-pt-910b-l0-text-2rank");
  const auto b = loadCapture("ascend-pt-910b-l1-text-2rank");
  const core::CompareResult r = core::compareProfiles(*a, *b);
  std::size_t settings = 0;
  for (const std::string& n : r.notes)
    if (n.starts_with("the captures were taken with other profiler settings")) ++settings;
  CHECK(settings == 2);
  const auto has = [&](const std::string& part) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
  };
  CHECK(has("profiler_level is Level0 in A and Level1 in B"));
  CHECK(has("aic_metrics is ACL_AICORE_NONE in A and ACL_AICORE_PIPE_UTILIZATION in B"));
  CHECK(r.verdict.find("the captures' profiler settings differ") != std::string::npos);
  CHECK_FALSE(r.noDifference);
  // Level0 records no CANN layer (A: no CANN lane at all): every bubble cause row is listed but
  // marked, and B's aclop_execute bubbles are never read as the run's change.
  for (const auto& rank : a->ranks)
    for (const auto& lane : rank.trace->lanes) CHECK(rank.trace->processes[lane.process].role != core::Process::Role::Cann);
  for (const core::CompareRank& k : r.ranks) {
    REQUIRE_FALSE(k.bubbleCauses.empty());
    for (const core::CompareRow& row : k.bubbleCauses) CHECK(row.notComparable == "A is Level0, which records no CANN layer");
    CHECK(std::count_if(k.notes.begin(), k.notes.end(), [](const std::string& n) { return n.starts_with("bubble causes are not compared"); }) == 1);
  }
  CHECK(core::compareJson(r).find("\"not_comparable\": \"A is Level0, which records no CANN layer\"") != std::string::npos);
  // Two Level1 captures compare their causes.
  const core::CompareResult same = core::compareProfiles(*b, *b);
  for (const core::CompareRank& k : same.ranks)
    for (const core::CompareRow& row : k.bubbleCauses) CHECK(row.notComparable.empty());
}

TEST_CASE("compare: a capture against itself says no difference", "[compare][corpus]") {
  for (const char* rel : {"ascend-pt-910b-l1-text-2rank", "ascend-pt-910a-db-2rank/level1"}) {
    INFO(rel);
    const auto p = loadCapture(rel);
    const auto q = loadCapture(rel);
    const core::CompareResult r = core::compareProfiles(*p, *q);
    CHECK(r.noDifference);
    CHECK(r.verdict.starts_with("no difference"));
    for (const auto& k : r.ranks) {
      REQUIRE(k.a);
      REQUIRE(k.b);
      CHECK(k.b->e2e - k.a->e2e == 0);
      for (const auto& t : k.operatorTypes) CHECK(t.delta() == 0);
    }
    CHECK(core::compareJson(r).find("\"no_difference\": true") != std::string::npos);
  }
}

TEST_CASE("compare: other rank counts and formats compare what pairs and say what does not", "[compare][corpus]") {
  // Text (2 ranks) against one rank of the same capture's text: rank 1 only in A.
  const auto two = loadCapture("ascend-pt-910b-l1-text-2rank");
  const auto one = loadCapture("ascend-pt-910b-l1-text-2rank/rank0_ascend_pt");
  const core::CompareResult r = core::compareProfiles(*two, *one);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes.front() == "rank 1 is only in A: not compared");
  CHECK(r.noDifference == false);
  // Rank 0 is the same on both sides.
  for (const auto& k : r.ranks)
    if (k.rank == 0) CHECK(k.b->e2e == k.a->e2e);
  // The .db export against the text export of another capture: paired by rank id, both sides shown.
  const auto db = loadCapture("ascend-pt-910b-db-2rank/level1");
  const core::CompareResult x = core::compareProfiles(*two, *db);
  CHECK(x.ranks.size() == 2);
  for (const auto& k : x.ranks) {
    CHECK(k.a);
    CHECK(k.b);
  }
  CHECK_FALSE(x.verdict.empty());
  CHECK_FALSE(x.noDifference);
  // The .db's kernel table has no HCCL rows (COMPUTE_TASK_INFO): they are left out on both sides
  // rather than shown as 4 allReduces that vanished.
  for (const auto& k : x.ranks) {
    for (const auto& t : k.operatorTypes) CHECK_FALSE(t.key.starts_with("hcom_"));
    bool said = false;
    for (const auto& n : k.notes) said = said || n.find("communication ops") != std::string::npos;
    CHECK(said);
  }
  // Two one-rank captures are paired whatever their rank ids (a Kineto trace has none).
  const auto gpu = loadCapture("kineto-hta-alexnet-cuda");
  const core::CompareResult g = core::compareProfiles(*gpu, *one);
  REQUIRE(g.ranks.size() == 1);
  CHECK(g.ranks.front().a);
  CHECK(g.ranks.front().b);
  bool kindSaid = false;
  for (const auto& n : g.notes) kindSaid = kindSaid || n.find("GPU trace") != std::string::npos;
  CHECK(kindSaid);
}

TEST_CASE("compare: a side whose computed figures differ from its own records says so, naming the source", "[compare]") {
  // Case 34 with_overlap as A; B the same trace with its step_trace_time.csv's step 2 Free edited
  // from 100.0 to 150.0 us: B's computed step 2 Free (100 us, as the case says) now differs from
  // its record by 50 us.
  namespace fs = std::filesystem;
  const fs::path src = shared("cases/34-step-trace-time-and-missing-overlap/with_overlap");
  test::TempDir dir("cmp-recorded");
  fs::copy_file(src / "trace_view.json", dir.root / "trace_view.json");
  {
    std::ifstream in(src / "step_trace_time.csv");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = "0,2,500.0,0,0,0,100.0,600.0", to = "0,2,500.0,0,0,0,150.0,600.0";
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
    std::ofstream(dir.root / "step_trace_time.csv") << text;
  }
  auto a = core::loadProfile((src / "trace_view.json").string()), b = core::loadProfile((dir.root / "trace_view.json").string());
  REQUIRE((a.ok() && b.ok()));
  const core::CompareResult r = core::compareProfiles(*a.profile, *b.profile);
  REQUIRE(r.ranks.size() == 1);
  const auto& notes = r.ranks[0].notes;
  const auto it = std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("B's figures are computed"); });
  REQUIRE(it != notes.end());
  CHECK(it->find("step 2 Free") != std::string::npos);
  CHECK(it->find("step_trace_time.csv 150.000 us") != std::string::npos);
  CHECK(std::none_of(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("A's figures are computed"); }));
  // The computed figures are the same, and the verdict says the records are not.
  CHECK(r.verdict.starts_with("no difference"));
  CHECK(r.verdict.find("a side's own records differ: see the notes") != std::string::npos);
}

TEST_CASE("a database capture's recorded step figures are named analysis.db StepTraceTime, never step_trace_time.csv", "[compare][corpus]") {
  // The export has no step_trace_time.csv (listed by hand: ASCEND_PROFILER_OUTPUT holds the .db
  // and analysis.db only).
  const auto p = loadCapture("ascend-pt-910b-db-2rank/level1");
  for (const auto& rank : p->ranks) {
    REQUIRE_FALSE(rank.stepTrace.empty());
    for (const auto& row : rank.stepTrace) CHECK(row.source == "analysis.db StepTraceTime");
    CHECK(core::summarizeRank(rank).figuresSource == "analysis.db StepTraceTime");
  }
  const std::string text = core::reportText(*p);
  CHECK(text.find("analysis.db StepTraceTime: Computing") != std::string::npos);
  CHECK(text.find("step_trace_time.csv") == std::string::npos);
}
