// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): the SQLite export's readers alone (readAscendDb,
// readDbRankTables: core/import/db/) on databases the target generates from the input. The input
// describes tables and rows; the target writes them with SQLite into a database with the
// profiler's schema (the tables and columns the readers read, as the corpus captures declare
// them) and an analysis.db, so that mutations reach the readers' logic (odd values, NULLs, types,
// missing columns, ids that join or not) instead of breaking the SQLite file format (that is
// fuzz_sqlite_db's part). No analyses, no report.
//
// Input (fuzz/make_seeds.py writes seeds in this form):
//   byte 0   flags: bit 0 read also with 2 threads (the row streams on threads of their own) and
//            compare; bit 1 tables = false (no kernels, no NPU_INFO); bit 2 an analysis.db even
//            without any of its tables (an empty file), else analysis.db only with a table.
//   then records, up to the input's end:
//     T            (T < 0x80) a row of table T % 32 of kTables: one value per column, each encoded
//                  as below (values of dropped columns are read and ignored);
//     0x80|T, C    table T % 32 exists (even without rows) and, when C % (columns + 1) names a
//                  column, without that column (for the whole input).
//   A table exists when the input has a row or a 0x80 record of it: a database has the tables the
//   input speaks of, not all 32 (each table costs a CREATE TABLE to write and its parse at each of
//   the reader's 5-8 opens of the file: 12 ms per execution with all of them).
//   a value: a tag byte t, then by t % 16:
//     0 NULL; 1 int8; 2 int16; 3 int32; 4 int64 (little-endian); 5 an integer of kInts (next
//     byte); 6 a time 1.7e18 ns + 1000 * uint16; 7 a globalTid (pid byte << 32 | tid byte);
//     8 a double (8 bytes); 9 a double of kReals (next byte); 10 text (length byte, at most 64,
//     then the bytes); 11 a text of kTexts (next byte); 12 a blob (length byte, bytes);
//     13 an integer 0-255 (next byte); 14 a time as decimal text (as PYTORCH_API stores it:
//     1.7e18 + 1000 * uint16); 15 the integer t >> 4 (0-15, no payload).
// Checks: a failed read has a message; every slice of the trace lies within +-kMaxTimeNs and ends
// at or after its start, every counter series is sorted and as long in times as in values; the
// args of the first slices of each lane (database rows) are valid UTF-8 JSON (sliceArgsJson);
// with flag bit 0, the read with 2 threads gives the same trace, messages and tables as the read
// with 1 (the background row streams must convert values as SQLite does); the tables through
// their CSV parsers (parseKernelDetails, parseStepTraceTime); memory totals plausible, times and
// figures finite. Sanitizers: UB (overflow), leaks, reads out of bounds.
// SQLite's own memory (its parser, page cache, statements) comes from glibc's allocator through
// sqlite3_config(SQLITE_CONFIG_MALLOC), not ASan's: SQLite is not under test, and ASan's
// allocator, fill and quarantine on its many small allocations were 45% of the run time (perf).
// The readers' own allocations stay under ASan. Instead of ASan's leak check for SQLite's
// objects, the target counts SQLite's live blocks: after each input, with every connection
// closed, there must be as many as before it (a statement left unfinalized or a connection left
// open is a finding).
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/time_limits.h"
#include "core/import/db/db_reader.h"
#include "core/import/db/db_tables.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"
#include "core/tables/tables.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

