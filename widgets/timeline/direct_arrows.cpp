// SPDX-License-Identifier: MIT
#include "widgets/timeline/direct_arrows.h"

#include <algorithm>
#include <cmath>

namespace npuscope::widgets {

CoverageColor::CoverageColor(QRgb color) : m_color(color | 0xFF000000u) {
  for (quint32 c = 0; c < 256; ++c) {
    // BYTE_MUL of Qt's qdrawhelper: every byte times c / 255, rounded as (t + (t >> 8) + 0x80) >> 8.
    quint32 rb = (m_color & 0x00FF00FFu) * c;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu) + 0x00800080u) >> 8) & 0x00FF00FFu;
    quint32 ag = ((m_color >> 8) & 0x00FF00FFu) * c;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu) + 0x00800080u) & 0xFF00FF00u;
    m_px[c] = ag | rb;
  }
}

ArrowCubic arrowCubic(QPointF a, QPointF b) {
  const double dx = std::max(30.0, std::abs(b.x() - a.x()) * 0.4);
  if (std::abs(a.y() - b.y()) < 1) return {a, QPointF(a.x() + dx * 0.3, a.y() - 14), QPointF(b.x() - dx * 0.3, b.y() - 14), b};
  return {a, QPointF(a.x() + dx, a.y()), QPointF(b.x() - dx, b.y()), b};
}

QPointF arrivalDirection(const ArrowCubic& c, QPointF fallback) {
  for (const QPointF q : {c.p2, c.p1, c.p0}) {
    const QPointF d = c.p3 - q;
    const double len = std::hypot(d.x(), d.y());
    if (len > 1e-6) return d / len;
  }
  return fallback;
}

std::array<QPointF, 3> arrowHeadCorners(QPointF tip, QPointF dir) {
  const QPointF n(-dir.y(), dir.x());
  constexpr double s = 7;
  return {tip, tip - dir * s + n * s * 0.45, tip - dir * s - n * s * 0.45};
}

void flattenCubic(QPointF p0, QPointF p1, QPointF p2, QPointF p3, double tolerance, std::vector<QPointF>& out) {
  out.clear();
  const QPointF d1 = p0 - 2 * p1 + p2, d2 = p1 - 2 * p2 + p3;
  const double dd = std::max(std::hypot(d1.x(), d1.y()), std::hypot(d2.x(), d2.y()));
  // |B''| <= 6 dd, and a chord of a parameter step 1/n strays at most |B''| / (8 n^2) from it.
  const double need = std::sqrt(0.75 * dd / std::max(tolerance, 1e-3));
  // Clamped as a double first: a NaN or huge `need` never reaches the int conversion.
  const int n = need >= 1 ? static_cast<int>(std::ceil(std::min(need, 1024.0))) : 1;
  out.reserve(static_cast<std::size_t>(n) + 1);
  out.push_back(p0);
  for (int i = 1; i < n; ++i) {
    const double t = static_cast<double>(i) / n, u = 1 - t;
    out.push_back(u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3);
  }
  out.push_back(p3);
}

namespace {

inline void plot(const DirectTarget& t, int x, int y, int coverage, const CoverageColor& c) {
  if (coverage <= 0 || x < t.clip.left() || x > t.clip.right() || y < t.clip.top() || y > t.clip.bottom()) return;
  quint32* px = t.line(y) + x;
  *px = coverage >= 255 ? c.at(255) : blendOver(*px, c.at(coverage));
}

/// The share of a unit pixel on the inside (n . q + d >= 0, q from the pixel's centre) of a line
/// with unit normal n at signed distance d from the centre: exact (a trapezoid, or a corner
/// triangle of the square).
double halfPlaneCoverage(double nx, double ny, double d) {
  const double a = std::max(std::abs(nx), std::abs(ny)), b = std::min(std::abs(nx), std::abs(ny));
  const double h = (a + b) / 2;  // half the square's extent along n
  if (d >= h) return 1;
  if (d <= -h) return 0;
  if (b < 1e-9 || std::abs(d) <= (a - b) / 2) return 0.5 + d / a;
  const double u = h - std::abs(d);
  const double corner = u * u / (2 * a * b);
  return d > 0 ? 1 - corner : corner;
}

}  // namespace

