// SPDX-License-Identifier: MIT
#include "widgets/panels/compare_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "widgets/analysis_labels.h"

namespace npuscope::widgets {

namespace {

/// A bubble cause row's name as the Top-Down panel shows it ("Slow dispatch", translated), from
/// the key compare gives (`slow_dispatch`); the key itself when it names no cause.
QString causeName(const std::string& key) {
  for (std::size_t c = 0; c < core::kBubbleCauseCount; ++c)
    if (key == core::bubbleCauseKey(static_cast<core::BubbleCause>(c))) return bubbleCauseText(static_cast<core::BubbleCause>(c));
  return QString::fromStdString(key);
}

enum Column { Rank, Kind, What, A, B, Delta, Calls, Columns };

QTableWidgetItem* msItem(double ns, bool signedValue = false) {
  auto* it = new QTableWidgetItem;
  it->setData(Qt::DisplayRole, std::round(ns / 1e3) / 1e3);  // ms with 3 decimals, sorted as a number
  it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  if (signedValue && ns != 0) it->setForeground(ns > 0 ? QColor(0xcf, 0x22, 0x2e) : QColor(0x1a, 0x7f, 0x37));
  return it;
}

}  // namespace

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  m_verdict = new QLabel(this);
  m_verdict->setWordWrap(true);
  m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_align = new QComboBox(this);
  m_align->addItem(tr("Align on the first step's start"), static_cast<int>(Align::StepStart));
  m_align->addItem(tr("Align on the selected slices"), static_cast<int>(Align::Selection));
  m_align->addItem(tr("Align the starts of the captures"), static_cast<int>(Align::None));
  m_align->setToolTip(tr("How B's timeline (below) follows A's: the same time after the first step's device start, after the "
                         "slice selected on each, or after each capture's start"));
  bar->addWidget(m_verdict, 1);
  bar->addWidget(m_align);
  layout->addLayout(bar);
  m_notes = new QLabel(this);
  m_notes->setWordWrap(true);
  m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_notes->setForegroundRole(QPalette::PlaceholderText);
  m_notes->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto* notesArea = new QScrollArea(this);
  notesArea->setObjectName(QStringLiteral("CompareNotes"));
  notesArea->setWidget(m_notes);
  notesArea->setWidgetResizable(true);
  notesArea->setFrameShape(QFrame::NoFrame);
  notesArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  notesArea->setMaximumHeight(fontMetrics().lineSpacing() * 3 + 2);
  layout->addWidget(notesArea);
  m_notesArea = notesArea;
  m_table = new QTableWidget(this);
  m_table->setColumnCount(Columns);
  m_table->setHorizontalHeaderLabels({tr("Rank"), tr("Kind"), tr("What"), tr("A (ms)"), tr("B (ms)"), tr("B - A (ms)"),
                                      tr("Calls A / B")});
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);  // compact rows: more of them fit
  m_table->verticalHeader()->hide();
  m_table->setMinimumHeight(80);
  layout->addWidget(m_table, 1);
  connect(m_align, &QComboBox::activated, this, [this](int) { emit alignChanged(align()); });
  connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = m_table->selectionModel()->selectedRows(What);
    if (rows.isEmpty()) return;
    const QTableWidgetItem* what = m_table->item(rows.front().row(), What);
    const QTableWidgetItem* rank = m_table->item(rows.front().row(), Rank);
    if (what && rank && what->data(Qt::UserRole).toString() == QLatin1String("operator"))
      emit operatorSelected(rank->data(Qt::DisplayRole).toInt(), what->text());
  });
}

