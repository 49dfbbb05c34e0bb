// SPDX-License-Identifier: MIT
// The advisor's resource rules: device memory (peak vs the memory held throughout, the largest
// allocators live at the peak), communication (SDMA byte alignment, bandwidth against the
// nominal, small packets), AI Core frequency drops and dynamic shapes. docs/diagnosis.md §6.
// Every rule reads Ascend data only (the profiler's memory / communication files, HCCL task args,
// the AI Core Freq counter, kernel_details.csv) and gives no finding on a CUDA / ROCm trace.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "core/base/ascii.h"
#include "core/import/memory_counters.h"
#include "core/analysis/advisor_rules.h"
#include "core/analysis/trace_query.h"
#include "core/base/counter_units.h"
#include "core/base/i18n.h"
#include "core/base/parse_number.h"
#include "core/model/slice_args.h"

namespace npuscope::core::detail {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

bool hasDeviceLanes(const Trace& t) {
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li)
    if (isDeviceTaskLane(t, li) && t.lanes[li].sliceCount() > 0) return true;
  return false;
}

/// The HCCL big ops of the trace (slices of the collective lanes, format notes §4.1), sorted by start.
std::vector<std::pair<TimeRange, SliceRef>> collectiveOps(const Trace& t) {
  std::vector<std::pair<TimeRange, SliceRef>> ops;
  for (std::uint32_t li = 0; li < t.lanes.size(); ++li) {
    const Lane& lane = t.lanes[li];
    if (!isCollectiveLane(t, lane)) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) ops.push_back({{lane.start[i], lane.end[i]}, SliceRef{li, i}});
  }
  std::sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.first.start < b.first.start; });
  return ops;
}

/// The collective-lane slice named `name` (an op key's part before '@'), the one starting nearest
/// `start` when given; invalid when none.
SliceRef opSlice(const Trace& t, const std::vector<std::pair<TimeRange, SliceRef>>& ops, std::string_view name,
                 std::optional<TimeNs> start) {
  SliceRef best;
  TimeNs bestD = 0;
  for (const auto& [r, ref] : ops) {
    if (t.sliceName(ref) != name) continue;
    const TimeNs d = start ? (r.start > *start ? r.start - *start : *start - r.start) : 0;
    if (!best.valid() || d < bestD) best = ref, bestD = d;
  }
  return best;
}

std::string_view opNameOf(std::string_view key) { return key.substr(0, key.find('@')); }

/// Ranges sorted by start that may overlap or nest (the steps' device windows), with the running
/// maximum of their ends, so that a point or range is tested against only the ranges that can
/// reach it: O(log n + hits) where a scan of every range made the AI Core frequency rule take
/// a tenth of `report` on a 415-step capture (issue 43). Same answers as the scan: overlaps with
/// several ranges add up.
struct SortedWindows {
  std::vector<TimeRange> w;    ///< sorted by start
  std::vector<TimeNs> maxEnd;  ///< maxEnd[i] = max(w[0..i].end)

  explicit SortedWindows(std::vector<TimeRange> ranges) : w(std::move(ranges)) {
    std::sort(w.begin(), w.end(), [](const TimeRange& a, const TimeRange& b) { return a.start < b.start; });
    maxEnd.reserve(w.size());
    for (const TimeRange& r : w) maxEnd.push_back(maxEnd.empty() ? r.end : std::max(maxEnd.back(), r.end));
  }
  /// Calls fn(range) for every range with start < `before` that may end after `after` (a superset
  /// of those overlapping (after, before); fn decides), latest start first.
  template <class Fn>
  void reaching(TimeNs after, TimeNs before, Fn&& fn) const {
    auto i = static_cast<std::size_t>(std::lower_bound(w.begin(), w.end(), before, [](const TimeRange& r, TimeNs v) { return r.start < v; }) -
                                      w.begin());
    while (i > 0 && maxEnd[i - 1] > after) fn(w[--i]);
  }
  /// True when some range contains t.
  [[nodiscard]] bool contains(TimeNs t) const {
    bool found = false;
    // Ranges starting at or before t (start < t + 1) that may end after t.
    reaching(t, t == std::numeric_limits<TimeNs>::max() ? t : t + 1, [&](const TimeRange& r) { found = found || r.contains(t); });
    return found;
  }
  /// Σ over the ranges of their overlap with r.
  [[nodiscard]] TimeNs overlap(TimeRange r) const {
    TimeNs sum = 0;
    reaching(r.start, r.end, [&](const TimeRange& x) {
      const TimeNs s = std::max(x.start, r.start), e = std::min(x.end, r.end);
      if (e > s) sum += e - s;
    });
    return sum;
  }
};

/// "step windows" for per-step figures: the device windows of the steps, else the host ones,
/// else the trace's range; sorted by start.
SortedWindows stepWindows(const AdvisorContext& c) {
  std::vector<TimeRange> w;
  for (const StepWindow& s : c.analysis.steps) w.push_back(!s.device.empty() ? s.device : s.host);
  if (w.empty()) w.push_back(c.trace.range);
  return SortedWindows(std::move(w));
}

/// A point in ranges sorted by start and disjoint (the low-frequency spans): O(log n), as the
/// linear scan made the rule take a quarter of `report` on a long capture with many drops.
bool inSorted(const std::vector<TimeRange>& w, TimeNs t) {
  auto it = std::upper_bound(w.begin(), w.end(), t, [](TimeNs v, const TimeRange& r) { return v < r.start; });
  return it != w.begin() && std::prev(it)->contains(t);
}

/// The allocator's component of memory_record.csv: PTA+GE (torch_npu and graph engine together),
/// else PTA, else GE, else the first one with Total Allocated values; empty when none has one.
std::string allocatorComponent(const MemoryRecord& mr) {
  std::string comp;
  for (const char* want : {"PTA+GE", "PTA", "GE"})
    for (const MemoryRecordRow& r : mr.rows)
      if (comp.empty() && r.component == want && r.allocatedMB) comp = want;
  for (const MemoryRecordRow& r : mr.rows)
    if (comp.empty() && r.allocatedMB) comp = r.component;
  return comp;
}

