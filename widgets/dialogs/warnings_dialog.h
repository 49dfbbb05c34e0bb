// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <memory>

#include "core/profile/profile.h"

class QTreeWidget;

namespace npuscope::widgets {

/// Lists the import anomalies (core::ImportStats) of every rank of a profile: per rank a group
/// with the total, per warning kind its human label, key and count, and the recorded examples
/// as children; plus rank load errors, trace notes, the rank's CSV reading problems
/// (core::RankProfile::tableMessages, kind "table", each counted as one warning) and profile
/// messages.
class WarningsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit WarningsDialog(std::shared_ptr<const core::Profile> profile, QWidget* parent = nullptr);
  /// Total number of warnings over all ranks (import anomalies plus table messages).
  /// The warnings and table problems counted (informational kinds left out: the status bar's
  /// count, ImportStats::total() plus the table messages).
  [[nodiscard]] std::uint64_t totalWarnings() const { return m_total; }
  /// The informational kinds' counts (listed, not counted).
  [[nodiscard]] std::uint64_t informational() const { return m_informational; }
  [[nodiscard]] QTreeWidget* tree() const { return m_tree; }

 private:
  QTreeWidget* m_tree = nullptr;
  std::uint64_t m_total = 0;
  std::uint64_t m_informational = 0;
};

}  // namespace npuscope::widgets
