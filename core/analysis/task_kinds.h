// SPDX-License-Identifier: MIT
#pragma once
// Which Ascend Hardware tasks are compute kernels, by the task's Task Type arg and name: the rule
// CANN's overlap processor applies when it has no op_summary record to go by
// (../shared/docs/ascend-profiling-format.md §4.1; msprof op_summary_model.py). Shared by the
// Overlap Analysis (overlap.cpp) and the Statistics kernels / stream-tasks layers (stats.cpp).
// kinetoTaskKind is the same split for the stream lanes of a PyTorch Kineto trace (§6.1).

#include <cstdint>
#include <string_view>

namespace npuscope::core::detail {

/// CANN's compute task types (`Task Type` arg of an Ascend Hardware slice): AI_CORE,
/// AI_VECTOR_CORE, AI_CPU, MIX_AIC, MIX_AIV, FFTS_PLUS, DSA_SQE.
[[nodiscard]] inline bool isComputeTaskType(std::string_view t) {
  return t == "AI_CORE" || t == "AI_VECTOR_CORE" || t == "AI_CPU" || t == "MIX_AIC" || t == "MIX_AIV" ||
         t == "FFTS_PLUS" || t == "DSA_SQE";
}

/// Task names that are never compute whatever their type (memcpy, event, notify, SDMA, write
/// value, profiling, hcom_*, HCCL reduce, stream and kernel bookkeeping tasks), by prefix. The
/// Level0 910A capture (corpus ascend-pt-910a-l0-text-2rank) types every task "Other" and names
/// its HCCL stream tasks NOTIFY_RECORD / NOTIFY_WAIT / REDUCE_ASYNC_V2: with those prefixes the
/// rule picks exactly the tasks kernel_details.csv lists on every text capture of the corpus.
[[nodiscard]] inline bool isNeverComputeName(std::string_view n) {
  static constexpr std::string_view kPrefixes[] = {"MEMCPY",      "Memcpy",     "Memcopy", "MemcopyAsync",
                                                   "EVENT_",      "Notify",     "NOTIFY",  "SDMA",
                                                   "Write Value", "PROFILING_", "PLACE_HOLDER", "hcom",
                                                   "STREAM_",     "KERNEL_",    "Reduce_Inline", "REDUCE_ASYNC",
                                                   "RDMA"};
  for (auto p : kPrefixes)
    if (n.rfind(p, 0) == 0) return true;
  return false;
}

/// An untyped task type: "Other", "other", "N/A" or empty (Level0 captures, older CANN).
[[nodiscard]] inline bool isUntypedTaskType(std::string_view t) {
  return t == "Other" || t == "other" || t == "N/A" || t.empty();
}

/// The Task Type rule for one task: a compute task type, or an untyped task whose name is not
/// one of the never-compute names. (Without kernel_details.csv; see KernelDetails for the rule
/// with it.)
[[nodiscard]] inline bool isComputeTask(std::string_view taskType, std::string_view name) {
  return isComputeTaskType(taskType) || (isUntypedTaskType(taskType) && !isNeverComputeName(name));
}

/// HCCL AIV communication kernels and MC2 AICPU kernels are not compute (CANN overlap processor).
[[nodiscard]] inline bool isExcludedKernel(std::string_view n) {
  return n.ends_with("AivKernel") || n.ends_with("AicpuKernel");
}

/// What a slice on a Kineto device stream lane is (format notes §6.1).
enum class KinetoTaskKind : std::uint8_t {
  Compute,        ///< a kernel
  Communication,  ///< a collective kernel (NCCL, RCCL, HCCL)
  Copy,           ///< a memcpy or memset: moves data, computes nothing (not in Computing)
  NotATask,       ///< cuda_sync records, gpu_user_annotation spans, anything else
};

/// The Kineto rule, per profiler (format notes §6.1):
/// - CUDA / ROCm (PyTorch Kineto, HTA test data): cat `kernel` is a kernel, cat `gpu_memcpy` /
///   `gpu_memset` a copy; a kernel whose name contains "nccl" or "rccl" (any case: ncclKernel_*,
///   ncclDevKernel_*, rccl*) is communication, as HTA's kernel-type split does.
/// - torch_npu's Kineto path: cat `kernel` with a `type` arg (KERNEL_AICORE, KERNEL_AIVEC, ...);
///   a kernel named "hcom_*" or containing "hccl" (any case) is communication, one named like an
///   Ascend copy task (MEMCPY*, Memcpy*, SDMA*, PCIE_DMA*) is a copy, and one with another
///   never-compute Ascend name (events, notifies, bookkeeping: isNeverComputeName) is no task.
/// Everything else on the lane (cuda_sync "Event Sync" / "Stream Sync", gpu_user_annotation
/// spans drawn over the kernels) is NotATask.
[[nodiscard]] inline KinetoTaskKind kinetoTaskKind(std::string_view category, std::string_view name) {
  if (category == "gpu_memcpy" || category == "gpu_memset") return KinetoTaskKind::Copy;
  if (category != "kernel") return KinetoTaskKind::NotATask;
  const auto containsNoCase = [name](std::string_view needle) {
    if (needle.size() > name.size()) return false;
    for (std::size_t i = 0; i + needle.size() <= name.size(); ++i) {
      std::size_t k = 0;
      while (k < needle.size() && (name[i + k] | 0x20) == needle[k]) ++k;
      if (k == needle.size()) return true;
    }
    return false;
  };
  if (containsNoCase("nccl") || containsNoCase("rccl") || containsNoCase("hccl") || name.starts_with("hcom_"))
    return KinetoTaskKind::Communication;
  if (name.starts_with("MEMCPY") || name.starts_with("Memcpy") || name.starts_with("SDMA") ||
      name.starts_with("PCIE_DMA"))
    return KinetoTaskKind::Copy;
  if (isNeverComputeName(name)) return KinetoTaskKind::NotATask;
  return KinetoTaskKind::Compute;
}

}  // namespace npuscope::core::detail
