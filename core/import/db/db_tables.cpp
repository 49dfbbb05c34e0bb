// SPDX-License-Identifier: MIT
#include "core/import/db/db_tables.h"

#include <sqlite3.h>

#include <cmath>
#include <map>
#include <tuple>

#include "core/base/time_limits.h"
#include "core/import/db/sqlite_db.h"
#include "core/tables/csv.h"

namespace npuscope::core {

using detail::SqliteDb;
using detail::SqliteStatement;

namespace {

constexpr double kBytesPerMB = 1024.0 * 1024.0;  // torch_npu's text export: MB = B / 1024²
constexpr double kBytesPerKB = 1024.0;

/// "SELECT <col or NULL>, ..." for `table`, each column quoted, a missing one NULL.
std::string selectColumns(SqliteDb& db, const char* table, std::initializer_list<const char*> cols) {
  std::string sql = "SELECT ";
  bool first = true;
  for (const char* c : cols) {
    sql += first ? "" : ", ";
    first = false;
    sql += db.hasColumn(table, c) ? "t.\"" + std::string(c) + "\"" : std::string("NULL");
  }
  return sql;
}

/// The name of a STRING_IDS id column: "s.value" joined when the table exists.
std::string nameJoin(SqliteDb& db, const char* table, const char* column) {
  if (!db.hasTable("STRING_IDS") || !db.hasColumn(table, column)) return " FROM \"" + std::string(table) + "\" t";
  return ", s.value FROM \"" + std::string(table) + "\" t LEFT JOIN STRING_IDS s ON s.id = t.\"" + column + "\"";
}

/// A number cell: INTEGER or REAL as stored, TEXT when the whole text is a decimal number
/// (csvNumber); nullopt for NULL, a BLOB, other text ('xyz' is no 0) or a non-finite value.
std::optional<double> numberCell(const SqliteStatement& s, int col) {
  switch (sqlite3_column_type(s.raw(), col)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: {
      const double v = s.real(col, std::nan(""));
      return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
    }
    case SQLITE_TEXT: return csvNumber(s.text(col));
    default: return std::nullopt;
  }
}

/// An int64 cell (INTEGER, or a REAL / numeric TEXT rounded), nullopt when NULL, not a number or
/// not within the time limits.
std::optional<std::int64_t> intCell(const SqliteStatement& s, int col) {
  if (s.isNull(col)) return std::nullopt;
  if (s.isInteger(col)) {
    const std::int64_t v = s.integer(col);
    if (v > kMaxTimeNs || v < -kMaxTimeNs) return std::nullopt;
    return v;
  }
  const std::optional<double> v = numberCell(s, col);
  if (!v || std::fabs(*v) > static_cast<double>(kMaxTimeNs)) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(*v));
}


/// The STRING_IDS value at column `nameCol` when joined and found, else the id column as text.
std::string nameOf(const SqliteStatement& s, int idCol, int nameCol, bool joined) {
  if (joined && !s.isNull(nameCol)) return std::string(s.text(nameCol));
  return std::string(s.text(idCol));
}

std::string deviceOf(const SqliteStatement& s, int col) {
  return s.isNull(col) ? std::string() : "NPU:" + std::string(s.text(col));
}

}  // namespace

