// SPDX-License-Identifier: MIT
// Keeping captures apart (discoverProfile groups rank folders into captures and loads one) and
// msprof's own SQLite export (msprof_{ts}.db) found in PROF_ trees and loose folders.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/profile/profile.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;
namespace fs = std::filesystem;

namespace {

/// The parent folder name of each rank's root ("level0", ...), sorted.
std::multiset<std::string> parents(const std::vector<core::RankSource>& ranks) {
  std::multiset<std::string> out;
  for (const auto& r : ranks) out.insert(fs::path(r.root).parent_path().filename().string());
  return out;
}

/// A torch_npu rank folder with a trace and a profiler_info_{rank}.json recording its level and
/// collection end time (epoch ns).
void writeRank(const npuscope::test::TempDir& d, const std::string& folder, int rank, const std::string& level,
               long long endNs) {
  d.write(folder + "/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]");
  d.write(folder + "/profiler_info_" + std::to_string(rank) + ".json",
          "{\"config\": {\"experimental_config\": {\"_profiler_level\": \"" + level +
              "\"}}, \"end_info\": {\"collectionTimeEnd\": " + std::to_string(endNs) + "}, \"rank_id\": " +
              std::to_string(rank) + "}");
}

}  // namespace

TEST_CASE("captures: a folder with a Level0 and a Level1 run loads the newest, lists both", "[profile][captures]") {
  // `find ascend-pt-910b-db-2rank -type d -name '*_ascend_pt'` lists 4 rank folders:
  // level0/rank0, level0/rank1, level1/rank0, level1/rank1. Their profiler_info_N.json (Python
  // json.load): _profiler_level Level0 / Level1, end_info.collectionTimeEnd 1736407068203015510
  // and 1736407068206619720 (level0), 1736410576713429440 and 1736410576718145480 (level1): the
  // level1 run is the newer. Same shape for ascend-pt-910a-db-2rank (level1 ends
  // 1727599959522302309, level0 1727598901741991904).
  for (const char* c : {"corpus/ascend-pt-910b-db-2rank", "corpus/ascend-pt-910a-db-2rank"}) {
    INFO(c);
    const auto layout = core::discoverProfile(shared(c));
    REQUIRE(layout.error.empty());
    REQUIRE(layout.captures.size() == 2);
    CHECK(layout.captures[0].name == "level0");
    CHECK(layout.captures[0].profilerLevel == "Level0");
    CHECK(layout.captures[0].ranks == 2);
    CHECK_FALSE(layout.captures[0].loaded);
    CHECK(layout.captures[1].name == "level1");
    CHECK(layout.captures[1].profilerLevel == "Level1");
    CHECK(layout.captures[1].loaded);
    CHECK(parents(layout.ranks) == std::multiset<std::string>{"level1", "level1"});
    REQUIRE(!layout.messages.empty());
    CHECK(layout.messages.front().find("2 captures") != std::string::npos);
    CHECK(layout.messages.front().find("Loaded level1 only") != std::string::npos);

    // Asked by name or number: the other one.
    const auto l0 = core::discoverProfile(shared(c), "level0");
    CHECK(parents(l0.ranks) == std::multiset<std::string>{"level0", "level0"});
    CHECK(l0.captures.at(0).loaded);
    const auto byNumber = core::discoverProfile(shared(c), "1");
    CHECK(parents(byNumber.ranks) == std::multiset<std::string>{"level0", "level0"});
    const auto unknown = core::discoverProfile(shared(c), "level7");
    CHECK(unknown.ranks.empty());
    CHECK(unknown.error.find("no capture named level7") != std::string::npos);
    CHECK(unknown.error.find("level0") != std::string::npos);
  }
}