namespace {

struct Table {
  const char* name;
  bool analysis;  ///< in analysis.db, else in the profiler's database
  std::vector<std::pair<const char*, const char*>> columns;  ///< name, declared type
};

// The tables the readers read, with the columns and declared types of the corpus captures'
// databases (ascend-pt-910b-db-2rank, ascend-pt-910a-db-2rank, msinsight full_db; GC_RECORD and
// StepTraceTime.deviceId as the reader names them). The order is the input's: keep
// fuzz/make_seeds.py's copy in step.
const std::array<Table, 32> kTables = {{
    {"STRING_IDS", false, {{"id", "INTEGER PRIMARY KEY"}, {"value", "TEXT"}}},
    {"ENUM_API_TYPE", false, {{"id", "INTEGER PRIMARY KEY"}, {"name", "TEXT"}}},
    {"PYTORCH_API", false, {{"startNs", "TEXT"}, {"endNs", "TEXT"}, {"globalTid", "INTEGER"}, {"connectionId", "INTEGER"},
                            {"name", "INTEGER"}, {"sequenceNumber", "INTEGER"}, {"fwdThreadId", "INTEGER"},
                            {"inputDtypes", "INTEGER"}, {"inputShapes", "INTEGER"}, {"callchainId", "INTEGER"},
                            {"type", "INTEGER"}}},
    {"PYTORCH_CALLCHAINS", false, {{"id", "INTEGER"}, {"stack", "INTEGER"}, {"stackDepth", "INTEGER"}}},
    {"CANN_API", false, {{"startNs", "INTEGER"}, {"endNs", "INTEGER"}, {"type", "INTEGER"}, {"globalTid", "INTEGER"},
                         {"connectionId", "INTEGER PRIMARY KEY"}, {"name", "INTEGER"}}},
    {"GC_RECORD", false, {{"startNs", "INTEGER"}, {"endNs", "INTEGER"}, {"globalTid", "INTEGER"}}},
    {"MSTX_EVENTS", false, {{"startNs", "INTEGER"}, {"endNs", "INTEGER"}, {"eventType", "INTEGER"}, {"rangeId", "INTEGER"},
                            {"category", "INTEGER"}, {"message", "INTEGER"}, {"globalTid", "INTEGER"},
                            {"endGlobalTid", "INTEGER"}, {"domainId", "INTEGER"}, {"connectionId", "INTEGER"}}},
    {"TASK", false, {{"startNs", "INTEGER"}, {"endNs", "INTEGER"}, {"deviceId", "INTEGER"}, {"connectionId", "INTEGER"},
                     {"globalTaskId", "INTEGER"}, {"globalPid", "INTEGER"}, {"taskType", "INTEGER"},
                     {"contextId", "INTEGER"}, {"streamId", "INTEGER"}, {"taskId", "INTEGER"}, {"modelId", "INTEGER"}}},
    {"COMPUTE_TASK_INFO", false, {{"name", "INTEGER"}, {"globalTaskId", "INTEGER PRIMARY KEY"}, {"blockDim", "INTEGER"},
                                  {"mixBlockDim", "INTEGER"}, {"taskType", "INTEGER"}, {"opType", "INTEGER"},
                                  {"inputFormats", "INTEGER"}, {"inputDataTypes", "INTEGER"}, {"inputShapes", "INTEGER"},
                                  {"outputFormats", "INTEGER"}, {"outputDataTypes", "INTEGER"},
                                  {"outputShapes", "INTEGER"}, {"attrInfo", "INTEGER"}, {"waitNs", "INTEGER"},
                                  {"blockNum", "INTEGER"}}},
    {"COMMUNICATION_OP", false, {{"opName", "INTEGER"}, {"startNs", "INTEGER"}, {"endNs", "INTEGER"},
                                 {"connectionId", "INTEGER"}, {"groupName", "INTEGER"}, {"opId", "INTEGER PRIMARY KEY"},
                                 {"relay", "INTEGER"}, {"retry", "INTEGER"}, {"dataType", "INTEGER"},
                                 {"algType", "INTEGER"}, {"count", "NUMERIC"}, {"opType", "INTEGER"},
                                 {"deviceId", "INTEGER"}}},
    {"ENUM_HCCL_DATA_TYPE", false, {{"id", "INTEGER PRIMARY KEY"}, {"name", "TEXT"}}},
    {"COMMUNICATION_TASK_INFO", false, {{"name", "INTEGER"}, {"globalTaskId", "INTEGER"}, {"taskType", "INTEGER"},
                                        {"planeId", "INTEGER"}, {"groupName", "INTEGER"}, {"notifyId", "INTEGER"},
                                        {"rdmaType", "INTEGER"}, {"srcRank", "INTEGER"}, {"dstRank", "INTEGER"},
                                        {"transportType", "INTEGER"}, {"size", "INTEGER"}, {"dataType", "INTEGER"},
                                        {"linkType", "INTEGER"}, {"opId", "INTEGER"}}},
    {"ENUM_HCCL_TRANSPORT_TYPE", false, {{"id", "INTEGER PRIMARY KEY"}, {"name", "TEXT"}}},
    {"ENUM_HCCL_LINK_TYPE", false, {{"id", "INTEGER PRIMARY KEY"}, {"name", "TEXT"}}},
    {"CONNECTION_IDS", false, {{"id", "INTEGER"}, {"connectionId", "INTEGER"}}},
    {"STEP_TIME", false, {{"id", "INTEGER"}, {"startNs", "INTEGER"}, {"endNs", "INTEGER"}}},
    {"OVERLAP_ANALYSIS", false, {{"id", "INTEGER PRIMARY KEY"}, {"deviceId", "integer"}, {"startNs", "integer"},
                                 {"endNs", "integer"}, {"type", "integer"}}},
    {"NPU_MEM", false, {{"type", "INTEGER"}, {"ddr", "NUMERIC"}, {"hbm", "NUMERIC"}, {"timestampNs", "INTEGER"},
                        {"deviceId", "INTEGER"}}},
    {"HBM", false, {{"deviceId", "INTEGER"}, {"timestampNs", "INTEGER"}, {"bandwidth", "NUMERIC"}, {"hbmId", "INTEGER"},
                    {"type", "INTEGER"}}},
    {"DDR", false, {{"deviceId", "INTEGER"}, {"timestampNs", "INTEGER"}, {"read", "NUMERIC"}, {"write", "NUMERIC"}}},
    {"LLC", false, {{"deviceId", "INTEGER"}, {"llcId", "INTEGER"}, {"timestampNs", "INTEGER"}, {"hitRate", "REAL"},
                    {"throughput", "INTEGER"}, {"mode", "INTEGER"}}},
    {"AICORE_FREQ", false, {{"deviceId", "INTEGER"}, {"timestampNs", "NUMERIC"}, {"freq", "INTEGER"}}},
    {"ACC_PMU", false, {{"accId", "INTEGER"}, {"readBwLevel", "INTEGER"}, {"writeBwLevel", "INTEGER"},
                        {"readOstLevel", "INTEGER"}, {"writeOstLevel", "INTEGER"}, {"timestampNs", "NUMERIC"},
                        {"deviceId", "INTEGER"}}},
    {"SOC_BANDWIDTH_LEVEL", false, {{"l2BufferBwLevel", "INTEGER"}, {"mataBwLevel", "INTEGER"},
                                    {"timestampNs", "NUMERIC"}, {"deviceId", "INTEGER"}}},
    {"TASK_PMU_INFO", false, {{"globalTaskId", "INTEGER"}, {"name", "INTEGER"}, {"value", "NUMERIC"}}},
    {"RANK_DEVICE_MAP", false, {{"rankId", "INTEGER"}, {"deviceId", "INTEGER"}}},
    {"NPU_INFO", false, {{"id", "INTEGER"}, {"name", "TEXT"}}},
    {"MEMORY_RECORD", false, {{"component", "INTEGER"}, {"timestamp", "INTEGER"}, {"totalAllocated", "INTEGER"},
                              {"totalReserved", "INTEGER"}, {"totalActive", "INTEGER"}, {"streamPtr", "INTEGER"},
                              {"deviceId", "INTEGER"}}},
    {"OP_MEMORY", false, {{"name", "INTEGER"}, {"size", "INTEGER"}, {"allocationTime", "INTEGER"},
                          {"releaseTime", "INTEGER"}, {"activeReleaseTime", "INTEGER"}, {"duration", "INTEGER"},
                          {"deviceId", "INTEGER"}}},
    {"StepTraceTime", true, {{"deviceId", "INTEGER"}, {"step", "TEXT"}, {"computing", "NUMERIC"},
                             {"communication_not_overlapped", "NUMERIC"}, {"overlapped", "NUMERIC"},
                             {"communication", "NUMERIC"}, {"free", "NUMERIC"}, {"stage", "NUMERIC"},
                             {"bubble", "NUMERIC"}, {"communication_not_overlapped_and_exclude_receive", "NUMERIC"},
                             {"preparing", "NUMERIC"}}},
    {"CommAnalyzerTime", true, {{"hccl_op_name", "TEXT"}, {"group_name", "TEXT"}, {"start_timestamp", "NUMERIC"},
                                {"elapse_time", "NUMERIC"}, {"transit_time", "NUMERIC"}, {"wait_time", "NUMERIC"},
                                {"synchronization_time", "NUMERIC"}, {"idle_time", "NUMERIC"}, {"step", "TEXT"},
                                {"type", "TEXT"}}},
    {"CommAnalyzerBandwidth", true, {{"hccl_op_name", "TEXT"}, {"group_name", "TEXT"}, {"transport_type", "TEXT"},
                                     {"transit_size", "NUMERIC"}, {"transit_time", "NUMERIC"}, {"bandwidth", "NUMERIC"},
                                     {"package_size", "NUMERIC"}, {"step", "TEXT"}, {"type", "TEXT"}}},
}};

constexpr std::int64_t kBaseNs = 1'700'000'000'000'000'000;

const std::int64_t kInts[] = {0, 1, -1, 2, 3, 7, 8, 20000, 50001, 50002, 50003, 50004,
                              4294967295LL, 4000000000LL, INT32_MAX, INT32_MIN, std::numeric_limits<std::int64_t>::max(),
                              std::numeric_limits<std::int64_t>::min(), core::kMaxTimeNs, -core::kMaxTimeNs,
                              core::kMaxTimeNs + 1, std::int64_t{1} << 40, std::int64_t{1} << 41, kBaseNs,
                              9'223'372'036'854'775'000LL, -7'561'371'158'710'702'368LL, 1'699'999'007'876'459'047LL};
const double kReals[] = {0.0, -0.0, 0.5, 1.5, -1.0, 1e-9, 1e18, 9.3e18, -9.3e18, 1e300, -1e300,
                         std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), 4294967295.0,
                         1.7e18, 1073741824.0 * 1048576.0, 12.5, 100.0};
