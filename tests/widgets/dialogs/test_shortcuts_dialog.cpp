// SPDX-License-Identifier: MIT
#include "widgets/dialogs/shortcuts_dialog.h"

#include <QTableWidget>
#include <catch2/catch.hpp>

#include "tests/widgets/test_profiles.h"

using namespace npuscope;

TEST_CASE("shortcuts dialog lists every binding", "[shortcuts]") {
  const auto list = widgets::timelineShortcuts();
  auto has = [&](const QString& k) {
    for (const auto& s : list)
      if (s.keys == k) return true;
    return false;
  };
  CHECK(has(QStringLiteral("W / S")));
  CHECK(has(QStringLiteral("Shift+Z")));
  CHECK(has(QStringLiteral("Backspace")));
  CHECK(has(QStringLiteral("Ctrl+0")));
  CHECK(has(QStringLiteral("?")));
  widgets::ShortcutsDialog dlg;
  auto* table = dlg.findChild<QTableWidget*>();
  REQUIRE(table);
  CHECK(table->rowCount() == static_cast<int>(list.size()));
}
