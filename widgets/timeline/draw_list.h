// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QRgb>
#include <QSet>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/profile/profile.h"
#include "core/base/types.h"
#include "widgets/timeline/lane_layout.h"

namespace npuscope::widgets {

/// One box to paint: a slice (count == 1) or a run of sub-pixel slices merged by
/// core::visibleSpans (count > 1). Geometry in logical px: x relative to the canvas left edge
/// (x = core::timeToX(start)), y in content coordinates (LaneLayout rows). The rect is exact
/// (x from start, width from end - start, at least kMinBoxWidthPx); the painter may shave 1 device
/// px off wide boxes to separate neighbours, hit-testing uses the exact rect.
struct DrawBox {
  QRectF rect;
  QRgb color = 0;
  int row = -1;                 ///< LaneLayout row index
  int rank = -1;                ///< Profile::ranks index
  core::SliceRef ref;           ///< the slice, or the merged run's longest member
  std::uint32_t first = 0;      ///< first lane index of the run
  std::uint32_t count = 1;      ///< slices in the box
  core::TimeRange time;         ///< extent in ns
  std::uint8_t flags = 0;       ///< core::SliceFlag bits (count == 1 only)
};

/// A label drawn inside a box: text already elided to fit `rect`.
struct DrawLabel {
  QRectF rect;
  QString text;
  QRgb color = 0;
};

/// A counter series as a step-area polygon (value held until the next sample) for one row.
struct DrawCounter {
  int row = -1;
  QPolygonF area;               ///< closed polygon, baseline included: the outline drawn
  QPolygonF fillArea;           ///< fillOutline(area): the same area, filled
  QRgb color = 0;
  QString maxText;              ///< the series maximum, for the chart's scale label
};

/// `poly` (a closed polygon) without the points that lie on the segment between their
/// neighbours along a horizontal or a vertical line (a point repeated inside such a run
/// included): the same area, so Qt fills it to the same pixels, with fewer edges. Zoomed out a
/// busy counter's columns often hold the same maximum, and buildDrawList gives two points per
/// column. Not for the outline: Qt's cosmetic stroker draws the pixels at the ends of each
/// segment by rules of their own, so a line split in two differs from the whole line near a
/// corner. Points where the line turns back (a spike) stay.
[[nodiscard]] QPolygonF fillOutline(const QPolygonF& poly);

/// Boxes of one layout row: indices [begin, end) into DrawList::boxes, in time order.
struct DrawRowRange {
  int row = -1;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// Everything the lane canvas paints for one viewport, built by buildDrawList (pure).
struct DrawList {
  std::vector<DrawBox> boxes;          ///< grouped by row (ascending), time order inside a row
  std::vector<DrawRowRange> rowRanges; ///< one per row that has boxes, ascending row
  std::vector<DrawLabel> labels;
  std::vector<DrawCounter> counters;
};

/// Box colours by name (ColorPalette::colorForName), memoised per rank and NameId so that a frame
/// hashes each distinct name once instead of once per box (one byte per name: the palette entry).
/// Keyed by the Trace object (a rank whose trace was replaced is recomputed). Not thread-safe
/// (one per canvas).
class NameColorCache {
 public:
  /// The colour of name `id` of `trace`, the trace of rank `rank`.
  QRgb color(int rank, const std::shared_ptr<const core::Trace>& trace, core::NameId id);
  /// color() for many names of one trace in a row (one lane's boxes): the trace is checked once,
  /// then a memoised name costs two array reads. Valid while `trace` stays alive and the cache is
  /// used for no other rank or trace meanwhile.
  class Lookup {
   public:
    /// The same colour as NameColorCache::color(rank, trace, id).
    [[nodiscard]] QRgb color(core::NameId id) const {
      if (id < m_count) {
        const std::uint8_t slot = m_slots[id];
        if (slot != 0) return m_palette[slot - 1u];
      }
      return m_cache->color(m_rank, *m_trace, id);
    }
    /// Asks the CPU for the memo slot of `id` ahead of a color() call.
    void prefetch(core::NameId id) const {
      if (id < m_count) __builtin_prefetch(m_slots + id);
    }

