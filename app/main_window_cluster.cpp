// SPDX-License-Identifier: MIT
// MainWindow: the Cluster dock (widgets/panels/cluster_panel.h) and its link with the timeline.
#include <QCoreApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QStatusBar>
#include <algorithm>
#include <set>

#include "app/main_window.h"
#include "widgets/panels/cluster_panel.h"
#include "widgets/panels/dispatch_panel.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope {

void MainWindow::createClusterDock() {
  m_cluster = new widgets::ClusterPanel(m_viewState, this);
  // Bottom area: tabbed with Top-Down and Advice on the first run (createTopDownDocks).
  m_clusterDock = addViewDock(m_cluster, tr("Cluster"), QStringLiteral("ClusterDock"));
  m_clusterDock->toggleViewAction()->setText(tr("C&luster Panel"));
  m_clusterDock->toggleViewAction()->setStatusTip(
      tr("The ranks compared: late ranks, skew per collective, waits, clock offsets and links"));
  connect(m_cluster, &widgets::ClusterPanel::collectiveSelected, this, &MainWindow::showCollective);
  connect(m_cluster, &widgets::ClusterPanel::rankOpenRequested, this, &MainWindow::openRankInFull);
}

void MainWindow::createDispatchDock() {
  m_dispatch = new widgets::DispatchPanel(this);
  m_dispatchDock = addViewDock(shrinkable(m_dispatch), tr("Dispatch"), QStringLiteral("DispatchDock"));
  m_dispatchDock->toggleViewAction()->setText(tr("&Dispatch Statistics"));
  m_dispatchDock->toggleViewAction()->setStatusTip(
      tr("Per torch op and CANN API: host time, queue wait, launch latency, device time and the bubbles each ends"));
  // A row: outline its instances (the op slices) on the timeline and select the longest.
  connect(m_dispatch, &widgets::DispatchPanel::instancesSelected, this,
          [this](int rank, const std::vector<core::SliceRef>& slices) {
            m_timeline->setHighlightedSlices(rank, slices);
            if (!slices.empty()) m_timeline->selectSlice(rank, slices.front());
          });
}

void MainWindow::showCollective(const std::vector<widgets::RankSliceRef>& ops, widgets::RankSliceRef focus) {
  if (!m_profile || !focus.valid()) return;
  // Every rank's op on one screen: only the lanes holding the op are laid out (one row per rank
  // under its header, in rank order) and the time range covering all of them is shown; the op is
  // outlined on every rank and the focused rank's selected. View > Show All Lanes undoes it.
  core::TimeRange span{INT64_MAX, INT64_MIN};
  std::set<std::pair<int, std::uint32_t>> lanes;
  for (const widgets::RankSliceRef& op : ops) {
    if (!op.valid() || op.rank < 0 || static_cast<std::size_t>(op.rank) >= m_profile->ranks.size()) continue;
    const auto& trace = m_profile->ranks[static_cast<std::size_t>(op.rank)].trace;
    if (!trace || op.slice.lane >= trace->lanes.size()) continue;
    const core::Lane& lane = trace->lanes[op.slice.lane];
    span.start = std::min(span.start, lane.start[op.slice.index]);
    span.end = std::max(span.end, lane.end[op.slice.index]);
    lanes.insert({op.rank, op.slice.lane});
  }
  if (lanes.size() >= 2) {
    m_timeline->setLaneFilter([lanes](int rank, std::uint32_t lane, std::uint32_t counter) {
      return counter == core::kInvalidIndex && lanes.count({rank, lane}) > 0;
    });
    m_showAllLanesAction->setEnabled(true);
  }
  m_timeline->setHighlightedSlices(ops);
  m_timeline->selectSlice(focus.rank, focus.slice);
  if (span.start < span.end) {
    const core::TimeNs margin = std::max<core::TimeNs>(1000, (span.end - span.start) / 20);
    m_timeline->setVisibleRange(core::TimeRange{span.start - margin, span.end + margin});
  } else {
    m_timeline->zoomToSelectedSlice();
  }
  if (lanes.size() >= 2) m_timeline->setVerticalScroll(0);
  statusBar()->showMessage(lanes.size() >= 2 ? tr("Collective on %n rank(s): only the lanes holding it are shown "
                                                  "(View > Show All Lanes, Ctrl+Shift+A)", nullptr, static_cast<int>(ops.size()))
                                             : tr("Collective outlined on %n rank(s)", nullptr, static_cast<int>(ops.size())),
                           8000);
}

