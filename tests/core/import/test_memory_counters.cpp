// SPDX-License-Identifier: MIT
// The allocator's memory curve as counter lanes (core/import/memory_counters.h, issue 13): the
// series against hand counts of small records, against the corpus's memory_record.csv split by
// hand (no CsvTable), and against tools/oracles/db_oracle.py for the .db export's MEMORY_RECORD.
#include <catch2/catch.hpp>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/analysis/advisor.h"
#include "core/analysis/analysis.h"
#include "core/import/memory_counters.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "core/tables/csv.h"
#include "core/tables/memory_tables.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;
namespace fs = std::filesystem;

namespace {

const char* kHeader = "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n";

/// The counters of `trace` of the process named kMemoryCurveProcess, by series name.
std::map<std::string, const core::CounterSeries*> memorySeries(const core::Trace& t) {
  std::map<std::string, const core::CounterSeries*> out;
  for (const core::CounterSeries& c : t.counters)
    if (t.processes[c.process].name == core::kMemoryCurveProcess) out[std::string(t.name(c.name))] = &c;
  return out;
}

std::shared_ptr<core::Trace> oneTaskTrace() {
  return npuscope::test::loadMemory(R"([
    {"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
    {"ph":"M","name":"process_labels","pid":2,"args":{"labels":"NPU 3"}},
    {"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":"1000.000","dur":10,"args":{"Task Type":"AI_CORE"}}])");
}

}  // namespace

TEST_CASE("memory curve: one series per component and measure with a value, in time order", "[memory]") {
  // By hand: APP has only Reserved; PTA's two rows are written out of time order (1001 us before
  // 1000 us) and a third PTA row has no value at all; GE has no Active.
  const core::MemoryRecord rec = core::parseMemoryRecord(core::parseCsv(std::string(kHeader) +
                                                                        "APP,1000.500\t,,2109.6,,,NPU:3\n"
                                                                        "PTA,1001.000\t,10,20,10,1,NPU:3\n"
                                                                        "PTA,1000.000\t,5,20,5,1,NPU:3\n"
                                                                        "GE,1002.250\t,1,2,,,NPU:3\n"
                                                                        "PTA,1003.000\t,,,,1,NPU:3\n"));
  REQUIRE(rec.rows.size() == 5);
  auto trace = oneTaskTrace();
  const std::size_t processesBefore = trace->processes.size(), countersBefore = trace->counters.size();
  CHECK(core::addMemoryCounters(*trace, rec, "memory_record.csv") == 6);
  REQUIRE(trace->processes.size() == processesBefore + 1);
  const core::Process& p = trace->processes.back();
  CHECK(p.name == "Memory allocator");
  CHECK(p.label == "memory_record.csv");
  CHECK(p.role == core::Process::Role::Counter);
  CHECK(p.deviceId == 3);
  REQUIRE(trace->counters.size() == countersBefore + 6);
  // The order: components as they first appear (APP, PTA, GE), then Allocated, Reserved, Active.
  std::vector<std::string> names;
  for (std::size_t i = countersBefore; i < trace->counters.size(); ++i) {
    names.emplace_back(trace->name(trace->counters[i].name));
    CHECK(trace->name(trace->counters[i].key) == "MB");
    CHECK(trace->counters[i].process == processesBefore);
  }
  CHECK(names == std::vector<std::string>{"APP Reserved", "PTA Allocated", "PTA Reserved", "PTA Active", "GE Allocated",
                                          "GE Reserved"});
  const auto s = memorySeries(*trace);
  CHECK(s.at("APP Reserved")->ts == std::vector<core::TimeNs>{1000500});
  CHECK(s.at("APP Reserved")->value == std::vector<double>{2109.6});
  CHECK(s.at("PTA Allocated")->ts == std::vector<core::TimeNs>{1000000, 1001000});
  CHECK(s.at("PTA Allocated")->value == std::vector<double>{5, 10});
  CHECK(s.at("PTA Active")->value == std::vector<double>{5, 10});
  CHECK(s.at("PTA Reserved")->value == std::vector<double>{20, 20});
  CHECK(s.at("GE Reserved")->ts == std::vector<core::TimeNs>{1002250});
}

