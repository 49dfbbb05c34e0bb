// SPDX-License-Identifier: MIT
// Legacy msprof JSON (corpus mindspore-msprof-prof-2dev: PROF_*/device_N/timeline/msprof_N_model_iter.json,
// labels plain "NPU", decimal-concatenated pids) and Level0 HostToDevice starts (corpus
// ascend-pt-910a-l0-text-2rank).
//
// Expected figures are from Python one-liners on the raw files (stdlib json + Decimal, ns =
// round(us * 1000)), not from npuscope:
// * the Overlap Analysis lanes' own sums, per thread_name of process "Overlap Analysis":
//     python3 -c "import json,decimal as D;e=json.load(open(F),parse_float=D.Decimal);
//       n={(x['pid'],x['tid']):x['args']['name'] for x in e if x.get('ph')=='M' and x['name']=='thread_name'};
//       p={x['pid'] for x in e if x.get('ph')=='M' and x['name']=='process_name' and x['args']['name']=='Overlap Analysis'};
//       import collections as C;s=C.Counter();[s.update({n[(x['pid'],x['tid'])]:int(D.Decimal(x['dur'])*1000)}) for x in e if x.get('ph')=='X' and x['pid'] in p];print(s)"
//   device_0 msprof_0_2_1.json: Computing 5914580, Communication 41534300,
//     Communication(Not Overlapped) 41534300, Free 113630 (ns);
//   device_1 msprof_1_0_1.json: Computing 5927580, Communication 51464470,
//     Communication(Not Overlapped) 51464470, Free 115110 (ns).
// * The same script with the format notes' §4.1 rule (compute = Ascend Hardware tasks with Task
//   Type AI_CORE/AI_CPU..., the Step Trace(Model ID:k) thread left out; communication = the HCCL
//   big op on the "Communication Kernel" thread; Free = span of C u M minus C u M) gives the same
//   four numbers on both files: the lanes follow §4.1 exactly here. With the Step Trace thread
//   counted as compute (its "Iteration 1" slice spans the step), Computing would be the whole
//   47.6 ms and Communication(Not Overlapped) 0: the old "Compute bound 100%" verdict.
// * Level0, rank0 trace_view.json: 349 HostToDevice `s` events, all on pid 40508640, which has no
//   process_name (only thread_name / sort-index / labels records for 4 threads); the file has no
//   CANN process; all 349 lie inside a Dequeue* slice of the Python process on the same tid 41958.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

const std::string kMsprof = "corpus/mindspore-msprof-prof-2dev/";
const std::string kDev0 = kMsprof + "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/timeline";
const std::string kDev1 = kMsprof + "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA/device_1/timeline";

struct LaneSums {
  core::TimeNs computing, communication, notOverlapped, free;
};

void checkMsprofFile(const std::string& file, int device, LaneSums want) {
  const std::string path = shared(file);
  if (!std::filesystem::exists(path)) {
    WARN("corpus file absent, skipped: " << path);
    return;
  }
  const auto r = core::loadProfile(path);
  INFO(path << ": " << r.error);
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  const core::RankProfile& rp = r.profile->ranks[0];
  REQUIRE(rp.trace);
  CHECK(rp.device() == device);
  // Every "NPU" process (Ascend Hardware, HCCL, Overlap Analysis) on the file's one device.
  std::set<int> npuDevices;
  for (const core::Process& p : rp.trace->processes)
    if (p.label == "NPU") npuDevices.insert(p.deviceId);
  CHECK(npuDevices == std::set<int>{device});
  REQUIRE(rp.analysis);
  REQUIRE(rp.analysis->devices.size() == 1);
  const core::DeviceAnalysis& da = rp.analysis->devices[0];
  CHECK(da.device == device);
  REQUIRE(da.lanes.has_value());
  CHECK(da.lanes->computing == want.computing);
  CHECK(da.lanes->communication == want.communication);
  CHECK(da.lanes->commNotOverlapped == want.notOverlapped);
  CHECK(da.lanes->free == want.free);
  // Computed from the tasks with §4.1's rules: equal to the lanes within 1 us.
  CHECK(std::llabs(da.computed.computing - want.computing) <= 1000);
  CHECK(std::llabs(da.computed.communication - want.communication) <= 1000);
  CHECK(std::llabs(da.computed.commNotOverlapped - want.notOverlapped) <= 1000);
  CHECK(std::llabs(da.computed.free - want.free) <= 1000);
  CHECK(da.discrepancies.empty());
  // The verdict follows the lanes: communication that is not overlapped dominates.
  CHECK(rp.analysis->verdict.summary.rfind("Communication bound", 0) == 0);
}

}  // namespace

