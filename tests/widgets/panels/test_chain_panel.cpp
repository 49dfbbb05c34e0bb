// SPDX-License-Identifier: MIT
// ChainPanel: rows of a dispatch chain, missing layers, the path badge and link clicks.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "core/profile/profile.h"
#include "tests/core/kineto_npu_records.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/panels/chain_panel.h"

using npuscope::widgets::ChainPanel;

namespace {
constexpr const char* kAdvisor =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";
constexpr const char* kCase34 = "cases/34-step-trace-time-and-missing-overlap/with_overlap/trace_view.json";

std::shared_ptr<const npuscope::core::Profile> load(const char* relative) {
  auto r = npuscope::core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + relative);
  REQUIRE(r.ok());
  return r.profile;
}
}  // namespace

TEST_CASE("ChainPanel shows the ACLOP chain of the advisor fixture's longest bubble", "[chain]") {
  const auto profile = load(kAdvisor);
  const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
  ChainPanel panel;
  panel.resize(700, 300);
  panel.setChain(profile, 0, bubble.chain, QStringLiteral("Ends bubble #1"));
  REQUIRE(panel.rowCount() == 7);
  const QStringList layers = {QStringLiteral("Python API"), QStringLiteral("Torch op"), QStringLiteral("Enqueue"),
                              QStringLiteral("Dequeue"),    QStringLiteral("CANN API"), QStringLiteral("Node@launch"),
                              QStringLiteral("Device task")};
  for (int r = 0; r < 7; ++r) CHECK(panel.text(r, ChainPanel::Layer) == layers[r]);
  // Python API and Node@launch were not recorded: shown as missing, never invented.
  CHECK(panel.isMissing(0));
  CHECK(panel.text(0, ChainPanel::Name) == ChainPanel::missingText());
  CHECK(panel.isMissing(5));
  CHECK(panel.text(5, ChainPanel::Start).isEmpty());
  CHECK_FALSE(panel.isMissing(1));
  CHECK(panel.text(1, ChainPanel::Name) == QStringLiteral("Conv2D"));
  // Via in words (issue 42 item 6), the profiler's flow names in the tooltips.
  CHECK(panel.text(1, ChainPanel::Via) == ChainPanel::viaText("async_npu"));
  CHECK(panel.text(1, ChainPanel::Via) == QStringLiteral("op → task flow"));
  CHECK(panel.text(2, ChainPanel::Via) == QStringLiteral("task queue"));
  CHECK(ChainPanel::viaToolTip("async_task_queue").contains(QStringLiteral("async_task_queue")));
  CHECK(panel.text(3, ChainPanel::Name) == QStringLiteral("Dequeue@Conv2D"));
  CHECK(panel.text(3, ChainPanel::Duration) == QStringLiteral("1.108 ms"));
  CHECK(panel.text(4, ChainPanel::Name) == QStringLiteral("AscendCL@aclopCompileAndExecute"));
  CHECK(panel.text(4, ChainPanel::Via) == QStringLiteral("launch flow"));
  CHECK(panel.text(6, ChainPanel::Name) == QStringLiteral("trans_Cast_0"));
  CHECK(panel.text(6, ChainPanel::Duration) == QStringLiteral("4.28 us"));
  // No Node@launch in this CANN: the latency runs from the HostToDevice start, 2.734 us as
  // recorded, corrected by the capture's clock skew bound of 18.591 us: 21.325 us (the oracle,
  // tests/data/topdown_oracle.json: raw_latency_ns 2734, corrected_latency_ns 21325 for this bubble).
  CHECK(panel.text(6, ChainPanel::Via) == QStringLiteral("latency 21.325 us (corrected)"));
  CHECK(panel.contextText() == QStringLiteral("Launch latency 21.325 us (recorded 2.734 us; host/device clocks "
                                              "corrected by 18.591 us)  ·  Ends bubble #1"));
  // Start relative to the profile start: 1704161511424085712 - 1704161511420289011 ns.
  CHECK(panel.text(6, ChainPanel::Start) == QStringLiteral("3.797 ms"));
  CHECK(panel.badgeText() == QStringLiteral("ACLOP"));
  CHECK(panel.headerText().contains(QStringLiteral("trans_Cast_0")));

  SECTION("clicking a link emits it; a missing layer does nothing") {
    panel.show();
    REQUIRE(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &ChainPanel::linkActivated);
    QTreeWidget* tree = panel.tree();
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(tree->topLevelItem(0)).center());
    CHECK(spy.isEmpty());
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(tree->topLevelItem(3)).center());
    REQUIRE(spy.count() == 1);
    CHECK(spy.at(0).at(0).value<npuscope::widgets::RankSliceRef>().rank == 0);
    const auto ref = spy.at(0).at(0).value<npuscope::widgets::RankSliceRef>().slice;
    CHECK(ref == bubble.chain.find(npuscope::core::ChainLayer::Dequeue)->slice);
  }
}

TEST_CASE("ChainPanel: a chain with only the device task lists every other layer as missing", "[chain]") {
  const auto profile = load(kCase34);
  const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
  REQUIRE(bubble.chain.links.size() == 1);
  ChainPanel panel;
  panel.setChain(profile, 0, bubble.chain);
  REQUIRE(panel.rowCount() == 7);
  for (int r = 0; r < 6; ++r) {
    CHECK(panel.isMissing(r));
    CHECK(panel.text(r, ChainPanel::Name) == ChainPanel::missingText());
  }
  CHECK_FALSE(panel.isMissing(6));
  CHECK(panel.text(6, ChainPanel::Layer) == QStringLiteral("Device task"));
  CHECK(panel.badgeText().isEmpty());
}

