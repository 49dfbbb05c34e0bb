// SPDX-License-Identifier: MIT
// HCCL collectives (docs/diagnosis.md §5.3, §5.4) against the independent oracle
// tools/oracles/comm_oracle.py, whose output for the corpus is tests/data/comm_oracle.json: the
// profiler's own per-op figures (communication.json, analysis.db CommAnalyzerTime and
// CommAnalyzerBandwidth), read with the Python standard library, the last rank to start by the rule of §5.4.
// npuscope computes the same figures from the plane tasks of the trace or the database; every op
// of every rank is compared (start within 1 us after the oracle's per-rank constant, the five
// figures within 2% or 5 us), every collective's last rank to start, each rank's links per transport and its
// communication matrix per (src, dst, transport) (within 2%). The same comparison runs again on a copy of each capture without
// communication.json, communication_matrix.json and analysis.db: npuscope must not need them.
// Regenerate the oracle's file with
//   python3 tools/oracles/comm_oracle.py --json tests/data/comm_oracle.json

#include <catch2/catch.hpp>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "core/analysis/analysis.h"
#include "core/analysis/collectives.h"
#include "core/analysis/profile_analysis.h"
#include "core/profile/profile.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

std::int64_t i64(simdjson::dom::element e) {
  std::int64_t v = 0;
  if (e.get(v) == simdjson::SUCCESS) return v;
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return static_cast<std::int64_t>(std::llround(d));
  return INT64_MIN;
}

double num(simdjson::dom::element e) {
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return d;
  std::int64_t v = 0;
  if (e.get(v) == simdjson::SUCCESS) return static_cast<double>(v);
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) return std::strtod(std::string(s).c_str(), nullptr);
  return NAN;
}

std::string str(simdjson::dom::element e) {
  std::string_view v;
  return e.get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

/// Within 2% of the recorded value or 5 us (the issue's tolerance).
bool close(core::TimeNs ours, std::int64_t recorded) {
  const double d = std::fabs(static_cast<double>(ours - recorded));
  return d <= 5000.0 || d <= 0.02 * std::fabs(static_cast<double>(recorded));
}

const core::RankProfile* rankOf(const core::Profile& p, std::int64_t rank) {
  for (const core::RankProfile& rp : p.ranks)
    if (rp.rank() == rank) return &rp;
  return nullptr;
}

/// Copies `from` to `to` without communication.json, communication_matrix.json and analysis.db.
void copyWithoutRecords(const std::filesystem::path& from, const std::filesystem::path& to) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(from, ec)) {
    const fs::path rel = fs::relative(e.path(), from, ec);
    const std::string name = e.path().filename().string();
    if (e.is_directory()) {
      fs::create_directories(to / rel, ec);
      continue;
    }
    if (name == "communication.json" || name == "communication_matrix.json" || name == "analysis.db") continue;
    fs::create_directories((to / rel).parent_path(), ec);
    fs::copy_file(e.path(), to / rel, fs::copy_options::overwrite_existing, ec);
  }
}

