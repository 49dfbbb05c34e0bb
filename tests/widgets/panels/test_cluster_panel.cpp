// SPDX-License-Identifier: MIT
// The Cluster dock's panel on the 2-rank Level1 capture: its tables show core's cross-rank
// analysis as is, and a click hands over the collective's op on every rank, which the timeline
// outlines on both ranks at once.
#include "widgets/panels/cluster_panel.h"

#include <QApplication>
#include <QFont>
#include <QLabel>
#include <QScrollArea>
#include <QGuiApplication>
#include <QPalette>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

#include "core/analysis/profile_analysis.h"
#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/timeline_widget.h"
#include "widgets/view_state.h"

using namespace npuscope;

namespace {

constexpr const char* kTwoRank = "corpus/ascend-pt-910b-l1-text-2rank";

std::shared_ptr<const core::Profile> load(const std::string& relative) {
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + relative);
  REQUIRE(r.ok());
  return r.profile;
}

int rankIndexOf(const core::Profile& p, int rank) {
  for (std::size_t i = 0; i < p.ranks.size(); ++i)
    if (p.ranks[i].rank() == rank) return static_cast<int>(i);
  return -1;
}

}  // namespace

TEST_CASE("cluster panel: the 2-rank capture's ranks, collectives and links", "[cluster_panel]") {
  const auto profile = load(kTwoRank);
  widgets::ViewState state;
  state.setProfile(profile);
  widgets::ClusterPanel panel(&state);
  REQUIRE(panel.showsTables());
  // Group rank 5, not captured, holds 3 of the 4 collectives (test_truth.cpp: the first waits on it).
  CHECK(panel.findingsText().contains(QStringLiteral("Group rank 5 of HCCL group 586, which is not in this capture, holds 3 of 4 collectives")));
  CHECK_FALSE(panel.findingsText().contains(QStringLiteral("is late to")));

  // Rank table: one row per rank; rank 1 holds nothing (its 5.608 ms lateness costs nothing).
  const widgets::ClusterRankModel& ranks = *panel.rankModel();
  REQUIRE(ranks.rowCount() == 2);
  int row1 = -1;
  for (int r = 0; r < 2; ++r)
    if (ranks.data(ranks.index(r, widgets::ClusterRankModel::Rank)).toString() == QStringLiteral("1")) row1 = r;
  REQUIRE(row1 >= 0);
  CHECK(ranks.data(ranks.index(row1, widgets::ClusterRankModel::Late)).toString() == QStringLiteral("0"));
  CHECK(ranks.data(ranks.index(row1, widgets::ClusterRankModel::Caused)).toString() == QStringLiteral("0.000"));
  // step_trace_time.csv of rank 1: Computing 8878.295 us.
  CHECK(ranks.data(ranks.index(row1, widgets::ClusterRankModel::Computing)).toString() == QStringLiteral("8.878"));
  // One clock assumed (the estimate, -8 us, is not applied): "—", the estimate in the tooltip.
  CHECK(ranks.data(ranks.index(row1, widgets::ClusterRankModel::ClockOffset)).toString() == QStringLiteral("—"));
  CHECK(ranks.data(ranks.index(row1, widgets::ClusterRankModel::ClockOffset), Qt::ToolTipRole)
            .toString()
            .contains(QStringLiteral("Not applied")));

  // Sorting by "waited" (descending) puts rank 0 first: it reaches each collective held by group
  // rank 5 before rank 1 (5.6 ms earlier in allReduce #0), so it waits longer.
  panel.rankView()->sortByColumn(widgets::ClusterRankModel::Waited, Qt::DescendingOrder);
  const QAbstractItemModel* sorted = panel.rankView()->model();
  CHECK(sorted->data(sorted->index(0, widgets::ClusterRankModel::Rank)).toString() == QStringLiteral("0"));

  // Rank x collective: 4 collectives, 2 rank columns. communication.json: rank 1 starts
  // allReduce #0 5607.7 us after rank 0 (Start Timestamp 1736408883737849.3 - ...732241.5 us).
  const widgets::CollectiveModel& coll = *panel.collectiveModel();
  REQUIRE(coll.rowCount() == 4);
  REQUIRE(coll.columnCount() == widgets::CollectiveModel::FirstRank + 2);
  const int r0 = rankIndexOf(*profile, 0), r1 = rankIndexOf(*profile, 1);
  const int c0 = coll.columnOfRank(r0), c1 = coll.columnOfRank(r1);
  REQUIRE(c0 >= widgets::CollectiveModel::FirstRank);
  REQUIRE(c1 >= widgets::CollectiveModel::FirstRank);
  CHECK(coll.headerData(c1, Qt::Horizontal).toString() == QStringLiteral("1"));
  CHECK(coll.headerData(0, Qt::Vertical).toString() == QStringLiteral("allReduce #0 · step 50"));
  const QModelIndex late = coll.index(0, c1), first = coll.index(0, c0);
  CHECK(coll.data(late).toString() == QStringLiteral("5.608"));
  CHECK(coll.data(first).toString() == QStringLiteral("0.000"));
  // No loaded rank holds it: no cell is bold, the Holder column names the group rank.
  CHECK_FALSE(coll.data(late, Qt::FontRole).isValid());
  CHECK_FALSE(coll.data(first, Qt::FontRole).isValid());
  CHECK(coll.data(coll.index(0, widgets::CollectiveModel::LateRank)).toString() == QStringLiteral("group rank 5 (not captured)"));
  CHECK(coll.data(coll.index(2, widgets::CollectiveModel::LateRank)).toString() == QStringLiteral("—"));
  // The largest skew is the strongest red, a zero skew the table's own background; the text
  // reads on both (white on the red, black on a light base).
  const QColor base = QGuiApplication::palette().color(QPalette::Base);
  CHECK(coll.data(late, Qt::BackgroundRole).value<QColor>() == widgets::CollectiveModel::heatColor(1, 1, base));
  CHECK(coll.data(first, Qt::BackgroundRole).value<QColor>() == base);
  CHECK(coll.data(late, Qt::ForegroundRole).value<QColor>() == QColor(Qt::white));
  CHECK(widgets::CollectiveModel::heatColor(0, 100, Qt::white) == QColor(Qt::white));
  const QString tip = coll.data(late, Qt::ToolTipRole).toString();
  CHECK(tip.contains(QStringLiteral("Recorded by the profiler")));
  CHECK(tip.contains(QStringLiteral("group rank 5")));

  // Links: HCCS and SDMA per rank; rank 0 moved 427.596 MB in 27.316 ms (communication.json's
  // Total Op Info: 427.596096 MB, 27.315706 ms).
  // Then per peer (communication_matrix.json's allreduce-total "0-1": 61.210624 MB in 3.88393759 ms
  // over HCCS, 15.7599 GB/s: 88% of the 18 GB/s nominal). Per rank 2 totals and 7 peers.
  const widgets::ClusterLinkModel& links = *panel.linkModel();
  REQUIRE(links.rowCount() == 18);
  CHECK(links.data(links.index(0, widgets::ClusterLinkModel::Peer)).toString() == QStringLiteral("all"));
  CHECK(links.data(links.index(2, widgets::ClusterLinkModel::Peer)).toString() == QStringLiteral("1"));
  CHECK(links.data(links.index(2, widgets::ClusterLinkModel::Size)).toString() == QStringLiteral("61.211"));
  CHECK(links.data(links.index(2, widgets::ClusterLinkModel::Time)).toString() == QStringLiteral("3.884"));
  CHECK(links.data(links.index(2, widgets::ClusterLinkModel::Nominal)).toString() == QStringLiteral("88% of 18"));
  CHECK(links.data(links.index(0, widgets::ClusterLinkModel::Size)).toString() == QStringLiteral("427.596"));
  CHECK(links.data(links.index(0, widgets::ClusterLinkModel::Time)).toString() == QStringLiteral("27.316"));
  CHECK(links.data(links.index(0, widgets::ClusterLinkModel::Bandwidth)).toString() == QStringLiteral("15.65"));

  // NPUSCOPE_GRAB_DIR set: save the panel with its Links tab as a PNG there to look at it (never by default).
  if (const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR"); !dir.isEmpty()) {
    panel.resize(1400, 520);
    panel.show();
    if (auto* tabs = panel.findChild<QTabWidget*>()) tabs->setCurrentIndex(1);
    QTest::qWait(50);
    panel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/cluster_links.png"));
  }

  // A click on rank 0's cell of allReduce #0: both ranks' op slices, focused on rank 0's.
  std::vector<widgets::RankSliceRef> ops;
  widgets::RankSliceRef focus;
  QObject::connect(&panel, &widgets::ClusterPanel::collectiveSelected, &panel,
                   [&](const std::vector<widgets::RankSliceRef>& o, widgets::RankSliceRef f) {
                     ops = o;
                     focus = f;
                   });
  REQUIRE(panel.selectCollective(0, r0));
  REQUIRE(ops.size() == 2);
  CHECK(focus.rank == r0);
  for (const widgets::RankSliceRef& op : ops) {
    const core::Trace& t = *profile->ranks[static_cast<std::size_t>(op.rank)].trace;
    CHECK(t.sliceName(op.slice) == "hcom_allReduce__586_0_1");
  }
  // The row (not a rank's cell): focused on the last loaded rank to arrive.
  REQUIRE(panel.selectCollective(0));
  CHECK(focus.rank == r1);
  CHECK_FALSE(panel.selectCollective(4));

  // The timeline outlines the op on both ranks at once.
  widgets::TimelineWidget tw;
  tw.setProfile(profile);
  tw.setHighlightedSlices(ops);
  for (const widgets::RankSliceRef& op : ops) CHECK(tw.isInHighlightedSlices(op.rank, op.slice));
  CHECK_FALSE(tw.isInHighlightedSlices(ops[0].rank, ops[1].slice.index == ops[0].slice.index
                                                        ? core::SliceRef{ops[0].slice.lane, ops[0].slice.index + 1}
                                                        : ops[1].slice));
  tw.setHighlightedSlices(std::vector<widgets::RankSliceRef>{});
  CHECK(tw.highlightedSlicesRank() == -1);
}

