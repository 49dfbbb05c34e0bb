// SPDX-License-Identifier: MIT
// Loads every torch_npu text trace of the shared corpus (and the bundled sample) with
// core::loadProfile and checks per rank: slices per process_name, bound flows per category and the
// exact start (int ns) of a few named slices.
//
// The expected values are literals copied from the independent reference counter
// tools/oracles/count_corpus.py (Python standard library only, no npuscope code); its output and the
// exact counting method are in docs/corpus-counts.md and tests/data/corpus_counts.json.
// Regenerate both with `python3 tools/oracles/count_corpus.py` and update the literals below.
//
// Rules assumed by the reference (see docs/corpus-counts.md):
// * flows pair by (cat, name, raw id); an f pairs with the latest s at or before it, or the
//   key's first s when the f comes first (device clocks run ahead: real HostToDevice finishes
//   precede their starts); one s may feed several f (fan-out). In the 910B captures five
//   HostToDevice starts have two finishes each: 215 bound with fan-out, 210 if strictly 1:1.
// * the s end (and the f end with bp "e") binds to the deepest slice with start <= ts < end (or a
//   zero-length slice at ts). At Level0 the CANN layer is pruned, so no HostToDevice start binds
//   on its own thread; the reference's "bound via Dequeue (Level0)" count (a Dequeue* slice of
//   the Python process on the same tid holds the s ts) is added to the HostToDevice literals:
//   349 starts of 349 in 910A L0, 215 flows from 210 starts (fan-out) in 910B L0.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/profile/profile.h"
#include "core/model/trace.h"

using namespace npuscope::core;

