// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

#include "widgets/export/timeline_export.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QRadioButton;

namespace npuscope::widgets {

/// File > Export Image...: what to export (range: visible / selection / whole capture; lanes:
/// visible / all / of the selection; PNG or SVG; 1x or 2x; a caption line) and how: Save...
/// (accepted, action() == Save) or Copy Image to Clipboard (accepted, action() == Copy; always a
/// PNG-like image). The choices that need a selection are disabled without one.
class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Action { Save, Copy };
  /// `hasTimeSelection`: a time range, bubble or slice is selected (enables Range > Selection);
  /// `hasLaneSelection`: a slice, bubble or chain is selected (enables Lanes > Selection).
  ExportDialog(bool hasTimeSelection, bool hasLaneSelection, QWidget* parent = nullptr);

  /// The options chosen (viewSize, caption name and maxHeight are left to the caller).
  [[nodiscard]] TimelineExportOptions options() const;
  /// Sets the controls from `options` (a previous choice).
  void setOptions(const TimelineExportOptions& options);
  [[nodiscard]] bool svg() const;
  void setSvg(bool svg);
  [[nodiscard]] bool caption() const;
  void setCaption(bool on);
  [[nodiscard]] Action action() const { return m_action; }

 private:
  QButtonGroup* m_range = nullptr;
  QButtonGroup* m_lanes = nullptr;
  QComboBox* m_format = nullptr;
  QComboBox* m_scale = nullptr;
  QCheckBox* m_caption = nullptr;
  Action m_action = Action::Save;
};

}  // namespace npuscope::widgets