/// The memory curve of one component read against the steps: its peak allocated value and when,
/// the lowest value inside the steps (else over the whole record), the peak reserved, and the
/// whole process's (APP) peak reserved.
struct MemoryCurve {
  double peak = 0, low = 0;
  bool lowInSteps = false;
  TimeNs peakTs = 0;
  std::optional<double> reservedMax, appMax;
};

/// ruleMemory's reading of component `comp`'s rows (which hold at least one Total Allocated
/// value). The allocator works on the host's clock: the steps' host windows.
MemoryCurve memoryCurve(const AdvisorContext& c, const MemoryRecord& mr, const std::string& comp) {
  std::vector<TimeRange> hostWindows;
  for (const StepWindow& s : c.analysis.steps) hostWindows.push_back(s.host);
  const SortedWindows windows(std::move(hostWindows));
  // Every value read is a total in 0 .. kMaxMemoryTotalMB (the readers drop the rest with a row
  // warning), and comp has at least one Total Allocated value: peak is set below.
  std::optional<double> peakAt, lowIn, lowAll;
  MemoryCurve m;
  const auto raise = [](std::optional<double>& v, double x) {
    if (!v || x > *v) v = x;
  };
  for (const MemoryRecordRow& r : mr.rows) {
    if (r.component == "APP" && r.reservedMB) raise(m.appMax, *r.reservedMB);
    if (r.component != comp) continue;
    if (r.reservedMB) raise(m.reservedMax, *r.reservedMB);
    if (!r.allocatedMB) continue;
    const double v = *r.allocatedMB;
    if (!peakAt || v > *peakAt) peakAt = v, m.peakTs = r.ts;
    if (!lowAll || v < *lowAll) lowAll = v;
    if (!c.analysis.steps.empty() && !windows.contains(r.ts)) continue;
    if (!lowIn || v < *lowIn) lowIn = v;
  }
  m.peak = peakAt.value_or(0);
  m.low = lowIn ? *lowIn : lowAll.value_or(0);
  m.lowInSteps = lowIn.has_value();
  return m;
}

/// The operator_memory.csv allocations live at `peakTs`, by operator: the `topOps` largest (name,
/// (KB, count)), largest first; `liveRows` receives every live row.
std::vector<std::pair<std::string, std::pair<double, std::size_t>>> liveAtPeak(const OperatorMemory* om, TimeNs peakTs,
                                                                               std::size_t topOps,
                                                                               std::vector<const OperatorMemoryRow*>& liveRows) {
  std::map<std::string, std::pair<double, std::size_t>> live;  // name -> (KB, count)
  if (om)
    for (const OperatorMemoryRow& r : om->rows) {
      if (!r.allocation || *r.allocation > peakTs || (r.release && *r.release <= peakTs) || r.sizeKB <= 0) continue;
      auto& e = live[r.name];
      e.first += r.sizeKB;
      ++e.second;
      liveRows.push_back(&r);
    }
  std::vector<std::pair<std::string, std::pair<double, std::size_t>>> top(live.begin(), live.end());
  std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  if (top.size() > topOps) top.resize(topOps);
  return top;
}

/// The evidence: the host slices (Python, Other) named like one of the top allocators that
/// contain some of its allocations live at the peak, weighed by those allocations' KB.
std::vector<std::pair<double, SliceRef>> allocatorSlices(
    const AdvisorContext& c, const std::vector<std::pair<std::string, std::pair<double, std::size_t>>>& top,
    const std::vector<const OperatorMemoryRow*>& liveRows) {
  std::unordered_map<std::string, std::vector<std::pair<TimeNs, double>>> allocs;  // name -> (time, KB), sorted
  for (const auto& [name, v] : top) allocs[name];
  for (const OperatorMemoryRow* r : liveRows)
    if (auto it = allocs.find(r->name); it != allocs.end()) it->second.push_back({*r->allocation, r->sizeKB});
  for (auto& [name, v] : allocs) std::sort(v.begin(), v.end());
  std::vector<std::pair<double, SliceRef>> ev;
  if (allocs.empty()) return ev;
  for (std::uint32_t li = 0; li < c.trace.lanes.size(); ++li) {
    const Lane& lane = c.trace.lanes[li];
    const Process::Role role = c.trace.processes[lane.process].role;
    if (role != Process::Role::Python && role != Process::Role::Other) continue;
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      const auto it = allocs.find(std::string(c.trace.sliceName({li, i})));
      if (it == allocs.end()) continue;
      const auto& v = it->second;
      double kb = 0;
      for (auto p = std::lower_bound(v.begin(), v.end(), std::pair<TimeNs, double>{lane.start[i], -1e300});
           p != v.end() && p->first <= lane.end[i]; ++p)
        kb += p->second;
      if (kb > 0) ev.push_back({kb, SliceRef{li, i}});
    }
  }
  return ev;
}

