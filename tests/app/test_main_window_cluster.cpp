// SPDX-License-Identifier: MIT
// The Cluster dock in the main window: docked at the bottom with a View-menu toggle, and a click
// on a collective outlines its op on every rank, selects the clicked rank's and zooms to it.
#include <catch2/catch.hpp>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <set>
#include <string_view>
#include <QMenu>
#include <QMenuBar>
#include <QHeaderView>
#include <QApplication>
#include <QInputDialog>
#include <QTimer>
#include <QSignalSpy>

#include "app/main_window.h"
#include "tests/app/test_helpers.h"
#include "widgets/panels/cluster_panel.h"
#include "widgets/panels/advice_panel.h"
#include "widgets/panels/stats_view.h"
#include "widgets/panels/compare_panel.h"
#include <QTableWidget>
#include "widgets/panels/stats_table_model.h"
#include <QItemSelectionModel>
#include <QTableView>
#include <QSortFilterProxyModel>
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;

namespace {
/// Shows `window` at 1400 x 900, opens the 910B Level1 two-rank capture and raises the Cluster
/// dock; false when the load fails or times out.
bool openTwoRankWithClusterDock(MainWindow& window) {
  window.setInteractiveErrors(false);
  window.resize(1400, 900);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  if (!waitUntil([&] { return !finished.isEmpty() && finished.first().at(0).toBool(); })) return false;
  window.clusterDock()->show();
  window.clusterDock()->raise();
  return true;
}
}  // namespace

TEST_CASE("the Cluster dock shows a collective on every rank", "[window][cluster]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  REQUIRE(finished.first().at(0).toBool());

  QDockWidget* dock = window.clusterDock();
  REQUIRE(dock);
  CHECK(dock->objectName() == QStringLiteral("ClusterDock"));
  CHECK(window.dockWidgetArea(dock) == Qt::BottomDockWidgetArea);
  auto* view = window.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
  REQUIRE(view);
  CHECK(view->actions().contains(dock->toggleViewAction()));
  REQUIRE(window.clusterPanel()->showsTables());

  // allReduce #0 on rank 1's cell: both ranks' op outlined, rank 1's selected and in view.
  const auto profile = window.profile();
  int r1 = -1;
  for (std::size_t i = 0; i < profile->ranks.size(); ++i)
    if (profile->ranks[i].rank() == 1) r1 = static_cast<int>(i);
  REQUIRE(window.clusterPanel()->selectCollective(0, r1));
  auto* timeline = window.timeline();
  CHECK(timeline->selectedRank() == r1);
  const auto& trace = *profile->ranks[static_cast<std::size_t>(r1)].trace;
  CHECK(trace.sliceName(timeline->selectedSlice()) == "hcom_allReduce__586_0_1");
  const npuscope::core::TimeRange op = trace.sliceRange(timeline->selectedSlice());
  const npuscope::core::TimeRange visible = timeline->viewport()->visibleRange();
  CHECK(visible.start <= op.start);
  CHECK(visible.end >= op.end);
  CHECK(visible.duration() < op.duration() * 2);
  for (std::size_t i = 0; i < profile->ranks.size(); ++i) {
    bool outlined = false;
    const auto& t = *profile->ranks[i].trace;
    for (std::uint32_t l = 0; l < t.lanes.size() && !outlined; ++l)
      for (std::uint32_t k = 0; k < t.lanes[l].sliceCount() && !outlined; ++k)
        outlined = timeline->isInHighlightedSlices(static_cast<int>(i), {l, k});
    CHECK(outlined);
  }
}

TEST_CASE("a click on a collective's row header acts as on its cells: the last rank to arrive is shown", "[window][cluster]") {
  // Issue 42 item 2: the row header did nothing. allReduce #0 of the 910B Level1 capture: rank 1
  // starts 5,607.7 us after rank 0 (issue 40's hand count), so rank 1's op is shown.
  MainWindow window;
  REQUIRE(openTwoRankWithClusterDock(window));
  QTableView* table = window.clusterPanel()->collectiveView();
  REQUIRE(waitUntil([&] { return table->isVisible(); }, 2000));
  QHeaderView* header = table->verticalHeader();
  REQUIRE(header->count() >= 1);
  auto* timeline = window.timeline();
  CHECK_FALSE(timeline->selectedSlice().valid());
  const int row0 = table->model()->index(0, 0).row();
  const QPoint at(header->width() / 2, header->sectionViewportPosition(row0) + header->sectionSize(row0) / 2);
  QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
  const auto profile = window.profile();
  REQUIRE(timeline->selectedRank() >= 0);
  CHECK(profile->ranks[static_cast<std::size_t>(timeline->selectedRank())].rank() == 1);
  const auto& trace = *profile->ranks[static_cast<std::size_t>(timeline->selectedRank())].trace;
  CHECK(trace.sliceName(timeline->selectedSlice()) == "hcom_allReduce__586_0_1");
}

