// SPDX-License-Identifier: MIT
// MainWindow and the shared view state: a dock bound to it with one line, the timeline
// publishing to it, the requests routed to the Top-Down handlers.
#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

#include "app/main_window.h"
#include "tests/app/test_helpers.h"
#include "widgets/panels/chain_panel.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/view_state.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;
using npuscope::widgets::BubbleRef;
using npuscope::widgets::RankSliceRef;
using npuscope::widgets::ViewState;

namespace {

bool loadAndWait(MainWindow& window, const QString& path) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  if (!waitUntil([&] { return !finished.isEmpty(); })) return false;
  return finished.first().at(0).toBool();
}

// The smallest dock a new panel needs: it shows the selected slice's rank, from the view state.
class RankLabel : public QLabel {
 public:
  explicit RankLabel(ViewState* state) {
    connect(state, &ViewState::selectedSliceChanged, this,
            [this](RankSliceRef r) { setText(QString::number(r.rank)); });
  }
};

}  // namespace

TEST_CASE("MainWindow shares one view state between the timeline and the docks", "[window][view_state]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  ViewState* state = window.viewState();
  REQUIRE(state);
  auto* label = new RankLabel(state);
  QDockWidget* dock = window.addViewDock(label, QStringLiteral("Rank Probe"), QStringLiteral("RankProbeDock"));
  CHECK(dock->objectName() == QStringLiteral("RankProbeDock"));
  QMenu* view = window.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
  REQUIRE(view);
  CHECK(view->actions().contains(dock->toggleViewAction()));

  REQUIRE(loadAndWait(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  CHECK(state->profile() == window.profile());
  CHECK(state->visibleRange() == window.timeline()->viewport()->visibleRange());

  // Bubble #1 of rank 0 (the Top-Down list's first row): the timeline marks it, the state has it,
  // and the dock sees the slice that ends it (rank 0).
  REQUIRE(window.activateBubble(0, 0, 0));
  CHECK(state->selectedBubble() == BubbleRef{0, 0, 0});
  CHECK(state->selectedSlice() == window.timeline()->selection());
  CHECK(state->selectedSlice().rank == 0);
  CHECK(label->text() == QStringLiteral("0"));

  // A dock's request goes where a Dispatch Chain click goes: the slice is selected, the bubble's
  // chain stays shown.
  const auto chainLinks = window.chainPanel()->chain().links.size();
  REQUIRE(chainLinks >= 2);
  const RankSliceRef first{0, window.chainPanel()->chain().links.front().slice};
  state->activateSlice(first);
  CHECK(window.timeline()->selection() == first);
  CHECK(state->selectedSlice() == first);
  CHECK(window.chainPanel()->chain().links.size() == chainLinks);

  // A request for a bubble does what a click in the bubble list does.
  state->activateBubble({0, 0, 1});
  CHECK(window.timeline()->selectedBubble() == BubbleRef{0, 0, 1});
}
