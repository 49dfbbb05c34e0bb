// SPDX-License-Identifier: MIT
// One rank as the cross-rank stage sees it (rank_summary.h).

#include "core/analysis/rank_summary.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <map>
#include <tuple>

#include "core/base/time_limits.h"
#include "core/tables/csv.h"
#include "core/profile/profile.h"

namespace npuscope::core {

namespace {

TimeNs usToNs(double us) { return clampedNs(us * 1000.0); }

/// Cumulative coverage of one interval list: the time covered before any moment, by a binary
/// search over the intervals' starts and a prefix sum of their lengths.
class Coverage {
 public:
  explicit Coverage(const Intervals& v) : m_v(v) {
    m_before.reserve(v.size() + 1);
    TimeNs sum = 0;
    m_before.push_back(0);
    for (const TimeRange& r : v) m_before.push_back(sum += r.end - r.start);
  }
  [[nodiscard]] TimeNs before(TimeNs t) const {
    // The intervals starting before t: all of them but the last counted whole, that one up to t.
    const auto it = std::lower_bound(m_v.begin(), m_v.end(), t, [](const TimeRange& r, TimeNs x) { return r.start < x; });
    const std::size_t n = static_cast<std::size_t>(it - m_v.begin());
    if (n == 0) return 0;
    const TimeRange& last = m_v[n - 1];
    return m_before[n - 1] + (std::min(t, last.end) - last.start);
  }

 private:
  const Intervals& m_v;
  std::vector<TimeNs> m_before;
};

struct DeviceCoverage {
  Coverage computing, communication, free;
  explicit DeviceCoverage(const DeviceAnalysis& d) : computing(d.computing), communication(d.commNotOverlapped), free(d.free) {}
  [[nodiscard]] DeviceTimeAt at(TimeNs t) const { return {computing.before(t), communication.before(t), free.before(t)}; }
};

/// The slow-rank rule's figures of a rank (profile_analysis.h RankTimeFigures): step_trace_time.csv
/// rows of its first device summed over the steps, else the Overlap Analysis lanes, else the
/// device tasks. False when it has none.
bool rankFigures(const RankProfile& rp, RankSummary& s) {
  const DeviceAnalysis* dev = nullptr;
  if (rp.analysis && !rp.analysis->cancelled && !rp.analysis->devices.empty()) dev = &rp.analysis->devices.front();
  int device = dev ? dev->device : INT_MAX;
  if (!dev)  // no trace analysis: the lowest Device_id of the CSV (-1 when the column is absent)
    for (const StepTraceRow& row : rp.stepTrace) device = std::min(device, row.device);
  bool anyRow = false;
  TimeNs c = 0, m = 0, fr = 0;
  std::string_view source = StepTraceRow::kStepTraceCsv;
  for (const StepTraceRow& row : rp.stepTrace) {
    if (row.device >= 0 && device >= 0 && row.device != device) continue;
    source = row.source;
    c += usToNs(row.computing);
    m += usToNs(row.commNotOverlapped);
    fr += usToNs(row.free);
    anyRow = true;
  }
  s.figuresDevice = device == INT_MAX ? -1 : device;
  if (anyRow) {
    s.computing = c;
    s.commNotOverlapped = m;
    s.free = fr;
    s.figuresSource = std::string(source);
    return true;
  }
  if (!dev) return false;
  const OverlapFigures& o = dev->lanes ? *dev->lanes : dev->computed;
  s.computing = o.computing;
  s.commNotOverlapped = o.commNotOverlapped;
  s.free = o.free;
  s.figuresSource = dev->lanes ? "Overlap Analysis lanes" : "device tasks";
  return true;
}

std::uint64_t filesBytes(const RankSource& src) {
  std::uint64_t bytes = 0;
  const std::vector<std::string> files = !src.traceFiles.empty() ? src.traceFiles
                                         : std::vector<std::string>{src.traceFile.empty() ? src.dbFile : src.traceFile};
  for (const std::string& f : files) {
    std::error_code ec;
    if (f.empty()) continue;
    const auto n = std::filesystem::file_size(f, ec);
    if (!ec) bytes += n;
  }
  return bytes;
}

/// The steps of the rank: the windows of RankAnalysis::steps with the first device's per-step
/// figures (StepOverlap, matched by number) and the device time before each.
void summarizeSteps(const RankAnalysis& a, const DeviceAnalysis* dev, const DeviceCoverage* cov, RankSummary& s) {
  for (const StepWindow& w : a.steps) {
    SummaryStep st;
    st.number = w.number;
    st.device = w.device;
    // An msprof Iteration N slice is a device-side window (FP start .. iteration end): no host step.
    st.hostStart = w.hostSlice.valid() && !w.iteration ? w.host.start : -1;
    if (cov) st.atDeviceStart = cov->at(w.device.start);
    if (dev)
      for (const StepOverlap& so : dev->steps)
        if (so.step == w.number) {
          st.computed = so.computed;
          if (so.csv) {
            OverlapFigures r;
            r.computing = usToNs(so.csv->computing);
            r.commNotOverlapped = usToNs(so.csv->commNotOverlapped);
            r.free = usToNs(so.csv->free);
            st.recorded = r;
          }
        }
    s.steps.push_back(st);
  }
}

}  // namespace

std::vector<KernelGroup> kernelGroupsOf(const KernelDetails* k, bool byShapes) {
  std::vector<KernelGroup> out;
  if (!k) return out;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> at;
  for (const KernelRow& r : k->rows) {
    if (!r.duration) continue;
    const std::string shapes = byShapes ? std::string(csvTrim(r.inputShapes)) : std::string();
    const auto [it, fresh] = at.emplace(std::make_tuple(r.type, r.name, shapes), out.size());
    if (fresh) out.push_back(KernelGroup{r.type, r.name, shapes, false, 0, 0});
    KernelGroup& g = out[it->second];
    g.communication = g.communication || r.isCommunication() || r.name.starts_with("hcom_");
    g.total += *r.duration;
    ++g.count;
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelGroup& a, const KernelGroup& b) {
    if (a.total != b.total) return a.total > b.total;
    return std::tie(a.type, a.name, a.shapes) < std::tie(b.type, b.name, b.shapes);
  });
  return out;
}

