// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "core/tables/communication_json.h"
#include "core/tables/csv.h"
#include "core/tables/table_summary.h"
#include "core/tables/tables.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

TEST_CASE("CSV: quotes, embedded commas, CRLF, BOM, doubled quotes") {
  const auto t = core::parseCsv("\xEF\xBB\xBFName,Shape,Note\r\na,\"1,2\",\"say \"\"hi\"\"\"\r\nb,\"x\r\ny\",\r\n");
  REQUIRE(t.error.empty());
  CHECK(t.header == std::vector<std::string>{"Name", "Shape", "Note"});
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0][1] == "1,2");
  CHECK(t.rows[0][2] == "say \"hi\"");
  CHECK(t.rows[1][1] == "x\r\ny");
  CHECK(t.cell(1, 2).empty());
  CHECK(t.column({"Missing", "Note"}) == 2);
}

TEST_CASE("case 30: empty and header-only CSV files") {
  CHECK(core::readCsv(shared("cases/30-empty-files/empty.csv")).error == "empty CSV");
  const auto k = core::readKernelDetails(shared("cases/30-empty-files/header_only_kernel_details.csv"));
  CHECK(k.rows.empty());
  CHECK(k.table.column("Name") >= 0);
  CHECK(k.table.error.empty());
}

TEST_CASE("kernel_details: exact start ns from a quoted time with a trailing tab, aliases, N/A") {
  const auto k = core::parseKernelDetails(core::parseCsv(
      "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
      "1,MatMul,MatMulV2,AI_CORE,\"1731400000123456.789\t\",12.5,0.2,20\n"
      "1,hcom_allReduce_1,hcom_allReduce_,HCCL,1731400000123500.000,N/A,N/A,N/A\n"));
  REQUIRE(k.rows.size() == 2);
  REQUIRE(k.rows[0].start);
  CHECK(*k.rows[0].start == 1731400000123456789);
  CHECK(*k.rows[0].duration == 12500);
  CHECK(k.rows[0].blockDim == "20");
  CHECK(k.rows[0].step == 1);
  CHECK(k.rows[1].isCommunication());
  CHECK_FALSE(k.rows[1].duration.has_value());
  CHECK(k.warnings.size() == 1);
}

TEST_CASE("case 32: BOM, CRLF, quoted fields with quotes/commas/CRLF, trailing TAB, Chinese, GBK") {
  const std::string dir = shared("cases/32-csv-bom-quotes-chinese/");
  const auto t = core::readCsv(dir + "kernel_details_bom_crlf.csv");
  REQUIRE(t.error.empty());
  CHECK(t.header.at(0) == "Step Id");
  REQUIRE(t.rows.size() == 3);
  const auto k = core::parseKernelDetails(t);
  REQUIRE(k.rows.size() == 3);
  CHECK(k.rows[0].name == "aclnnMatmul_MatMulV2");
  CHECK(*k.rows[0].start == 1731400000123456789);
  CHECK(*k.rows[0].duration == 5160);
  CHECK(k.rows[0].inputShapes == "8,4096;4096,4096");
  CHECK(t.cell(0, t.column("Model ID")) == "4294967295");
  CHECK(k.rows[1].name == "aclnnIndex_\"fast\",path");
  CHECK(*k.rows[1].start == 1731400000123461951);
  CHECK(*k.rows[2].start == 1731400000123465000);
  CHECK(t.cell(2, t.column("Output Formats")) == "ND\r\nNC1HWC0");
  for (const char* f : {"chinese_headers_utf8.csv", "chinese_headers_utf8_bom.csv"}) {
    INFO(f);
    const auto c = core::readCsv(dir + f);
    REQUIRE(c.error.empty());
    CHECK(c.header.at(0) == "算子名称");
    REQUIRE(c.rows.size() == 2);
    const int start = c.column("开始时间(us)");
    REQUIRE(start >= 0);
    CHECK(c.cell(0, 0) == "矩阵乘");
  }
  const auto gbk = core::readCsv(dir + "chinese_headers_gbk.csv");
  CHECK(gbk.rows.empty());
  CHECK(gbk.error.find("not UTF-8") != std::string::npos);
}

