// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "core/analysis/advisor.h"
#include "core/analysis/operators.h"
#include "core/profile/profile.h"

namespace npuscope::core {

/// The version of the `report --json` document ("MAJOR.MINOR"; a minor version only adds keys;
/// docs/json-versions.md lists each), written first as its "schema_version".
inline constexpr const char* kReportSchemaVersion = "1.0";

/// The `npuscope report PATH --json` document: {"schema_version", "path", "ranks": [{"rank", "device", "file",
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

/// The findings of the cross-rank stage for rank `rankIndex` of `profile` (Profile::analysis's
/// collectives; docs/diagnosis.md §5.4), in the advisor's form so that the Advice dock and the
/// report rank them with the rank's own rules by time at stake (issue 42 item 4):
///  - "collective_wait": the rank waits at least kLateRankMinSkewNs for a later member (the
///    holder, loaded or not) in some collectives: RankCollectiveTotals::waited per step, the
///    holder it lost most to, its ops of those collectives as evidence (the longest wait first);
///  - "collective_late": the rank is the loaded holder the others wait for
///    (RankCollectiveTotals::caused per step), its ops as evidence.
/// `steps`: the rank's steps (RankAdvice::steps; per-step figures divide by it, at least 1); the
/// time at stake is not yet bounded nor the steps with evidence counted (settleFindings, as
/// adviseRankInProfile does). Empty without the stage, with one rank, or when the rank neither
/// waits nor holds. Never throws but bad_alloc.
[[nodiscard]] std::vector<Finding> collectiveAdvice(const Profile& profile, std::size_t rankIndex, std::size_t steps);

/// adviseRankProfile of rank `rankIndex` of `profile` with collectiveAdvice added (settled as the
/// advisor's own: settleFindings) and the findings ranked again (findingBefore).
[[nodiscard]] RankAdvice adviseRankInProfile(const Profile& profile, std::size_t rankIndex,
                                             const AdvisorThresholds& thresholds = {});

/// The operator table adviseRankProfile's decision tree reads (RankAdvice::operators->table), alone:
/// the same chip (thresholds.chip, else the capture's msprof info.json, else the .db's NPU_INFO)
/// and thresholds, without the advisor's other rules (a summary keeps only the table). Null when
/// the advisor would have none: no trace, analysis or kernel table, or a GPU trace.
[[nodiscard]] std::shared_ptr<const OperatorTable> rankOperatorTable(const RankProfile& rank, const AdvisorThresholds& thresholds = {});

}  // namespace npuscope::core
