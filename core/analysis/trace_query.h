// SPDX-License-Identifier: MIT
#pragma once
// Internal helpers shared by the analyses: slice ancestry, flows touching a slice, the device
// task sets of one device, bubble search. Not part of the public API.

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/task_kinds.h"

namespace npuscope::core::detail {

/// The enclosing slice one depth up (same lane), or invalid.
[[nodiscard]] SliceRef parentOf(const Trace& trace, SliceRef r);
/// The flows at one end of a slice, iterated as `const Flow*`: a view of the trace's flow index
/// (no allocation: the dispatch statistics look up two per device task), or, for a trace that
/// was never indexed, a copy of the scan's result. Not copyable; valid while the trace lives.
class FlowRefs {
 public:
  FlowRefs(const Trace& trace, const std::vector<std::uint32_t>& index, std::pair<std::size_t, std::size_t> range)
      : m_trace(&trace), m_begin(index.data() + range.first), m_end(index.data() + range.second) {}
  FlowRefs(const Trace& trace, std::vector<std::uint32_t> owned)
      : m_trace(&trace), m_owned(std::move(owned)), m_begin(m_owned.data()), m_end(m_owned.data() + m_owned.size()) {}
  FlowRefs(const FlowRefs&) = delete;
  FlowRefs& operator=(const FlowRefs&) = delete;

  class iterator {
   public:
    iterator(const Trace* t, const std::uint32_t* p) : m_t(t), m_p(p) {}
    const Flow* operator*() const { return &m_t->flows[*m_p]; }
    iterator& operator++() {
      ++m_p;
      return *this;
    }
    bool operator!=(const iterator& o) const { return m_p != o.m_p; }

   private:
    const Trace* m_t;
    const std::uint32_t* m_p;
  };
  [[nodiscard]] iterator begin() const { return {m_trace, m_begin}; }
  [[nodiscard]] iterator end() const { return {m_trace, m_end}; }
  [[nodiscard]] std::size_t size() const { return static_cast<std::size_t>(m_end - m_begin); }
  [[nodiscard]] bool empty() const { return m_begin == m_end; }