const char* const kTexts[] = {
    "", "ProfilerStep#1", "ProfilerStep#", "aten::matmul", "Enqueue", "Dequeue", "MEMCPY_ASYNC", "KERNEL_AICORE",
    "FFTS_PLUS", "AI_CORE", "AI_VECTOR_CORE", "MatMul", "hcom_allReduce__1_0_1", "Notify_Wait", "Memcpy", "group0",
    "app", "device", "read", "write", "acl", "runtime", "node", "model", "hccl", "communication", "PTA", "GE", "PTA+GE",
    "APP", "SDMA", "RDMA", "HCCS", "ON_CHIP", "aic_mac_ratio", "aiv_vec_ratio", "aic_total_cycles", "Total Op Info",
    "step1", "collective", "p2p", "1,2;2,3", "float;\r\nfloat", "32,3,224,224;\r\n64,3,11,11", "123", " 12", "\t7",
    "1e5", "1.5", "-7", "0x10", "99999999999999999999", "-99999999999999999999", "1e400", "nan", "abc", "\xff\xfe",
    "\xc3\x28", "\xed\xa0\x80", "a\"b\\c\n", "Ascend910B", "Ascend910B3", "hcom_", "N/A"};

/// The input, read front to back.
struct Reader {
  const std::uint8_t* p;
  const std::uint8_t* end;
  [[nodiscard]] bool done() const { return p >= end; }
  std::uint8_t byte() { return p < end ? *p++ : 0; }
  template <typename T>
  T number() {
    std::array<std::uint8_t, sizeof(T)> b{};
    for (auto& x : b) x = byte();
    return std::bit_cast<T>(b);
  }
};

