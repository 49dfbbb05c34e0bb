// SPDX-License-Identifier: MIT
// The text report (core/report/report.cpp).
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/profile/profile.h"
#include "core/report/compare.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

TEST_CASE("case 15: the text report says where a truncated file ends") {
  // case.md: c_truncated_mid_event.json (189 bytes) keeps 2 slices and warns "file ends inside an
  // event at byte 189"; the report shows the first example of each warning kind after its count.
  const auto r = core::loadProfile(shared("cases/15-array-no-closing-bracket/c_truncated_mid_event.json"));
  REQUIRE(r.ok());
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("1 x file ends inside an event") != std::string::npos);
  CHECK(text.find("e.g. file ends inside an event at byte 189") != std::string::npos);
  // A clean file has no warnings section.
  const auto clean = core::loadProfile(shared("cases/15-array-no-closing-bracket/a_unterminated.json"));
  REQUIRE(clean.ok());
  CHECK(core::reportText(*clean.profile).find("e.g.") == std::string::npos);
}

namespace {

namespace fs = std::filesystem;

/// A fresh temp folder holding a minimal rank folder x_ascend_pt/ASCEND_PROFILER_OUTPUT with a
/// small trace_view.json (one Ascend Hardware task, no ProfilerStep); removed on destruction.
/// Tests write only here, never into ../shared.
struct TempRank {
  fs::path root, out;
  explicit TempRank(const std::string& tag) {
    root = fs::temp_directory_path() /
           ("npuscope-test-" + tag + "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    out = root / "x_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    write("trace_view.json", R"([
      {"ph":"M","name":"process_name","pid":2,"args":{"name":"Ascend Hardware"}},
      {"ph":"M","name":"process_labels","pid":2,"args":{"labels":"NPU 0"}},
      {"ph":"X","name":"MatMul","pid":2,"tid":1,"ts":"1000.000","dur":10,"args":{"Task Type":"AI_CORE"}}])");
  }
  ~TempRank() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream f(out / name, std::ios::binary);
    f << text;
  }
  void copy(const std::string& from, const std::string& name) const {
    fs::copy_file(from, out / name, fs::copy_options::overwrite_existing);
  }
  [[nodiscard]] std::string path() const { return (root / "x_ascend_pt").string(); }
};

std::string fileText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("table messages reach the report text and JSON: cases 30, 32, 33", "[report]") {
  // Each case file becomes the rank's kernel_details.csv (or step_trace_time.csv). The expected
  // problems are the ones the case.md files name: 30 empty.csv "empty CSV"; 32 the GBK file is
  // "not UTF-8"; 33 b has no Start Time(us) column; 33 e row 2 has 5 of 8 fields, row 3 10 of 8,
  // row 4 N/A start and empty duration.
  struct Case {
    const char* file;
    const char* as;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"cases/30-empty-files/empty.csv", "kernel_details.csv", {"kernel_details.csv: empty CSV"}},
      {"cases/30-empty-files/empty.csv", "step_trace_time.csv", {"step_trace_time.csv: empty CSV"}},
      {"cases/32-csv-bom-quotes-chinese/chinese_headers_gbk.csv", "kernel_details.csv",
       {"kernel_details.csv: the CSV is not UTF-8"}},
      {"cases/33-kernel-details-missing-columns/b_no_start_time.csv", "kernel_details.csv",
       {"kernel_details.csv: no Start Time(us) column"}},
      {"cases/33-kernel-details-missing-columns/e_ragged_rows.csv", "kernel_details.csv",
       {"kernel_details.csv: row 2 has 5 of 8 fields", "kernel_details.csv: row 3 has 10 of 8 fields",
        "kernel_details.csv: row 4 has no valid start or duration"}},
  };
  for (const Case& c : cases) {
    INFO(c.file << " as " << c.as);
    TempRank tmp("tablemsg");
    tmp.copy(shared(c.file), c.as);
    const auto r = core::loadProfile(tmp.path());
    REQUIRE(r.ok());
    REQUIRE(r.profile->ranks.size() == 1);
    const std::string json = core::reportJson(*r.profile);
    const std::string text = core::reportText(*r.profile);
    const auto at = json.find("\"table_messages\": [\"");
    REQUIRE(at != std::string::npos);
    for (const std::string& m : c.expected) {
      INFO(m);
      CHECK(json.find(m, at) != std::string::npos);
      CHECK(text.find("   table: " + m) != std::string::npos);
    }
  }
  // A clean rank has an empty list and no table lines.
  TempRank clean("tablemsg-clean");
  const auto r = core::loadProfile(clean.path());
  REQUIRE(r.ok());
  CHECK(core::reportJson(*r.profile).find("\"table_messages\": []") != std::string::npos);
  CHECK(core::reportText(*r.profile).find("   table: ") == std::string::npos);
}

