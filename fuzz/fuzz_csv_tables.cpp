// SPDX-License-Identifier: MIT
// Fuzz target: the table readers of core/tables (kernel_details.csv, step_trace_time.csv,
// communication.json, memory_record.csv), then what uses them (memory_record.csv: the memory
// curve, addMemoryCounters, on a fresh copy of the fixed trace): the tables-only summary (tablesOnlyJson must be
// valid UTF-8 JSON), the Kernels statistics, and the rank analyses plus the report of a small
// fixed Ascend trace (one step, two device tasks on NPU 0) with these tables beside it (the
// report prints step_trace_time.csv cells as written when they are JSON numbers: it must stay
// valid JSON).
//
// Input: byte 0 = mode, then kernel_details.csv text, NUL, step_trace_time.csv text, NUL,
// communication.json text, NUL, memory_record.csv text; a part that is missing is a missing
// file. Mode bit 0: write the parts to temporary files and read them by path
// (readKernelDetails, readStepTraceTime, readCommunicationJson, readMemoryRecord: BOM, open
// errors), else parse them from memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/analysis/analysis.h"
#include "core/analysis/profile_analysis.h"
#include "core/analysis/stats.h"
#include "core/import/memory_counters.h"
#include "core/model/trace.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "core/tables/communication_json.h"
#include "core/tables/csv.h"
#include "core/tables/memory_tables.h"
#include "core/tables/table_summary.h"
#include "core/tables/tables.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

namespace {

/// One step (ProfilerStep#1, 1000-1100 us) and a compute and a communication task on NPU 0.
constexpr std::string_view kTrace = R"([
{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
{"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_labels","pid":2,"args":{"labels":"NPU 0"}},
{"ph":"M","name":"thread_name","pid":2,"tid":3,"args":{"name":"Stream 3"}},
{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":"1000.000","dur":100},
{"ph":"X","name":"MatMul","pid":2,"tid":3,"ts":"1010.000","dur":20,"args":{"Task Type":"AI_CORE"}},
{"ph":"X","name":"hcom_allReduce_","pid":2,"tid":3,"ts":"1040.000","dur":20,"args":{"Task Type":"COMMUNICATION"}}
])";

const std::shared_ptr<const core::Trace>& fixedTrace() {
  static const std::shared_ptr<const core::Trace> trace = [] {
    core::LoadOptions o;
    o.threads = 1;
    auto r = core::loadTraceFromMemory(kTrace, "fixed.json", o);
    if (!r.ok()) fuzz::fail("the fixed trace does not load", r.error);
    return std::shared_ptr<const core::Trace>(r.trace);
  }();
  return trace;
}

/// The next part of `rest` up to a NUL (consumed), or nullopt when `rest` is exhausted.
std::optional<std::string_view> nextPart(std::string_view& rest, bool& more) {
  if (!more) return std::nullopt;
  const std::size_t cut = rest.find('\0');
  std::string_view part = rest.substr(0, cut);
  if (cut == std::string_view::npos) {
    more = false;
    rest = {};
  } else {
    rest.remove_prefix(cut + 1);
  }
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool byPath = (data[0] & 1u) != 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  bool more = true;
  const auto kernelText = nextPart(rest, more);
  const auto stepText = nextPart(rest, more);
  const auto commText = nextPart(rest, more);
  const auto memoryText = nextPart(rest, more);

  std::shared_ptr<core::KernelDetails> kernels;
  if (kernelText)
    kernels = std::make_shared<core::KernelDetails>(
        byPath ? core::readKernelDetails(fuzz::writeTempFile("kernel_details.csv", *kernelText))
               : core::parseKernelDetails(core::parseCsv(*kernelText)));
  std::optional<std::vector<core::StepTraceRow>> steps;
  if (stepText) {
    std::string error;
    steps = byPath ? core::readStepTraceTime(fuzz::writeTempFile("step_trace_time.csv", *stepText), error)
                   : core::parseStepTraceTime(core::parseCsv(*stepText), error);
  }
  std::optional<core::CommunicationJson> comm;
  if (commText)
    comm = byPath ? core::readCommunicationJson(fuzz::writeTempFile("communication.json", *commText))
                  : core::parseCommunicationJson(*commText);
  if (comm) (void)comm->sum();

  const core::TablesOnlySummary summary = core::summarizeTables(kernels.get(), steps ? &*steps : nullptr);
  fuzz::requireValidJson(core::tablesOnlyJson(summary), "tablesOnlyJson");
  (void)core::tablesOnlyLines(summary);

  std::shared_ptr<const core::Trace> trace = fixedTrace();
  if (memoryText) {
    // The memory curve goes onto the rank's own trace, as loadProfile does: a fresh one.
    core::LoadOptions o;
    o.threads = 1;
    auto fresh = core::loadTraceFromMemory(kTrace, "fixed.json", o);
    if (!fresh.ok()) fuzz::fail("the fixed trace does not load", fresh.error);
    const core::MemoryRecord record = byPath ? core::readMemoryRecord(fuzz::writeTempFile("memory_record.csv", *memoryText))
                                             : core::parseMemoryRecord(core::parseCsv(*memoryText));
    const std::size_t before = fresh.trace->counters.size();
    const std::size_t added = core::addMemoryCounters(*fresh.trace, record, "memory_record.csv");
    if (fresh.trace->counters.size() != before + added) fuzz::fail("addMemoryCounters miscounts its series");
    for (std::size_t c = before; c < fresh.trace->counters.size(); ++c) {
      const auto& s = fresh.trace->counters[c];
      if (s.ts.size() != s.value.size() || s.ts.empty() || !std::is_sorted(s.ts.begin(), s.ts.end()))
        fuzz::fail("a memory series is empty, unsorted or ragged");
    }
    trace = std::move(fresh.trace);
  }
  (void)core::statsText(core::computeStats(*trace, core::StatsLayer::Kernels, std::nullopt, kernels.get()));
  (void)core::statsText(core::computeStats(*trace, core::StatsLayer::Tasks, std::nullopt, kernels.get()));
  core::AnalysisOptions analysisOptions;
  analysisOptions.communication = comm ? &*comm : nullptr;
  analysisOptions.threads = 1;  // no side thread (speed)

  auto profile = std::make_shared<core::Profile>();
  profile->path = "fuzz";
  core::RankProfile rank;
  rank.source.rank = 0;
  rank.trace = trace;
  rank.kernels = kernels;
  if (steps) rank.stepTrace = *steps;
  rank.analysis = std::make_shared<const core::RankAnalysis>(
      core::analyzeRank(*trace, kernels.get(), steps ? &*steps : nullptr, analysisOptions));
  profile->ranks.push_back(std::move(rank));
  // A second rank with the tables only (no trace), as loadProfile makes for a pruned export.
  core::RankProfile tablesOnly;
  tablesOnly.source.rank = 1;
  tablesOnly.kernels = kernels;
  if (steps) tablesOnly.stepTrace = *steps;
  tablesOnly.tablesOnly = std::make_shared<const core::TablesOnlySummary>(summary);
  profile->ranks.push_back(std::move(tablesOnly));
  profile->analysis = std::make_shared<const core::ProfileAnalysis>(core::analyzeProfile(*profile));
  fuzz::requireValidJson(core::reportJson(*profile), "reportJson");
  (void)core::reportText(*profile);
  return 0;
}