/// One value to bind.
struct Value {
  enum class Kind : std::uint8_t { Null, Int, Real, Text, Blob } kind = Kind::Null;
  std::int64_t i = 0;
  double d = 0;
  std::string s;
};

Value readValue(Reader& in) {
  Value v;
  const std::uint8_t t = in.byte();
  using K = Value::Kind;
  const auto integer = [&](std::int64_t x) {
    v.kind = K::Int;
    v.i = x;
  };
  switch (t % 16) {
    case 0: break;
    case 1: integer(in.number<std::int8_t>()); break;
    case 2: integer(in.number<std::int16_t>()); break;
    case 3: integer(in.number<std::int32_t>()); break;
    case 4: integer(in.number<std::int64_t>()); break;
    case 5: integer(kInts[in.byte() % std::size(kInts)]); break;
    case 6: integer(kBaseNs + 1000 * std::int64_t{in.number<std::uint16_t>()}); break;
    case 7: {
      const std::int64_t pid = in.byte();
      integer((pid << 32) | in.byte());
      break;
    }
    case 8:
      v.kind = K::Real;
      v.d = in.number<double>();
      break;
    case 9:
      v.kind = K::Real;
      v.d = kReals[in.byte() % std::size(kReals)];
      break;
    case 10:
    case 12: {
      v.kind = t % 16 == 10 ? K::Text : K::Blob;
      const std::size_t n = in.byte() % 65;
      for (std::size_t k = 0; k < n && !in.done(); ++k) v.s += static_cast<char>(in.byte());
      break;
    }
    case 11:
      v.kind = K::Text;
      v.s = kTexts[in.byte() % std::size(kTexts)];
      break;
    case 13: integer(in.byte()); break;
    case 14:
      v.kind = K::Text;
      v.s = std::to_string(kBaseNs + 1000 * std::int64_t{in.number<std::uint16_t>()});
      break;
    default: integer(t >> 4); break;
  }
  return v;
}

