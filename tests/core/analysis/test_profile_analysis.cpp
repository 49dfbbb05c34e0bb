// SPDX-License-Identifier: MIT
// The profile-level stage (core/analysis/profile_analysis.h): per-rank Computing /
// Communication(Not Overlapped) / Free and msprof-analyze's slow-rank rule (format notes §4.5).
#include <catch2/catch.hpp>

#include "core/analysis/profile_analysis.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

core::StepTraceRow row(long long step, double computingUs, double commNotOverlappedUs, double freeUs, int device = -1) {
  core::StepTraceRow r;
  r.step = step;
  r.device = device;
  r.computing = computingUs;
  r.commNotOverlapped = commNotOverlappedUs;
  r.free = freeUs;
  return r;
}

/// A rank with only step_trace_time.csv rows (no trace), as a test can put together.
core::RankProfile csvRank(int rank, std::vector<core::StepTraceRow> rows) {
  core::RankProfile rp;
  rp.source.rank = rank;
  rp.source.label = "rank " + std::to_string(rank);
  rp.stepTrace = std::move(rows);
  return rp;
}

}  // namespace

TEST_CASE("profile analysis of the 910B 2-rank capture follows step_trace_time.csv", "[profile_analysis]") {
  // By hand from each rank's ASCEND_PROFILER_OUTPUT/step_trace_time.csv (one row, step 50), us:
  //   rank 0: Computing 8873.756000000001, Communication(Not Overlapped) 101963.203, Free 25744.050000000003
  //   rank 1: Computing 8878.295000000006, Communication(Not Overlapped)  96359.047, Free 26675.27399999998
  // In ns (rounded): rank 0 = 8873756 + 101963203 + 25744050 = 136581009,
  //                  rank 1 = 8878295 +  96359047 + 26675274 = 131912616; mean 268493625 / 2 = 134246812.5.
  //   Computing: (8878295 - 8873756) / 134246812.5 = 4539 / 134246812.5 = 0.0000338, max on rank 1
  //   Comm(NO):  (101963203 - 96359047) / 134246812.5 = 5604156 / 134246812.5 = 0.0417452, max on rank 0
  //   Free:      (26675274 - 25744050) / 134246812.5 = 931224 / 134246812.5 = 0.0069367, max on rank 1
  // All <= 0.05: no bottleneck.
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->analysis);
  const core::ProfileAnalysis& a = *r.profile->analysis;
  REQUIRE(a.ranks.size() == 2);
  CHECK(a.ranks[0].rank == 0);
  CHECK(a.ranks[1].rank == 1);
  for (const auto& f : a.ranks) CHECK(f.source == "step_trace_time.csv");
  CHECK(a.ranks[0].computing == 8873756);
  CHECK(a.ranks[0].commNotOverlapped == 101963203);
  CHECK(a.ranks[0].free == 25744050);
  CHECK(a.ranks[1].computing == 8878295);
  CHECK(a.ranks[1].commNotOverlapped == 96359047);
  CHECK(a.ranks[1].free == 26675274);
  CHECK(a.ranks[0].total() == 136581009);
  CHECK(a.ranks[1].total() == 131912616);
  CHECK(a.meanTotal == Approx(134246812.5));
  REQUIRE(a.slowRank.size() == 3);
  CHECK(a.slowRank[0].name == "Computing");
  CHECK(a.slowRank[0].max - a.slowRank[0].min == 4539);
  CHECK(a.slowRank[0].maxRank == 1);
  CHECK(a.slowRank[0].ratio == Approx(0.0000338109).epsilon(1e-5));
  CHECK(a.slowRank[1].name == "Communication(Not Overlapped)");
  CHECK(a.slowRank[1].max - a.slowRank[1].min == 5604156);
  CHECK(a.slowRank[1].maxRank == 0);
  CHECK(a.slowRank[1].ratio == Approx(0.0417452).epsilon(1e-5));
  CHECK(a.slowRank[2].name == "Free");
  CHECK(a.slowRank[2].max - a.slowRank[2].min == 931224);
  CHECK(a.slowRank[2].maxRank == 1);
  CHECK(a.slowRank[2].ratio == Approx(0.0069367).epsilon(1e-4));
  CHECK(a.bottlenecks().empty());
  // The report: a top-level "profile_analysis" object and one text line.
  const std::string json = core::reportJson(*r.profile);
  CHECK(json.find("\"profile_analysis\": {\"ranks\": [{\"rank\": 0, \"device\": ") != std::string::npos);
  CHECK(json.find("\"communication_not_overlapped_us\": 101963.203") != std::string::npos);
  CHECK(json.find("\"max_rank\": 0, \"ratio\": 0.0417452, \"bottleneck\": false") != std::string::npos);
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("no bottleneck; largest gap Communication(Not Overlapped) 4.17% (max on rank 0)") != std::string::npos);
}

