// SPDX-License-Identifier: MIT
#pragma once
// The reader of the SQLite export (torch_npu `ascend_pytorch_profiler_{rank}.db` + `analysis.db`;
// the same msprof schema as MindSpore's `ascend_mindspore_profiler_{rank}.db` and msprof's
// `msprof_*.db`). The second client of TraceBuilder after the JSON reader. Format notes
// (../shared/docs/ascend-profiling-format.md) §1.1, §5.3, §5.4, §7.

#include <optional>
#include <string>
#include <vector>

#include "core/model/trace.h"
#include "core/tables/communication_json.h"
#include "core/tables/csv.h"

namespace npuscope::core {

/// What one database gives a rank: the trace and, in the shapes of the text export's tables, the
/// kernels and the step figures, so that loadProfile and the analyses treat both exports alike.
struct DbImport {
  /// The trace (its path is the .db file), or an error sentence when the file cannot be read as
  /// a profiler database at all (not a database, unreadable, none of the timeline tables).
  LoadResult result;
  /// COMPUTE_TASK_INFO joined with TASK as kernel_details.csv columns (`Device_id`, `Name`,
  /// `Type`, `Accelerator Core`, `Start Time(us)` with 3 decimals, `Duration(us)`, `Block Dim`,
  /// ...); empty when the tables are missing. Feed it to parseKernelDetails.
  std::optional<CsvTable> kernelDetails;
  /// analysis.db `StepTraceTime` as step_trace_time.csv columns (µs text as stored; `Device_id`
  /// from its deviceId column, else the trace's device); empty without analysis.db or the table.
  /// Feed it to parseStepTraceTime.
  std::optional<CsvTable> stepTraceTime;
  /// analysis.db `CommAnalyzerTime` and `CommAnalyzerBandwidth` as communication.json's time and
  /// bandwidth info (readCommAnalyzer, db_tables.h); empty without the table (Level0).
  std::optional<CommunicationJson> communication;
  /// The chip as NPU_INFO(id, name) records it (format notes §5.3: e.g. "Ascend910B", the family
  /// only on the corpus captures), the row of the trace's device when there are several; "" when
  /// the table is missing or empty.
  std::string chip;
  /// Which optional tables were missing or unreadable, what was computed instead.
  std::vector<std::string> messages;
};

/// Reads a profiler database into a Trace with the processes and lanes the text export's
/// trace_view.json has (format notes §2.4), so the analyses run unchanged:
/// - `Python` (pid from PYTORCH_API.globalTid >> 32, one lane per OS thread): PYTORCH_API rows
///   (times stored as TEXT: cast), names through STRING_IDS, `Call stack` from PYTORCH_CALLCHAINS;
/// - `CANN` (label CPU): CANN_API rows named `{AscendCL|Runtime|Node|Model|Communication}@{name}`
///   by ENUM_API_TYPE; `Python GC` from GC_RECORD; `MsTx` from MSTX_EVENTS;
/// - per device (label `NPU {deviceId}`): `Ascend Hardware` lanes `Stream {streamId}` from TASK,
///   named by COMPUTE_TASK_INFO.name (Task Type = its taskType) or else TASK.taskType; a task
///   without a compute record that encloses sub-tasks of the same (stream, taskId) with a context
///   id is the FFTS+/HCCL container the text export does not show, and is left out; `HCCL` with
///   `Group {k} Communication` (COMMUNICATION_OP) and `Plane {p}` (COMMUNICATION_TASK_INFO ⋈ TASK)
///   lanes; `Overlap Analysis` from OVERLAP_ANALYSIS, else `Overlap Analysis (computed by npuscope)`
///   as CANN computes it (§4.1; another name, so no analysis takes it for a record); counters
///   NPU MEM, HBM, LLC, DDR, AI Core Freq, Acc PMU, Stars Soc Info;
/// - flows rebuilt from connection ids (§5.4): HostToDevice (CANN_API -> the COMMUNICATION_OP, or
///   else the shown compute or MEMCPY_ASYNC tasks, with its connectionId: the text export's ends), async_npu (PYTORCH_API -> CONNECTION_IDS ->
///   the same device ends), async_task_queue (Enqueue -> Dequeue sharing a CONNECTION_IDS id),
///   fwdbwd (other rows sharing one, earliest first), MsTx (MSTX_EVENTS -> TASK).
/// Tables and columns are found by name (extra ones ignored, missing optional ones noted), so
/// schema 1.0.0-1.2.0 and files another tool added columns or tables to are read alike. Opened
/// read-only and immutable (sqlite_db.h): nothing is ever written. `analysisDbPath` may be empty.
/// Never throws; a missing or broken table is a message and a partial trace. options.stop cancels
/// (error "cancelled"); options.progress gets a coarse fraction. With `tables` false the
/// kernels (COMPUTE_TASK_INFO joined with TASK) and NPU_INFO are not read (kernelDetails and chip
/// stay empty): loadTrace keeps the trace and the messages of a database only.
[[nodiscard]] DbImport readAscendDb(const std::string& dbPath, const std::string& analysisDbPath,
                                    const LoadOptions& options = {}, bool tables = true);

}  // namespace npuscope::core
