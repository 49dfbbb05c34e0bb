// SPDX-License-Identifier: MIT
// Hand-built traces for what the corpus lacks (docs/diagnosis.md): a launch flow that starts in a
// child of Node@launch, host/device clock skew, several steps, a device-only capture, a
// synchronisation running when the device ran dry, and ACLOP compile vs ACLOP execution. Every
// expected value is worked out by hand from the events written here (times in us in the JSON).

#include <catch2/catch.hpp>

#include "core/analysis/analysis.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::findSlice;
using npuscope::test::loadMemory;

namespace {

constexpr core::TimeNs us(long long v) { return v * 1000; }

std::string meta(int pid, const char* name, const char* label = nullptr) {
  std::string s = R"({"ph":"M","name":"process_name","pid":)" + std::to_string(pid) + R"(,"tid":0,"args":{"name":")" +
                  name + "\"}},\n";
  if (label)
    s += R"({"ph":"M","name":"process_labels","pid":)" + std::to_string(pid) + R"(,"tid":0,"args":{"labels":")" + label +
         "\"}},\n";
  return s;
}

std::string x(int pid, int tid, const char* name, const char* cat, long long ts, long long dur, const char* args = "{}") {
  return R"({"ph":"X","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"name":")" + name +
         R"(","cat":")" + cat + R"(","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         R"(,"args":)" + args + "},\n";
}

std::string flow(const char* ph, const char* cat, const char* id, int pid, int tid, long long ts) {
  return R"({"ph":")" + std::string(ph) + R"(","cat":")" + cat + R"(","name":")" + cat + R"(","id":")" + id +
         R"(","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) +
         R"(,"bp":"e"},)" + "\n";
}

std::string wrap(std::string body) {
  body.erase(body.find_last_of(','));  // the last comma
  return "[\n" + body + "\n]\n";
}

constexpr const char* kAiCore = R"({"Task Type":"AI_CORE"})";

/// Two ACLNN launches. The first launch's HostToDevice flow starts in Runtime@LaunchKernel, a child
/// of Node@launch, and its task starts 5 us before that flow start (clock skew); the second is an
/// ordinary launch 19 us before its task. pid 100 Python (tid 1 main, tid 2 dequeue thread), 200
/// CANN, 300 Ascend Hardware (NPU 0, Stream 5).
std::string skewTrace() {
  std::string b = meta(100, "Python", "CPU") + meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "ProfilerStep#1", "cpu_op", 0, 200);
  b += x(100, 1, "aten::add", "cpu_op", 10, 20);
  b += x(100, 1, "Enqueue", "enqueue", 12, 2);
  b += x(100, 1, "aten::mul", "cpu_op", 85, 15);
  b += x(100, 1, "Enqueue", "enqueue", 86, 2);
  b += x(100, 2, "Dequeue@aclnnAdd", "dequeue", 20, 40);
  b += x(100, 2, "Dequeue@aclnnMul", "dequeue", 90, 25);
  b += x(200, 2, "AscendCL@aclnnAdd", "", 22, 28);
  b += x(200, 2, "Node@launch", "", 30, 10);
  b += x(200, 2, "Runtime@LaunchKernel", "", 32, 4);
  b += x(200, 2, "AscendCL@aclnnMul", "", 95, 15);
  b += x(200, 2, "Node@launch", "", 100, 5);
  b += x(300, 5, "aclnnAdd_AddAiCore_Add", "", 28, 5, kAiCore);
  b += x(300, 5, "aclnnMul_MulAiCore_Mul", "", 120, 10, kAiCore);
  b += flow("s", "async_task_queue", "1", 100, 1, 12) + flow("f", "async_task_queue", "1", 100, 2, 20);
  b += flow("s", "async_task_queue", "2", 100, 1, 86) + flow("f", "async_task_queue", "2", 100, 2, 90);
  b += flow("s", "HostToDevice", "h1", 200, 2, 33) + flow("f", "HostToDevice", "h1", 300, 5, 28);
  b += flow("s", "HostToDevice", "h2", 200, 2, 101) + flow("f", "HostToDevice", "h2", 300, 5, 120);
  b += flow("s", "async_npu", "a1", 100, 1, 10) + flow("f", "async_npu", "a1", 300, 5, 28);
  b += flow("s", "async_npu", "a2", 100, 1, 85) + flow("f", "async_npu", "a2", 300, 5, 120);
  return wrap(b);
}