/// Compares one loaded capture with the oracle's entry `cap`. Returns the number of ops compared.
std::size_t compareCapture(const core::Profile& profile, simdjson::dom::element cap) {
  std::size_t compared = 0;
  for (simdjson::dom::element r : cap["ranks"].get_array()) {
    const std::int64_t rank = i64(r["rank"]);
    INFO("rank " << rank);
    const core::RankProfile* rp = rankOf(profile, rank);
    REQUIRE(rp);
    REQUIRE(rp->analysis);
    REQUIRE_FALSE(rp->analysis->devices.empty());
    const core::CommBreakdown& comm = rp->analysis->devices.front().comm;
    std::map<std::string, std::size_t> seen;  // name -> occurrences used
    for (simdjson::dom::element o : r["ops"].get_array()) {
      const std::string name = str(o["name"]);
      INFO("op " << name);
      const std::size_t nth = seen[name]++;
      const core::CommOp* op = nullptr;
      std::size_t k = 0;
      for (const core::CommOp& c : comm.ops)
        if (c.name == name && k++ == nth) op = &c;
      REQUIRE(op);
      REQUIRE(op->hasTasks);
      CHECK(std::llabs(op->range.start - i64(o["start_ns"])) <= 1000);
      CHECK(close(op->elapse, i64(o["elapse_ns"])));
      CHECK(close(op->transit, i64(o["transit_ns"])));
      CHECK(close(op->wait, i64(o["wait_ns"])));
      CHECK(close(op->synchronization, i64(o["synchronization_ns"])));
      CHECK(close(op->idle, i64(o["idle_ns"])));
      ++compared;
    }
    for (simdjson::dom::element l : r["links"].get_array()) {
      const std::string transport = str(l["transport"]);
      INFO("link " << transport);
      const core::CommLink* ours = nullptr;
      for (const core::CommLink& c : comm.links)
        if (c.transport == transport) ours = &c;
      REQUIRE(ours);
      const double mb = num(l["transit_size_mb"]), us = num(l["transit_time_us"]), gbs = num(l["bandwidth_gb_s"]);
      CHECK(std::fabs(static_cast<double>(ours->bytes) / 1e6 - mb) <= 0.02 * mb);
      CHECK(std::fabs(static_cast<double>(ours->time) / 1e3 - us) <= 0.02 * us);
      CHECK(std::fabs(ours->bandwidthGBs() - gbs) <= 0.02 * gbs);
    }
    // The communication matrix (communication_matrix.json's -total pairs off the chip).
    const std::vector<core::CommPeerLink> pairs = core::peerLinksOf(comm.ops);
    std::size_t matrixRows = 0;
    for (simdjson::dom::element m : r["matrix"].get_array()) {
      INFO("pair " << i64(m["src"]) << "-" << i64(m["dst"]) << " " << str(m["transport"]));
      const core::CommPeerLink* ours = nullptr;
      for (const core::CommPeerLink& p : pairs)
        if (p.self == i64(m["src"]) && p.peer == i64(m["dst"]) && p.link.transport == str(m["transport"])) ours = &p;
      REQUIRE(ours);
      const double mb = num(m["transit_size_mb"]), us = num(m["transit_time_us"]);
      CHECK(std::fabs(static_cast<double>(ours->link.bytes) / 1e6 - mb) <= 0.02 * mb);
      CHECK(std::fabs(static_cast<double>(ours->link.time) / 1e3 - us) <= 0.02 * us);
      ++matrixRows;
    }
    CHECK(matrixRows == pairs.size());
  }
  // The last rank to start of every collective, found by the name of its reference rank's op.
  REQUIRE(profile.analysis);
  const core::ClusterComm& cc = profile.analysis->comm;
  for (simdjson::dom::element c : cap["collectives"].get_array()) {
    simdjson::dom::object names = c["names"].get_object();
    std::string refName;
    for (auto [key, value] : names) {
      refName = str(value);
      break;
    }
    INFO("collective " << refName << " #" << i64(c["sequence"]));
    const core::Collective* ours = nullptr;
    for (const core::Collective& x : cc.collectives)
      if (x.type == str(c["type"]) && x.sequence == static_cast<std::size_t>(i64(c["sequence"]))) ours = &x;
    REQUIRE(ours);
    CHECK(ours->ranks.size() == names.size());
    // The last loaded rank to start (after the clock offsets): the recorded starts' (rule 3). Whether
    // it holds the collective is holder_oracle.py's (test_holder.cpp).
    simdjson::dom::element last = c["last_rank"];
    if (last.is_null()) {
      CHECK(ours->maxSkew < core::kLateRankMinSkewNs);
    } else {
      CHECK(ours->maxSkew >= core::kLateRankMinSkewNs);
      CHECK(ours->ranks[ours->lateIndex].rank == i64(last));
      CHECK(close(ours->maxSkew, i64(c["max_skew_ns"])));
      if (ours->holder.loaded() && ours->holder.status == core::Holder::Status::Known) CHECK(close(ours->lost, i64(c["lost_ns"])));
    }
  }
  return compared;
}

}  // namespace