TEST_CASE("ChainPanel of any device task via core::dispatchChain, and clearing", "[chain]") {
  const auto profile = load(kAdvisor);
  const npuscope::core::Trace& t = *profile->ranks[0].trace;
  // The first ACLNN-named task of an Ascend Hardware lane.
  npuscope::core::SliceRef task;
  for (std::uint32_t l = 0; l < t.lanes.size() && !task.valid(); ++l) {
    if (t.processes[t.lanes[l].process].role != npuscope::core::Process::Role::AscendHardware) continue;
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.sliceName({l, i}).rfind("aclnn", 0) == 0) {
        task = {l, i};
        break;
      }
  }
  REQUIRE(task.valid());
  const auto chain = npuscope::core::dispatchChain(t, task);
  ChainPanel panel;
  panel.setChain(profile, 0, chain);
  CHECK(panel.badgeText() == QString::fromStdString(chain.path));
  CHECK(panel.text(panel.rowCount() - 1, ChainPanel::Name) == QString::fromStdString(std::string(t.sliceName(task))));
  int missing = 0;
  for (int r = 0; r < panel.rowCount(); ++r) missing += panel.isMissing(r) ? 1 : 0;
  CHECK(missing == static_cast<int>(chain.missing.size()));
  CHECK(panel.rowCount() == static_cast<int>(chain.links.size() + chain.missing.size()));
  panel.clearChain();
  CHECK(panel.rowCount() == 0);
  CHECK_FALSE(panel.hasChain());
}

TEST_CASE("ChainPanel at the dock's default width shows every name and Via in full", "[chain][wrap]") {
  // The audit's case: bubble 1 of the Level1 capture (a with_stack Python API name of 50+
  // characters, AscendCL@aclopCompileAndExecute, the task queue) in the 500 px dock.
  const auto profile = load("corpus/ascend-pt-910b-l1-text-2rank");
  const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
  ChainPanel panel;
  panel.resize(500, 400);
  panel.setChain(profile, 0, bubble.chain, QStringLiteral("Ends bubble #1"));
  panel.show();
  REQUIRE(QTest::qWaitForWindowExposed(&panel));
  QTest::qWait(20);  // the delayed relayout after the columns' sizes settled
  auto* tree = panel.findChild<QTreeWidget*>(QStringLiteral("ChainTree"));
  REQUIRE(tree);
  int columnsWidth = 0;
  for (int c = 0; c < ChainPanel::ColumnCount; ++c) columnsWidth += tree->columnWidth(c);
  CHECK(columnsWidth <= tree->viewport()->width());
  for (int row = 0; row < tree->topLevelItemCount(); ++row) {
    QTreeWidgetItem* it = tree->topLevelItem(row);
    if (it->isFirstColumnSpanned()) continue;
    const int height = tree->visualItemRect(it).height();
    for (int c = 0; c < ChainPanel::ColumnCount; ++c) {
      const QFontMetrics fm(it->font(c));
      const int width = tree->columnWidth(c) - 6;  // the cell's text margins
      CAPTURE(row, c, it->text(c), tree->columnWidth(c));
      // Every word of the short columns fits (Via's "task queue", "launch flow"); a slice
      // name longer than its column (AscendCL@aclopCompileAndExecute) breaks anywhere. The text
      // so wrapped fits the row: nothing is cut.
      const int flags = c == ChainPanel::Name ? Qt::TextWordWrap | Qt::TextWrapAnywhere : Qt::TextWordWrap;
      const QRect need = fm.boundingRect(QRect(0, 0, width, 100000), flags, it->text(c));
      CHECK(need.width() <= width);
      CHECK(need.height() <= height);
    }
  }
  // The Slice column shows the Python API's name in full (the audit saw "<built-in method conv2d …").
  CHECK(tree->topLevelItem(0)->text(ChainPanel::Name).startsWith(QStringLiteral("<built-in method conv2d of type")));
}

TEST_CASE("ChainPanel names a Kineto kernel record as such and the op by its External id", "[chain]") {
  // Issue 41 item 6: torch_npu's Kineto runtime records sit at their kernel's own start (0 us)
  // (tests/core/kineto_npu_records.h): aten::mm [40,60) us, External id 12, issued MatMul
  // [20000,20030); the record is at 20000.
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("npu.pt.trace.json"));
  QFile f(path);
  REQUIRE(f.open(QIODevice::WriteOnly));
  f.write(npuscope::test::kNpuKernelRecords);
  f.close();
  auto r = npuscope::core::loadProfile(path.toStdString());
  REQUIRE(r.ok());
  const auto profile = r.profile;
  const auto& bubbles = profile->ranks[0].analysis->devices.at(0).bubbles;
  REQUIRE(bubbles.size() == 1);
  ChainPanel panel;
  panel.resize(700, 300);
  panel.setChain(profile, 0, bubbles[0].chain, QString());
  // Rows: Torch op, Runtime record, Device task (no Python API row: a Kineto chain lists it missing).
  int opRow = -1, recRow = -1;
  for (int k = 0; k < panel.rowCount(); ++k) {
    if (panel.text(k, ChainPanel::Layer) == QStringLiteral("Torch op")) opRow = k;
    if (panel.text(k, ChainPanel::Layer) == QStringLiteral("Runtime record")) recRow = k;
  }
  REQUIRE(opRow >= 0);
  REQUIRE(recRow >= 0);
  CHECK(panel.text(opRow, ChainPanel::Name) == QStringLiteral("aten::mm"));
  CHECK(panel.text(opRow, ChainPanel::Via) == QStringLiteral("same External id"));
  CHECK(panel.text(recRow, ChainPanel::Via) == QStringLiteral("kernel's own record"));
  CHECK(panel.contextText() == QStringLiteral("Launch time not recorded: issued during aten::mm"));
}
