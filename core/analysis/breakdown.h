// SPDX-License-Identifier: MIT
#pragma once
// What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5):
// exposed communication split into waiting / transmitting / neither from the HCCL plane tasks
// (and msprof-analyze's own min-wait-plane rule, and communication.json's per-op times), and
// computing split by accelerator core, operator class and forward / backward.

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace.h"
#include "core/tables/communication_json.h"
#include "core/tables/tables.h"

namespace npuscope::core {

struct DeviceAnalysis;
struct Verdict;

/// Exposed communication of one device, split. All times ns, each the length of a union of
/// intervals inside Communication (Not Overlapped).
struct CommBreakdown {
  TimeNs exposed = 0;  ///< Communication (Not Overlapped), as computed by the overlap analysis
  /// The device is a Kineto trace's (format notes §6.1): its communication is collective kernels
  /// on the streams, with no HCCL plane task and no communication.json to split it.
  bool kineto = false;

  /// From the trace's HCCL `Plane` threads (the small tasks of each big op). False when the
  /// trace has no plane task for the device (Level0 captures leave the planes empty).
  bool fromTrace = false;
  std::size_t planes = 0;       ///< Plane threads with at least one task
  /// npuscope's rule (docs/diagnosis.md §5.1): inside the exposed intervals, `transmitting` =
  /// some plane runs a transfer task (Memcpy, Reduce_Inline, RDMASend, SDMA...; anything not a
  /// Notify task); `waiting` = no transfer runs and some plane waits on a notify (Notify_Wait /
  /// Notify Wait: a peer rank or stream is not ready); `other` = neither (no plane task runs:
  /// the op's own overhead, idle inside the op). waiting + transmitting + other == exposed.
  TimeNs waiting = 0;
  TimeNs transmitting = 0;
  TimeNs other = 0;
  /// msprof-analyze compare's rule (format §4.4, npu_profiling_parser.py
  /// __add_communication_wait_time): per HCCL group, the plane whose Notify_Wait tasks sum least
  /// over the capture (a plane without any counts 0), RDMA patterns RR->N and RRNR->N excluded;
  /// its Notify_Wait tasks inside the exposed intervals are Wait, the group's exposed time minus
  /// that is Transmit. Summed over groups.
  TimeNs msprofWait = 0;
  TimeNs msprofTransmit = 0;
  std::string msprofPlanes;  ///< the plane chosen per group, e.g. "Group 0 Communication: Plane 0"

  /// communication.json (per-op times summed over every op of every step), when read.
  std::optional<CommOpTimes> json;
  std::size_t jsonOps = 0;
  std::string jsonMessage;  ///< why it is absent or partial ("" when read cleanly)

  /// waiting / (waiting + transmitting), 0..1 (0 without trace data).
  [[nodiscard]] double waitingShare() const {
    const TimeNs d = waiting + transmitting;
    return d > 0 ? static_cast<double>(waiting) / static_cast<double>(d) : 0.0;
  }
};

/// A share is called a clear majority (e.g. "waiting dominates") only at or above this fraction;
/// below it the split is "mixed" (docs/diagnosis.md §5.1).
inline constexpr double kClearMajority = 2.0 / 3.0;

/// When a cross-check's wait share (msprof-analyze's rule, communication.json) differs from the
/// primary one by more than this many points (as a fraction: 0.30 = 30 points), the sources
/// disagree and no side is said to dominate (docs/diagnosis.md §5.1).
inline constexpr double kCrossCheckMargin = 0.30;

/// One part of Computing: the union of its tasks' intervals (ns) and the number of tasks.
struct BreakdownPart {
  std::string key;  ///< "AI_CORE", "MatMul", "backward", ...
  TimeNs ns = 0;
  std::size_t tasks = 0;
  /// ns while this part alone of its split runs (exclusive attribution, docs/diagnosis.md §5.2):
  /// the exclusive parts of a split plus its `overlap` add up to Computing exactly.
  TimeNs exclusive = 0;
};

/// Computing of one device by accelerator core, operator class and pass. Each part is the union
/// of its own tasks (parts may overlap one another when streams run in parallel, so they can sum
/// to more than `total`).
struct ComputeBreakdown {
  TimeNs total = 0;                 ///< union of all compute tasks (= Computing)
  std::size_t tasks = 0;
  std::vector<BreakdownPart> byCore;   ///< AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, ..., "unknown"; longest first
  std::vector<BreakdownPart> byClass;  ///< FlashAttention, Convolution, MatMul, Other (this order)
  /// forward, backward, "no launch" (no async_npu flow; ac2g on a Kineto trace); empty when the trace has no fwdbwd flow.
  std::vector<BreakdownPart> byPass;
  /// ns while two or more parts of the split run at once (tasks on parallel streams), per split.
  TimeNs coreOverlap = 0, classOverlap = 0, passOverlap = 0;
  std::string coreSource;   ///< "kernel_details.csv Accelerator Core" or "trace Task Type"
  std::string classSource;  ///< "kernel_details.csv Type" or "task name"
  std::string passNote;     ///< "not marked (no fwdbwd flow)" or how the backward thread was found
};

/// Operator class of a kernel by its OP Type (or, without one, its name), case-insensitive:
/// contains "flashattention" or "fusedinferattention" -> "FlashAttention"; starts with "conv"
/// -> "Convolution"; contains "matmul" or "gemm" -> "MatMul"; else "Other". The first three
/// tests are msprof-analyze's kernel rules (KernelDetailsBean is_flash_attention / is_conv /
/// is_matmul, format §4.4); "fusedinferattention" and "gemm" are npuscope's additions.
[[nodiscard]] const char* operatorClass(std::string_view opTypeOrName);

/// The communication split of one device (see CommBreakdown). `exposed` = the device's
/// Communication (Not Overlapped) intervals. `json` may be null. O(plane tasks).
[[nodiscard]] CommBreakdown commBreakdown(const Trace& trace, int device, const Intervals& exposed,
                                          const CommunicationJson* json);

/// The computing split of `computeTasks` (the Ascend Hardware slices the overlap analysis took
/// as compute). `kernels` rows (matched by exact start ns) give Accelerator Core and Type; else
/// the slice's Task Type arg and name. Forward/backward: a task whose async_npu flow starts on a
/// thread that ends a fwdbwd flow is backward (msprof-analyze base_profiling_parser.py
/// `_is_backward`: tid == the fwdbwd end tid), else forward. O(tasks log flows).
[[nodiscard]] ComputeBreakdown computeBreakdown(const Trace& trace, const std::vector<SliceRef>& computeTasks,
                                                const KernelDetails* kernels);

/// At most two verdict lines: for a communication-bound rank, how the exposed communication
/// splits into waiting and transmitting (and, when waiting holds most of it, to look at the
/// slowest rank first); for a compute-bound rank, what Computing is made of.
[[nodiscard]] std::vector<std::string> breakdownFindings(const DeviceAnalysis& da, const Verdict& v);

/// One line of text each, for reports and panels ("" when there is nothing to say).
[[nodiscard]] std::string commBreakdownText(const CommBreakdown& c);
[[nodiscard]] std::string computeBreakdownText(const ComputeBreakdown& c);

}  // namespace npuscope::core
