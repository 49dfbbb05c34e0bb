// SPDX-License-Identifier: MIT
// The advisor's kernel rules (kernel_details.csv): matmul/conv TFLOPS against the chip's peak,
// AI_CPU fallbacks, AI Core pipelines and block dim; and adviseRank, which runs every rule
// (the trace rules are in advisor_trace.cpp). docs/diagnosis.md §6.

#include "core/analysis/advisor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

#include "core/base/ascii.h"
#include "core/analysis/advisor_rules.h"
#include "core/analysis/operators.h"
#include "core/analysis/trace_query.h"
#include "core/base/i18n.h"
#include "core/base/parse_number.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"

namespace npuscope::core {

const char* severityKey(Severity s) {
  switch (s) {
    case Severity::Issue: return "issue";
    case Severity::Info: return "info";
    case Severity::Ok: return "ok";
    case Severity::Unknown: return "unknown";
  }
  return "unknown";
}

std::vector<PeakTflops> AdvisorThresholds::defaultPeaks() {
  return {
      // The tutorial's figures are the 910B3's: they are not applied to the family name
      // "Ascend910B" nor to the other models (chipFamilyOnly; issue 41 item 5).
      {"Ascend910B3", "FP32", 80.0,
       "tutorial §3.1 (910B3: FP32 theoretical peak 'about 80 TFLOPS'; an estimate, no datasheet value)"},
      {"Ascend910B3", "FP16", 320.0,
       "tutorial §4.1 (AMP 'about 320 TFLOPS' on 910B3) and issue 13; an estimate, no datasheet value"},
      {"Ascend910B3", "BF16", 320.0, "assumed equal to FP16 (tutorial §4.1, issue 13); an estimate"},
      {"Ascend910A", "FP16", 256.0, "Huawei's Ascend 910 announcement (2019): 256 TFLOPS FP16; a public figure, not measured"},
      {"Ascend910A", "INT8", 512.0, "Huawei's Ascend 910 announcement (2019): 512 TOPS INT8; a public figure, not measured"},
  };
}

std::vector<ChipBandwidth> AdvisorThresholds::defaultHbm() {
  return {
      {"Ascend910B3", 1200.0, "tutorial §2.3 (910B3 theoretical HBM bandwidth 'about 1.2 TB/s'); an estimate"},
  };
}

std::vector<ChipLink> AdvisorThresholds::defaultLinks() {
  // msprof (Ascend/msprof 9ba1ac7) analysis/common_func/ms_constant/number_constant.py, the
  // HcclAnalysisTool.StandardBandWidth of msparser/cluster/meta_parser.py (its "Bandwidth
  // Utilization" = measured / these); ChipModel V2_1_0 = info.json platform_version 1 = Ascend910A,
  // V4_1_0 = 5 = Ascend910B (db_constant.h CHIP_TABLE). msprof has no entry for other chips.
  const std::string file = "msprof analysis/common_func/ms_constant/number_constant.py ";
  return {
      {"Ascend910A", "HCCS", 18.0, file + "HCCS_BANDWIDTH_V2_1_0 = 18 GB/s (ChipModel V2_1_0: Ascend910A)"},
      {"Ascend910A", "RDMA", 12.5, file + "RDMA_BANDWIDTH_V2_1_0 = 12.5 GB/s (ChipModel V2_1_0: Ascend910A)"},
      {"Ascend910B", "HCCS", 28.0, file + "HCCS_BANDWIDTH_V4_1_0 = 28 GB/s (ChipModel V4_1_0: every Ascend910B model)"},
      {"Ascend910B", "RDMA", 25.0, file + "RDMA_BANDWIDTH_V4_1_0 = 25 GB/s (ChipModel V4_1_0: every Ascend910B model)"},
  };
}

LinkNominal linkNominal(const AdvisorThresholds& th, std::string_view chip, std::string_view transport) {
  const bool hccs = transport == "HCCS";
  const double set = hccs ? th.sdmaNominalGbps : th.rdmaNominalGbps;
  if (set > 0) return {set, hccs ? "threshold sdma_nominal_gbps" : "threshold rdma_nominal_gbps"};
  const ChipLink* best = nullptr;
  for (const ChipLink& l : th.links)
    if (l.transport == transport && !l.chip.empty() && chip.starts_with(l.chip) && (!best || l.chip.size() > best->chip.size()))
      best = &l;
  if (best) return {best->gbps, best->source};
  if (hccs) return {18.0, "msprof-analyze advisor bandwidth_contention.yaml sdma_baseline 18 (any chip)"};
  return {};
}

bool sameFindingKind(const Finding& a, const Finding& b) {
  return a.rule == b.rule && (a.rule != "operator_tree" || a.title == b.title);
}

namespace {

/// The entry of `table` whose `chip` is the longest prefix of `chip` among those `keep` accepts
/// ("Ascend910B3" before "Ascend910B"), or null.
template <typename Entry, typename Keep>
const Entry* longestChipPrefix(const std::vector<Entry>& table, std::string_view chip, Keep keep) {
  const Entry* best = nullptr;
  for (const Entry& e : table)
    if (keep(e) && !e.chip.empty() && chip.starts_with(e.chip) && (!best || e.chip.size() > best->chip.size())) best = &e;
  return best;
}

}  // namespace

const ChipBandwidth* findHbm(const std::vector<ChipBandwidth>& hbm, std::string_view chip) {
  return longestChipPrefix(hbm, chip, [](const ChipBandwidth&) { return true; });
}

const ChipCores* findCores(const std::vector<ChipCores>& cores, std::string_view chip) {
  return longestChipPrefix(cores, chip, [](const ChipCores&) { return true; });
}

std::vector<ChipCores> AdvisorThresholds::defaultCores() {
  return {
      {"Ascend910B1", 24, 48, "public 910B1 listings (24 AI Cores); an estimate, check npu-smi info"},
      {"Ascend910B2", 24, 48, "public 910B2 listings (24 AI Cores); an estimate, check npu-smi info"},
      {"Ascend910B3", 20, 40, "public 910B3 listings (20 AI Cores); an estimate, check npu-smi info"},
      {"Ascend910B4", 20, 40, "public 910B4 listings (20 AI Cores); an estimate, check npu-smi info"},
      {"Ascend910A", 32, 0, "msprof info.json of a 910 capture (ai_core_num 32, aiv_num 0, corpus mindspore-msprof-prof-2dev)"},
  };
}

namespace {

struct FieldAccess {
  ThresholdField field;
  double (*get)(const AdvisorThresholds&);
  void (*set)(AdvisorThresholds&, double);
};

TimeNs nsOf(double v, double scale) { return static_cast<TimeNs>(std::llround(v * scale)); }

const std::vector<FieldAccess>& fieldTable() {
  using T = AdvisorThresholds;
  static const std::vector<FieldAccess> table = {
      {{"low_utilisation", "MatMul/Conv below this share of peak: issue", "fraction", "tutorial §4 decision tree", false, 0, 1},
       [](const T& t) { return t.lowUtilisation; }, [](T& t, double v) { t.lowUtilisation = v; }},
      {{"high_utilisation", "MatMul/Conv at or above this share of peak: efficient", "fraction", "tutorial §4 decision tree", false, 0, 1},
       [](const T& t) { return t.highUtilisation; }, [](T& t, double v) { t.highUtilisation = v; }},
      {{"aicpu_min_us", "AI_CPU task at least this long", "us", "msprof-analyze aicpu_checker.py / aicpu_rules.yaml (format §4.5)", false, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.aicpuMinNs) / 1e3; }, [](T& t, double v) { t.aicpuMinNs = nsOf(v, 1e3); }},
      {{"aclop_per_step", "aclopCompileAndExecute calls per step", "per step", "msprof-analyze advisor MAX_OP_COMPILE_NUM (format §4.5)", true, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.aclopPerStep); }, [](T& t, double v) { t.aclopPerStep = static_cast<std::size_t>(v); }},
      {{"short_ops_per_step", "short element-wise ops (host launch > device time) per step", "per step", "tutorial §4 (many short ops: fuse); the count is npuscope's", true, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.shortOpsPerStep); }, [](T& t, double v) { t.shortOpsPerStep = static_cast<std::size_t>(v); }},
      {{"transfers_per_step", "host<->device transfers per step", "per step", "tutorial §4 (data transfers: remove .cpu()/.item())", true, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.transfersPerStep); }, [](T& t, double v) { t.transfersPerStep = static_cast<std::size_t>(v); }},
      {{"sync_launch_ratio", "syncs right after a launch / launches, above", "fraction", "msprof-analyze synchronize_stream_checker.py, synchronize.yaml", false, 0, 1},
       [](const T& t) { return t.syncLaunchRatio; }, [](T& t, double v) { t.syncLaunchRatio = v; }},
      {{"gc_min_ms", "Python GC pause at least this long", "ms", "msprof-analyze gc_checker.py, gc.yaml", false, 0, 1e6},
       [](const T& t) { return static_cast<double>(t.gcMinNs) / 1e6; }, [](T& t, double v) { t.gcMinNs = nsOf(v, 1e6); }},
      {{"heavy_op_share", "an op type with this share of kernel time is heavy", "fraction", "npuscope's mark", false, 0, 1},
       [](const T& t) { return t.heavyOpShare; }, [](T& t, double v) { t.heavyOpShare = v; }},
      {{"heavy_ops", "heavy op types classified, at most", "count", "npuscope's mark", true, 0, 1000},
       [](const T& t) { return static_cast<double>(t.heavyOps); }, [](T& t, double v) { t.heavyOps = static_cast<std::size_t>(v); }},
      {{"busy_pipe_ratio", "a pipe ratio at or above this bounds the op", "ratio", "npuscope's mark (PipeUtilization columns, format §5.1)", false, 0, 1},
       [](const T& t) { return t.busyPipeRatio; }, [](T& t, double v) { t.busyPipeRatio = v; }},
      {{"block_dim_min_us", "kernels shorter than this are left out of the block-dim rule", "us", "npuscope's mark", false, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.blockDimMinNs) / 1e3; }, [](T& t, double v) { t.blockDimMinNs = nsOf(v, 1e3); }},
      {{"backward_forward_ratio", "backward / forward device time, above", "ratio", "tutorial §3.3 (backward about 1-2x forward)", false, 0, 1e6},
       [](const T& t) { return t.backwardForwardRatio; }, [](T& t, double v) { t.backwardForwardRatio = v; }},
      {{"memory_top_ops", "largest allocators named at the memory peak", "count", "npuscope's", true, 0, 1000},
       [](const T& t) { return static_cast<double>(t.memoryTopOps); }, [](T& t, double v) { t.memoryTopOps = static_cast<std::size_t>(v); }},
      {{"device_memory_gb", "device memory capacity (0: unknown)", "GB", "the chip's datasheet or npu-smi info (not recorded by the capture)", false, 0, 1e6},
       [](const T& t) { return t.deviceMemoryGb; }, [](T& t, double v) { t.deviceMemoryGb = v; }},
      {{"memory_peak_share", "peak reserved at or above this share of the capacity: issue", "fraction", "npuscope's mark", false, 0, 1},
       [](const T& t) { return t.memoryPeakShare; }, [](T& t, double v) { t.memoryPeakShare = v; }},
      {{"comm_align_bytes", "SDMA task sizes above this, not a multiple of it", "bytes", "msprof-analyze byte_alignment_checker.py, byte_alignment.yaml (min_size 512)", true, 1, 1e9},
       [](const T& t) { return static_cast<double>(t.commAlignBytes); }, [](T& t, double v) { t.commAlignBytes = static_cast<std::size_t>(v); }},
      {{"sdma_nominal_gbps", "SDMA bandwidth nominal (0: the chip's HCCS figure, else 18)", "GB/s",
        "msprof number_constant.py HCCS_BANDWIDTH_* per chip; msprof-analyze bandwidth_contention.yaml (sdma_baseline 18)", false, 0, 1e6},
       [](const T& t) { return t.sdmaNominalGbps; }, [](T& t, double v) { t.sdmaNominalGbps = v; }},
      {{"rdma_nominal_gbps", "RDMA link nominal (0: the chip's figure, else not judged)", "GB/s",
        "msprof number_constant.py RDMA_BANDWIDTH_* per chip, or the NIC's rating", false, 0, 1e6},
       [](const T& t) { return t.rdmaNominalGbps; }, [](T& t, double v) { t.rdmaNominalGbps = v; }},
      {{"bandwidth_share", "an op below this share of the nominal bandwidth is slow", "fraction", "msprof-analyze bandwidth_contention.yaml (threshold 0.8)", false, 0, 1},
       [](const T& t) { return t.bandwidthShare; }, [](T& t, double v) { t.bandwidthShare = v; }},
      {{"small_sdma_mb", "an op moving less than this over SDMA is a small packet", "MB", "msprof-analyze packet.yaml (min_sdma_size 16)", false, 0, 1e9},
       [](const T& t) { return t.smallSdmaMb; }, [](T& t, double v) { t.smallSdmaMb = v; }},
      {{"small_rdma_mb", "an op moving less than this over RDMA is a small packet", "MB", "msprof-analyze packet.yaml (min_rdma_size 1)", false, 0, 1e9},
       [](const T& t) { return t.smallRdmaMb; }, [](T& t, double v) { t.smallRdmaMb = v; }},
      {{"small_packet_ratio", "small-packet ops / ops, above", "fraction", "msprof-analyze packet.yaml (min_sdma_ratio, min_rdma_ratio 0.2)", false, 0, 1},
       [](const T& t) { return t.smallPacketRatio; }, [](T& t, double v) { t.smallPacketRatio = v; }},
      {{"freq_drop_ratio", "AI Core frequency this share below the nominal is a drop", "fraction", "msprof-analyze ai_core_freq_checker.py (DECREASE_FREQ_RATIO 0.05)", false, 0, 1},
       [](const T& t) { return t.freqDropRatio; }, [](T& t, double v) { t.freqDropRatio = v; }},
      {{"new_shapes_per_step", "shapes of an op type first seen after the first step, per later step", "per step", "npuscope's mark", false, 0, 1e9},
       [](const T& t) { return t.newShapesPerStep; }, [](T& t, double v) { t.newShapesPerStep = v; }},
      {{"affinity_min_matches", "affinity-API matches (op sequences, optimizers), at least", "count", "msprof-analyze fusion_ops_analyzer.py (any match)", true, 1, 1e9},
       [](const T& t) { return static_cast<double>(t.affinityMinMatches); }, [](T& t, double v) { t.affinityMinMatches = static_cast<std::size_t>(v); }},
      {{"fusible_min_tasks", "fusible sequence: tasks, at least", "count", "msprof-analyze fusible_operator.yaml min_length 2 (3 tasks)", true, 2, 64},
       [](const T& t) { return static_cast<double>(t.fusibleMinTasks); }, [](T& t, double v) { t.fusibleMinTasks = static_cast<std::size_t>(v); }},
      {{"fusible_max_tasks", "fusible sequence: tasks, at most", "count", "msprof-analyze fusible_operator.yaml max_length 10", true, 2, 64},
       [](const T& t) { return static_cast<double>(t.fusibleMaxTasks); }, [](T& t, double v) { t.fusibleMaxTasks = static_cast<std::size_t>(v); }},
      {{"fusible_host_ratio", "fusible sequence host bound: task time / wall span below", "fraction", "msprof-analyze fusible_operator.yaml host_threshold", false, 0, 1},
       [](const T& t) { return t.fusibleHostRatio; }, [](T& t, double v) { t.fusibleHostRatio = v; }},
      {{"fusible_mte_ratio", "fusible sequence MTE bound: MTE time / aicore time above", "fraction", "msprof-analyze fusible_operator.yaml mte_threshold", false, 0, 1},
       [](const T& t) { return t.fusibleMteRatio; }, [](T& t, double v) { t.fusibleMteRatio = v; }},
      {{"fusible_duration_share", "fusible sequence: wall span / all kernels' span above", "fraction", "msprof-analyze fusible_operator.yaml sequence_duration_threshold", false, 0, 1},
       [](const T& t) { return t.fusibleDurationShare; }, [](T& t, double v) { t.fusibleDurationShare = v; }},
      {{"fusible_min_count", "fusible sequence occurrences, above", "count", "msprof-analyze fusible_operator.yaml sequence_count_threshold", true, 0, 1e9},
       [](const T& t) { return static_cast<double>(t.fusibleMinCount); }, [](T& t, double v) { t.fusibleMinCount = static_cast<std::size_t>(v); }},
  };
  return table;
}