TEST_CASE("case 33: kernel_details with missing, renamed, extra or ragged columns") {
  const std::string dir = shared("cases/33-kernel-details-missing-columns/");
  const auto a = core::readKernelDetails(dir + "a_minimal_headers.csv");
  REQUIRE(a.rows.size() == 2);
  CHECK(a.warnings.empty());
  CHECK(*a.rows[0].start == 1731400000123456789);
  CHECK(*a.rows[0].duration == 5160);
  CHECK(*a.rows[1].start == 1731400000123465000);
  CHECK(*a.rows[1].duration == 1250);
  const auto b = core::readKernelDetails(dir + "b_no_start_time.csv");
  REQUIRE(b.rows.size() == 1);
  CHECK_FALSE(b.rows[0].start.has_value());
  REQUIRE(b.warnings.size() == 1);
  CHECK(b.warnings[0].find("Start Time(us)") != std::string::npos);
  const auto c = core::readKernelDetails(dir + "c_block_dim_extra_cols.csv");
  REQUIRE(c.rows.size() == 1);
  CHECK(c.rows[0].blockDim == "24");
  CHECK(c.rows[0].step == 3);
  CHECK(c.table.cell(0, c.table.column("aic_mac_ratio")) == "0.71");
  CHECK(c.table.cell(0, c.table.column("cube_utilization(%)")) == "82.5");
  const auto d = core::readKernelDetails(dir + "d_op_summary_names.csv");
  REQUIRE(d.rows.size() == 1);
  CHECK(d.rows[0].name == "MatMulV2");
  CHECK(*d.rows[0].start == 1731400000123456789);
  CHECK(*d.rows[0].duration == 5160);
  CHECK(d.rows[0].core == "AI_CORE");
  const auto e = core::readKernelDetails(dir + "e_ragged_rows.csv");
  REQUIRE(e.rows.size() == 4);
  CHECK_FALSE(e.rows[1].duration.has_value());
  CHECK(*e.rows[2].duration == 1000);
  CHECK_FALSE(e.rows[3].start.has_value());
  CHECK_FALSE(e.rows[3].duration.has_value());
  CHECK(e.warnings.size() == 3);
}

// Found while writing fuzz/fuzz_csv_tables (issue 15 item 8): strtod reads "NaN", "inf" and "1e400" as
// non-finite doubles, which reached the report as nan / inf (not JSON). Such cells are no number.
TEST_CASE("csvNumber refuses non-finite values") {
  CHECK_FALSE(core::csvNumber("NaN").has_value());
  CHECK_FALSE(core::csvNumber("nan(0x1)").has_value());
  CHECK_FALSE(core::csvNumber("inf").has_value());
  CHECK_FALSE(core::csvNumber("-Infinity").has_value());
  CHECK_FALSE(core::csvNumber("1e400").has_value());   // beyond DBL_MAX (about 1.8e308)
  CHECK_FALSE(core::csvNumber("-1e400").has_value());
  CHECK(core::csvNumber("1e300") == 1e300);
  CHECK(core::csvNumber("\t12.5\t") == 12.5);
  // step_trace_time.csv with such cells: the row is read, the cells count as missing.
  std::string error;
  const auto rows = core::parseStepTraceTime(core::parseCsv("Device_id,Step,Computing,Communication(Not Overlapped),"
                                                            "Overlapped,Communication,Free\n0,1,NaN,inf,1e400,-1e400,5\n"),
                                             error);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].computing == 0);
  CHECK(rows[0].commNotOverlapped == 0);
  CHECK(rows[0].overlapped == 0);
  CHECK(rows[0].free == 5);
}

TEST_CASE("tables-only summary: kernel durations near 2^63 ns are held at the time limit, never wrapped") {
  // Found by fuzz_csv_tables (2026-12-01; fixed in ada5d7c): many Duration(us) cells of about 1.7e15 us (each below
  // kMaxTimeNs, so each is kept) overflowed the int64 kernel time (UBSan). Hand count: three
  // rows of 4e15 us = 4e18 ns each (below kMaxTimeNs = 2^62 - 1 = 4.61e18), sum 1.2e19 > 2^63 - 1,
  // so the sums (total, per core, per type) are held at kMaxTimeNs instead of wrapping negative.
  const auto k = core::parseKernelDetails(core::parseCsv(
      "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
      "1,A,MatMulV2,AI_CORE,0,4000000000000000\n"
      "1,B,MatMulV2,AI_CORE,0,4000000000000000\n"
      "1,C,MatMulV2,AI_CORE,0,4000000000000000\n"));
  REQUIRE(k.rows.size() == 3);
  REQUIRE(k.rows[2].duration);
  CHECK(*k.rows[2].duration == 4000000000000000000);
  const core::TablesOnlySummary s = core::summarizeTables(&k, nullptr);
  CHECK(s.kernelTime == (std::int64_t(1) << 62) - 1);
  REQUIRE(s.byCore.size() == 1);
  CHECK(s.byCore[0].second == (std::int64_t(1) << 62) - 1);
  REQUIRE(s.topTypes.size() == 1);
  CHECK(s.topTypes[0].second == (std::int64_t(1) << 62) - 1);
}