namespace {

struct RankExpect {
  int rank;
  std::size_t slicesTotal;
  std::vector<std::pair<std::string, std::size_t>> slicesPerProcess;
  std::vector<std::pair<std::string, std::size_t>> boundFlows;
  std::string firstStepName;
  std::int64_t firstStepNs;
  std::string firstHwName;
  std::int64_t firstHwNs;
  std::int64_t firstFreeNs;
};

struct CaseExpect {
  std::string name;
  std::string loadPath;  ///< relative to NPUSCOPE_SHARED_DIR, or "@repo/..." for the source tree
  std::vector<RankExpect> ranks;
};

// Copied from tools/oracles/count_corpus.py output (tests/data/corpus_counts.json).
const std::vector<CaseExpect>& expectations() {
  static const std::vector<CaseExpect> cases = {
    {"ascend-pt-910a-l0-text-2rank", "corpus/ascend-pt-910a-l0-text-2rank", {
        {0, 5353, {{"Ascend Hardware", 1749}, {"HCCL", 4}, {"Overlap Analysis", 701}, {"Python", 2899}},
         {{"HostToDevice", 349}, {"async_npu", 349}, {"async_task_queue", 232}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1727592872421469657LL, "MemcopyAsync", 1727592872432513520LL, 1727592872435349618LL},
        {1, 5353, {{"Ascend Hardware", 1749}, {"HCCL", 4}, {"Overlap Analysis", 701}, {"Python", 2899}},
         {{"HostToDevice", 349}, {"async_npu", 349}, {"async_task_queue", 232}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1727592872416952839LL, "MemcopyAsync", 1727592872430770592LL, 1727592872434507050LL},
    }},
    {"ascend-pt-910b-l0-text-2rank", "corpus/ascend-pt-910b-l0-text-2rank", {
        {0, 3379, {{"Ascend Hardware", 533}, {"HCCL", 4}, {"Overlap Analysis", 382}, {"Python", 2460}},
         {{"HostToDevice", 215}, {"async_npu", 210}, {"async_task_queue", 159}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1736405443862052130LL, "MEMCPY_ASYNC", 1736405443876953510LL, 1736405443881460940LL},
        {1, 3379, {{"Ascend Hardware", 533}, {"HCCL", 4}, {"Overlap Analysis", 382}, {"Python", 2460}},
         {{"HostToDevice", 215}, {"async_npu", 210}, {"async_task_queue", 159}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1736405443878117140LL, "MEMCPY_ASYNC", 1736405443892505958LL, 1736405443897089390LL},
    }},
    {"ascend-pt-910b-l1-text-2rank", "corpus/ascend-pt-910b-l1-text-2rank", {
        {0, 4384, {{"Ascend Hardware", 535}, {"CANN", 707}, {"HCCL", 300}, {"Overlap Analysis", 382}, {"Python", 2460}},
         {{"HostToDevice", 215}, {"async_npu", 210}, {"async_task_queue", 159}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1736408883686740710LL, "PROFILING_ENABLE", 1736408883674584732LL, 1736408883704696954LL},
        {1, 4385, {{"Ascend Hardware", 535}, {"CANN", 708}, {"HCCL", 300}, {"Overlap Analysis", 382}, {"Python", 2460}},
         {{"HostToDevice", 215}, {"async_npu", 210}, {"async_task_queue", 159}, {"fwdbwd", 27}},
         "ProfilerStep#50", 1736408883688868080LL, "PROFILING_ENABLE", 1736408883676317851LL, 1736408883709355111LL},
    }},
    {"msprof-analyze-advisor-timeline_advice", "corpus/msprof-analyze-advisor-fixtures/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json", {
        {-1, 2212, {{"Ascend Hardware", 276}, {"CANN", 382}, {"Overlap Analysis", 547}, {"Python", 1007}},
         {{"HostToDevice", 274}, {"async_npu", 274}, {"async_task_queue", 148}, {"fwdbwd", 17}},
         "ProfilerStep#1", 1704161511420289011LL, "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike", 1704161511422904204LL, 1704161511422905554LL},
    }},
    {"npuscope-sample", "@repo/resources/sample/npuscope-sample_20261129101500000_ascend_pt", {
        {0, 1225, {{"Ascend Hardware", 112}, {"CANN", 251}, {"Overlap Analysis", 209}, {"Python", 653}},
         {{"HostToDevice", 112}, {"async_npu", 111}, {"async_task_queue", 96}, {"fwdbwd", 24}},
         "ProfilerStep#1", 1795918500123456789LL, "MEMCPY_ASYNC", 1795918500123522809LL, 1795918500124196349LL},
    }},
  };
  return cases;
}

std::string resolve(const std::string& rel) {
  const std::string repo = "@repo/";
  if (rel.rfind(repo, 0) == 0) return std::string(NPUSCOPE_SOURCE_DIR) + "/" + rel.substr(repo.size());
  return std::string(NPUSCOPE_SHARED_DIR) + "/" + rel;
}

struct Observed {
  std::map<std::string, std::size_t> slices;
  std::map<std::string, std::size_t> flows;
  std::size_t slicesTotal = 0;
  std::string firstStepName;
  std::int64_t firstStepNs = -1;
  std::string firstHwName;
  std::int64_t firstHwNs = -1;
  std::int64_t firstFreeNs = -1;
};

Observed observe(const Trace& t) {
  Observed o;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t stepNs = kMax;
  std::int64_t freeNs = kMax;
  // First Ascend Hardware lane: lowest thread_sort_index, then tid, among lanes with slices.
  const Lane* hwLane = nullptr;
  auto hwKey = [](const Lane& l) {
    return std::make_pair(l.sortIndex.value_or(std::int64_t{1} << 62), l.tid);
  };
  for (const Lane& lane : t.lanes) {
    const Process& p = t.processes[lane.process];
    o.slices[p.name] += lane.sliceCount();
    o.slicesTotal += lane.sliceCount();
    if (lane.sliceCount() == 0) continue;
    if (p.name == "Ascend Hardware" && (!hwLane || hwKey(lane) < hwKey(*hwLane))) hwLane = &lane;
    for (std::size_t i = 0; i < lane.sliceCount(); ++i) {
      std::string_view n = t.name(lane.names[i]);
      if (n.rfind("ProfilerStep#", 0) == 0 && lane.start[i] < stepNs) {
        stepNs = lane.start[i];
        o.firstStepName = std::string(n);
      }
      if (p.name == "Overlap Analysis" && n == "Free") freeNs = std::min(freeNs, lane.start[i]);
    }
  }
  if (stepNs != kMax) o.firstStepNs = stepNs;
  if (freeNs != kMax) o.firstFreeNs = freeNs;
  if (hwLane) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < hwLane->sliceCount(); ++i)
      if (hwLane->start[i] < hwLane->start[best]) best = i;
    o.firstHwNs = hwLane->start[best];
    o.firstHwName = std::string(t.name(hwLane->names[best]));
  }
  for (const Flow& f : t.flows) o.flows[std::string(t.name(f.category))]++;
  return o;
}

void checkRank(const RankExpect& e, const RankProfile& rp) {
  REQUIRE(rp.trace != nullptr);
  const Observed o = observe(*rp.trace);
  CHECK(o.slicesTotal == e.slicesTotal);
  std::map<std::string, std::size_t> slices(e.slicesPerProcess.begin(), e.slicesPerProcess.end());
  for (const auto& [name, n] : slices) {
    INFO("slices of process '" << name << "'");
    CHECK(o.slices.count(name) == 1);
    CHECK((o.slices.count(name) ? o.slices.at(name) : 0) == n);
  }
  for (const auto& [name, n] : o.slices) {
    if (n == 0) continue;  // processes with only counters/metadata have no slices
    INFO("unexpected process with slices: '" << name << "' (" << n << ")");
    CHECK(slices.count(name) == 1);
  }
  std::map<std::string, std::size_t> flows(e.boundFlows.begin(), e.boundFlows.end());
  for (const auto& [cat, n] : flows) {
    INFO("bound flows of category '" << cat << "'");
    CHECK((o.flows.count(cat) ? o.flows.at(cat) : 0) == n);
  }
  for (const auto& [cat, n] : o.flows) {
    INFO("unexpected bound flows of category '" << cat << "' (" << n << ")");
    CHECK(flows.count(cat) == 1);
  }
  CHECK(o.firstStepName == e.firstStepName);
  CHECK(o.firstStepNs == e.firstStepNs);
  CHECK(o.firstHwName == e.firstHwName);
  CHECK(o.firstHwNs == e.firstHwNs);
  CHECK(o.firstFreeNs == e.firstFreeNs);
}

}  // namespace

TEST_CASE("corpus: torch_npu text traces match the independent counts", "[corpus]") {
  for (const CaseExpect& c : expectations()) {
    DYNAMIC_SECTION(c.name) {
      const std::string path = resolve(c.loadPath);
      if (!std::filesystem::exists(path)) {
        WARN("corpus case absent, skipped: " << path);
        continue;
      }
      LoadOptions opt;
      opt.threads = 2;
      const ProfileLoadResult r = loadProfile(path, opt);
      INFO("loadProfile(" << path << "): " << r.error);
      REQUIRE(r.ok());
      REQUIRE(r.profile->ranks.size() == c.ranks.size());
      for (const RankExpect& e : c.ranks) {
        INFO("rank " << e.rank);
        const auto it = std::find_if(r.profile->ranks.begin(), r.profile->ranks.end(),
                                     [&](const RankProfile& rp) { return rp.rank() == e.rank; });
        REQUIRE(it != r.profile->ranks.end());
        INFO("trace error: " << it->error);
        checkRank(e, *it);
      }
    }
  }
}