TEST_CASE("a decision-tree finding selects its kernels in the Stats view", "[window][operators]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  REQUIRE(finished.first().at(0).toBool());
  const auto& rows = window.advicePanel()->model()->rows();
  int row = -1;
  for (std::size_t i = 0; i < rows.size() && row < 0; ++i) {
    const auto& f = rows[i].finding;
    if (f.rule != "operator_tree" || f.evidence.empty()) continue;
    const auto& t = *window.profile()->ranks[static_cast<std::size_t>(rows[i].rank)].trace;
    if (t.processes[t.lanes[f.evidence.front().lane].process].role == npuscope::core::Process::Role::AscendHardware)
      row = static_cast<int>(i);  // a kernel branch (the .item() branch's evidence is on the host)
  }
  REQUIRE(row >= 0);
  window.advicePanel()->selectRow(row);
  const auto& finding = rows[static_cast<std::size_t>(row)].finding;
  const auto& trace = *window.profile()->ranks[static_cast<std::size_t>(rows[static_cast<std::size_t>(row)].rank)].trace;
  const QString kernel = QString::fromStdString(std::string(trace.sliceName(finding.evidence.front())));
  // The finding's longest kernel: outlined and selected on the timeline, its row in the Stats view.
  CHECK(window.timeline()->selectedSlice() == finding.evidence.front());
  auto* stats = window.statsView();
  CHECK(stats->layer() == npuscope::core::StatsLayer::Kernels);
  const auto selected = stats->tableView()->selectionModel()->selectedRows(0);
  REQUIRE(selected.size() == 1);
  CHECK(selected.front().data(npuscope::widgets::StatsTableModel::NameRole).toString() == kernel);
}

