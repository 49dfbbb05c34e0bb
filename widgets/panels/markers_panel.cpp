// SPDX-License-Identifier: MIT
#include "widgets/panels/markers_panel.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/base/time_format.h"
#include "widgets/timeline/markers.h"

namespace npuscope::widgets {

namespace {

QIcon swatch(QRgb c) {
  QPixmap pm(12, 12);
  pm.fill(QColor::fromRgb(c));
  return QIcon(pm);
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

MarkersPanel::MarkersPanel(ViewState* state, MarkerList* markers, QWidget* parent)
    : QWidget(parent), m_state(state), m_markers(markers) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(6, 6, 6, 6);
  v->setSpacing(4);
  auto* hint = new QLabel(tr("M adds a marker at the cursor, Shift+M one over the time selection (or right-click the "
                             "lanes). Kept per profile folder in your settings."),
                          this);
  hint->setWordWrap(true);
  hint->setForegroundRole(QPalette::PlaceholderText);
  v->addWidget(hint);
  m_list = new QTreeWidget(this);
  m_list->setObjectName(QStringLiteral("MarkersList"));
  m_list->setColumnCount(3);
  m_list->setHeaderLabels({tr("Name"), tr("Time"), tr("Duration")});
  m_list->setRootIsDecorated(false);
  m_list->setUniformRowHeights(true);
  m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_list->header()->setStretchLastSection(true);
  v->addWidget(m_list, 1);
  auto* buttons = new QHBoxLayout;
  m_rename = new QPushButton(tr("Rename"), this);
  m_recolor = new QPushButton(tr("Colour…"), this);
  m_delete = new QPushButton(tr("Delete"), this);
  buttons->addWidget(m_rename);
  buttons->addWidget(m_recolor);
  buttons->addWidget(m_delete);
  buttons->addStretch(1);
  v->addLayout(buttons);

  connect(m_rename, &QPushButton::clicked, this, &MarkersPanel::renameCurrent);
  connect(m_recolor, &QPushButton::clicked, this, &MarkersPanel::recolorCurrent);
  connect(m_delete, &QPushButton::clicked, this, &MarkersPanel::deleteCurrent);
  auto* del = new QShortcut(QKeySequence::Delete, m_list);
  del->setContext(Qt::WidgetShortcut);
  connect(del, &QShortcut::activated, this, &MarkersPanel::deleteCurrent);
  connect(m_list, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
    if (item) emit markerActivated(m_list->indexOfTopLevelItem(item));
  });
  connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    updateButtons();
    if (!m_rebuilding && item && m_list->hasFocus()) emit markerActivated(m_list->indexOfTopLevelItem(item));
  });
  connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
    if (m_rebuilding || column != 0) return;
    m_markers->rename(m_list->indexOfTopLevelItem(item), item->text(0));
  });
  connect(m_markers, &MarkerList::changed, this, &MarkersPanel::rebuild);
  if (m_state) connect(m_state, &ViewState::profileChanged, this, &MarkersPanel::rebuild);
  rebuild();
}

int MarkersPanel::currentMarker() const {
  QTreeWidgetItem* item = m_list->currentItem();
  return item ? m_list->indexOfTopLevelItem(item) : -1;
}

void MarkersPanel::rebuild() {
  m_rebuilding = true;
  const int current = currentMarker();
  // Items are updated in place (a rename arrives from the item's own itemChanged signal, during
  // which the item must not be deleted); only surplus ones are removed.
  const int n = m_markers->size();
  while (m_list->topLevelItemCount() > n) delete m_list->takeTopLevelItem(m_list->topLevelItemCount() - 1);
  while (m_list->topLevelItemCount() < n) new QTreeWidgetItem(m_list);
  const core::TimeNs origin = m_state && m_state->profile() ? m_state->profile()->range().start : 0;
  for (int i = 0; i < n; ++i) {
    const Marker& m = m_markers->markers()[static_cast<std::size_t>(i)];
    QTreeWidgetItem* item = m_list->topLevelItem(i);
    item->setText(0, m.name);
    item->setIcon(0, swatch(m.color));
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    item->setText(1, qs(core::formatTimeOffset(m.start - origin)));
    item->setText(2, m.isRange() ? qs(core::formatDuration(m.end - m.start)) : tr("point"));
    item->setToolTip(0, tr("Double-click to rename; click to show it on the timeline"));
  }
  if (current >= 0 && current < n && m_list->currentItem() != m_list->topLevelItem(current))
    m_list->setCurrentItem(m_list->topLevelItem(current));
  m_list->resizeColumnToContents(0);
  m_list->resizeColumnToContents(1);
  m_rebuilding = false;
  updateButtons();
}

void MarkersPanel::updateButtons() {
  const bool any = currentMarker() >= 0;
  m_rename->setEnabled(any);
  m_recolor->setEnabled(any);
  m_delete->setEnabled(any);
}

void MarkersPanel::deleteCurrent() { m_markers->remove(currentMarker()); }

void MarkersPanel::renameCurrent() {
  if (QTreeWidgetItem* item = m_list->currentItem()) m_list->editItem(item, 0);
}

void MarkersPanel::recolorCurrent() {
  const int i = currentMarker();
  if (i < 0) return;
  const QColor c = QColorDialog::getColor(QColor::fromRgb(m_markers->markers()[static_cast<std::size_t>(i)].color),
                                          this, tr("Marker Colour"));
  if (c.isValid()) m_markers->recolor(i, c.rgb());
}

}  // namespace npuscope::widgets
