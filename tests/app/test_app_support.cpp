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