TEST_CASE("File > Compare With stacks the second capture, aligned and linked, with the deltas", "[window][compare]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(sharedPath("corpus/ascend-pt-910b-l0-text-2rank"));
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  REQUIRE(finished.first().at(0).toBool());
  QSignalSpy compared(&window, &MainWindow::compareFinished);
  window.compareWith(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(waitUntil([&] { return !compared.isEmpty(); }));
  REQUIRE(compared.first().at(0).toBool());
  REQUIRE(window.compareProfile());
  CHECK(window.compareTimeline()->isVisible());
  CHECK(window.compareDock()->isVisible());
  // Aligned on the first step's device start: rank 0's step 50 of each side (report --json of
  // each capture: steps[0].start_ns).
  const auto stepStart = [](const npuscope::core::Profile& p) {
    for (const auto& r : p.ranks)
      if (r.rank() == 0) return r.analysis->devices.front().steps.front().window.start;
    return npuscope::core::TimeNs{0};
  };
  const npuscope::core::TimeNs offset = stepStart(*window.compareProfile()) - stepStart(*window.profile());
  CHECK(window.compareOffset() == offset);
  // Zoom on A: B follows at the same aligned moment.
  const npuscope::core::TimeRange a{stepStart(*window.profile()), stepStart(*window.profile()) + 5'000'000};
  window.timeline()->setVisibleRange(a);
  const npuscope::core::TimeRange b = window.compareTimeline()->viewport()->visibleRange();
  CHECK(b.start == a.start + offset);
  CHECK(b.end == a.end + offset);
  // The table: rank 0's hcom_allReduce_ row (kernel_details.csv by hand: 4 ops on each side)
  // outlines the allReduce kernels on both timelines.
  auto* table = window.comparePanel()->table();
  int row = -1;
  for (int r = 0; r < table->rowCount() && row < 0; ++r)
    if (table->item(r, 2)->text() == QStringLiteral("hcom_allReduce_") && table->item(r, 0)->text() == QStringLiteral("0")) row = r;
  REQUIRE(row >= 0);
  CHECK(table->item(row, 6)->text() == QStringLiteral("4 / 4"));
  // The bubble causes carry the Top-Down's names, never the JSON keys (issue 42 item 1d).
  int causes = 0;
  for (int r = 0; r < table->rowCount(); ++r)
    if (table->item(r, 1)->text() == QStringLiteral("Bubbles")) {
      ++causes;
      CHECK_FALSE(table->item(r, 2)->text().contains(QLatin1Char('_')));
      // A is Level0 (profiler_info: no CANN layer), B Level1: the causes are listed, marked, not ranked.
      CHECK(table->item(r, 2)->text().endsWith(QStringLiteral("(not comparable)")));
      CHECK(table->item(r, 2)->toolTip().contains(QStringLiteral("A is Level0")));
    }
  CHECK(causes > 0);
  // The dock says what the CLI says: Level0 on one side, kernels compared by name.
  CHECK(window.comparePanel()->verdictText().contains(QStringLiteral("kernels are compared by name")));
  CHECK(window.comparePanel()->verdictText().contains(QStringLiteral("bubble causes are not compared")));
  table->selectRow(row);
  for (auto* timeline : {window.timeline(), window.compareTimeline()}) {
    const auto slice = timeline->selectedSlice();
    REQUIRE(slice.valid());
    const auto& p = timeline == window.timeline() ? *window.profile() : *window.compareProfile();
    CHECK(p.ranks[static_cast<std::size_t>(timeline->selectedRank())].trace->sliceName(slice).starts_with("hcom_allReduce_"));
  }
  // Vertical scroll follows by rank (issue 42 item 1d): rank 1's header 10 px into it on A puts
  // rank 1's header 10 px into it on B, although the panes' lanes differ (Level0 / Level1).
  const auto rankTop = [](const npuscope::widgets::TimelineWidget& t, const npuscope::core::Profile& p, int id) {
    for (const auto& r : t.layout().rows())
      if (r.kind == npuscope::widgets::LayoutRow::Kind::Rank && p.ranks[static_cast<std::size_t>(r.rank)].rank() == id) return r.y;
    return -1;
  };
  const int topA = rankTop(*window.timeline(), *window.profile(), 1), topB = rankTop(*window.compareTimeline(), *window.compareProfile(), 1);
  REQUIRE(topA > 0);
  REQUIRE(topB > 0);
  window.timeline()->setVerticalScroll(topA + 10);
  if (window.timeline()->verticalScroll() == topA + 10) CHECK(window.compareTimeline()->verticalScroll() == topB + 10);
  // And back from B with the wheel (rows, over the lanes).
  window.compareTimeline()->setVerticalScroll(0);
  CHECK(window.timeline()->verticalScroll() == 0);
  // Ctrl+0 (with the focus in the lower pane, as after a click there) fits the capture and keeps
  // both panes on one scale, aligned (issue 42 item 1b).
  window.compareTimeline()->setFocus();
  QTest::keyClick(window.compareTimeline(), Qt::Key_0, Qt::ControlModifier);
  QApplication::processEvents();
  const npuscope::core::TimeRange fa = window.timeline()->viewport()->visibleRange();
  const npuscope::core::TimeRange fb = window.compareTimeline()->viewport()->visibleRange();
  CHECK(fb.start == fa.start + window.compareOffset());
  CHECK(fb.end == fa.end + window.compareOffset());
  CHECK(fa.start <= window.profile()->range().start);
  CHECK(fa.end >= window.profile()->range().end);
  // Close Comparison leaves the main view on its capture (issue 42 item 1c: it was left at 100 ns
  // before the capture's start), twice in a row.
  for (int round = 0; round < 2; ++round) {
    window.closeCompare();
    QApplication::processEvents();
    CHECK_FALSE(window.compareTimeline()->isVisible());
    const npuscope::core::TimeRange v = window.timeline()->viewport()->visibleRange();
    INFO("round " << round << ": " << v.start << ".." << v.end << " of " << window.profile()->range().start << ".."
                  << window.profile()->range().end);
    CHECK(v.duration() > 1'000'000);
    CHECK(v.end > window.profile()->range().start);
    CHECK(v.start < window.profile()->range().end);
    if (round == 0) {
      QSignalSpy again(&window, &MainWindow::compareFinished);
      window.compareWith(sharedPath("corpus/ascend-pt-910b-l1-text-2rank"));
      REQUIRE(waitUntil([&] { return !again.isEmpty(); }));
    }
  }
}

namespace {

/// The distinct (rank, lane) pairs of the timeline's slice rows.
std::set<std::pair<int, std::uint32_t>> laidOutLanes(const npuscope::widgets::TimelineWidget& t) {
  std::set<std::pair<int, std::uint32_t>> lanes;
  for (const auto& row : t.layout().rows())
    if (row.kind == npuscope::widgets::LayoutRow::Kind::Slices) lanes.insert({row.rank, row.lane});
  return lanes;
}

/// The first slice named `name` in `t`, or an invalid ref.
npuscope::core::SliceRef findSliceInTrace(const npuscope::core::Trace& t, std::string_view name) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.sliceName({l, i}) == name) return {l, i};
  return {};
}

