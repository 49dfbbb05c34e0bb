// SPDX-License-Identifier: MIT
// RowArgs / PackedColumn (core/model/row_args.h): the compact args of database rows. Expected
// values are the inputs written in the test; the byte counts follow from the encoding rules
// (hand-counted in the comments).

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "core/model/row_args.h"

using namespace npuscope;

TEST_CASE("row args: packed columns give back every value, in the fewest bytes", "[rowargs]") {
  core::PackedColumn constant;
  constant.pack(std::vector<std::int64_t>(1000, 4294967295LL));
  CHECK(constant.size() == 1000);
  CHECK(constant.get(0) == 4294967295LL);
  CHECK(constant.get(999) == 4294967295LL);
  CHECK(constant.memoryBytes() == 0);  // one value: no bytes a row
  // 0..999 plus 4294967295 every 10th row: frame of reference needs 4 bytes (range 2^32 - 1),
  // a dictionary of 901 distinct values 2-byte codes + 901 * 8 bytes = 2000 + 7208 = 9208 bytes
  // > 4000, so 4 bytes a row.
  std::vector<std::int64_t> mixed;
  for (int i = 0; i < 1000; ++i) mixed.push_back(i % 10 == 0 ? 4294967295LL : i);
  const std::vector<std::int64_t> copy = mixed;
  core::PackedColumn c;
  c.pack(std::move(mixed));
  for (std::size_t i = 0; i < copy.size(); ++i) REQUIRE(c.get(i) == copy[i]);
  CHECK(c.memoryBytes() >= 4000);
  CHECK(c.memoryBytes() < 4100);
  // Three far-apart values repeated: a dictionary (1-byte codes + 3 * 8 bytes).
  std::vector<std::int64_t> few;
  for (int i = 0; i < 3000; ++i) few.push_back(i % 3 == 0 ? INT64_MIN : i % 3 == 1 ? INT64_MAX : -5);
  core::PackedColumn d;
  d.pack(std::vector<std::int64_t>(few));
  for (std::size_t i = 0; i < few.size(); ++i) REQUIRE(d.get(i) == few[i]);
  CHECK(d.memoryBytes() < 3000 + 64);
  CHECK(d.get(3000) == core::RowArgs::kAbsent);  // out of range
}

TEST_CASE("row args: keys in schema order, absent cells left out, texts and integers as text", "[rowargs]") {
  core::RowArgs a;
  const auto s = a.addSchema({"Model Id", "Task Type", "Op Type"});
  const auto r0 = a.beginRow(s);
  a.setInteger(s, 0, 4294967295LL);
  a.setText(s, 1, "AI_CORE");
  a.setText(s, 2, "MatMul");
  const auto r1 = a.beginRow(s);
  a.setInteger(s, 0, -7);
  a.setText(s, 1, "");
  // A value in the range the text codes use is kept as its decimal text.
  const auto r2 = a.beginRow(s);
  a.setInteger(s, 0, INT64_MIN + 5);
  a.pack();
  std::vector<std::pair<std::string, std::string>> got;
  a.forEach(s, r0, [&](std::string_view k, const std::string& v) {
    got.emplace_back(k, v);
    return true;
  });
  CHECK(got == std::vector<std::pair<std::string, std::string>>{
                   {"Model Id", "4294967295"}, {"Task Type", "AI_CORE"}, {"Op Type", "MatMul"}});
  CHECK(a.find(s, r1, "Model Id") == std::optional<std::string>("-7"));
  CHECK(a.find(s, r1, "Task Type") == std::optional<std::string>(""));
  CHECK_FALSE(a.find(s, r1, "Op Type").has_value());
  CHECK(a.find(s, r2, "Model Id") == std::optional<std::string>("-9223372036854775803"));
  CHECK_FALSE(a.find(s, r2, "Task Type").has_value());
  CHECK_FALSE(a.find(s, 3, "Model Id").has_value());
  CHECK_FALSE(a.find(s + 1, 0, "Model Id").has_value());
}
