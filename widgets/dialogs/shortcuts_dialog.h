// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>
#include <vector>

namespace npuscope::widgets {

/// One key binding of the timeline, for the help dialog and documentation.
struct Shortcut {
  QString keys;         ///< e.g. "W / S"
  QString description;  ///< e.g. "Zoom in / out at the mouse cursor"
};

/// The timeline's key and mouse bindings, in display order (the single source of truth for the
/// `?` dialog; LaneCanvas implements them).
[[nodiscard]] std::vector<Shortcut> timelineShortcuts();

/// Non-modal dialog listing timelineShortcuts() (opened with `?` on the timeline).
class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ShortcutsDialog(QWidget* parent = nullptr);
};

}  // namespace npuscope::widgets
