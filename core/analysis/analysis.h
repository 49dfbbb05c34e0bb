// SPDX-License-Identifier: MIT
#pragma once
// The Top-Down analyses of one rank: Overlap Analysis (Computing / Communication / Not
// Overlapped / Free) per device and per step, bubbles with causes, dispatch chains, and the
// verdict. Pure functions over an immutable Trace (+ the rank's CSV tables), so the GUI, the
// command-line report and the tests get the same numbers.

#include <array>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/breakdown.h"
#include "core/analysis/intervals.h"
#include "core/tables/tables.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// "1 launch", "3 launches", "0 bubbles": `n` and the noun in the number's form (`many`
/// defaults to `one` + "s").
[[nodiscard]] inline std::string countNoun(std::size_t n, std::string_view one, std::string_view many = {}) {
  std::string noun(n == 1 || many.empty() ? one : many);
  if (n != 1 && many.empty()) noun += 's';
  return std::to_string(n) + " " + noun;
}

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
  /// An msprof `Iteration N` slice (no ProfilerStep#N): iterations do not tile the timeline; the
  /// time between two is the wait for the next one (DeviceAnalysis::betweenIterations).
  bool iteration = false;
};

/// Per-step figures, following torch_npu's attribution: an interval belongs to the step whose
/// device window contains its start, with its full duration (no clipping).
struct StepOverlap {
  long long step = -1;  ///< -1: no ProfilerStep in the trace (one row for the whole capture)
  TimeRange window;
  /// The computed intervals starting in `window`, from the first start to the last end: the
  /// range computed.e2e measures (it may end after the window, e.g. with the Free gap before the
  /// next step's first task, or start and end inside it). Empty when none starts there.
  TimeRange span;
  OverlapFigures computed;            ///< from the device tasks
  std::optional<OverlapFigures> lanes;  ///< summed from the trace's own Overlap Analysis lanes
  std::optional<StepTraceRow> csv;      ///< step_trace_time.csv row, when present
  std::optional<TimeNs> preparing;      ///< first Computing/Communication start - host step start
};

/// Why a bubble is there: the first rule of docs/diagnosis.md §3 that holds, from the device
/// tasks inside the gap and what the host was doing meanwhile. `Unknown` when the data cannot
/// tell (host layers not recorded, or the host partly busy without a clear cause).
enum class BubbleCause : std::uint8_t {
  DeviceCopy,         ///< memcpy / SDMA tasks of the device cover >= 50% of the gap
  DeviceWait,         ///< event / notify wait tasks on the idle stream cover >= 50%: a stream dependency
  Queued,             ///< the task ending the gap was launched before the gap: the device held it (HTA "kernel wait")
  Synchronization,    ///< aclrtSynchronize*, aten::item / _local_scalar_dense, ... running when the device ran dry
  HostToDeviceCopy,   ///< aclrtMemcpy*, pin_memory, ... on the host cover >= 25%
  AclopCompile,       ///< AscendCL@opCompile covers >= 25% (ACLOP online compilation)
  AclopExecute,       ///< aclopCompileAndExecute covers >= 25% but its compile step does not
  DataLoading,        ///< DataLoader slices cover >= 50%
  /// One host op covers >= 50% of a gap >= 1 ms and is one of its name's first, slow calls: >= 10x
  /// the median of its >= 3 calls, before its first call of at most 2x the median (warm-up:
  /// autotuning, lazy initialisation, first-time compilation or allocation)
  FirstCall,
  SlowDispatch,       ///< host busy >= 50% with >= 3 torch ops / launches starting in the gap
  HostIdle,           ///< host torch/CANN activity covers < 20%: Python work outside torch, GC, ...
  Unknown,            ///< host layers not recorded, or no rule holds
};
inline constexpr std::size_t kBubbleCauseCount = 12;
[[nodiscard]] const char* bubbleCauseKey(BubbleCause c);   ///< "device_copy", "synchronization", ...
[[nodiscard]] const char* bubbleCauseLabel(BubbleCause c); ///< "Device copy", "Synchronization", ...
/// The matching category of msprof-analyze's free_analysis recipe ("device task running",
/// "abnormal CANN layer", "Idle PyTorch layer", or "" for unknown); docs/diagnosis.md §3.
[[nodiscard]] const char* bubbleCauseFreeAnalysisCategory(BubbleCause c);

