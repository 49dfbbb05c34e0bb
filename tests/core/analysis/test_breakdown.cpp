// SPDX-License-Identifier: MIT
// What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5):
// communication.json reader, the one split of exposed communication by the profiler's per-op
// rule, and the computing split by class, core and pass. Expected values are hand counts on tiny
// traces (written beside them) or Python stdlib one-liners run on the raw corpus files (quoted).
#include <catch2/catch.hpp>

#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/breakdown.h"
#include "core/analysis/collectives.h"
#include "core/analysis/profile_analysis.h"
#include "core/profile/profile.h"
#include "core/tables/communication_json.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::loadMemory;
using npuscope::test::shared;

namespace {

constexpr core::TimeNs us(long long v) { return v * 1000; }

std::string meta(int pid, const char* name, const char* label) {
  return R"({"ph":"M","name":"process_name","pid":)" + std::to_string(pid) + R"(,"tid":0,"args":{"name":")" + name +
         "\"}},\n" + R"({"ph":"M","name":"process_labels","pid":)" + std::to_string(pid) +
         R"(,"tid":0,"args":{"labels":")" + label + "\"}},\n";
}
std::string thread(int pid, int tid, const char* name) {
  return R"({"ph":"M","name":"thread_name","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) +
         R"(,"args":{"name":")" + name + "\"}},\n" + R"({"ph":"M","name":"thread_sort_index","pid":)" +
         std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"args":{"sort_index":)" + std::to_string(tid) +
         "}},\n";
}
std::string x(int pid, int tid, const char* name, long long ts, long long dur, const char* args = "{}") {
  return R"({"ph":"X","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"name":")" + name +
         R"(","cat":"","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":)" + args + "},\n";
}
std::string flow(const char* ph, const char* cat, const char* id, int pid, int tid, long long ts) {
  return R"({"ph":")" + std::string(ph) + R"(","cat":")" + cat + R"(","name":")" + cat + R"(","id":")" + id +
         R"(","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) +
         R"(,"bp":"e"},)" + "\n";
}
std::string wrap(std::string body) {
  body.erase(body.find_last_of(','));
  return "[\n" + body + "\n]\n";
}

constexpr const char* kCube = R"({"Task Type":"AI_CORE"})";
constexpr const char* kVector = R"({"Task Type":"AI_VECTOR_CORE"})";

}  // namespace

TEST_CASE("communication.json reader: per-op sums, Total Op Info apart, missing keys and bad input", "[breakdown]") {
  const char* text = R"J({"step3": {"p2p": {}, "collective": {
      "hcom_allReduce__1_0_1@g": {"Communication Time Info": {"Elapse Time(ms)": 2.5, "Transit Time(ms)": 1.0,
          "Wait Time(ms)": 1.25, "Synchronization Time(ms)": 1.0, "Idle Time(ms)": 0.25}},
      "hcom_broadcast__1_0_1@g": {"Communication Time Info": {"Elapse Time(ms)": "0.5", "Transit Time(ms)": 0.5,
          "Wait Time(ms)": 0, "Synchronization Time(ms)": 0}},
      "Total Op Info": {"Communication Time Info": {"Elapse Time(ms)": 3.0, "Transit Time(ms)": 1.5,
          "Wait Time(ms)": 1.25, "Synchronization Time(ms)": 1.0, "Idle Time(ms)": 0.25}}}}})J";
  const core::CommunicationJson j = core::parseCommunicationJson(text);
  CHECK(j.error.empty());
  REQUIRE(j.ops.size() == 2);
  // Hand sums: elapse 2.5 + 0.5 (a numeric string) = 3 ms; transit 1.5 ms; wait 1.25; sync 1; idle 0.25 (+ missing).
  const core::CommOpTimes s = j.sum();
  CHECK(s.elapse == 3'000'000);
  CHECK(s.transit == 1'500'000);
  CHECK(s.wait == 1'250'000);
  CHECK(s.synchronization == 1'000'000);
  CHECK(s.idle == 250'000);
  REQUIRE(j.recordedTotal);
  CHECK(j.recordedTotal->elapse == 3'000'000);
  REQUIRE(j.warnings.size() == 1);  // the broadcast has no Idle Time(ms)
  CHECK(j.warnings[0].find("Idle Time(ms)") != std::string::npos);

  const core::CommunicationJson bad = core::parseCommunicationJson("{\"step\": {\"collective\": {\"x\": ");
  CHECK_FALSE(bad.error.empty());
  CHECK(bad.ops.empty());
  CHECK_FALSE(core::parseCommunicationJson("[1, 2]").error.empty());
  const core::CommunicationJson odd = core::parseCommunicationJson(R"({"step": 5, "s2": {"collective": {"op": 1}}})");
  CHECK(odd.error.empty());
  CHECK(odd.ops.empty());
  CHECK(odd.warnings.size() == 2);
  CHECK_FALSE(core::readCommunicationJson("/nonexistent/communication.json").error.empty());
}

