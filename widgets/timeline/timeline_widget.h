// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/profile/profile.h"
#include "core/base/types.h"
#include "widgets/timeline/timeline_context.h"
#include "widgets/view_state.h"

class QAction;
class QScrollBar;
class QLabel;

namespace npuscope::widgets {

class LaneCanvas;
class MarkerList;
class SliceSetPass;
class MomentPass;
class LaneHeader;
class ShortcutsDialog;
class TimeRuler;
class TimelineViewport;

/// The main timeline: a time ruler, a left lane-header column and the lane canvas with a
/// vertical scroll bar, all driven by one TimelineViewport. Lanes are grouped by rank
/// ("rank 0 · NPU 0"), then process (collapsible; counter-only processes start collapsed), then
/// thread lanes (one row per depth) and counter series. All ranks share one absolute time axis;
/// ruler labels are relative to the profile start. Keys (when the canvas has focus; see
/// ShortcutsDialog): W/S zoom at the cursor, A/D/Left/Right pan, Up/Down scroll, Shift+Z zoom
/// to the time selection, Backspace undo zoom, Ctrl+0 fit all, F zoom to the selected slice,
/// Esc clear selections, ? shortcuts. Mouse: the wheel scrolls, Ctrl+wheel zooms at the cursor,
/// Shift+wheel pans (setWheelZooms(true): the wheel zooms, Shift+wheel scrolls), left-drag
/// pans, Shift+drag (or drag on the ruler) selects a time range. Deep lanes (a with_stack Python
/// stack) start folded to a few rows (LaneLayout::kDeepLane), so the device lanes show first.
class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineWidget(QWidget* parent = nullptr);
  ~TimelineWidget() override;

  /// Shows `profile` (null clears), fits all and clears the selections.
  void setProfile(std::shared_ptr<const core::Profile> profile);
  [[nodiscard]] std::shared_ptr<const core::Profile> profile() const { return m_ctx.profile; }
  /// Removes the profile.
  void clear();
  /// The horizontal zoom/pan/selection state (owned by this widget).
  [[nodiscard]] TimelineViewport* viewport() const { return m_viewport; }
  /// Shows [range.start, range.end) ns (clamped; recorded in the zoom history).
  void setVisibleRange(core::TimeRange range);
  /// Shows the whole profile.
  void fitAll();

  /// Selects a slice (outline + flows) and scrolls it into view vertically; emits sliceSelected.
  /// rankIndex -1 or an invalid ref clears the selection.
  void selectSlice(int rankIndex, core::SliceRef ref);
  [[nodiscard]] int selectedRank() const { return m_ctx.selectedRank; }
  [[nodiscard]] core::SliceRef selectedSlice() const { return m_ctx.selected; }
  /// The selected slice as one typed reference (invalid when none).
  [[nodiscard]] RankSliceRef selection() const { return {m_ctx.selectedRank, m_ctx.selected}; }
  /// Zooms to the selected slice with a small margin (no-op without a selection).
  void zoomToSelectedSlice();

  /// Flow categories (Trace::flows `cat` text) drawn for the whole visible range in addition to
  /// the selected slice's own flows. Empty by default (only the selected slice's flows).
  void setVisibleFlowCategories(const QSet<QString>& categories);
  [[nodiscard]] QSet<QString> visibleFlowCategories() const { return m_ctx.flowCategories; }

  /// Outlines every slice of rank `rankIndex` whose name id is set in `nameMask` (indexed by the
  /// rank's StringPool ids; e.g. the Statistics view's selected row). An empty mask clears.
  /// Cleared by setProfile. Painting checks one bit per drawn box.
  void setHighlightedNames(int rankIndex, std::vector<bool> nameMask);
  /// Clears the highlighted names of every rank.
  void clearHighlightedNames();
  /// Marks the search matches of rank `rankIndex` (name-id mask as above): matching boxes are
  /// outlined and, while any rank has a match, the others are dimmed. Empty mask clears.
  void setSearchMatches(int rankIndex, std::vector<bool> nameMask);
  void clearSearchMatches();
  [[nodiscard]] bool hasSearchMatches() const;
  /// Whether slice `ref` of rank `rankIndex` is highlighted / a search match (tests).
  [[nodiscard]] bool isHighlighted(int rankIndex, core::SliceRef ref) const;
  [[nodiscard]] bool isSearchMatch(int rankIndex, core::SliceRef ref) const;

