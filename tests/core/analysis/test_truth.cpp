// SPDX-License-Identifier: MIT
// Conclusions no more confident than the data (docs/diagnosis.md §1.1, §2.6, §3, §5, §6): a
// partial capture says so, isolated activity is named, breakdown shares add up to 100%, a 54/46
// split is "mixed", MindSpore graph mode gets no torch wording, tables-only ranks have kernel
// statistics, and counts agree with their nouns. Expected values come from hand counts or Python
// stdlib one-liners run on the raw corpus files (quoted beside them), never from npuscope's output.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/breakdown.h"
#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool anyContains(const std::vector<std::string>& v, const std::string& part) {
  for (const auto& s : v)
    if (contains(s, part)) return true;
  return false;
}

const core::BreakdownPart* part(const std::vector<core::BreakdownPart>& v, const std::string& key) {
  for (const auto& p : v)
    if (p.key == key) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("a corpus trace cut at 60 percent of its bytes gets a partial-capture verdict", "[truth][partial]") {
  const std::string src = shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
  std::ifstream in(src, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() == 2218825);
  test::TempDir dir("truth-partial");
  const std::size_t cut = bytes.size() * 6 / 10;  // 1331295, inside an Overlap Analysis event
  dir.write("trace_view.json", bytes.substr(0, cut));
  const auto trace = test::load((dir.root / "trace_view.json").string());
  const core::RankAnalysis a = core::analyzeRank(*trace, nullptr, nullptr);
  const core::Verdict& v = a.verdict;
  CHECK(v.partial);
  CHECK(contains(v.partialReason, "file ends inside an event at byte 1331295"));
  CHECK(contains(v.headline, "(partial capture)"));
  CHECK(contains(v.summary, "cover only the part that was read"));
  // Python on the cut file: json.loads of the bytes up to the last '}, {' + ']', the Ascend
  // Hardware X events with Task Type AI_CORE/MIX_AIV/...: the last compute end is aclnnMuls,
  // ts 1736408883731549.090 + dur -> 1736408883731549090 ns (the later EVENT_WAIT is no compute).
  REQUIRE(v.coveredUntil);
  CHECK(std::llabs(*v.coveredUntil - 1736408883731549090LL) <= 1);

  // The whole file: no partial flag (same route, the complete bytes).
  const auto whole = test::load(src);
  const core::RankAnalysis b = core::analyzeRank(*whole, nullptr, nullptr);
  CHECK_FALSE(b.verdict.partial);
  CHECK_FALSE(b.verdict.coveredUntil);
}

TEST_CASE("the truncated cases of case 15 say partial in the verdict and the JSON report", "[truth][partial]") {
  // c: two events, then half of the third (case.md): the file ends inside an event at byte 189.
  const auto r = core::loadProfile(shared("cases/15-array-no-closing-bracket/c_truncated_mid_event.json"));
  REQUIRE(r.profile);
  const core::RankProfile& rp = r.profile->ranks.at(0);
  REQUIRE(rp.analysis);
  CHECK(rp.analysis->verdict.partial);
  CHECK(contains(rp.analysis->verdict.partialReason, "byte 189"));
  // No device: covered up to the last event read, codegen [1010, 1014] us (case.md).
  REQUIRE(rp.analysis->verdict.coveredUntil);
  CHECK(*rp.analysis->verdict.coveredUntil == 1014000);
  const std::string json = core::reportJson(*r.profile);
  CHECK(contains(json, "\"partial\": true, \"partial_reason\": "));
  CHECK(contains(core::reportText(*r.profile), "PARTIAL CAPTURE: "));

  // a: the array is not closed; torch_npu and msprof close theirs, so it may be partial.
  const auto a = core::loadProfile(shared("cases/15-array-no-closing-bracket/a_unterminated.json"));
  REQUIRE(a.profile);
  REQUIRE(a.profile->ranks.at(0).analysis);
  CHECK(a.profile->ranks.at(0).analysis->verdict.partial);
  CHECK(contains(a.profile->ranks.at(0).analysis->verdict.partialReason, "may have stopped"));
  // A complete, closed trace: not partial.
  CHECK(core::partialCaptureReason(*test::load(shared("cases/07-zero-duration/trace.json"))).empty());
}

TEST_CASE("a device task isolated 133 ms before the rest is named and the figures without it given", "[truth][isolated]") {
  const auto r = core::loadProfile(shared("corpus/msinsight-server-fixtures/full_db/msprof_0.db"));
  REQUIRE(r.profile);
  const core::RankProfile& rp = r.profile->ranks.at(0);
  REQUIRE(rp.analysis);
  REQUIRE(!rp.analysis->devices.empty());
  const core::DeviceAnalysis& d = rp.analysis->devices.front();
  REQUIRE(d.isolated.size() == 1);
  const core::IsolatedActivity& ia = d.isolated.front();
  // Python sqlite3 on TASK ordered by startNs: the first task runs [1698220811392354694,
  // 1698220811392966786), the next starts at 1698220811525764020: gap 132797234 ns; the other
  // 23 tasks end by 1698220811533934423 (hcom task 1698220811533883302 + 51121), 8.17 ms.
  CHECK(ia.leading);
  CHECK(ia.busy.start == 1698220811392354694LL);
  CHECK(ia.gap == 132797234LL);
  CHECK(ia.rest.start == 1698220811525764020LL);
  CHECK(ia.without.e2e < 9'000'000);
  CHECK(anyContains(rp.analysis->verdict.findings, "isolated activity"));
  // MSTX_EVENTS (13 rows) lie at 1753431218824567380..1753431345194404710 ns, 1.75 years after the
  // device tasks: they stretch the span, and are named.
  const core::FarEvents& fe = rp.analysis->farEvents;
  CHECK(fe.count >= 1);
  CHECK(fe.count <= 13);
  REQUIRE(fe.farthest.valid());
  CHECK(rp.trace->sliceRange(fe.farthest).start >= 1753431218824567380LL);
  CHECK(anyContains(rp.analysis->verdict.findings, "stretched by"));

  // A capture without isolated activity: none (the 910B Level1 rank 0, one dense step).
  const auto l1 = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  REQUIRE(l1.profile);
  REQUIRE(l1.profile->ranks.at(0).analysis);
  for (const auto& dev : l1.profile->ranks.at(0).analysis->devices) CHECK(dev.isolated.empty());
  CHECK(l1.profile->ranks.at(0).analysis->farEvents.count == 0);
}

TEST_CASE("computing breakdown shares are exclusive and add up to Computing", "[truth][breakdown]") {
  const auto r = core::loadProfile(shared("corpus/mindspore-msprof-prof-2dev"));
  REQUIRE(r.profile);
  const core::RankProfile& rp = r.profile->ranks.at(0);
  REQUIRE(rp.analysis);
  const core::ComputeBreakdown& c = rp.analysis->devices.front().compute;
  // Python on msprof_0_2_{1,2,3}.json, Ascend Hardware X events by Task Type, ts/dur as Decimal
  // x 1000: union of all compute 17789280; AI_CORE union 17782080, exclusive 15117322; AI_CPU
  // union 2671958, exclusive 7200 (AI_CPU runs beside AI_CORE on another stream).
  CHECK(c.total == 17789280);
  const core::BreakdownPart* core = part(c.byCore, "AI_CORE");
  const core::BreakdownPart* cpu = part(c.byCore, "AI_CPU");
  REQUIRE(core);
  REQUIRE(cpu);
  CHECK(core->ns == 17782080);
  CHECK(core->exclusive == 15117322);
  CHECK(cpu->ns == 2671958);
  CHECK(cpu->exclusive == 7200);
  CHECK(c.coreOverlap == 17789280 - 15117322 - 7200);
  // Each split adds up to Computing exactly.
  for (const auto* split : {&c.byCore, &c.byClass}) {
    core::TimeNs sum = split == &c.byCore ? c.coreOverlap : c.classOverlap;
    for (const auto& p : *split) sum += p.exclusive;
    CHECK(sum == c.total);
  }
  const std::string text = core::computeBreakdownText(c);
  CHECK(contains(text, "AI_CORE 85.0%"));
  CHECK(contains(text, "several at once 15.0%"));
}

TEST_CASE("communication split: the largest part decides the sentence, unknown when it cannot tell", "[truth][comm]") {
  // Hand counts on 100 us of exposed communication (docs/diagnosis.md §5.1).
  core::DeviceAnalysis da;
  da.comm.fromTrace = true;
  da.comm.exposed = 100'000;
  core::Verdict v;
  v.dominant = "communication";
  const auto set = [&](core::TimeNs sync, core::TimeNs transit, core::TimeNs wait, core::TimeNs idle) {
    da.comm.synchronization = sync;
    da.comm.transit = transit;
    da.comm.wait = wait;
    da.comm.idle = idle;
  };
  set(60'000, 20'000, 10'000, 10'000);
  da.comm.synchronizationByPeer = {core::PeerWait{3, 60'000, {}}};
  std::vector<std::string> f = core::breakdownFindings(da, v);
  CHECK(anyContains(f, "synchronization 60.0% (waiting for peer rank 3)"));
  CHECK(anyContains(f, "The largest part is synchronization (60 us)"));
  set(10'000, 70'000, 10'000, 10'000);
  // 9,000,000 B in 1 ms over HCCS = 9 GB/s, half the nominal 18 GB/s.
  da.comm.links = {core::CommLink{"HCCS", 9'000'000, 1'000'000, 4}, core::CommLink{"SDMA", 9'000'000, 1'000'000, 4}};
  f = core::breakdownFindings(da, v);
  CHECK(anyContains(f, "The largest part is transit (70 us)"));
  CHECK(anyContains(f, "HCCS 9.00 GB/s, 50% of its nominal 18)"));
  // Idle largest, other planes waiting for rank 5 over 40 of its 70 us: a late peer.
  set(10'000, 10'000, 10'000, 70'000);
  da.comm.idlePeerWait = 40'000;
  da.comm.idleByPeer = {core::PeerWait{5, 40'000, {}}};
  f = core::breakdownFindings(da, v);
  CHECK(anyContains(f, "other planes wait for peer rank 5 (40 us)"));
  // Idle largest with no task on any plane for most of it: unknown, never a guess.
  da.comm.idlePeerWait = 10'000;
  f = core::breakdownFindings(da, v);
  CHECK(anyContains(f, "its cause is unknown from this capture"));
  // No plane tasks (Level0): the split is unknown.
  da.comm.fromTrace = false;
  f = core::breakdownFindings(da, v);
  CHECK(anyContains(f, "The split of the exposed communication is unknown"));
  for (const auto& line : f) CHECK(line.find("dominates") == std::string::npos);
}

TEST_CASE("910B Level1 capture: group rank 5, outside the capture, holds the collectives and rank 1's lateness costs nothing", "[truth][comm]") {
  // communication.json (Python): the first hcom_allReduce__586_0_1 starts at 1736408883732241.5 us
  // on rank 0 and 1736408883737849.2 us on rank 1 (5607.7 us later). trace_view.json (Python):
  // rank 0's first Notify_Wait on dst rank 5 (Plane 5) runs from 12.25 to 78,776.75 us after its
  // op start, rank 1's (Plane 4) from 12.0 to 73,162.0 us after its own; both first Notify_Records
  // start 6.0 and 6.5 us after the op start. Group rank 5 is no rank of the capture (rank_id 0 and 1
  // in profiler_info_*.json): it arrives 78,776.75 - 6.0 - 5,607.716 = 73,163.03 us after rank 1.
  const auto r = core::loadProfile(shared("corpus/ascend-pt-910b-l1-text-2rank"));
  REQUIRE(r.profile);
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("Group rank 5 of HCCL group 586, which is not in this capture, holds 3 of 4 collectives of its group") != std::string::npos);
  CHECK(text.find("Worst, allReduce #0 (hcom_allReduce__586_0_1) in step 50: it arrives 73.163 ms after the last loaded rank") !=
        std::string::npos);
  CHECK(text.find("Rank 1 reaches it 5.608 ms after rank 0, which costs nothing: group rank 5 arrives 73.163 ms later still.") !=
        std::string::npos);
  CHECK(text.find("rank 1 is late to") == std::string::npos);
  CHECK(text.find("that is a rank that waits; the ranks wait for group rank 5 of HCCL group 586, which is not in this capture") != std::string::npos);
  CHECK(text.find("The sources disagree") == std::string::npos);
  CHECK(text.find("check for a slow rank") == std::string::npos);
  CHECK(text.find("group rank 5 of HCCL group 586, not captured, holds 3") != std::string::npos);  // the slow-rank line agrees
}

TEST_CASE("MindSpore graph mode: no torch wording, steps-needing rules say unknown", "[truth][framework]") {
  const auto r = core::loadProfile(shared("corpus/mindspore-msprof-prof-2dev"));
  REQUIRE(r.profile);
  for (const core::RankProfile& rp : r.profile->ranks) {
    REQUIRE(rp.analysis);
    for (const core::DeviceAnalysis& d : rp.analysis->devices)
      for (const core::Bubble& b : d.bubbles) {
        CHECK_FALSE(contains(b.detail, "torch"));
        CHECK(b.cause != core::BubbleCause::HostIdle);  // an idle CANN layer is not an idle host
      }
    const core::RankAdvice adv = core::adviseRankProfile(rp);
    for (const auto& f : adv.findings)
      if (f.rule == "transfers") CHECK(f.severity == core::Severity::Unknown);
  }
  // msprof_0.db has no step at all: the transfers rule cannot say per step.
  const auto db = core::loadProfile(shared("corpus/msinsight-server-fixtures/full_db/msprof_0.db"));
  REQUIRE(db.profile);
  const core::RankAdvice adv = core::adviseRankProfile(db.profile->ranks.at(0));
  bool seen = false;
  for (const auto& f : adv.findings)
    if (f.rule == "transfers") {
      seen = true;
      CHECK(f.severity == core::Severity::Unknown);
      CHECK(contains(f.numbers, "no steps recorded"));
    }
  CHECK(seen);
}

TEST_CASE("kernel statistics of a tables-only rank come from its kernel_details.csv", "[truth][stats]") {
  const auto r = core::loadProfile(shared("corpus/ascend-pt-cann83-l2-4rank-partial"));
  REQUIRE(r.profile);
  const core::RankProfile* rank0 = nullptr;
  for (const auto& rp : r.profile->ranks)
    if (rp.rank() == 0) rank0 = &rp;
  REQUIRE(rank0);
  REQUIRE_FALSE(rank0->trace);
  REQUIRE(rank0->kernels);
  const core::StatsTable t = core::kernelTableStats(*rank0->kernels);
  // Python csv.DictReader on rank_0's kernel_details.csv (utf-8-sig): 2463 rows, 2448 not
  // COMMUNICATION/HCCL, summed Duration(us) 231290.100, 44 distinct Names.
  CHECK(t.slices == 2448);
  CHECK(t.sumTotal == 231290100);
  CHECK(t.rows.size() == 44);
  CHECK(contains(t.kernelRule, "kernel_details.csv alone"));
}

TEST_CASE("counts agree with their nouns", "[truth][plural]") {
  CHECK(core::countNoun(1, "launch", "launches") == "1 launch");
  CHECK(core::countNoun(2, "launch", "launches") == "2 launches");
  CHECK(core::countNoun(0, "bubble") == "0 bubbles");
  CHECK(core::countNoun(1, "rank") == "1 rank");
}
