// SPDX-License-Identifier: MIT
// The Advisor Thresholds dialog: every field with its default, unit and source; edits, restore
// defaults, the chip, and the QSettings round trip.
#include "widgets/dialogs/advisor_thresholds_dialog.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

using namespace npuscope;

TEST_CASE("AdvisorThresholdsDialog lists every threshold with its default, unit and source", "[advice]") {
  const core::AdvisorThresholds defaults;
  widgets::AdvisorThresholdsDialog dlg(defaults, QStringLiteral("Ascend910B3"));
  const auto& fields = core::advisorThresholdFields();
  REQUIRE(dlg.fieldTable()->rowCount() == static_cast<int>(fields.size()));
  REQUIRE(fields.size() == 32);  // AdvisorThresholds has 32 scalar marks besides the chip and tables (7 of the fusion rules)
  // The defaults as written in docs/diagnosis.md §6: AI_CPU 20 us, GC 1 ms, sync 0.5, 20 aclop per step.
  auto rowOf = [&](const char* key) {
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (std::string_view(fields[i].key) == key) return static_cast<int>(i);
    return -1;
  };
  CHECK(dlg.fieldTable()->item(rowOf("aicpu_min_us"), 2)->text() == QStringLiteral("20"));
  CHECK(dlg.fieldTable()->item(rowOf("aicpu_min_us"), 3)->text() == QStringLiteral("us"));
  CHECK(dlg.fieldTable()->item(rowOf("aicpu_min_us"), 4)->text().contains(QStringLiteral("aicpu")));
  CHECK(dlg.fieldTable()->item(rowOf("gc_min_ms"), 2)->text() == QStringLiteral("1"));
  CHECK(dlg.fieldTable()->item(rowOf("sync_launch_ratio"), 2)->text() == QStringLiteral("0.5"));
  CHECK(dlg.fieldTable()->item(rowOf("aclop_per_step"), 2)->text() == QStringLiteral("20"));
  for (int r = 0; r < dlg.fieldTable()->rowCount(); ++r) CHECK_FALSE(dlg.fieldTable()->item(r, 4)->text().isEmpty());
  // The peak table: 4 peaks and 5 core counts, each with a source.
  CHECK(dlg.peakTable()->rowCount() == static_cast<int>(defaults.peaks.size() + defaults.cores.size()));
  CHECK(dlg.chipBox()->itemText(0).contains(QStringLiteral("Ascend910B3")));

  // Edits come back in ns / counts; the chip picked from the list.
  dlg.editor("aicpu_min_us")->setValue(50);
  dlg.editor("gc_min_ms")->setValue(2.5);
  dlg.editor("aclop_per_step")->setValue(7);
  dlg.chipBox()->setCurrentIndex(dlg.chipBox()->findData(QStringLiteral("Ascend910B1")));
  core::AdvisorThresholds t = dlg.thresholds();
  CHECK(t.aicpuMinNs == 50'000);
  CHECK(t.gcMinNs == 2'500'000);
  CHECK(t.aclopPerStep == 7);
  CHECK(t.chip == "Ascend910B1");
  // A typed chip name is taken as is.
  dlg.chipBox()->setEditText(QStringLiteral("Ascend910B4"));
  CHECK(dlg.thresholds().chip == "Ascend910B4");

  dlg.restoreDefaults();
  t = dlg.thresholds();
  CHECK(t.aicpuMinNs == defaults.aicpuMinNs);
  CHECK(t.gcMinNs == defaults.gcMinNs);
  CHECK(t.aclopPerStep == defaults.aclopPerStep);
  CHECK(t.chip.empty());
}

TEST_CASE("Advisor thresholds survive a QSettings round trip, only the changed ones stored", "[advice]") {
  QTemporaryDir dir;
  QSettings settings(dir.filePath(QStringLiteral("t.ini")), QSettings::IniFormat);
  core::AdvisorThresholds t;
  t.aicpuMinNs = 42'000;
  t.busyPipeRatio = 0.7;
  t.chip = "Ascend910B2";
  widgets::saveAdvisorThresholds(settings, t);
  CHECK(settings.contains(QStringLiteral("advisor/aicpu_min_us")));
  CHECK_FALSE(settings.contains(QStringLiteral("advisor/gc_min_ms")));  // default: not stored
  const core::AdvisorThresholds back = widgets::loadAdvisorThresholds(settings);
  CHECK(back.aicpuMinNs == 42'000);
  CHECK(back.busyPipeRatio == 0.7);
  CHECK(back.gcMinNs == core::AdvisorThresholds{}.gcMinNs);
  CHECK(back.chip == "Ascend910B2");
  // A bad saved value keeps the default.
  settings.setValue(QStringLiteral("advisor/heavy_ops"), QStringLiteral("many"));
  settings.setValue(QStringLiteral("advisor/low_utilisation"), 7.0);  // outside [0, 1]
  const core::AdvisorThresholds bad = widgets::loadAdvisorThresholds(settings);
  CHECK(bad.heavyOps == core::AdvisorThresholds{}.heavyOps);
  CHECK(bad.lowUtilisation == core::AdvisorThresholds{}.lowUtilisation);
  // Back to defaults removes every key.
  widgets::saveAdvisorThresholds(settings, core::AdvisorThresholds{});
  CHECK(settings.allKeys().isEmpty());
}