const FieldAccess* accessOf(std::string_view key) {
  for (const FieldAccess& f : fieldTable())
    if (key == f.field.key) return &f;
  return nullptr;
}

}  // namespace

const std::vector<ThresholdField>& advisorThresholdFields() {
  static const std::vector<ThresholdField> fields = [] {
    std::vector<ThresholdField> v;
    for (const FieldAccess& f : fieldTable()) v.push_back(f.field);
    return v;
  }();
  return fields;
}

std::optional<double> thresholdValue(const AdvisorThresholds& t, std::string_view key) {
  const FieldAccess* f = accessOf(key);
  if (!f) return std::nullopt;
  return f->get(t);
}

std::string setThreshold(AdvisorThresholds& t, std::string_view key, double value) {
  const FieldAccess* f = accessOf(key);
  if (!f) return "unknown advisor threshold '" + std::string(key) + "'";
  char b[200];
  if (!std::isfinite(value) || value < f->field.min || value > f->field.max) {
    std::snprintf(b, sizeof b, "%s: %g is outside [%g, %g]", f->field.key, value, f->field.min, f->field.max);
    return b;
  }
  if (f->field.integer && value != std::floor(value)) {
    std::snprintf(b, sizeof b, "%s: %g is not a whole number", f->field.key, value);
    return b;
  }
  f->set(t, value);
  return {};
}