core::RankAnalysis analyze(const core::Trace& t) { return core::analyzeRank(t, nullptr, nullptr); }

}  // namespace

TEST_CASE("diagnosis: a launch flow starting in a child of Node@launch walks up to Node@launch", "[diagnosis]") {
  const auto t = loadMemory(skewTrace());
  const core::DispatchChain c = core::dispatchChain(*t, findSlice(*t, "aclnnAdd_AddAiCore_Add"));
  const core::ChainLink* launch = c.find(core::ChainLayer::Launch);
  REQUIRE(launch);
  CHECK(t->sliceName(launch->slice) == "Node@launch");
  CHECK(t->sliceRange(launch->slice).start == us(30));
  REQUIRE(c.find(core::ChainLayer::CannApi));
  CHECK(t->sliceName(c.find(core::ChainLayer::CannApi)->slice) == "AscendCL@aclnnAdd");
  REQUIRE(c.find(core::ChainLayer::Dequeue));
  CHECK(t->sliceName(c.find(core::ChainLayer::Dequeue)->slice) == "Dequeue@aclnnAdd");
  CHECK(c.path == "ACLNN");
  // Task at 28 us, Node@launch at 30 us: -2 us as recorded; the flow start is 33 us.
  REQUIRE(c.launchLatency);
  CHECK(*c.launchLatency == us(-2));
  REQUIRE(c.launchTs);
  CHECK(*c.launchTs == us(33));
}

TEST_CASE("diagnosis: the clock skew bound corrects every latency to a non-negative value", "[diagnosis]") {
  const auto t = loadMemory(skewTrace());
  // task - launch: 28 - 33 = -5 us and 120 - 101 = +19 us: the bound is 5 us over 2 launches.
  const core::ClockSkew k = core::clockSkew(*t, 0);
  REQUIRE(k.minTaskMinusLaunch);
  CHECK(*k.minTaskMinusLaunch == us(-5));
  CHECK(k.bound == us(5));
  CHECK(k.tasksWithLaunch == 2);
  CHECK(t->sliceName(k.worstTask) == "aclnnAdd_AddAiCore_Add");
  core::DispatchChain c = core::dispatchChain(*t, findSlice(*t, "aclnnAdd_AddAiCore_Add"));
  core::applySkew(c, k);
  REQUIRE(c.correctedLatency);
  CHECK(*c.correctedLatency == us(3));  // -2 + 5
  const std::string text = core::launchLatencyText(c);
  CHECK(text.find("launch latency 3 us") == 0);
  CHECK(text.find("recorded -2 us") != std::string::npos);
}

TEST_CASE("diagnosis: the bubble between two launches is slow dispatch, launched after the gap start", "[diagnosis]") {
  const auto t = loadMemory(skewTrace());
  const core::RankAnalysis a = analyze(*t);
  REQUIRE(a.devices.size() == 1);
  const core::DeviceAnalysis& d = a.devices[0];
  // Busy: [28,33] and [120,130] us; Free [33,120) = 87 us of an E2E of 102 us.
  CHECK(d.computed.free == us(87));
  CHECK(d.computed.e2e == us(102));
  REQUIRE(d.bubbles.size() == 1);
  const core::Bubble& b = d.bubbles[0];
  CHECK(b.range.start == us(33));
  CHECK(b.range.end == us(120));
  // Host busy in the gap: [33,60] (Dequeue@aclnnAdd) and [85,115] (aten::mul .. Dequeue@aclnnMul):
  // 57 of 87 us = 65.5% >= 50%, and aten::mul, Dequeue@aclnnMul, AscendCL@aclnnMul and Node@launch
  // start in it (>= 3): slow dispatch.
  CHECK(b.cause == core::BubbleCause::SlowDispatch);
  CHECK(b.hostCoverage == Approx(57.0 / 87.0));
  // Launched at 101 us host time, 96 us on the device clock (bound 5 us), after the gap start at 33.
  CHECK(b.launched == core::LaunchTiming::AfterGapStart);
  REQUIRE(b.chain.correctedLatency);
  CHECK(*b.chain.launchLatency == us(20));     // 120 - Node@launch at 100
  CHECK(*b.chain.correctedLatency == us(25));  // + 5
  CHECK(t->sliceName(b.chain.find(core::ChainLayer::TorchOp)->slice) == "aten::mul");
  // The verdict: Free 85.3% dominates; slow dispatch holds all 87 us of bubble time.
  CHECK(a.verdict.dominant == "free");
  CHECK(a.verdict.headline == "Dispatch/host bound");
  CHECK(a.verdict.topCause == core::BubbleCause::SlowDispatch);
  CHECK(a.verdict.topCauseNs == us(87));
  CHECK(a.verdict.topCauseShare == Approx(1.0));
  bool skewStated = false;
  for (const auto& f : a.verdict.findings) skewStated |= f.find("at least 5 us") != std::string::npos;
  CHECK(skewStated);
}

