// SPDX-License-Identifier: MIT
#pragma once
// The advisor: which operator or habit to fix next (issue 13, docs/diagnosis.md §6). The NPU
// performance tutorial's decision tree (../shared/docs/method/npu-performance-analysis-tutorial
// .zh.txt §4: matmul/conv TFLOPS utilisation, many short element-wise ops, data transfers,
// forward vs backward, AI Core pipelines) and msprof-analyze advisor's expert rules (format notes
// §4.5: AI_CPU >= 20 us, aclopCompileAndExecute >= 20 per step, synchronise-after-launch > 0.5,
// GC >= 1 ms, environment variables, block dim). Each rule gives a Finding with the time at stake
// per step, its numbers, its threshold (AdvisorThresholds, editable), its source, a fix and the
// slices behind it. A rule the data cannot decide says so (Severity::Unknown) and never guesses.
// Pure function of the trace, kernel_details.csv, the rank's analysis and its metadata.

#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/tables/communication_json.h"
#include "core/tables/memory_tables.h"

namespace npuscope::core {

/// The peak of one chip family for one data type, TFLOPS (dense, cube unit), with where the value
/// comes from. `chip` matches a capture's chip name by prefix ("Ascend910B" matches "Ascend910B3").
struct PeakTflops {
  std::string chip;    ///< "Ascend910B", "Ascend910A", ...
  std::string dtype;   ///< "FP32", "FP16", "BF16", "INT8"
  double tflops = 0;
  std::string source;  ///< where the value comes from; says "estimate" when it is one
};

/// AI Core / AI Vector core counts of one chip model (for the block-dim rule), with the source.
struct ChipCores {
  std::string chip;  ///< exact model ("Ascend910B3"); matched by prefix like PeakTflops
  int cube = 0;      ///< AI Cores (cube), for AI_CORE / MIX_AIC kernels
  int vector = 0;    ///< AI Vector cores, for AI_VECTOR_CORE / MIX_AIV kernels (0: none)
  std::string source;
};

/// The HBM bandwidth of one chip, GB/s (1e9 B/s), with where the value comes from; matched by
/// prefix like PeakTflops. For the roofline of the operator table (core/analysis/operators.h).
struct ChipBandwidth {
  std::string chip;
  double gbs = 0;
  std::string source;
};

/// The nominal bandwidth of one transport of a chip family, GB/s, with its source; matched by
/// prefix like PeakTflops. msprof keys these by ChipModel (info.json platform_version: 1 = 910A,
/// 5 = every 910B model), so a family name is enough here (unlike the peaks).
struct ChipLink {
  std::string chip;       ///< "Ascend910A", "Ascend910B"
  std::string transport;  ///< "HCCS" (the SDMA links between the chips of a server), "RDMA"
  double gbps = 0;
  std::string source;
};

/// Every threshold of the advisor, with msprof-analyze's or the tutorial's default (the source of
/// each is in docs/diagnosis.md §6). Passed in, so that a user or a test can change any of them.
struct AdvisorThresholds {
  double lowUtilisation = 0.50;   ///< matmul/conv below this share of the peak: larger batch / AMP (tutorial §4)
  double highUtilisation = 0.80;  ///< at or above: already efficient (tutorial §4)
  TimeNs aicpuMinNs = 20'000;     ///< an AI_CPU task this long or longer is a CPU fallback (advisor aicpu_rules.yaml)
  std::size_t aclopPerStep = 20;  ///< aclopCompileAndExecute calls per step (advisor MAX_OP_COMPILE_NUM)
  /// Element-wise / normalisation ops per step whose host launch outlasts their device time (npuscope's mark)
  std::size_t shortOpsPerStep = 20;
  std::size_t transfersPerStep = 1;  ///< host<->device transfers per step inside the step (tutorial §4: any)
  double syncLaunchRatio = 0.5;   ///< sync right after launch / launches, strictly above (advisor synchronize.yaml)
  TimeNs gcMinNs = 1'000'000;     ///< a Python GC pause this long or longer (advisor gc.yaml)
  double heavyOpShare = 0.05;     ///< an op type holding this share of the kernel time is "heavy" (npuscope's)
  std::size_t heavyOps = 5;       ///< at most this many heavy op types are classified
  double busyPipeRatio = 0.5;     ///< a pipe ratio at or above this says which unit bounds the op (npuscope's)
  TimeNs blockDimMinNs = 20'000;  ///< kernels shorter than this are left out of the block-dim rule (npuscope's)
  double backwardForwardRatio = 2.0;  ///< backward / forward above this: an op without an efficient backward (tutorial §3.3)
  std::size_t memoryTopOps = 5;   ///< operators named as the largest allocators live at the memory peak (npuscope's)
  /// The device's memory, GB (0: unknown; no capture of the corpus records it): the memory rule's issue needs it.
  double deviceMemoryGb = 0;
  double memoryPeakShare = 0.90;  ///< peak reserved at or above this share of deviceMemoryGb: issue (npuscope's mark)
  std::size_t commAlignBytes = 512;  ///< SDMA task sizes above this that are not a multiple of it (advisor byte_alignment)
  /// SDMA bandwidth nominal, GB/s; 0: the chip's HCCS nominal (links, from msprof), else msprof-analyze
  /// advisor's SDMA baseline of 18 (bandwidth_contention.yaml sdma_baseline) when the chip is unknown
  double sdmaNominalGbps = 0.0;
  /// RDMA nominal, GB/s; 0: the chip's RDMA nominal (links, from msprof), else not judged (the advisor has
  /// no RDMA baseline)
  double rdmaNominalGbps = 0.0;
  double bandwidthShare = 0.80;   ///< an op below this share of the nominal is slow (advisor bandwidth_contention.yaml threshold)
  double smallSdmaMb = 16.0;      ///< an op moving less over SDMA is a small packet (advisor packet.yaml min_sdma_size)
  double smallRdmaMb = 1.0;       ///< the same over RDMA (advisor packet.yaml min_rdma_size)
  double smallPacketRatio = 0.20; ///< small-packet ops / ops, strictly above: issue (advisor packet.yaml min_*_ratio)
  double freqDropRatio = 0.05;    ///< AI Core frequency this share or more below the nominal is a drop (advisor DECREASE_FREQ_RATIO)
  /// Shapes of an op type first seen after the first step, per later step, at or above: dynamic (npuscope's mark)
  double newShapesPerStep = 1.0;
  /// Affinity-API matches (torch op sequences or optimizers with a torch_npu fused API), at or above: issue
  /// (msprof-analyze fusion_ops_analyzer: any match)
  std::size_t affinityMinMatches = 1;
  /// Fusible sequences: consecutive kernel_details.csv tasks, this many at least and at most
  /// (msprof-analyze fusible_operator.yaml min_length 2 / max_length 10: its loop takes 3 to 10 tasks)
  std::size_t fusibleMinTasks = 3;
  std::size_t fusibleMaxTasks = 10;
  /// Host bound: the tasks' summed duration / the sequence's wall span below this (fusible_operator.yaml host_threshold)
  double fusibleHostRatio = 0.4;
  /// MTE bound: summed MTE2 + fixpipe/MTE3 time / summed aicore_time above this (fusible_operator.yaml mte_threshold)
  double fusibleMteRatio = 0.8;
  /// A sequence's summed wall span / the kernels' whole span above this (fusible_operator.yaml sequence_duration_threshold)
  double fusibleDurationShare = 0.01;
  /// Occurrences of a sequence, strictly above (fusible_operator.yaml sequence_count_threshold)
  std::size_t fusibleMinCount = 5;
  /// The chip when the capture does not record it (e.g. `--chip Ascend910B3`); empty: the capture's own, else unknown.
  std::string chip;
  std::vector<PeakTflops> peaks = defaultPeaks();
  std::vector<ChipCores> cores = defaultCores();
  std::vector<ChipBandwidth> hbm = defaultHbm();
  std::vector<ChipLink> links = defaultLinks();
  static std::vector<PeakTflops> defaultPeaks();
  static std::vector<ChipCores> defaultCores();
  static std::vector<ChipBandwidth> defaultHbm();
  static std::vector<ChipLink> defaultLinks();
};

