// SPDX-License-Identifier: MIT
#pragma once
// The Top-Down panel: for one rank, the Overlap Analysis shares per device (a stacked bar and a
// table for the whole capture and every step), the verdict with its suggestions, and the ranked
// list of device bubbles. Everything shown is computed by core (RankProfile::analysis); this file
// only formats it.

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/profile/profile.h"
#include "widgets/timeline/metatypes.h"
#include "widgets/view_state.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QVBoxLayout;

namespace npuscope::widgets {

/// Extra item roles of the Top-Down models.
enum TopDownRole {  // no ": int": lupdate (Qt 6.4) then loses the namespace
  kTopDownSortRole = Qt::UserRole + 1,  ///< raw number (ns, ratio, index) for sorting
  kTopDownDeviceRole,                   ///< index into RankAnalysis::devices
  kTopDownBubbleRole,                   ///< index into DeviceAnalysis::bubbles
  kTopDownDiscrepancyRole,              ///< bool: the computed value differs from a recorded one
};

/// Overlap Analysis shares of one rank: per device a "Whole capture" row and one row per step
/// (StepOverlap). Values are core's computed figures; the recorded ones (the trace's Overlap
/// Analysis lanes, step_trace_time.csv) are in the tooltip, and a cell whose computed value
/// differs from a recorded one by more than kToleranceNs is marked with "⚠". Durations in ns are
/// displayed with core::formatDuration; Free % is Free / E2E.
class OverlapSharesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Scope, Computing, Communication, CommNotOverlapped, Overlapped, Free, E2E, FreePercent, ColumnCount };
  /// Computed and recorded values differing by more than this are flagged, ns (0.5 us: the CSV
  /// and the lanes are rounded to 0.001 us, their sums drift a little).
  static constexpr core::TimeNs kToleranceNs = 500;
  /// Free % above this is highlighted (the advisor's 10% mark).
  static constexpr double kFreeWarnRatio = 0.10;

  explicit OverlapSharesModel(QObject* parent = nullptr);
  /// Shows rank `rankIndex` of `profile` (null or a rank without analysis: empty).
  void setRank(std::shared_ptr<const core::Profile> profile, int rankIndex);

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  /// The computed value of `column` for `row`, ns (FreePercent: ratio * 1e6); nullopt for Scope.
  [[nodiscard]] std::optional<core::TimeNs> computedNs(int row, Column column) const;
  /// The step number of `row`: >= 0 a step, -1 the single step-less row, -2 a "Whole capture"
  /// row (also for a row out of range).
  [[nodiscard]] long long stepAt(int row) const;
  /// The device window of a step row (StepOverlap::window, ns); empty for a whole-capture row.
  [[nodiscard]] core::TimeRange windowAt(int row) const;
  /// What a click on a step row selects: the range its figures measure (StepOverlap::span, the
  /// intervals starting in the device window, first start to last end, so its duration is the
  /// row's E2E), else its device window; empty for a whole-capture row.
  [[nodiscard]] core::TimeRange selectionAt(int row) const;
  /// The host step (the ProfilerStep#N slice, StepWindow::host) of a step row, when known.
  [[nodiscard]] std::optional<core::TimeRange> hostStepAt(int row) const;

 private:
  struct Row {
    int device = 0;            ///< index into RankAnalysis::devices
    long long step = -2;       ///< -2: whole capture; -1: the single step-less row
    core::TimeRange window;    ///< the step's device window (empty for the whole capture)
    core::TimeRange span;      ///< StepOverlap::span: what computed.e2e measures
    std::optional<core::TimeRange> host;  ///< the host step (ProfilerStep#N), when known
    core::OverlapFigures computed;
    std::optional<core::OverlapFigures> lanes;
    std::optional<core::StepTraceRow> csv;
    bool multiDevice = false;
  };
  [[nodiscard]] static core::TimeNs value(const core::OverlapFigures& f, int column);
  [[nodiscard]] static std::optional<core::TimeNs> csvValue(const core::StepTraceRow& r, int column);
  [[nodiscard]] bool differs(const Row& r, int column) const;
  /// A step row whose host step and device window differ in duration (labelled "device window").
  [[nodiscard]] static bool hostDiffers(const Row& r);
  [[nodiscard]] QString tooltip(const Row& r, int column) const;

  std::vector<Row> m_rows;
  std::vector<int> m_deviceIds;  // DeviceAnalysis::device per device index
};

/// The bubbles of one rank (all its devices), one row per core::Bubble in core's order (longest
/// first). Columns: # (rank in the list, 1 = longest), start (relative to the profile start),
/// duration, step, cause (bubbleCauseLabel) and detail. kTopDownSortRole gives raw numbers.
class BubbleTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Number, Start, Duration, Step, Cause, Detail, ColumnCount };

  explicit BubbleTableModel(QObject* parent = nullptr);
  void setRank(std::shared_ptr<const core::Profile> profile, int rankIndex);

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  /// Source row of bubble (deviceIndex, bubbleIndex), or -1.
  [[nodiscard]] int rowOf(int deviceIndex, int bubbleIndex) const;
  /// (deviceIndex, bubbleIndex) of source row `row`.
  [[nodiscard]] std::pair<int, int> bubbleAt(int row) const { return m_rows.at(static_cast<std::size_t>(row)); }
  /// The bubble of source row `row`.
  [[nodiscard]] const core::Bubble& bubble(int row) const;
  /// Total duration of the listed bubbles, ns.
  [[nodiscard]] core::TimeNs totalNs() const;

 private:
  std::shared_ptr<const core::Profile> m_profile;
  int m_rank = -1;
  std::vector<std::pair<int, int>> m_rows;  // (device, bubble)
};

