// SPDX-License-Identifier: MIT
#include "widgets/dialogs/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace npuscope::widgets {

std::vector<Shortcut> timelineShortcuts() {
  return {
      {QStringLiteral("W / S"), ShortcutsDialog::tr("Zoom in / out at the mouse cursor (view centre if outside)")},
      {ShortcutsDialog::tr("Ctrl+wheel"), ShortcutsDialog::tr("Zoom at the mouse cursor")},
      {ShortcutsDialog::tr("Mouse wheel"),
       ShortcutsDialog::tr("Scroll lanes up / down (View > Mouse Wheel Zooms: zoom, and Shift+wheel scrolls)")},
      {ShortcutsDialog::tr("A / D, Left / Right"), ShortcutsDialog::tr("Pan left / right (hold Shift for bigger steps)")},
      {ShortcutsDialog::tr("Shift+wheel, horizontal wheel"), ShortcutsDialog::tr("Pan left / right")},
      {ShortcutsDialog::tr("Up / Down, PgUp / PgDn"), ShortcutsDialog::tr("Scroll lanes up / down")},
      {ShortcutsDialog::tr("Home / End"), ShortcutsDialog::tr("Scroll to the first / last lane")},
      {ShortcutsDialog::tr("Left-drag on empty space"), ShortcutsDialog::tr("Pan (horizontally and vertically)")},
      {ShortcutsDialog::tr("Shift+drag, drag on the ruler"), ShortcutsDialog::tr("Select a time range (its duration is shown)")},
      {QStringLiteral("Shift+Z"), ShortcutsDialog::tr("Zoom to the selected time range")},
      {ShortcutsDialog::tr("Backspace"), ShortcutsDialog::tr("Undo the last zoom")},
      {QStringLiteral("Ctrl+0"), ShortcutsDialog::tr("Fit the whole profile")},
      {ShortcutsDialog::tr("Click"), ShortcutsDialog::tr("Select a slice (click on empty space clears)")},
      {ShortcutsDialog::tr("Double-click, F"), ShortcutsDialog::tr("Zoom to the selected slice")},
      {QStringLiteral("Esc"), ShortcutsDialog::tr("Clear the slice and time selections")},
      {QStringLiteral("M"), ShortcutsDialog::tr("Add a marker at the mouse cursor (View > Markers lists them)")},
      {QStringLiteral("Shift+M"), ShortcutsDialog::tr("Add a range marker over the selected time range")},
      {QStringLiteral("Ctrl+F"), ShortcutsDialog::tr("Find slices by name (Enter / Shift+Enter: next / previous match)")},
      {ShortcutsDialog::tr("] or Ctrl+Right"), ShortcutsDialog::tr("Follow the selected slice's first outgoing flow")},
      {ShortcutsDialog::tr("[ or Ctrl+Left"), ShortcutsDialog::tr("Go back along the selected slice's first incoming flow")},
      {ShortcutsDialog::tr("Click a rank / process header"), ShortcutsDialog::tr("Expand / collapse it")},
      {ShortcutsDialog::tr("Click a deep lane's name or its +N more levels row"),
       ShortcutsDialog::tr("Show every level of a deep call stack / fold it back")},
      {QStringLiteral("?"), ShortcutsDialog::tr("Show this help")},
  };
}

ShortcutsDialog::ShortcutsDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Timeline shortcuts"));
  const auto list = timelineShortcuts();
  auto* table = new QTableWidget(static_cast<int>(list.size()), 2, this);
  table->setHorizontalHeaderLabels({tr("Keys / mouse"), tr("Action")});
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