struct Row {
  std::size_t table;
  std::vector<Value> values;
};

struct Input {
  std::uint8_t flags = 0;
  std::uint32_t present = 0;                            ///< bit t: table t exists
  std::array<std::uint32_t, kTables.size()> dropped{};  ///< bit c: column c dropped
  std::vector<Row> rows;
};

Input parse(const std::uint8_t* data, std::size_t size) {
  Reader in{data, data + size};
  Input out;
  out.flags = in.byte();
  while (!in.done() && out.rows.size() < 4096) {
    const std::uint8_t k = in.byte();
    const std::size_t table = (k & 0x7F) % kTables.size();
    out.present |= 1u << table;
    if (k & 0x80) {
      const std::size_t c = in.byte() % (kTables[table].columns.size() + 1);
      if (c < kTables[table].columns.size()) out.dropped[table] |= 1u << c;
      continue;
    }
    Row r{table, {}};
    for (std::size_t c = 0; c < kTables[table].columns.size(); ++c) r.values.push_back(readValue(in));
    out.rows.push_back(std::move(r));
  }
  return out;
}

void exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string e = error ? error : "?";
    sqlite3_free(error);
    fuzz::fail("cannot build the database: " + e, sql);
  }
}

/// Writes the tables of `analysis` (analysis.db or the profiler's database) to `path`; false when
/// it has no table.
bool writeDatabase(const Input& input, bool analysis, const std::string& name, std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) fuzz::fail("cannot open an in-memory database");
  exec(db, "PRAGMA page_size = 512; BEGIN");
  std::array<sqlite3_stmt*, kTables.size()> insert{};
  std::array<std::vector<std::size_t>, kTables.size()> kept;
  bool any = false;
  for (std::size_t t = 0; t < kTables.size(); ++t) {
    const Table& table = kTables[t];
    if (table.analysis != analysis || !(input.present >> t & 1u)) continue;
    std::string create = std::string("CREATE TABLE ") + table.name + " (";
    std::string values;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (input.dropped[t] >> c & 1u) continue;
      if (!kept[t].empty()) {
        create += ", ";
        values += ", ";
      }
      create += std::string(table.columns[c].first) + " " + table.columns[c].second;
      values += '?';
      kept[t].push_back(c);
    }
    if (kept[t].empty()) {
      // Every column dropped: a table of one column the readers never ask for.
      create += "unused INTEGER";
      values = "NULL";
    }
    exec(db, create + ")");
    const std::string sql = std::string("INSERT INTO ") + table.name + " VALUES (" + values + ")";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &insert[t], nullptr) != SQLITE_OK) fuzz::fail("cannot prepare", sql);
    any = true;
  }
  for (const Row& r : input.rows) {
    sqlite3_stmt* s = insert[r.table];
    if (!s) continue;
    for (std::size_t k = 0; k < kept[r.table].size(); ++k) {
      const Value& v = r.values[kept[r.table][k]];
      const int at = static_cast<int>(k + 1);
      switch (v.kind) {
        case Value::Kind::Null: sqlite3_bind_null(s, at); break;
        case Value::Kind::Int: sqlite3_bind_int64(s, at, v.i); break;
        case Value::Kind::Real: sqlite3_bind_double(s, at, v.d); break;
        case Value::Kind::Text: sqlite3_bind_text(s, at, v.s.data(), static_cast<int>(v.s.size()), SQLITE_TRANSIENT); break;
        case Value::Kind::Blob: sqlite3_bind_blob(s, at, v.s.data(), static_cast<int>(v.s.size()), SQLITE_TRANSIENT); break;
      }
    }
    (void)sqlite3_step(s);  // a row the schema refuses (a second row of one primary key) is left out
    sqlite3_reset(s);
  }
  for (sqlite3_stmt* s : insert)
    if (s) sqlite3_finalize(s);
  exec(db, "COMMIT");
  sqlite3_int64 bytes = 0;
  // A database without a table has no page: no image, an empty file (which SQLite opens as an
  // empty database).
  unsigned char* image = sqlite3_serialize(db, "main", &bytes, 0);
  path = fuzz::writeTempFile(name, std::string_view(reinterpret_cast<const char*>(image), image ? static_cast<std::size_t>(bytes) : 0));
  sqlite3_free(image);
  sqlite3_close(db);
  return any;
}

