// SPDX-License-Identifier: MIT
#include "widgets/panels/slice_details_panel.h"

#include <QJsonValue>
#include <catch2/catch.hpp>

#include "core/base/time_format.h"
#include "tests/widgets/test_profiles.h"

using namespace npuscope;

TEST_CASE("details of a slice: duration, self time, args, flows", "[details]") {
  auto profile = testing::makeProfile({testing::makeTwoLaneTrace()});
  widgets::SliceDetailsPanel panel;
  panel.showSlice(profile, 0, {0, 0});  // outer [0, 1000) with children 300 + 400 ns
  CHECK(panel.valueOf(QStringLiteral("Name")) == QStringLiteral("outer"));
  CHECK(panel.valueOf(QStringLiteral("Category")) == QStringLiteral("cpu_op"));
  CHECK(panel.valueOf(QStringLiteral("Duration")) == QStringLiteral("1 us"));
  CHECK(panel.valueOf(QStringLiteral("Self time")) == QStringLiteral("300 ns"));
  CHECK(panel.valueOf(QStringLiteral("Depth")) == QStringLiteral("0"));
  CHECK(panel.valueOf(QStringLiteral("Start")) == QStringLiteral("0 ns"));
  CHECK(panel.valueOf(QStringLiteral("Start (absolute)")) ==
        QString::fromStdString(core::formatTimestampUs(testing::kBase)));
  CHECK(panel.valueOf(QStringLiteral("Rank")) == QStringLiteral("rank 0 · NPU 0"));
  CHECK(panel.valueOf(QStringLiteral("Flows")) == QStringLiteral("0 in, 1 out"));
  CHECK(panel.valueOf(QStringLiteral("Sequence number")) == QStringLiteral("42"));
  // "\r\n" inside an args string becomes a line break.
  CHECK(panel.valueOf(QStringLiteral("Input Dims")) == QStringLiteral("[[1, 2]]\n[[3]]"));
  CHECK(panel.toPlainText().contains(QStringLiteral("Self time: 300 ns")));

  panel.showSlice(profile, 0, {1, 1});  // kernelB, unfinished
  CHECK(panel.valueOf(QStringLiteral("Flags")) == QStringLiteral("unfinished"));
  CHECK(panel.valueOf(QStringLiteral("Duration")).startsWith(QStringLiteral("8 us")));
  CHECK(panel.valueOf(QStringLiteral("Start")) == QStringLiteral("2 us"));
  CHECK(panel.valueOf(QStringLiteral("Args")).isNull());

  panel.showSlice(profile, 0, {1, 0});  // kernelA: the flow's target
  CHECK(panel.valueOf(QStringLiteral("Flows")) == QStringLiteral("1 in, 0 out"));
  CHECK(panel.valueOf(QStringLiteral("Flags")) == QStringLiteral("partial overlap"));

  panel.clearSlice();
  CHECK(panel.valueOf(QStringLiteral("Duration")).isNull());
  panel.showSlice(profile, 5, {0, 0});  // invalid rank: cleared, no crash
  CHECK(panel.valueOf(QStringLiteral("Name")).isNull());
}

TEST_CASE("arg values as text", "[details]") {
  CHECK(widgets::argValueText(QJsonValue(QStringLiteral("a\r\nb\rc"))) == QStringLiteral("a\nb\nc"));
  CHECK(widgets::argValueText(QJsonValue(12345678.0)) == QStringLiteral("12345678"));
  CHECK(widgets::argValueText(QJsonValue(0.5)) == QStringLiteral("0.5"));
  CHECK(widgets::argValueText(QJsonValue(true)) == QStringLiteral("true"));
}

TEST_CASE("details of a slice whose args hold invalid UTF-8 (case 19 a)", "[details]") {
  auto r = core::loadProfile(std::string(NPUSCOPE_SHARED_DIR "/") + "cases/19-invalid-utf8-control-chars/a_invalid_utf8.json");
  REQUIRE(r.ok());
  const auto& t = *r.profile->ranks.at(0).trace;
  core::SliceRef launch;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l)
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.sliceName({l, i}) == "hipLaunchKernel") launch = {l, i};
  REQUIRE(launch.valid());
  widgets::SliceDetailsPanel panel;
  panel.showSlice(r.profile, 0, launch);
  // case.md: kname = "k\uFFFD\uFFFD_\uFFFD(x" (file bytes FF FE and C3 28), shown as an arg.
  CHECK(panel.valueOf(QStringLiteral("kname")) == QStringLiteral("k\uFFFD\uFFFD_\uFFFD(x"));
  CHECK(panel.valueOf(QStringLiteral("(raw)")).isNull());
}