   private:
    friend class NameColorCache;
    NameColorCache* m_cache = nullptr;
    int m_rank = -1;
    const std::shared_ptr<const core::Trace>* m_trace = nullptr;
    const std::uint8_t* m_slots = nullptr;  ///< Entry::entry of the trace
    std::size_t m_count = 0;
    const QRgb* m_palette = nullptr;
  };
  /// The Lookup of rank `rank`'s trace `trace` (which must outlive it).
  [[nodiscard]] Lookup lookup(int rank, const std::shared_ptr<const core::Trace>& trace);
  /// Bytes held.
  [[nodiscard]] std::size_t memoryBytes() const;

 private:
  struct Entry {
    const core::Trace* raw = nullptr;
    std::weak_ptr<const core::Trace> trace;  ///< expired once the trace is gone
    std::vector<std::uint8_t> entry;         ///< by NameId: palette index + 1, 0 = not computed yet
  };
  /// The entry of rank `rank`, reset when it held another trace; the palette filled. Null for rank < 0.
  Entry* entryFor(int rank, const std::shared_ptr<const core::Trace>& trace);
  std::vector<Entry> m_ranks;
  std::vector<QRgb> m_palette;  ///< ColorPalette::tableColor(0 .. kTableSize-1)
};

/// Inputs of buildDrawList besides the profile and the layout.
struct DrawParams {
  core::TimeRange view;         ///< visible time range, ns
  double widthPx = 0;           ///< canvas width, logical px
  double yTop = 0;              ///< content y range to build, logical px [yTop, yBottom)
  double yBottom = 0;
  double minBoxPx = 1.0;        ///< slices narrower than this are merged (core::visibleSpans)
  double minLabelPx = 20.0;     ///< boxes at least this wide get a label
  QFont font;                   ///< label font, for elision
  bool labels = true;
  NameColorCache* colors = nullptr;  ///< optional memo of box colours (faster frames)
};

/// Minimum drawn box width, logical px (zero-length slices stay visible).
inline constexpr double kMinBoxWidthPx = 1.0;

/// Builds the draw list: for each Slices row intersecting [yTop, yBottom), the culled and
/// sub-pixel-merged spans of core::visibleSpans as boxes coloured by ColorPalette::colorForName;
/// for collapsed process headers, a summary of the depth-0 spans of its lanes; for Counter rows a
/// step-area polygon. O(rows * widthPx * log n). Pure: no painting, no widget.
[[nodiscard]] DrawList buildDrawList(const core::Profile& profile, const LaneLayout& layout,
                                     const DrawParams& params);
/// The same into `out`, which is cleared first; its vectors keep their capacity, so a canvas that
/// rebuilds every frame does not reallocate.
void buildDrawList(const core::Profile& profile, const LaneLayout& layout, const DrawParams& params,
                   DrawList& out);

/// The box under `pos` (x canvas px, y content px): the box whose rect contains pos.x, else the
/// nearest within `slackPx`; null when none. O(log boxes).
[[nodiscard]] const DrawBox* hitTestDrawList(const DrawList& list, const LaneLayout& layout,
                                             QPointF pos, double slackPx = 2.0);

/// A flow arrow in canvas coordinates (x canvas px, y content px).
struct FlowArrow {
  QPointF from;
  QPointF to;
  int flowIndex = -1;           ///< index into Trace::flows
  int rank = -1;                ///< index into Profile::ranks of that trace
  bool ofSelection = false;     ///< true for the selected slice's own flows
};

/// The flows of each rank grouped by kind (category, start lane and depth, end lane and depth),
/// each kind's flows in Trace::flows order (by start time), so that arrows can be thinned per
/// pixel column without reading every flow in view. Built on first use per rank (O(flows log
/// kinds), about 12 bytes per flow), keyed by the Trace. Not thread-safe (one per canvas).
class FlowArrowIndex {
 public:
  struct Kind {
    core::NameId category = core::kEmptyName;
    std::uint32_t fromLane = 0, fromDepth = 0, toLane = 0, toDepth = 0;
    core::TimeNs maxSpan = 0;          ///< longest |toTs - fromTs| of its flows, ns
    std::vector<std::uint32_t> flows;  ///< indices into Trace::flows, by fromTs
    std::vector<core::TimeNs> fromTs;  ///< their fromTs, ns (searched per pixel column)
    std::vector<core::TimeNs> toTs;    ///< their toTs, ns (read per picked column, in order)
    /// fromTs of the first entry of each block of kBlock entries: the per-column search gallops
    /// over this (it stays in cache) and then searches one block of fromTs.
    std::vector<core::TimeNs> blockFirst;
    /// Per block of kBlock consecutive entries of `flows`: the latest max(fromTs, toTs), ns.
    std::vector<core::TimeNs> blockLatest;
    static constexpr std::size_t kBlock = 64;
  };
  /// The kinds of `trace`, the trace of rank `rank` (built if needed; rebuilt when the rank's
  /// trace was replaced).
  const std::vector<Kind>& kinds(int rank, const std::shared_ptr<const core::Trace>& trace);
  /// Bytes held.
  [[nodiscard]] std::size_t memoryBytes() const;
  /// The thinning passes the last buildFlowArrows call given this index ran (0 when it drew no
  /// category): diagnostics, and how the tests see that a pass sure to fail was skipped.
  int lastThinningPasses = 0;