TEST_CASE("msprof JSON device 0: computed and recorded overlap equal the lanes' own sums", "[msprof]") {
  checkMsprofFile(kDev0 + "/msprof_0_2_1.json", 0, {5914580, 41534300, 41534300, 113630});
}

TEST_CASE("msprof JSON device 1: computed and recorded overlap equal the lanes' own sums", "[msprof]") {
  checkMsprofFile(kDev1 + "/msprof_1_0_1.json", 1, {5927580, 51464470, 51464470, 115110});
}

TEST_CASE("device of a trace path: msprof file name, else a device_N folder", "[msprof]") {
  CHECK(core::deviceFromTracePath("/a/PROF_1/device_3/timeline/msprof_3_2_1.json") == 3);
  CHECK(core::deviceFromTracePath("msprof_12_0_7.json") == 12);
  CHECK(core::deviceFromTracePath("/x/device_5/timeline/trace.json") == 5);
  CHECK(core::deviceFromTracePath("C:\\p\\device_2\\timeline\\other.json") == 2);
  // msprof_{YYYYmmddHHMMSS}.json (newer CANN) holds no device; nor does a plain folder.
  CHECK(core::deviceFromTracePath("/r/mindstudio_profiler_output/msprof_20240101120000.json") == -1);
  CHECK(core::deviceFromTracePath("/r/msprof_1_2.json") == -1);
  CHECK(core::deviceFromTracePath("/r/device_x/trace.json") == -1);
  CHECK(core::deviceFromTracePath("") == -1);
}

TEST_CASE("plain NPU labels: one device for all such processes, from the options, never the pid", "[msprof]") {
  // Decimal-concatenated pids as older CANN wrote them (format notes 2.3): pid & 0x1f would give
  // 3 for Ascend Hardware (pid 3) and 28 for Overlap Analysis (pid 1003612).
  // Overlap lanes recorded by hand: Computing [0,10] us, Free [10,12] us; the tasks: an AI_CORE
  // task [0,10] us and one [12,20] us (Computing 18 us computed vs 10 us recorded; Free 2 us both).
  const std::string json = R"json([
{"name":"process_name","ph":"M","pid":3,"tid":0,"args":{"name":"Ascend Hardware"}},
{"name":"process_labels","ph":"M","pid":3,"tid":0,"args":{"labels":"NPU"}},
{"name":"process_name","ph":"M","pid":1003612,"tid":0,"args":{"name":"Overlap Analysis"}},
{"name":"process_labels","ph":"M","pid":1003612,"tid":0,"args":{"labels":"NPU"}},
{"name":"thread_name","ph":"M","pid":1003612,"tid":0,"args":{"name":"Computing"}},
{"name":"thread_name","ph":"M","pid":1003612,"tid":3,"args":{"name":"Free"}},
{"name":"thread_name","ph":"M","pid":3,"tid":9,"args":{"name":"Step Trace(Model ID:1)"}},
{"name":"k1","ph":"X","pid":3,"tid":2,"ts":"0.000","dur":10,"args":{"Task Type":"AI_CORE"}},
{"name":"Iteration 1","ph":"X","pid":3,"tid":9,"ts":"0.000","dur":20},
{"name":"k2","ph":"X","pid":3,"tid":2,"ts":"12.000","dur":8,"args":{"Task Type":"AI_CORE"}},
{"name":"Computing","ph":"X","pid":1003612,"tid":0,"ts":"0.000","dur":10},
{"name":"Free","ph":"X","pid":1003612,"tid":3,"ts":"10.000","dur":2}
])json";
  core::LoadOptions o;
  o.device = 7;
  const auto lr = core::loadTraceFromMemory(json, "mem.json", o);
  REQUIRE(lr.ok());
  for (const core::Process& p : lr.trace->processes) CHECK(p.deviceId == 7);
  const auto none = core::loadTraceFromMemory(json, "mem.json");
  REQUIRE(none.ok());
  for (const core::Process& p : none.trace->processes) CHECK(p.deviceId == -1);
  const core::RankAnalysis ra = core::analyzeRank(*lr.trace, nullptr, nullptr);
  REQUIRE(ra.devices.size() == 1);
  const core::DeviceAnalysis& da = ra.devices[0];
  CHECK(da.device == 7);
  // The Step Trace thread's "Iteration 1" [0,20] is no task: computing is k1 u k2 = 18 us.
  CHECK(da.computed.computing == 18000);
  CHECK(da.computed.free == 2000);
  REQUIRE(da.lanes.has_value());
  CHECK(da.lanes->computing == 10000);
  CHECK(da.lanes->free == 2000);
  // The kernels table holds k1 and k2 only (2 slices), not the Step Trace marker.
  CHECK(core::computeStats(*lr.trace, core::StatsLayer::Kernels).slices == 2);
  // Computed and recorded differ for Computing only: one discrepancy line, naming both.
  REQUIRE(da.discrepancies.size() == 1);
  CHECK(da.discrepancies[0].find("Computing: computed 18.000 us, recorded 10.000 us") != std::string::npos);
}