TEST_CASE("memory curve: an unreadable or empty record adds nothing", "[memory]") {
  auto trace = oneTaskTrace();
  const std::size_t processes = trace->processes.size(), counters = trace->counters.size();
  core::MemoryRecord broken;
  broken.error = "memory_record.csv has no Timestamp(us) column";
  CHECK(core::addMemoryCounters(*trace, broken, "memory_record.csv") == 0);
  CHECK(core::addMemoryCounters(*trace, core::MemoryRecord{}, "memory_record.csv") == 0);
  // Rows without any total: nothing to draw either.
  const core::MemoryRecord blank = core::parseMemoryRecord(core::parseCsv(std::string(kHeader) + "PTA,1000.0,,,,1,NPU:0\n"));
  REQUIRE(blank.rows.size() == 1);
  CHECK(core::addMemoryCounters(*trace, blank, "memory_record.csv") == 0);
  CHECK(trace->processes.size() == processes);
  CHECK(trace->counters.size() == counters);
}

TEST_CASE("memory curve: loadProfile draws memory_record.csv and says what it skipped", "[memory][profile]") {
  const fs::path root = fs::temp_directory_path() /
                        ("npuscope-test-memcurve-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const fs::path out = root / "x_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  std::ofstream(out / "trace_view.json") << R"([
    {"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
    {"ph":"M","name":"process_labels","pid":2,"args":{"labels":"NPU 0"}},
    {"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":"1000.000","dur":10,"args":{"Task Type":"AI_CORE"}}])";
  std::ofstream(out / "memory_record.csv") << kHeader << "PTA+GE,999.000\t,100,200,100,1,NPU:0\n"
                                           << "PTA+GE,not a time,1,2,3,1,NPU:0\n"
                                           << "PTA+GE,1005.000\t,300,400,300,1,NPU:0\n";
  const auto r = core::loadProfile((root / "x_ascend_pt").string());
  REQUIRE(r.ok());
  const auto& rp = r.profile->ranks.at(0);
  const auto s = memorySeries(*rp.trace);
  REQUIRE(s.count("PTA+GE Allocated"));
  CHECK(s.at("PTA+GE Allocated")->ts == std::vector<core::TimeNs>{999000, 1005000});
  CHECK(s.at("PTA+GE Allocated")->value == std::vector<double>{100, 300});
  bool skippedSaid = false;
  for (const auto& m : rp.tableMessages) skippedSaid |= m.starts_with("memory_record.csv: row 2 ");
  CHECK(skippedSaid);
  // The report lists the curve among the counters.
  CHECK(core::reportJson(*r.profile).find("{\"process\": \"Memory allocator\", \"name\": \"PTA+GE Allocated\", \"key\": \"MB\", "
                                          "\"samples\": 2}") != std::string::npos);
  // The memory finding points at the peak on that curve (300 MB at 1005 us).
  const core::RankAdvice a = core::adviseRankProfile(rp);
  const core::Finding* mem = nullptr;
  for (const auto& f : a.findings)
    if (f.rule == "memory") mem = &f;
  REQUIRE(mem);
  REQUIRE(mem->moment);
  CHECK(mem->moment->t == 1005000);
  CHECK(mem->moment->process == "Memory allocator");
  CHECK(mem->moment->label == "PTA+GE peak allocated 300.0 MB (300 MiB)");  // 300 x 2^20 bytes
  std::error_code ec;
  fs::remove_all(root, ec);
}