TEST_CASE("cluster panel: a collective whose holder is unknown shows what the ranks lose at least, never 0", "[cluster_panel]") {
  // MindSpore's two devices: allReduce #0 is unknown (holder_oracle.json: group rank 2 arrives
  // 32.773 ms after the last loaded rank, and rank 0 is held after that); both devices wait for it
  // at least that long, so the lower bound exceeds 2 x 32.773 ms.
  const auto profile = load("corpus/mindspore-msprof-prof-2dev");
  widgets::ViewState state;
  state.setProfile(profile);
  widgets::ClusterPanel panel(&state);
  REQUIRE(panel.showsTables());
  const widgets::CollectiveModel& coll = *panel.collectiveModel();
  REQUIRE(coll.rowCount() == 3);
  const QModelIndex lost = coll.index(0, widgets::CollectiveModel::Lost);
  CHECK(coll.data(coll.index(0, widgets::CollectiveModel::LateRank)).toString() == QStringLiteral("unknown"));
  const QString text = coll.data(lost).toString();
  CHECK(text.startsWith(QStringLiteral("≥ ")));
  CHECK(text.mid(2).toDouble() > 2 * 32.773);
  CHECK(coll.data(lost, Qt::UserRole).toLongLong() > 2 * 32773040LL);
  // A known holder's row keeps the plain sum: group rank 4 holds #1.
  CHECK_FALSE(coll.data(coll.index(1, widgets::CollectiveModel::Lost)).toString().startsWith(QStringLiteral("≥")));
}