TEST_CASE("captures: the slow-rank rule compares the ranks of one capture only", "[profile][captures]") {
  // Before, the 4 ranks of both runs were loaded and msprof-analyze's rule ran over 4 ranks.
  core::LoadOptions o;
  o.threads = 2;
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-db-2rank"), o);
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 2);
  CHECK(r.profile->captures.size() == 2);
  std::set<int> ranks;
  for (const auto& rp : r.profile->ranks) {
    ranks.insert(rp.rank());
    CHECK(rp.source.root.find("/level1/") != std::string::npos);
  }
  CHECK(ranks == std::set<int>{0, 1});
  REQUIRE(r.profile->analysis);
  CHECK(r.profile->analysis->ranks.size() == 2);

  o.capture = "level0";
  const auto l0 = core::loadProfile(shared("corpus/ascend-pt-910b-db-2rank"), o);
  REQUIRE(l0.ok());
  REQUIRE(l0.profile->ranks.size() == 2);
  for (const auto& rp : l0.profile->ranks) CHECK(rp.source.root.find("/level0/") != std::string::npos);
}

TEST_CASE("captures: one run per folder stays one capture", "[profile][captures]") {
  // find -maxdepth 3 -type d: 2 rank folders each in the three text cases, 4 in cann83
  // (rank_0..3, Level2, collectionTimeEnd within 0.11 s), test_rank_0 / test_rank_1 in
  // msinsight-server-fixtures (Level1, 5 ms apart).
  const std::pair<const char*, std::size_t> cases[] = {{"corpus/ascend-pt-910a-l0-text-2rank", 2},
                                                       {"corpus/ascend-pt-910b-l0-text-2rank", 2},
                                                       {"corpus/ascend-pt-910b-l1-text-2rank", 2},
                                                       {"corpus/ascend-pt-cann83-l2-4rank-partial", 4},
                                                       {"corpus/msinsight-server-fixtures", 2}};
  for (const auto& [c, n] : cases) {
    INFO(c);
    const auto layout = core::discoverProfile(shared(c));
    REQUIRE(layout.error.empty());
    CHECK(layout.captures.empty());
    CHECK(layout.ranks.size() == n);
    for (const auto& r : layout.ranks) CHECK(r.capture.empty());
  }
}

