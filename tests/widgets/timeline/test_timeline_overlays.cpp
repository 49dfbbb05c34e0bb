// SPDX-License-Identifier: MIT
// Timeline Top-Down overlays: bubble bands over device lanes, gap clicks, chain arrows.
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/query/lod.h"
#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/direct_target.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/render_passes.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using widgets::BubbleBand;

namespace {
constexpr const char* kAdvisor =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";

std::shared_ptr<const core::Profile> loadAdvisor() {
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + kAdvisor);
  REQUIRE(r.ok());
  return r.profile;
}

// First Slices row of an Ascend Hardware lane.
int hardwareRow(const core::Profile& p, const widgets::LaneLayout& layout) {
  const auto& rows = layout.rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.kind != widgets::LayoutRow::Kind::Slices) continue;
    const auto& t = *p.ranks[static_cast<std::size_t>(r.rank)].trace;
    if (t.processes[r.process].role == core::Process::Role::AscendHardware) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace

TEST_CASE("Bubble bands cover the device lanes only, one run per bubble", "[overlays]") {
  const auto profile = loadAdvisor();
  widgets::LaneLayout layout;
  layout.setProfile(profile);
  const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
  const core::TimeRange view{bubble.range.start - 100'000, bubble.range.end + 100'000};
  const auto bands = widgets::buildBubbleBands(*profile, layout, view, 1000, 0, layout.totalHeight(), 0, 0, 0);
  REQUIRE_FALSE(bands.empty());
  // The selected (longest) bubble is there, spanning its time exactly.
  const BubbleBand* sel = nullptr;
  for (const auto& b : bands)
    if (b.selected) sel = &b;
  REQUIRE(sel);
  CHECK(sel->bubble == 0);
  CHECK(sel->rect.left() == Approx(core::timeToX(bubble.range.start, view, 1000)));
  CHECK(sel->rect.right() == Approx(core::timeToX(bubble.range.end, view, 1000)));
  // Every band lies on device rows (Ascend Hardware / Overlap Analysis / Communication).
  for (const auto& b : bands) {
    const int row = layout.rowAt(b.rect.center().y());
    REQUIRE(row >= 0);
    const auto& r = layout.rows()[static_cast<std::size_t>(row)];
    CHECK(widgets::isDeviceProcess(profile->ranks[0].trace->processes[r.process]));
  }
  // Host rows get nothing: no band at the first Python row.
  const int hw = hardwareRow(*profile, layout);
  REQUIRE(hw >= 0);
  CHECK(widgets::hitTestBubbleBands(bands, QPointF(sel->rect.center().x(), 1.0)) == nullptr);
  const auto& hr = layout.rows()[static_cast<std::size_t>(hw)];
  const BubbleBand* hit = widgets::hitTestBubbleBands(bands, QPointF(sel->rect.center().x(), hr.y + 3));
  REQUIRE(hit);
  CHECK(hit->bubble == 0);
}

TEST_CASE("Chain arrows join consecutive laid-out links", "[overlays]") {
  const auto profile = loadAdvisor();
  widgets::LaneLayout layout;
  layout.setProfile(profile);
  const auto& chain = profile->ranks[0].analysis->devices[0].bubbles[0].chain;
  REQUIRE(chain.links.size() == 5);
  const core::TimeRange view = profile->range();
  const auto arrows = widgets::buildChainArrows(*profile, layout, view, 1200, 0, chain);
  REQUIRE(arrows.size() == 4);
  // The last arrow ends at the device task's start, on its row.
  const QRectF task = widgets::sliceRect(*profile, layout, view, 1200, 0, chain.links.back().slice);
  CHECK(arrows.back().to.x() == Approx(task.left()));
  CHECK(arrows.back().toRect == task);
  CHECK(widgets::buildChainArrows(*profile, layout, view, 1200, 0, core::DispatchChain{}).empty());
}

