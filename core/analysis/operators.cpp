// SPDX-License-Identifier: MIT
// The operator table, the decision tree and the dispatch statistics (operators.h,
// docs/diagnosis.md §6.3).

#include "core/analysis/operators.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/advisor_rules.h"
#include "core/analysis/trace_query.h"
#include "core/base/ascii.h"
#include "core/base/guard.h"
#include "core/base/i18n.h"
#include "core/base/json_text.h"
#include "core/base/parse_number.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"
#include "core/tables/csv.h"

namespace npuscope::core {

namespace {

using detail::product;
using detail::cellAt;

/// Bytes of one element of a dtype as kernel_details.csv writes it, 0 when unknown.
double dtypeBytes(std::string_view t) {
  const std::string u = asciiLower(t);
  std::string_view v = u;
  if (v.starts_with("dt_")) v.remove_prefix(3);
  if (v == "float" || v == "float32" || v == "fp32" || v == "int32" || v == "uint32") return 4;
  if (v == "float16" || v == "half" || v == "fp16" || v == "bf16" || v == "bfloat16" || v == "int16" || v == "uint16")
    return 2;
  if (v == "int8" || v == "uint8" || v == "bool" || v == "hifloat8" || v == "float8_e4m3fn" || v == "float8_e5m2")
    return 1;
  if (v == "int64" || v == "uint64" || v == "double" || v == "float64" || v == "complex64") return 8;
  return 0;
}

/// Bytes of a list of tensors (shapes and dtypes of one cell pair); nullopt when a dtype is unknown.
std::optional<double> tensorBytes(const std::vector<std::vector<long long>>& shapes, const std::vector<std::string>& types,
                                  const std::vector<std::string>& shapeTexts) {
  double b = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i >= types.size()) return std::nullopt;
    const std::string t(csvTrim(types[i]));
    const bool written = i < shapeTexts.size() && !csvTrim(shapeTexts[i]).empty();
    if (t.empty() && !written) continue;  // an absent optional input
    // A shape written but not parsed (a negative or non-numeric dim) gives no figure.
    if (written && shapes[i].empty()) return std::nullopt;
    const double size = dtypeBytes(t);
    if (size <= 0) return std::nullopt;
    const double n = product(shapes[i]);
    if (n >= 1.2e15) return std::nullopt;  // not a tensor a kernel holds
    b += n * size;
  }
  return b;
}

/// The dims lists of a torch op's `Input Dims` arg: "32,3,224,224;\r\n64,3,11,11;..." (torch_npu
/// text export) or [[32,3,224,224],[64,3,11,11],...] (Kineto JSON). An empty entry is an empty list.
std::vector<std::vector<long long>> torchInputDims(std::string_view s) {
  std::vector<std::vector<long long>> out;
  const bool json = !s.empty() && s.front() == '[';
  if (json) {
    int depth = 0;
    std::vector<long long> cur;
    std::string num;
    auto flush = [&] {
      if (!num.empty()) {
        const auto v = parseInteger<long long>(num);
        cur.push_back(v ? *v : -1);
        num.clear();
      }
    };
    for (char c : s) {
      if (c == '[') {
        ++depth;
        if (depth == 2) cur.clear();
      } else if (c == ']') {
        flush();
        if (depth == 2) out.push_back(cur);
        --depth;
      } else if (depth == 2 && ((c >= '0' && c <= '9') || c == '-')) {
        num += c;
      } else if (depth == 2) {
        flush();
      }
    }
    return out;
  }
  while (true) {
    const auto semi = s.find(';');
    std::string_view part = s.substr(0, semi);
    std::vector<long long> dims;
    std::string num;
    for (char c : part) {
      if (c >= '0' && c <= '9') num += c;
      else if (c == ',' && !num.empty()) {
        dims.push_back(parseInteger<long long>(num).value_or(-1));
        num.clear();
      }
    }
    if (!num.empty()) dims.push_back(parseInteger<long long>(num).value_or(-1));
    out.push_back(dims);
    if (semi == std::string_view::npos) break;
    s.remove_prefix(semi + 1);
  }
  return out;
}

bool isMatmulConv(std::string_view typeLower) {
  return typeLower.find("matmul") != std::string_view::npos || typeLower.find("gemm") != std::string_view::npos ||
         typeLower.starts_with("conv");
}

bool isTransferType(std::string_view typeLower) {
  return typeLower.find("memcpy") != std::string_view::npos || typeLower.find("memcopy") != std::string_view::npos ||
         typeLower == "h2d" || typeLower == "d2h";
}

/// The torch op that launched device task `task`: the source of an async_npu flow into it, else
/// invalid.
SliceRef launchingTorchOp(const Trace& trace, SliceRef task, NameId asyncNpu) {
  if (asyncNpu != kInvalidIndex)
    for (auto fi : trace.flowsTo(task)) {
      const Flow& f = trace.flows[fi];
      if (f.category == asyncNpu && f.from.valid()) return f.from;
    }
  return {};
}

/// The true filter of a Conv2D kernel from the launching torch op or its ancestors with a "conv"
/// name and `Input Dims`: forward ops (aten::conv2d, convolution, _convolution) hold it second,
/// convolution_backward third (grad_output, input, weight). Empty when not found.
std::vector<long long> torchConvWeight(const Trace& trace, SliceRef op) {
  for (SliceRef c = op; c.valid(); c = detail::parentOf(trace, c)) {
    const std::string name = asciiLower(trace.sliceName(c));
    if (name.find("conv") == std::string::npos) continue;
    const auto dims = sliceArg(trace, c, "Input Dims");
    if (!dims) continue;
    const auto d = torchInputDims(*dims);
    const std::size_t at = name.find("backward") != std::string::npos ? 2 : 1;
    if (at < d.size() && d[at].size() == 4 && std::all_of(d[at].begin(), d[at].end(), [](long long v) { return v > 0; }))
      return d[at];
  }
  return {};
}

/// The filter product as the kernel writes it (FRACTAL_Z, padded): the forward and the input
/// backprop read it as input 1, the filter backprop writes it as output 0.
double writtenFilter(const std::string& typeLower, const std::vector<std::vector<long long>>& in,
                     const std::vector<std::vector<long long>>& out) {
  if (typeLower.starts_with("conv2dbackpropfilter")) return out.empty() ? 0 : product(out[0]);
  // Conv2DBackpropInputD holds (filter, out_backprop): the filter first.
  if (typeLower.starts_with("conv2dbackpropinput") && in.size() == 2) return product(in[0]);
  return in.size() >= 2 ? product(in[1]) : 0;
}