/// The finding's numbers on what was allocated at the peak: its time outside the trace, the
/// process's reserved peak, and the largest allocators live at it (or why they are unknown).
std::string peakNumbers(const AdvisorContext& c, const RankMetadata& meta, const MemoryCurve& m,
                        const std::vector<std::pair<std::string, std::pair<double, std::size_t>>>& top) {
  std::string s;
  // A peak outside the trace's time range (a record of another run, a clock reset, a hand edit):
  // said, since no slice there can show what allocated it.
  const TimeRange span = c.trace.range;
  const TimeNs peakTs = m.peakTs;
  if (span.duration() > 0 && (peakTs < span.start || peakTs > span.end))
    s += i18n::format(peakTs < span.start ? npuTr("npuscope::core::Advisor", "; the peak lies %1 before the trace starts")
                                          : npuTr("npuscope::core::Advisor", "; the peak lies %1 after the trace ends"),
                      {us(peakTs < span.start ? span.start - peakTs : peakTs - span.end)});  // kMaxTimeNs: no wrap
  if (m.appMax)
    s += i18n::format(npuTr("npuscope::core::Advisor", "; the whole process (APP) reserved up to %1"), {fmt("%.1f MB", *m.appMax)});
  if (!meta.operatorMemory) {
    s += meta.dbExport ? npuTr("npuscope::core::Advisor", "; the .db export has no OP_MEMORY table: the allocators are unknown")
                       : npuTr("npuscope::core::Advisor", "; no operator_memory.csv: the allocators are unknown");
  } else if (top.empty()) {
    s += i18n::format(npuTr("npuscope::core::Advisor", "; %1 has no allocation live at the peak"), {meta.operatorMemoryFrom});
  } else {
    s += npuTr("npuscope::core::Advisor", "; largest live at the peak:");
    for (std::size_t i = 0; i < top.size(); ++i)
      s += (i ? ", " : " ") + top[i].first + " " + fmt("%.1f MB", top[i].second.first / 1024.0) + " (" +
           std::to_string(top[i].second.second) + ")";
  }
  return s;
}

}  // namespace

/// Memory: the peak of the allocator's Total Allocated against the lowest value inside the steps
/// (the memory held throughout: weights, optimizer state), and the operators whose allocations
/// are live at the peak, largest first (memory_record.csv, operator_memory.csv; tutorial §4).
void ruleMemory(const AdvisorContext& c, const RankMetadata* meta, std::vector<Finding>& out) {
  if (!meta) return;
  const AdvisorThresholds& th = c.thresholds;
  Finding f;
  f.rule = "memory";
  f.source = "tutorial §4 (memory: peak vs steady state, the operators that allocate most); memory_record.csv and "
             "operator_memory.csv (torch_npu _memory_view_parser.py, format notes §5.1); the capacity mark is npuscope's";
  f.threshold = i18n::format(
      npuTr("npuscope::core::Advisor", "peak reserved >= %1% of the device memory (%2); the %3 largest allocators live at the peak"),
      {fmt("%.0f", th.memoryPeakShare * 100.0),
       th.deviceMemoryGb > 0 ? fmt("%g GB", th.deviceMemoryGb) : npuTr("npuscope::core::Advisor", "capacity unknown: set device_memory_gb"),
       std::to_string(th.memoryTopOps)});
  if (!meta->memoryRecord || !meta->memoryRecord->error.empty() || meta->memoryRecord->rows.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Device memory: unknown");
    f.severity = Severity::Unknown;
    if (meta->memoryRecord && !meta->memoryRecord->error.empty()) f.numbers = meta->memoryRecord->error;
    else if (meta->memoryRecord)
      f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 has no rows"), {meta->memoryRecordFrom});
    else if (meta->dbExport)
      f.numbers = npuTr("npuscope::core::Advisor", "the .db export has no MEMORY_RECORD table (written with profile_memory=True)");
    else f.numbers = npuTr("npuscope::core::Advisor", "no memory_record.csv (written with profile_memory=True)");
    out.push_back(std::move(f));
    return;
  }
  const std::string comp = allocatorComponent(*meta->memoryRecord);
  if (comp.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Device memory: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 has no Total Allocated values"), {meta->memoryRecordFrom});
    out.push_back(std::move(f));
    return;
  }
  const MemoryCurve m = memoryCurve(c, *meta->memoryRecord, comp);
  const double peak = m.peak, low = m.low;
  const std::optional<double>& reservedMax = m.reservedMax;
  // Allocations live at the peak, by operator.
  std::vector<const OperatorMemoryRow*> liveRows;
  const auto top = liveAtPeak(meta->operatorMemory ? &*meta->operatorMemory : nullptr, m.peakTs, th.memoryTopOps, liveRows);
  f.numbers = i18n::format(m.lowInSteps ? npuTr("npuscope::core::Advisor", "%1: peak allocated %2, lowest %3 inside the steps (held throughout: "
                                                    "weights, optimizer state), so %4 transient; peak reserved %5")
                                        : npuTr("npuscope::core::Advisor", "%1: peak allocated %2, lowest %3 (held throughout: weights, optimizer "
                                                    "state), so %4 transient; peak reserved %5"),
                           {comp, fmt("%.1f MB", peak), fmt("%.1f MB", low), fmt("%.1f MB", peak - low),
                            reservedMax ? fmt("%.1f MB", *reservedMax) : npuTr("npuscope::core::Advisor", "unknown")});
  f.numbers += peakNumbers(c, *meta, m, top);
  // Evidence: the host slices of the top allocators that contain one of their live allocations.
  std::vector<std::pair<double, SliceRef>> ev = allocatorSlices(c, top, liveRows);
  sortEvidence(ev, f.evidence);
  // The first row of the highest allocated value, on the curve addMemoryCounters draws.
  // The label gives the value also as the curve's lane scales it (MB are MiB: 2^20 bytes).
  f.moment = Finding::Moment{m.peakTs,
                             i18n::format(npuTr("npuscope::core::Advisor", "%1 peak allocated %2"),
                                          {comp, fmt("%.1f MB", peak) + " (" + formatCounterValue(peak, CounterUnit::MiB) + ")"}),
                             std::string(kMemoryCurveProcess)};
  const double capacityMb = th.deviceMemoryGb * 1024.0;
  if (capacityMb > 0 && reservedMax && *reservedMax >= th.memoryPeakShare * capacityMb) {
    f.title = npuTr("npuscope::core::Advisor", "Device memory near capacity");
    f.severity = Severity::Issue;
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; %1 of %2"),
                              {fmt("%.0f%%", *reservedMax / capacityMb * 100.0), fmt("%g GB", th.deviceMemoryGb)});
    f.fix = npuTr("npuscope::core::Advisor", "The peak leaves little room: free or shrink the largest allocations live at the peak (activation "
            "recomputation, a smaller micro-batch, ZeRO / optimizer sharding), and set PYTORCH_NPU_ALLOC_CONF="
            "expandable_segments:True against fragmentation.");
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Device memory: peak vs held throughout");
    f.severity = Severity::Info;
    if (capacityMb > 0 && reservedMax)
      f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; %1 of %2"),
                                {fmt("%.0f%%", *reservedMax / capacityMb * 100.0), fmt("%g GB", th.deviceMemoryGb)});
  }
  f.numbers += meta->operatorMemory
                   ? i18n::format(npuTr("npuscope::core::Advisor", "; read from %1 and %2"),
                                  {meta->memoryRecordFrom, meta->operatorMemoryFrom})
                   : i18n::format(npuTr("npuscope::core::Advisor", "; read from %1"), {meta->memoryRecordFrom});
  out.push_back(std::move(f));
}

