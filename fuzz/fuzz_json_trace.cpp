// SPDX-License-Identifier: MIT
// Fuzz target: the JSON trace loader from bytes, then everything that runs on what it loaded:
// the rank analyses (analyzeRank), the cross-rank stage, the Statistics tables of every layer,
// the args of the first slices, and the report as JSON and text. The report and every non-empty
// sliceArgsJson must be valid UTF-8 JSON (issue 15 item 8): checked here, abort if not.
//
// Input: byte 0 chooses the path, the rest is the file.
//   bit 0: simdjson for every event (LoadOptions::fastScanner = false), else the fast scanner;
//   bit 1: split into parts (2-4 threads, LoadOptions::minPartBytes = 64), else one part;
//   bit 2: write the bytes to a temporary file and loadTrace it (the mapped-file path, gzip by
//          its magic bytes 1F 8B, inflated to at most 8 MiB; UTF-16), else loadTraceFromMemory.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/analysis/analysis.h"
#include "core/analysis/profile_analysis.h"
#include "core/analysis/stats.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned mode = data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  core::LoadOptions options;
  options.fastScanner = (mode & 1u) == 0;
  options.threads = (mode & 2u) ? 2 + ((mode >> 3) % 3) : 1;
  options.minPartBytes = (mode & 2u) ? 64 : options.minPartBytes;
  // A gzip input may inflate to 8 MiB (the default limit, 64 MiB for a small file, is checked by
  // tests/core/base/test_mapped_file.cpp; here it would only slow every bomb the fuzzer finds).
  options.gzipMaxInflatedBytes = 8u << 20;
  core::LoadResult loaded = (mode & 4u) ? core::loadTrace(fuzz::writeTempFile("trace.json", bytes), options)
                                        : core::loadTraceFromMemory(bytes, "fuzz.json", options);
  if (!loaded.ok()) {
    if (loaded.error.empty()) fuzz::fail("a failed load without an error message");
    return 0;
  }
  const std::shared_ptr<const core::Trace> trace = loaded.trace;

  // Lazy args of the first slices of each lane: a strict parser must accept sliceArgsJson.
  for (std::uint32_t l = 0; l < trace->lanes.size() && l < 16; ++l) {
    const core::Lane& lane = trace->lanes[l];
    for (std::uint32_t i = 0; i < lane.sliceCount() && i < 8; ++i) {
      const core::SliceRef ref{l, i};
      if (const std::string json = core::sliceArgsJson(*trace, ref); !json.empty())
        fuzz::requireValidJson(json, "sliceArgsJson");
      (void)core::sliceArgs(*trace, ref);
    }
  }
  for (const core::StatsLayer layer : core::kStatsLayers) (void)core::statsText(core::computeStats(*trace, layer));

  auto profile = std::make_shared<core::Profile>();
  profile->path = "fuzz.json";
  core::RankProfile rank;
  rank.source.rank = 0;
  rank.trace = trace;
  core::AnalysisOptions analysisOptions;
  analysisOptions.threads = 1;  // no side thread: one input, one thread (speed; the split is the reader's)
  rank.analysis = std::make_shared<const core::RankAnalysis>(core::analyzeRank(*trace, nullptr, nullptr, analysisOptions));
  profile->ranks.push_back(std::move(rank));
  profile->analysis = std::make_shared<const core::ProfileAnalysis>(core::analyzeProfile(*profile));

  fuzz::requireValidJson(core::reportJson(*profile), "reportJson");
  (void)core::reportText(*profile);
  return 0;
}
