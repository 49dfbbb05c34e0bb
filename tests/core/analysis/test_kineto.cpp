// SPDX-License-Identifier: MIT
// PyTorch Kineto traces (format notes §6.1): device streams, the compute / communication / copy
// split, Free, bubbles and the cpu_op -> runtime launch -> kernel chain, on the HTA corpus
// captures (CUDA, ROCm, CUPTI range profiler) and on a hand-written torch_npu PrivateUse1 trace.
//
// Corpus values come from tools/oracles/kineto_oracle.py (Python standard library, sharing no
// code with npuscope; exact decimal ts), run as
//   python3 tools/oracles/kineto_oracle.py ../shared/corpus/kineto-hta-alexnet-cuda/*.gz
//   python3 tools/oracles/kineto_oracle.py ../shared/corpus/kineto-hta-mi250-rocm/*.gz
// The hand-written trace's values are counted by hand in the comments.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "tests/core/kineto_npu_records.h"
#include "tests/core/test_util.h"

using namespace npuscope;

namespace {

const std::string kAlexnet =
    "corpus/kineto-hta-alexnet-cuda/benchmark_result_2869224_1695835535_trace.json.gz";
const std::string kMi250 = "corpus/kineto-hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const std::string kCuptiRange = "corpus/kineto-hta-cupti-range-cuda/benchmark_result_924719_1679055439_trace.json.gz";

core::RankAnalysis analyse(const core::Trace& t) { return core::analyzeRank(t, nullptr, nullptr, {}); }

/// Every text the verdict and the bubbles print, joined.
std::string allText(const core::RankAnalysis& ra) {
  std::string s = ra.verdict.headline + "\n" + ra.verdict.summary + "\n";
  for (const auto& f : ra.verdict.findings) s += f + "\n";
  for (const auto& f : ra.verdict.suggestions) s += f + "\n";
  for (const auto& d : ra.devices) {
    s += d.computeSetRule + "\n" + core::commBreakdownText(d.comm) + "\n";
    for (const auto& b : d.bubbles) s += b.detail + "\n";
  }
  return s;
}

/// Ascend-only names that must not appear in a GPU trace's verdict and bubbles.
void requireNoAscendWords(const std::string& text) {
  for (const char* w : {"aclnn", "Node@launch", "HCCL", "CANN", "torch_npu", "TransData", "AI_CPU", "ACLOP", "Dequeue",
                        "HostToDevice", "torch.npu"}) {
    INFO(w << " in:\n" << text);
    CHECK(text.find(w) == std::string::npos);
  }
}

struct ChainCounts {
  std::size_t tasks = 0, withLaunch = 0, withTorchOp = 0;
};

/// Over every task (kernel, collective kernel, copy) on the Kineto device lanes: how many have
/// a runtime launch (ac2g) and a torch op in their chain.
ChainCounts countChains(const core::Trace& t) {
  ChainCounts c;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    if (!core::detail::isKinetoDeviceLane(t, l)) continue;
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i) {
      if (core::detail::kinetoTaskKindOf(t, {l, i}) == core::detail::KinetoTaskKind::NotATask) continue;
      ++c.tasks;
      const core::DispatchChain ch = core::dispatchChain(t, {l, i});
      if (const core::ChainLink* launch = ch.find(core::ChainLayer::Launch)) {
        ++c.withLaunch;
        CHECK(launch->via == "ac2g");
        if (ch.find(core::ChainLayer::TorchOp)) ++c.withTorchOp;
        // No task queue and no CANN layer on a Kineto trace: neither links nor missing.
        CHECK(ch.find(core::ChainLayer::Enqueue) == nullptr);
        CHECK(ch.find(core::ChainLayer::CannApi) == nullptr);
        CHECK(std::find(ch.missing.begin(), ch.missing.end(), core::ChainLayer::Dequeue) == ch.missing.end());
      }
    }
  }
  return c;
}

}  // namespace

