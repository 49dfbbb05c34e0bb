// SPDX-License-Identifier: MIT
// MainWindow: File > Compare With… — a second capture (B) loaded beside the open one (A), its
// timeline stacked under A's, aligned (step start, selected slices, capture starts) with zoom and
// scroll linked, and the Compare dock listing core::compareProfiles' deltas.
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>

#include "app/main_window.h"
#include "app/trace_loader.h"
#include "core/report/compare.h"
#include "widgets/panels/compare_panel.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

namespace npuscope {

void MainWindow::createCompare() {
  m_timelineB = new widgets::TimelineWidget(m_timelineSplit);
  m_timelineB->setObjectName(QStringLiteral("CompareTimeline"));
  m_timelineB->setDeviceFirst(true);
  m_timelineSplit->addWidget(m_timelineB);
  m_timelineB->hide();
  m_compareLoader = new TraceLoader(this);
  connect(m_compareLoader, &TraceLoader::loaded, this,
          [this](const QString& path, std::shared_ptr<const core::Profile> profile, qint64) { onCompareLoaded(path, std::move(profile)); });
  connect(m_compareLoader, &TraceLoader::failed, this, [this](const QString& path, const QString& error) {
    statusBar()->showMessage(tr("Could not load %1 to compare: %2").arg(path, error), 10000);
    emit compareFinished(false);
  });
  m_comparePanel = new widgets::ComparePanel(this);
  m_compareDock = addViewDock(shrinkable(m_comparePanel), tr("Compare"), QStringLiteral("CompareDock"));
  m_compareDock->toggleViewAction()->setText(tr("Co&mpare Panel"));
  m_compareDock->hide();
  connect(m_comparePanel, &widgets::ComparePanel::alignChanged, this, [this](widgets::ComparePanel::Align) { alignCompare(); });
  connect(m_comparePanel, &widgets::ComparePanel::operatorSelected, this, [this](int rank, const QString& key) {
    // The operator's kernels outlined on both timelines, rank by rank id.
    for (int side = 0; side < 2; ++side) {
      const auto& profile = side == 0 ? m_profile : m_profileB;
      widgets::TimelineWidget* timeline = side == 0 ? m_timeline : m_timelineB;
      if (!profile) continue;
      for (std::size_t i = 0; i < profile->ranks.size(); ++i)
        if (profile->ranks[i].rank() == rank) {
          const auto slices = core::slicesOfKernelKey(profile->ranks[i], key.toStdString());
          timeline->setHighlightedSlices(static_cast<int>(i), slices);
          if (!slices.empty()) timeline->selectSlice(static_cast<int>(i), slices.front());
        }
    }
  });
  // Linked zoom and scroll: each follows the other through the alignment offset.
  connect(m_timeline, &widgets::TimelineWidget::visibleRangeChanged, this, [this](core::TimeRange r) {
    if (m_linking || !m_profileB || !m_timelineB->isVisible()) return;
    m_linking = true;
    m_timelineB->setVisibleRange({r.start + m_compareOffset, r.end + m_compareOffset});
    m_linking = false;
  });
  connect(m_timelineB, &widgets::TimelineWidget::visibleRangeChanged, this, [this](core::TimeRange r) {
    // Not while the lower pane is emptied (Close Comparison): its empty range would drag the
    // main view off its capture (issue 42 item 1c).
    if (m_linking || !m_profile || !m_profileB) return;
    m_linking = true;
    m_timeline->setVisibleRange({r.start - m_compareOffset, r.end - m_compareOffset});
    m_linking = false;
  });
  // Linked vertical scroll, by rank: the rank at the top of one pane (and how far into it) is
  // put at the top of the other, the same rank id (the panes' lanes differ, e.g. Level0 against
  // Level1; issue 42 item 1d: they scrolled on their own).
  const auto followScroll = [this](widgets::TimelineWidget* from, widgets::TimelineWidget* to, const core::Profile* pf,
                                   const core::Profile* pt) {
    if (m_linking || !pf || !pt || !to->isVisible()) return;
    const auto [index, into] = from->rankAtTop();
    const int rankId = index >= 0 && static_cast<std::size_t>(index) < pf->ranks.size() ? pf->ranks[static_cast<std::size_t>(index)].rank() : -1;
    int target = into;
    for (const auto& [rank, y] : to->rankHeaders())
      if (rank >= 0 && static_cast<std::size_t>(rank) < pt->ranks.size() && pt->ranks[static_cast<std::size_t>(rank)].rank() == rankId) {
        target = y + into;
        break;
      }
    m_linking = true;
    to->setVerticalScroll(target);
    m_linking = false;
  };
  connect(m_timeline, &widgets::TimelineWidget::verticalScrollChanged, this, [this, followScroll](int) {
    if (m_profileB) followScroll(m_timeline, m_timelineB, m_profile.get(), m_profileB.get());
  });
  connect(m_timelineB, &widgets::TimelineWidget::verticalScrollChanged, this, [this, followScroll](int) {
    if (m_profileB) followScroll(m_timelineB, m_timeline, m_profileB.get(), m_profile.get());
  });
  m_compareAction = new QAction(tr("Compare &With…"), this);
  m_compareAction->setStatusTip(tr("Open a second capture under this one, aligned, with the differences listed"));
  connect(m_compareAction, &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Capture to compare with"), m_path);
    if (!dir.isEmpty()) compareWith(dir);
  });
  m_closeCompareAction = new QAction(tr("Close Comparison"), this);
  connect(m_closeCompareAction, &QAction::triggered, this, &MainWindow::closeCompare);
  m_compareAction->setEnabled(m_profile != nullptr);
  m_closeCompareAction->setEnabled(false);
  if (QMenu* file = menuBar()->findChild<QMenu*>(QStringLiteral("FileMenu"))) {
    // Before Quit, after Export.
    file->insertAction(m_quitAction, m_compareAction);
    file->insertAction(m_quitAction, m_closeCompareAction);
    file->insertSeparator(m_quitAction);
  }
}