std::string applyThresholdAssignment(AdvisorThresholds& t, std::string_view assignment) {
  const auto eq = assignment.find('=');
  std::string known;
  for (const ThresholdField& f : advisorThresholdFields()) known += std::string(known.empty() ? "" : ", ") + f.key;
  known += ", chip";
  if (eq == std::string_view::npos || eq == 0)
    return "--threshold '" + std::string(assignment) + "': expected KEY=VALUE (keys: " + known + ")";
  const std::string key(assignment.substr(0, eq));
  const std::string text(assignment.substr(eq + 1));
  if (key == "chip") {
    t.chip = text;
    return {};
  }
  if (!accessOf(key)) return "--threshold: unknown key '" + key + "' (keys: " + known + ")";
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return "--threshold " + key + ": '" + text + "' is not a number";
  return setThreshold(t, key, v);
}

bool chipFamilyOnly(std::string_view chip) { return chip == "Ascend910B"; }

const PeakTflops* findPeak(const std::vector<PeakTflops>& peaks, std::string_view chip, std::string_view dtype) {
  if (chip.empty()) return nullptr;
  return longestChipPrefix(peaks, chip, [&](const PeakTflops& p) { return p.dtype == dtype; });
}

namespace detail {

std::vector<long long> parseDims(std::string_view s) {
  std::vector<long long> dims;
  while (!s.empty()) {
    const auto c = s.find(',');
    std::string_view d = s.substr(0, c);
    while (!d.empty() && (d.front() == ' ' || d.front() == '"')) d.remove_prefix(1);
    while (!d.empty() && (d.back() == ' ' || d.back() == '"')) d.remove_suffix(1);
    const auto v = parseInteger<long long>(d);
    if (!v || *v < 0) return {};
    dims.push_back(*v);
    if (c == std::string_view::npos) break;
    s.remove_prefix(c + 1);
  }
  return dims;
}

std::vector<std::vector<long long>> parseShapes(std::string_view cell) {
  std::vector<std::vector<long long>> out;
  cell = csvTrim(cell);
  while (true) {
    const auto c = cell.find(';');
    out.push_back(parseDims(cell.substr(0, c)));
    if (c == std::string_view::npos) break;
    cell.remove_prefix(c + 1);
  }
  return out;
}

std::vector<std::string> splitSemicolon(std::string_view cell) {
  std::vector<std::string> out;
  cell = csvTrim(cell);
  while (true) {
    const auto c = cell.find(';');
    out.emplace_back(cell.substr(0, c));
    if (c == std::string_view::npos) break;
    cell.remove_prefix(c + 1);
  }
  return out;
}

std::string normalDtype(std::string_view t) {
  std::string u;
  for (char c : t) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u.rfind("DT_", 0) == 0) u.erase(0, 3);
  if (u == "FLOAT" || u == "FLOAT32" || u == "FP32") return "FP32";
  if (u == "FLOAT16" || u == "HALF" || u == "FP16") return "FP16";
  if (u == "BF16" || u == "BFLOAT16") return "BF16";
  if (u == "INT8") return "INT8";
  return std::string(t);
}

double product(const std::vector<long long>& d) {
  double p = 1;
  for (long long v : d) p *= static_cast<double>(v);
  return p;
}

std::string cellAt(const KernelDetails& k, std::size_t row, std::initializer_list<std::string_view> names) {
  const int c = k.table.column(names);
  return c < 0 ? std::string() : std::string(csvTrim(k.table.cell(row, c)));
}

}  // namespace detail

