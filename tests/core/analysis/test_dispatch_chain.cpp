// SPDX-License-Identifier: MIT
// Dispatch chains (core::dispatchChain) checked against an independent tracer.
//
// The expected values are literals taken from tools/oracles/trace_chains.py (Python standard library,
// written from ../shared/docs/ascend-profiling-format.md §2.6 and §3 without reading
// core/analysis/dispatch_chain.cpp). Several tasks were also traced by hand from the raw JSON
// (flow ids and timestamps): docs/dispatch-chains.md.
//
// Regenerate one task's values with e.g.
//   python3 tools/oracles/trace_chains.py <trace_view.json> --json
//       --task "Stream 2@1736408883716197363"
//
// For every task: all links (layer, name, exact start ns) in order, the missing layers, the path
// and the launch latency (device task start - Node@launch start, else the HostToDevice `s` ts,
// else the CANN API start, else the Dequeue start: docs/diagnosis.md §4). The Python API layer comes only from
// python_function events (with_stack); without them it is reported missing.
//
// T11 (a Level0 MEMCPY_ASYNC task with a HostToDevice flow but no async_npu flow) was the one
// disagreement of the first round: core now keeps flow starts that bind no slice
// (Trace::unboundStarts) and finds the Dequeue from their tid and ts, as the independent tracer
// and torch_npu's acl_ts -> Dequeue rule (format doc §3 step 2) do.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/model/trace.h"
#include "tests/core/test_util.h"

namespace {

using npuscope::core::ChainLayer;
using npuscope::core::DispatchChain;
using npuscope::core::SliceRef;
using npuscope::core::TimeNs;
using npuscope::core::Trace;
using L = ChainLayer;

const char* const kL1 = "corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
const char* const kL0a = "corpus/ascend-pt-910a-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
const char* const kL0b = "corpus/ascend-pt-910b-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
const char* const kAdvisor =
    "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json";

struct Link {
  ChainLayer layer;
  std::string name;
  TimeNs start;
};

struct Expected {
  const char* file = nullptr;
  std::string stream;  ///< thread name of the Ascend Hardware lane
  std::string task;
  TimeNs start = 0;
  std::vector<Link> links;  ///< in chain order, PythonApi first, DeviceTask last
  std::vector<ChainLayer> missing;
  std::string path;
  std::optional<TimeNs> launchLatency;
};

/// Each corpus file is loaded once for all test cases.
std::shared_ptr<const Trace> traceOf(const char* rel) {
  static std::map<std::string, std::shared_ptr<const Trace>> cache;
  auto it = cache.find(rel);
  if (it != cache.end()) return it->second;
  auto t = npuscope::test::load(npuscope::test::shared(rel));
  cache.emplace(rel, t);
  return t;
}

/// The Ascend Hardware task on `stream` starting exactly at `start`.
SliceRef findTask(const Trace& t, const std::string& stream, const std::string& name, TimeNs start) {
  const int lane = npuscope::test::laneIndex(t, "Ascend Hardware", stream);
  REQUIRE(lane >= 0);
  const auto& l = t.lanes[static_cast<std::size_t>(lane)];
  for (std::uint32_t i = 0; i < l.sliceCount(); ++i) {
    SliceRef r{static_cast<std::uint32_t>(lane), i};
    if (l.start[i] == start && t.sliceName(r) == name) return r;
  }
  FAIL("no task " << name << " at " << start << " on Ascend Hardware / " << stream);
  return {};
}

std::string describe(const Trace& t, const DispatchChain& c) {
  std::string s;
  for (const auto& k : c.links)
    s += std::string(npuscope::core::chainLayerKey(k.layer)) + " " + std::string(t.sliceName(k.slice)) + " @" +
         std::to_string(t.sliceRange(k.slice).start) + " [" + std::string(k.via) + "]\n";
  s += "missing:";
  for (auto m : c.missing) s += std::string(" ") + npuscope::core::chainLayerKey(m);
  s += "\npath: " + c.path + "\nlatency: " + (c.launchLatency ? std::to_string(*c.launchLatency) : "none");
  return s;
}

void checkChain(const Expected& e) {
  auto trace = traceOf(e.file);
  const Trace& t = *trace;
  const SliceRef task = findTask(t, e.stream, e.task, e.start);
  const DispatchChain c = npuscope::core::dispatchChain(t, task);
  INFO("core chain:\n" << describe(t, c));

  REQUIRE(c.links.size() == e.links.size());
  for (std::size_t i = 0; i < e.links.size(); ++i) {
    INFO("link " << i << " expected " << npuscope::core::chainLayerKey(e.links[i].layer) << " " << e.links[i].name);
    CHECK(c.links[i].layer == e.links[i].layer);
    CHECK(std::string(t.sliceName(c.links[i].slice)) == e.links[i].name);
    CHECK(t.sliceRange(c.links[i].slice).start == e.links[i].start);
  }
  CHECK(c.missing == e.missing);
  CHECK(c.path == e.path);
  CHECK(c.launchLatency == e.launchLatency);
  // find() agrees with the link list.
  for (const auto& l : e.links) {
    const auto* f = c.find(l.layer);
    REQUIRE(f != nullptr);
    CHECK(std::string(t.sliceName(f->slice)) == l.name);
  }
  for (auto m : e.missing) CHECK(c.find(m) == nullptr);
}

}  // namespace