std::string boundCategory(const std::string& pipeBound) {
  if (pipeBound.starts_with("compute")) return "compute";
  if (pipeBound.starts_with("memory")) return "memory";
  if (pipeBound.empty()) return {};
  return "latency";  // scalar-bound, latency-bound: no compute or memory pipe is busy
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// Per-row facts gathered once.
struct RowFacts {
  std::optional<KernelWork> work;
  bool padded = false;
  std::optional<double> bytes;
  std::string pipeBound;
  std::optional<long long> blockDim;
  int pass = 0;  // 1 forward, 2 backward, 0 unknown
  SliceRef task;
};

/// The figures of one group from its rows' facts: mean, share, FLOPs and TFLOPS, bytes and GB/s,
/// the peak and utilisation, the bound (pipe ratios, else the roofline), block dim vs cores and
/// the longest tasks as evidence.
void finishGroup(OperatorGroup& g, const std::vector<RowFacts>& fs, const KernelDetails& kernels, const std::string& chip,
                 const AdvisorThresholds& th, TimeNs computingNs) {
  g.mean = static_cast<double>(g.total) / static_cast<double>(std::max<std::size_t>(1, g.count));
  g.shareOfBusy = computingNs > 0 ? static_cast<double>(g.total) / static_cast<double>(computingNs) : 0;
  double flops = 0, flopsNs = 0, bytes = 0;
  std::size_t withFlops = 0, withBytes = 0;
  std::map<std::string, TimeNs> pipeTime;
  std::vector<std::pair<double, SliceRef>> tasks;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const TimeNs d = *kernels.rows[g.rows[i]].duration;
    if (fs[i].work) {
      flops += fs[i].work->flops, flopsNs += static_cast<double>(d), ++withFlops;
      if (g.dtype.empty()) g.dtype = fs[i].work->dtype;
      g.flopsPadded = g.flopsPadded || fs[i].padded;
    }
    if (fs[i].bytes) bytes += *fs[i].bytes, ++withBytes;
    if (!fs[i].pipeBound.empty()) pipeTime[fs[i].pipeBound] += d;
    if (fs[i].blockDim) g.blockDim = std::max(g.blockDim.value_or(0), *fs[i].blockDim);
    if (fs[i].task.valid()) tasks.emplace_back(static_cast<double>(d), fs[i].task);
  }
  if (withFlops == g.count && withFlops > 0) {
    g.flops = flops / static_cast<double>(withFlops);
    g.tflops = flops / std::max(1.0, flopsNs) / 1000.0;
  }
  if (withBytes == g.count && withBytes > 0) {
    g.bytes = bytes / static_cast<double>(withBytes);
    g.gbs = g.mean > 0 ? *g.bytes / g.mean : 0;  // B/ns = GB/s
  }
  if (g.dtype.empty()) g.dtype = detail::normalDtype(csvTrim(detail::splitSemicolon(g.inputDtypes).front()));
  g.hf32Unknown = g.dtype == "FP32" && kernels.table.column({"HF32 Eligible"}) < 0;
  if (!chip.empty() && g.tflops) {
    if (const PeakTflops* p = findPeak(th.peaks, chip, g.dtype)) {
      g.peakTflops = p->tflops;
      g.peakSource = p->source;
      g.utilisation = *g.tflops / p->tflops;
      if (*g.utilisation > 1.0) {
        g.abovePeak = true;
        g.utilisation.reset();
      }
    }
  }
  // Bound: the pipe busiest for the most of the group's time, else the roofline.
  if (!pipeTime.empty()) {
    const auto best = std::max_element(pipeTime.begin(), pipeTime.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    g.bound = boundCategory(best->first);
    g.boundDetail = best->first;
    g.boundFrom = "pipe ratios";
  } else if (!chip.empty()) {
    const ChipBandwidth* bw = findHbm(th.hbm, chip);
    const double tMem = (g.bytes && bw) ? *g.bytes / bw->gbs : -1;                         // ns
    const double tComp = (g.flops && g.peakTflops) ? *g.flops / (*g.peakTflops * 1000) : (g.flops ? -1 : 0);  // ns
    if (tMem >= 0 && tComp >= 0) {
      const double limit = std::max(tMem, tComp);
      g.boundFrom = "roofline";
      if (limit * 3 < g.mean) {
        g.bound = "latency";
        g.boundDetail = "roofline: memory " + formatDuration(static_cast<TimeNs>(tMem)) + ", compute " +
                        formatDuration(static_cast<TimeNs>(tComp)) + " at the peaks, under a third of the mean " +
                        formatDuration(static_cast<TimeNs>(g.mean));
      } else {
        g.bound = tMem >= tComp ? "memory" : "compute";
        g.boundDetail = "roofline: memory " + formatDuration(static_cast<TimeNs>(tMem)) + ", compute " +
                        formatDuration(static_cast<TimeNs>(tComp)) + " at the peaks";
      }
    }
  }
  if (!chip.empty()) {
    if (const ChipCores* c = findCores(th.cores, chip)) {
      const bool vector = g.core.find("VECTOR") != std::string::npos || g.core == "MIX_AIV";
      const int n = vector ? c->vector : c->cube;
      if (n > 0 && (g.core.starts_with("AI_CORE") || g.core.starts_with("MIX") || vector)) {
        g.cores = n;
        g.underfilled = g.blockDim && *g.blockDim * 2 < n;
      }
    }
  }
  detail::sortEvidence(tasks, g.tasks);
}
}  // namespace

std::optional<KernelWork> kernelWorkLinked(const Trace& trace, const KernelDetails& kernels, std::size_t row, SliceRef task,
                                           bool* padded) {
  std::optional<KernelWork> w = kernelWork(kernels, row);
  if (!w) return w;
  const KernelRow& k = kernels.rows[row];
  const std::string typeLower = asciiLower(k.type.empty() ? k.name : k.type);
  if (!typeLower.starts_with("conv")) return w;
  const std::string formats = cellAt(kernels, row, {"Input Formats"}) + ";" + cellAt(kernels, row, {"Output Formats"});
  if (formats.find("FRACTAL_Z") == std::string::npos && formats.find("NC1HWC0") == std::string::npos) return w;
  const SliceRef op = task.valid() ? launchingTorchOp(trace, task, trace.strings.find("async_npu")) : SliceRef{};
  const std::vector<long long> real = op.valid() ? torchConvWeight(trace, op) : std::vector<long long>{};
  const double written = writtenFilter(typeLower, detail::parseShapes(k.inputShapes),
                                       detail::parseShapes(cellAt(kernels, row, {"Output Shapes"})));
  if (!real.empty() && written > 0 && product(real) <= written) w->flops *= product(real) / written;
  else if (padded) *padded = true;
  w->tflops = w->flops / static_cast<double>(std::max<TimeNs>(1, *k.duration)) / 1000.0;
  return w;
}

