// SPDX-License-Identifier: MIT
#include "widgets/timeline/lane_layout.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <algorithm>

#include "core/model/overlap_process.h"
#include "core/analysis/advisor.h"

namespace npuscope::widgets {

using core::kInvalidIndex;

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
}  // namespace

QString rankLabel(const core::RankProfile& rp) {
  const int r = rp.rank();
  const int d = rp.device();
  QString s;
  if (r >= 0) {
    s = QCoreApplication::translate("npuscope::widgets::Timeline", "rank %1").arg(r);
  } else if (!rp.source.label.empty()) {
    s = qs(rp.source.label);
  } else if (rp.trace && !rp.trace->path.empty()) {
    s = QFileInfo(qs(rp.trace->path)).fileName();
  } else {
    s = QCoreApplication::translate("npuscope::widgets::Timeline", "rank ?");
  }
  // A CUDA / ROCm Kineto trace's device is a GPU, not an NPU.
  if (d >= 0) s += (rp.trace && core::isGpuTrace(*rp.trace) ? QStringLiteral(" · GPU %1") : QStringLiteral(" · NPU %1")).arg(d);
  return s;
}

void LaneLayout::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  m_rankExpanded.clear();
  m_processExpanded.clear();
  m_laneFolded.clear();
  rebuild();
}

void LaneLayout::setExpandState(const ExpandState& state) {
  m_rankExpanded.clear();
  m_processExpanded.clear();
  m_laneFolded.clear();
  const auto traceOf = [&](int r) -> const core::Trace* {
    if (!m_profile || r < 0 || static_cast<std::size_t>(r) >= m_profile->ranks.size()) return nullptr;
    return m_profile->ranks[static_cast<std::size_t>(r)].trace.get();
  };
  for (const auto& [r, on] : state.ranks)
    if (traceOf(r)) m_rankExpanded[r] = on;
  for (const auto& [key, on] : state.processes)
    if (const core::Trace* t = traceOf(key.first); t && key.second < t->processes.size()) m_processExpanded[key] = on;
  for (const auto& [key, on] : state.lanesFolded)
    if (const core::Trace* t = traceOf(key.first); t && key.second < t->lanes.size()) m_laneFolded[key] = on;
  rebuild();
}

void LaneLayout::setDeviceFirst(bool on) {
  if (on == m_deviceFirst) return;
  m_deviceFirst = on;
  rebuild();
}

void LaneLayout::setLaneFilter(LaneFilter filter) {
  m_laneFilter = std::move(filter);
  rebuild();
}

bool LaneLayout::isLaneFolded(int rank, std::uint32_t lane) const {
  auto it = m_laneFolded.find({rank, lane});
  if (it != m_laneFolded.end()) return it->second;
  if (!m_profile || rank < 0 || static_cast<std::size_t>(rank) >= m_profile->ranks.size()) return false;
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  return t && lane < t->lanes.size() && t->lanes[lane].depthCount() > kDeepLane;
}

void LaneLayout::setLaneFolded(int rank, std::uint32_t lane, bool folded) {
  m_laneFolded[{rank, lane}] = folded;
  rebuild();
}

void LaneLayout::setMetrics(const Metrics& m) {
  m_metrics = m;
  rebuild();
}

bool LaneLayout::defaultProcessExpanded(int rank, std::uint32_t process) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t) return false;
  const core::Process& p = t->processes[process];
  if (p.role == core::Process::Role::Counter) return false;
  const bool hasLane = std::any_of(t->lanes.begin(), t->lanes.end(),
                                   [&](const core::Lane& l) { return l.process == process; });
  return hasLane;
}

bool LaneLayout::isRankExpanded(int rank) const {
  auto it = m_rankExpanded.find(rank);
  return it == m_rankExpanded.end() ? true : it->second;
}

bool LaneLayout::isProcessExpanded(int rank, std::uint32_t process) const {
  auto it = m_processExpanded.find({rank, process});
  if (it != m_processExpanded.end()) return it->second;
  if (!m_profile || rank < 0 || static_cast<std::size_t>(rank) >= m_profile->ranks.size()) return true;
  return defaultProcessExpanded(rank, process);
}

