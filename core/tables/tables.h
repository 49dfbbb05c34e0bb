// SPDX-License-Identifier: MIT
#pragma once
// The tabular files of ASCEND_PROFILER_OUTPUT that the analyses use: kernel_details.csv and
// step_trace_time.csv (columns read by header name; sets and orders vary by version, see
// ../shared/docs/ascend-profiling-format.md §5.1 and §4.2).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tables/csv.h"
#include "core/base/types.h"

namespace npuscope::core {

/// One row of kernel_details.csv. Times exact in ns (parsed from the decimal text).
struct KernelRow {
  std::optional<TimeNs> start;   ///< `Start Time(us)`, absent when the cell is missing or N/A
  std::optional<TimeNs> duration;  ///< `Duration(us)`
  std::optional<double> waitUs;  ///< `Wait Time(us)`
  std::string name;              ///< `Name`
  std::string type;              ///< `Type` (OP Type)
  std::string core;              ///< `Accelerator Core` (Task Type): AI_CORE, AI_VECTOR_CORE, COMMUNICATION, ...
  std::string blockDim;          ///< `Block Num` / `Block Dim`
  std::string inputShapes;       ///< `Input Shapes`
  int device = -1;               ///< `Device_id`
  std::optional<long long> step; ///< `Step Id` / `Step ID`
  [[nodiscard]] bool isCommunication() const { return core == "COMMUNICATION" || core == "HCCL"; }
};

/// kernel_details.csv, parsed. `table` keeps every column (extra ones too) for the stats view.
struct KernelDetails {
  std::vector<KernelRow> rows;
  CsvTable table;
  std::vector<std::string> warnings;  ///< missing columns, rows with missing values
};

/// Reads kernel_details.csv (aliases: `Block Dim` for `Block Num`, op_summary names `Op Name`,
/// `OP Type`, `Task Type`, `Task Start Time(us)`, `Task Duration(us)`). Never throws.
[[nodiscard]] KernelDetails readKernelDetails(const std::string& path);
[[nodiscard]] KernelDetails parseKernelDetails(const CsvTable& table);

/// One row of step_trace_time.csv, values in us as written (negative values kept as they are).
/// Each value also keeps its cell's text (trimmed of spaces, tabs and quotes; empty when the
/// column or cell is missing), so that reports print the recorded figure exactly as the profiler
/// wrote it: a double printed back can differ in its last digits (1234567.891 with %.6g).
struct StepTraceRow {
  int device = -1;                 ///< `Device_id`, -1 when absent or -1
  std::optional<long long> step;   ///< empty `Step` -> no step
  double computing = 0, commNotOverlapped = 0, overlapped = 0, communication = 0, free = 0;
  double stage = 0, bubble = 0, commNotOverlappedExclReceive = 0, preparing = 0;
  /// The cells' texts, one per value above, same names with a Text suffix.
  std::string computingText, commNotOverlappedText, overlappedText, communicationText, freeText;
  std::string stageText, bubbleText, commNotOverlappedExclReceiveText, preparingText;
  /// Where the row was read: kStepTraceCsv, or kStepTraceDb for a database capture (which has no
  /// step_trace_time.csv: torch_npu writes the same figures into analysis.db's StepTraceTime).
  std::string_view source = kStepTraceCsv;
  static constexpr std::string_view kStepTraceCsv = "step_trace_time.csv";
  static constexpr std::string_view kStepTraceDb = "analysis.db StepTraceTime";
};

/// Reads step_trace_time.csv (9, 10 or 11 columns by version). `error` set when unreadable.
[[nodiscard]] std::vector<StepTraceRow> readStepTraceTime(const std::string& path, std::string& error);
[[nodiscard]] std::vector<StepTraceRow> parseStepTraceTime(const CsvTable& table, std::string& error);

}  // namespace npuscope::core