OperatorTable operatorTable(const Trace& trace, const KernelDetails& kernels, const RankAnalysis& analysis,
                            const std::string& chip, const AdvisorThresholds& th) {
  OperatorTable t;
  t.chip = chip;
  for (const DeviceAnalysis& d : analysis.devices) t.computingNs += d.computed.computing;
  // Device tasks by start (kernel_details.csv rows are matched by exact start ns, as everywhere).
  std::unordered_map<TimeNs, SliceRef> taskByStart;
  for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
    if (!detail::isDeviceTaskLane(trace, li)) continue;
    const Lane& lane = trace.lanes[li];
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) taskByStart.emplace(lane.start[i], SliceRef{li, i});
  }
  const NameId asyncNpu = trace.strings.find("async_npu");
  const std::unordered_set<std::uint32_t> bwdLanes = detail::backwardLanes(trace);
  t.passNote = bwdLanes.empty() ? "not marked (no fwdbwd flow)" : "backward = launched from a thread that ends a fwdbwd flow";

  std::map<std::string, std::size_t> index;
  std::vector<std::vector<RowFacts>> facts;
  for (std::size_t r = 0; r < kernels.rows.size() && r < kernels.table.rows.size(); ++r) {
    const KernelRow& k = kernels.rows[r];
    if (k.isCommunication() || !k.duration || *k.duration < 0) continue;
    RowFacts f;
    if (k.start) {
      const auto ts = taskByStart.find(*k.start);
      if (ts != taskByStart.end()) f.task = ts->second;
    }
    const std::string dtypes = cellAt(kernels, r, {"Input Data Types"});
    const std::string outShapes = cellAt(kernels, r, {"Output Shapes"});
    // Level0 writes no Type and no Accelerator Core ("N/A", 910A kernel_details.csv): the kernel
    // name stands for the type (as compare groups them) and the task's own `Task Type` arg for
    // the core, so that an AI_CPU kernel is not lumped with the AI Core ones.
    const std::string type = cellRecorded(k.type) ? k.type : k.name;
    std::string coreType = k.core;
    if (!cellRecorded(coreType))
      if (std::string fromTask = taskCore(trace, f.task); !fromTask.empty()) coreType = std::move(fromTask);
    const std::string key = type + '\x1f' + k.inputShapes + '\x1f' + dtypes + '\x1f' + coreType + '\x1f' + outShapes;
    auto [it, added] = index.emplace(key, t.groups.size());
    if (added) {
      OperatorGroup g;
      g.type = type;
      g.name = k.name;
      g.inputShapes = std::string(csvTrim(k.inputShapes));
      g.inputDtypes = dtypes;
      g.inputFormats = cellAt(kernels, r, {"Input Formats"});
      g.outputShapes = outShapes;
      g.core = coreType;
      g.min = *k.duration;
      t.groups.push_back(std::move(g));
      facts.emplace_back();
    }
    OperatorGroup& g = t.groups[it->second];
    SliceRef op;
    if (f.task.valid()) {
      op = launchingTorchOp(trace, f.task, asyncNpu);
      if (op.valid() && !bwdLanes.empty()) f.pass = bwdLanes.count(op.lane) ? 2 : 1;
    }
    f.work = kernelWorkLinked(trace, kernels, r, f.task, &f.padded);
    {
      const auto inBytes = tensorBytes(detail::parseShapes(k.inputShapes), detail::splitSemicolon(dtypes),
                                       detail::splitSemicolon(k.inputShapes));
      const auto outBytes = tensorBytes(detail::parseShapes(outShapes), detail::splitSemicolon(cellAt(kernels, r, {"Output Data Types"})),
                                        detail::splitSemicolon(outShapes));
      if (inBytes && outBytes && !k.inputShapes.empty()) f.bytes = *inBytes + *outBytes;
    }
    f.pipeBound = kernelBound(kernels, r, th.busyPipeRatio);
    if (const auto b = parseInteger<long long>(csvTrim(k.blockDim)); b && *b >= 0) f.blockDim = *b;
    ++g.count;
    g.total += *k.duration;
    g.min = std::min(g.min, *k.duration);
    g.max = std::max(g.max, *k.duration);
    if (f.pass == 1) ++g.forwardCount, g.forwardNs += *k.duration;
    if (f.pass == 2) ++g.backwardCount, g.backwardNs += *k.duration;
    g.rows.push_back(r);
    facts[it->second].push_back(std::move(f));
  }

  for (std::size_t gi = 0; gi < t.groups.size(); ++gi)
    finishGroup(t.groups[gi], facts[gi], kernels, chip, th, t.computingNs);
  std::stable_sort(t.groups.begin(), t.groups.end(), [](const OperatorGroup& a, const OperatorGroup& b) { return a.total > b.total; });
  return t;
}

