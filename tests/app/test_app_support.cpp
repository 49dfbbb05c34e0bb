// SPDX-License-Identifier: MIT
// Pure helpers of the app layer.
#include <catch2/catch.hpp>

#include <QDir>
#include <QTemporaryDir>

#include "app/app_support.h"

using namespace npuscope;

TEST_CASE("addRecentPath moves to front, dedups and caps", "[support]") {
  QStringList recent;
  recent = addRecentPath(recent, QStringLiteral("/a"));
  recent = addRecentPath(recent, QStringLiteral("/b"));
  recent = addRecentPath(recent, QStringLiteral("/a/"));
  CHECK(recent == QStringList{QStringLiteral("/a"), QStringLiteral("/b")});
  for (int i = 0; i < 20; ++i) recent = addRecentPath(recent, QStringLiteral("/p%1").arg(i));
  CHECK(recent.size() == kMaxRecentPaths);
  CHECK(recent.first() == QStringLiteral("/p19"));
  CHECK(addRecentPath({}, QStringLiteral("/x"), 1).size() == 1);
}

TEST_CASE("isInsideAny compares canonical folders", "[support]") {
  QTemporaryDir tmp;
  const QString folder = tmp.filePath(QStringLiteral("r_ascend_pt"));
  REQUIRE(QDir().mkpath(folder + QStringLiteral("/sub")));
  const QStringList protectedList = protectedFolders(folder, nullptr);
  REQUIRE(protectedList.size() == 1);
  CHECK(isInsideAny(folder + QStringLiteral("/x.png"), protectedList));
  CHECK(isInsideAny(folder + QStringLiteral("/sub/../x.png"), protectedList));
  CHECK(isInsideAny(folder + QStringLiteral("/sub/x.png"), protectedList));
  CHECK_FALSE(isInsideAny(tmp.filePath(QStringLiteral("x.png")), protectedList));
  CHECK_FALSE(isInsideAny(tmp.filePath(QStringLiteral("r_ascend_pt2/x.png")), protectedList));
}

TEST_CASE("captureRootOf: the parent of sibling rank folders, a PROF_ folder, else none", "[support]") {
  QTemporaryDir tmp;
  const QString base = QDir(tmp.path()).canonicalPath();
  // capture/{rank0_ascend_pt,rank1_ascend_pt}: rank 0 (or its ASCEND_PROFILER_OUTPUT) -> capture.
  REQUIRE(QDir().mkpath(base + QStringLiteral("/capture/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT")));
  REQUIRE(QDir().mkpath(base + QStringLiteral("/capture/rank1_ascend_pt")));
  CHECK(captureRootOf(base + QStringLiteral("/capture/rank0_ascend_pt")) == base + QStringLiteral("/capture"));
  CHECK(captureRootOf(base + QStringLiteral("/capture/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT")) ==
        base + QStringLiteral("/capture"));
  // A lone rank folder: its parent is just where it lies (the user's folder), not a capture.
  REQUIRE(QDir().mkpath(base + QStringLiteral("/home/solo_ascend_pt")));
  CHECK(captureRootOf(base + QStringLiteral("/home/solo_ascend_pt")).isEmpty());
  // msprof: PROF_x/device_0 -> PROF_x.
  REQUIRE(QDir().mkpath(base + QStringLiteral("/PROF_000001_x/device_0/timeline")));
  CHECK(captureRootOf(base + QStringLiteral("/PROF_000001_x/device_0")) == base + QStringLiteral("/PROF_000001_x"));
  CHECK(captureRootOf(base + QStringLiteral("/PROF_000001_x/device_0/timeline")) ==
        base + QStringLiteral("/PROF_000001_x"));
  CHECK(captureRootOf(base + QStringLiteral("/no-such-folder")).isEmpty());
  // protectedFolders of the rank folder holds the capture: a file beside the rank is refused.
  const QStringList folders = protectedFolders(base + QStringLiteral("/capture/rank0_ascend_pt"), nullptr);
  CHECK(isInsideAny(base + QStringLiteral("/capture/x.png"), folders));
  CHECK_FALSE(isInsideAny(base + QStringLiteral("/x.png"), folders));
}

TEST_CASE("displayName shows the last path component", "[support]") {
  CHECK(displayName(QStringLiteral("/data/run/rank0_ascend_pt/")) == QStringLiteral("rank0_ascend_pt"));
  CHECK(displayName(QStringLiteral("/data/trace_view.json")) == QStringLiteral("trace_view.json"));
}

TEST_CASE("residentMemoryBytes is positive on Linux", "[support]") {
  CHECK(residentMemoryBytes() > 0);
}

TEST_CASE("the bundled sample is found from the source tree", "[support]") {
  const QString sample = findSampleProfile();
  if (!QDir(QStringLiteral(NPUSCOPE_SOURCE_DIR "/resources/sample")).exists()) {
    WARN("resources/sample is not in this checkout yet");
    CHECK(sample.isEmpty());
  } else {
    CHECK(sample == QDir::cleanPath(QStringLiteral(NPUSCOPE_SOURCE_DIR "/resources/sample")));
  }
}

TEST_CASE("profileTotals counts CSV-only ranks as tables only, not failed", "[support]") {
  // ascend-pt-cann83-l2-4rank-partial: 4 ranks, none with trace_view.json, each with
  // step_trace_time.csv (rank 0 also kernel_details.csv; ls of the corpus, SOURCES.md).
  const auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR) + "/corpus/ascend-pt-cann83-l2-4rank-partial");
  REQUIRE(r.ok());
  const ProfileTotals t = profileTotals(*r.profile);
  CHECK(t.ranks == 4);
  CHECK(t.tablesOnlyRanks == 4);
  CHECK(t.failedRanks == 0);
  CHECK(t.loadedRanks == 0);
}
