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