// T1: 910B Level1, ACLNN, full chain (Node@launch).
// Expected values: tools/oracles/trace_chains.py --lead-python-fallback; also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T1.
//   HostToDevice id 40015045643435245567: s ts 1736408883716204300 on CANN / Thread 3099702 -> f ts 1736408883716197363
//   async_task_queue id 8247: s ts 1736408883716162630 -> f ts 1736408883716181550
//   async_npu id 1736408883716197363: s ts 1736408883716017100 -> f ts 1736408883716197363
TEST_CASE("chain T1: l1 aclnnAddmm_MatMulCommon_MatMulV2 @1736408883716197363", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "aclnnAddmm_MatMulCommon_MatMulV2";
  e.start = 1736408883716197363LL;
  e.links = {
      {L::PythonApi, "<built-in function linear>", 1736408883715005870LL},
      {L::TorchOp, "aclnnAddmm", 1736408883716017100LL},
      {L::Enqueue, "Enqueue", 1736408883716162630LL},
      {L::Dequeue, "Dequeue@aclnnAddmm", 1736408883716181550LL},
      {L::CannApi, "AscendCL@aclnnAddmm", 1736408883716193090LL},
      {L::Launch, "Node@launch", 1736408883716194640LL},
      {L::DeviceTask, "aclnnAddmm_MatMulCommon_MatMulV2", 1736408883716197363LL},
  };
  e.missing = {};
  e.path = "ACLNN";
  e.launchLatency = 2723LL;
  checkChain(e);
}

// T2: 910B Level1, ACLOP: trans_TransData after Dequeue@Conv2D inside aclopCompileAndExecute.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start); also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T2.
//   HostToDevice id 40004068119343529983: s ts 1736408883704645110 on CANN / Thread 3099702 -> f ts 1736408883704643212
//   async_task_queue id 8228: s ts 1736408883702948130 -> f ts 1736408883702967720
//   async_npu id 1736408883704643212: s ts 1736408883702792080 -> f ts 1736408883704643212
TEST_CASE("chain T2: l1 trans_TransData_0 @1736408883704643212", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "trans_TransData_0";
  e.start = 1736408883704643212LL;
  e.links = {
      {L::PythonApi, "<built-in method conv2d of type object at 0xffffa3bfcf10>", 1736408883701988070LL},
      {L::TorchOp, "Conv2D", 1736408883702792080LL},
      {L::Enqueue, "Enqueue", 1736408883702948130LL},
      {L::Dequeue, "Dequeue@Conv2D", 1736408883702967720LL},
      {L::CannApi, "AscendCL@aclopCompileAndExecute", 1736408883702973660LL},
      {L::Launch, "Node@launch", 1736408883704625030LL},
      {L::DeviceTask, "trans_TransData_0", 1736408883704643212LL},
  };
  e.missing = {};
  e.path = "ACLOP";
  e.launchLatency = 18182LL;
  checkChain(e);
}

// T3: 910B Level1, ACLOP: the Conv2D kernel of the same Dequeue@Conv2D (second Node@launch).
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 40004631069296951295: s ts 1736408883704716400 on CANN / Thread 3099702 -> f ts 1736408883704903918
//   async_task_queue id 8228: s ts 1736408883702948130 -> f ts 1736408883702967720
//   async_npu id 1736408883704903918: s ts 1736408883702792080 -> f ts 1736408883704903918
TEST_CASE("chain T3: l1 Conv2D1 @1736408883704903918", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "Conv2D1";
  e.start = 1736408883704903918LL;
  e.links = {
      {L::PythonApi, "<built-in method conv2d of type object at 0xffffa3bfcf10>", 1736408883701988070LL},
      {L::TorchOp, "Conv2D", 1736408883702792080LL},
      {L::Enqueue, "Enqueue", 1736408883702948130LL},
      {L::Dequeue, "Dequeue@Conv2D", 1736408883702967720LL},
      {L::CannApi, "AscendCL@aclopCompileAndExecute", 1736408883702973660LL},
      {L::Launch, "Node@launch", 1736408883704713200LL},
      {L::DeviceTask, "Conv2D1", 1736408883704903918LL},
  };
  e.missing = {};
  e.path = "ACLOP";
  e.launchLatency = 190718LL;
  checkChain(e);
}

