// SPDX-License-Identifier: MIT
#include "widgets/panels/advice_panel.h"

#include <algorithm>

#include <QColor>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/base/time_format.h"
#include "core/report/report.h"

namespace npuscope::widgets {

AdviceModel::AdviceModel(QObject* parent) : QAbstractTableModel(parent) {}

void AdviceModel::setProfile(const std::shared_ptr<const core::Profile>& profile, const core::AdvisorThresholds& thresholds) {
  beginResetModel();
  m_rows.clear();
  m_profile = profile;
  if (profile) {
    std::vector<Row> all;
    for (std::size_t r = 0; r < profile->ranks.size(); ++r) {
      const core::RankAdvice a = core::adviseRankProfile(profile->ranks[r], thresholds);
      for (const core::Finding& f : a.findings) all.push_back({static_cast<int>(r), f});
    }
    // Across ranks as within one: issues first, then by time at stake per step.
    std::stable_sort(all.begin(), all.end(), [](const Row& a, const Row& b) {
      if (a.finding.severity != b.finding.severity) return a.finding.severity < b.finding.severity;
      return a.finding.atStakePerStep > b.finding.atStakePerStep;
    });
    m_rows = std::move(all);
  }
  endResetModel();
}

int AdviceModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}
int AdviceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AdviceModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) return {};
  const Row& row = m_rows[static_cast<std::size_t>(index.row())];
  const core::Finding& f = row.finding;
  if (role == Qt::ToolTipRole)
    return tr("%1\n\nMark: %2\nSource: %3\nEvidence: %4 slices").arg(QString::fromStdString(f.numbers), QString::fromStdString(f.threshold), QString::fromStdString(f.source)).arg(f.evidence.size());
  if (role == Qt::ForegroundRole && index.column() == Severity) {
    switch (f.severity) {
      case core::Severity::Issue: return QColor(0xc0, 0x39, 0x2b);
      case core::Severity::Ok: return QColor(0x27, 0x8c, 0x4a);
      case core::Severity::Unknown: return QColor(0x80, 0x80, 0x80);
      case core::Severity::Info: return QColor(0x2c, 0x6f, 0xb0);
    }
  }
  if (role == Qt::UserRole && index.column() == AtStake) return static_cast<qlonglong>(f.atStakePerStep);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Rank: {
      const auto& rp = m_profile->ranks[static_cast<std::size_t>(row.rank)];
      return QString::fromStdString(rp.source.label);
    }
    case Severity: return QString::fromLatin1(core::severityKey(f.severity));
    case Finding: return QString::fromStdString(f.title);
    case AtStake: return f.atStakePerStep > 0 ? QString::fromStdString(core::formatDuration(f.atStakePerStep)) : QString();
    case Numbers: return QString::fromStdString(f.numbers);
    case Mark: return QString::fromStdString(f.threshold);
    case Fix: return QString::fromStdString(f.fix);
    default: return {};
  }
}

QVariant AdviceModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank: return tr("Rank");
    case Severity: return tr("Severity");
    case Finding: return tr("Finding");
    case AtStake: return tr("At stake / step");
    case Numbers: return tr("Numbers");
    case Mark: return tr("Mark");
    case Fix: return tr("Fix");
    default: return {};
  }
}

AdvicePanel::AdvicePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  m_header->setText(tr("Open a profile to see the advisor's findings."));
  layout->addWidget(m_header);
  m_model = new AdviceModel(this);
  m_view = new QTableView(this);
  m_view->setModel(m_model);
  m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_view->setSelectionMode(QAbstractItemView::SingleSelection);
  m_view->verticalHeader()->hide();
  m_view->setWordWrap(false);
  m_view->horizontalHeader()->setStretchLastSection(true);
  m_view->setColumnWidth(AdviceModel::Rank, 70);
  m_view->setColumnWidth(AdviceModel::Severity, 70);
  m_view->setColumnWidth(AdviceModel::Finding, 260);
  m_view->setColumnWidth(AdviceModel::AtStake, 100);
  m_view->setColumnWidth(AdviceModel::Numbers, 480);
  m_view->setColumnWidth(AdviceModel::Mark, 260);
  layout->addWidget(m_view, 1);
  connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { onCurrentRowChanged(current); });
  connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    if (!index.isValid()) return;
    const auto& row = m_model->rows()[static_cast<std::size_t>(index.row())];
    if (!row.finding.evidence.empty()) emit evidenceActivated(row.rank, row.finding.evidence.front());
  });
}

void AdvicePanel::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  m_model->setProfile(m_profile);
  std::size_t issues = 0;
  for (const auto& r : m_model->rows()) issues += r.finding.severity == core::Severity::Issue ? 1 : 0;
  m_header->setText(m_profile ? tr("%1 findings, %2 issues; issues first, by time at stake per step. Click: select "
                                   "the evidence; double-click: zoom to the worst slice. Hover for the source.")
                                    .arg(m_model->rowCount())
                                    .arg(issues)
                              : tr("Open a profile to see the advisor's findings."));
}

void AdvicePanel::selectRow(int row) {
  if (row < 0 || row >= m_model->rowCount()) {
    m_view->clearSelection();
    return;
  }
  m_view->selectRow(row);
  m_view->setCurrentIndex(m_model->index(row, 0));
}

void AdvicePanel::onCurrentRowChanged(const QModelIndex& current) {
  if (!current.isValid()) return;
  const auto& row = m_model->rows()[static_cast<std::size_t>(current.row())];
  emit evidenceSelected(row.rank, row.finding.evidence);
}

}  // namespace npuscope::widgets