  /// Selects `ref` and makes it visible horizontally: keeps the zoom level when the slice fits
  /// into the visible duration (pans to centre it if it is not fully shown), else zooms to it.
  void revealSlice(int rankIndex, core::SliceRef ref);
  /// Arranges the lanes so that those of `slices` (rank `rankIndex`) show together: when they
  /// do not fit as laid out, that rank is expanded with only the processes holding them
  /// expanded (every other process and every other rank collapsed to its header row); then it
  /// scrolls to the rank's header (or, when they still do not fit, to the topmost one's process
  /// header). A slice below a folded lane's shown rows counts as that lane's last row. Used
  /// by `screenshot --window --bubble N` so that the bubble's device lane and the host lanes of
  /// its dispatch chain are in the shot. `viewHeight`: the lanes' height in px it scrolls for
  /// (-1: the canvas's; an export of a widget never shown gives its own). Invalid refs are
  /// ignored; none valid: no-op. Returns the lanes' height in px from the new scroll position
  /// to the bottom of the lowest slice's row (more than `viewHeight` when they still do not
  /// fit; `screenshot --bubble` then makes its image that tall), or -1 after a no-op.
  int focusLanes(int rankIndex, const std::vector<core::SliceRef>& slices, int viewHeight = -1);

  /// Top-Down overlays (timeline_overlays.cpp). The bubbles of every rank's analysis are shaded
  /// across that rank's device lanes (Ascend Hardware, Overlap Analysis, Communication); on by
  /// default. Indexes: Profile::ranks, RankAnalysis::devices, DeviceAnalysis::bubbles.
  void setBubblesVisible(bool on);
  [[nodiscard]] bool bubblesVisible() const;
  /// Marks one bubble as selected (drawn stronger, with a label); -1 (an invalid ref) clears.
  /// Published to the view state, when there is one.
  void setSelectedBubble(int rankIndex, int deviceIndex, int bubbleIndex);
  void setSelectedBubble(BubbleRef ref);
  [[nodiscard]] BubbleRef selectedBubble() const;
  [[nodiscard]] int selectedBubbleRank() const { return selectedBubble().rank; }
  [[nodiscard]] int selectedBubbleDevice() const { return selectedBubble().device; }
  [[nodiscard]] int selectedBubbleIndex() const { return selectedBubble().bubble; }
  /// The bubble at those indexes, or null.
  [[nodiscard]] const core::Bubble* bubble(int rankIndex, int deviceIndex, int bubbleIndex) const;
  /// Shows the bubble with `margin` × its duration of context on each side (at least 100 ns).
  void zoomToBubble(int rankIndex, int deviceIndex, int bubbleIndex, double margin = 0.25);
  /// Outlines the links of `chain` (of rank `rankIndex`) and joins them with arrows, from the
  /// Python API / torch op down to the device task, unfolding every folded deep lane (the
  /// with_stack Python stack) that would hide one of its links; the lanes it unfolded are folded
  /// again when another chain does not need them or the chain is cleared. Rank -1 clears.
  void setChainHighlight(int rankIndex, const core::DispatchChain& chain);
  void clearChainHighlight();
  [[nodiscard]] int chainRank() const;
  [[nodiscard]] const core::DispatchChain& chainHighlight() const;

