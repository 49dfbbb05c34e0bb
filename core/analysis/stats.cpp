// SPDX-License-Identifier: MIT
#include "core/analysis/stats.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "core/base/ascii.h"
#include "core/analysis/advisor.h"
#include "core/analysis/intervals.h"
#include "core/analysis/task_kinds.h"
#include "core/analysis/trace_query.h"
#include "core/model/slice_args.h"
#include "core/query/lod.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"

namespace npuscope::core {

const char* statsLayerKey(StatsLayer l) {
  switch (l) {
    case StatsLayer::Python: return "python";
    case StatsLayer::Cann: return "cann";
    case StatsLayer::Kernels: return "kernels";
    case StatsLayer::Tasks: return "tasks";
    case StatsLayer::Communication: return "communication";
    case StatsLayer::Overlap: return "overlap";
  }
  return "kernels";
}

std::optional<StatsLayer> statsLayerFromKey(std::string_view k) {
  for (auto l : kStatsLayers)
    if (k == statsLayerKey(l)) return l;
  return std::nullopt;
}

const char* shareBasisLabel(ShareBasis b) {
  return b == ShareBasis::E2E ? "Share of E2E" : "Share of layer total";
}

namespace {

bool inLayer(const Trace& t, const Lane& lane, StatsLayer layer) {
  const auto role = t.processes[lane.process].role;
  switch (layer) {
    case StatsLayer::Python: return role == Process::Role::Python || role == Process::Role::PythonGc;
    case StatsLayer::Cann: return role == Process::Role::Cann;
    // msprof's Step Trace thread (Iteration / FP_BP Time / Reduce markers) holds no device tasks.
    case StatsLayer::Kernels:
    case StatsLayer::Tasks: return detail::isDeviceTaskLane(t, lane);
    // The HCCL big ops; their Plane tasks would count the same time twice.
    case StatsLayer::Communication: return detail::isCollectiveLane(t, lane);
    case StatsLayer::Overlap: return role == Process::Role::OverlapAnalysis;
  }
  return false;
}

/// Tells the kernels from the stream tasks on the Ascend Hardware lanes (see StatsLayer): by
/// kernel_details.csv when given and at least one of its non-communication rows is a task (same
/// start ns, same name, same device when both are known), else by Task Type per distinct name
/// (a kernel name has one task type, so the arg is parsed once per name).
class KernelSplit {
 public:
  KernelSplit(const Trace& t, const KernelDetails* kernels) : t_(t) {
    if (kernels)
      for (const KernelRow& k : kernels->rows)
        if (k.start && !k.isCommunication()) byStart_.emplace(*k.start, &k);
    for (std::uint32_t l = 0; !byStart_.empty() && !byDetails_ && l < t.lanes.size(); ++l) {
      if (t.processes[t.lanes[l].process].role != Process::Role::AscendHardware) continue;
      for (std::uint32_t i = 0; i < t.lanes[l].sliceCount() && !byDetails_; ++i) byDetails_ = row(l, i) != nullptr;
    }
    const std::string typeRule = npuTr("npuscope::core::Stats", "Task Type AI_CORE/AI_VECTOR_CORE/AI_CPU/MIX_*/FFTS_PLUS/DSA_SQE, and untyped "
                                           "tasks not named like memcpy/event/notify/SDMA/hcom tasks");
    if (byDetails_) rule = npuTr("npuscope::core::Stats", "kernel_details.csv (its compute rows, matched to tasks by start time and name)");
    else if (!byStart_.empty())
      rule = i18n::format(npuTr("npuscope::core::Stats", "kernel_details.csv does not match this trace (no compute row has a task's start "
                                    "and name), so: %1"),
                          {typeRule});
    else rule = typeRule;
    if (!byDetails_) kind_.assign(t.strings.size(), 0);
  }
  /// The kernel_details.csv row of task (l, i), or null.
  [[nodiscard]] const KernelRow* row(std::uint32_t l, std::uint32_t i) const {
    if (byStart_.empty()) return nullptr;
    const Lane& lane = t_.lanes[l];
    const int dev = t_.processes[lane.process].deviceId;
    auto [b, e] = byStart_.equal_range(lane.start[i]);
    for (; b != e; ++b) {
      // An SDMA task may start together with a communication row, hence the name check.
      const KernelRow& k = *b->second;
      if ((k.device < 0 || dev < 0 || k.device == dev) && k.name == t_.name(lane.names[i])) return &k;
    }
    return nullptr;
  }
  [[nodiscard]] bool isKernel(std::uint32_t l, std::uint32_t i) {
    // A Kineto stream (format notes §6.1): the kernels (compute and collective) are the Kernels
    // layer; copies, sync records and annotations are the stream tasks.
    if (detail::isKinetoDeviceLane(t_, l)) {
      const auto k = detail::kinetoTaskKindOf(t_, {l, i});
      return k == detail::KinetoTaskKind::Compute || k == detail::KinetoTaskKind::Communication;
    }
    if (byDetails_) return row(l, i) != nullptr;
    const NameId n = t_.lanes[l].names[i];
    std::uint8_t& k = kind_[n];
    if (k == 0) {
      const std::string type = sliceArg(t_, {l, i}, "Task Type").value_or("");
      k = detail::isComputeTask(type, t_.name(n)) ? 1 : 2;
    }
    return k == 1;
  }
  [[nodiscard]] bool byDetails() const { return byDetails_; }
  std::string rule;