/// Byte alignment (msprof-analyze byte_alignment_checker.py): SDMA Memcpy / Reduce_Inline tasks of
/// the HCCL ops, off chip, larger than 512 B, whose size is not a multiple of 512 B.
void ruleCommAlignment(const AdvisorContext& c, std::vector<Finding>& out) {
  const std::size_t align = std::max<std::size_t>(1, c.thresholds.commAlignBytes);
  const auto ops = collectiveOps(c.trace);
  std::size_t sized = 0, typed = 0, considered = 0, bad = 0;
  TimeNs badNs = 0, consideredNs = 0;
  std::set<std::size_t> badOps;
  std::vector<std::pair<double, SliceRef>> ev;
  for (std::uint32_t li = 0; li < c.trace.lanes.size(); ++li) {
    const Lane& lane = c.trace.lanes[li];
    if (c.trace.processes[lane.process].role != Process::Role::Communication || isCollectiveLane(c.trace, lane)) continue;
    constexpr std::uint32_t kAhead = 8;  // the tasks' args lie scattered over the file: fetch ahead
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      if (i + kAhead < lane.sliceCount()) __builtin_prefetch(c.trace.argsText({li, i + kAhead}).data());
      const SliceRef r{li, i};
      if (c.trace.argsText(r).find("size(Byte)") == std::string_view::npos && !c.trace.argsText(r).empty()) continue;
      std::optional<std::string> v[4];  // one parse of the args for the four keys
      sliceArgValues(c.trace, r, {"size(Byte)", "task type", "transport type", "link type"}, v);
      const auto& [sizeText, type, transport, link] = v;
      if (!sizeText) continue;
      ++sized;
      const auto size = parseInteger<long long>(*sizeText);
      if (transport) ++typed;
      if (!size || !type || (*type != "Memcpy" && *type != "Reduce_Inline")) continue;
      if (transport != std::optional<std::string>("SDMA")) continue;
      if (link == std::optional<std::string>("ON_CHIP")) continue;
      if (*size <= static_cast<long long>(align)) continue;
      ++considered;
      const TimeNs d = lane.end[i] - lane.start[i];
      consideredNs += d;
      if (*size % static_cast<long long>(align) == 0) continue;
      ++bad;
      badNs += d;
      ev.push_back({static_cast<double>(d), r});
      // The op holding the task: the last op starting at or before it that has not ended.
      const auto it = std::upper_bound(ops.begin(), ops.end(), lane.start[i],
                                       [](TimeNs t, const auto& o) { return t < o.first.start; });
      for (auto p = it; p != ops.begin();) {
        --p;
        if (p->first.contains(lane.start[i]) || p->first.start == lane.start[i]) {
          badOps.insert(static_cast<std::size_t>(p - ops.begin()));
          break;
        }
        if (it - p > 64) break;
      }
    }
  }
  if (ops.empty() && sized == 0) return;  // no communication in this trace
  Finding f;
  f.rule = "comm_alignment";
  f.source = "msprof-analyze advisor byte_alignment_checker.py, byte_alignment.yaml (SDMA Memcpy / Reduce_Inline tasks "
             "not ON_CHIP, size > 512 B); HCCL task args size(Byte), transport type, link type (format notes §2.7)";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "SDMA task size > %1 B and not a multiple of %1 B"), {std::to_string(align)});
  if (sized == 0 || typed == 0) {
    f.title = npuTr("npuscope::core::Advisor", "Communication byte alignment: unknown");
    f.severity = Severity::Unknown;
    f.numbers = i18n::format(sized == 0 ? npuTr("npuscope::core::Advisor", "%1 communication ops, but no HCCL task records its size (Level1 "
                                                    "writes the tasks' size(Byte))")
                                        : npuTr("npuscope::core::Advisor", "%1 communication ops, but no HCCL task records its transport type "
                                                    "(SDMA / RDMA), which the rule needs"),
                             {std::to_string(ops.size())});
    out.push_back(std::move(f));
    return;
  }
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 SDMA tasks off chip above %3 B not aligned (%4 of %5), in %6 of %7 "
                                     "communication ops"),
                           {std::to_string(bad), std::to_string(considered), std::to_string(align), us(badNs),
                            us(consideredNs), std::to_string(badOps.size()), std::to_string(ops.size())});
  if (bad == 0) {
    f.title = npuTr("npuscope::core::Advisor", "Communication sizes aligned");
    f.severity = Severity::Ok;
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Communication sizes not 512 B aligned");
    f.severity = Severity::Issue;
    f.fix = npuTr("npuscope::core::Advisor", "Transfers whose size is not a multiple of 512 B move slower over SDMA: pad the communicated tensors (e.g. "
            "bucket sizes, hidden sizes) to a multiple of 512 bytes.");
  }
  sortEvidence(ev, f.evidence);
  out.push_back(std::move(f));
}

