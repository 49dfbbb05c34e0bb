// SPDX-License-Identifier: MIT
// Folder layouts beyond the torch_npu text export (format notes §1.3, §6): msprof's legacy
// per-iteration files read as one timeline, msprof's mindstudio_profiler_output slices, MindSpore
// *_ascend_ms folders, and text exports without a trace (CSV-only ranks).
//
// Expected values come from the raw files by another route, never from npuscope:
// * mindspore-msprof-prof-2dev, Python stdlib over the three msprof_{dev}_{model}_{iter}.json of
//   each device (json.load; an event's identity = json.dumps(e, sort_keys=True)):
//     device 0: 1108 + 1134 + 1135 = 3377 events; X events 1049 + 1085 + 1081 = 3215, all distinct;
//     device 1: 1119 + 1138 + 1139 = 3396 events; X events 1060 + 1084 + 1085 = 3229, all distinct;
//     non-metadata events repeated across the iteration files: 0 on both devices (only the M
//     records repeat), so the merged timeline holds exactly the sum of the files' slices.
//   The Overlap Analysis lanes' sums per file (the script of test_msprof.cpp, Decimal us * 1000):
//     msprof_0_2_1: Computing 5914580, Comm(Not Overlapped) 41534300, Free 113630 ns
//     msprof_0_2_2: Computing 5928100, Comm(Not Overlapped)  9303050, Free 114640 ns
//     msprof_0_2_3: Computing 5946600, Comm(Not Overlapped)  9213810, Free 120800 ns
//   and each file holds exactly one "Iteration N" slice (N = 1, 2, 3, the file's iteration).
//   hccl_* and task_time_* of each iteration: every X event (name, ts, dur, args) is also in that
//   iteration's msprof_* file (338 and 490 events, 0 missing), hence not read.
// * ascend-pt-cann83-l2-4rank-partial: the step_trace_time.csv rows as written (one step, 13):
//     rank 0: Device_id 0, Computing 231290.09999999995, Comm(Not Overlapped) 420174.2600000001,
//             Free 158558.00000000032 us
//     rank 1: Device_id 1, 230903.7200000004, 441708.37999999995, 136819.560000002
//     rank 2: Device_id 4, 400448.2599999992, 277649.6599999999, 131705.28000000038
//     rank 3: Device_id 5, 401131.69999999966, 261498.43999999994, 147520.2000000005
//   kernel_details.csv of rank 0 (python csv.DictReader + Decimal): 2463 rows, Duration summed
//   651464360 ns, COMMUNICATION 420174260 ns the largest Accelerator Core.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

namespace fs = std::filesystem;

using npuscope::test::TempDir;

const std::string kMsprof = "corpus/mindspore-msprof-prof-2dev/";

