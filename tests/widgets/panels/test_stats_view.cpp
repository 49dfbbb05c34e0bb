// SPDX-License-Identifier: MIT
#include "widgets/panels/stats_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"
#include "widgets/panels/stats_table_model.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using testing::kBase;
using widgets::StatsTableModel;
using widgets::StatsView;

namespace {

// QStringList from ASCII literals (the widgets/app code is built with QT_NO_CAST_FROM_ASCII).
inline QStringList L(std::initializer_list<const char*> items) {
  QStringList out;
  for (const char* s : items) out << QString::fromUtf8(s);
  return out;
}

// The two-lane profile with two ProfilerSteps: step 1 device window [0, 1000) ns holds kernelA
// [200, 700); step 2 [1000, 10000) holds kernelB [2000, 10000).
std::shared_ptr<core::Profile> steppedProfile() {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  auto analysis = std::make_shared<core::RankAnalysis>();
  analysis->steps.push_back({1, {kBase, kBase + 900}, {kBase, kBase + 1000}, {}});
  analysis->steps.push_back({2, {kBase + 900, kBase + 9000}, {kBase + 1000, kBase + 10'000}, {}});
  profile->ranks[0].analysis = analysis;
  return profile;
}

QStringList names(const StatsView& v) {
  QStringList out;
  for (int r = 0; r < v.proxy()->rowCount(); ++r)
    out << v.proxy()->index(r, StatsTableModel::Name).data().toString();
  return out;
}

}  // namespace

TEST_CASE("StatsView shows the kernels table with sum and union", "[stats_view]") {
  StatsView view;
  view.setProfile(steppedProfile());
  CHECK(view.layer() == core::StatsLayer::Kernels);
  CHECK(view.scopeText() == QStringLiteral("Whole capture"));
  CHECK_FALSE(view.scopeRange().has_value());
  // Sorted by total, descending: kernelB 8 us, kernelA 500 ns.
  CHECK(names(view) == L({"kernelB", "kernelA"}));
  CHECK(view.table().sumTotal == 8500);
  const QString totals = view.totalsText();
  CHECK(totals.contains(QStringLiteral("Σ 8.5 us (sum)")));
  CHECK(totals.contains(QStringLiteral("8.5 us covered (union)")));
  CHECK(totals.contains(QStringLiteral("2 slices")));

  view.setLayer(core::StatsLayer::Cann);
  CHECK(names(view) == L({"late", "outer", "inner2", "inner", "tail"}));
  CHECK(view.table().sumTotal == 4000 + 1000 + 400 + 300);
  view.setLayer(core::StatsLayer::Communication);
  CHECK(view.proxy()->rowCount() == 0);
  CHECK(view.totalsText().startsWith(QStringLiteral("No Communication slices")));
  // kernelA and kernelB are untyped tasks with compute names: no stream task.
  view.setLayer(core::StatsLayer::Tasks);
  CHECK(view.layer() == core::StatsLayer::Tasks);
  CHECK(view.totalsText().startsWith(QStringLiteral("No Stream tasks slices")));
  view.setLayer(core::StatsLayer::Kernels);
  CHECK(view.totalsText().contains(QStringLiteral("share of the layer's sum")));
}

TEST_CASE("StatsView scope follows the timeline selection both ways", "[stats_view]") {
  widgets::TimelineWidget timeline;
  auto profile = steppedProfile();
  timeline.setProfile(profile);
  StatsView view;
  view.setTimeline(&timeline);
  view.setProfile(profile);
  auto* scopeCombo = view.findChildren<QComboBox*>().at(2);
  REQUIRE(scopeCombo->count() == 4);  // whole, step 1, step 2, selected range
  CHECK(scopeCombo->itemText(1).startsWith(QStringLiteral("Step 1")));

  SECTION("a step selects its device window on the timeline") {
    view.setScopeStep(1);
    CHECK(view.scopeText() == QStringLiteral("Step 2"));
    CHECK(timeline.viewport()->selection() == core::TimeRange{kBase + 1000, kBase + 10'000});
    CHECK(names(view) == L({"kernelB"}));
    view.setScopeStep(0);
    CHECK(timeline.viewport()->selection() == core::TimeRange{kBase, kBase + 1000});
    CHECK(names(view) == L({"kernelA"}));
    CHECK(scopeCombo->currentIndex() == 1);
    // Whole capture clears the timeline's selection.
    view.setScopeWhole();
    CHECK_FALSE(timeline.viewport()->hasSelection());
    CHECK(names(view) == L({"kernelB", "kernelA"}));
  }
  SECTION("a timeline selection switches the scope to the selected range") {
    timeline.viewport()->setSelection({kBase + 1500, kBase + 3000});
    CHECK(view.scopeText() == QStringLiteral("Selected range"));
    CHECK(scopeCombo->currentIndex() == 3);
    // Recomputed after the debounce.
    REQUIRE(QTest::qWaitFor([&] { return view.table().scope == core::TimeRange{kBase + 1500, kBase + 3000}; }, 3000));
    CHECK(names(view) == L({"kernelB"}));
    CHECK(view.scopeRange() == core::TimeRange{kBase + 1500, kBase + 3000});
    // Clearing it falls back to the whole capture.
    timeline.viewport()->clearSelection();
    CHECK(view.scopeText() == QStringLiteral("Whole capture"));
    REQUIRE(QTest::qWaitFor([&] { return view.proxy()->rowCount() == 2; }, 3000));
  }
  SECTION("a selection after a step replaces the step") {
    view.setScopeStep(0);
    timeline.viewport()->setSelection({kBase + 100, kBase + 800});
    view.refresh();
    CHECK(view.scopeText() == QStringLiteral("Selected range"));
    CHECK(names(view) == L({"kernelA"}));
  }
}

TEST_CASE("StatsView double-click lists occurrences - activating one selects and zooms", "[stats_view]") {
  widgets::TimelineWidget timeline;
  timeline.resize(900, 400);
  auto profile = steppedProfile();
  timeline.setProfile(profile);
  StatsView view;
  view.setTimeline(&timeline);
  view.setProfile(profile);
  view.resize(900, 300);
  view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&view));

  // Double-click the kernelA row (second row).
  QTableView* table = view.tableView();
  const QModelIndex idx = view.proxy()->index(1, StatsTableModel::Count);
  REQUIRE(idx.data().toString() == QStringLiteral("1"));
  const QPoint pos = table->visualRect(idx).center();
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, pos);
  QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, pos);
  QTreeWidget* list = view.occurrencesList();
  REQUIRE(list->topLevelItemCount() == 1);
  CHECK(list->topLevelItem(0)->text(0) == QStringLiteral("+200 ns"));
  CHECK(list->topLevelItem(0)->text(1) == QStringLiteral("500 ns"));
  CHECK(list->topLevelItem(0)->text(2).contains(QStringLiteral("Stream 7")));
  REQUIRE(view.occurrences().size() == 1);
  CHECK(view.occurrences()[0] == core::SliceRef{1, 0});
  // The selected row's name is highlighted on the timeline.
  CHECK(timeline.isHighlighted(0, {1, 0}));
  CHECK_FALSE(timeline.isHighlighted(0, {1, 1}));

  emit list->itemActivated(list->topLevelItem(0), 0);
  CHECK(timeline.selectedRank() == 0);
  CHECK(timeline.selectedSlice() == core::SliceRef{1, 0});
  const core::TimeRange v = timeline.viewport()->visibleRange();
  CHECK(v.start <= kBase + 200);
  CHECK(v.end >= kBase + 700);
  CHECK(v.duration() < 1000);  // zoomed to the 500 ns kernel with a margin

  // The list follows the scope: kernelB in step 1 has no occurrence.
  view.showOccurrences(QStringLiteral("kernelB"));
  CHECK(list->topLevelItemCount() == 1);
  view.setScopeStep(0);
  CHECK(list->topLevelItemCount() == 0);
}

TEST_CASE("StatsView filter: substring, regex, invalid regex", "[stats_view]") {
  StatsView view;
  view.setProfile(steppedProfile());
  view.setLayer(core::StatsLayer::Cann);
  view.setFilterText(QStringLiteral("INNER"));
  CHECK(names(view) == L({"inner2", "inner"}));
  CHECK(view.totalsText().contains(QStringLiteral("2 shown")));
  view.setFilterRegex(true);
  view.setFilterText(QStringLiteral("^(outer|late)$"));
  CHECK(names(view) == L({"late", "outer"}));
  view.setFilterText(QStringLiteral("inner["));
  CHECK_FALSE(view.filterError().isEmpty());
  CHECK(view.findChild<QLineEdit*>()->styleSheet().contains(QStringLiteral("#d92d20")));
  CHECK(view.totalsText().contains(QStringLiteral("invalid regular expression")));
  CHECK(view.proxy()->rowCount() == 5);
  view.setFilterRegex(false);
  CHECK(view.filterError().isEmpty());
  CHECK(view.proxy()->rowCount() == 0);  // "inner[" as a plain substring matches nothing
}

TEST_CASE("StatsView copy as TSV and export CSV of the filtered rows", "[stats_view]") {
  StatsView view;
  view.setProfile(steppedProfile());
  view.tableView()->selectAll();
  const QString tsv = view.copySelection();
  const QStringList lines = tsv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].startsWith(QStringLiteral("Name\tCount\tTotal (us)\t")));
  CHECK(lines[1].startsWith(QStringLiteral("kernelB\t1\t8.000\t")));
  CHECK(lines[2].startsWith(QStringLiteral("kernelA\t1\t0.500\t")));
  CHECK(QApplication::clipboard()->text() == tsv);

  view.setFilterText(QStringLiteral("kernelA"));
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("stats.csv"));
  REQUIRE(view.exportCsv(file).isEmpty());
  QFile f(file);
  REQUIRE(f.open(QIODevice::ReadOnly));
  const QStringList csv = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  REQUIRE(csv.size() == 2);
  CHECK(csv[0] == QStringLiteral("Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),Share of layer total(%),Type,Accelerator Core,"
                                 "Distinct Shapes,Wait Time(us)"));
  CHECK(csv[1].startsWith(QStringLiteral("kernelA,1,0.500,0.500,0.500,0.500,0.500,")));
}
