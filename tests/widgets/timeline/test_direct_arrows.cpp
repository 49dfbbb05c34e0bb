// SPDX-License-Identifier: MIT
// The flow arrows written straight into the image (direct_arrows.h): the line, the head and the
// curve against hand counts and geometry, and the arrows pass against Qt's own drawing.
#include "widgets/timeline/direct_arrows.h"

#include <QImage>
#include <QSet>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/direct_target.h"
#include "widgets/timeline/render_passes.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using widgets::CoverageColor;
using widgets::DirectTarget;

namespace {

// A white premultiplied image and its direct target (the whole image, or `clip`).
struct Canvas {
  QImage img;
  explicit Canvas(int w, int h) : img(w, h, QImage::Format_ARGB32_Premultiplied) { img.fill(0xFFFFFFFFu); }
  [[nodiscard]] DirectTarget target(QRect clip = {}) {
    DirectTarget t;
    t.bits = img.bits();
    t.stride = img.bytesPerLine();
    t.clip = clip.isNull() ? img.rect() : clip;
    return t;
  }
  // How much black was laid on pixel (x, y) of the white image: 0 (none) to 255 (black).
  [[nodiscard]] int ink(int x, int y) const { return 255 - qRed(img.pixel(x, y)); }
};

const CoverageColor kBlack(0xFF000000u);

// Twice the signed area of triangle abc (the shoelace formula).
double cross(QPointF a, QPointF b, QPointF c) {
  return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}
bool insideTriangle(QPointF p, QPointF a, QPointF b, QPointF c) {
  const double d1 = cross(a, b, p), d2 = cross(b, c, p), d3 = cross(c, a, p);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

// The distance from p to the segment ab.
double segmentDistance(QPointF p, QPointF a, QPointF b) {
  const QPointF d = b - a;
  const double len2 = d.x() * d.x() + d.y() * d.y();
  const double t = len2 > 0 ? std::clamp(((p.x() - a.x()) * d.x() + (p.y() - a.y()) * d.y()) / len2, 0.0, 1.0) : 0.0;
  const QPointF q = a + t * d;
  return std::hypot(p.x() - q.x(), p.y() - q.y());
}

}  // namespace

TEST_CASE("a 1 px line through pixel centres covers one pixel a column, and between two rows splits",
          "[direct_arrows]") {
  SECTION("along row 10's centres: the pixels whose centres it passes, wholly") {
    Canvas c(40, 30);
    widgets::strokePolylineAA(c.target(), {QPointF(2.3, 10.5), QPointF(20.7, 10.5)}, kBlack);
    // Centres 2.5 ... 20.5 lie in [2.3, 20.7): columns 2 to 20, 19 pixels.
    for (int x = 0; x < 40; ++x) {
      INFO("x " << x);
      CHECK(c.img.pixel(x, 10) == (x >= 2 && x <= 20 ? 0xFF000000u : 0xFFFFFFFFu));
      CHECK(c.ink(x, 9) == 0);
      CHECK(c.ink(x, 11) == 0);
    }
  }
  SECTION("on the border of rows 9 and 10: half each") {
    Canvas c(40, 30);
    widgets::strokePolylineAA(c.target(), {QPointF(2, 10), QPointF(20, 10)}, kBlack);
    for (int x = 2; x < 20; ++x) {
      INFO("x " << x);
      CHECK(c.ink(x, 9) >= 126);
      CHECK(c.ink(x, 9) <= 129);
      CHECK(std::abs(c.ink(x, 9) + c.ink(x, 10) - 255) <= 1);
    }
    CHECK(c.ink(1, 9) + c.ink(1, 10) == 0);
    CHECK(c.ink(20, 9) + c.ink(20, 10) == 0);
  }
  SECTION("steep: one row at a time, the coverage beside the line's centre") {
    Canvas c(20, 40);
    const QPointF a(5.5, 2), b(9.5, 26);
    widgets::strokePolylineAA(c.target(), {a, b}, kBlack);
    for (int y = 0; y < 40; ++y) {
      int sum = 0;
      double weighted = 0;
      for (int x = 0; x < 20; ++x) {
        sum += c.ink(x, y);
        weighted += c.ink(x, y) * (x + 0.5);
      }
      INFO("y " << y);
      if (y < 2 || y > 25) {
        CHECK(sum == 0);
        continue;
      }
      CHECK(std::abs(sum - 255) <= 2);
      // The ink's centre is the line's x at the row's centre.
      const double lineX = a.x() + (y + 0.5 - a.y()) * (b.x() - a.x()) / (b.y() - a.y());
      CHECK(std::abs(weighted / sum - lineX) < 0.02);
    }
  }
  SECTION("a chain of chords draws each column once") {
    Canvas one(60, 20), chain(60, 20);
    widgets::strokePolylineAA(one.target(), {QPointF(3.2, 5.7), QPointF(50.9, 12.3)}, kBlack);
    std::vector<QPointF> pts;
    for (int i = 0; i <= 7; ++i) pts.push_back(QPointF(3.2, 5.7) + (QPointF(50.9, 12.3) - QPointF(3.2, 5.7)) * (i / 7.0));
    widgets::strokePolylineAA(chain.target(), pts, kBlack);
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 60; ++x) {
        INFO(x << ", " << y);
        CHECK(std::abs(one.ink(x, y) - chain.ink(x, y)) <= 2);
      }
  }
}