namespace {

std::string groupLabel(const OperatorGroup& g) {
  std::string s = g.type;
  if (!g.inputShapes.empty()) {
    std::string shapes = g.inputShapes;
    if (shapes.size() > 60) shapes = shapes.substr(0, 57) + "...";  // a foreach op lists every parameter
    s += " [" + shapes + "]";
  }
  if (!g.dtype.empty()) s += " " + g.dtype;
  return s;
}

std::string pct(double v) { return fmt("%.0f%%", v * 100.0); }

void matmulNode(const OperatorGroup& g, const std::string& chip, const AdvisorThresholds& th, TreeNode& n) {
  n.figures.emplace_back("total_us", static_cast<double>(g.total) / 1e3);
  if (!g.tflops) {
    n.branch = "matmul_no_shapes";
    n.severity = Severity::Unknown;
    n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1: a matrix operator whose FLOPs the recorded shapes do not give "
                                   "(Level0 has no shapes: capture at Level1 with record_shapes)"), {g.type});
    return;
  }
  n.figures.emplace_back("tflops", *g.tflops);
  const std::string padded = g.flopsPadded ? npuTr("npuscope::core::Tree", " (channels padded to C0: an upper bound)") : "";
  if (g.abovePeak) {
    n.branch = "matmul_above_peak";
    n.severity = Severity::Unknown;
    n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1 reaches %2 TFLOPS%3, above the %4 TFLOPS %5 peak of %6: no kernel "
                                   "beats its peak, so it did not run in %5 (an FP32 kernel in HF32, which this capture "
                                   "does not record) or the peak or the shapes do not hold; utilisation unknown"),
                             {groupLabel(g), fmt("%.2f", *g.tflops), padded, fmt("%.0f", *g.peakTflops), g.dtype, chip});
    n.suggestion = npuTr("npuscope::core::Tree", "Check the precision it runs in (torch.npu.matmul.allow_hf32, "
                         "torch.npu.conv.allow_hf32) and the chip given.");
    return;
  }
  if (!g.utilisation) {
    n.branch = "matmul_no_peak";
    n.severity = Severity::Unknown;
    n.finding = chip.empty()
                    ? i18n::format(npuTr("npuscope::core::Tree", "%1 reaches %2 TFLOPS%3; utilisation unknown: the capture does "
                                         "not record the chip (give it: --chip NAME or the Settings)"),
                                   {groupLabel(g), fmt("%.2f", *g.tflops), padded})
                    : chipFamilyOnly(chip)
                        ? i18n::format(npuTr("npuscope::core::Tree", "%1 reaches %2 TFLOPS%3; utilisation unknown: the capture names "
                                             "only the chip family %4, whose models' peaks differ (give the model: --chip NAME)"),
                                       {groupLabel(g), fmt("%.2f", *g.tflops), padded, chip})
                        : i18n::format(npuTr("npuscope::core::Tree", "%1 reaches %2 TFLOPS%3; utilisation unknown: no %4 peak for %5 "
                                             "in the table (docs/diagnosis.md §6.3)"),
                                       {groupLabel(g), fmt("%.2f", *g.tflops), padded, g.dtype, chip});
    return;
  }
  n.figures.emplace_back("utilisation", *g.utilisation);
  n.figures.emplace_back("peak_tflops", *g.peakTflops);
  std::string fill;
  if (g.underfilled)
    fill = i18n::format(npuTr("npuscope::core::Tree", "; Block Dim %1 of %2 cores: too small to fill the chip"),
                        {std::to_string(*g.blockDim), std::to_string(*g.cores)});
  n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1 reaches %2 TFLOPS%3, %4 of the %5 TFLOPS %6 peak%7"),
                           {groupLabel(g), fmt("%.2f", *g.tflops), padded, pct(*g.utilisation), fmt("%.0f", *g.peakTflops),
                            g.dtype, fill});
  if (*g.utilisation < th.lowUtilisation) {
    n.branch = "matmul_low";
    n.severity = Severity::Issue;
    const bool fp32 = g.dtype == "FP32" || g.dtype == "HF32";
    n.suggestion = fp32 ? npuTr("npuscope::core::Tree", "Below half the peak: a larger batch (bigger matrices fill the cores) or AMP "
                                "(FP16/BF16, about 4x the FP32 peak).")
                        : npuTr("npuscope::core::Tree", "Below half the peak in half precision already: a larger batch or "
                                "larger matrices (fused projections) so that the cube units fill, and aligned shapes "
                                "(multiples of 16).");
  } else if (*g.utilisation >= th.highUtilisation && g.hf32Unknown) {
    // HF32's peak is higher than FP32's: at the FP32 mark says nothing of HF32 (the low branch
    // above stays right: against a higher peak the share is lower still).
    n.branch = "matmul_mid";
    n.severity = Severity::Info;
    n.finding += npuTr("npuscope::core::Tree", "; HF32 eligibility is not recorded: if it ran in HF32 its peak is higher, so "
                       "\"already fast\" cannot be said");
    n.suggestion = npuTr("npuscope::core::Tree", "Check whether it runs in HF32 (torch.npu.matmul.allow_hf32).");
  } else if (*g.utilisation >= th.highUtilisation) {
    n.branch = "matmul_efficient";
    n.severity = Severity::Ok;
    n.suggestion = npuTr("npuscope::core::Tree", "Already fast: look at the next operator.");
  } else {
    n.branch = "matmul_mid";
    n.severity = Severity::Info;
    const bool fp32 = g.dtype == "FP32" || g.dtype == "HF32";
    n.suggestion = g.underfilled ? npuTr("npuscope::core::Tree", "Between the marks and too small to fill the chip: a larger batch.")
                   : fp32        ? npuTr("npuscope::core::Tree", "Between the marks: AMP (FP16/BF16) if precision allows.")
                                 : npuTr("npuscope::core::Tree", "Between the marks: larger or aligned matrices (multiples of 16).");
  }
}

}  // namespace