TEST_CASE("memory curve: a missing column is named once with its file", "[memory][profile]") {
  const fs::path root = fs::temp_directory_path() /
                        ("npuscope-test-memcol-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  const fs::path out = root / "x_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  std::ofstream(out / "trace_view.json") << R"([
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":"1000.000","dur":10}])";
  // No Total Reserved(MB) column.
  std::ofstream(out / "memory_record.csv") << "Component,Timestamp(us),Total Allocated(MB),Device Type\n"
                                           << "PTA,1000.000\t,100,NPU:0\n";
  const auto r = core::loadProfile((root / "x_ascend_pt").string());
  REQUIRE(r.ok());
  const auto& msgs = r.profile->ranks.at(0).tableMessages;
  // The loader names the file, the reader only what is wrong (it said "memory_record.csv:
  // memory_record.csv has no ..." before).
  CHECK(std::count(msgs.begin(), msgs.end(), std::string("memory_record.csv: no Total Reserved(MB) column")) == 1);
  for (const auto& m : msgs) CHECK(m.find("memory_record.csv: memory_record.csv") == std::string::npos);
  std::error_code ec;
  fs::remove_all(root, ec);
}

TEST_CASE("memory curve: the corpus's memory_record.csv, split by hand", "[memory][corpus]") {
  // The oracle here is a plain split of each line at ',' and strtod, not the CsvTable reader:
  // per component, the rows with a Total Allocated value, their highest value and the first
  // timestamp (us with 3 decimals -> ns) where it is reached.
  for (const char* rel : {"corpus/ascend-pt-910b-l0-text-2rank", "corpus/ascend-pt-910a-l0-text-2rank"}) {
    INFO(rel);
    const auto r = core::loadProfile(shared(rel));
    REQUIRE(r.ok());
    for (const auto& rp : r.profile->ranks) {
      INFO(rp.source.root);
      std::ifstream in(fs::path(rp.source.root) / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv");
      REQUIRE(in);
      std::string line;
      std::getline(in, line);  // header
      struct Want {
        std::size_t n = 0;
        double peak = -1;
        core::TimeNs peakTs = 0;
      };
      std::map<std::string, Want> want;
      while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        if (cells.size() < 3 || cells[2].empty()) continue;
        Want& w = want[cells[0]];
        ++w.n;
        const double v = std::strtod(cells[2].c_str(), nullptr);
        // "1736405443870818.960\t": whole us and 3 decimals, exactly.
        const std::size_t dot = cells[1].find('.');
        const core::TimeNs ts = std::stoll(cells[1].substr(0, dot)) * 1000 + std::stoll(cells[1].substr(dot + 1, 3));
        if (v > w.peak) w.peak = v, w.peakTs = ts;
      }
      REQUIRE(want.size() >= 3);  // PTA, GE, PTA+GE (APP has no Total Allocated)
      const auto s = memorySeries(*rp.trace);
      for (const auto& [comp, w] : want) {
        INFO(comp);
        REQUIRE(s.count(comp + " Allocated"));
        const core::CounterSeries& c = *s.at(comp + " Allocated");
        CHECK(c.ts.size() == w.n);
        const auto it = std::max_element(c.value.begin(), c.value.end());
        CHECK(*it == w.peak);
        CHECK(c.ts[static_cast<std::size_t>(it - c.value.begin())] == w.peakTs);
      }
    }
  }
}

TEST_CASE("memory curve: the .db export's MEMORY_RECORD equals db_oracle.py", "[memory][db][oracle]") {
  // tests/data/db_oracle.json (tools/oracles/db_oracle.py, sqlite3 alone): per component the
  // highest totalAllocated in bytes, the timestamp of its first row, the highest totalReserved.
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.load(std::string(NPUSCOPE_SOURCE_DIR) + "/tests/data/db_oracle.json").get(root) == simdjson::SUCCESS);
  std::size_t checked = 0;
  for (auto [relView, o] : root.get_object()) {
    const std::string rel(relView);
    simdjson::dom::object components;
    if (o["memory"]["components"].get(components) != simdjson::SUCCESS || components.size() == 0) continue;
    if (rel.find("ascend_pytorch_profiler_0") == std::string::npos) continue;  // rank 0 of each: 4 loads
    INFO(rel);
    const auto r = core::loadProfile(fs::path(shared("corpus/" + rel)).parent_path().parent_path().string());
    REQUIRE(r.ok());
    const auto& rp = r.profile->ranks.at(0);
    REQUIRE(rp.trace);
    REQUIRE(rp.trace->path.ends_with(".db"));
    const auto s = memorySeries(*rp.trace);
    for (auto [compView, c] : components) {
      const std::string comp(compView);
      INFO(comp);
      REQUIRE(s.count(comp + " Allocated"));
      const core::CounterSeries& a = *s.at(comp + " Allocated");
      const auto it = std::max_element(a.value.begin(), a.value.end());
      CHECK(*it * 1048576.0 == static_cast<double>(c["peak_allocated_bytes"].get_int64().value()));
      CHECK(a.ts[static_cast<std::size_t>(it - a.value.begin())] == c["peak_ts_ns"].get_int64().value());
      CHECK(a.ts.size() <= static_cast<std::size_t>(c["rows"].get_int64().value()));
      const core::CounterSeries& rs = *s.at(comp + " Reserved");
      CHECK(*std::max_element(rs.value.begin(), rs.value.end()) * 1048576.0 ==
            static_cast<double>(c["peak_reserved_bytes"].get_int64().value()));
    }
    CHECK(rp.trace->processes.back().label == "MEMORY_RECORD of " + fs::path(rel).filename().string());
    ++checked;
  }
  CHECK(checked >= 2);
}