TEST_CASE("cluster panel: one rank shows one grey line, no tables", "[cluster_panel]") {
  const auto profile = load("cases/34-step-trace-time-and-missing-overlap/with_overlap/trace_view.json");
  widgets::ViewState state;
  widgets::ClusterPanel panel(&state);
  CHECK_FALSE(panel.showsTables());
  state.setProfile(profile);
  CHECK_FALSE(panel.showsTables());
  CHECK(panel.findingsText().isEmpty());
  state.setProfile(nullptr);
  CHECK_FALSE(panel.showsTables());
}

TEST_CASE("cluster panel: the rank x step map and the communication matrix of a full load", "[cluster_panel]") {
  const auto profile = load(kTwoRank);
  widgets::ViewState state;
  state.setProfile(profile);
  widgets::ClusterPanel panel(&state);
  // step_trace_time.csv: rank 1's step 50 Free 26675.274 us (the device tasks' figure within 1 us).
  const widgets::ClusterStepModel& steps = *panel.stepModel();
  REQUIRE(steps.rowCount() == 2);
  REQUIRE(steps.columnCount() == 1);
  const int row1 = steps.headerData(0, Qt::Vertical).toString() == QStringLiteral("1") ? 0 : 1;
  CHECK(std::llabs(steps.data(steps.index(row1, 0), Qt::UserRole).toLongLong() - 26'675'274) < 1000);
  // The smaller Free (rank 0, 25.744 ms) has the base colour; rank 1's (26.675 ms) is 0.931 ms
  // more, under 5% of it (1.334 ms): red at 0.931 / 1.334 of the way.
  const QColor base = QGuiApplication::palette().color(QPalette::Base);
  CHECK(steps.data(steps.index(1 - row1, 0), Qt::BackgroundRole).value<QColor>() == base);
  CHECK(steps.data(steps.index(row1, 0), Qt::BackgroundRole).value<QColor>() ==
        widgets::CollectiveModel::heatColor(26'675'274 - 25'744'050, 26'675'274 / 20, base));
  CHECK(steps.data(steps.index(0, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("Step 50")));
  // The matrix: rank 1 (group rank 1) -> group rank 0: communication_matrix.json's allreduce-total
  // "1-0" of rank 1 (HCCS), at its share of the 18 GB/s nominal.
  const widgets::ClusterMatrixModel& m = *panel.matrixModel();
  REQUIRE(m.groups() == std::vector<std::string>{"586"});
  REQUIRE(m.rowCount() == 2);
  REQUIRE(m.columnCount() == 8);
  CHECK(m.data(m.index(0, 0)).isNull());  // group rank 0 to itself: nothing
  CHECK(m.data(m.index(0, 1)).toString() == QStringLiteral("15.76 (88%)"));
  CHECK(m.data(m.index(0, 1), Qt::ToolTipRole).toString().contains(QStringLiteral("HCCS: 61.211 MB in 3.884 ms")));

  // NPUSCOPE_GRAB_DIR set: save the Steps and Matrix tabs as PNGs there to look at them.
  if (const QByteArray dir = qgetenv("NPUSCOPE_GRAB_DIR"); !dir.isEmpty()) {
    panel.resize(1400, 420);
    panel.show();
    for (const int tab : {2, 3}) {
      panel.tabs()->setCurrentIndex(tab);
      QTest::qWait(50);
      panel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/cluster_tab%1.png").arg(tab));
    }
  }
}

TEST_CASE("cluster panel: the findings take the lines their text needs, at most five, so the tables keep their rows", "[cluster_panel]") {
  // Issue 42 item 2: one finding left three empty lines above the rank table (64 ranks: 5 rows).
  // The 2-rank capture with one short finding, as a generated 64-rank cluster without a late rank
  // has, then with its own (five lines and more).
  const auto full = load(kTwoRank);
  auto shortOne = std::make_shared<core::Profile>(*full);
  auto analysis = std::make_shared<core::ProfileAnalysis>(*full->analysis);
  analysis->findings = {"No rank is late."};
  shortOne->analysis = analysis;
  std::shared_ptr<const core::Profile> profile = shortOne;
  widgets::ViewState state;
  state.setProfile(profile);
  widgets::ClusterPanel panel(&state);
  panel.resize(1400, 300);
  panel.show();
  REQUIRE(QTest::qWaitForWindowExposed(&panel));
  auto* label = panel.findChild<QLabel*>(QStringLiteral("ClusterFindings"));
  REQUIRE(label);
  auto* area = qobject_cast<QScrollArea*>(label->parentWidget()->parentWidget());
  REQUIRE(area);
  const int lines = QFontMetrics(label->font()).lineSpacing();
  for (const int width : {1400, 500}) {
    panel.resize(width, 300);
    QApplication::processEvents();
    const int text = label->heightForWidth(area->viewport()->width());
    INFO("width " << width << ": text " << text << " px, area " << area->height() << " px");
    CHECK(area->height() <= std::min(text + 8, lines * 5 + 8));
    CHECK(area->height() >= std::min(text, lines * 5) - 2);
    CHECK(area->height() <= lines * 2);  // one line of text
  }
  // The capture's own findings: as many lines as they need, at most five.
  profile = full;
  state.setProfile(profile);
  QApplication::processEvents();
  const int text = label->heightForWidth(area->viewport()->width());
  CHECK(text > lines * 2);
  CHECK(area->height() >= std::min(text, lines * 5) - 2);
  CHECK(area->height() <= lines * 5 + 8);
}
