// SPDX-License-Identifier: MIT
// The Advice dock's panel: a click hands over exactly the finding's evidence, which the timeline's
// slice-set pass outlines (and nothing else of the same name); edited thresholds re-run the advisor.
#include "widgets/panels/advice_panel.h"

#include <QImage>
#include <QTableView>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <catch2/catch.hpp>

#include "core/analysis/analysis.h"
#include "core/import/trace_builder.h"
#include "core/profile/profile.h"
#include "tests/widgets/test_profiles.h"
#include "widgets/timeline/lane_canvas.h"
#include "widgets/timeline/render_pass.h"
#include "widgets/timeline/timeline_overlays.h"
#include "widgets/timeline/timeline_viewport.h"
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

namespace {

/// Pixels of `img` in the Advice colour (pink-600, 0xdb2777), the moment line and its label.
int pinkPixels(const QImage& img) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if ((img.pixel(x, y) & 0xffffff) == 0xdb2777) ++n;
  return n;
}

}  // namespace

TEST_CASE("AdvicePanel: a double-click on the memory finding shows its peak on the allocator's curve", "[advice][memory]") {
  // A rank folder with memory_record.csv: PTA+GE 100 MB at 999 us, 300 MB at 1005 us (the peak, by
  // hand), 50 MB at 1200 us; one device task at 1000 us.
  const auto root = std::filesystem::temp_directory_path() /
                    ("npuscope-widget-memory-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const auto out = root / "x_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  std::filesystem::create_directories(out);
  std::ofstream(out / "trace_view.json") << R"([
    {"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
    {"ph":"M","name":"process_labels","pid":2,"args":{"labels":"NPU 0"}},
    {"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":"1000.000","dur":10,"args":{"Task Type":"AI_CORE"}},
    {"ph":"X","name":"Add","pid":2,"tid":1,"ts":"1190.000","dur":10,"args":{"Task Type":"AI_VECTOR_CORE"}}])";
  std::ofstream(out / "memory_record.csv")
      << "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
      << "PTA+GE,999.000\t,100,200,100,1,NPU:0\n"
      << "PTA+GE,1005.000\t,300,400,300,1,NPU:0\n"
      << "PTA+GE,1200.000\t,50,400,50,1,NPU:0\n";
  const auto loaded = core::loadProfile((root / "x_ascend_pt").string());
  REQUIRE(loaded.ok());
  const auto profile = loaded.profile;

  widgets::AdvicePanel panel;
  panel.setProfile(profile);
  const int row = rowOfRule(*panel.model(), "memory");
  REQUIRE(row >= 0);

  widgets::TimelineWidget tw;
  tw.resize(1000, 400);
  tw.setProfile(profile);
  const core::Trace& t = *profile->ranks[0].trace;
  std::uint32_t memProcess = core::kInvalidIndex;
  for (std::uint32_t p = 0; p < t.processes.size(); ++p)
    if (t.processes[p].name == "Memory allocator") memProcess = p;
  REQUIRE(memProcess != core::kInvalidIndex);
  CHECK_FALSE(tw.layout().isProcessExpanded(0, memProcess));  // counters start collapsed
  const int pinkBefore = pinkPixels(tw.renderToImage(QSize(1000, 400)));

  // The same wiring as MainWindow::createAdviceDock.
  int evidence = 0;
  QObject::connect(&panel, &widgets::AdvicePanel::evidenceActivated, &tw, [&](int, core::SliceRef) { ++evidence; });
  QObject::connect(&panel, &widgets::AdvicePanel::momentActivated, &tw,
                   [&tw](int rank, core::TimeNs at, const QString& label, const QString& process) {
                     tw.revealMoment(rank, at, label, process.toStdString());
                   });
  panel.activateRow(row);
  CHECK(evidence == 0);  // the moment, not the worst slice
  CHECK(tw.momentRank() == 0);
  CHECK(tw.momentTime() == 1005000);
  CHECK(tw.layout().isProcessExpanded(0, memProcess));
  const core::TimeRange v = tw.viewport()->visibleRange();
  CHECK(v.start <= 1005000);
  CHECK(v.end >= 1005000);
  CHECK(std::abs((v.start + v.end) / 2 - 1005000) <= 1);  // centred on the peak
  // The line and its label are drawn; clearing removes them.
  CHECK(pinkPixels(tw.renderToImage(QSize(1000, 400))) > pinkBefore + 100);
  tw.clearMoment();
  CHECK(tw.momentRank() == -1);
  CHECK(pinkPixels(tw.renderToImage(QSize(1000, 400))) == pinkBefore);
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
}