void ComparePanel::setResult(const core::CompareResult& r) {
  QString verdict = tr("A: %1 (above) · B: %2 (below)").arg(QString::fromStdString(r.a), QString::fromStdString(r.b)) +
                    QStringLiteral("\n") + QString::fromStdString(r.verdict);
  // The notes: the comparison's, then the ranks' own (Level0 on one side: kernels compared by
  // name, causes not compared), each once.
  QStringList notes;
  for (const std::string& n : r.notes) notes << QString::fromStdString(n);
  for (const core::CompareRank& k : r.ranks)
    for (const std::string& n : k.notes)
      if (const QString q = QString::fromStdString(n); !notes.contains(q)) notes << q;
  m_verdict->setText(verdict);
  m_notes->setText(notes.join(QLatin1Char('\n')));
  m_notesArea->setVisible(!notes.isEmpty());
  m_table->setSortingEnabled(false);
  m_table->clearContents();
  m_table->setRowCount(0);
  auto add = [&](int rank, const QString& kind, const QString& what, const char* role, double a, double b, const QString& calls) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* rankItem = new QTableWidgetItem;
    rankItem->setData(Qt::DisplayRole, rank);
    m_table->setItem(row, Rank, rankItem);
    m_table->setItem(row, Kind, new QTableWidgetItem(kind));
    auto* whatItem = new QTableWidgetItem(what);
    whatItem->setData(Qt::UserRole, QString::fromLatin1(role));
    m_table->setItem(row, What, whatItem);
    m_table->setItem(row, A, msItem(a));
    m_table->setItem(row, B, msItem(b));
    m_table->setItem(row, Delta, msItem(b - a, true));
    m_table->setItem(row, Calls, new QTableWidgetItem(calls));
  };
  for (const core::CompareRank& k : r.ranks) {
    if (k.a && k.b) {
      const std::pair<QString, core::TimeNs core::OverlapFigures::*> parts[] = {
          {tr("Computing"), &core::OverlapFigures::computing},
          {tr("Communication (Not Overlapped)"), &core::OverlapFigures::commNotOverlapped},
          {tr("Free"), &core::OverlapFigures::free},
          {tr("Device time"), &core::OverlapFigures::e2e}};
      for (const auto& [name, m] : parts)
        add(k.rank, tr("Figure"), name, "figure", static_cast<double>((*k.a).*m), static_cast<double>((*k.b).*m), {});
    }
    for (const core::CompareRow& row : k.operatorTypes)
      add(k.rank, tr("Operator"), QString::fromStdString(row.key), "operator", static_cast<double>(row.a),
          static_cast<double>(row.b), QStringLiteral("%1 / %2").arg(row.aCount).arg(row.bCount));
    for (const core::CompareRow& row : k.bubbleCauses) {
      const bool comparable = row.notComparable.empty();
      add(k.rank, tr("Bubbles"), comparable ? causeName(row.key) : tr("%1 (not comparable)").arg(causeName(row.key)), "cause",
          static_cast<double>(row.a), static_cast<double>(row.b), QStringLiteral("%1 / %2").arg(row.aCount).arg(row.bCount));
      if (comparable) continue;
      const int at = m_table->rowCount() - 1;
      const QColor dim = palette().color(QPalette::PlaceholderText);
      for (int c = 0; c < m_table->columnCount(); ++c)
        if (QTableWidgetItem* it = m_table->item(at, c)) {
          it->setForeground(dim);
          it->setToolTip(tr("Not comparable: %1").arg(QString::fromStdString(row.notComparable)));
        }
    }
  }
  m_table->setSortingEnabled(true);
  m_table->resizeColumnsToContents();
  m_table->horizontalHeader()->setSectionResizeMode(What, QHeaderView::Stretch);
}

QString ComparePanel::verdictText() const {
  return m_notes->text().isEmpty() ? m_verdict->text() : m_verdict->text() + QLatin1Char('\n') + m_notes->text();
}

ComparePanel::Align ComparePanel::align() const { return static_cast<Align>(m_align->currentData().toInt()); }

void ComparePanel::setAlign(Align a) {
  const int at = m_align->findData(static_cast<int>(a));
  if (at >= 0) m_align->setCurrentIndex(at);
  emit alignChanged(a);
}

}  // namespace npuscope::widgets