TEST_CASE("nothing is written outside the target's clip", "[direct_arrows]") {
  Canvas whole(50, 40), clipped(50, 40);
  const QRect clip(10, 8, 20, 15);
  std::vector<QPointF> pts;
  widgets::flattenCubic(QPointF(-5, 3), QPointF(60, 3), QPointF(-20, 38), QPointF(55, 38), 0.2, pts);
  widgets::strokePolylineAA(whole.target(), pts, kBlack);
  widgets::strokePolylineAA(clipped.target(clip), pts, kBlack);
  // Lines whose centre lies just inside the clip's first and last rows (their other pixel row
  // is outside it), and steep ones along its first and last columns.
  const std::vector<std::vector<QPointF>> edges = {{QPointF(0, 8.2), QPointF(50, 8.4)}, {QPointF(0, 22.8), QPointF(50, 22.6)},
                                                   {QPointF(10.2, 0), QPointF(10.3, 40)}, {QPointF(29.8, 0), QPointF(29.7, 40)}};
  for (const auto& line : edges) {
    widgets::strokePolylineAA(whole.target(), line, kBlack);
    widgets::strokePolylineAA(clipped.target(clip), line, kBlack);
  }
  widgets::fillTriangleAA(whole.target(), QPointF(5, 5), QPointF(45, 12), QPointF(20, 35), kBlack);
  widgets::fillTriangleAA(clipped.target(clip), QPointF(5, 5), QPointF(45, 12), QPointF(20, 35), kBlack);
  int inside = 0;
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 50; ++x) {
      INFO(x << ", " << y);
      if (clip.contains(x, y)) {
        CHECK(clipped.img.pixel(x, y) == whole.img.pixel(x, y));
        inside += clipped.ink(x, y) > 0;
      } else {
        CHECK(clipped.img.pixel(x, y) == 0xFFFFFFFFu);
      }
    }
  CHECK(inside > 100);  // the clip held most of the triangle

  SECTION("lines along the image's own edges stay inside it") {
    Canvas edge(30, 20);
    for (const auto& line : std::vector<std::vector<QPointF>>{{QPointF(-3, 0.2), QPointF(40, 0.1)},
                                                              {QPointF(-3, 19.8), QPointF(40, 19.9)},
                                                              {QPointF(0.2, -3), QPointF(0.1, 30)},
                                                              {QPointF(29.8, -3), QPointF(29.9, 30)}})
      widgets::strokePolylineAA(edge.target(), line, kBlack);
    // The edge rows and columns got the share of the line inside them: 0.5 + the line's
    // distance into the image at the pixel's centre (0.2 - 0.1 (15.5 + 3) / 43 = 0.157 at x 15.5:
    // 0.657 x 255 = 167.6; along the columns the same at y 10.5).
    CHECK(std::abs(edge.ink(15, 0) - 167.6) <= 1.5);
    CHECK(std::abs(edge.ink(15, 19) - 167.6) <= 1.5);
    CHECK(std::abs(edge.ink(0, 10) - 167.6) <= 1.5);
    CHECK(std::abs(edge.ink(29, 10) - 167.6) <= 1.5);
  }
}

