// SPDX-License-Identifier: MIT
// Overlap Analysis: case 34 (expected values from its case.md) and the corpus captures, whose
// per-step figures must equal the profiler's own step_trace_time.csv within 1 us.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/profile/profile.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {
constexpr core::TimeNs us(double v) { return static_cast<core::TimeNs>(v * 1000.0 + (v >= 0 ? 0.5 : -0.5)); }

std::shared_ptr<core::Profile> loadProfileOrFail(const std::string& path) {
  auto r = core::loadProfile(path);
  INFO(path << ": " << r.error);
  REQUIRE(r.ok());
  return r.profile;
}
}  // namespace

TEST_CASE("interval arithmetic: union, subtract, attribution by start") {
  const core::Intervals u = core::unionOf({{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 40}});
  CHECK(u == core::Intervals{{0, 8}, {10, 30}});
  CHECK(core::subtract({{0, 100}}, {{10, 20}, {50, 120}}) == core::Intervals{{0, 10}, {20, 50}});
  CHECK(core::subtract({{0, 10}, {20, 30}}, {}) == core::Intervals{{0, 10}, {20, 30}});
  CHECK(core::totalOf(u) == 28);
  // A piece that starts in the window counts fully, even if it runs past the window's end.
  CHECK(core::totalStartingIn(u, {5, 15}) == 20);
  CHECK(core::coveredIn(u, {5, 15}) == 3 + 5);
}

namespace {
/// The union of `v` recomputed on a unit grid [0, n): a covered flag per ns, then the maximal
/// covered runs. Independent of the interval code under test.
core::Intervals gridUnion(const std::vector<core::TimeRange>& v, core::TimeNs n) {
  std::vector<bool> covered(static_cast<std::size_t>(n), false);
  for (const auto& r : v)
    for (core::TimeNs t = r.start; t < r.end; ++t) covered[static_cast<std::size_t>(t)] = true;
  core::Intervals out;
  for (core::TimeNs t = 0; t < n; ++t) {
    if (!covered[static_cast<std::size_t>(t)]) continue;
    if (!out.empty() && out.back().end == t) ++out.back().end;
    else out.push_back({t, t + 1});
  }
  return out;
}
}  // namespace

TEST_CASE("interval arithmetic: union of sorted runs, of unsorted input, and gaps, against a unit grid") {
  std::uint64_t seed = 7;
  auto next = [&](std::uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<core::TimeNs>((seed >> 33) % n);
  };
  constexpr core::TimeNs kGrid = 3000;
  // runs = 1 and a few: lanes appended one after another (each sorted by start); 200: no order.
  for (int runs : {1, 3, 17, 200}) {
    std::vector<core::TimeRange> all;
    for (int k = 0; k < runs; ++k) {
      std::vector<core::TimeRange> run;
      for (int i = 0; i < 400 / runs + 3; ++i) {
        const core::TimeNs s = next(kGrid - 60);
        run.push_back({s, s + next(5) * next(12)});  // some empty, some touching or overlapping
      }
      std::sort(run.begin(), run.end(), [](auto& a, auto& b) { return a.start < b.start; });
      all.insert(all.end(), run.begin(), run.end());
    }
    INFO("runs " << runs);
    const core::Intervals u = core::unionOf(all);
    CHECK(u == gridUnion(all, kGrid));
    core::UnionBuilder b;
    for (const auto& r : all) b.add(r);
    CHECK(b.take() == u);
    // gapsWithin(begin, end, a, b) == [begin, end) minus (a u b), both on the grid.
    std::vector<core::TimeRange> half1(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2));
    std::vector<core::TimeRange> half2(all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2), all.end());
    const core::Intervals a = core::unionOf(half1), c = core::unionOf(half2);
    CHECK(core::mergeUnion(a, c) == u);
    for (auto [lo, hi] : {std::pair<core::TimeNs, core::TimeNs>{0, kGrid}, {500, 1700}}) {
      std::vector<core::TimeRange> complement;
      core::TimeNs prev = lo;
      for (const auto& r : gridUnion(all, kGrid)) {
        if (r.end <= lo || r.start >= hi) continue;
        if (r.start > prev) complement.push_back({prev, r.start});
        prev = std::max(prev, r.end);
      }
      if (prev < hi) complement.push_back({prev, hi});
      CHECK(core::gapsWithin(lo, hi, a, c) == complement);
      CHECK(core::subtract({{lo, hi}}, u) == complement);
    }
  }
}

