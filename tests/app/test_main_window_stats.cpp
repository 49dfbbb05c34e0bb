// SPDX-License-Identifier: MIT
// MainWindow: the Statistics dock, the find bar (Ctrl+F), flow-arrow toggles and follow-flow,
// remembered settings; plus a hidden [.render] case writing review PNGs of the whole window.
#include <catch2/catch.hpp>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "app/main_window.h"
#include "core/analysis/stats.h"
#include "tests/app/test_helpers.h"
#include "widgets/panels/search_bar.h"
#include "widgets/panels/stats_table_model.h"
#include "widgets/panels/stats_view.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using npuscope::MainWindow;
using npuscope::test::sharedPath;
using npuscope::test::waitUntil;
namespace core = npuscope::core;

namespace {

const char* const kFolder = "corpus/ascend-pt-910b-l1-text-2rank";

bool loadAndWait(MainWindow& window, const QString& path) {
  QSignalSpy finished(&window, &MainWindow::loadFinished);
  window.openPath(path);
  if (!waitUntil([&] { return !finished.isEmpty(); }, 60000)) return false;
  return finished.first().at(0).toBool();
}

QAction* actionByText(const QWidget& w, const QString& text) {
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text().remove(QLatin1Char('&')) == text) return a;
  return nullptr;
}

}  // namespace

TEST_CASE("MainWindow statistics dock shows the loaded profile's kernels", "[window][stats]") {
  QSettings().remove(QStringLiteral("stats"));
  MainWindow window;
  window.setInteractiveErrors(false);
  REQUIRE(window.statsDock());
  CHECK(window.dockWidgetArea(window.statsDock()) == Qt::BottomDockWidgetArea);
  REQUIRE(loadAndWait(window, sharedPath(kFolder)));
  npuscope::widgets::StatsView* stats = window.statsView();
  CHECK(stats->layer() == core::StatsLayer::Kernels);
  CHECK(stats->rank() == 0);
  const int row = stats->model()->rowOfName(QStringLiteral("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList"));
  REQUIRE(row >= 0);
  const core::StatsRow* r = stats->model()->statsRow(row);
  CHECK(r->count == 3);
  CHECK(r->total == 1'959'079);
  // The scope combo offers the step (ProfilerStep#50).
  stats->setScopeStep(0);
  CHECK(stats->scopeText() == QStringLiteral("Step 50"));
  CHECK(window.timeline()->viewport()->hasSelection());
  stats->setRank(1);
  CHECK(stats->scopeText() == QStringLiteral("Step 50"));
  CHECK(stats->model()->statsRow(stats->model()->rowOfName(
                                     QStringLiteral("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList")))
            ->total == 1'954'140);  // 1954.139 us in kernel_details.csv; the trace's 626.8325 us rounds up

  // The layer is remembered.
  stats->setLayer(core::StatsLayer::Cann);
  CHECK(QSettings().value(QStringLiteral("stats/layer")).toString() == QStringLiteral("cann"));
  stats->setFilterRegex(true);
  MainWindow second;
  CHECK(second.statsView()->layer() == core::StatsLayer::Cann);
  CHECK(second.statsView()->filterRegex());
  QSettings().remove(QStringLiteral("stats"));
}

TEST_CASE("MainWindow Ctrl+F search marks and steps through matches", "[window][search]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  REQUIRE(loadAndWait(window, sharedPath(kFolder)));
  QAction* find = actionByText(window, QStringLiteral("Find Slices…"));
  REQUIRE(find);
  CHECK(find->shortcut() == QKeySequence(QKeySequence::Find));
  find->trigger();
  npuscope::widgets::SearchBar* bar = window.searchBar();
  CHECK_FALSE(bar->isHidden());
  bar->setRegex(false);
  bar->setText(QStringLiteral("matmul"));
  bar->runQuery();
  // The same count as core::findSlices over the ranks.
  std::size_t expected = 0;
  for (const auto& rank : window.profile()->ranks)
    expected += core::findSlices(*rank.trace, core::NameQuery{"matmul", false, false}).size();
  REQUIRE(expected > 0);
  CHECK(bar->matches().size() == expected);
  CHECK(window.timeline()->hasSearchMatches());
  bar->next();
  const auto& first = bar->matches().front();
  CHECK(window.timeline()->selectedRank() == first.rank);
  CHECK(window.timeline()->selectedSlice() == first.ref);
  CHECK(bar->countText() == QStringLiteral("1 / ") + QString::number(expected));
  const core::TimeRange v = window.timeline()->viewport()->visibleRange();
  const core::TimeRange s = window.profile()->ranks[static_cast<std::size_t>(first.rank)].trace->sliceRange(first.ref);
  CHECK(v.start <= s.start);
  CHECK(v.end >= s.end);
  bar->close();
  CHECK_FALSE(window.timeline()->hasSearchMatches());
}