void MainWindow::compareWith(const QString& path) {
  if (!m_profile) {
    emit compareFinished(false);
    return;
  }
  statusBar()->showMessage(tr("Loading %1 to compare…").arg(path));
  m_compareLoader->load(path);
}

void MainWindow::onCompareLoaded(const QString& path, std::shared_ptr<const core::Profile> profile) {
  m_profileB = std::move(profile);
  m_pathB = path;
  m_timelineB->setProfile(m_profileB);
  m_timelineB->show();
  m_timelineSplit->setSizes({1, 1});
  m_comparePanel->setResult(core::compareProfiles(*m_profile, *m_profileB));
  m_compareDock->show();
  m_compareDock->raise();
  m_closeCompareAction->setEnabled(true);
  alignCompare();
  statusBar()->showMessage(tr("Comparing with %1 (below)").arg(path), 5000);
  emit compareFinished(true);
}

namespace {

/// The device start of the first step of the first rank of `p` with one (else the capture start).
std::optional<core::TimeNs> firstStepStart(const core::Profile& p, int rankId) {
  for (const core::RankProfile& r : p.ranks) {
    if (r.rank() != rankId || !r.analysis) continue;
    for (const core::DeviceAnalysis& d : r.analysis->devices)
      if (!d.steps.empty() && d.steps.front().step >= 0) return d.steps.front().window.start;
  }
  return std::nullopt;
}

}  // namespace

void MainWindow::alignCompare() {
  if (!m_profile || !m_profileB) return;
  core::TimeNs offset = m_profileB->range().start - m_profile->range().start;
  switch (m_comparePanel->align()) {
    case widgets::ComparePanel::Align::StepStart: {
      // The first rank id both sides hold with a step.
      for (const core::RankProfile& r : m_profile->ranks) {
        const auto a = firstStepStart(*m_profile, r.rank());
        const auto b = firstStepStart(*m_profileB, r.rank());
        if (a && b) {
          offset = *b - *a;
          break;
        }
      }
      break;
    }
    case widgets::ComparePanel::Align::Selection: {
      const core::SliceRef sa = m_timeline->selectedSlice(), sb = m_timelineB->selectedSlice();
      const int ra = m_timeline->selectedRank(), rb = m_timelineB->selectedRank();
      if (!sa.valid() || !sb.valid() || ra < 0 || rb < 0) {
        statusBar()->showMessage(tr("Select a slice on each timeline to align them on it"), 5000);
        return;
      }
      offset = m_profileB->ranks[static_cast<std::size_t>(rb)].trace->sliceRange(sb).start -
               m_profile->ranks[static_cast<std::size_t>(ra)].trace->sliceRange(sa).start;
      break;
    }
    case widgets::ComparePanel::Align::None: break;
  }
  m_compareOffset = offset;
  const core::TimeRange r = m_timeline->viewport()->visibleRange();
  m_linking = true;
  m_timelineB->setVisibleRange({r.start + offset, r.end + offset});
  m_linking = false;
}

void MainWindow::closeCompare() {
  m_profileB.reset();
  m_pathB.clear();
  m_linking = true;  // the pane's reset range must not reach the main view
  m_timelineB->setProfile(nullptr);
  m_linking = false;
  m_timelineB->hide();
  m_compareDock->hide();
  m_closeCompareAction->setEnabled(false);
}

}  // namespace npuscope
