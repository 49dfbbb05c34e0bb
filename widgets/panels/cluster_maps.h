// SPDX-License-Identifier: MIT
#pragma once
// Two heat maps of the Cluster dock (issue 40 item 5), drawn from the cross-rank stage's rank
// summaries (ProfileAnalysis::summaries), so they show the same for a full load and for a folder
// of summaries: the rank x step map of one Top-Down dimension, and the communication matrix of
// one HCCL group (group rank x group rank, bandwidth as a share of the link's nominal).

#include <QAbstractTableModel>
#include <QColor>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/rank_summary.h"
#include "core/profile/profile.h"

namespace npuscope::widgets {

/// Rank x step: one row per rank with a summary, one column per step number of any rank; a cell
/// is the step's Computing, Communication (Not Overlapped) or Free in ms (setDimension), from the
/// device tasks (RankSummary steps, SummaryStep::computed), on a heat background from the table's
/// base colour at the smallest cell to red at the largest, over a spread of at least 5% of the
/// largest (ranks a few percent apart stay pale). Qt::UserRole: the ns to sort by (-1 when the rank
/// has no such step); the tooltip gives all three figures and the step's device time.
class ClusterStepModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum class Dimension { Computing, CommNotOverlapped, Free };
  explicit ClusterStepModel(QObject* parent = nullptr);
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  void setDimension(Dimension d);
  [[nodiscard]] Dimension dimension() const { return m_dimension; }
  /// The step number of column `column`, -2 when none.
  [[nodiscard]] long long stepOfColumn(int column) const;
  /// The Profile::ranks index of row `row`, -1 when none.
  [[nodiscard]] int rankIndexOfRow(int row) const;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  [[nodiscard]] const core::SummaryStep* step(int row, int column) const;
  [[nodiscard]] core::TimeNs value(const core::SummaryStep& s) const;
  void updateMax();
  [[nodiscard]] double heatOf(core::TimeNs v) const;
  std::shared_ptr<const core::Profile> m_profile;
  std::vector<std::size_t> m_rows;   // rank index per row
  std::vector<long long> m_steps;    // step number per column, ascending
  Dimension m_dimension = Dimension::Free;
  core::TimeNs m_max = 0, m_min = 0;
};

/// The communication matrix of one HCCL group: rows the group ranks of the loaded ranks (the
/// sources), columns every group rank they moved data to; a cell is the bandwidth of all the
/// group's transfers from the row to the column (GB/s, summed bytes / summed time over its ops and
/// transports, CommOp::peerLinks) with its share of the nominal bandwidth of its main transport
/// (nominalLinkGBs: the transport with the most bytes), on a heat background from the base colour
/// at 100% of nominal (or more) to red at 0. Qt::UserRole: the share (-1 empty); the tooltip
/// lists every transport's bytes, time and bandwidth. groups(): the group keys, largest first.
class ClusterMatrixModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit ClusterMatrixModel(QObject* parent = nullptr);
  void setProfile(const std::shared_ptr<const core::Profile>& profile);
  /// The HCCL groups holding transfers, by bytes moved, largest first.
  [[nodiscard]] const std::vector<std::string>& groups() const { return m_groups; }
  /// Shows group `key` (one of groups(); unknown: empty).
  void setGroup(const std::string& key);
  [[nodiscard]] const std::string& group() const { return m_group; }
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  struct Cell {
    std::vector<core::CommLink> links;  // per transport
    std::uint64_t bytes = 0;
    core::TimeNs time = 0;
    double share = -1;                  // of the main transport's nominal, -1 without one
    std::string chip;                   // the sending rank's chip (RankSummary::chip)
  };
  void rebuild();
  std::shared_ptr<const core::Profile> m_profile;
  std::vector<std::string> m_groups;
  std::string m_group;
  std::vector<int> m_src, m_dst;                  // group ranks of rows and columns
  std::map<std::pair<int, int>, Cell> m_cells;    // (src, dst) ->
};

}  // namespace npuscope::widgets