 private:
  const Trace& t_;
  std::unordered_multimap<TimeNs, const KernelRow*> byStart_;
  bool byDetails_ = false;
  std::vector<std::uint8_t> kind_;  ///< per name id: 0 not decided yet, 1 kernel, 2 stream task
};

/// Index range [b, e) of slices in one lane row whose start is in scope.
template <typename Fn>
void forEachInScope(const Trace& t, StatsLayer layer, TimeRange scope, Fn&& fn) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const Lane& lane = t.lanes[l];
    if (!inLayer(t, lane, layer)) continue;
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      const auto b = lane.start.begin() + lane.rowBegin[d], e = lane.start.begin() + lane.rowBegin[d + 1];
      auto i = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.start) - lane.start.begin());
      const auto end = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.end) - lane.start.begin());
      for (; i < end; ++i) fn(l, i);
    }
  }
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

}  // namespace

namespace {

/// Per-name accumulator of computeStats.
struct Acc {
  std::uint64_t count = 0;
  TimeNs total = 0, self = 0, min = INT64_MAX, max = INT64_MIN;
};

/// The in-scope slices [rb[d], re[d]) of the deeper rows (d >= 1) of one lane that do not lie
/// inside one in-scope row-0 slice (partial overlaps, slices below a parent out of scope), as a
/// union. Row 0 is sorted and disjoint, so one forward cursor per row finds the candidate.
Intervals laneExtras(const Lane& lane, const std::vector<std::uint32_t>& rb, const std::vector<std::uint32_t>& re) {
  std::vector<TimeRange> extra;
  if (rb.empty()) return extra;
  const std::uint32_t b0 = rb[0], e0 = re[0];
  for (std::size_t d = 1; d < rb.size(); ++d) {
    std::uint32_t j = b0;  // the last row-0 slice starting at or before the slice, if any
    for (std::uint32_t i = rb[d]; i < re[d]; ++i) {
      const TimeNs s = lane.start[i], e = lane.end[i];
      if (s >= e) continue;
      if (j + 1 < e0 && lane.start[j + 1] <= s) {
        // Gallop forward: starts are sorted within the row, so j only moves forward.
        std::uint32_t step = 1, lo = j + 1, hi = j + 1;
        while (hi < e0 && lane.start[hi] <= s) {
          lo = hi;
          hi = lo + step;
          step *= 2;
        }
        hi = std::min(hi, e0);
        j = static_cast<std::uint32_t>(std::upper_bound(lane.start.begin() + lo, lane.start.begin() + hi, s) -
                                       lane.start.begin()) -
            1;
      }
      if (j < e0 && lane.start[j] <= s && e <= lane.end[j]) continue;
      extra.push_back({s, e});
    }
  }
  return unionOf(std::move(extra));
}

/// A sequence of intervals sorted by start: a column range of a lane row, or an Intervals.
struct Stream {
  const TimeNs* starts = nullptr;
  const TimeNs* ends = nullptr;
  const TimeRange* ranges = nullptr;
  std::size_t i = 0, n = 0;
  [[nodiscard]] TimeNs start() const { return ranges ? ranges[i].start : starts[i]; }
  [[nodiscard]] TimeNs end() const { return ranges ? ranges[i].end : ends[i]; }
};

/// Length of the union of the streams, ns, merging them on the fly (no copy of the intervals):
/// the stream with the smallest next start is consumed up to the second smallest head.
TimeNs unionLength(std::vector<Stream> streams) {
  std::erase_if(streams, [](const Stream& s) { return s.i >= s.n; });
  TimeNs total = 0, cs = 0, ce = 0;
  bool open = false;
  while (!streams.empty()) {
    std::size_t best = 0;
    TimeNs second = INT64_MAX;
    for (std::size_t k = 1; k < streams.size(); ++k) {
      const TimeNs h = streams[k].start();
      if (h < streams[best].start()) {
        second = streams[best].start();
        best = k;
      } else {
        second = std::min(second, h);
      }
    }
    Stream& st = streams[best];
    do {
      const TimeNs s = st.start(), e = st.end();
      if (s < e) {
        if (open && s <= ce) {
          ce = std::max(ce, e);
        } else {
          if (open) total += ce - cs;
          cs = s;
          ce = e;
          open = true;
        }
      }
      ++st.i;
    } while (st.i < st.n && st.start() <= second);
    if (st.i >= st.n) streams.erase(streams.begin() + static_cast<std::ptrdiff_t>(best));
  }
  if (open) total += ce - cs;
  return total;
}

}  // namespace

