// SPDX-License-Identifier: MIT
// MainWindow: the Cluster dock (widgets/panels/cluster_panel.h) and its link with the timeline.
#include <QDockWidget>
#include <QStatusBar>

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
  // Outline the op on every rank, select the focused rank's (its lane scrolls into view) and
  // show that op's time range, as the Advice dock's evidence and a double-click do.
  m_timeline->setHighlightedSlices(ops);
  m_timeline->selectSlice(focus.rank, focus.slice);
  m_timeline->zoomToSelectedSlice();
  statusBar()->showMessage(tr("Collective outlined on %n rank(s)", nullptr, static_cast<int>(ops.size())), 5000);
}

}  // namespace npuscope
