// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>
#include <memory>

#include "core/profile/profile.h"
#include "core/base/types.h"

class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace npuscope::widgets {

/// Details of one selected slice: lane (rank / process / thread), name, category, start
/// (relative to the profile start and absolute us), duration, self time (Lane::selfTime), depth,
/// flags, incoming/outgoing flows, and the slice's args pretty-printed as a tree (parsed lazily
/// from Trace::argsText with QJsonDocument; "\r\n" inside strings become line breaks).
/// Ctrl+C copies the selected rows as "key: value" text.
class SliceDetailsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SliceDetailsPanel(QWidget* parent = nullptr);

  /// Shows slice `ref` of rank `rankIndex` of `profile` (clears on invalid input).
  void showSlice(std::shared_ptr<const core::Profile> profile, int rankIndex, core::SliceRef ref);
  /// Shows the empty state.
  void clearSlice();

  /// The value shown for a property row (e.g. "Duration", "Self time"), or a null string.
  [[nodiscard]] QString valueOf(const QString& property) const;
  /// All rows as "key: value" lines, indented per level (for copying and tests).
  [[nodiscard]] QString toPlainText() const;
  [[nodiscard]] QTreeWidget* tree() const { return m_tree; }

  /// Copies the selected rows (or everything) to the clipboard as "key: value" lines.
  void copySelection() const;

 private:
  QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& key, const QString& value);

  QLabel* m_title = nullptr;
  QTreeWidget* m_tree = nullptr;
  std::shared_ptr<const core::Profile> m_profile;
};

/// Converts a JSON value of a slice's args into display text: strings as-is with "\r\n" / "\r"
/// turned into "\n", numbers without exponent noise, nested containers as compact JSON.
[[nodiscard]] QString argValueText(const class QJsonValue& v);

}  // namespace npuscope::widgets
