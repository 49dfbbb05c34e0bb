// SPDX-License-Identifier: MIT
#include "widgets/export/timeline_export.h"

#include <QPainter>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/profile/profile.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using widgets::TimelineExportOptions;
using widgets::TimelineWidget;

namespace {

constexpr const char* kTwoRank = "corpus/ascend-pt-910b-l1-text-2rank";

std::shared_ptr<const core::Profile> loadTwoRank() {
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + kTwoRank);
  REQUIRE(r.ok());
  return r.profile;
}

// Bubble 1 (the longest) of the first analysed rank selected with its chain and zoomed to, as
// `screenshot --bubble 1` and a click in the Top-Down list do. Returns the rank.
int selectFirstBubble(TimelineWidget& t) {
  const auto& profile = *t.profile();
  for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
    const auto& a = profile.ranks[i].analysis;
    if (!a || a->devices.empty() || a->devices[0].bubbles.empty()) continue;
    const int rank = static_cast<int>(i);
    const core::Bubble& b = a->devices[0].bubbles[0];
    if (b.after.valid()) t.selectSlice(rank, b.after);
    t.setSelectedBubble(rank, 0, 0);
    t.setChainHighlight(rank, b.chain);
    t.zoomToBubble(rank, 0, 0, 0.25);
    return rank;
  }
  return -1;
}

struct Diff {
  double meanAbs = 0;     // mean over pixels and RGB channels, 0..255
  double shareOver = 0;   // share of pixels with a channel differing by more than 64
};

Diff compare(const QImage& a0, const QImage& b0, QRect region) {
  const QImage a = a0.convertToFormat(QImage::Format_RGB32);
  const QImage b = b0.convertToFormat(QImage::Format_RGB32);
  double sum = 0;
  long long over = 0, n = 0;
  for (int y = region.top(); y <= region.bottom(); ++y)
    for (int x = region.left(); x <= region.right(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      const int dr = std::abs(qRed(p) - qRed(q)), dg = std::abs(qGreen(p) - qGreen(q)),
                db = std::abs(qBlue(p) - qBlue(q));
      sum += dr + dg + db;
      if (std::max({dr, dg, db}) > 64) ++over;
      ++n;
    }
  return {n ? sum / (3.0 * static_cast<double>(n)) : 0, n ? static_cast<double>(over) / static_cast<double>(n) : 0};
}

// Pixels of the bubble colour's strong hatch (orange-600 at 150/255 over a light or dark
// background: red well above green and blue); the ruler and the corner have none.
int orangePixels(const QImage& image0, QRect region) {
  const QImage image = image0.convertToFormat(QImage::Format_RGB32);
  int n = 0;
  for (int y = region.top(); y <= region.bottom(); ++y)
    for (int x = region.left(); x <= region.right(); ++x) {
      const QRgb p = image.pixel(x, y);
      if (qRed(p) > qGreen(p) + 60 && qRed(p) > qBlue(p) + 100) ++n;
    }
  return n;
}

QImage renderSvg(const QByteArray& svg, QSize size) {
  QSvgRenderer renderer(svg);
  REQUIRE(renderer.isValid());
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  renderer.render(&p, QRectF(QPointF(0, 0), QSizeF(size)));
  return image;
}

bool isDrawing(QStringView name) {
  return name == u"path" || name == u"rect" || name == u"polyline" || name == u"polygon" || name == u"text" ||
         name == u"image" || name == u"line" || name == u"ellipse" || name == u"circle";
}

}  // namespace