std::vector<TreeNode> walkDecisionTree(const Trace& trace, const OperatorTable& table, const AdvisorThresholds& th,
                                       std::size_t steps) {
  std::vector<TreeNode> out;
  steps = std::max<std::size_t>(1, steps);
  const auto perStep = [&](std::size_t n) { return static_cast<double>(n) / static_cast<double>(steps); };
  for (std::size_t gi = 0; gi < table.groups.size(); ++gi) {
    const OperatorGroup& g = table.groups[gi];
    if (gi >= 10 && g.shareOfBusy < th.heavyOpShare) continue;
    TreeNode n;
    n.group = static_cast<int>(gi);
    n.operatorLabel = groupLabel(g);
    n.totalNs = g.total;
    n.evidence = g.tasks;
    const std::string typeLower = asciiLower(g.type);
    // Without Computing (a partial or device-less rank) the share cannot be told.
    const std::string share = table.computingNs > 0 ? pct(g.shareOfBusy) : npuTr("npuscope::core::Tree", "unknown share");
    if (isMatmulConv(typeLower)) {
      matmulNode(g, table.chip, th, n);
    } else if (g.core == "AI_CPU") {
      n.branch = "aicpu_fallback";
      n.severity = Severity::Issue;
      n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1 runs on AI_CPU (kernel %2): the operator fell back to the CPU, "
                                     "%3 calls, %4 in all (%5 of Computing)"),
                               {groupLabel(g), g.name, std::to_string(g.count), formatDuration(g.total), share});
      n.suggestion = npuTr("npuscope::core::Tree", "Find why it has no AI Core kernel (its dtype or shape, e.g. int64 or a dynamic "
                           "shape) and change the input, or replace the op by one with an NPU kernel.");
    } else if (isTransferType(typeLower)) {
      n.branch = "transfer";
      n.severity = Severity::Issue;
      n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1: %2 host/device transfers, %3 in all"),
                               {g.type, std::to_string(g.count), formatDuration(g.total)});
      n.suggestion = npuTr("npuscope::core::Tree", "Keep the data on the device: remove .cpu() / .item() / .to('cpu') from the step.");
    } else if (g.mean < static_cast<double>(kShortKernelNs) && perStep(g.count) >= static_cast<double>(th.shortOpsPerStep) / 2) {
      n.branch = "elementwise_many_short";
      n.severity = Severity::Issue;
      n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1: %2 calls per step of %3 on average (%4 of Computing): short and many"),
                               {groupLabel(g), fmt("%.1f", perStep(g.count)), formatDuration(static_cast<TimeNs>(g.mean)), share});
      n.suggestion = npuTr("npuscope::core::Tree", "Fuse them: a fused torch_npu API, or graph mode (torch.compile / TorchAir) "
                           "so that the compiler merges them.");
    } else {
      n.branch = g.mean >= static_cast<double>(kShortKernelNs) ? "elementwise_slow" : "other";
      n.severity = Severity::Info;
      std::string how;
      if (g.gbs) how += i18n::format(npuTr("npuscope::core::Tree", ", moves %1 GB/s"), {fmt("%.1f", *g.gbs)});
      if (g.boundFrom == "pipe ratios")
        how += i18n::format(npuTr("npuscope::core::Tree", ", %1 by its pipe ratios"), {g.boundDetail});
      else if (!g.bound.empty())
        how += i18n::format(npuTr("npuscope::core::Tree", ", %1-bound (%2)"), {g.bound, g.boundDetail});
      n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1: %2 call(s), %3 on average (%4 of Computing) on %5, not a CPU "
                                     "fallback%6"),
                               {groupLabel(g), std::to_string(g.count), formatDuration(static_cast<TimeNs>(g.mean)), share,
                                cellRecorded(g.core) ? g.core : npuTr("npuscope::core::Tree", "a core the capture does not name (Level0)"),
                                how});
      if (n.branch == "elementwise_slow")
        n.suggestion = g.bound == "memory" ? npuTr("npuscope::core::Tree", "Memory-bound: fewer bytes (a smaller dtype, fewer "
                                                   "layout conversions such as TransData), or fuse it with its neighbours.")
                                           : npuTr("npuscope::core::Tree", "Look at its pipe ratios (Level1) and its shapes: a "
                                                   "format conversion or an unaligned shape is often the cause.");
    }
    if (!n.figures.size()) n.figures.emplace_back("total_us", static_cast<double>(g.total) / 1e3);
    n.figures.emplace_back("count", static_cast<double>(g.count));
    n.figures.emplace_back("mean_us", g.mean / 1e3);
    n.figures.emplace_back("share_of_computing", g.shareOfBusy);
    out.push_back(std::move(n));
  }

  // Rank-wide: host syncs that pull a value to the host (.item() / .cpu()).
  {
    TreeNode n;
    n.operatorLabel = "(host: .item())";
    std::size_t count = 0;
    std::vector<std::pair<double, SliceRef>> ev;
    for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
      const Lane& lane = trace.lanes[li];
      if (trace.processes[lane.process].role != Process::Role::Python) continue;
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
        const std::string_view name = trace.strings.view(lane.names[i]);
        if (name != "aten::item" && name != "aten::_local_scalar_dense") continue;
        // aten::item calls aten::_local_scalar_dense: count the outer one only.
        bool nested = false;
        for (SliceRef a = detail::parentOf(trace, {li, i}); a.valid() && !nested; a = detail::parentOf(trace, a)) {
          const std::string_view an = trace.sliceName(a);
          nested = an == "aten::item" || an == "aten::_local_scalar_dense";
        }
        if (!nested) {
          ++count;
          n.totalNs += lane.end[i] - lane.start[i];
          ev.emplace_back(static_cast<double>(lane.end[i] - lane.start[i]), SliceRef{li, i});
        }
      }
    }
    if (count > 0) {
      detail::sortEvidence(ev, n.evidence);
      n.branch = "host_sync";
      n.severity = perStep(count) >= static_cast<double>(th.transfersPerStep) ? Severity::Issue : Severity::Info;
      n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1 .item() calls per step (aten::item / _local_scalar_dense): each "
                                     "waits for the device to finish and copies a value to the host"),
                               {fmt("%.1f", perStep(count))});
      n.suggestion = npuTr("npuscope::core::Tree", "Keep losses and metrics on the device and read them every N steps, not every step.");
      n.figures = {{"count", static_cast<double>(count)}, {"per_step", perStep(count)}, {"total_us", static_cast<double>(n.totalNs) / 1e3}};
      out.push_back(std::move(n));
    }
  }
  // Rank-wide: a storm of small launches.
  {
    std::size_t kernelsN = 0, small = 0;
    for (const OperatorGroup& g : table.groups) {
      kernelsN += g.count;
      if (g.mean < static_cast<double>(kTinyKernelNs)) small += g.count;
    }
    if (kernelsN > 0) {
      const double perStepKernels = perStep(kernelsN);
      const double share = static_cast<double>(small) / static_cast<double>(kernelsN);
      if (perStepKernels >= static_cast<double>(kStormKernelsPerStep) && share >= 0.5) {
        TreeNode n;
        n.operatorLabel = "(all kernels)";
        n.branch = "launch_storm";
        n.severity = Severity::Issue;
        n.finding = i18n::format(npuTr("npuscope::core::Tree", "%1 kernels per step, %2 of them under %3: a storm of small launches"),
                                 {fmt("%.0f", perStepKernels), pct(share), formatDuration(kTinyKernelNs)});
        n.suggestion = npuTr("npuscope::core::Tree", "Graph mode: torch.compile (TorchAir) or ATC, so that the host launches a "
                             "graph instead of every small operator.");
        n.figures = {{"kernels_per_step", perStepKernels}, {"small_share", share}};
        out.push_back(std::move(n));
      }
    }
  }
  return out;
}

Spread spreadOf(std::vector<double> v) {
  Spread s;
  s.n = v.size();
  if (v.empty()) return s;
  // The values at ranks lo and lo + 1 of the sorted samples, found by selection (a full sort of a
  // hot op's hundreds of thousands of samples cost 0.1 s of a 1 GB trace's summary).
  auto at = [&](double p) {
    const double pos = p * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
    const double a = v[lo];
    const double b = lo + 1 < v.size() ? *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end()) : a;
    return a + (b - a) * (pos - static_cast<double>(lo));
  };
  s.p50 = at(0.5);
  s.p90 = at(0.9);
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