/// When the task that ends a bubble was launched, relative to the bubble's start (HTA's host
/// wait / kernel wait split; docs/diagnosis.md §3). Launch times are corrected by the clock skew
/// bound (ClockSkew) first.
enum class LaunchTiming : std::uint8_t {
  Unknown,         ///< no HostToDevice launch recorded for the task
  AfterGapStart,   ///< launched after the device went idle: the device waited for the host
  BeforeGapStart,  ///< launched before: the task was queued and the device held it
};
[[nodiscard]] const char* launchTimingKey(LaunchTiming t);  ///< "after_gap_start", "before_gap_start", "unknown"

/// One layer of a dispatch chain.
enum class ChainLayer : std::uint8_t { PythonApi, TorchOp, Enqueue, Dequeue, CannApi, Launch, DeviceTask };
[[nodiscard]] const char* chainLayerKey(ChainLayer l);  ///< "python_api", "aten_op", ...

struct ChainLink {
  ChainLayer layer = ChainLayer::DeviceTask;
  SliceRef slice;
  /// How it was reached: "async_npu", "async_acl_npu", "HostToDevice", "ac2g", "async_task_queue",
  /// "enclosing", "same thread", "External id" (a Kineto op by its id), "kernel_record" (a Kineto
  /// record of the kernel, not its launch: detail::isKernelRecord) or "": always a string literal (static storage; one chain is built
  /// per device task, and an allocated string per link was a third of the chain's cost).
  std::string_view via;
};

/// The dispatch chain of one device task, from the Python API down to the task (links in that
/// order). Missing layers are listed in `missing`, never invented.
struct DispatchChain {
  std::vector<ChainLink> links;
  std::vector<ChainLayer> missing;
  std::string path;                    ///< "ACLNN", "ACLOP" or "" when it cannot be told
  /// Device task start - host launch, ns, as recorded (host and device clocks unaligned): from
  /// the start of Node@launch, else the HostToDevice `s` ts, else the CANN API, else the Dequeue
  /// start (docs/diagnosis.md §4). Can be negative: see `correctedLatency`.
  std::optional<TimeNs> launchLatency;
  /// The HostToDevice flow's start ts (host clock, ns), when the task has one.
  std::optional<TimeNs> launchTs;
  /// When the launch itself is not recorded but the op that issued the task is (a Kineto kernel
  /// record, detail::isKernelRecord): that op's range, host clock, ns. The launch lies inside it,
  /// so it is known to come before its end and after its start; launchTs and launchLatency stay
  /// empty.
  std::optional<TimeRange> issuedDuring;
  /// launchLatency + the rank's clock skew bound (ClockSkew::bound, ns): never negative. Set by
  /// applySkew (analyzeRank does it for every bubble's chain).
  std::optional<TimeNs> correctedLatency;
  TimeNs skewBound = 0;  ///< the bound added, ns (0: no skew evident)
  /// The task starts before its launch even after the correction (an outlier of ClockSkew): the
  /// latency cannot be told and correctedLatency is empty.
  bool suspect = false;
  /// Dequeue start - Enqueue start, ns: how long the operator waited in the task queue.
  std::optional<TimeNs> queueWait;
  [[nodiscard]] const ChainLink* find(ChainLayer l) const;
};

/// Host/device clock offset evidence of one device (docs/diagnosis.md §4): a task cannot start
/// before its launch, so min over tasks of (task start - HostToDevice `s` ts) bounds the offset
/// (ignoring lone outliers, see `outliers`). On a Kineto trace's device the launch flows are the
/// ac2g flows (runtime launch -> kernel, format notes §6.1) instead.
struct ClockSkew {
  std::optional<TimeNs> minTaskMinusLaunch;  ///< ns; empty without any HostToDevice launch
  TimeNs bound = 0;                          ///< max(0, -minTaskMinusLaunch), ns
  std::size_t tasksWithLaunch = 0;           ///< device tasks with a HostToDevice launch
  SliceRef worstTask;                        ///< the task giving the minimum
  /// Launches below the minimum that were left out as outliers: lone values more than
  /// kSkewClusterNs below the next two (a mis-bound flow must not shift every latency).
  std::size_t outliers = 0;
  /// The median of (task start - launch) + bound, ns: a typical launch-to-start time on one clock.
  std::optional<TimeNs> medianLatency;
  /// Launches whose task started within kTightLaunchNs of the launch (corrected): the method's
  /// "HostToDevice flows nearly vertical and frequent" (the device starts work as soon as it is
  /// dispatched, so the host sets the pace).
  std::size_t tightLaunches = 0;
};