namespace {

/// One HCCL op's traffic per transport for the communication rules: from the trace's plane tasks
/// (CommOp::links, docs/diagnosis.md §5.3) when the analysis has them, else from communication.json
/// / analysis.db's per-op "Communication Bandwidth Info".
struct OpTraffic {
  SliceRef slice;
  std::optional<TimeRange> window;  ///< the op's extent, when known
  struct Line {
    double sizeMB = 0, timeMs = 0, gbps = 0;
  };
  std::optional<Line> sdma, rdma;
};

/// The ops' traffic and where it was read ("the trace's HCCL plane tasks", "communication.json",
/// ...), empty when neither the trace's plane tasks nor the recorded file have any.
std::pair<std::vector<OpTraffic>, std::string> opTraffic(const AdvisorContext& c, const RankMetadata* meta) {
  std::vector<OpTraffic> v;
  for (const DeviceAnalysis& d : c.analysis.devices)
    for (const CommOp& op : d.comm.ops) {
      if (!op.hasTasks) continue;
      OpTraffic t;
      t.slice = op.slice;
      t.window = op.range;
      const auto line = [](const CommLink* l) -> std::optional<OpTraffic::Line> {
        if (!l || l->bytes == 0) return std::nullopt;
        return OpTraffic::Line{static_cast<double>(l->bytes) / 1e6, static_cast<double>(l->time) / 1e6, l->bandwidthGBs()};
      };
      t.sdma = line(op.link("SDMA"));
      t.rdma = line(op.link("RDMA"));
      v.push_back(t);
    }
  if (!v.empty()) return {std::move(v), npuTr("npuscope::core::Advisor", "the trace's HCCL plane tasks")};
  if (!meta || !meta->communication || !meta->communication->error.empty()) return {};
  const auto ops = collectiveOps(c.trace);
  for (const CommOpTimes& op : meta->communication->ops) {
    OpTraffic t;
    t.slice = opSlice(c.trace, ops, opNameOf(op.name), op.start);
    if (op.start) t.window = TimeRange{*op.start, *op.start + op.elapse};
    const auto line = [](const CommBandwidth* b) -> std::optional<OpTraffic::Line> {
      if (!b || !(b->sizeMB > 0)) return std::nullopt;
      return OpTraffic::Line{b->sizeMB, b->timeMs, b->gbps};
    };
    t.sdma = line(op.transportInfo("SDMA"));
    t.rdma = line(op.transportInfo("RDMA"));
    v.push_back(t);
  }
  return {std::move(v), meta->communicationFrom};
}

/// Why the communication.json rules cannot tell, or "" when the file is there and readable.
std::string commUnknownReason(const RankMetadata* meta) {
  if (!meta) return npuTr("npuscope::core::Advisor", "no profiler folder");
  if (meta->communication && meta->communication->error.empty()) return {};
  if (meta->communication) return meta->communication->error;
  if (meta->dbExport)
    return npuTr("npuscope::core::Advisor", "the .db export has no analysis.db CommAnalyzerTime table (written at Level1 / Level2 when the run communicates)");
  return npuTr("npuscope::core::Advisor", "no communication.json (written at Level1 / Level2 when the run communicates)");
}

}  // namespace