TEST_CASE("case 34: per-step figures reproduce step_trace_time.csv - negative Preparing kept") {
  const auto p = loadProfileOrFail(shared("cases/34-step-trace-time-and-missing-overlap/with_overlap/trace_view.json"));
  REQUIRE(p->ranks.size() == 1);
  const auto& a = *p->ranks[0].analysis;
  REQUIRE(a.devices.size() == 1);
  const auto& d = a.devices[0];
  CHECK(d.device == 0);
  // Whole capture, computed from the tasks: Computing 1200, Communication 200, Not Overlapped 100.
  CHECK(d.computed.computing == us(1200));
  CHECK(d.computed.communication == us(200));
  CHECK(d.computed.commNotOverlapped == us(100));
  REQUIRE(d.steps.size() == 2);
  const auto& s1 = d.steps[0];
  const auto& s2 = d.steps[1];
  CHECK(s1.step == 1);
  CHECK(s2.step == 2);
  // Summing the Overlap Analysis lanes inside the device step windows: 700/100/200/200 and 500/0/0/100.
  REQUIRE(s1.lanes);
  CHECK(s1.lanes->computing == us(700));
  CHECK(s1.lanes->commNotOverlapped == us(100));
  CHECK(s1.lanes->communication == us(200));
  CHECK(s1.lanes->overlapped == us(100));
  CHECK(s1.lanes->free == us(200));
  CHECK(s1.lanes->e2e == us(1000));  // Stage
  REQUIRE(s2.lanes);
  CHECK(s2.lanes->computing == us(500));
  CHECK(s2.lanes->communication == 0);
  CHECK(s2.lanes->free == us(100));
  CHECK(s2.lanes->e2e == us(600));
  REQUIRE(s1.preparing);
  CHECK(*s1.preparing == us(-3.0));
  REQUIRE(s2.preparing);
  CHECK(*s2.preparing == us(2.5));
  // The CSV rows are read as written, the negative Preparing too.
  REQUIRE(s1.csv);
  CHECK(s1.csv->preparing == Approx(-3.0));
  CHECK(s1.csv->stage == Approx(1000.0));
  REQUIRE(s2.csv);
  CHECK(s2.csv->preparing == Approx(2.5));
  // The computed figures per step agree with the CSV where the device tasks explain it.
  CHECK(s1.computed.computing == us(700));
  CHECK(s1.computed.commNotOverlapped == us(100));
  CHECK(s1.computed.free == us(200));
  // The span the computed figures measure (case.md inputs: busy [1000, 1800] u [2000, 2500]):
  // step 1's intervals run from MatMulV2 at 1000 to the end of the Free gap at 2000 (past its
  // device window's end at 1997.5); step 2 has MatMulV2 [2000, 2500] and the profiler's own Free
  // slice after it up to 2600 (case.md: step 2 Free 100, Stage 600 us).
  constexpr core::TimeNs t0 = 1'731'400'000'000'000'000;
  CHECK(s1.span == core::TimeRange{t0 + us(1000), t0 + us(2000)});
  CHECK(s1.span.duration() == s1.computed.e2e);
  CHECK(s2.span == core::TimeRange{t0 + us(2000), t0 + us(2600)});
  CHECK(s2.span.duration() == s2.computed.e2e);
  CHECK(s2.computed.free == us(100));
  CHECK(s2.computed.e2e == us(600));
}

TEST_CASE("case 34: no Overlap Analysis lanes and no CSV is not an error") {
  const auto p = loadProfileOrFail(shared("cases/34-step-trace-time-and-missing-overlap/no_overlap/trace_view.json"));
  const auto& t = *p->ranks[0].trace;
  CHECK(t.lanes.size() == 3);
  CHECK(p->ranks[0].stepTrace.empty());
  const auto& d = p->ranks[0].analysis->devices.at(0);
  CHECK_FALSE(d.lanes.has_value());
  CHECK(d.computed.computing == us(1200));
  CHECK(d.computed.communication == us(200));
  CHECK(d.computed.commNotOverlapped == us(100));
}

TEST_CASE("overlap: without steps, the one row spans the first task's start to the last task's end, not 1 ns past") {
  // case 01's case.md table: RmsNorm starts at ...456789, Cast (the last kernel) ends at ...466250.
  const auto p = loadProfileOrFail(shared("cases/01-string-ts-ns-decimals/trace_view.json"));
  const auto& d = p->ranks[0].analysis->devices.at(0);
  REQUIRE(d.steps.size() == 1);
  CHECK(d.steps[0].step == -1);
  CHECK(d.steps[0].window.start == 1731400000123456789LL);
  CHECK(d.steps[0].window.end == 1731400000123466250LL);
  CHECK(d.steps[0].computed.e2e == 1731400000123466250LL - 1731400000123456789LL);
  CHECK(d.steps[0].computed.computing == 5160 + 3040 + 1250);
}