/// A launch whose task starts within this of it (ns, corrected) counts as "tight".
inline constexpr TimeNs kTightLaunchNs = 20'000;

/// How many device tasks each torch op launched (async_npu flows, format §2.6): the method's
/// "one Python API triggers many scattered device tasks".
struct FanOut {
  SliceRef widestOp;            ///< the torch op with the most tasks
  std::size_t widestTasks = 0;  ///< its task count
  std::size_t ops = 0;          ///< torch ops with at least one task
  std::size_t opsWithMany = 0;  ///< ops with at least kManyTasks tasks
};
inline constexpr std::size_t kManyTasks = 8;

/// FanOut over the trace's async_npu flows into `device`'s tasks. O(flows), no allocation.
[[nodiscard]] FanOut fanOut(const Trace& trace, int device);

/// Two more launches within this of the lowest value make it the skew minimum (ns).
inline constexpr TimeNs kSkewClusterNs = 5'000;

/// The skew bound of `device`'s Ascend Hardware tasks over every HostToDevice flow (bound or
/// with an unbound start, as at Level0). O(flows).
[[nodiscard]] ClockSkew clockSkew(const Trace& trace, int device);

/// Sets chain.correctedLatency = launchLatency + skew.bound and chain.skewBound.
void applySkew(DispatchChain& chain, const ClockSkew& skew);

/// The launch latency in words, never a bare negative number: "launch latency 12.3 us" when no
/// skew is evident, else "launch latency 12.3 us (recorded -5.2 us; clocks corrected by 17.5 us)";
/// "launch latency unknown" without one. Requires applySkew.
[[nodiscard]] std::string launchLatencyText(const DispatchChain& chain);

/// Walks back from device task `task` (an Ascend Hardware slice): HostToDevice flow -> Node@launch /
/// AscendCL API -> Dequeue (same OS thread) -> async_task_queue flow -> Enqueue -> torch op ->
/// Python API; or, at Level0 without a CANN lane, async_npu flow -> torch op -> Enqueue -> Dequeue.
/// `pythonApi` false leaves the Python API layer out (missing), saving the walk up the torch op's
/// ancestors (dispatchStats, which builds one chain per device task, does not read it).
[[nodiscard]] DispatchChain dispatchChain(const Trace& trace, SliceRef task, bool pythonApi = true);

/// The device tasks a host slice launched, by start, at most `limit`: the ends on device task lanes
/// of the launch flows (HostToDevice, async_npu, async_acl_npu, Kineto's ac2g) that start at the
/// slice or at a slice inside it on its lane, and through an Enqueue's async_task_queue flow, those
/// of the Dequeue it feeds and the slices inside that. For the Dispatch Chain panel when a host
/// slice is selected (issue 42 item 4). Reads at most ~20,000 slices (a whole ProfilerStep is cut
/// there: its first tasks). Never throws but bad_alloc.
[[nodiscard]] std::vector<SliceRef> tasksLaunchedBy(const Trace& trace, SliceRef host, std::size_t limit = 64);

/// A device idle gap.
struct Bubble {
  TimeRange range;
  int device = -1;
  long long step = -1;
  SliceRef before;  ///< device task ending at the gap start (invalid if none)
  SliceRef after;   ///< device task that ends the gap
  std::vector<SliceRef> hostSlices;  ///< host slices (Python, CANN) overlapping the gap, outermost first, capped
  BubbleCause cause = BubbleCause::Unknown;
  std::string detail;  ///< the evidence in words, e.g. "aten::item 259 us called from train.py(359) (28% of the gap)"
  /// The slices behind the cause (the sync call, the compile step, the copy tasks, ...), to
  /// select on the timeline; empty for host idle / unknown.
  std::vector<SliceRef> evidence;
  double hostCoverage = 0;  ///< share of the gap covered by host torch/CANN slices, 0..1
  LaunchTiming launched = LaunchTiming::Unknown;
  /// A collective (HCCL big op) starts exactly at the gap's end: `after` is that op and `chain` its
  /// chain; `launched` stays unknown (HCCL submits its tasks inside Hccl@Launch_*, after the flow).
  bool endsAtCollective = false;
  DispatchChain chain; ///< of `after`
};