 private:
  const Trace* m_trace;
  std::vector<std::uint32_t> m_owned;
  const std::uint32_t* m_begin;
  const std::uint32_t* m_end;
};

/// Flows whose `to` (or `from`) is `r`, in flow index order. O(log flows) on an indexed trace (the
/// loader indexes), else O(flows).
[[nodiscard]] FlowRefs flowsTo(const Trace& trace, SliceRef r);
[[nodiscard]] FlowRefs flowsFrom(const Trace& trace, SliceRef r);
/// The first user frame of the "Call stack" arg (with_stack) of `op` or its nearest ancestor that
/// has one, skipping site-packages / torch / torch_npu frames, e.g. "train.py(88): main"; "" when
/// not recorded.
[[nodiscard]] std::string callerOf(const Trace& trace, SliceRef op);
/// The backward threads: the lanes holding the end of a fwdbwd flow (torch_npu draws it from the
/// forward op to its backward op only when their threads differ, format §2.6). Empty without
/// fwdbwd flows. O(flows).
[[nodiscard]] std::unordered_set<std::uint32_t> backwardLanes(const Trace& trace);
/// The lane of a process with `role` and numeric tid `tid`, or kInvalidIndex.
[[nodiscard]] std::uint32_t laneByRoleAndTid(const Trace& trace, Process::Role role, std::int64_t tid);

/// True for a lane of device tasks: a thread of an Ascend Hardware process other than msprof's
/// `Step Trace(Model ID:k)` thread, whose Iteration / FP_BP Time / Reduce slices are step
/// markers spanning the step, not tasks (older msprof writes it under Ascend Hardware, format
/// notes §6; they carry no Task Type and would otherwise pass as compute); or a stream of a
/// Kineto device process (Process::Role::KinetoDevice, format notes §6.1), on which only some
/// slices are tasks (kinetoTaskKindOf).
[[nodiscard]] bool isDeviceTaskLane(const Trace& trace, std::uint32_t lane);
[[nodiscard]] bool isDeviceTaskLane(const Trace& trace, const Lane& lane);
/// A stream lane of a Kineto device process (format notes §6.1): its slices are classified per
/// slice by category and name (kinetoTaskKind), not by Task Type. False for an invalid lane.
[[nodiscard]] bool isKinetoDeviceLane(const Trace& trace, std::uint32_t lane);
/// kinetoTaskKind of slice `r` (which must be valid) from its category and name.
[[nodiscard]] KinetoTaskKind kinetoTaskKindOf(const Trace& trace, SliceRef r);
/// Why a rank has no device analysis, one sentence for RankAnalysis::notes: no Ascend Hardware
/// lanes; or, for a Kineto trace, no kernel/memcpy/memset events (and a CUPTI range-profiler
/// trace, whose cuda_profiler_range records are replays, not the kernels' timeline, is named).
[[nodiscard]] std::string noDeviceNote(const Trace& trace);
/// A Kineto runtime record within this of its kernel's start, lasting 0, records the kernel, not
/// its launch (isKernelRecord): Kineto writes microseconds with 3 decimals.
inline constexpr TimeNs kKernelRecordNs = 1'000;
/// True when the ac2g flow `f` starts at a runtime record (cat privateuse1_runtime, cuda_runtime,
/// cuda_driver) that lasts 0 and starts within kKernelRecordNs of the kernel it points to: a record
/// of the kernel, not its launch. torch_npu's Kineto (PrivateUse1) traces write such records
/// (issue 41 item 6: at the kernel's own timestamp, while the op that issued the kernel ran
/// ~10 ms earlier); a real launch precedes its kernel and takes time. The launch time is then not
/// recorded: the op that issued the kernel is kinetoIssuingOp's.
[[nodiscard]] bool isKernelRecord(const Trace& trace, const Flow& f);
/// The cpu_op whose args "External id" equals that of `record` (a Kineto runtime record): the op
/// that issued its kernel (Kineto correlates an op with its runtime calls by that id, format notes
/// §6.1). Invalid when `record` has no such id or no op carries it (then it cannot be told). The
/// first call on a trace indexes its cpu_ops (Trace::Derived::opsByExternalId, O(cpu_ops) args
/// reads, thread-safe); later calls are O(log cpu_ops).
[[nodiscard]] SliceRef kinetoIssuingOp(const Trace& trace, SliceRef record);
/// True when the trace has a Kineto device process (a PyTorch Kineto trace, §6.1).
[[nodiscard]] bool isKinetoTrace(const Trace& trace);
/// True when the PyTorch layer was recorded: a Kineto trace, or a `Python` process (torch_npu's
/// torch ops, Enqueue / Dequeue) with slices. False for msprof captures of MindSpore / GE graph
/// mode (format notes §6), whose host layer is CANN only: torch terms must not be used there
/// (docs/diagnosis.md §3, wording).
[[nodiscard]] bool torchLayerRecorded(const Trace& trace);
/// True when `device` is a GPU of a Kineto trace (label "GPU k"): CUDA / ROCm, so the wording of
/// the verdict and bubbles must not name Ascend-only concepts (CANN, aclnn, HCCL, Node@launch).
[[nodiscard]] bool isGpuDevice(const Trace& trace, int device);
/// A lane of HCCL big ops: a thread of the Communication/HCCL process that is not a "Plane k"
/// thread (those hold the big ops' small tasks). The communication set of the overlap (format
/// §4.1), the statistics' communication layer and the collectives that end bubbles use it.
[[nodiscard]] bool isCollectiveLane(const Trace& trace, const Lane& lane);

/// The device tasks of one device, split as CANN's overlap processor does (§4.1).
struct DeviceTasks {
  Intervals compute;        ///< union of compute tasks
  std::vector<SliceRef> computeTasks;  ///< the compute tasks themselves (Ascend Hardware slices)
  Intervals communication;  ///< union of HCCL big ops (group threads), else hcom_* tasks on streams;
                            ///< on Kineto streams, the collective kernels
  Intervals copies;         ///< Kineto streams only: union of the memcpy/memset tasks (not compute)
  std::vector<TimeRange> hcomOnStreams;
  std::vector<std::uint32_t> hardwareLanes, communicationLanes, overlapLanes;
  std::string computeRule;
  bool kineto = false;      ///< the device's tasks came from Kineto stream lanes
};
/// `kernels` (kernel_details.csv) picks the compute tasks by exact start ns; when none of its rows
/// matches a task, the Task Type rule is used and computeRule says so. With `stop` requested it
/// returns early (polled every 64K tasks) with incomplete sets.
[[nodiscard]] DeviceTasks collectDeviceTasks(const Trace& trace, int device, const KernelDetails* kernels,
                                             const std::stop_token& stop = {});

/// How often the analyses poll their stop token: every kAnalysisStopPoll items of a loop (the
/// loops do a few ns per item, so a stop is seen within a millisecond or so).
inline constexpr std::size_t kAnalysisStopPoll = std::size_t{1} << 16;

/// Free intervals of `da` at least options.bubbleThresholdNs long, longest first, with the
/// device tasks around them, host activity, cause and the chain of the task that ends each.
/// options.stop is polled before each bubble (an incomplete list when requested). Only the
/// longest options.maxBubbles are kept; `found` / `foundNs` (optional) receive how many Free
/// intervals reach the threshold in all and their summed length, ns; `causes` (optional) the
/// bubble time per cause over all of them. Chains get da.skew applied, so da.skew must be set.
[[nodiscard]] std::vector<Bubble> findBubbles(const Trace& trace, const DeviceAnalysis& da,
                                              const std::vector<StepWindow>& steps,
                                              const AnalysisOptions& options, std::size_t* found = nullptr,
                                              TimeNs* foundNs = nullptr, CauseTotals* causes = nullptr);

}  // namespace npuscope::core::detail