TEST_CASE("TimelineWidget: a click in a gap of a device lane emits bubbleClicked", "[overlays]") {
  const auto profile = loadAdvisor();
  widgets::TimelineWidget tw;
  tw.resize(1200, 700);
  tw.show();
  REQUIRE(QTest::qWaitForWindowExposed(&tw));
  tw.setProfile(profile);
  tw.zoomToBubble(0, 0, 0, 0.25);
  const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
  const core::TimeRange v = tw.viewport()->visibleRange();
  CHECK(v.start == bubble.range.start - bubble.range.duration() / 4);
  CHECK(v.end == bubble.range.end + bubble.range.duration() / 4);

  const int hw = hardwareRow(*profile, tw.layout());
  REQUIRE(hw >= 0);
  const auto& r = tw.layout().rows()[static_cast<std::size_t>(hw)];
  tw.setVerticalScroll(r.y - 40);
  widgets::LaneCanvas* canvas = tw.canvas();
  const double x = core::timeToX(bubble.range.start + bubble.range.duration() / 2, v, canvas->width());
  const QPoint pos(static_cast<int>(x), r.y - tw.verticalScroll() + r.height / 2);
  REQUIRE(canvas->boxAt(pos) == nullptr);
  QSignalSpy spy(&tw, &widgets::TimelineWidget::bubbleClicked);
  QTest::mouseClick(canvas, Qt::LeftButton, {}, pos);
  REQUIRE(spy.count() == 1);
  CHECK(spy.at(0).at(0).value<widgets::BubbleRef>() == widgets::BubbleRef{0, 0, 0});

  // Selection and chain state, and the rendering smoke test with both overlays.
  tw.setSelectedBubble(0, 0, 0);
  tw.setChainHighlight(0, bubble.chain);
  CHECK(tw.chainRank() == 0);
  const QImage img = tw.renderToImage(QSize(1200, 700));
  CHECK_FALSE(img.isNull());
  tw.setProfile(profile);  // a new profile clears both
  CHECK(tw.selectedBubbleIndex() == -1);
  CHECK(tw.chainRank() == -1);
}

// The advisor capture in a 1100 x 600 timeline with every process expanded, and its longest
// bubble (the shading tests look at it zoomed out and around that bubble).
struct AdvisorTimeline {
  std::shared_ptr<const core::Profile> profile = loadAdvisor();
  widgets::TimelineWidget w;
  AdvisorTimeline() {
    w.resize(1100, 600);
    w.setProfile(profile);
    w.setAllProcessesExpanded(true);
  }
  [[nodiscard]] core::TimeRange aroundBubble() const {
    const auto& bubble = profile->ranks[0].analysis->devices[0].bubbles[0];
    return {bubble.range.start - 50'000, bubble.range.end + 50'000};
  }
};

TEST_CASE("the bubble shading written into the image matches Qt's texture fill", "[overlays]") {
  // The advisor capture's bubbles, zoomed out (hundreds of bands merged per run) and in, at device
  // pixel ratios 1 (written directly) and 2 (Qt's fill either way); Qt's own fill is the oracle.
  AdvisorTimeline a;
  const auto& profile = a.profile;
  widgets::TimelineWidget& w = a.w;
  const core::TimeRange full = profile->range();
  const QSize size(1100, 600);
  const auto render = [&](bool direct, qreal dpr) {
    widgets::BoxesPass::setBatchedFills(true, direct);
    QImage img = w.renderToImage(size, dpr);
    widgets::BoxesPass::setBatchedFills(true, true);
    return img;
  };
  for (const core::TimeRange view :
       {full, a.aroundBubble(), core::TimeRange{full.start + full.duration() / 3, full.start + full.duration() / 2}}) {
    w.setVisibleRange(view);
    for (const qreal dpr : {1.0, 2.0}) {
      INFO("view " << view.start << " + " << view.duration() << " ns, device pixel ratio " << dpr);
      w.setBubblesVisible(false);
      const std::uint64_t before = widgets::directWrites();
      const QImage without = render(true, dpr);
      const std::uint64_t boxesOnly = widgets::directWrites() - before;
      w.setBubblesVisible(true);
      const QImage qt = render(false, dpr);
      CHECK(qt != without);  // there is shading in view to compare
      const std::uint64_t before2 = widgets::directWrites();
      CHECK(render(true, dpr) == qt);
      // At ratio 1 the shading was written directly (more direct writes than the boxes' own);
      // at 2 the painter scales, so Qt fills it either way (the boxes still go direct).
      if (dpr == 1.0) CHECK(widgets::directWrites() - before2 > boxesOnly);
      else CHECK(widgets::directWrites() - before2 == boxesOnly);
    }
  }
}

