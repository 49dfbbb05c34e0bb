// SPDX-License-Identifier: MIT
#include "widgets/timeline/render_passes.h"

#include <QPainter>
#include <QSet>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/query/lod.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/color_palette.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;

namespace {

// A pass that fills the canvas' top-left 10x10 px with one colour and records what it saw.
class ProbePass final : public widgets::TimelineRenderPass {
 public:
  explicit ProbePass(QColor c, Space space) : m_color(c), m_space(space) {}
  [[nodiscard]] const char* name() const override { return "probe"; }
  [[nodiscard]] Space space() const override { return m_space; }
  void paint(QPainter& p, const widgets::TimelineFrame& frame) override {
    ++calls;
    width = frame.widthPx;
    scroll = frame.scrollY;
    // In Content space y is content px: paint at the scroll position to land on canvas y 0.
    const double y = m_space == Space::Content ? frame.scrollY : 0;
    p.fillRect(QRectF(0, y, 10, 10), m_color);
  }
  int calls = 0;
  double width = 0;
  int scroll = -1;

 private:
  QColor m_color;
  Space m_space;
};

std::vector<std::string> names(const widgets::LaneCanvas& c) {
  std::vector<std::string> out;
  for (const auto& p : c.renderPasses()) out.emplace_back(p->name());
  return out;
}

}  // namespace

TEST_CASE("the lane canvas paints its overlays as an ordered list of passes", "[render_passes]") {
  widgets::TimelineWidget w;
  w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
  widgets::LaneCanvas* canvas = w.canvas();
  // The order of the paint code before the passes existed (lane_canvas.cpp, paintTo), plus the
  // slice set (the Advice evidence) that TimelineWidget inserts before "hover", and under it the
  // user's markers (markers.h) and the Advice finding's moment (the memory peak).
  const std::vector<std::string> expected = {"boxes",  "name-marks", "labels",    "counters", "bubbles",
                                             "chain",  "markers",    "moment",    "slice-set", "hover",
                                             "selection", "flows",   "time-selection"};
  CHECK(names(*canvas) == expected);
  CHECK(canvas->bubbles()->name() == std::string("bubbles"));
  CHECK(canvas->chain()->name() == std::string("chain"));

  SECTION("a pass added before another paints under it; one appended paints last") {
    auto* under = static_cast<ProbePass*>(canvas->addRenderPass(
        std::make_unique<ProbePass>(QColor(255, 0, 0), widgets::TimelineRenderPass::Space::Content), "boxes"));
    CHECK(names(*canvas).front() == "probe");
    w.setVerticalScroll(0);
    const int hw = w.headerWidth(), rh = w.rulerHeight();
    QImage img = w.renderToImage(QSize(800, 300));
    CHECK(under->calls == 1);
    CHECK(under->width == 800 - hw);
    // Row 0 is the rank header: no box covers canvas (0..10, 0..10), so the probe shows.
    CHECK(img.pixelColor(hw + 5, rh + 5) == QColor(255, 0, 0));

    auto* over = static_cast<ProbePass*>(canvas->addRenderPass(
        std::make_unique<ProbePass>(QColor(0, 0, 255), widgets::TimelineRenderPass::Space::Canvas)));
    CHECK(names(*canvas).back() == "probe");
    img = w.renderToImage(QSize(800, 300));
    CHECK(over->calls == 1);
    CHECK(img.pixelColor(hw + 5, rh + 5) == QColor(0, 0, 255));
  }
  SECTION("the overlay state lives in the passes") {
    w.setSelectedBubble(widgets::BubbleRef{0, 0, 2});
    CHECK(canvas->bubbles()->selected() == widgets::BubbleRef{0, 0, 2});
    w.setBubblesVisible(false);
    CHECK_FALSE(canvas->bubbles()->visible());
    core::DispatchChain chain;
    chain.links.push_back({});
    w.setChainHighlight(0, chain);
    CHECK(canvas->chain()->rank() == 0);
    CHECK(w.chainHighlight().links.size() == 1);
    std::vector<bool> mask(64, false);
    mask[1] = true;
    w.setSearchMatches(0, mask);
    CHECK(canvas->nameMarks()->dimNonMatching());
    // A new profile clears every overlay.
    w.setProfile(testing::makeProfile({testing::makeTwoLaneTrace()}));
    CHECK_FALSE(canvas->bubbles()->selected().valid());
    CHECK(canvas->chain()->rank() == -1);
    CHECK_FALSE(canvas->nameMarks()->dimNonMatching());
  }
}

