// SPDX-License-Identifier: MIT
// Statistics layers against the profiler's own tables: the kernels table is what
// kernel_details.csv / op_statistic.csv list, the stream-tasks table is every other Ascend
// Hardware task, and the share columns add up to 100% of what they say they are a share of.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "core/tables/csv.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

std::shared_ptr<core::Profile> loadOrFail(const std::string& path) {
  auto r = core::loadProfile(path);
  REQUIRE(r.ok());
  return r.profile;
}

const core::RankProfile& rankOf(const core::Profile& p, int rank) {
  for (const auto& rp : p.ranks)
    if (rp.rank() == rank) return rp;
  FAIL("no rank " << rank);
  return p.ranks.front();
}

std::uint64_t countOf(const core::StatsTable& t) {
  std::uint64_t n = 0;
  for (const auto& r : t.rows) n += r.count;
  return n;
}

double shareSum(const core::StatsTable& t) {
  double s = 0;
  for (const auto& r : t.rows) s += r.share;
  return s;
}

/// An exact decimal us text ("1959.079") to ns, the way the test reads the profiler's CSV.
core::TimeNs usTextToNs(std::string_view s) {
  s = core::csvTrim(s);
  const auto dot = s.find('.');
  const std::string whole(s.substr(0, dot));
  std::string frac = dot == std::string_view::npos ? "" : std::string(s.substr(dot + 1));
  frac.resize(3, '0');
  return std::stoll(whole) * 1000 + std::stoll(frac);
}

}  // namespace

