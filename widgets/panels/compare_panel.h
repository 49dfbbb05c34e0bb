// SPDX-License-Identifier: MIT
#pragma once
// The Compare dock: core::CompareResult (core/report/compare.h) of the open capture (A) and the
// one opened with File > Compare With… (B) as a sortable table: per rank the device figures, then
// the operator types and bubble causes, each with A, B and B - A in ms; the verdict above; and the
// alignment of the two stacked timelines (step start, the selected slices, none). A click on an
// operator row asks the main window to outline that operator's kernels on both timelines.

#include <QWidget>

#include "core/report/compare.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace npuscope::widgets {

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  enum class Align { StepStart, Selection, None };
  explicit ComparePanel(QWidget* parent = nullptr);
  /// Shows `result` (replaces the rows).
  void setResult(const core::CompareResult& result);
  [[nodiscard]] QTableWidget* table() const { return m_table; }
  [[nodiscard]] QString verdictText() const;
  [[nodiscard]] Align align() const;
  void setAlign(Align a);

 signals:
  /// An operator row was clicked: the rank id and the kernel key (a Type, or a kernel name when
  /// a side is Level0: CompareRow::key).
  void operatorSelected(int rank, const QString& key);
  /// The alignment choice changed.
  void alignChanged(npuscope::widgets::ComparePanel::Align align);

 private:
  QLabel* m_verdict = nullptr;
  /// The notes (what cannot be compared), below the verdict in a scroll area of a few lines, so
  /// that the table keeps its rows (issue 42 item 1d: six rows fitted).
  QLabel* m_notes = nullptr;
  QWidget* m_notesArea = nullptr;  ///< m_notes' scroll area, hidden without notes
  QComboBox* m_align = nullptr;
  QTableWidget* m_table = nullptr;
};

}  // namespace npuscope::widgets