TEST_CASE("memory record: cells that are no plausible total are absent and said", "[memory]") {
  // By hand: row 1 good; row 2 text; row 3 negative; row 4 1e300 MB (beyond 1 PiB = 2^30 MB);
  // row 5 1e400 (no double: csvNumber refuses it); row 6 2^30 MB exactly (kept).
  const core::MemoryRecord rec = core::parseMemoryRecord(core::parseCsv(std::string(kHeader) +
                                                                        "PTA,1000.0,10,20,,1,NPU:0\n"
                                                                        "PTA,1001.0,lots,20,,1,NPU:0\n"
                                                                        "PTA,1002.0,-5000,20,,1,NPU:0\n"
                                                                        "PTA,1003.0,1e300,20,,1,NPU:0\n"
                                                                        "PTA,1004.0,1e400,20,,1,NPU:0\n"
                                                                        "PTA,1005.0,1073741824,20,,1,NPU:0\n"));
  REQUIRE(rec.rows.size() == 6);
  CHECK(*rec.rows[0].allocatedMB == 10);
  for (std::size_t i : {1, 2, 3, 4}) CHECK_FALSE(rec.rows[i].allocatedMB);
  CHECK(*rec.rows[5].allocatedMB == 1073741824.0);
  REQUIRE(rec.warnings.size() == 4);
  CHECK(rec.warnings[0] == "row 2 Total Allocated(MB) \"lots\" is no number: ignored");
  CHECK(rec.warnings[1] == "row 3 Total Allocated(MB) -5000 is negative: ignored");
  CHECK(rec.warnings[2] == "row 4 Total Allocated(MB) 1e+300 MB is beyond 1 PiB: ignored");
  CHECK(rec.warnings[3] == "row 5 Total Allocated(MB) \"1e400\" is no number: ignored");
}

TEST_CASE("memory finding: a peak outside the trace is said and no figure is made up", "[memory][advisor]") {
  // The trace spans 1000..1010 us (one task); the PTA+GE peak, 300 MB, is at 5000 us: 3990 us
  // after the trace ends. No Total Reserved is recorded: "unknown", never -1.0 MB.
  auto trace = oneTaskTrace();
  core::RankMetadata meta;
  meta.memoryRecord = core::parseMemoryRecord(core::parseCsv(std::string(kHeader) +
                                                             "PTA+GE,1000.000,100,,,1,NPU:0\n"
                                                             "PTA+GE,5000.000,300,,,1,NPU:0\n"));
  const core::RankAnalysis analysis = core::analyzeRank(*trace, nullptr, nullptr);
  const core::RankAdvice a = core::adviseRank(*trace, nullptr, analysis, &meta);
  const core::Finding* mem = nullptr;
  for (const auto& f : a.findings)
    if (f.rule == "memory") mem = &f;
  REQUIRE(mem);
  INFO(mem->numbers);
  CHECK(mem->numbers.find("PTA+GE: peak allocated 300.0 MB, lowest 100.0 MB") != std::string::npos);
  CHECK(mem->numbers.find("peak reserved unknown") != std::string::npos);
  CHECK(mem->numbers.find("-1.0") == std::string::npos);
  CHECK(mem->numbers.find("; the peak lies 3.99 ms after the trace ends") != std::string::npos);
  REQUIRE(mem->moment);
  CHECK(mem->moment->t == 5000000);
}
