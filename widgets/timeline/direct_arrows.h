// SPDX-License-Identifier: MIT
#pragma once
// The flow arrows drawn straight into the image (a DirectTarget): a 1 px antialiased curve and a
// filled antialiased head per arrow, in an opaque colour. The arrows pass draws them this way
// when the painter allows it (a whole-pixel translation onto a premultiplied 32-bit image of its
// own) and through Qt otherwise. Qt's cosmetic stroker hands every pixel of an antialiased line
// to its span blender, ~2.4 us per zoomed-out arrow; this writes each pixel with one blendOver
// (issue 27 item 1). The pixels differ from Qt's only in their antialiasing: the same curve, the
// coverage split between the two pixels the line's centre falls between (Qt's cosmetic lines
// do the same), and exact area coverage for the head's edges.

#include <QPointF>
#include <QRgb>
#include <array>
#include <vector>

#include "widgets/timeline/direct_target.h"

namespace npuscope::widgets {

/// An opaque colour at each coverage 0..255, premultiplied (coverage c: every channel, alpha
/// included, times c / 255 with Qt's BYTE_MUL rounding), ready for blendOver.
class CoverageColor {
 public:
  explicit CoverageColor(QRgb color = 0xFF000000u);
  [[nodiscard]] QRgb color() const { return m_color; }
  [[nodiscard]] quint32 at(int coverage) const { return m_px[static_cast<std::size_t>(coverage)]; }

 private:
  QRgb m_color;
  std::array<quint32, 256> m_px{};
};

/// The control points of a flow arrow's cubic from a to b: it leaves a and reaches b
/// horizontally, dx = max(30, 0.4 |b.x - a.x|) px along; an arc 14 px above the row when both
/// ends are on the same row (|a.y - b.y| < 1).
struct ArrowCubic {
  QPointF p0, p1, p2, p3;
};
[[nodiscard]] ArrowCubic arrowCubic(QPointF a, QPointF b);

/// The direction (unit vector) in which the cubic arrives at p3: along its last control leg that
/// is not degenerate (p3 - p2, else p3 - p1, else p3 - p0), else `fallback`: what
/// arrivalDirection reads from the QPainterPath of the same cubic.
[[nodiscard]] QPointF arrivalDirection(const ArrowCubic& c, QPointF fallback);

/// The three corners of the 7 px arrowhead at `tip` pointing along `dir` (a unit vector): the
/// tip, and two corners 7 px back, 0.45 x 7 px to each side.
[[nodiscard]] std::array<QPointF, 3> arrowHeadCorners(QPointF tip, QPointF dir);

/// The cubic Bezier p0..p3 as a polyline whose chords stay within `tolerance` px of the curve
/// (uniform parameter steps; the step count n from the bound 3/4 max|p_i - 2 p_i+1 + p_i+2| / n^2)
/// unless that takes more than 1024 chords: then 1024 (a curve millions of px long). `out` is
/// replaced by the points, first p0, last p3. Qt's cosmetic stroker cuts a cubic into at most 64
/// chords, so on a curve tens of thousands of px long (an arrow zoomed far in) its chord strays
/// from the curve by a few px where this follows it.
void flattenCubic(QPointF p0, QPointF p1, QPointF p2, QPointF p3, double tolerance, std::vector<QPointF>& out);

/// Strokes the polyline `pts` (device px) 1 px wide, antialiased, into `t` (clipped to t.clip):
/// along each chord's major axis, every pixel whose centre the chord passes gets the coverage
/// split between the two pixels across the minor axis that the line's centre lies between (a
/// line through pixel centres covers one pixel fully). A pixel column (row) is drawn once where
/// consecutive chords share their major axis; the last point itself is not drawn (the arrowhead
/// covers it). Points must be finite and within +-1e6 px (drawFlowArrowDirect checks).
void strokePolylineAA(const DirectTarget& t, const std::vector<QPointF>& pts, const CoverageColor& c);

/// Fills the triangle a, b, c (device px, either winding) antialiased into `t`: each pixel gets
/// the share of its area inside the triangle, exact for a pixel crossed by one edge, from 4x4
/// samples where two or three edges cross it; pixels wholly inside get the colour itself. Draws
/// nothing for a degenerate triangle, one with a corner beyond +-1e6 px or not finite, or one
/// 1e4 px or more across (it is meant for arrowheads).
void fillTriangleAA(const DirectTarget& t, QPointF a, QPointF b, QPointF c, const CoverageColor& col);

/// A flow arrow from `from` to `to` (device px) as FlowArrowsPass draws it at 1 px: the curve of
/// addArrowCurve (render_passes.cpp) stroked by strokePolylineAA, then the 7 px head at `to`
/// (along the curve's last control leg) filled by fillTriangleAA. `scratch` is reused between
/// arrows. False, with nothing drawn, when a point of the curve is not finite or lies beyond
/// +-1e6 px: the caller draws that arrow through Qt.
bool drawFlowArrowDirect(const DirectTarget& t, QPointF from, QPointF to, const CoverageColor& c,
                         std::vector<QPointF>& scratch);

}  // namespace npuscope::widgets
