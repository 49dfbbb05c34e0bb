// SPDX-License-Identifier: MIT
// Rank summaries (core/cluster/summary.h, summarize.h) and the one cross-rank stage they feed
// (analyzeCluster): a capture loaded in full and the same ranks summarized, written, read back and
// merged give the same profile_analysis on every multi-rank corpus capture; a summary is
// deterministic, small, and its reader refuses what it cannot read with a clear message.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/analysis/profile_analysis.h"
#include "core/analysis/rank_summary.h"
#include "core/cluster/summarize.h"
#include "core/cluster/summary.h"
#include "core/profile/profile.h"
#include "core/report/compare.h"
#include "tests/core/hccl_build.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;
using npuscope::test::TempDir;

namespace {

const char* const kMultiRank[] = {
    "corpus/ascend-pt-910b-l1-text-2rank",   "corpus/ascend-pt-910b-l0-text-2rank",
    "corpus/ascend-pt-910a-l0-text-2rank",   "corpus/ascend-pt-910b-db-2rank/level1",
    "corpus/ascend-pt-910b-db-2rank/level0", "corpus/ascend-pt-910a-db-2rank/level1",
    "corpus/ascend-pt-910a-db-2rank/level0", "corpus/mindspore-msprof-prof-2dev",
    "corpus/ascend-pt-cann83-l2-4rank-partial",
};

std::string fileBytes(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// A valid summary's text with `from` replaced by `to` (once).
std::string edited(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

}  // namespace

TEST_CASE("summaries: the stage on summaries read back equals the stage on the full load, every multi-rank corpus capture",
          "[summary][cluster]") {
  for (const char* rel : kMultiRank) {
    INFO(rel);
    const auto r = core::loadProfile(shared(rel));
    REQUIRE(r.ok());
    REQUIRE(r.profile->analysis);
    const std::string full = core::profileAnalysisJson(*r.profile->analysis);
    core::RankSummaries read;
    for (const core::RankProfile& rp : r.profile->ranks) {
      core::RankSummary s = core::summarizeRank(rp);
      core::addRankAnalyses(s, rp);
      const std::string text = core::summaryJson(s);
      CHECK(core::summaryJson(s) == text);  // deterministic
      auto back = std::make_shared<core::RankSummary>();
      std::string error;
      REQUIRE(core::parseSummaryJson(text, *back, error));
      CHECK(error.empty());
      CHECK(core::summaryJson(*back) == text);  // what is read is what was written
      read.push_back(std::move(back));
    }
    const core::ProfileAnalysis merged = core::analyzeCluster(read);
    CHECK(core::profileAnalysisJson(merged) == full);
    CHECK(merged.findings == r.profile->analysis->findings);
    // What summarize writes: at most 1.5% of each rank's trace (or database) on disk (the corpus traces
    // are small, 0.7-2.2 MB: the summary's fixed part weighs most there; 0.36% on 1,024 generated ranks).
    TempDir dir("summary-size");
    const core::SummarizeResult written = core::summarizePath(shared(rel), dir.root.string());
    REQUIRE(written.error.empty());
    for (const core::SummarizedRank& w : written.ranks) {
      INFO(w.file);
      core::RankSummary s;
      std::string error;
      REQUIRE(core::readSummaryFile(w.file, s, error));
      if (s.traceBytes > 0) CHECK(std::filesystem::file_size(w.file) * 1000 <= s.traceBytes * 15);
    }
  }
}

TEST_CASE("summaries: summarizePath writes one small file per rank, the same bytes twice, and report reads the folder", "[summary][cluster]") {
  TempDir out("summarize");
  const std::string capture = shared("corpus/ascend-pt-910b-l1-text-2rank");
  core::SummarizeOptions options;
  options.host = "node-7";
  const core::SummarizeResult a = core::summarizePath(capture, (out.root / "a").string(), options);
  REQUIRE(a.error.empty());
  REQUIRE(a.ranks.size() == 2);
  CHECK(a.failed() == 0);
  options.jobs = 1;  // one worker: the same bytes whatever the order
  const core::SummarizeResult b = core::summarizePath(capture, (out.root / "b").string(), options);
  REQUIRE(b.ranks.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO(a.ranks[i].file);
    CHECK(std::filesystem::path(a.ranks[i].file).filename() == (i == 0 ? "rank00000.npuscope-summary.json.gz" : "rank00001.npuscope-summary.json.gz"));
    CHECK(fileBytes(a.ranks[i].file) == fileBytes(b.ranks[i].file));
    // At most 1% of the trace (trace_view.json: 2,218,825 and 2,200,746 bytes).
    const auto traceBytes = std::filesystem::file_size(capture + "/rank" + std::to_string(i) + "_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
    CHECK(std::filesystem::file_size(a.ranks[i].file) * 100 <= traceBytes);
    core::RankSummary s;
    std::string error;
    REQUIRE(core::readSummaryFile(a.ranks[i].file, s, error));
    CHECK(s.host == "node-7");
    CHECK(s.rank == static_cast<int>(i));
    CHECK(s.full);
    CHECK(s.ops.size() == 4);  // communication.json: 4 allReduce ops per rank
    CHECK(s.path == std::filesystem::canonical(capture + "/rank" + std::to_string(i) + "_ascend_pt").string());
  }
  // The folder of summaries is a capture: loaded without a trace, the stage as on the capture.
  const auto full = core::loadProfile(capture);
  const auto merged = core::loadProfile((out.root / "a").string());
  REQUIRE(merged.ok());
  REQUIRE(merged.profile->ranks.size() == 2);
  REQUIRE(merged.profile->ranks[0].summary);
  CHECK_FALSE(merged.profile->ranks[0].analysis);
  // Its lanes are drawn from the summary (core/cluster/summary_trace.h): steps, the 4 HCCL ops
  // (each op knowing its slice), the 10 longest bubbles.
  const auto& t = merged.profile->ranks[0].trace;
  REQUIRE(t);
  std::map<std::string, std::size_t> slices;
  for (const core::Lane& l : t->lanes) slices[l.name] = l.sliceCount();
  CHECK(slices["Steps"] == 1);
  CHECK(slices["Group 0 Communication"] == 4);
  CHECK(slices["Longest bubbles"] == core::kSummaryBubbles);
  for (const core::CommOp& op : merged.profile->ranks[0].summary->ops) {
    REQUIRE(op.slice.valid());
    CHECK(t->sliceName(op.slice) == op.name);
    CHECK(t->lanes[op.slice.lane].start[op.slice.index] == op.range.start);
  }
  CHECK(core::profileAnalysisJson(*merged.profile->analysis) == core::profileAnalysisJson(*full.profile->analysis));
}

TEST_CASE("summaries: a rank that cannot be read is written with its error and the others go on, and OUT inside PATH is refused",
          "[summary][cluster]") {
  TempDir dir("summarize-bad");
  // Rank 0 a good hand-built HCCL trace, rank 1 a trace that is not JSON.
  dir.write("cap/rank0_ascend_pt/profiler_info_0.json", R"({"rank_id": 0})");
  dir.write("cap/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", npuscope::test::hcclRankTrace(0, {0, 60}, false));
  dir.write("cap/rank1_ascend_pt/profiler_info_1.json", R"({"rank_id": 1})");
  dir.write("cap/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "this is not a trace");
  const std::string cap = (dir.root / "cap").string();
  const core::SummarizeResult r = core::summarizePath(cap, (dir.root / "out").string());
  REQUIRE(r.error.empty());
  REQUIRE(r.ranks.size() == 2);
  CHECK(r.failed() == 1);
  CHECK(r.ranks[0].error.empty());
  CHECK_FALSE(r.ranks[1].error.empty());
  core::RankSummary s;
  std::string error;
  REQUIRE(core::readSummaryFile(r.ranks[1].file, s, error));
  CHECK(s.error == r.ranks[1].error);
  CHECK(s.ops.empty());
  // Refused inside the folder read and inside a rank folder, and nothing written there.
  const core::SummarizeResult in = core::summarizePath(cap, (dir.root / "cap" / "summaries").string());
  CHECK(in.error.find("refusing to write summaries inside") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.root / "cap" / "summaries"));
  const core::SummarizeResult inRank = core::summarizePath((dir.root / "cap" / "rank0_ascend_pt").string(),
                                                           (dir.root / "cap" / "rank0_ascend_pt" / "x").string());
  CHECK(inRank.error.find("refusing to write summaries inside") != std::string::npos);
}

TEST_CASE("summaries: the reader says what is wrong and reads nothing else", "[summary][cluster]") {
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.ok());
  core::RankSummary s = core::summarizeRank(r.profile->ranks[0]);
  const std::string good = core::summaryJson(s);
  const auto bad = [](const std::string& text) {
    core::RankSummary out;
    std::string error;
    CHECK_FALSE(core::parseSummaryJson(text, out, error));
    return error;
  };
  CHECK(bad("").find("not JSON") == 0);
  CHECK(bad("[1, 2]") == "summary: not an object");
  CHECK(bad(good.substr(0, good.size() / 2)).find("not JSON") == 0);  // truncated
  CHECK(bad(edited(good, "\"npuscope.rank-summary\"", "\"other\"")).find("schema \"other\"") != std::string::npos);
  CHECK(bad(edited(good, "\"1.2\"", "\"2.0\"")) ==
        "summary: schema_version 2.0 is newer than this npuscope reads (1.x): summarize the rank again with this version");
  CHECK(bad(edited(good, "\"1.2\"", "\"one\"")).find("is not MAJOR.MINOR") != std::string::npos);
  CHECK(bad(edited(good, "\"rank\": 0", "\"rank\": 99999999999")) == "summary.rank: out of range");
  CHECK(bad(edited(good, "\"rank\": 0", "\"rank\": \"0\"")) == "summary.rank: not an integer in the int64 range");
  CHECK(bad(edited(good, "\"sequence\": 0", "\"sequence\": 1e300")) == "ops[0].sequence: not an integer in the int64 range");
  CHECK(bad(edited(good, "\"events\": 10112", "\"events\": NaN")).find("not JSON") == 0);
  CHECK(bad(edited(good, "\"label\": \"rank 0\", ", "")) == "summary: no \"label\"");
  CHECK(bad(edited(good, "\"range_ns\": [1736408883732241564, 1736408883811331084]",
                   "\"range_ns\": [1736408883811331084, 1736408883732241564]")) == "ops[0].range_ns: end before start");
  CHECK(bad(edited(good, "\"figures_ns\": [", "\"figures_ns\": [1, ")) == "ops[0].figures_ns: expected 5 numbers");
  CHECK(bad(edited(good, "\"parallel_groups\": []", "\"parallel_groups\": [[\"pp\", [0, -1]]]")) ==
        "summary.parallel_groups: rank out of range");
  CHECK(bad(edited(good, "\"parallel_groups\": []", "\"parallel_groups\": [[\"pp\"]]")) ==
        "summary.parallel_groups: expected [name, [ranks]]");
  // A minor version only adds keys: 1.7 with an unknown key reads.
  core::RankSummary out;
  std::string error;
  CHECK(core::parseSummaryJson(edited(edited(good, "\"1.2\"", "\"1.7\""), "\"rank\": 0", "\"later_key\": [1], \"rank\": 0"), out, error));
  CHECK(error.empty());
  // A 1.0 summary has no last_long_wait_end_ns: the blocked waits' end stands in for it.
  std::string old = edited(good, "\"1.2\"", "\"1.0\"");
  for (std::size_t at; (at = old.find(", \"last_long_wait_end_ns\": ")) != std::string::npos;)
    old.erase(at, old.find_first_of(",}", at + 2) - at);
  REQUIRE(old.find("last_long_wait_end_ns") == std::string::npos);
  REQUIRE(core::parseSummaryJson(old, out, error));
  REQUIRE(out.ops.size() == s.ops.size());
  for (const core::CommOp& op : out.ops) CHECK(op.lastLongWaitEnd == op.lastBlockedWaitEnd);
  // 1.2's parallel groups read back as written.
  REQUIRE(core::parseSummaryJson(edited(good, "\"parallel_groups\": []", "\"parallel_groups\": [[\"pp\", [0, 2]], [\"tp\", [0]]]"), out, error));
  REQUIRE(out.parallelGroups.size() == 2);
  CHECK(out.parallelGroups[0].name == "pp");
  CHECK(out.parallelGroups[0].ranks == std::vector<int>{0, 2});
  CHECK(out.parallelGroups[1].ranks == std::vector<int>{0});
  CHECK(core::parseSummaryJson(good, out, error));
  CHECK(std::any_of(out.ops.begin(), out.ops.end(), [](const core::CommOp& op) { return op.lastLongWaitEnd != op.lastBlockedWaitEnd; }));
}

TEST_CASE("summaries: compare on two folders of summaries says what compare on the captures says", "[summary][cluster][compare]") {
  // Level0 against Level1, database and text: the figures, steps, bubble causes and operator types
  // are the same; only the rows per input shapes may be cut (a note says so).
  const std::pair<const char*, const char*> pairs[] = {
      {"corpus/ascend-pt-910b-db-2rank/level0", "corpus/ascend-pt-910b-db-2rank/level1"},
      {"corpus/ascend-pt-910b-l0-text-2rank", "corpus/ascend-pt-910b-l1-text-2rank"},
  };
  for (const auto& [relA, relB] : pairs) {
    INFO(relA << " vs " << relB);
    TempDir dir("summary-compare");
    REQUIRE(core::summarizePath(shared(relA), (dir.root / "a").string()).error.empty());
    REQUIRE(core::summarizePath(shared(relB), (dir.root / "b").string()).error.empty());
    const auto fa = core::loadProfile(shared(relA)), fb = core::loadProfile(shared(relB));
    const auto sa = core::loadProfile((dir.root / "a").string()), sb = core::loadProfile((dir.root / "b").string());
    REQUIRE((fa.ok() && fb.ok() && sa.ok() && sb.ok()));
    const core::CompareResult full = core::compareProfiles(*fa.profile, *fb.profile);
    const core::CompareResult sum = core::compareProfiles(*sa.profile, *sb.profile);
    // A capture against its own summaries: no difference.
    CHECK(core::compareProfiles(*fa.profile, *sa.profile).noDifference);
    CHECK(core::compareProfiles(*sb.profile, *fb.profile).noDifference);
    CHECK(sum.verdict == full.verdict);
    REQUIRE(sum.ranks.size() == full.ranks.size());
    for (std::size_t i = 0; i < sum.ranks.size(); ++i) {
      const core::CompareRank &x = full.ranks[i], &y = sum.ranks[i];
      CHECK(x.rank == y.rank);
      REQUIRE((x.a && y.a && x.b && y.b));
      CHECK(x.a->e2e == y.a->e2e);
      CHECK(x.b->free == y.b->free);
      CHECK(x.steps.size() == y.steps.size());
      REQUIRE(x.operatorTypes.size() == y.operatorTypes.size());
      for (std::size_t k = 0; k < x.operatorTypes.size(); ++k) {
        CHECK(x.operatorTypes[k].key == y.operatorTypes[k].key);
        CHECK(x.operatorTypes[k].a == y.operatorTypes[k].a);
        CHECK(x.operatorTypes[k].bCount == y.operatorTypes[k].bCount);
      }
      REQUIRE(x.bubbleCauses.size() == y.bubbleCauses.size());
      for (std::size_t k = 0; k < x.bubbleCauses.size(); ++k) CHECK(x.bubbleCauses[k].delta() == y.bubbleCauses[k].delta());
      CHECK(y.operators.size() <= x.operators.size());
    }
  }
}

TEST_CASE("summaries: a folder mixing two runs says so: a rank read twice keeps its first file, another level is named",
          "[summary][cluster]") {
  // The 910B Level1 text capture summarized, then rank 0's summary of the Level0 capture copied in
  // as a third file: rank 0 twice (skipped, with a message) and another profiler level.
  TempDir dir("summary-mixed");
  const auto l1 = core::summarizePath(shared("corpus/ascend-pt-910b-l1-text-2rank"), (dir.root / "l1").string());
  const auto l0 = core::summarizePath(shared("corpus/ascend-pt-910b-l0-text-2rank"), (dir.root / "l0").string());
  REQUIRE(l1.error.empty());
  REQUIRE(l0.error.empty());
  REQUIRE(l0.ranks.size() == 2);
  std::filesystem::copy_file(l0.ranks[0].file, dir.root / "l1" / "rank00000-other.npuscope-summary.json.gz");
  const auto r = core::loadProfile((dir.root / "l1").string());
  REQUIRE(r.ok());
  CHECK(r.profile->ranks.size() == 2);
  bool twice = false;
  for (const std::string& m : r.profile->messages)
    // By name, "rank00000-other…" ('-' before '.') is read first: the Level1 rank 0 is skipped.
    twice = twice || m.find("rank00000.npuscope-summary.json.gz: rank 0 was read already from another summary: skipped") != std::string::npos;
  CHECK(twice);
  // Rank 0 of the Level0 capture with rank 1 of the Level1 one: another level than the first's.
  bool level = false;
  for (const std::string& m : r.profile->messages) level = level || m.find("another profiler level") != std::string::npos;
  CHECK(level);
}