StatsTable kernelTableStats(const KernelDetails& kernels, std::optional<TimeRange> scope) {
  StatsTable table;
  table.layer = StatsLayer::Kernels;
  struct Row {
    StatsRow r;
    std::set<std::string_view> shapes;
  };
  std::map<std::string_view, Row> byName;
  std::vector<TimeRange> spans;
  std::size_t noDuration = 0;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const KernelRow& k : kernels.rows) {
    if (k.isCommunication()) continue;
    if (scope && (!k.start || !scope->contains(*k.start))) continue;
    if (!k.duration) {
      ++noDuration;
      continue;
    }
    const TimeNs d = *k.duration;
    Row& row = byName[k.name];
    StatsRow& r = row.r;
    if (r.count == 0) {
      r.name = k.name;
      r.type = k.type;
      r.core = k.core;
      r.min = d;
      r.max = d;
    }
    ++r.count;
    r.total += d;
    r.self += d;
    r.min = std::min(r.min, d);
    r.max = std::max(r.max, d);
    r.waitUs += k.waitUs.value_or(0.0);
    row.shapes.insert(k.inputShapes);
    table.sumTotal += d;
    ++table.slices;
    if (k.start) {
      spans.push_back({*k.start, *k.start + d});
      lo = std::min(lo, *k.start);
      hi = std::max(hi, *k.start + d);
    }
  }
  table.unionTotal = totalOf(unionOf(std::move(spans)));
  table.scope = scope ? *scope : lo <= hi ? TimeRange{lo, hi} : TimeRange{};
  table.scopeDuration = table.scope.duration();
  table.shareBasis = ShareBasis::LayerTotal;
  table.shareDenominator = table.sumTotal;
  for (auto& [name, row] : byName) {
    StatsRow& r = row.r;
    r.avg = static_cast<double>(r.total) / static_cast<double>(r.count);
    r.share = table.sumTotal > 0 ? static_cast<double>(r.total) / static_cast<double>(table.sumTotal) : 0.0;
    r.shapes = static_cast<std::uint32_t>(row.shapes.size());
    table.rows.push_back(std::move(r));
  }
  std::stable_sort(table.rows.begin(), table.rows.end(), [](const StatsRow& a, const StatsRow& b) { return a.total > b.total; });
  table.kernelRule = i18n::format(
      npuTr("npuscope::core::Stats", "kernel_details.csv alone (the profiler's own table: this rank has no trace), %1 without the "
                "communication rows"),
      {countNoun(static_cast<std::size_t>(table.slices), npuTr("npuscope::core::Stats", "row"), npuTr("npuscope::core::Stats", "rows"))});
  if (noDuration)
    table.kernelRule += i18n::format(npuTr("npuscope::core::Stats", ", %1 without a Duration left out"),
                                     {countNoun(noDuration, npuTr("npuscope::core::Stats", "row"), npuTr("npuscope::core::Stats", "rows"))});
  return table;
}