/// A nominal link bandwidth the communication rules judge against, GB/s, and where it comes from.
struct LinkNominal {
  double gbps = 0;     ///< 0: none (not judged)
  std::string source;  ///< "threshold sdma_nominal_gbps", a ChipLink's source, or msprof-analyze's baseline
};

/// The nominal of `transport` ("HCCS" for SDMA traffic, "RDMA") for `chip`: the threshold when set
/// (> 0: sdmaNominalGbps / rdmaNominalGbps), else th.links' entry for the chip (longest prefix),
/// else for HCCS msprof-analyze's SDMA baseline (18 GB/s, chip-independent), for RDMA none.
[[nodiscard]] LinkNominal linkNominal(const AdvisorThresholds& th, std::string_view chip, std::string_view transport);

/// One editable field of AdvisorThresholds, by a stable key, in the unit a user types (us, ms,
/// a fraction, a count). For the thresholds dialog and `report --threshold key=value`.
struct ThresholdField {
  const char* key;     ///< "aicpu_min_us", ... (stable: QSettings keys and the command line use it)
  const char* label;   ///< what it is, in a few words
  const char* unit;    ///< "us", "ms", "fraction", "per step", "count", "ratio"
  const char* source;  ///< where the default comes from (docs/diagnosis.md §6)
  bool integer = false;  ///< whole numbers only
  double min = 0, max = 0;  ///< accepted range, inclusive
};
/// Every field of AdvisorThresholds but the chip and the peak / core tables, in docs/diagnosis.md
/// §6 order.
[[nodiscard]] const std::vector<ThresholdField>& advisorThresholdFields();
/// The value of field `key` of `t` in the field's unit; nullopt for an unknown key.
[[nodiscard]] std::optional<double> thresholdValue(const AdvisorThresholds& t, std::string_view key);
/// Sets field `key` of `t` to `value` (field unit; us / ms rounded to ns). Returns "" or why not
/// (unknown key, not a whole number, outside [min, max]); `t` is unchanged on error.
[[nodiscard]] std::string setThreshold(AdvisorThresholds& t, std::string_view key, double value);
/// Parses "key=value" (value a decimal number, `chip=NAME` sets the chip) and applies it with
/// setThreshold. Returns "" or an error sentence naming the known keys.
[[nodiscard]] std::string applyThresholdAssignment(AdvisorThresholds& t, std::string_view assignment);

