// SPDX-License-Identifier: MIT
// The advisor (core/analysis/advisor.h, docs/diagnosis.md §6): every rule on a small trace built
// with TraceBuilder (or a small kernel_details.csv) just at its threshold and just below it, the
// FLOPs of corpus matmul/conv kernels worked out by hand from their shapes, and the rules on the
// corpus against hand counts (a Python one-liner over the raw files, written next to each check).

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <utility>

#include "core/analysis/advisor.h"
#include "core/import/trace_builder.h"
#include "core/report/advice_report.h"
#include "core/report/report.h"
#include "core/tables/tables.h"
#include "tests/core/test_util.h"
#include "tests/core/trace_build.h"

using namespace npuscope;
using core::Severity;
using core::TraceBuilder;
using npuscope::test::shared;

namespace {

constexpr core::TimeNs us(long long v) { return v * 1000; }

using Build = npuscope::test::TraceBuild;

core::ImportArgs taskType(const char* t) { return core::ImportArgs::owned({{"Task Type", t}}); }

using npuscope::test::find;

core::RankAdvice advise(const core::Trace& t, const core::KernelDetails* k = nullptr,
                        const core::AdvisorThresholds& th = {}, const core::RankMetadata* meta = nullptr) {
  const core::RankAnalysis a = core::analyzeRank(t, k, nullptr);
  return core::adviseRank(t, k, a, meta, th);
}

core::KernelDetails kernelsFromCsv(const std::string& text) { return core::parseKernelDetails(core::parseCsv(text)); }

/// One AI_CPU task of `durNs` on NPU 0.
std::shared_ptr<core::Trace> aicpuTrace(core::TimeNs durNs) {
  Build b;
  const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
  b.b.addSlice(dev, us(100), us(10), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
  b.b.addSlice(dev, us(200), durNs, "aclnnCast_CastAiCpu_Cast", {}, taskType("AI_CPU"));
  return b.finish();
}

/// `n` aclopCompileAndExecute calls of 10 us on the CANN lane, call i at [20i + 5, 20i + 15) us,
/// inside `steps` ProfilerSteps. With `tasks`, a 2 us AI_CORE task follows each call at 20i + 16
/// us, so the device is idle 18 us before each task but the first, 10 us of it inside the next
/// call; else one task at [1, 6) us.
std::shared_ptr<core::Trace> aclopTrace(int n, int steps, bool tasks = false) {
  Build b;
  const auto py = b.thread(100, 1, "Python", "CPU");
  const auto cann = b.thread(200, 1, "CANN", "CPU");
  const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
  for (int s = 0; s < steps; ++s) b.b.addSlice(py, us(10'000) * s, us(10'000), "ProfilerStep#" + std::to_string(s + 1));
  for (int i = 0; i < n; ++i) {
    b.b.addSlice(cann, us(20) * i + us(5), us(10), "AscendCL@aclopCompileAndExecute");
    if (tasks) b.b.addSlice(dev, us(20) * i + us(16), us(2), "Add3", {}, taskType("AI_CORE"));
  }
  if (!tasks) b.b.addSlice(dev, us(1), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
  return b.finish();
}

}  // namespace

TEST_CASE("advisor: an AI_CPU task trips the rule at 20 us and not at 19.999 us", "[advisor]") {
  // msprof-analyze aicpu_checker: any AI_CPU task with duration >= 20 us.
  {
    const auto t = aicpuTrace(us(20));
    const auto a = advise(*t);
    const auto* f = find(a, "aicpu");
    REQUIRE(f);
    CHECK(f->severity == Severity::Issue);
    CHECK(f->atStakePerStep == us(20));  // one task of 20 us, one step (no ProfilerStep)
    REQUIRE(f->evidence.size() == 1);
    CHECK(t->sliceName(f->evidence[0]) == "aclnnCast_CastAiCpu_Cast");
    CHECK(a.findings.front().rule == "aicpu");  // the only issue: first
  }
  {
    const auto t = aicpuTrace(us(20) - 1);
    const auto adv = advise(*t);
    const auto* f = find(adv, "aicpu");
    REQUIRE(f);
    CHECK(f->severity == Severity::Ok);
    CHECK(f->atStakePerStep == 0);
  }
}

TEST_CASE("advisor: thresholds set by key, in the key's unit, and their effect", "[advisor]") {
  core::AdvisorThresholds t;
  CHECK(core::thresholdValue(t, "aicpu_min_us") == 20.0);  // 20'000 ns shown in us
  CHECK(core::thresholdValue(t, "gc_min_ms") == 1.0);
  CHECK_FALSE(core::thresholdValue(t, "nope"));
  CHECK(core::applyThresholdAssignment(t, "aicpu_min_us=20.5").empty());
  CHECK(t.aicpuMinNs == 20'500);
  CHECK(core::applyThresholdAssignment(t, "gc_min_ms=0.25").empty());
  CHECK(t.gcMinNs == 250'000);
  CHECK(core::applyThresholdAssignment(t, "chip=Ascend910B3").empty());
  CHECK(t.chip == "Ascend910B3");
  // Errors leave the value unchanged and say why.
  CHECK(core::applyThresholdAssignment(t, "heavy_ops=2.5").find("whole number") != std::string::npos);
  CHECK(t.heavyOps == 5);
  CHECK(core::applyThresholdAssignment(t, "low_utilisation=1.5").find("outside") != std::string::npos);
  CHECK(core::applyThresholdAssignment(t, "aicpu_min_us=abc").find("not a number") != std::string::npos);
  CHECK(core::applyThresholdAssignment(t, "bogus=1").find("unknown key") != std::string::npos);
  CHECK(core::applyThresholdAssignment(t, "aicpu_min_us").find("KEY=VALUE") != std::string::npos);
  CHECK(t.aicpuMinNs == 20'500);
  // Every field reads back what was set (value = field's max / 2 rounded to the field's grain).
  for (const auto& f : core::advisorThresholdFields()) {
    core::AdvisorThresholds u;
    const double v = f.integer ? 3.0 : (f.max <= 1 ? 0.25 : 2.5);
    REQUIRE(core::setThreshold(u, f.key, v).empty());
    CHECK(core::thresholdValue(u, f.key) == v);
  }
  // The effect: a 25 us AI_CPU task trips the default mark (20 us) and not 25.001 us.
  const auto trace = aicpuTrace(us(25));
  core::AdvisorThresholds raised;
  REQUIRE(core::applyThresholdAssignment(raised, "aicpu_min_us=25.001").empty());
  CHECK(find(advise(*trace), "aicpu")->severity == Severity::Issue);
  CHECK(find(advise(*trace, nullptr, raised), "aicpu")->severity == Severity::Ok);
}

TEST_CASE("advisor: aclopCompileAndExecute trips at 20 per step", "[advisor]") {
  // 40 calls in 2 steps = 20 per step: the mark; 39 in 2 steps: below.
  {
    const auto t = aclopTrace(40, 2, true);
    const auto a = advise(*t);
    REQUIRE(a.steps == 2);
    const auto* f = find(a, "aclop_compile");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == Severity::Issue);
    // At stake: the device gaps whose cause is ACLOP. 39 gaps [20i + 18, 20i + 36) us of 18 us, each
    // covered 10 us (56%, >= 25%) by the next call: ACLOP execution (docs/diagnosis.md §3 rule 6);
    // 39 x 18 us over 2 steps. Not the calls' host time (40 x 10 us), most of it hidden.
    CHECK(f->atStakePerStep == us(39 * 18) / 2);
    CHECK(f->atStakeNote.empty());  // Free is those same 702 us: not capped
    CHECK(f->evidence.size() == 40);
  }
  {
    // Without device gaps (one task at [1, 6) us: Free 0): the calls' host time, 40 x 10 us over 2
    // steps, is capped at the Free time per step, 0.
    const auto t = aclopTrace(40, 2);
    const auto a = advise(*t);
    const auto* f = find(a, "aclop_compile");
    REQUIRE(f);
    CHECK(f->severity == Severity::Issue);
    CHECK(f->atStakePerStep == 0);
    CHECK(f->atStakeNote.find("200 us") != std::string::npos);  // the rule's own figure, 400 us / 2
  }
  {
    const auto t = aclopTrace(39, 2);
    const auto adv = advise(*t);
    const auto* f = find(adv, "aclop_compile");
    REQUIRE(f);
    CHECK(f->severity == Severity::Ok);
  }
}

TEST_CASE("advisor: synchronise-stream after launches trips strictly above half", "[advisor]") {
  // Sorted CANN events L S L S L: 2 syncs right after a launch of 3 launches = 0.67 > 0.5.
  // L S L S L L: 2 of 4 = 0.5, not above: ok.
  for (int extra : {0, 1}) {
    Build b;
    const auto cann = b.thread(200, 1, "CANN", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    b.b.addSlice(cann, us(0), us(5), "Node@launch");
    b.b.addSlice(cann, us(10), us(7), "AscendCL@aclrtSynchronizeStream");
    b.b.addSlice(cann, us(20), us(5), "Node@launch");
    b.b.addSlice(cann, us(30), us(7), "AscendCL@aclrtSynchronizeStreamWithTimeout");
    b.b.addSlice(cann, us(40), us(5), "Node@launch");
    if (extra) b.b.addSlice(cann, us(50), us(5), "Node@launch");
    b.b.addSlice(dev, us(1), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
    const auto t = b.finish();
    const auto adv = advise(*t);
    const auto* f = find(adv, "sync_after_launch");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == (extra ? Severity::Ok : Severity::Issue));
    // Both syncs, 7 us each, are the rule's figure; the device (one task [1, 6) us) is never idle,
    // so the time at stake is capped at its Free time, 0, and the note keeps the 14 us.
    if (!extra) {
      CHECK(f->atStakePerStep == 0);
      CHECK(f->atStakeNote.find("Free time per step (0 ns)") != std::string::npos);
      CHECK(f->atStakeNote.find("14 us") != std::string::npos);
    }
    CHECK(f->evidence.size() == 2);
  }
}

TEST_CASE("advisor: a Python GC pause trips at 1 ms", "[advisor]") {
  for (core::TimeNs d : {us(1000), us(1000) - 1}) {
    Build b;
    const auto gc = b.thread(150, 1, "Python GC", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    b.b.addSlice(gc, us(100), d, "GC");
    b.b.addSlice(dev, us(1), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
    const auto t = b.finish();
    const auto adv = advise(*t);
    const auto* f = find(adv, "gc");
    REQUIRE(f);
    CHECK(f->severity == (d == us(1000) ? Severity::Issue : Severity::Ok));
  }
  // Without a Python GC process the rule cannot tell.
  const auto t = aicpuTrace(us(5));
  const auto adv = advise(*t);
    const auto* f = find(adv, "gc");
  REQUIRE(f);
  CHECK(f->severity == Severity::Unknown);
}

TEST_CASE("advisor: host-device transfers inside the step, each counted once", "[advisor]") {
  // Step [0, 1000) us. aten::item (30 us) with its _local_scalar_dense child and, on the CANN lane of
  // the same OS thread, the blocking aclrtMemcpy it calls: one transfer of 30 us. A second item at
  // 1500 us lies outside the step: not counted. With transfersPerStep = 2 the one transfer is below.
  Build b;
  const auto py = b.thread(100, 7, "Python", "CPU");
  const auto cann = b.thread(200, 7, "CANN", "CPU");
  const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
  b.b.addSlice(py, us(0), us(1000), "ProfilerStep#1");
  b.b.addSlice(py, us(100), us(30), "aten::item");
  b.b.addSlice(py, us(101), us(28), "aten::_local_scalar_dense");
  b.b.addSlice(cann, us(105), us(20), "AscendCL@aclrtMemcpy");
  b.b.addSlice(py, us(1500), us(30), "aten::item");
  b.b.addSlice(dev, us(1), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
  b.b.addSlice(dev, us(120), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
  const auto t = b.finish();
  const auto adv = advise(*t);
    const auto* f = find(adv, "transfers");
  REQUIRE(f);
  INFO(f->numbers);
  CHECK(f->severity == Severity::Issue);
  // At stake: the device's Free time under the transfer. Tasks run [1, 6) and [120, 125) us: Free is
  // [6, 120), of which [100, 120) lies under the item [100, 130): 20 us (not the item's 30 us).
  CHECK(f->atStakePerStep == us(20));
  CHECK(f->numbers.find("30 us on the host") != std::string::npos);
  REQUIRE(f->evidence.size() == 1);
  CHECK(t->sliceName(f->evidence[0]) == "aten::item");
  core::AdvisorThresholds th;
  th.transfersPerStep = 2;
  CHECK(find(advise(*t, nullptr, th), "transfers")->severity == Severity::Ok);
}

TEST_CASE("advisor: an issue's evidence in every step or in one", "[advisor]") {
  // Three steps of 1000 us. By hand: items at 100 and 500 us (step 1) and 2100 us (step 3), none in
  // step 2: 3 transfers >= 1 x 3 steps, an issue, its evidence in 2 of 3 steps; one more in step 2
  // makes every step (3 of 3).
  for (bool everyStep : {false, true}) {
    Build b;
    const auto py = b.thread(100, 7, "Python", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    for (int s = 0; s < 3; ++s) b.b.addSlice(py, us(1000) * s, us(1000), "ProfilerStep#" + std::to_string(s + 1));
    b.b.addSlice(py, us(100), us(30), "aten::item");
    b.b.addSlice(py, us(500), us(30), "aten::item");
    b.b.addSlice(py, us(2100), us(30), "aten::item");
    if (everyStep) b.b.addSlice(py, us(1100), us(30), "aten::item");
    for (int s = 0; s < 3; ++s) b.b.addSlice(dev, us(1000) * s + us(1), us(5), "aclnnAdd_AddAiCore_Add", {}, taskType("AI_CORE"));
    const auto t = b.finish();
    const auto adv = advise(*t);
    REQUIRE(adv.steps == 3);
    const auto* f = find(adv, "transfers");
    REQUIRE(f);
    REQUIRE(f->severity == Severity::Issue);
    CHECK(f->stepsWithEvidence == (everyStep ? 3 : 2));
    CHECK(core::stepsText(f->stepsWithEvidence, adv.steps) == (everyStep ? "every step (3 of 3)" : "in 2 of 3 steps"));
    // Not an issue, or a single step: not told.
    for (const auto& g : adv.findings)
      if (g.severity != Severity::Issue) CHECK(g.stepsWithEvidence == -1);
  }
  CHECK(find(advise(*aicpuTrace(us(25))), "aicpu")->stepsWithEvidence == -1);  // no ProfilerStep: one step
  CHECK(core::stepsText(-1, 3).empty());
}

TEST_CASE("advisor: corpus AI_CPU fallbacks recur every iteration on every device", "[advisor][corpus]") {
  // mindspore-msprof-prof-2dev, device_0 (Python json over msprof_0_2_{1,2,3}.json): two AI_CPU
  // tasks per file, each inside its "Iteration N" slice (e.g. 56635864673.78 us in Iteration 1
  // [56635864652.49, +47587.81)): every step, 3 of 3. device_1 has the same AI_CPU fallback.
  const auto r = core::loadProfile(shared("corpus/mindspore-msprof-prof-2dev"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 2);
  std::vector<std::pair<std::string, core::RankAdvice>> advised;
  for (const auto& rp : r.profile->ranks) advised.emplace_back(rp.source.label, core::adviseRankProfile(rp));
  const auto& a0 = advised.front().second;
  REQUIRE(a0.steps == 3);
  const auto* f = find(a0, "aicpu");
  REQUIRE(f);
  CHECK(f->severity == Severity::Issue);
  CHECK(f->evidence.size() == 6);
  CHECK(f->stepsWithEvidence == 3);
  const auto across = core::issuesAcrossRanks(advised);
  REQUIRE_FALSE(across.empty());
  CHECK(across.front().rule == "aicpu");
  CHECK(across.front().ranks.size() == 2);
}

TEST_CASE("advisor: issues across ranks, every rank or some", "[advisor]") {
  // Hand-made advice of three ranks: aicpu an issue on all three, gc on rank b only, sync ok everywhere.
  auto adv = [](std::vector<std::pair<std::string, Severity>> fs) {
    core::RankAdvice a;
    for (auto& [rule, sev] : fs) {
      core::Finding f;
      f.rule = rule;
      f.title = rule + " title";
      f.severity = sev;
      a.findings.push_back(f);
    }
    return a;
  };
  std::vector<std::pair<std::string, core::RankAdvice>> advised = {
      {"a", adv({{"aicpu", Severity::Issue}, {"sync_after_launch", Severity::Ok}})},
      {"b", adv({{"aicpu", Severity::Issue}, {"gc", Severity::Issue}})},
      {"c", adv({{"aicpu", Severity::Issue}, {"gc", Severity::Ok}})}};
  const auto rules = core::issuesAcrossRanks(advised);
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].rule == "aicpu");
  CHECK(rules[0].ranks == std::vector<std::string>{"a", "b", "c"});
  CHECK(rules[1].rule == "gc");
  CHECK(rules[1].ranks == std::vector<std::string>{"b"});
  CHECK(rules[1].of == 3);
  const std::string text = core::adviceAcrossRanksText(rules);
  CHECK(text.find("aicpu title: every rank (3)") != std::string::npos);
  CHECK(text.find("gc title: 1 of 3 ranks (b)") != std::string::npos);
  CHECK(core::adviceAcrossRanksJson(rules).find("\"ranks\": [\"b\"], \"of\": 3") != std::string::npos);
  // Two ranks with one label (two captures in one folder) still count as two.
  const std::vector<std::pair<std::string, core::RankAdvice>> twins = {
      {"rank 0", adv({{"aicpu", Severity::Issue}})}, {"rank 0", adv({{"aicpu", Severity::Issue}})}};
  REQUIRE(core::issuesAcrossRanks(twins).size() == 1);
  CHECK(core::issuesAcrossRanks(twins).front().ranks.size() == 2);
  advised.resize(1);
  CHECK(core::issuesAcrossRanks(advised).empty());  // one rank: nothing to compare
}

TEST_CASE("advisor: short element-wise ops whose launch outlasts them trip at 20 per step", "[advisor]") {
  // n Mul tasks of 5 us, each launched by AscendCL@aclnnMul (30 us) > 5 us: a HostToDevice flow from
  // the Node@launch inside it to the task. 20 trips, 19 does not. At stake: per task the Free time
  // just before it, at most host - device = 25 us: tasks at 100i + 40 us, so 95 us idle before each
  // but the first (the device activity starts there): 19 x 25 us.
  for (int n : {20, 19}) {
    Build b;
    const auto cann = b.thread(200, 1, "CANN", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    for (int i = 0; i < n; ++i) {
      const core::TimeNs t0 = us(100) * i;
      b.b.addSlice(cann, t0, us(30), "AscendCL@aclnnMul");
      b.b.addSlice(cann, t0 + us(10), us(5), "Node@launch");
      b.b.addFlowEvent(cann, t0 + us(11), TraceBuilder::FlowPhase::Start, static_cast<std::uint64_t>(i + 1), "HostToDevice",
                       "HostToDevice");
      b.b.addSlice(dev, t0 + us(40), us(5), "aclnnMul_MulAiCore_Mul", {}, taskType("AI_VECTOR_CORE"));
      b.b.addFlowEvent(dev, t0 + us(40), TraceBuilder::FlowPhase::End, static_cast<std::uint64_t>(i + 1), "HostToDevice",
                       "HostToDevice", true);
    }
    const auto t = b.finish();
    const auto adv = advise(*t);
    const auto* f = find(adv, "short_ops");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == (n == 20 ? Severity::Issue : Severity::Ok));
    if (n == 20) CHECK(f->atStakePerStep == 19 * us(25));
    CHECK(f->evidence.size() == static_cast<std::size_t>(n));
  }
}

TEST_CASE("advisor: backward longer than twice the forward", "[advisor]") {
  // Forward task (10 us) launched from the main thread (tid 1); backward task launched from the
  // autograd thread (tid 2), which ends a fwdbwd flow. backward 20 us: ratio 2.0, not above; 20.001 us: above.
  for (core::TimeNs bwd : {us(20), us(20) + 1}) {
    Build b;
    const auto main = b.thread(100, 1, "Python", "CPU");
    const auto grad = b.thread(100, 2, "Python", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    b.b.addSlice(main, us(0), us(10), "aten::mul");
    b.b.addSlice(grad, us(50), us(10), "MulBackward0");
    b.b.addFlowEvent(main, us(1), TraceBuilder::FlowPhase::Start, 1, "fwdbwd", "fwdbwd");
    b.b.addFlowEvent(grad, us(51), TraceBuilder::FlowPhase::End, 1, "fwdbwd", "fwdbwd", true);
    b.b.addSlice(dev, us(20), us(10), "aclnnMul_MulAiCore_Mul", {}, taskType("AI_CORE"));
    b.b.addSlice(dev, us(70), bwd, "aclnnMul_MulAiCore_Mul", {}, taskType("AI_CORE"));
    b.b.addFlowEvent(main, us(2), TraceBuilder::FlowPhase::Start, 2, "async_npu", "async_npu");
    b.b.addFlowEvent(dev, us(20), TraceBuilder::FlowPhase::End, 2, "async_npu", "async_npu", true);
    b.b.addFlowEvent(grad, us(52), TraceBuilder::FlowPhase::Start, 3, "async_npu", "async_npu");
    b.b.addFlowEvent(dev, us(70), TraceBuilder::FlowPhase::End, 3, "async_npu", "async_npu", true);
    const auto t = b.finish();
    const auto adv = advise(*t);
    const auto* f = find(adv, "forward_backward");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == (bwd == us(20) ? Severity::Ok : Severity::Issue));
    if (bwd != us(20)) CHECK(f->atStakePerStep == 1);  // 20.001 us - 2 x 10 us
  }
}

TEST_CASE("advisor: matmul utilisation at the 50% and 80% marks", "[advisor]") {
  // M = N = K = 1000: 2e9 FLOP. Against the 910B FP32 peak of 80 TFLOPS: 50 us = 40 TFLOPS = 50% (not
  // below the mark: between the marks); 50.001 us is below; 31.25 us = 64 TFLOPS = 80%: efficient.
  // With the HF32 Eligible column (NO: the kernel runs in FP32) unless `hf32Column` is false.
  auto csv = [](const char* dur, bool hf32Column = true) {
    return std::string("Name,Type,Accelerator Core,Start Time(us),Duration(us),Block Dim,Input Shapes,Input Data "
                       "Types,Output Shapes") + (hf32Column ? ",HF32 Eligible" : "") + "\nmm,MatMulV2,AI_CORE,100," +
           dur + ",20,\"1000,1000;1000,1000\",FLOAT;FLOAT,\"1000,1000\"" + (hf32Column ? ",NO" : "") + "\n";
  };
  // The device runs the matmul for 60 us (kernel_details.csv says 50-ish: what the rule reads);
  // with kernel_details.csv the compute set is its rows' tasks: Computing 60 us, above every stake.
  Build mb;
  const auto mdev = mb.thread(300, 5, "Ascend Hardware", "NPU 0");
  mb.b.addSlice(mdev, us(100), us(60), "mm", {}, taskType("AI_CORE"));
  const auto t = mb.finish();
  core::AdvisorThresholds th;
  th.chip = "Ascend910B3";
  for (auto [dur, sev] : {std::pair{"50", Severity::Info}, std::pair{"50.001", Severity::Issue},
                          std::pair{"31.25", Severity::Ok}}) {
    const auto k = kernelsFromCsv(csv(dur));
    const auto w = core::kernelWork(k, 0);
    REQUIRE(w);
    CHECK(w->flops == 2e9);
    CHECK(w->dtype == "FP32");
    const auto adv = advise(*t, &k, th);
    const auto* f = find(adv, "matmul_utilisation");
    REQUIRE(f);
    INFO(dur << " " << f->numbers);
    CHECK(f->severity == sev);
    // At stake below the mark: 50.001 us - the time at 80% (2e9 / 64e12 s = 31.25 us) = 18.751 us.
    if (sev == Severity::Issue) CHECK(f->atStakePerStep == 18'751);
  }
  {
    // Without the HF32 Eligible column (the .db export) a kernel at 80% of the FP32 peak may run
    // in HF32, whose peak is higher: not "efficient", information; below 50% stays an issue.
    const auto k80 = kernelsFromCsv(csv("31.25", false));
    const core::RankAdvice a80 = advise(*t, &k80, th);  // kept: find() points into it
    const auto* f80 = find(a80, "matmul_utilisation");
    REQUIRE(f80);
    CHECK(f80->severity == Severity::Info);
    CHECK(f80->numbers.find("HF32") != std::string::npos);
    const auto k50 = kernelsFromCsv(csv("50.001", false));
    const core::RankAdvice a50 = advise(*t, &k50, th);
    const auto* f50 = find(a50, "matmul_utilisation");
    REQUIRE(f50);
    CHECK(f50->severity == Severity::Issue);
  }
  {
    // The same 50.001 us row on a device whose compute set (the row's task, [100, 110) us of
    // aicpuTrace) computes 10 us: a faster kernel cannot save more, the stake is capped at 10 us.
    const auto k = kernelsFromCsv(csv("50.001"));
    const auto small = aicpuTrace(us(1));
    const auto adv = advise(*small, &k, th);
    const auto* f = find(adv, "matmul_utilisation");
    REQUIRE(f);
    CHECK(f->atStakePerStep == us(10));
    CHECK(f->atStakeNote.find("Computing time per step (10 us)") != std::string::npos);
    CHECK(f->atStakeNote.find("18.751 us") != std::string::npos);
  }
  // The chip not recorded and not given: TFLOPS without a verdict.
  const auto k = kernelsFromCsv(csv("50"));
  const auto adv = advise(*t, &k);
    const auto* f = find(adv, "matmul_utilisation");
  REQUIRE(f);
  CHECK(f->severity == Severity::Unknown);
  CHECK(f->numbers.find("40.00 TFLOPS") != std::string::npos);
}

TEST_CASE("advisor: block dim not a multiple of the cores", "[advisor]") {
  // Ascend910B3: 20 AI Cores. Dim 24 on 20 cores: 2 waves, idle 1 - 24/40 = 40% of 20 us = 8 us at stake.
  // Dim 20: a multiple. Dim 24 at 19.999 us: shorter than the 20 us minimum, left out.
  const auto t = aicpuTrace(us(1));
  core::AdvisorThresholds th;
  th.chip = "Ascend910B3";
  const std::string head = "Name,Type,Accelerator Core,Start Time(us),Duration(us),Block Dim\n";
  auto sev = [&](const std::string& rows, core::TimeNs* stake = nullptr) {
    const auto k = kernelsFromCsv(head + rows);
    const auto a = advise(*t, &k, th);
    const auto* f = find(a, "block_dim");
    REQUIRE(f);
    if (stake) *stake = f->atStakePerStep;
    return f->severity;
  };
  core::TimeNs stake = 0;
  CHECK(sev("a,Add,AI_CORE,100,20,24\n", &stake) == Severity::Issue);
  CHECK(stake == us(8));
  CHECK(sev("a,Add,AI_CORE,100,20,20\n") == Severity::Ok);
  CHECK(sev("a,Add,AI_CORE,100,19.999,24\n") == Severity::Ok);
  // Vector kernels against the 40 vector cores: 40 fits, 48 does not.
  CHECK(sev("a,Add,AI_VECTOR_CORE,100,20,40\n") == Severity::Ok);
  CHECK(sev("a,Add,AI_VECTOR_CORE,100,20,48\n") == Severity::Issue);
  // Unknown chip: unknown.
  const auto k = kernelsFromCsv(head + "a,Add,AI_CORE,100,20,24\n");
  CHECK(find(advise(*t, &k), "block_dim")->severity == Severity::Unknown);
}

TEST_CASE("advisor: pipe ratios classify heavy operators", "[advisor]") {
  // kernelBound: the highest ratio at or above 0.5 names the unit; below, latency-bound; none: "".
  const auto k = kernelsFromCsv(
      "Name,Type,Accelerator Core,Start Time(us),Duration(us),aic_mac_ratio,aic_mte2_ratio,aiv_vec_ratio\n"
      "a,MatMulV2,AI_CORE,100,10,0.5,0.4,0\n"
      "b,MatMulV2,AI_CORE,200,10,0.2,0.9,0\n"
      "c,Add,AI_VECTOR_CORE,300,10,0,0.3,0.49\n"
      "d,Add,AI_VECTOR_CORE,400,10,N/A,N/A,N/A\n");
  CHECK(core::kernelBound(k, 0, 0.5) == "compute-bound (cube)");
  CHECK(core::kernelBound(k, 1, 0.5) == "memory-bound (MTE2)");
  CHECK(core::kernelBound(k, 2, 0.5) == "latency-bound");
  CHECK(core::kernelBound(k, 3, 0.5).empty());
  // The 910A's names (msprof PipeUtHeaderString: no aic_/aiv_ prefix), as its kernel_details.csv
  // writes them with aic_metrics=PipeUtilization.
  const auto a = kernelsFromCsv(
      "Name,Type,Accelerator Core,Start Time(us),Duration(us),vec_ratio,mac_ratio,scalar_ratio,mte1_ratio,mte2_ratio,mte3_ratio\n"
      "conv,Conv2D,AI_CORE,100,10,0.01,0.81,0.12,0.3,0.6,0.05\n"
      "add,Add,AI_CORE,200,10,0.2,0,0.1,0,0.7,0.75\n"
      "tiny,Cast,AI_CORE,300,10,0.1,0,0.2,0,0.3,0.1\n");
  CHECK(core::kernelBound(a, 0, 0.5) == "compute-bound (cube)");
  CHECK(core::kernelBound(a, 1, 0.5) == "memory-bound (MTE3)");
  CHECK(core::kernelBound(a, 2, 0.5) == "latency-bound");
}

TEST_CASE("advisor: environment variables", "[advisor]") {
  const auto t = aicpuTrace(us(1));
  core::RankMetadata m;
  m.envRecorded = true;
  m.env = {{"ASCEND_LAUNCH_BLOCKING", "1"}};
  CHECK(find(advise(*t, nullptr, {}, &m), "environment")->severity == Severity::Issue);
  m.env = {{"ASCEND_LAUNCH_BLOCKING", "0"}, {"ASCEND_GLOBAL_LOG_LEVEL", "3"}};
  CHECK(find(advise(*t, nullptr, {}, &m), "environment")->severity == Severity::Ok);
  m.env = {{"ASCEND_GLOBAL_LOG_LEVEL", "1"}};
  CHECK(find(advise(*t, nullptr, {}, &m), "environment")->severity == Severity::Issue);
  // The corpus capture records 8 variables, all empty (cat profiler_metadata.json): ACLNN_CACHE_LIMIT,
  // HOST_CACHE_CAPACITY unset and PYTORCH_NPU_ALLOC_CONF without expandable_segments: worth a look.
  const auto meta = core::readRankMetadata(shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  CHECK(meta.envRecorded);
  CHECK(meta.env.size() == 8);
  const auto adv = advise(*t, nullptr, {}, &meta);
    const auto* f = find(adv, "environment");
  REQUIRE(f);
  CHECK(f->severity == Severity::Info);
  CHECK(f->numbers.find("ACLNN_CACHE_LIMIT unset") != std::string::npos);
  // No metadata file: unknown.
  CHECK(find(advise(*t), "environment")->severity == Severity::Unknown);
}

TEST_CASE("advisor: FLOPs of corpus matmul and conv kernels from their shapes", "[advisor][corpus]") {
  // corpus ascend-pt-910b-l1-text-2rank rank 0 kernel_details.csv, by hand:
  //  aclnnAddmm MatMulV2 "32,9216;4096,9216;4096" -> "32,4096", 346.567 us: M 32, N 4096, K 9216:
  //    2*32*4096*9216 = 2,415,919,104 FLOP / 346.567 us = 6.971 TFLOPS (FP32).
  //  aclnnMm MatMulV2 "32,1000;32,4096" -> "1000,4096", 16.54 us: M 1000, N 4096, K 32 (A transposed):
  //    2*1000*4096*32 = 262,144,000 / 16.54 us = 15.849 TFLOPS.
  //  Conv2D1 "32,1,224,224,8 (NC1HWC0); 121,4,16,8 (FRACTAL_Z)" -> "32,8,55,55,8", 313.886 us:
  //    2*N*Hout*Wout*|w| = 2*32*55*55*(121*4*16*8) = 11,993,907,200 / 313.886 us = 38.211 TFLOPS;
  //    HF32 Eligible YES: dtype HF32 (no FP32 verdict).
  //  Conv2DBackpropInput5 "4;288,16,16,8;32,32,13,13,8", 79.642 us: dy N 32, 13x13, |w| = 589,824:
  //    2*32*13*13*589824 = 6,379,536,384 / 79.642 us = 80.103 TFLOPS.
  const auto k = core::readKernelDetails(
      shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
  REQUIRE(!k.rows.empty());
  auto rowOf = [&](const std::string& name, const std::string& shapes) -> std::size_t {
    const int c = k.table.column("Input Shapes");
    for (std::size_t i = 0; i < k.rows.size(); ++i)
      if (k.rows[i].name == name && core::csvTrim(k.table.cell(i, c)) == shapes) return i;
    FAIL("row not found: " << name);
    return 0;
  };
  struct Case {
    const char* name;
    const char* shapes;
    double flops, tflops;
    const char* dtype;
  };
  for (const Case& c : {Case{"aclnnAddmm_MatMulCommon_MatMulV2", "32,9216;4096,9216;4096", 2415919104.0, 6.971, "FP32"},
                        Case{"aclnnMm_MatMulCommon_MatMulV2", "32,1000;32,4096", 262144000.0, 15.849, "FP32"},
                        Case{"Conv2D1", "32,1,224,224,8;121,4,16,8;64", 11993907200.0, 38.211, "HF32"},
                        Case{"Conv2DBackpropInput5", "4;288,16,16,8;32,32,13,13,8", 6379536384.0, 80.103, "HF32"}}) {
    INFO(c.name);
    const auto w = core::kernelWork(k, rowOf(c.name, c.shapes));
    REQUIRE(w);
    CHECK(w->flops == c.flops);
    CHECK(std::abs(w->tflops - c.tflops) < 0.001);
    CHECK(w->dtype == c.dtype);
  }
  // Level0 rows have no shapes: no work, never a guess (corpus ascend-pt-910b-l0-text-2rank, 8 columns).
  const auto k0 = core::readKernelDetails(
      shared("corpus/ascend-pt-910b-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
  for (std::size_t i = 0; i < k0.rows.size(); ++i) CHECK_FALSE(core::kernelWork(k0, i));
}

TEST_CASE("advisor: corpus rules agree with hand counts and msprof-analyze's logic", "[advisor][corpus]") {
  // 910B Level1 rank 0, counted with Python over trace_view.json (the advisor's own logic):
  //  aclopCompileAndExecute on CANN: 19 in 1 step (ProfilerStep#50): below the 20 mark (ok);
  //  CANN events sorted by ts: 191 Node@launch, 7 aclrtSynchronizeStream*, 2 right after a launch:
  //  ratio 0.0105, not above 0.5 (ok); no AI_CPU task (kernel_details.csv Accelerator Core: none);
  //  no Python GC process (unknown).
  {
    const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
    REQUIRE(r.ok());
    const auto& rp = r.profile->ranks.front();
    const auto a = core::adviseRankProfile(rp);
    const auto* aclop = find(a, "aclop_compile");
    REQUIRE(aclop);
    // Below the count mark, but the bubbles find ACLOP execution on the host behind 4 device gaps
    // holding 2.994 ms (tools/oracles/topdown_oracle.py, tests/data/topdown_oracle.json: rank0
    // by_cause aclop_execute count 4, ns 2993920); the top cause there is slow_dispatch, so it is
    // information, not an issue, and never "ok" beside a verdict that names ACLOP gaps.
    CHECK(aclop->severity == Severity::Info);
    CHECK(aclop->atStakePerStep == 2993920);
    CHECK(aclop->numbers.find("4 device gaps holding 2.994 ms") != std::string::npos);
    CHECK(aclop->evidence.size() == 19);
    const auto* sync = find(a, "sync_after_launch");
    REQUIRE(sync);
    CHECK(sync->severity == Severity::Ok);
    CHECK(sync->numbers.find("7 synchronise-stream calls, 191 launches, 2 right after") != std::string::npos);
    CHECK(find(a, "aicpu") == nullptr);  // no AI_CPU row at all: nothing to say
    CHECK(find(a, "gc")->severity == Severity::Unknown);
    // The chip is not recorded by the text export: no utilisation verdict, and no block-dim verdict.
    CHECK(a.chip.empty());
    CHECK(find(a, "matmul_utilisation")->severity == Severity::Unknown);
    CHECK(find(a, "block_dim")->severity == Severity::Unknown);
    // aten::item x27 in the step (Python count over the trace: 27 aten::item, each enclosing one
    // _local_scalar_dense): transfers inside the step.
    const auto* tr = find(a, "transfers");
    REQUIRE(tr);
    CHECK(tr->severity == Severity::Issue);
    CHECK(tr->numbers.find("aten::item x27") != std::string::npos);
    // Sorted: issues first, by time at stake.
    for (std::size_t i = 1; i < a.findings.size(); ++i)
      if (a.findings[i].severity == a.findings[i - 1].severity)
        CHECK(a.findings[i].atStakePerStep <= a.findings[i - 1].atStakePerStep);
  }
  // msprof-analyze advisor fixture (timeline_advice/trace_view.json): two AI_CPU tasks, 188.148 and
  // 139.419 us (Python over the raw file, Task Type AI_CPU): aicpu_checker flags them (>= 20 us);
  // 11 aclopCompileAndExecute in 1 step: below 20; no Node@launch: the sync rule cannot be told
  // (msprof-analyze divides by zero launches and reports nothing).
  {
    const auto r = core::loadProfile(
        shared("corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json"));
    REQUIRE(r.ok());
    const auto a = core::adviseRankProfile(r.profile->ranks.front());
    const auto* ai = find(a, "aicpu");
    REQUIRE(ai);
    CHECK(ai->severity == Severity::Issue);
    CHECK(ai->evidence.size() == 2);
    CHECK(ai->numbers.find("2 of 2 AI_CPU tasks") != std::string::npos);
    // 11 calls, below the count mark; but ACLOP is the cause holding the most gap time on the
    // device (topdown_oracle.json: aclop_execute 44 gaps 6315694 ns, aclop_compile 1 gap 39300 ns;
    // top cause aclop_execute), as the verdict says: an issue with 6.355 ms at stake.
    CHECK(find(a, "aclop_compile")->severity == Severity::Issue);
    CHECK(find(a, "aclop_compile")->atStakePerStep == 6315694 + 39300);
    CHECK(find(a, "aclop_compile")->evidence.size() == 11);
    CHECK(find(a, "sync_after_launch")->severity == Severity::Unknown);
  }
}

TEST_CASE("advisor: on a partial capture a missing CANN layer is not blamed on Level0", "[advisor][partial]") {
  // A Python step and two device tasks, no CANN process at all. Closed, the rules say Level0
  // prunes the CANN layer; cut inside the last event (the file ends mid-object), they say the
  // capture is partial instead (hand count: the cut keeps 4 complete events).
  const std::string head =
      R"([{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}},)"
      R"({"ph":"M","name":"process_name","pid":2,"tid":0,"args":{"name":"Ascend Hardware"}},)"
      R"({"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":"0","dur":100},)"
      R"({"ph":"X","name":"aclnnAdd","pid":2,"tid":3,"ts":"10","dur":5,"args":{"Task Type":"AI_CORE"}},)";
  const std::string last = R"({"ph":"X","name":"aclnnMul","pid":2,"tid":3,"ts":"20","dur":5,"args":{"Task Type":"AI_CORE"}}])";
  auto reasons = [](const std::string& json) {
    test::TempDir dir("advisor-partial");
    std::ofstream(dir.root / "trace_view.json", std::ios::binary) << json;
    const auto trace = test::load((dir.root / "trace_view.json").string());
    REQUIRE(trace);
    const core::RankAnalysis a = core::analyzeRank(*trace, nullptr, nullptr);
    const core::RankAdvice adv = core::adviseRank(*trace, nullptr, a, nullptr);
    std::string s;
    for (const core::Finding& f : adv.findings)
      if (f.rule == "aclop_compile" || f.rule == "sync_after_launch") s += f.numbers + "\n";
    return std::make_pair(a.verdict.partial, s);
  };
  const auto whole = reasons(head + last);
  CHECK_FALSE(whole.first);
  CHECK(whole.second.find("Level0 prunes") != std::string::npos);
  const auto cut = reasons(head + last.substr(0, last.size() / 2));
  CHECK(cut.first);
  CHECK(cut.second.find("Level0 prunes") == std::string::npos);
  CHECK(cut.second.find("the capture is partial") != std::string::npos);
  CHECK(cut.second.find("may have been cut off") != std::string::npos);
}

TEST_CASE("advisor: Level0 AI_CPU kernels are told by their tasks when kernel_details.csv names no core", "[advisor][corpus]") {
  // 910A Level0, rank 0: kernel_details.csv's Accelerator Core is N/A everywhere; the trace marks
  // two tasks "Task Type": "AI_CPU" (StatelessDropOutGenMask25 106.361 us, ...31 78.701 us: 185.062
  // us); its database export's TASK.taskType says KERNEL_AICPU for the same two (114.651 and 83.850
  // us by endNs - startNs: 198.501 us).
  const std::pair<const char*, core::TimeNs> want[] = {{"corpus/ascend-pt-910a-l0-text-2rank/rank0_ascend_pt", 185'062},
                                                       {"corpus/ascend-pt-910a-db-2rank/level0/rank0_ascend_pt", 198'501}};
  for (const auto& [rel, ns] : want) {
    INFO(rel);
    const auto r = core::loadProfile(shared(rel));
    REQUIRE(r.ok());
    const auto a = core::adviseRankProfile(r.profile->ranks.front());
    const auto* f = find(a, "aicpu");
    REQUIRE(f);
    CHECK(f->severity == Severity::Issue);
    CHECK(f->numbers.starts_with("2 of 2 AI_CPU tasks"));
    CHECK(f->atStakePerStep == ns);
    CHECK(f->evidence.size() == 2);
  }
}

TEST_CASE("link nominals per chip: msprof's constants, the family name enough, a threshold overrides") {
  // msprof (Ascend/msprof 9ba1ac7) analysis/common_func/ms_constant/number_constant.py:
  // HCCS_BANDWIDTH_V2_1_0 = 18, RDMA_BANDWIDTH_V2_1_0 = 12.5 (910A), HCCS_BANDWIDTH_V4_1_0 = 28,
  // RDMA_BANDWIDTH_V4_1_0 = 25 (910B, every model: msprof keys them by platform_version);
  // msprof-analyze bandwidth_contention.yaml sdma_baseline 18 for any other chip.
  const core::AdvisorThresholds th;
  CHECK(core::linkNominal(th, "Ascend910A", "HCCS").gbps == 18.0);
  CHECK(core::linkNominal(th, "Ascend910A", "RDMA").gbps == 12.5);
  CHECK(core::linkNominal(th, "Ascend910B", "HCCS").gbps == 28.0);
  CHECK(core::linkNominal(th, "Ascend910B3", "RDMA").gbps == 25.0);
  CHECK(core::linkNominal(th, "Ascend910B3", "HCCS").source.find("HCCS_BANDWIDTH_V4_1_0") != std::string::npos);
  CHECK(core::linkNominal(th, "", "HCCS").gbps == 18.0);
  CHECK(core::linkNominal(th, "", "HCCS").source.find("sdma_baseline") != std::string::npos);
  CHECK(core::linkNominal(th, "", "RDMA").gbps == 0.0);  // not judged
  CHECK(core::linkNominal(th, "Ascend910_9391", "RDMA").gbps == 0.0);  // no msprof entry for the A3
  // The Cluster dock's and the cross-rank stage's link nominals follow the same table (a chip not
  // recorded takes the 910A's, the lowest); msprof gives the 910B no PCIE figure.
  CHECK(core::nominalLinkGBs("HCCS", "Ascend910B3") == 28.0);
  CHECK(core::nominalLinkGBs("RDMA", "Ascend910B") == 25.0);
  CHECK(core::nominalLinkGBs("PCIE", "Ascend910B") == 0.0);
  CHECK(core::nominalLinkGBs("HCCS", "Ascend910A") == 18.0);
  CHECK(core::nominalLinkGBs("PCIE", "Ascend910A") == 20.0);
  CHECK(core::nominalLinkGBs("RDMA", "") == 12.5);
  CHECK(core::nominalLinkGBs("SIO", "Ascend910B") == 0.0);
  core::AdvisorThresholds set = th;
  REQUIRE(core::applyThresholdAssignment(set, "rdma_nominal_gbps=50").empty());
  CHECK(core::linkNominal(set, "Ascend910B3", "RDMA").gbps == 50.0);
  CHECK(core::linkNominal(set, "Ascend910B3", "HCCS").gbps == 28.0);
}