namespace {

/// The kernel_details.csv figures of one kernel name (the Kernels layer): its distinct input
/// shapes, summed wait, a sample row (type, core), FLOPs over the rows that have them, and the
/// time of its rows by bound.
struct KernelAcc {
  std::set<std::string_view> shapes;
  double wait = 0;
  const KernelRow* sample = nullptr;
  double flops = 0, flopsNs = 0;
  std::uint64_t flopsRows = 0;
  std::map<std::string, TimeNs> byBound;
};

/// computeStats' sums by name: one Acc per distinct name, in first-seen order (slot[name id] ->
/// index into accs), and the kernel_details.csv figures of the kernel names.
struct NameSums {
  explicit NameSums(const Trace& t) : slot(t.strings.size(), kInvalidIndex) {}
  std::vector<std::uint32_t> slot;
  std::vector<Acc> accs;
  std::vector<NameId> accNames;
  std::unordered_map<NameId, KernelAcc> kernelAcc;

  /// The accumulator of `name`, added when new.
  Acc& of(NameId name) {
    std::uint32_t& sl = slot[name];
    if (sl == kInvalidIndex) {
      sl = static_cast<std::uint32_t>(accs.size());
      accs.emplace_back();
      accNames.push_back(name);
    }
    return accs[sl];
  }
};

/// The part of [s, e) that the children (row d+1 slices from `child`, before `childEnd`) cover,
/// clipped to it: Lane::selfTime's rule. Moves the cursor `child` past the children ending
/// before s (rows are sorted and disjoint, so both start and end are sorted).
TimeNs childrenCover(const Lane& lane, std::uint32_t& child, std::uint32_t childEnd, TimeNs s, TimeNs e) {
  while (child < childEnd && lane.end[child] < s) ++child;
  std::uint32_t k = child;
  while (k < childEnd && lane.end[k] == s && lane.start[k] != s) ++k;
  TimeNs covered = 0, cursor = s;
  for (; k < childEnd && lane.start[k] < e; ++k) {
    const TimeNs cs = std::max(lane.start[k], cursor), ce = std::min(lane.end[k], e);
    if (ce > cs) {
      covered += ce - cs;
      cursor = ce;
    }
  }
  return covered;
}

/// Adds the kernel_details.csv row `k` of a kernel to its name's figures.
void addKernelRow(KernelAcc& ka, const KernelRow* k, const KernelDetails& kernels) {
  ka.sample = k;
  ka.shapes.insert(k->inputShapes);
  ka.wait += k->waitUs.value_or(0.0);
  const auto rowIndex = static_cast<std::size_t>(k - kernels.rows.data());
  if (const auto w = kernelWork(kernels, rowIndex)) {
    ka.flops += w->flops;
    ka.flopsNs += static_cast<double>(k->duration.value_or(0));
    ++ka.flopsRows;
  }
  std::string b = kernelBound(kernels, rowIndex, kBusyPipeRatio);
  if (!b.empty()) ka.byBound[std::move(b)] += k->duration.value_or(0);
}

/// The share denominator: the layer's summed total, or for the Overlap Analysis categories the
/// E2E span Computing + Communication(Not Overlapped) + Free (the three tile it, format doc §4.1).
void setShareBasis(StatsTable& table, const Trace& t, const NameSums& sums) {
  if (table.layer == StatsLayer::Overlap) {
    table.shareBasis = ShareBasis::E2E;
    for (std::size_t k = 0; k < sums.accs.size(); ++k) {
      const std::string_view n = t.name(sums.accNames[k]);
      if (n == "Computing" || n == "Communication(Not Overlapped)" || n == "Free") table.shareDenominator += sums.accs[k].total;
    }
  } else {
    table.shareBasis = ShareBasis::LayerTotal;
    table.shareDenominator = table.sumTotal;
  }
}

/// The table row of name k of `sums`: its figures, its share, and for a kernel its
/// kernel_details.csv figures (type, core, shapes, wait, TFLOPS, the bound of most of its time).
StatsRow statsRow(const Trace& t, const NameSums& sums, std::size_t k, TimeNs shareDenominator) {
  const Acc& a = sums.accs[k];
  StatsRow r;
  r.name = std::string(t.name(sums.accNames[k]));
  r.count = a.count;
  r.total = a.total;
  r.self = a.self;
  r.min = a.min;
  r.max = a.max;
  r.avg = static_cast<double>(a.total) / static_cast<double>(a.count);
  r.share = shareDenominator > 0 ? static_cast<double>(a.total) / static_cast<double>(shareDenominator) : 0.0;
  const auto it = sums.kernelAcc.find(sums.accNames[k]);
  if (it == sums.kernelAcc.end()) return r;
  const KernelAcc& ka = it->second;
  if (ka.sample) {
    r.type = ka.sample->type;
    r.core = ka.sample->core;
  }
  r.shapes = static_cast<std::uint32_t>(ka.shapes.size());
  r.waitUs = ka.wait;
  if (ka.flopsRows > 0 && ka.flopsNs > 0) {
    r.tflops = ka.flops / ka.flopsNs / 1000.0;  // FLOP/ns = GFLOPS
    r.tflopsRows = ka.flopsRows;
  }
  TimeNs boundNs = 0, best = -1;
  for (const auto& [b, ns] : ka.byBound) {
    boundNs += ns;
    if (ns > best) best = ns, r.bound = b;
  }
  if (!r.bound.empty()) r.boundShare = boundNs > 0 ? static_cast<double>(best) / static_cast<double>(boundNs) : 1.0;
  return r;
}

}  // namespace