namespace {

using detail::cellAt;
using detail::product;

/// 2·batch·M·N·K from A, B and the output (any transposition: K = |A's last two| / M and {K, N}
/// must be B's last two dims). 0 when the shapes do not fit.
double matmulFlops(const std::vector<long long>& a, const std::vector<long long>& b, const std::vector<long long>& out) {
  if (a.size() < 2 || b.size() < 2 || out.size() < 2) return 0;
  const long long m = out[out.size() - 2], n = out[out.size() - 1];
  const long long a2 = a[a.size() - 2] * a[a.size() - 1];
  if (m <= 0 || n <= 0 || a2 % m != 0) return 0;
  const long long k = a2 / m;
  const long long b0 = b[b.size() - 2], b1 = b[b.size() - 1];
  if (!((b0 == k && b1 == n) || (b0 == n && b1 == k))) return 0;
  double batch = 1;
  for (std::size_t i = 0; i + 2 < out.size(); ++i) batch *= static_cast<double>(out[i]);
  return 2.0 * batch * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

/// N, Hout, Wout of an activation in NC1HWC0 (5 dims), NCHW or NHWC (4 dims).
bool nhw(const std::vector<long long>& s, const std::string& format, double& n, double& h, double& w) {
  if (s.size() == 5 && (format.find("NC1HWC0") != std::string::npos || format.empty())) {
    n = static_cast<double>(s[0]), h = static_cast<double>(s[2]), w = static_cast<double>(s[3]);
    return true;
  }
  if (s.size() == 4 && format.find("NHWC") != std::string::npos) {
    n = static_cast<double>(s[0]), h = static_cast<double>(s[1]), w = static_cast<double>(s[2]);
    return true;
  }
  if (s.size() == 4 && (format.find("NCHW") != std::string::npos)) {
    n = static_cast<double>(s[0]), h = static_cast<double>(s[2]), w = static_cast<double>(s[3]);
    return true;
  }
  return false;
}

/// A matrix as its logical (ND) shape: FRACTAL_NZ stores an (..., M, N) matrix as (..., N1, M1,
/// M0, N0) with M = M1·M0 and N = N1·N0 (CANN's fractal layout, 16x16 blocks, dims rounded up
/// to them); other formats are taken as written.
std::vector<long long> logicalMatrix(const std::vector<long long>& s, const std::string& format) {
  if (format.find("FRACTAL_NZ") == std::string::npos || s.size() < 4) return s;
  std::vector<long long> nd(s.begin(), s.end() - 4);
  const std::size_t n = s.size();
  nd.push_back(s[n - 3] * s[n - 2]);
  nd.push_back(s[n - 4] * s[n - 1]);
  return nd;
}

/// True when every dim is positive and the element count stays below 2^50 (a shape the kernel
/// could hold; a garbage cell gives no figure rather than an absurd one).
bool plausible(const std::vector<long long>& s) {
  double n = 1;
  for (long long d : s) {
    if (d <= 0) return false;
    n *= static_cast<double>(d);
  }
  return n < 1.2e15;
}

}  // namespace

std::optional<KernelWork> kernelWork(const KernelDetails& kernels, std::size_t row) {
  if (row >= kernels.rows.size() || row >= kernels.table.rows.size()) return std::nullopt;
  const KernelRow& r = kernels.rows[row];
  if (!r.duration || *r.duration <= 0) return std::nullopt;
  const auto in = detail::parseShapes(cellAt(kernels, row, {"Input Shapes"}));
  const auto outs = detail::parseShapes(cellAt(kernels, row, {"Output Shapes"}));
  const auto fmts = detail::splitSemicolon(cellAt(kernels, row, {"Input Formats"}));
  const auto types = detail::splitSemicolon(cellAt(kernels, row, {"Input Data Types"}));
  if (in.size() < 2 || outs.empty()) return std::nullopt;
  const std::string type = asciiLower(r.type.empty() ? r.name : r.type);
  auto fmt = [&](std::size_t i) { return i < fmts.size() ? fmts[i] : std::string(); };
  // The shapes the formula reads must be real ones (a missing or garbage cell parses as empty).
  const std::size_t need = std::min<std::size_t>(in.size(), 2);
  for (std::size_t i = 0; i < need; ++i)
    if (!plausible(in[i]) && !in[i].empty()) return std::nullopt;
  if (!plausible(outs[0])) return std::nullopt;
  double flops = 0;
  std::size_t dtypeInput = 0;
  if (type.find("matmul") != std::string::npos || type.find("gemm") != std::string::npos) {
    const auto ofmts = detail::splitSemicolon(cellAt(kernels, row, {"Output Formats"}));
    if (!plausible(in[0]) || !plausible(in[1])) return std::nullopt;
    flops = matmulFlops(logicalMatrix(in[0], fmt(0)), logicalMatrix(in[1], fmt(1)),
                        logicalMatrix(outs[0], ofmts.empty() ? std::string() : ofmts[0]));
  } else if (type.rfind("conv2dbackpropinput", 0) == 0) {
    // (input_size, filter, out_backprop) -> dx, or Conv2DBackpropInputD (filter, out_backprop)
    // with input_size an attribute: the forward's work, from dy's N, H, W and the filter.
    const std::size_t f = in.size() >= 3 ? 1 : 0, dy = in.size() >= 3 ? 2 : 1;
    double n = 0, h = 0, w = 0;
    if (in.size() >= 2 && plausible(in[f]) && plausible(in[dy]) && nhw(in[dy], fmt(dy), n, h, w))
      flops = 2.0 * n * h * w * product(in[f]);
    dtypeInput = f;
  } else if (type.rfind("conv2dbackpropfilter", 0) == 0) {
    // (x, filter_size, out_backprop) -> dw, or Conv2DBackpropFilterD (x, out_backprop).
    const std::size_t dy = in.size() >= 3 ? 2 : 1;
    double n = 0, h = 0, w = 0;
    if (in.size() >= 2 && plausible(in[dy]) && nhw(in[dy], fmt(dy), n, h, w)) flops = 2.0 * n * h * w * product(outs[0]);
  } else if (type == "conv2d") {
    double n = 0, h = 0, w = 0;
    const auto ofmts = detail::splitSemicolon(cellAt(kernels, row, {"Output Formats"}));
    if (plausible(in[1]) && nhw(outs[0], ofmts.empty() ? std::string() : ofmts[0], n, h, w)) flops = 2.0 * n * h * w * product(in[1]);
  }
  if (!(flops > 0)) return std::nullopt;
  KernelWork k;
  k.flops = flops;
  k.dtype = dtypeInput < types.size() ? detail::normalDtype(types[dtypeInput]) : std::string();
  // An FP32 kernel marked HF32-eligible may run in HF32, whose peak is not FP32's: named apart so
  // that it is never judged against the FP32 peak.
  if (k.dtype == "FP32" && cellAt(kernels, row, {"HF32 Eligible"}) == "YES") k.dtype = "HF32";
  k.tflops = flops / static_cast<double>(*r.duration) / 1000.0;  // flops per ns = GFLOPS
  return k;
}

bool cellRecorded(std::string_view cell) {
  cell = csvTrim(cell);
  return !cell.empty() && cell != "N/A";
}

std::string taskCore(const Trace& trace, SliceRef task) {
  if (!task.valid()) return {};
  const auto t = sliceArg(trace, task, "Task Type");
  return t && cellRecorded(*t) && asciiLower(*t) != "other" ? *t : std::string();
}

std::string kernelBound(const KernelDetails& kernels, std::size_t row, double busyPipeRatio) {
  struct Pipe {
    const char* column;
    const char* bound;
  };
  static constexpr Pipe kPipes[] = {
      {"aic_mac_ratio", "compute-bound (cube)"},     {"aiv_vec_ratio", "compute-bound (vector)"},
      {"aic_mte1_ratio", "memory-bound (MTE1)"},     {"aic_mte2_ratio", "memory-bound (MTE2)"},
      {"aiv_mte2_ratio", "memory-bound (MTE2)"},     {"aiv_mte3_ratio", "memory-bound (MTE3)"},
      {"aic_fixpipe_ratio", "memory-bound (fixpipe)"}, {"aic_scalar_ratio", "scalar-bound"},
      {"aiv_scalar_ratio", "scalar-bound"},
      // Ascend910 (910A) and other single-core-type chips write the PipeUtilization columns
      // without the aic_/aiv_ prefix (msprof analysis/csrc/domain/entities/metric/metric.cpp
      // PipeUtHeaderString and PipeUtExHeaderString; msprof-analyze advisor's operator bound
      // checker reads the same names).
      {"mac_ratio", "compute-bound (cube)"},           {"vec_ratio", "compute-bound (vector)"},
      {"mac_ratio_extra", "compute-bound (cube)"},     {"mte1_ratio", "memory-bound (MTE1)"},
      {"mte1_ratio_extra", "memory-bound (MTE1)"},     {"mte2_ratio", "memory-bound (MTE2)"},
      {"mte3_ratio", "memory-bound (MTE3)"},           {"fixpipe_ratio", "memory-bound (fixpipe)"},
      {"scalar_ratio", "scalar-bound"},
  };
  double best = -1;
  const char* bound = nullptr;
  bool any = false;
  for (const Pipe& p : kPipes) {
    const int c = kernels.table.column(p.column);
    if (c < 0) continue;
    const auto v = csvNumber(kernels.table.cell(row, c));
    if (!v) continue;
    any = true;
    if (*v > best) best = *v, bound = p.bound;
  }
  if (!any || best <= 0) return {};
  return best >= busyPipeRatio ? std::string(bound) : std::string("latency-bound");
}

namespace detail {

AdvisorContext::AdvisorContext(const Trace& t, const KernelDetails* k, const RankAnalysis& a, const AdvisorThresholds& th)
    : trace(t), kernels(k), analysis(a), thresholds(th) {
  steps = std::max<std::size_t>(1, a.steps.size());
  gpu = isGpuTrace(t);
  for (const DeviceAnalysis& d : a.devices) {
    freeNs += d.computed.free;
    computingNs += d.computed.computing;
    commNotOverlappedNs += d.computed.commNotOverlapped;
  }
}

const Intervals* AdvisorContext::freeOfDevice(int device) const {
  const DeviceAnalysis* longest = nullptr;
  for (const DeviceAnalysis& d : analysis.devices) {
    if (d.device == device) return &d.free;
    if (!longest || d.computed.e2e > longest->computed.e2e) longest = &d;
  }
  return longest ? &longest->free : nullptr;
}

SliceRef AdvisorContext::taskOf(const KernelRow& row) const {
  if (!row.start) return {};
  if (!taskByStartBuilt) {  // built on first use: only the kernel_details.csv rules need it
    taskByStartBuilt = true;
    for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
      if (!isDeviceTaskLane(trace, li)) continue;
      const Lane& lane = trace.lanes[li];
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) taskByStart.emplace(lane.start[i], SliceRef{li, i});
    }
  }
  const auto it = taskByStart.find(*row.start);
  return it == taskByStart.end() ? SliceRef{} : it->second;
}

