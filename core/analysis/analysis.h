// SPDX-License-Identifier: MIT
#pragma once
// The Top-Down analyses of one rank: Overlap Analysis (Computing / Communication / Not
// Overlapped / Free) per device and per step, bubbles with causes, dispatch chains, and the
// verdict. Pure functions over an immutable Trace (+ the rank's CSV tables), so the GUI, the
// command-line report and the tests get the same numbers.

#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/tables/tables.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// Overlap Analysis figures, ns. Invariant (CANN): computing + commNotOverlapped + free == e2e
/// for the whole capture; overlapped = communication - commNotOverlapped.
struct OverlapFigures {
  TimeNs computing = 0;
  TimeNs communication = 0;
  TimeNs commNotOverlapped = 0;
  TimeNs overlapped = 0;
  TimeNs free = 0;
  TimeNs e2e = 0;  ///< span of device activity (whole capture) or of the step's events
  [[nodiscard]] double freeRatio() const { return e2e > 0 ? static_cast<double>(free) / static_cast<double>(e2e) : 0.0; }
};

/// One ProfilerStep: the host window (the ProfilerStep#N slice) and the device window derived as
/// torch_npu does (§4.3): start = first device task launched from the step (fallback: host
/// start), end = max(last such task's end, host end). Without async_npu flows, device tasks are
/// attributed to steps by time (a task belongs to the last step that started at or before it).
struct StepWindow {
  long long number = -1;
  TimeRange host;
  TimeRange device;
  SliceRef hostSlice;
};

/// Per-step figures, following torch_npu's attribution: an interval belongs to the step whose
/// device window contains its start, with its full duration (no clipping).
struct StepOverlap {
  long long step = -1;  ///< -1: no ProfilerStep in the trace (one row for the whole capture)
  TimeRange window;
  OverlapFigures computed;            ///< from the device tasks
  std::optional<OverlapFigures> lanes;  ///< summed from the trace's own Overlap Analysis lanes
  std::optional<StepTraceRow> csv;      ///< step_trace_time.csv row, when present
  std::optional<TimeNs> preparing;      ///< first Computing/Communication start - host step start
};

/// Why a bubble is there, from what the host was doing meanwhile.
enum class BubbleCause : std::uint8_t {
  Synchronization,    ///< aclrtSynchronize*, aten::item / _local_scalar_dense, .cpu(), ...
  HostToDeviceCopy,   ///< aclrtMemcpy*, H2D copy tasks in the gap
  SlowDispatch,       ///< the host was busy launching (many small ops, Enqueue/Dequeue, ACLOP compile)
  HostIdle,           ///< no host activity: data loading, Python work outside torch
  CommunicationWait,  ///< waiting on a collective / a wait task in the gap
  Unknown,
};
[[nodiscard]] const char* bubbleCauseKey(BubbleCause c);   ///< "synchronization", ...
[[nodiscard]] const char* bubbleCauseLabel(BubbleCause c); ///< "Synchronization", ...

/// One layer of a dispatch chain.
enum class ChainLayer : std::uint8_t { PythonApi, TorchOp, Enqueue, Dequeue, CannApi, Launch, DeviceTask };
[[nodiscard]] const char* chainLayerKey(ChainLayer l);  ///< "python_api", "aten_op", ...

struct ChainLink {
  ChainLayer layer = ChainLayer::DeviceTask;
  SliceRef slice;
  std::string via;  ///< how it was reached: "async_npu", "HostToDevice", "async_task_queue", "enclosing", "same thread"
};

/// The dispatch chain of one device task, from the Python API down to the task (links in that
/// order). Missing layers are listed in `missing`, never invented.
struct DispatchChain {
  std::vector<ChainLink> links;
  std::vector<ChainLayer> missing;
  std::string path;                    ///< "ACLNN", "ACLOP" or "" when it cannot be told
  std::optional<TimeNs> launchLatency; ///< device task start - host launch, ns: from the start of Node@launch, else the CANN API; at Level0 the HostToDevice `s` ts, else the Dequeue start
  [[nodiscard]] const ChainLink* find(ChainLayer l) const;
};