void LaneLayout::setRankExpanded(int rank, bool expanded) {
  m_rankExpanded[rank] = expanded;
  rebuild();
}

void LaneLayout::setProcessExpanded(int rank, std::uint32_t process, bool expanded) {
  m_processExpanded[{rank, process}] = expanded;
  rebuild();
}

void LaneLayout::setAllProcessesExpanded(bool expanded) {
  if (!m_profile) return;
  for (std::size_t r = 0; r < m_profile->ranks.size(); ++r) {
    const auto& t = m_profile->ranks[r].trace;
    if (!t) continue;
    for (std::uint32_t p = 0; p < t->processes.size(); ++p)
      m_processExpanded[{static_cast<int>(r), p}] = expanded;
  }
  rebuild();
}

bool LaneLayout::toggleRow(int row) {
  if (row < 0 || static_cast<std::size_t>(row) >= m_rows.size()) return false;
  const LayoutRow& r = m_rows[static_cast<std::size_t>(row)];
  if (r.kind == LayoutRow::Kind::Rank) {
    setRankExpanded(r.rank, !r.expanded);
    return true;
  }
  if (r.kind == LayoutRow::Kind::Process) {
    setProcessExpanded(r.rank, r.process, !r.expanded);
    return true;
  }
  if (r.kind == LayoutRow::Kind::Slices && r.foldable) {
    setLaneFolded(r.rank, r.lane, r.expanded);
    return true;
  }
  return false;
}