TEST_CASE("Kineto CUDA trace: streams are device lanes, kernels compute, Free and bubbles as the oracle", "[kineto]") {
  const auto t = test::load(test::shared(kAlexnet));
  // The GPU's process (label "GPU 0", pid 0) is the device; the CPU-labelled process the host.
  bool sawDevice = false, sawHost = false;
  for (const core::Process& p : t->processes) {
    if (p.label == "GPU 0") {
      CHECK(p.role == core::Process::Role::KinetoDevice);
      CHECK(p.deviceId == 0);
      sawDevice = true;
    }
    if (p.label == "CPU") {
      CHECK(p.role == core::Process::Role::Python);
      sawHost = true;
    }
  }
  REQUIRE(sawDevice);
  REQUIRE(sawHost);
  // Kernels per stream (oracle: "kernels_per_stream": {"20": 6, "7": 73}).
  for (std::uint32_t l = 0; l < t->lanes.size(); ++l) {
    if (!core::detail::isKinetoDeviceLane(*t, l)) continue;
    std::size_t kernels = 0;
    for (std::uint32_t i = 0; i < t->lanes[l].sliceCount(); ++i)
      kernels += core::detail::kinetoTaskKindOf(*t, {l, i}) == core::detail::KinetoTaskKind::Compute;
    if (t->lanes[l].tid == 7) CHECK(kernels == 73);
    if (t->lanes[l].tid == 20) CHECK(kernels == 6);
  }
  const core::RankAnalysis ra = analyse(*t);
  REQUIRE(ra.devices.size() == 1);
  const core::DeviceAnalysis& d = ra.devices[0];
  CHECK(d.device == 0);
  // Oracle: computing 10630000, communication 0, e2e 12840244000, free 12829614000 ns; 19 gaps
  // of 10 us or more summing to 12829518000 ns.
  CHECK(d.computed.computing == 10'630'000);
  CHECK(d.computed.communication == 0);
  CHECK(d.computed.e2e == 12'840'244'000);
  CHECK(d.computed.free == 12'829'614'000);
  CHECK(d.gapsFound == 19);
  CHECK(d.gapsFoundNs == 12'829'518'000);
  REQUIRE(!d.bubbles.empty());
  // Oracle: the longest bubble is [1695835573023684000, 1695835583881571000).
  CHECK(d.bubbles[0].range.start == 1'695'835'573'023'684'000);
  CHECK(d.bubbles[0].range.end == 1'695'835'583'881'571'000);
  CHECK(ra.verdict.dominant == "free");
  requireNoAscendWords(allText(ra));
  // Oracle: 98 ac2g pairs start in a runtime call and end at a device task (kernel, memcpy,
  // memset), all 98 inside a cpu_op. (139 pairs in all: the other 41 end on the cuda_sync records,
  // 16 Stream Sync + 20 Stream Wait Event + 5 Context Sync, which are no tasks.)
  const ChainCounts c = countChains(*t);
  CHECK(c.withLaunch == 98);
  CHECK(c.withTorchOp == 98);
}

TEST_CASE("Kineto ROCm trace: the device is the GPU 2 process, hipLaunchKernel chains", "[kineto]") {
  const auto t = test::load(test::shared(kMi250));
  const core::RankAnalysis ra = analyse(*t);
  REQUIRE(ra.devices.size() == 1);
  const core::DeviceAnalysis& d = ra.devices[0];
  // Oracle: device 2, 14 kernels on stream 0, computing 110881, e2e 8594445, free 8483564 ns,
  // 13 gaps of 10 us or more.
  CHECK(d.device == 2);
  CHECK(d.computed.computing == 110'881);
  CHECK(d.computed.e2e == 8'594'445);
  CHECK(d.computed.free == 8'483'564);
  CHECK(d.gapsFound == 13);
  requireNoAscendWords(allText(ra));
  // Forward / backward by the launching thread (the autograd thread 598009 ends the fwdbwd
  // flows): python3 over the raw file, summing the kernels whose ac2g start is on it: backward
  // 48.480 us, the others 62.401 us (the kernels do not overlap, so sums are unions).
  std::map<std::string, core::TimeNs> pass;
  for (const auto& p : d.compute.byPass) pass[p.key] = p.ns;
  CHECK(pass["forward"] == 62'401);
  CHECK(pass["backward"] == 48'480);
  // Oracle: 16 launches, all inside a cpu_op.
  const ChainCounts c = countChains(*t);
  CHECK(c.withLaunch == 16);
  CHECK(c.withTorchOp == 16);
}

TEST_CASE("Kineto CUPTI range-profiler trace: no device analysis, and it says why", "[kineto]") {
  const auto t = test::load(test::shared(kCuptiRange));
  const core::RankAnalysis ra = analyse(*t);
  // The 77 cuda_profiler_range records (python3: cat counts of the raw file) are kernel replays,
  // not a timeline: no device, and the note names them.
  CHECK(ra.devices.empty());
  CHECK(ra.verdict.headline == "No device activity");
  CHECK(ra.verdict.summary.find("cuda_profiler_range") != std::string::npos);
  requireNoAscendWords(allText(ra));
}

namespace {

// A torch_npu Kineto (PrivateUse1) trace, by hand (us). Host pid 100 (label CPU): ProfilerStep#1
// [0,200), aten::add [10,30) launching at 12, aten::mm [40,60) at 42, c10d::allreduce_ [70,80)
// at 71, aten::copy_ [90,100) at 91 (privateuse1_runtime, dur 0). Device pid 1 "NPU" label
// "Ascend NPU": stream 3 Add [20,30), MatMul [50,80), MEMCPY_ASYNC [100,120); stream 5
// hcom_allReduce__1_0 [75,95). ac2g ids 1..4 link each launch to its kernel.
const char* kNpuKineto = R"({"schemaVersion":1,"traceEvents":[
{"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"python3"}},
{"ph":"M","name":"process_labels","pid":100,"tid":0,"args":{"labels":"CPU"}},
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"NPU"}},
{"ph":"M","name":"process_labels","pid":1,"tid":0,"args":{"labels":"Ascend NPU"}},
{"ph":"M","name":"thread_name","pid":1,"tid":3,"args":{"name":"NPU stream 3"}},
{"ph":"M","name":"thread_name","pid":1,"tid":5,"args":{"name":"NPU stream 5"}},
{"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":200},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":10,"dur":20},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":12,"dur":0},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":40,"dur":20},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":42,"dur":0},
{"ph":"X","cat":"cpu_op","name":"c10d::allreduce_","pid":100,"tid":100,"ts":70,"dur":10},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":71,"dur":0},
{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":100,"tid":100,"ts":90,"dur":10},
{"ph":"X","cat":"privateuse1_runtime","name":"LaunchKernel","pid":100,"tid":100,"ts":91,"dur":0},
{"ph":"X","cat":"kernel","name":"Add","pid":1,"tid":3,"ts":20,"dur":10,"args":{"streamId":3,"type":"KERNEL_AIVEC"}},
{"ph":"X","cat":"kernel","name":"MatMul","pid":1,"tid":3,"ts":50,"dur":30,"args":{"streamId":3,"type":"KERNEL_AICORE"}},
{"ph":"X","cat":"kernel","name":"MEMCPY_ASYNC","pid":1,"tid":3,"ts":100,"dur":20,"args":{"streamId":3,"type":"MEMCPY"}},
{"ph":"X","cat":"kernel","name":"hcom_allReduce__1_0","pid":1,"tid":5,"ts":75,"dur":20,"args":{"streamId":5,"type":"KERNEL_AICPU"}},
{"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":3,"ts":20,"bp":"e"},
{"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":100,"ts":12},
{"ph":"s","cat":"ac2g","name":"ac2g","id":2,"pid":100,"tid":100,"ts":42},
{"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":1,"tid":3,"ts":50,"bp":"e"},
{"ph":"s","cat":"ac2g","name":"ac2g","id":3,"pid":100,"tid":100,"ts":71},
{"ph":"f","cat":"ac2g","name":"ac2g","id":3,"pid":1,"tid":5,"ts":75,"bp":"e"},
{"ph":"s","cat":"ac2g","name":"ac2g","id":4,"pid":100,"tid":100,"ts":91},
{"ph":"f","cat":"ac2g","name":"ac2g","id":4,"pid":1,"tid":3,"ts":100,"bp":"e"},
{"ph":"i","s":"g","name":"Record Window End","pid":"","tid":"","ts":200}
]})";

}  // namespace

TEST_CASE("Kineto torch_npu trace: Ascend NPU streams, HCCL kernel as communication, copy as neither", "[kineto]") {
  const auto t = test::loadMemory(kNpuKineto);
  const core::RankAnalysis ra = analyse(*t);
  REQUIRE(ra.devices.size() == 1);
  const core::DeviceAnalysis& d = ra.devices[0];
  CHECK(d.device == 1);  // the pid of the "Ascend NPU" process
  // By hand: compute [20,30) u [50,80) = 40 us; communication [75,95) = 20 us; C u M = [20,30) u
  // [50,95) = 55 us, so Not Overlapped 55 - 40 = 15 us; e2e 20..95 = 75 us; Free [30,50) = 20 us
  // (the copy [100,120) lies after the span and is in neither set).
  CHECK(d.computed.computing == 40'000);
  CHECK(d.computed.communication == 20'000);
  CHECK(d.computed.commNotOverlapped == 15'000);
  CHECK(d.computed.e2e == 75'000);
  CHECK(d.computed.free == 20'000);
  REQUIRE(d.bubbles.size() == 1);
  const core::Bubble& b = d.bubbles[0];
  CHECK(b.range.start == 30'000);
  CHECK(b.range.end == 50'000);
  // The gap ends at MatMul, launched at 42 us (after the gap start at 30): the host was late.
  CHECK(t->sliceName(b.after) == "MatMul");
  CHECK(b.launched == core::LaunchTiming::AfterGapStart);
  const core::ChainLink* launch = b.chain.find(core::ChainLayer::Launch);
  const core::ChainLink* op = b.chain.find(core::ChainLayer::TorchOp);
  REQUIRE(launch);
  REQUIRE(op);
  CHECK(t->sliceName(launch->slice) == "LaunchKernel");
  CHECK(t->sliceName(op->slice) == "aten::mm");
  REQUIRE(b.chain.launchLatency);
  CHECK(*b.chain.launchLatency == 8'000);  // 50 - 42 us
  // Each of the 4 tasks has its launch and torch op.
  const ChainCounts c = countChains(*t);
  CHECK(c.tasks == 4);
  CHECK(c.withLaunch == 4);
  CHECK(c.withTorchOp == 4);
  // The step window: the launches at 12..91 us lie in ProfilerStep#1.
  REQUIRE(ra.steps.size() == 1);
  CHECK(ra.steps[0].device.start == 20'000);
}

TEST_CASE("Kineto: an Ascend export keeps its roles (no GPU / Ascend NPU label)", "[kineto]") {
  // The L0 910B capture has an unnamed CPU-labelled process (the pruned CANN pid): it must stay
  // Other, not become Python (python3 over trace_view.json: process_labels values are CPU / NPU).
  const auto t = test::load(test::shared("corpus/ascend-pt-910b-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
  for (const core::Process& p : t->processes) {
    CHECK(p.role != core::Process::Role::KinetoDevice);
    if (p.label == "CPU" && p.name != "Python") CHECK(p.role != core::Process::Role::Python);
  }
  CHECK(!core::detail::isKinetoTrace(*t));
}


TEST_CASE("Kineto torch_npu trace: a runtime record at the kernel's own start is no launch, the op with its External id issued it", "[kineto]") {
  const auto t = test::loadMemory(test::kNpuKernelRecords);
  const core::RankAnalysis ra = analyse(*t);
  REQUIRE(ra.devices.size() == 1);
  const core::DeviceAnalysis& d = ra.devices[0];
  // The records are no launches: no launch latency, and no skew or "vertical launches" from them.
  CHECK(d.skew.tasksWithLaunch == 0);
  CHECK(d.skew.tightLaunches == 0);
  REQUIRE(d.bubbles.size() == 1);
  const core::Bubble& b = d.bubbles[0];
  CHECK(b.range.start == 10'010'000);
  CHECK(b.range.end == 20'000'000);
  CHECK(t->sliceName(b.after) == "MatMul");
  // The chain: aten::mm by its External id (not aten::zero_, which surrounds the record in time);
  // the record shown as what it is; no launch time, only the op's range.
  const core::ChainLink* op = b.chain.find(core::ChainLayer::TorchOp);
  const core::ChainLink* rec = b.chain.find(core::ChainLayer::Launch);
  REQUIRE(op);
  REQUIRE(rec);
  CHECK(t->sliceName(op->slice) == "aten::mm");
  CHECK(op->via == "External id");
  CHECK(rec->via == "kernel_record");
  CHECK_FALSE(b.chain.launchTs.has_value());
  CHECK_FALSE(b.chain.launchLatency.has_value());
  REQUIRE(b.chain.issuedDuring.has_value());
  CHECK(b.chain.issuedDuring->end == 60'000);
  // aten::mm ended 9,950 us before the device went idle: the kernel was queued, the host was not
  // idle-and-late (the old reading: launched at 20,000 us, after the gap's start, host idle).
  CHECK(b.launched == core::LaunchTiming::BeforeGapStart);
  CHECK(b.cause == core::BubbleCause::Queued);
  CHECK(b.detail.find("aten::mm") != std::string::npos);
  CHECK(b.detail.find("9.95 ms") != std::string::npos);
  // The step's device window starts at the first kernel issued from it.
  REQUIRE(ra.steps.size() == 1);
  CHECK(ra.steps[0].device.start == 10'000'000);
}

TEST_CASE("Kineto: a record without an External id that any op carries leaves the torch op unknown, never the op around it", "[kineto]") {
  std::string json = test::kNpuKernelRecords;
  const std::string from = R"("External id":12,"correlation":2)", to = R"("External id":99,"correlation":2)";
  json.replace(json.find(from), from.size(), to);
  const auto t = test::loadMemory(json.c_str());
  const core::RankAnalysis ra = analyse(*t);
  REQUIRE(ra.devices.size() == 1);
  REQUIRE(ra.devices[0].bubbles.size() == 1);
  const core::Bubble& b = ra.devices[0].bubbles[0];
  CHECK(b.chain.find(core::ChainLayer::TorchOp) == nullptr);
  CHECK(std::find(b.chain.missing.begin(), b.chain.missing.end(), core::ChainLayer::TorchOp) != b.chain.missing.end());
  CHECK(b.launched == core::LaunchTiming::Unknown);
  CHECK(b.cause != core::BubbleCause::HostIdle);
  CHECK(b.cause != core::BubbleCause::Queued);
}