TEST_CASE("operator classes by OP Type or name", "[breakdown]") {
  CHECK(std::string(core::operatorClass("FlashAttentionScoreGrad")) == "FlashAttention");
  CHECK(std::string(core::operatorClass("PromptFlashAttention")) == "FlashAttention");
  CHECK(std::string(core::operatorClass("FusedInferAttentionScore")) == "FlashAttention");
  CHECK(std::string(core::operatorClass("Conv2DBackpropFilter")) == "Convolution");
  CHECK(std::string(core::operatorClass("Conv3D")) == "Convolution");
  CHECK(std::string(core::operatorClass("BatchMatMulV2")) == "MatMul");
  CHECK(std::string(core::operatorClass("MatMulV3")) == "MatMul");
  CHECK(std::string(core::operatorClass("aclnnGemm")) == "MatMul");
  CHECK(std::string(core::operatorClass("TransData")) == "Other");
  CHECK(std::string(core::operatorClass("DeformableConv2D")) == "Other");  // "conv" must start the type
}

TEST_CASE("communication split on a hand-built HCCL trace: the profiler's per-op rule, one split, peers", "[breakdown]") {
  // No compute, so the whole op [0, 100) us is exposed (docs/diagnosis.md §5.1, §5.3).
  // Plane 0 (the master: the lowest plane holding a Notify_Wait): Notify_Wait [0,8) for rank 1,
  // Memcpy [10,30) (an HCCS link), Notify_Wait [30,80) for rank 1.
  // Plane 1: Notify_Wait [0,20) for rank 2, RDMASend [20,25), RDMASend [25,30), Notify_Wait [30,90) for rank 2.
  // Op (hand count): elapse = 90 - 0 = 90; transit = 20; wait = 8 + 50 = 58; synchronization = 8
  // (the wait before the first transfer at 10); idle = 90 - 20 - 58 = 12.
  // Exposed [0,100): synchronization [0,8) = 8, transit [10,30) = 20, wait [30,80) = 50, idle
  // [8,10) u [80,100) = 22, of which plane 1 waits for rank 2 over [8,10) u [80,90) = 12, no task 10.
  std::string b = meta(300, "Ascend Hardware", "NPU 0") + meta(400, "HCCL", "NPU 0");
  b += thread(400, 0, "Group 0 Communication") + thread(400, 1, "Plane 0") + thread(400, 2, "Plane 1");
  b += x(400, 0, "hcom_allReduce__1_0_1", 0, 100);
  const char* w1 = R"({"src rank":0,"dst rank":1})";
  const char* w2 = R"({"src rank":0,"dst rank":2})";
  const char* hccs = R"j({"src rank":0,"dst rank":1,"link type":"HCCS","transport type":"SDMA","size(Byte)":2000000})j";
  b += x(400, 1, "Notify_Wait", 0, 8, w1) + x(400, 1, "Memcpy", 10, 20, hccs) + x(400, 1, "Notify_Wait", 30, 50, w1);
  b += x(400, 2, "Notify_Wait", 0, 20, w2) + x(400, 2, "RDMASend", 20, 5, w2) + x(400, 2, "RDMASend", 25, 5, w2) +
       x(400, 2, "Notify_Wait", 30, 60, w2);
  b += x(300, 5, "hcom_allReduce__1_0_1", 0, 100, R"({"Task Type":"Other"})");
  const auto t = loadMemory(wrap(b));
  // threads 1: the breakdowns run inline instead of on the side thread (issue 15, the fuzz targets).
  core::AnalysisOptions options;
  options.threads = GENERATE(0u, 1u);
  const core::RankAnalysis ra = core::analyzeRank(*t, nullptr, nullptr, options);
  REQUIRE(ra.devices.size() == 1);
  const core::CommBreakdown& c = ra.devices[0].comm;
  CHECK(c.exposed == us(100));
  CHECK(c.fromTrace);
  CHECK(c.planes == 2);
  REQUIRE(c.ops.size() == 1);
  const core::CommOp& op = c.ops[0];
  CHECK(op.type == "allReduce");
  CHECK(op.groupKey == "1");
  CHECK(op.masterPlane == 0);
  CHECK(op.elapse == us(90));
  CHECK(op.transit == us(20));
  CHECK(op.wait == us(58));
  CHECK(op.synchronization == us(8));
  CHECK(op.idle == us(12));
  CHECK(op.selfRank == 0);
  CHECK(op.peers == std::vector<int>{1, 2});
  CHECK(op.syncPeer.peer == 1);
  CHECK(op.idleWait.peer == 2);
  CHECK(op.idleWait.ns == us(60 - 50));  // [30,90) outside the master's busy [30,80)
  CHECK(c.synchronization == us(8));
  CHECK(c.transit == us(20));
  CHECK(c.wait == us(50));
  CHECK(c.idle == us(22));
  CHECK(c.synchronization + c.transit + c.wait + c.idle == c.exposed);
  CHECK(c.idlePeerWait == us(12));
  CHECK(c.idleOtherTransfer == 0);
  REQUIRE(c.idleByPeer.size() == 1);
  CHECK(c.idleByPeer[0].peer == 2);
  REQUIRE(c.synchronizationByPeer.size() == 1);
  CHECK(c.synchronizationByPeer[0].peer == 1);
  // The HCCS link: 2 MB in 20 us = 100 GB/s, and SDMA its sum. The RDMASend tasks have no link
  // type and no size: RDMA needs the transport type, so they count under "unknown" with 0 bytes.
  bool hccs100 = false;
  for (const core::CommLink& l : c.links) hccs100 = hccs100 || (l.transport == "HCCS" && l.bytes == 2'000'000 && l.time == us(20));
  CHECK(hccs100);
  CHECK_FALSE(c.json);
  // Communication bound, the largest part is wait: no "sources disagree" any more, one split.
  CHECK(ra.verdict.dominant == "communication");
  bool waitLine = false, disagree = false;
  for (const auto& f : ra.verdict.findings) {
    waitLine = waitLine || f.find("The largest part is waiting after the data started to move") != std::string::npos;
    disagree = disagree || f.find("disagree") != std::string::npos;
  }
  CHECK(waitLine);
  CHECK_FALSE(disagree);
}