/// Bubble time per cause over every bubble found (not only the listed ones).
struct CauseTotals {
  std::array<TimeNs, kBubbleCauseCount> ns{};
  std::array<std::size_t, kBubbleCauseCount> count{};
  [[nodiscard]] TimeNs totalNs() const;
  /// The cause holding the most time (ties: the lower enum value), or Unknown when empty.
  [[nodiscard]] BubbleCause top() const;
};

/// Busy time at an edge of a device's activity, isolated from the rest (docs/diagnosis.md §1.1):
/// the first (or last) k busy intervals of Computing u Communication, k <= max(1, 1% of them),
/// separated from the others by a Free gap longer than kIsolatedGapFactor times the span of the
/// others and than kIsolatedMinGapNs. It stays in the figures (nothing is dropped); `without`
/// gives them without it and its gap.
struct IsolatedActivity {
  TimeRange busy;               ///< span of the isolated busy intervals, ns
  TimeNs gap = 0;               ///< the Free gap between them and the rest, ns (counted in Free)
  bool leading = true;          ///< before the rest (else after)
  std::size_t intervals = 0;    ///< busy intervals in it
  SliceRef task;                ///< the device task starting it (invalid if not found)
  TimeRange rest;               ///< span of the rest of the activity, ns
  OverlapFigures without;       ///< the device figures over `rest` only
};
inline constexpr double kIsolatedGapFactor = 10.0;
inline constexpr TimeNs kIsolatedMinGapNs = 1'000'000;  ///< 1 ms

/// Everything computed for one device of a rank.
struct DeviceAnalysis {
  int device = -1;
  Intervals computing, communication, commNotOverlapped, free;  ///< computed from the device tasks
  OverlapFigures computed;
  /// With msprof iterations as steps (StepWindow::iteration): the device's idle intervals that reach
  /// across the boundary from one iteration's end to the next one's start, taken out of `free`
  /// (sorted, disjoint, ns). msprof's step trace records that time as "Data_aug Bound" (the
  /// iteration waits for its data); it belongs to no iteration, so it is no Free of a step and no
  /// bubble (issue 41 item 2). Empty otherwise. betweenIterationsNs is their total.
  Intervals betweenIterations;
  TimeNs betweenIterationsNs = 0;
  std::optional<OverlapFigures> lanes;  ///< the trace's own Overlap Analysis lanes, whole capture
  std::vector<StepOverlap> steps;
  std::vector<Bubble> bubbles;          ///< Free intervals >= threshold, longest first
  /// Every Free interval >= the threshold, before `bubbles` keeps the longest
  /// AnalysisOptions::maxBubbles of them: their number and summed length (ns). A long capture
  /// has thousands; the list alone would understate the idle time.
  std::size_t gapsFound = 0;
  TimeNs gapsFoundNs = 0;
  CauseTotals causes;                   ///< over all gapsFound bubbles
  ClockSkew skew;                       ///< host/device clock offset evidence
  FanOut fanOut;                        ///< device tasks per launching torch op
  std::string computeSetRule;           ///< which rule picked the compute tasks
  CommBreakdown comm;                   ///< what Communication (Not Overlapped) is made of (breakdown.h)
  ComputeBreakdown compute;             ///< what Computing is made of (breakdown.h)
  std::vector<std::string> discrepancies;  ///< computed vs recorded, explained
  std::vector<IsolatedActivity> isolated;  ///< at most one leading and one trailing (docs/diagnosis.md §1.1)
};

/// Trace events far outside the device activity (docs/diagnosis.md §1.1): slices that start
/// more than max(kIsolatedGapFactor x the device span, 1 s) before the first or after the last
/// device activity of the rank. They stretch the trace's span, not the Top-Down figures.
struct FarEvents {
  std::size_t count = 0;
  SliceRef farthest;        ///< the one farthest from the device activity
  TimeNs distance = 0;      ///< its distance from the device activity, ns
  TimeRange device;         ///< the rank's device activity span, ns
};

