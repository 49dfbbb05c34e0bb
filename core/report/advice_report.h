// SPDX-License-Identifier: MIT
#pragma once
// The "advice" section of `npuscope report` (JSON and text): the advisor's findings of one rank
// (core/analysis/advisor.h, docs/diagnosis.md §6), sorted as adviseRank sorts them.

#include <string>

#include "core/analysis/advisor.h"

namespace npuscope::core {

/// {"chip": "" | name, "steps": n, "findings": [{"rule", "title", "severity", "at_stake_per_step_ns",
/// "numbers", "threshold", "source", "fix", "evidence_count", "evidence": [{"name", "lane",
/// "start_ns", "dur_ns"}] (the first 10, worst first)}]}. Times in ns.
[[nodiscard]] std::string adviceJson(const Trace& trace, const RankAdvice& advice);
/// One line per finding, indented for the text report ("" without findings).
[[nodiscard]] std::string adviceText(const RankAdvice& advice);

}  // namespace npuscope::core
