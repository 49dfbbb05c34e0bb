// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include "core/analysis/stats.h"

namespace npuscope::widgets {

/// A time unit for a whole column of durations.
struct DurationUnit {
  double nsPerUnit = 1000.0;       ///< 1000 for us
  QString suffix = QStringLiteral("us");
};

/// Picks the unit of a duration column from its largest value (ns): "us" below 100 ms, "ms"
/// below 100 s, else "s". Every cell of the column is then shown in that unit with 3 decimals,
/// so values compare at a glance and sorting by text agrees with sorting by value.
[[nodiscard]] DurationUnit unitForMaxDuration(double maxNs);

/// Table model over one immutable core::StatsTable (architecture item 16, after Qt Creator's
/// CtfStatisticsModel): one row per name, columns per Column. Kernel-only columns (TFLOPS, Bound,
/// Type, Core, Shapes, Wait) exist only for the Kernels layer; TFLOPS and Bound show "—" for
/// a name whose kernel_details.csv rows give no work (no shapes, not MatMul / Conv2D) or no pipe
/// ratios (core::StatsRow::tflops, bound).
///  * Qt::DisplayRole: text; durations in the column's unit (header "Total (ms)"), share as "12.34 %"
///    under a header that names its denominator (core::StatsTable::shareBasis): "% of layer" or
///    "% of E2E".
///  * SortRole: the raw number (qlonglong ns for durations, double for avg/share/wait, count as
///    qulonglong) or the text, so a QSortFilterProxyModel with setSortRole(SortRole) sorts
///    numerically.
///  * NameRole: the row's name (any column), for filtering and lookups.
///  * Qt::ToolTipRole: the full name; durations also as core::formatDuration text.
class StatsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Name, Count, Total, Self, Avg, Min, Max, Share, Tflops, Bound, Type, Core, Shapes, Wait, ColumnCount };
  enum Role { SortRole = Qt::UserRole + 1, NameRole };

  explicit StatsTableModel(QObject* parent = nullptr);

  /// Replaces the table (model reset) and re-picks the column units.
  void setTable(core::StatsTable table);
  [[nodiscard]] const core::StatsTable& table() const { return m_table; }
  /// The row `row` of the table, or null when out of range.
  [[nodiscard]] const core::StatsRow* statsRow(int row) const;
  /// The model row of `name`, or -1.
  [[nodiscard]] int rowOfName(const QString& name) const;
  /// The unit shown for a duration column (Total, Self, Avg, Min, Max; Wait is always us).
  [[nodiscard]] DurationUnit unit(Column column) const;

  /// Rows `rows` (model rows, in the given order) as tab-separated text: a header line, then one
  /// line per row with the DisplayRole texts.
  [[nodiscard]] QString rowsAsTsv(const QList<int>& rows) const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                    int role = Qt::DisplayRole) const override;

 private:
  [[nodiscard]] QString displayText(const core::StatsRow& r, int column) const;

  core::StatsTable m_table;
  DurationUnit m_units[ColumnCount];
};

}  // namespace npuscope::widgets