bool hasMessageWith(const std::vector<std::string>& messages, const std::string& part) {
  return std::any_of(messages.begin(), messages.end(), [&](const std::string& m) { return m.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("msprof legacy layout: each device's iteration files are one timeline with three steps", "[layouts]") {
  const std::string root = shared(kMsprof);
  if (!fs::exists(root)) {
    WARN("corpus case absent, skipped: " << root);
    return;
  }
  core::LoadOptions o;
  o.threads = 2;
  const auto r = core::loadProfile(root, o);
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 2);
  struct Want {
    int device;
    std::uint64_t events;
    std::size_t slices;
  };
  const Want want[2] = {{0, 3377, 3215}, {1, 3396, 3229}};
  for (std::size_t k = 0; k < 2; ++k) {
    const core::RankProfile& rp = r.profile->ranks[k];
    INFO("rank " << k);
    REQUIRE(rp.trace);
    CHECK(rp.device() == want[k].device);
    CHECK(rp.rank() == want[k].device);  // info.json.N rank_id equals the device here
    CHECK(rp.trace->eventCount == want[k].events);
    CHECK(rp.trace->sliceCount() == want[k].slices);  // no event is counted twice
    CHECK(rp.trace->moreFiles.size() == 2);
    CHECK(hasMessageWith(rp.trace->notes, "read 3 files as one timeline"));
    // The iterations are the steps: Iteration 1, 2, 3 (one per file).
    REQUIRE(rp.analysis);
    std::vector<long long> steps;
    for (const auto& s : rp.analysis->steps) steps.push_back(s.number);
    CHECK(steps == std::vector<long long>{1, 2, 3});
    // Args of slices from every file are read from their own file: "Iteration k" carries
    // "Iteration ID": k.
    for (int it = 1; it <= 3; ++it) {
      const core::SliceRef s = test::findSlice(*rp.trace, "Iteration " + std::to_string(it));
      REQUIRE(s.valid());
      CHECK(rp.trace->argsText(s).find("\"Iteration ID\": " + std::to_string(it)) != std::string_view::npos);
    }
  }
  // Device 0's per-step Overlap Analysis lanes equal each iteration file's own lane sums.
  const core::RankAnalysis& a = *r.profile->ranks[0].analysis;
  REQUIRE(a.devices.size() == 1);
  const auto& steps = a.devices[0].steps;
  REQUIRE(steps.size() == 3);
  const core::TimeNs computing[3] = {5914580, 5928100, 5946600};
  const core::TimeNs notOverlapped[3] = {41534300, 9303050, 9213810};
  const core::TimeNs free[3] = {113630, 114640, 120800};
  for (std::size_t k = 0; k < 3; ++k) {
    INFO("step " << k + 1);
    REQUIRE(steps[k].lanes.has_value());
    CHECK(steps[k].lanes->computing == computing[k]);
    CHECK(steps[k].lanes->commNotOverlapped == notOverlapped[k]);
    CHECK(steps[k].lanes->free == free[k]);
  }
}

TEST_CASE("loadTraceFiles: flows pair across files and args come from each file", "[layouts]") {
  TempDir tmp("multi");
  // File a: a task with args and a flow start; file b: the flow's finish on a task of the same
  // thread, different args; metadata repeated in both (as msprof's iteration files do).
  const std::string meta = R"({"ph":"M","name":"process_name","pid":3,"tid":0,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"thread_name","pid":3,"tid":2,"args":{"name":"Stream 2"}},)";
  tmp.write("a.json", "[" + meta + R"(
{"ph":"X","name":"k1","pid":3,"tid":2,"ts":"1.000","dur":"2.000","args":{"Task Type":"AI_CORE","n":1}},
{"ph":"s","name":"f","cat":"c","id":7,"pid":3,"tid":2,"ts":"1.500"}])");
  tmp.write("b.json", "[" + meta + R"(
{"ph":"X","name":"k2","pid":3,"tid":2,"ts":"10.000","dur":"2.000","args":{"Task Type":"AI_CORE","n":22}},
{"ph":"f","bp":"e","name":"f","cat":"c","id":7,"pid":3,"tid":2,"ts":"10.500"}])");
  const auto lr = core::loadTraceFiles({(tmp.root / "a.json").string(), (tmp.root / "b.json").string()});
  REQUIRE(lr.ok());
  const core::Trace& t = *lr.trace;
  CHECK(t.lanes.size() == 1);  // one thread, not one per file
  CHECK(t.sliceCount() == 2);
  REQUIRE(t.flows.size() == 1);
  CHECK(t.sliceName(t.flows[0].from) == "k1");
  CHECK(t.sliceName(t.flows[0].to) == "k2");
  CHECK(t.argsText(test::findSlice(t, "k1")) == R"({"Task Type":"AI_CORE","n":1})");
  CHECK(t.argsText(test::findSlice(t, "k2")) == R"({"Task Type":"AI_CORE","n":22})");
  // A missing file fails the load with its name.
  const auto bad = core::loadTraceFiles({(tmp.root / "a.json").string(), (tmp.root / "nope.json").string()});
  CHECK_FALSE(bad.ok());
  CHECK(bad.error.find("nope.json") != std::string::npos);
}