TEST_CASE("corpus: the kernels table grouped by OP Type equals op_statistic.csv", "[stats][corpus]") {
  // The two text captures whose ranks carry op_statistic.csv (ascend-pt-910b-l1-text-2rank; the
  // cann83 capture has no trace_view.json). op_statistic.csv is read here as CSV text, by header
  // name: OP Type, Core Type, Count, Total Time(us). Its totals differ from the summed durations
  // by up to 7 ns per type (Python: op_statistic sums unrounded durations, e.g. TransData 57
  // kernels 1423.208 us against 1423.202 us summed from kernel_details.csv), so 1 ns per kernel.
  const auto p = loadOrFail(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  for (int rank : {0, 1}) {
    INFO("rank " << rank);
    const auto& rp = rankOf(*p, rank);
    REQUIRE(rp.kernels);
    const auto s = core::computeStats(*rp.trace, core::StatsLayer::Kernels, std::nullopt, rp.kernels.get());
    CHECK(s.kernelRule.rfind("kernel_details.csv (", 0) == 0);
    std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, core::TimeNs>> byType;
    for (const auto& r : s.rows) {
      auto& v = byType[{r.type, r.core}];
      v.first += r.count;
      v.second += r.total;
    }
    const core::CsvTable op = core::readCsv(rp.source.root + "/ASCEND_PROFILER_OUTPUT/op_statistic.csv");
    REQUIRE(op.error.empty());
    const int cType = op.column("OP Type"), cCore = op.column("Core Type"), cCount = op.column("Count"),
              cTotal = op.column("Total Time(us)");
    REQUIRE((cType >= 0 && cCore >= 0 && cCount >= 0 && cTotal >= 0));
    REQUIRE(op.rows.size() == 33);  // wc -l minus the header, both ranks
    std::uint64_t opCount = 0;
    for (std::size_t i = 0; i < op.rows.size(); ++i) {
      const std::string type(op.cell(i, cType)), core(op.cell(i, cCore));
      INFO(type << " / " << core);
      const auto count = static_cast<std::uint64_t>(std::stoull(std::string(op.cell(i, cCount))));
      const core::TimeNs total = usTextToNs(op.cell(i, cTotal));
      opCount += count;
      const auto it = byType.find({type, core});
      REQUIRE(it != byType.end());
      CHECK(it->second.first == count);
      CHECK(std::llabs(it->second.second - total) <= static_cast<core::TimeNs>(count));
      byType.erase(it);
    }
    CHECK(byType.empty());  // no kernel type beyond op_statistic.csv's
    // Python: 187 kernels, the 187 non-HCCL rows of kernel_details.csv (191 rows, 4 of them the
    // hcom_allReduce_ communication ops, Accelerator Core HCCL, which are no Ascend Hardware task);
    // each of the 187 has a task with its exact start ns and name.
    CHECK(opCount == 187);
    CHECK(countOf(s) == 187);
    CHECK(s.slices == 187);
  }
}

TEST_CASE("corpus: kernels are the kernel_details.csv rows and the rest are stream tasks", "[stats][corpus]") {
  // Counted with Python on the raw files (json + csv + Decimal):
  //   Ascend Hardware X events in trace_view.json: 910b-l1 rank 0: 535; 910a-l0 rank 0: 1749.
  //   kernel_details.csv rows: 191 and 349, of which 4 each are HCCL communication ops; the other
  //   187 and 345 all match a task by exact start ns and name.
  //   So stream tasks: 535 - 187 = 348 and 1749 - 345 = 1404.
  struct Case { const char* dir; std::uint64_t hardware, kernels, kdRows; };
  const Case cases[] = {{"corpus/ascend-pt-910b-l1-text-2rank", 535, 187, 191},
                        {"corpus/ascend-pt-910a-l0-text-2rank", 1749, 345, 349}};
  for (const Case& c : cases) {
    INFO(c.dir);
    const auto p = loadOrFail(shared(c.dir));
    const auto& rp = rankOf(*p, 0);
    REQUIRE(rp.kernels);
    REQUIRE(rp.kernels->rows.size() == c.kdRows);
    std::uint64_t computeRows = 0;
    for (const auto& k : rp.kernels->rows) computeRows += k.isCommunication() ? 0 : 1;
    CHECK(computeRows == c.kernels);
    const auto k = core::computeStats(*rp.trace, core::StatsLayer::Kernels, std::nullopt, rp.kernels.get());
    const auto t = core::computeStats(*rp.trace, core::StatsLayer::Tasks, std::nullopt, rp.kernels.get());
    CHECK(countOf(k) == c.kernels);
    CHECK(countOf(t) == c.hardware - c.kernels);
    CHECK(t.slices == c.hardware - c.kernels);
    // Every kernel row carries its kernel_details Type; no stream task name is a kernel.
    for (const auto& r : k.rows) {
      INFO(r.name);
      CHECK_FALSE(r.core.empty());
      CHECK(r.name.rfind("MEMCPY", 0) != 0);
      CHECK(r.name.rfind("EVENT_", 0) != 0);
    }
    for (const auto& r : t.rows) CHECK(r.core.empty());
    // Without kernel_details.csv the Task Type rule picks the same kernels (Python, same rule on
    // the raw JSON: equal (start, name) sets on all six text ranks of the corpus).
    const auto byType = core::computeStats(*rp.trace, core::StatsLayer::Kernels);
    CHECK(byType.kernelRule.rfind("Task Type", 0) == 0);
    REQUIRE(byType.rows.size() == k.rows.size());
    std::map<std::string, std::uint64_t> a, b;
    for (const auto& r : k.rows) a[r.name] = r.count;
    for (const auto& r : byType.rows) b[r.name] = r.count;
    CHECK(a == b);
    CHECK(countOf(core::computeStats(*rp.trace, core::StatsLayer::Tasks)) == c.hardware - c.kernels);
    // Occurrences follow the same split.
    const auto& top = t.rows.front();
    CHECK(core::statsOccurrences(*rp.trace, core::StatsLayer::Tasks, top.name, std::nullopt, rp.kernels.get()).size() ==
          top.count);
    CHECK(core::statsOccurrences(*rp.trace, core::StatsLayer::Kernels, top.name, std::nullopt, rp.kernels.get()).empty());
  }
}

TEST_CASE("corpus: the 910B stream tasks are the Notify, Write Value, SDMA, event and memcpy tasks", "[stats][corpus]") {
  // Python on trace_view.json (rank 0): of the 348 non-kernel Ascend Hardware tasks, 112 are named
  // "Write Value", 112 "Notify Wait", 72 "SDMA".
  const auto p = loadOrFail(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  const auto& rp = rankOf(*p, 0);
  const auto t = core::computeStats(*rp.trace, core::StatsLayer::Tasks, std::nullopt, rp.kernels.get());
  std::map<std::string, std::uint64_t> n;
  for (const auto& r : t.rows) n[r.name] = r.count;
  CHECK(n["Write Value"] == 112);
  CHECK(n["Notify Wait"] == 112);
  CHECK(n["SDMA"] == 72);
}

TEST_CASE("corpus: every layer's shares add up to 100 percent of what they are a share of", "[stats][corpus]") {
  const auto p = loadOrFail(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  const auto& rp = rankOf(*p, 0);
  for (auto layer : {core::StatsLayer::Python, core::StatsLayer::Cann, core::StatsLayer::Kernels, core::StatsLayer::Tasks,
                     core::StatsLayer::Communication}) {
    INFO(core::statsLayerKey(layer));
    const auto s = core::computeStats(*rp.trace, layer, std::nullopt, rp.kernels.get());
    REQUIRE(!s.rows.empty());
    CHECK(s.shareBasis == core::ShareBasis::LayerTotal);
    CHECK(s.shareDenominator == s.sumTotal);
    CHECK(shareSum(s) == Approx(1.0).epsilon(1e-9));
    CHECK(core::statsCsv(s).find(",Share of layer total(%)") != std::string::npos);
    // A step scope too (ProfilerStep#50's device window).
    REQUIRE(rp.analysis);
    REQUIRE(!rp.analysis->steps.empty());
    const auto step = core::computeStats(*rp.trace, layer, rp.analysis->steps.front().device, rp.kernels.get());
    if (!step.rows.empty()) CHECK(shareSum(step) == Approx(1.0).epsilon(1e-9));
  }
}

TEST_CASE("corpus: overlap shares are shares of E2E and equal the Top-Down percentages", "[stats][corpus]") {
  // Python (Decimal) on the Overlap Analysis X events of trace_view.json, summed per name:
  //   910b-l1 rank 0: Computing 8873.756, Communication(Not Overlapped) 101963.203, Free 25744.050,
  //   Communication 105991.878 us; E2E = C + NO + F = 136581.009 us, so Computing 6.4971 %,
  //   Not Overlapped 74.6540 %, Free 18.8489 %, Communication 77.6037 %.
  //   910a-l0 rank 0: Computing 9882.852, NO 31347.481, Free 3870.978 us; E2E 45101.311 us:
  //   21.9126 %, 69.5046 %, 8.5829 %.
  struct Case { const char* dir; double computing, notOverlapped, free; core::TimeNs e2e; };
  const Case cases[] = {{"corpus/ascend-pt-910b-l1-text-2rank", 6.4971, 74.6540, 18.8489, 136581009},
                        {"corpus/ascend-pt-910a-l0-text-2rank", 21.9126, 69.5046, 8.5829, 45101311}};
  for (const Case& c : cases) {
    INFO(c.dir);
    const auto p = loadOrFail(shared(c.dir));
    const auto& rp = rankOf(*p, 0);
    const auto s = core::computeStats(*rp.trace, core::StatsLayer::Overlap);
    CHECK(s.shareBasis == core::ShareBasis::E2E);
    CHECK(std::llabs(s.shareDenominator - c.e2e) <= 4);  // 1 ns rounding per event at most
    std::map<std::string, double> pct;
    for (const auto& r : s.rows) pct[r.name] = r.share * 100.0;
    CHECK(pct["Computing"] == Approx(c.computing).margin(0.0001));
    CHECK(pct["Communication(Not Overlapped)"] == Approx(c.notOverlapped).margin(0.0001));
    CHECK(pct["Free"] == Approx(c.free).margin(0.0001));
    CHECK(pct["Computing"] + pct["Communication(Not Overlapped)"] + pct["Free"] == Approx(100.0).margin(1e-9));
    // The Top-Down panel's Free share (computed from the device tasks) agrees within 0.01 %.
    REQUIRE(rp.analysis);
    CHECK(rp.analysis->devices.at(0).computed.freeRatio() * 100.0 == Approx(c.free).margin(0.01));
    CHECK(core::statsCsv(s).find(",Share of E2E(%)\n") != std::string::npos);
    CHECK(core::statsText(s).find("% of E2E") != std::string::npos);
  }
}

TEST_CASE("stats: kernels and stream tasks split one Ascend Hardware lane by Task Type", "[stats]") {
  // Hand count: AI_CORE MatMul (10 us), an untyped Cast (5 us), EVENT_WAIT_SQE (20 us, never
  // compute by name), an untyped MEMCPY_ASYNC (3 us), an untyped NOTIFY_WAIT (2 us).
  auto r = core::loadTraceFromMemory(R"([
    {"ph":"M","name":"process_name","pid":1,"args":{"name":"Ascend Hardware"}},
    {"ph":"X","name":"MatMul","pid":1,"tid":1,"ts":0,"dur":10,"args":{"Task Type":"AI_CORE"}},
    {"ph":"X","name":"Cast","pid":1,"tid":1,"ts":10,"dur":5,"args":{"Task Type":"Other"}},
    {"ph":"X","name":"EVENT_WAIT_SQE","pid":1,"tid":1,"ts":20,"dur":20,"args":{"Task Type":"EVENT_WAIT_SQE"}},
    {"ph":"X","name":"MEMCPY_ASYNC","pid":1,"tid":1,"ts":40,"dur":3,"args":{"Task Type":"Other"}},
    {"ph":"X","name":"NOTIFY_WAIT","pid":1,"tid":1,"ts":43,"dur":2,"args":{"Task Type":"Other"}}])",
                                     "hand-built");
  REQUIRE(r.ok());
  const auto k = core::computeStats(*r.trace, core::StatsLayer::Kernels);
  const auto t = core::computeStats(*r.trace, core::StatsLayer::Tasks);
  CHECK(k.slices == 2);
  CHECK(k.sumTotal == 15000);
  CHECK(k.unionTotal == 15000);
  CHECK(t.slices == 3);
  CHECK(t.sumTotal == 25000);
  CHECK(t.unionTotal == 25000);
  REQUIRE(k.rows.size() == 2);
  CHECK(k.rows[0].name == "MatMul");
  CHECK(k.rows[0].share == Approx(10.0 / 15.0));
  CHECK(t.rows[0].name == "EVENT_WAIT_SQE");
  CHECK(t.rows[0].share == Approx(20.0 / 25.0));
  CHECK(core::statsLayerFromKey("tasks") == core::StatsLayer::Tasks);
  CHECK(std::string(core::statsLayerKey(core::StatsLayer::Tasks)) == "tasks");
}

TEST_CASE("corpus: the kernels table's TFLOPS and bound columns equal a hand computation", "[stats][corpus]") {
  // rank0 of ascend-pt-910b-l1-text-2rank, kernel_details.csv read with Python's csv module:
  //  Conv2D1 (one row): weight FRACTAL_Z 121,4,16,8 (|w| = 61952), output NC1HWC0 32,8,55,55,8,
  //    Duration 313.886 us: 2*N*Hout*Wout*|w| = 2*32*55*55*61952 = 11,993,907,200 FLOP
  //    / 313.886 us = 38.211 TFLOPS. Ratios mac .519, scalar .755, mte1 .883, mte2 .913,
  //    fixpipe .085: the highest, MTE2 .913 >= 0.5, bounds it.
  //  Conv2D4 (two rows): 2*32*13*13*(432*16*16*8) = 9,569,304,576 and 2*32*13*13*(288*16*16*8) =
  //    6,379,536,384 FLOP over 103.462 + 69.261 us = 92.338 TFLOPS; both rows' highest ratio is
  //    mac (.85, .841): cube.
  //  Conv2DBackpropFilter6 (three rows): cube-bound rows 61.281 + 89.422 us, scalar-bound row
  //    79.062 us (scalar .704 > mac .663): cube for 150.703 / 229.765 of the time.
  //  aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask: every ratio 0, not a MatMul/Conv: neither.
  const auto p = loadOrFail(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  const auto& rp = rankOf(*p, 0);
  REQUIRE(rp.kernels);
  const auto t = core::computeStats(*rp.trace, core::StatsLayer::Kernels, std::nullopt, rp.kernels.get());
  std::map<std::string, const core::StatsRow*> by;
  for (const auto& r : t.rows) by[r.name] = &r;
  REQUIRE(by.count("Conv2D1"));
  CHECK(by["Conv2D1"]->tflopsRows == 1);
  CHECK(by["Conv2D1"]->tflops == Approx(11993907200.0 / 313.886e-6 / 1e12).epsilon(1e-9));
  CHECK(by["Conv2D1"]->bound == "memory-bound (MTE2)");
  CHECK(by["Conv2D1"]->boundShare == 1.0);
  REQUIRE(by.count("Conv2D4"));
  CHECK(by["Conv2D4"]->tflopsRows == 2);
  CHECK(by["Conv2D4"]->tflops == Approx((9569304576.0 + 6379536384.0) / 172.723e-6 / 1e12).epsilon(1e-9));
  CHECK(by["Conv2D4"]->bound == "compute-bound (cube)");
  REQUIRE(by.count("Conv2DBackpropFilter6"));
  CHECK(by["Conv2DBackpropFilter6"]->bound == "compute-bound (cube)");
  CHECK(by["Conv2DBackpropFilter6"]->boundShare == Approx(150703.0 / 229765.0));
  REQUIRE(by.count("aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask"));
  CHECK(by["aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask"]->tflopsRows == 0);
  CHECK(by["aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask"]->bound.empty());
  // Without kernel_details.csv nothing is computable.
  const auto bare = core::computeStats(*rp.trace, core::StatsLayer::Kernels);
  for (const auto& r : bare.rows) {
    CHECK(r.tflopsRows == 0);
    CHECK(r.bound.empty());
  }
}
