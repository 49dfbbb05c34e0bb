// SPDX-License-Identifier: MIT
#pragma once
// The Advice dock: the advisor's findings of every rank (core::adviseRank, docs/diagnosis.md §6),
// issues first and by time at stake per step. A click selects the worst evidence slice and
// outlines every slice of the evidence names; a double-click zooms to the worst one.

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/profile/profile.h"
#include "widgets/timeline/metatypes.h"

class QLabel;
class QTableView;

namespace npuscope::widgets {

/// One row per finding of every rank. Columns: rank, severity, rule title, time at stake per step,
/// the numbers, the threshold ("mark") and the fix; the source of the rule is the row's tooltip.
class AdviceModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Rank, Severity, Finding, AtStake, Numbers, Mark, Fix, ColumnCount };
  struct Row {
    int rank = -1;  ///< index into Profile::ranks
    core::Finding finding;
  };
  explicit AdviceModel(QObject* parent = nullptr);
  /// Runs the advisor on every analysed rank of `profile` (null clears), with `thresholds`.
  void setProfile(const std::shared_ptr<const core::Profile>& profile, const core::AdvisorThresholds& thresholds = {});
  [[nodiscard]] const std::vector<Row>& rows() const { return m_rows; }
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::vector<Row> m_rows;
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

 signals:
  /// A finding was clicked: its evidence slices (worst first) on rank `rankIndex`.
  void evidenceSelected(int rankIndex, const std::vector<npuscope::core::SliceRef>& slices);
  /// A finding was double-clicked: its worst evidence slice, to zoom to.
  void evidenceActivated(int rankIndex, npuscope::core::SliceRef slice);

 private:
  void onCurrentRowChanged(const QModelIndex& current);
  AdviceModel* m_model = nullptr;
  QTableView* m_view = nullptr;
  QLabel* m_header = nullptr;
  std::shared_ptr<const core::Profile> m_profile;
};

}  // namespace npuscope::widgets