TEST_CASE("diagnosis: a device-only capture says the causes are unknown", "[diagnosis]") {
  std::string b = meta(300, "Ascend Hardware", "NPU 0");
  b += x(300, 5, "MatMul_1", "", 0, 10, kAiCore);
  b += x(300, 5, "MatMul_2", "", 50, 10, kAiCore);
  b += x(300, 5, "MatMul_3", "", 200, 10, kAiCore);
  const auto t = loadMemory(wrap(b));
  const core::RankAnalysis a = analyze(*t);
  REQUIRE(a.devices.size() == 1);
  // Free [10,50) and [60,200): 40 + 140 = 180 us of 210 us: dispatch/host bound, causes unknown.
  CHECK(a.devices[0].computed.free == us(180));
  REQUIRE(a.devices[0].bubbles.size() == 2);
  for (const auto& bb : a.devices[0].bubbles) CHECK(bb.cause == core::BubbleCause::Unknown);
  CHECK_FALSE(a.verdict.hostRecorded);
  CHECK(a.verdict.dominant == "free");
  CHECK(a.verdict.summary.find("not recorded") != std::string::npos);
  for (const auto& s : a.verdict.suggestions) CHECK(s.find("num_workers") == std::string::npos);
}

TEST_CASE("diagnosis: several steps get their own figures, by the start of each interval", "[diagnosis]") {
  std::string b = meta(100, "Python", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "ProfilerStep#1", "cpu_op", 0, 100);
  b += x(100, 1, "ProfilerStep#2", "cpu_op", 100, 100);
  b += x(300, 5, "K1", "", 10, 10, kAiCore);
  b += x(300, 5, "K2", "", 50, 10, kAiCore);
  b += x(300, 5, "K3", "", 110, 40, kAiCore);
  b += x(300, 5, "K4", "", 180, 10, kAiCore);
  const auto t = loadMemory(wrap(b));
  const core::RankAnalysis a = analyze(*t);
  REQUIRE(a.steps.size() == 2);
  // No async_npu flows: tasks go to the last step started before them. Step 1's device window is
  // [10, max(100, 60)) = [10,100); step 2's [110, max(200, 190)) = [110,200).
  CHECK(a.steps[0].device.start == us(10));
  CHECK(a.steps[0].device.end == us(100));
  CHECK(a.steps[1].device.start == us(110));
  CHECK(a.steps[1].device.end == us(200));
  const auto& d = a.devices.at(0);
  REQUIRE(d.steps.size() == 2);
  // Free [20,50) and [60,110) start in step 1 (30 + 50 us, full length, as torch_npu counts);
  // [150,180) in step 2. Computing 10 + 10 and 40 + 10.
  CHECK(d.steps[0].computed.computing == us(20));
  CHECK(d.steps[0].computed.free == us(80));
  CHECK(d.steps[1].computed.computing == us(50));
  CHECK(d.steps[1].computed.free == us(30));
  REQUIRE(d.bubbles.size() == 3);
  CHECK(d.bubbles[0].step == 1);  // the longest, [60,110)
  // Only ProfilerStep slices on the host: the host did no torch work in the gaps.
  for (const auto& bb : d.bubbles) CHECK(bb.cause == core::BubbleCause::HostIdle);
}

