// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/profile_analysis.h"
#include "core/analysis/rank_summary.h"
#include "core/tables/table_summary.h"
#include "core/tables/tables.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// The files of one rank found in a profiling folder. Paths are absolute or as given; empty when
/// absent. Nothing is ever written into these folders.
struct RankSource {
  int rank = -1;            ///< from profiler_info_{rank}.json (name, then "rank_id"), else -1
  int device = -1;          ///< from PROF_*/device_{id} or the msprof file name; the trace's "NPU k" label wins later
  std::string root;         ///< the *_ascend_pt / *_ascend_ms folder, or the file's folder
  std::string traceFile;    ///< trace_view.json, *.pt.trace.json(.gz), msprof*.json
  /// Every trace file of the rank, in reading order, when its timeline is split over several
  /// (msprof's per-iteration msprof_{dev}_{model}_{iter}.json, or the msprof_slice_{k}_{ts}.json
  /// parts; format notes §6): loadProfile reads them as one (loadTraceFiles). traceFile is the
  /// first. Empty for a one-file rank.
  std::vector<std::string> traceFiles;
  std::string kernelDetails;   ///< ASCEND_PROFILER_OUTPUT/kernel_details.csv
  std::string stepTraceTime;   ///< ASCEND_PROFILER_OUTPUT/step_trace_time.csv
  std::string communicationJson;  ///< ASCEND_PROFILER_OUTPUT/communication.json
  std::string memoryRecord;    ///< ASCEND_PROFILER_OUTPUT/memory_record.csv (profile_memory=True)
  std::string profilerInfo;    ///< profiler_info*.json
  std::string dbFile;          ///< ascend_pytorch_profiler*.db / ascend_mindspore_profiler*.db (the SQLite export), or the .db opened
  std::string analysisDb;      ///< analysis.db (StepTraceTime, read with dbFile)
  std::string profilerLevel;   ///< "Level0".."Level2" from profiler_info, else empty
  /// profiler_info's settings that change what the figures hold, (name, value): profiler_level,
  /// aic_metrics, activities, record_shapes, with_stack, profile_memory, export_type (those it
  /// records, in that order; a summary rank's from its summary). Empty unknown. compare notes
  /// their differences.
  std::vector<std::pair<std::string, std::string>> profilerSettings;
  /// profiler_metadata.json's parallel_group_info, sorted by (name, ranks) without repeats (a
  /// summary rank's from its summary); empty when not recorded. The cross-rank stage infers the
  /// pipeline stages from it (profile_analysis.h pipelineStages).
  std::vector<ParallelGroup> parallelGroups;
  /// profiler_info's end_info.collectionTimeEnd (epoch ns, when the collection stopped), else -1.
  std::int64_t collectionEndNs = -1;
  /// A rank summary file (`npuscope summarize`, core/cluster/summary.h): the rank is read from
  /// it (RankProfile::summary), its trace drawn from the summary. Empty for a rank of profiler output.
  std::string summaryFile;
  std::string label;           ///< display label, e.g. "rank 0" or the folder name
  std::string capture;         ///< name of the capture it belongs to (CaptureInfo::name), "" for a lone capture
};

/// One capture (one profiling run: the ranks that ran together) found under an opened folder.
/// A parent folder may hold several (the corpus ascend-pt-910b-db-2rank holds a Level0 and a
/// Level1 run of 2 ranks each); discoverProfile loads the ranks of one only, so that no timeline
/// puts two runs on one time axis and no cross-rank rule compares ranks of different runs.
struct CaptureInfo {
  std::string name;            ///< the rank folders' parent relative to the opened path ("level0", "." ), "#k" added when one folder holds several
  std::size_t ranks = 0;       ///< rank folders in it
  std::string profilerLevel;   ///< "Level0".."Level2", "" when unknown
  std::int64_t endNs = -1;     ///< latest collectionTimeEnd of its ranks (epoch ns), -1 when none recorded
  bool loaded = false;         ///< the capture whose ranks are in ProfileLayout::ranks
};