TEST_CASE("msprof PROF_ folder with mindstudio_profiler_output: the newest export's slices", "[layouts]") {
  // Layout of format notes §6: PROF_*/mindstudio_profiler_output/msprof_slice_{k}_{ts}.json,
  // several timestamps (the newest wins), device_N/info.json.N with rank_id (§1.2).
  TempDir tmp("mso");
  const fs::path prof = "PROF_000001_20240101120000000_ABCDEFGH";
  tmp.write(prof / "device_3/info.json.3", R"({"rank_id": 5})");
  const std::string head = R"([{"ph":"M","name":"process_name","pid":7,"tid":0,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_labels","pid":7,"tid":0,"args":{"labels":"NPU 3"}},)";
  tmp.write(prof / "mindstudio_profiler_output/msprof_slice_0_20240101120500.json",
            head + R"({"ph":"X","name":"a","pid":7,"tid":1,"ts":"1.000","dur":"1.000","args":{"Task Type":"AI_CORE"}}])");
  tmp.write(prof / "mindstudio_profiler_output/msprof_slice_1_20240101120500.json",
            head + R"({"ph":"X","name":"b","pid":7,"tid":1,"ts":"5.000","dur":"1.000","args":{"Task Type":"AI_CORE"}}])");
  tmp.write(prof / "mindstudio_profiler_output/msprof_slice_0_20230101000000.json",
            head + R"({"ph":"X","name":"old","pid":7,"tid":1,"ts":"1.000","dur":"1.000"}])");
  tmp.write(prof / "mindstudio_profiler_output/op_summary_20240101120500.csv", "x\n");
  for (const fs::path& open : {tmp.root / prof, tmp.root}) {
    INFO(open);
    const core::ProfileLayout layout = core::discoverProfile(open.string());
    REQUIRE(layout.error.empty());
    REQUIRE(layout.ranks.size() == 1);
    const core::RankSource& s = layout.ranks[0];
    REQUIRE(s.traceFiles.size() == 2);
    CHECK(fs::path(s.traceFiles[0]).filename() == "msprof_slice_0_20240101120500.json");
    CHECK(fs::path(s.traceFiles[1]).filename() == "msprof_slice_1_20240101120500.json");
    CHECK(s.device == 3);
    CHECK(s.rank == 5);
    CHECK(hasMessageWith(layout.messages, "1 more slices read as one timeline; 1 file of older exports not read"));
  }
  const auto r = core::loadProfile((tmp.root / prof).string());
  REQUIRE(r.ok());
  const core::Trace& t = *r.profile->ranks.at(0).trace;
  CHECK(t.sliceCount() == 2);
  CHECK(test::findSlice(t, "a").valid());
  CHECK(test::findSlice(t, "b").valid());
  CHECK_FALSE(test::findSlice(t, "old").valid());
}

TEST_CASE("MindSpore *_ascend_ms text export and a torch_npu folder with only the msprof export", "[layouts]") {
  // Format notes §1.3: {worker}_{ts}_ascend_ms with profiler_info_{rank}.json and
  // ASCEND_PROFILER_OUTPUT/trace_view.json, kernel_details.csv ("Step ID"), step_trace_time.csv
  // (no Device_id column).
  TempDir tmp("ms");
  const fs::path ms = "rank-1_20250101120000000_ascend_ms";
  tmp.write(ms / "profiler_info_1.json", R"({"rank_id": 1})");
  tmp.write(ms / "ASCEND_PROFILER_OUTPUT/trace_view.json",
            R"([{"ph":"M","name":"process_name","pid":9,"tid":0,"args":{"name":"Ascend Hardware"}},
{"ph":"X","name":"MatMul","pid":9,"tid":2,"ts":"10.000","dur":"5.000","args":{"Task Type":"AI_CORE"}}])");
  tmp.write(ms / "ASCEND_PROFILER_OUTPUT/kernel_details.csv",
            "Step ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
            "1,MatMul,MatMul,AI_CORE,10.000,5.000,0,8\n");
  tmp.write(ms / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
            "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\n1,5,0,0,0,1,6,0,0,0\n");
  // A torch_npu rank whose ASCEND_PROFILER_OUTPUT lost its trace but whose PROF_ folder kept the
  // msprof export (data_simplification off).
  const fs::path pt = "host_1_20250101120000000_ascend_pt";
  tmp.write(pt / "profiler_info_0.json", R"({"rank_id": 0})");
  tmp.write(pt / "ASCEND_PROFILER_OUTPUT/kernel_details.csv", "Name,Duration(us)\nk,1\n");
  tmp.write(pt / "PROF_000001_20250101120000000_XYZ/device_0/info.json.0", R"({"rank_id": 0})");
  tmp.write(pt / "PROF_000001_20250101120000000_XYZ/mindstudio_profiler_output/msprof_20250101120100.json",
            R"([{"ph":"X","name":"t","pid":1,"tid":1,"ts":"1.000","dur":"1.000"}])");
  const core::ProfileLayout layout = core::discoverProfile(tmp.root.string());
  REQUIRE(layout.ranks.size() == 2);
  const core::RankSource& r0 = layout.ranks[0];
  const core::RankSource& r1 = layout.ranks[1];
  CHECK(r0.rank == 0);
  CHECK(fs::path(r0.traceFile).filename() == "msprof_20250101120100.json");
  CHECK(r0.traceFiles.empty());  // one file
  CHECK(r0.device == 0);
  CHECK(hasMessageWith(layout.messages, "no trace_view.json; the msprof export msprof_20250101120100.json is read"));
  CHECK(r1.rank == 1);
  CHECK(fs::path(r1.traceFile).filename() == "trace_view.json");
  CHECK(fs::path(r1.kernelDetails).filename() == "kernel_details.csv");
  CHECK(fs::path(r1.stepTraceTime).filename() == "step_trace_time.csv");
  const auto r = core::loadProfile(tmp.root.string());
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 2);
  const core::RankProfile& ms1 = r.profile->ranks[1];
  REQUIRE(ms1.kernels);
  CHECK(ms1.kernels->rows.size() == 1);
  CHECK(ms1.kernels->rows[0].step == 1);  // "Step ID" read like "Step Id"
  REQUIRE(ms1.stepTrace.size() == 1);
  CHECK(ms1.stepTrace[0].device == -1);
  CHECK(ms1.stepTrace[0].computing == 5.0);
}