TEST_CASE("diagnosis: a synchronisation running when the device ran dry is the cause", "[diagnosis]") {
  std::string b = meta(100, "Python", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "aten::item", "cpu_op", 5, 35);
  b += x(300, 5, "K1", "", 0, 20, kAiCore);
  b += x(300, 5, "K2", "", 80, 10, kAiCore);
  const auto t = loadMemory(wrap(b));
  const auto a = analyze(*t);
  const auto& d = a.devices.at(0);
  REQUIRE(d.bubbles.size() == 1);
  // Gap [20,80); aten::item [5,40) was running at 20 and covers 20 of 60 us (33%).
  CHECK(d.bubbles[0].cause == core::BubbleCause::Synchronization);
  REQUIRE(d.bubbles[0].evidence.size() == 1);
  CHECK(t->sliceName(d.bubbles[0].evidence[0]) == "aten::item");
  CHECK(d.bubbles[0].detail.find("33% of the gap") != std::string::npos);
}

TEST_CASE("diagnosis: ACLOP compile and ACLOP execution are told apart by the compile step", "[diagnosis]") {
  for (const long long compileUs : {68LL, 8LL}) {
    std::string b = meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
    b += x(200, 2, "AscendCL@aclopCompileAndExecute", "", 10, 90);
    b += x(200, 2, "AscendCL@opCompile", "", 12, compileUs);
    b += x(300, 5, "K1", "", 0, 5, kAiCore);
    b += x(300, 5, "K2", "", 105, 5, kAiCore);
    const auto t = loadMemory(wrap(b));
    const auto a = analyze(*t);
    const auto& d = a.devices.at(0);
    REQUIRE(d.bubbles.size() == 1);
    INFO("compile step " << compileUs << " us of the 100 us gap [5,105)");
    if (compileUs == 68) {
      CHECK(d.bubbles[0].cause == core::BubbleCause::AclopCompile);  // 68% >= 25%
      CHECK(t->sliceName(d.bubbles[0].evidence.at(0)) == "AscendCL@opCompile");
    } else {
      CHECK(d.bubbles[0].cause == core::BubbleCause::AclopExecute);  // 8% < 25%; the API covers 90%
      CHECK(d.bubbles[0].detail.find("compile step 8 us") != std::string::npos);
      CHECK(d.bubbles[0].detail.find("the rest (82 us)") != std::string::npos);
    }
  }
}

TEST_CASE("diagnosis: a gap whose task was launched before it is queued on the device, not a host cause", "[diagnosis]") {
  std::string b = meta(100, "Python", "CPU") + meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "aten::item", "cpu_op", 8, 42);  // a sync running at the gap start: not the cause here
  b += x(200, 2, "Node@launch", "", 5, 2);
  b += x(300, 5, "K1", "", 0, 10, kAiCore);
  b += x(300, 5, "K2", "", 60, 10, kAiCore);
  b += flow("s", "HostToDevice", "h2", 200, 2, 6) + flow("f", "HostToDevice", "h2", 300, 5, 60);
  const auto t = loadMemory(wrap(b));
  const auto a = analyze(*t);
  const auto& d = a.devices.at(0);
  REQUIRE(d.bubbles.size() == 1);
  // Gap [10,60); K2 launched at 6 us (one launch: 60 - 6 = 54 us, no skew), before the gap.
  CHECK(d.bubbles[0].launched == core::LaunchTiming::BeforeGapStart);
  CHECK(d.bubbles[0].cause == core::BubbleCause::Queued);
  CHECK(d.bubbles[0].detail.find("K2 was launched 4 us before the device went idle") == 0);
}

