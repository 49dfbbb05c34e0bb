// SPDX-License-Identifier: MIT
#pragma once
// The Advisor Thresholds dialog: every core::AdvisorThresholds field (core::advisorThresholdFields)
// with its value, default, unit and source, editable; the chip when the capture does not record
// it; the peak TFLOPS and core-count tables read-only with their sources; "Restore Defaults".
// Plus the QSettings load / save of the thresholds ("advisor/<key>", "advisor/chip").

#include <QDialog>
#include <QString>
#include <vector>

#include "core/analysis/advisor.h"

class QComboBox;
class QDoubleSpinBox;
class QSettings;
class QTableWidget;

namespace npuscope::widgets {

class AdvisorThresholdsDialog : public QDialog {
  Q_OBJECT

 public:
  /// Shows `current`. `captureChip` is the chip the capture records ("" when it does not), shown
  /// as the first chip choice ("from the capture").
  explicit AdvisorThresholdsDialog(const core::AdvisorThresholds& current, const QString& captureChip = {},
                                   QWidget* parent = nullptr);
  /// The values as edited (the peak and core tables unchanged from `current`).
  [[nodiscard]] core::AdvisorThresholds thresholds() const;
  /// Sets every field and the chip back to core::AdvisorThresholds' defaults (the button).
  void restoreDefaults();
  /// The value editor of field `key` (tests), or null.
  [[nodiscard]] QDoubleSpinBox* editor(const char* key) const;
  [[nodiscard]] QComboBox* chipBox() const { return m_chip; }
  [[nodiscard]] QTableWidget* fieldTable() const { return m_fields; }
  [[nodiscard]] QTableWidget* peakTable() const { return m_peaks; }

 private:
  core::AdvisorThresholds m_base;
  QTableWidget* m_fields = nullptr;
  QTableWidget* m_peaks = nullptr;
  QComboBox* m_chip = nullptr;
  std::vector<QDoubleSpinBox*> m_editors;  // advisorThresholdFields() order
};

/// The thresholds saved in `settings` over the defaults: each "advisor/<key>" that setThreshold
/// accepts, and "advisor/chip". Bad saved values are ignored.
[[nodiscard]] core::AdvisorThresholds loadAdvisorThresholds(QSettings& settings);
/// Saves the fields of `t` that differ from the defaults (removes the others) and the chip.
void saveAdvisorThresholds(QSettings& settings, const core::AdvisorThresholds& t);

}  // namespace npuscope::widgets