TEST_CASE("a step_trace_time.csv alone, as a folder or a file: one row of the profiler's figures", "[layouts]") {
  // ../shared/cases/34 no_step_info: Device_id -1, an empty Step, Computing 1200, Communication(Not
  // Overlapped) 100, Free 300 us (case.md: "1 row shown as step all, device unknown; no
  // integer-parse failure").
  const std::string dir = shared("cases/34-step-trace-time-and-missing-overlap/no_step_info");
  for (const std::string& path : {dir, dir + "/step_trace_time.csv"}) {
    INFO(path);
    const auto r = core::loadProfile(path);
    REQUIRE(r.ok());
    const core::Profile& p = *r.profile;
    REQUIRE(p.ranks.size() == 1);
    const core::RankProfile& rp = p.ranks[0];
    CHECK_FALSE(rp.trace);
    REQUIRE(rp.tablesOnly);
    REQUIRE(rp.tablesOnly->devices.size() == 1);
    const core::TableDeviceFigures& d = rp.tablesOnly->devices[0];
    CHECK(d.device == -1);
    CHECK(d.steps == 1);
    CHECK(d.computing == 1'200'000);
    CHECK(d.commNotOverlapped == 100'000);
    CHECK(d.free == 300'000);
  }
}

TEST_CASE("a text export without a trace: the tables' figures and what is missing", "[layouts]") {
  const std::string root = shared("corpus/ascend-pt-cann83-l2-4rank-partial");
  if (!fs::exists(root)) {
    WARN("corpus case absent, skipped: " << root);
    return;
  }
  const auto r = core::loadProfile(root);
  REQUIRE(r.ok());
  const core::Profile& p = *r.profile;
  REQUIRE(p.ranks.size() == 4);
  struct Want {
    int device;
    core::TimeNs computing, notOverlapped, free;
  };
  // step_trace_time.csv, us * 1000 rounded (see the header comment).
  const Want want[4] = {{0, 231290100, 420174260, 158558000},
                        {1, 230903720, 441708380, 136819560},
                        {4, 400448260, 277649660, 131705280},
                        {5, 401131700, 261498440, 147520200}};
  for (std::size_t k = 0; k < 4; ++k) {
    const core::RankProfile& rp = p.ranks[k];
    INFO("rank " << k);
    CHECK(rp.rank() == static_cast<int>(k));
    CHECK(rp.device() == want[k].device);  // from the CSV's Device_id
    CHECK_FALSE(rp.trace);
    REQUIRE(rp.tablesOnly);
    REQUIRE(rp.tablesOnly->devices.size() == 1);
    const core::TableDeviceFigures& d = rp.tablesOnly->devices[0];
    CHECK(d.device == want[k].device);
    CHECK(d.steps == 1);
    CHECK(d.computing == want[k].computing);
    CHECK(d.commNotOverlapped == want[k].notOverlapped);
    CHECK(d.free == want[k].free);
    CHECK(hasMessageWith(rp.tablesOnly->missing, "trace_view.json: no timeline"));
    // The cross-rank figures use the same rows.
    REQUIRE(p.analysis);
    REQUIRE(p.analysis->ranks.size() == 4);
    CHECK(p.analysis->ranks[k].computing == want[k].computing);
    CHECK(p.analysis->ranks[k].source == "step_trace_time.csv");
  }
  // Ranks 0 and 2 keep kernel_details.csv; ranks 1 and 3 do not (SOURCES.md).
  // Python csv count of rank 0's kernel_details.csv (Duration(us) as Decimal * 1000): 2463 rows,
  // 15 with Accelerator Core COMMUNICATION (420174260 ns) and 2448 kernels (231290100 ns, the
  // Computing of its step_trace_time.csv); the longest kernel core is MIX_AIC, 87847320 ns.
  // The communication rows are not kernels.
  CHECK(p.ranks[0].tablesOnly->kernelRows == 2448);
  CHECK(p.ranks[0].tablesOnly->kernelTime == 231290100);
  CHECK(p.ranks[0].tablesOnly->commRows == 15);
  CHECK(p.ranks[0].tablesOnly->commTime == 420174260);
  REQUIRE_FALSE(p.ranks[0].tablesOnly->byCore.empty());
  CHECK(p.ranks[0].tablesOnly->byCore[0].first == "MIX_AIC");
  CHECK(p.ranks[0].tablesOnly->byCore[0].second == 87847320);
  // Rank 2 the same way: 2587 rows, 23 communication (277649660 ns), 2564 kernels (400448260 ns).
  CHECK(p.ranks[2].tablesOnly->kernelRows == 2564);
  CHECK(p.ranks[2].tablesOnly->kernelTime == 400448260);
  CHECK(p.ranks[2].tablesOnly->commRows == 23);
  CHECK(p.ranks[2].tablesOnly->commTime == 277649660);
  CHECK(p.ranks[1].tablesOnly->kernelRows == 0);
  CHECK(hasMessageWith(p.ranks[1].tablesOnly->missing, "kernel_details.csv: no kernel statistics"));
  // The report says both: the profiler's figures and what needs the trace.
  const std::string text = core::reportText(p);
  CHECK(text.find("step_trace_time.csv, the profiler's figures; no trace") != std::string::npos);
  CHECK(text.find("missing: trace_view.json: no timeline") != std::string::npos);
  CHECK(text.find("kernel_details.csv: 2448 kernels, 231.29 ms in all, and 15 communication ops") != std::string::npos);
  const std::string json = core::reportJson(p);
  CHECK(json.find("\"tables_only\": {\"source\": \"tables only\"") != std::string::npos);
}

TEST_CASE("a folder with profiling data deeper than discovery looks names where it is", "[layouts]") {
  // msprof-analyze-advisor-fixtures keeps the files at their repository paths, e.g.
  // test/ut/advisor/advisor_backend/timeline_advice/trace_view.json (5 levels down; SOURCES.md).
  const std::string root = shared("corpus/msprof-analyze-advisor-fixtures");
  if (!fs::exists(root)) {
    WARN("corpus case absent, skipped: " << root);
    return;
  }
  const core::ProfileLayout layout = core::discoverProfile(root);
  CHECK(layout.ranks.empty());
  CHECK(layout.error.find("no profiling data found") != std::string::npos);
  CHECK(layout.error.find("found inside: test/") != std::string::npos);
  // A temp folder holding nothing of the kind: no hint.
  TempDir tmp("none");
  tmp.write("a/b/notes.txt", "x");
  const core::ProfileLayout empty = core::discoverProfile(tmp.root.string());
  CHECK(empty.error.find("found inside") == std::string::npos);
  // msprof-analyze's cluster outputs are named as such and not read as traces.
  TempDir cluster("cluster");
  cluster.write("cluster_step_trace_time.csv", "Step,Type,Index\n");
  cluster.write("cluster_communication.json", "{}");
  const core::ProfileLayout c = core::discoverProfile(cluster.root.string());
  CHECK(c.ranks.empty());
  CHECK(c.error.find("cluster_step_trace_time.csv (an msprof-analyze cluster output, not read)") != std::string::npos);
}
