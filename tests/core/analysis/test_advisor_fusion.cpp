// SPDX-License-Identifier: MIT
// The advisor's fusion rules (core/analysis/advisor_fusion.cpp, docs/diagnosis.md §6): the
// affinity-API sequences (timeline_fusion_ops.yaml) and the fusible operator sequences
// (fusible_operator.yaml) on small traces / CSVs at their thresholds and just below, and on the
// corpus against Python stdlib one-offs run over the raw files (commands in the comments).

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/import/trace_builder.h"
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

using npuscope::test::find;

core::RankAdvice advise(const core::Trace& t, const core::KernelDetails* k = nullptr,
                        const core::AdvisorThresholds& th = {}) {
  const core::RankAnalysis a = core::analyzeRank(t, k, nullptr);
  return core::adviseRank(t, k, a, nullptr, th);
}

/// Top-level torch ops 10 us apart (5 us each) on one thread of the Python process; a nested
/// aten::empty inside the first one (a child: not part of the sequence).
std::shared_ptr<core::Trace> opsTrace(const std::vector<std::string>& ops, int threads = 1) {
  Build b;
  const auto main = b.thread(100, 1, "Python", "CPU");
  const auto other = b.thread(100, 2, "Python", "CPU");
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto th = threads == 2 && i % 2 == 1 ? other : main;
    b.b.addSlice(th, us(10) * static_cast<long long>(i), us(5), ops[i]);
    if (i == 0) b.b.addSlice(th, us(1), us(1), "aten::empty");
  }
  return b.finish();
}

}  // namespace

TEST_CASE("advisor fusion: an affinity-API sequence at the match mark and just below", "[advisor][fusion]") {
  // rsqrt-mul is the mandatory core of npu_rms_norm's "(pow){0,1}-(mean){0,1}-(add){0,1}-rsqrt-mul-(type_as){0,1}":
  // pow mean add rsqrt mul is one match (hand count); with the mul replaced by an add there is none.
  const auto hit = opsTrace({"aten::pow", "aten::mean", "aten::add", "aten::rsqrt", "aten::mul"});
  const auto adv = advise(*hit);
  const auto* f = find(adv, "affinity_api");
  REQUIRE(f);
  INFO(f->numbers);
  CHECK(f->severity == Severity::Issue);
  CHECK(f->numbers.find("torch_npu.npu_rms_norm: 1 x") != std::string::npos);
  CHECK(f->numbers.find("1 match over 5 top-level torch ops") != std::string::npos);
  CHECK(f->fix.find("torch_npu.npu_rms_norm") != std::string::npos);
  CHECK(f->atStakePerStep == 0);
  REQUIRE(f->evidence.size() == 1);
  CHECK(hit->sliceName(f->evidence.front()) == "aten::pow");  // the first op of the match
  // One match against a mark of 2: below the mark.
  core::AdvisorThresholds two;
  two.affinityMinMatches = 2;
  CHECK(find(advise(*hit, nullptr, two), "affinity_api")->severity == Severity::Ok);
  // The sequence broken: no match.
  const auto miss = opsTrace({"aten::pow", "aten::mean", "aten::add", "aten::rsqrt", "aten::add"});
  const auto missAdv = advise(*miss);
  const auto* g = find(missAdv, "affinity_api");
  REQUIRE(g);
  CHECK(g->severity == Severity::Ok);
  CHECK(g->evidence.empty());
  // The same ops alternating between two threads are no sequence.
  CHECK(find(advise(*opsTrace({"aten::pow", "aten::mean", "aten::add", "aten::rsqrt", "aten::mul"}, 2)),
             "affinity_api")->severity == Severity::Ok);
}

TEST_CASE("advisor fusion: alternations, repeats and fused optimizers", "[advisor][fusion]") {
  // slice-silu-mul: npu_swiglu's "(slice|chunk)-silu-mul" (msprof-analyze's own regex translation
  // misses a leading "slice", docs/diagnosis.md §6.2); chunk-neg-cat-mul-mul-add: npu_rotary_mul
  // with (mul){0,2} taken twice; Optimizer.step#AdamW.step: NpuFusedAdamW.
  const auto t = opsTrace({"aten::slice", "aten::silu", "aten::mul", "aten::chunk", "aten::neg", "aten::cat",
                           "aten::mul", "aten::mul", "aten::add", "Optimizer.step#AdamW.step"});
  const auto adv = advise(*t);
  const auto* f = find(adv, "affinity_api");
  REQUIRE(f);
  INFO(f->numbers);
  CHECK(f->severity == Severity::Issue);
  // Each rule is matched on its own (as msprof-analyze does): torch.addmm's mul-mul-add inside the
  // rotary sequence is a fourth match.
  CHECK(f->numbers.find("torch.addmm: 1 x mul-mul-add") != std::string::npos);
  CHECK(f->numbers.find("4 matches") != std::string::npos);
  CHECK(f->numbers.find("torch_npu.npu_swiglu: 1 x (slice|chunk)-silu-mul") != std::string::npos);
  CHECK(f->numbers.find("torch_npu.npu_rotary_mul: 1 x") != std::string::npos);
  CHECK(f->numbers.find("torch_npu.optim.NpuFusedAdamW: 1 x AdamW.step") != std::string::npos);
  CHECK(f->evidence.size() == 4);
}

