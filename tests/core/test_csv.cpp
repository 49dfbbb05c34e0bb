// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "core/csv.h"
#include "core/tables.h"
#include "test_util.h"

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