TEST_CASE("MainWindow flow-arrow toggles and follow flow", "[window][flows]") {
  MainWindow window;
  window.setInteractiveErrors(false);
  REQUIRE(loadAndWait(window, sharedPath(kFolder)));
  QStringList categories;
  for (QAction* a : window.flowActions()) {
    categories << a->data().toString();
    CHECK_FALSE(a->isChecked());  // off by default
  }
  CHECK(categories.contains(QStringLiteral("async_npu")));
  CHECK(categories.contains(QStringLiteral("HostToDevice")));
  CHECK(categories.indexOf(QStringLiteral("async_npu")) < categories.indexOf(QStringLiteral("HostToDevice")));
  CHECK(window.timeline()->visibleFlowCategories().isEmpty());
  for (QAction* a : window.flowActions())
    if (a->data().toString() == QStringLiteral("HostToDevice")) a->setChecked(true);
  CHECK(window.timeline()->visibleFlowCategories() == QSet<QString>{QStringLiteral("HostToDevice")});
  // A reload keeps the checked categories.
  QSignalSpy reloaded(&window, &MainWindow::loadFinished);
  window.reload();
  REQUIRE(waitUntil([&] { return !reloaded.isEmpty(); }, 60000));
  CHECK(window.timeline()->visibleFlowCategories() == QSet<QString>{QStringLiteral("HostToDevice")});

  // Follow the first async_npu flow of rank 0 forward, then back.
  const core::Trace& trace = *window.profile()->ranks[0].trace;
  const core::Flow* flow = nullptr;
  for (const core::Flow& f : trace.flows)
    if (trace.name(f.category) == "async_npu") {
      flow = &f;
      break;
    }
  REQUIRE(flow);
  window.timeline()->selectSlice(0, flow->from);
  QAction* forward = actionByText(window, QStringLiteral("Follow Flow Forward"));
  QAction* back = actionByText(window, QStringLiteral("Follow Flow Back"));
  REQUIRE(forward);
  REQUIRE(back);
  CHECK(forward->shortcuts().contains(QKeySequence(Qt::Key_BracketRight)));
  CHECK(back->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Left)));
  forward->trigger();
  CHECK(window.timeline()->selectedSlice() == flow->to);
  back->trigger();
  // Back along an incoming flow of the kernel: its first incoming flow's source.
  CHECK(window.timeline()->selectedSlice().valid());
  CHECK(trace.sliceRange(window.timeline()->selectedSlice()).start <= trace.sliceRange(flow->to).start);
}

// Review renders of the whole window (not run by default): NPUSCOPE_REVIEW_DIR or /tmp.
TEST_CASE("render review: statistics filtered and flow arrows", "[.render]") {
  const QString dir = qEnvironmentVariableIsEmpty("NPUSCOPE_REVIEW_DIR") ? QStringLiteral("/tmp/npuscope-review")
                                                                          : qEnvironmentVariable("NPUSCOPE_REVIEW_DIR");
  QDir().mkpath(dir);
  MainWindow window;
  window.setInteractiveErrors(false);
  window.resize(1600, 1000);
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  REQUIRE(loadAndWait(window, sharedPath(kFolder)));
  window.statsDock()->show();
  window.statsDock()->raise();  // tabbed with other bottom docks: bring Statistics to the front
  window.resizeDocks({window.statsDock()}, {330}, Qt::Vertical);
  QTest::qWait(200);

  // 1. Statistics filtered to matmul, first row selected (highlighted), search marks.
  npuscope::widgets::StatsView* stats = window.statsView();
  stats->setLayer(core::StatsLayer::Kernels);
  stats->setFilterRegex(false);
  stats->setFilterText(QStringLiteral("matmul"));
  stats->tableView()->selectRow(0);
  stats->showOccurrences(stats->proxy()->index(0, 0).data().toString());
  window.searchBar()->activate();
  window.searchBar()->setText(QStringLiteral("matmul"));
  window.searchBar()->runQuery();
  window.searchBar()->next();
  window.timeline()->fitAll();
  QTest::qWait(300);
  CHECK(window.grab().save(dir + QStringLiteral("/stats-matmul.png")));
  // Zoomed on the step's busiest part.
  const core::TimeRange r = window.profile()->range();
  window.timeline()->setVisibleRange({r.start + r.duration() * 55 / 100, r.start + r.duration() * 62 / 100});
  QTest::qWait(300);
  CHECK(window.grab().save(dir + QStringLiteral("/stats-matmul-zoom.png")));

  // 2. async_npu + HostToDevice arrows.
  window.searchBar()->close();
  stats->setFilterText({});
  window.timeline()->selectSlice(-1, {});
  window.timeline()->clearHighlightedNames();
  for (QAction* a : window.flowActions()) {
    const QString c = a->data().toString();
    a->setChecked(c == QStringLiteral("async_npu") || c == QStringLiteral("HostToDevice"));
  }
  window.timeline()->fitAll();
  QTest::qWait(300);
  CHECK(window.grab().save(dir + QStringLiteral("/flows.png")));
  window.timeline()->setVisibleRange({r.start + r.duration() * 55 / 100, r.start + r.duration() * 62 / 100});
  QTest::qWait(300);
  CHECK(window.grab().save(dir + QStringLiteral("/flows-zoom.png")));
}