void strokePolylineAA(const DirectTarget& t, const std::vector<QPointF>& pts, const CoverageColor& c) {
  for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
    const QPointF p = pts[k], q = pts[k + 1];
    const double dx = q.x() - p.x(), dy = q.y() - p.y();
    if (dx == 0 && dy == 0) continue;
    const bool xMajor = std::abs(dx) >= std::abs(dy);
    const double pu = xMajor ? p.x() : p.y(), qu = xMajor ? q.x() : q.y();
    const double pv = xMajor ? p.y() : p.x();
    const double slope = xMajor ? dy / dx : dx / dy;
    // The pixels [i0, i1) along the major axis whose centre i + 0.5 the chord passes, from p
    // (included) towards q (excluded), so that the next chord starts where this one stopped.
    int i0 = 0, i1 = 0;
    if (qu > pu) {
      i0 = static_cast<int>(std::ceil(pu - 0.5));
      i1 = static_cast<int>(std::ceil(qu - 0.5));
    } else {
      i0 = static_cast<int>(std::floor(qu - 0.5)) + 1;
      i1 = static_cast<int>(std::floor(pu - 0.5)) + 1;
    }
    i0 = std::max(i0, xMajor ? t.clip.left() : t.clip.top());
    i1 = std::min(i1, (xMajor ? t.clip.right() : t.clip.bottom()) + 1);
    if (i0 >= i1) continue;
    // The line's centre across the major axis at pixel i's centre, in pixel-index units (pixel
    // j spans [j, j + 1), centre j + 0.5), as 16.16 fixed point: its integer part j and the
    // fraction split the coverage between pixels j and j + 1.
    const double v0 = pv + (i0 + 0.5 - pu) * slope - 0.5;
    auto v = static_cast<std::int64_t>(std::llround(v0 * 65536.0));
    const auto dv = static_cast<std::int64_t>(std::llround(slope * 65536.0));
    const std::int64_t vLast = v + dv * (i1 - 1 - i0);
    const int jMin = static_cast<int>(std::min(v, vLast) >> 16), jMax = static_cast<int>(std::max(v, vLast) >> 16) + 1;
    const int lo = xMajor ? t.clip.top() : t.clip.left(), hi = xMajor ? t.clip.bottom() : t.clip.right();
    if (jMin < lo || jMax > hi) {  // partly outside the clip across the major axis: every pixel checked
      for (int i = i0; i < i1; ++i, v += dv) {
        const int j = static_cast<int>(v >> 16), a1 = static_cast<int>((v >> 8) & 0xFF);
        if (xMajor) {
          plot(t, i, j, 255 - a1, c);
          plot(t, i, j + 1, a1, c);
        } else {
          plot(t, j, i, 255 - a1, c);
          plot(t, j + 1, i, a1, c);
        }
      }
      continue;
    }
    const auto blend = [&c](quint32* px, int a) {
      if (a != 0) *px = a == 255 ? c.at(255) : blendOver(*px, c.at(a));
    };
    if (xMajor) {
      for (int i = i0; i < i1; ++i, v += dv) {
        const int j = static_cast<int>(v >> 16), a1 = static_cast<int>((v >> 8) & 0xFF);
        quint32* px = t.line(j) + i;
        blend(px, 255 - a1);
        blend(reinterpret_cast<quint32*>(reinterpret_cast<uchar*>(px) + t.stride), a1);
      }
    } else {
      // A steep chord visits a new image row at every step: the row a few steps on is fetched
      // ahead (the image is larger than the caches).
      for (int i = i0; i < i1; ++i, v += dv) {
        const int j = static_cast<int>(v >> 16), a1 = static_cast<int>((v >> 8) & 0xFF);
        if (i + 8 < i1) __builtin_prefetch(t.line(i + 8) + static_cast<int>((v + 8 * dv) >> 16), 1);
        quint32* px = t.line(i) + j;
        blend(px, 255 - a1);
        blend(px + 1, a1);
      }
    }
  }
}