TEST_CASE("communication split with two HCCL groups: each group's plane tasks go to its own ops", "[breakdown]") {
  // Two groups on NPU 0, each with its Plane 0 after its group lane (the text export's layout):
  // group 0 holds allReduce [0,100) us with a Memcpy [10,30) (HCCS, 2 MB); group 1 holds
  // broadcast [200,300) us with a Notify_Wait [200,205) for rank 3 and a Memcpy [210,250) (HCCS,
  // 4 MB). Hand count for the broadcast: elapse = 250 - 200 = 50, transit 40, wait 5 (all
  // synchronization: before the first transfer), idle 5.
  std::string b = meta(300, "Ascend Hardware", "NPU 0") + meta(400, "HCCL", "NPU 0");
  b += thread(400, 0, "Group 0 Communication") + thread(400, 1, "Plane 0") + thread(400, 2, "Group 1 Communication") +
       thread(400, 3, "Plane 0");
  const char* hccs2 = R"j({"src rank":0,"dst rank":1,"link type":"HCCS","transport type":"SDMA","size(Byte)":2000000})j";
  const char* hccs4 = R"j({"src rank":0,"dst rank":3,"link type":"HCCS","transport type":"SDMA","size(Byte)":4000000})j";
  b += x(400, 0, "hcom_allReduce__1_0_1", 0, 100) + x(400, 1, "Memcpy", 10, 20, hccs2);
  b += x(400, 2, "hcom_broadcast__2_0_1", 200, 100) + x(400, 3, "Notify_Wait", 200, 5, R"({"src rank":0,"dst rank":3})") +
       x(400, 3, "Memcpy", 210, 40, hccs4);
  b += x(300, 5, "hcom_allReduce__1_0_1", 0, 100, R"({"Task Type":"Other"})") +
       x(300, 5, "hcom_broadcast__2_0_1", 200, 100, R"({"Task Type":"Other"})");
  const auto t = loadMemory(wrap(b));
  const std::vector<core::CommOp> ops = core::commOps(*t, 0, nullptr, nullptr, nullptr);
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].type == "allReduce");
  CHECK(ops[0].hasTasks);
  CHECK(ops[0].transit == us(20));
  CHECK(ops[0].peers == std::vector<int>{1});
  CHECK(ops[1].type == "broadcast");
  CHECK(ops[1].groupKey == "2");
  CHECK(ops[1].hasTasks);
  CHECK(ops[1].masterPlane == 0);
  CHECK(ops[1].elapse == us(50));
  CHECK(ops[1].transit == us(40));
  CHECK(ops[1].wait == us(5));
  CHECK(ops[1].synchronization == us(5));
  CHECK(ops[1].idle == us(5));
  CHECK(ops[1].peers == std::vector<int>{3});
}

