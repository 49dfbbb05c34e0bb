// SPDX-License-Identifier: MIT
#pragma once
// One rank as the cross-rank stage sees it (docs/architecture.md "The cross-rank stage"): what
// analyzeCluster needs of a rank (its figures, step windows, HCCL ops with their plane-task facts,
// and the device time up to each op), and what `npuscope summarize` keeps of its own analyses
// (per-step Top-Down, the longest bubbles with cause and chain, operators, dispatch statistics,
// verdict). Built from a loaded rank (summarizeRank) or read from a summary file
// (core/cluster/summary_io.h); the stage cannot tell the two apart, so `report PATH` and `report
// SUMMARIES` give the same profile_analysis.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/collectives.h"
#include "core/base/types.h"
#include "core/tables/tables.h"

namespace npuscope::core {

struct RankProfile;

/// Device time covered from the start of the rank's capture up to a moment, ns: the Computing,
/// Communication (Not Overlapped) and Free intervals before it. The time of any window between two
/// such moments is their difference (the stage's "what the late rank did before the op").
struct DeviceTimeAt {
  TimeNs computing = 0;
  TimeNs communication = 0;  ///< Communication (Not Overlapped)
  TimeNs free = 0;
  friend bool operator==(const DeviceTimeAt&, const DeviceTimeAt&) = default;
};

/// One step of a rank (a ProfilerStep, or an msprof iteration): its windows on the rank's own clock
/// and its Top-Down figures.
struct SummaryStep {
  long long number = -1;
  TimeRange device;             ///< the step's device window (StepWindow::device), ns
  TimeNs hostStart = -1;        ///< the host ProfilerStep slice's start, -1 without one (msprof iterations too), ns
  DeviceTimeAt atDeviceStart;   ///< device time before device.start
  OverlapFigures computed;      ///< from the device tasks (StepOverlap::computed), ns
  /// step_trace_time.csv's (or StepTraceTime's) row of the step, us converted to ns: computing,
  /// communication (not overlapped) and free only.
  std::optional<OverlapFigures> recorded;
};

/// One bubble kept in a summary: the gap, its cause and the dispatch chain of the task ending it.
struct SummaryBubble {
  TimeRange range;
  long long step = -1;
  std::string cause;   ///< bubbleCauseKey
  std::string detail;
  /// The chain, Python API first: (chainLayerKey, slice name) per link recorded.
  std::vector<std::pair<std::string, std::string>> chain;
  std::optional<TimeNs> launchLatency;  ///< DispatchChain::correctedLatency, ns
};

/// kernel_details.csv's rows with a duration, summed per (Type, Name, Input Shapes): what
/// `compare` needs of a rank's kernel table (core/report/compare.cpp).
struct KernelGroup {
  std::string type, name, shapes;  ///< as written; shapes trimmed (csvTrim)
  bool communication = false;      ///< HCCL rows (KernelRow::isCommunication, or a name starting "hcom_")
  TimeNs total = 0;                ///< summed Duration, ns
  std::size_t count = 0;
};

/// The kernel groups of `k` (nullptr: none), longest first (ties by type, name, shapes); with
/// `byShapes` false the shapes are not told apart (every group's `shapes` is empty).
[[nodiscard]] std::vector<KernelGroup> kernelGroupsOf(const KernelDetails* k, bool byShapes = true);

/// Bubble time of one cause over every gap found (DeviceAnalysis::causes).
struct SummaryCause {
  std::string key;  ///< bubbleCauseKey
  std::size_t count = 0;
  TimeNs ns = 0;
};

/// Kept in a full summary: the longest bubbles, operator groups and dispatch statistics.
inline constexpr std::size_t kSummaryBubbles = 10;
inline constexpr std::size_t kSummaryOperators = 10;
inline constexpr std::size_t kSummaryDispatch = 10;
inline constexpr std::size_t kSummaryKernelGroups = 50;

/// One communication group of the job as profiler_metadata.json's parallel_group_info records it
/// (torch_npu writes Megatron's process groups there, format notes §1.2): its name ("pp", "dp_cp",
/// "tp", "default_group", ...) and the global ranks in it, ascending.
struct ParallelGroup {
  std::string name;
  std::vector<int> ranks;
  friend bool operator==(const ParallelGroup&, const ParallelGroup&) = default;
};

struct RankSummary {
  // Identity.
  int rank = -1;                ///< RankProfile::rank()
  int device = -1;              ///< the analysed device (RankProfile::device())
  std::string label;            ///< "rank 0"
  std::string host;             ///< the machine the summary was made on (where the trace lies), "" unknown
  std::string chip;             ///< as the capture records it, "" unknown
  std::string profilerLevel;    ///< "Level0".."Level2", "" unknown
  /// RankSource::profilerSettings (name, value), for compare; empty unknown.
  std::vector<std::pair<std::string, std::string>> profilerSettings;
  /// RankSource::parallelGroups (profiler_metadata.json's parallel_group_info); empty unknown.
  std::vector<ParallelGroup> parallelGroups;
  std::string path;             ///< the rank's folder (RankSource::root), absolute when known
  std::string file;             ///< the trace (or .db) it was read from
  std::string error;            ///< why the rank has no trace analysis ("" when it has one)
  std::uint64_t traceBytes = 0; ///< the trace files' size, bytes
  std::uint64_t events = 0;     ///< trace events read
  TimeRange span;               ///< the trace's time range, own clock, ns