TEST_CASE("advisor fusion: affinity APIs unknown without torch ops", "[advisor][fusion]") {
  Build b;
  const auto cann = b.thread(200, 1, "CANN", "CPU");
  b.b.addSlice(cann, us(0), us(5), "AscendCL@aclnnAdd");
  const auto t = b.finish();
  const auto adv = advise(*t);
  const auto* f = find(adv, "affinity_api");
  REQUIRE(f);
  CHECK(f->severity == Severity::Unknown);
}

namespace {

std::string startCell(int base, double offset) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", base + offset);
  return buf;
}

/// kernel_details.csv: `reps` times the tasks A, B, C (2 us each, starting 0, 5 and `thirdOffset`
/// us into the rep, reps 100 us apart) then an AI_CPU task, which breaks every sequence: the only
/// candidate is A-B-C, `reps` occurrences, task time 6 us over a wall span of thirdOffset + 2 us.
core::KernelDetails hostCsvAt(int reps, double thirdOffset) {
  std::string csv = "Name,Type,Accelerator Core,Start Time(us),Duration(us),Input Shapes,Output Shapes\n";
  for (int r = 0; r < reps; ++r) {
    csv += "A,Add,AI_VECTOR_CORE," + startCell(r * 100, 0) + ",2,\"8\",\"8\"\n";
    csv += "B,Mul,AI_VECTOR_CORE," + startCell(r * 100, 5) + ",2,\"8\",\"8\"\n";
    csv += "C,Cast,AI_VECTOR_CORE," + startCell(r * 100, thirdOffset) + ",2,\"8\",\"8\"\n";
    csv += "X,Cpu,AI_CPU," + startCell(r * 100, 50) + ",1,\"8\",\"8\"\n";
  }
  return core::parseKernelDetails(core::parseCsv(csv));
}

std::shared_ptr<core::Trace> pyTrace() {
  Build b;
  const auto py = b.thread(100, 1, "Python", "CPU");
  b.b.addSlice(py, us(0), us(5), "aten::add");
  return b.finish();
}

}  // namespace

TEST_CASE("advisor fusion: a host-bound sequence at the count and host marks", "[advisor][fusion]") {
  const auto t = pyTrace();
  // C at +13.001 us: wall 15.001 us, tasks 6 us: 0.39997 < 0.4, host bound. 6 occurrences > 5: reported.
  {
    const auto k = hostCsvAt(6, 13.001);
    const auto adv = advise(*t, &k);
    const auto* f = find(adv, "fusible_ops");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == Severity::Issue);
    CHECK(f->numbers.find("1 sequences (1 host bound, 0 MTE bound) among 24 tasks") != std::string::npos);
    CHECK(f->numbers.find("rows 0-2 (A ... C), 6 times") != std::string::npos);
    CHECK(f->atStakePerStep == 0);
  }
  // Without kernel_details.csv: unknown.
  {
    const auto adv = advise(*t);
    REQUIRE(find(adv, "fusible_ops"));
    CHECK(find(adv, "fusible_ops")->severity == Severity::Unknown);
  }
  // 5 occurrences: not more than 5.
  {
    const auto k = hostCsvAt(5, 13.001);
    CHECK(find(advise(*t, &k), "fusible_ops")->severity == Severity::Ok);
  }
  // C at +13 us: 6 / 15 = 0.4, not below 0.4.
  {
    const auto k = hostCsvAt(6, 13);
    CHECK(find(advise(*t, &k), "fusible_ops")->severity == Severity::Ok);
  }
}