/// SDMA bandwidth against the nominal (msprof-analyze bandwidth_contention_checker.py): ops whose SDMA
/// bandwidth is below 0.8 × the nominal; an issue when such an op overlaps a MatMul kernel (the
/// advisor's contention case), else information. The nominals are the chip's link figures from
/// msprof (linkNominal: 910A HCCS 18 / RDMA 12.5, 910B HCCS 28 / RDMA 25 GB/s), else the
/// advisor's chip-independent SDMA baseline of 18 GB/s; RDMA without a nominal is not judged.
void ruleCommBandwidth(const AdvisorContext& c, const RankMetadata* meta, const std::string& chip, std::vector<Finding>& out) {
  const auto [traffic, from] = opTraffic(c, meta);
  const std::string why = traffic.empty() ? commUnknownReason(meta) : std::string();
  if (!why.empty() && collectiveOps(c.trace).empty()) return;
  const AdvisorThresholds& th = c.thresholds;
  const LinkNominal sdmaNominal = linkNominal(th, chip, "HCCS"), rdmaNominal = linkNominal(th, chip, "RDMA");
  const double sdmaGbps = sdmaNominal.gbps, rdmaGbps = rdmaNominal.gbps;
  Finding f;
  f.rule = "comm_bandwidth";
  f.source = "msprof-analyze advisor bandwidth_contention_checker.py, bandwidth_contention.yaml (threshold 0.8; an op "
             "overlapping a MatMul kernel is contention); SDMA nominal: " + sdmaNominal.source +
             (rdmaGbps > 0 ? "; RDMA nominal: " + rdmaNominal.source : std::string()) +
             "; per op, the HCCL plane tasks' transfers (docs/diagnosis.md §5.3), else communication.json Communication "
             "Bandwidth Info (format notes §5.2)";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "SDMA below %1 (%2 of %3)"),
                             {fmt("%.1f GB/s", th.bandwidthShare * sdmaGbps),
                              fmt("%.0f%%", th.bandwidthShare * 100.0), fmt("%g", sdmaGbps)}) +
                (rdmaGbps > 0
                     ? i18n::format(npuTr("npuscope::core::Advisor", "; RDMA below %1"), {fmt("%.1f GB/s", th.bandwidthShare * rdmaGbps)})
                     : npuTr("npuscope::core::Advisor", "; RDMA not judged (no nominal)"));
  if (!why.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Communication bandwidth: unknown");
    f.severity = Severity::Unknown;
    f.numbers = why;
    out.push_back(std::move(f));
    return;
  }
  std::vector<TimeRange> matmuls;
  if (c.kernels)
    for (const KernelRow& r : c.kernels->rows)
      if (r.start && r.duration && asciiLower(r.name + " " + r.type).find("matmul") != std::string::npos)
        matmuls.push_back({*r.start, *r.start + *r.duration});
  std::size_t sdma = 0, rdma = 0, slowSdma = 0, slowRdma = 0, contended = 0;
  double minSdma = -1;
  std::vector<std::pair<double, SliceRef>> evIssue, evSlow;
  for (const OpTraffic& op : traffic) {
    const SliceRef ref = op.slice;
    if (op.sdma) {
      ++sdma;
      if (minSdma < 0 || op.sdma->gbps < minSdma) minSdma = op.sdma->gbps;
      if (op.sdma->gbps < th.bandwidthShare * sdmaGbps) {
        ++slowSdma;
        const double weight = sdmaGbps - op.sdma->gbps;
        evSlow.push_back({weight, ref});
        bool overlap = false;
        if (op.window)
          for (const TimeRange& m : matmuls) overlap = overlap || m.overlaps(*op.window);
        if (overlap) ++contended, evIssue.push_back({weight, ref});
      }
    }
    if (op.rdma) {
      ++rdma;
      if (rdmaGbps > 0 && op.rdma->gbps < th.bandwidthShare * rdmaGbps) {
        ++slowRdma;
        evSlow.push_back({rdmaGbps - op.rdma->gbps, ref});
      }
    }
  }
  if (sdma == 0 && rdma == 0) return;  // nothing moved over SDMA / RDMA: nothing to judge
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 ops with SDMA traffic below the mark%3, %4 of them while a MatMul kernel "
                                     "runs%5; %6 ops with RDMA traffic%7; read from %8"),
                           {std::to_string(slowSdma), std::to_string(sdma),
                            sdma ? i18n::format(npuTr("npuscope::core::Advisor", " (lowest %1)"), {fmt("%.2f GB/s", minSdma)}) : std::string(),
                            std::to_string(contended),
                            c.kernels ? std::string() : npuTr("npuscope::core::Advisor", " (no kernel_details.csv: overlap unknown)"),
                            std::to_string(rdma),
                            rdmaGbps > 0
                                ? i18n::format(npuTr("npuscope::core::Advisor", ", %1 below the mark"), {std::to_string(slowRdma)})
                                : std::string(),
                            from});
  if (contended > 0) {
    f.title = npuTr("npuscope::core::Advisor", "SDMA bandwidth low while MatMul runs");
    f.severity = Severity::Issue;
    f.fix = npuTr("npuscope::core::Advisor", "Communication that overlaps compute competes with it for memory bandwidth: compare with the overlap "
            "(or the fusion of communication and compute) switched off, and keep it only if it still wins.");
    sortEvidence(evIssue, f.evidence);
  } else if (slowSdma + slowRdma > 0) {
    f.title = npuTr("npuscope::core::Advisor", "Communication bandwidth below the nominal");
    f.severity = Severity::Info;
    sortEvidence(evSlow, f.evidence);
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Communication bandwidth fine");
    f.severity = Severity::Ok;
  }
  out.push_back(std::move(f));
}

/// Small packets (msprof-analyze packet_checker.py, packet.yaml): ops whose SDMA transit is under
/// 16 MB (RDMA: 1 MB) among the ops with such traffic; more than 20% of them is an issue.
void ruleCommPackets(const AdvisorContext& c, const RankMetadata* meta, std::vector<Finding>& out) {
  const auto [traffic, from] = opTraffic(c, meta);
  const std::string why = traffic.empty() ? commUnknownReason(meta) : std::string();
  if (!why.empty() && collectiveOps(c.trace).empty()) return;
  const AdvisorThresholds& th = c.thresholds;
  Finding f;
  f.rule = "comm_small_packets";
  f.source = "msprof-analyze advisor packet_checker.py, packet.yaml (min_sdma_size 16 MB, min_rdma_size 1 MB, ratios "
             "0.2); per op, the HCCL plane tasks' transfer bytes (docs/diagnosis.md §5.3), else communication.json Transit "
             "Size(MB) (format notes §5.2)";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "share of ops moving < %1 over SDMA (or < %2 over RDMA) above %3"),
                             {fmt("%g MB", th.smallSdmaMb), fmt("%g MB", th.smallRdmaMb),
                              fmt("%.0f%%", th.smallPacketRatio * 100.0)});
  if (!why.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Communication packets: unknown");
    f.severity = Severity::Unknown;
    f.numbers = why;
    out.push_back(std::move(f));
    return;
  }
  struct Stat {
    std::size_t count = 0, small = 0;
    double smallMs = 0;
  } s[2];
  std::vector<std::pair<double, SliceRef>> ev[2];
  for (const OpTraffic& op : traffic) {
    for (int k = 0; k < 2; ++k) {
      const std::optional<OpTraffic::Line>& b = k == 0 ? op.sdma : op.rdma;
      if (!b) continue;
      ++s[k].count;
      if (b->sizeMB < (k == 0 ? th.smallSdmaMb : th.smallRdmaMb)) {
        ++s[k].small;
        s[k].smallMs += b->timeMs;
        ev[k].push_back({b->timeMs, op.slice});
      }
    }
  }
  if (s[0].count == 0 && s[1].count == 0) return;
  bool issue = false;
  std::vector<std::pair<double, SliceRef>> evAll;
  for (int k = 0; k < 2; ++k) {
    if (s[k].count == 0) continue;
    const double ratio = static_cast<double>(s[k].small) / static_cast<double>(s[k].count);
    if (!f.numbers.empty()) f.numbers += clauseSep();
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "%1: %2 of %3 ops small (%4, %5 of transit)"),
                              {k == 0 ? "SDMA" : "RDMA", std::to_string(s[k].small), std::to_string(s[k].count),
                               fmt("%.0f%%", ratio * 100.0), fmt("%.3f ms", s[k].smallMs)});
    if (s[k].small > 0 && ratio > th.smallPacketRatio) {
      issue = true;
      evAll.insert(evAll.end(), ev[k].begin(), ev[k].end());
    }
  }
  if (issue) {
    f.title = npuTr("npuscope::core::Advisor", "Many small communication packets");
    f.severity = Severity::Issue;
    f.fix = npuTr("npuscope::core::Advisor", "Many small transfers pay the launch and latency cost each time: in data parallelism raise the batch or "
            "accumulate gradients over more steps, use larger gradient buckets, prefer ZeRO-1/2 to ZeRO-3 when memory "
            "allows, and use fused optimizers that communicate fewer, larger tensors.");
    sortEvidence(evAll, f.evidence);
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Communication packets large enough");
    f.severity = Severity::Ok;
  }
  f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; read from %1"), {from});
  out.push_back(std::move(f));
}

