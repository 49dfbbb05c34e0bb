// SPDX-License-Identifier: MIT
// Stats System View: kernel statistics against the profiler's own kernel_details.csv, range
// statistics (sum versus union) on a hand-built trace, and name search.
#include <catch2/catch.hpp>
#include <map>

#include "core/analysis/intervals.h"
#include "core/analysis/stats.h"
#include "core/profile/profile.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {
std::shared_ptr<const core::Trace> fromJson(const std::string& json) {
  auto r = core::loadTraceFromMemory(json, "hand-built");
  REQUIRE(r.ok());
  return r.trace;
}
const core::StatsRow* row(const core::StatsTable& t, const std::string& name) {
  for (const auto& r : t.rows)
    if (r.name == name) return &r;
  return nullptr;
}
}  // namespace

TEST_CASE("stats over a range: plain sum versus union across lanes", "[stats]") {
  // Lane 1: A [0,10) us, B [20,30) us; lane 2: A [5,15) us, C [40,50) us.
  const auto t = fromJson(R"([
    {"ph":"M","name":"process_name","pid":1,"args":{"name":"Ascend Hardware"}},
    {"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"B","pid":1,"tid":1,"ts":20,"dur":10},
    {"ph":"X","name":"A","pid":1,"tid":2,"ts":5,"dur":10},
    {"ph":"X","name":"C","pid":1,"tid":2,"ts":40,"dur":10}])");
  const auto s = core::computeStats(*t, core::StatsLayer::Kernels, core::TimeRange{0, 25000});
  CHECK(s.slices == 3);            // C starts outside the range
  CHECK(s.sumTotal == 30000);      // 10 + 10 + 10 us
  CHECK(s.unionTotal == 25000);    // [0,15) + [20,30)
  CHECK(s.scopeDuration == 25000);
  REQUIRE(s.rows.size() == 2);
  CHECK(s.rows[0].name == "A");    // sorted by total
  CHECK(s.rows[0].count == 2);
  CHECK(s.rows[0].total == 20000);
  CHECK(s.rows[0].avg == Approx(10000.0));
  CHECK(s.rows[0].share == Approx(20.0 / 30.0));  // of the layer's summed total in scope, 30 us
  CHECK(s.shareDenominator == 30000);
  const auto whole = core::computeStats(*t, core::StatsLayer::Kernels);
  CHECK(whole.slices == 4);
  CHECK(whole.unionTotal == 35000);
  CHECK(core::statsOccurrences(*t, core::StatsLayer::Kernels, "A").size() == 2);
  CHECK(core::statsCsv(s).rfind("Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),Share of layer total(%)", 0) == 0);
}

TEST_CASE("stats: self time subtracts children on nested layers", "[stats]") {
  const auto t = fromJson(R"([
    {"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},
    {"ph":"X","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","name":"inner","pid":1,"tid":1,"ts":10,"dur":30},
    {"ph":"X","name":"inner","pid":1,"tid":1,"ts":50,"dur":20}])");
  const auto s = core::computeStats(*t, core::StatsLayer::Python);
  REQUIRE(row(s, "outer"));
  CHECK(row(s, "outer")->total == 100000);
  CHECK(row(s, "outer")->self == 50000);
  CHECK(row(s, "inner")->self == 50000);
}