TEST_CASE("computing split on a hand-built trace: class, core and forward/backward through fwdbwd", "[breakdown]") {
  // Python tid 1 (forward) launches MatMulV2 [20,30); tid 2 (backward: it ends the fwdbwd flow)
  // launches MatMulGrad [30,35); Add [35,37) has no async_npu flow. Hand counts:
  // MatMul 15 us (2 tasks), Other 2 us; AI_CORE 15 us, AI_VECTOR_CORE 2 us;
  // forward 10 us, backward 5 us, no launch 2 us. Computing = 17 us.
  std::string b = meta(100, "Python", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  b += x(100, 1, "aten::mm", 0, 10) + x(100, 2, "MmBackward0", 12, 5);
  b += x(300, 5, "MatMulV2", 20, 10, kCube) + x(300, 5, "MatMulGrad", 30, 5, kCube) + x(300, 5, "Add", 35, 2, kVector);
  b += flow("s", "fwdbwd", "7", 100, 1, 0) + flow("f", "fwdbwd", "7", 100, 2, 12);
  b += flow("s", "async_npu", "a1", 100, 1, 0) + flow("f", "async_npu", "a1", 300, 5, 20);
  b += flow("s", "async_npu", "a2", 100, 2, 12) + flow("f", "async_npu", "a2", 300, 5, 30);
  const auto t = loadMemory(wrap(b));
  core::AnalysisOptions options;
  options.threads = GENERATE(0u, 1u);  // side thread or inline: the same hand counts
  const core::RankAnalysis ra = core::analyzeRank(*t, nullptr, nullptr, options);
  REQUIRE(ra.devices.size() == 1);
  const core::ComputeBreakdown& c = ra.devices[0].compute;
  CHECK(c.total == us(17));
  CHECK(c.tasks == 3);
  const auto part = [](const std::vector<core::BreakdownPart>& v, const std::string& k) -> core::BreakdownPart {
    for (const auto& p : v)
      if (p.key == k) return p;
    return {};
  };
  CHECK(part(c.byClass, "MatMul").ns == us(15));
  CHECK(part(c.byClass, "MatMul").tasks == 2);
  CHECK(part(c.byClass, "Other").ns == us(2));
  CHECK(part(c.byClass, "Convolution").ns == 0);
  CHECK(part(c.byCore, "AI_CORE").ns == us(15));
  CHECK(part(c.byCore, "AI_VECTOR_CORE").ns == us(2));
  REQUIRE(c.byPass.size() == 3);
  CHECK(part(c.byPass, "forward").ns == us(10));
  CHECK(part(c.byPass, "backward").ns == us(5));
  CHECK(part(c.byPass, "no launch").ns == us(2));
  CHECK(c.coreSource == "trace Task Type");
  // Compute bound: the verdict says what Computing is made of.
  CHECK(ra.verdict.dominant == "compute");
  bool madeOf = false;
  for (const auto& f : ra.verdict.findings) madeOf = madeOf || f.find("is made of: MatMul 88.2%") != std::string::npos;
  CHECK(madeOf);  // 15 / 17 = 88.2%

  // The same without the fwdbwd flow: forward/backward not marked.
  std::string nb = meta(100, "Python", "CPU") + meta(300, "Ascend Hardware", "NPU 0");
  nb += x(100, 1, "aten::mm", 0, 10) + x(300, 5, "MatMulV2", 20, 10, kCube);
  nb += flow("s", "async_npu", "a1", 100, 1, 0) + flow("f", "async_npu", "a1", 300, 5, 20);
  const auto t2 = loadMemory(wrap(nb));
  const core::RankAnalysis r2 = core::analyzeRank(*t2, nullptr, nullptr);
  REQUIRE(r2.devices.size() == 1);
  CHECK(r2.devices[0].compute.byPass.empty());
  CHECK(r2.devices[0].compute.passNote.find("not marked") == 0);
}

TEST_CASE("910B Level1 rank 0: communication split from the planes and communication.json", "[breakdown][corpus]") {
  auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  REQUIRE(r.profile->ranks[0].analysis);
  REQUIRE(r.profile->ranks[0].analysis->devices.size() == 1);
  const core::DeviceAnalysis& d = r.profile->ranks[0].analysis->devices[0];
  const core::CommBreakdown& c = d.comm;
  // Python on trace_view.json (Decimal ts/dur -> ns): the union of the "Communication(Not
  // Overlapped)" lane = 101963203 ns. Plane 1's tasks inside each op (start within the op):
  // Notify_Wait before the op's first Memcpy/Reduce_Inline whose link type is not ON_CHIP =
  // synchronization, those transfers = transit, the later Notify_Waits = wait; each unioned and
  // intersected with the lane, in that priority: synchronization 4311571, transit 3565451, wait
  // 324906, idle the rest 93761275 ns. npuscope uses its own computed Not-Overlapped set (within
  // 1 us of the lane, test_overlap), hence the 2 us margin.
  CHECK(c.fromTrace);
  CHECK(c.planes == 8);
  CHECK(std::llabs(c.exposed - 101963203) <= 2000);
  CHECK(std::llabs(c.synchronization - 4311571) <= 2000);
  CHECK(std::llabs(c.transit - 3565451) <= 2000);
  CHECK(std::llabs(c.wait - 324906) <= 2000);
  CHECK(std::llabs(c.idle - 93761275) <= 2000);
  CHECK(c.synchronization + c.transit + c.wait + c.idle == c.exposed);
  // The synchronization waits for rank 1 (Plane 1's Notify_Wait at +9.25 us of allReduce #0 has
  // dst rank 1); during the idle, Plane 5 waits 78.8 ms for rank 5 (dst rank 5 on the file).
  REQUIRE_FALSE(c.synchronizationByPeer.empty());
  CHECK(c.synchronizationByPeer[0].peer == 1);
  REQUIRE_FALSE(c.idleByPeer.empty());
  CHECK(c.idleByPeer[0].peer == 5);
  // communication.json, Python: sum over the 4 ops (not "Total Op Info") of each time * 1e6, rounded:
  // elapse 105991878, transit 3683353, wait 5940619, synchronization 5615712, idle 96367905 ns.
  REQUIRE(c.json);
  CHECK(c.jsonOps == 4);
  CHECK(std::llabs(c.json->elapse - 105991878) <= 4);
  CHECK(std::llabs(c.json->transit - 3683353) <= 4);
  CHECK(std::llabs(c.json->wait - 5940619) <= 4);
  CHECK(std::llabs(c.json->synchronization - 5615712) <= 4);
  CHECK(std::llabs(c.json->idle - 96367905) <= 4);
  CHECK(core::commBreakdownText(c).find("synchronization 4.2% (waiting for peer rank 1)") != std::string::npos);  // 4311571 / 101963203
}

TEST_CASE("910B Level1 rank 0: computing split against kernel_details.csv", "[breakdown][corpus]") {
  auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks[0].analysis);
  const core::ComputeBreakdown& c = r.profile->ranks[0].analysis->devices.at(0).compute;
  const auto part = [](const std::vector<core::BreakdownPart>& v, const std::string& k) -> core::BreakdownPart {
    for (const auto& p : v)
      if (p.key == k) return p;
    return {};
  };
  // Python on kernel_details.csv, rows whose Accelerator Core is not COMMUNICATION/HCCL, interval
  // [Start, Start + Duration) in ns via Decimal, union per group, classes by the patterns of
  // operatorClass applied to Type:
  //   all 187 rows: 8873737 ns; Other 164 rows 6067882; Convolution 14 rows 1808456; MatMul 9 rows 997399;
  //   AI_VECTOR_CORE 149 rows 5823400; AI_CORE 23 rows 2805855; MIX_AIV 13 rows 238962; DSA_SQE 2 rows 5520.
  // Pass: async_npu flow whose f ts equals the row's start; its s tid equal to a fwdbwd f tid
  // (3105075) -> backward: 115 rows 4176651 ns; else forward: 72 rows 4697086 ns; none without a flow.
  // The tasks' intervals come from the trace, whose dur has more decimals than the CSV's
  // Duration(us) (53.7410625 vs 53.741 for trans_TransData_0): each task may differ by up to 1 ns.
  const auto near = [](core::TimeNs v, core::TimeNs want, std::size_t tasks) {
    return std::llabs(v - want) <= static_cast<core::TimeNs>(tasks);
  };
  CHECK(c.tasks == 187);
  CHECK(near(c.total, 8873737, 187));
  CHECK(c.coreSource == "kernel_details.csv Accelerator Core");
  CHECK(near(part(c.byClass, "Other").ns, 6067882, 164));
  CHECK(part(c.byClass, "Other").tasks == 164);
  CHECK(near(part(c.byClass, "Convolution").ns, 1808456, 14));
  CHECK(near(part(c.byClass, "MatMul").ns, 997399, 9));
  CHECK(part(c.byClass, "FlashAttention").ns == 0);
  CHECK(near(part(c.byCore, "AI_VECTOR_CORE").ns, 5823400, 149));
  CHECK(near(part(c.byCore, "AI_CORE").ns, 2805855, 23));
  CHECK(near(part(c.byCore, "MIX_AIV").ns, 238962, 13));
  CHECK(near(part(c.byCore, "DSA_SQE").ns, 5520, 2));
  CHECK(near(part(c.byPass, "backward").ns, 4176651, 115));
  CHECK(part(c.byPass, "backward").tasks == 115);
  CHECK(near(part(c.byPass, "forward").ns, 4697086, 72));
  CHECK(part(c.byPass, "no launch").tasks == 0);
}