// T4: 910B Level1, ACLNN on the autograd (backward) thread: no python_function ancestor, so the Python API is the lead's fallback (outermost ancestor).
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 40024334317666697215: s ts 1736408883730908300 on CANN / Thread 3099702 -> f ts 1736408883731013819
//   async_task_queue id 8278: s ts 1736408883730886940 -> f ts 1736408883730897700
//   async_npu id 1736408883731013819: s ts 1736408883730885000 -> f ts 1736408883731013819
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T4: l1 aclnnMm_MatMulCommon_MemSet @1736408883731013819", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "aclnnMm_MatMulCommon_MemSet";
  e.start = 1736408883731013819LL;
  e.links = {
      {L::TorchOp, "aclnnMm", 1736408883730885000LL},
      {L::Enqueue, "Enqueue", 1736408883730886940LL},
      {L::Dequeue, "Dequeue@aclnnMm", 1736408883730897700LL},
      {L::CannApi, "AscendCL@aclnnMm", 1736408883730903710LL},
      {L::Launch, "Node@launch", 1736408883730904740LL},
      {L::DeviceTask, "aclnnMm_MatMulCommon_MemSet", 1736408883731013819LL},
  };
  e.missing = {L::PythonApi};
  e.path = "ACLNN";
  e.launchLatency = 109079LL;
  checkChain(e);
}

// T5: 910B Level1, H2D copy: HostToDevice s bound to AscendCL@aclrtMemcpyAsync (no Node@launch), path undetermined.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 938: s ts 1736408883701404510 on CANN / Thread 3099702 -> f ts 1736408883701441769
//   HostToDevice s bound inside AscendCL@aclrtMemcpyAsync (older CANN, no Node@launch)
//   async_task_queue id 8227: s ts 1736408883701385920 -> f ts 1736408883701399980
//   async_npu id 1736408883701441769: s ts 1736408883701331580 -> f ts 1736408883701441769
TEST_CASE("chain T5: l1 MEMCPY_ASYNC @1736408883701441769", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "MEMCPY_ASYNC";
  e.start = 1736408883701441769LL;
  e.links = {
      {L::PythonApi, "<built-in method to of Tensor object at 0xfffdb8e09ea0>", 1736408883700973840LL},
      {L::TorchOp, "acl_memcpy_host_to_device", 1736408883701331580LL},
      {L::Enqueue, "Enqueue", 1736408883701385920LL},
      {L::Dequeue, "Dequeue@acl_memcpy_host_to_device", 1736408883701399980LL},
      {L::CannApi, "AscendCL@aclrtMemcpyAsync", 1736408883701404510LL},
      {L::DeviceTask, "MEMCPY_ASYNC", 1736408883701441769LL},
  };
  e.missing = {L::Launch};
  e.path = "";
  e.launchLatency = 37259LL;
  checkChain(e);
}

// T6: 910B Level1, MEMCPY_ASYNC fan-out sibling: HostToDevice s has two f, this task has no async_npu flow, torch op = Enqueue's parent.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 1404: s ts 1736408883737250330 on CANN / Thread 3099702 -> f ts 1736408883738071240
//   HostToDevice s bound inside AscendCL@aclopCompileAndExecute (older CANN, no Node@launch)
//   async_task_queue id 8322: s ts 1736408883733911110 -> f ts 1736408883737247960
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T6: l1 MEMCPY_ASYNC @1736408883738071240", "[chain]") {
  Expected e;
  e.file = kL1;
  e.stream = "Stream 2";
  e.task = "MEMCPY_ASYNC";
  e.start = 1736408883738071240LL;
  e.links = {
      {L::TorchOp, "ReduceSum", 1736408883733908840LL},
      {L::Enqueue, "Enqueue", 1736408883733911110LL},
      {L::Dequeue, "Dequeue@ReduceSum", 1736408883737247960LL},
      {L::CannApi, "AscendCL@aclopCompileAndExecute", 1736408883737250330LL},
      {L::DeviceTask, "MEMCPY_ASYNC", 1736408883738071240LL},
  };
  e.missing = {L::PythonApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = 820910LL;
  checkChain(e);
}