TEST_CASE("case 34: a step_trace_time.csv without step and with device -1") {
  std::string err;
  const auto rows = core::readStepTraceTime(shared("cases/34-step-trace-time-and-missing-overlap/no_step_info/step_trace_time.csv"), err);
  CHECK(err.empty());
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].device == -1);
  CHECK_FALSE(rows[0].step.has_value());
  CHECK(rows[0].computing == Approx(1200.0));
  CHECK(rows[0].stage == Approx(1600.0));
}

TEST_CASE("corpus: computed per-step overlap equals the profiler's step_trace_time.csv within 1 us", "[corpus]") {
  const char* cases[] = {"corpus/ascend-pt-910a-l0-text-2rank", "corpus/ascend-pt-910b-l0-text-2rank",
                         "corpus/ascend-pt-910b-l1-text-2rank"};
  for (const char* c : cases) {
    const auto p = loadProfileOrFail(shared(c));
    REQUIRE(p->ranks.size() == 2);
    for (const auto& rp : p->ranks) {
      INFO(c << " rank " << rp.rank());
      REQUIRE(rp.analysis);
      REQUIRE(rp.stepTrace.size() == 1);
      const auto& d = rp.analysis->devices.at(0);
      CHECK(d.discrepancies.empty());
      REQUIRE(d.steps.size() == 1);
      const auto& s = d.steps[0];
      REQUIRE(s.csv);
      CHECK(s.step == 50);
      CHECK(std::llabs(s.computed.computing - us(s.csv->computing)) <= 1000);
      CHECK(std::llabs(s.computed.commNotOverlapped - us(s.csv->commNotOverlapped)) <= 1000);
      CHECK(std::llabs(s.computed.communication - us(s.csv->communication)) <= 1000);
      CHECK(std::llabs(s.computed.free - us(s.csv->free)) <= 1000);
      // The trace's own Overlap Analysis lanes give the same numbers (torch_npu's derivation).
      REQUIRE(s.lanes);
      CHECK(std::llabs(s.lanes->free - us(s.csv->free)) <= 1000);
      CHECK(std::llabs(s.lanes->e2e - us(s.csv->stage)) <= 1000);
      CHECK(d.computeSetRule.rfind("kernel_details.csv", 0) == 0);
    }
  }
}

TEST_CASE("corpus: the dispatch-bound advisor capture is called dispatch bound", "[corpus]") {
  const auto p = loadProfileOrFail(
      shared("corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json"));
  const auto& a = *p->ranks[0].analysis;
  const auto& d = a.devices.at(0);
  // No kernel_details.csv and Task Type "Other": the fallback rule must still find the compute
  // tasks. The capture records Computing 1788.234 us and Free 9481.635 us in its Overlap lanes
  // (summed with scripts by hand, see docs/corpus-counts.md).
  CHECK(std::llabs(d.computed.computing - us(1788.234)) <= 1000);
  CHECK(std::llabs(d.computed.free - us(9481.635)) <= 1000);
  CHECK(d.computed.freeRatio() > 0.8);
  CHECK(a.verdict.summary.rfind("Dispatch/host bound", 0) == 0);
  // The three longest bubbles (checked by hand against the raw JSON: the gaps at
  // ...422992282 (1093.4 us), ...424950683 (746.6 us) and ...428069112 (738.5 us) are covered 79%,
  // 96% and 85% by AscendCL@aclopCompileAndExecute) are the ACLOP path on the host: its compile
  // child AscendCL@opCompile lasts 27.99, 14.31 and 14.52 us of them (raw JSON, by hand), far under
  // the 25% mark of docs/diagnosis.md §3 rule 6, so rule 7 (ACLOP execution) holds, not compile.
  REQUIRE(d.bubbles.size() >= 3);
  const core::TimeNs starts[] = {1704161511422992282, 1704161511424950683, 1704161511428069112};
  for (int i = 0; i < 3; ++i) {
    INFO("bubble " << i);
    CHECK(std::llabs(d.bubbles[i].range.start - starts[i]) <= 1);
    CHECK(d.bubbles[i].cause == core::BubbleCause::AclopExecute);
    CHECK(d.bubbles[i].detail.find("aclopCompileAndExecute") != std::string::npos);
    CHECK(d.bubbles[i].detail.find("compile step") != std::string::npos);
    CHECK(d.bubbles[i].chain.path == "ACLOP");
  }
  bool compileAdvice = false;
  for (const auto& s : a.verdict.suggestions) compileAdvice |= s.find("jit_compile=False") != std::string::npos;
  CHECK(compileAdvice);
}