TEST_CASE("Level0 capture: empty planes give no trace split, and no crash", "[breakdown][corpus]") {
  auto r = core::loadProfile(shared("corpus/ascend-pt-910a-l0-text-2rank/rank0_ascend_pt"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks[0].analysis);
  const core::CommBreakdown& c = r.profile->ranks[0].analysis->devices.at(0).comm;
  // Python on the file: the HCCL process has "Group 0 Communication" (4 ops) and "Plane 0" with no
  // event; there is no communication.json in the folder.
  CHECK_FALSE(c.fromTrace);
  CHECK(c.planes == 0);
  CHECK_FALSE(c.json);
  CHECK(c.jsonMessage == "no communication.json");
}

TEST_CASE("collectives: groups paired by order only where the group rank is free, and send/receive not compared", "[breakdown][collectives]") {
  // Three ranks, each one allReduce at [0, 100) us and one send at [200, 210) us, with one Plane
  // task naming its group rank (src rank) and a peer. Rank 0 in group "111" as group rank 0;
  // rank 1 in group "222" also as group rank 0: another group (two holders of group rank 0),
  // never compared with rank 0; rank 2 in group "333" as group rank 1: paired by order with "111",
  // arriving 60 us late (hand count: 60 - 0 = 60 us >= 50 us).
  const auto traceOf = [](const char* key, int self, long long start) {
    std::string b = meta(300, "Ascend Hardware", "NPU 0") + meta(400, "HCCL", "NPU 0") + thread(400, 0, "Group 0 Communication") +
                    thread(400, 1, "Plane 0");
    b += x(300, 5, "MatMul", 300, 5, kCube);  // a device task: the device is analysed
    const std::string op = std::string("hcom_allReduce__") + key + "_0_1";
    const std::string send = std::string("hcom_send__") + key + "_1_1";
    b += x(400, 0, op.c_str(), start, 100 - start) + x(400, 0, send.c_str(), 200, 10);
    const std::string args = R"({"src rank":)" + std::to_string(self) + R"(,"dst rank":)" + std::to_string(self == 0 ? 1 : 0) + "}";
    b += x(400, 1, "Notify_Wait", start, 100 - start, args.c_str()) + x(400, 1, "Notify_Wait", 200, 10, args.c_str());
    return loadMemory(wrap(b));
  };
  auto profile = std::make_shared<core::Profile>();
  const std::pair<const char*, int> ranks[] = {{"111", 0}, {"222", 0}, {"333", 1}};
  for (int r = 0; r < 3; ++r) {
    core::RankProfile rp;
    rp.source.rank = r;
    rp.source.label = "rank " + std::to_string(r);
    rp.trace = traceOf(ranks[r].first, ranks[r].second, r == 2 ? 60 : 0);
    rp.analysis = std::make_shared<core::RankAnalysis>(core::analyzeRank(*rp.trace, nullptr, nullptr));
    profile->ranks.push_back(std::move(rp));
  }
  const core::ClusterComm cc = core::matchCollectives(*profile);
  // The sends are left out; rank 1's allReduce, alone in group 222, stays (its plane tasks tell
  // when its outside peer arrives) as a collective of its own.
  REQUIRE(cc.collectives.size() == 2);
  const bool pairedFirst = cc.collectives[0].ranks.size() == 2;
  const core::Collective& c = cc.collectives[pairedFirst ? 0 : 1];
  const core::Collective& lone = cc.collectives[pairedFirst ? 1 : 0];
  REQUIRE(lone.ranks.size() == 1);
  CHECK(lone.ranks[0].rank == 1);
  CHECK(c.type == "allReduce");
  REQUIRE(c.ranks.size() == 2);
  CHECK(c.ranks[0].rank == 0);
  CHECK(c.ranks[1].rank == 2);
  CHECK(c.lateRank == 2);
  CHECK(c.maxSkew == us(60));
  bool otherGroup = false, p2p = false;
  for (const std::string& n : cc.notes) {
    otherGroup = otherGroup || n.find("rank 1: HCCL group 222 not compared with rank 0's group 111: both hold group rank 0") != std::string::npos;
    p2p = p2p || n.find("point-to-point") != std::string::npos;
  }
  CHECK(otherGroup);
  CHECK(p2p);
  CHECK(core::isP2pType("batchSendRecv"));
  CHECK(core::isP2pType("receive"));
  CHECK_FALSE(core::isP2pType("allGather"));
}

TEST_CASE("collectives: at Level0 the late rank is named with the hedge that a later peer cannot be seen", "[breakdown][collectives][corpus]") {
  // The 910A Level0 capture: its HCCL process holds the op slices and an empty Plane 0 (Python on
  // trace_view.json: no event on any plane), so no op has plane tasks.
  auto r = core::loadProfile(shared("corpus/ascend-pt-910a-l0-text-2rank"));
  REQUIRE(r.ok());
  REQUIRE(r.profile->analysis);
  bool late = false, hedged = false;
  for (const std::string& f : r.profile->analysis->findings) {
    late = late || f.find("is late to") != std::string::npos;
    hedged = hedged || f.find("The capture has no HCCL plane tasks (Level0): whether a rank outside the capture arrives later "
                              "still, and so holds the collective instead, cannot be told.") != std::string::npos;
  }
  CHECK(late);
  CHECK(hedged);
}
