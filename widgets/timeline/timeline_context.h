// SPDX-License-Identifier: MIT
#pragma once

#include <QSet>
#include <QString>
#include <memory>

#include "core/profile/profile.h"
#include "core/base/types.h"
#include "widgets/timeline/lane_layout.h"
#include "widgets/timeline/metatypes.h"


namespace npuscope::widgets {

class MarkerList;
class TimelineViewport;

/// State shared by the parts of a TimelineWidget (ruler, lane header, lane canvas). Owned by the
/// TimelineWidget; the parts hold a pointer and only read it, except through the widget's slots.
struct TimelineContext {
  std::shared_ptr<const core::Profile> profile;  ///< null when nothing is loaded
  LaneLayout layout;                             ///< vertical layout of the profile
  TimelineViewport* viewport = nullptr;          ///< horizontal state (never null once built)
  int scrollY = 0;                               ///< content y at the top of the canvas, px
  int selectedRank = -1;                         ///< rank of the selected slice, -1 = none
  core::SliceRef selected;                       ///< selected slice
  int hoveredRank = -1;
  core::SliceRef hovered;                        ///< hovered slice (or merged box representative)
  QSet<QString> flowCategories;                  ///< extra flow categories drawn for the view
  const MarkerList* markers = nullptr;           ///< the user's markers (owned by the widget)
  // The overlays' own state (search marks, bubbles, chain) lives in their render passes
  // (render_passes.h, timeline_overlays.h), not here.

  /// The origin of relative times: the profile's start (0 when empty), ns.
  [[nodiscard]] core::TimeNs origin() const { return profile ? profile->range().start : 0; }
};

}  // namespace npuscope::widgets
