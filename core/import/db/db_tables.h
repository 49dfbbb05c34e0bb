// SPDX-License-Identifier: MIT
#pragma once
// The SQLite export's equivalents of the text export's memory and communication files, read into
// the text readers' structures so that the advisor's rules treat both exports alike (format notes
// ../shared/docs/ascend-profiling-format.md §5.1, §5.2, §5.3):
// - ascend_pytorch_profiler_{rank}.db MEMORY_RECORD -> MemoryRecord (memory_record.csv),
//   OP_MEMORY -> OperatorMemory (operator_memory.csv): torch_npu `_memory_db_parser.py`;
// - analysis.db CommAnalyzerTime + CommAnalyzerBandwidth -> CommunicationJson
//   (communication.json): torch_npu `_communication_db_parser.py`.
// Databases are opened read-only and immutable through SqliteDb (sqlite_db.h); nothing throws.

#include <optional>
#include <string>
#include <vector>

#include "core/tables/communication_json.h"
#include "core/tables/memory_tables.h"

namespace npuscope::core {

namespace detail {
class SqliteDb;
}

/// MEMORY_RECORD(component, timestamp, totalAllocated, totalReserved, totalActive, streamPtr,
/// deviceId) as memory_record.csv rows. Units as the database stores them, converted to the text
/// export's: timestamp int ns (local Unix time) kept as ns; totals in bytes -> MB = bytes / 2^20
/// (torch_npu's text export divides by 1024², checked on the corpus: 910B text memory_record.csv's
/// first PTA value 935.9951171875 MB = 981462016 B, the 910B .db's first totalAllocated); the
/// component through STRING_IDS ("PTA", "GE", "PTA+GE"; the id as text when STRING_IDS lacks it);
/// device "NPU:{deviceId}". A NULL total is absent, never 0. Rows in the table's stored order.
/// Without the table: nullopt. Without a timestamp column: `error`.
[[nodiscard]] std::optional<MemoryRecord> readDbMemoryRecord(detail::SqliteDb& db);

/// Opens `dbPath` read-only and reads its MEMORY_RECORD (above). nullopt without the table, or
/// when the database cannot be opened (then `error` says why). Never throws.
[[nodiscard]] std::optional<MemoryRecord> readDbMemoryRecord(const std::string& dbPath, std::string& error);

/// OP_MEMORY(name, size, allocationTime, releaseTime, ...) as operator_memory.csv rows: name
/// through STRING_IDS (e.g. "aten::empty_strided"), size bytes -> KB = bytes / 1024 (the text's
/// `Size(KB)`, checked as above: 18816.5 KB = 19268096 B), allocation / release times int ns
/// (NULL release: not released within the capture). A row without size or allocation time is
/// skipped with a warning. Without the table: nullopt; without those columns: `error`.
[[nodiscard]] std::optional<OperatorMemory> readDbOperatorMemory(detail::SqliteDb& db);

/// analysis.db CommAnalyzerTime as communication.json's "Communication Time Info" (one op per row:
/// name "{hccl_op_name}@{group_name}", times in ms -> ns, start_timestamp µs (REAL or INTEGER) ->
/// ns; "Total Op Info" rows summed into recordedTotal) and CommAnalyzerBandwidth as each op's
/// "Communication Bandwidth Info": the table holds one row per (op, transport, package_size) of
/// the size distribution with the transport's transit_size (MB), transit_time (ms) and bandwidth
/// (GB/s) repeated on each; the first row of a transport gives its CommBandwidth (corpus CANN 8.3
/// rank 0: equal to its communication.json's). Matched to the time rows by (op, group, step,
/// type); a bandwidth row without a time row is counted in a warning. Without CommAnalyzerTime:
/// nullopt.
[[nodiscard]] std::optional<CommunicationJson> readCommAnalyzer(detail::SqliteDb& analysisDb);

/// The three tables of one rank's SQLite export, each nullopt when its table (or analysis.db) is
/// missing; `messages` says why a database could not be opened.
struct DbRankTables {
  std::optional<MemoryRecord> memoryRecord;
  std::optional<OperatorMemory> operatorMemory;
  std::optional<CommunicationJson> communication;
  std::vector<std::string> messages;
};

/// Opens `dbPath` (the rank's .db export) and `analysisDbPath` (may be empty) and reads the tables
/// above. Never throws.
[[nodiscard]] DbRankTables readDbRankTables(const std::string& dbPath, const std::string& analysisDbPath);

}  // namespace npuscope::core
