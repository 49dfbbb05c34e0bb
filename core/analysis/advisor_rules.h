// SPDX-License-Identifier: MIT
#pragma once
// Internal to the advisor (advisor.cpp, advisor_trace.cpp): the shared context and one function
// per rule. Not part of the public API; see advisor.h and docs/diagnosis.md §6.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/advisor.h"

namespace npuscope::core::detail {

/// What every rule reads: the trace, kernel_details.csv (may be null), the rank's analysis, the
/// thresholds, the step count (>= 1) and the device task at each start ns (to turn a kernel row
/// into a slice, the same exact-start rule as the overlap analysis).
struct AdvisorContext {
  AdvisorContext(const Trace& t, const KernelDetails* k, const RankAnalysis& a, const AdvisorThresholds& th);
  const Trace& trace;
  const KernelDetails* kernels;
  const RankAnalysis& analysis;
  const AdvisorThresholds& thresholds;
  std::size_t steps = 1;
  /// The devices are GPUs (a Kineto trace with "GPU k" processes: CUDA / ROCm, format notes
  /// §6.1): the Ascend-only rules are not run and the fixes do not name the NPU (isGpuTrace).
  bool gpu = false;
  /// Every device task by start time (the first in lane order on a tie), built by the first taskOf.
  mutable std::unordered_map<TimeNs, SliceRef> taskByStart;
  mutable bool taskByStartBuilt = false;
  [[nodiscard]] SliceRef taskOf(const KernelRow& row) const;
  [[nodiscard]] TimeNs perStep(double ns) const;  ///< ns / steps, rounded
  /// The Free intervals of device `device` (DeviceAnalysis::free), else of the device with the
  /// longest activity when no analysed device has that id (a lane without a device id), else null.
  [[nodiscard]] const Intervals* freeOfDevice(int device) const;
  /// Summed over the analysed devices, ns: the ceilings of adviseRank's time-at-stake bound.
  TimeNs freeNs = 0, computingNs = 0, commNotOverlappedNs = 0;
};

[[nodiscard]] std::string us(TimeNs ns);  ///< formatDuration
/// Sorts (weight, slice) pairs by weight, largest first, and appends the valid slices to `out`
/// (at most kMaxEvidence).
void sortEvidence(std::vector<std::pair<double, SliceRef>>& v, std::vector<SliceRef>& out);
[[nodiscard]] std::vector<long long> parseDims(std::string_view s);
[[nodiscard]] std::vector<std::vector<long long>> parseShapes(std::string_view cell);
[[nodiscard]] std::vector<std::string> splitSemicolon(std::string_view cell);
[[nodiscard]] std::string normalDtype(std::string_view t);
/// The product of `d` as a double (1 for an empty list).
[[nodiscard]] double product(const std::vector<long long>& d);
/// The trimmed cell of `row` in the first of `names` the kernel table has ("" when none).
[[nodiscard]] std::string cellAt(const KernelDetails& k, std::size_t row, std::initializer_list<std::string_view> names);

/// The operator table and tree of the rank, with one finding per tree node into `out`.
[[nodiscard]] std::shared_ptr<const OperatorAdvice> ruleOperatorTree(const AdvisorContext& c, const std::string& chip,
                                                                    std::vector<Finding>& out);
void ruleMatmul(const AdvisorContext& c, const std::string& chip, std::vector<Finding>& out);
void ruleAicpu(const AdvisorContext& c, std::vector<Finding>& out);
void ruleAclop(const AdvisorContext& c, std::vector<Finding>& out);
void ruleShortOps(const AdvisorContext& c, std::vector<Finding>& out);
void ruleTransfers(const AdvisorContext& c, std::vector<Finding>& out);
void ruleSyncStream(const AdvisorContext& c, std::vector<Finding>& out);
void ruleGc(const AdvisorContext& c, std::vector<Finding>& out);
void rulePipelines(const AdvisorContext& c, std::vector<Finding>& out);
void ruleBlockDim(const AdvisorContext& c, const std::string& chip, std::vector<Finding>& out);
void ruleEnvironment(const RankMetadata* meta, std::vector<Finding>& out);
void ruleForwardBackward(const AdvisorContext& c, std::vector<Finding>& out);
// advisor_resources.cpp: memory, communication, AI Core frequency, dynamic shapes. adviseRank
// calls them on Ascend traces only (not when AdvisorContext::gpu: a CUDA / ROCm Kineto trace).
void ruleMemory(const AdvisorContext& c, const RankMetadata* meta, std::vector<Finding>& out);
void ruleCommAlignment(const AdvisorContext& c, std::vector<Finding>& out);
void ruleCommBandwidth(const AdvisorContext& c, const RankMetadata* meta, const std::string& chip, std::vector<Finding>& out);
void ruleCommPackets(const AdvisorContext& c, const RankMetadata* meta, std::vector<Finding>& out);
void ruleAicoreFreq(const AdvisorContext& c, std::vector<Finding>& out);
void ruleDynamicShapes(const AdvisorContext& c, std::vector<Finding>& out);
/// Which of the device's figures bounds what a rule's fix can save (docs/diagnosis.md §6, "Time
/// at stake"): host-side rules the Free time, kernel rules the Computing time, collective rules
/// the Communication (Not Overlapped) time; None for rules without a time at stake.
enum class StakeCeiling : std::uint8_t { None, Free, Computing, CommNotOverlapped };
[[nodiscard]] StakeCeiling stakeCeiling(std::string_view rule);
/// Caps f.atStakePerStep at its ceiling per step (summed over the rank's devices, divided by the
/// steps), and says so in f.atStakeNote with the rule's own figure. A time at stake of 0 (not told)
/// or at most the ceiling is left as it is.
void boundAtStake(const AdvisorContext& c, Finding& f);
// advisor_fusion.cpp: msprof-analyze's affinity-API (timeline_fusion_ops.yaml) and fusible
// operator sequence (fusible_operator.yaml) rules; Ascend traces only.
void ruleAffinityApi(const AdvisorContext& c, std::vector<Finding>& out);
void ruleFusibleOps(const AdvisorContext& c, std::vector<Finding>& out);
/// Finding::stepsWithEvidence of `f` over `steps` (RankAnalysis::steps), or -1.
[[nodiscard]] int stepsWithEvidence(const Trace& trace, const std::vector<StepWindow>& steps, const Finding& f);

}  // namespace npuscope::core::detail