TEST_CASE("an antialiased triangle lays its area in ink, solid inside, nothing outside", "[direct_arrows]") {
  const QPointF a(3.2, 4.1), b(30.6, 9.8), c(11.3, 25.7);
  const double area = std::abs(cross(a, b, c)) / 2;  // 276.96 px^2
  Canvas ccw(40, 32), cw(40, 32);
  widgets::fillTriangleAA(ccw.target(), a, b, c, kBlack);
  widgets::fillTriangleAA(cw.target(), a, c, b, kBlack);
  CHECK(ccw.img == cw.img);  // either winding
  double inked = 0;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 40; ++x) {
      inked += ccw.ink(x, y) / 255.0;
      const QPointF corners[4] = {QPointF(x, y), QPointF(x + 1, y), QPointF(x, y + 1), QPointF(x + 1, y + 1)};
      int in = 0;
      for (const QPointF& k : corners) in += insideTriangle(k, a, b, c);
      INFO(x << ", " << y);
      if (in == 4) CHECK(ccw.img.pixel(x, y) == 0xFF000000u);  // wholly inside (convex)
      // No corner inside and the centre more than a pixel's half-diagonal from every edge:
      // the pixel lies wholly outside.
      const QPointF centre(x + 0.5, y + 0.5);
      if (in == 0 && !insideTriangle(centre, a, b, c) && segmentDistance(centre, a, b) > 0.71 &&
          segmentDistance(centre, b, c) > 0.71 && segmentDistance(centre, c, a) > 0.71)
        CHECK(ccw.ink(x, y) == 0);
    }
  // Every boundary pixel rounds its coverage to 1/255 and blends with Qt's rounding: well under
  // a pixel in all.
  CHECK(std::abs(inked - area) < 1.0);

  SECTION("a diagonal edge half a pixel right of the pixel corners cuts 1/8 and 7/8 of them") {
    // The edge x - y = 0.5 crosses pixel (k, k) ([k, k+1]^2) from (k+0.5, k) to (k+1, k+0.5):
    // the triangle beyond it has area 1/8; pixel (k+1, k) keeps all but the corner (k+1, k+0.5),
    // (k+1.5, k+1), (k+1, k+1): 7/8.
    Canvas d(48, 48);
    widgets::fillTriangleAA(d.target(), QPointF(0.5, 0), QPointF(46.5, 46), QPointF(46.5, 0), kBlack);
    for (int k = 2; k < 40; ++k) {
      INFO("k " << k);
      CHECK(std::abs(d.ink(k, k) - 32) <= 1);       // 255 / 8 = 31.9
      CHECK(std::abs(d.ink(k + 1, k) - 223) <= 1);  // 255 * 7 / 8 = 223.1
      CHECK(d.ink(k - 1, k) == 0);
      CHECK(d.ink(k + 2, k) == 255);
    }
  }
}

TEST_CASE("a flattened cubic stays within its tolerance of the curve", "[direct_arrows]") {
  const auto bezier = [](const widgets::ArrowCubic& k, double t) {
    const double u = 1 - t;
    return u * u * u * k.p0 + 3 * u * u * t * k.p1 + 3 * u * t * t * k.p2 + t * t * t * k.p3;
  };
  // The arrows' own shapes: between rows, on one row (the arc), short and very long.
  for (const auto& [from, to] : {std::pair{QPointF(100, 50), QPointF(300, 500)}, std::pair{QPointF(10, 40), QPointF(200, 40.5)},
                                 std::pair{QPointF(50, 20), QPointF(52, 30)}, std::pair{QPointF(-40000, 10), QPointF(900, 700)}}) {
    const widgets::ArrowCubic k = widgets::arrowCubic(from, to);
    for (const double tol : {0.2, 1.0}) {
      std::vector<QPointF> pts;
      widgets::flattenCubic(k.p0, k.p1, k.p2, k.p3, tol, pts);
      INFO("from " << from.x() << "," << from.y() << " to " << to.x() << "," << to.y() << ", tolerance " << tol);
      REQUIRE(pts.size() >= 2);
      CHECK(pts.front() == k.p0);
      CHECK(pts.back() == k.p3);
      double worst = 0;
      std::size_t seg = 0;
      for (int i = 0; i <= 4000; ++i) {
        const QPointF q = bezier(k, i / 4000.0);
        double best = 1e300;
        // The curve is walked in order: look at the chords around the last one that was nearest.
        for (std::size_t s = (seg > 3 ? seg - 3 : 0); s + 1 < pts.size() && s < seg + 4; ++s) {
          const double d = segmentDistance(q, pts[s], pts[s + 1]);
          if (d < best) {
            best = d;
            seg = s;
          }
        }
        worst = std::max(worst, best);
      }
      CHECK(worst <= tol + 1e-9);
    }
  }
}

