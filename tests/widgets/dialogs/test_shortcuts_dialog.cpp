// SPDX-License-Identifier: MIT
#include "widgets/dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QApplication>
#include <QFontMetrics>
#include <QScrollBar>
#include <QTableWidget>
#include <algorithm>
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

TEST_CASE("the shortcuts dialog lists the actions' shortcuts and wraps its descriptions", "[shortcuts]") {
  // Four actions as the main window binds them (app/main_window.cpp): F5, Ctrl+Shift+S, Ctrl+0
  // (which the timeline's own list names too) and ? + F1.
  QAction reload(QStringLiteral("&Reload"));
  reload.setShortcut(QKeySequence(Qt::Key_F5));
  QAction exportImage(QStringLiteral("&Export Image…"));
  exportImage.setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  QAction fit(QStringLiteral("&Fit All"));
  fit.setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  QAction help(QStringLiteral("&Keyboard Shortcuts"));
  help.setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
  QAction none(QStringLiteral("No keys"));
  const auto list = widgets::shortcutsWithActions({&reload, &exportImage, &fit, &help, &none});
  const auto count = [&](const QString& keys) {
    return std::count_if(list.begin(), list.end(), [&](const widgets::Shortcut& s) { return s.keys == keys; });
  };
  REQUIRE(list.size() >= 4);
  CHECK(list[0].keys == QStringLiteral("F5"));
  CHECK(list[0].description == QStringLiteral("Reload"));
  CHECK(list[1].keys == QStringLiteral("Ctrl+Shift+S"));
  CHECK(list[1].description == QStringLiteral("Export Image"));
  CHECK(list[3].keys == QStringLiteral("?, F1"));
  // Ctrl+0 and ? once each: the timeline's rows for them give way to the actions'.
  CHECK(count(QStringLiteral("Ctrl+0")) == 1);
  CHECK(count(QStringLiteral("?")) == 0);
  // Not bound by an action: the timeline's rows stay.
  CHECK(count(QStringLiteral("Shift+Z")) == 1);
  CHECK(count(QStringLiteral("W / S")) == 1);
  // One row per action with keys plus the rest of the timeline's list (6 rows name sequences;
  // Ctrl+0 and ? are covered here).
  CHECK(list.size() == 4 + widgets::timelineShortcuts().size() - 2);

  // At its own size nothing is cut: no sideways scrolling, and every description fits its cell
  // when wrapped at the column's width (measured with the cell's font, not taken from the view).
  widgets::ShortcutsDialog dlg;
  dlg.setActions({&reload, &exportImage, &fit, &help});
  dlg.show();
  auto* table = dlg.findChild<QTableWidget*>();
  REQUIRE(table);
  QApplication::processEvents();
  CHECK(table->rowCount() == static_cast<int>(list.size()));
  CHECK(table->horizontalScrollBar()->maximum() == 0);
  CHECK(table->columnWidth(0) + table->columnWidth(1) <= table->viewport()->width());
  for (int row = 0; row < table->rowCount(); ++row) {
    for (int col = 0; col < 2; ++col) {
      const QTableWidgetItem* item = table->item(row, col);
      REQUIRE(item);
      const QFontMetrics fm(item->font());
      const int textWidth = table->columnWidth(col) - 8;  // the cell's margins
      const QRect need = fm.boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap, item->text());
      CAPTURE(row, col, item->text());
      CHECK(need.width() <= textWidth);
      CHECK(need.height() <= table->rowHeight(row));
    }
  }
}
