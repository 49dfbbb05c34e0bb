// SPDX-License-Identifier: MIT
#pragma once
// The Cluster dock: core's cross-rank communication analysis (ProfileAnalysis::comm,
// docs/diagnosis.md §5.4) shown as is: the collective findings, a rank table (the slow-rank
// figures, late counts, waits, clock offsets), a rank x collective skew heat map and the
// transfer links of each rank. A click on a collective asks the main window to show that op on
// every rank (collectiveSelected). Nothing here computes an analysis.

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/profile/profile.h"
#include "widgets/panels/cluster_maps.h"
#include "widgets/view_state.h"

class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace npuscope::widgets {

/// One row per rank of ProfileAnalysis::ranks (and of ClusterComm::totals / clocks, joined by
/// rank index): Computing, Communication(Not Overlapped) and Free in ms, the collectives it is
/// late to, what the others waited for it and what it waited for others (ms), and its clock
/// offset (ns; "—" when not applied, the estimate in the tooltip). Qt::UserRole gives the
/// number each column sorts by.
class ClusterRankModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Rank, Computing, CommNotOverlapped, Free, Late, Caused, Waited, ClockOffset, ColumnCount };
  /// The role giving a row's Profile::ranks index (int).
  static constexpr int kRankIndexRole = Qt::UserRole + 1;
  explicit ClusterRankModel(QObject* parent = nullptr);
  /// Shows the ranks of `profile`'s analysis (null, or no analysis: empty).
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    std::size_t rankIndex = 0;
    int rank = -1;
    const core::RankTimeFigures* figures = nullptr;
    const core::RankCollectiveTotals* totals = nullptr;
    const core::RankClock* clock = nullptr;
  };
  std::shared_ptr<const core::Profile> m_profile;
  std::vector<Row> m_rows;
};

/// The rank x collective skew table: one row per ClusterComm::collectives entry (its label,
/// "allReduce #0 · step 50", in the vertical header), then the columns late rank, largest skew
/// and time lost (ms), then one column per rank holding collectives, each cell that rank's skew
/// in ms on a heat-map background (the table's base colour at 0 to a strong red at the largest
/// skew of the profile; the text black or white by the background), the late rank's cell bold.
/// The tooltip gives the op's start, skew, elapse, transit, wait, synchronization, idle (with the
/// peer its idle waited for) and the profiler's recorded figures when present.
class CollectiveModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { LateRank, MaxSkew, Lost, FirstRank, ColumnCount = FirstRank };
  explicit CollectiveModel(QObject* parent = nullptr);
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  /// The Profile::ranks index of rank column `column` (>= FirstRank), else -1.
  [[nodiscard]] int rankIndexOfColumn(int column) const;
  /// The column of Profile::ranks index `rankIndex`, else -1.
  [[nodiscard]] int columnOfRank(int rankIndex) const;
  /// The collective's entry for Profile::ranks index `rankIndex`, or null.
  [[nodiscard]] const core::CollectiveRank* entry(int row, int rankIndex) const;
  [[nodiscard]] const core::Collective* collective(int row) const;
  /// The heat-map colour of `skew` against `maxSkew` over `base` (the view's base colour):
  /// `base` at 0, a strong red at maxSkew (linear in between).
  [[nodiscard]] static QColor heatColor(core::TimeNs skew, core::TimeNs maxSkew, const QColor& base);
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
  /// The Holder column's text (docs/diagnosis.md §5.4 "The holder"): "rank 1", "group rank 5 (not
  /// captured)", "rank 1?" (unverified, Level0), "unknown", or "—" (no member 50 us late).
  [[nodiscard]] static QString holderText(const core::Collective& c);
  /// Its sort key: none, unknown, then loaded ranks by id, then outside group ranks.
  [[nodiscard]] static int holderSortKey(const core::Collective& c);

 private:
  [[nodiscard]] QString cellToolTip(const core::Collective& c, const core::CollectiveRank& r) const;
  std::shared_ptr<const core::Profile> m_profile;
  std::vector<int> m_rankColumns;  // Profile::ranks index per rank column
  core::TimeNs m_maxSkew = 0;      // over every collective
};

/// The transfer links of every rank's first analysed device: per rank, one row per transport
/// over all its peers (core::CommLink; peer "all"), then one per (peer, transport)
/// (core::peerLinksOf: the communication matrix): rank, peer (the rank in the HCCL group),
/// transport, size (MB, 1e6 bytes), time (ms), bandwidth (GB/s), share of the link's nominal
/// (core::nominalLinkGBs). The profile's slowest link (core::slowestLink) is bold when below
/// core::kSlowLinkShare of its nominal.
class ClusterLinkModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Rank, Peer, Transport, Size, Time, Bandwidth, Nominal, ColumnCount };
  explicit ClusterLinkModel(QObject* parent = nullptr);
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    int rank = -1;
    int peer = -1;  ///< -1: the rank's total over its peers
    core::CommLink link;
    bool slowest = false;
    std::string chip;  ///< the rank's (RankSummary::chip): its links' nominals
  };
  std::shared_ptr<const core::Profile> m_profile;
  std::vector<Row> m_rows;
};