/// AI Core frequency drops: the AI Core Freq counter below (1 - 5%) of the highest value it
/// records, inside the steps, with the compute kernels that started then (msprof-analyze
/// ai_core_freq_checker.py compares each op's frequency with the chip's; the nominal here is the
/// highest recorded, which a capture that ran throttled from start to end cannot reveal).
void ruleAicoreFreq(const AdvisorContext& c, std::vector<Finding>& out) {
  std::vector<const CounterSeries*> series;
  for (const CounterSeries& s : c.trace.counters)
    if (c.trace.name(s.name).starts_with("AI Core Freq") && !s.value.empty()) series.push_back(&s);
  Finding f;
  f.rule = "aicore_freq";
  f.source = "msprof-analyze advisor ai_core_freq_checker.py (DECREASE_FREQ_RATIO 0.05); the AI Core Freq counter "
             "(trace_view.json, db AICORE_FREQ; format notes §2.4); the nominal is the highest value recorded";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "AI Core frequency at or below %1 of the highest recorded, inside the steps' "
                                       "device windows"),
                             {fmt("%.0f%%", (1.0 - c.thresholds.freqDropRatio) * 100.0)});
  if (series.empty()) {
    if (!hasDeviceLanes(c.trace)) return;
    f.title = npuTr("npuscope::core::Advisor", "AI Core frequency: unknown");
    f.severity = Severity::Unknown;
    f.numbers = npuTr("npuscope::core::Advisor", "no AI Core Freq counter in this capture");
    out.push_back(std::move(f));
    return;
  }
  const SortedWindows windows = stepWindows(c);
  TimeNs belowNs = 0, kernelNs = 0;
  std::size_t kernels = 0, samples = 0;
  std::vector<std::pair<double, SliceRef>> ev;
  std::string parts;
  for (const CounterSeries* s : series) {
    const double nominal = *std::max_element(s->value.begin(), s->value.end());
    const double lowest = *std::min_element(s->value.begin(), s->value.end());
    const double mark = nominal * (1.0 - c.thresholds.freqDropRatio);
    samples += s->value.size();
    std::vector<TimeRange> low;
    for (std::size_t i = 0; i < s->ts.size(); ++i) {
      if (!(s->value[i] <= mark)) continue;
      const TimeNs end = i + 1 < s->ts.size() ? s->ts[i + 1] : std::max(s->ts[i], c.trace.range.end);
      if (!low.empty() && low.back().end == s->ts[i]) low.back().end = end;
      else low.push_back({s->ts[i], end});
    }
    TimeNs b = 0;
    for (const TimeRange& r : low) b += windows.overlap(r);
    belowNs += b;
    const int device = c.trace.processes[s->process].deviceId;
    if (!parts.empty()) parts += clauseSep();
    parts += i18n::format(npuTr("npuscope::core::Advisor", "NPU %1 %2: highest %3, lowest %4, %5 at or below %6 inside the steps' device windows"),
                          {std::to_string(device), std::string(c.trace.name(s->name)), fmt("%g MHz", nominal), fmt("%g MHz", lowest), us(b),
                           fmt("%g MHz", mark)});
    if (low.empty()) continue;
    const DeviceTasks tasks = collectDeviceTasks(c.trace, device, c.kernels);
    for (const SliceRef r : tasks.computeTasks) {
      const TimeNs t = c.trace.lanes[r.lane].start[r.index];
      if (!inSorted(low, t) || !windows.contains(t)) continue;
      const TimeNs d = c.trace.lanes[r.lane].end[r.index] - t;
      ++kernels;
      kernelNs += d;
      ev.push_back({static_cast<double>(d), r});
    }
  }
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 (%2 samples)"), {parts, std::to_string(samples)});
  if (belowNs > 0) {
    f.title = npuTr("npuscope::core::Advisor", "AI Core frequency drops");
    f.severity = Severity::Issue;
    f.numbers += i18n::format(npuTr("npuscope::core::Advisor", "; %1 compute kernels (%2) started during the drops"),
                              {std::to_string(kernels), us(kernelNs)});
    f.fix = npuTr("npuscope::core::Advisor", "The AI Core clock fell during the step (power or thermal capping, or a power-saving mode): check the "
            "device's power mode, temperature and power limit (npu-smi info), and the cooling of the server.");
    sortEvidence(ev, f.evidence);
  } else {
    f.title = npuTr("npuscope::core::Advisor", "AI Core frequency steady");
    f.severity = Severity::Ok;
  }
  out.push_back(std::move(f));
}