TEST_CASE("diagnosis: enqueued before the gap, launched after it: the dequeue thread, not the sync", "[diagnosis]") {
  std::string b = meta(100, "Python", "CPU") + meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "aten::add", "cpu_op", 0, 5);
  b += x(100, 1, "Enqueue", "enqueue", 1, 1);
  b += x(100, 1, "aten::item", "cpu_op", 6, 64);         // the main thread syncs from 6 to 70 us
  b += x(100, 2, "Dequeue@aclnnMul", "dequeue", 8, 30);  // the dequeue thread is busy with an earlier op
  b += x(100, 2, "Dequeue@aclnnAdd", "dequeue", 40, 15);
  b += x(200, 2, "AscendCL@aclnnAdd", "", 41, 13);
  b += x(200, 2, "Node@launch", "", 45, 2);
  b += x(300, 5, "K1", "", 0, 10, kAiCore);
  b += x(300, 5, "aclnnAdd_AddAiCore_Add", "", 60, 10, kAiCore);
  b += flow("s", "async_task_queue", "1", 100, 1, 1) + flow("f", "async_task_queue", "1", 100, 2, 40);
  b += flow("s", "HostToDevice", "h2", 200, 2, 46) + flow("f", "HostToDevice", "h2", 300, 5, 60);
  const auto t = loadMemory(wrap(b));
  const auto a = analyze(*t);
  const auto& d = a.devices.at(0);
  REQUIRE(d.bubbles.size() == 1);
  const core::Bubble& bb = d.bubbles[0];
  // Gap [10,60): launched at 46 us (after 10), enqueued at 1 us (before): queue side.
  CHECK(bb.launched == core::LaunchTiming::AfterGapStart);
  CHECK(bb.cause == core::BubbleCause::SlowDispatch);
  CHECK(bb.detail.find("queue side: Dequeue@aclnnAdd was enqueued 9 us before the device went idle but dequeued "
                       "39 us after its Enqueue") == 0);
  REQUIRE(bb.chain.queueWait);
  CHECK(*bb.chain.queueWait == us(39));  // Dequeue 40 - Enqueue 1
  REQUIRE(bb.evidence.size() == 2);
  CHECK(t->sliceName(bb.evidence[0]) == "Enqueue");
}

TEST_CASE("diagnosis: one mis-bound launch does not shift the clock skew bound", "[diagnosis]") {
  std::string b = meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  // task - launch: 100-80 = 20, 200-180 = 20, 300-279 = 21, 400-378 = 22 us, and 500-901 = -401 us.
  const long long tasks[] = {100, 200, 300, 400, 500}, launches[] = {80, 180, 279, 378, 901};
  for (int i = 0; i < 5; ++i) {
    // (Appended rather than "h" + std::to_string(i): GCC 12 misreports that with -Wrestrict.)
    std::string id = "h", name = "K";
    id += std::to_string(i);
    name += std::to_string(i);
    b += x(200, 2, "Node@launch", "", launches[i], 2);
    b += x(300, 5, name.c_str(), "", tasks[i], 5, kAiCore);
    b += flow("s", "HostToDevice", id.c_str(), 200, 2, launches[i]) + flow("f", "HostToDevice", id.c_str(), 300, 5, tasks[i]);
  }
  const auto t = loadMemory(wrap(b));
  const core::ClockSkew k = core::clockSkew(*t, 0);
  // Sorted: -401, 20, 20, 21, 22 us. -401 has no two others within 5 us; 20 has (20, 21): m = 20 us.
  REQUIRE(k.minTaskMinusLaunch);
  CHECK(*k.minTaskMinusLaunch == us(20));
  CHECK(k.bound == 0);
  CHECK(k.outliers == 1);
  CHECK(k.tasksWithLaunch == 5);
  core::DispatchChain c = core::dispatchChain(*t, findSlice(*t, "K4"));
  core::applySkew(c, k);
  CHECK(c.suspect);
  CHECK_FALSE(c.correctedLatency);
  CHECK(core::launchLatencyText(c).find("launch latency unknown") == 0);
}

