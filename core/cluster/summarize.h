// SPDX-License-Identifier: MIT
#pragma once
// `npuscope summarize PATH -o OUT`: one summary file per rank of PATH, made where the traces lie
// (docs/architecture.md "The cross-rank stage"; core/cluster/summary.h for the file).

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/model/trace.h"

namespace npuscope::core {

struct SummarizeOptions {
  /// Ranks summarized at once (each loaded, analysed, written and dropped before the next one of
  /// its worker); 0: the machine's cores. A rank's own load gets the cores left to it.
  unsigned jobs = 0;
  /// The machine recorded in each summary (RankSummary::host); empty: this machine's name.
  std::string host;
  /// discoverProfile's capture, the .db/text preference, the cancel token (options.stop).
  LoadOptions load;
  AdvisorThresholds thresholds;
  /// Called after each rank (from a worker thread; serialised): done, total, its label.
  std::function<void(std::size_t, std::size_t, const std::string&)> progress;
};

/// One rank's outcome.
struct SummarizedRank {
  std::string label;
  int rank = -1;
  std::string file;   ///< the summary written ("" when none could be)
  /// Why nothing usable could be summarized (no figures and no HCCL ops: the rank's summary
  /// still says why), or why nothing was written. The rank counts as failed.
  std::string error;
  /// What the rank lacks while still giving figures (a rank with tables but no trace).
  std::string note;
};

struct SummarizeResult {
  std::vector<SummarizedRank> ranks;  ///< in discovery order
  std::vector<std::string> messages;  ///< discovery's and the loads' messages
  std::string error;                  ///< set when nothing could be done (no rank found, OUT refused)
  [[nodiscard]] std::size_t failed() const;
};

/// Summarizes every rank of `path` (a capture folder, a rank folder, a .db, a trace file, or a
/// folder of summaries) into `outDir` (created when missing): rank by rank on `jobs` workers,
/// each rank's summary with its analyses (summarizeRank + addRankAnalyses) written as
/// summaryFileName (a repeated name gets "-2", "-3", ...). A rank that fails to load is written
/// with its error; the others go on. Refused, with `error`, when `outDir` lies inside `path` or
/// inside a rank's folder: npuscope never writes into the folder it reads. Never throws.
[[nodiscard]] SummarizeResult summarizePath(const std::string& path, const std::string& outDir, const SummarizeOptions& options = {});

/// This machine's host name (gethostname), "" when it cannot be read.
[[nodiscard]] std::string localHostName();

}  // namespace npuscope::core