std::optional<MemoryRecord> readDbMemoryRecord(SqliteDb& db) {
  static constexpr const char* kTable = "MEMORY_RECORD";
  if (!db.hasTable(kTable)) return std::nullopt;
  MemoryRecord m;
  if (!db.hasColumn(kTable, "timestamp")) {
    m.error = "the .db export's MEMORY_RECORD has no timestamp column";
    return m;
  }
  if (!db.hasColumn(kTable, "totalAllocated")) m.warnings.push_back("MEMORY_RECORD has no totalAllocated column");
  if (!db.hasColumn(kTable, "totalReserved")) m.warnings.push_back("MEMORY_RECORD has no totalReserved column");
  const bool joined = db.hasTable("STRING_IDS") && db.hasColumn(kTable, "component");
  SqliteStatement s(db, selectColumns(db, kTable, {"component", "timestamp", "totalAllocated", "totalReserved", "totalActive", "deviceId"}) +
                            nameJoin(db, kTable, "component"));
  detail::RowWarnings w{m.warnings};
  std::size_t row = 0;
  // A cell that is there but no number (TEXT 'xyz', a BLOB) is said, not read as 0.
  static constexpr const char* kColumn[] = {"", "", "totalAllocated", "totalReserved", "totalActive"};
  const auto mb = [&](int col) -> std::optional<double> {
    const auto v = numberCell(s, col);
    if (!v && !s.isNull(col)) w.add(row - 1, std::string(kColumn[col]) + " of MEMORY_RECORD is no number: ignored");
    return detail::plausibleTotalMB(v ? std::optional<double>(*v / kBytesPerMB) : std::nullopt, row - 1, kColumn[col], w);
  };
  while (s.step()) {
    const auto ts = intCell(s, 1);
    if (!ts) {
      w.add(row++, "of MEMORY_RECORD has no timestamp: skipped");
      continue;
    }
    ++row;
    MemoryRecordRow r;
    r.component = nameOf(s, 0, 6, joined);
    r.ts = *ts;
    r.allocatedMB = mb(2);
    r.reservedMB = mb(3);
    r.activeMB = mb(4);
    r.device = deviceOf(s, 5);
    m.rows.push_back(std::move(r));
  }
  w.finish();
  if (!s.error().empty()) m.error = "MEMORY_RECORD: " + s.error();
  return m;
}

std::optional<OperatorMemory> readDbOperatorMemory(SqliteDb& db) {
  static constexpr const char* kTable = "OP_MEMORY";
  if (!db.hasTable(kTable)) return std::nullopt;
  OperatorMemory m;
  if (!db.hasColumn(kTable, "name") || !db.hasColumn(kTable, "size") || !db.hasColumn(kTable, "allocationTime")) {
    m.error = "the .db export's OP_MEMORY lacks the name, size or allocationTime column";
    return m;
  }
  const bool joined = db.hasTable("STRING_IDS");
  SqliteStatement s(db, selectColumns(db, kTable, {"name", "size", "allocationTime", "releaseTime", "deviceId"}) +
                            nameJoin(db, kTable, "name"));
  detail::RowWarnings w{m.warnings};
  std::size_t row = 0;
  while (s.step()) {
    const auto size = numberCell(s, 1);
    const auto alloc = intCell(s, 2);
    if (!size || !alloc) {
      w.add(row++, "of OP_MEMORY has no size or allocationTime: skipped");
      continue;
    }
    ++row;
    OperatorMemoryRow r;
    r.name = nameOf(s, 0, 5, joined);
    r.sizeKB = *size / kBytesPerKB;
    r.allocation = *alloc;
    r.release = intCell(s, 3);
    r.device = deviceOf(s, 4);
    m.rows.push_back(std::move(r));
  }
  w.finish();
  if (!s.error().empty()) m.error = "OP_MEMORY: " + s.error();
  return m;
}