/// What a finding says: an issue to fix, a rule that holds well ("efficient"), a measurement
/// without a verdict (information), or a rule the data cannot decide.
enum class Severity : std::uint8_t { Issue, Info, Ok, Unknown };
[[nodiscard]] const char* severityKey(Severity s);  ///< "issue", "info", "ok", "unknown"

/// One finding of one rule on one rank.
struct Finding {
  std::string rule;         ///< stable key: "matmul_utilisation", "aicpu", ...
  std::string title;        ///< "MatMul/Conv below 50% of peak", ...
  Severity severity = Severity::Info;
  /// Time the fix could save per step, ns (0: cannot be told). Never more than the device time
  /// the fix can act on (adviseRank bounds it: host-side rules by Free, kernel rules by
  /// Computing, collective rules by Communication (Not Overlapped); atStakeNote then says so).
  TimeNs atStakePerStep = 0;
  std::string atStakeNote;  ///< "" or how atStakePerStep was bounded, with the rule's own figure
  std::string numbers;      ///< the measured figures in words
  std::string threshold;    ///< the threshold applied, in words ("AI_CPU task >= 20 us")
  std::string source;       ///< where the rule and its threshold come from
  std::string fix;          ///< what to do, one or two sentences ("" for ok / unknown)
  std::vector<SliceRef> evidence;  ///< the slices behind it, worst first (capped at kMaxEvidence)
  /// For an issue on a rank of two or more steps: how many steps hold at least one evidence slice
  /// (a device task by its step's device window, any other slice by the host window; a slice
  /// outside every step counts for none), i.e. whether it recurs every step or happens once.
  /// -1 when it cannot be told: not an issue, fewer than 2 steps, no evidence, or the evidence
  /// capped at kMaxEvidence (the steps of the slices left out are unknown).
  int stepsWithEvidence = -1;
  /// The instant the finding is about when it is one rather than slices (the memory rule's peak
  /// of allocated memory, on the allocator's counter lanes: core/import/memory_counters.h);
  /// nullopt for the other rules. The Advice panel's double-click shows it on the timeline.
  struct Moment {
    TimeNs t = 0;         ///< ns, the trace's clock
    std::string label;    ///< what happens then, short ("PTA+GE peak 1234.5 MB")
    std::string process;  ///< the process whose counter lanes show it ("Memory allocator"), or ""
  };
  std::optional<Moment> moment;
};
inline constexpr std::size_t kMaxEvidence = 200;

