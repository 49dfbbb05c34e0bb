// SPDX-License-Identifier: MIT
#pragma once
// The memory files of ASCEND_PROFILER_OUTPUT written with profile_memory=True (torch_npu
// `_memory_view_parser.py`, format notes ../shared/docs/ascend-profiling-format.md §1.1 and §5.1):
// memory_record.csv (the allocator's totals after each allocation or free) and
// operator_memory.csv (each allocation with its operator, size and lifetime). Columns are read by
// header name; a missing column or cell reads as absent, never as 0.

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/tables/csv.h"

namespace npuscope::core {

/// One row of memory_record.csv: `Component, Timestamp(us), Total Allocated(MB), Total
/// Reserved(MB), Total Active(MB), Stream Ptr, Device Type`.
struct MemoryRecordRow {
  /// "PTA" (torch_npu's caching allocator), "GE" (graph engine), "PTA+GE" (their sum), "APP"
  /// (the whole process as the driver sees it: reserved only), or what the file says.
  std::string component;
  TimeNs ts = 0;                       ///< `Timestamp(us)`, exact ns
  std::optional<double> allocatedMB;   ///< `Total Allocated(MB)` (empty for APP rows)
  std::optional<double> reservedMB;    ///< `Total Reserved(MB)`
  std::optional<double> activeMB;      ///< `Total Active(MB)`
  std::string device;                  ///< `Device Type`, e.g. "NPU:0"
};

/// memory_record.csv, parsed; rows in file order (time order as written).
struct MemoryRecord {
  std::vector<MemoryRecordRow> rows;
  std::vector<std::string> warnings;  ///< missing columns, rows skipped (at most 20 named); without the file name, which the caller adds
  std::string error;                  ///< unreadable file or no Timestamp column: no rows
};

/// One row of operator_memory.csv: one allocation made while operator `name` ran.
struct OperatorMemoryRow {
  std::string name;                   ///< `Name`: the torch op (e.g. "aten::empty_strided") or a component
  double sizeKB = 0;                  ///< `Size(KB)` (negative sizes are kept as written)
  std::optional<TimeNs> allocation;   ///< `Allocation Time(us)`
  std::optional<TimeNs> release;      ///< `Release Time(us)`: empty when not released within the capture
  std::string device;                 ///< `Device Type`
};

/// operator_memory.csv, parsed; rows in file order.
struct OperatorMemory {
  std::vector<OperatorMemoryRow> rows;
  std::vector<std::string> warnings;
  std::string error;  ///< unreadable file or no Name / Size(KB) / Allocation Time(us) column
};

/// Parses memory_record.csv (a row without a valid timestamp is skipped with a warning). Never throws.
[[nodiscard]] MemoryRecord parseMemoryRecord(const CsvTable& table);
[[nodiscard]] MemoryRecord readMemoryRecord(const std::string& path);
/// Parses operator_memory.csv (a row without a size or allocation time is skipped with a warning). Never throws.
[[nodiscard]] OperatorMemory parseOperatorMemory(const CsvTable& table);
[[nodiscard]] OperatorMemory readOperatorMemory(const std::string& path);

/// The largest memory total a row may hold, MB (2^30 MB = 1 PiB: a device has tens of GB, a host
/// a few TB): a larger total, or a negative one, is no measurement (a corrupted or hand-edited
/// file) and reads as absent with a row warning, in memory_record.csv and MEMORY_RECORD alike.
inline constexpr double kMaxMemoryTotalMB = 1073741824.0;

namespace detail {

/// Collects the row warnings of a memory table reader (memory_tables.cpp, the .db export's
/// db_tables.cpp) into `out`: the first 20 rows by number ("row N WHAT", rows 1-based), then one
/// "K more row warnings" line at finish(). Never throws beyond std::bad_alloc.
struct RowWarnings {
  std::vector<std::string>& out;
  std::size_t named = 0, more = 0;
  void add(std::size_t row, const std::string& what) {
    if (named++ < 20) out.push_back("row " + std::to_string(row + 1) + " " + what);
    else ++more;
  }
  void finish() {
    if (more) out.push_back(std::to_string(more) + " more row warnings");
  }
};

/// `v` when it is absent or a plausible total (0 .. kMaxMemoryTotalMB MB); else absent, with the
/// warning "row N <column> V is negative: ignored" (or "... MB is beyond 1 PiB: ignored") in `w`.
inline std::optional<double> plausibleTotalMB(std::optional<double> v, std::size_t row, const char* column,
                                              RowWarnings& w) {
  if (!v || (*v >= 0 && *v <= kMaxMemoryTotalMB)) return v;
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", *v);
  w.add(row, std::string(column) + " " + b + (*v < 0 ? " is negative: ignored" : " MB is beyond 1 PiB: ignored"));
  return std::nullopt;
}

}  // namespace detail

}  // namespace npuscope::core
