// SPDX-License-Identifier: MIT
#pragma once
// The operator decision tree of the method (../shared/docs/method/npu-performance-analysis-tutorial
// .zh.txt §3-4, docs/diagnosis.md §6.3): operators grouped by type, input shapes and dtypes with
// their FLOPs, bytes, achieved TFLOPS and GB/s, utilisation against the chip's peak and bound
// type; the tree walked for the slowest groups; and the dispatch statistics per torch op and per
// CANN API (host time, queue wait, launch -> device start, device time, bubbles ended).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/analysis/analysis.h"
#include "core/model/trace.h"
#include "core/tables/tables.h"

namespace npuscope::core {

/// One operator group: the kernel_details.csv rows (or the .db's COMPUTE_TASK_INFO ⋈ TASK rows)
/// sharing Type, Input Shapes, Input Data Types, Accelerator Core and Output Shapes (two
/// convolutions of one input and another stride differ in their output only). Communication rows are left
/// out (they are not operators of the tree). Times in ns, FLOPs and bytes per call.
struct OperatorGroup {
  std::string type, name;  ///< `Type`; the `Name` of its first row
  std::string inputShapes, inputDtypes, inputFormats, core;  ///< as written (core: `Accelerator Core`)
  std::string outputShapes;  ///< as written
  std::size_t count = 0;
  TimeNs total = 0, min = 0, max = 0;
  double mean = 0;  ///< ns
  double shareOfBusy = 0;  ///< total / the device's Computing time (union of compute tasks), 0..n
  /// FLOPs per call (MatMul family 2·M·N·K; Conv2D and its backprops 2·Cin·k²·Cout·Hout·Wout per
  /// image, tutorial §3.2); empty when the shapes do not give it (element-wise ops, Level0).
  std::optional<double> flops;
  /// A Conv2D's channels are as written in NC1HWC0 / FRACTAL_Z, i.e. rounded up to C0 (16 for
  /// FP16), because no torch op with `Input Dims` was linked to the kernel: `flops` is then an
  /// upper bound, exact when the channels are multiples of C0 (the stem's 3 channels are not).
  bool flopsPadded = false;
  std::optional<double> tflops;  ///< Σ FLOPs / Σ duration over the rows with FLOPs
  /// Bytes read and written per call: Σ over inputs and outputs of elements × dtype size, the
  /// shapes as stored (padding included: what the memory units move). Empty when a dtype is unknown.
  std::optional<double> bytes;
  std::optional<double> gbs;  ///< bytes / mean duration, GB/s (1e9 B/s)
  std::string dtype;          ///< the dtype the peak is looked up for ("FP32", "HF32", "FP16", ...)
  std::optional<double> peakTflops;  ///< the chip's peak for `dtype`, when known
  std::string peakSource;            ///< where the peak comes from (PeakTflops::source)
  /// FP32 rows from a kernel table without `HF32 Eligible` (the .db export, older CANN): they may
  /// run in HF32, whose peak is higher, so "already fast" against FP32's peak cannot be said.
  bool hf32Unknown = false;
  std::optional<double> utilisation; ///< tflops / peakTflops; empty when above the peak (abovePeak)
  /// tflops above peakTflops: no kernel beats its peak, so it did not run in `dtype` (an FP32
  /// kernel in HF32, which the capture need not record) or the peak or the FLOPs are wrong; the
  /// utilisation is unknown then, never above 100% (issue 41 item 5).
  bool abovePeak = false;
  /// "compute", "memory", "latency" or "" (unknown), with how it was decided in boundDetail.
  std::string bound;
  std::string boundDetail;  ///< "cube pipe 0.85 (aic_mac_ratio)" or "roofline: memory 12 us > compute 3 us"
  std::string boundFrom;    ///< "pipe ratios", "roofline" or ""
  std::optional<long long> blockDim;  ///< the largest Block Dim of its rows
  std::optional<int> cores;  ///< the chip's cores of the kind the group runs on (AI Core or AI Vector)
  bool underfilled = false;  ///< blockDim < half of cores: too small to fill the chip (tutorial §3.1)
  std::size_t forwardCount = 0, backwardCount = 0;  ///< by the launching thread (fwdbwd flows), else 0
  TimeNs forwardNs = 0, backwardNs = 0;
  std::vector<std::size_t> rows;   ///< kernel_details rows, in file order
  std::vector<SliceRef> tasks;     ///< the device tasks found for those rows, longest first (≤ kMaxEvidence)
};

/// kernelWork of row `row` with a Conv2D's true channels: when its shapes are in NC1HWC0 /
/// FRACTAL_Z (channels rounded up to C0) and the torch op that launched `task` (async_npu flow),
/// or one of its ancestors, is a convolution with `Input Dims` (record_shapes), the FLOPs use that
/// op's filter (Cout·Cin/groups·kh·kw) instead of the padded one; otherwise `*padded` (when given)
/// is set and the FLOPs are the upper bound of the padded channels. `task` may be invalid.
[[nodiscard]] std::optional<KernelWork> kernelWorkLinked(const Trace& trace, const KernelDetails& kernels, std::size_t row,
                                                         SliceRef task, bool* padded = nullptr);

/// The operator groups of one rank, longest total first.
struct OperatorTable {
  std::vector<OperatorGroup> groups;
  TimeNs computingNs = 0;  ///< Σ over devices of Computing (the share's denominator), ns
  std::string chip;        ///< the chip used ("" = unknown: utilisation and the roofline are unknown)
  std::string passNote;    ///< how forward/backward was told, or why not
};

/// Groups `kernels` by (Type, Input Shapes, Input Data Types, Accelerator Core). The chip is
/// `chip` ("" = unknown); the peaks, HBM bandwidths and core counts come from `thresholds`.
/// Conv FLOPs use the true channel counts from the launching torch op's `Input Dims`
/// (aten::conv2d / convolution / convolution_backward, record_shapes) when the trace links the
/// kernel to one, else the padded ones (flopsPadded). Never throws.
[[nodiscard]] OperatorTable operatorTable(const Trace& trace, const KernelDetails& kernels, const RankAnalysis& analysis,
                                          const std::string& chip, const AdvisorThresholds& thresholds);

/// A kernel group whose mean is below this is short: launch-dominated (npuscope's mark, the same
/// 20 us as AdvisorThresholds::blockDimMinNs).
inline constexpr TimeNs kShortKernelNs = 20'000;
/// A kernel under this is tiny; a step with at least kStormKernelsPerStep kernels, half of them
/// tiny, is a storm of small launches (npuscope's marks for the tutorial's "大量细碎的小算子").
inline constexpr TimeNs kTinyKernelNs = 10'000;
inline constexpr std::size_t kStormKernelsPerStep = 500;

/// One step of the tutorial's decision tree (§4) for one operator group or for the rank.
struct TreeNode {
  std::string operatorLabel;  ///< "MatMulV2 [32,4096;4096,4096] FP32", or "(all kernels)" for the rank-wide nodes
  /// The branch taken: "matmul_low", "matmul_mid", "matmul_efficient", "matmul_no_peak",
  /// "matmul_no_shapes", "aicpu_fallback", "elementwise_many_short", "elementwise_slow",
  /// "transfer", "host_sync", "launch_storm", "other".
  std::string branch;
  std::string finding;     ///< why, with the figures, one sentence
  std::string suggestion;  ///< what to do ("" when nothing: already fast)
  std::vector<std::pair<std::string, double>> figures;  ///< named figures (us, TFLOPS, fraction, count)
  Severity severity = Severity::Info;
  TimeNs totalNs = 0;      ///< the group's device time (the rank-wide nodes: the time they cover)
  int group = -1;          ///< index into OperatorTable::groups, -1 for a rank-wide node
  std::vector<SliceRef> evidence;  ///< the kernels (or host slices) behind it, longest first
};

/// Walks the tree for the top 10 groups by total time and every group holding at least
/// thresholds.heavyOpShare of Computing, then the rank-wide branches (transfers and host syncs,
/// a storm of small launches). `steps` divides per-step counts (≥ 1).
[[nodiscard]] std::vector<TreeNode> walkDecisionTree(const Trace& trace, const OperatorTable& table,
                                                     const AdvisorThresholds& thresholds, std::size_t steps);

/// The operator table of a rank and the tree walked over it, made once by adviseRank (its rule
/// `operator_tree`) and kept in RankAdvice::operators for the report's JSON.
struct OperatorAdvice {
  OperatorTable table;
  std::vector<TreeNode> tree;
};

/// p50 / p90 / max of a sample, ns; p by linear interpolation between the closest ranks
/// (position (n-1)·p of the sorted sample, numpy's default). Empty sample: all empty.
struct Spread {
  std::size_t n = 0;
  std::optional<double> p50, p90, max;
};
[[nodiscard]] Spread spreadOf(std::vector<double> sample);

/// The dispatch statistics of one op name at one layer (docs/diagnosis.md §6.3).
struct DispatchStat {
  std::string op;     ///< torch op name ("aten::add") or CANN API ("aclnnAdd", "AscendCL@aclopCompileAndExecute")
  std::string layer;  ///< "torch" or "cann"
  std::size_t count = 0;  ///< instances that launched at least one device task
  /// Samples, ns, one per instance: host = the slice's duration; queue = Dequeue start - Enqueue
  /// start (torch layer only); launch = first task's start - its launch (clock-corrected,
  /// DispatchChain::correctedLatency); device = Σ duration of the instance's tasks.
  std::vector<double> host, queue, launch, device;
  std::size_t hostOverDevice = 0;  ///< instances whose host time exceeds their device time
  std::size_t bubblesEnded = 0;    ///< Free intervals ≥ the bubble threshold ended by one of its tasks
  TimeNs bubblesEndedNs = 0;
  std::vector<SliceRef> instances;  ///< the op slices, longest host time first (≤ kMaxEvidence)
};

/// Per torch op (the chain's aten op) and per CANN API (aclnn* / AscendCL@*), device tasks of
/// every device reached through their dispatch chains; sorted by Σ host time, longest first.
/// `bubbleThresholdNs` is the bubble length counted in bubblesEnded. The tasks' chains are built
/// by `threads` threads (at most 8; 0: the hardware's, with 20,000 tasks a thread at least); the
/// result is the same whatever the number. Throws only std::bad_alloc.
[[nodiscard]] std::vector<DispatchStat> dispatchStats(const Trace& trace, const RankAnalysis& analysis,
                                                      TimeNs bubbleThresholdNs = 10'000, unsigned threads = 0);

/// JSON of the three: `"operators": [...], "decision_tree": [...], "dispatch_stats": [...]`
/// appended to `o` (keys as the README documents; null where unknown; times in us).
void operatorsJson(std::string& o, const Trace& trace, const OperatorTable* table, const std::vector<TreeNode>& tree,
                   const std::vector<DispatchStat>& stats);

}  // namespace npuscope::core
