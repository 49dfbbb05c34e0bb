// SPDX-License-Identifier: MIT
#include "widgets/timeline/timeline_viewport.h"

#include <algorithm>
#include <cmath>

namespace npuscope::widgets {

using core::TimeNs;
using core::TimeRange;

namespace {
constexpr std::size_t kMaxHistory = 64;
}

TimelineViewport::TimelineViewport(QObject* parent) : QObject(parent) {}

void TimelineViewport::setTraceRange(TimeRange range) {
  m_trace = range.empty() ? TimeRange{} : range;
  m_history.clear();
  m_inZoomGesture = false;
  if (!m_selection.empty()) {
    m_selection = {};
    emit selectionChanged(m_selection);
  }
  apply(m_trace.empty() ? TimeRange{} : clamp(m_trace));
}

TimeRange TimelineViewport::limitRange() const {
  if (m_trace.empty()) return {};
  const auto margin = static_cast<TimeNs>(std::llround(static_cast<double>(m_trace.duration()) * kMarginFraction));
  TimeRange lim{m_trace.start - margin, m_trace.end + margin};
  if (lim.duration() < kMinVisibleNs) {
    const TimeNs mid = m_trace.start + m_trace.duration() / 2;
    lim = {mid - kMinVisibleNs / 2, mid - kMinVisibleNs / 2 + kMinVisibleNs};
  }
  return lim;
}

TimeRange TimelineViewport::clamp(TimeRange r) const {
  if (m_trace.empty()) return {};
  const TimeRange lim = limitRange();
  if (r.end < r.start) std::swap(r.start, r.end);
  TimeNs dur = std::clamp<TimeNs>(r.duration(), kMinVisibleNs, lim.duration());
  if (dur != r.duration()) {
    const TimeNs mid = r.start + r.duration() / 2;
    r = {mid - dur / 2, mid - dur / 2 + dur};
  }
  if (r.start < lim.start) r = {lim.start, lim.start + dur};
  if (r.end > lim.end) r = {lim.end - dur, lim.end};
  return r;
}

void TimelineViewport::apply(TimeRange r) {
  if (r == m_visible) return;
  m_visible = r;
  emit visibleRangeChanged(m_visible);
}

void TimelineViewport::pushHistory() {
  if (m_trace.empty()) return;
  if (!m_history.empty() && m_history.back() == m_visible) return;
  m_history.push_back(m_visible);
  if (m_history.size() > kMaxHistory) m_history.erase(m_history.begin());
}

void TimelineViewport::setVisibleRange(TimeRange range, bool recordHistory) {
  if (m_trace.empty()) return;
  m_inZoomGesture = false;
  const TimeRange r = clamp(range);
  if (r == m_visible) return;
  if (recordHistory) pushHistory();
  apply(r);
}

void TimelineViewport::zoomAt(TimeNs anchor, double factor) {
  if (m_trace.empty() || !(factor > 0) || !std::isfinite(factor)) return;
  const double dur = static_cast<double>(m_visible.duration());
  // Relative position of the anchor, so that it stays under the same pixel.
  double rel = dur > 0 ? static_cast<double>(anchor - m_visible.start) / dur : 0.5;
  rel = std::clamp(rel, 0.0, 1.0);
  const TimeRange lim = limitRange();
  double newDur = std::clamp(dur / factor, static_cast<double>(kMinVisibleNs),
                             static_cast<double>(lim.duration()));
  const auto nd = static_cast<TimeNs>(std::llround(newDur));
  const TimeNs a = std::clamp(anchor, m_visible.start, m_visible.end);
  const TimeNs start = a - static_cast<TimeNs>(std::llround(rel * static_cast<double>(nd)));
  const TimeRange r = clamp({start, start + nd});
  if (r == m_visible) return;
  if (!m_inZoomGesture) pushHistory();
  m_inZoomGesture = true;
  apply(r);
}

void TimelineViewport::panBy(TimeNs ns) {
  if (m_trace.empty() || ns == 0) return;
  m_inZoomGesture = false;
  apply(clamp({m_visible.start + ns, m_visible.end + ns}));
}

void TimelineViewport::fitAll() { setVisibleRange(m_trace, true); }

void TimelineViewport::zoomToSelection() {
  if (m_selection.empty()) return;
  setVisibleRange(m_selection, true);
}

bool TimelineViewport::undoZoom() {
  m_inZoomGesture = false;
  if (m_history.empty()) return false;
  const TimeRange r = m_history.back();
  m_history.pop_back();
  apply(clamp(r));
  return true;
}

void TimelineViewport::setSelection(TimeRange range) {
  if (range.end < range.start) std::swap(range.start, range.end);
  if (range.empty()) range = {};
  if (range == m_selection) return;
  m_selection = range;
  emit selectionChanged(m_selection);
}

}  // namespace npuscope::widgets