TEST_CASE("captures: a repeated rank or a long gap in one folder splits it", "[profile][captures]") {
  const npuscope::test::TempDir d("captures");
  constexpr long long kT = 1736410576713429440;  // an epoch ns
  SECTION("the same rank twice: two runs into one folder") {
    writeRank(d, "a_ascend_pt", 0, "Level1", kT);
    writeRank(d, "b_ascend_pt", 1, "Level1", kT + 1'000'000'000);
    writeRank(d, "c_ascend_pt", 0, "Level1", kT + 2'000'000'000);
    const auto layout = core::discoverProfile(d.root.string());
    REQUIRE(layout.error.empty());
    REQUIRE(layout.captures.size() == 2);
    CHECK(layout.captures[0].name == ".#1");
    CHECK(layout.captures[0].ranks == 2);
    CHECK(layout.captures[1].name == ".#2");
    CHECK(layout.captures[1].loaded);
    REQUIRE(layout.ranks.size() == 1);
    CHECK(fs::path(layout.ranks[0].root).filename() == "c_ascend_pt");
  }
  SECTION("ranks 0 and 1 ten minutes apart") {
    writeRank(d, "a_ascend_pt", 0, "Level0", kT);
    writeRank(d, "b_ascend_pt", 1, "Level0", kT + 600'000'000'000);
    const auto layout = core::discoverProfile(d.root.string());
    REQUIRE(layout.captures.size() == 2);
    REQUIRE(layout.ranks.size() == 1);
    CHECK(layout.ranks[0].rank == 1);
  }
  SECTION("ranks 0 and 1 one second apart, same level: one capture") {
    writeRank(d, "a_ascend_pt", 0, "Level0", kT);
    writeRank(d, "b_ascend_pt", 1, "Level0", kT + 1'000'000'000);
    const auto layout = core::discoverProfile(d.root.string());
    CHECK(layout.captures.empty());
    CHECK(layout.ranks.size() == 2);
  }
  SECTION("different levels in one folder") {
    writeRank(d, "a_ascend_pt", 0, "Level0", kT);
    writeRank(d, "b_ascend_pt", 1, "Level1", kT + 1'000'000'000);
    const auto layout = core::discoverProfile(d.root.string());
    REQUIRE(layout.captures.size() == 2);
    CHECK(layout.ranks.size() == 1);
  }
}

TEST_CASE("msprof db: a loose msprof_N.db is a rank, cluster_analysis.db is not", "[profile][msprof]") {
  // ls msinsight-server-fixtures/full_db: cluster_analysis.db, msprof_0.db.
  const auto layout = core::discoverProfile(shared("corpus/msinsight-server-fixtures/full_db"));
  REQUIRE(layout.error.empty());
  REQUIRE(layout.ranks.size() == 1);
  CHECK(fs::path(layout.ranks[0].dbFile).filename() == "msprof_0.db");
  CHECK(layout.ranks[0].traceFile.empty());
}

TEST_CASE("msprof db: found in a PROF_ folder, the text export preferred when both exist", "[profile][msprof]") {
  // A PROF_ tree as msprof --type=db writes it (format notes §1.1, §1.2): PROF_*/msprof_{ts}.db,
  // or its copy in mindstudio_profiler_output/. The database is the corpus msprof_0.db copied
  // into a temp folder (TASK 24 rows, `sqlite3` count).
  const npuscope::test::TempDir d("msprofdb");
  const std::string prof = "PROF_000001_20240101000000000_ABCDEFGHIJ";
  std::error_code ec;
  fs::create_directories(d.root / prof / "device_2", ec);
  d.write(prof + "/device_2/info.json.2", "{\"rank_id\": 5}");
  SECTION("PROF_/msprof_{ts}.db alone") {
    fs::copy_file(shared("corpus/msinsight-server-fixtures/full_db/msprof_0.db"), d.root / prof / "msprof_20240101000000.db", ec);
    REQUIRE_FALSE(ec);
    const auto layout = core::discoverProfile((d.root / prof).string());
    REQUIRE(layout.error.empty());
    REQUIRE(layout.ranks.size() == 1);
    CHECK(fs::path(layout.ranks[0].dbFile).filename() == "msprof_20240101000000.db");
    CHECK(layout.ranks[0].rank == 5);
    CHECK(layout.ranks[0].device == 2);
    const auto r = core::loadProfile(d.root.string());
    REQUIRE(r.ok());
    REQUIRE(r.profile->ranks.size() == 1);
    REQUIRE(r.profile->ranks[0].trace);
    const core::Trace& t = *r.profile->ranks[0].trace;
    CHECK(t.path.ends_with("msprof_20240101000000.db"));
    // sqlite3 "SELECT streamId, count(*) FROM TASK GROUP BY 1": stream 16 holds 14 tasks.
    const int lane = npuscope::test::laneIndex(t, "Ascend Hardware", "Stream 16");
    REQUIRE(lane >= 0);
    CHECK(t.lanes[static_cast<std::size_t>(lane)].sliceCount() == 14);
  }
  SECTION("mindstudio_profiler_output holds both the db and the json: the json by default") {
    fs::create_directories(d.root / prof / "mindstudio_profiler_output", ec);
    fs::copy_file(shared("corpus/msinsight-server-fixtures/full_db/msprof_0.db"),
                  d.root / prof / "mindstudio_profiler_output" / "msprof_20240101000000.db", ec);
    REQUIRE_FALSE(ec);
    d.write(prof + "/mindstudio_profiler_output/msprof_20240101000000.json",
            R"([{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"Ascend Hardware"}},)"
            R"({"name":"k","ph":"X","pid":1,"tid":3,"ts":"1.000","dur":"2.000"}])");
    const auto layout = core::discoverProfile((d.root / prof).string());
    REQUIRE(layout.ranks.size() == 1);
    CHECK_FALSE(layout.ranks[0].dbFile.empty());
    CHECK_FALSE(layout.ranks[0].traceFile.empty());
    const auto text = core::loadProfile((d.root / prof).string());
    REQUIRE(text.ok());
    CHECK(text.profile->ranks.at(0).trace->path.ends_with(".json"));
    core::LoadOptions o;
    o.source = core::LoadOptions::Source::Db;
    const auto db = core::loadProfile((d.root / prof).string(), o);
    REQUIRE(db.ok());
    CHECK(db.profile->ranks.at(0).trace->path.ends_with(".db"));
  }
}