std::string fingerprint(const core::DbImport& d) {
  std::ostringstream s;
  s << "error [" << d.result.error << "] chip [" << d.chip << "]\nmessages";
  for (const auto& m : d.messages) s << "\n  " << m;
  const auto table = [&](const char* what, const std::optional<core::CsvTable>& t) {
    s << '\n' << what;
    if (!t) return;
    for (const auto& h : t->header) s << " [" << h << ']';
    for (const auto& r : t->rows) {
      s << "\n ";
      for (const auto& c : r) s << " [" << c << ']';
    }
  };
  table("kernels", d.kernelDetails);
  table("steps", d.stepTraceTime);
  if (d.communication) s << "\ncommunication ops " << d.communication->ops.size() << " error [" << d.communication->error << ']';
  if (!d.result.trace) return s.str();
  const core::Trace& t = *d.result.trace;
  s << "\nevents " << t.eventCount << " range " << t.range.start << ".." << t.range.end << " rank "
    << t.rankFromFile.value_or(-1) << "\nwarnings";
  for (std::size_t k = 0; k < core::ImportStats::kKinds; ++k)
    if (t.stats.counts[k]) s << ' ' << k << '=' << t.stats.counts[k];
  for (const auto& [kind, text] : t.stats.examples) s << "\n  e.g. " << static_cast<int>(kind) << ' ' << text;
  for (const auto& n : t.notes) s << "\nnote " << n;
  for (const auto& l : t.lanes) {
    s << "\nlane " << t.processes[l.process].name << " / " << l.name;
    for (std::size_t i = 0; i < l.sliceCount(); ++i) {
      s << "\n  " << t.strings.view(l.names[i]) << ' ' << l.start[i] << ' ' << l.end[i] << " flags " << int(l.flags[i]);
      if (const std::string a = core::sliceArgsJson(t, {static_cast<std::uint32_t>(&l - t.lanes.data()), static_cast<std::uint32_t>(i)}); !a.empty())
        s << ' ' << a;
    }
  }
  for (const auto& f : t.flows)
    s << "\nflow " << t.strings.view(f.category) << ' ' << f.from.lane << ':' << f.from.index << " -> " << f.to.lane << ':'
      << f.to.index << ' ' << f.fromTs << ' ' << f.toTs;
  for (const auto& c : t.counters) {
    s << "\ncounter " << c.process << ' ' << t.strings.view(c.name) << ' ' << t.strings.view(c.key);
    for (std::size_t i = 0; i < c.ts.size(); ++i) s << ' ' << c.ts[i] << '=' << c.value[i];
  }
  return s.str();
}