TEST_CASE("a cubic millions of px long is cut into 1024 chords, no more", "[direct_arrows]") {
  std::vector<QPointF> pts;
  // dx = 0.4 x 1.8e6: |p0 - 2 p1 + p2| = 3.6e5, so 0.2 px would take sqrt(0.75 x 3.6e5 / 0.2) = 1162.
  const widgets::ArrowCubic k = widgets::arrowCubic(QPointF(-9e5, 0), QPointF(9e5, 600));
  widgets::flattenCubic(k.p0, k.p1, k.p2, k.p3, 0.2, pts);
  CHECK(pts.size() == 1025);
  widgets::flattenCubic(QPointF(0, 0), QPointF(std::nan(""), 0), QPointF(1, 1), QPointF(2, 2), 0.2, pts);
  CHECK(pts.size() == 2);  // a NaN control point: one chord, no int conversion of NaN
}

TEST_CASE("a direct flow arrow: the curve from its square cap, the head at its end, nothing for points far out",
          "[direct_arrows]") {
  const CoverageColor red(0xFFD00000u);
  std::vector<QPointF> scratch;
  SECTION("from (20.9, 10.5) to (120.5, 60.5)") {
    Canvas c(140, 80);
    REQUIRE(widgets::drawFlowArrowDirect(c.target(), QPointF(20.9, 10.5), QPointF(120.5, 60.5), kBlack, scratch));
    // The curve leaves horizontally along row 10; QPen's square cap starts it at x = 20.4, so
    // column 20 (centre 20.5) is drawn, nearly all in row 10, and column 19 is not.
    CHECK(c.ink(20, 10) >= 240);
    CHECK(c.ink(19, 9) + c.ink(19, 10) + c.ink(19, 11) == 0);
    // The head: tip (120.5, 60.5), base 7 px back, 3.15 px to each side. Pixel (117, 60) lies
    // wholly inside it (at x = 118 the head still spans 60.5 +- 1.125); the cap ends the line at
    // x = 121, so column 121 (centre 121.5) is clear.
    CHECK(c.img.pixel(117, 60) == 0xFF000000u);
    CHECK(c.img.pixel(114, 58) == 0xFF000000u);
    CHECK(c.ink(121, 60) == 0);
    CHECK(c.ink(118, 57) == 0);  // above the head's upper edge
  }
  SECTION("a point beyond +-1e6 px or not finite: false, and nothing drawn") {
    Canvas c(60, 40);
    const QImage blank = c.img;
    CHECK_FALSE(widgets::drawFlowArrowDirect(c.target(), QPointF(10, 10), QPointF(2e6, 30), red, scratch));
    CHECK_FALSE(widgets::drawFlowArrowDirect(c.target(), QPointF(std::nan(""), 10), QPointF(30, 30), red, scratch));
    CHECK_FALSE(widgets::drawFlowArrowDirect(c.target(), QPointF(10, 10), QPointF(30, INFINITY), red, scratch));
    widgets::fillTriangleAA(c.target(), QPointF(3e9, 5), QPointF(3e9 + 5, 10), QPointF(3e9, 15), red);
    CHECK(c.img == blank);
  }
}

