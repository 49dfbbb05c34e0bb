// SPDX-License-Identifier: MIT
#pragma once
// First pixels while a trace loads: a skeleton Trace/Profile built from core::LoadPreview (the
// tracks, names and time range the reader has seen so far) and the view that shows it under a
// progress banner. Never parses files: everything comes from the loader's LoadPreview.

#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/profile/profile.h"
#include "core/model/trace.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace npuscope::widgets {

class TimelineWidget;

/// A Trace with the processes and thread lanes of `preview` and no slices, for drawing the ruler
/// and the lane headers before the load ends.
///
/// Processes: one per distinct pid (texts as written; a decimal pid becomes Process::pid, any
/// other text Process::pidText); name = the process_name seen so far, else "Process <pid>";
/// ordered by process_sort_index where known (ascending, those first), else in order of
/// discovery. Lanes: one per track, grouped by process in that order; name = the thread_name
/// seen so far, else empty (LaneLayout shows "Thread <tid>"); ordered inside their process by
/// thread_sort_index where known, else in order of discovery. Duplicate (pid, tid) tracks are
/// kept once. range = [minTs, maxTs] ns (at least 1 ns long) when preview.hasRange, else empty.
/// eventCount = preview.events. Every lane has empty columns and one depth row.
[[nodiscard]] std::shared_ptr<core::Trace> buildSkeletonTrace(const core::LoadPreview& preview);

/// A Profile of `ranks` (as discovered, in the same order) whose rank i has the skeleton trace of
/// previews[i] when it holds one, else no trace. `path` is the loaded path.
[[nodiscard]] std::shared_ptr<core::Profile> buildSkeletonProfile(
    const std::string& path, const std::vector<core::RankSource>& ranks,
    const std::vector<std::optional<core::LoadPreview>>& previews);

/// What the loading banner says (all texts and figures precomputed by the loader).
struct LoadBannerState {
  QString title;           ///< "Loading trace_1g.json"
  QString detail;          ///< "43% — 1.2 GB of 2.8 GB, ~3 s left"
  double fraction = 0;     ///< [0, 1] for the bar
};

/// The timeline area while a load runs: a banner (title, progress bar, detail text, Cancel
/// button, "Esc to cancel") over a TimelineWidget that shows the skeleton profile: the ruler over
/// the time range seen so far and the lane headers of the tracks seen so far, with empty lane
/// bodies. Emits cancelRequested when Cancel is clicked (Esc is the window's action).
class LoadPreviewView : public QWidget {
  Q_OBJECT

 public:
  explicit LoadPreviewView(QWidget* parent = nullptr);
  ~LoadPreviewView() override;

  /// Shows `skeleton` (null: no lanes yet). Keeps the vertical scroll position across updates
  /// and fits the (growing) time range.
  void setSkeleton(std::shared_ptr<const core::Profile> skeleton);
  /// Updates the banner.
  void setBanner(const LoadBannerState& state);
  /// Drops the skeleton and resets the banner (after a load ended), freeing the skeleton.
  void reset();

  [[nodiscard]] TimelineWidget* timeline() const { return m_timeline; }
  /// The skeleton shown (null before the first setSkeleton and after reset).
  [[nodiscard]] std::shared_ptr<const core::Profile> skeleton() const { return m_skeleton; }
  /// Whether the "Reading the first events…" placeholder is shown (no lanes known yet).
  [[nodiscard]] bool isWaitingForLanes() const;
  /// Banner texts and bar value, for tests.
  [[nodiscard]] QString titleText() const;
  [[nodiscard]] QString detailText() const;
  [[nodiscard]] int barValue() const;  ///< 0..1000

 signals:
  void cancelRequested();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void placeWaiting();

  QWidget* m_banner = nullptr;
  QLabel* m_title = nullptr;
  QLabel* m_detail = nullptr;
  QLabel* m_hint = nullptr;
  QProgressBar* m_bar = nullptr;
  QPushButton* m_cancel = nullptr;
  QLabel* m_waiting = nullptr;  // over the timeline until the first lanes are known
  TimelineWidget* m_timeline = nullptr;
  std::shared_ptr<const core::Profile> m_skeleton;
};

}  // namespace npuscope::widgets