void requireFinite(double v, const char* what) {
  if (!std::isfinite(v)) fuzz::fail(std::string(what) + " is not finite");
}

void checkTrace(const core::Trace& t) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const core::Lane& lane = t.lanes[l];
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      if (lane.end[i] < lane.start[i] || lane.start[i] < -core::kMaxTimeNs || lane.end[i] > core::kMaxTimeNs)
        fuzz::fail("a slice beyond the time limits or ending before it starts: " + std::to_string(lane.start[i]) + ".." +
                   std::to_string(lane.end[i]));
      if (i < 8)
        if (const std::string json = core::sliceArgsJson(t, {l, i}); !json.empty()) fuzz::requireValidJson(json, "sliceArgsJson");
    }
  }
  for (const auto& c : t.counters) {
    if (c.ts.size() != c.value.size() || !std::is_sorted(c.ts.begin(), c.ts.end()))
      fuzz::fail("a counter series is unsorted or ragged");
    for (const double v : c.value) requireFinite(v, "a counter value");
  }
}

// glibc's allocator under ASan's interceptors (exported by glibc for such hooks).
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void __libc_free(void*);

/// SQLite's memory methods on glibc's allocator, each block with a 16-byte header holding its
/// size (xSize), and the count of live blocks.
struct SqliteHeap {
  static constexpr std::size_t kHeader = 16;
  static inline std::atomic<long> live{0};
  static void* header(void* p) { return static_cast<char*>(p) - kHeader; }
  static void* xMalloc(int n) {
    if (n <= 0) return nullptr;
    auto* p = static_cast<char*>(__libc_malloc(static_cast<std::size_t>(n) + kHeader));
    if (!p) return nullptr;
    std::memcpy(p, &n, sizeof n);
    live.fetch_add(1, std::memory_order_relaxed);
    return p + kHeader;
  }
  static void xFree(void* p) {
    if (!p) return;
    live.fetch_sub(1, std::memory_order_relaxed);
    __libc_free(header(p));
  }
  static void* xRealloc(void* p, int n) {
    if (!p) return xMalloc(n);
    auto* q = static_cast<char*>(__libc_realloc(header(p), static_cast<std::size_t>(n) + kHeader));
    if (!q) return nullptr;
    std::memcpy(q, &n, sizeof n);
    return q + kHeader;
  }
  static int xSize(void* p) {
    if (!p) return 0;
    int n = 0;
    std::memcpy(&n, header(p), sizeof n);
    return n;
  }
  static int xRoundup(int n) { return (n + 7) & ~7; }
  static int xInit(void*) { return SQLITE_OK; }
  static void xShutdown(void*) {}
};