  /// Outlines exactly `slices` of rank `rankIndex` (SliceSetPass, timeline_overlays.cpp; e.g. the
  /// evidence of an Advice finding), in a colour of their own; rank -1 or an empty list clears.
  /// Cleared by setProfile.
  void setHighlightedSlices(int rankIndex, std::vector<core::SliceRef> slices);
  /// The same over several ranks at once (the Cluster dock: one collective's op on every rank);
  /// highlightedSlicesRank() / highlightedSlices() then give the first rank's. Empty clears.
  void setHighlightedSlices(const std::vector<RankSliceRef>& slices);
  void clearHighlightedSlices();
  [[nodiscard]] int highlightedSlicesRank() const;  ///< -1 when none
  [[nodiscard]] const std::vector<core::SliceRef>& highlightedSlices() const;
  [[nodiscard]] bool isInHighlightedSlices(int rankIndex, core::SliceRef ref) const;

  /// Shows instant `t` (ns) of rank `rankIndex`, e.g. an Advice finding's Finding::moment (the
  /// memory peak): a dashed line at `t` labelled `label` (MomentPass), the view centred on `t`
  /// (its width kept, at most a twentieth of the rank's span so that the curve around the moment
  /// reads), and when the rank has a process named `processName` (core::kMemoryCurveProcess),
  /// that rank and process expanded and its header scrolled to the top. Out of range: no-op.
  /// Cleared by setProfile and clearMoment.
  void revealMoment(int rankIndex, core::TimeNs t, const QString& label, const std::string& processName = {});
  void clearMoment();
  [[nodiscard]] int momentRank() const;  ///< -1 when no moment is shown
  [[nodiscard]] core::TimeNs momentTime() const;

  /// Binds the timeline to `state` (null unbinds): from then on it publishes its selected slice,
  /// visible range and selected bubble there, and follows the changes others make (selecting
  /// and revealing a slice, showing a range, marking a bubble, showing a new profile). The
  /// state must outlive the binding.
  void setViewState(ViewState* state);
  [[nodiscard]] ViewState* viewState() const { return m_viewState; }

  /// Expands or collapses every process.
  void setAllProcessesExpanded(bool expanded);
  /// The expand / fold state of the ranks, processes and deep lanes, and setting it back (e.g.
  /// after a reload of the same profile; call after setProfile).
  [[nodiscard]] LaneLayout::ExpandState expandState() const { return m_ctx.layout.expandState(); }
  void setExpandState(const LaneLayout::ExpandState& state);
  /// See LaneLayout::setDeviceFirst (off by default; the main window turns it on).
  void setDeviceFirst(bool on);
  [[nodiscard]] bool deviceFirst() const { return m_ctx.layout.deviceFirst(); }
  /// See LaneCanvas::setWheelZooms (off by default: the wheel scrolls).
  void setWheelZooms(bool on);
  [[nodiscard]] bool wheelZooms() const;
  /// The vertical layout (rows of ranks/processes/lanes), read-only.
  [[nodiscard]] const LaneLayout& layout() const { return m_ctx.layout; }
  /// Vertical scroll position (content y at the top of the canvas), px.
  [[nodiscard]] int verticalScroll() const { return m_ctx.scrollY; }
  void setVerticalScroll(int y);
  /// The ranks' header rows in layout order: (rank index, content y, px).
  [[nodiscard]] std::vector<std::pair<int, int>> rankHeaders() const;
  /// The rank whose lanes are at the top of the view and how far into it (px): the last rank
  /// header at or above the scroll position; {-1, scroll} without one.
  [[nodiscard]] std::pair<int, int> rankAtTop() const;

  /// Renders the whole composite (ruler, corner, lane headers, lanes) exactly as the window draws
  /// it, into an image of `logicalSize` logical px at `devicePixelRatio` (the image has
  /// logicalSize * dpr physical pixels). Works on a hidden widget under the offscreen platform.
  [[nodiscard]] QImage renderToImage(QSize logicalSize, qreal devicePixelRatio = 1.0);