TimeNs AdvisorContext::perStep(double ns) const {
  return static_cast<TimeNs>(std::llround(ns / static_cast<double>(steps)));
}

std::string us(TimeNs ns) { return formatDuration(ns); }

void sortEvidence(std::vector<std::pair<double, SliceRef>>& v, std::vector<SliceRef>& out) {
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [w, r] : v) {
    if (out.size() >= kMaxEvidence) break;
    if (r.valid()) out.push_back(r);
  }
}

/// (a) Matmul / convolution TFLOPS against the chip's peak (tutorial §4).
void ruleMatmul(const AdvisorContext& c, const std::string& chip, std::vector<Finding>& out) {
  if (!c.kernels) return;
  const KernelDetails& k = *c.kernels;
  std::size_t total = 0, computable = 0, low = 0, high = 0, noPeak = 0, padded = 0;
  double lowStake = 0, sumFlops = 0;
  TimeNs sumNs = 0;
  std::vector<std::pair<double, SliceRef>> lowEv, allEv;
  std::string worst, peakText, dtypes;
  double worstUtil = 2;
  const PeakTflops* usedPeak = nullptr;
  for (std::size_t i = 0; i < k.rows.size(); ++i) {
    const KernelRow& r = k.rows[i];
    const std::string cls = operatorClass(r.type.empty() ? r.name : r.type);
    if (cls != "MatMul" && cls != "Convolution") continue;
    ++total;
    const SliceRef ref = c.taskOf(r);
    bool paddedRow = false;
    const auto w = kernelWorkLinked(c.trace, k, i, ref, &paddedRow);
    if (!w) continue;
    ++computable;
    padded += paddedRow ? 1 : 0;
    sumFlops += w->flops;
    sumNs += *r.duration;
    allEv.push_back({static_cast<double>(*r.duration), ref});
    const std::string dt = w->dtype.empty() ? std::string(npuTr("npuscope::core::Advisor", "dtype not recorded")) : w->dtype;
    if (dtypes.find(dt) == std::string::npos) dtypes += (dtypes.empty() ? "" : "/") + dt;
    const PeakTflops* p = findPeak(c.thresholds.peaks, chip, w->dtype);
    if (!p) {
      ++noPeak;
      continue;
    }
    usedPeak = p;
    const double util = w->tflops / p->tflops;
    if (util < c.thresholds.lowUtilisation) {
      ++low;
      // What reaching the high mark would save: its duration minus the time at that utilisation.
      const double target = w->flops / (c.thresholds.highUtilisation * p->tflops * 1000.0);
      const double save = std::max(0.0, static_cast<double>(*r.duration) - target);
      lowStake += save;
      lowEv.push_back({save, ref});
      if (util < worstUtil) {
        worstUtil = util;
        char b[256];
        std::snprintf(b, sizeof b, "%s %.2f TFLOPS %s (%.0f%% of %.0f)", r.name.c_str(), w->tflops, w->dtype.c_str(),
                      util * 100.0, p->tflops);
        worst = b;
      }
    } else if (util >= c.thresholds.highUtilisation) {
      ++high;
    }
  }
  if (total == 0) return;
  Finding f;
  f.rule = "matmul_utilisation";
  f.source = "tutorial §4 decision tree (TFLOPS utilisation < 50%: larger batch / AMP; > 80%: efficient), FLOPs "
             "2·M·N·K and 2·Cin·k²·Cout·Hout·Wout (tutorial §3.1, §3.2)";
  char lowPct[32], highPct[32];
  std::snprintf(lowPct, sizeof lowPct, "%.0f%%", c.thresholds.lowUtilisation * 100.0);
  std::snprintf(highPct, sizeof highPct, "%.0f%%", c.thresholds.highUtilisation * 100.0);
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "utilisation < %1 of the chip's peak; >= %2 efficient"), {lowPct, highPct});
  if (computable == 0) {
    f.title = npuTr("npuscope::core::Advisor", "MatMul/Conv TFLOPS: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 MatMul/Conv kernels, none with recorded shapes that fit the op (record_shapes "
                                       "and Level1 write Input/Output Shapes in kernel_details.csv)"),
                             {std::to_string(total)});
    out.push_back(std::move(f));
    return;
  }
  char tflops[48], gflop[48];
  std::snprintf(tflops, sizeof tflops, "%.2f", sumFlops / static_cast<double>(std::max<TimeNs>(1, sumNs)) / 1000.0);
  std::snprintf(gflop, sizeof gflop, "%.3g", sumFlops / 1e9);
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 MatMul/Conv kernels computable: %3 TFLOPS on average (%4, %5 GFLOP in %6)"),
                           {std::to_string(computable), std::to_string(total), tflops, dtypes, gflop, us(sumNs)});
  if (padded > 0)
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; %1 convolution(s) counted with their channels padded to C0 "
                                    "(no torch op with Input Dims linked): their FLOPs are an upper bound"),
                              {std::to_string(padded)});
  if (chip.empty() || !usedPeak) {
    f.title = npuTr("npuscope::core::Advisor", "MatMul/Conv TFLOPS (no peak: utilisation unknown)");
    f.severity = Severity::Unknown;
    f.numbers += chip.empty() ? npuTr("npuscope::core::Advisor", "; the chip is not recorded in this capture: no utilisation verdict (give the "
                                          "chip, e.g. --chip Ascend910B3)")
                 : chipFamilyOnly(chip)
                     ? i18n::format(npuTr("npuscope::core::Advisor", "; the capture names only the chip family %1, whose models' peaks differ "
                                                                     "(e.g. Ascend910B1 to Ascend910B4): give the model with --chip"),
                                    {chip})
                     : i18n::format(npuTr("npuscope::core::Advisor", "; no peak for %1 and %2 in the table"), {chip, dtypes});
    sortEvidence(allEv, f.evidence);
    out.push_back(std::move(f));
    return;
  }
  peakText = "peak " + std::to_string(static_cast<int>(usedPeak->tflops)) + " TFLOPS " + usedPeak->dtype + " on " + chip +
             " (" + usedPeak->source + ")";
  f.source += "; " + peakText;
  if (low > 0) {
    f.title = i18n::format(npuTr("npuscope::core::Advisor", "MatMul/Conv below %1% of peak"),
                           {std::to_string(static_cast<int>(c.thresholds.lowUtilisation * 100))});
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(lowStake);
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; %1 below the mark, worst %2"), {std::to_string(low), worst});
    f.fix = npuTr("npuscope::core::Advisor", "Raise the batch size (small M/N/K leave cube units idle) or train in mixed precision (AMP, FP16/BF16), "
            "whose peak is about four times FP32's.");
    sortEvidence(lowEv, f.evidence);
  } else if (high == computable - noPeak && usedPeak->dtype == "FP32" && k.table.column({"HF32 Eligible"}) < 0) {
    // Without the HF32 Eligible column (the .db export, older CANN) an FP32 kernel may run in
    // HF32, whose peak is higher: at or above the high mark of FP32's peak says nothing about
    // HF32's, so "efficient" is not said. (Below the low mark stays right: HF32's peak is higher.)
    f.title = i18n::format(npuTr("npuscope::core::Advisor", "MatMul/Conv at or above %1% of the FP32 peak; HF32 not recorded"),
                           {std::to_string(static_cast<int>(c.thresholds.highUtilisation * 100))});
    f.severity = Severity::Info;
    f.numbers += npuTr("npuscope::core::Advisor",
                       "; the kernel table does not record HF32 eligibility: kernels that run in HF32 have a higher "
                       "peak, so efficiency cannot be told");
    sortEvidence(allEv, f.evidence);
  } else if (high == computable - noPeak) {
    f.title = i18n::format(npuTr("npuscope::core::Advisor", "MatMul/Conv efficient (>= %1% of peak)"),
                           {std::to_string(static_cast<int>(c.thresholds.highUtilisation * 100))});
    f.severity = Severity::Ok;
    sortEvidence(allEv, f.evidence);
  } else {
    f.title = npuTr("npuscope::core::Advisor", "MatMul/Conv between the marks");
    f.severity = Severity::Info;
    sortEvidence(allEv, f.evidence);
  }
  out.push_back(std::move(f));
}