TEST_CASE("collectives: every op of every rank and the last rank to start equal the profiler's records (oracle)", "[collectives][oracle]") {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.load(std::string(NPUSCOPE_SOURCE_DIR) + "/tests/data/comm_oracle.json").get(root) == simdjson::SUCCESS);
  std::size_t captures = 0;
  for (simdjson::dom::element cap : root["captures"].get_array()) {
    const std::string rel = str(cap["capture"]);
    // Captures whose ranks have no trace (the CANN 8.3 folder lost its trace_view.json) or no
    // trace of their own (fixtures) cannot be computed: only those with plane tasks are compared.
    if (rel.find("cann83") != std::string::npos || rel.find("msinsight") != std::string::npos) continue;
    INFO(rel);
    const auto r = core::loadProfile(shared("corpus/" + rel));
    REQUIRE(r.profile);
    CHECK(compareCapture(*r.profile, cap) > 0);
    // The same without the profiler's summaries.
    test::TempDir tmp("comm");
    copyWithoutRecords(shared("corpus/" + rel), tmp.root / "capture");
    const auto bare = core::loadProfile((tmp.root / "capture").string());
    REQUIRE(bare.profile);
    for (const core::RankProfile& rp : bare.profile->ranks)
      if (rp.analysis && !rp.analysis->devices.empty()) CHECK_FALSE(rp.analysis->devices.front().comm.json);
    CHECK(compareCapture(*bare.profile, cap) > 0);
    ++captures;
  }
  CHECK(captures == 3);
}

