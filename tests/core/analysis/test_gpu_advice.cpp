// SPDX-License-Identifier: MIT
// GPU (CUDA / ROCm) Kineto traces: the advisor runs only its device-neutral rules, the rank is
// described by the device its analysis is for, and nothing calls the GPU an NPU.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/analysis/advisor.h"
#include "core/report/advice_report.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

TEST_CASE("GPU trace: the analysed device is the rank's device, the other labels are listed", "[kineto][advisor]") {
  // Python over the raw mi250 file: process_labels "GPU 0".."GPU 15" for pids 0-15, and of those
  // only pid 2 has events (34, none of them metadata).
  const auto r = core::loadProfile(shared("corpus/kineto-hta-mi250-rocm"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  const core::RankProfile& rp = r.profile->ranks[0];
  CHECK(rp.device() == 2);
  const auto others = rp.otherDevices();
  REQUIRE(others.size() == 15);
  for (const auto& [d, hasEvents] : others) {
    CHECK(d != 2);
    CHECK_FALSE(hasEvents);
  }
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("device 2; other devices: 0-1, 3-15 (labelled, no events)") != std::string::npos);
}

TEST_CASE("GPU trace: only the device-neutral advisor rules run", "[kineto][advisor]") {
  // kineto-hta-alexnet-cuda (A100, labels GPU 0-7) and kineto-hta-mi250-rocm (MI250): no CANN,
  // no AI_CPU, no kernel_details.csv, no ASCEND_* variables, so the Ascend rules have nothing to
  // read. Only "transfers" and "forward_backward" may appear.
  for (const char* c : {"corpus/kineto-hta-alexnet-cuda", "corpus/kineto-hta-mi250-rocm"}) {
    INFO(c);
    const auto r = core::loadProfile(shared(c));
    REQUIRE(r.ok());
    const core::RankProfile& rp = r.profile->ranks.at(0);
    REQUIRE(rp.trace);
    CHECK(core::isGpuTrace(*rp.trace));
    const core::RankAdvice a = core::adviseRankProfile(rp, {});
    CHECK_FALSE(a.notRun.empty());
    const std::set<std::string> allowed{"transfers", "forward_backward"};
    for (const core::Finding& f : a.findings) {
      INFO(f.rule);
      CHECK(allowed.count(f.rule) == 1);
      CHECK(f.fix.find("NPU") == std::string::npos);
      CHECK(f.numbers.find("CANN") == std::string::npos);
    }
    const std::string text = core::adviceText(a);
    CHECK(text.find("advice (GPU") != std::string::npos);
    CHECK(text.find("NPU") == std::string::npos);
  }
}

TEST_CASE("Ascend traces keep every advisor rule", "[kineto][advisor]") {
  // The 910B Level1 text capture (no GPU label, a CANN layer: grep counts 1 aclopCompileAndExecute
  // in its trace_view.json): the ACLOP, synchronise-after-launch and environment rules each give a
  // finding (each pushes one whatever it finds, unknown included).
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.ok());
  const core::RankProfile& rp = r.profile->ranks.at(0);
  REQUIRE(rp.trace);
  CHECK_FALSE(core::isGpuTrace(*rp.trace));
  const core::RankAdvice a = core::adviseRankProfile(rp, {});
  CHECK(a.notRun.empty());
  std::set<std::string> rules;
  for (const core::Finding& f : a.findings) rules.insert(f.rule);
  CHECK(rules.count("aclop_compile") == 1);
  CHECK(rules.count("sync_after_launch") == 1);
  CHECK(rules.count("environment") == 1);
}

TEST_CASE("GPU trace: CUDA and HIP runtime copies count as host-device transfers", "[kineto][advisor]") {
  // Python over the raw files: alexnet has 16 cudaMemcpyAsync (cat cuda_runtime) and 16
  // "Memcpy HtoD (Pageable -> Device)" (cat gpu_memcpy) and no ProfilerStep, so the rule counts
  // the whole capture and cannot say ok; mi250 has 2 hipMemcpyWithStream and 2
  // "Memcpy HtoD (Host -> Device)", all starting inside a ProfilerStep window.
  auto transfers = [](const char* corpus) {
    const auto r = core::loadProfile(shared(corpus));
    REQUIRE(r.ok());
    const core::RankAdvice a = core::adviseRankProfile(r.profile->ranks.at(0), {});
    for (const core::Finding& f : a.findings)
      if (f.rule == "transfers") return f;
    FAIL("no transfers finding");
    return core::Finding{};
  };
  const core::Finding cuda = transfers("corpus/kineto-hta-alexnet-cuda");
  CHECK(cuda.severity == core::Severity::Unknown);
  CHECK(cuda.numbers.find("16 transfers") != std::string::npos);
  CHECK(cuda.numbers.find("cudaMemcpyAsync x16") != std::string::npos);
  CHECK(cuda.numbers.find("16 host<->device copies") != std::string::npos);
  const core::Finding hip = transfers("corpus/kineto-hta-mi250-rocm");
  CHECK(hip.severity == core::Severity::Issue);
  CHECK(hip.numbers.find("hipMemcpyWithStream x2") != std::string::npos);
  CHECK(hip.numbers.find("2 host<->device copies") != std::string::npos);
}
