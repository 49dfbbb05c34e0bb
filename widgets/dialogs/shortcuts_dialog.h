// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QPointer>
#include <QString>
#include <utility>
#include <vector>

class QAction;
class QTableWidget;

namespace npuscope::widgets {

/// One key binding of the timeline, for the help dialog and documentation.
struct Shortcut {
  Shortcut(QString k, QString d, QList<QKeySequence> s = {})
      : keys(std::move(k)), description(std::move(d)), sequences(std::move(s)) {}
  QString keys;         ///< e.g. "W / S"
  QString description;  ///< e.g. "Zoom in / out at the mouse cursor"
  /// The key sequences the row names when a window action may bind them too (Ctrl+0, Shift+Z,
  /// ...): a row all of whose sequences an action lists is left to that action's row
  /// (shortcutsWithActions). Empty for keys only the canvas handles.
  QList<QKeySequence> sequences;
};

/// The timeline's key and mouse bindings, in display order (the single source of truth for the
/// `?` dialog; LaneCanvas implements them).
[[nodiscard]] std::vector<Shortcut> timelineShortcuts();

/// The rows of the help dialog: one per action of `actions` that has a shortcut (its keys in
/// the platform's text, ", "-separated; its text without the mnemonic '&' and the trailing "…"),
/// in that order, then the timelineShortcuts() rows that no action covers (see
/// Shortcut::sequences). So the window's menus are the source of their shortcuts' rows and the
/// list cannot drift from them.
[[nodiscard]] std::vector<Shortcut> shortcutsWithActions(const QList<QAction*>& actions);

/// Non-modal dialog listing shortcutsWithActions(actions) (opened with `?` / F1): two columns,
/// the descriptions word-wrapped to the dialog's width, never elided nor scrolled sideways.
class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ShortcutsDialog(QWidget* parent = nullptr);
  /// Lists the shortcuts of `actions` (e.g. the main window's menu actions) before the
  /// timeline's own keys; rebuilt from the actions each time the dialog is shown.
  void setActions(const QList<QAction*>& actions);

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  QTableWidget* m_table = nullptr;
  QList<QPointer<QAction>> m_actions;
};

}  // namespace npuscope::widgets