void MainWindow::showAllLanes() {
  if (!m_showAllLanesAction || !m_showAllLanesAction->isEnabled()) return;
  m_rankFilter.clear();
  m_rankFilterText.clear();
  if (m_deviceLanesOnlyAction) {
    const QSignalBlocker block(m_deviceLanesOnlyAction);
    m_deviceLanesOnlyAction->setChecked(false);
  }
  m_timeline->setLaneFilter({});
  m_showAllLanesAction->setEnabled(false);
}

void MainWindow::setDeviceLanesOnly(bool on) {
  if (m_deviceLanesOnlyAction && m_deviceLanesOnlyAction->isChecked() != on) {
    m_deviceLanesOnlyAction->setChecked(on);  // toggled() comes back here
    return;
  }
  applyLaneFilters();
}

bool MainWindow::setRankFilter(const QString& spec) {
  std::set<int> ids;
  for (const QString& part : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const QString p = part.trimmed();
    if (p.isEmpty()) continue;
    const auto dash = p.indexOf(QLatin1Char('-'), 1);
    bool okA = false, okB = true;
    const int a = (dash < 0 ? p : p.left(dash)).trimmed().toInt(&okA);
    const int b = dash < 0 ? a : p.mid(dash + 1).trimmed().toInt(&okB);
    if (!okA || !okB || a < 0 || b < a || b - a > 1'000'000) return false;
    for (int r = a; r <= b; ++r) ids.insert(r);
  }
  if (!ids.empty() && m_profile) {
    // Only ranks that are loaded count; none at all: refused.
    const bool any = std::any_of(m_profile->ranks.begin(), m_profile->ranks.end(),
                                 [&](const core::RankProfile& r) { return ids.count(r.rank()) > 0; });
    if (!any) return false;
  }
  m_rankFilter = std::move(ids);
  m_rankFilterText = spec.trimmed();
  applyLaneFilters();
  return true;
}

void MainWindow::applyLaneFilters() {
  const bool deviceOnly = m_deviceLanesOnlyAction && m_deviceLanesOnlyAction->isChecked();
  if (!m_profile || (!deviceOnly && m_rankFilter.empty())) {
    m_timeline->setLaneFilter({});
    if (m_showAllLanesAction) m_showAllLanesAction->setEnabled(false);
    return;
  }
  // Per rank index: kept (rank filter), and per lane: a device or HCCL lane (the roles of its process).
  const std::shared_ptr<const core::Profile> profile = m_profile;
  std::vector<char> rankKept(profile->ranks.size(), 1);
  if (!m_rankFilter.empty())
    for (std::size_t i = 0; i < profile->ranks.size(); ++i) rankKept[i] = m_rankFilter.count(profile->ranks[i].rank()) > 0;
  m_timeline->setLaneFilter([profile, rankKept, deviceOnly](int rank, std::uint32_t lane, std::uint32_t counter) {
    if (rank < 0 || static_cast<std::size_t>(rank) >= rankKept.size() || !rankKept[static_cast<std::size_t>(rank)]) return false;
    if (!deviceOnly) return true;
    if (counter != core::kInvalidIndex) return false;
    const auto& trace = profile->ranks[static_cast<std::size_t>(rank)].trace;
    if (!trace || lane >= trace->lanes.size()) return false;
    using Role = core::Process::Role;
    const Role role = trace->processes[trace->lanes[lane].process].role;
    return role == Role::AscendHardware || role == Role::OverlapAnalysis || role == Role::Communication || role == Role::KinetoDevice;
  });
  m_timeline->setVerticalScroll(0);
  if (m_showAllLanesAction) m_showAllLanesAction->setEnabled(true);
}

void MainWindow::openRankInFull(int rankIndex) {
  if (!m_profile || rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= m_profile->ranks.size()) return;
  const core::RankProfile& rp = m_profile->ranks[static_cast<std::size_t>(rankIndex)];
  if (!rp.summary) {
    statusBar()->showMessage(tr("Rank %1 is loaded in full: its lanes are on the timeline").arg(rp.rank()), 5000);
    return;
  }
  const QString path = QFile::decodeName(rp.summary->path.c_str());
  const QString host = QString::fromStdString(rp.summary->host);
  if (!path.isEmpty() && QFileInfo::exists(path) &&
      QProcess::startDetached(QCoreApplication::applicationFilePath(), {path})) {
    statusBar()->showMessage(tr("Opening rank %1 in a new window: %2").arg(rp.rank()).arg(path), 8000);
    return;
  }
  QMessageBox::information(this, tr("Rank %1").arg(rp.rank()),
                           tr("Rank %1's trace is not reachable from this machine. It was summarized on %2 from\n%3\n"
                              "Copy that folder here (or open it on that machine) to see the rank in full.")
                               .arg(rp.rank())
                               .arg(host.isEmpty() ? tr("an unknown machine") : host, path.isEmpty() ? tr("(no path recorded)") : path));
}

}  // namespace npuscope