/// Discovery result: one entry per rank, sorted by rank then folder name.
struct ProfileLayout {
  std::vector<RankSource> ranks;
  /// Every capture found when the path is a parent of rank folders and holds more than one;
  /// empty otherwise (one capture). Ordered oldest first; exactly one has `loaded`.
  std::vector<CaptureInfo> captures;
  std::vector<std::string> messages;  ///< why a folder was skipped, etc.
  std::string error;                  ///< set when nothing loadable was found
};

/// Finds the ranks of a profiling path: a `*_ascend_pt`/`*_ascend_ms` rank folder (torch_npu
/// §1.1, MindSpore §1.3: ASCEND_PROFILER_OUTPUT/trace_view.json, else the msprof export of its
/// PROF_* folder), a parent holding several rank folders (searched two levels deep), an
/// `ASCEND_PROFILER_OUTPUT` folder, or a bare trace file (trace_view.json, Kineto
/// *.pt.trace.json[.gz], any *.json). msprof's own layouts (format notes §6), opened as a
/// PROF_* folder, a folder of PROF_* folders, `device_N` or `device_N/timeline`:
///  - `PROF_*/mindstudio_profiler_output/msprof_{ts}.json` or its `msprof_slice_{k}_{ts}.json`
///    parts: one rank per PROF_* folder, every part of the newest timestamp, in k order;
///  - the legacy `PROF_*/device_N/timeline/msprof_{N}_{model}_{iter}.json` (very old CANN /
///    MindSpore): one rank per device, every iteration file read as one timeline (the
///    iterations become its steps); the hccl_*, task_time_* and step_trace_* files beside them
///    are not read (their events are repeated in msprof_*; step_trace_* is the whole run's
///    Step Trace, iterations with no tasks here included).
/// For both, the device comes from `device_N` and rank_id from `device_N/info.json.N` (§1.2).
/// A rank folder with no trace but CSV tables or analysis.db is still a rank (its tables are
/// read). Reads profiler_info_*.json for the rank and profiler level. Never writes.
///
/// Captures: the rank folders found under a parent are grouped into captures (groupCaptures):
/// same parent folder and same profiler level, split again where a rank number repeats or
/// where collection end times (profiler_info end_info.collectionTimeEnd) are more than
/// kCaptureGapNs apart (the ranks of one run stop at the same step, within seconds). With
/// several, only the ranks of one are returned: `capture` (a CaptureInfo::name or its 1-based
/// position in `captures`) or, when empty, the newest by end time (the last by name when no
/// end time is recorded); a message names it and the others. An unknown `capture` is an error
/// listing the captures. Limitation: the ranks of one run split over two parent folders (e.g.
/// node0/, node1/) are taken as two captures; open each, or their common folder's subfolders.
[[nodiscard]] ProfileLayout discoverProfile(const std::string& path, const std::string& capture = {});

/// Largest gap between the collection end times of two ranks of one capture (5 minutes).
inline constexpr std::int64_t kCaptureGapNs = std::int64_t(300) * 1000 * 1000 * 1000;