namespace {
/// The figures of an analysis that a cancel must not change when it is never requested.
void checkSameAnalysis(const core::RankAnalysis& a, const core::RankAnalysis& b) {
  CHECK(a.cancelled == b.cancelled);
  REQUIRE(a.steps.size() == b.steps.size());
  REQUIRE(a.devices.size() == b.devices.size());
  for (std::size_t d = 0; d < a.devices.size(); ++d) {
    const auto& x = a.devices[d];
    const auto& y = b.devices[d];
    CHECK(x.computing == y.computing);
    CHECK(x.communication == y.communication);
    CHECK(x.free == y.free);
    CHECK(x.computed.free == y.computed.free);
    CHECK(x.steps.size() == y.steps.size());
    REQUIRE(x.bubbles.size() == y.bubbles.size());
    for (std::size_t k = 0; k < x.bubbles.size(); ++k) {
      CHECK(x.bubbles[k].range == y.bubbles[k].range);
      CHECK(x.bubbles[k].detail == y.bubbles[k].detail);
    }
  }
  CHECK(a.verdict.summary == b.verdict.summary);
}

constexpr const char* kAdvisorTrace =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";
}  // namespace

TEST_CASE("analyzeRank: a stop requested before the analyses returns at once, flagged cancelled") {
  const auto p = loadProfileOrFail(shared(kAdvisorTrace));
  const auto& rank = p->ranks.at(0);
  // The capture has a device and bubbles to find (see the advisor test above).
  REQUIRE(rank.analysis);
  REQUIRE(!rank.analysis->devices.empty());
  REQUIRE(!rank.analysis->devices[0].bubbles.empty());
  CHECK_FALSE(rank.analysis->cancelled);
  std::stop_source stop;
  stop.request_stop();
  core::AnalysisOptions o;
  o.stop = stop.get_token();
  const core::RankAnalysis a = core::analyzeRank(*rank.trace, rank.kernels.get(), nullptr, o);
  CHECK(a.cancelled);
  CHECK(a.devices.empty());
  CHECK(a.verdict.summary.empty());
  // Each loop stops too: no steps, no tasks, no bubbles.
  CHECK(core::stepWindows(*rank.trace, stop.get_token()).empty());
  const auto tasks = core::detail::collectDeviceTasks(*rank.trace, rank.analysis->devices[0].device, nullptr,
                                                      stop.get_token());
  CHECK(tasks.compute.empty());
  CHECK(tasks.hardwareLanes.empty());
  CHECK(core::detail::findBubbles(*rank.trace, rank.analysis->devices[0], rank.analysis->steps, o).empty());
}

TEST_CASE("analyzeRank: a stop token that is never requested changes nothing") {
  const auto p = loadProfileOrFail(shared(kAdvisorTrace));
  const auto& rank = p->ranks.at(0);
  std::stop_source never;
  core::AnalysisOptions o;
  o.stop = never.get_token();
  const core::RankAnalysis withToken = core::analyzeRank(*rank.trace, rank.kernels.get(), nullptr, o);
  const core::RankAnalysis without = core::analyzeRank(*rank.trace, rank.kernels.get(), nullptr);
  CHECK_FALSE(withToken.cancelled);
  REQUIRE(!without.devices.empty());
  checkSameAnalysis(withToken, without);
  checkSameAnalysis(withToken, *rank.analysis);  // what loadProfile computed with its own token
}

TEST_CASE("loadProfile: a stop requested once the trace is built cancels in the analyses") {
  // loadTrace reports progress 1.0 after its last stop check (core/model/trace.cpp): a stop requested
  // there lands in the analysis phase.
  std::stop_source stop;
  core::LoadOptions o;
  o.stop = stop.get_token();
  bool stoppedAtEnd = false;
  o.progress = [&](double f) {
    if (f >= 1.0 && !stoppedAtEnd) {
      stoppedAtEnd = true;
      stop.request_stop();
    }
  };
  const auto r = core::loadProfile(shared(kAdvisorTrace), o);
  CHECK(stoppedAtEnd);
  CHECK_FALSE(r.ok());
  CHECK(r.error == "cancelled");
}