/// (b) AI_CPU tasks >= 20 us (advisor aicpu_checker.py): a CPU fallback of an operator.
void ruleAicpu(const AdvisorContext& c, std::vector<Finding>& out) {
  std::vector<std::pair<double, SliceRef>> ev;
  std::size_t n = 0, all = 0;
  TimeNs sum = 0, maxNs = 0;
  std::string worst;
  auto take = [&](TimeNs d, SliceRef ref, std::string_view name) {
    ++all;
    maxNs = std::max(maxNs, d);
    if (d < c.thresholds.aicpuMinNs) return;
    ++n;
    sum += d;
    ev.push_back({static_cast<double>(d), ref});
    if (ev.size() == 1 || static_cast<double>(d) >= ev.front().first) worst = std::string(name);
  };
  std::string from;
  if (c.kernels && !c.kernels->rows.empty()) {
    from = "kernel_details.csv Accelerator Core";
    for (const KernelRow& r : c.kernels->rows) {
      if (!r.duration) continue;
      if (r.core == "AI_CPU") {
        take(*r.duration, c.taskOf(r), r.name);
      } else if (!cellRecorded(r.core)) {
        // Level0 writes no core (910A text corpus): the row's task tells it ("Task Type").
        const SliceRef t = c.taskOf(r);
        if (taskCore(c.trace, t) == "AI_CPU") {
          take(*r.duration, t, r.name);
          from = "kernel_details.csv Accelerator Core, else the task's Task Type";
        }
      }
    }
  } else {
    from = "trace Task Type";
    static constexpr std::string_view kAiCpuText = "AI_CPU";
    for (std::uint32_t li = 0; li < c.trace.lanes.size(); ++li) {
      if (!isDeviceTaskLane(c.trace, li)) continue;
      const Lane& lane = c.trace.lanes[li];
      constexpr std::uint32_t kAhead = 16;  // the args lie scattered over the file: fetch ahead
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        if (i + kAhead < lane.sliceCount()) __builtin_prefetch(c.trace.argsText({li, i + kAhead}).data());
        const SliceRef r{li, i};
        // Args without the text AI_CPU (or an escape that could spell it) cannot hold it: skip the parse.
        const std::string_view args = c.trace.argsText(r);
        // memmem: string_view::find stepped through every 'A' of the args. The args lie
        // scattered over the file: fetching them ahead (above) took the rule from 64 to 46 ms
        // on 328 k tasks; the search itself was not the cost.
        if (args.empty() ||  // (data() is null then: memmem must not see it)
            (!memmem(args.data(), args.size(), kAiCpuText.data(), kAiCpuText.size()) && !std::memchr(args.data(), '\\', args.size())))
          continue;
        if (sliceArg(c.trace, r, "Task Type") == std::optional<std::string>("AI_CPU"))
          take(lane.end[i] - lane.start[i], r, c.trace.sliceName(r));
      }
    }
  }
  if (all == 0) return;
  Finding f;
  f.rule = "aicpu";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "an AI_CPU task of %1 or more"), {us(c.thresholds.aicpuMinNs)});
  f.source = "msprof-analyze advisor aicpu_checker.py / aicpu_rules.yaml (format notes §4.5); from " + from;
  if (n == 0) {
    f.title = npuTr("npuscope::core::Advisor", "AI_CPU tasks short");
    f.severity = Severity::Ok;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 AI_CPU tasks, the longest %2"), {std::to_string(all), us(maxNs)});
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Operators fall back to the AI CPU");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(static_cast<double>(sum));
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 AI_CPU tasks at or above the mark, %3 in all; the longest %4"),
                             {std::to_string(n), std::to_string(all), us(sum), us(maxNs)});
    f.fix = npuTr("npuscope::core::Advisor", "These operators run on the AI CPU: change the input dtype or shape to one the AI Core supports "
            "(e.g. cast int64 to int32, avoid double), or replace the operator.");
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (h) AI Core pipelines of the heaviest op types (Level1+ PipeUtilization columns).
void rulePipelines(const AdvisorContext& c, std::vector<Finding>& out) {
  if (!c.kernels || c.kernels->rows.empty()) return;
  const KernelDetails& k = *c.kernels;
  struct Op {
    TimeNs ns = 0;
    std::map<std::string, TimeNs> byBound;
    std::vector<std::pair<double, SliceRef>> ev;
  };
  std::map<std::string, Op> ops;
  TimeNs total = 0;
  bool anyRatio = false;
  for (std::size_t i = 0; i < k.rows.size(); ++i) {
    const KernelRow& r = k.rows[i];
    if (r.isCommunication() || !r.duration) continue;
    // Held at +-2^63 - 1 instead of overflowing: a table's Duration cells can sum past int64
    // (three of 4e15 us; UBSan, found by fuzz_csv_tables, docs/robustness.md).
    const auto add = [](TimeNs& a, TimeNs d) {
      if (__builtin_add_overflow(a, d, &a)) a = d > 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
    };
    add(total, *r.duration);
    Op& op = ops[r.type.empty() ? r.name : r.type];
    add(op.ns, *r.duration);
    const std::string b = kernelBound(k, i, c.thresholds.busyPipeRatio);
    if (!b.empty()) anyRatio = true;
    add(op.byBound[b.empty() ? "unknown" : b], *r.duration);
    op.ev.push_back({static_cast<double>(*r.duration), c.taskOf(r)});
  }
  Finding f;
  f.rule = "pipelines";
  f.source = "tutorial §1 and §3.4 (compute-bound vs memory-bound first); kernel_details.csv aic_*/aiv_*_ratio "
             "(PipeUtilization, format notes §5.1); the busy-pipe mark is npuscope's";
  char share[32], ratio[32];
  std::snprintf(share, sizeof share, "%.0f%%", c.thresholds.heavyOpShare * 100.0);
  std::snprintf(ratio, sizeof ratio, "%.2f", c.thresholds.busyPipeRatio);
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "op types with >= %1 of kernel time (at most %2); the pipe with the highest ratio, "
                                       "if >= %3, bounds the op"),
                             {share, std::to_string(c.thresholds.heavyOps), ratio});
  if (!anyRatio) {
    f.title = npuTr("npuscope::core::Advisor", "AI Core pipelines: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "kernel_details.csv has no pipe ratios (Level1 with aic_metrics PipeUtilization writes them)");
    out.push_back(std::move(f));
    return;
  }
  std::vector<std::pair<std::string, const Op*>> heavy;
  for (const auto& [name, op] : ops)
    if (total > 0 && static_cast<double>(op.ns) >= c.thresholds.heavyOpShare * static_cast<double>(total))
      heavy.push_back({name, &op});
  std::stable_sort(heavy.begin(), heavy.end(), [](const auto& a, const auto& b) { return a.second->ns > b.second->ns; });
  if (heavy.size() > c.thresholds.heavyOps) heavy.resize(c.thresholds.heavyOps);
  TimeNs memoryNs = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  for (const auto& [name, op] : heavy) {
    const auto top = std::max_element(op->byBound.begin(), op->byBound.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    if (!f.numbers.empty()) f.numbers += clauseSep();
    f.numbers += name + " " + us(op->ns) + ": " + top->first;
    if (top->first.rfind("memory-bound", 0) == 0) {
      memoryNs += op->ns;
      for (const auto& e : op->ev) ev.push_back(e);
    }
  }
  if (memoryNs > 0) {
    f.title = npuTr("npuscope::core::Advisor", "Heavy operators are memory-bound");
    f.severity = Severity::Info;
    f.atStakePerStep = 0;  // the saving depends on the fix: not told
    f.fix = npuTr("npuscope::core::Advisor", "Memory-bound operators wait on data movement (MTE): fuse them with their neighbours, avoid format "
            "conversions (TransData), and give matmuls shapes that reuse data (larger M/N).");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Heavy operators: pipelines");
    f.severity = Severity::Info;
    for (const auto& [name, op] : heavy)
      for (const auto& e : op->ev) ev.push_back(e);
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

/// (i) Block dim not a multiple of the core count: the last wave leaves cores idle.
void ruleBlockDim(const AdvisorContext& c, const std::string& chip, std::vector<Finding>& out) {
  if (!c.kernels || c.kernels->rows.empty()) return;
  const ChipCores* cores = findCores(c.thresholds.cores, chip);
  Finding f;
  f.rule = "block_dim";
  f.source = "msprof-analyze advisor block-dim rule (issue 13); idle share of the last wave = 1 − dim / "
             "(ceil(dim / cores) · cores); the minimum kernel length is npuscope's";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "block dim not a multiple of the core count, kernels of %1 or more"),
                             {us(c.thresholds.blockDimMinNs)});
  if (!cores) {
    f.title = npuTr("npuscope::core::Advisor", "Block dim: core count unknown");
    f.severity = Severity::Unknown;
    f.numbers = chip.empty() ? npuTr("npuscope::core::Advisor", "the chip is not recorded in this capture (give it, e.g. --chip Ascend910B3)")
                             : i18n::format(npuTr("npuscope::core::Advisor", "no core count for %1 in the table (a family name such as Ascend910B "
                                                      "does not tell the variant's core count: give the chip, e.g. --chip "
                                                      "Ascend910B3)"),
                                            {chip});
    out.push_back(std::move(f));
    return;
  }
  f.source += "; cores: " + cores->source;
  double stake = 0;
  std::size_t n = 0, all = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  for (const KernelRow& r : c.kernels->rows) {
    if (!r.duration || *r.duration < c.thresholds.blockDimMinNs) continue;
    const int nc = (r.core == "AI_VECTOR_CORE" || r.core == "MIX_AIV") ? cores->vector
                   : (r.core == "AI_CORE" || r.core == "MIX_AIC")       ? cores->cube
                                                                         : 0;
    const auto dim = parseInteger<long long>(r.blockDim);
    if (nc <= 0 || !dim || *dim <= 0) continue;
    ++all;
    if (*dim % nc == 0) continue;
    const long long waves = (*dim + nc - 1) / nc;
    const double idle = 1.0 - static_cast<double>(*dim) / static_cast<double>(waves * nc);
    ++n;
    stake += idle * static_cast<double>(*r.duration);
    ev.push_back({idle * static_cast<double>(*r.duration), c.taskOf(r)});
  }
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 kernels (AI Core %3, AI Vector %4 cores on %5)"),
                           {std::to_string(n), std::to_string(all), std::to_string(cores->cube),
                            std::to_string(cores->vector), chip});
  if (n == 0) {
    f.title = npuTr("npuscope::core::Advisor", "Block dim fits the cores");
    f.severity = Severity::Ok;
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Block dim leaves cores idle");
    f.severity = Severity::Issue;
    f.atStakePerStep = c.perStep(stake);
    f.fix = npuTr("npuscope::core::Advisor", "The operators' tiling leaves part of the cores idle in the last wave: try shapes that divide evenly "
            "across the cores, or an operator version that tiles for this chip.");
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

int stepsWithEvidence(const Trace& trace, const std::vector<StepWindow>& steps, const Finding& f) {
  if (f.severity != Severity::Issue || steps.size() < 2 || f.evidence.empty() || f.evidence.size() >= kMaxEvidence)
    return -1;
  std::vector<bool> hit(steps.size(), false);
  for (const SliceRef r : f.evidence) {
    if (!r.valid() || r.lane >= trace.lanes.size() || r.index >= trace.lanes[r.lane].sliceCount()) continue;
    const Process::Role role = trace.processes[trace.lanes[r.lane].process].role;
    const bool device = role == Process::Role::AscendHardware || role == Process::Role::KinetoDevice;
    const TimeNs t = trace.lanes[r.lane].start[r.index];
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const TimeRange w = device && !steps[s].device.empty() ? steps[s].device : steps[s].host;
      if (w.contains(t)) {
        hit[s] = true;
        break;
      }
    }
  }
  return static_cast<int>(std::count(hit.begin(), hit.end(), true));
}

}  // namespace detail