RankSummary summarizeRank(const RankProfile& rp) {
  RankSummary s;
  s.rank = rp.rank();
  s.device = rp.device();
  s.label = rp.source.label;
  s.chip = rp.chip;
  s.profilerLevel = rp.source.profilerLevel;
  s.profilerSettings = rp.source.profilerSettings;
  s.parallelGroups = rp.source.parallelGroups;
  s.path = rp.source.root;
  s.file = rp.trace ? rp.trace->path : rp.source.traceFile;
  s.error = rp.error;
  s.traceBytes = filesBytes(rp.source);
  if (rp.trace) {
    s.events = rp.trace->eventCount;
    s.span = rp.trace->range;
  }
  s.hasFigures = rankFigures(rp, s);
  if (!rp.analysis && !rp.recordedOps.empty()) s.ops = rp.recordedOps;  // tables only: no device times
  if (!rp.analysis || rp.analysis->cancelled) return s;
  const DeviceAnalysis* dev = rp.analysis->devices.empty() ? nullptr : &rp.analysis->devices.front();
  std::optional<DeviceCoverage> cov;
  if (dev) cov.emplace(*dev);
  summarizeSteps(*rp.analysis, dev, cov ? &*cov : nullptr, s);
  if (!dev) return s;
  s.ops = dev->comm.ops;
  s.opTimes.reserve(s.ops.size());
  for (const CommOp& op : s.ops) s.opTimes.emplace_back(cov->at(op.range.start), cov->at(op.range.end));
  if (!dev->computing.empty()) {
    s.firstComputeStart = dev->computing.front().start;
    s.atFirstCompute = cov->at(s.firstComputeStart);
  }
  return s;
}

}  // namespace npuscope::core