TEST_CASE("hatchPath: the BDiag diagonals through a rect, clipped to it", "[export]") {
  // By hand for (0,0)-(16,8): the lines x + y = 8k meeting it are k = 1, (0,8)-(8,0), and
  // k = 2, (8,8)-(16,0); k = 0 and k = 3 touch a corner only.
  const QPainterPath path = widgets::hatchPath(QRectF(0, 0, 16, 8));
  REQUIRE(path.elementCount() == 4);
  CHECK(path.elementAt(0).x == 0);
  CHECK(path.elementAt(0).y == 8);
  CHECK(path.elementAt(1).x == 8);
  CHECK(path.elementAt(1).y == 0);
  CHECK(path.elementAt(2).x == 8);
  CHECK(path.elementAt(3).x == 16);
  // Never outside a rect that starts off the grid.
  const QRectF odd(3.5, 10.25, 40, 17);
  const QPainterPath clipped = widgets::hatchPath(odd);
  CHECK(clipped.elementCount() > 8);
  for (int i = 0; i < clipped.elementCount(); ++i) {
    CHECK(clipped.elementAt(i).x >= odd.left() - 1e-9);
    CHECK(clipped.elementAt(i).x <= odd.right() + 1e-9);
    CHECK(clipped.elementAt(i).y >= odd.top() - 1e-9);
    CHECK(clipped.elementAt(i).y <= odd.bottom() + 1e-9);
  }
  CHECK(widgets::hatchPath(QRectF()).isEmpty());
}

