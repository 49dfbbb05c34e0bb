// SPDX-License-Identifier: MIT
#include "widgets/timeline/direct_target.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QRegion>
#include <QTransform>
#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npuscope::widgets {

namespace {
bool g_directFills = true;  // setDirectFillsEnabled
std::uint64_t g_writes = 0;  // directWrites
}  // namespace

std::uint64_t directWrites() { return g_writes; }
void setDirectFillsEnabled(bool on) { g_directFills = on; }

bool paintsLikeAliasedFill(const QPainter& p) {
  const QPaintEngine* engine = p.paintEngine();
  return engine && engine->type() == QPaintEngine::Raster && !p.testRenderHint(QPainter::Antialiasing) &&
         p.compositionMode() == QPainter::CompositionMode_SourceOver && p.opacity() >= 1.0;
}

std::optional<QPoint> wholePixelShift(const QTransform& m) {
  if (m.type() > QTransform::TxTranslate || m.dx() != std::round(m.dx()) || m.dy() != std::round(m.dy()) ||
      std::abs(m.dx()) > 1e6 || std::abs(m.dy()) > 1e6)
    return std::nullopt;
  return QPoint(static_cast<int>(m.dx()), static_cast<int>(m.dy()));
}

QRect deviceFillRect(const QRectF& r, const QTransform& m) {
  const double x = m.m11() * r.x() + m.dx(), y = m.m22() * r.y() + m.dy();
  const double w = m.m11() * r.width(), h = m.m22() * r.height();
  int x1 = qRound(x), x2 = qRound(x + w);
  int y1 = qRound(y), y2 = qRound(y + h);
  if (x2 < x1) std::swap(x1, x2);
  if (y2 < y1) std::swap(y1, y2);
  return {x1, y1, x2 - x1, y2 - y1};
}

void DirectTarget::fill(const QRect& r, QRgb color) const {
  const int x0 = std::max(r.left(), clip.left()), x1 = std::min(r.right(), clip.right()) + 1;
  const int y0 = std::max(r.top(), clip.top()), y1 = std::min(r.bottom(), clip.bottom()) + 1;
  if (x0 >= x1 || y0 >= y1) return;
  const quint32 pixel = 0xFF000000u | color;  // the same in all three formats
  uchar* line = bits + static_cast<qsizetype>(y0) * stride + static_cast<qsizetype>(x0) * 4;
  // Zoomed out most boxes are 1 to 4 px wide: a loop per width writes their columns directly.
  switch (x1 - x0) {
    case 1: return column<1>(line, y1 - y0, pixel);
    case 2: return column<2>(line, y1 - y0, pixel);
    case 3: return column<3>(line, y1 - y0, pixel);
    case 4: return column<4>(line, y1 - y0, pixel);
    default:
      for (int y = y0; y < y1; ++y, line += stride)
        std::fill(reinterpret_cast<quint32*>(line), reinterpret_cast<quint32*>(line) + (x1 - x0), pixel);
  }
}

void blendOverLine(quint32* dst, const quint32* src, int n) {
  int i = 0;
#if defined(__SSE2__)
  // Four pixels at a time, each channel in a 16-bit lane: BYTE_MUL_SSE2 of Qt's qdrawhelper_sse2.
  const __m128i rbMask = _mm_set1_epi32(0x00FF00FF);
  const __m128i half = _mm_set1_epi16(0x80);
  const __m128i full = _mm_set1_epi16(0xFF);
  for (; i + 4 <= n; i += 4) {
    const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(dst + i));
    __m128i alpha = _mm_srli_epi32(s, 24);
    alpha = _mm_sub_epi16(full, _mm_or_si128(alpha, _mm_slli_epi32(alpha, 16)));
    __m128i ag = _mm_mullo_epi16(_mm_srli_epi16(d, 8), alpha);
    __m128i rb = _mm_mullo_epi16(_mm_and_si128(d, rbMask), alpha);
    ag = _mm_add_epi16(_mm_add_epi16(ag, _mm_srli_epi16(ag, 8)), half);
    rb = _mm_add_epi16(_mm_add_epi16(rb, _mm_srli_epi16(rb, 8)), half);
    const __m128i scaled = _mm_or_si128(_mm_andnot_si128(rbMask, ag), _mm_srli_epi16(rb, 8));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_add_epi8(s, scaled));
  }
#endif
  for (; i < n; ++i) dst[i] = blendOver(dst[i], src[i]);
}

std::optional<DirectTarget> directTarget(QPainter& p, QPoint shift, bool blend) {
  const QPaintEngine* engine = p.paintEngine();
  QPaintDevice* target = engine ? engine->paintDevice() : nullptr;
  if (!g_directFills || !target || target->devType() != QInternal::Image) return std::nullopt;
  auto* image = static_cast<QImage*>(target);
  const QImage::Format format = image->format();
  if ((format != QImage::Format_RGB32 && format != QImage::Format_ARGB32 &&
       format != QImage::Format_ARGB32_Premultiplied) || (blend && format == QImage::Format_ARGB32) ||
      !image->isDetached())
    return std::nullopt;
  DirectTarget t;
  t.clip = image->rect();
  if (p.hasClipping()) {
    const QRegion r = p.clipRegion();  // in the coordinates of the current (whole-pixel) transform
    if (r.rectCount() > 1) return std::nullopt;
    t.clip &= r.boundingRect().translated(shift);
  }
  const QRegion system = engine->systemClip();
  if (!system.isEmpty()) {
    if (system.rectCount() > 1) return std::nullopt;
    t.clip &= system.boundingRect();
  }
  t.bits = image->bits();  // no copy: the image is detached
  t.stride = image->bytesPerLine();
  ++g_writes;
  return t;
}

}  // namespace npuscope::widgets