/// Top-Down summary of one rank (selector when the profile has several): per device a stacked
/// bar Computing | Communication (Not Overlapped) | Free with the Overlapped part hatched inside
/// Computing, in the colours of the Overlap Analysis lanes; the shares table (OverlapSharesModel);
/// core's discrepancy notes; the verdict and suggestions; and the sortable bubble list
/// (BubbleTableModel). Clicking a bubble emits bubbleActivated.
class TopDownPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TopDownPanel(QWidget* parent = nullptr);
  ~TopDownPanel() override;

  /// Shows `profile` (null clears) at its first rank with an analysis.
  void setProfile(std::shared_ptr<const core::Profile> profile);
  /// Switches to rank `rankIndex` (index into Profile::ranks).
  void setRank(int rankIndex);
  [[nodiscard]] int rank() const { return m_rank; }

  /// Selects the row of a bubble without emitting bubbleActivated (switches rank if needed);
  /// -1 indexes clear the selection.
  void selectBubble(int rankIndex, int deviceIndex, int bubbleIndex);
  /// (deviceIndex, bubbleIndex) of the selected row, or (-1, -1).
  [[nodiscard]] std::pair<int, int> selectedBubble() const;

  /// Lists only the bubbles of step `step` (Bubble::step) in the bubble list; kAllSteps (or any
  /// negative number) lists them all. Shown in the list's title with an "All steps" button.
  /// Set by a click on a step row of the shares table, cleared by a click on a "Whole capture"
  /// row, the button, or a new rank / profile. Does not emit stepActivated.
  static constexpr long long kAllSteps = -2;
  void setStepFilter(long long step);
  [[nodiscard]] long long stepFilter() const { return m_stepFilter; }

  [[nodiscard]] OverlapSharesModel* sharesModel() const { return m_shares; }
  [[nodiscard]] BubbleTableModel* bubbleModel() const { return m_bubbles; }
  [[nodiscard]] QSortFilterProxyModel* bubbleProxy() const { return m_bubbleProxy; }
  [[nodiscard]] QTableView* bubbleView() const { return m_bubbleView; }
  [[nodiscard]] QTableView* sharesView() const { return m_sharesView; }
  [[nodiscard]] QComboBox* rankSelector() const { return m_rankCombo; }
  /// The verdict as plain text: the summary, then one "• suggestion" line each.
  [[nodiscard]] QString verdictText() const;
  /// The discrepancy notes shown (one per line, "⚠ " prefixed), empty when none.
  [[nodiscard]] QString discrepancyText() const;

 signals:
  /// A bubble row was clicked or chosen with the keyboard.
  void bubbleActivated(npuscope::widgets::BubbleRef bubble);
  /// A bubble row was double-clicked: the first slice behind its cause (Bubble::evidence: the
  /// sync call, the compile step, the copy tasks, ...), to select on the timeline.
  void evidenceActivated(npuscope::widgets::RankSliceRef slice);
  /// A row of the shares table was clicked: a step row gives its number and the range its
  /// figures measure (OverlapSharesModel::selectionAt: duration = the row's E2E; the main window
  /// selects it on the timeline); a "Whole capture" row gives kAllSteps and an empty range (the
  /// selection is cleared). The bubble list is already filtered (bubbles starting in the device
  /// window, all inside that range).
  void stepActivated(int rankIndex, long long step, npuscope::core::TimeRange selection);

 protected:
  /// A theme change (the application palette): the verdict box takes the new chrome colours.
  void changeEvent(QEvent* event) override;

 private:
  /// The left side, in a scroll area under `parent`: the rank selector, one bar per device, the
  /// verdict, the shares table and the discrepancies.
  QWidget* buildFiguresSide(QWidget* parent);
  /// The shares table (m_shares in m_sharesView): a click on a step row filters the bubbles to
  /// that step and shows its range on the timeline.
  QTableView* buildSharesTable(QWidget* parent);
  /// The right side: the bubble list with its title and the All steps button.
  QWidget* buildBubbleList(QWidget* parent);
  /// What a click, a move and a double-click in the bubble list do: activate the bubble (again),
  /// or select its cause's evidence.
  void connectBubbleView();
  void rebuild();
  void onCurrentRowChanged(const QModelIndex& current);

  std::shared_ptr<const core::Profile> m_profile;
  int m_rank = -1;
  bool m_quiet = false;  // selecting programmatically: no bubbleActivated
  long long m_stepFilter = kAllSteps;
  QString m_bubblesTitleText;  // the title without the step filter
  void updateBubblesTitle();
  int m_lastEmittedRow = -1;  // proxy row of the last bubbleActivated, and when
  QElapsedTimer m_lastEmit;

  QComboBox* m_rankCombo = nullptr;
  QWidget* m_rankRow = nullptr;
  QLabel* m_verdict = nullptr;
  bool m_verdictWarn = false;  ///< the verdict box is orange (Free above kFreeWarnRatio)
  void styleVerdict();
  QWidget* m_barsBox = nullptr;
  QVBoxLayout* m_barsLayout = nullptr;
  QLabel* m_discrepancies = nullptr;
  QLabel* m_bubblesTitle = nullptr;
  QPushButton* m_allSteps = nullptr;
  OverlapSharesModel* m_shares = nullptr;
  QTableView* m_sharesView = nullptr;
  BubbleTableModel* m_bubbles = nullptr;
  QSortFilterProxyModel* m_bubbleProxy = nullptr;
  QTableView* m_bubbleView = nullptr;
};

/// "Whole capture", "Step 3", "NPU 1 · Step 3": the scope label of a shares row.
[[nodiscard]] QString overlapScopeLabel(long long step, int deviceId, bool withDevice);

}  // namespace npuscope::widgets
