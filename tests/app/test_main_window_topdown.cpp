// SPDX-License-Identifier: MIT
// MainWindow Top-Down wiring: bubble list -> timeline zoom/highlight/chain, timeline gap -> list,
// device task -> chain, the View menu entries and `screenshot --window`.
#include <catch2/catch.hpp>

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "app/main_window.h"
#include "core/query/lod.h"
#include "tests/app/test_helpers.h"
#include "widgets/panels/advice_panel.h"
#include "widgets/panels/chain_panel.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/panels/topdown_panel.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;
namespace core = npuscope::core;

namespace {
const char* const kAdvisor =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";

bool load(MainWindow& window, const QString& path) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  if (!waitUntil([&] { return !finished.isEmpty(); })) return false;
  return finished.first().at(0).toBool();
}
}  // namespace

TEST_CASE("MainWindow: a bubble in the Top-Down list zooms the timeline to it and shows its chain", "[window][topdown]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1500, 950);
  window.show();
  REQUIRE(load(window, sharedPath(kAdvisor)));
  auto* panel = window.topDownPanel();
  REQUIRE(panel);
  REQUIRE(panel->bubbleModel()->rowCount() == 128);
  CHECK(window.topDownDock()->objectName() == QStringLiteral("TopDownDock"));
  CHECK(window.chainDock()->objectName() == QStringLiteral("DispatchChainDock"));
  CHECK_FALSE(window.chainPanel()->hasChain());

  // Click the first row (the longest bubble) in the list.
  QTableView* view = panel->bubbleView();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  if (!window.topDownDock()->isVisible()) window.topDownDock()->show();
  REQUIRE(waitUntil([&] { return view->isVisible(); }, 2000));
  const QModelIndex first = view->model()->index(0, npuscope::widgets::BubbleTableModel::Cause);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());

  const core::Bubble& b = window.profile()->ranks[0].analysis->devices[0].bubbles[0];
  auto* timeline = window.timeline();
  const core::TimeRange v = timeline->viewport()->visibleRange();
  CHECK(v.start == b.range.start - b.range.duration() / 4);
  CHECK(v.end == b.range.end + b.range.duration() / 4);
  CHECK(timeline->selectedBubbleRank() == 0);
  CHECK(timeline->selectedBubbleIndex() == 0);
  CHECK(timeline->selectedRank() == 0);
  CHECK(timeline->selectedSlice() == b.after);  // the task that ends the gap (trans_Cast_0)
  auto* chain = window.chainPanel();
  REQUIRE(chain->hasChain());
  CHECK(chain->rowCount() == 7);
  CHECK(chain->badgeText() == QStringLiteral("ACLOP"));
  CHECK(chain->text(6, npuscope::widgets::ChainPanel::Name) == QStringLiteral("trans_Cast_0"));
  CHECK(timeline->chainRank() == 0);
  CHECK(timeline->chainHighlight().links.size() == 5);

  SECTION("a click in a gap of the device lane selects that bubble in the list") {
    const core::Bubble& b2 = window.profile()->ranks[0].analysis->devices[0].bubbles[2];
    timeline->zoomToBubble(0, 0, 2, 0.25);
    const auto& layout = timeline->layout();
    int hw = -1;
    for (std::size_t i = 0; i < layout.rows().size() && hw < 0; ++i) {
      const auto& r = layout.rows()[i];
      if (r.kind == npuscope::widgets::LayoutRow::Kind::Slices &&
          window.profile()->ranks[0].trace->processes[r.process].role == core::Process::Role::AscendHardware)
        hw = static_cast<int>(i);
    }
    REQUIRE(hw >= 0);
    const auto& r = layout.rows()[static_cast<std::size_t>(hw)];
    timeline->setVerticalScroll(r.y - 20);
    auto* canvas = timeline->canvas();
    const double x = core::timeToX(b2.range.start + b2.range.duration() / 2, timeline->viewport()->visibleRange(),
                                   canvas->width());
    QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(static_cast<int>(x), r.y - timeline->verticalScroll() + 4));
    CHECK(panel->selectedBubble() == std::make_pair(0, 2));
    CHECK(timeline->selectedBubbleIndex() == 2);
    CHECK(chain->text(chain->rowCount() - 1, npuscope::widgets::ChainPanel::Name) ==
          QString::fromStdString(std::string(window.profile()->ranks[0].trace->sliceName(b2.after))));
  }
  SECTION("selecting a device task shows its chain; a host link of it keeps it; another host slice shows its own task's chain") {
    timeline->selectSlice(0, b.before);
    CHECK(chain->text(chain->rowCount() - 1, npuscope::widgets::ChainPanel::Name) ==
          QStringLiteral("aclnnInplaceZero_ZerosLikeAiCore_ZerosLike"));
    CHECK(timeline->chainHighlight().links.back().slice == b.before);
    // A host link of the shown chain (walking it): the chain stays.
    const core::ChainLink* own = timeline->chainHighlight().find(core::ChainLayer::CannApi);
    REQUIRE(own);
    timeline->selectSlice(0, own->slice);
    CHECK(timeline->chainHighlight().links.back().slice == b.before);
    // The torch op of another chain (the bubble's ending task's): never the earlier kernel's chain
    // (issue 42 item 4), but the chain of the first device task that op launched.
    const core::Trace& trace = *window.profile()->ranks[0].trace;
    const auto torchOp = b.chain.find(core::ChainLayer::TorchOp)->slice;
    const std::vector<core::SliceRef> launched = core::tasksLaunchedBy(trace, torchOp);
    REQUIRE_FALSE(launched.empty());
    CHECK(std::find(launched.begin(), launched.end(), b.after) != launched.end());
    timeline->selectSlice(0, torchOp);
    CHECK(timeline->chainHighlight().links.back().slice == launched.front());
    REQUIRE(timeline->chainHighlight().find(core::ChainLayer::TorchOp));
    CHECK(timeline->chainHighlight().find(core::ChainLayer::TorchOp)->slice == torchOp);
    CHECK(chain->contextText().contains(QStringLiteral("launched")));
    // A host slice that launched nothing: the chain is cleared.
    core::SliceRef idle;
    for (std::uint32_t l = 0; l < trace.lanes.size() && !idle.valid(); ++l)
      if (trace.processes[trace.lanes[l].process].role == core::Process::Role::Python)
        for (std::uint32_t i = 0; i < trace.lanes[l].sliceCount() && !idle.valid(); ++i)
          if (core::tasksLaunchedBy(trace, {l, i}).empty()) idle = {l, i};
    REQUIRE(idle.valid());
    timeline->selectSlice(0, idle);
    CHECK_FALSE(chain->hasChain());
    CHECK(timeline->chainHighlight().links.empty());
    timeline->selectSlice(-1, {});
    CHECK_FALSE(chain->hasChain());
    CHECK(timeline->selectedBubbleIndex() == -1);
  }
}