  /// The user's point and range markers (markers.h), drawn on the ruler and over the lanes. The
  /// widget adds to it on M (a point at the cursor), Shift+M (the time selection) and from the
  /// canvas's context menu; setProfile leaves it alone (the main window loads and saves it per
  /// folder).
  [[nodiscard]] MarkerList* markers() const { return m_markers; }
  /// Shows marker `index`: a point is centred keeping the zoom, a range is shown with a margin of
  /// a tenth of its duration on each side. Out of range: no-op.
  void revealMarker(int index);
  /// The parts of the composite, for an export that paints them one at a time (the SVG export
  /// keeps each in a group clipped to its rectangle; widgets/export/timeline_export.h).
  enum class Part { Corner, Ruler, Header, Canvas };
  /// The rectangle of `part` in a composite of `logicalSize` logical px: the corner and the ruler
  /// (TimeRuler::kHeight tall) on top, the lane headers (headerWidth() wide) and the lanes below.
  [[nodiscard]] QRect partRect(Part part, QSize logicalSize) const;
  /// Paints `part` of a composite of `logicalSize` with its top-left corner at the painter's
  /// origin, as the window draws it (no scroll bar), the lanes starting at content y `scrollY`
  /// (clamped to the content). Does not clip: the caller does (renderToImage clips each part).
  void paintPart(QPainter& p, Part part, QSize logicalSize, int scrollY);
  /// Lays out only the lanes `filter` accepts (LaneLayout::setLaneFilter; empty: every lane).
  void setLaneFilter(LaneLayout::LaneFilter filter);

  /// The lane canvas (for focus and tests).
  [[nodiscard]] LaneCanvas* canvas() const { return m_canvas; }
  /// Width of the lane-header column, px.
  [[nodiscard]] int headerWidth() const;
  /// Height of the ruler, px.
  [[nodiscard]] int rulerHeight() const;

  /// The window's actions whose shortcuts the help dialog (`?`, F1) lists before the timeline's
  /// own keys (ShortcutsDialog::setActions); e.g. every menu action of the main window.
  void setShortcutActions(const QList<QAction*>& actions);

 public slots:
  /// Shows the non-modal keys dialog (ShortcutsDialog).
  void showShortcuts();

 signals:
  /// A slice was selected (click or selectSlice); an invalid ref when cleared.
  void sliceSelected(npuscope::widgets::RankSliceRef ref);
  /// The slice under the mouse changed (an invalid ref when none).
  void hoveredSliceChanged(npuscope::widgets::RankSliceRef ref);
  /// The visible range changed (forwarded from the viewport).
  void visibleRangeChanged(npuscope::core::TimeRange range);
  /// The vertical scroll position changed (content y at the top of the lanes, px).
  void verticalScrollChanged(int y);
  /// A click landed in a bubble (a gap of a device lane, or its Overlap Analysis Free slice).
  void bubbleClicked(npuscope::widgets::BubbleRef ref);

 protected:
  void resizeEvent(QResizeEvent*) override;

 private:
  void onSliceClicked(RankSliceRef ref);
  void relayout();
  void updateScrollBar();
  void scrollBy(int dy);
  /// Scrolls so that the rank header `step` ranks below (+) or above (-) the one at the top of
  /// the lanes is at the top (clamped to the first and last rank). The wheel over the lane
  /// headers and Ctrl+Down / Ctrl+Up on the lanes do this.
  void scrollByRanks(int step);
  void paintCorner(QPainter& p, QSize size) const;

  TimelineContext m_ctx;
  TimelineViewport* m_viewport = nullptr;
  TimeRuler* m_ruler = nullptr;
  LaneHeader* m_header = nullptr;
  LaneCanvas* m_canvas = nullptr;
  SliceSetPass* m_sliceSet = nullptr;  // owned by m_canvas
  MomentPass* m_moment = nullptr;      // owned by m_canvas
  QScrollBar* m_vscroll = nullptr;
  QWidget* m_corner = nullptr;
  ShortcutsDialog* m_shortcuts = nullptr;
  QList<QPointer<QAction>> m_shortcutActions;  // a menu may delete and remake its actions
  ViewState* m_viewState = nullptr;
  MarkerList* m_markers = nullptr;
  /// Lanes setChainHighlight unfolded (rank, lane), folded again when the chain changes or is
  /// cleared, so that a click on another task does not leave the stacks it opened open.
  std::vector<std::pair<int, std::uint32_t>> m_chainUnfolded;
};

}  // namespace npuscope::widgets
