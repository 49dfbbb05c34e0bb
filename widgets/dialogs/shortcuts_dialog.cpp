// SPDX-License-Identifier: MIT
#include "widgets/dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

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
      {ShortcutsDialog::tr("Ctrl+Up / Ctrl+Down, wheel over the lane names"),
       ShortcutsDialog::tr("Previous / next rank at the top (one notch a rank)")},
      {ShortcutsDialog::tr("Left-drag on empty space"), ShortcutsDialog::tr("Pan (horizontally and vertically)")},
      {ShortcutsDialog::tr("Shift+drag, drag on the ruler"), ShortcutsDialog::tr("Select a time range (its duration is shown)")},
      {QStringLiteral("Shift+Z"), ShortcutsDialog::tr("Zoom to the selected time range"), {QKeySequence(Qt::SHIFT | Qt::Key_Z)}},
      {ShortcutsDialog::tr("Backspace"), ShortcutsDialog::tr("Undo the last zoom")},
      {QStringLiteral("Ctrl+0"), ShortcutsDialog::tr("Fit the whole profile"), {QKeySequence(Qt::CTRL | Qt::Key_0)}},
      {ShortcutsDialog::tr("Click"), ShortcutsDialog::tr("Select a slice (click on empty space clears)")},
      {ShortcutsDialog::tr("Double-click, F"), ShortcutsDialog::tr("Zoom to the selected slice")},
      {QStringLiteral("Esc"), ShortcutsDialog::tr("Clear the slice and time selections")},
      {QStringLiteral("M"), ShortcutsDialog::tr("Add a marker at the mouse cursor (View > Markers lists them)")},
      {QStringLiteral("Shift+M"), ShortcutsDialog::tr("Add a range marker over the selected time range")},
      {QStringLiteral("Ctrl+F"), ShortcutsDialog::tr("Find slices by name (Enter / Shift+Enter: next / previous match)"),
       {QKeySequence(Qt::CTRL | Qt::Key_F)}},
      {ShortcutsDialog::tr("] or Ctrl+Right"), ShortcutsDialog::tr("Follow the selected slice's first outgoing flow"),
       {QKeySequence(Qt::Key_BracketRight), QKeySequence(Qt::CTRL | Qt::Key_Right)}},
      {ShortcutsDialog::tr("[ or Ctrl+Left"), ShortcutsDialog::tr("Go back along the selected slice's first incoming flow"),
       {QKeySequence(Qt::Key_BracketLeft), QKeySequence(Qt::CTRL | Qt::Key_Left)}},
      {ShortcutsDialog::tr("Click a rank / process header"), ShortcutsDialog::tr("Expand / collapse it")},
      {ShortcutsDialog::tr("Click a deep lane's name or its +N more levels row"),
       ShortcutsDialog::tr("Show every level of a deep call stack / fold it back")},
      {QStringLiteral("?"), ShortcutsDialog::tr("Show this help"), {QKeySequence(Qt::Key_Question)}},
  };
}

std::vector<Shortcut> shortcutsWithActions(const QList<QAction*>& actions) {
  std::vector<Shortcut> out;
  QList<QKeySequence> bound;
  for (const QAction* a : actions) {
    if (!a || a->shortcuts().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) {
      keys << k.toString(QKeySequence::NativeText);
      bound << k;
    }
    QString text = a->text();
    text.remove(QRegularExpression(QStringLiteral("\\(&[^)]\\)")));  // a translation's "(&R)" mnemonic
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01")).remove(QLatin1Char('&')).replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QChar(0x2026))) text.chop(1);
    if (text.endsWith(QStringLiteral("..."))) text.chop(3);
    const QString tip = a->statusTip();
    out.push_back({keys.join(QStringLiteral(", ")), tip.isEmpty() ? text : text + QStringLiteral(": ") + tip, a->shortcuts()});
  }
  for (Shortcut& s : timelineShortcuts()) {
    const bool covered = !s.sequences.isEmpty() && std::all_of(s.sequences.begin(), s.sequences.end(), [&](const QKeySequence& k) {
      return bound.contains(k);
    });
    if (!covered) out.push_back(std::move(s));
  }
  return out;
}

ShortcutsDialog::ShortcutsDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Timeline shortcuts"));
  m_table = new QTableWidget(0, 2, this);
  m_table->setHorizontalHeaderLabels({tr("Keys / mouse"), tr("Action")});
  m_table->verticalHeader()->hide();
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionMode(QAbstractItemView::NoSelection);
  m_table->setShowGrid(false);
  m_table->setAlternatingRowColors(true);
  m_table->setFocusPolicy(Qt::NoFocus);
  // Long descriptions wrap onto more lines: nothing is elided, nothing scrolls sideways.
  m_table->setWordWrap(true);
  m_table->setTextElideMode(Qt::ElideNone);
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
  m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* lay = new QVBoxLayout(this);
  lay->addWidget(m_table);
  lay->addWidget(buttons);
  rebuild();
  resize(760, 600);
}

void ShortcutsDialog::setActions(const QList<QAction*>& actions) {
  m_actions.clear();
  for (QAction* a : actions) m_actions << QPointer<QAction>(a);
  rebuild();
}

void ShortcutsDialog::rebuild() {
  QList<QAction*> actions;
  for (const QPointer<QAction>& a : m_actions)
    if (a) actions << a.data();
  const auto list = shortcutsWithActions(actions);
  m_table->setRowCount(static_cast<int>(list.size()));
  for (int i = 0; i < static_cast<int>(list.size()); ++i) {
    const Shortcut& s = list[static_cast<std::size_t>(i)];
    auto* k = new QTableWidgetItem(s.keys);
    QFont f = k->font();
    f.setBold(true);
    k->setFont(f);
    k->setToolTip(s.keys);
    m_table->setItem(i, 0, k);
    auto* d = new QTableWidgetItem(s.description);
    d->setToolTip(s.description);
    m_table->setItem(i, 1, d);
  }
  resizeEvent(nullptr);
}

void ShortcutsDialog::showEvent(QShowEvent* event) {
  rebuild();  // the actions' shortcuts and texts as they are now
  QDialog::showEvent(event);
}

void ShortcutsDialog::resizeEvent(QResizeEvent* event) {
  if (event) QDialog::resizeEvent(event);
  // The keys column as wide as its longest entry, but at most 40% of the table (it wraps past
  // that); the descriptions take the rest and wrap.
  const int width = m_table->viewport()->width();
  m_table->resizeColumnToContents(0);
  m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), std::max(80, width * 2 / 5)));
  m_table->resizeRowsToContents();
}

}  // namespace npuscope::widgets
