// SPDX-License-Identifier: MIT
#pragma once
// Typed references carried by the views' signals, and the view state the docks and the timeline
// share (the profile, the selected slice, the visible time range, the selected bubble).

#include <QMetaType>
#include <QObject>
#include <memory>

#include "core/base/types.h"
#include "core/profile/profile.h"

namespace npuscope::widgets {

/// One slice of one rank: `rank` indexes Profile::ranks, `slice` that rank's Trace. rank -1 or an
/// invalid slice means "none".
struct RankSliceRef {
  int rank = -1;
  core::SliceRef slice;

  [[nodiscard]] bool valid() const { return rank >= 0 && slice.valid(); }
  friend bool operator==(const RankSliceRef& a, const RankSliceRef& b) {
    return a.rank == b.rank && a.slice == b.slice;
  }
};

/// One bubble of an analysis: indexes into Profile::ranks, RankAnalysis::devices and
/// DeviceAnalysis::bubbles. Any index < 0 means "none".
struct BubbleRef {
  int rank = -1;
  int device = -1;
  int bubble = -1;

  [[nodiscard]] bool valid() const { return rank >= 0 && device >= 0 && bubble >= 0; }
  friend bool operator==(const BubbleRef& a, const BubbleRef& b) {
    return a.rank == b.rank && a.device == b.device && a.bubble == b.bubble;
  }
};

/// The slice `ref` of `profile` when it exists (rank, lane and index in range), else null.
[[nodiscard]] const core::Trace* traceOfSlice(const core::Profile* profile, RankSliceRef ref);
/// The bubble `ref` of `profile`'s analyses, or null when any index is out of range.
[[nodiscard]] const core::Bubble* bubbleOf(const core::Profile* profile, BubbleRef ref);

/// What the views show, shared by the timeline and the docks: one QObject owned by the main
/// window, one value and one change signal per item. Setters emit only when the value changes,
/// so two views bound both ways do not loop. A dock subscribes to the signals it needs and asks
/// for navigation through the two requests (activateSlice, activateBubble), which the main
/// window routes to the timeline and the Top-Down docks; it never talks to another view.
///
/// The timeline (TimelineWidget::setViewState) publishes its selected slice, visible range and
/// selected bubble here and follows changes made by others.
class ViewState : public QObject {
  Q_OBJECT

 public:
  explicit ViewState(QObject* parent = nullptr);

  [[nodiscard]] const std::shared_ptr<const core::Profile>& profile() const { return m_profile; }
  [[nodiscard]] RankSliceRef selectedSlice() const { return m_slice; }
  /// The visible time range, ns (empty before a profile is shown).
  [[nodiscard]] core::TimeRange visibleRange() const { return m_range; }
  [[nodiscard]] BubbleRef selectedBubble() const { return m_bubble; }

  /// Shows `profile` (null: nothing loaded); clears the slice and the bubble first (their
  /// signals fire before profileChanged when they were set).
  void setProfile(std::shared_ptr<const core::Profile> profile);
  void setSelectedSlice(RankSliceRef ref);
  void setVisibleRange(core::TimeRange range);
  void setSelectedBubble(BubbleRef ref);

  /// Requests: a view asks to show a slice (select it, keep it in view) or a bubble (select it,
  /// zoom to it, show its chain). Emitted as is; the main window decides what "show" means.
  void activateSlice(RankSliceRef ref) { emit sliceActivationRequested(ref); }
  void activateBubble(BubbleRef ref) { emit bubbleActivationRequested(ref); }

 signals:
  void profileChanged(std::shared_ptr<const npuscope::core::Profile> profile);
  void selectedSliceChanged(npuscope::widgets::RankSliceRef ref);
  void visibleRangeChanged(npuscope::core::TimeRange range);
  void selectedBubbleChanged(npuscope::widgets::BubbleRef ref);
  void sliceActivationRequested(npuscope::widgets::RankSliceRef ref);
  void bubbleActivationRequested(npuscope::widgets::BubbleRef ref);

 private:
  std::shared_ptr<const core::Profile> m_profile;
  RankSliceRef m_slice;
  core::TimeRange m_range;
  BubbleRef m_bubble;
};

}  // namespace npuscope::widgets

Q_DECLARE_METATYPE(npuscope::widgets::RankSliceRef)
Q_DECLARE_METATYPE(npuscope::widgets::BubbleRef)
