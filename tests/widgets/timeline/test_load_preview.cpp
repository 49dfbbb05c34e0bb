// SPDX-License-Identifier: MIT
// Skeleton trace/profile from a core::LoadPreview and the LoadPreviewView that shows it.
#include "widgets/timeline/load_preview.h"

#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include "widgets/timeline/lane_layout.h"
#include "widgets/timeline/timeline_viewport.h"
#include "widgets/timeline/timeline_widget.h"

using namespace npuscope;
using widgets::LayoutRow;

namespace {

// GCC 12 reports a false -Wrestrict in the inlined std::string assignments below (GCC bug 105329),
// depending on what else the headers inline.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

core::LoadPreview::Track track(const char* pid, const char* tid, const char* processName = "",
                               const char* threadName = "", std::optional<std::int64_t> processSort = {},
                               std::optional<std::int64_t> threadSort = {}) {
  core::LoadPreview::Track t;
  t.pid = pid;
  t.tid = tid;
  t.processName = processName;
  t.threadName = threadName;
  t.processSortIndex = processSort;
  t.threadSortIndex = threadSort;
  return t;
}

// Discovery order: pid 100 (no metadata), pid 200 "Ascend Hardware" (sort 5) with threads sorted
// 2 and 1, pid 100 again, "CANN" (sort 1) with a string tid, and a duplicate of the first track.
core::LoadPreview samplePreview() {
  core::LoadPreview p;
  p.tracks = {
      track("100", "1", "", "main"),
      track("200", "7", "Ascend Hardware", "Stream 7", 5, 2),
      track("200", "3", "Ascend Hardware", "Stream 3", 5, 1),
      track("100", "2"),
      track("CANN-pid", "worker", "CANN", "", 1),
      track("100", "1", "", "main"),
  };
  p.hasRange = true;
  p.minTs = 1'000'000;
  p.maxTs = 9'000'000;
  p.events = 1234;
  p.fraction = 0.4;
  return p;
}

// Titles of the layout rows, in order.
QStringList rowTitles(const widgets::TimelineWidget& w) {
  QStringList out;
  for (const LayoutRow& r : w.layout().rows()) out << w.layout().rowTitle(r);
  return out;
}

}  // namespace

TEST_CASE("buildSkeletonTrace groups tracks by process, sorted by index then discovery", "[load_preview]") {
  const auto t = widgets::buildSkeletonTrace(samplePreview());
  REQUIRE(t->processes.size() == 3);
  // Sort indices 1 (CANN) and 5 (Ascend Hardware) first, then pid 100 in discovery order.
  CHECK(t->processes[0].name == "CANN");
  CHECK(t->processes[0].pidText == "CANN-pid");
  CHECK(t->processes[0].sortIndex == 1);
  CHECK(t->processes[1].name == "Ascend Hardware");
  CHECK(t->processes[1].pid == 200);
  CHECK(t->processes[1].pidText.empty());
  CHECK(t->processes[2].name == "Process 100");
  CHECK(t->processes[2].pid == 100);
  CHECK_FALSE(t->processes[2].sortIndex);

  // Five distinct (pid, tid); the duplicate is dropped.
  REQUIRE(t->lanes.size() == 5);
  CHECK(t->lanes[0].process == 0);
  CHECK(t->lanes[0].tidText == "worker");
  CHECK(t->lanes[1].process == 1);
  CHECK(t->lanes[1].tid == 3);  // thread sort index 1 before 2
  CHECK(t->lanes[1].name == "Stream 3");
  CHECK(t->lanes[2].tid == 7);
  CHECK(t->lanes[3].process == 2);
  CHECK(t->lanes[3].tid == 1);
  CHECK(t->lanes[3].name == "main");
  CHECK(t->lanes[4].tid == 2);
  CHECK(t->lanes[4].name.empty());
  for (const core::Lane& l : t->lanes) {
    CHECK(l.sliceCount() == 0);
    CHECK(l.depthCount() == 0);
  }
  CHECK(t->range == core::TimeRange{1'000'000, 9'000'000});
  CHECK(t->eventCount == 1234);
  CHECK(t->sliceCount() == 0);
}