/// What the advisor knows of the rank besides the trace: the chip and profiler_metadata.json.
struct RankMetadata {
  std::string chip;  ///< as recorded by the capture: msprof's info.json (chipFromMsprofInfo), the .db's NPU_INFO; "" when not
  bool envRecorded = false;  ///< profiler_metadata.json had ENV_VARIABLES
  std::vector<std::pair<std::string, std::string>> env;  ///< ENV_VARIABLES, in file order
  std::string message;  ///< why the metadata could not be read ("" when fine or absent)
  /// ASCEND_PROFILER_OUTPUT/memory_record.csv and operator_memory.csv (profile_memory=True), when present.
  std::optional<MemoryRecord> memoryRecord;
  std::optional<OperatorMemory> operatorMemory;
  std::optional<CommunicationJson> communication;  ///< ASCEND_PROFILER_OUTPUT/communication.json, when present
  /// Where memoryRecord, operatorMemory and communication were read, named in the findings: the
  /// text export's files, or for a rank loaded from its .db export the tables
  /// (adviseRankProfile: MEMORY_RECORD / OP_MEMORY of the .db, analysis.db CommAnalyzerTime +
  /// CommAnalyzerBandwidth; core/import/db/db_tables.h).
  std::string memoryRecordFrom = "memory_record.csv";
  std::string operatorMemoryFrom = "operator_memory.csv";
  std::string communicationFrom = "communication.json";
  /// The rank was loaded from its .db export: the tables above were sought there, so a missing one
  /// is named as the database's table.
  bool dbExport = false;
  /// The FP16 / BF16 peaks of this device from its info.json (devicePeaks): adviseRank prefers
  /// them to the table's.
  std::vector<PeakTflops> devicePeaks;
};

/// Reads `root`/profiler_metadata.json (format notes §1.2) and the memory and communication
/// files of `root`/ASCEND_PROFILER_OUTPUT (or `root` itself when it is that folder) when
/// present. Never throws: a bad file gives `message` (or the table's own error) and what could
/// be read.
[[nodiscard]] RankMetadata readRankMetadata(const std::string& root);

/// What msprof's info.json.N of a device says of its chip: the family (`platform_version`, as
/// chipFromMsprofInfo), and DeviceInfo[0]'s ai_core_num and aic_frequency (MHz); 0 when not
/// recorded. Found in `root`/device_*/ or `root`/PROF_*/device_*/. Never throws.
struct MsprofDeviceInfo {
  std::string chip;
  int aiCoreNum = 0;
  double aicFrequencyMhz = 0;
};
[[nodiscard]] MsprofDeviceInfo msprofDeviceInfo(const std::string& root);

/// The FP16 and BF16 peaks of a device from its own core count and clock, as msprof-analyze's
/// MFU computes them (operator_mfu/chip_peak_flops.py: ai_core_num x aic_frequency x 8192 FP16
/// operations a cycle; BF16 counted as FP16), keyed by info.chip; empty when a figure is missing.
/// No FP32 or INT8 figure: the formula gives none.
[[nodiscard]] std::vector<PeakTflops> devicePeaks(const MsprofDeviceInfo& info);

/// The chip family msprof's info.json.N records as `platform_version` (msprof constant.py:
/// "1" = CHIP_V2_1_0, Ascend 910, named "Ascend910A" here; "5" = CHIP_V4_1_0, "Ascend910B"), found in
/// `root`/device_*/ or `root`/PROF_*/device_*/; "" when none says. Never throws.
[[nodiscard]] std::string chipFromMsprofInfo(const std::string& root);

struct OperatorAdvice;  // core/analysis/operators.h

/// The advisor's result for one rank: findings sorted by severity (issues first) then by time at
/// stake per step, longest first; the steps the per-step figures divide by.
struct RankAdvice {
  std::vector<Finding> findings;
  /// The operator table and decision tree behind the `operator_tree` findings (operators.h); null
  /// without a kernel table, and on a GPU trace.
  std::shared_ptr<const OperatorAdvice> operators;
  std::size_t steps = 1;  ///< ProfilerStep windows (1 without any)
  std::string chip;       ///< the chip used (thresholds.chip, else the capture's), "" when unknown
  /// Which rules were not run and why ("" when all were): on a GPU trace (isGpuTrace) the
  /// Ascend-only rules.
  std::string notRun;
};

/// True when the trace's devices are GPUs: a Kineto trace (format notes §6.1) with a process
/// labelled "GPU k" (CUDA / ROCm). A torch_npu Kineto trace ("Ascend NPU") and every Ascend
/// export are false.
[[nodiscard]] bool isGpuTrace(const Trace& trace);