// Found by fuzz/fuzz_folder_discovery: "1e400" is a JSON number by the grammar, so its text went
// into the report as written, but it is no double (strict parsers such as simdjson reject it,
// Python reads infinity). csvNumber refuses it: the recorded value is unknown, null.
TEST_CASE("a recorded step_trace_time.csv value beyond the double range is null in the report", "[report]") {
  TempRank tmp("steptrace-overflow");
  tmp.write("step_trace_time.csv",
            "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n"
            "0,,1e400,-1e400,1e-400,5,7\n");
  const auto r = core::loadProfile(tmp.path());
  REQUIRE(r.ok());
  const std::string json = core::reportJson(*r.profile);
  CHECK(json.find("1e400") == std::string::npos);
  CHECK(json.find("\"recorded\": {\"computing_us\": null, \"communication_us\": 5, "
                  "\"communication_not_overlapped_us\": null, \"overlapped_us\": 1e-400, \"free_us\": 7") != std::string::npos);
}

// Found by fuzz/fuzz_csv_tables in CI: "4000000000000000000000" is a JSON integer by the grammar,
// but 64-bit readers (simdjson, Go, Java) refuse integers beyond 2^64. An integer cell longer than
// 18 digits is written as the double it parses to; 18 digits and fewer stay as written.
TEST_CASE("a recorded step_trace_time.csv integer beyond 64 bits is written as a double", "[report]") {
  TempRank tmp("steptrace-bigint");
  tmp.write("step_trace_time.csv",
            "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n"
            "0,,4000000000000000000000,-12345678901234567890,123456789012345678,5,7\n");
  const auto r = core::loadProfile(tmp.path());
  REQUIRE(r.ok());
  const std::string json = core::reportJson(*r.profile);
  CHECK(json.find("4000000000000000000000") == std::string::npos);
  // %.17g by hand: 4e21 is exact; -12345678901234567890 rounds to the double -12345678901234567168.
  CHECK(json.find("\"recorded\": {\"computing_us\": 4e+21, \"communication_us\": 5, "
                  "\"communication_not_overlapped_us\": -1.2345678901234567e+19, "
                  "\"overlapped_us\": 123456789012345678, \"free_us\": 7") != std::string::npos);
}

TEST_CASE("recorded step_trace_time.csv values reach the report exactly as written", "[report]") {
  // 1234567.891 us printed with %.6g was 1.23457e+06 (2.1 us off). The cells' text is kept: a
  // trailing TAB (as torch_npu writes times) is trimmed, a negative value stays negative, and a
  // cell that is no JSON number ("N/A") falls back to the parsed value (0).
  TempRank tmp("steptrace");
  tmp.write("step_trace_time.csv",
            "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\n"
            "0,,1234567.891,0.001,12.5\t,100000000000000.125,98765.4321,N/A,0,0.001,-3.25\n");
  const auto r = core::loadProfile(tmp.path());
  REQUIRE(r.ok());
  const auto& rp = r.profile->ranks.at(0);
  CHECK(rp.tableMessages.empty());
  REQUIRE(rp.stepTrace.size() == 1);
  CHECK(rp.stepTrace[0].computingText == "1234567.891");
  const std::string json = core::reportJson(*r.profile);
  CHECK(json.find("\"recorded\": {\"computing_us\": 1234567.891, \"communication_us\": 100000000000000.125, "
                  "\"communication_not_overlapped_us\": 0.001, \"overlapped_us\": 12.5, \"free_us\": 98765.4321, "
                  "\"stage_us\": 0, \"bubble_us\": 0, \"preparing_us\": -3.25, \"source\": \"step_trace_time.csv\"}") != std::string::npos);
  const std::string text = core::reportText(*r.profile);
  CHECK(text.find("step_trace_time.csv: Computing 1234567.891 us, Comm(NO) 0.001 us, Communication "
                  "100000000000000.125 us, Free 98765.4321 us, Preparing -3.25 us") != std::string::npos);
  // The report never writes into the folder it reads: only the two files written above.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(tmp.root)) ++files;
  CHECK(files == 4);  // x_ascend_pt, ASCEND_PROFILER_OUTPUT, trace_view.json, step_trace_time.csv
  CHECK(fileText((tmp.out / "step_trace_time.csv").string()).find("1234567.891") != std::string::npos);
}

TEST_CASE("report and compare JSON carry the schema_version that docs/json-versions.md lists", "[report][json]") {
  // Issue 44 item 1: every document carries "schema_version": "MAJOR.MINOR", listed with its
  // changes in docs/json-versions.md; the table's "current" column is the other route.
  std::ifstream in(std::string(NPUSCOPE_SOURCE_DIR) + "/docs/json-versions.md");
  REQUIRE(in);
  std::string line, report, compare;
  while (std::getline(in, line)) {
    const auto current = [&](const char* doc, std::string& out) {
      if (line.find(doc) == std::string::npos) return;
      const auto bar = line.rfind('|', line.size() - 2);
      std::string v = line.substr(bar + 1);
      v.erase(0, v.find_first_not_of(' '));
      v.erase(v.find_last_not_of(" |") + 1);
      out = v;
    };
    if (line.starts_with("| `npuscope report")) current("report", report);
    if (line.starts_with("| `npuscope compare")) current("compare", compare);
  }
  REQUIRE_FALSE(report.empty());
  REQUIRE_FALSE(compare.empty());
  auto r = core::loadProfile(test::shared("cases/01-string-ts-ns-decimals"));
  REQUIRE(r.ok());
  CHECK(core::reportJson(*r.profile).starts_with("{\"schema_version\": \"" + report + "\", "));
  CHECK(core::compareJson(core::compareProfiles(*r.profile, *r.profile)).starts_with("{\"schema_version\": \"" + compare + "\", "));
}