TEST_CASE("MainWindow: View menu toggles the Top-Down and Dispatch Chain docks", "[window][topdown]") {
  MainWindow window;
  auto find = [&](const QString& text) -> QAction* {
    for (QAction* a : window.findChildren<QAction*>()) {
      QString t = a->text();
      t.remove(QLatin1Char('&'));
      if (t == text) return a;
    }
    return nullptr;
  };
  QAction* td = find(QStringLiteral("Top-Down Panel"));
  QAction* ch = find(QStringLiteral("Dispatch Chain Panel"));
  REQUIRE(td);
  REQUIRE(ch);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  const bool before = window.topDownDock()->isVisible();
  td->trigger();
  CHECK(window.topDownDock()->isVisible() == !before);
  td->trigger();
  CHECK(window.topDownDock()->isVisible() == before);
}

TEST_CASE("npuscope screenshot --window renders the main window with a bubble selected", "[cli][topdown]") {
  QTemporaryDir dir;
  const QString out = dir.filePath(QStringLiteral("window.png"));
  QProcess proc;
  proc.setProgram(QStringLiteral(NPUSCOPE_BINARY));
  proc.setArguments({QStringLiteral("screenshot"), sharedPath(kAdvisor), QStringLiteral("--window"),
                     QStringLiteral("--bubble"), QStringLiteral("1"), QStringLiteral("--width"), QStringLiteral("1200"),
                     QStringLiteral("--height"), QStringLiteral("800"), QStringLiteral("-o"), out});
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
  proc.setProcessEnvironment(env);
  proc.start();
  REQUIRE(proc.waitForFinished(120000));
  INFO(proc.readAllStandardError().toStdString());
  CHECK(proc.exitCode() == 0);
  const QImage img(out);
  REQUIRE_FALSE(img.isNull());
  CHECK(img.width() >= 1200);
  CHECK(img.height() >= 800);
}

