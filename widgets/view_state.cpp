// SPDX-License-Identifier: MIT
#include "widgets/view_state.h"

#include "core/analysis/analysis.h"
#include "widgets/timeline/metatypes.h"

namespace npuscope::widgets {

const core::Trace* traceOfSlice(const core::Profile* profile, RankSliceRef ref) {
  if (!profile || !ref.valid() || static_cast<std::size_t>(ref.rank) >= profile->ranks.size()) return nullptr;
  const core::Trace* t = profile->ranks[static_cast<std::size_t>(ref.rank)].trace.get();
  if (!t || ref.slice.lane >= t->lanes.size() || ref.slice.index >= t->lanes[ref.slice.lane].sliceCount())
    return nullptr;
  return t;
}

const core::Bubble* bubbleOf(const core::Profile* profile, BubbleRef ref) {
  if (!profile || !ref.valid() || static_cast<std::size_t>(ref.rank) >= profile->ranks.size()) return nullptr;
  const core::RankAnalysis* a = profile->ranks[static_cast<std::size_t>(ref.rank)].analysis.get();
  if (!a || static_cast<std::size_t>(ref.device) >= a->devices.size()) return nullptr;
  const auto& bubbles = a->devices[static_cast<std::size_t>(ref.device)].bubbles;
  if (static_cast<std::size_t>(ref.bubble) >= bubbles.size()) return nullptr;
  return &bubbles[static_cast<std::size_t>(ref.bubble)];
}

ViewState::ViewState(QObject* parent) : QObject(parent) {
  qRegisterMetaType<npuscope::widgets::RankSliceRef>();
  qRegisterMetaType<npuscope::widgets::BubbleRef>();
  qRegisterMetaType<npuscope::core::TimeRange>();
}

void ViewState::setProfile(std::shared_ptr<const core::Profile> profile) {
  setSelectedSlice({});
  setSelectedBubble({});
  m_profile = std::move(profile);
  emit profileChanged(m_profile);
}

void ViewState::setSelectedSlice(RankSliceRef ref) {
  if (!ref.valid()) ref = {};
  if (ref == m_slice) return;
  m_slice = ref;
  emit selectedSliceChanged(m_slice);
}

void ViewState::setVisibleRange(core::TimeRange range) {
  if (range == m_range) return;
  m_range = range;
  emit visibleRangeChanged(m_range);
}

void ViewState::setSelectedBubble(BubbleRef ref) {
  if (!ref.valid()) ref = {};
  if (ref == m_bubble) return;
  m_bubble = ref;
  emit selectedBubbleChanged(m_bubble);
}

}  // namespace npuscope::widgets
