// SPDX-License-Identifier: MIT
// Profile discovery and multi-rank loading (case 29), counters (case 23).
#include <catch2/catch.hpp>

#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::findSlice;
using npuscope::test::shared;

TEST_CASE("case 29: ranks with identical pids, tids and flow ids stay apart") {
  auto r = core::loadProfile(shared("cases/29-multi-rank-duplicate-pid"));
  REQUIRE(r.ok());
  const auto& p = *r.profile;
  REQUIRE(p.ranks.size() == 2);
  // No profiler_info_*.json: numbered in folder order, with a note.
  CHECK(p.ranks[0].rank() == 0);
  CHECK(p.ranks[1].rank() == 1);
  CHECK(std::find(p.messages.begin(), p.messages.end(), "no profiler_info_*.json: ranks numbered in folder order") !=
        p.messages.end());
  core::TimeNs allReduce[2];
  for (int k = 0; k < 2; ++k) {
    const auto& t = *p.ranks[k].trace;
    CHECK(t.lanes.size() == 2);
    CHECK(npuscope::test::laneIndex(t, "Python", "7") >= 0);
    CHECK(npuscope::test::laneIndex(t, "Ascend Hardware", "Stream 2") >= 0);
    CHECK(npuscope::test::flowPairs(t) == std::vector<std::string>{"aten::matmul->MatMulV2", "hcom_allReduce_->AllReduce"});
    allReduce[k] = t.sliceRange(findSlice(t, "AllReduce")).start;
  }
  CHECK(allReduce[0] == 1731400000000040000);
  CHECK(allReduce[1] - allReduce[0] == 3000);  // rank 1 starts 3 us later on the same clock
}

TEST_CASE("case 29: Kineto ranks come from distributedInfo") {
  auto r = core::loadProfile(shared("cases/29-multi-rank-duplicate-pid/kineto"));
  REQUIRE(r.ok());
  const auto& p = *r.profile;
  REQUIRE(p.ranks.size() == 2);
  for (int k = 0; k < 2; ++k) {
    const auto& t = *p.ranks[k].trace;
    CHECK(p.ranks[k].rank() == k);
    CHECK(t.lanes.size() == 2);
    CHECK(t.flows.size() == 1);
    REQUIRE(findSlice(t, "gemm").valid());
  }
  // gemm at 115 us (rank 0) and 116 us (rank 1) of their common clock.
  const auto g0 = p.ranks[0].trace->sliceRange(findSlice(*p.ranks[0].trace, "gemm")).start;
  const auto g1 = p.ranks[1].trace->sliceRange(findSlice(*p.ranks[1].trace, "gemm")).start;
  CHECK(g1 - g0 == 1000);
}

TEST_CASE("case 23: counters are process-scoped series with exact values and 3 warnings") {
  auto r = core::loadTrace(shared("cases/23-counter-multi-series/trace.json"));
  REQUIRE(r.ok());
  const auto& t = *r.trace;
  auto series = [&](const std::string& name, const std::string& key) -> const core::CounterSeries* {
    for (const auto& c : t.counters)
      if (t.name(c.name) == name && t.name(c.key) == key) return &c;
    return nullptr;
  };
  const auto* aic = series("queue", "AIC");
  REQUIRE(aic);
  CHECK(aic->ts == std::vector<core::TimeNs>{0, 10000, 20000, 30000, 40000});  // the tid-12 sample included
  CHECK(aic->value == std::vector<double>{1, 4, 3, 0, 9});
  const auto* aiv = series("queue", "AIV");
  REQUIRE(aiv);
  CHECK(aiv->value == std::vector<double>{2, 5, 1, 0});  // "5" parsed from a string
  const auto* mix = series("queue", "MIX");
  REQUIRE(mix);
  CHECK(mix->ts == std::vector<core::TimeNs>{0, 30000});
  CHECK(mix->value == std::vector<double>{0, 2});
  const auto* mhz = series("freq", "MHz");
  REQUIRE(mhz);
  CHECK(mhz->value == std::vector<double>{1800, 1650.5, -1});
  REQUIRE(series("hbm [npu0]", "read"));
  CHECK(series("hbm [npu0]", "read")->value == std::vector<double>{1.5});
  CHECK(series("hbm [npu0]", "write")->value == std::vector<double>{2});
  CHECK(series("flag", "on") == nullptr);
  CHECK(t.stats.count(core::ImportWarning::BadCounterValue) == 3);  // n/a, boolean, array args
  CHECK(t.range == core::TimeRange{0, 60000});  // the last values are held to the trace end
}

TEST_CASE("corpus: 1, 2 and 8 parse parts give identical analyses and statistics") {
  // Real torch_npu captures (910B level 1 and 910A level 0, 2 ranks each, 1-3 MB of trace_view.json per rank), split into 1, 2
  // and 8 parts (minPartBytes lowered so that these small files are split): the Top-Down report
  // (overlap per device and step, bubbles with causes and chains, verdict) and the statistics of
  // every layer must not depend on where the event array was cut.
  for (const char* folder : {"corpus/ascend-pt-910b-l1-text-2rank", "corpus/ascend-pt-910a-l0-text-2rank"}) {
    INFO(folder);
    std::vector<std::string> reports;
    std::vector<std::string> stats;
    for (unsigned parts : {1u, 2u, 8u}) {
      core::LoadOptions o;
      o.threads = parts;
      o.minPartBytes = 4096;
      const auto r = core::loadProfile(shared(folder), o);
      REQUIRE(r.ok());
      REQUIRE(r.profile->ranks.size() >= 2);
      reports.push_back(core::reportJson(*r.profile));
      std::string s;
      for (const auto& rank : r.profile->ranks) {
        REQUIRE(rank.trace);
        for (auto layer : {core::StatsLayer::Python, core::StatsLayer::Cann, core::StatsLayer::Kernels,
                           core::StatsLayer::Communication}) {
          s += core::statsCsv(core::computeStats(*rank.trace, layer, std::nullopt, rank.kernels.get()));
        }
      }
      stats.push_back(s);
    }
    // The reports hold real figures (not an empty analysis that would trivially match).
    CHECK(reports[0].find("\"bubbles\": [") != std::string::npos);
    CHECK(stats[0].size() > 1000);
    CHECK(reports[1] == reports[0]);
    CHECK(reports[2] == reports[0]);
    CHECK(stats[1] == stats[0]);
    CHECK(stats[2] == stats[0]);
  }
}

TEST_CASE("profile: folders without a trace say what they hold instead", "[profile]") {
  // cann83: 4 ranks with CSV tables and analysis.db only. (The .db-only ranks of
  // ascend-pt-910a-db-2rank load their database now: tests/core/import/test_db_reader.cpp.)
  // The CSV-only ranks load their tables (tests/core/profile/test_layouts.cpp checks the
  // figures) and say what is missing.
  auto csv = core::loadProfile(npuscope::test::shared("corpus/ascend-pt-cann83-l2-4rank-partial"));
  REQUIRE(csv.ok());
  REQUIRE(csv.profile->ranks.size() == 4);
  for (const auto& rp : csv.profile->ranks) {
    CHECK_FALSE(rp.trace);
    CHECK(rp.tablesOnly);
    CHECK(rp.error.find("no trace_view.json, only tables") != std::string::npos);
  }
}
