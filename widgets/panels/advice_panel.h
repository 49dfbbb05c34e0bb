// SPDX-License-Identifier: MIT
#pragma once
// The Advice dock: the advisor's findings of every rank (core::adviseRank, docs/diagnosis.md §6),
// issues first and by time at stake per step. A click outlines exactly the finding's evidence
// slices on the timeline (TimelineWidget::setHighlightedSlices) and selects the worst one; a
// double-click zooms to the worst one.

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/profile/profile.h"
#include "widgets/timeline/metatypes.h"

class QLabel;
class QTableView;

namespace npuscope::widgets {

/// One row per finding of every rank. Columns: rank, severity, rule title, time at stake per step,
/// the steps holding its evidence (Finding::stepsWithEvidence: "every step (3 of 3)", "1 of 3"),
/// on how many ranks the rule says the same ("2 of 2"; empty with one rank), the numbers, the
/// threshold ("mark") and the fix; the source of the rule is the row's tooltip.
class AdviceModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Rank, Severity, Finding, AtStake, Steps, Ranks, Numbers, Mark, Fix, ColumnCount };
  struct Row {
    int rank = -1;  ///< index into Profile::ranks
    core::Finding finding;
    std::size_t steps = 1;        ///< RankAdvice::steps of its rank
    std::size_t sameOnRanks = 1;  ///< ranks (of those advised) where the rule has this severity
  };
  explicit AdviceModel(QObject* parent = nullptr);
  /// Runs the advisor on every analysed rank of `profile` (null clears), with `thresholds`.
  void setProfile(const std::shared_ptr<const core::Profile>& profile, const core::AdvisorThresholds& thresholds = {});
  [[nodiscard]] const std::vector<Row>& rows() const { return m_rows; }
  /// The chip each rank's advice used (RankAdvice::chip; "" unknown), Profile::ranks order.
  [[nodiscard]] const std::vector<std::string>& chips() const { return m_chips; }
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Row> m_rows;
  std::vector<std::string> m_chips;
  std::size_t m_advised = 0;  // ranks with advice
  std::shared_ptr<const core::Profile> m_profile;
};

class AdvicePanel : public QWidget {
  Q_OBJECT

 public:
  explicit AdvicePanel(QWidget* parent = nullptr);
  /// Shows the findings of `profile` (null clears).
  void setProfile(std::shared_ptr<const core::Profile> profile);
  [[nodiscard]] AdviceModel* model() const { return m_model; }
  [[nodiscard]] QTableView* view() const { return m_view; }
  /// Selects row `row` as a click does (emits evidenceSelected); -1 clears the selection.
  void selectRow(int row);
  /// Does what a double-click on row `row` does: emits momentActivated for a finding with a
  /// moment, else evidenceActivated with its worst slice (nothing without evidence or out of range).
  void activateRow(int row);
  /// Re-runs the advisor with `thresholds` (no signal). The "Thresholds…" button opens
  /// AdvisorThresholdsDialog; an accepted edit applies it and emits thresholdsChanged.
  void setThresholds(const core::AdvisorThresholds& thresholds);
  [[nodiscard]] const core::AdvisorThresholds& thresholds() const { return m_thresholds; }
  /// Opens the thresholds dialog (modal); true when accepted.
  bool editThresholds();

 signals:
  /// A finding was clicked: its evidence slices (worst first) on rank `rankIndex`.
  void evidenceSelected(int rankIndex, const std::vector<npuscope::core::SliceRef>& slices);
  /// A decision-tree finding (rule "operator_tree") was clicked: its longest kernel, whose name
  /// the main window selects in the Stats view's kernel layer. Emitted after evidenceSelected.
  void operatorFindingSelected(int rankIndex, npuscope::core::SliceRef worstKernel);
  /// A finding was double-clicked: its worst evidence slice, to zoom to.
  void evidenceActivated(int rankIndex, npuscope::core::SliceRef slice);
  /// A finding with a moment (core::Finding::moment, the memory peak) was double-clicked: the
  /// instant `t` (ns) of rank `rankIndex`, its label and the process whose counters show it.
  /// Emitted instead of evidenceActivated.
  void momentActivated(int rankIndex, npuscope::core::TimeNs t, const QString& label, const QString& process);
  /// The thresholds were edited in the dialog (to be saved).
  void thresholdsChanged(const npuscope::core::AdvisorThresholds& thresholds);

 private:
  void onCurrentRowChanged(const QModelIndex& current);
  AdviceModel* m_model = nullptr;
  QTableView* m_view = nullptr;
  void refresh();
  QLabel* m_header = nullptr;
  std::shared_ptr<const core::Profile> m_profile;
  core::AdvisorThresholds m_thresholds;
};

}  // namespace npuscope::widgets
