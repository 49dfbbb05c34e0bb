// SPDX-License-Identifier: MIT
// The Advice dock's panel: a click hands over exactly the finding's evidence, which the timeline's
// slice-set pass outlines (and nothing else of the same name); edited thresholds re-run the advisor.
#include "widgets/panels/advice_panel.h"

#include <QTableView>
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/analysis/analysis.h"
#include "core/import/trace_builder.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/render_pass.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;

namespace {

constexpr core::TimeNs us(long long v) { return v * 1000; }

// Three AI_CPU tasks of one name on NPU 0: 30 us at 100 us, 10 us at 200 us, 25 us at 300 us.
// By hand: the AI_CPU rule (>= 20 us) flags the first and the third, worst (longest) first; the
// 10 us task shares their name but is no evidence.
std::shared_ptr<core::Profile> aicpuProfile() {
  core::TraceBuilder b;
  const auto p = b.process(300);
  b.setProcessName(p, "Ascend Hardware");
  b.setProcessLabels(p, "NPU 0");
  const auto dev = b.thread(p, 5);
  const auto type = [] { return core::ImportArgs::owned({{"Task Type", "AI_CPU"}}); };
  b.addSlice(dev, us(100), us(30), "aclnnCast_CastAiCpu_Cast", {}, type());
  b.addSlice(dev, us(200), us(10), "aclnnCast_CastAiCpu_Cast", {}, type());
  b.addSlice(dev, us(300), us(25), "aclnnCast_CastAiCpu_Cast", {}, type());
  auto t = std::make_shared<core::Trace>();
  REQUIRE(b.finish(*t, {}));
  auto profile = testing::makeProfile({t});
  profile->ranks[0].analysis = std::make_shared<core::RankAnalysis>(core::analyzeRank(*t, nullptr, nullptr));
  return profile;
}

int rowOfRule(const widgets::AdviceModel& m, const std::string& rule) {
  for (std::size_t i = 0; i < m.rows().size(); ++i)
    if (m.rows()[i].finding.rule == rule) return static_cast<int>(i);
  return -1;
}

core::SliceRef taskAt(const core::Trace& t, core::TimeNs start) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.lanes[l].start[i] == start) return {l, i};
  return {};
}

}  // namespace

TEST_CASE("AdvicePanel: a click outlines exactly the finding's evidence, not every slice of its name", "[advice]") {
  const auto profile = aicpuProfile();
  const core::Trace& t = *profile->ranks[0].trace;
  const core::SliceRef a = taskAt(t, us(100)), b = taskAt(t, us(200)), c = taskAt(t, us(300));
  REQUIRE(a.valid());
  REQUIRE(b.valid());
  REQUIRE(c.valid());

  widgets::AdvicePanel panel;
  panel.setProfile(profile);
  const int row = rowOfRule(*panel.model(), "aicpu");
  REQUIRE(row >= 0);
  const core::Finding& f = panel.model()->rows()[static_cast<std::size_t>(row)].finding;
  REQUIRE(f.evidence == std::vector<core::SliceRef>{a, c});  // the hand count above

  widgets::TimelineWidget tw;
  tw.resize(1000, 400);
  tw.setProfile(profile);
  // The same wiring as MainWindow::createAdviceDock.
  QObject::connect(&panel, &widgets::AdvicePanel::evidenceSelected, &tw,
                   [&tw](int rank, const std::vector<core::SliceRef>& s) { tw.setHighlightedSlices(rank, s); });
  int emitted = 0, emittedRank = -1;
  QObject::connect(&panel, &widgets::AdvicePanel::evidenceSelected, &tw,
                   [&](int rank, const std::vector<core::SliceRef>&) { ++emitted, emittedRank = rank; });
  panel.selectRow(row);
  REQUIRE(emitted == 1);
  CHECK(emittedRank == 0);
  CHECK(tw.highlightedSlicesRank() == 0);
  CHECK(tw.highlightedSlices() == f.evidence);
  CHECK(tw.isInHighlightedSlices(0, a));
  CHECK(tw.isInHighlightedSlices(0, c));
  CHECK_FALSE(tw.isInHighlightedSlices(0, b));  // same name, 10 us: not evidence
  CHECK_FALSE(tw.isInHighlightedSlices(1, a));  // another rank

  // The pass sits before the hover outline and paints one rect per evidence slice, at its time.
  const auto& passes = tw.canvas()->renderPasses();
  std::vector<std::string> names;
  for (const auto& p : passes) names.emplace_back(p->name());
  const auto at = std::find(names.begin(), names.end(), "slice-set");
  REQUIRE(at != names.end());
  REQUIRE(at + 1 != names.end());
  CHECK(*(at + 1) == "hover");
  const core::TimeRange view{us(0), us(400)};
  const auto rects = widgets::buildSliceSetRects(*profile, tw.layout(), view, 400, 0, tw.layout().totalHeight(), 0,
                                                 tw.highlightedSlices());
  REQUIRE(rects.size() == 2);
  CHECK(rects[0].left() == Approx(100.0));  // 1 px per us
  CHECK(rects[0].width() == Approx(30.0));
  CHECK(rects[1].left() == Approx(300.0));
  // Out of the visible range: nothing.
  CHECK(widgets::buildSliceSetRects(*profile, tw.layout(), {us(140), us(290)}, 400, 0, tw.layout().totalHeight(), 0,
                                    tw.highlightedSlices())
            .empty());
  CHECK_FALSE(tw.renderToImage(QSize(1000, 400)).isNull());

  tw.setProfile(profile);  // a new profile clears it
  CHECK(tw.highlightedSlicesRank() == -1);
  CHECK(tw.highlightedSlices().empty());
}

TEST_CASE("AdvicePanel: edited thresholds re-run the advisor", "[advice]") {
  const auto profile = aicpuProfile();
  widgets::AdvicePanel panel;
  panel.setProfile(profile);
  core::AdvisorThresholds th;
  REQUIRE(core::setThreshold(th, "aicpu_min_us", 26).empty());
  panel.setThresholds(th);
  const int row = rowOfRule(*panel.model(), "aicpu");
  REQUIRE(row >= 0);
  // By hand: only the 30 us task is >= 26 us.
  const auto& ev = panel.model()->rows()[static_cast<std::size_t>(row)].finding.evidence;
  REQUIRE(ev.size() == 1);
  CHECK(profile->ranks[0].trace->lanes[ev[0].lane].start[ev[0].index] == us(100));
  CHECK(panel.thresholds().aicpuMinNs == us(26));
  // Above every task: the rule holds.
  REQUIRE(core::setThreshold(th, "aicpu_min_us", 31).empty());
  panel.setThresholds(th);
  CHECK(panel.model()->rows()[static_cast<std::size_t>(rowOfRule(*panel.model(), "aicpu"))].finding.severity ==
        core::Severity::Ok);
}
