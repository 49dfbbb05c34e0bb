// SPDX-License-Identifier: MIT
#pragma once
// The Stats System View: per-name statistics of one layer (Python/aten ops, CANN APIs, Ascend
// Hardware kernels, communication ops, Overlap Analysis categories) over the whole capture, a
// step or a selected range; and slice search by name.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "core/tables/tables.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// Which lanes a statistics table covers, by process role.
enum class StatsLayer : std::uint8_t { Python, Cann, Kernels, Communication, Overlap };
[[nodiscard]] const char* statsLayerKey(StatsLayer l);  ///< "python", "cann", "kernels", "communication", "overlap"
[[nodiscard]] std::optional<StatsLayer> statsLayerFromKey(std::string_view key);

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
  double share = 0;   ///< total / StatsTable::scopeDuration
  // Kernels only (from kernel_details.csv, matched by start time):
  std::string type;          ///< OP Type
  std::string core;          ///< Accelerator Core
  std::uint32_t shapes = 0;  ///< distinct Input Shapes
  double waitUs = 0;         ///< summed Wait Time(us)
};

struct StatsTable {
  StatsLayer layer = StatsLayer::Kernels;
  TimeRange scope;              ///< the range the table covers
  TimeNs scopeDuration = 0;
  TimeNs sumTotal = 0;          ///< plain sum of every slice's duration (overlaps counted twice)
  TimeNs unionTotal = 0;        ///< union of the slices (time covered by the layer at all)
  std::uint64_t slices = 0;
  std::vector<StatsRow> rows;   ///< sorted by total, descending
};

/// Computes the table of `layer` over `scope` (whole trace when nullopt). O(n) in the layer's slices.
[[nodiscard]] StatsTable computeStats(const Trace& trace, StatsLayer layer, std::optional<TimeRange> scope = {},
                                      const KernelDetails* kernels = nullptr);

/// The slices of `layer` named `name` whose start lies in `scope`, sorted by start.
[[nodiscard]] std::vector<SliceRef> statsOccurrences(const Trace& trace, StatsLayer layer, std::string_view name,
                                                     std::optional<TimeRange> scope = {});

/// The table as CSV text (header + rows; times in us with 3 decimals).
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