// T7: 910A Level0, ACLOP: Mul51 after Dequeue@Mul, no CANN lane.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start); also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T7.
//   HostToDevice id 23850500680895692799: s ts 1727592872440162776 on 40508640 / Thread 41958 -> f ts 1727592872440165966
//   HostToDevice s is unbound (Level0: CANN slices pruned)
//   async_task_queue id 11906: s ts 1727592872440107244 -> f ts 1727592872440123287
//   async_npu id 1727592872440165966: s ts 1727592872440106571 -> f ts 1727592872440165966
TEST_CASE("chain T7: l0a Mul51 @1727592872440165966", "[chain]") {
  Expected e;
  e.file = kL0a;
  e.stream = "Stream 1";
  e.task = "Mul51";
  e.start = 1727592872440165966LL;
  e.links = {
      {L::PythonApi, "main.py(467): update", 1727592872439993122LL},
      {L::TorchOp, "Mul", 1727592872440106571LL},
      {L::Enqueue, "Enqueue", 1727592872440107244LL},
      {L::Dequeue, "Dequeue@Mul", 1727592872440123287LL},
      {L::DeviceTask, "Mul51", 1727592872440165966LL},
  };
  e.missing = {L::CannApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = 3190LL;
  checkChain(e);
}

// T8: 910A Level0, ACLOP on the backward thread (fallback Python API).
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 23877522278659915775: s ts 1727592872452179392 on 40508640 / Thread 41958 -> f ts 1727592872452165826
//   HostToDevice s is unbound (Level0: CANN slices pruned)
//   async_task_queue id 11960: s ts 1727592872443215840 -> f ts 1727592872452079617
//   async_npu id 1727592872452165826: s ts 1727592872443211691 -> f ts 1727592872452165826
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T8: l0a Conv2DBackpropFilter75 @1727592872452165826", "[chain]") {
  Expected e;
  e.file = kL0a;
  e.stream = "Stream 1";
  e.task = "Conv2DBackpropFilter75";
  e.start = 1727592872452165826LL;
  e.links = {
      {L::TorchOp, "Conv2DBackpropFilter", 1727592872443211691LL},
      {L::Enqueue, "Enqueue", 1727592872443215840LL},
      {L::Dequeue, "Dequeue@Conv2DBackpropFilter", 1727592872452079617LL},
      {L::DeviceTask, "Conv2DBackpropFilter75", 1727592872452165826LL},
  };
  e.missing = {L::PythonApi, L::CannApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = -13566LL;
  checkChain(e);
}

// T9: 910B Level0, ACLNN: aclnnAddmm, no CANN lane.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start); also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T9.
//   HostToDevice id 40015608593388666879: s ts 1736405443893268530 on 3089232096 / Thread 3020403 -> f ts 1736405443893284217
//   HostToDevice s is unbound (Level0: CANN slices pruned)
//   async_task_queue id 8255: s ts 1736405443893236470 -> f ts 1736405443893251570
//   async_npu id 1736405443893284217: s ts 1736405443893084630 -> f ts 1736405443893284217
TEST_CASE("chain T9: l0b aclnnAddmm_MatMulCommon_MatMulV2 @1736405443893284217", "[chain]") {
  Expected e;
  e.file = kL0b;
  e.stream = "Stream 2";
  e.task = "aclnnAddmm_MatMulCommon_MatMulV2";
  e.start = 1736405443893284217LL;
  e.links = {
      {L::PythonApi, "<built-in function linear>", 1736405443892048110LL},
      {L::TorchOp, "aclnnAddmm", 1736405443893084630LL},
      {L::Enqueue, "Enqueue", 1736405443893236470LL},
      {L::Dequeue, "Dequeue@aclnnAddmm", 1736405443893251570LL},
      {L::DeviceTask, "aclnnAddmm_MatMulCommon_MatMulV2", 1736405443893284217LL},
  };
  e.missing = {L::CannApi, L::Launch};
  e.path = "ACLNN";
  e.launchLatency = 15687LL;
  checkChain(e);
}

// T10: 910B Level0, ACLOP: trans_TransData_0 after Dequeue@Conv2D.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 40004631069296951295: s ts 1736405443881392280 on 3089232096 / Thread 3020403 -> f ts 1736405443881410320
//   HostToDevice s is unbound (Level0: CANN slices pruned)
//   async_task_queue id 8236: s ts 1736405443880056260 -> f ts 1736405443880077040
//   async_npu id 1736405443881410320: s ts 1736405443879904350 -> f ts 1736405443881410320
TEST_CASE("chain T10: l0b trans_TransData_0 @1736405443881410320", "[chain]") {
  Expected e;
  e.file = kL0b;
  e.stream = "Stream 2";
  e.task = "trans_TransData_0";
  e.start = 1736405443881410320LL;
  e.links = {
      {L::PythonApi, "<built-in method conv2d of type object at 0xffffa9fccf10>", 1736405443879047430LL},
      {L::TorchOp, "Conv2D", 1736405443879904350LL},
      {L::Enqueue, "Enqueue", 1736405443880056260LL},
      {L::Dequeue, "Dequeue@Conv2D", 1736405443880077040LL},
      {L::DeviceTask, "trans_TransData_0", 1736405443881410320LL},
  };
  e.missing = {L::CannApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = 18040LL;
  checkChain(e);
}

// T11: 910B Level0, MEMCPY_ASYNC fan-out sibling without async_npu: DISAGREES with core (see docs/dispatch-chains.md).
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start); also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T11.
//   HostToDevice id 691: s ts 1736405443913203740 on 3089232096 / Thread 3020403 -> f ts 1736405443913930069
//   HostToDevice s is unbound (Level0: CANN slices pruned)
//   async_task_queue id 8330: s ts 1736405443911575970 -> f ts 1736405443913201110
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T11: l0b MEMCPY_ASYNC @1736405443913930069", "[chain]") {
  Expected e;
  e.file = kL0b;
  e.stream = "Stream 2";
  e.task = "MEMCPY_ASYNC";
  e.start = 1736405443913930069LL;
  e.links = {
      {L::TorchOp, "ReduceSum", 1736405443911574330LL},
      {L::Enqueue, "Enqueue", 1736405443911575970LL},
      {L::Dequeue, "Dequeue@ReduceSum", 1736405443913201110LL},
      {L::DeviceTask, "MEMCPY_ASYNC", 1736405443913930069LL},
  };
  e.missing = {L::PythonApi, L::CannApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = 726329LL;
  checkChain(e);
}

// T12: older CANN (2024 advisor sample), ACLNN: HostToDevice s inside AscendCL@aclnnAddmm, no Node@launch; device clock ahead of host (negative latency).
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start); also traced by hand (grep of the raw JSON), docs/dispatch-chains.md T12.
//   HostToDevice id 498216206335: s ts 1704161511426066738 on CANN / Thread 439084 -> f ts 1704161511426052702
//   HostToDevice s bound inside AscendCL@aclnnAddmm (older CANN, no Node@launch)
//   async_task_queue id 164: s ts 1704161511423669864 -> f ts 1704161511426057978
//   async_npu id 1704161511426052702: s ts 1704161511423669464 -> f ts 1704161511426052702
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T12: adv aclnnAddmm_Muls_Muls @1704161511426052702", "[chain]") {
  Expected e;
  e.file = kAdvisor;
  e.stream = "Stream 3";
  e.task = "aclnnAddmm_Muls_Muls";
  e.start = 1704161511426052702LL;
  e.links = {
      {L::TorchOp, "aclnnAddmm", 1704161511423669464LL},
      {L::Enqueue, "Enqueue", 1704161511423669864LL},
      {L::Dequeue, "Dequeue@aclnnAddmm", 1704161511426057978LL},
      {L::CannApi, "AscendCL@aclnnAddmm", 1704161511426063628LL},
      {L::DeviceTask, "aclnnAddmm_Muls_Muls", 1704161511426052702LL},
  };
  e.missing = {L::PythonApi, L::Launch};
  e.path = "ACLNN";
  e.launchLatency = -14036LL;  // task - HostToDevice s ts (no Node@launch in this CANN)
  checkChain(e);
}

