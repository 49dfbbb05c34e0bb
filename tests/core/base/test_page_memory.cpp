// SPDX-License-Identifier: MIT
// RecordBuffer (core/base/page_memory.h): the reader's growable record arrays, on the heap while
// small and in their own mremap-grown mappings from kLargeBlockBytes on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "core/base/page_memory.h"

using npuscope::core::detail::kLargeBlockBytes;
using npuscope::core::detail::RecordBuffer;

namespace {
struct Rec {
  std::int64_t a;
  std::uint32_t b;
  char c;
};
Rec recAt(std::size_t i) { return {static_cast<std::int64_t>(i * 7919) - 5, static_cast<std::uint32_t>(i ^ 0x5a5a), static_cast<char>('a' + i % 26)}; }
bool same(const Rec& x, const Rec& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
}  // namespace

TEST_CASE("RecordBuffer keeps every record through heap growth, the switch to a mapping and mremap growth") {
  RecordBuffer<Rec> buf;
  std::vector<Rec> ref;
  CHECK(buf.empty());
  const std::size_t n = 3 * (kLargeBlockBytes / sizeof(Rec)) + 123456;  // several mremaps
  std::size_t capacityChanges = 0, lastCapacity = 0;
  for (std::size_t i = 0; i < n; ++i) {
    buf.push_back(recAt(i));
    ref.push_back(recAt(i));
    if (buf.capacity() != lastCapacity) {
      ++capacityChanges;
      lastCapacity = buf.capacity();
      // Spot check at each growth: everything written so far survived the move.
      for (std::size_t k = 0; k <= i; k += 997) REQUIRE(same(buf[k], ref[k]));
    }
  }
  CHECK(capacityChanges > 5);
  REQUIRE(buf.size() == n);
  CHECK(buf.capacity() >= n);
  CHECK(buf.capacity() * sizeof(Rec) >= kLargeBlockBytes);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += !same(buf[i], ref[i]);
  CHECK(bad == 0);
  CHECK(std::distance(buf.begin(), buf.end()) == static_cast<std::ptrdiff_t>(n));
  CHECK(same(buf.back(), recAt(n - 1)));

  // Move: the source is left empty and usable.
  RecordBuffer<Rec> moved(std::move(buf));
  CHECK(buf.empty());  // NOLINT(bugprone-use-after-move): documented state
  CHECK(buf.capacity() == 0);
  REQUIRE(moved.size() == n);
  CHECK(same(moved[n / 2], recAt(n / 2)));
  buf.push_back(recAt(1));
  CHECK(same(buf[0], recAt(1)));

  // clear keeps the capacity; reserve makes room without changing the records; reset frees.
  const std::size_t cap = moved.capacity();
  moved.clear();
  CHECK(moved.empty());
  CHECK(moved.capacity() == cap);
  moved.push_back(recAt(42));
  moved.reserve(4 * cap);
  CHECK(moved.capacity() >= 4 * cap);
  REQUIRE(moved.size() == 1);
  CHECK(same(moved[0], recAt(42)));
  moved.reset();
  CHECK(moved.size() == 0);
  CHECK(moved.capacity() == 0);
  CHECK(moved.data() == nullptr);
}

TEST_CASE("RecordBuffer: reserve on an empty buffer goes straight to a mapping - small buffers stay small") {
  RecordBuffer<Rec> big;
  big.reserve(kLargeBlockBytes / sizeof(Rec) + 1);
  CHECK(big.size() == 0);
  CHECK(big.capacity() * sizeof(Rec) % (2u << 20) == 0);  // whole huge pages
  for (std::size_t i = 0; i < 10; ++i) big.push_back(recAt(i));
  CHECK(same(big[9], recAt(9)));
  RecordBuffer<Rec> small;
  small.push_back(recAt(3));
  CHECK(small.capacity() == 1);  // the first buffer holds 1 record (one buffer per thread of the file: 1 M threads)
  CHECK(same(small[0], recAt(3)));
  small.push_back(recAt(4));
  CHECK(small.capacity() == 2);  // then doubling
  small.push_back(recAt(5));
  CHECK(small.capacity() == 4);
  CHECK(same(small[0], recAt(3)));
  CHECK(same(small[2], recAt(5)));
  RecordBuffer<Rec> assigned;
  assigned = std::move(big);
  CHECK(assigned.size() == 10);
  CHECK(same(assigned[5], recAt(5)));
  CHECK(big.size() == 0);  // NOLINT(bugprone-use-after-move)
}
