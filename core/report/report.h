// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/profile/profile.h"

namespace npuscope::core {

/// The `npuscope report PATH --json` document: {"path", "ranks": [{"rank", "device", "file",
/// "span_ns", "events", "lanes": [{"process", "thread", "slices"}], "flows": {cat: bound
/// arrows}, "counters", "warnings": {kind: count}, "table_messages": [problems reading the rank's
/// CSV files (RankProfile::tableMessages)]}], "messages", "profile_analysis": the cross-rank
/// stage (profileAnalysisJson), when Profile::analysis is set}. Times in ns (int64). Recorded
/// step_trace_time.csv values are printed as the cell's text when it is a valid JSON number.
[[nodiscard]] std::string reportJson(const Profile& profile);
/// The same as readable text (one block per rank).
[[nodiscard]] std::string reportText(const Profile& profile);

}  // namespace npuscope::core
