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
  double ratio = 0;               ///< (max - min) / ProfileAnalysis::meanTotal
  bool bottleneck = false;        ///< ratio > kSlowRankThreshold
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
  std::vector<std::string> notes;  ///< ranks left out, figures of mixed sources, ...
  /// The HCCL collectives matched across ranks (docs/diagnosis.md §5.4): skew, late rank, clock
  /// offsets (its ops are indices into the ranks' analyses: collectiveOp).
  ClusterComm comm;
  /// collectiveFindings of this analysis, computed once by analyzeProfile (the verdicts, the
  /// report and the Cluster dock read them here).
  std::vector<std::string> findings;
  /// The dimensions found to be bottlenecks (empty: none, or fewer than 2 ranks).
  [[nodiscard]] std::vector<const SlowRankDimension*> bottlenecks() const;
};

/// Runs the profile-level analyses over every loaded rank of `profile`. Never throws; ranks
/// without figures are left out with a note.
///
/// Per rank: the Computing / Communication(Not Overlapped) / Free of its first device (the first
/// DeviceAnalysis of RankProfile::analysis, else the lowest Device_id of its step_trace_time.csv),
/// taken from step_trace_time.csv when the rank has rows for that device (summed over the steps,
/// as msprof-analyze's cluster_step_trace_time does), else from the trace's Overlap Analysis
/// lanes, else from the device tasks (whole capture).
///
/// With >= 2 ranks, msprof-analyze's slow-rank rule (advisor; format notes §4.5 "Slow rank
/// (advisor)", from msprof-analyze `…/analyzer/cluster/slow_rank_analyzer.py` and
/// `dataset/cluster/cluster_dataset.py`): mean = mean over the ranks of (Computing +
/// Communication(Not Overlapped) + Free); for each dimension, (max - min) / mean > 0.05 makes the
/// dimension a bottleneck, and the rank holding the max is named.
[[nodiscard]] ProfileAnalysis analyzeProfile(const Profile& profile);

/// The `profile_analysis` object of `npuscope report --json`: {"ranks": [{"rank", "device",
/// "source", "computing_us", "communication_not_overlapped_us", "free_us", "total_us",
/// "late_count", "caused_us", "waited_us", "clock_offset_ns"}], "mean_total_us", "slow_rank":
/// {"threshold", "dimensions": [{"name", "max_us", "min_us", "max_rank", "ratio", "bottleneck"}]}
/// or null with fewer than 2 ranks, "collectives": [{"name", "type", "group", "sequence", "step",
/// "late_rank", "max_skew_ns", "lost_us", "uncaptured_peers", "ranks": [{"rank", "start_ns",
/// "corrected_start_ns", "skew_ns", "elapse_us", "transit_us", "wait_us", "synchronization_us",
/// "idle_us", "idle_wait_peer", "idle_wait_us", "recorded"}]}], "collective_findings": [...]
/// (collectiveFindings), "notes": [...]}.
/// us with 3 decimals (exact ns); a figure the data cannot give is null.
[[nodiscard]] std::string profileAnalysisJson(const Profile& profile, const ProfileAnalysis& analysis);

/// The cross-rank communication findings in words (docs/diagnosis.md §5.4), most important first:
/// which rank is late to which collective and by how much, what the others lose, the waits on
/// peers not in the capture, and how msprof-analyze's slow-rank rule relates to it. Empty with
/// fewer than 2 ranks with collectives.
[[nodiscard]] std::vector<std::string> collectiveFindings(const Profile& profile, const ProfileAnalysis& analysis);

/// Puts `analysis.findings` (collectiveFindings) into the verdict of every communication-bound rank (first among its
/// findings) and makes its suggestion name the late rank, so that the verdict, the advice and
/// the slow-rank line say the same (docs/diagnosis.md §5.4). Replaces those ranks'
/// RankProfile::analysis with an amended copy (the op indices of `analysis` stay valid).
void applyCollectiveVerdicts(Profile& profile, const ProfileAnalysis& analysis);

/// One line of text for the report, e.g. "slow rank (msprof-analyze rule, 2 ranks): no
/// bottleneck; largest gap Communication(Not Overlapped) 4.17% of the mean rank time (rank 0)".
[[nodiscard]] std::string profileAnalysisLine(const ProfileAnalysis& analysis);

}  // namespace npuscope::core