TEST_CASE("SVG export re-rendered by QSvgRenderer matches the PNG export", "[export]") {
  TimelineWidget t;
  t.resize(1100, 640);
  t.setProfile(loadTwoRank());
  REQUIRE(selectFirstBubble(t) >= 0);
  // A device lane of the bubble's rank partly scrolled out at the top, 9 px into its row: the
  // selected bubble's band (tint and hatch) runs across it, up to the ruler.
  const auto& rows = t.layout().rows();
  const int maxScroll = t.layout().totalHeight() - (640 - t.rulerHeight());
  int scroll = -1;
  for (const auto& r : rows) {
    if (r.kind != widgets::LayoutRow::Kind::Slices || r.rank != t.selectedBubbleRank() || r.y < 60 || r.y + 9 > maxScroll)
      continue;
    const auto& trace = *t.profile()->ranks[static_cast<std::size_t>(r.rank)].trace;
    if (!widgets::isDeviceProcess(trace.processes[r.process])) continue;
    scroll = r.y + 9;
    break;
  }
  REQUIRE(scroll > 0);
  t.setVerticalScroll(scroll);
  REQUIRE(t.verticalScroll() == scroll);

  TimelineExportOptions o;
  o.viewSize = QSize(1100, 640);
  const widgets::TimelineExport png = widgets::exportTimelineImage(t, o);
  const widgets::TimelineExport svg = widgets::exportTimelineSvg(t, o);
  REQUIRE(png.ok());
  REQUIRE(svg.ok());
  REQUIRE(png.image.size() == QSize(1100, 640));
  const QImage back = renderSvg(svg.svg, png.image.size());

  // Tolerance, measured on this view (antialiased vector hatch and text against the raster's
  // aliased hatch): mean |diff| below 6 of 255 and under 6% of the pixels off by more than 64.
  // A lane drawn over the ruler or a lost hatch exceeds them in its region (checked below).
  const Diff all = compare(png.image, back, QRect(QPoint(0, 0), png.image.size()));
  INFO("mean abs diff " << all.meanAbs << ", share over 64: " << all.shareOver);
  CHECK(all.meanAbs < 6.0);
  CHECK(all.shareOver < 0.06);
  // The ruler: nothing of the scrolled lane may show there.
  const QRect ruler = t.partRect(TimelineWidget::Part::Ruler, o.viewSize);
  const Diff top = compare(png.image, back, ruler);
  INFO("ruler: mean abs diff " << top.meanAbs << ", share over 64: " << top.shareOver);
  CHECK(top.meanAbs < 6.0);
  CHECK(top.shareOver < 0.06);

  // The selected bubble's hatch lines (orange, 150/255 over the tint) show right under the
  // ruler in both, and never in the ruler: a lane drawn over the ruler would put them there.
  const QRect lanesTop = t.partRect(TimelineWidget::Part::Canvas, o.viewSize).adjusted(0, 0, 0, -560);
  CHECK(orangePixels(png.image, lanesTop) > 100);
  CHECK(orangePixels(back, lanesTop) > 100);
  CHECK(orangePixels(png.image, ruler) == 0);
  CHECK(orangePixels(back, ruler) == 0);

  // The document: every drawing element but the background sits in a clipped part group; the
  // lanes' group starts below the ruler and is clipped to the canvas; the hatch is a group of
  // class bubble-hatch with lines; texts name their font.
  QXmlStreamReader xml(svg.svg);
  std::vector<bool> clippedStack;
  int unclipped = 0, hatchGroups = 0, hatchSegments = 0, fonts = 0, unnamedFonts = 0, partGroups = 0;
  bool inHatch = false;
  QString lanesTransform, lanesClip;
  std::vector<QString> groupClass;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement()) {
      const auto attrs = xml.attributes();
      if (const auto f = attrs.value(QStringLiteral("font-family")); !f.isEmpty()) {
        ++fonts;
        // Qt's resolved family, then a CSS generic family for a browser without it.
        if (!f.endsWith(u", sans-serif") && !f.endsWith(u", monospace")) ++unnamedFonts;
      }
      if (xml.name() == u"g") {
        const bool clipped = attrs.hasAttribute(QStringLiteral("clip-path"));
        if (clipped) ++partGroups;
        clippedStack.push_back(clipped || (!clippedStack.empty() && clippedStack.back()));
        groupClass.push_back(attrs.value(QStringLiteral("class")).toString());
        if (groupClass.back() == QStringLiteral("bubble-hatch")) ++hatchGroups;
        if (attrs.value(QStringLiteral("id")) == u"lanes") {
          lanesTransform = attrs.value(QStringLiteral("transform")).toString();
          lanesClip = attrs.value(QStringLiteral("clip-path")).toString();
        }
      } else if (xml.name() == u"clipPath") {
        xml.skipCurrentElement();
      } else if (isDrawing(xml.name())) {
        inHatch = !groupClass.empty() && groupClass.back() == QStringLiteral("bubble-hatch");
        if (inHatch && xml.name() == u"path")
          hatchSegments += static_cast<int>(attrs.value(QStringLiteral("d")).count(u'M'));
        const bool background = clippedStack.empty() && xml.name() == u"rect";
        if (!background && (clippedStack.empty() || !clippedStack.back())) ++unclipped;
      }
    } else if (xml.isEndElement() && xml.name() == u"g") {
      clippedStack.pop_back();
      groupClass.pop_back();
    }
  }
  REQUIRE_FALSE(xml.hasError());
  CHECK(unclipped == 0);
  CHECK(partGroups == 4);  // lanes, lane headers, ruler, corner (no caption)
  CHECK(lanesTransform == QStringLiteral("translate(%1,%2)").arg(t.headerWidth()).arg(t.rulerHeight()));
  CHECK(lanesClip == QStringLiteral("url(#clip-lanes)"));
  const QByteArray lanesClipRect = QByteArray("<clipPath id=\"clip-lanes\"><rect x=\"0\" y=\"0\" width=\"") +
                                   QByteArray::number(1100 - t.headerWidth()) + "\" height=\"" +
                                   QByteArray::number(640 - t.rulerHeight()) + "\"/>";
  CHECK(svg.svg.contains(lanesClipRect));
  CHECK(hatchGroups >= 1);
  CHECK(hatchSegments >= 4);
  CHECK(fonts > 0);
  CHECK(unnamedFonts == 0);
  // The timeline is back as it was.
  CHECK(t.verticalScroll() == scroll);
}

