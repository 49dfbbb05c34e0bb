// SPDX-License-Identifier: MIT
// LaneColumn (core/model/lane_column.h) and what it saves per lane (issue 27 item 3). Expected
// values follow from the column's rule (8 bytes inside the object, then a heap block that
// doubles) and from hand-built traces, not from npuscope's output.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/lane_column.h"
#include "core/model/trace.h"

using namespace npuscope;
using core::LaneColumn;

TEST_CASE("LaneColumn: values inside the object up to 8 bytes, then a heap block that doubles") {
  static_assert(sizeof(LaneColumn<std::int64_t>) == 16 && sizeof(LaneColumn<std::uint8_t>) == 16);
  LaneColumn<std::int64_t> t;
  CHECK(t.empty());
  CHECK(t.capacity() == 1);
  t.push_back(-7);
  CHECK(t.heapBytes() == 0);  // one time inside
  t.push_back(9);
  CHECK(t.capacity() == 2);
  CHECK(t.heapBytes() == 16);
  for (std::int64_t i = 0; i < 5; ++i) t.push_back(i);
  CHECK(t.size() == 7);
  CHECK(t.capacity() == 8);  // 2, 4, 8
  CHECK(t == std::vector<std::int64_t>{-7, 9, 0, 1, 2, 3, 4});
  CHECK(t.front() == -7);
  CHECK(t.back() == 4);

  LaneColumn<std::uint8_t> flags;
  for (std::uint8_t i = 0; i < 8; ++i) flags.push_back(i);
  CHECK(flags.heapBytes() == 0);  // 8 flag bytes inside
  flags.push_back(8);
  CHECK(flags.capacity() == 16);
  CHECK(flags.heapBytes() == 16);
  flags.resize(3);
  flags.shrink_to_fit();  // back inside the object
  CHECK(flags.heapBytes() == 0);
  CHECK(flags == std::vector<std::uint8_t>{0, 1, 2});

  LaneColumn<std::uint32_t> rows{0};
  CHECK(rows.size() == 1);
  rows.push_back(5);
  CHECK(rows.heapBytes() == 0);  // two ids inside
  rows = std::vector<std::uint32_t>{0, 3, 9};
  CHECK(rows == std::vector<std::uint32_t>{0, 3, 9});
  rows.resize(5);
  CHECK(rows == std::vector<std::uint32_t>{0, 3, 9, 0, 0});  // value-initialised
  const std::vector<std::uint32_t> more{7, 8};
  rows.insert(rows.begin() + 1, more.begin(), more.end());
  CHECK(rows == std::vector<std::uint32_t>{0, 7, 8, 3, 9, 0, 0});
}

TEST_CASE("LaneColumn: copies are deep, moves leave an empty column, a value of its own can be pushed") {
  LaneColumn<std::int64_t> a;
  for (std::int64_t i = 1; i <= 5; ++i) a.push_back(i * 10);
  LaneColumn<std::int64_t> b = a;
  b[0] = -1;
  CHECK(a[0] == 10);
  LaneColumn<std::int64_t> c = std::move(a);
  CHECK(a.empty());  // NOLINT(bugprone-use-after-move)
  CHECK(a.heapBytes() == 0);
  CHECK(c == std::vector<std::int64_t>{10, 20, 30, 40, 50});
  c.push_back(c[2]);  // the element is read before the block grows
  c.push_back(c[0]);
  c.push_back(c[5]);
  CHECK(c == std::vector<std::int64_t>{10, 20, 30, 40, 50, 30, 10, 30});
  LaneColumn<std::int64_t> one{42};
  LaneColumn<std::int64_t> moved = std::move(one);  // inside the object: copied over
  CHECK(moved == std::vector<std::int64_t>{42});
  b.swap(moved);
  CHECK(b == std::vector<std::int64_t>{42});
  CHECK(moved == std::vector<std::int64_t>{-1, 20, 30, 40, 50});
}

TEST_CASE("LaneColumn: resize and assign with one of the column's own values, across the move to the heap") {
  // std::vector allows it; the value must be read before the storage moves (review finding).
  LaneColumn<std::int64_t> t{77};  // inside the object
  t.resize(5, t[0]);               // to the heap: the inside bytes become the block's pointer
  CHECK(t == std::vector<std::int64_t>{77, 77, 77, 77, 77});
  t[4] = -3;
  t.resize(40, t[4]);  // realloc may free the old block
  REQUIRE(t.size() == 40);
  CHECK(t[39] == -3);
  CHECK(t[5] == -3);
  CHECK(t[0] == 77);
  t.assign(3, t[0]);
  CHECK(t == std::vector<std::int64_t>{77, 77, 77});
  LaneColumn<std::uint32_t> ids;
  ids.assign(3u, 9u);  // the count / value overload (two unsigned ints would deduce the iterator one)
  CHECK(ids == std::vector<std::uint32_t>{9, 9, 9});
}

TEST_CASE("a lane of one slice holds no heap block for its columns: under 300 bytes (issue 27 item 3)") {
  // 1,000 threads of one slice each, tids of 4 digits (their names "1000".."1999" fit in
  // std::string's inline characters).
  std::string json = "[";
  for (int i = 0; i < 1000; ++i)
    json += std::string(i ? "," : "") + R"({"ph":"X","name":"op","pid":1,"tid":)" + std::to_string(1000 + i) + R"(,"ts":)" +
            std::to_string(i * 3) + R"(,"dur":2})";
  json += "]";
  const auto r = core::loadTraceFromMemory(json, "threads.json");
  REQUIRE(r.ok());
  REQUIRE(r.trace->lanes.size() == 1000);
  for (const core::Lane& lane : r.trace->lanes) {
    REQUIRE(lane.sliceCount() == 1);
    CHECK(lane.start.heapBytes() + lane.end.heapBytes() + lane.names.heapBytes() + lane.categories.heapBytes() +
              lane.argsOffset.heapBytes() + lane.argsLength.heapBytes() + lane.flags.heapBytes() + lane.rowBegin.heapBytes() ==
          0);
    CHECK(lane.memoryBytes() < 300);
  }
  CHECK(sizeof(core::Lane) < 300);
}
