// SPDX-License-Identifier: MIT
#pragma once

#include <QPoint>
#include <QRect>
#include <QRgb>
#include <QtGlobal>
#include <cstdint>
#include <optional>

class QPainter;
class QRectF;
class QTransform;

namespace npuscope::widgets {

/// The device pixels Qt's raster engine fills for an aliased fillRect of `r` under `m` (a
/// translation or a positive scale): the rect mapped as QTransform::mapRect maps it (for a
/// translation m11 = m22 = 1, so the products are exact), then each edge rounded with qRound, as
/// QRasterPaintEngine::toNormalizedFillRect does (Qt 6.4).
[[nodiscard]] QRect deviceFillRect(const QRectF& r, const QTransform& m);

/// The raster engine's own target when fills can be written into it directly: a 32-bit image of
/// its own (the window's backing store, renderToImage's image) and what the engine clips to there
/// (device px: the image, the painter's clip and the system clip, each one rectangle). The passes
/// that write into it (the boxes, the bubble shading) give the pixels Qt's fills would; the
/// render-pass tests compare the two.
struct DirectTarget {
  uchar* bits = nullptr;
  qsizetype stride = 0;
  QRect clip;

  /// Writes the opaque `color` into device rect `r` (clipped): the pixels fillRect would write.
  void fill(const QRect& r, QRgb color) const;

  /// The line of device row y (inside clip), as 32-bit pixels.
  [[nodiscard]] quint32* line(int y) const { return reinterpret_cast<quint32*>(bits + static_cast<qsizetype>(y) * stride); }

 private:
  // `lines` lines of W pixels from `line` on.
  template <int W>
  void column(uchar* line, int lines, quint32 pixel) const {
    for (int y = 0; y < lines; ++y, line += stride) {
      auto* px = reinterpret_cast<quint32*>(line);
      for (int k = 0; k < W; ++k) px[k] = pixel;
    }
  }
};

/// Whether `p` paints as the direct writers reproduce: through the raster engine, unantialiased,
/// SourceOver at full opacity (what an aliased fillRect is drawn with).
[[nodiscard]] bool paintsLikeAliasedFill(const QPainter& p);

/// The whole-pixel translation `m` is (device px = logical px + the shift), or nullopt when `m`
/// scales, rotates, moves by a fraction of a pixel or by more than 1e6 px.
[[nodiscard]] std::optional<QPoint> wholePixelShift(const QTransform& m);

/// The direct target of painter `p` when it paints on a 32-bit QImage of its own through the
/// raster engine, with clips of one rectangle each, and direct fills are enabled; nullopt
/// otherwise. `shift`: the painter's whole-pixel translation (its current transform maps device
/// px - shift), by which its clip region is moved into device px. `blend`: the caller blends
/// translucent pixels (blendOver), which gives Qt's pixels only on a premultiplied target
/// (Format_ARGB32_Premultiplied or Format_RGB32; into Format_ARGB32 Qt converts first), so a
/// Format_ARGB32 image gives nullopt then. Every caller writes into the target it gets.
[[nodiscard]] std::optional<DirectTarget> directTarget(QPainter& p, QPoint shift, bool blend = false);

/// Premultiplied `s` over premultiplied `d`, to the bit as Qt 6.4's comp_func_SourceOver (and its
/// SSE2 / AVX2 forms) computes it at full constant alpha, for a valid premultiplied `s` (no
/// colour byte above its alpha; with one, the channel sums may carry here and not in Qt's SSE2): an opaque `s` replaces `d`, a
/// transparent one leaves it, otherwise s + d * (255 - alpha(s)) / 255 per channel, each product
/// rounded as Qt's BYTE_MUL rounds it: (t + (t >> 8) + 0x80) >> 8.
/// (For an opaque or a clear `s` the general form gives the same: d * 0 rounds to 0 and d * 255
/// to d.)
[[nodiscard]] inline quint32 blendOver(quint32 d, quint32 s) {
  const quint32 a = 255 - (s >> 24);
  quint32 rb = (d & 0x00FF00FFu) * a;
  rb = ((rb + ((rb >> 8) & 0x00FF00FFu) + 0x00800080u) >> 8) & 0x00FF00FFu;
  quint32 ag = ((d >> 8) & 0x00FF00FFu) * a;
  ag = (ag + ((ag >> 8) & 0x00FF00FFu) + 0x00800080u) & 0xFF00FF00u;
  return s + (ag | rb);
}

/// dst[i] = blendOver(dst[i], src[i]) for i in [0, n) (SSE2 where the target has it, as Qt's
/// comp_func_SourceOver_sse2 computes it: the same bits for valid premultiplied sources).
void blendOverLine(quint32* dst, const quint32* src, int n);

/// Whether directTarget may give a target (on by default; tests turn it off to compare the direct
/// pixels with Qt's own fills).
void setDirectFillsEnabled(bool on);
/// How many targets directTarget has given, i.e. how many times a pass wrote directly: the tests'
/// way to see that the direct path ran.
[[nodiscard]] std::uint64_t directWrites();

}  // namespace npuscope::widgets