/// The Cluster dock's panel, bound to the view state's profile. With fewer than two ranks it
/// shows one grey line saying it needs several; else core::collectiveFindings at the top
/// (word-wrapped, selectable), then the ranks and their links (ClusterRankModel,
/// ClusterLinkModel), the rank x step heat map (ClusterStepModel) and the communication matrix
/// (ClusterMatrixModel), four tabs, beside the skew table (CollectiveModel); every table sorts. A click on a collective row or cell emits collectiveSelected
/// with the op slice of every rank and the one to focus (the clicked rank's, else the late
/// rank's, else the first).
class ClusterPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ClusterPanel(ViewState* state, QWidget* parent = nullptr);

  [[nodiscard]] ClusterRankModel* rankModel() const { return m_rankModel; }
  [[nodiscard]] CollectiveModel* collectiveModel() const { return m_collectiveModel; }
  [[nodiscard]] ClusterLinkModel* linkModel() const { return m_linkModel; }
  [[nodiscard]] QTableView* rankView() const { return m_rankView; }
  [[nodiscard]] QTableView* collectiveView() const { return m_collectiveView; }
  [[nodiscard]] QTableView* linkView() const { return m_linkView; }
  [[nodiscard]] ClusterStepModel* stepModel() const { return m_stepModel; }
  [[nodiscard]] ClusterMatrixModel* matrixModel() const { return m_matrixModel; }
  [[nodiscard]] QTableView* stepView() const { return m_stepView; }
  [[nodiscard]] QTableView* matrixView() const { return m_matrixView; }
  [[nodiscard]] QComboBox* stepDimensionBox() const { return m_stepCombo; }
  [[nodiscard]] QComboBox* matrixGroupBox() const { return m_matrixCombo; }
  [[nodiscard]] QTabWidget* tabs() const { return m_tabs; }
  /// The findings text shown at the top ("" with fewer than two ranks).
  [[nodiscard]] QString findingsText() const;
  /// Whether the tables are shown (two or more ranks), else the grey line.
  [[nodiscard]] bool showsTables() const;
  /// Does what a click on collective `row` (a source row of collectiveModel) does, on the cell
  /// of Profile::ranks index `rankIndex` (-1: the row itself): selects it and emits
  /// collectiveSelected. Returns false when there is no such collective.
  bool selectCollective(int row, int rankIndex = -1);

 signals:
  /// A collective was clicked: its op slice on each rank (`ops`, Profile::ranks order) and the
  /// one whose time range the timeline should show (`focus`).
  void collectiveSelected(const std::vector<npuscope::widgets::RankSliceRef>& ops,
                          npuscope::widgets::RankSliceRef focus);
  /// A rank was double-clicked (its row in Ranks, its header in Steps): open it in full
  /// (`rankIndex` into Profile::ranks; for a rank read from a summary, the folder its summary names).
  void rankOpenRequested(int rankIndex);

 private:
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  void buildMapTabs();
  void fitSplit();
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  /// The findings' scroll area as tall as their text, at most five lines.
  void fitFindings();
  void onCollectiveClicked(const QModelIndex& proxyIndex);

  ViewState* m_state;
  std::shared_ptr<const core::Profile> m_profile;
  QStackedWidget* m_stack = nullptr;
  QLabel* m_empty = nullptr;
  QLabel* m_findings = nullptr;
  QScrollArea* m_findingsArea = nullptr;
  ClusterRankModel* m_rankModel = nullptr;
  CollectiveModel* m_collectiveModel = nullptr;
  ClusterLinkModel* m_linkModel = nullptr;
  QTableView* m_rankView = nullptr;
  QTableView* m_collectiveView = nullptr;
  QTableView* m_linkView = nullptr;
  ClusterStepModel* m_stepModel = nullptr;
  ClusterMatrixModel* m_matrixModel = nullptr;
  QTableView* m_stepView = nullptr;
  QTableView* m_matrixView = nullptr;
  QComboBox* m_stepCombo = nullptr;
  QComboBox* m_matrixCombo = nullptr;
  QSplitter* m_split = nullptr;
  QTabWidget* m_tabs = nullptr;
  bool m_splitMoved = false;  // the user dragged the split: keep it
};

}  // namespace npuscope::widgets