TEST_CASE("the slowest link is judged against its rank's chip's nominal", "[collectives][links]") {
  // msprof's table (number_constant.py): HCCS 28 GB/s on every Ascend910B model, 18 on the 910A
  // and when the chip is not recorded. The 910B .db export names its chip (NPU_INFO
  // "Ascend910B"); the text export of the same model records none.
  auto db = core::loadProfile(npuscope::test::shared("corpus/ascend-pt-910b-db-2rank/level1"));
  REQUIRE(db.ok());
  REQUIRE(db.profile->analysis);
  const core::SlowLink slow = core::slowestLink(db.profile->analysis->summaries);
  REQUIRE(slow.found);
  CHECK(slow.chip == "Ascend910B");
  CHECK(slow.link.link.transport == "HCCS");
  CHECK(slow.share == Approx(slow.link.link.bandwidthGBs() / 28.0));
  bool said = false;
  for (const std::string& f : db.profile->analysis->findings) said = said || f.find("of its nominal 28 GB/s") != std::string::npos;
  CHECK(said);
  REQUIRE_FALSE(db.profile->ranks.empty());
  CHECK(db.profile->ranks[0].analysis->devices.front().comm.chip == "Ascend910B");
  auto text = core::loadProfile(npuscope::test::shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(text.ok());
  const core::SlowLink t = core::slowestLink(text.profile->analysis->summaries);
  REQUIRE(t.found);
  CHECK(t.chip.empty());
  CHECK(t.share == Approx(t.link.link.bandwidthGBs() / core::nominalLinkGBs(t.link.link.transport)));
  CHECK(core::nominalLinkGBs(t.link.link.transport) == (t.link.link.transport == "HCCS" ? 18.0 : t.link.link.transport == "PCIE" ? 20.0 : 12.5));
}

namespace {

// Constructed data (issue 41 item 10): plane tasks that record msprof's `is master` and `rdma type`
// (the database export's COMMUNICATION_TASK_INFO.isMaster / rdmaType). Times in us, by hand:
// hcom_allReduce__5_0_1 [10,100): Plane 0 (not master) waits [20,25) for rank 2; Plane 1 (master):
// Notify_Record 10, Notify_Wait [12,30) on rank 1, payloads [30,40) 1000 B and [40,50) 2000 B, then
// RDMA notify [50,52), wait [52,80), RDMA notify [80,82), wait [82,90) (the closing task: 2 payloads
// + 5 - 2 = 5 tasks on from the first), a last wait [95,100).
// hcom_send__5_0_1 [200,300): Plane 1 payload [210,220) 500 B, RDMA notify [220,222), wait [222,230)
// (closing: 1 + 3 - 2 = 2 tasks on, a send op), wait [240,250).
std::string rdmaTrace(bool recorded) {
  std::string b = R"({"traceEvents":[
{"ph":"M","name":"process_name","pid":300,"tid":0,"args":{"name":"Ascend Hardware"}},
{"ph":"M","name":"process_labels","pid":300,"tid":0,"args":{"labels":"NPU 0"}},
{"ph":"M","name":"process_name","pid":400,"tid":0,"args":{"name":"HCCL"}},
{"ph":"M","name":"process_labels","pid":400,"tid":0,"args":{"labels":"NPU 0"}},
{"ph":"M","name":"thread_name","pid":400,"tid":0,"args":{"name":"Group 0 Communication"}},
{"ph":"M","name":"thread_name","pid":400,"tid":1,"args":{"name":"Plane 0"}},
{"ph":"M","name":"thread_name","pid":400,"tid":2,"args":{"name":"Plane 1"}},
{"ph":"X","pid":300,"tid":5,"name":"MatMul","ts":400,"dur":5,"args":{"Task Type":"AI_CORE"}},
{"ph":"X","pid":400,"tid":0,"name":"hcom_allReduce__5_0_1","ts":10,"dur":90,"args":{}},
{"ph":"X","pid":400,"tid":0,"name":"hcom_send__5_0_1","ts":200,"dur":100,"args":{}})";
  const auto task = [&](int tid, const char* name, int ts, int dur, int peer, const char* transport, int bytes, const char* rdma, int master) {
    b += ",\n{\"ph\":\"X\",\"pid\":400,\"tid\":" + std::to_string(tid) + ",\"name\":\"" + name + "\",\"ts\":" + std::to_string(ts) +
         ",\"dur\":" + std::to_string(dur) + ",\"args\":{\"src rank\":0,\"dst rank\":" + std::to_string(peer) +
         ",\"link type\":\"INVALID_TYPE\",\"transport type\":\"" + transport + "\",\"size(Byte)\":" + std::to_string(bytes);
    if (recorded) b += std::string(",\"rdma type\":\"") + rdma + "\",\"is master\":" + std::to_string(master);
    b += "}}";
  };
  task(1, "Notify_Wait", 20, 5, 2, "SDMA", 0, "INVALID_TYPE", 0);
  task(2, "Notify_Record", 10, 0, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "Notify_Wait", 12, 18, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "RDMASend", 30, 10, 1, "RDMA", 1000, "RDMA_SEND_PAYLOAD", 1);
  task(2, "RDMASend", 40, 10, 1, "RDMA", 2000, "RDMA_SEND_PAYLOAD", 1);
  task(2, "RDMASend", 50, 2, 1, "RDMA", 4, "RDMA_SEND_NOTIFY", 1);
  task(2, "Notify_Wait", 52, 28, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "RDMASend", 80, 2, 1, "RDMA", 4, "RDMA_SEND_NOTIFY", 1);
  task(2, "Notify_Wait", 82, 8, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "Notify_Wait", 95, 5, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "RDMASend", 210, 10, 1, "RDMA", 500, "RDMA_SEND_PAYLOAD", 1);
  task(2, "RDMASend", 220, 2, 1, "RDMA", 4, "RDMA_SEND_NOTIFY", 1);
  task(2, "Notify_Wait", 222, 8, 1, "SDMA", 0, "INVALID_TYPE", 1);
  task(2, "Notify_Wait", 240, 10, 1, "SDMA", 0, "INVALID_TYPE", 1);
  return b + "\n]}";
}

}  // namespace