// T13: older CANN, ACLOP: trans_TransData_1 inside AscendCL@aclopCompileAndExecute.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 270582939647: s ts 1704161511424145799 on CANN / Thread 439084 -> f ts 1704161511424137431
//   HostToDevice s bound inside AscendCL@aclopCompileAndExecute (older CANN, no Node@launch)
//   async_task_queue id 158: s ts 1704161511423205670 -> f ts 1704161511423217990
//   async_npu id 1704161511424137431: s ts 1704161511423205030 -> f ts 1704161511424137431
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T13: adv trans_TransData_1 @1704161511424137431", "[chain]") {
  Expected e;
  e.file = kAdvisor;
  e.stream = "Stream 3";
  e.task = "trans_TransData_1";
  e.start = 1704161511424137431LL;
  e.links = {
      {L::TorchOp, "Conv2D", 1704161511423205030LL},
      {L::Enqueue, "Enqueue", 1704161511423205670LL},
      {L::Dequeue, "Dequeue@Conv2D", 1704161511423217990LL},
      {L::CannApi, "AscendCL@aclopCompileAndExecute", 1704161511423223879LL},
      {L::DeviceTask, "trans_TransData_1", 1704161511424137431LL},
  };
  e.missing = {L::PythonApi, L::Launch};
  e.path = "ACLOP";
  e.launchLatency = -8368LL;  // task - HostToDevice s ts (no Node@launch; aclopCompileAndExecute started 913.552 us earlier)
  checkChain(e);
}