TEST_CASE("kernel_details.csv that matches no task: Task Type is used and the rule says why") {
  // case 34 no_overlap: Stream 2 holds MatMulV2 [1000,1300], FlashAttentionScore [1400,1800],
  // MatMulV2 [2000,2500] us from 1731400000000000 us; computed Computing 1200 us (case.md).
  const auto t = npuscope::test::load(shared("cases/34-step-trace-time-and-missing-overlap/no_overlap/trace_view.json"));
  constexpr core::TimeNs base = 1731400000000000LL * 1000;
  core::KernelDetails matching, unrelated;
  for (double s : {1000.0, 1400.0, 2000.0}) {
    core::KernelRow row;
    row.start = base + us(s);
    row.core = "AI_CORE";
    matching.rows.push_back(row);
    row.start = base + us(s) + 7;  // 7 ns off: no task starts there
    unrelated.rows.push_back(row);
  }
  const auto byCsv = core::analyzeRank(*t, &matching, nullptr);
  REQUIRE(byCsv.devices.size() == 1);
  CHECK(byCsv.devices[0].computeSetRule == "kernel_details.csv (3 tasks matched by start time)");
  CHECK(byCsv.devices[0].computed.computing == us(1200));
  const auto fallback = core::analyzeRank(*t, &unrelated, nullptr);
  REQUIRE(fallback.devices.size() == 1);
  const std::string& rule = fallback.devices[0].computeSetRule;
  INFO(rule);
  CHECK(rule.rfind("kernel_details.csv does not match this trace (none of its 3 distinct compute start times is a "
                   "device task's start), so: Task Type AI_CORE/",
                   0) == 0);
  CHECK(fallback.devices[0].computed.computing == us(1200));
}

TEST_CASE("corpus: every gap is counted when only the longest are listed", "[corpus]") {
  // The profiler's own Overlap Analysis "Free" lane of each rank of this capture (counted with a
  // Python script over trace_view.json) has 86 slices of at least 10 us, summing to 25,733.610 us
  // (rank 0) and 26,665.254 us (rank 1). With the list capped at 5, the analysis must still count
  // all 86 and their length (the sum of rounded-us floats differs from exact ns by a few ns).
  core::AnalysisOptions options;
  options.maxBubbles = 5;
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"), {}, options);
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 2);
  const core::TimeNs expectedNs[] = {25'733'610, 26'665'254};
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& a = r.profile->ranks[k].analysis;
    REQUIRE(a);
    REQUIRE(a->devices.size() == 1);
    const core::DeviceAnalysis& d = a->devices[0];
    CHECK(d.bubbles.size() == 5);
    CHECK(d.gapsFound == 86);
    CHECK(std::llabs(d.gapsFoundNs - expectedNs[k]) < 1000);
  }
}

TEST_CASE("overlap: the wait between msprof iterations is taken out of Free, and leads the verdict when largest", "[overlap]") {
  // The oracle's self-test trace (tools/oracles/test_topdown_oracle.py test_iterations), by hand:
  // Iteration 1 [0, 40) and 2 [100, 140) us; tasks 0-10, 30-40, 100-110, 120-130. 40 -> 100 reaches
  // across the boundary: 60 us between iterations; Free keeps 10-30 (step 1) and 110-120 (step 2).
  const auto x = [](int tid, const char* name, int start, int dur) {
    return std::string(R"({"ph":"X","pid":10,"tid":)") + std::to_string(tid) + R"(,"name":")" + name + R"(","ts":)" +
           std::to_string(start) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{"Task Type":"AI_CORE"}},)";
  };
  std::string j = R"j([{"ph":"M","name":"process_name","pid":10,"tid":0,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_labels","pid":10,"tid":0,"args":{"labels":"NPU 0"}},
{"ph":"M","name":"thread_name","pid":10,"tid":1,"args":{"name":"Stream 1"}},
{"ph":"M","name":"thread_name","pid":10,"tid":9,"args":{"name":"Step Trace(Model ID:1)"}},)j";
  j += x(1, "a", 0, 10) + x(1, "b", 30, 10) + x(1, "c", 100, 10) + x(1, "d", 120, 10) + x(9, "Iteration 1", 0, 40) +
       x(9, "Iteration 2", 100, 40);
  j.back() = ']';
  const auto t = test::loadMemory(j);
  const core::RankAnalysis a = core::analyzeRank(*t, nullptr, nullptr);
  REQUIRE(a.devices.size() == 1);
  const core::DeviceAnalysis& d = a.devices[0];
  CHECK(d.computed.free == 30000);
  CHECK(d.betweenIterationsNs == 60000);
  CHECK(d.computed.e2e == 130000);
  REQUIRE(d.steps.size() == 2);
  CHECK(d.steps[0].computed.free == 20000);
  CHECK(d.steps[1].computed.free == 10000);
  CHECK(d.steps[0].computed.e2e == 40000);
  CHECK(a.verdict.dominant == "data");
  CHECK(a.verdict.headline == "Data-loading bound");
  CHECK(d.bubbles.size() == 2);  // 10-30 and 110-120, not the 60 us between the iterations
}