/// Achieved work of one kernel_details.csv row: FLOPs from its shapes (2·M·N·K for MatMul and its
/// batched forms; 2·N·Hout·Wout·|weight| = 2·Cin·k²·Cout·Hout·Wout per image for Conv2D and its
/// two backprops, channels as recorded, i.e. padded to C0 / 16 in NC1HWC0 / FRACTAL_Z), the dtype
/// of its first input ("FP32", "FP16", "BF16", "INT8", or the recorded text; "HF32" for an FP32
/// row whose `HF32 Eligible` is YES: it may run in HF32, so the FP32 peak does not apply) and TFLOPS over its
/// duration. Empty when the row has no shapes (Level0), its op is not one of those, or the shapes
/// do not fit the op (never guessed).
struct KernelWork {
  double flops = 0;
  std::string dtype;
  double tflops = 0;  ///< flops / duration
};
[[nodiscard]] std::optional<KernelWork> kernelWork(const KernelDetails& kernels, std::size_t row);

/// The HBM bandwidth for `chip` from `hbm` (longest prefix match), or null.
[[nodiscard]] const ChipBandwidth* findHbm(const std::vector<ChipBandwidth>& hbm, std::string_view chip);
/// The cores for `chip` from `cores` (longest prefix match), or null.
[[nodiscard]] const ChipCores* findCores(const std::vector<ChipCores>& cores, std::string_view chip);

/// True when `a` and `b` are the same kind of finding for comparing ranks: the same rule, and for
/// the decision tree (rule "operator_tree", one finding per operator) the same title too.
[[nodiscard]] bool sameFindingKind(const Finding& a, const Finding& b);

/// True when `chip` names only a chip family whose models differ in peak, cores and bandwidth:
/// "Ascend910B" (NPU_INFO of the torch_npu .db export and msprof's platform_version 5 say no more;
/// the 910B1 .. 910B4 have 20 to 24 AI Cores). The rules then say "unknown" and ask for --chip,
/// never applying one model's figures to the family (issue 41 item 5).
[[nodiscard]] bool chipFamilyOnly(std::string_view chip);

/// The peak for `chip` and `dtype` from `peaks` (prefix match on chip), or null.
[[nodiscard]] const PeakTflops* findPeak(const std::vector<PeakTflops>& peaks, std::string_view chip,
                                         std::string_view dtype);

/// A kernel_details.csv cell that holds a value: not empty, not "N/A" (what Level0 writes for
/// Type and Accelerator Core).
[[nodiscard]] bool cellRecorded(std::string_view cell);

/// The core a device task's "Task Type" arg names ("AI_CPU", "AI_CORE", ...), or "" when `task`
/// is invalid or the arg names none (absent, "N/A", "Other"): what a Level0 kernel row without an
/// Accelerator Core ran on (910A corpus: its two AI_CPU tasks).
[[nodiscard]] std::string taskCore(const Trace& trace, SliceRef task);

/// Which unit bounds a kernel by its Level1+ PipeUtilization ratios (kernel_details.csv aic_*_ratio /
/// aiv_*_ratio, format notes §5.1; the 910A's unprefixed mac_ratio, vec_ratio, scalar_ratio,
/// mte1/2/3_ratio as msprof's PipeUtHeaderString names them): "compute-bound (cube)", "compute-bound (vector)",
/// "memory-bound (MTE1|MTE2|MTE3|fixpipe)", "scalar-bound", "latency-bound" (no pipe at or above
/// busyPipeRatio), or "" when the row has no ratio (Level0, other aic_metrics).
[[nodiscard]] std::string kernelBound(const KernelDetails& kernels, std::size_t row, double busyPipeRatio);

/// Runs every rule on one rank (on a GPU trace only the device-neutral ones: transfers and
/// forward vs backward; RankAdvice::notRun says so). `kernels` and `meta` may be null (their rules then say unknown).
[[nodiscard]] RankAdvice adviseRank(const Trace& trace, const KernelDetails* kernels, const RankAnalysis& analysis,
                                    const RankMetadata* meta, const AdvisorThresholds& thresholds = {});

/// What adviseRank does to every finding of its rules, for findings made elsewhere
/// (core/report's collectiveAdvice): Finding::stepsWithEvidence, and the time at stake bounded
/// by the device time the rule can act on (Free, Computing or Communication (Not Overlapped) per
/// step, by rule; atStakeNote says so). `findings` are slices of `trace`.
void settleFindings(const Trace& trace, const RankAnalysis& analysis, const AdvisorThresholds& thresholds,
                    std::vector<Finding>& findings);

/// The order of a rank's findings, and of the Advice dock's: issues first (Severity order), then
/// by time at stake per step, the longest first. For a stable sort.
[[nodiscard]] bool findingBefore(const Finding& a, const Finding& b);

}  // namespace npuscope::core
