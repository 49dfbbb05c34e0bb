// SPDX-License-Identifier: MIT
#include "widgets/export/export_dialog.h"

#include <QComboBox>
#include <QPushButton>
#include <QRadioButton>
#include <catch2/catch.hpp>

using npuscope::widgets::ExportDialog;
using npuscope::widgets::TimelineExportOptions;

namespace {
QRadioButton* radio(const ExportDialog& d, const QString& text) {
  for (QRadioButton* b : d.findChildren<QRadioButton*>())
    if (b->text() == text) return b;
  return nullptr;
}
QPushButton* button(const ExportDialog& d, const QString& text) {
  for (QPushButton* b : d.findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}
}  // namespace

TEST_CASE("export dialog: the choices map to the options, and selection choices need a selection", "[export]") {
  SECTION("nothing selected") {
    ExportDialog d(false, false);
    REQUIRE(radio(d, QStringLiteral("Whole capture")));
    CHECK_FALSE(radio(d, QStringLiteral("Selection (time range, bubble or slice)"))->isEnabled());
    CHECK_FALSE(radio(d, QStringLiteral("Lanes of the selection"))->isEnabled());
    const TimelineExportOptions o = d.options();
    CHECK(o.range == TimelineExportOptions::Range::Visible);
    CHECK(o.lanes == TimelineExportOptions::Lanes::Visible);
    CHECK(o.scale == 1.0);
    CHECK_FALSE(d.svg());
    // A saved choice that needs a selection is not applied.
    TimelineExportOptions previous;
    previous.lanes = TimelineExportOptions::Lanes::Selected;
    previous.scale = 2.0;
    d.setOptions(previous);
    CHECK(d.options().lanes == TimelineExportOptions::Lanes::Visible);
    CHECK(d.options().scale == 2.0);
  }
  SECTION("with a selection, Copy accepts with the Copy action") {
    ExportDialog d(true, true);
    radio(d, QStringLiteral("Whole capture"))->setChecked(true);
    radio(d, QStringLiteral("Lanes of the selection"))->setChecked(true);
    d.setSvg(true);
    d.setCaption(true);
    const TimelineExportOptions o = d.options();
    CHECK(o.range == TimelineExportOptions::Range::Whole);
    CHECK(o.lanes == TimelineExportOptions::Lanes::Selected);
    CHECK(d.svg());
    CHECK(d.caption());
    QPushButton* copy = button(d, QStringLiteral("Copy Image to Clipboard"));
    REQUIRE(copy);
    copy->click();
    CHECK(d.result() == QDialog::Accepted);
    CHECK(d.action() == ExportDialog::Action::Copy);
  }
}