TEST_CASE("slow-rank rule: a gap above 5 percent of the mean rank time is a bottleneck", "[profile_analysis]") {
  // Rank 0 over two steps: Computing 50+50 = 100 us, Comm(NO) 10+10 = 20 us, Free 5+5 = 10 us: total 130 us.
  // Rank 1 in one step: 100, 30, 10 us: total 140 us. Mean 135 us.
  // Comm(NO): (30 - 20) / 135 = 0.0741 > 0.05 -> bottleneck, max on rank 1; Computing and Free: 0.
  core::Profile p;
  p.ranks.push_back(csvRank(0, {row(1, 50, 10, 5), row(2, 50, 10, 5)}));
  p.ranks.push_back(csvRank(1, {row(1, 100, 30, 10)}));
  const core::ProfileAnalysis a = core::analyzeProfile(p);
  REQUIRE(a.ranks.size() == 2);
  CHECK(a.ranks[0].computing == 100'000);
  CHECK(a.ranks[0].total() == 130'000);
  CHECK(a.meanTotal == Approx(135'000.0));
  const auto bad = a.bottlenecks();
  REQUIRE(bad.size() == 1);
  CHECK(bad[0]->name == "Communication(Not Overlapped)");
  CHECK(bad[0]->maxRank == 1);
  CHECK(bad[0]->maxRankIndex == 1);
  CHECK(bad[0]->ratio == Approx(10.0 / 135.0));
  CHECK(core::profileAnalysisLine(a).find("Communication(Not Overlapped) 7.41% (max on rank 1)") != std::string::npos);
  CHECK(core::profileAnalysisJson(a).find("\"bottleneck\": true") != std::string::npos);
}

TEST_CASE("slow-rank rule: exactly 5 percent is not a bottleneck, the rule is strict", "[profile_analysis]") {
  // Computing 97.5 and 102.5 us, nothing else: mean 100 us, (102.5 - 97.5) / 100 = 0.05, not > 0.05.
  core::Profile p;
  p.ranks.push_back(csvRank(0, {row(1, 97.5, 0, 0)}));
  p.ranks.push_back(csvRank(1, {row(1, 102.5, 0, 0)}));
  const core::ProfileAnalysis a = core::analyzeProfile(p);
  REQUIRE(a.slowRank.size() == 3);
  CHECK(a.slowRank[0].ratio == Approx(0.05));
  CHECK_FALSE(a.slowRank[0].bottleneck);
  CHECK(a.slowRank[0].maxRank == 1);
  // 0.1 us more on rank 1: (102.6 - 97.5) / 100.05 = 0.05097 -> bottleneck.
  p.ranks[1].stepTrace[0].computing = 102.6;
  CHECK(core::analyzeProfile(p).slowRank[0].bottleneck);
}

TEST_CASE("profile analysis: one rank has figures but no slow-rank rule, a rank without figures is left out", "[profile_analysis]") {
  core::Profile p;
  // Rows of devices 1 and 0: the lowest device (0) is taken: 7 + 2 + 1 us.
  p.ranks.push_back(csvRank(0, {row(1, 3, 3, 3, 1), row(1, 7, 2, 1, 0)}));
  p.ranks.push_back(csvRank(1, {}));
  const core::ProfileAnalysis a = core::analyzeProfile(p);
  REQUIRE(a.ranks.size() == 1);
  CHECK(a.ranks[0].device == 0);
  CHECK(a.ranks[0].computing == 7'000);
  CHECK(a.ranks[0].total() == 10'000);
  CHECK(a.slowRank.empty());
  REQUIRE(a.notes.size() == 1);
  CHECK(a.notes[0].find("rank 1: no device figures") == 0);
  CHECK(core::profileAnalysisJson(a).find("\"slow_rank\": null") != std::string::npos);
  // A single file with no step_trace_time.csv: figures from the trace itself (case 15's file has
  // no Ascend Hardware lane, so none at all).
  const auto r = core::loadProfile(shared("cases/15-array-no-closing-bracket/a_unterminated.json"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->analysis);
  CHECK(r.profile->analysis->ranks.empty());
  CHECK(r.profile->analysis->slowRank.empty());
}

namespace {
core::ParallelGroup group(std::string name, std::vector<int> ranks) { return {std::move(name), std::move(ranks)}; }
}  // namespace

TEST_CASE("pipeline stages: the pp groups link the pipelines, the groups inside one stage make the stages", "[profile_analysis]") {
  // By hand, 8 ranks TP2 / PP2 / DP2 (Megatron order): pp {0,4} {1,5} {2,6} {3,7}; tp {0,1} {2,3}
  // {4,5} {6,7}; dp {0,2} {1,3} {4,6} {5,7}; default_group and embd {0,4} cross the stages (two
  // ranks of one pipeline) and are skipped: stages {0,1,2,3} and {4,5,6,7}.
  auto s = std::make_shared<core::RankSummary>();
  s->parallelGroups = {group("default_group", {0, 1, 2, 3, 4, 5, 6, 7}), group("embd", {0, 4}), group("pp", {0, 4}),
                       group("pp", {1, 5}), group("pp", {2, 6}), group("pp", {3, 7}), group("tp", {0, 1}),
                       group("tp", {2, 3}), group("tp", {4, 5}), group("tp", {6, 7}), group("dp", {0, 2}),
                       group("dp", {1, 3}), group("dp", {4, 6}), group("dp", {5, 7})};
  const auto stages = core::pipelineStages({s});
  REQUIRE(stages.size() == 2);
  CHECK(stages[0] == std::vector<int>{0, 1, 2, 3});
  CHECK(stages[1] == std::vector<int>{4, 5, 6, 7});
  // Without a pp group there are no stages (nothing tells a pipeline).
  auto t = std::make_shared<core::RankSummary>();
  t->parallelGroups = {group("tp", {0, 1}), group("dp", {0, 2})};
  CHECK(core::pipelineStages({t}).empty());
}

TEST_CASE("slow-rank rule: ranks are compared within their pipeline stage, never across", "[profile_analysis]") {
  // Stage 0 = ranks 0, 1 computes 100 us a step; stage 1 = ranks 2, 3 computes 200 us (a last stage
  // computes more by design). Across all: (200 - 100) / 150 = 0.667, a bottleneck on rank 2; within
  // each stage the gap is 0: no bottleneck.
  core::Profile p;
  for (int r = 0; r < 4; ++r) {
    p.ranks.push_back(csvRank(r, {row(1, r < 2 ? 100 : 200, 0, 0)}));
    p.ranks.back().source.parallelGroups = {group("pp", {r % 2, r % 2 + 2}), group("dp", {r < 2 ? 0 : 2, r < 2 ? 1 : 3}),
                                            group("default_group", {0, 1, 2, 3})};
  }
  const core::ProfileAnalysis a = core::analyzeProfile(p);
  REQUIRE(a.stages.size() == 2);
  CHECK(a.stages[0] == std::vector<int>{0, 1});
  CHECK(a.bottlenecks().empty());
  REQUIRE(a.slowRank.size() == 3);
  CHECK(a.slowRank[0].ratio == Approx(0.0));
  CHECK(core::profileAnalysisJson(a).find("\"pipeline_stages\": [[0, 1], [2, 3]]") != std::string::npos);
  // Without the groups, the same figures compared across stages name rank 2.
  for (auto& rp : p.ranks) rp.source.parallelGroups.clear();
  const core::ProfileAnalysis b = core::analyzeProfile(p);
  CHECK(b.stages.empty());
  REQUIRE(b.bottlenecks().size() == 1);
  CHECK(b.bottlenecks()[0]->maxRank == 2);
  CHECK(b.bottlenecks()[0]->ratio == Approx(100.0 / 150.0));
}

TEST_CASE("corpus: the TP1/PP2/DP2 capture's ranks are compared within their stages", "[profile_analysis][corpus]") {
  // profiler_metadata.json: pp {0,2} {1,3}, dp_cp {0,1} {2,3} -> stages {0,1} and {2,3}. Each
  // rank's step_trace_time.csv (step 13, us): Computing 231290.1 / 230903.72 / 400448.26 /
  // 401131.7; Comm(NO) 420174.26 / 441708.38 / 277649.66 / 261498.44; Free 158558.0 / 136819.56 /
  // 131705.28 / 147520.2. Across stages Computing differs by 21% (the old "slow rank 3"); within
  // them the widest gap is stage 0's Free: (158558.0 - 136819.56) / mean(810022.36, 809431.66).
  auto r = core::loadProfile(shared("corpus/ascend-pt-cann83-l2-4rank-partial"));
  REQUIRE(r.ok());
  const core::ProfileAnalysis& a = *r.profile->analysis;
  REQUIRE(a.stages.size() == 2);
  CHECK(a.stages[0] == std::vector<int>{0, 1});
  CHECK(a.stages[1] == std::vector<int>{2, 3});
  CHECK(a.bottlenecks().empty());
  REQUIRE(a.slowRank.size() == 3);
  CHECK(a.slowRank[2].name == "Free");
  CHECK(a.slowRank[2].stage == 0);
  CHECK(a.slowRank[2].maxRank == 0);
  CHECK(a.slowRank[2].ratio == Approx((158558.0 - 136819.56) / ((810022.36 + 809431.66) / 2)).epsilon(1e-6));
  CHECK(a.slowRank[0].ratio == Approx((401131.7 - 400448.26) / ((809803.2 + 810150.34) / 2)).epsilon(1e-6));
}