std::optional<CommunicationJson> readCommAnalyzer(SqliteDb& db) {
  if (!db.hasTable("CommAnalyzerTime")) return std::nullopt;
  CommunicationJson c;
  {
    static constexpr const char* kTable = "CommAnalyzerTime";
    SqliteStatement s(db, selectColumns(db, kTable,
                                        {"hccl_op_name", "group_name", "elapse_time", "transit_time", "wait_time",
                                         "synchronization_time", "idle_time", "step", "type", "start_timestamp"}) +
                              " FROM CommAnalyzerTime t");
    // ms -> ns as communication.json's reader converts them: held at +-kMaxTimeNs, 0 when not
    // finite (std::llround of 1.7e24 gave INT64_MIN, and two of them overflowed the sum: found by
    // fuzz_sqlite_reader).
    const auto ms = [&](int col) {
      const double v = s.real(col);
      return std::isfinite(v) ? clampedNs(v * 1e6) : TimeNs{0};
    };
    while (s.step()) {
      CommOpTimes op;
      const std::string name(s.text(0));
      op.name = name + (s.isNull(1) ? std::string() : "@" + std::string(s.text(1)));
      op.elapse = ms(2);
      op.transit = ms(3);
      op.wait = ms(4);
      op.synchronization = ms(5);
      op.idle = ms(6);
      op.step = std::string(s.text(7));
      op.kind = std::string(s.text(8));
      // start_timestamp: µs, stored REAL or INTEGER (format notes §5.3).
      if (const auto us = numberCell(s, 9); us && std::fabs(*us) * 1e3 < static_cast<double>(kMaxTimeNs))
        op.start = static_cast<TimeNs>(std::llround(*us * 1e3));
      if (name == "Total Op Info") {
        if (!c.recordedTotal) c.recordedTotal = op;
        else {
          c.recordedTotal->elapse = clampedSum(c.recordedTotal->elapse, op.elapse);
          c.recordedTotal->transit = clampedSum(c.recordedTotal->transit, op.transit);
          c.recordedTotal->wait = clampedSum(c.recordedTotal->wait, op.wait);
          c.recordedTotal->synchronization = clampedSum(c.recordedTotal->synchronization, op.synchronization);
          c.recordedTotal->idle = clampedSum(c.recordedTotal->idle, op.idle);
        }
      } else {
        c.ops.push_back(std::move(op));
      }
    }
    if (!s.error().empty()) {
      c.error = "analysis.db CommAnalyzerTime: " + s.error();
      return c;
    }
  }
  if (!db.hasTable("CommAnalyzerBandwidth")) {
    c.warnings.push_back("analysis.db has no CommAnalyzerBandwidth table: no bandwidth per op");
    return c;
  }
  static constexpr const char* kTable = "CommAnalyzerBandwidth";
  // (op name with group, step, kind) -> index in c.ops.
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  for (std::size_t i = 0; i < c.ops.size(); ++i) index.emplace(std::tuple{c.ops[i].name, c.ops[i].step, c.ops[i].kind}, i);
  SqliteStatement s(db, selectColumns(db, kTable,
                                      {"hccl_op_name", "group_name", "transport_type", "transit_size", "transit_time",
                                       "bandwidth", "step", "type"}) +
                            " FROM CommAnalyzerBandwidth t");
  std::size_t unmatched = 0;
  while (s.step()) {
    const std::string name = std::string(s.text(0)) + (s.isNull(1) ? std::string() : "@" + std::string(s.text(1)));
    const auto it = index.find(std::tuple{name, std::string(s.text(6)), std::string(s.text(7))});
    if (it == index.end()) {
      ++unmatched;
      continue;
    }
    CommOpTimes& op = c.ops[it->second];
    const std::string transport(s.text(2));
    if (op.transportInfo(transport)) continue;  // a further size-distribution row of the same transport
    CommBandwidth b;
    b.transport = transport;
    b.sizeMB = s.real(3);
    b.timeMs = s.real(4);
    b.gbps = s.real(5);
    op.bandwidth.push_back(std::move(b));
  }
  if (unmatched)
    c.warnings.push_back(std::to_string(unmatched) + " CommAnalyzerBandwidth rows name no op of CommAnalyzerTime: not read");
  if (!s.error().empty()) c.error = "analysis.db CommAnalyzerBandwidth: " + s.error();
  return c;
}

std::optional<MemoryRecord> readDbMemoryRecord(const std::string& dbPath, std::string& error) {
  SqliteDb db;
  if (!db.open(dbPath, error)) return std::nullopt;
  return readDbMemoryRecord(db);
}

DbRankTables readDbRankTables(const std::string& dbPath, const std::string& analysisDbPath) {
  DbRankTables out;
  if (!dbPath.empty()) {
    SqliteDb db;
    std::string error;
    if (db.open(dbPath, error)) {
      out.memoryRecord = readDbMemoryRecord(db);
      out.operatorMemory = readDbOperatorMemory(db);
    } else {
      out.messages.push_back(error);
    }
  }
  if (!analysisDbPath.empty()) {
    SqliteDb db;
    std::string error;
    if (db.open(analysisDbPath, error)) out.communication = readCommAnalyzer(db);
    else out.messages.push_back(error);
  }
  return out;
}

}  // namespace npuscope::core