/// A mouse click on `index` of `view` (a proxy index), as a user clicks.
void clickCell(QTableView* view, const QModelIndex& index) {
  view->scrollTo(index);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
}

}  // namespace

TEST_CASE("a click on a collective lays out only the lanes holding it on every rank, and Show All Lanes restores them",
          "[window][cluster]") {
  MainWindow window;
  REQUIRE(openTwoRankWithClusterDock(window));
  auto* timeline = window.timeline();
  const std::size_t allLanes = laidOutLanes(*timeline).size();
  REQUIRE(allLanes > 10);
  // Click the Holder cell of allReduce #0 (the row, not a rank's cell).
  QTableView* coll = window.clusterPanel()->collectiveView();
  const QModelIndex holder = coll->model()->index(0, npuscope::widgets::CollectiveModel::LateRank);
  clickCell(coll, holder);
  REQUIRE(waitUntil([&] { return laidOutLanes(*timeline).size() == 2; }));
  // One lane per rank: each rank's "Group 0 Communication", the op on screen on both.
  const auto profile = window.profile();
  for (const auto& [rank, lane] : laidOutLanes(*timeline))
    CHECK(profile->ranks[static_cast<std::size_t>(rank)].trace->lanes[lane].name == "Group 0 Communication");
  const npuscope::core::TimeRange visible = timeline->viewport()->visibleRange();
  for (const auto& rp : profile->ranks) {
    const npuscope::core::SliceRef op = findSliceInTrace(*rp.trace, "hcom_allReduce__586_0_1");
    REQUIRE(op.valid());
    CHECK(visible.start <= rp.trace->sliceRange(op).start);
    CHECK(visible.end >= rp.trace->sliceRange(op).end);
  }
  // View > Show All Lanes, by its shortcut.
  QTest::keyClick(&window, Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
  REQUIRE(waitUntil([&] { return laidOutLanes(*timeline).size() == allLanes; }));
}

TEST_CASE("a folder of summaries opens in the window: lanes from the summaries, the Cluster dock's steps and matrix", "[window][cluster][summary]") {
  QTemporaryDir tmp;
  REQUIRE(tmp.isValid());
  QProcess p;
  p.start(QStringLiteral(NPUSCOPE_BINARY), {QStringLiteral("summarize"), sharedPath("corpus/ascend-pt-910b-l1-text-2rank"),
                                            QStringLiteral("-o"), tmp.path(), QStringLiteral("--quiet")});
  REQUIRE(p.waitForFinished(60000));
  REQUIRE(p.exitCode() == 0);
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1400, 900);
  window.show();
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(tmp.path());
  REQUIRE(waitUntil([&] { return !finished.isEmpty(); }));
  REQUIRE(finished.first().at(0).toBool());
  // Each rank's steps, HCCL ops and longest bubbles are its lanes.
  std::set<std::string> names;
  for (const auto& [rank, lane] : laidOutLanes(*window.timeline()))
    names.insert(window.profile()->ranks[static_cast<std::size_t>(rank)].trace->lanes[lane].name);
  CHECK(names == std::set<std::string>{"Steps", "Group 0 Communication", "Longest bubbles"});
  // The Top-Down dock says what a folder of summaries is and each rank's verdict, where its trace lies.
  auto* verdict = window.findChild<QLabel*>(QStringLiteral("TopDownVerdict"));
  REQUIRE(verdict);
  CHECK(verdict->text().contains(QStringLiteral("Rank summaries")));
  CHECK(verdict->text().contains(QStringLiteral("ascend-pt-910b-l1-text-2rank/rank1_ascend_pt")));
  CHECK(verdict->text().contains(QStringLiteral("Communication (Not Overlapped) 73.0%")));
  auto* panel = window.clusterPanel();
  REQUIRE(panel->showsTables());
  CHECK(panel->findingsText().contains(QStringLiteral("Group rank 5 of HCCL group 586")));
  // Steps: 2 ranks x step 50; the Free of rank 0's step 50 (step_trace_time.csv: 25744.050 us,
  // the device tasks' 25744.064 us).
  const auto* steps = panel->stepModel();
  REQUIRE(steps->rowCount() == 2);
  REQUIRE(steps->columnCount() == 1);
  CHECK(steps->stepOfColumn(0) == 50);
  CHECK(std::llabs(steps->data(steps->index(0, 0), Qt::UserRole).toLongLong() - 25'744'050) < 1000);
  // The dimension box, with a key press: Communication (Not Overlapped), 101963.203 us on rank 0.
  window.clusterDock()->show();
  panel->tabs()->setCurrentIndex(2);
  QComboBox* box = panel->stepDimensionBox();
  box->setFocus();
  QTest::keyClick(box, Qt::Key_Down);
  CHECK(steps->dimension() == npuscope::widgets::ClusterStepModel::Dimension::CommNotOverlapped);
  CHECK(std::llabs(steps->data(steps->index(0, 0), Qt::UserRole).toLongLong() - 101'963'203) < 1000);
  // Matrix of group 586: rank 0 -> group rank 1 moved 61.210624 MB in 3.883939 ms over HCCS
  // (communication_matrix.json's allreduce-total "0-1"): 15.76 GB/s, 88% of 18 GB/s.
  const auto* matrix = panel->matrixModel();
  REQUIRE(matrix->group() == "586");
  REQUIRE(matrix->rowCount() == 2);
  CHECK(matrix->headerData(0, Qt::Vertical).toString() == QStringLiteral("0"));
  CHECK(matrix->headerData(0, Qt::Horizontal).toString() == QStringLiteral("0"));  // rank 1 sends to group rank 0
  CHECK(matrix->headerData(1, Qt::Horizontal).toString() == QStringLiteral("1"));
  const QModelIndex cell = matrix->index(0, 1);  // row group rank 0, column group rank 1
  CHECK(matrix->data(cell).toString() == QStringLiteral("15.76 (88%)"));
}