  // What the cross-rank stage reads.
  /// The three time dimensions of msprof-analyze's slow-rank rule (profile_analysis.h
  /// RankTimeFigures), summed over the steps; hasFigures false when the rank has none.
  bool hasFigures = false;
  std::string figuresSource;    ///< "step_trace_time.csv", "Overlap Analysis lanes" or "device tasks"
  int figuresDevice = -1;
  TimeNs computing = 0, commNotOverlapped = 0, free = 0;
  std::vector<SummaryStep> steps;
  std::vector<CommOp> ops;      ///< the first device's HCCL ops (CommOp; slices only valid in-process)
  /// Per op (same index): the device time before its start and before its end.
  std::vector<std::pair<DeviceTimeAt, DeviceTimeAt>> opTimes;
  TimeNs firstComputeStart = -1;  ///< the first Computing interval's start, -1 none, ns
  DeviceTimeAt atFirstCompute;

  // The rank's own analyses (SummaryDetail::Full only).
  bool full = false;
  OverlapFigures overlap;       ///< whole capture, from the device tasks
  std::string dominant, headline, verdictSummary;
  std::vector<std::string> findings, suggestions;
  std::vector<SummaryBubble> bubbles;  ///< the longest kSummaryBubbles
  std::size_t gapsFound = 0;
  TimeNs gapsFoundNs = 0;
  std::vector<SummaryCause> causes;  ///< bubble time per cause, the causes with any, in enum order
  bool hasKernels = false;      ///< the rank has a kernel table (kernel_details.csv or the .db's)
  /// Its kernel groups per (type, name), every one (kernelGroupsOf without shapes): the operator
  /// type rows of `compare`.
  std::vector<KernelGroup> kernels;
  /// Per (type, name, input shapes), the longest kSummaryKernelGroups: the operator rows of
  /// `compare`; kernelGroupsCut says how many more there were (compare notes it).
  std::vector<KernelGroup> kernelShapes;
  std::size_t kernelGroupsCut = 0;
  std::string operatorsJson;    ///< the report's `operators` array, the first kSummaryOperators (JSON text)
  std::string dispatchJson;     ///< the report's `dispatch_stats` array, the first kSummaryDispatch (JSON text)
};

/// What the cross-rank stage needs of one loaded rank (RankSummary's identity, figures, steps, ops
/// and device times; `full` false): cheap, a few entries per step and op. The rank's own analyses
/// are added by `npuscope summarize` (core/cluster/summary.h addRankAnalyses). Never throws.
[[nodiscard]] RankSummary summarizeRank(const RankProfile& rp);

}  // namespace npuscope::core