void LaneLayout::rebuild() {
  ++m_revision;
  m_rows.clear();
  m_laneRow.clear();
  m_processRow.clear();
  m_rankRow.clear();
  m_total = 0;
  if (!m_profile) return;
  const Metrics& m = m_metrics;
  int y = 0;
  auto push = [&](LayoutRow row, int h) {
    row.y = y;
    row.height = h;
    y += h;
    m_rows.push_back(row);
    return static_cast<int>(m_rows.size()) - 1;
  };
  const int nRanks = static_cast<int>(m_profile->ranks.size());
  m_rankRow.assign(static_cast<std::size_t>(nRanks), -1);
  m_laneRow.resize(static_cast<std::size_t>(nRanks));
  m_processRow.resize(static_cast<std::size_t>(nRanks));
  for (int r = 0; r < nRanks; ++r) {
    const auto& trace = m_profile->ranks[static_cast<std::size_t>(r)].trace;
    LayoutRow rh;
    rh.kind = LayoutRow::Kind::Rank;
    rh.rank = r;
    rh.expanded = isRankExpanded(r);
    m_rankRow[static_cast<std::size_t>(r)] = push(rh, m.rankHeader);
    if (!trace && m_laneFilter) {  // a rank without a trace has no lane to pass the filter
      y -= m_rows.back().height;
      m_rows.pop_back();
      m_rankRow[static_cast<std::size_t>(r)] = -1;
    }
    if (!trace) continue;
    m_laneRow[static_cast<std::size_t>(r)].assign(trace->lanes.size(), -1);
    m_processRow[static_cast<std::size_t>(r)].assign(trace->processes.size(), -1);
    if (!rh.expanded) continue;
    // Lanes are grouped by process in display order; counters are grouped by process too.
    // Walk processes in display order and pick their lanes/counters with two cursors when the
    // grouping holds, falling back to a scan otherwise.
    int band = 0;
    std::vector<std::uint32_t> order(trace->processes.size());
    for (std::uint32_t p = 0; p < order.size(); ++p) order[p] = p;
    if (m_deviceFirst) {
      // The Top-Down order: the overlap summary, the device streams, the communication; then
      // the host, each group in the trace's order.
      const auto group = [&](std::uint32_t p) {
        using R = core::Process::Role;
        if (core::showsOverlap(trace->processes[p])) return 0;  // recorded or computed
        switch (trace->processes[p].role) {
          case R::AscendHardware: return 1;
          case R::Communication: return 2;
          default: return 3;
        }
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return group(a) < group(b); });
    }
    for (const std::uint32_t p : order) {
      std::vector<std::uint32_t> lanes, counters;
      for (std::uint32_t l = 0; l < trace->lanes.size(); ++l)
        if (trace->lanes[l].process == p && (!m_laneFilter || m_laneFilter(r, l, core::kInvalidIndex))) lanes.push_back(l);
      for (std::uint32_t c = 0; c < trace->counters.size(); ++c)
        if (trace->counters[c].process == p && (!m_laneFilter || m_laneFilter(r, core::kInvalidIndex, c)))
          counters.push_back(c);
      if (lanes.empty() && counters.empty()) continue;
      LayoutRow ph;
      ph.kind = LayoutRow::Kind::Process;
      ph.rank = r;
      ph.process = p;
      ph.expanded = isProcessExpanded(r, p);
      m_processRow[static_cast<std::size_t>(r)][p] = push(ph, m.processHeader);
      if (!ph.expanded) continue;
      for (std::uint32_t l : lanes) {
        const core::Lane& lane = trace->lanes[l];
        const std::uint32_t allDepths = std::max<std::uint32_t>(1, lane.depthCount());
        const bool foldable = allDepths > kDeepLane;
        const bool folded = foldable && isLaneFolded(r, l);
        const std::uint32_t depths = folded ? kFoldedRows : allDepths;
        for (std::uint32_t d = 0; d < depths; ++d) {
          LayoutRow sr;
          sr.kind = LayoutRow::Kind::Slices;
          sr.rank = r;
          sr.process = p;
          sr.lane = l;
          sr.depth = d;
          sr.band = band;
          sr.expanded = !folded;
          sr.foldable = foldable && d == 0;
          if (folded && d + 1 == depths) sr.hiddenDepths = allDepths - depths;
          const int idx = push(sr, m.sliceRow + (d + 1 == depths ? m.laneGap : 0));
          if (d == 0) m_laneRow[static_cast<std::size_t>(r)][l] = idx;
        }
        band ^= 1;
      }
      for (std::uint32_t c : counters) {
        const core::CounterSeries& cs = trace->counters[c];
        LayoutRow cr;
        cr.kind = LayoutRow::Kind::Counter;
        cr.rank = r;
        cr.process = p;
        cr.counter = c;
        cr.band = band;
        double lo = 0, hi = 0;
        for (double v : cs.value) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        cr.counterMin = lo;
        cr.counterMax = hi;
        push(cr, m.counterRow);
        band ^= 1;
      }
    }
    if (m_laneFilter && m_rows.size() == static_cast<std::size_t>(m_rankRow[static_cast<std::size_t>(r)]) + 1) {
      // Nothing of this rank passed the filter: no header either.
      y -= m_rows.back().height;
      m_rows.pop_back();
      m_rankRow[static_cast<std::size_t>(r)] = -1;
    }
  }
  m_total = y;
}

int LaneLayout::rowAt(double y) const {
  if (m_rows.empty() || y < 0 || y >= m_total) return -1;
  auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y,
                             [](double v, const LayoutRow& r) { return v < r.y; });
  return static_cast<int>(it - m_rows.begin()) - 1;
}

std::pair<int, int> LaneLayout::rowsIn(double y0, double y1) const {
  if (m_rows.empty() || y1 <= y0) return {0, 0};
  auto first = std::upper_bound(m_rows.begin(), m_rows.end(), y0,
                                [](double v, const LayoutRow& r) { return v < r.y; });
  if (first != m_rows.begin()) --first;
  auto last = std::lower_bound(m_rows.begin(), m_rows.end(), y1,
                               [](const LayoutRow& r, double v) { return r.y < v; });
  return {static_cast<int>(first - m_rows.begin()), static_cast<int>(last - m_rows.begin())};
}