bool isGpuTrace(const Trace& trace) {
  return std::any_of(trace.processes.begin(), trace.processes.end(), [](const Process& p) {
    return p.role == Process::Role::KinetoDevice && p.label.starts_with("GPU");
  });
}

namespace detail {

StakeCeiling stakeCeiling(std::string_view rule) {
  // A faster host (fewer launches, no online compile, no blocking copy, no GC pause, no
  // synchronous launch) can only give back the time the device waits for the host.
  for (const char* r : {"aclop_compile", "short_ops", "transfers", "sync_after_launch", "gc"})
    if (rule == r) return StakeCeiling::Free;
  // Faster kernels can only shorten the time the device computes.
  for (const char* r : {"matmul_utilisation", "operator_tree", "aicpu", "pipelines", "block_dim", "aicore_freq", "forward_backward",
                        "dynamic_shapes"})
    if (rule == r) return StakeCeiling::Computing;
  // Faster collectives can only shorten the communication not hidden behind computation.
  for (const char* r : {"comm_alignment", "comm_bandwidth", "comm_small_packets", "collective_wait", "collective_late"})
    if (rule == r) return StakeCeiling::CommNotOverlapped;
  return StakeCeiling::None;
}

void boundAtStake(const AdvisorContext& c, Finding& f) {
  if (f.atStakePerStep <= 0) return;
  TimeNs total = 0;
  std::string what, why;
  switch (stakeCeiling(f.rule)) {
    case StakeCeiling::None: return;
    case StakeCeiling::Free:
      total = c.freeNs;
      what = npuTr("npuscope::core::Advisor", "the device's Free time");
      why = npuTr("npuscope::core::Advisor", "a faster host only gives back the time the device waits for it");
      break;
    case StakeCeiling::Computing:
      total = c.computingNs;
      what = npuTr("npuscope::core::Advisor", "the device's Computing time");
      why = npuTr("npuscope::core::Advisor", "faster kernels only shorten the time the device computes");
      break;
    case StakeCeiling::CommNotOverlapped:
      total = c.commNotOverlappedNs;
      what = npuTr("npuscope::core::Advisor", "the device's Communication (Not Overlapped) time");
      why = npuTr("npuscope::core::Advisor", "faster collectives only shorten the communication not hidden behind computation");
      break;
  }
  const TimeNs ceiling = c.perStep(static_cast<double>(total));
  if (f.atStakePerStep <= ceiling) return;
  f.atStakeNote = i18n::format(npuTr("npuscope::core::Advisor", "bounded by %1 per step (%2); the rule's own figure, %3, is more: %4"),
                               {what, us(ceiling), us(f.atStakePerStep), why});
  f.atStakePerStep = ceiling;
}

/// The title of a decision-tree branch (operators.h TreeNode::branch).
std::string treeBranchTitle(const std::string& branch) {
  if (branch == "matmul_low") return npuTr("npuscope::core::Advisor", "Matrix operator below half the peak");
  if (branch == "matmul_mid") return npuTr("npuscope::core::Advisor", "Matrix operator between the marks");
  if (branch == "matmul_efficient") return npuTr("npuscope::core::Advisor", "Matrix operator already fast");
  if (branch == "matmul_no_peak") return npuTr("npuscope::core::Advisor", "Matrix operator: utilisation unknown");
  if (branch == "matmul_no_shapes") return npuTr("npuscope::core::Advisor", "Matrix operator: FLOPs unknown");
  if (branch == "aicpu_fallback") return npuTr("npuscope::core::Advisor", "Operator fell back to AI_CPU");
  if (branch == "elementwise_many_short") return npuTr("npuscope::core::Advisor", "Many short operators: fuse them");
  if (branch == "elementwise_slow") return npuTr("npuscope::core::Advisor", "Slow operator, not a CPU fallback");
  if (branch == "transfer") return npuTr("npuscope::core::Advisor", "Host/device transfers");
  if (branch == "host_sync") return npuTr("npuscope::core::Advisor", ".item() syncs in the step");
  if (branch == "launch_storm") return npuTr("npuscope::core::Advisor", "A storm of small launches");
  return npuTr("npuscope::core::Advisor", "Operator");
}

/// (w) The tutorial's decision tree (§4), one finding per node (operators.h walkDecisionTree).
std::shared_ptr<const OperatorAdvice> ruleOperatorTree(const AdvisorContext& c, const std::string& chip,
                                                      std::vector<Finding>& out) {
  auto advice = std::make_shared<OperatorAdvice>();
  advice->table = operatorTable(c.trace, *c.kernels, c.analysis, chip, c.thresholds);
  advice->tree = walkDecisionTree(c.trace, advice->table, c.thresholds, c.steps);
  const OperatorTable& table = advice->table;
  for (const TreeNode& n : advice->tree) {
    // The .item() branch is the transfers rule's finding already (with its call sites and stake).
    if (n.branch == "host_sync") continue;
    // A measurement without a verdict is advice only for a heavy group (the report's
    // decision_tree keeps every node).
    const OperatorGroup* g = n.group >= 0 ? &table.groups[static_cast<std::size_t>(n.group)] : nullptr;
    if (n.severity == Severity::Info && g && g->shareOfBusy < c.thresholds.heavyOpShare) continue;
    Finding f;
    f.rule = "operator_tree";
    f.title = treeBranchTitle(n.branch) + ": " + (g ? g->type : n.operatorLabel);
    f.severity = n.severity;
    f.numbers = n.finding;
    f.fix = n.suggestion;
    char lo[16], hi[16], share[16];
    std::snprintf(lo, sizeof lo, "%.0f%%", c.thresholds.lowUtilisation * 100);
    std::snprintf(hi, sizeof hi, "%.0f%%", c.thresholds.highUtilisation * 100);
    std::snprintf(share, sizeof share, "%.0f%%", c.thresholds.heavyOpShare * 100);
    if (n.branch.starts_with("matmul"))
      f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "utilisation < %1 of the peak: issue, >= %2: fast"), {lo, hi});
    else if (n.branch == "aicpu_fallback")
      f.threshold = npuTr("npuscope::core::Advisor", "Accelerator Core AI_CPU");
    else if (n.branch == "elementwise_many_short")
      f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "mean under %1 and %2 or more calls per step"),
                                 {us(kShortKernelNs), std::to_string((c.thresholds.shortOpsPerStep + 1) / 2)});
    else if (n.branch == "launch_storm")
      f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "%1 or more kernels per step, half of them under %2"),
                                 {std::to_string(kStormKernelsPerStep), us(kTinyKernelNs)});
    else
      f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "the 10 longest operator groups and any holding %1 of Computing"), {share});
    f.source = "tutorial §4 decision tree (slowest operators first; matmul/conv TFLOPS utilisation, element-wise short and many, "
               "AI_CPU fallback, transfers, small launches); docs/diagnosis.md §6.3";
    if (n.group >= 0) {
      const OperatorGroup& g = table.groups[static_cast<std::size_t>(n.group)];
      if (!g.peakSource.empty()) f.source += "; peak: " + g.peakSource;
      // Below the low mark: what reaching the high mark would give back (as matmul_utilisation).
      if (n.branch == "matmul_low" && g.flops && g.peakTflops) {
        const double target = static_cast<double>(g.count) * *g.flops / (c.thresholds.highUtilisation * *g.peakTflops * 1000.0);
        f.atStakePerStep = c.perStep(std::max(0.0, static_cast<double>(g.total) - target));
      }
    }
    f.evidence = n.evidence;
    out.push_back(std::move(f));
  }
  return advice;
}

}  // namespace detail