/// The Top-Down reading of one rank (docs/diagnosis.md §2): the dominant share decides the
/// headline; Free above 10% is always a finding; the bubble summary names the cause holding the
/// most bubble time.
struct Verdict {
  /// "compute", "communication", "free", or "unknown" (no device activity).
  std::string dominant = "unknown";
  std::string headline;                 ///< "Communication bound", "Compute bound", "Dispatch/host bound", ...
  std::string summary;                  ///< one or two sentences, with the figures
  std::vector<std::string> findings;    ///< further findings (Free above 10%, the bubble causes, ...)
  std::vector<std::string> suggestions; ///< what to do next
  BubbleCause topCause = BubbleCause::Unknown;  ///< the cause with the most bubble time
  TimeNs topCauseNs = 0;
  std::size_t topCauseCount = 0;
  double topCauseShare = 0;             ///< of all bubble time, 0..1
  bool hostRecorded = true;             ///< false: no Python/CANN slice, causes cannot be told
  /// The trace is a partial capture (partialCaptureReason): the headline says "(partial
  /// capture)" and the summary starts with `partialReason` and what part the figures cover.
  bool partial = false;
  std::string partialReason;            ///< "" unless partial, e.g. "the file ends inside an event at byte 1331295"
  /// ns: the end of the device activity that was read (the last computing/communication end of
  /// any device), else the trace's last event; empty unless partial.
  std::optional<TimeNs> coveredUntil;
};

/// Why `trace` holds only part of what the profiler wrote, from the reader's own flags, or ""
/// when nothing says so (docs/diagnosis.md §2.6): ImportStats TruncatedEvent (the file ends
/// inside an event), UnterminatedObject (the object form is not closed), TruncatedGzip (the
/// gzip stream ends early), the note of a file that shrank while it was read
/// (MappedFile::shrinkMessage, " shrank from "), and the reader's note "closing bracket added"
/// (an array form never closed: the Trace Event Format allows it, but torch_npu and msprof
/// close their arrays, so the writer may have stopped early: "may be partial").
[[nodiscard]] std::string partialCaptureReason(const Trace& trace);

struct RankAnalysis {
  std::vector<StepWindow> steps;
  std::vector<DeviceAnalysis> devices;
  Verdict verdict;
  std::vector<std::string> notes;
  FarEvents farEvents;  ///< events that stretch the trace span far beyond the device activity
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
  /// The rank's communication.json, when read: its per-op times go into DeviceAnalysis::comm.
  const CommunicationJson* communication = nullptr;
  /// Threads per device's analysis: 1 runs everything on the calling thread; anything else lets
  /// the communication / compute breakdowns and the fan-out run on one side thread. loadProfile
  /// passes LoadOptions::threads; the fuzz targets ask for 1.
  unsigned threads = 0;
  /// The rank's chip as the capture records it ("" unknown): the communication split's link
  /// nominals (nominalLinkGBs; CommBreakdown::chip). loadProfile passes the .db's NPU_INFO or the
  /// msprof info.json's family.
  std::string chip;
};

/// Host steps (ProfilerStep#N) and their device windows; without any, msprof's iterations (the
/// `Iteration N` slices of its Step Trace thread, format notes §6). With `stop` requested it returns early
/// (polled every 64K slices or flows) with an incomplete list.
[[nodiscard]] std::vector<StepWindow> stepWindows(const Trace& trace, const std::stop_token& stop = {});

/// Runs every analysis of one rank. `kernels` (kernel_details.csv) picks the compute tasks when
/// given (rows matched to tasks by exact start ns); `stepTrace` (step_trace_time.csv) is compared.
/// options.stop cancels it: the result then has `cancelled` set and is incomplete.
[[nodiscard]] RankAnalysis analyzeRank(const Trace& trace, const KernelDetails* kernels,
                                       const std::vector<StepTraceRow>* stepTrace,
                                       const AnalysisOptions& options = {});

/// Cause of a gap on `device` from the device tasks in it, when its ending task was launched, and
/// the host activity (exposed for tests): fills b.cause, b.detail, b.evidence, b.hostSlices and
/// b.hostCoverage from b.range.
/// `hostRecorded`: whether the rank has any Python or CANN slice (rule 1 of docs/diagnosis.md §3).
/// b.after, b.chain and b.launched must be set (findBubbles does); `skewBound` (ns) converts device
/// times to the host clock for the queue-side rule.
void classifyBubble(const Trace& trace, int device, bool hostRecorded, Bubble& b, TimeNs skewBound = 0);

/// Whether the trace has any slice on a Python or CANN process (the host layers were recorded).
[[nodiscard]] bool hostLayersRecorded(const Trace& trace);

/// The verdict for a device's figures and bubbles (exposed for tests).
[[nodiscard]] Verdict makeVerdict(const Trace& trace, const RankAnalysis& analysis);

}  // namespace npuscope::core