/// One loaded rank.
struct RankProfile {
  RankSource source;
  std::shared_ptr<const Trace> trace;  ///< null when the rank had no loadable trace
  std::string error;                   ///< why the trace failed to load, if it did
  std::shared_ptr<const KernelDetails> kernels;  ///< kernel_details.csv, when present
  std::vector<StepTraceRow> stepTrace;           ///< step_trace_time.csv rows, when present
  std::shared_ptr<const RankAnalysis> analysis;  ///< Top-Down analyses (null without a trace)
  std::vector<std::string> tableMessages;        ///< problems reading the CSV files
  /// The chip as the capture records it (the .db export's NPU_INFO), "" when it does not (the
  /// text export does not name it; the advisor then takes profiler_metadata.json or the user's).
  std::string chip;
  /// For a rank without a trace whose export holds tables (CSV-only or analysis.db-only, e.g. a
  /// pruned text export): what its step_trace_time.csv and kernel_details.csv say and what is
  /// missing. Null for a rank with a trace (its analysis covers it) or with no table either.
  std::shared_ptr<const TablesOnlySummary> tablesOnly;
  /// For a rank of tables only with a communication.json: its ops from the records
  /// (commOpsFromRecords), what the cross-rank stage matches; empty otherwise.
  std::vector<CommOp> recordedOps;
  /// A rank read from a summary file (`npuscope summarize`; RankSource::summaryFile): what the
  /// summary holds. Such a rank has no analysis; its `trace` is drawn from the summary
  /// (traceOfSummary: steps, HCCL ops, longest bubbles). Null for a rank loaded from its own files.
  std::shared_ptr<const RankSummary> summary;
  [[nodiscard]] int rank() const;      ///< source.rank, else the trace's Kineto rank, else -1
  /// The device its analysis is for (the first DeviceAnalysis: the first device with tasks),
  /// else the trace's first device label ("NPU k", "GPU k"), else source.device, else (no trace)
  /// the one Device_id of its step_trace_time.csv, else -1. Other devices: otherDevices().
  [[nodiscard]] int device() const;
  /// The trace's other device ids (process device labels, ascending, no repeats), each with
  /// whether it has a slice: a Kineto trace lists every GPU of the node. Empty without a trace.
  [[nodiscard]] std::vector<std::pair<int, bool>> otherDevices() const;
};

/// A loaded profiling folder: all ranks side by side, never merged.
struct Profile {
  std::string path;
  std::vector<RankProfile> ranks;
  std::vector<std::string> messages;
  /// The captures of the opened folder when it holds several (ProfileLayout::captures); the
  /// ranks are those of the one marked `loaded`. Empty for a lone capture.
  std::vector<CaptureInfo> captures;
  /// Cross-rank analyses (analyzeProfile), run by loadProfile after every rank's analyses; null
  /// for a Profile put together by hand.
  std::shared_ptr<const ProfileAnalysis> analysis;
  /// Union of the ranks' time ranges (empty range if none has events).
  [[nodiscard]] TimeRange range() const;
};

struct ProfileLoadResult {
  std::shared_ptr<Profile> profile;  ///< null on a hard error
  std::string error;
  [[nodiscard]] bool ok() const { return profile != nullptr; }
};

/// Loads one rank found by discoverProfile: its trace (or .db) with its tables and its Top-Down
/// analyses, or what its tables say when it has no trace, or its summary (RankSource::summaryFile).
/// Problems go to RankProfile::error and `messages`; `cancelled` is set when options.stop was
/// requested (the rank is then incomplete). Never throws but std::bad_alloc.
[[nodiscard]] RankProfile loadRank(const RankSource& source, const LoadOptions& options, const AnalysisOptions& analysis,
                                   std::vector<std::string>& messages, bool& cancelled);

/// Discovers and loads every rank of `path` (ranks one after another, each in parallel slices).
/// A rank of several trace files (RankSource::traceFiles) is read as one timeline
/// (loadTraceFiles). A rank without a trace keeps its tables (kernel_details.csv,
/// step_trace_time.csv) and gets RankProfile::tablesOnly; the load fails only when no rank has
/// a trace or a table.
/// Processes labelled plain "NPU" get LoadOptions::device when set, else the trace path's device
/// (deviceFromTracePath), else RankSource::device, else the rank (format notes §1.2, §2.3).
/// options.progress receives the overall fraction. Cancelling (options.stop) returns error
/// "cancelled", also during the Top-Down analyses: options.stop is passed to analyzeRank unless
/// `analysis.stop` is set. `analysis` sets the bubble threshold etc. of those analyses. After
/// the last rank, analyzeProfile fills Profile::analysis (the cross-rank stage).
[[nodiscard]] ProfileLoadResult loadProfile(const std::string& path, const LoadOptions& options = {},
                                            const AnalysisOptions& analysis = {});

}  // namespace npuscope::core