int runOne(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const Input input = parse(data, size);
  std::string dbPath, analysisPath;
  writeDatabase(input, false, "ascend_pytorch_profiler_0.db", dbPath);
  bool analysisTables = false;
  for (std::size_t t = 0; t < kTables.size(); ++t) analysisTables |= kTables[t].analysis && (input.present >> t & 1u);
  if (analysisTables || (input.flags & 4u)) writeDatabase(input, true, "analysis.db", analysisPath);
  const bool tables = !(input.flags & 2u);

  core::LoadOptions options;
  options.threads = 1;
  const core::DbImport one = core::readAscendDb(dbPath, analysisPath, options, tables);
  if (!one.result.ok() && one.result.error.empty()) fuzz::fail("a failed database read without an error message");
  if (one.result.trace) checkTrace(*one.result.trace);
  if (input.flags & 1u) {
    options.threads = 2;
    const core::DbImport two = core::readAscendDb(dbPath, analysisPath, options, tables);
    const std::string a = fingerprint(one), b = fingerprint(two);
    if (a != b) fuzz::failDiff("the database reads differently with 2 threads", "1 thread", a, "2 threads", b);
  }
  if (one.kernelDetails) (void)core::parseKernelDetails(*one.kernelDetails);
  if (one.stepTraceTime) {
    std::string error;
    for (const auto& r : core::parseStepTraceTime(*one.stepTraceTime, error))
      for (const double v : {r.computing, r.commNotOverlapped, r.overlapped, r.communication, r.free})
        requireFinite(v, "a StepTraceTime figure");
  }
  if (one.communication) (void)one.communication->sum();

  // readDbRankTables opens both files again: only when one of its tables is there.
  const auto has = [&](std::string_view name) {
    for (std::size_t t = 0; t < kTables.size(); ++t)
      if (kTables[t].name == name) return (input.present >> t & 1u) != 0;
    return false;
  };
  if (!has("MEMORY_RECORD") && !has("OP_MEMORY") && !has("CommAnalyzerTime")) return 0;
  const core::DbRankTables t = core::readDbRankTables(dbPath, analysisPath);
  if (t.memoryRecord)
    for (const auto& r : t.memoryRecord->rows)
      for (const auto& v : {r.allocatedMB, r.reservedMB, r.activeMB})
        if (v && !(*v >= 0 && *v <= core::kMaxMemoryTotalMB)) fuzz::fail("MEMORY_RECORD: a total out of range");
  if (t.operatorMemory)
    for (const auto& r : t.operatorMemory->rows) requireFinite(r.sizeKB, "OP_MEMORY size");
  if (t.communication) {
    (void)t.communication->sum();
    for (const auto& op : t.communication->ops)
      for (const auto& b : op.bandwidth) {
        requireFinite(b.sizeMB, "transit_size");
        requireFinite(b.timeMs, "transit_time");
        requireFinite(b.gbps, "bandwidth");
      }
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static const sqlite3_mem_methods methods = {SqliteHeap::xMalloc, SqliteHeap::xFree,  SqliteHeap::xRealloc,
                                              SqliteHeap::xSize,   SqliteHeap::xRoundup, SqliteHeap::xInit,
                                              SqliteHeap::xShutdown, nullptr};
  if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) != SQLITE_OK) fuzz::fail("sqlite3_config(SQLITE_CONFIG_MALLOC)");
  if (sqlite3_initialize() != SQLITE_OK) fuzz::fail("sqlite3_initialize");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const long before = SqliteHeap::live.load();
  runOne(data, size);
  if (const long after = SqliteHeap::live.load(); after != before)
    fuzz::fail("SQLite memory left allocated after the input (" + std::to_string(after - before) +
               " blocks): a statement or connection left open");
  return 0;
}