StatsTable computeStats(const Trace& t, StatsLayer layer, std::optional<TimeRange> scopeArg, const KernelDetails* kernels) {
  StatsTable table;
  table.layer = layer;
  const TimeRange scope = scopeArg ? *scopeArg : TimeRange{t.range.start, t.range.end + 1};
  table.scope = scopeArg ? *scopeArg : t.range;
  table.scopeDuration = table.scope.duration();
  NameSums sums(t);
  // Kernels and Tasks split the Ascend Hardware lanes: only the picked slices count, and their
  // union is taken from a copy of their intervals (the lane rows hold both kinds).
  const bool split = layer == StatsLayer::Kernels || layer == StatsLayer::Tasks;
  std::optional<KernelSplit> splitter;
  if (split) {
    splitter.emplace(t, kernels);
    table.kernelRule = splitter->rule;
  }
  std::vector<TimeRange> picked;
  const bool nested = layer == StatsLayer::Python || layer == StatsLayer::Cann;
  std::vector<Intervals> extras;  // per lane
  std::vector<Stream> streams;    // row 0 of each lane, then the extras
  std::vector<std::uint32_t> rb, re;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const Lane& lane = t.lanes[l];
    if (!inLayer(t, lane, layer)) continue;
    const std::uint32_t depths = lane.depthCount();
    // In-scope index range of every row (a slice is in scope when its start is).
    rb.assign(depths, 0);
    re.assign(depths, 0);
    for (std::uint32_t d = 0; d < depths; ++d) {
      const auto b = lane.start.begin() + lane.rowBegin[d], e = lane.start.begin() + lane.rowBegin[d + 1];
      rb[d] = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.start) - lane.start.begin());
      re[d] = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.end) - lane.start.begin());
    }
    for (std::uint32_t d = 0; d < depths; ++d) {
      // Children of this row's slices: row d+1, walked once with a cursor.
      const bool children = nested && d + 1 < depths;
      const std::uint32_t childEnd = children ? lane.rowBegin[d + 2] : 0;
      std::uint32_t child = children && rb[d] < re[d] ? firstVisibleInRow(lane, d + 1, lane.start[rb[d]]) : 0;
      for (std::uint32_t i = rb[d]; i < re[d]; ++i) {
        if (split && splitter->isKernel(l, i) != (layer == StatsLayer::Kernels)) continue;
        const TimeNs s = lane.start[i], e = lane.end[i], dur = e - s;
        if (split) picked.push_back({s, e});
        const TimeNs self = children ? dur - childrenCover(lane, child, childEnd, s, e) : dur;
        const NameId name = lane.names[i];
        Acc& a = sums.of(name);
        ++a.count;
        a.total += dur;
        a.self += self;
        a.min = std::min(a.min, dur);
        a.max = std::max(a.max, dur);
        table.sumTotal += dur;
        ++table.slices;
        // A kernel_details row belongs to the task with its exact start and name.
        if (layer == StatsLayer::Kernels)
          if (const KernelRow* k = splitter->row(l, i)) addKernelRow(sums.kernelAcc[name], k, *kernels);
      }
    }
    if (depths > 0 && !split) {
      streams.push_back({lane.start.data(), lane.end.data(), nullptr, rb[0], re[0]});
      extras.push_back(laneExtras(lane, rb, re));
    }
  }
  for (const Intervals& x : extras) streams.push_back({nullptr, nullptr, x.data(), 0, x.size()});
  table.unionTotal = split ? totalOf(unionOf(std::move(picked))) : unionLength(std::move(streams));
  setShareBasis(table, t, sums);
  table.rows.reserve(sums.accs.size());
  for (std::size_t k = 0; k < sums.accs.size(); ++k) table.rows.push_back(statsRow(t, sums, k, table.shareDenominator));
  std::sort(table.rows.begin(), table.rows.end(), [](const StatsRow& a, const StatsRow& b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  return table;
}

std::vector<SliceRef> statsOccurrences(const Trace& t, StatsLayer layer, std::string_view name, std::optional<TimeRange> scopeArg,
                                       const KernelDetails* kernels) {
  std::vector<SliceRef> out;
  const NameId id = t.strings.find(name);
  if (id == kInvalidIndex) return out;
  const TimeRange scope = scopeArg ? *scopeArg : TimeRange{t.range.start, t.range.end + 1};
  std::optional<KernelSplit> splitter;
  if (layer == StatsLayer::Kernels || layer == StatsLayer::Tasks) splitter.emplace(t, kernels);
  forEachInScope(t, layer, scope, [&](std::uint32_t l, std::uint32_t i) {
    if (t.lanes[l].names[i] != id) return;
    if (splitter && splitter->isKernel(l, i) != (layer == StatsLayer::Kernels)) return;
    out.push_back({l, i});
  });
  std::sort(out.begin(), out.end(), [&](SliceRef a, SliceRef b) {
    return t.lanes[a.lane].start[a.index] < t.lanes[b.lane].start[b.index];
  });
  return out;
}

std::string statsCsv(const StatsTable& table) {
  const bool kernels = table.layer == StatsLayer::Kernels;
  std::string o = std::string("Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),") +
                  shareBasisLabel(table.shareBasis) + "(%)";
  if (kernels) o += ",Type,Accelerator Core,Distinct Shapes,Wait Time(us)";
  o += "\n";
  for (const auto& r : table.rows) {
    char share[32], avg[48];
    std::snprintf(share, sizeof share, "%.3f", r.share * 100.0);
    std::snprintf(avg, sizeof avg, "%.3f", r.avg / 1000.0);
    o += csvField(r.name) + "," + std::to_string(r.count) + "," + formatUsNumber(r.total) + "," + formatUsNumber(r.self) + "," + avg + "," +
         formatUsNumber(r.min) + "," + formatUsNumber(r.max) + "," + share;
    if (kernels) {
      char wait[48];
      std::snprintf(wait, sizeof wait, "%.3f", r.waitUs);
      // Appended piece by piece: GCC 12's -Wrestrict misreads the chained operator+ here.
      o += ',';
      o += csvField(r.type);
      o += ',';
      o += csvField(r.core);
      o += ',';
      o += std::to_string(r.shapes);
      o += ',';
      o += wait;
    }
    o += "\n";
  }
  return o;
}

std::string statsText(const StatsTable& table, std::size_t maxRows) {
  std::string o;
  char line[512];
  o += i18n::format(npuTr("npuscope::core::Stats", "%1 statistics, scope %2 (%3): %4 slices, sum %5, union %6"),
                    {statsLayerKey(table.layer), formatTimestampUs(table.scope.start), formatDuration(table.scopeDuration),
                     std::to_string(static_cast<unsigned long long>(table.slices)), formatDuration(table.sumTotal),
                     formatDuration(table.unionTotal)});
  o += '\n';
  if (table.shareBasis == ShareBasis::E2E)
    o += i18n::format(npuTr("npuscope::core::Stats", "Share: %% of E2E %1 (Computing + Communication(Not Overlapped) + Free; those three add "
                                "up to 100%%)"),
                      {formatDuration(table.shareDenominator)});
  else
    o += i18n::format(npuTr("npuscope::core::Stats", "Share: %% of the layer's summed total %1 (the rows add up to 100%%)"),
                      {formatDuration(table.shareDenominator)});
  o += "\n";
  if (!table.kernelRule.empty()) {
    o += i18n::format(npuTr("npuscope::core::Stats", "Kernels told from stream tasks by %1"), {table.kernelRule});
    o += '\n';
  }
  std::snprintf(line, sizeof line, "%-60s %8s %12s %12s %11s %11s %11s %7s\n", "Name", "Count", "Total", "Self", "Avg",
                "Min", "Max", table.shareBasis == ShareBasis::E2E ? "%E2E" : "%Layer");
  o += line;
  std::size_t n = 0;
  for (const auto& r : table.rows) {
    if (maxRows && n++ >= maxRows) break;
    std::string name = r.name.size() > 60 ? r.name.substr(0, 57) + "..." : r.name;
    std::snprintf(line, sizeof line, "%-60s %8llu %12s %12s %11s %11s %11s %6.2f%%\n", name.c_str(),
                  static_cast<unsigned long long>(r.count), formatDuration(r.total).c_str(), formatDuration(r.self).c_str(),
                  formatDuration(static_cast<TimeNs>(r.avg + 0.5)).c_str(), formatDuration(r.min).c_str(),
                  formatDuration(r.max).c_str(), r.share * 100.0);
    o += line;
  }
  return o;
}

namespace {

/// matchingNames over the ids with only[id] set (all ids when `only` is null).
std::vector<bool> matchNames(const Trace& t, const NameQuery& q, std::string* error,
                             const std::vector<std::uint8_t>* only) {
  std::vector<bool> match(t.strings.size(), false);
  if (q.text.empty()) return match;
  const auto wanted = [&](NameId i) { return !only || (*only)[i]; };
  if (q.regex) {
    std::regex re;
    try {
      re = std::regex(q.text, q.caseSensitive ? std::regex::ECMAScript : std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error& e) {
      if (error) *error = std::string("invalid regular expression: ") + e.what();
      return match;
    }
    for (NameId i = 1; i < t.strings.size(); ++i) {
      if (!wanted(i)) continue;
      const auto v = t.strings.view(i);
      match[i] = std::regex_search(v.begin(), v.end(), re);
    }
    return match;
  }
  const std::string needle = q.caseSensitive ? q.text : asciiLower(q.text);
  const auto foldEq = [](char a, char b) { return static_cast<char>(std::tolower(static_cast<unsigned char>(a))) == b; };
  for (NameId i = 1; i < t.strings.size(); ++i) {
    if (!wanted(i)) continue;
    const auto v = t.strings.view(i);
    if (v.size() < needle.size()) continue;
    match[i] = q.caseSensitive ? v.find(needle) != std::string_view::npos
                               : std::search(v.begin(), v.end(), needle.begin(), needle.end(), foldEq) != v.end();
  }
  return match;
}

}  // namespace

std::vector<bool> matchingNames(const Trace& t, const NameQuery& q, std::string* error) {
  return matchNames(t, q, error, nullptr);
}

std::vector<SliceRef> findSlices(const Trace& t, const NameQuery& q, std::string* error) {
  // Only the names that slices carry are matched: the string pool also holds categories, flow
  // names, labels, ... (at 10 M events ~590k strings for ~10k distinct slice names).
  std::vector<std::uint8_t> used(t.strings.size(), 0);
  for (const Lane& lane : t.lanes)
    for (const NameId n : lane.names) used[n] = 1;
  const std::vector<bool> match = matchNames(t, q, error, &used);
  std::vector<SliceRef> out;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const auto& names = t.lanes[l].names;
    for (std::uint32_t i = 0; i < names.size(); ++i)
      if (match[names[i]]) out.push_back({l, i});
  }
  std::sort(out.begin(), out.end(), [&](SliceRef a, SliceRef b) {
    const TimeNs sa = t.lanes[a.lane].start[a.index], sb = t.lanes[b.lane].start[b.index];
    return sa != sb ? sa < sb : a.lane < b.lane;
  });
  return out;
}

std::vector<std::pair<std::string, std::size_t>> flowCategories(const Trace& t) {
  std::map<std::string, std::size_t> m;
  for (const auto& f : t.flows) ++m[std::string(t.name(f.category))];
  return {m.begin(), m.end()};
}

}  // namespace npuscope::core
