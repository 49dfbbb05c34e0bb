// SPDX-License-Identifier: MIT
// Fuzz target: the SQLite export reader (readAscendDb) on mutated database bytes, written to a
// temporary file `ascend_pytorch_profiler_0.db` (SQLite reads files, not memory), then the
// tables it returns through the CSV parsers, the rank analyses and the report, which must be
// valid UTF-8 JSON. Seeds: fuzz/seeds/fuzz_sqlite_db (from fuzz/make_seed_db.py) and, at run
// time, the smallest .db files of ../shared/corpus (never committed).
//
// Input: byte 0 = mode (bit 0: 2 reader threads, else 1), the rest is the database file.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/analysis/analysis.h"
#include "core/analysis/profile_analysis.h"
#include "core/import/db/db_reader.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "core/tables/tables.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string path = fuzz::writeTempFile("ascend_pytorch_profiler_0.db", bytes);
  core::LoadOptions options;
  options.threads = (data[0] & 1u) ? 2 : 1;
  core::DbImport db = core::readAscendDb(path, "", options);
  if (!db.result.ok()) {
    if (db.result.error.empty()) fuzz::fail("a failed database read without an error message");
    return 0;
  }
  std::shared_ptr<const core::KernelDetails> kernels;
  if (db.kernelDetails) kernels = std::make_shared<const core::KernelDetails>(core::parseKernelDetails(*db.kernelDetails));
  std::vector<core::StepTraceRow> steps;
  if (db.stepTraceTime) {
    std::string error;
    steps = core::parseStepTraceTime(*db.stepTraceTime, error);
  }
  core::AnalysisOptions analysisOptions;
  analysisOptions.communication = db.communication ? &*db.communication : nullptr;
  analysisOptions.threads = 1;  // no side thread (speed)

  auto profile = std::make_shared<core::Profile>();
  profile->path = path;
  core::RankProfile rank;
  rank.source.rank = 0;
  rank.source.dbFile = path;
  rank.trace = db.result.trace;
  rank.kernels = kernels;
  rank.stepTrace = steps;
  rank.chip = db.chip;
  rank.analysis = std::make_shared<const core::RankAnalysis>(
      core::analyzeRank(*rank.trace, kernels.get(), db.stepTraceTime ? &steps : nullptr, analysisOptions));
  profile->ranks.push_back(std::move(rank));
  profile->analysis = std::make_shared<const core::ProfileAnalysis>(core::analyzeProfile(*profile));
  fuzz::requireValidJson(core::reportJson(*profile), "reportJson");
  (void)core::reportText(*profile);
  return 0;
}
