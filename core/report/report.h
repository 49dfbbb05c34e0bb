// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "core/analysis/advisor.h"
#include "core/analysis/operators.h"
#include "core/profile/profile.h"

namespace npuscope::core {

/// The `npuscope report PATH --json` document: {"path", "ranks": [{"rank", "device", "file",
/// "span_ns", "events", "lanes": [{"process", "thread", "slices"}], "flows": {cat: bound
/// arrows}, "counters", "warnings": {kind: count}, "table_messages": [problems reading the rank's
/// CSV files (RankProfile::tableMessages)]}], "messages", "profile_analysis": the cross-rank
/// stage (profileAnalysisJson), when Profile::analysis is set}. Each analysed rank ends with
/// "advice": the advisor's findings (adviceJson, core/report/advice_report.h) under `thresholds`. Times in ns (int64). Recorded
/// step_trace_time.csv values are printed as the cell's text when it is a valid JSON number.
[[nodiscard]] std::string reportJson(const Profile& profile, const AdvisorThresholds& thresholds = {});
/// The same as readable text (one block per rank).
[[nodiscard]] std::string reportText(const Profile& profile, const AdvisorThresholds& thresholds = {});

/// The advisor's findings for one rank of `profile` (its trace, kernel_details.csv, analysis and
/// profiler_metadata.json); empty findings when the rank has no trace or no analysis.
[[nodiscard]] RankAdvice adviseRankProfile(const RankProfile& rank, const AdvisorThresholds& thresholds = {});

/// The operator table adviseRankProfile's decision tree reads (RankAdvice::operators->table), alone:
/// the same chip (thresholds.chip, else the capture's msprof info.json, else the .db's NPU_INFO)
/// and thresholds, without the advisor's other rules (a summary keeps only the table). Null when
/// the advisor would have none: no trace, analysis or kernel table, or a GPU trace.
[[nodiscard]] std::shared_ptr<const OperatorTable> rankOperatorTable(const RankProfile& rank, const AdvisorThresholds& thresholds = {});

}  // namespace npuscope::core