TEST_CASE("collectives: is master picks the counted plane and RDMA payload runs are timed to their closing task, as msprof", "[collectives]") {
  const auto t = test::loadMemory(rdmaTrace(true));
  std::vector<core::CommLink> links;
  const std::vector<core::CommOp> ops = core::commOps(*t, 0, nullptr, &links, nullptr);
  REQUIRE(ops.size() == 2);
  const core::CommOp& ar = ops[0];
  // Today's rule alone would count Plane 0 (the lowest plane holding a Notify_Wait); is master says Plane 1.
  CHECK(ar.masterPlane == 1);
  CHECK(ar.elapse == 90'000);
  CHECK(ar.transit == 60'000);          // [30, 90): first payload to the closing wait's end
  CHECK(ar.synchronization == 18'000);  // [12, 30) before the first transit
  CHECK(ar.wait == 18'000 + 5'000);     // the waits inside the run count for nothing else
  CHECK(ar.idle == 90'000 - 60'000 - 23'000);
  const core::CommOp& send = ops[1];
  CHECK(send.masterPlane == 1);
  CHECK(send.transit == 20'000);  // [210, 230): a send op closes 2 tasks after its payload
  CHECK(send.wait == 10'000);
  CHECK(send.synchronization == 0);
  // The RDMA link: the payloads' bytes over the runs' time (notifies carry no data).
  const auto rdma = std::find_if(links.begin(), links.end(), [](const core::CommLink& l) { return l.transport == "RDMA"; });
  REQUIRE(rdma != links.end());
  CHECK(rdma->bytes == 1000 + 2000 + 500);
  CHECK(rdma->time == 60'000 + 20'000);

  SECTION("without is master and rdma type (the text export) today's rule and every RDMA task stand") {
    const auto u = test::loadMemory(rdmaTrace(false));
    const std::vector<core::CommOp> o = core::commOps(*u, 0, nullptr, nullptr, nullptr);
    REQUIRE(o.size() == 2);
    CHECK(o[0].masterPlane == 0);
    CHECK(o[0].transit == 0);
    CHECK(o[0].wait == 5'000);
  }
  SECTION("a payload run without its closing task counts nothing") {
    std::string text = rdmaTrace(true);
    // Drop the send op's two waits [222,230) and [240,250): after its payload and notify no task
    // is left where the closing one would be.
    for (const std::string closing : {R"("name":"Notify_Wait","ts":222)", R"("name":"Notify_Wait","ts":240)"}) {
      const auto at = text.rfind('{', text.find(closing));
      text.erase(at - 2, text.find('}', text.find('}', at) + 1) + 1 - (at - 2));
    }
    REQUIRE(text.find(R"("ts":240)") == std::string::npos);
    const auto v = test::loadMemory(text);
    const std::vector<core::CommOp> o = core::commOps(*v, 0, nullptr, nullptr, nullptr);
    REQUIRE(o.size() == 2);
    CHECK(o[1].transit == 0);
  }
}

TEST_CASE("collectives: ranks of tables only are matched from their communication.json records, as the oracle does", "[collectives][oracle]") {
  const char* captureName = GENERATE("cann83", "msinsight");
  INFO(captureName);
  // Issue 41 item 9: the CANN 8.3 capture's ranks have no trace, only tables; their
  // communication.json records each op's start and elapse. comm_oracle.py (rules 1-3, from the
  // same records, sharing no code) gives each collective's last rank and skew.
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.load(std::string(NPUSCOPE_SOURCE_DIR) + "/tests/data/comm_oracle.json").get(root) == simdjson::SUCCESS);
  simdjson::dom::element cap;
  for (simdjson::dom::element c : root["captures"].get_array())
    if (str(c["capture"]).find(captureName) != std::string::npos) cap = c;
  REQUIRE(cap.is_object());
  const auto r = core::loadProfile(shared("corpus/" + str(cap["capture"])));
  REQUIRE(r.profile);
  for (const core::RankProfile& rp : r.profile->ranks)
    if (!rp.trace) CHECK_FALSE(rp.recordedOps.empty());
  REQUIRE(r.profile->analysis);
  const core::ClusterComm& cc = r.profile->analysis->comm;
  std::size_t compared = 0;
  for (simdjson::dom::element c : cap["collectives"].get_array()) {
    std::string refRank, refName;
    for (auto [key, value] : c["names"].get_object()) {
      refRank = std::string(key);
      refName = str(value);
      break;
    }
    INFO("collective " << refName << " #" << i64(c["sequence"]));
    const core::Collective* ours = nullptr;
    for (const core::Collective& x : cc.collectives) {
      if (x.type != str(c["type"]) || x.sequence != static_cast<std::size_t>(i64(c["sequence"]))) continue;
      for (const core::CollectiveRank& cr : x.ranks)
        if (std::to_string(cr.rank) == refRank && core::collectiveOp(*r.profile, cr) && core::collectiveOp(*r.profile, cr)->name == refName)
          ours = &x;
    }
    REQUIRE(ours);
    CHECK(ours->ranks.size() == c["names"].get_object().size());
    simdjson::dom::element last = c["last_rank"];
    if (last.is_null()) {
      CHECK(ours->maxSkew < core::kLateRankMinSkewNs);
    } else {
      CHECK(ours->ranks[ours->lateIndex].rank == i64(last));
      CHECK(close(ours->maxSkew, i64(c["max_skew_ns"])));
      // Without plane tasks nobody is named the holder for certain.
      CHECK(ours->holder.status != core::Holder::Status::Known);
    }
    ++compared;
  }
  if (std::string(captureName) == "cann83") CHECK(compared == 22);
}

TEST_CASE("collectives: a rank of tables only whose recorded synchronization is long is held by a later member", "[collectives][holder]") {
  // By hand: two ranks without trace, one allReduce of group 7. Rank 0 starts at 0 and lasts
  // 1000 us; rank 1 starts 300 us later (same end: one clock). Rank 1's record says it waited
  // `sync` before its first transfer: 200 us means a member arrived 200 us after it (held by a
  // later member, not named); 10 us leaves rank 1 the latest the capture sees, unverified.
  for (const core::TimeNs sync : {core::TimeNs{200'000}, core::TimeNs{10'000}}) {
    INFO("synchronization " << sync);
    core::Profile p;
    for (int rank = 0; rank < 2; ++rank) {
      core::CommunicationJson json;
      core::CommOpTimes t;
      t.kind = "collective";
      t.name = "hcom_allReduce__7_0_1@7";
      t.start = rank == 0 ? 1'000'000'000 : 1'000'300'000;
      t.elapse = rank == 0 ? 1'000'000 : 700'000;
      t.synchronization = rank == 1 ? sync : 0;
      t.wait = t.synchronization;
      json.ops.push_back(t);
      core::RankProfile rp;
      rp.source.rank = rank;
      rp.source.label = "rank " + std::to_string(rank);
      rp.recordedOps = core::commOpsFromRecords(json);
      REQUIRE(rp.recordedOps.size() == 1);
      p.ranks.push_back(std::move(rp));
    }
    const core::ProfileAnalysis a = core::analyzeProfile(p);
    REQUIRE(a.comm.collectives.size() == 1);
    const core::Collective& c = a.comm.collectives[0];
    CHECK(c.ranks[c.lateIndex].rank == 1);
    CHECK(c.maxSkew == 300'000);
    if (sync >= core::kLateRankMinSkewNs) {
      CHECK(c.holder.status == core::Holder::Status::Unknown);
      CHECK(c.holder.heldAfter == 200'000);
      CHECK(c.holder.heldRank == 1);
    } else {
      CHECK(c.holder.status == core::Holder::Status::Unverified);
      CHECK(c.holder.rank == 1);
    }
  }
}