/// Walks back from device task `task` (an Ascend Hardware slice): HostToDevice flow -> Node@launch /
/// AscendCL API -> Dequeue (same OS thread) -> async_task_queue flow -> Enqueue -> torch op ->
/// Python API; or, at Level0 without a CANN lane, async_npu flow -> torch op -> Enqueue -> Dequeue.
[[nodiscard]] DispatchChain dispatchChain(const Trace& trace, SliceRef task);

/// A device idle gap.
struct Bubble {
  TimeRange range;
  int device = -1;
  long long step = -1;
  SliceRef before;  ///< device task ending at the gap start (invalid if none)
  SliceRef after;   ///< device task that ends the gap
  std::vector<SliceRef> hostSlices;  ///< host slices (Python, CANN) overlapping the gap, outermost first, capped
  BubbleCause cause = BubbleCause::Unknown;
  std::string detail;  ///< e.g. "aclrtSynchronizeStream 1.2 ms called from loss.item() (train.py:88)"
  DispatchChain chain; ///< of `after`
};

/// Everything computed for one device of a rank.
struct DeviceAnalysis {
  int device = -1;
  Intervals computing, communication, commNotOverlapped, free;  ///< computed from the device tasks
  OverlapFigures computed;
  std::optional<OverlapFigures> lanes;  ///< the trace's own Overlap Analysis lanes, whole capture
  std::vector<StepOverlap> steps;
  std::vector<Bubble> bubbles;          ///< Free intervals >= threshold, longest first
  /// Every Free interval >= the threshold, before `bubbles` keeps the longest
  /// AnalysisOptions::maxBubbles of them: their number and summed length (ns). A long capture
  /// has thousands; the list alone would understate the idle time.
  std::size_t gapsFound = 0;
  TimeNs gapsFoundNs = 0;
  std::string computeSetRule;           ///< which rule picked the compute tasks
  std::vector<std::string> discrepancies;  ///< computed vs recorded, explained
};

struct Verdict {
  std::string summary;                  ///< one or two sentences
  std::vector<std::string> suggestions; ///< what to do next
};

struct RankAnalysis {
  std::vector<StepWindow> steps;
  std::vector<DeviceAnalysis> devices;
  Verdict verdict;
  std::vector<std::string> notes;
  /// AnalysisOptions::stop was requested: analyzeRank returned early and what it holds is
  /// incomplete (some devices, steps or bubbles missing, no verdict). Not to be shown.
  bool cancelled = false;
};

struct AnalysisOptions {
  TimeNs bubbleThresholdNs = 10'000;  ///< list Free intervals of at least this length (10 us)
  std::size_t maxBubbles = 200;       ///< keep at most this many (the longest)
  /// Cancel: analyzeRank polls it between phases and every 64K slices, flows or steps inside
  /// them, and returns with RankAnalysis::cancelled set. loadProfile passes LoadOptions::stop.
  std::stop_token stop;
};

/// Host steps (ProfilerStep#N) and their device windows. With `stop` requested it returns early
/// (polled every 64K slices or flows) with an incomplete list.
[[nodiscard]] std::vector<StepWindow> stepWindows(const Trace& trace, const std::stop_token& stop = {});

/// Runs every analysis of one rank. `kernels` (kernel_details.csv) picks the compute tasks when
/// given (rows matched to tasks by exact start ns); `stepTrace` (step_trace_time.csv) is compared.
/// options.stop cancels it: the result then has `cancelled` set and is incomplete.
[[nodiscard]] RankAnalysis analyzeRank(const Trace& trace, const KernelDetails* kernels,
                                       const std::vector<StepTraceRow>* stepTrace,
                                       const AnalysisOptions& options = {});

/// Cause of a gap from the host activity (exposed for tests).
[[nodiscard]] BubbleCause classifyBubble(const Trace& trace, TimeRange gap, std::string& detail,
                                         std::vector<SliceRef>& hostSlices);

/// The verdict for a device's figures and bubbles (exposed for tests).
[[nodiscard]] Verdict makeVerdict(const Trace& trace, const RankAnalysis& analysis);

}  // namespace npuscope::core
