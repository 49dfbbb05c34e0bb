// SPDX-License-Identifier: MIT
#pragma once
// Turns the reader's raw records into an indexed Trace: merges the workers' string pools,
// applies metadata, matches B/E, nests slices into depth rows, pairs and binds flows, builds
// counter series and sorts processes and lanes for display. Internal to core; readers call it
// through TraceBuilder::finish (core/import/trace_builder.h).

#include <stop_token>

#include "core/import/json/json_trace_reader.h"
#include "core/model/trace.h"

namespace npuscope::core::detail {

/// Builds `trace` from the record chunks `parts` (consumed, cleared; in input order), the
/// trace-level `facts` and the reader's `notes`. Returns false when cancelled through `stop`
/// (then nothing is built). `plainNpuDevice` is the device given to processes labelled plain
/// "NPU" (see Process::deviceId). Does not index the flows nor build the summary levels
/// (TraceBuilder::finish does both). `threads`: at most this many build threads (the calling
/// one included); 0 = one per chunk. 1 starts no thread (the fuzz targets, LoadOptions::threads).
bool buildTrace(std::vector<WorkerOut>& parts, const TopLevelFacts& facts, std::vector<std::string>&& notes,
                Trace& trace, const std::stop_token& stop, int plainNpuDevice = -1, unsigned threads = 0);

/// buildTrace of what the JSON reader read (`read` consumed), on as many threads as read it
/// (ReadResult::workers).
bool buildTrace(ReadResult&& read, Trace& trace, const std::stop_token& stop, int plainNpuDevice = -1);

/// A slice starting less than this before the open slice it does not nest in ends is a minor
/// overlap (issue 26 item 5): device tasks on one stream that touch by a fraction of a us (the
/// profiler's clock rounding, e.g. a 0.44 us `Write Value` on the communication stream), said
/// once per lane as information, not as a PartialOverlap warning per slice.
inline constexpr TimeNs kMinorOverlapNs = 1'000;

/// The overlaps met while nesting one lane: partial ones, and on a lane of device tasks (an
/// `Ascend Hardware` stream: `deviceTasks`) the minor ones (< kMinorOverlapNs). A host thread's
/// overlap is mis-nesting however short (a 0.5 us overlap of a 1 us slice is not rounding).
/// The first ImportStats::kExamplesPerKind partial overlaps keep the two slices (names and
/// times), so that the warning names them (issue 26 item 5): "'B' (at t) starts 2 us before
/// 'A' ends (t2) and ends after it".
struct OverlapTally {
  /// For the lane `laneLabel` ("process / thread"): device tasks when its process is Ascend
  /// Hardware. `strings` (optional) resolves the names of the examples; without it the
  /// warnings name no slice.
  explicit OverlapTally(std::string_view laneLabel = {}, const StringPool* strings = nullptr)
      : deviceTasks(laneLabel.starts_with("Ascend Hardware /")), strings(strings) {}
  /// One partial overlap kept for the warning's text (NameIds of `strings`, times in ns).
  struct Example {
    NameId slice = 0, over = 0;  ///< the later slice; the open one it overlaps
    TimeNs start = 0, end = 0, overEnd = 0;
  };
  bool deviceTasks = false;
  const StringPool* strings = nullptr;
  std::size_t partial = 0, minor = 0, concurrent = 0;
  TimeNs largestMinor = 0, largestConcurrent = 0;  ///< ns
  std::vector<Example> examples;
  std::vector<NameId> concurrentNames;  ///< the first few distinct names of concurrent tasks
  /// Counts an overlap of `amount` ns of the slice `slice` [start, end) over the open slice
  /// `over`, which ends at `overEnd` (amount = overEnd - start). On a device stream, an overlap
  /// of kMinorOverlapNs or more between two communication tasks (memcpy, notify, SDMA, RDMA,
  /// reduce, write value, hcom: detail::isNeverComputeName) is concurrency, not mis-nesting: HCCL
  /// runs the tasks of its links (the planes of the HCCL lanes) at once and the profiler writes
  /// them on the one stream that issued them (the 910B Level1 corpus capture: SDMA and Notify
  /// Wait tasks of Stream 4 overlapping by up to 4.7 ms).
  /// Returns true for a partial overlap (a warning: flag kSlicePartialOverlap), false for an
  /// informational one (kSliceMinorOverlap).
  bool add(TimeNs amount, NameId slice = 0, TimeNs start = 0, TimeNs end = 0, NameId over = 0, TimeNs overEnd = 0);
  /// One PartialOverlap warning per partial overlap (the first ones naming their two slices),
  /// one MinorOverlap and one ConcurrentCommTasks line for the lane.
  void report(ImportStats& stats, const std::string& laneLabel) const;
};

/// Nesting rule for one thread's complete slices (see Lane): input slices in any order with
/// start/end set; fills `depth` (same size) and returns the number of partially overlapping
/// slices (minor ones included), which are flagged in `flags` (kSlicePartialOverlap, or
/// kSliceMinorOverlap for those `tally` counts as informational); `tally` (optional) gets them by
/// kind, with the slices' names from `names` (optional, same size) for its examples. Exposed
/// for tests.
std::size_t assignDepths(const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
                         std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& depth,
                         std::vector<std::uint8_t>& flags, OverlapTally* tally = nullptr,
                         const std::vector<NameId>* names = nullptr);

/// Fills `byFrom` / `byTo` with the indices of `flows` stably sorted by (from.lane, from.index) /
/// (to.lane, to.index): Trace::flowsByFrom / flowsByTo. A counting sort by (lane, depth row) of
/// `lanes`; inside a row the indices are usually in order already (flows are sorted by time, and
/// a row's slices too) and are sorted only when they are not. Flows that refer to slices outside
/// `lanes` make it fall back to a plain stable sort. O(flows) in the usual case.
void buildFlowIndex(const std::vector<Flow>& flows, const std::vector<Lane>& lanes, std::vector<std::uint32_t>& byFrom,
                    std::vector<std::uint32_t>& byTo);

/// Role of a process from its name (Ascend process names, §2.4 of the format notes).
Process::Role classifyProcess(std::string_view name);

}  // namespace npuscope::core::detail