TEST_CASE("the boxes filled by colour and written into the image match the boxes filled one by one",
          "[render_passes]") {
  // Three lanes of dense random slices on two depths: many boxes narrower than a pixel, merged
  // runs, boxes widened to one pixel that overlap the next box, wide boxes that lose a pixel.
  auto trace = std::make_shared<core::Trace>();
  const auto proc = testing::addProcess(*trace, 1, "p");
  std::uint64_t seed = 12345;
  const auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33; };
  for (int l = 0; l < 3; ++l) {
    std::vector<testing::SliceSpec> slices;
    for (std::uint32_t depth = 0; depth < 2; ++depth) {
      core::TimeNs t = testing::kBase;
      for (int i = 0; i < 3000; ++i) {
        t += static_cast<core::TimeNs>(next() % (next() % 10 == 0 ? 400'000 : 3'000));
        const auto len = static_cast<core::TimeNs>(next() % (next() % 20 == 0 ? 2'000'000 : 5'000));
        slices.push_back({depth, t, t + len, "k" + std::to_string(next() % 12), "c", 0, ""});
        t += len;
      }
    }
    testing::addLane(*trace, proc, l + 1, "t" + std::to_string(l), std::move(slices));
  }
  testing::finishRange(*trace);
  core::buildTraceLod(*trace);  // summary levels, with their group summaries
  widgets::TimelineWidget w;
  w.resize(900, 300);
  w.setProfile(testing::makeProfile({trace}));
  const core::TimeRange full = trace->range;
  const auto render = [&](core::TimeRange view, qreal dpr, bool batched, bool direct) {
    widgets::BoxesPass::setBatchedFills(batched, direct);
    w.setVisibleRange(view);
    QImage img = w.renderToImage(QSize(900, 300), dpr);
    widgets::BoxesPass::setBatchedFills(true, true);
    return img;
  };
  for (const bool expanded : {true, false}) {
    w.setAllProcessesExpanded(expanded);
    for (const core::TimeNs part : {1, 7, 50}) {
      const core::TimeRange view{full.start + full.duration() / 3, full.start + full.duration() / 3 + full.duration() / part};
      for (const qreal dpr : {1.0, 2.0}) {
        INFO("expanded " << expanded << ", 1/" << part << " of the trace, device pixel ratio " << dpr);
        const QImage oneByOne = render(view, dpr, false, false);
        CHECK(render(view, dpr, true, false) == oneByOne);
        CHECK(render(view, dpr, true, true) == oneByOne);
      }
    }
  }
}

TEST_CASE("a flow arrow is its curve and a filled head at its end, in its category's colour", "[render_passes]") {
  // One async_npu flow from lane 0 to lane 1 (makeTwoLaneTrace), drawn by the flows pass.
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  widgets::TimelineWidget w;
  w.resize(900, 300);
  w.setProfile(profile);
  w.setAllProcessesExpanded(true);
  const core::TimeRange view{testing::kBase, testing::kBase + 1'000};
  w.setVisibleRange(view);
  const QSize size(900, 300);
  const QImage plain = w.renderToImage(size, 1.0);
  const QSet<QString> npu{QStringLiteral("async_npu")};
  w.setVisibleFlowCategories(npu);
  const QImage drawn = w.renderToImage(size, 1.0);
  const QRect canvas = w.partRect(widgets::TimelineWidget::Part::Canvas, size);
  const auto arrows = widgets::buildFlowArrows(*profile, w.layout(), view, canvas.width(), -1, {}, npu);
  REQUIRE(arrows.size() == 1);
  const widgets::FlowArrow& a = arrows[0];
  REQUIRE(a.from.y() != a.to.y());  // between rows: the curve arrives horizontally
  const QRgb colour = widgets::ColorPalette::flowCategoryColor("async_npu");
  const auto at = [&](const QImage& img, QPointF p) {
    return img.pixel(canvas.left() + static_cast<int>(std::floor(p.x())), canvas.top() + static_cast<int>(std::floor(p.y())));
  };
  // The head: 7 px long, 0.45 of its distance from the tip wide on each side; the pixel 4-6 px
  // before the tip lies wholly inside it.
  const QPointF inHead = a.to - QPointF(5, 0);
  CHECK(qAlpha(at(plain, inHead)) == 255);
  CHECK(at(plain, inHead) != colour);
  CHECK(at(drawn, inHead) == colour);
  // The curve (a cubic from `from` to `to`, control points dx to the right of `from` and to the
  // left of `to`): at its middle the antialiased line changes the picture.
  const double dx = std::max(30.0, std::abs(a.to.x() - a.from.x()) * 0.4);
  const QPointF mid = (a.from + 3 * (a.from + QPointF(dx, 0)) + 3 * (a.to - QPointF(dx, 0)) + a.to) / 8;
  CHECK(at(drawn, mid) != at(plain, mid));
}
