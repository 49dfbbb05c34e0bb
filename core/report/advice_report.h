// SPDX-License-Identifier: MIT
#pragma once
// The "advice" section of `npuscope report` (JSON and text): the advisor's findings of one rank
// (core/analysis/advisor.h, docs/diagnosis.md §6), sorted as adviseRank sorts them.

#include <string>
#include <utility>
#include <vector>

#include "core/analysis/advisor.h"

namespace npuscope::core {

/// {"chip": "" | name, "steps": n, "findings": [{"rule", "title", "severity", "at_stake_per_step_ns",
/// "numbers", "threshold", "source", "fix", "steps_with_evidence" (Finding::stepsWithEvidence, null
/// when it cannot be told), "moment_ns" (Finding::moment's time, null when none), "evidence_count", "evidence": [{"name", "lane",
/// "start_ns", "dur_ns"}] (the first 10, worst first)}]}. Times in ns.
[[nodiscard]] std::string adviceJson(const Trace& trace, const RankAdvice& advice);
/// One line per finding, indented for the text report ("" without findings).
[[nodiscard]] std::string adviceText(const RankAdvice& advice);

/// "every step (3 of 3)" or "in 1 of 3 steps" for Finding::stepsWithEvidence over `steps`; ""
/// for -1.
[[nodiscard]] std::string stepsText(int stepsWithEvidence, std::size_t steps);

/// One rule that is an issue on at least one rank: on which of the advised ranks.
struct RuleAcrossRanks {
  std::string rule;
  std::string title;                ///< the title of its first issue
  std::vector<std::string> ranks;   ///< labels of the ranks where it is an issue, in input order (one per rank)
  std::size_t of = 0;               ///< ranks advised
};
/// Per rule that is an issue on any of `advised` (label, advice) pairs (the ranks with an
/// analysis): the ranks where it is, most ranks first, then by rule key. Empty with fewer than
/// two advised ranks (nothing to compare).
[[nodiscard]] std::vector<RuleAcrossRanks> issuesAcrossRanks(
    const std::vector<std::pair<std::string, RankAdvice>>& advised);
/// [{"rule", "title", "ranks": [labels], "of": n}] of issuesAcrossRanks.
[[nodiscard]] std::string adviceAcrossRanksJson(const std::vector<RuleAcrossRanks>& rules);
/// "advice across ranks ..." lines ("" when `rules` is empty).
[[nodiscard]] std::string adviceAcrossRanksText(const std::vector<RuleAcrossRanks>& rules);

}  // namespace npuscope::core