namespace {

/// dispatchStats' figures of one op slice over its tasks.
/// 40 bytes (was 56 with std::optional: a 1 GB trace has 630 k instances; issue 43's memory).
struct DispatchInstance {
  static constexpr TimeNs kNone = INT64_MIN;  ///< launch / queue not known
  SliceRef op;
  TimeNs firstStart = INT64_MAX;
  TimeNs device = 0;
  TimeNs launch = kNone, queue = kNone;
};

std::uint64_t sliceKey(SliceRef r) { return (static_cast<std::uint64_t>(r.lane) << 32) | r.index; }

/// dispatchStats' pass over a run of device tasks (in lane, then slice order): the instances per
/// layer (0 torch, 1 cann) in first-seen order, and the ops of the tasks starting at a gap end.
/// An op slice's instance is found through a dense index per lane (a hash of 300 k op slices
/// cost a third of the pass).
struct DispatchPart {
  std::vector<std::vector<std::uint32_t>> instanceOf[2];  // [layer][lane][slice] -> instance + 1, 0 none
  std::vector<DispatchInstance> instances[2];
  std::vector<std::pair<std::pair<int, TimeNs>, std::pair<SliceRef, SliceRef>>> atGapEnd;  // (device, start) -> (torch, cann)

  explicit DispatchPart(const Trace& trace) {
    for (auto& v : instanceOf) v.resize(trace.lanes.size());
    lanes = &trace.lanes;
  }

  DispatchInstance& instance(int k, SliceRef op) {
    std::vector<std::uint32_t>& index = instanceOf[k][op.lane];
    if (index.empty()) index.assign((*lanes)[op.lane].sliceCount(), 0);
    std::uint32_t& at = index[op.index];
    if (at == 0) {
      instances[k].emplace_back();
      instances[k].back().op = op;
      at = static_cast<std::uint32_t>(instances[k].size());
    }
    return instances[k][at - 1];
  }

  /// Adds `later` (the tasks after this part's): device times add up, the launch is the earliest
  /// task's (this part's on a tie) and the queue wait the first one seen.
  void merge(DispatchPart& later) {
    for (int k = 0; k < 2; ++k)
      for (const DispatchInstance& x : later.instances[k]) {
        DispatchInstance& in = instance(k, x.op);
        in.device += x.device;
        if (x.firstStart < in.firstStart) {
          in.firstStart = x.firstStart;
          in.launch = x.launch;
        }
        if (in.queue == DispatchInstance::kNone) in.queue = x.queue;
      }
    atGapEnd.insert(atGapEnd.end(), later.atGapEnd.begin(), later.atGapEnd.end());
  }

 private:
  const std::vector<Lane>* lanes = nullptr;
};

/// dispatchStats' DispatchStat per op name of one layer's instances (`layer`: "torch" or "cann"),
/// with their evidence (the longest host times first, a tie in op slice order); `statOf` gets each
/// name's index in the result.
std::vector<DispatchStat> statsByName(const Trace& trace, const std::vector<DispatchInstance>& instances, const char* layer,
                                      std::unordered_map<std::string_view, std::size_t>& statOf) {
  std::vector<DispatchStat> out;
  // First the names and their counts, so that each name's samples are reserved once (push_back's
  // doubling left up to half of 20 MB of samples unused on a 1 GB trace; issue 43's memory).
  std::vector<std::uint32_t> nameOf;
  nameOf.reserve(instances.size());
  for (const DispatchInstance& in : instances) {
    const std::string_view name = trace.sliceName(in.op);
    const auto [it, fresh] = statOf.try_emplace(name, out.size());
    if (fresh) {
      DispatchStat st;
      st.op = std::string(name);
      st.layer = layer;
      out.push_back(std::move(st));
    }
    ++out[it->second].count;
    nameOf.push_back(static_cast<std::uint32_t>(it->second));
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> timed(out.size());  // (launches, queue waits) per name
  for (std::size_t n = 0; n < instances.size(); ++n) {
    timed[nameOf[n]].first += instances[n].launch != DispatchInstance::kNone;
    timed[nameOf[n]].second += instances[n].queue != DispatchInstance::kNone;
  }
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j].host.reserve(out[j].count);
    out[j].device.reserve(out[j].count);
    out[j].launch.reserve(timed[j].first);
    out[j].queue.reserve(timed[j].second);
  }
  // The longest host times first; a tie in op slice order (what sorting them stably did when the
  // instances came in that order): a strict order, so a heap of the best kMaxEvidence per name
  // keeps the same ones as sorting them all.
  const auto before = [](const std::pair<double, SliceRef>& x, const std::pair<double, SliceRef>& y) {
    return x.first != y.first ? x.first > y.first : sliceKey(x.second) < sliceKey(y.second);
  };
  std::vector<std::vector<std::pair<double, SliceRef>>> ev(out.size());
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const DispatchInstance& in = instances[n];
    DispatchStat& s = out[nameOf[n]];
    const double host = static_cast<double>(trace.sliceRange(in.op).duration());
    s.host.push_back(host);
    s.device.push_back(static_cast<double>(in.device));
    if (in.launch != DispatchInstance::kNone) s.launch.push_back(static_cast<double>(in.launch));
    if (in.queue != DispatchInstance::kNone) s.queue.push_back(static_cast<double>(in.queue));
    if (host > static_cast<double>(in.device)) ++s.hostOverDevice;
    auto& heap = ev[nameOf[n]];  // the best kMaxEvidence so far, the worst of them on top
    const std::pair<double, SliceRef> e{host, in.op};
    if (heap.size() < kMaxEvidence) {
      heap.push_back(e);
      std::push_heap(heap.begin(), heap.end(), before);
    } else if (before(e, heap.front())) {
      std::pop_heap(heap.begin(), heap.end(), before);
      heap.back() = e;
      std::push_heap(heap.begin(), heap.end(), before);
    }
  }
  for (std::size_t j = 0; j < ev.size(); ++j) {
    std::sort(ev[j].begin(), ev[j].end(), before);
    for (const auto& e : ev[j]) out[j].instances.push_back(e.second);
  }
  return out;
}

}  // namespace

