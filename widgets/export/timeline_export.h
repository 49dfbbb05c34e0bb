// SPDX-License-Identifier: MIT
#pragma once
// Exporting the timeline as an image: PNG (raster, at 1x or 2x) or SVG (vector, each part of the
// composite in a group clipped to its rectangle, the bubble hatch as lines, fonts named), of the
// visible / selected / whole time range, the visible / all / selected lanes, with an optional
// caption. Used by File > Export Image... (app/main_window.cpp) and `npuscope screenshot`
// (app/command_line.cpp). Never writes anywhere but the file it is given.

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <vector>

#include "core/base/types.h"

namespace npuscope::core {
struct Profile;
}

namespace npuscope::widgets {

class TimelineWidget;

/// What an export shows. Times are absolute ns; sizes logical px.
struct TimelineExportOptions {
  enum class Range {
    Visible,    ///< the timeline's visible range
    Selection,  ///< the time selection (else the selected bubble, else the selected slice)
    Whole,      ///< the whole capture (TimelineViewport::traceRange)
    Custom,     ///< `customRange`
  };
  enum class Lanes {
    Visible,   ///< the rows on screen: `viewSize` tall, at the current vertical scroll
    All,       ///< every row from the top, at most `maxHeight`: every rank and process expanded
               ///< (collapsed counters too) and every deep lane unfolded (all its levels), for
               ///< this export only (the user's expand / fold choices are set back after);
               ///< Selected and Pattern unfold their lanes the same way
    Selected,  ///< the lanes of the selection: the selected slice's, the chain's, the outlined
               ///< slices', and the device lanes of the selected bubble's rank
    Pattern,   ///< the lanes whose path ("rank 0 · NPU 0 / Ascend Hardware / Stream 2") or
               ///< counter series' path ("rank 0 · NPU 0 / Memory allocator / PTA Allocated", LaneLayout::counterPath) matches `lanePattern` (wildcards * and ?, case-insensitive, anywhere)
  };
  Range range = Range::Visible;
  core::TimeRange customRange;
  Lanes lanes = Lanes::Visible;
  QString lanePattern;
  QSize viewSize{1200, 800};  ///< the composite's size for Lanes::Visible; its width for the others
  double scale = 1.0;         ///< device pixels per logical px (PNG), or the SVG's width / viewBox ratio
  QString caption;            ///< the profile's name for a caption line above the ruler (exportCaption,
                              ///< with the exported range); empty: no caption
  int maxHeight = 16384;      ///< logical px cap of the composite (Lanes::All on a deep profile)
};

/// The result of an export: a PNG image (devicePixelRatio = scale) or an SVG document.
struct TimelineExport {
  QImage image;     ///< PNG exports
  QByteArray svg;   ///< SVG exports (UTF-8)
  QString error;    ///< empty when it worked; else one sentence (nothing selected, no match, ...)
  [[nodiscard]] bool ok() const { return error.isEmpty(); }
};

/// Renders `timeline` as `options` say, raster. The timeline's own range, scroll and lanes are
/// set back afterwards (its viewport's signals are blocked meanwhile, so views bound to it see
/// no change).
[[nodiscard]] TimelineExport exportTimelineImage(TimelineWidget& timeline, const TimelineExportOptions& options);

/// Renders `timeline` as an SVG document: the lanes, the lane headers, the ruler, the corner and
/// the caption, each a <g> translated to its place and clipped (clip-path) to its rectangle, in
/// that order, so that a renderer without clip-path (QSvgRenderer of Qt 6.4) still shows the
/// ruler over a partly scrolled lane; no scroll bar; the bubble hatch as lines in groups of
/// class "bubble-hatch" (hatchPath); every text with its font-family. width / height are the
/// logical size times `options.scale`, the viewBox the logical size.
[[nodiscard]] TimelineExport exportTimelineSvg(TimelineWidget& timeline, const TimelineExportOptions& options);

/// Exports to `file`: SVG when its name ends in .svg (any case), else PNG. Returns "" or the
/// error sentence.
[[nodiscard]] QString writeTimelineExport(TimelineWidget& timeline, const TimelineExportOptions& options,
                                          const QString& file);

/// The caption line: "NAME · rank R · +START – +END (DURATION) · HEADLINE", times relative to
/// the profile's start (core::formatSignedOffset: "-9 ms" before it, never "+-9 ms"); the rank is `rank` (an index of Profile::ranks; -1: the first rank with an
/// analysis) and HEADLINE its Verdict::headline (left out when there is none).
[[nodiscard]] QString exportCaption(const core::Profile& profile, const QString& name, int rank,
                                    core::TimeRange range);

/// The caption when the image shows the lanes of the ranks `shown` (indices of Profile::ranks,
/// ascending; empty: unknown, as the overload above): one rank shown names that one (the
/// preferred `rank` only when it is the one shown) with its headline; several name them all
/// ("rank 0, rank 1", at most 4 and "+N more") and give the headline of `rank` only when it is
/// among them, prefixed with its label. Never names a rank whose lanes are not in the image
/// (issue 42 item 4: "rank 0 · NPU 0" over rank 1's lanes).
[[nodiscard]] QString exportCaption(const core::Profile& profile, const QString& name, int rank, core::TimeRange range,
                                    const std::vector<int>& shown);

/// The rank an export's caption names: the selected bubble's, else the selected slice's, else
/// the chain's, else -1.
[[nodiscard]] int exportRank(const TimelineWidget& timeline);

/// The ranks (indices of Profile::ranks, ascending) with a layout row in the content rows
/// [scrollY, scrollY + height) of `timeline`: the ranks an image of that part shows.
[[nodiscard]] std::vector<int> ranksInRows(const TimelineWidget& timeline, int scrollY, int height);

}  // namespace npuscope::widgets
