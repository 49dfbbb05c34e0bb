// SPDX-License-Identifier: MIT
#pragma once
// What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5):
// exposed communication split into synchronization / transit / wait / idle by the profiler's
// per-op rule on the HCCL plane tasks, and computing split by accelerator core, operator class
// and forward / backward.

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/intervals.h"
#include "core/model/trace.h"
#include "core/tables/communication_json.h"
#include "core/tables/tables.h"

namespace npuscope::core {

struct DeviceAnalysis;
struct Verdict;

/// Exposed communication of one device, split once (docs/diagnosis.md §5.1). All times ns, each
/// the length of a union of intervals inside Communication (Not Overlapped):
/// synchronization + transit + wait + idle == exposed. The classes follow the profiler's per-op
/// rule (collectives.h, docs/diagnosis.md §5.3) on the master plane, in this priority:
/// `synchronization` (its Notify_Waits before its first transfer: a peer is late), `transit`
/// (its transfers), `wait` (its other Notify_Waits), `idle` (none of these runs). Idle is then
/// explained by the other planes: `idlePeerWait` (they wait on a peer's notify: a peer is late),
/// `idleOtherTransfer` (they move data), the rest with no task recorded.
struct CommBreakdown {
  TimeNs exposed = 0;  ///< Communication (Not Overlapped), as computed by the overlap analysis
  std::string chip;    ///< the rank's chip (AnalysisOptions::chip): the links' nominals in the text
  /// The device is a Kineto trace's (format notes §6.1): its communication is collective kernels
  /// on the streams, with no HCCL plane task to split it.
  bool kineto = false;
  /// Plane tasks were recorded (Level1 and above); false: the split is unknown (Level0).
  bool fromTrace = false;
  std::size_t planes = 0;  ///< Plane lanes with at least one task
  TimeNs synchronization = 0, transit = 0, wait = 0, idle = 0;
  /// The synchronization by the peer waited for (group rank, `dst rank`), longest first.
  std::vector<PeerWait> synchronizationByPeer;
  TimeNs idlePeerWait = 0;       ///< part of `idle` while another plane waits on a peer
  TimeNs idleOtherTransfer = 0;  ///< part of `idle` while another plane (only) moves data
  /// idlePeerWait by the peer waited for, longest first (peers can overlap: the sum may exceed it).
  std::vector<PeerWait> idleByPeer;
  /// The device's HCCL ops, each split by the profiler's rule, in start order.
  std::vector<CommOp> ops;
  /// Transfer bytes and time per transport over the capture (communication.json's bandwidth info).
  std::vector<CommLink> links;

  /// communication.json / analysis.db CommAnalyzerTime (per-op times summed over every op of
  /// every step), when read: the profiler's record, shown beside the computed figures.
  std::optional<CommOpTimes> json;
  std::size_t jsonOps = 0;
  std::string jsonMessage;  ///< why it is absent or partial ("" when read cleanly)
};

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
/// Communication (Not Overlapped) intervals. `json` may be null (else it gives each op's
/// `recorded` and the sums). O(plane tasks log ops).
[[nodiscard]] CommBreakdown commBreakdown(const Trace& trace, int device, const Intervals& exposed,
                                          const CommunicationJson* json);

/// The computing split of `computeTasks` (the Ascend Hardware slices the overlap analysis took
/// as compute). `kernels` rows (matched by exact start ns) give Accelerator Core and Type; else
/// the slice's Task Type arg and name. Forward/backward: a task whose async_npu flow starts on a
/// thread that ends a fwdbwd flow is backward (msprof-analyze base_profiling_parser.py
/// `_is_backward`: tid == the fwdbwd end tid), else forward. O(tasks log flows).
[[nodiscard]] ComputeBreakdown computeBreakdown(const Trace& trace, const std::vector<SliceRef>& computeTasks,
                                                const KernelDetails* kernels);

/// At most two verdict lines: for a communication-bound rank, the one split of the exposed
/// communication and what its largest part means (a late peer, transfers, or idle with its
/// evidence, or "unknown" and why); for a compute-bound rank, what Computing is made of.
[[nodiscard]] std::vector<std::string> breakdownFindings(const DeviceAnalysis& da, const Verdict& v);

/// One line of text each, for reports and panels ("" when there is nothing to say).
[[nodiscard]] std::string commBreakdownText(const CommBreakdown& c);
[[nodiscard]] std::string computeBreakdownText(const ComputeBreakdown& c);

}  // namespace npuscope::core
