// SPDX-License-Identifier: MIT
#pragma once
// The dispatch chain of one device task (core::DispatchChain), from the Python API down to the
// task: one row per layer, the layers core could not find shown greyed as missing.

#include <QString>

#include <string_view>
#include <QWidget>
#include <memory>

#include "core/profile/profile.h"
#include "widgets/timeline/metatypes.h"
#include "widgets/view_state.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace npuscope::widgets {

/// Shows a core::DispatchChain as a list in layer order (Python API, torch op, Enqueue, Dequeue,
/// CANN API, Node@launch, device task). Columns: layer, slice name (elided, full name in the
/// tooltip), start (relative to the profile start), duration, and `via` (how core reached the
/// link); the device-task row shows the launch latency (task start − host launch) instead. Layers
/// listed in DispatchChain::missing appear greyed, spanning the row, as "<layer> · missing (not
/// recorded at this profiler level)"; nothing is invented. A header line names the task and shows the ACLNN / ACLOP badge.
/// Clicking (or Enter on) a row with a slice emits linkActivated.
class ChainPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { Layer, Name, Start, Duration, Via, ColumnCount };
  /// Text of a missing layer's name cell.
  static QString missingText() { return tr("missing (not recorded at this profiler level)"); }

  explicit ChainPanel(QWidget* parent = nullptr);

  /// Shows `chain` of rank `rankIndex` of `profile`. `context` is an optional line shown above
  /// the list (e.g. "Ends bubble #1: 1.093 ms, Slow dispatch").
  void setChain(std::shared_ptr<const core::Profile> profile, int rankIndex, const core::DispatchChain& chain,
                const QString& context = {});
  /// Shows the empty state.
  void clearChain();

  [[nodiscard]] bool hasChain() const { return m_rank >= 0; }
  [[nodiscard]] int rankIndex() const { return m_rank; }
  [[nodiscard]] const core::DispatchChain& chain() const { return m_chain; }
  /// Number of rows (links + missing layers).
  [[nodiscard]] int rowCount() const;
  /// Cell text of row `row`, column `column` (the full, unelided slice name in Name).
  [[nodiscard]] QString text(int row, int column) const;
  /// True when row `row` is a missing layer.
  [[nodiscard]] bool isMissing(int row) const;
  /// The path badge text ("ACLNN", "ACLOP") or "" when hidden.
  [[nodiscard]] QString badgeText() const;
  /// The header line (task name).
  [[nodiscard]] QString headerText() const;
  /// The line below it: "Launch latency …" and the context given to setChain.
  [[nodiscard]] QString contextText() const;
  [[nodiscard]] QTreeWidget* tree() const { return m_tree; }

  /// Display name of a layer: "Python API", "Torch op", "Enqueue", ...
  [[nodiscard]] static QString layerName(core::ChainLayer layer);
  /// A link's "via" (core::ChainLink::via: the profiler's flow or "enclosing") in words, and what
  /// it means with the profiler's name (the cell's tooltip).
  [[nodiscard]] static QString viaText(std::string_view via);
  [[nodiscard]] static QString viaToolTip(std::string_view via);

 signals:
  /// A row with a slice was clicked: select `ref` of rank `rankIndex` on the timeline.
  void linkActivated(npuscope::widgets::RankSliceRef ref);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void activate(QTreeWidgetItem* item);
  void fitViaColumn();

  bool m_relayoutPending = false;

  std::shared_ptr<const core::Profile> m_profile;
  int m_rank = -1;
  core::DispatchChain m_chain;
  QLabel* m_header = nullptr;
  QLabel* m_badge = nullptr;
  QLabel* m_context = nullptr;
  QTreeWidget* m_tree = nullptr;
};

}  // namespace npuscope::widgets
