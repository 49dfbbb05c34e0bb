// SPDX-License-Identifier: MIT
// The .db export's memory and communication tables (core/import/db/db_tables.h) against
// tools/oracles/db_oracle.py (standard-library sqlite3, SQL written from the format notes, no
// npuscope code), whose output is tests/data/db_oracle.json ("memory", "comm"). Regenerate:
//   python3 tools/oracles/db_oracle.py --json tests/data/db_oracle.json
#include <catch2/catch.hpp>
#include <simdjson.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/analysis/advisor.h"
#include "core/import/db/db_tables.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "core/tables/communication_json.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;
namespace fs = std::filesystem;

namespace {

std::string mb1(double bytes) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f MB", bytes / (1024.0 * 1024.0));
  return b;
}

const core::Finding* findingOf(const core::RankAdvice& a, const std::string& rule) {
  for (const core::Finding& f : a.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("db tables: memory peaks, live allocations and bandwidth per op equal the oracle's", "[db][oracle][advisor]") {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.load(std::string(NPUSCOPE_SOURCE_DIR) + "/tests/data/db_oracle.json").get(root) == simdjson::SUCCESS);
  std::size_t memChecked = 0, commChecked = 0;
  for (auto [relView, o] : root.get_object()) {
    const std::string rel(relView);
    INFO(rel);
    simdjson::dom::object components;
    if (o["memory"]["components"].get(components) != simdjson::SUCCESS || components.size() == 0) continue;
    const fs::path db = shared("corpus/" + rel);
    const fs::path analysis = db.parent_path() / "analysis.db";
    std::error_code ec;
    const core::DbRankTables t = core::readDbRankTables(db.string(), fs::exists(analysis, ec) ? analysis.string() : "");
    CHECK(t.messages.empty());
    REQUIRE(t.memoryRecord);
    CHECK(t.memoryRecord->error.empty());
    // MEMORY_RECORD per component: rows, the first row of the highest totalAllocated (bytes / 2^20
    // = MB) and its timestamp, the highest totalReserved.
    for (auto [compView, c] : components) {
      const std::string comp(compView);
      INFO(comp);
      std::int64_t rows = 0;
      double peak = -1, peakReserved = -1;
      core::TimeNs peakTs = 0;
      for (const core::MemoryRecordRow& r : t.memoryRecord->rows) {
        if (r.component != comp) continue;
        ++rows;
        if (r.allocatedMB && *r.allocatedMB > peak) peak = *r.allocatedMB, peakTs = r.ts;
        if (r.reservedMB) peakReserved = std::max(peakReserved, *r.reservedMB);
      }
      CHECK(rows == c["rows"].get_int64().value());
      CHECK(peak * 1048576.0 == static_cast<double>(c["peak_allocated_bytes"].get_int64().value()));
      CHECK(peakTs == c["peak_ts_ns"].get_int64().value());
      CHECK(peakReserved * 1048576.0 == static_cast<double>(c["peak_reserved_bytes"].get_int64().value()));
    }
    // OP_MEMORY: rows, summed size, the allocations live at the peak of the oracle's component.
    REQUIRE(t.operatorMemory);
    const auto om = o["memory"]["op_memory"];
    CHECK(static_cast<std::int64_t>(t.operatorMemory->rows.size()) == om["rows"].get_int64().value());
    double sizeBytes = 0;
    for (const core::OperatorMemoryRow& r : t.operatorMemory->rows) sizeBytes += r.sizeKB * 1024.0;
    CHECK(std::llround(sizeBytes) == om["size_bytes"].get_int64().value());
    const std::string peakComp(o["memory"]["peak_component"].get_string().value());
    const core::TimeNs peakTs = o["memory"]["components"][peakComp]["peak_ts_ns"].get_int64().value();
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> live;  // name -> (bytes, count)
    for (const core::OperatorMemoryRow& r : t.operatorMemory->rows)
      if (r.allocation && *r.allocation <= peakTs && (!r.release || *r.release > peakTs) && r.sizeKB > 0) {
        live[r.name].first += std::llround(r.sizeKB * 1024.0);
        ++live[r.name].second;
      }
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> want;
    for (auto [name, e] : om["live_at_peak"].get_object())
      want[std::string(name)] = {e["bytes"].get_int64().value(), e["count"].get_int64().value()};
    CHECK(live == want);
    ++memChecked;

    // analysis.db: every op of CommAnalyzerTime with its start and its transports' figures.
    simdjson::dom::object comm;
    if (o["comm"].get(comm) != simdjson::SUCCESS) {
      CHECK_FALSE(t.communication);  // Level0: no CommAnalyzerTime
      continue;
    }
    REQUIRE(t.communication);
    CHECK(t.communication->error.empty());
    CHECK(t.communication->ops.size() == comm.size());
    for (auto [keyView, want] : comm) {
      const std::string key(keyView);
      INFO(key);
      const core::CommOpTimes* op = nullptr;
      for (const core::CommOpTimes& x : t.communication->ops)
        if (x.name + "|" + x.step + "|" + x.kind == key) op = &x;
      REQUIRE(op);
      REQUIRE(op->start);
      CHECK(*op->start == std::llround(want["start_us"].get_double().value() * 1000.0));
      simdjson::dom::object transports = want["transports"].get_object();
      CHECK(op->bandwidth.size() == transports.size());
      for (auto [tr, v] : transports) {
        const core::CommBandwidth* b = op->transportInfo(tr);
        REQUIRE(b);
        CHECK(b->sizeMB == v["size_mb"].get_double().value());
        CHECK(b->timeMs == v["time_ms"].get_double().value());
        CHECK(b->gbps == v["gbps"].get_double().value());
      }
      ++commChecked;
    }
  }
  CHECK(memChecked == 8);  // the 8 torch_npu databases of the corpus
  CHECK(commChecked >= 8);

  // The advisor on a db rank reads them: the memory finding's peak is the oracle's peak of
  // PTA+GE (1263251456 B = 1204.7 MB for 910B Level1 rank 0), the comm findings name analysis.db.
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-db-2rank/level1/rank0_ascend_pt"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  const core::RankAdvice a = core::adviseRankProfile(r.profile->ranks[0]);
  const core::Finding* mem = findingOf(a, "memory");
  REQUIRE(mem);
  CHECK(mem->severity != core::Severity::Unknown);
  const std::int64_t peakBytes =
      root["ascend-pt-910b-db-2rank/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"]["memory"]
          ["components"]["PTA+GE"]["peak_allocated_bytes"].get_int64().value();
  CHECK(mem->numbers.find("PTA+GE: peak allocated " + mb1(static_cast<double>(peakBytes))) != std::string::npos);
  CHECK(mem->numbers.find("read from MEMORY_RECORD of ascend_pytorch_profiler_0.db and OP_MEMORY of") != std::string::npos);
  CHECK(mem->numbers.find("not read") == std::string::npos);
  for (const core::Finding& f : a.findings) CHECK(f.numbers.find("is not read by this rule") == std::string::npos);
  const core::Finding* bw = findingOf(a, "comm_bandwidth");
  REQUIRE(bw);
  CHECK(bw->severity != core::Severity::Unknown);
  // The per-op traffic is computed from the database's HCCL plane tasks (COMMUNICATION_TASK_INFO),
  // analysis.db being the profiler's record of the same (docs/diagnosis.md §5.3).
  CHECK(bw->numbers.find("read from the trace's HCCL plane tasks") != std::string::npos);
}

TEST_CASE("db tables: analysis.db bandwidth equals communication.json of the same capture", "[db][advisor]") {
  // CANN 8.3 rank 0 keeps both communication.json and analysis.db of one run: the profiler's two
  // writers must give the same per-op figures (15 ops; HCCS and SDMA carry the traffic).
  const std::string dir = shared("corpus/ascend-pt-cann83-l2-4rank-partial/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT");
  const core::CommunicationJson text = core::readCommunicationJson(dir + "/communication.json");
  REQUIRE(text.error.empty());
  const core::DbRankTables db = core::readDbRankTables("", dir + "/analysis.db");
  REQUIRE(db.communication);
  REQUIRE(db.communication->ops.size() == 15);
  REQUIRE(text.ops.size() == 15);
  std::size_t transports = 0;
  for (const core::CommOpTimes& t : text.ops) {
    INFO(t.name);
    const core::CommOpTimes* d = nullptr;
    for (const core::CommOpTimes& x : db.communication->ops)
      if (x.name == t.name && x.step == t.step && x.kind == t.kind) d = &x;
    REQUIRE(d);
    CHECK(std::llabs(d->elapse - t.elapse) <= 1);
    REQUIRE(d->start);
    REQUIRE(t.start);
    CHECK(std::llabs(*d->start - *t.start) <= 1000);  // the db stores µs as REAL
    for (const core::CommBandwidth& b : t.bandwidth) {
      if (!(b.sizeMB > 0)) continue;  // the db leaves out the transports that moved nothing
      const core::CommBandwidth* x = d->transportInfo(b.transport);
      REQUIRE(x);
      CHECK(std::fabs(x->sizeMB - b.sizeMB) <= 1e-9 * b.sizeMB);
      CHECK(std::fabs(x->timeMs - b.timeMs) <= 1e-9);
      CHECK(x->gbps == b.gbps);
      ++transports;
    }
  }
  CHECK(transports > 0);
}

TEST_CASE("db tables: missing tables, unknown string ids and NULL cells", "[db][advisor]") {
  test::TempDir dir("dbtables");
  const std::string path = dir.root.string() + "/ascend_pytorch_profiler_0.db";
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  // Hand-built: component 7 has a name, 8 has none (kept as the id's text); one row without a
  // timestamp (skipped), one without totals (absent, not 0). 3 MiB = 3145728 B; 2 KB = 2048 B.
  REQUIRE(sqlite3_exec(h,
                       "CREATE TABLE STRING_IDS(id INTEGER, value TEXT);"
                       "INSERT INTO STRING_IDS VALUES (7, 'PTA+GE'), (9, 'aten::add');"
                       "CREATE TABLE MEMORY_RECORD(component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
                       "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);"
                       "INSERT INTO MEMORY_RECORD VALUES (7, 1000, 3145728, 4194304, 3145728, 1, 2),"
                       " (8, 2000, NULL, NULL, NULL, 1, 2), (7, NULL, 1, 1, 1, 1, 2);"
                       "CREATE TABLE OP_MEMORY(name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER);"
                       "INSERT INTO OP_MEMORY VALUES (9, 2048, 500, NULL), (9, NULL, 600, 700);",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  const core::DbRankTables t = core::readDbRankTables(path, "");
  REQUIRE(t.memoryRecord);
  REQUIRE(t.memoryRecord->rows.size() == 2);
  CHECK(t.memoryRecord->rows[0].component == "PTA+GE");
  CHECK(t.memoryRecord->rows[0].ts == 1000);
  CHECK(*t.memoryRecord->rows[0].allocatedMB == 3.0);
  CHECK(*t.memoryRecord->rows[0].reservedMB == 4.0);
  CHECK(t.memoryRecord->rows[0].device == "NPU:2");
  CHECK(t.memoryRecord->rows[1].component == "8");
  CHECK_FALSE(t.memoryRecord->rows[1].allocatedMB);
  REQUIRE(t.memoryRecord->warnings.size() == 1);
  CHECK(t.memoryRecord->warnings[0].find("row 3") != std::string::npos);
  REQUIRE(t.operatorMemory);
  REQUIRE(t.operatorMemory->rows.size() == 1);
  CHECK(t.operatorMemory->rows[0].name == "aten::add");
  CHECK(t.operatorMemory->rows[0].sizeKB == 2.0);
  CHECK_FALSE(t.operatorMemory->rows[0].release);
  CHECK(t.operatorMemory->warnings.size() == 1);
  CHECK_FALSE(t.communication);  // no analysis.db given

  // A database without the tables: nullopt, and a file that is no database: a message.
  const std::string empty = dir.root.string() + "/empty.db";
  REQUIRE(sqlite3_open(empty.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "CREATE TABLE TASK(startNs INTEGER);", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  const core::DbRankTables none = core::readDbRankTables(empty, "");
  CHECK_FALSE(none.memoryRecord);
  CHECK_FALSE(none.operatorMemory);
  CHECK(none.messages.empty());
  const core::DbRankTables bad = core::readDbRankTables(dir.root.string() + "/missing.db", dir.root.string() + "/missing_analysis.db");
  CHECK(bad.messages.size() == 2);
}

// Found by fuzz_sqlite_reader (issue 26 item 2): CommAnalyzerTime's times in ms were converted with
// std::llround(ms * 1e6), which for 1.7e18 ms (1.7e24 ns, beyond int64) gave INT64_MIN, and two
// "Total Op Info" rows then overflowed the recorded total (UBSan). Converted as communication.json's
// reader converts them now: held at +-kMaxTimeNs, the sums too.
TEST_CASE("db tables: CommAnalyzerTime times beyond int64 are held at the time limit", "[db]") {
  test::TempDir dir("commlimit");
  const std::string path = dir.root.string() + "/analysis.db";
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h,
                       "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                       "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
                       "idle_time NUMERIC, step TEXT, type TEXT);"
                       "INSERT INTO CommAnalyzerTime VALUES ('hcom_a', 'g', NULL, 1.7e18, 0.5, 0, 0, 0, 'step1', 'collective'),"
                       " ('Total Op Info', NULL, NULL, 1.7e18, 0, 0, 0, 0, 'step1', 'collective'),"
                       " ('Total Op Info', NULL, NULL, 1.7e18, 0, 0, 0, 0, 'step2', 'collective');",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  const core::DbRankTables t = core::readDbRankTables("", path);
  REQUIRE(t.communication);
  REQUIRE(t.communication->ops.size() == 1);
  // By hand: 1.7e18 ms = 1.7e24 ns, beyond kMaxTimeNs = 2^62 - 1 = 4611686018427387903: held there;
  // 0.5 ms = 500000 ns; the two totals' sum is held there too (it was INT64_MIN + INT64_MIN).
  CHECK(t.communication->ops[0].elapse == 4611686018427387903);
  CHECK(t.communication->ops[0].transit == 500000);
  REQUIRE(t.communication->recordedTotal);
  CHECK(t.communication->recordedTotal->elapse == 4611686018427387903);
}

// Found by a fresh-eyes test of the memory curve (2026-12-01; fixed in 4615187): a TEXT 'xyz' or a BLOB total read as
// 0 (a dip to 0 on the curve, "lowest 0.0 MB" in the finding), a TEXT timestamp 'xyz' as 0, and
// negative or absurd totals became the peak. Each is now absent with a row warning.
TEST_CASE("db tables: MEMORY_RECORD cells that are no plausible total are absent and said", "[db][memory]") {
  test::TempDir dir("dbmemcells");
  const std::string path = dir.root.string() + "/ascend_pytorch_profiler_0.db";
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  // By hand, one row each (MiB = 1048576 B): a good row; text 'xyz'; a BLOB; a negative total; 2^63
  // - 1 bytes (8 EiB, beyond 1 PiB); a numeric TEXT '2097152' (2 MB, read); a TEXT timestamp 'xyz'.
  REQUIRE(sqlite3_exec(h,
                       "CREATE TABLE STRING_IDS(id INTEGER, value TEXT);"
                       "INSERT INTO STRING_IDS VALUES (7, 'PTA+GE');"
                       "CREATE TABLE MEMORY_RECORD(component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
                       "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);"
                       "INSERT INTO MEMORY_RECORD VALUES (7, 1000, 1048576, 1048576, NULL, 1, 0),"
                       " (7, 2000, 'xyz', NULL, NULL, 1, 0), (7, 3000, x'0102', NULL, NULL, 1, 0),"
                       " (7, 4000, -1048576, NULL, NULL, 1, 0), (7, 5000, 9223372036854775807, NULL, NULL, 1, 0),"
                       " (7, 6000, '2097152', NULL, NULL, 1, 0), (7, 'xyz', 1048576, NULL, NULL, 1, 0);",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  const core::DbRankTables t = core::readDbRankTables(path, "");
  REQUIRE(t.memoryRecord);
  const auto& rows = t.memoryRecord->rows;
  REQUIRE(rows.size() == 6);  // the row with timestamp 'xyz' is skipped
  CHECK(*rows[0].allocatedMB == 1.0);
  for (std::size_t i : {1, 2, 3, 4}) CHECK_FALSE(rows[i].allocatedMB);
  CHECK(*rows[5].allocatedMB == 2.0);
  const auto& w = t.memoryRecord->warnings;
  REQUIRE(w.size() == 5);
  CHECK(w[0] == "row 2 totalAllocated of MEMORY_RECORD is no number: ignored");
  CHECK(w[1] == "row 3 totalAllocated of MEMORY_RECORD is no number: ignored");
  CHECK(w[2] == "row 4 totalAllocated -1 is negative: ignored");
  CHECK(w[3] == "row 5 totalAllocated 8.79609e+12 MB is beyond 1 PiB: ignored");
  CHECK(w[4] == "row 7 of MEMORY_RECORD has no timestamp: skipped");
}