TEST_CASE("the bubble shading is each merged band filled with the tint and the hatch by Qt", "[overlays]") {
  // The oracle paints what the bubbles pass painted before its shading strip: per vertical run, a
  // clear 8-line texture, Qt's fillRect of the tint and of the hatch for each merged band, then
  // the run filled with that texture; over the timeline rendered without bubbles (nothing is
  // drawn after the bubbles here: no selection, arrows, markers or pinned rows at scroll 0).
  AdvisorTimeline a;
  const auto& profile = a.profile;
  widgets::TimelineWidget& w = a.w;
  const QSize size(1100, 600);
  const QRect canvas = w.partRect(widgets::TimelineWidget::Part::Canvas, size);
  for (const core::TimeRange view : {profile->range(), a.aroundBubble()}) {
    w.setVisibleRange(view);
    for (const qreal dpr : {1.0, 2.0}) {
      INFO("view " << view.start << " + " << view.duration() << " ns, device pixel ratio " << dpr);
      w.setBubblesVisible(true);
      const QImage drawn = w.renderToImage(size, dpr);
      w.setBubblesVisible(false);
      QImage expected = w.renderToImage(size, dpr);
      w.setBubblesVisible(true);
      CHECK(drawn != expected);
      const double widthPx = canvas.width();
      auto bands = widgets::buildBubbleBands(*profile, w.layout(), view, widthPx, 0, canvas.height(), -1, -1, -1);
      std::sort(bands.begin(), bands.end(), [](const BubbleBand& a, const BubbleBand& b) {
        return a.rect.top() != b.rect.top() ? a.rect.top() < b.rect.top() : a.rect.left() < b.rect.left();
      });
      QColor fill(0xea, 0x58, 0x0c), hatch = fill;  // kBubble
      fill.setAlpha(22);
      hatch.setAlpha(70);
      const int texWidth = static_cast<int>(std::ceil(widthPx)) + 8;
      QPainter p(&expected);
      p.translate(canvas.topLeft());
      p.setClipRect(QRect(QPoint(0, 0), canvas.size()));
      for (std::size_t i = 0; i < bands.size();) {
        const double top = bands[i].rect.top(), bottom = bands[i].rect.bottom();
        QImage tex(texWidth, 8, QImage::Format_ARGB32_Premultiplied);
        tex.fill(Qt::transparent);
        QPainter tp(&tex);
        std::size_t j = i;
        for (; j < bands.size() && bands[j].rect.top() == top && bands[j].rect.bottom() == bottom; ++j) {
          QRectF r = bands[j].rect;
          while (j + 1 < bands.size() && bands[j + 1].rect.top() == top && bands[j + 1].rect.bottom() == bottom &&
                 bands[j + 1].rect.left() <= r.right() + 0.5)
            r.setRight(std::max(r.right(), bands[++j].rect.right()));
          const QRectF t(std::max(r.left(), 0.0), 0, std::min(r.right(), widthPx) - std::max(r.left(), 0.0), 8);
          if (t.width() <= 0) continue;
          tp.fillRect(t, fill);
          tp.fillRect(t, QBrush(hatch, Qt::BDiagPattern));
        }
        tp.end();
        p.setBrushOrigin(0, 0);
        p.fillRect(QRectF(0, top, std::min<double>(texWidth, widthPx), bottom - top), QBrush(tex));
        i = j;
      }
      p.end();
      CHECK(drawn == expected);
    }
  }
}
