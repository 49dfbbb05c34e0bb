// SPDX-License-Identifier: MIT
#pragma once
// The lane canvas paints a frame as a list of render passes: the boxes, the labels, the
// counters, then the overlays (search marks, bubbles, dispatch chain, hover, selection, flow
// arrows, time selection). Each overlay keeps its own state (what is selected, what is shown), so
// adding one is a class and one line (LaneCanvas::addRenderPass), not a field of every frame.
// The model is Qt Creator's tracing library (TimelineRenderPass), done the QPainter way.

#include <QFont>
#include <QSize>

#include "core/base/types.h"

class QPainter;

namespace npuscope::core {
struct Profile;
}

namespace npuscope::widgets {

struct DrawList;
struct TimelineContext;

/// What every pass of one frame shares. Built by LaneCanvas::paintTo; valid during the frame.
struct TimelineFrame {
  const TimelineContext& ctx;   ///< the timeline's state (profile, layout, selection, hover)
  const core::Profile& profile; ///< never null during a frame (an empty canvas runs no pass)
  const DrawList& list;         ///< the frame's boxes, labels and counters (content px)
  core::TimeRange view;         ///< the visible time range, ns
  QSize size;                   ///< canvas size, logical px
  double widthPx = 0;           ///< size.width()
  int scrollY = 0;              ///< content y at the top of the canvas, px
  double onePx = 1;             ///< one device pixel in logical px
  QFont font;                   ///< the canvas font

  /// The visible content range [yTop, yBottom), px.
  [[nodiscard]] double yTop() const { return scrollY; }
  [[nodiscard]] double yBottom() const { return scrollY + size.height(); }
};

/// One layer of the lane canvas. Passes paint in list order into one QPainter; a pass sets the
/// pen, brush and render hints it uses (it may leave them changed: the next pass sets its own).
class TimelineRenderPass {
 public:
  /// The coordinates the painter is in when paint is called.
  enum class Space {
    Content,  ///< x canvas px, y content px (translated by -scrollY)
    Canvas,   ///< x and y canvas px
  };

  virtual ~TimelineRenderPass() = default;
  /// A short stable name ("bubbles", "chain"), for tests and debugging.
  [[nodiscard]] virtual const char* name() const = 0;
  [[nodiscard]] virtual Space space() const { return Space::Content; }
  /// Paints the pass. `p` is in space() coordinates, clipped to the canvas.
  virtual void paint(QPainter& p, const TimelineFrame& frame) = 0;
};

}  // namespace npuscope::widgets
