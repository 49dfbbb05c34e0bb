// SPDX-License-Identifier: MIT
// MainWindow: the Top-Down and Dispatch-chain docks and their links with the timeline.
#include <QDockWidget>
#include <QScrollArea>
#include <algorithm>
#include <QMenu>
#include <QSettings>
#include <QTimer>
#include <QStatusBar>

#include "app/main_window.h"
#include "core/base/time_format.h"
#include "widgets/analysis_labels.h"
#include "widgets/panels/chain_panel.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/panels/topdown_panel.h"

namespace npuscope {

namespace {
const core::Trace* traceOf(const std::shared_ptr<const core::Profile>& p, int rank) {
  if (!p || rank < 0 || static_cast<std::size_t>(rank) >= p->ranks.size()) return nullptr;
  return p->ranks[static_cast<std::size_t>(rank)].trace.get();
}
}  // namespace

QWidget* MainWindow::shrinkable(QWidget* panel) {
  auto* area = new QScrollArea(this);
  area->setFrameShape(QFrame::NoFrame);
  area->setWidgetResizable(true);
  area->setWidget(panel);
  area->setMinimumHeight(60);
  return area;
}

void MainWindow::createTopDownDocks() {
  m_topDown = new widgets::TopDownPanel(this);
  m_topDownDock = new QDockWidget(tr("Top-Down"), this);
  m_topDownDock->setObjectName(QStringLiteral("TopDownDock"));
  m_topDownDock->setWidget(shrinkable(m_topDown));
  addDockWidget(Qt::BottomDockWidgetArea, m_topDownDock);
  resizeDocks({m_topDownDock}, {300}, Qt::Vertical);

  m_chain = new widgets::ChainPanel(this);
  m_chainDock = new QDockWidget(tr("Dispatch Chain"), this);
  m_chainDock->setObjectName(QStringLiteral("DispatchChainDock"));
  m_chainDock->setWidget(m_chain);
  m_chainDock->setAllowedAreas(Qt::AllDockWidgetAreas);
  addDockWidget(Qt::RightDockWidgetArea, m_chainDock);
  splitDockWidget(m_detailsDock, m_chainDock, Qt::Vertical);
  resizeDocks({m_detailsDock}, {500}, Qt::Horizontal);  // room for the chain's slice names

  // First run (no saved layout): once every dock exists, share the bottom area with the other
  // bottom docks as tabs, Top-Down in front. A saved layout (restoreState) wins otherwise.
  if (!QSettings().contains(QStringLiteral("window/state"))) {
    QTimer::singleShot(0, this, [this] {
      for (QDockWidget* d : findChildren<QDockWidget*>()) {
        if (d == m_topDownDock || dockWidgetArea(d) != Qt::BottomDockWidgetArea || d->isFloating()) continue;
        if (!tabifiedDockWidgets(m_topDownDock).contains(d)) tabifyDockWidget(m_topDownDock, d);
      }
      m_topDownDock->raise();
      // At most a third of the window, so the timeline keeps the device lanes in view.
      resizeDocks({m_topDownDock}, {std::min(330, height() / 3)}, Qt::Vertical);
    });
  }

  connect(m_topDown, &widgets::TopDownPanel::bubbleActivated, this,
          [this](widgets::BubbleRef b) { activateBubble(b.rank, b.device, b.bubble); });
  connect(m_timeline, &widgets::TimelineWidget::bubbleClicked, this,
          [this](widgets::BubbleRef b) { onTimelineBubbleClicked(b.rank, b.device, b.bubble); });
  // The evidence of a bubble's cause: select it, keep it in view, keep the bubble's chain shown.
  connect(m_topDown, &widgets::TopDownPanel::evidenceActivated, this,
          [this](widgets::RankSliceRef r) { onChainLinkActivated(r.rank, r.slice); });
  // A step row of the shares table: the range its figures measure (the E2E span, so the
  // selection's duration is the row's E2E) becomes the time selection, shown with a little
  // context; the "Whole capture" row or "All steps" clears the selection.
  connect(m_topDown, &widgets::TopDownPanel::stepActivated, this,
          [this](int, long long step, core::TimeRange window) {
            if (step < 0 || window.empty()) {
              m_timeline->viewport()->clearSelection();
              return;
            }
            m_timeline->viewport()->setSelection(window);
            const core::TimeNs margin = std::max<core::TimeNs>(window.duration() / 20, 1000);
            m_timeline->setVisibleRange({window.start - margin, window.end + margin});
            statusBar()->showMessage(tr("Step %1: its E2E span selected (%2)")
                                         .arg(step)
                                         .arg(QString::fromStdString(core::formatDuration(window.duration()))),
                                     5000);
          });
  connect(m_chain, &widgets::ChainPanel::linkActivated, this,
          [this](widgets::RankSliceRef r) { onChainLinkActivated(r.rank, r.slice); });
}

void MainWindow::addTopDownMenuEntries(QMenu* view) {
  QAction* topDown = m_topDownDock->toggleViewAction();
  topDown->setText(tr("&Top-Down Panel"));
  topDown->setStatusTip(tr("Overlap shares, verdict and the ranked device bubbles"));
  view->addAction(topDown);
  QAction* chain = m_chainDock->toggleViewAction();
  chain->setText(tr("Dispatch &Chain Panel"));
  chain->setStatusTip(tr("The dispatch chain (Python API → device task) of the selected device task or bubble"));
  view->addAction(chain);
}

void MainWindow::showTopDownProfile() {
  m_topDown->setProfile(m_profile);
  m_chain->clearChain();
  m_timeline->clearChainHighlight();
  m_timeline->setSelectedBubble(-1, -1, -1);
}

bool MainWindow::activateBubble(int rankIndex, int deviceIndex, int bubbleIndex) {
  const core::Bubble* b = m_timeline->bubble(rankIndex, deviceIndex, bubbleIndex);
  if (!b) return false;
  m_topDown->selectBubble(rankIndex, deviceIndex, bubbleIndex);
  // Select the task that ends the gap (details + vertical scroll); its chain is the bubble's.
  if (b->after.valid())
    m_timeline->selectSlice(rankIndex, b->after);
  else
    m_timeline->selectSlice(-1, {});
  m_timeline->setSelectedBubble(rankIndex, deviceIndex, bubbleIndex);
  showBubbleChain(rankIndex, deviceIndex, bubbleIndex);
  m_timeline->zoomToBubble(rankIndex, deviceIndex, bubbleIndex, 0.25);
  return true;
}

void MainWindow::onTimelineBubbleClicked(int rankIndex, int deviceIndex, int bubbleIndex) {
  if (!m_timeline->bubble(rankIndex, deviceIndex, bubbleIndex)) return;
  m_topDown->selectBubble(rankIndex, deviceIndex, bubbleIndex);
  m_timeline->setSelectedBubble(rankIndex, deviceIndex, bubbleIndex);
  showBubbleChain(rankIndex, deviceIndex, bubbleIndex);
}

void MainWindow::showBubbleChain(int rankIndex, int deviceIndex, int bubbleIndex) {
  const core::Bubble* b = m_timeline->bubble(rankIndex, deviceIndex, bubbleIndex);
  if (!b) return;
  const QString launched = b->launched == core::LaunchTiming::AfterGapStart
                               ? tr("launched after the device went idle: the device waited for the host")
                           : b->launched == core::LaunchTiming::BeforeGapStart
                               ? tr("launched before the device went idle: it was queued, the device held it")
                               : tr("launch time not recorded");
  const QString context = tr("Ends bubble #%1: %2 idle, %3; %4")
                              .arg(bubbleIndex + 1)
                              .arg(QString::fromStdString(core::formatDuration(b->range.duration())),
                                   widgets::bubbleCauseText(b->cause), launched);
  m_chain->setChain(m_profile, rankIndex, b->chain, context);
  m_timeline->setChainHighlight(rankIndex, b->chain);
}

void MainWindow::showChainForSlice(int rankIndex, core::SliceRef ref) {
  const core::Trace* trace = traceOf(m_profile, rankIndex);
  if (!trace || !ref.valid()) {
    // Selection cleared: drop the chain and the bubble (a click in a gap selects it again).
    m_chain->clearChain();
    m_timeline->clearChainHighlight();
    m_timeline->setSelectedBubble(-1, -1, -1);
    m_topDown->selectBubble(-1, -1, -1);
    return;
  }
  const core::Process& proc = trace->processes[trace->lanes[ref.lane].process];
  QString context;
  if (proc.role != core::Process::Role::AscendHardware && proc.role != core::Process::Role::KinetoDevice) {
    // A host slice: one of the shown chain's links keeps the chain (walking it); any other shows
    // the chain of the first device task it launched, or none (issue 42 item 4: an earlier
    // kernel's chain stayed beside an unrelated host slice picked in the Dispatch or Advice dock).
    if (m_chain->rankIndex() == rankIndex)
      for (const core::ChainLink& l : m_chain->chain().links)
        if (l.slice == ref) return;
    const std::vector<core::SliceRef> tasks = core::tasksLaunchedBy(*trace, ref);
    if (tasks.empty()) {
      m_chain->clearChain();
      m_timeline->clearChainHighlight();
      return;
    }
    context = tasks.size() >= 64 ? tr("%1 launched 64 or more device tasks; the chain of the first")
                                       .arg(QString::fromStdString(std::string(trace->sliceName(ref))))
                                 : tr("%1 launched %n device task(s); the chain of the first", nullptr, static_cast<int>(tasks.size()))
                                       .arg(QString::fromStdString(std::string(trace->sliceName(ref))));
    ref = tasks.front();
  }
  const core::Process& taskProc = trace->processes[trace->lanes[ref.lane].process];
  core::DispatchChain chain = core::dispatchChain(*trace, ref);
  // The rank's clock skew bound (computed by the analysis) corrects the latency.
  if (const core::RankAnalysis* a = m_profile->ranks[static_cast<std::size_t>(rankIndex)].analysis.get())
    for (const core::DeviceAnalysis& d : a->devices)
      if (d.device == taskProc.deviceId) core::applySkew(chain, d.skew);
  m_chain->setChain(m_profile, rankIndex, chain, context);
  m_timeline->setChainHighlight(rankIndex, chain);
}

void MainWindow::onChainLinkActivated(int rankIndex, core::SliceRef ref) {
  const core::Trace* trace = traceOf(m_profile, rankIndex);
  if (!trace || !ref.valid()) return;
  const core::DispatchChain keep = m_chain->chain();
  const QString keepContext;  // the context line is dropped when the task itself is re-selected
  m_timeline->selectSlice(rankIndex, ref);
  // Keep the slice in view: pan to centre it when it fits, else zoom to it.
  const core::TimeRange r = trace->sliceRange(ref);
  const core::TimeRange v = m_timeline->viewport()->visibleRange();
  if (r.duration() * 10 > v.duration() * 9) {
    m_timeline->zoomToSelectedSlice();
  } else if (r.start < v.start || r.end > v.end) {
    const core::TimeNs mid = r.start + r.duration() / 2;
    m_timeline->setVisibleRange({mid - v.duration() / 2, mid - v.duration() / 2 + v.duration()});
  }
  // Selecting a host link must not drop the chain that is being walked.
  if (!m_chain->hasChain() && !keep.links.empty()) {
    m_chain->setChain(m_profile, rankIndex, keep, keepContext);
    m_timeline->setChainHighlight(rankIndex, keep);
  }
}

}  // namespace npuscope