TEST_CASE("tables-only summary: a step total of three figures near 2^62 ns is held at the time limit") {
  // Found by fuzz_csv_table (issue 26 item 2): each step_trace_time.csv figure is held at
  // kMaxTimeNs when summed, but TableDeviceFigures::total() added three of them unchecked (UBSan:
  // signed overflow). Hand count: Computing, Communication(Not Overlapped) and Free of 4e15 us =
  // 4e18 ns each (below kMaxTimeNs = 2^62 - 1 = 4611686018427387903), total 1.2e19 > 2^63 - 1:
  // held at kMaxTimeNs (it wrapped to -6446744073709551616 before); each share is 4e18 / 1.2e19.
  std::string error;
  const auto steps = core::parseStepTraceTime(
      core::parseCsv("Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n"
                     "0,1,4000000000000000,4000000000000000,0,0,4000000000000000\n"),
      error);
  REQUIRE(error.empty());
  REQUIRE(steps.size() == 1);
  const core::TablesOnlySummary s = core::summarizeTables(nullptr, &steps);
  REQUIRE(s.devices.size() == 1);
  const core::TableDeviceFigures& d = s.devices[0];
  CHECK(d.computing == 4000000000000000000);
  CHECK(d.free == 4000000000000000000);
  CHECK(d.total() == 4611686018427387903);
  CHECK(d.share(d.computing) == Approx(1.0 / 3.0));
  CHECK(d.share(d.free) == Approx(1.0 / 3.0));
}

TEST_CASE("communication.json: the sum of the ops' times is held at the time limit, never wrapped") {
  // Found by fuzz_sqlite_reader (issue 26 item 2) through analysis.db's ops, which share this sum:
  // CommunicationJson::sum added the ops' times unchecked (UBSan: signed overflow). Hand count:
  // three ops of 4e12 ms = 4e18 ns each (below kMaxTimeNs = 2^62 - 1 = 4611686018427387903), sum
  // 1.2e19 > 2^63 - 1: held at kMaxTimeNs (it wrapped to -6446744073709551616 before).
  const auto op = [](const char* name) {
    return std::string("\"") + name + "\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 4000000000000, "
           "\"Transit Time(ms)\": 1, \"Wait Time(ms)\": 0, \"Synchronization Time(ms)\": 0, \"Idle Time(ms)\": 0}}";
  };
  const core::CommunicationJson c = core::parseCommunicationJson(
      "{\"step1\": {\"collective\": {" + op("a@g") + ", " + op("b@g") + ", " + op("c@g") + "}}}");
  REQUIRE(c.error.empty());
  REQUIRE(c.ops.size() == 3);
  CHECK(c.ops[0].elapse == 4000000000000000000);
  const core::CommOpTimes sum = c.sum();
  CHECK(sum.elapse == 4611686018427387903);
  CHECK(sum.transit == 3000000);  // 3 x 1 ms
}

TEST_CASE("CSV in UTF-16 with a byte order mark is read, without one it is said") {
  // The bytes are Python's "\\ufeff名称,Start\\n矩阵乘,😀\\n".encode("utf-16-le") / "-be" (an emoji for a
  // surrogate pair); the expected cells are the same text in UTF-8.
  const std::string le("\xFF\xFE\x0D\x54\xF0\x79\x2C\x00\x53\x00\x74\x00\x61\x00\x72\x00\x74\x00\x0A\x00\xE9\x77\x35\x96\x58\x4E\x2C\x00\x3D\xD8\x00\xDE\x0A\x00", 34);
  const std::string be("\xFE\xFF\x54\x0D\x79\xF0\x00\x2C\x00\x53\x00\x74\x00\x61\x00\x72\x00\x74\x00\x0A\x77\xE9\x96\x35\x4E\x58\x00\x2C\xD8\x3D\xDE\x00\x00\x0A", 34);
  for (const std::string* bytes : {&le, &be}) {
    const auto t = core::parseCsv(*bytes);
    REQUIRE(t.error.empty());
    CHECK(t.header == std::vector<std::string>{"名称", "Start"});
    REQUIRE(t.rows.size() == 1);
    CHECK(t.cell(0, 0) == "矩阵乘");
    CHECK(t.cell(0, 1) == "\xF0\x9F\x98\x80");  // U+1F600 in UTF-8
  }
  // A lone low surrogate (0xDC00) after the mark becomes U+FFFD (EF BF BD), an odd last byte is
  // dropped: a partial table, not none.
  const auto lone = core::parseCsv(std::string("\xFF\xFE\x61\x00\x00\xDC", 6));
  CHECK(lone.error.empty());
  CHECK(lone.header == std::vector<std::string>{"a\xEF\xBF\xBD"});
  const auto odd = core::parseCsv(std::string("\xFF\xFE\x61\x00\x62", 5));
  CHECK(odd.error.empty());
  CHECK(odd.header == std::vector<std::string>{"a"});
  // A UTF-8 CSV zero-padded after a crashed write is still read (its NULs are not UTF-16's
  // every-other-byte pattern).
  const auto padded = core::parseCsv("A,B\n1,2\n" + std::string(600, '\0'));
  CHECK(padded.error.empty());
  REQUIRE_FALSE(padded.rows.empty());
  CHECK(padded.rows[0] == std::vector<std::string>{"1", "2"});
  // UTF-16 without the mark: NUL bytes, said as such (not "GBK").
  const auto bare = core::parseCsv(le.substr(2));
  CHECK(bare.rows.empty());
  CHECK(bare.error.find("NUL bytes (UTF-16 without a byte order mark?)") != std::string::npos);
}
