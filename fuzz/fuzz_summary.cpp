// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 40 item 7): the rank summary reader (core/cluster/summary.h) and the
// cross-rank stage that reads what it accepts. From memory; no trace, no file system.
//
// Input: a summary's JSON text (seeds: corpus ranks summarized by `npuscope summarize`, inflated).
// Checks: parseSummaryJson either refuses with a message or gives a summary that, written again
// (summaryJson), reads back to the same text (what is read is exactly what would be written);
// the stage (analyzeCluster) over that summary and a copy of it as another rank, and the report
// of it (summaryReportJson, profileAnalysisJson), end and write valid UTF-8 JSON. Sanitizers: UB
// (huge counts, times near the int64 limits: the device-time subtractions), leaks, reads out of
// bounds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/analysis/profile_analysis.h"
#include "core/analysis/rank_summary.h"
#include "core/cluster/summary.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  core::RankSummary s;
  std::string error;
  if (!core::parseSummaryJson(text, s, error)) {
    if (error.empty()) fuzz::fail("parseSummaryJson refused without a message", text);
    return 0;
  }
  if (!error.empty()) fuzz::fail("parseSummaryJson accepted with a message: " + error, text);
  const std::string again = core::summaryJson(s);
  core::RankSummary back;
  if (!core::parseSummaryJson(again, back, error)) fuzz::fail("a summary written back does not read: " + error, again);
  if (core::summaryJson(back) != again) fuzz::fail("a summary written back reads differently", again);
  fuzz::requireValidJson(core::summaryReportJson(s), "summaryReportJson");
  auto a = std::make_shared<core::RankSummary>(s);
  auto b = std::make_shared<core::RankSummary>(s);
  b->rank = s.rank + 1;
  const core::ProfileAnalysis pa = core::analyzeCluster({a, b});
  fuzz::requireValidJson(core::profileAnalysisJson(pa), "profileAnalysisJson");
  return 0;
}
