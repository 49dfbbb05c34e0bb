// SPDX-License-Identifier: MIT
#pragma once
// The Stats System View: per-name statistics of one layer (Python/aten ops, CANN APIs, Ascend
// Hardware kernels, the other Ascend Hardware stream tasks, communication ops, Overlap Analysis
// categories) over the whole capture, a step or a selected range; and slice search by name.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "core/tables/tables.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// Which slices a statistics table covers, by process role and, on the Ascend Hardware lanes, by
/// task kind:
///  * Kernels: the compute kernels, i.e. the tasks kernel_details.csv lists (its non-communication
///    rows matched to tasks by exact start ns and name; op_statistic.csv aggregates the same rows
///    per OP Type, format doc §5.1). Without kernel_details.csv, or when none of its rows matches a
///    task, the tasks whose Task Type arg is a compute type or untyped and whose name is not a
///    memcpy / event / notify / SDMA / hcom_* ... name (detail::isComputeTask, §4.1).
///  * Tasks ("Stream tasks"): every other Ascend Hardware task (EVENT_WAIT, MEMCPY_ASYNC,
///    Notify_Wait, SDMA, Write Value, hcom_* tasks on streams, ...).
///  * Communication: the HCCL big ops of the Communication / HCCL process.
enum class StatsLayer : std::uint8_t { Python, Cann, Kernels, Tasks, Communication, Overlap };
/// "python", "cann", "kernels", "tasks", "communication", "overlap"
[[nodiscard]] const char* statsLayerKey(StatsLayer l);
[[nodiscard]] std::optional<StatsLayer> statsLayerFromKey(std::string_view key);
/// Every layer, in display order.
inline constexpr StatsLayer kStatsLayers[] = {StatsLayer::Python, StatsLayer::Cann,          StatsLayer::Kernels,
                                              StatsLayer::Tasks,  StatsLayer::Communication, StatsLayer::Overlap};

/// What StatsRow::share is a share of.
enum class ShareBasis : std::uint8_t {
  /// The layer's summed total in scope (StatsTable::sumTotal): the rows' shares add up to 100%.
  LayerTotal,
  /// The device's end-to-end span as the Top-Down analysis defines it (format doc §4.1):
  /// Computing + Communication(Not Overlapped) + Free starting in scope. Those three rows add up
  /// to 100% and are the Top-Down percentages; Communication is shown against the same E2E.
  E2E,
};
/// "Share of layer total" or "Share of E2E" (a column title without the unit).
[[nodiscard]] const char* shareBasisLabel(ShareBasis b);

/// One row: the slices of one name. Durations in ns. A slice is in scope when its start lies in
/// the scope range (the profiler's step attribution); its full duration counts.
struct StatsRow {
  std::string name;
  std::uint64_t count = 0;
  TimeNs total = 0;
  TimeNs self = 0;    ///< total minus the time covered by children on the same lane
  TimeNs min = 0;
  TimeNs max = 0;
  double avg = 0;     ///< ns
  double share = 0;   ///< total / StatsTable::shareDenominator, a fraction (0.25 = 25%)
  // Kernels only (from kernel_details.csv, matched by start time):
  std::string type;          ///< OP Type
  std::string core;          ///< Accelerator Core
  std::uint32_t shapes = 0;  ///< distinct Input Shapes
  double waitUs = 0;         ///< summed Wait Time(us)
  /// Achieved TFLOPS of the name's rows whose work kernelWork can compute (MatMul / Conv2D with
  /// shapes, Level1+): their summed FLOPs over their summed Duration(us). 0 when no row has it.
  double tflops = 0;
  std::uint64_t tflopsRows = 0;  ///< rows behind tflops (the others of the name have no computable work)
  /// kernelBound (busy pipe >= kBusyPipeRatio) holding most of the duration of the name's rows
  /// that have pipe ratios; "" when none has (Level0, other aic_metrics).
  std::string bound;
  double boundShare = 0;  ///< that bound's share of the duration of the rows with a bound, 0..1
};

struct StatsTable {
  StatsLayer layer = StatsLayer::Kernels;
  TimeRange scope;              ///< the range the table covers
  TimeNs scopeDuration = 0;
  TimeNs sumTotal = 0;          ///< plain sum of every slice's duration (overlaps counted twice)
  TimeNs unionTotal = 0;        ///< union of the slices (time covered by the layer at all)
  std::uint64_t slices = 0;
  std::vector<StatsRow> rows;   ///< sorted by total, descending
  ShareBasis shareBasis = ShareBasis::LayerTotal;  ///< Overlap: E2E; every other layer: LayerTotal
  TimeNs shareDenominator = 0;  ///< ns; the rows' share is total / this (0: every share is 0)
  /// Kernels / Tasks: how kernels were told from stream tasks (kernel_details.csv or Task Type).
  std::string kernelRule;
};

/// The busy-pipe mark of StatsRow::bound: the advisor's default (AdvisorThresholds::busyPipeRatio).
inline constexpr double kBusyPipeRatio = 0.5;

/// Computes the table of `layer` over `scope` (whole trace when nullopt). O(n) in the layer's slices.
/// `kernels` (kernel_details.csv) tells kernels from stream tasks (see StatsLayer) and fills the
/// kernel-only columns; without it the Task Type rule is used.
[[nodiscard]] StatsTable computeStats(const Trace& trace, StatsLayer layer, std::optional<TimeRange> scope = {},
                                      const KernelDetails* kernels = nullptr);

/// The Kernels table of a rank without a trace (a pruned export: tables only) from its
/// kernel_details.csv, the profiler's own table: one row per Name over the non-communication
/// rows (KernelRow::isCommunication) whose Start Time lies in `scope` (all rows when nullopt);
/// Total = the summed Duration(us), ns. `kernelRule` says where it came from. Rows without a
/// Duration are left out (counted in kernelRule). No self time (no nesting in a table).
[[nodiscard]] StatsTable kernelTableStats(const KernelDetails& kernels, std::optional<TimeRange> scope = {});

/// The slices of `layer` named `name` whose start lies in `scope`, sorted by start. `kernels` as
/// for computeStats (it decides which tasks are Kernels and which Tasks).
[[nodiscard]] std::vector<SliceRef> statsOccurrences(const Trace& trace, StatsLayer layer, std::string_view name,
                                                     std::optional<TimeRange> scope = {},
                                                     const KernelDetails* kernels = nullptr);

/// The table as CSV text (header + rows; times in us with 3 decimals; the share column is titled
/// by the table's ShareBasis, e.g. `Share of layer total(%)`).
[[nodiscard]] std::string statsCsv(const StatsTable& table);
/// The table as aligned plain text (for the command line).
[[nodiscard]] std::string statsText(const StatsTable& table, std::size_t maxRows = 0);

/// A name filter: case-insensitive substring, or an ECMAScript regular expression.
struct NameQuery {
  std::string text;
  bool regex = false;
  bool caseSensitive = false;
};

/// Every slice (any lane) whose name matches, sorted by start then lane. Matching is done once per
/// distinct name, then one pass over the name columns. `error` receives a bad regex message.
[[nodiscard]] std::vector<SliceRef> findSlices(const Trace& trace, const NameQuery& query, std::string* error = nullptr);

/// Ids of the distinct names that match (for highlighting).
[[nodiscard]] std::vector<bool> matchingNames(const Trace& trace, const NameQuery& query, std::string* error = nullptr);

/// Flow categories of the trace with their bound arrow counts, by name.
[[nodiscard]] std::vector<std::pair<std::string, std::size_t>> flowCategories(const Trace& trace);

}  // namespace npuscope::core