TEST_CASE("the arrows pass writes Qt's arrows into the image: the same curves and heads, other antialiasing",
          "[direct_arrows]") {
  // Rank 0 of the 910B capture with every flow category on, zoomed out and in. Qt's drawing (the
  // direct writers off) is the oracle for where the arrows lie and how much ink they lay.
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.ok());
  const auto profile = r.profile;
  widgets::TimelineWidget w;
  w.resize(1200, 700);
  w.setProfile(profile);
  w.setAllProcessesExpanded(true);
  const QSize size(1200, 700);
  const QSet<QString> all{QStringLiteral("HostToDevice"), QStringLiteral("async_npu"), QStringLiteral("async_task_queue"),
                          QStringLiteral("fwdbwd")};
  const core::TimeRange full = profile->range();
  int viewsWithRowCrossings = 0;
  const auto render = [&](bool arrows, bool direct, qreal dpr) {
    w.setVisibleFlowCategories(arrows ? all : QSet<QString>{});
    widgets::BoxesPass::setBatchedFills(true, direct);
    QImage img = w.renderToImage(size, dpr).convertToFormat(QImage::Format_RGB32);
    widgets::BoxesPass::setBatchedFills(true, true);
    return img;
  };
  for (const core::TimeRange view : {full, core::TimeRange{full.start + full.duration() / 2, full.start + full.duration() / 2 + full.duration() / 40}}) {
    w.setVisibleRange(view);
    INFO("view " << view.start << " + " << view.duration() << " ns");
    const QImage plain = render(false, true, 1.0);
    const QImage qt = render(true, false, 1.0);
    const QImage direct = render(true, true, 1.0);
    const auto writes = [&](bool arrows) {
      const std::uint64_t before = widgets::directWrites();
      (void)render(arrows, true, 1.0);
      return widgets::directWrites() - before;
    };
    CHECK(writes(true) > writes(false));  // the arrows went direct too
    // How far each pixel moved from the picture without arrows (0-255, the largest channel).
    const auto ink = [&](const QImage& img, int x, int y) {
      const QRgb p = plain.pixel(x, y), q = img.pixel(x, y);
      return std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
    };
    // Every strongly inked pixel of one drawing has ink of the other within a pixel of it.
    const auto unmatched = [&](const QImage& a, const QImage& b, int& strong) {
      int missing = 0;
      strong = 0;
      for (int y = 1; y + 1 < size.height(); ++y)
        for (int x = 1; x + 1 < size.width(); ++x) {
          if (ink(a, x, y) < 128) continue;
          ++strong;
          bool near = false;
          for (int dy = -1; dy <= 1 && !near; ++dy)
            for (int dx = -1; dx <= 1 && !near; ++dx) near = ink(b, x + dx, y + dy) >= 32;
          missing += !near;
        }
      return missing;
    };
    int strongQt = 0, strongDirect = 0;
    const int missingInDirect = unmatched(qt, direct, strongQt);
    const int missingInQt = unmatched(direct, qt, strongDirect);
    CHECK(strongQt > 1000);  // arrows in view
    CHECK(missingInDirect == 0);
    CHECK(missingInQt == 0);
    double inkQt = 0, inkDirect = 0;
    for (int y = 0; y < size.height(); ++y)
      for (int x = 0; x < size.width(); ++x) {
        inkQt += ink(qt, x, y);
        inkDirect += ink(direct, x, y);
      }
    CHECK(inkDirect > 0.9 * inkQt);
    CHECK(inkDirect < 1.1 * inkQt);
    CHECK(direct != qt);  // the arrows were drawn by the direct writer, not by Qt
    // Where the lines lie to a fraction of a pixel: where a line crosses a column (a row) as a
    // short run of ink between clear pixels, the ink-weighted mean row (column) of that run in
    // Qt's drawing and of the same 5 pixels in the direct one; the mean difference over every
    // such crossing. (Both drawings moved by half a pixel against each other score about 0.5.)
    const auto centroidShift = [&](bool columns) {
      const int outer = columns ? size.width() : size.height(), inner = columns ? size.height() : size.width();
      const auto at = [&](const QImage& img, int o, int i) { return columns ? ink(img, o, i) : ink(img, i, o); };
      double sum = 0;
      int crossings = 0;
      for (int o = 0; o < outer; ++o)
        for (int i = 3; i + 3 < inner; ++i) {
          const int peak = at(qt, o, i);
          if (peak < 128 || at(qt, o, i - 1) > peak || at(qt, o, i + 1) >= peak) continue;
          if (at(qt, o, i - 3) >= 32 || at(qt, o, i + 3) >= 32) continue;  // not a thin crossing
          double wq = 0, wd = 0, mq = 0, md = 0;
          for (int k = i - 2; k <= i + 2; ++k) {
            wq += at(qt, o, k);
            wd += at(direct, o, k);
            mq += at(qt, o, k) * k;
            md += at(direct, o, k) * k;
          }
          if (wd == 0) continue;  // counted by the neighbourhood check above
          sum += std::abs(mq / wq - md / wd);
          ++crossings;
        }
      return std::pair{crossings > 0 ? sum / crossings : 0.0, crossings};
    };
    const auto [byColumn, columnCrossings] = centroidShift(true);
    const auto [byRow, rowCrossings] = centroidShift(false);
    INFO("mean shift " << byColumn << " px over " << columnCrossings << " column crossings, " << byRow << " px over "
                       << rowCrossings << " row crossings");
    CHECK(columnCrossings > 1000);
    CHECK(byColumn < 0.15);
    if (rowCrossings > 1000) {  // zoomed out, the steep parts of the arrows overlap
      ++viewsWithRowCrossings;
      CHECK(byRow < 0.15);
    }
    // At device pixel ratio 2 the painter scales: Qt draws the arrows either way.
    CHECK(render(true, true, 2.0) == render(true, false, 2.0));
  }
  CHECK(viewsWithRowCrossings > 0);
}


