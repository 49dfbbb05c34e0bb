// SPDX-License-Identifier: MIT
#pragma once
// The Dispatch dock: core::dispatchStats (core/analysis/operators.h, docs/diagnosis.md §6.3) of
// one rank as a sortable table per torch op or CANN API (count, host / queue / launch / device
// p50, p90 and max in us, instances whose host time exceeds their device time, bubbles ended),
// and beside it the histogram of the selected row's samples (host, queue, launch or device time).
// A click on a row asks the main window to outline the op's instances on the timeline.

#include <QWidget>
#include <memory>
#include <vector>

#include "core/analysis/operators.h"
#include "core/profile/profile.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace npuscope::widgets {

/// A histogram of one sample (ns): 24 equal bins from its minimum to its maximum, the count of
/// each bin as a bar, the p50 and p90 as vertical lines, the axis in us.
class DispatchHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit DispatchHistogram(QWidget* parent = nullptr);
  /// Shows `sampleNs` under `title` (empty sample: "no samples").
  void setSample(std::vector<double> sampleNs, const QString& title);
  /// The bin counts drawn (24 bins; empty without a sample), for tests.
  [[nodiscard]] const std::vector<int>& bins() const { return m_bins; }
  [[nodiscard]] QSize sizeHint() const override { return {480, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<double> m_sample;
  std::vector<int> m_bins;
  double m_min = 0, m_max = 0;
  QString m_title;
};

class DispatchPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DispatchPanel(QWidget* parent = nullptr);
  /// Shows `profile` (null clears); the statistics of a rank are computed when it is first shown.
  void setProfile(std::shared_ptr<const core::Profile> profile);
  /// Profile::ranks index shown.
  void setRank(int rankIndex);
  /// Selects row `row` of the table (view order) as a click does; false when there is none.
  bool selectRow(int row);
  /// Shows the histogram of `metric` (0 host, 1 queue, 2 launch, 3 device).
  void setMetric(int metric);
  [[nodiscard]] QTableWidget* table() const { return m_table; }
  [[nodiscard]] DispatchHistogram* histogram() const { return m_histogram; }
  /// The statistics shown (both layers), in core's order.
  [[nodiscard]] const std::vector<core::DispatchStat>& stats() const { return m_stats; }

 signals:
  /// The instances of the selected op (rank index, slices longest first) to outline.
  void instancesSelected(int rankIndex, const std::vector<core::SliceRef>& slices);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void compute();
  void fillTable();
  void onRowSelected();
  [[nodiscard]] const core::DispatchStat* selectedStat() const;

  std::shared_ptr<const core::Profile> m_profile;
  int m_rank = -1;
  bool m_dirty = false;
  std::vector<core::DispatchStat> m_stats;
  QComboBox* m_rankCombo = nullptr;
  QComboBox* m_layerCombo = nullptr;
  QComboBox* m_metricCombo = nullptr;
  QLabel* m_summary = nullptr;
  QTableWidget* m_table = nullptr;
  DispatchHistogram* m_histogram = nullptr;
};

}  // namespace npuscope::widgets