TEST_CASE("stats: per-name figures and union equal a slice-by-slice recount", "[stats]") {
  // Pseudo-random slices on two Python threads and two Ascend Hardware streams: nesting, partial
  // overlaps (children running past their parent), zero-length slices, equal starts. The figures
  // are recounted slice by slice here: self time with Lane::selfTime (a per-slice query), the
  // union with unionOf over every in-scope slice, and compared with computeStats' single pass.
  std::string json = R"([{"ph":"M","name":"process_name","pid":1,"args":{"name":"Python"}},)"
                     R"({"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}})";
  std::uint64_t seed = 12345;
  auto next = [&](std::uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  for (int k = 0; k < 1200; ++k) {
    const int pid = k % 2 ? 1 : 2;
    const auto tid = next(2) + 1;
    const auto ts = next(20000);
    const auto dur = next(5) == 0 ? 0 : next(600);
    json += R"(,{"ph":"X","name":"op)" + std::to_string(next(7)) + R"(","pid":)" + std::to_string(pid) +
            R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
            std::to_string(dur) + "}";
  }
  json += "]";
  const auto t = fromJson(json);
  std::size_t partial = 0;
  for (const auto& lane : t->lanes)
    for (auto f : lane.flags) partial += (f & core::kSlicePartialOverlap) ? 1 : 0;
  REQUIRE(partial > 10);  // the case this test is about
  for (auto layer : {core::StatsLayer::Python, core::StatsLayer::Kernels}) {
    for (auto scope : {std::optional<core::TimeRange>{}, std::optional<core::TimeRange>{core::TimeRange{3'000'000, 9'000'000}}}) {
      INFO(core::statsLayerKey(layer) << (scope ? " scope" : " whole"));
      const core::TimeRange in = scope ? *scope : core::TimeRange{t->range.start, t->range.end + 1};
      struct Ref { std::uint64_t count = 0; core::TimeNs total = 0, self = 0, min = INT64_MAX, max = INT64_MIN; };
      std::map<std::string, Ref> ref;
      std::vector<core::TimeRange> all;
      core::TimeNs sum = 0;
      for (const auto& lane : t->lanes) {
        const auto role = t->processes[lane.process].role;
        if ((layer == core::StatsLayer::Python) != (role == core::Process::Role::Python)) continue;
        for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
          if (!in.contains(lane.start[i])) continue;
          const core::TimeNs d = lane.end[i] - lane.start[i];
          Ref& r = ref[std::string(t->name(lane.names[i]))];
          ++r.count;
          r.total += d;
          r.self += layer == core::StatsLayer::Python ? lane.selfTime(i) : d;
          r.min = std::min(r.min, d);
          r.max = std::max(r.max, d);
          all.push_back({lane.start[i], lane.end[i]});
          sum += d;
        }
      }
      const auto s = core::computeStats(*t, layer, scope);
      CHECK(s.slices == all.size());
      CHECK(s.sumTotal == sum);
      CHECK(s.unionTotal == core::totalOf(core::unionOf(all)));
      REQUIRE(s.rows.size() == ref.size());
      for (const auto& row : s.rows) {
        INFO(row.name);
        REQUIRE(ref.count(row.name));
        const Ref& r = ref[row.name];
        CHECK(row.count == r.count);
        CHECK(row.total == r.total);
        CHECK(row.self == r.self);
        CHECK(row.min == r.min);
        CHECK(row.max == r.max);
      }
    }
  }
}

TEST_CASE("corpus: kernel statistics equal kernel_details.csv aggregated per name", "[stats][corpus]") {
  // Expected literals: aggregated from kernel_details.csv with Python's csv + Decimal (count and
  // summed Duration(us) per Name; see docs/corpus-counts.md).
  struct Spot { const char* dir; const char* name; std::uint64_t count; core::TimeNs total; };
  const Spot spots[] = {
      {"corpus/ascend-pt-910b-l1-text-2rank", "aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList", 3, 1959079},
      {"corpus/ascend-pt-910a-l0-text-2rank", "AxpyV2111", 2, 895979},
  };
  for (const Spot& sp : spots) {
    auto r = core::loadProfile(shared(sp.dir));
    REQUIRE(r.ok());
    const auto& rank = r.profile->ranks.at(0);
    REQUIRE(rank.kernels);
    const auto s = core::computeStats(*rank.trace, core::StatsLayer::Kernels, std::nullopt, rank.kernels.get());
    const auto* k = row(s, sp.name);
    REQUIRE(k);
    CHECK(k->count == sp.count);
    CHECK(std::llabs(k->total - sp.total) <= static_cast<core::TimeNs>(sp.count));
    // Every compute kernel of the CSV: same count, same total within 1 ns per kernel (rounding).
    std::map<std::string, std::pair<std::uint64_t, core::TimeNs>> csv;
    for (const auto& kr : rank.kernels->rows)
      if (!kr.isCommunication() && kr.duration) {
        ++csv[kr.name].first;
        csv[kr.name].second += *kr.duration;
      }
    REQUIRE(csv.size() > 50);
    for (const auto& [name, v] : csv) {
      INFO(sp.dir << " " << name);
      const auto* rr = row(s, name);
      REQUIRE(rr);
      CHECK(rr->count == v.first);
      CHECK(std::llabs(rr->total - v.second) <= static_cast<core::TimeNs>(v.first));
      CHECK_FALSE(rr->core.empty());
    }
  }
}