TEST_CASE("advisor fusion: an MTE-bound sequence at the MTE mark", "[advisor][fusion]") {
  // Back-to-back tasks (not host bound), each aicore 10 us with aic_mte2 `mte` us: 8 / 10 = 0.8 is
  // not above 0.8; 8.001 is. 6 reps, each closed by an AI_CPU task.
  const auto t = pyTrace();
  for (const char* mte : {"8", "8.001"}) {
    std::string csv = "Name,Type,Accelerator Core,Start Time(us),Duration(us),Input Shapes,Output Shapes,aicore_time(us),"
                      "aic_mte2_time(us),aiv_mte2_time(us),aic_fixpipe_time(us),aiv_mte3_time(us)\n";
    for (int r = 0; r < 6; ++r)
      for (int i = 0; i < 4; ++i)
      {
        if (i == 3) {
          csv.append("X,Cpu,AI_CPU,");
        } else {
          csv.append("K");
          csv.append(std::to_string(i));
          csv.append(",Add,AI_CORE,");
        }
        csv.append(std::to_string(r * 100 + i * 10));
        csv.append(",10,\"8\",\"8\",10,");
        csv.append(mte);
        csv.append(",0,0,0\n");
      }
    const auto k = core::parseKernelDetails(core::parseCsv(csv));
    const auto adv = advise(*t, &k);
    const auto* f = find(adv, "fusible_ops");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == (std::string(mte) == "8" ? Severity::Ok : Severity::Issue));
  }
}

TEST_CASE("advisor fusion: the corpus against Python one-offs", "[advisor][fusion][corpus]") {
  // Affinity APIs: `python3 tools/oracles/fusion_oracle.py affinity .../ASCEND_PROFILER_OUTPUT/trace_view.json`
  // (stdlib; top-level aten:: ops per thread, the yaml's sequences as regular expressions,
  // Optimizer.step#X.step names): 910b-l1 rank0 (175 top-level ops) and 910a-l0 rank0 (235) match
  // no sequence and hold one SGD.step each (torch_npu.optim.NpuFusedSGD); the msprof-analyze
  // fixture trace one Adam.step.
  for (const char* cap : {"corpus/ascend-pt-910b-l1-text-2rank", "corpus/ascend-pt-910a-l0-text-2rank"}) {
    const auto r = core::loadProfile(shared(cap));
    REQUIRE(r.ok());
    const auto a = core::adviseRankProfile(r.profile->ranks.front());
    const auto* f = find(a, "affinity_api");
    REQUIRE(f);
    INFO(cap << ": " << f->numbers);
    CHECK(f->severity == Severity::Issue);
    CHECK(f->numbers.find("1 match over") != std::string::npos);
    CHECK(f->numbers.find("torch_npu.optim.NpuFusedSGD: 1 x SGD.step") != std::string::npos);
    CHECK(f->evidence.size() == 1);
    // The 910B step holds 4 aten::_foreach_* ops on its thread, the 910A step none (a Python
    // one-liner over the raw trace: X events of the step's pid/tid named aten::_foreach_* with ts
    // inside [ts, ts + dur) of Optimizer.step#SGD.step).
    const bool foreach = std::string(cap).find("910b") != std::string::npos;
    CHECK((f->numbers.find("1 of the optimizer steps already run foreach kernels") != std::string::npos) == foreach);
    // Fusible sequences: `python3 tools/oracles/fusion_oracle.py fusible .../kernel_details.csv`
    // (msprof-analyze's check_fusible_operator + post_processing re-implemented): 0 reported on both.
    const auto* g = find(a, "fusible_ops");
    REQUIRE(g);
    INFO(g->numbers);
    CHECK(g->severity == Severity::Ok);
  }
  {
    const auto r = core::loadProfile(
        shared("corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json"));
    REQUIRE(r.ok());
    const auto adv = core::adviseRankProfile(r.profile->ranks.front());
    const auto* f = find(adv, "affinity_api");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->numbers.find("torch_npu.optim.NpuFusedAdam: 1 x Adam.step") != std::string::npos);
    CHECK(f->numbers.find("1 match over") != std::string::npos);
  }
  // cann83 rank 0 and 2 (Level2, MTE columns present; no trace): `fusion_oracle.py fusible` gives
  // 68 sequences on each, 25 host bound and 50 MTE bound on rank 0, 26 and 50 on rank 2.
  for (const auto& [rank, host] : {std::pair{"rank_0_ascend_pt", 25}, std::pair{"rank_2_ascend_pt", 26}}) {
    const auto k = core::readKernelDetails(
        shared(std::string("corpus/ascend-pt-cann83-l2-4rank-partial/") + rank + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    const auto t = pyTrace();
    const auto adv = advise(*t, &k);
    const auto* g = find(adv, "fusible_ops");
    REQUIRE(g);
    INFO(rank << ": " << g->numbers);
    CHECK(g->severity == Severity::Issue);
    CHECK(g->numbers.find("68 sequences (" + std::to_string(host) + " host bound, 50 MTE bound)") != std::string::npos);
  }
}