// T14: older CANN, ACLNN under Optimizer.zero_grad#Adam.zero_grad.
// Expected values: tools/oracles/trace_chains.py (Python API only from python_function events; latency from Node@launch, else the HostToDevice s ts, else the CANN API start).
//   HostToDevice id 38654705663: s ts 1704161511422898906 on CANN / Thread 439084 -> f ts 1704161511422904204
//   HostToDevice s bound inside AscendCL@aclnnInplaceZero (older CANN, no Node@launch)
//   async_task_queue id 148: s ts 1704161511422856936 -> f ts 1704161511422882957
//   async_npu id 1704161511422904204: s ts 1704161511422855116 -> f ts 1704161511422904204
//   Python API by the outermost-ancestor fallback (not in the format doc)
TEST_CASE("chain T14: adv aclnnInplaceZero_ZerosLikeAiCore_ZerosLike @1704161511422904204", "[chain]") {
  Expected e;
  e.file = kAdvisor;
  e.stream = "Stream 3";
  e.task = "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike";
  e.start = 1704161511422904204LL;
  e.links = {
      {L::TorchOp, "aclnnInplaceZero", 1704161511422855116LL},
      {L::Enqueue, "Enqueue", 1704161511422856936LL},
      {L::Dequeue, "Dequeue@aclnnInplaceZero", 1704161511422882957LL},
      {L::CannApi, "AscendCL@aclnnInplaceZero", 1704161511422896956LL},
      {L::DeviceTask, "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike", 1704161511422904204LL},
  };
  e.missing = {L::PythonApi, L::Launch};
  e.path = "ACLNN";
  e.launchLatency = 5298LL;  // task - HostToDevice s ts (no Node@launch in this CANN)
  checkChain(e);
}

TEST_CASE("tasksLaunchedBy: every device task is among the tasks its chain's torch op and CANN API launched", "[chain]") {
  // The reverse of the chains above: from a host slice to its device tasks (the Dispatch Chain
  // panel's answer for a selected host slice, issue 42 item 4). On the Level1 capture every task
  // whose chain has a torch op (or a CANN API) is found from that slice, and every task found has
  // that slice in its own chain.
  for (const char* rel : {kL1, kL0b}) {
    INFO(rel);
    const auto t = traceOf(rel);
    std::size_t checked = 0, wrong = 0, stranger = 0;
    for (std::uint32_t l = 0; l < t->lanes.size(); ++l) {
      if (!npuscope::core::detail::isDeviceTaskLane(*t, l)) continue;
      for (std::uint32_t i = 0; i < t->lanes[l].sliceCount(); ++i) {
        const SliceRef task{l, i};
        const DispatchChain c = npuscope::core::dispatchChain(*t, task);
        for (const L layer : {L::TorchOp, L::CannApi}) {
          const auto* link = c.find(layer);
          if (!link || !link->slice.valid()) continue;
          const std::vector<SliceRef> tasks = npuscope::core::tasksLaunchedBy(*t, link->slice, 100000);
          ++checked;
          wrong += std::find(tasks.begin(), tasks.end(), task) == tasks.end();
          for (const SliceRef other : tasks) {
            const DispatchChain oc = npuscope::core::dispatchChain(*t, other, false);
            const auto* back = oc.find(layer);
            stranger += !back || !(back->slice == link->slice);
          }
        }
      }
    }
    CHECK(checked > 200);
    CHECK(wrong == 0);
    CHECK(stranger == 0);
  }
}
