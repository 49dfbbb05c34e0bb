// SPDX-License-Identifier: MIT
#include "widgets/dialogs/warnings_dialog.h"

#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

using namespace npuscope;

TEST_CASE("warnings dialog lists counts per kind and rank with examples", "[warnings]") {
  auto t0 = testing::makeTwoLaneTrace();
  auto t1 = testing::makeTwoLaneTrace();
  t0->stats.add(core::ImportWarning::OrphanEnd, "orphan E at 5.000 us on 1/1");
  t0->stats.add(core::ImportWarning::OrphanEnd, "orphan E at 7.000 us on 1/1");
  t0->stats.add(core::ImportWarning::BadDuration);
  auto profile = testing::makeProfile({t0, t1});
  profile->messages.push_back("skipped folder foo: no trace");
  widgets::WarningsDialog dlg(profile);
  CHECK(dlg.totalWarnings() == 3);
  QTreeWidget* tree = dlg.tree();
  REQUIRE(tree->topLevelItemCount() == 3);  // two ranks + profile messages
  QTreeWidgetItem* r0 = tree->topLevelItem(0);
  CHECK(r0->text(0) == QStringLiteral("rank 0 · NPU 0"));
  CHECK(r0->text(1) == QStringLiteral("3"));
  REQUIRE(r0->childCount() == 2);
  // Kinds are listed in NPUSCOPE_IMPORT_WARNINGS order: BadDuration before OrphanEnd.
  CHECK(r0->child(0)->text(2) == QStringLiteral("BadDuration"));
  CHECK(r0->child(0)->childCount() == 0);  // added without an example
  QTreeWidgetItem* orphan = r0->child(1);
  CHECK(orphan->text(0) == QString::fromUtf8(core::warningLabel(core::ImportWarning::OrphanEnd).data()));
  CHECK(orphan->text(1) == QStringLiteral("2"));
  CHECK(orphan->text(2) == QStringLiteral("OrphanEnd"));
  REQUIRE(orphan->childCount() == 2);
  CHECK(orphan->child(1)->text(0) == QStringLiteral("orphan E at 7.000 us on 1/1"));
  CHECK(tree->topLevelItem(1)->text(1) == QStringLiteral("0"));
  CHECK(tree->topLevelItem(2)->child(0)->text(0) == QStringLiteral("skipped folder foo: no trace"));
}

TEST_CASE("warnings dialog lists the ranks' table messages", "[warnings]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  profile->ranks[0].tableMessages.push_back("kernel_details.csv: empty CSV");
  profile->ranks[0].tableMessages.push_back("step_trace_time.csv: empty CSV");
  widgets::WarningsDialog dlg(profile);
  CHECK(dlg.totalWarnings() == 2);
  QTreeWidgetItem* r0 = dlg.tree()->topLevelItem(0);
  CHECK(r0->text(1) == QStringLiteral("2"));
  REQUIRE(r0->childCount() == 2);
  CHECK(r0->child(0)->text(0) == QStringLiteral("kernel_details.csv: empty CSV"));
  CHECK(r0->child(0)->text(2) == QStringLiteral("table"));
  CHECK(r0->child(1)->text(0) == QStringLiteral("step_trace_time.csv: empty CSV"));
}

TEST_CASE("warnings dialog: informational kinds are listed dimmed and left out of the total the status bar shows", "[warnings]") {
  // Issue 42 item 4: the status bar said 20 and the dialog 277 on the 910B two-rank capture.
  auto t0 = testing::makeTwoLaneTrace();
  t0->stats.add(core::ImportWarning::MinorOverlap, 78, "on Ascend Hardware / Stream 4: 78 slice(s)");
  t0->stats.add(core::ImportWarning::ConcurrentCommTasks, 50, "on Ascend Hardware / Stream 4: 50 task(s)");
  t0->stats.add(core::ImportWarning::PartialOverlap, "on Python / Thread 1");
  auto profile = testing::makeProfile({t0});
  profile->ranks[0].tableMessages.push_back("kernel_details.csv: empty CSV");
  widgets::WarningsDialog dlg(profile);
  // ImportStats::total() (the status bar's warnings) + the table messages: 1 + 1.
  CHECK(t0->stats.total() == 1);
  CHECK(dlg.totalWarnings() == t0->stats.total() + 1);
  CHECK(dlg.informational() == 78 + 50);
  QTreeWidgetItem* r0 = dlg.tree()->topLevelItem(0);
  CHECK(r0->text(1) == QStringLiteral("2"));
  bool dimmed = false;
  for (int i = 0; i < r0->childCount(); ++i)
    if (r0->child(i)->text(2).startsWith(QStringLiteral("MinorOverlap")))
      dimmed = r0->child(i)->text(2).contains(QStringLiteral("informational")) && r0->child(i)->text(1) == QStringLiteral("78");
  CHECK(dimmed);
}
