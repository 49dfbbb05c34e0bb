// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "core/base/types.h"
#include "widgets/timeline/metatypes.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace npuscope::widgets {

class StatsTableModel;
class TimelineWidget;

/// The Stats System View: per-name statistics (core::computeStats) of one layer of one rank over
/// a scope, in a sortable, filterable table (StatsTableModel behind a QSortFilterProxyModel).
///
/// Controls: rank (only with several ranks), layer (Python/aten ops, CANN APIs, Kernels, Stream
/// tasks, Communication, Overlap Analysis; see core::StatsLayer), scope (Whole capture, each ProfilerStep, Selected range),
/// a name filter (case-insensitive substring, or a regex with the "Regex" box; an invalid regex
/// turns the field red and shows the error), Copy and Export CSV…. A label shows the scope's
/// plain sum of durations and the union (time covered at least once).
///
/// With a timeline (setTimeline), the scope follows the timeline's time selection both ways:
/// choosing "Step N" selects that step's device window on the timeline (host window when the step
/// has no device window), "Whole capture" clears the selection, and a new selection made on the
/// timeline switches the scope to "Selected range" (recomputed 150 ms after the last change, so
/// a drag stays smooth). The selected row's name is highlighted on the timeline (every rank);
/// double-clicking a row lists its occurrences (start relative to the profile start, duration,
/// lane) and activating one selects and zooms to it.
class StatsView : public QWidget {
  Q_OBJECT

 public:
  explicit StatsView(QWidget* parent = nullptr);
  ~StatsView() override;

  /// Connects to `timeline` (its viewport selection, selectSlice, highlighting). May be null.
  void setTimeline(TimelineWidget* timeline);
  /// Shows `profile` (null clears): rank 0 (or the first rank with a trace), whole capture.
  void setProfile(std::shared_ptr<const core::Profile> profile);

  void setLayer(core::StatsLayer layer);
  [[nodiscard]] core::StatsLayer layer() const { return m_layer; }
  /// Profile::ranks index shown.
  void setRank(int rankIndex);
  [[nodiscard]] int rank() const { return m_rank; }

  /// Scope: whole capture.
  void setScopeWhole();
  /// Scope: the step at `stepIndex` of RankAnalysis::steps (and its window selected on the timeline).
  void setScopeStep(int stepIndex);
  /// Scope: `range` (also set as the timeline's selection).
  void setScopeRange(core::TimeRange range);
  /// The scope in use: nullopt for the whole capture.
  [[nodiscard]] std::optional<core::TimeRange> scopeRange() const;
  /// The scope combo's text ("Whole capture", "Step 3", "Selected range").
  [[nodiscard]] QString scopeText() const;

  void setFilterText(const QString& text);
  void setFilterRegex(bool on);
  [[nodiscard]] bool filterRegex() const;
  /// The invalid-regex message, "" when the filter is valid.
  [[nodiscard]] QString filterError() const { return m_filterError; }

  /// Recomputes the table now (pending debounced recomputations included).
  void refresh();

  [[nodiscard]] const core::StatsTable& table() const;
  [[nodiscard]] StatsTableModel* model() const { return m_model; }
  [[nodiscard]] QSortFilterProxyModel* proxy() const { return m_proxy; }
  [[nodiscard]] QTableView* tableView() const { return m_table; }
  [[nodiscard]] QTreeWidget* occurrencesList() const { return m_occurrences; }
  /// The totals label's plain text.
  [[nodiscard]] QString totalsText() const;

  /// Lists the occurrences of `name` in the current layer/scope (what a double-click does).
  void showOccurrences(const QString& name);
  /// The listed occurrences (at most kMaxOccurrences), in start order.
  [[nodiscard]] const std::vector<core::SliceRef>& occurrences() const { return m_occurrenceRefs; }
  /// Selects and zooms to occurrence `index` on the timeline.
  void activateOccurrence(int index);
  /// Highlights `name` on the timeline (every rank); empty clears.
  void highlightName(const QString& name);
  /// Selects the row named `name` in the current layer and scope (the filter is cleared when it
  /// hides it) and scrolls to it. Returns false when the layer has no such row.
  bool selectName(const QString& name);

  /// The selected rows (view order) as TSV with a header line; also copied to the clipboard.
  QString copySelection();
  /// Writes core::statsCsv of the rows passing the filter to `file`. Returns an error or "".
  [[nodiscard]] QString exportCsv(const QString& file) const;

  /// Occurrences listed at most.
  static constexpr int kMaxOccurrences = 5000;

 signals:
  void layerChanged(npuscope::core::StatsLayer layer);
  void filterRegexToggled(bool on);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fitNameColumn();
  void buildScopeCombo();
  void onScopeActivated(int index);
  void onTimelineSelection(core::TimeRange range);
  void applyFilter();
  void updateTotals();
  void exportCsvDialog();
  [[nodiscard]] const core::RankProfile* rankProfile() const;
  [[nodiscard]] core::StatsTable filteredTable() const;

  std::shared_ptr<const core::Profile> m_profile;
  QPointer<TimelineWidget> m_timeline;
  int m_rank = -1;
  core::StatsLayer m_layer = core::StatsLayer::Kernels;
  enum class Scope { Whole, Step, Range } m_scope = Scope::Whole;
  int m_step = -1;
  core::TimeRange m_range;
  bool m_syncing = false;
  QString m_filterError;
  QString m_occurrenceName;
  std::vector<core::SliceRef> m_occurrenceRefs;
  QTimer m_recompute;

  QComboBox* m_rankCombo = nullptr;
  QLabel* m_rankLabel = nullptr;
  QComboBox* m_layerCombo = nullptr;
  QComboBox* m_scopeCombo = nullptr;
  QLineEdit* m_filter = nullptr;
  QCheckBox* m_regex = nullptr;
  QPushButton* m_copy = nullptr;
  QPushButton* m_export = nullptr;
  QLabel* m_totals = nullptr;
  QTableView* m_table = nullptr;
  StatsTableModel* m_model = nullptr;
  QSortFilterProxyModel* m_proxy = nullptr;
  QLabel* m_occurrencesTitle = nullptr;
  QTreeWidget* m_occurrences = nullptr;
};

}  // namespace npuscope::widgets