TEST_CASE("export options: ranges, lanes, caption, scale", "[export]") {
  TimelineWidget t;
  t.resize(900, 500);
  t.setProfile(loadTwoRank());
  TimelineExportOptions o;
  o.viewSize = QSize(900, 500);
  const core::TimeRange before = t.viewport()->visibleRange();

  SECTION("nothing selected: Selection range and lanes fail with a sentence") {
    o.range = TimelineExportOptions::Range::Selection;
    const auto e = widgets::exportTimelineImage(t, o);
    CHECK_FALSE(e.ok());
    CHECK(e.error.contains(QStringLiteral("Nothing is selected")));
    o.range = TimelineExportOptions::Range::Visible;
    o.lanes = TimelineExportOptions::Lanes::Selected;
    CHECK_FALSE(widgets::exportTimelineImage(t, o).ok());
  }
  SECTION("all lanes: every level unfolded; the widget's range, lanes and folds are set back") {
    t.setVisibleRange({before.start, before.start + before.duration() / 3});
    const core::TimeRange zoomed = t.viewport()->visibleRange();
    o.lanes = TimelineExportOptions::Lanes::All;
    o.range = TimelineExportOptions::Range::Whole;
    const int rowsBefore = static_cast<int>(t.layout().rows().size());
    const int heightBefore = t.layout().totalHeight();
    const auto e = widgets::exportTimelineImage(t, o);
    REQUIRE(e.ok());
    // Rank 0's Python thread 3096504 nests 38 levels (a stdlib Python stack walk over its X
    // events in rank0's trace_view.json); the window folds it to LaneLayout::kFoldedRows = 4,
    // so the export is at least 34 slice rows of 18 px taller than the folded layout (rank 1's
    // stack and the collapsed counter processes add more).
    CHECK(e.image.height() >= t.rulerHeight() + heightBefore + 34 * 18);
    CHECK(t.viewport()->visibleRange() == zoomed);
    CHECK(static_cast<int>(t.layout().rows().size()) == rowsBefore);
    CHECK(t.layout().totalHeight() == heightBefore);
    // Visible lanes keep the folds: the first screen as the window shows it.
    o.lanes = TimelineExportOptions::Lanes::Visible;
    const auto v = widgets::exportTimelineImage(t, o);
    REQUIRE(v.ok());
    CHECK(v.image.height() == 500);
  }
  SECTION("the caption's range before the capture start reads -X, never +-X") {
    // The view may show a margin before the capture's first event: 9 ms before it here.
    const core::TimeNs origin = t.profile()->range().start;
    const QString caption = widgets::exportCaption(*t.profile(), QStringLiteral("c"), -1,
                                                   {origin - 9'000'000, origin + 20'000'000});
    INFO(caption.toStdString());
    CHECK_FALSE(caption.contains(QStringLiteral("+-")));
    // 29 ms long: a 29 us tick (duration / 1000) needs 2 decimals of ms: "-9.00 ms", "+20.00 ms".
    CHECK(caption.contains(QStringLiteral("-9.00 ms – +20.00 ms (29 ms)")));
  }
  SECTION("lanes of the selection: the selected bubble's device lanes and its chain") {
    REQUIRE(selectFirstBubble(t) >= 0);
    o.lanes = TimelineExportOptions::Lanes::All;
    const auto all = widgets::exportTimelineImage(t, o);
    o.lanes = TimelineExportOptions::Lanes::Selected;
    const auto sel = widgets::exportTimelineImage(t, o);
    REQUIRE(all.ok());
    REQUIRE(sel.ok());
    CHECK(sel.image.height() > t.rulerHeight() + 50);
    CHECK(sel.image.height() < all.image.height());
    o.range = TimelineExportOptions::Range::Selection;  // the bubble, with context
    CHECK(widgets::exportTimelineImage(t, o).ok());
  }
  SECTION("a lane pattern") {
    o.lanes = TimelineExportOptions::Lanes::Pattern;
    o.lanePattern = QStringLiteral("ascend hardware");
    const auto hw = widgets::exportTimelineImage(t, o);
    REQUIRE(hw.ok());
    CHECK(hw.image.height() > t.rulerHeight());
    // A process name matches its counter series too: the capture's memory_record.csv makes
    // each rank a counter process "Memory allocator" (docs/architecture.md, stage 6).
    o.lanePattern = QStringLiteral("*allocator*");
    const auto memory = widgets::exportTimelineImage(t, o);
    INFO(memory.error.toStdString());
    REQUIRE(memory.ok());
    CHECK(memory.image.height() > t.rulerHeight() + 40);
    o.lanePattern = QStringLiteral("no-such-lane-*-xyz");
    const auto none = widgets::exportTimelineImage(t, o);
    CHECK_FALSE(none.ok());
    CHECK(none.error.contains(QStringLiteral("no-such-lane")));
    CHECK(t.layout().rows().size() > 10);  // the filter is gone again
  }
  SECTION("caption and 2x") {
    o.caption = QStringLiteral("ascend-pt-910b-l1-text-2rank");
    o.scale = 2.0;
    const auto e = widgets::exportTimelineImage(t, o);
    REQUIRE(e.ok());
    CHECK(e.image.width() == 1800);
    CHECK(e.image.height() > 1000);  // 2 x (500 + the caption line)
    CHECK(e.image.devicePixelRatio() == 2.0);
    const QString caption = widgets::exportCaption(*t.profile(), o.caption, -1, t.viewport()->visibleRange());
    CHECK(caption.startsWith(QStringLiteral("ascend-pt-910b-l1-text-2rank · rank 0")));
    const std::string& headline = t.profile()->ranks[0].analysis->verdict.headline;
    REQUIRE_FALSE(headline.empty());
    CHECK(caption.endsWith(QString::fromStdString(headline)));
    const auto svg = widgets::exportTimelineSvg(t, o);
    REQUIRE(svg.ok());
    CHECK(svg.svg.contains("width=\"1800\""));
    CHECK(svg.svg.contains("<g id=\"caption\""));
  }
}