void fillTriangleAA(const DirectTarget& t, QPointF a, QPointF b, QPointF c, const CoverageColor& col) {
  const QPointF v[3] = {a, b, c};
  // Each edge as a unit normal pointing inside and an offset: n . p + d is the signed distance
  // of p from the edge, positive inside.
  struct Edge {
    double nx, ny, d, h;  // h: half a pixel's extent along n
  } e[3];
  for (int k = 0; k < 3; ++k) {
    const QPointF p0 = v[k], p1 = v[(k + 1) % 3], w = v[(k + 2) % 3];
    const double ex = p1.x() - p0.x(), ey = p1.y() - p0.y();
    const double len = std::hypot(ex, ey);
    if (!(len > 1e-9)) return;
    double nx = -ey / len, ny = ex / len;
    if (nx * (w.x() - p0.x()) + ny * (w.y() - p0.y()) < 0) {
      nx = -nx;
      ny = -ny;
    }
    e[k] = {nx, ny, -(nx * p0.x() + ny * p0.y()), (std::abs(nx) + std::abs(ny)) / 2};
  }
  const double minX = std::min({a.x(), b.x(), c.x()}), maxX = std::max({a.x(), b.x(), c.x()});
  const double minY = std::min({a.y(), b.y(), c.y()}), maxY = std::max({a.y(), b.y(), c.y()});
  // Beyond +-1e6 px, or larger than an arrowhead, or not finite: nothing drawn (the pixel
  // indices below stay far inside int).
  if (!(minX >= -1e6 && maxX <= 1e6 && minY >= -1e6 && maxY <= 1e6 && maxX - minX < 1e4 && maxY - minY < 1e4)) return;
  const int x0 = std::max(static_cast<int>(std::floor(minX)), t.clip.left());
  const int x1 = std::min(static_cast<int>(std::ceil(maxX)) - 1, t.clip.right());
  const int y0 = std::max(static_cast<int>(std::floor(minY)), t.clip.top());
  const int y1 = std::min(static_cast<int>(std::ceil(maxY)) - 1, t.clip.bottom());
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double cx = x + 0.5, cy = y + 0.5;
      int crossing = 0, which = 0;
      bool outside = false;
      double dist[3];
      for (int k = 0; k < 3; ++k) {
        dist[k] = e[k].nx * cx + e[k].ny * cy + e[k].d;
        if (dist[k] <= -e[k].h) outside = true;
        else if (dist[k] < e[k].h) {
          ++crossing;
          which = k;
        }
      }
      if (outside) continue;
      double cover = 1;
      if (crossing == 1) {
        cover = halfPlaneCoverage(e[which].nx, e[which].ny, dist[which]);
      } else if (crossing > 1) {
        int in = 0;
        for (int sy = 0; sy < 4; ++sy)
          for (int sx = 0; sx < 4; ++sx) {
            const double ox = (sx + 0.5) / 4 - 0.5, oy = (sy + 0.5) / 4 - 0.5;
            bool inside = true;
            for (int k = 0; k < 3 && inside; ++k) inside = dist[k] + e[k].nx * ox + e[k].ny * oy >= 0;
            in += inside;
          }
        cover = in / 16.0;
      }
      plot(t, x, y, static_cast<int>(cover * 255 + 0.5), col);
    }
  }
}

bool drawFlowArrowDirect(const DirectTarget& t, QPointF from, QPointF to, const CoverageColor& c,
                         std::vector<QPointF>& scratch) {
  const ArrowCubic k = arrowCubic(from, to);
  for (const QPointF q : {k.p0, k.p1, k.p2, k.p3})
    if (!(std::abs(q.x()) <= 1e6 && std::abs(q.y()) <= 1e6)) return false;
  flattenCubic(k.p0, k.p1, k.p2, k.p3, 0.2, scratch);
  // QPen's default square cap: the line runs on half its width past each end.
  const auto extend = [](QPointF& end, QPointF from) {
    const QPointF d = end - from;
    const double len = std::hypot(d.x(), d.y());
    if (len > 1e-9) end += d * (0.5 / len);
  };
  if (scratch.size() >= 2) {
    extend(scratch.front(), scratch[1]);
    extend(scratch.back(), scratch[scratch.size() - 2]);
  }
  strokePolylineAA(t, scratch, c);
  const auto head = arrowHeadCorners(to, arrivalDirection(k, QPointF(1, 0)));
  fillTriangleAA(t, head[0], head[1], head[2], c);
  return true;
}

}  // namespace npuscope::widgets