TEST_CASE("msprof device_N/timeline folders load as one rank per device, every iteration", "[msprof]") {
  const std::string root = shared(kMsprof);
  if (!std::filesystem::exists(root)) {
    WARN("corpus case absent, skipped: " << root);
    return;
  }
  // Hand count from the file names (ls PROF_*/device_*/timeline): each device has
  // msprof_{dev}_{model}_{1,2,3}.json, model 2 on device 0 and model 0 on device 1.
  const auto names = [](const core::RankSource& s) {
    std::vector<std::string> v;
    for (const auto& f : s.traceFiles) v.push_back(std::filesystem::path(f).filename().string());
    return v;
  };
  const std::vector<std::string> dev0 = {"msprof_0_2_1.json", "msprof_0_2_2.json", "msprof_0_2_3.json"};
  const std::vector<std::string> dev1 = {"msprof_1_0_1.json", "msprof_1_0_2.json", "msprof_1_0_3.json"};
  // The timeline folder and its device_N folder: one rank, the three iterations, and a message.
  for (const std::string& p : {kDev0, std::filesystem::path(kDev0).parent_path().string()}) {
    INFO(p);
    const core::ProfileLayout one = core::discoverProfile(shared(p));
    REQUIRE(one.error.empty());
    REQUIRE(one.ranks.size() == 1);
    CHECK(names(one.ranks[0]) == dev0);
    CHECK(std::filesystem::path(one.ranks[0].traceFile).filename() == "msprof_0_2_1.json");
    CHECK(one.ranks[0].device == 0);
    CHECK(one.ranks[0].rank == 0);  // device_0/info.json.0 "rank_id": 0
    REQUIRE(one.messages.size() == 1);
    CHECK(one.messages[0].find("3 msprof iteration files read as one timeline") != std::string::npos);
  }
  // The PROF_ folder of device 1.
  const core::ProfileLayout prof =
      core::discoverProfile(shared(kMsprof + "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA"));
  REQUIRE(prof.ranks.size() == 1);
  CHECK(names(prof.ranks[0]) == dev1);
  CHECK(prof.ranks[0].device == 1);
  CHECK(prof.ranks[0].rank == 1);  // device_1/info.json.1 "rank_id": 1
  // The folder holding both PROF_ folders: two ranks, devices 0 and 1.
  const core::ProfileLayout both = core::discoverProfile(root);
  REQUIRE(both.ranks.size() == 2);
  CHECK(both.ranks[0].device == 0);
  CHECK(both.ranks[1].device == 1);
  CHECK(both.messages.size() == 2);
}

TEST_CASE("advisor fixture with plain NPU labels: all NPU processes on one device", "[msprof]") {
  const std::string path =
      shared("corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json");
  if (!std::filesystem::exists(path)) {
    WARN("corpus case absent, skipped: " << path);
    return;
  }
  const auto r = core::loadProfile(path);
  REQUIRE(r.ok());
  const core::Trace& t = *r.profile->ranks.at(0).trace;
  std::set<int> devices;
  std::size_t npu = 0;
  for (const core::Process& p : t.processes)
    if (p.label == "NPU") {
      devices.insert(p.deviceId);
      ++npu;
    }
  CHECK(npu == 2);  // Ascend Hardware (pid 800) and Overlap Analysis (pid 4376751100)
  // No device in its path, no rank: -1 for both (pid & 0x1f would have given 0 and 28).
  CHECK(devices == std::set<int>{-1});
  const auto& a = *r.profile->ranks.at(0).analysis;
  REQUIRE(a.devices.size() == 1);
  CHECK(a.devices[0].lanes.has_value());  // the Overlap lanes now meet their Ascend Hardware
}