TEST_CASE("buildSkeletonTrace without a time range or tracks", "[load_preview]") {
  core::LoadPreview p;
  const auto empty = widgets::buildSkeletonTrace(p);
  CHECK(empty->processes.empty());
  CHECK(empty->lanes.empty());
  CHECK(empty->range.empty());
  // A single timestamp still gives a 1 ns range, so the ruler has something to show.
  p.hasRange = true;
  p.minTs = p.maxTs = 42;
  p.tracks = {track("-5", "0")};
  const auto one = widgets::buildSkeletonTrace(p);
  CHECK(one->range == core::TimeRange{42, 43});
  REQUIRE(one->processes.size() == 1);
  CHECK(one->processes[0].pid == -5);
  CHECK(one->processes[0].name == "Process -5");
}

TEST_CASE("buildSkeletonProfile keeps the discovered ranks and fills those with a preview", "[load_preview]") {
  std::vector<core::RankSource> ranks(2);
  ranks[0].rank = 0;
  ranks[0].label = "rank 0";
  ranks[1].rank = 1;
  ranks[1].label = "rank 1";
  std::vector<std::optional<core::LoadPreview>> previews(2);
  previews[0] = samplePreview();
  const auto profile = widgets::buildSkeletonProfile("/data/run", ranks, previews);
  REQUIRE(profile->ranks.size() == 2);
  CHECK(profile->path == "/data/run");
  REQUIRE(profile->ranks[0].trace);
  CHECK(profile->ranks[0].trace->lanes.size() == 5);
  CHECK_FALSE(profile->ranks[1].trace);
  CHECK(profile->ranks[1].rank() == 1);
  CHECK(profile->range() == core::TimeRange{1'000'000, 9'000'000});
}

TEST_CASE("LoadPreviewView shows the ruler range and lane headers of the preview", "[load_preview]") {
  widgets::LoadPreviewView view;
  view.resize(1000, 500);
  CHECK(view.isWaitingForLanes());
  CHECK_FALSE(view.skeleton());
  std::vector<core::RankSource> ranks(1);
  ranks[0].label = "trace.json";
  std::vector<std::optional<core::LoadPreview>> previews{samplePreview()};
  view.setSkeleton(widgets::buildSkeletonProfile("trace.json", ranks, previews));
  CHECK_FALSE(view.isWaitingForLanes());
  // The ruler spans what was read so far.
  CHECK(view.timeline()->viewport()->visibleRange() == core::TimeRange{1'000'000, 9'000'000});
  // Rank header, then each process header with its lanes (unnamed threads as "Thread <tid>").
  CHECK(rowTitles(*view.timeline()) ==
        QStringList{QStringLiteral("trace.json"), QStringLiteral("CANN"), QStringLiteral("worker"),
                    QStringLiteral("Ascend Hardware"), QStringLiteral("Stream 3"), QStringLiteral("Stream 7"),
                    QStringLiteral("Process 100"), QStringLiteral("main"), QStringLiteral("Thread 2")});

  // The range grows with the next preview and the view follows it.
  previews[0]->maxTs = 15'000'000;
  previews[0]->tracks.push_back(track("100", "3"));
  view.setSkeleton(widgets::buildSkeletonProfile("trace.json", ranks, previews));
  CHECK(view.timeline()->viewport()->visibleRange() == core::TimeRange{1'000'000, 15'000'000});
  CHECK(rowTitles(*view.timeline()).constLast() == QStringLiteral("Thread 3"));

  widgets::LoadBannerState banner;
  banner.title = QStringLiteral("Loading trace.json");
  banner.detail = QStringLiteral("43% — 1.2 GB of 2.8 GB, ~3 s left");
  banner.fraction = 0.43;
  view.setBanner(banner);
  CHECK(view.titleText() == banner.title);
  CHECK(view.detailText() == banner.detail);
  CHECK(view.barValue() == 430);

  view.reset();
  CHECK_FALSE(view.skeleton());
  CHECK(view.isWaitingForLanes());
  CHECK(view.barValue() == 0);
  CHECK(view.detailText().isEmpty());
}

TEST_CASE("LoadPreviewView's Cancel button asks to cancel", "[load_preview]") {
  widgets::LoadPreviewView view;
  QSignalSpy cancel(&view, &widgets::LoadPreviewView::cancelRequested);
  auto* button = view.findChild<QWidget*>(QStringLiteral("LoadCancel"));
  REQUIRE(button);
  QTest::mouseClick(button, Qt::LeftButton);
  CHECK(cancel.count() == 1);
}
