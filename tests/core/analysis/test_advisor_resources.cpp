// SPDX-License-Identifier: MIT
// The advisor's resource rules (core/analysis/advisor_resources.cpp, docs/diagnosis.md §6):
// memory, communication byte alignment, bandwidth and small packets, AI Core frequency drops,
// dynamic shapes. Each on a small trace / CSV / JSON built here, just at its threshold and just
// past it; then on the corpus against hand counts (Python over the raw files, written next to
// each check). The memory and communication readers (core/tables) are checked here too.

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "core/analysis/advisor.h"
#include "core/import/trace_builder.h"
#include "core/report/report.h"
#include "core/tables/communication_json.h"
#include "core/tables/memory_tables.h"
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

core::RankAdvice advise(const core::Trace& t, const core::KernelDetails* k, const core::RankMetadata* meta,
                        const core::AdvisorThresholds& th = {}) {
  const core::RankAnalysis a = core::analyzeRank(t, k, nullptr);
  return core::adviseRank(t, k, a, meta, th);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A host step 0..1000 us with aten::mm at 100..200 us and aten::add at 300..400 us, one task.
std::shared_ptr<core::Trace> memoryTrace() {
  Build b;
  const auto py = b.thread(100, 1, "Python", "CPU");
  const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
  b.b.addSlice(py, us(0), us(1000), "ProfilerStep#1");
  b.b.addSlice(py, us(100), us(100), "aten::mm");
  b.b.addSlice(py, us(300), us(100), "aten::add");
  b.b.addSlice(dev, us(150), us(10), "MatMul", {}, core::ImportArgs::owned({{"Task Type", "AI_CORE"}}));
  return b.finish();
}

/// memory_record.csv: PTA+GE allocated 100 MB at 50 us, 300 at 150 us (the peak), 120 at 500 us;
/// reserved `reserved` MB at the peak. Times are absolute us (the trace starts at 0).
std::string memoryRecordCsv(const std::string& reserved) {
  return "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
         "APP,40.000\t,,700.5,,,NPU:0\n"
         "PTA+GE,50.000\t,100.0,400.0,100.0,1,NPU:0\n"
         "PTA+GE,150.000\t,300.0," + reserved + ",300.0,1,NPU:0\n"
         "PTA+GE,500.000\t,120.0,400.0,120.0,1,NPU:0\n"
         "PTA,150.000\t,250.0,450.0,250.0,1,NPU:0\n";
}

/// operator_memory.csv: aten::mm allocates 2048 KB at 120 us (live at the peak, 150 us) and
/// 1024 KB at 130 us released at 140 us (not live); aten::add 4096 KB at 310 us (after the peak).
const char* kOperatorMemory =
    "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),"
    "Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total "
    "Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n"
    "aten::mm,2048.0,120.000\t,,,,,0,0,0,,,,1,NPU:0\n"
    "aten::mm,1024.0,130.000\t,140.000\t,,,,0,0,0,,,,1,NPU:0\n"
    "aten::add,4096.0,310.000\t,,,,,0,0,0,,,,1,NPU:0\n";

core::RankMetadata memoryMeta(const std::string& reserved) {
  core::RankMetadata m;
  m.memoryRecord = core::parseMemoryRecord(core::parseCsv(memoryRecordCsv(reserved)));
  m.operatorMemory = core::parseOperatorMemory(core::parseCsv(kOperatorMemory));
  return m;
}

}  // namespace

