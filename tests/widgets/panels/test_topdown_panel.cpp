// SPDX-License-Identifier: MIT
// TopDownPanel: shares table, discrepancies, verdict and the bubble list on real corpus cases.
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/panels/topdown_panel.h"

using npuscope::widgets::BubbleTableModel;
using npuscope::widgets::OverlapSharesModel;
using npuscope::widgets::TopDownPanel;

namespace {

std::shared_ptr<const npuscope::core::Profile> load(const char* relative) {
  auto r = npuscope::core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + relative);
  REQUIRE(r.ok());
  return r.profile;
}

constexpr const char* kCase34 = "cases/34-step-trace-time-and-missing-overlap/with_overlap/trace_view.json";
constexpr const char* kAdvisor =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";

QString cell(const QAbstractItemModel& m, int row, int col, int role = Qt::DisplayRole) {
  return m.data(m.index(row, col), role).toString();
}

}  // namespace

TEST_CASE("TopDownPanel shares: case 34 computed, recorded and discrepancies", "[topdown]") {
  TopDownPanel panel;
  panel.setProfile(load(kCase34));
  const OverlapSharesModel& m = *panel.sharesModel();
  REQUIRE(m.rowCount() == 3);  // whole capture + 2 steps
  CHECK(cell(m, 0, OverlapSharesModel::Scope) == QStringLiteral("Whole capture"));
  // The host steps (ProfilerStep#1 994.5 us, #2 602.5 us) and the device windows (997.5 us and
  // 600 us, worked out in the step-row test below) differ: the rows say they are device windows.
  CHECK(cell(m, 1, OverlapSharesModel::Scope) == QStringLiteral("Step 1 · device window"));
  CHECK(cell(m, 2, OverlapSharesModel::Scope) == QStringLiteral("Step 2 · device window"));
  CHECK(m.computedNs(0, OverlapSharesModel::Computing) == 1'200'000);
  CHECK(m.computedNs(0, OverlapSharesModel::Communication) == 200'000);
  CHECK(m.computedNs(0, OverlapSharesModel::CommNotOverlapped) == 100'000);
  CHECK(m.computedNs(0, OverlapSharesModel::Overlapped) == 100'000);
  // case.md: Free 200 (step 1) + 100 (step 2, the profiler's Free slice after the last task up to
  // 2600 us) = 300 us, E2E 1000..2600 = 1.6 ms, as the Overlap Analysis lanes: no discrepancy.
  CHECK(m.computedNs(0, OverlapSharesModel::Free) == 300'000);
  CHECK(m.computedNs(0, OverlapSharesModel::E2E) == 1'600'000);
  CHECK(cell(m, 0, OverlapSharesModel::Computing) == QStringLiteral("1.2 ms"));
  CHECK(cell(m, 0, OverlapSharesModel::FreePercent) == QStringLiteral("18.8%"));
  CHECK(cell(m, 0, OverlapSharesModel::Free) == QStringLiteral("300 us"));
  CHECK_FALSE(m.data(m.index(0, OverlapSharesModel::Free), npuscope::widgets::kTopDownDiscrepancyRole).toBool());
  CHECK_FALSE(m.data(m.index(0, OverlapSharesModel::Computing), npuscope::widgets::kTopDownDiscrepancyRole).toBool());
  const QString tip = cell(m, 0, OverlapSharesModel::Free, Qt::ToolTipRole);
  CHECK(tip.contains(QStringLiteral("computed: 300 us")));
  CHECK(tip.contains(QStringLiteral("recorded (Overlap Analysis lanes): 300 us")));
  // Both steps agree with step_trace_time.csv (step 2: Free 100 us).
  CHECK(m.computedNs(1, OverlapSharesModel::Computing) == 700'000);
  CHECK_FALSE(m.data(m.index(1, OverlapSharesModel::Free), npuscope::widgets::kTopDownDiscrepancyRole).toBool());
  CHECK(cell(m, 1, OverlapSharesModel::Free, Qt::ToolTipRole).contains(QStringLiteral("step_trace_time.csv: 200 us")));
  CHECK(m.computedNs(2, OverlapSharesModel::Computing) == 500'000);
  CHECK(cell(m, 2, OverlapSharesModel::Free) == QStringLiteral("100 us"));
  CHECK(cell(m, 2, OverlapSharesModel::Free, Qt::ToolTipRole).contains(QStringLiteral("step_trace_time.csv: 100 us")));
  // Free % above 10% is highlighted (18.8% whole, 20% step 1, 16.7% step 2).
  CHECK(m.data(m.index(0, OverlapSharesModel::FreePercent), Qt::BackgroundRole).isValid());
  CHECK(m.data(m.index(1, OverlapSharesModel::FreePercent), Qt::BackgroundRole).isValid());
  CHECK(m.data(m.index(2, OverlapSharesModel::FreePercent), Qt::BackgroundRole).isValid());

  CHECK(panel.discrepancyText().isEmpty());
  // Computing dominates (the method reads the dominant share first); Free 18.8% > 10% is stated.
  CHECK(panel.verdictText().startsWith(QStringLiteral("Compute bound")));
  CHECK(panel.verdictText().contains(QStringLiteral("also idle (Free) 18.8%")));
  CHECK(panel.rankSelector()->count() == 1);

  // The 200 us gap of step 1, then the 100 us idle after step 2's last task.
  const BubbleTableModel& b = *panel.bubbleModel();
  REQUIRE(b.rowCount() == 2);
  CHECK(cell(b, 0, BubbleTableModel::Number) == QStringLiteral("1"));
  CHECK(cell(b, 0, BubbleTableModel::Start) == QStringLiteral("800 us"));
  CHECK(cell(b, 0, BubbleTableModel::Duration) == QStringLiteral("200 us"));
  CHECK(cell(b, 0, BubbleTableModel::Step) == QStringLiteral("1"));
  CHECK(cell(b, 0, BubbleTableModel::Cause) == QStringLiteral("Host idle"));
}

TEST_CASE("TopDownPanel on the advisor fixture: 84% Free, ACLOP-path bubbles, sorting, clicks", "[topdown]") {
  TopDownPanel panel;
  panel.resize(1400, 360);
  panel.setProfile(load(kAdvisor));
  const OverlapSharesModel& m = *panel.sharesModel();
  REQUIRE(m.rowCount() == 2);  // whole capture + step 1
  CHECK(m.computedNs(0, OverlapSharesModel::Computing) == 1'788'267);
  CHECK(m.computedNs(0, OverlapSharesModel::Free) == 9'481'650);
  CHECK(cell(m, 0, OverlapSharesModel::FreePercent) == QStringLiteral("84.1%"));
  CHECK(m.data(m.index(0, OverlapSharesModel::FreePercent), Qt::BackgroundRole).isValid());
  CHECK(panel.discrepancyText().isEmpty());
  CHECK(panel.verdictText().contains(QStringLiteral("Free) 84.1%")));
  CHECK(panel.verdictText().startsWith(QStringLiteral("Dispatch/host bound")));
  CHECK(panel.verdictText().contains(QStringLiteral("• The ACLOP path (aclopCompileAndExecute) is slow on the host")));

  const BubbleTableModel& b = *panel.bubbleModel();
  REQUIRE(b.rowCount() == 128);
  CHECK(cell(b, 0, BubbleTableModel::Duration) == QStringLiteral("1.093 ms"));
  CHECK(b.bubble(0).range.duration() == 1'093'430);
  // aclopCompileAndExecute covers 79% of the gap, its AscendCL@opCompile child only 27.99 us
  // (raw JSON, by hand): the ACLOP path on the host, not compilation (docs/diagnosis.md §3 rule 7).
  CHECK(cell(b, 0, BubbleTableModel::Cause) == QStringLiteral("ACLOP execution on the host"));
  CHECK(cell(b, 0, BubbleTableModel::Detail) ==
        QStringLiteral("AscendCL@aclopCompileAndExecute 1.1 ms in Dequeue@Conv2D: compile step 27.99 us, the rest "
                       "(1.072 ms) is the ACLOP path on the host outside compilation (79% of the gap)"));
  CHECK(cell(b, 0, BubbleTableModel::Step) == QStringLiteral("1"));
  // Start relative to the profile start (1704161511420289011 ns).
  CHECK(cell(b, 0, BubbleTableModel::Start) == QStringLiteral("2.703 ms"));
  CHECK(b.totalNs() > 7'000'000);

  QSortFilterProxyModel* proxy = panel.bubbleProxy();
  SECTION("sorting by start and by duration uses the raw ns") {
    panel.bubbleView()->sortByColumn(BubbleTableModel::Start, Qt::AscendingOrder);
    qlonglong prev = 0;
    for (int r = 0; r < proxy->rowCount(); ++r) {
      const qlonglong s = proxy->data(proxy->index(r, BubbleTableModel::Start), npuscope::widgets::kTopDownSortRole).toLongLong();
      CHECK(s >= prev);
      prev = s;
    }
    panel.bubbleView()->sortByColumn(BubbleTableModel::Duration, Qt::DescendingOrder);
    CHECK(proxy->data(proxy->index(0, BubbleTableModel::Number)).toString() == QStringLiteral("1"));
  }
  SECTION("a click on a row emits bubbleActivated; selectBubble is quiet") {
    panel.show();
    REQUIRE(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &TopDownPanel::bubbleActivated);
    QTableView* view = panel.bubbleView();
    const QModelIndex second = proxy->index(1, BubbleTableModel::Cause);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(second).center());
    REQUIRE(spy.count() == 1);
    CHECK(spy.at(0).at(0).value<npuscope::widgets::BubbleRef>() == npuscope::widgets::BubbleRef{0, 0, 1});
    CHECK(panel.selectedBubble() == std::make_pair(0, 1));
    panel.selectBubble(0, 0, 5);
    CHECK(spy.count() == 1);
    CHECK(panel.selectedBubble() == std::make_pair(0, 5));
    panel.selectBubble(-1, -1, -1);
    CHECK(panel.selectedBubble() == std::make_pair(-1, -1));
  }
  SECTION("a double-click selects the evidence of the cause") {
    panel.show();
    REQUIRE(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &TopDownPanel::evidenceActivated);
    QTableView* view = panel.bubbleView();
    const QModelIndex first = proxy->index(0, BubbleTableModel::Detail);
    // A press first (QAbstractItemView emits doubleClicked only for the pressed index), then the double-click.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
    REQUIRE(spy.count() == 1);
    // Bubble #1's cause is the ACLOP path on the host: the evidence is that aclopCompileAndExecute
    // (1.1 ms from 1704161511422xxx, raw JSON, by hand).
    CHECK(spy.at(0).at(0).value<npuscope::widgets::RankSliceRef>().rank == 0);
    const auto ref = spy.at(0).at(0).value<npuscope::widgets::RankSliceRef>().slice;
    const auto again = load(kAdvisor);  // the same file loads to the same lanes and indexes
    const auto& trace = *again->ranks[0].trace;
    CHECK(trace.sliceName(ref) == "AscendCL@aclopCompileAndExecute");
    CHECK(trace.sliceRange(ref).duration() > 1'000'000);
  }
}

TEST_CASE("TopDownPanel step rows select the span their figures measure and filter the bubbles", "[topdown]") {
  qRegisterMetaType<npuscope::core::TimeRange>();
  TopDownPanel panel;
  panel.resize(1400, 500);
  panel.setProfile(load(kCase34));
  const OverlapSharesModel& m = *panel.sharesModel();
  REQUIRE(m.rowCount() == 3);
  // By hand from case.md's inputs (offsets from 1731400000000000 us) and the device-window rule
  // of the format notes §4.3 (no async_npu flows: a task belongs to the last step started at or
  // before it; start = its first task, end = max(last task end, host end)): step 1 host
  // ProfilerStep#1 [1003, 1997.5], tasks MatMulV2 1000 (clock skew: kept by the Preparing -3.0),
  // FlashAttentionScore ends 1800 -> device window [1000, 1997.5) = 997.5 us vs a 994.5 us host
  // step; step 2 host [1997.5, 2600], MatMulV2 [2000, 2500] -> [2000, 2600).
  constexpr npuscope::core::TimeNs kT0 = 1'731'400'000'000'000'000;
  CHECK(m.stepAt(0) == TopDownPanel::kAllSteps);
  CHECK(m.stepAt(2) == 2);
  CHECK(m.windowAt(1) == npuscope::core::TimeRange{kT0 + 1'000'000, kT0 + 1'997'500});
  // What a click selects is what the row's figures measure: the computed intervals starting in
  // the device window, first start to last end. Step 1: MatMulV2 at 1000 .. the Free gap
  // [1800, 2000) before step 2's MatMulV2 (busy = [1000, 1800] u [2000, 2500]), so [1000, 2000)
  // = the row's E2E of 1 ms; step 2: MatMulV2 [2000, 2500] and the profiler's Free slice after it,
  // [2500, 2600), start in [2000, 2600): [2000, 2600) (case.md: Stage 600 us).
  CHECK(m.selectionAt(1) == npuscope::core::TimeRange{kT0 + 1'000'000, kT0 + 2'000'000});
  CHECK(m.computedNs(1, OverlapSharesModel::E2E) == m.selectionAt(1).duration());
  CHECK(m.selectionAt(2) == npuscope::core::TimeRange{kT0 + 2'000'000, kT0 + 2'600'000});
  CHECK(m.computedNs(2, OverlapSharesModel::E2E) == m.selectionAt(2).duration());
  CHECK(m.selectionAt(0).empty());
  REQUIRE(m.hostStepAt(1).has_value());
  CHECK(m.hostStepAt(1)->duration() == 994'500);
  CHECK_FALSE(m.hostStepAt(0).has_value());
  const QString tip = cell(m, 1, OverlapSharesModel::Scope, Qt::ToolTipRole);
  CHECK(tip.contains(QStringLiteral("device window: 997.5 us")));
  // The third duration of the row, E2E (1000 us: the intervals starting in the window, MatMulV2
  // at 1000 to the last Free's end at 2000, case.md), is explained too.
  CHECK(tip.contains(QStringLiteral("E2E (1 ms) is the span of the device intervals")));
  CHECK(tip.contains(QStringLiteral("host step (ProfilerStep#1 on the timeline): 994.5 us")));

  panel.show();
  REQUIRE(QTest::qWaitForWindowExposed(&panel));
  QSignalSpy spy(&panel, &TopDownPanel::stepActivated);
  QTableView* shares = panel.sharesView();
  QTest::mouseClick(shares->viewport(), Qt::LeftButton, {}, shares->visualRect(m.index(2, OverlapSharesModel::Scope)).center());
  REQUIRE(spy.count() == 1);
  CHECK(spy.at(0).at(0).toInt() == 0);
  CHECK(spy.at(0).at(1).toLongLong() == 2);
  CHECK(spy.at(0).at(2).value<npuscope::core::TimeRange>() ==
        npuscope::core::TimeRange{kT0 + 2'000'000, kT0 + 2'600'000});
  CHECK(panel.stepFilter() == 2);
  // For visual review only: NPUSCOPE_RENDER_OUT=dir saves the panel with the step filter on.
  if (const QByteArray out = qgetenv("NPUSCOPE_RENDER_OUT"); !out.isEmpty())
    CHECK(panel.grab().save(QString::fromUtf8(out) + QStringLiteral("/topdown-step-filter.png")));
  // Only the bubbles of step 2 are listed (counted on the source model's Step column).
  const BubbleTableModel& b = *panel.bubbleModel();
  int ofStep2 = 0;
  for (int r = 0; r < b.rowCount(); ++r) ofStep2 += cell(b, r, BubbleTableModel::Step) == QStringLiteral("2");
  CHECK(panel.bubbleProxy()->rowCount() == ofStep2);
  // By hand from case.md: the device is idle in [1800, 2000) us (step 1) and, by the profiler's
  // Free lane, in [2500, 2600) us after step 2's last task: one bubble each.
  CHECK(ofStep2 == 1);
  CHECK(b.rowCount() == 2);
  for (int r = 0; r < panel.bubbleProxy()->rowCount(); ++r)
    CHECK(cell(*panel.bubbleProxy(), r, BubbleTableModel::Step) == QStringLiteral("2"));
  // "All steps" lists them all again and asks to clear the timeline's selection.
  auto* all = panel.findChild<QPushButton*>(QStringLiteral("TopDownAllSteps"));
  REQUIRE(all);
  CHECK(all->isVisible());
  all->click();
  CHECK(panel.stepFilter() == TopDownPanel::kAllSteps);
  CHECK(panel.bubbleProxy()->rowCount() == b.rowCount());
  REQUIRE(spy.count() == 2);
  CHECK(spy.at(1).at(1).toLongLong() == TopDownPanel::kAllSteps);
  CHECK_FALSE(all->isVisible());
  // The "Whole capture" row clears the filter too.
  panel.setStepFilter(1);
  CHECK(panel.bubbleProxy()->rowCount() == 1);
  QTest::mouseClick(shares->viewport(), Qt::LeftButton, {}, shares->visualRect(m.index(0, OverlapSharesModel::Scope)).center());
  CHECK(panel.stepFilter() == TopDownPanel::kAllSteps);
}

TEST_CASE("TopDownPanel without a profile is empty", "[topdown]") {
  TopDownPanel panel;
  panel.setProfile(nullptr);
  CHECK(panel.sharesModel()->rowCount() == 0);
  CHECK(panel.bubbleModel()->rowCount() == 0);
  CHECK(panel.verdictText().isEmpty());
  CHECK(panel.rank() == -1);
}

TEST_CASE("TopDownPanel shows what exposed communication and Computing are made of", "[topdown]") {
  // 910B Level1 rank 0: synchronization 4311571 / transit 3565451 / wait 324906 / idle 93761275 ns
  // of 101963203 ns exposed (4.2% / 3.5% / 0.3% / 92.0%) and Convolution 20.4% of Computing
  // (Python on the raw files, see tests/core/analysis/test_breakdown.cpp).
  TopDownPanel panel;
  panel.resize(1400, 600);
  panel.setProfile(load("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  const auto labels = panel.findChildren<QLabel*>(QStringLiteral("TopDownBreakdown"));
  REQUIRE(labels.size() == 1);
  const QString text = labels.front()->text();
  CHECK(text.contains(QStringLiteral("synchronization 4.2%")));
  CHECK(text.contains(QStringLiteral("transit 3.5%")));
  CHECK(text.contains(QStringLiteral("idle 92.0%")));
  CHECK(text.contains(QStringLiteral("Convolution 20.4%")));
  CHECK(text.contains(QStringLiteral("backward")));
  // NPUSCOPE_GRAB_DIR set: save the panel as a PNG there to look at it (never by default).
  if (const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR"); !dir.isEmpty()) {
    panel.show();
    QTest::qWait(50);
    panel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/topdown_breakdown.png"));
  }
}

TEST_CASE("TopDownPanel: MindSpore's wait between iterations is its own segment of the bar, not Free", "[topdown]") {
  // Device 0 of the MindSpore capture: the profiler's Overlap Analysis lanes give Free 349.07 us;
  // the rest of the idle time lies between the three iterations (topdown_oracle.py:
  // between_iterations_ns 55480450, e2e 133669960: 41.5%).
  TopDownPanel panel;
  panel.resize(1400, 600);
  panel.setProfile(load("corpus/mindspore-msprof-prof-2dev/PROF_000001_20230818142704322_COJGGGCANRMICFBC"));
  QString tip;
  for (const QWidget* w : panel.findChildren<QWidget*>())
    if (w->toolTip().contains(QStringLiteral("Between iterations"))) tip = w->toolTip();
  CHECK(tip.contains(QStringLiteral("Free 349.07 us")));
  CHECK(tip.contains(QStringLiteral("Between iterations 55.48 ms (41.5%)")));
}