namespace {
/// settleFindings with the rank's context already made.
void settleFindings(const detail::AdvisorContext& c, std::vector<Finding>& findings) {
  for (Finding& f : findings) f.stepsWithEvidence = detail::stepsWithEvidence(c.trace, c.analysis.steps, f);
  if (!c.analysis.devices.empty())
    for (Finding& f : findings) detail::boundAtStake(c, f);
}
}  // namespace

RankAdvice adviseRank(const Trace& trace, const KernelDetails* kernels, const RankAnalysis& analysis,
                      const RankMetadata* meta, const AdvisorThresholds& given) {
  RankAdvice a;
  // The device's own peaks (info.json's cores and clock) before the table's: the same chip key
  // wins in the order of the list (longestChipPrefix keeps the first of equal length).
  AdvisorThresholds thresholds = given;
  if (meta && !meta->devicePeaks.empty())
    thresholds.peaks.insert(thresholds.peaks.begin(), meta->devicePeaks.begin(), meta->devicePeaks.end());
  const detail::AdvisorContext c(trace, kernels, analysis, thresholds);
  a.steps = c.steps;
  a.chip = !thresholds.chip.empty() ? thresholds.chip : meta ? meta->chip : std::string();
  if (c.gpu) {
    // CUDA / ROCm: the rules below read Ascend things (AI_CPU tasks, aclop / Node@launch /
    // aclrtSynchronizeStream CANN slices, kernel_details.csv's block dim and pipe ratios, the
    // Ascend chips' peaks, torch_npu's GC records and ASCEND_* / ACLNN_* variables), which a GPU
    // trace never has: they would only say "unknown" with an NPU reason, or advise torch_npu.
    a.notRun = npuTr("npuscope::core::Advisor", "GPU trace: the Ascend-only rules (MatMul peak of Ascend chips, AI_CPU, ACLOP compilation, short "
               "element-wise ops, synchronise after launch, Python GC, pipelines, block dim, environment "
               "variables, memory, communication alignment / bandwidth / packets, AI Core frequency, "
               "dynamic shapes, affinity APIs, fusible sequences) were not run");
  } else {
    detail::ruleMatmul(c, a.chip, a.findings);
    detail::ruleAicpu(c, a.findings);
    detail::ruleAclop(c, a.findings);
    detail::ruleShortOps(c, a.findings);
  }
  detail::ruleTransfers(c, a.findings);
  if (!c.gpu) {
    detail::ruleSyncStream(c, a.findings);
    detail::ruleGc(c, a.findings);
    detail::rulePipelines(c, a.findings);
    detail::ruleBlockDim(c, a.chip, a.findings);
    detail::ruleEnvironment(meta, a.findings);
    // Ascend files and counters: memory_record.csv / operator_memory.csv, the HCCL tasks and
    // communication.json, the AI Core frequency counter, kernel_details.csv's shapes.
    detail::ruleMemory(c, meta, a.findings);
    detail::ruleCommAlignment(c, a.findings);
    detail::ruleCommBandwidth(c, meta, a.chip, a.findings);
    detail::ruleCommPackets(c, meta, a.findings);
    detail::ruleAicoreFreq(c, a.findings);
    detail::ruleDynamicShapes(c, a.findings);
    detail::ruleAffinityApi(c, a.findings);
    detail::ruleFusibleOps(c, a.findings);
  }
  detail::ruleForwardBackward(c, a.findings);
  if (!c.gpu && kernels) a.operators = detail::ruleOperatorTree(c, a.chip, a.findings);
  settleFindings(c, a.findings);
  std::stable_sort(a.findings.begin(), a.findings.end(), findingBefore);
  return a;
}

void settleFindings(const Trace& trace, const RankAnalysis& analysis, const AdvisorThresholds& thresholds,
                    std::vector<Finding>& findings) {
  settleFindings(detail::AdvisorContext(trace, nullptr, analysis, thresholds), findings);
}

bool findingBefore(const Finding& a, const Finding& b) {
  if (a.severity != b.severity) return static_cast<int>(a.severity) < static_cast<int>(b.severity);
  return a.atStakePerStep > b.atStakePerStep;
}

}  // namespace npuscope::core