TEST_CASE("memory tables: memory_record.csv and operator_memory.csv by header name", "[tables][memory]") {
  const auto m = core::parseMemoryRecord(core::parseCsv(memoryRecordCsv("512.0")));
  REQUIRE(m.error.empty());
  REQUIRE(m.rows.size() == 5);
  CHECK(m.rows[0].component == "APP");
  CHECK_FALSE(m.rows[0].allocatedMB);  // empty cell: absent, not 0
  CHECK(m.rows[0].reservedMB == Approx(700.5));
  CHECK(m.rows[2].ts == 150'000);  // "150.000\t" us -> ns
  CHECK(m.rows[2].device == "NPU:0");
  const auto o = core::parseOperatorMemory(core::parseCsv(kOperatorMemory));
  REQUIRE(o.rows.size() == 3);
  CHECK_FALSE(o.rows[0].release);
  CHECK(o.rows[1].release == core::TimeNs{140'000});
  // Bad input: no timestamp column is an error; a row without a time is skipped with a warning.
  CHECK_FALSE(core::parseMemoryRecord(core::parseCsv("Component,Total Allocated(MB)\nPTA,1\n")).error.empty());
  const auto bad = core::parseMemoryRecord(core::parseCsv("Component,Timestamp(us),Total Allocated(MB)\nPTA,N/A,1\nPTA,2,3\n"));
  CHECK(bad.rows.size() == 1);
  CHECK(bad.warnings.size() == 2);  // no Total Reserved(MB) column; row 1 skipped
  CHECK_FALSE(core::parseOperatorMemory(core::parseCsv("Name,Size(KB)\nx,1\n")).error.empty());
}

TEST_CASE("advisor memory: peak vs held throughout, allocators live at the peak, capacity mark", "[advisor][memory]") {
  const auto t = memoryTrace();
  // Capacity 1 GB, share 0.5: the mark is 512 MB of peak reserved. 512 trips; 511.9 does not.
  core::AdvisorThresholds th;
  th.deviceMemoryGb = 1.0;
  th.memoryPeakShare = 0.5;
  for (const char* reserved : {"512.0", "511.9"}) {
    const auto meta = memoryMeta(reserved);
    const auto a = advise(*t, nullptr, &meta, th);
    const auto* f = find(a, "memory");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == (std::string(reserved) == "512.0" ? Severity::Issue : Severity::Info));
    // By hand from the CSV above: PTA+GE wins over PTA; peak 300 at 150 us, lowest 100 inside the
    // step (0..1000 us), transient 200; APP 700.5; live at 150 us: aten::mm 2048 KB (1 allocation).
    CHECK(has(f->numbers, "PTA+GE: peak allocated 300.0 MB, lowest 100.0 MB inside the steps"));
    CHECK(has(f->numbers, "200.0 MB transient"));
    CHECK(has(f->numbers, "reserved up to 700.5 MB"));
    CHECK(has(f->numbers, "largest live at the peak: aten::mm 2.0 MB (1)"));
    CHECK_FALSE(has(f->numbers, "aten::add"));
    // Evidence: the aten::mm slice holding the allocation, not aten::add.
    REQUIRE(f->evidence.size() == 1);
    CHECK(t->sliceName(f->evidence[0]) == "aten::mm");
  }
  // No capacity: information, never an issue.
  const auto meta = memoryMeta("999.0");
  const auto noCapacity = advise(*t, nullptr, &meta);
  CHECK(find(noCapacity, "memory")->severity == Severity::Info);
  // Not recorded: unknown, and why.
  const core::RankMetadata none;
  const auto advU = advise(*t, nullptr, &none);
  const auto* u = find(advU, "memory");
  REQUIRE(u);
  CHECK(u->severity == Severity::Unknown);
  CHECK(has(u->numbers, "profile_memory=True"));
  // Without metadata (a bare trace handed in by a caller): nothing said.
  const auto bare = advise(*t, nullptr, nullptr);
  CHECK(find(bare, "memory") == nullptr);
}

namespace {

/// An HCCL process: one collective op 0..100 us and SDMA Memcpy tasks of `sizes` bytes (HCCS) on
/// Plane 0, plus an ON_CHIP one of 1000 B, which the rule skips.
/// A device with a MatMul kernel at [0, 5) us and one HCCL op "hcom_allReduce__1_0_1" at [10, 110)
/// us; its Plane 0 holds one HCCS Memcpy of 2 us per size in `sizes` (from 11 us, 3 us apart) and
/// an ON_CHIP one of 1000 B; without `planes` the Plane lane stays empty (a Level0 capture: the
/// communication rules then read communication.json).
std::shared_ptr<core::Trace> hcclTrace(const std::vector<long long>& sizes, bool planes = true) {
  Build b;
  const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
  const auto group = b.thread(400, 1, "HCCL", "NPU 0", "Group 1 Communication");
  const auto plane = b.thread(400, 2, "HCCL", "NPU 0", "Plane 0");
  b.b.addSlice(dev, us(0), us(5), "MatMul", {}, core::ImportArgs::owned({{"Task Type", "AI_CORE"}}));
  b.b.addSlice(group, us(10), us(100), "hcom_allReduce__1_0_1");
  core::TimeNs at = us(11);
  auto task = [&](long long size, const char* link) {
    b.b.addSlice(plane, at, us(2), "Memcpy",
                 {}, core::ImportArgs::owned({{"task type", "Memcpy"}, {"transport type", "SDMA"},
                                             {"size(Byte)", std::to_string(size)}, {"link type", link}}));
    at += us(3);
  };
  if (planes) {
    for (long long s : sizes) task(s, "HCCS");
    task(1000, "ON_CHIP");
  }
  return b.finish();
}

/// communication.json with one op per (name, SDMA MB, GB/s, RDMA MB), starting at start_us.
std::string commJson(const std::vector<std::tuple<std::string, double, double, double, double>>& ops) {
  std::string s = "{\"step1\": {\"collective\": {";
  bool first = true;
  for (const auto& [name, sdmaMb, gbps, rdmaMb, startUs] : ops) {
    if (!first) s += ", ";
    first = false;
    s += "\"" + name + "@group\": {\"Communication Time Info\": {\"Start Timestamp(us)\": " + std::to_string(startUs) +
         ", \"Elapse Time(ms)\": 0.1, \"Transit Time(ms)\": 0.05, \"Wait Time(ms)\": 0.0, \"Synchronization Time(ms)\": 0, "
         "\"Idle Time(ms)\": 0.05}, \"Communication Bandwidth Info\": {\"SDMA\": {\"Transit Size(MB)\": " +
         std::to_string(sdmaMb) + ", \"Transit Time(ms)\": 0.05, \"Bandwidth(GB/s)\": " + std::to_string(gbps) +
         ", \"Large Packet Ratio\": 0, \"Size Distribution\": {}}, \"RDMA\": {\"Transit Size(MB)\": " +
         std::to_string(rdmaMb) + ", \"Transit Time(ms)\": 0.02, \"Bandwidth(GB/s)\": 3}}}";
  }
  return s + "}}}";
}

}  // namespace

TEST_CASE("communication.json: bandwidth info and start per op", "[tables][advisor]") {
  const auto c = core::parseCommunicationJson(commJson({{"hcom_a", 2.5, 9.5, 0.0, 10.5}}));
  REQUIRE(c.error.empty());
  REQUIRE(c.ops.size() == 1);
  CHECK(c.ops[0].start == core::TimeNs{10'500});
  const auto* sdma = c.ops[0].transportInfo("SDMA");
  REQUIRE(sdma);
  CHECK(sdma->sizeMB == Approx(2.5));
  CHECK(sdma->gbps == Approx(9.5));
  CHECK(c.ops[0].transportInfo("HCCS") == nullptr);
}

TEST_CASE("advisor communication: byte alignment at 512 B", "[advisor][comm]") {
  const core::RankMetadata meta;
  // 512 B is not above the 512 B minimum: not considered. 1024 aligned. 513 not aligned: trips.
  {
    const auto t = hcclTrace({512, 1024});
    const auto advF = advise(*t, nullptr, &meta);
    const auto* f = find(advF, "comm_alignment");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == Severity::Ok);
    CHECK(has(f->numbers, "0 of 1 SDMA tasks"));  // 1024 only; 512 and the ON_CHIP task left out
  }
  {
    const auto t = hcclTrace({512, 1024, 513});
    const auto advF = advise(*t, nullptr, &meta);
    const auto* f = find(advF, "comm_alignment");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == Severity::Issue);
    CHECK(has(f->numbers, "1 of 2 SDMA tasks"));
    CHECK(has(f->numbers, "in 1 of 1 communication ops"));
    REQUIRE(f->evidence.size() == 1);
    CHECK(t->lanes[f->evidence[0].lane].start[f->evidence[0].index] == us(17));  // the third task
  }
}

TEST_CASE("advisor communication: SDMA bandwidth against the nominal, contention with MatMul", "[advisor][comm]") {
  // The op's traffic from communication.json: the trace has no plane task (Level0).
  const auto t = hcclTrace({}, false);
  core::AdvisorThresholds th;
  th.sdmaNominalGbps = 20;
  th.bandwidthShare = 0.5;  // mark 10 GB/s exactly
  // MatMul kernel at 0..5 us (kernel_details.csv); the op "hcom_allReduce__1_0_1" starts at 10 us
  // (no overlap) or at 2 us (overlap: the 100 us elapse covers the kernel).
  const auto k = core::parseKernelDetails(core::parseCsv(
      "Name,Type,Accelerator Core,Start Time(us),Duration(us)\nMatMul,MatMul,AI_CORE,0.000\t,5.000\n"));
  struct Case {
    double gbps, startUs;
    Severity want;
  };
  for (const Case& cs : {Case{10.0, 2, Severity::Ok}, Case{9.99, 10, Severity::Info}, Case{9.99, 2, Severity::Issue}}) {
    core::RankMetadata meta;
    meta.communication = core::parseCommunicationJson(commJson({{"hcom_allReduce__1_0_1", 32, cs.gbps, 0, cs.startUs}}));
    const auto advF = advise(*t, &k, &meta, th);
    const auto* f = find(advF, "comm_bandwidth");
    REQUIRE(f);
    INFO(f->numbers);
    CHECK(f->severity == cs.want);
    if (cs.want != Severity::Ok) {
      REQUIRE(f->evidence.size() == 1);
      CHECK(t->sliceName(f->evidence[0]) == "hcom_allReduce__1_0_1");
    }
  }
  // No communication.json, but the trace communicates: unknown.
  const core::RankMetadata none;
  const auto advU = advise(*t, &k, &none, th);
  const auto* u = find(advU, "comm_bandwidth");
  REQUIRE(u);
  CHECK(u->severity == Severity::Unknown);
}

TEST_CASE("advisor communication: small packets strictly above 20%", "[advisor][comm]") {
  const auto t = hcclTrace({}, false);  // no plane task: communication.json's per-op sizes
  // Five ops with SDMA traffic. One under 16 MB: 20%, not above (ok). Two: 40% (issue). 16 MB
  // exactly is not small.
  auto run = [&](int small) {
    std::vector<std::tuple<std::string, double, double, double, double>> ops;
    for (int i = 0; i < 5; ++i) ops.emplace_back("hcom_op" + std::to_string(i), i < small ? 15.99 : 16.0, 20, 0, 10);
    core::RankMetadata meta;
    meta.communication = core::parseCommunicationJson(commJson(ops));
    const auto a = advise(*t, nullptr, &meta);
    return *find(a, "comm_small_packets");
  };
  const auto one = run(1), two = run(2);
  INFO(one.numbers);
  CHECK(one.severity == Severity::Ok);
  CHECK(has(one.numbers, "SDMA: 1 of 5 ops small (20%"));
  CHECK(two.severity == Severity::Issue);
  CHECK(has(two.numbers, "SDMA: 2 of 5 ops small (40%"));
}

TEST_CASE("advisor communication: the trace's plane tasks come before communication.json", "[advisor][comm]") {
  // Hand count: the op's one HCCS Memcpy moves 8,000 B in 2 us = 4 B/ns = 4 GB/s (0.008 MB: small, under
  // 16 MB); the ON_CHIP copy is no link traffic. communication.json says 32 MB at 30 GB/s for the
  // same op, and is not used while the trace has plane tasks.
  const auto t = hcclTrace({8000});
  core::RankMetadata meta;
  meta.communication = core::parseCommunicationJson(commJson({{"hcom_allReduce__1_0_1", 32, 30, 0, 10}}));
  const auto a = advise(*t, nullptr, &meta);
  const auto* bw = find(a, "comm_bandwidth");
  REQUIRE(bw);
  INFO(bw->numbers);
  CHECK(has(bw->numbers, "(lowest 4.00 GB/s)"));
  CHECK(has(bw->numbers, "read from the trace's HCCL plane tasks"));
  const auto* small = find(a, "comm_small_packets");
  REQUIRE(small);
  CHECK(has(small->numbers, "SDMA: 1 of 1 ops small (100%, 0.002 ms of transit)"));
}

TEST_CASE("advisor: AI Core frequency drops at the ratio mark", "[advisor][freq]") {
  // Freq 1800 MHz at 0, `low` MHz from 100 to 200 us, 1800 again; a kernel at 150 us and one at
  // 300 us; freq_drop_ratio 0.5: the mark is 900 MHz exactly. 900 trips, 901 does not.
  for (double low : {900.0, 901.0}) {
    Build b;
    const auto py = b.thread(100, 1, "Python", "CPU");
    const auto dev = b.thread(300, 5, "Ascend Hardware", "NPU 0");
    b.b.addSlice(py, us(0), us(400), "ProfilerStep#1");
    b.b.addSlice(dev, us(150), us(20), "MatMul", {}, core::ImportArgs::owned({{"Task Type", "AI_CORE"}}));
    b.b.addSlice(dev, us(300), us(20), "Add", {}, core::ImportArgs::owned({{"Task Type", "AI_VECTOR_CORE"}}));
    const auto f = b.b.process(301);
    b.b.setProcessName(f, "AI Core Freq");
    b.b.setProcessLabels(f, "NPU 0");
    b.b.addCounter(f, us(0), "AI Core Freq", "MHz", 1800);
    b.b.addCounter(f, us(100), "AI Core Freq", "MHz", low);
    b.b.addCounter(f, us(200), "AI Core Freq", "MHz", 1800);
    const auto t = b.finish();
    core::AdvisorThresholds th;
    th.freqDropRatio = 0.5;
    const auto advR = advise(*t, nullptr, nullptr, th);
    const auto* r = find(advR, "aicore_freq");
    REQUIRE(r);
    INFO(r->numbers);
    if (low == 900.0) {
      CHECK(r->severity == Severity::Issue);
      // The drop lasts 100..200 us; the step's device window runs from the first task to the end
      // of the last (150..320 us): 50 us of it inside.
      CHECK(has(r->numbers, "NPU 0 AI Core Freq: highest 1800 MHz, lowest 900 MHz, 50 us at or below 900 MHz"));
      CHECK(has(r->numbers, "1 compute kernels"));
      REQUIRE(r->evidence.size() == 1);
      CHECK(t->sliceName(r->evidence[0]) == "MatMul");
    } else {
      CHECK(r->severity == Severity::Ok);
    }
  }
}

TEST_CASE("advisor: dynamic shapes across steps", "[advisor][shapes]") {
  const auto t = memoryTrace();
  auto run = [&](const std::string& rows, double perStep = 1.0) {
    const auto k = core::parseKernelDetails(core::parseCsv(
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Input Shapes,OP State\n" + rows));
    core::AdvisorThresholds th;
    th.newShapesPerStep = perStep;
    const auto a = advise(*t, &k, nullptr, th);
    return *find(a, "dynamic_shapes");
  };
  // Mul "2,3" in step 1; step 2 brings "2,4": 1 new shape per later step, at the mark: issue.
  const auto dyn = run("1,Mul,Mul,AI_VECTOR_CORE,1,1,\"2,3\",dynamic\n2,Mul,Mul,AI_VECTOR_CORE,5,1,\"2,4\",dynamic\n");
  INFO(dyn.numbers);
  CHECK(dyn.severity == Severity::Issue);
  CHECK(has(dyn.numbers, "1 of 1 op types bring new input shapes after step 1 (2 steps): Mul 1"));
  CHECK(has(dyn.numbers, "OP State: 2 dynamic, 0 static"));
  // Three steps, one new shape: 0.5 per later step, below the mark.
  CHECK(run("1,Mul,Mul,AI_VECTOR_CORE,1,1,\"2,3\",dynamic\n2,Mul,Mul,AI_VECTOR_CORE,5,1,\"2,4\",dynamic\n"
            "3,Mul,Mul,AI_VECTOR_CORE,9,1,\"2,4\",dynamic\n")
            .severity == Severity::Ok);
  // The same shapes every step: ok.
  CHECK(run("1,Mul,Mul,AI_VECTOR_CORE,1,1,\"2,3\",static\n2,Mul,Mul,AI_VECTOR_CORE,5,1,\"2,3\",static\n").severity ==
        Severity::Ok);
  // One step: layers and steps cannot be told apart.
  const auto one = run("1,Mul,Mul,AI_VECTOR_CORE,1,1,\"2,3\",dynamic\n1,Mul,Mul,AI_VECTOR_CORE,5,1,\"2,4\",dynamic\n");
  CHECK(one.severity == Severity::Unknown);
}

TEST_CASE("advisor resource rules: nothing on a CUDA Kineto trace", "[advisor][kineto]") {
  Build b;
  const auto gpu = b.thread(0, 7, "python3", "GPU 0");
  b.b.addSlice(gpu, us(0), us(10), "ampere_sgemm", "kernel");
  const auto t = b.finish();
  const core::RankMetadata meta;
  const auto a = advise(*t, nullptr, &meta);
  for (const char* rule : {"memory", "comm_alignment", "comm_bandwidth", "comm_small_packets", "aicore_freq", "dynamic_shapes"})
    CHECK(find(a, rule) == nullptr);
}

TEST_CASE("advisor resource rules on the corpus agree with hand counts", "[advisor][corpus]") {
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.ok());
  const auto& rp = r.profile->ranks.front();
  REQUIRE(rp.source.root.find("rank0_ascend_pt") != std::string::npos);
  const auto a = core::adviseRankProfile(rp);
  // Memory, by Python (csv + Decimal) over rank0's memory_record.csv / operator_memory.csv and the
  // ProfilerStep#50 window of trace_view.json: PTA+GE peak Total Allocated 1261.04296875 MB, lowest
  // inside the step 857.2431640625, peak reserved 1526.75, APP 2113.73046875; allocations live at
  // the peak (allocated at or before it, not released by then): aten::_foreach_add 233.9 MB in 16,
  // aten::mm 223.6 MB in 3. No capacity is recorded: information.
  const auto* mem = find(a, "memory");
  REQUIRE(mem);
  INFO(mem->numbers);
  CHECK(mem->severity == Severity::Info);
  CHECK(has(mem->numbers, "PTA+GE: peak allocated 1261.0 MB, lowest 857.2 MB inside the steps"));
  CHECK(has(mem->numbers, "peak reserved 1526.8 MB"));
  CHECK(has(mem->numbers, "reserved up to 2113.7 MB"));
  CHECK(has(mem->numbers, "largest live at the peak: aten::_foreach_add 233.9 MB (16), aten::mm 223.6 MB (3)"));
  CHECK_FALSE(mem->evidence.empty());
  for (const auto& e : mem->evidence) {
    const std::string_view n = rp.trace->sliceName(e);
    CHECK((n == "aten::_foreach_add" || n == "aten::mm" || n == "aten::empty_strided" || n == "aten::clone" ||
           n.starts_with("cann::")));
  }
  // Byte alignment, by Python over trace_view.json with the advisor's filter (task type Memcpy /
  // Reduce_Inline, transport SDMA, link not ON_CHIP, size > 512): 56 tasks, 4 not a multiple of
  // 512, inside hcom_allReduce__586_0_1 and hcom_allReduce__586_3_1 (2 of the 4 ops).
  const auto* al = find(a, "comm_alignment");
  REQUIRE(al);
  INFO(al->numbers);
  CHECK(al->severity == Severity::Issue);
  CHECK(has(al->numbers, "4 of 56 SDMA tasks"));
  CHECK(has(al->numbers, "in 2 of 4 communication ops"));
  CHECK(al->evidence.size() == 4);
  // Bandwidth, by Python over communication.json: SDMA 15.7676, 12.9217, 17.3778, 14.3343 GB/s;
  // two below 14.4 (0.8 x 18), neither overlapping a MatMul row of kernel_details.csv: information.
  const auto* bw = find(a, "comm_bandwidth");
  REQUIRE(bw);
  INFO(bw->numbers);
  CHECK(bw->severity == Severity::Info);
  CHECK(has(bw->numbers, "2 of 4 ops with SDMA traffic below the mark (lowest 12.92 GB/s), 0 of them while a MatMul"));
  CHECK(bw->evidence.size() == 2);
  // Small packets: SDMA 28.6, 117.4, 264.2, 17.3 MB, none under 16 MB: ok (the advisor: no issue).
  const auto* pk = find(a, "comm_small_packets");
  REQUIRE(pk);
  CHECK(pk->severity == Severity::Ok);
  CHECK(has(pk->numbers, "SDMA: 0 of 4 ops small"));
  // AI Core Freq: two samples, 1800 MHz both: steady.
  const auto* fq = find(a, "aicore_freq");
  REQUIRE(fq);
  CHECK(fq->severity == Severity::Ok);
  CHECK(has(fq->numbers, "highest 1800 MHz, lowest 1800 MHz"));
  // Dynamic shapes: one step; OP State 187 dynamic, 4 N/A, 0 static (csv.DictReader count).
  const auto* ds = find(a, "dynamic_shapes");
  REQUIRE(ds);
  CHECK(ds->severity == Severity::Unknown);
  CHECK(has(ds->numbers, "OP State: 187 dynamic, 0 static"));

  // Level0 (910B): the HCCL tasks record no size and there is no communication.json: unknown.
  const auto r0 = core::loadProfile(shared("corpus/ascend-pt-910b-l0-text-2rank"));
  REQUIRE(r0.ok());
  const auto a0 = core::adviseRankProfile(r0.profile->ranks.front());
  CHECK(find(a0, "comm_alignment")->severity == Severity::Unknown);
  CHECK(find(a0, "comm_bandwidth")->severity == Severity::Unknown);
  CHECK(find(a0, "comm_small_packets")->severity == Severity::Unknown);

  // The .db export (910B Level1 rank 0): AICORE_FREQ holds 3 rows, all 1800 (sqlite3: select
  // count(*), min(freq), max(freq) from AICORE_FREQ): steady. The memory rule reads its
  // MEMORY_RECORD (sqlite3: select s.value, max(totalAllocated), max(totalReserved) from
  // MEMORY_RECORD m join STRING_IDS s on s.id = m.component group by 1: PTA+GE 1263251456 B =
  // 1204.7 MB, 1600913408 B = 1526.8 MB).
  const auto rd = core::loadProfile(shared("corpus/ascend-pt-910b-db-2rank/level1/rank0_ascend_pt"));
  REQUIRE(rd.ok());
  const auto ad = core::adviseRankProfile(rd.profile->ranks.front());
  const auto* dfq = find(ad, "aicore_freq");
  REQUIRE(dfq);
  CHECK(dfq->severity == Severity::Ok);
  CHECK(has(dfq->numbers, "highest 1800 MHz, lowest 1800 MHz"));
  CHECK(has(dfq->numbers, "(3 samples)"));
  const auto* dmem = find(ad, "memory");
  REQUIRE(dmem);
  CHECK(dmem->severity == Severity::Info);
  CHECK(has(dmem->numbers, "PTA+GE: peak allocated 1204.7 MB"));
  CHECK(has(dmem->numbers, "peak reserved 1526.8 MB"));
  CHECK(has(dmem->numbers, "read from MEMORY_RECORD of ascend_pytorch_profiler_0.db"));
  // The plane tasks carry the transport and link type from ENUM_HCCL_TRANSPORT_TYPE /
  // ENUM_HCCL_LINK_TYPE, so the alignment rule judges the .db export as the text one. sqlite3:
  // select count(*), sum(size>512 and size%512!=0), sum(case when size>512 and size%512!=0 then
  // t.endNs-t.startNs else 0 end), sum(t.endNs-t.startNs), count(distinct case when size>512 and
  // size%512!=0 then c.opId end) from COMMUNICATION_TASK_INFO c join TASK t using (globalTaskId)
  // join ENUM_HCCL_TRANSPORT_TYPE e on e.id=c.transportType join ENUM_HCCL_LINK_TYPE l on
  // l.id=c.linkType where e.name='SDMA' and l.name!='ON_CHIP' and size>512: 56|4|534911|28570060|2.
  const auto* dal = find(ad, "comm_alignment");
  REQUIRE(dal);
  CHECK(dal->severity == Severity::Issue);
  CHECK(has(dal->numbers, "4 of 56 SDMA tasks off chip above 512 B not aligned (534.911 us of 28.57 ms), in 2 of 4 communication ops"));
}

TEST_CASE("advisor metadata: a folder or FIFO named like a table is said and not taken for a missing file", "[advisor][memory]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() /
                        ("npuscope-test-metaodd-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const fs::path out = root / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out / "memory_record.csv");  // a folder
  REQUIRE(::mkfifo((out / "communication.json").c_str(), 0600) == 0);
  const auto meta = core::readRankMetadata(root.string());
  REQUIRE(meta.memoryRecord);
  CHECK(meta.memoryRecord->error.find("is a folder, not a file") != std::string::npos);
  REQUIRE(meta.communication);
  CHECK(meta.communication->error.find("is a FIFO (named pipe), not a file") != std::string::npos);
  CHECK_FALSE(meta.operatorMemory);  // nothing by that name: absent, as before
  // The memory finding gives the reader's sentence instead of "no memory_record.csv".
  const auto t = memoryTrace();
  const core::RankAdvice adv = advise(*t, nullptr, &meta);
  const core::Finding* f = find(adv, "memory");
  REQUIRE(f);
  CHECK(f->severity == Severity::Unknown);
  CHECK(f->numbers.find("is a folder, not a file") != std::string::npos);
  std::error_code ec;
  fs::remove_all(root, ec);
}