TEST_CASE("Level0 HostToDevice starts bind to the Dequeue on the same OS thread, without a warning", "[msprof]") {
  const std::string path = shared("corpus/ascend-pt-910a-l0-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
  if (!std::filesystem::exists(path)) {
    WARN("corpus case absent, skipped: " << path);
    return;
  }
  const auto t = test::load(path, 2);
  CHECK(t->stats.count(core::ImportWarning::FlowNoEnclosingSlice) == 0);
  // The unbound starts stay (dispatchChain reads them), all 349 marked as the Level0 artefact.
  CHECK(t->unboundStarts.size() == 349);
  CHECK(std::all_of(t->unboundStarts.begin(), t->unboundStarts.end(),
                    [](const core::UnboundStartFlow& u) { return u.prunedCann && u.fromTid == 41958; }));
  std::size_t h2d = 0, toHardware = 0, toHccl = 0;
  for (const core::Flow& f : t->flows) {
    if (t->name(f.category) != "HostToDevice") continue;
    ++h2d;
    const core::Lane& from = t->lanes[f.from.lane];
    CHECK(t->processes[from.process].name == "Python");
    CHECK(from.tid == 41958);
    CHECK(t->sliceName(f.from).rfind("Dequeue", 0) == 0);
    CHECK(t->sliceRange(f.from).start <= f.fromTs);
    CHECK(f.fromTs < t->sliceRange(f.from).end);
    const std::string& to = t->processes[t->lanes[f.to.lane].process].name;
    toHardware += to == "Ascend Hardware";
    toHccl += to == "HCCL";
  }
  CHECK(h2d == 349);
  // The finishes (python: Counter of process_name over the HostToDevice `f` events): 345 on
  // Ascend Hardware tasks, 4 on the HCCL big ops (format notes 2.6).
  CHECK(toHardware == 345);
  CHECK(toHccl == 4);
  CHECK(std::is_sorted(t->flows.begin(), t->flows.end(),
                       [](const core::Flow& a, const core::Flow& b) { return a.fromTs < b.fromTs; }));
  // The unnamed pid 40508640 shows no empty lanes (it has 4 thread_name records, no slices).
  for (const core::Process& p : t->processes) CHECK(p.pid != 40508640);
  const std::string note =
      "Level0 capture: the CANN layer was not recorded; 349 HostToDevice launches are bound to the Dequeue on the "
      "same OS thread";
  CHECK(std::find(t->notes.begin(), t->notes.end(), note) != t->notes.end());
}

TEST_CASE("torch_npu captures with plain NPU labels keep their device ids", "[msprof]") {
  // Their NPU processes are labelled plain "NPU"; the rank folder has profiler_info_{rank}.json
  // and no PROF_ folder, so the device is the rank. Python over the raw files: the NPU
  // processes' pid & 0x1f (the decoding used before) is 0 in every rank0 file and 1 in every
  // rank1 file, so the ids do not change.
  for (const char* c : {"ascend-pt-910a-l0-text-2rank", "ascend-pt-910b-l0-text-2rank", "ascend-pt-910b-l1-text-2rank"}) {
    const std::string path = shared(std::string("corpus/") + c);
    if (!std::filesystem::exists(path)) {
      WARN("corpus case absent, skipped: " << path);
      continue;
    }
    INFO(c);
    core::LoadOptions o;
    o.threads = 2;
    const auto r = core::loadProfile(path, o);
    REQUIRE(r.ok());
    REQUIRE(r.profile->ranks.size() == 2);
    for (int k = 0; k < 2; ++k) {
      const core::RankProfile& rp = r.profile->ranks[static_cast<std::size_t>(k)];
      CHECK(rp.rank() == k);
      CHECK(rp.device() == k);
      for (const core::Process& p : rp.trace->processes)
        if (p.label == "NPU") CHECK(p.deviceId == k);
    }
  }
}

TEST_CASE("msprof: loading a PROF_ tree leaves it as it was", "[msprof]") {
  // Every file under the capture (path, size, modification time), before and after a load:
  // npuscope reads the per-device timeline files and writes nothing beside them.
  namespace fs = std::filesystem;
  const std::string root = npuscope::test::shared("corpus/mindspore-msprof-prof-2dev");
  const auto listing = [&] {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      std::error_code ec;
      const auto size = e.is_regular_file() ? e.file_size(ec) : 0;
      const auto mtime = fs::last_write_time(e.path(), ec).time_since_epoch().count();
      out.insert(e.path().string() + " " + std::to_string(size) + " " + std::to_string(mtime));
    }
    return out;
  };
  const auto before = listing();
  REQUIRE(before.size() > 20);
  const auto r = core::loadProfile(root);
  REQUIRE(r.ok());
  CHECK(r.profile->ranks.size() == 2);
  CHECK(listing() == before);
}
