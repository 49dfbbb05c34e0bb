// SPDX-License-Identifier: MIT
#include "widgets/dialogs/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace npuscope::widgets {

std::vector<Shortcut> timelineShortcuts() {
  return {
      {QStringLiteral("W / S"), QStringLiteral("Zoom in / out at the mouse cursor (view centre if outside)")},
      {QStringLiteral("Ctrl+wheel"), QStringLiteral("Zoom at the mouse cursor")},
      {QStringLiteral("Mouse wheel"),
       QStringLiteral("Scroll lanes up / down (View > Mouse Wheel Zooms: zoom, and Shift+wheel scrolls)")},
      {QStringLiteral("A / D, Left / Right"), QStringLiteral("Pan left / right (hold Shift for bigger steps)")},
      {QStringLiteral("Shift+wheel, horizontal wheel"), QStringLiteral("Pan left / right")},
      {QStringLiteral("Up / Down, PgUp / PgDn"), QStringLiteral("Scroll lanes up / down")},
      {QStringLiteral("Home / End"), QStringLiteral("Scroll to the first / last lane")},
      {QStringLiteral("Left-drag on empty space"), QStringLiteral("Pan (horizontally and vertically)")},
      {QStringLiteral("Shift+drag, drag on the ruler"), QStringLiteral("Select a time range (its duration is shown)")},
      {QStringLiteral("Shift+Z"), QStringLiteral("Zoom to the selected time range")},
      {QStringLiteral("Backspace"), QStringLiteral("Undo the last zoom")},
      {QStringLiteral("Ctrl+0"), QStringLiteral("Fit the whole profile")},
      {QStringLiteral("Click"), QStringLiteral("Select a slice (click on empty space clears)")},
      {QStringLiteral("Double-click, F"), QStringLiteral("Zoom to the selected slice")},
      {QStringLiteral("Esc"), QStringLiteral("Clear the slice and time selections")},
      {QStringLiteral("Ctrl+F"), QStringLiteral("Find slices by name (Enter / Shift+Enter: next / previous match)")},
      {QStringLiteral("] or Ctrl+Right"), QStringLiteral("Follow the selected slice's first outgoing flow")},
      {QStringLiteral("[ or Ctrl+Left"), QStringLiteral("Go back along the selected slice's first incoming flow")},
      {QStringLiteral("Click a rank / process header"), QStringLiteral("Expand / collapse it")},
      {QStringLiteral("Click a deep lane's name or its +N more levels row"),
       QStringLiteral("Show every level of a deep call stack / fold it back")},
      {QStringLiteral("?"), QStringLiteral("Show this help")},
  };
}

ShortcutsDialog::ShortcutsDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(QStringLiteral("Timeline shortcuts"));
  const auto list = timelineShortcuts();
  auto* table = new QTableWidget(static_cast<int>(list.size()), 2, this);
  table->setHorizontalHeaderLabels({QStringLiteral("Keys / mouse"), QStringLiteral("Action")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionMode(QAbstractItemView::NoSelection);
  table->setShowGrid(false);
  table->setAlternatingRowColors(true);
  table->setFocusPolicy(Qt::NoFocus);
  for (int i = 0; i < static_cast<int>(list.size()); ++i) {
    auto* k = new QTableWidgetItem(list[static_cast<std::size_t>(i)].keys);
    QFont f = k->font();
    f.setBold(true);
    k->setFont(f);
    table->setItem(i, 0, k);
    table->setItem(i, 1, new QTableWidgetItem(list[static_cast<std::size_t>(i)].description));
  }
  table->resizeColumnsToContents();
  table->horizontalHeader()->setStretchLastSection(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* lay = new QVBoxLayout(this);
  lay->addWidget(table);
  lay->addWidget(buttons);
  resize(620, 520);
}

}  // namespace npuscope::widgets
