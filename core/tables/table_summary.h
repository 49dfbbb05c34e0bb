// SPDX-License-Identifier: MIT
#pragma once
// What the profiler's own tables say about a rank whose export has no trace (a CSV-only or
// analysis.db-only rank, as in the CANN 8.3 corpus capture where trace_view.json was left out):
// the step figures of step_trace_time.csv and the kernel statistics of kernel_details.csv,
// with a plain statement of what needs the trace.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/tables/tables.h"
#include "core/base/time_limits.h"
#include "core/base/types.h"

namespace npuscope::core {

/// step_trace_time.csv's figures of one device, summed over its steps (us rounded to ns, as
/// msprof-analyze's cluster_step_trace_time sums them). These are the profiler's own numbers
/// (torch_npu `_trace_step_time_parser.py`, format notes §4.2), not computed by npuscope.
struct TableDeviceFigures {
  int device = -1;               ///< `Device_id`, -1 when the column is absent
  std::size_t steps = 0;         ///< rows summed
  TimeNs computing = 0, commNotOverlapped = 0, free = 0, communication = 0, overlapped = 0;
  /// Computing + Communication(Not Overlapped) + Free: the step time the Top-Down shares divide,
  /// held at +-kMaxTimeNs. Each figure is held there already (summarizeTables), but three of them
  /// can pass 2^63 (UBSan: signed overflow, found by fuzz_csv_table).
  [[nodiscard]] TimeNs total() const {
    TimeNs two = 0, three = 0;
    if (__builtin_add_overflow(computing, commNotOverlapped, &two)) return computing > 0 ? kMaxTimeNs : -kMaxTimeNs;
    if (__builtin_add_overflow(two, free, &three)) return two > 0 ? kMaxTimeNs : -kMaxTimeNs;
    return std::clamp(three, -kMaxTimeNs, kMaxTimeNs);
  }
  /// `part` over Computing + Communication(Not Overlapped) + Free, in [0, 1] for figures that are
  /// not negative; 0 when that sum is not positive. The sum is taken in doubles, so the share stays
  /// right when total() is held at the limit (exact below 2^53 ns, i.e. 104 days).
  [[nodiscard]] double share(TimeNs part) const {
    const double sum = static_cast<double>(computing) + static_cast<double>(commNotOverlapped) + static_cast<double>(free);
    return sum > 0 ? static_cast<double>(part) / sum : 0.0;
  }
};

/// The summary of a trace-less rank's tables.
struct TablesOnlySummary {
  std::vector<TableDeviceFigures> devices;  ///< one per Device_id of step_trace_time.csv, ascending
  /// kernel_details.csv's kernel rows: every row but the communication ones (0: absent or empty).
  /// kernel_details.csv also lists the HCCL ops, `Accelerator Core` COMMUNICATION (format notes
  /// §5.1; KernelRow::isCommunication): they are counted in commRows, not as kernels.
  std::size_t kernelRows = 0;
  TimeNs kernelTime = 0;                    ///< summed `Duration(us)` of the kernel rows, ns
  std::size_t commRows = 0;                 ///< the communication rows of kernel_details.csv
  TimeNs commTime = 0;                      ///< their summed `Duration(us)`, ns
  /// Summed duration of the kernel rows per `Accelerator Core` (AI_CORE, AI_VECTOR_CORE, MIX_AIC,
  /// ...), ns, longest first.
  std::vector<std::pair<std::string, TimeNs>> byCore;
  /// Summed duration of the kernel rows per op `Type`, ns, longest first, at most kTopTypes.
  std::vector<std::pair<std::string, TimeNs>> topTypes;
  static constexpr std::size_t kTopTypes = 5;
  /// "step_trace_time.csv", "kernel_details.csv", "communication.json", "analysis.db": read or
  /// found beside the rank.
  std::vector<std::string> present;
  /// What cannot be shown and why, one sentence each.
  std::vector<std::string> missing;
};

/// Summarises the tables of a rank without a trace. `kernels` / `stepTrace` may be null.
/// `others` names further files found (communication.json, analysis.db, the .db export) for
/// TablesOnlySummary::present. Never throws.
[[nodiscard]] TablesOnlySummary summarizeTables(const KernelDetails* kernels, const std::vector<StepTraceRow>* stepTrace,
                                                const std::vector<std::string>& others = {});

/// The summary in lines of text for `npuscope report` and the GUI: per device the Top-Down
/// shares "from step_trace_time.csv (the profiler's figures; no trace)", the kernel statistics,
/// then "missing: ..." lines.
[[nodiscard]] std::vector<std::string> tablesOnlyLines(const TablesOnlySummary& s);

/// The summary as a JSON object: {"source": "tables only", "present": [...], "missing": [...],
/// "devices": [{"device", "steps", "computing_us", "communication_not_overlapped_us", "free_us",
/// "computing_share", "communication_not_overlapped_share", "free_share"}], "kernels": {"rows",
/// "total_us", "communication_rows", "communication_us", "by_core": [{"core", "total_us"}],
/// "top_types": [{"type", "total_us"}]}} ("rows" / "total_us": the kernel rows only).
[[nodiscard]] std::string tablesOnlyJson(const TablesOnlySummary& s);

}  // namespace npuscope::core
