// SPDX-License-Identifier: MIT
#include "widgets/panels/advice_panel.h"

#include <set>

#include <algorithm>

#include <QColor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/base/time_format.h"
#include "core/report/report.h"
#include "widgets/dialogs/advisor_thresholds_dialog.h"

namespace npuscope::widgets {

AdviceModel::AdviceModel(QObject* parent) : QAbstractTableModel(parent) {}

void AdviceModel::setProfile(const std::shared_ptr<const core::Profile>& profile, const core::AdvisorThresholds& thresholds) {
  beginResetModel();
  m_rows.clear();
  m_chips.clear();
  m_advised = 0;
  m_profile = profile;
  if (profile) {
    std::vector<Row> all;
    for (std::size_t r = 0; r < profile->ranks.size(); ++r) {
      const core::RankAdvice a = core::adviseRankInProfile(*profile, r, thresholds);
      m_chips.push_back(a.chip);
      m_advised += a.findings.empty() ? 0 : 1;
      for (const core::Finding& f : a.findings) all.push_back({static_cast<int>(r), f, a.steps, 1});
    }
    // Across ranks: on how many ranks each rule has the same severity (the decision tree's
    // findings, one per operator, by their title: the branch and the operator).
    for (Row& row : all) {
      std::set<int> ranks;
      for (const Row& other : all)
        if (core::sameFindingKind(other.finding, row.finding) && other.finding.severity == row.finding.severity)
          ranks.insert(other.rank);
      row.sameOnRanks = static_cast<int>(ranks.size());
    }
    // Across ranks as within one: issues first, then by time at stake per step.
    std::stable_sort(all.begin(), all.end(), [](const Row& a, const Row& b) { return core::findingBefore(a.finding, b.finding); });
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
  if (role == Qt::ToolTipRole && index.column() == AtStake && !f.atStakeNote.empty())
    return QString::fromStdString(f.atStakeNote);
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
    case Severity:
      // The severity in the interface language (the JSON keeps core::severityKey's ids).
      switch (f.severity) {
        case core::Severity::Issue: return tr("issue");
        case core::Severity::Info: return tr("info");
        case core::Severity::Ok: return tr("ok");
        case core::Severity::Unknown: return tr("unknown");
      }
      return QString::fromLatin1(core::severityKey(f.severity));
    case Finding: return QString::fromStdString(f.title);
    case AtStake: return f.atStakePerStep > 0 ? QString::fromStdString(core::formatDuration(f.atStakePerStep)) : QString();
    case Steps:
      if (f.stepsWithEvidence < 0) return QString();
      return static_cast<std::size_t>(f.stepsWithEvidence) == row.steps
                 ? tr("every step (%1)").arg(row.steps)
                 : tr("%1 of %2").arg(f.stepsWithEvidence).arg(row.steps);
    case Ranks: return m_advised >= 2 ? tr("%1 of %2").arg(row.sameOnRanks).arg(m_advised) : QString();
    case Numbers: return QString::fromStdString(f.numbers);
    case Mark: return QString::fromStdString(f.threshold);
    case Fix: return QString::fromStdString(f.fix);
    default: return {};
  }
}

QVariant AdviceModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o == Qt::Horizontal && role == Qt::ToolTipRole) {
    if (section == Steps)
      return tr("For an issue: how many ProfilerSteps hold at least one of its evidence slices (recurs every step, "
                "or once); empty when it cannot be told (one step, or more than %1 evidence slices)")
          .arg(core::kMaxEvidence);
    if (section == Ranks) return tr("On how many of the ranks the rule gives the same verdict");
    return {};
  }
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank: return tr("Rank");
    case Severity: return tr("Severity");
    case Finding: return tr("Finding");
    case AtStake: return tr("At stake / step");
    case Steps: return tr("Steps");
    case Ranks: return tr("Ranks");
    case Numbers: return tr("Numbers");
    case Mark: return tr("Mark");
    case Fix: return tr("Fix");
    default: return {};
  }
}

AdvicePanel::AdvicePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  m_header = new QLabel(this);
  m_header->setWordWrap(true);
  m_header->setText(tr("Open a profile to see the advisor's findings."));
  top->addWidget(m_header, 1);
  auto* edit = new QPushButton(tr("Thresholds…"), this);
  edit->setObjectName(QStringLiteral("AdvisorThresholdsButton"));
  edit->setToolTip(tr("Show and edit the advisor's thresholds, their defaults and sources, and the chip"));
  connect(edit, &QPushButton::clicked, this, [this] { editThresholds(); });
  top->addWidget(edit, 0, Qt::AlignTop);
  layout->addLayout(top);
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
  m_view->setColumnWidth(AdviceModel::Steps, 110);
  m_view->setColumnWidth(AdviceModel::Ranks, 60);
  m_view->setColumnWidth(AdviceModel::Numbers, 480);
  m_view->setColumnWidth(AdviceModel::Mark, 260);
  layout->addWidget(m_view, 1);
  connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { onCurrentRowChanged(current); });
  connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    if (index.isValid()) activateRow(index.row());
  });
}

void AdvicePanel::activateRow(int row) {
  if (row < 0 || row >= m_model->rowCount()) return;
  const auto& r = m_model->rows()[static_cast<std::size_t>(row)];
  if (const auto& m = r.finding.moment)
    emit momentActivated(r.rank, m->t, QString::fromStdString(m->label), QString::fromStdString(m->process));
  else if (!r.finding.evidence.empty())
    emit evidenceActivated(r.rank, r.finding.evidence.front());
}

void AdvicePanel::setProfile(std::shared_ptr<const core::Profile> profile) {
  m_profile = std::move(profile);
  refresh();
}

void AdvicePanel::setThresholds(const core::AdvisorThresholds& thresholds) {
  m_thresholds = thresholds;
  refresh();
}

bool AdvicePanel::editThresholds() {
  // The capture's chip: what the advice used when no chip was given.
  QString captureChip;
  if (m_thresholds.chip.empty())
    for (const std::string& c : m_model->chips())
      if (!c.empty()) {
        captureChip = QString::fromStdString(c);
        break;
      }
  AdvisorThresholdsDialog dialog(m_thresholds, captureChip, this);
  if (dialog.exec() != QDialog::Accepted) return false;
  setThresholds(dialog.thresholds());
  emit thresholdsChanged(m_thresholds);
  return true;
}

void AdvicePanel::refresh() {
  m_model->setProfile(m_profile, m_thresholds);
  std::size_t issues = 0;
  for (const auto& r : m_model->rows()) issues += r.finding.severity == core::Severity::Issue ? 1 : 0;
  m_header->setText(m_profile ? tr("%1 findings, %2 issues; issues first, by time at stake per step. Click: outline "
                                   "the evidence on the timeline; double-click: zoom to the worst slice (memory: to the "
                                   "peak on the memory curve). Hover for the source.")
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
  if (row.finding.rule == "operator_tree" && !row.finding.evidence.empty())
    emit operatorFindingSelected(row.rank, row.finding.evidence.front());
}

}  // namespace npuscope::widgets