TEST_CASE("the caption names the ranks whose lanes the image shows, not the selected one elsewhere", "[export]") {
  // Issue 42 item 4: with rank 0's bubble selected and the view scrolled to rank 1's lanes, the
  // caption said "rank 0 · NPU 0" over rank 1's lanes.
  TimelineWidget t;
  t.resize(900, 500);
  t.setProfile(loadTwoRank());
  REQUIRE(selectFirstBubble(t) == 0);
  int rank1Top = -1;
  for (const auto& r : t.layout().rows())
    if (r.kind == widgets::LayoutRow::Kind::Rank && r.rank == 1) rank1Top = r.y;
  REQUIRE(rank1Top > 0);
  t.setVerticalScroll(rank1Top);
  REQUIRE(t.verticalScroll() == rank1Top);
  TimelineExportOptions o;
  o.viewSize = QSize(900, 300);
  o.lanes = TimelineExportOptions::Lanes::Visible;
  o.caption = QStringLiteral("cap");
  const auto svg = widgets::exportTimelineSvg(t, o);
  REQUIRE(svg.ok());
  const QString doc = QString::fromUtf8(svg.svg);
  CHECK(doc.contains(QStringLiteral("cap · rank 1")));
  CHECK_FALSE(doc.contains(QStringLiteral("cap · rank 0")));
  // The rows that image shows are rank 1's alone; scrolled to the top, both ranks' rows fit a tall image.
  CHECK(widgets::ranksInRows(t, rank1Top, 300) == std::vector<int>{1});
  CHECK(widgets::ranksInRows(t, rank1Top - 40, 300) == std::vector<int>({0, 1}));
  const QString both = widgets::exportCaption(*t.profile(), QStringLiteral("cap"), 0, t.viewport()->visibleRange(), {0, 1});
  CHECK(both.startsWith(QStringLiteral("cap · rank 0")));
  CHECK(both.contains(QStringLiteral(", rank 1")));
}