std::vector<DispatchStat> dispatchStats(const Trace& trace, const RankAnalysis& analysis, TimeNs bubbleThresholdNs, unsigned threads) {
  // The starts of tasks that end a Free interval >= the threshold, per device (few): only those
  // tasks' ops are kept for the bubble counts.
  std::map<int, std::vector<TimeNs>> gapEnds;
  for (const DeviceAnalysis& d : analysis.devices)
    for (const TimeRange& gap : d.free)
      if (gap.duration() >= bubbleThresholdNs) gapEnds[d.device].push_back(gap.end);
  for (auto& [device, ends] : gapEnds) std::sort(ends.begin(), ends.end());
  // Every depth-0 task of a device task lane, in lane then slice order.
  std::vector<SliceRef> tasks;
  for (std::uint32_t li = 0; li < trace.lanes.size(); ++li) {
    if (!detail::isDeviceTaskLane(trace, li)) continue;
    const Lane& lane = trace.lanes[li];
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i)
      if (lane.depthOf(i) == 0) tasks.push_back(SliceRef{li, i});
  }
  const auto scan = [&](std::size_t begin, std::size_t end, DispatchPart& part) {
    for (auto& v : part.instances) v.reserve(end - begin);  // at most one instance a task: no regrowth
    std::uint32_t laneOf = kInvalidIndex;
    const DeviceAnalysis* da = nullptr;
    const std::vector<TimeNs>* ends = nullptr;
    int device = -1;
    for (std::size_t t = begin; t < end; ++t) {
      const SliceRef task = tasks[t];
      const Lane& lane = trace.lanes[task.lane];
      if (task.lane != laneOf) {
        laneOf = task.lane;
        device = trace.processes[lane.process].deviceId;
        da = nullptr;
        for (const DeviceAnalysis& d : analysis.devices)
          if (d.device == device) da = &d;
        const auto it = gapEnds.find(device);
        ends = it == gapEnds.end() ? nullptr : &it->second;
      }
      const std::uint32_t i = task.index;
      DispatchChain chain = dispatchChain(trace, task, false);
      if (da) applySkew(chain, da->skew);
      const ChainLink* ops[2] = {chain.find(ChainLayer::TorchOp), chain.find(ChainLayer::CannApi)};
      SliceRef refs[2];
      for (int k = 0; k < 2; ++k) {
        if (!ops[k] || !ops[k]->slice.valid()) continue;
        refs[k] = ops[k]->slice;
        // The torch op the user called: the outermost aten:: op around the chain's (innermost) one
        // (aten::conv2d > aten::convolution > ... > Conv2D); the chain's own when none is aten::.
        if (k == 0)
          for (SliceRef c = refs[0]; c.valid(); c = detail::parentOf(trace, c))
            if (trace.sliceName(c).starts_with("aten::")) refs[0] = c;
        DispatchInstance& in = part.instance(k, refs[k]);
        in.device += lane.end[i] - lane.start[i];
        if (lane.start[i] < in.firstStart) {
          in.firstStart = lane.start[i];
          const std::optional<TimeNs> launch =
              chain.correctedLatency ? chain.correctedLatency : (chain.skewBound == 0 ? chain.launchLatency : std::nullopt);
          in.launch = launch && !chain.suspect ? *launch : DispatchInstance::kNone;
        }
        if (k == 0 && in.queue == DispatchInstance::kNone && chain.queueWait) in.queue = *chain.queueWait;
      }
      if ((refs[0].valid() || refs[1].valid()) && ends && std::binary_search(ends->begin(), ends->end(), lane.start[i]))
        part.atGapEnd.push_back({{device, lane.start[i]}, {refs[0], refs[1]}});
    }
  };
  // The tasks in contiguous runs, one per thread (each chain only reads the trace), merged in order.
  // Without a number given, one thread per 20,000 tasks at most (below, a thread costs more than
  // it saves).
  const std::size_t parts =
      threads ? std::max<std::size_t>(1, std::min<std::size_t>({threads, 8, tasks.size()}))
              : std::max<std::size_t>(1, std::min<std::size_t>({std::thread::hardware_concurrency(), 8, tasks.size() / 20000}));
  std::vector<DispatchPart> part;
  part.reserve(parts);
  for (std::size_t p = 0; p < parts; ++p) part.emplace_back(trace);
  {
    ExceptionSlot failure;  // declared first: the workers are joined before it goes
    std::vector<std::jthread> workers;
    for (std::size_t p = 1; p < parts; ++p)
      workers.emplace_back([&, p] { failure.run([&] { scan(tasks.size() * p / parts, tasks.size() * (p + 1) / parts, part[p]); }); });
    failure.run([&] { scan(0, tasks.size() / parts, part[0]); });
    workers.clear();
    failure.rethrow();
  }
  for (std::size_t p = 1; p < parts; ++p) part[0].merge(part[p]);
  part.erase(part.begin() + 1, part.end());
  std::map<std::pair<int, TimeNs>, std::pair<SliceRef, SliceRef>> opsOfTaskStart;  // the first task's ops at each gap end
  for (const auto& [key, refs] : part[0].atGapEnd) opsOfTaskStart.emplace(key, refs);
  for (auto& index : part[0].instanceOf) std::vector<std::vector<std::uint32_t>>().swap(index);  // not needed past here
  const std::vector<DispatchInstance>* instances = part[0].instances;
  // Per layer: one DispatchStat per op name.
  std::vector<DispatchStat> byName[2];
  std::unordered_map<std::string_view, std::size_t> statOfName[2];
  for (int k = 0; k < 2; ++k) {
    byName[k] = statsByName(trace, instances[k], k == 0 ? "torch" : "cann", statOfName[k]);
    std::vector<DispatchInstance>().swap(part[0].instances[k]);  // the samples hold them now
  }
  // Bubbles ended: the task starting at the end of each Free interval ≥ the threshold.
  for (const DeviceAnalysis& d : analysis.devices)
    for (const TimeRange& gap : d.free) {
      if (gap.duration() < bubbleThresholdNs) continue;
      const auto it = opsOfTaskStart.find({d.device, gap.end});
      if (it == opsOfTaskStart.end()) continue;
      const SliceRef refs[2] = {it->second.first, it->second.second};
      for (int k = 0; k < 2; ++k) {
        if (!refs[k].valid()) continue;
        const auto s = statOfName[k].find(trace.sliceName(refs[k]));
        if (s == statOfName[k].end()) continue;
        ++byName[k][s->second].bubblesEnded;
        byName[k][s->second].bubblesEndedNs += gap.duration();
      }
    }
  std::vector<std::pair<double, DispatchStat>> out;  // (Σ host, stat)
  for (int k = 0; k < 2; ++k) {
    std::sort(byName[k].begin(), byName[k].end(), [](const DispatchStat& a, const DispatchStat& b) { return a.op < b.op; });
    for (DispatchStat& s : byName[k]) {
      double t = 0;
      for (double x : s.host) t += x;
      out.emplace_back(t, std::move(s));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a.second.layer != b.second.layer) return a.second.layer == "torch";
    return a.first > b.first;
  });
  std::vector<DispatchStat> stats;
  stats.reserve(out.size());
  for (auto& [t, s] : out) stats.push_back(std::move(s));
  return stats;
}