TEST_CASE("MainWindow: a click on an Advice finding outlines exactly its evidence on the timeline", "[window][advice]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1500, 950);
  window.show();
  REQUIRE(load(window, sharedPath(kAdvisor)));
  auto* panel = window.advicePanel();
  REQUIRE(panel);
  // The AI_CPU finding: two tasks of 188.148 and 139.419 us (tests/core/analysis/test_advisor.cpp).
  int row = -1;
  for (std::size_t i = 0; i < panel->model()->rows().size(); ++i)
    if (panel->model()->rows()[i].finding.rule == "aicpu") row = static_cast<int>(i);
  REQUIRE(row >= 0);
  const auto& f = panel->model()->rows()[static_cast<std::size_t>(row)].finding;
  REQUIRE(f.evidence.size() == 2);
  window.adviceDock()->show();
  window.adviceDock()->raise();
  QTableView* view = panel->view();
  REQUIRE(waitUntil([&] { return view->isVisible(); }, 2000));
  const QModelIndex cell = view->model()->index(row, npuscope::widgets::AdviceModel::Finding);
  view->scrollTo(cell);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
  auto* timeline = window.timeline();
  CHECK(timeline->highlightedSlicesRank() == 0);
  CHECK(timeline->highlightedSlices() == f.evidence);
  CHECK(timeline->selectedSlice() == f.evidence.front());
  // Another finding replaces the set.
  const int other = row == 0 ? 1 : 0;
  panel->selectRow(other);
  CHECK(timeline->highlightedSlices() == panel->model()->rows()[static_cast<std::size_t>(other)].finding.evidence);
}

TEST_CASE("MainWindow: the Advice dock's first row is the collective wait the verdict names, and a click outlines its ops", "[window][advice]") {
  // The 910B Level1 capture: both ranks wait for group rank 5 of HCCL group 586 (not captured):
  // rank 0 101.641 ms, rank 1 96.054 ms (tools/oracles/holder_oracle.py's waits_ns, summed),
  // more than any rank-local issue (the host<->device transfers, 1.776 ms): issue 42 item 4.
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1500, 950);
  window.show();
  REQUIRE(load(window, sharedPath("corpus/ascend-pt-910b-l1-text-2rank")));
  auto* panel = window.advicePanel();
  REQUIRE(panel);
  REQUIRE(panel->model()->rows().size() >= 2);
  const auto& first = panel->model()->rows()[0];
  CHECK(first.finding.rule == "collective_wait");
  CHECK(first.rank == 0);
  CHECK(first.finding.atStakePerStep == Approx(101'640'951).margin(1000));
  CHECK(first.finding.title.find("group rank 5") != std::string::npos);
  CHECK(panel->model()->rows()[1].finding.rule == "collective_wait");
  window.adviceDock()->show();
  window.adviceDock()->raise();
  QTableView* view = panel->view();
  REQUIRE(waitUntil([&] { return view->isVisible(); }, 2000));
  const QModelIndex cell = view->model()->index(0, npuscope::widgets::AdviceModel::Finding);
  view->scrollTo(cell);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
  auto* timeline = window.timeline();
  CHECK(timeline->highlightedSlicesRank() == 0);
  CHECK(timeline->highlightedSlices() == first.finding.evidence);
  REQUIRE_FALSE(first.finding.evidence.empty());
  // The longest wait's op first: allReduce #0 (78.771 ms of rank 0's wait).
  CHECK(timeline->selectedSlice() == first.finding.evidence.front());
}