 private:
  struct Entry {
    const core::Trace* raw = nullptr;
    std::weak_ptr<const core::Trace> trace;  ///< expired once the trace is gone
    std::vector<Kind> kinds;
  };
  std::vector<Entry> m_ranks;
};

/// How many category arrows buildFlowArrows draws at most while it can thin them (each costs
/// ~8-15 us to stroke antialiased, so 400 keep a zoomed-out frame with every category on within
/// a few ms): the thinning column widens until they fit.
inline constexpr double kFlowArrowBudget = 400.0;
/// The widest thinning column of buildFlowArrows, px.
inline constexpr double kFlowMaxColumnPx = 64.0;

/// Arrows for the flows of rank `rank` to draw: those where `selected` is the `from` or the `to`
/// slice (all of them), plus the flows whose category is in `categories` (empty = none)
/// overlapping `view`, thinned per kind (category, start row, end row): of the flows of one kind
/// starting in the same pixel column of width c, one arrow is drawn per distinct end column (at
/// most 2, among the first 16 of them). c is the smallest power of two from 1 px for which at
/// most kFlowArrowBudget arrows remain, and at most kFlowMaxColumnPx. So a zoomed-out view draws
/// O(kFlowArrowBudget) arrows whatever the number of flows, and a zoomed-in one every flow but
/// pixel duplicates. Flows starting before the view that reach into it are drawn once per end
/// column (their starts are off-screen). At most `maxArrows` in all. Flows whose time span does not overlap the
/// view are culled; an end in a collapsed process is drawn to that process's header row. `index`
/// (optional) keeps the per-rank flow kinds between calls; without it they are rebuilt, O(flows).
/// Cost: O(kinds * (widthPx / c) * log flows) per tried c, plus the arrows.
[[nodiscard]] std::vector<FlowArrow> buildFlowArrows(const core::Profile& profile,
                                                     const LaneLayout& layout, core::TimeRange view,
                                                     double widthPx, int rank,
                                                     core::SliceRef selected,
                                                     const QSet<QString>& categories,
                                                     std::size_t maxArrows = 20000,
                                                     FlowArrowIndex* index = nullptr);

/// Rect of one slice (exact, at least kMinBoxWidthPx wide) or an empty rect when its row is not
/// laid out. x may lie outside [0, widthPx].
[[nodiscard]] QRectF sliceRect(const core::Profile& profile, const LaneLayout& layout,
                               core::TimeRange view, double widthPx, int rank, core::SliceRef ref);

/// Counter `counter` of `trace` at `value`, in the unit its name and key imply
/// (core::counterUnitOf, core::formatCounterValue: "2.06 GiB", "1800 MHz"); an out-of-range
/// counter gives the plain number.
[[nodiscard]] QString counterValueText(const core::Trace& trace, std::uint32_t counter, double value);

}  // namespace npuscope::widgets