/// Dynamic shapes: per op type of kernel_details.csv, the input shapes first seen after the first
/// step; at least 1 per later step on average is dynamic (npuscope's mark). msprof-analyze's own
/// dynamic-shape rule (no op with OP State "static") is given in the numbers: torch_npu's eager
/// kernels all record "dynamic", so it alone does not say the shapes change.
void ruleDynamicShapes(const AdvisorContext& c, std::vector<Finding>& out) {
  if (!c.kernels || c.kernels->rows.empty()) return;
  const KernelDetails& k = *c.kernels;
  Finding f;
  f.rule = "dynamic_shapes";
  f.source = "npuscope: Input Shapes of kernel_details.csv per op type and step; msprof-analyze advisor "
             "dynamic_shape_checker.py / operator_checker.py is_dynamic_shape (no op with OP State static)";
  f.threshold = i18n::format(npuTr("npuscope::core::Advisor", "an op type with %1 or more new input shapes per step after the first"),
                             {fmt("%g", c.thresholds.newShapesPerStep)});
  std::string opState;
  if (const int col = k.table.column("OP State"); col >= 0) {
    std::size_t dyn = 0, stat = 0;
    for (std::size_t i = 0; i < k.table.rows.size(); ++i) {
      const std::string v = asciiLower(csvTrim(k.table.cell(i, col)));
      dyn += v == "dynamic" ? 1 : 0;
      stat += v == "static" ? 1 : 0;
    }
    opState = i18n::format(npuTr("npuscope::core::Advisor", "OP State: %1 dynamic, %2 static"), {std::to_string(dyn), std::to_string(stat)}) +
              (stat == 0 && dyn > 0 ? npuTr("npuscope::core::Advisor", " (msprof-analyze's rule would say every op is dynamic-shape; torch_npu's "
                                                "eager kernels record dynamic, so this alone does not tell)")
                                    : std::string());
  }
  // Step of each row: its Step Id, else the device window holding its start.
  std::vector<std::pair<long long, std::size_t>> rowsByStep;
  std::size_t withShapes = 0;
  for (std::size_t i = 0; i < k.rows.size(); ++i) {
    const KernelRow& r = k.rows[i];
    if (r.inputShapes.empty() || r.inputShapes == "N/A" || r.isCommunication()) continue;
    ++withShapes;
    std::optional<long long> step = r.step;
    if (!step && r.start)
      for (const StepWindow& s : c.analysis.steps)
        if ((!s.device.empty() ? s.device : s.host).contains(*r.start)) step = s.number;
    if (step) rowsByStep.push_back({*step, i});
  }
  auto unknown = [&](const std::string& why) {
    f.title = npuTr("npuscope::core::Advisor", "Dynamic shapes: unknown");
    f.severity = Severity::Unknown;
    f.numbers = why + (opState.empty() ? "" : clauseSep() + opState);
    out.push_back(std::move(f));
  };
  if (withShapes == 0) return unknown(npuTr("npuscope::core::Advisor", "kernel_details.csv records no Input Shapes (Level1 writes them)"));
  std::stable_sort(rowsByStep.begin(), rowsByStep.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::set<long long> stepSet;
  for (const auto& [s, i] : rowsByStep) stepSet.insert(s);
  if (stepSet.size() < 2)
    return unknown(i18n::format(npuTr("npuscope::core::Advisor", "%1 step with shapes: shapes that differ between layers cannot be told from "
                                          "shapes that change between steps"),
                                {std::to_string(stepSet.size())}));
  const long long first = *stepSet.begin();
  struct Op {
    std::set<std::string> seen;
    std::size_t fresh = 0;
    std::vector<std::pair<double, SliceRef>> ev;
  };
  std::map<std::string, Op> ops;
  for (const auto& [s, i] : rowsByStep) {
    const KernelRow& r = k.rows[i];
    Op& op = ops[r.type.empty() ? r.name : r.type];
    const bool isNew = op.seen.insert(r.inputShapes).second;
    if (isNew && s != first) {
      ++op.fresh;
      op.ev.push_back({static_cast<double>(r.duration.value_or(0)), c.taskOf(r)});
    }
  }
  const double later = static_cast<double>(stepSet.size() - 1);
  std::vector<std::pair<std::string, const Op*>> flagged;
  for (const auto& [name, op] : ops)
    if (op.fresh > 0 && static_cast<double>(op.fresh) / later >= c.thresholds.newShapesPerStep) flagged.push_back({name, &op});
  std::stable_sort(flagged.begin(), flagged.end(), [](const auto& a, const auto& b) { return a.second->fresh > b.second->fresh; });
  f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 of %2 op types bring new input shapes after step %3 (%4 steps)"),
                           {std::to_string(flagged.size()), std::to_string(ops.size()), std::to_string(first),
                            std::to_string(stepSet.size())});
  for (std::size_t i = 0; i < flagged.size() && i < 5; ++i)
    f.numbers += (i ? ", " : ": ") + flagged[i].first + " " + std::to_string(flagged[i].second->fresh);
  if (!opState.empty()) f.numbers += clauseSep() + opState;
  if (!flagged.empty()) {
    f.title = npuTr("npuscope::core::Advisor", "Input shapes change between steps");
    f.severity = Severity::Issue;
    f.fix = npuTr("npuscope::core::Advisor", "Shapes that change every step make CANN compile or look up kernels again (aclopCompileAndExecute, ACLNN "
            "cache misses): pad inputs to a few fixed sizes (bucketing), keep the batch and sequence lengths fixed, "
            "and raise ACLNN_CACHE_LIMIT if the shapes must vary.");
    std::vector<std::pair<double, SliceRef>> ev;
    for (const auto& [name, op] : flagged) ev.insert(ev.end(), op->ev.begin(), op->ev.end());
    sortEvidence(ev, f.evidence);
  } else {
    f.title = npuTr("npuscope::core::Advisor", "Input shapes repeat between steps");
    f.severity = Severity::Ok;
  }
  out.push_back(std::move(f));
}

}  // namespace npuscope::core::detail