TEST_CASE("diagnosis: a gap that ends at a collective walks the collective's launch chain", "[diagnosis]") {
  std::string b = meta(200, "CANN", "CPU") + meta(300, "Ascend Hardware", "NPU 0") + meta(400, "Communication", "NPU 0");
  b += R"({"ph":"M","name":"thread_name","pid":400,"tid":1,"args":{"name":"Group 0 Communication"}},)" "\n";
  b += x(200, 2, "AscendCL@hcom_allReduce_", "", 0, 100);
  b += x(200, 2, "Node@launch", "", 5, 5);
  b += x(300, 5, "K1", "", 0, 20, kAiCore);
  b += x(300, 6, "SDMA", "", 80, 10);
  b += x(400, 1, "hcom_allReduce__1", "", 80, 40);
  b += flow("s", "HostToDevice", "h1", 200, 2, 6) + flow("f", "HostToDevice", "h1", 400, 1, 80);
  const auto t = loadMemory(wrap(b));
  const auto a = analyze(*t);
  const auto& d = a.devices.at(0);
  REQUIRE(d.bubbles.size() == 1);
  const core::Bubble& bb = d.bubbles[0];
  // Gap [20,80): the collective starts at 80, its first device task (SDMA) has no launch flow.
  CHECK(bb.endsAtCollective);
  CHECK(t->sliceName(bb.after) == "hcom_allReduce__1");
  REQUIRE(bb.chain.find(core::ChainLayer::CannApi));
  CHECK(t->sliceName(bb.chain.find(core::ChainLayer::CannApi)->slice) == "AscendCL@hcom_allReduce_");
  REQUIRE(bb.chain.find(core::ChainLayer::Launch));
  // HCCL submits inside its own launch slices: when is not known from the flow.
  CHECK(bb.launched == core::LaunchTiming::Unknown);
  // AscendCL@hcom_allReduce_ [0,100) covers the whole 60 us gap: the collective's launch held the queue.
  CHECK(bb.cause == core::BubbleCause::SlowDispatch);
  CHECK(bb.detail.find("collective launch: AscendCL@hcom_allReduce_") == 0);
  CHECK(bb.detail.find("100% of the gap") != std::string::npos);
}

TEST_CASE("diagnosis: launch tightness and fan-out per torch op", "[diagnosis]") {
  {
    // skewTrace: task - launch = -5 and +19 us, bound 5 us: corrected 0 and 24 us. Median of the
    // two raw values (the upper middle, index 1) = 19 + 5 = 24 us; one launch within 20 us.
    const auto t = loadMemory(skewTrace());
    const core::ClockSkew k = core::clockSkew(*t, 0);
    REQUIRE(k.medianLatency);
    CHECK(*k.medianLatency == us(24));
    CHECK(k.tightLaunches == 1);
    // aten::add and aten::mul each launched one task.
    const core::FanOut f = core::fanOut(*t, 0);
    CHECK(f.ops == 2);
    CHECK(f.widestTasks == 1);
    CHECK(f.opsWithMany == 0);
  }
  {
    // One torch op launching 17 tasks, another launching 2.
    std::string b = meta(100, "Python", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
    b += x(100, 1, "aten::big", "cpu_op", 0, 10);
    b += x(100, 1, "aten::small", "cpu_op", 20, 10);
    for (int i = 0; i < 19; ++i) {
      std::string name = "K", id = "a";
      name += std::to_string(i);
      id += std::to_string(i);
      b += x(300, 5, name.c_str(), "", 100 + 10 * i, 5, kAiCore);
      b += flow("s", "async_npu", id.c_str(), 100, 1, i < 17 ? 0 : 20) + flow("f", "async_npu", id.c_str(), 300, 5, 100 + 10 * i);
    }
    const auto t = loadMemory(wrap(b));
    const core::FanOut f = core::fanOut(*t, 0);
    CHECK(f.ops == 2);
    CHECK(f.widestTasks == 17);
    CHECK(t->sliceName(f.widestOp) == "aten::big");
    CHECK(f.opsWithMany == 1);  // 17 >= 8; 2 < 8
  }
}

TEST_CASE("diagnosis: the advisor fixture's launches are nearly vertical", "[diagnosis][corpus]") {
  // Python on the raw JSON: the 274 HostToDevice s/f pairs by id, task - launch sorted: min
  // -18591 ns (the bound), median (index 137) -8321 ns -> 10270 ns corrected; 228 of them
  // <= 20000 ns once corrected.
  const auto t = npuscope::test::load(npuscope::test::shared(
      "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json"));
  const core::ClockSkew k = core::clockSkew(*t, -1);
  CHECK(k.tasksWithLaunch == 274);
  CHECK(k.bound == 18'591);
  REQUIRE(k.medianLatency);
  CHECK(*k.medianLatency == 10'270);
  CHECK(k.tightLaunches == 228);
}