namespace {

void num(std::string& o, const std::optional<double>& v, const char* f = "%.3f") {
  if (!v || !std::isfinite(*v)) {
    o += "null";
    return;
  }
  o += fmt(f, *v);
}

void usSpread(std::string& o, const char* prefix, const std::vector<double>& v) {
  const Spread s = spreadOf(v);
  auto us = [](const std::optional<double>& x) { return x ? std::optional<double>(*x / 1e3) : std::nullopt; };
  o += std::string(", \"") + prefix + "_p50_us\": ";
  num(o, us(s.p50));
  o += std::string(", \"") + prefix + "_p90_us\": ";
  num(o, us(s.p90));
  o += std::string(", \"") + prefix + "_max_us\": ";
  num(o, us(s.max));
}

}  // namespace

void operatorsJson(std::string& o, const Trace& trace, const OperatorTable* table, const std::vector<TreeNode>& tree,
                   const std::vector<DispatchStat>& stats) {
  o += ", \"operators_chip\": ";
  if (table && !table->chip.empty()) appendJsonString(o, table->chip);
  else o += "null";
  o += ", \"operators\": [";
  if (table)
    for (std::size_t i = 0; i < table->groups.size(); ++i) {
      const OperatorGroup& g = table->groups[i];
      o += i ? ",\n    {" : "\n    {";
      o += "\"type\": ";
      appendJsonString(o, g.type);
      o += ", \"name\": ";
      appendJsonString(o, g.name);
      o += ", \"input_shapes\": ";
      appendJsonString(o, g.inputShapes);
      o += ", \"output_shapes\": ";
      appendJsonString(o, g.outputShapes);
      o += ", \"input_dtypes\": ";
      appendJsonString(o, g.inputDtypes);
      o += ", \"accelerator_core\": ";
      appendJsonString(o, g.core);
      o += ", \"count\": " + std::to_string(g.count) + ", \"total_us\": ";
      num(o, static_cast<double>(g.total) / 1e3);
      o += ", \"mean_us\": ";
      num(o, g.mean / 1e3);
      o += ", \"min_us\": ";
      num(o, static_cast<double>(g.min) / 1e3);
      o += ", \"max_us\": ";
      num(o, static_cast<double>(g.max) / 1e3);
      o += ", \"share_of_computing\": ";
      num(o, g.shareOfBusy, "%.6f");
      o += ", \"flops\": ";
      num(o, g.flops, "%.0f");
      o += std::string(", \"flops_padded\": ") + (g.flopsPadded ? "true" : "false");
      o += ", \"tflops\": ";
      num(o, g.tflops, "%.4f");
      o += ", \"bytes\": ";
      num(o, g.bytes, "%.0f");
      o += ", \"gb_s\": ";
      num(o, g.gbs, "%.3f");
      o += ", \"dtype\": ";
      appendJsonString(o, g.dtype);
      o += ", \"peak_tflops\": ";
      num(o, g.peakTflops, "%.1f");
      o += ", \"peak_source\": ";
      appendJsonString(o, g.peakSource);
      o += ", \"hf32_unknown\": ";
      o += g.hf32Unknown ? "true" : "false";
      o += ", \"above_peak\": ";
      o += g.abovePeak ? "true" : "false";
      o += ", \"utilisation\": ";
      num(o, g.utilisation, "%.4f");
      o += ", \"bound\": ";
      if (g.bound.empty()) o += "null";
      else appendJsonString(o, g.bound);
      o += ", \"bound_detail\": ";
      appendJsonString(o, g.boundDetail);
      o += ", \"bound_from\": ";
      appendJsonString(o, g.boundFrom);
      o += ", \"block_dim\": ";
      if (g.blockDim) o += std::to_string(*g.blockDim);
      else o += "null";
      o += ", \"cores\": ";
      if (g.cores) o += std::to_string(*g.cores);
      else o += "null";
      o += std::string(", \"underfilled\": ") + (g.underfilled ? "true" : "false");
      o += ", \"forward_count\": " + std::to_string(g.forwardCount) + ", \"backward_count\": " + std::to_string(g.backwardCount);
      o += ", \"forward_us\": ";
      num(o, static_cast<double>(g.forwardNs) / 1e3);
      o += ", \"backward_us\": ";
      num(o, static_cast<double>(g.backwardNs) / 1e3);
      o += "}";
    }
  o += "], \"decision_tree\": [";
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const TreeNode& n = tree[i];
    o += i ? ",\n    {" : "\n    {";
    o += "\"operator\": ";
    appendJsonString(o, n.operatorLabel);
    o += ", \"branch\": ";
    appendJsonString(o, n.branch);
    o += ", \"severity\": ";
    appendJsonString(o, severityKey(n.severity));
    o += ", \"finding\": ";
    appendJsonString(o, n.finding);
    o += ", \"suggestion\": ";
    appendJsonString(o, n.suggestion);
    o += ", \"figures\": {";
    for (std::size_t k = 0; k < n.figures.size(); ++k) {
      if (k) o += ", ";
      appendJsonString(o, n.figures[k].first);
      o += ": ";
      num(o, n.figures[k].second, "%.6g");
    }
    o += "}, \"evidence\": " + std::to_string(n.evidence.size()) + "}";
  }
  o += "], \"dispatch_stats\": [";
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const DispatchStat& s = stats[i];
    o += i ? ",\n    {" : "\n    {";
    o += "\"op\": ";
    appendJsonString(o, s.op);
    o += ", \"layer\": ";
    appendJsonString(o, s.layer);
    o += ", \"count\": " + std::to_string(s.count);
    usSpread(o, "host", s.host);
    usSpread(o, "queue", s.queue);
    usSpread(o, "launch", s.launch);
    usSpread(o, "device", s.device);
    o += ", \"host_over_device\": " + std::to_string(s.hostOverDevice);
    o += ", \"bubbles_ended\": " + std::to_string(s.bubblesEnded) + ", \"bubbles_ended_us\": ";
    num(o, static_cast<double>(s.bubblesEndedNs) / 1e3);
    o += "}";
  }
  o += "]";
  (void)trace;
}

}  // namespace npuscope::core
