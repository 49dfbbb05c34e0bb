// SPDX-License-Identifier: MIT
#pragma once
// Top-Down overlays of the timeline: device bubbles shaded across a rank's device lanes, and the
// links of a dispatch chain drawn as arrows. The geometry builders are pure (tested without
// painting); LaneCanvas calls paintTopDownOverlays after the boxes.

#include <QPointF>
#include <QRectF>
#include <vector>

#include "core/profile/profile.h"
#include "widgets/timeline/lane_layout.h"

class QPainter;

namespace npuscope::widgets {

struct TimelineContext;

/// One shaded bubble over one vertical run of device rows. x in canvas px (may exceed the
/// canvas), y in content px.
struct BubbleBand {
  QRectF rect;
  int rank = -1;    ///< Profile::ranks index
  int device = -1;  ///< RankAnalysis::devices index
  int bubble = -1;  ///< DeviceAnalysis::bubbles index
  bool selected = false;
};

/// Whether lane rows of process `p` are "device rows" that get bubble shading: Ascend Hardware,
/// Overlap Analysis and Communication processes.
[[nodiscard]] bool isDeviceProcess(const core::Process& p);

/// Bands of every bubble of every rank's analysis overlapping `view`, over the device rows
/// (Slices rows of device processes, and the headers of collapsed device processes) intersecting
/// content [yTop, yBottom). Adjacent device rows of one rank merge into one band per bubble. A
/// process is matched to the analysis device with the same NPU id (or to the only device).
/// `selectedRank/Device/Bubble` mark the selected one. O(rows + bands).
[[nodiscard]] std::vector<BubbleBand> buildBubbleBands(const core::Profile& profile, const LaneLayout& layout,
                                                       core::TimeRange view, double widthPx, double yTop,
                                                       double yBottom, int selectedRank = -1,
                                                       int selectedDevice = -1, int selectedBubble = -1);

/// The band containing `pos` (x canvas px, y content px), the selected one first; null if none.
[[nodiscard]] const BubbleBand* hitTestBubbleBands(const std::vector<BubbleBand>& bands, QPointF pos);

/// One arrow of a dispatch chain (from the upper layer's slice to the next layer's), canvas px /
/// content px. `from` lies on the source slice at the time closest to the target's start.
struct ChainArrow {
  QPointF from;
  QPointF to;
  QRectF fromRect;
  QRectF toRect;
};

/// Arrows between consecutive links of `chain` (Python API -> ... -> device task) of rank
/// `rank`, for the links whose rows are laid out (a link inside a collapsed process is drawn to
/// that process's header row). Empty when the chain has fewer than two links.
[[nodiscard]] std::vector<ChainArrow> buildChainArrows(const core::Profile& profile, const LaneLayout& layout,
                                                       core::TimeRange view, double widthPx, int rank,
                                                       const core::DispatchChain& chain);

/// Paints the bubble bands and the chain of `ctx` into `p`, which is translated to content
/// coordinates (y = content px); `yTop..yBottom` is the visible content range.
void paintTopDownOverlays(QPainter& p, const TimelineContext& ctx, double widthPx, double yTop, double yBottom);

/// Tooltip for a bubble band (HTML).
[[nodiscard]] QString bubbleTooltip(const core::Profile& profile, int rank, int device, int bubble);

}  // namespace npuscope::widgets