TEST_CASE("search: substring (case-insensitive), regex, bad regex", "[stats]") {
  const auto t = fromJson(R"([
    {"ph":"X","name":"aten::MatMul","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"aclnnMatmul_x","pid":1,"tid":2,"ts":5,"dur":10},
    {"ph":"X","name":"Add","pid":1,"tid":1,"ts":20,"dur":10}])");
  CHECK(core::findSlices(*t, {"matmul"}).size() == 2);
  CHECK(core::findSlices(*t, {"matmul", false, true}).empty());
  CHECK(core::findSlices(*t, {"^A(dd|ten)", true}).size() == 2);
  std::string err;
  CHECK(core::findSlices(*t, {"(", true}, &err).empty());
  CHECK(err.rfind("invalid regular expression", 0) == 0);
}

TEST_CASE("case 21: search finds a substring deep inside a 614400-character name", "[stats]") {
  const auto t = npuscope::test::load(shared("cases/21-extremely-long-names/trace.json"));
  // Substrings picked with a script over the input: the first occurs once, at offset 614378 of
  // the 614400-character name (its end), the second first at offset 53676 of it; neither is in
  // the 8192-character name. Both long names start with "_ZN7cutlass13device_kernel".
  for (const char* needle : {"TileShapeILi78ELEEvT_E", "apeILi100ELi20EEEINS_83_TileShapeILi101E"}) {
    INFO(needle);
    const auto hits = core::findSlices(*t, {needle});
    REQUIRE(hits.size() == 1);
    CHECK(t->sliceName(hits[0]).size() == 614400);
    CHECK(t->sliceRange(hits[0]) == core::TimeRange{60000, 65000});
  }
  CHECK(core::findSlices(*t, {"tileshapeili78eleevt_e"}).size() == 1);  // case-insensitive
  const auto both = core::findSlices(*t, {"_ZN7cutlass13device_kernel"});
  REQUIRE(both.size() == 2);
  CHECK(t->sliceName(both[0]).size() == 8192);  // sorted by start: [0, 30] us first
  CHECK(t->sliceName(both[1]).size() == 614400);
}

TEST_CASE("stats: the communication layer is the HCCL big ops, not their Plane tasks", "[stats]") {
  // 910B L1 rank 0: step_trace_time.csv records Communication 105991.878 us; the 4 hcom_allReduce
  // big ops on the group threads add up to it. Their Notify_Wait / Memcpy / Reduce_Inline tasks on
  // the Plane threads (300 - 4 slices) would count the same time again.
  const auto p = core::loadProfile(npuscope::test::shared("corpus/ascend-pt-910b-l1-text-2rank/rank0_ascend_pt"));
  REQUIRE(p.ok());
  const core::StatsTable t = core::computeStats(*p.profile->ranks[0].trace, core::StatsLayer::Communication);
  CHECK(t.slices == 4);
  CHECK(std::llabs(t.sumTotal - 105'991'878) <= 1000);
  CHECK(t.sumTotal == t.unionTotal);
  for (const auto& row : t.rows) CHECK(row.name.rfind("hcom_allReduce", 0) == 0);
}