TEST_CASE("a Kineto GPU trace's bubbles are shaded over its GPU stream lanes", "[export][kineto]") {
  // kineto-hta-alexnet-cuda: one GPU process (python3.10 'GPU 0') with the lanes Device 0,
  // stream 7 and stream 20, and a CPU thread. Before the fix no band was drawn on a GPU trace
  // (isDeviceProcess knew only Ascend roles), so `screenshot --bubble N` showed no bubble.
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/corpus/kineto-hta-alexnet-cuda"));
  REQUIRE(r.ok());
  TimelineWidget t;
  t.resize(1200, 600);
  t.setProfile(r.profile);
  const auto& layout = t.layout();
  const auto bands = widgets::buildBubbleBands(*r.profile, layout, t.viewport()->visibleRange(), 1000, 0,
                                               layout.totalHeight());
  REQUIRE_FALSE(bands.empty());
  // Every band lies on the GPU process's rows (role KinetoDevice), none on the CPU thread.
  const core::Trace& trace = *r.profile->ranks[0].trace;
  for (const widgets::BubbleBand& b : bands) {
    const auto [r0, r1] = layout.rowsIn(b.rect.top() + 1, b.rect.bottom() - 1);
    for (int i = r0; i < r1; ++i) {
      const auto& row = layout.rows()[static_cast<std::size_t>(i)];
      if (row.kind != widgets::LayoutRow::Kind::Slices) continue;
      CHECK(trace.processes[row.process].role == core::Process::Role::KinetoDevice);
    }
  }
}

TEST_CASE("focusLanes shows the bubble's device lane and its chain's host lanes together", "[export]") {
  TimelineWidget t;
  // Tall enough for the device lanes, the with_stack Python stack unfolded to the chain's Python
  // API and torch op (38 levels) and the CANN lanes; the 1100 x 590 px timeline of `screenshot
  // --window --width 1600 --height 1000` is not: there the device lane and the chain's own rows
  // are checked (below).
  t.resize(1100, 1300);
  t.show();
  t.setProfile(loadTwoRank());
  t.setDeviceFirst(true);  // as the main window shows it (timeline/deviceFirst, on by default)
  const int rank = selectFirstBubble(t);  // also shows its chain, which unfolds the stack
  REQUIRE(rank >= 0);
  const core::Bubble& b = t.profile()->ranks[static_cast<std::size_t>(rank)].analysis->devices[0].bubbles[0];
  std::vector<core::SliceRef> slices{b.after};
  for (const core::ChainLink& l : b.chain.links) slices.push_back(l.slice);
  REQUIRE(slices.size() >= 4);  // the device task, a torch op, the CANN API, the launch
  const core::Trace& trace = *t.profile()->ranks[static_cast<std::size_t>(rank)].trace;
  const auto check = [&](bool all) {
    t.focusLanes(rank, slices);
    const int top = t.verticalScroll();
    const int height = t.canvas()->height();
    REQUIRE(height > 100);
    for (const core::SliceRef& s : slices) {
      if (!s.valid()) continue;
      // Every link on a row of its own depth, none standing in the fold's "+N more levels" row.
      const int row = t.layout().rowOfSlice(rank, s.lane, trace.lanes[s.lane].depthOf(s.index));
      REQUIRE(row >= 0);
      const auto& r = t.layout().rows()[static_cast<std::size_t>(row)];
      INFO(t.layout().lanePath(rank, s.lane).toStdString());
      CHECK(r.kind == widgets::LayoutRow::Kind::Slices);  // its process is expanded
      if (!all && !(s == b.after)) continue;
      CHECK(r.y >= top);
      CHECK(r.y + r.height <= top + height);
      // The device task's lane is not hidden under the sticky rank and process labels (issue 42
      // item 6: in the 590 px view it sat under them, the Python stack below).
      if (s == b.after && !all) CHECK(r.y >= top + t.layout().metrics().rankHeader + t.layout().metrics().processHeader);
    }
  };
  check(true);
  t.resize(1100, 590);
  check(false);
}