TEST_CASE("View > Device and HCCL Lanes Only and Show Ranks… bring the same lanes of every rank together", "[window][cluster]") {
  // Issue 42 item 2: with two ranks, rank 0's Python levels and CANN threads pushed its HCCL lanes
  // about 50 lanes above rank 1's.
  MainWindow window;
  REQUIRE(openTwoRankWithClusterDock(window));
  auto* timeline = window.timeline();
  const auto profile = window.profile();
  const std::size_t allLanes = laidOutLanes(*timeline).size();
  using Role = npuscope::core::Process::Role;
  const auto roleOf = [&](int rank, std::uint32_t lane) {
    const auto& t = *profile->ranks[static_cast<std::size_t>(rank)].trace;
    return t.processes[t.lanes[lane].process].role;
  };
  // Ctrl+Shift+D: every rank keeps its device and HCCL lanes, nothing else; each rank's own count
  // of such lanes, counted on its trace, is laid out.
  QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
  REQUIRE(waitUntil([&] { return laidOutLanes(*timeline).size() < allLanes; }));
  std::size_t expected = 0;
  for (const auto& rp : profile->ranks)
    for (const auto& lane : rp.trace->lanes) {
      const Role r = rp.trace->processes[lane.process].role;
      expected += r == Role::AscendHardware || r == Role::OverlapAnalysis || r == Role::Communication;
    }
  const auto shown = laidOutLanes(*timeline);
  CHECK(shown.size() == expected);
  std::set<int> ranks;
  for (const auto& [rank, lane] : shown) {
    const Role r = roleOf(rank, lane);
    CHECK((r == Role::AscendHardware || r == Role::OverlapAnalysis || r == Role::Communication));
    ranks.insert(rank);
  }
  CHECK(ranks == std::set<int>{0, 1});
  // View > Show Ranks… through its dialog: rank 1 only.
  QTimer::singleShot(0, [] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* d = qobject_cast<QInputDialog*>(w)) {
        d->setTextValue(QStringLiteral("1"));
        d->accept();
      }
  });
  QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
  REQUIRE(waitUntil([&] {
    const auto l = laidOutLanes(*timeline);
    return !l.empty() && std::all_of(l.begin(), l.end(), [](const auto& p) { return p.first == 1; });
  }));
  // A rank no capture holds is refused and changes nothing.
  const auto before = laidOutLanes(*timeline);
  CHECK_FALSE(window.setRankFilter(QStringLiteral("7")));
  CHECK_FALSE(window.setRankFilter(QStringLiteral("x-1")));
  CHECK(laidOutLanes(*timeline) == before);
  // Show All Lanes (Ctrl+Shift+A) restores every lane and unchecks the device-only view (the
  // window active again after the dialog, as the window manager leaves it).
  window.activateWindow();
  REQUIRE(QTest::qWaitForWindowActive(&window));
  QTest::keyClick(&window, Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
  REQUIRE(waitUntil([&] { return laidOutLanes(*timeline).size() == allLanes; }));
  QAction* deviceOnly = window.findChild<QAction*>(QStringLiteral("DeviceLanesOnlyAction"));
  REQUIRE(deviceOnly);
  CHECK_FALSE(deviceOnly->isChecked());
}