int LaneLayout::rowOfSlice(int rank, std::uint32_t lane, std::uint32_t depth, bool orCollapsedHeader) const {
  if (rank < 0 || static_cast<std::size_t>(rank) >= m_laneRow.size()) return -1;
  const auto& lanes = m_laneRow[static_cast<std::size_t>(rank)];
  if (lane < lanes.size() && lanes[lane] >= 0) {
    const int first = lanes[lane];
    const int row = first + static_cast<int>(depth);
    const auto sameLane = [&](int i) {
      if (i < 0 || static_cast<std::size_t>(i) >= m_rows.size()) return false;
      const LayoutRow& x = m_rows[static_cast<std::size_t>(i)];
      return x.lane == lane && x.rank == rank && x.kind == LayoutRow::Kind::Slices;
    };
    if (sameLane(row) && m_rows[static_cast<std::size_t>(row)].depth == depth) return row;
    if (!orCollapsedHeader) return -1;
    // A depth hidden by a folded lane: its last shown row.
    int last = first;
    while (sameLane(last + 1)) ++last;
    return m_rows[static_cast<std::size_t>(last)].hiddenDepths > 0 ? last : -1;
  }
  if (!orCollapsedHeader) return -1;
  const auto& trace = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (trace && lane < trace->lanes.size()) {
    const auto& prow = m_processRow[static_cast<std::size_t>(rank)];
    const std::uint32_t p = trace->lanes[lane].process;
    if (p < prow.size() && prow[p] >= 0) return prow[p];
  }
  return m_rankRow[static_cast<std::size_t>(rank)];
}

QString LaneLayout::rankTitle(int rank) const {
  if (!m_profile || rank < 0 || static_cast<std::size_t>(rank) >= m_profile->ranks.size()) return {};
  return rankLabel(m_profile->ranks[static_cast<std::size_t>(rank)]);
}

QString LaneLayout::processTitle(int rank, std::uint32_t process) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t || process >= t->processes.size()) return {};
  const core::Process& p = t->processes[process];
  QString s = qs(p.name);
  if (s.isEmpty()) s = p.pidText.empty() ? QString::number(p.pid) : qs(p.pidText);
  return s;
}

QString LaneLayout::laneTitle(int rank, std::uint32_t lane) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t || lane >= t->lanes.size()) return {};
  const core::Lane& l = t->lanes[lane];
  if (!l.name.empty()) return qs(l.name);
  return l.tidText.empty() ? QCoreApplication::translate("npuscope::widgets::Timeline", "Thread %1").arg(l.tid) : qs(l.tidText);
}

QString LaneLayout::counterTitle(int rank, std::uint32_t counter) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t || counter >= t->counters.size()) return {};
  const core::CounterSeries& c = t->counters[counter];
  QString s = qs(t->name(c.name));
  const QString key = qs(t->name(c.key));
  if (!key.isEmpty() && key != s) s += QStringLiteral(" [") + key + QStringLiteral("]");
  return s;
}

QString LaneLayout::rowTitle(const LayoutRow& row) const {
  switch (row.kind) {
    case LayoutRow::Kind::Rank: return rankTitle(row.rank);
    case LayoutRow::Kind::Process: return processTitle(row.rank, row.process);
    case LayoutRow::Kind::Slices: return laneTitle(row.rank, row.lane);
    case LayoutRow::Kind::Counter: return counterTitle(row.rank, row.counter);
  }
  return {};
}

QString LaneLayout::lanePath(int rank, std::uint32_t lane) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t || lane >= t->lanes.size()) return {};
  return rankTitle(rank) + QStringLiteral(" / ") + processTitle(rank, t->lanes[lane].process) +
         QStringLiteral(" / ") + laneTitle(rank, lane);
}

QString LaneLayout::counterPath(int rank, std::uint32_t counter) const {
  const auto& t = m_profile->ranks[static_cast<std::size_t>(rank)].trace;
  if (!t || counter >= t->counters.size()) return {};
  return rankTitle(rank) + QStringLiteral(" / ") + processTitle(rank, t->counters[counter].process) +
         QStringLiteral(" / ") + counterTitle(rank, counter);
}

}  // namespace npuscope::widgets
