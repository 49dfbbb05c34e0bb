// SPDX-License-Identifier: MIT
#pragma once
// The profile-level analysis stage: what needs every rank of a profile at once, run by
// loadProfile after each rank's own analyses (analyzeRank). Pure function of a loaded Profile,
// so the GUI, the command-line report and the tests get the same numbers.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/base/types.h"

namespace npuscope::core {

struct Profile;

/// The three time dimensions msprof-analyze compares across ranks, for the first device of one
/// rank, summed over its steps. ns.
struct RankTimeFigures {
  std::size_t rankIndex = 0;  ///< index into Profile::ranks
  int rank = -1;              ///< RankProfile::rank()
  int device = -1;            ///< the device the figures are for (-1: unknown)
  TimeNs computing = 0;       ///< "Computing"
  TimeNs commNotOverlapped = 0;  ///< "Communication(Not Overlapped)"
  TimeNs free = 0;            ///< "Free"
  /// Where the figures come from, best first: "step_trace_time.csv" (the rows of that device,
  /// summed over the steps, us rounded to ns), "Overlap Analysis lanes" (the trace's own lanes,
  /// whole capture), or "device tasks" (computed by npuscope from the tasks, whole capture).
  std::string source;
  [[nodiscard]] TimeNs total() const { return computing + commNotOverlapped + free; }
};

/// One dimension of msprof-analyze's slow-rank rule.
struct SlowRankDimension {
  std::string name;               ///< "Computing", "Communication(Not Overlapped)" or "Free"
  TimeNs max = 0, min = 0;        ///< over the ranks, ns
  int maxRank = -1;               ///< RankTimeFigures::rank of the rank with the max (first on ties)
  std::size_t maxRankIndex = 0;   ///< its index into Profile::ranks
  /// (max - min) / the mean rank time: of all ranks (ProfileAnalysis::meanTotal), or with
  /// pipeline stages of the ranks of `stage`
  double ratio = 0;
  bool bottleneck = false;        ///< ratio > kSlowRankThreshold
  /// With pipeline stages (ProfileAnalysis::stages): the index of the stage whose ranks give this
  /// dimension's widest gap (the rule compares ranks within a stage only); -1 without stages.
  int stage = -1;
};

/// msprof-analyze's threshold of the slow-rank rule (format notes §4.5).
inline constexpr double kSlowRankThreshold = 0.05;

/// Cross-rank results of a profile.
struct ProfileAnalysis {
  std::vector<RankTimeFigures> ranks;  ///< one per rank that has figures, in Profile::ranks order
  /// Mean over `ranks` of RankTimeFigures::total(), ns (0 without ranks).
  double meanTotal = 0;
  /// The slow-rank rule, one entry per dimension in the order Computing, Communication(Not
  /// Overlapped), Free; empty with fewer than 2 ranks with figures.
  std::vector<SlowRankDimension> slowRank;
  /// The pipeline stages (pipelineStages), global rank ids, when there are 2 or more and every
  /// rank with figures belongs to one: the slow-rank rule then compares ranks within a stage,
  /// never across (a later stage computes more by design). Empty otherwise.
  std::vector<std::vector<int>> stages;
  std::vector<std::string> notes;  ///< ranks left out, figures of mixed sources, ...
  /// The HCCL collectives matched across ranks (docs/diagnosis.md §5.4): skew, late rank, clock
  /// offsets (its ops are indices into the ranks' analyses: collectiveOp).
  ClusterComm comm;
  /// collectiveFindings of this analysis, computed once by analyzeCluster (the verdicts, the
  /// report and the Cluster dock read them here).
  std::vector<std::string> findings;
  /// The ranks the stage ran on (rank_summary.h), in Profile::ranks order: RankTimeFigures::rankIndex
  /// and CollectiveRank::rankIndex index it; a rank loaded from a summary file is its summary.
  RankSummaries summaries;
  /// The dimensions found to be bottlenecks (empty: none, or fewer than 2 ranks).
  [[nodiscard]] std::vector<const SlowRankDimension*> bottlenecks() const;
};

/// The pipeline stages of a job from its ranks' parallel groups (RankSummary::parallelGroups,
/// profiler_metadata.json), as msprof-analyze infers them (cluster_analyse/analysis/
/// stage_group_analysis.py, Ascend/msprof-analyze 8399c1c): the groups named "pp..." link the
/// ranks of one pipeline, and their connected unions are the pipelines; every other group that
/// holds at most one rank of each pipeline lies inside one stage, and the connected unions of
/// those groups are the stages, ordered by their lowest rank (ranks ascending). Empty without any
/// "pp" group. msprof-analyze takes the groups that have collective ops in communication.json;
/// npuscope takes every recorded group but the "pp" ones (a group crossing stages holds two ranks
/// of one pipeline and is skipped by both). Never throws but std::bad_alloc.
[[nodiscard]] std::vector<std::vector<int>> pipelineStages(const RankSummaries& ranks);

/// The cross-rank stage (docs/architecture.md "The cross-rank stage"): runs the profile-level
/// analyses over `ranks` (one per rank, in Profile::ranks order; null: nothing to compare). Never
/// throws; ranks without figures are left out with a note. Its results depend on the summaries
/// only, so a profile loaded in full and the same ranks read from `npuscope summarize`'s files
/// give the same ProfileAnalysis.
///
/// Per rank: the Computing / Communication(Not Overlapped) / Free of its first device
/// (RankSummary's figures: step_trace_time.csv summed over the steps, as msprof-analyze's
/// cluster_step_trace_time does, else the trace's Overlap Analysis lanes, else the device tasks).
///
/// With >= 2 ranks, msprof-analyze's slow-rank rule (advisor; format notes §4.5 "Slow rank
/// (advisor)", from msprof-analyze `…/analyzer/cluster/slow_rank_analyzer.py` and
/// `dataset/cluster/cluster_dataset.py`): mean = mean over the ranks of (Computing +
/// Communication(Not Overlapped) + Free); for each dimension, (max - min) / mean > 0.05 makes the
/// dimension a bottleneck, and the rank holding the max is named. With pipeline stages
/// (pipelineStages) the rule runs within each stage, on that stage's mean, and each dimension
/// keeps its widest stage (msprof-analyze's advisor names the max and min rank per stage,
/// slow_rank_analyzer.py get_stage_step_rank). Then the collectives
/// (matchCollectives) and their findings (collectiveFindings).
[[nodiscard]] ProfileAnalysis analyzeCluster(RankSummaries ranks);

/// The stage's input for `profile`: each rank's summary (RankProfile::summary when it was read
/// from a summary file, else summarizeRank of the loaded rank).
[[nodiscard]] RankSummaries clusterInput(const Profile& profile);

/// analyzeCluster(clusterInput(profile)).
[[nodiscard]] ProfileAnalysis analyzeProfile(const Profile& profile);

/// The `profile_analysis` object of `npuscope report --json`: {"ranks": [{"rank", "device",
/// "source", "computing_us", "communication_not_overlapped_us", "free_us", "total_us",
/// "late_count", "caused_us", "waited_us", "clock_offset_ns"}], "mean_total_us", "slow_rank":
/// {"threshold", "dimensions": [{"name", "max_us", "min_us", "max_rank", "ratio", "bottleneck"}]}
/// or null with fewer than 2 ranks, "collectives": [{"name", "type", "group", "sequence", "step",
/// "late_rank", "holder" (null or {"status", "group_rank", "rank", "after_last_loaded_us",
/// "margin_us", "arrives_with", "held_rank", "held_after_us"}), "outside_arrivals", "max_skew_ns",
/// "lost_us", "uncaptured_peers", "also_late", "ranks": [{"rank", "start_ns",
/// "corrected_start_ns", "skew_ns", "elapse_us", "transit_us", "wait_us", "synchronization_us",
/// "idle_us", "idle_wait_peer", "idle_wait_us", "recorded"}]}], "collective_findings": [...]
/// (collectiveFindings), "notes": [...]}.
/// us with 3 decimals (exact ns); a figure the data cannot give is null.
[[nodiscard]] std::string profileAnalysisJson(const ProfileAnalysis& analysis);

/// The cross-rank communication findings in words (docs/diagnosis.md §5.4), most important first:
/// which rank is late to which collective and by how much, what the others lose, the waits on
/// peers not in the capture, and how msprof-analyze's slow-rank rule relates to it. Empty with
/// fewer than 2 ranks with collectives.
[[nodiscard]] std::vector<std::string> collectiveFindings(const ProfileAnalysis& analysis);

/// Puts `analysis.findings` (collectiveFindings) into the verdict of every communication-bound rank (first among its
/// findings) and makes its suggestion name the late rank, so that the verdict, the advice and
/// the slow-rank line say the same (docs/diagnosis.md §5.4). Replaces those ranks'
/// RankProfile::analysis with an amended copy (the op indices of `analysis` stay valid).
void applyCollectiveVerdicts(Profile& profile, const ProfileAnalysis& analysis);

/// One line of text for the report, e.g. "slow rank (msprof-analyze rule, 2 ranks): no
/// bottleneck; largest gap Communication(Not Overlapped) 4.17% of the mean rank time (rank 0)".
[[nodiscard]] std::string profileAnalysisLine(const ProfileAnalysis& analysis);

}  // namespace npuscope::core
