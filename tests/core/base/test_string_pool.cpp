// SPDX-License-Identifier: MIT
// StringPool: interning, merging the parse workers' pools (mergeFrom / absorb).
#include <catch2/catch.hpp>

#include <string>

#include "core/base/string_pool.h"

using npuscope::core::NameId;
using npuscope::core::StringPool;

namespace {
/// A pool holding "" plus `names` in that order.
void fill(StringPool& p, const std::vector<std::string>& names) {
  for (const auto& n : names) p.intern(n);
}
}  // namespace

TEST_CASE("StringPool::absorb gives the ids mergeFrom gives, without copying the other arena") {
  const std::vector<std::string> mine{"alpha", "beta", "gamma"};
  // Shares "beta" and "" with `mine`; one string longer than an arena chunk (64 KiB).
  const std::vector<std::string> theirs{"delta", "beta", std::string(70000, 'x'), "epsilon"};

  StringPool merged, absorbed;
  fill(merged, mine);
  fill(absorbed, mine);
  StringPool a, b;
  fill(a, theirs);
  fill(b, theirs);
  const char* storedDelta = b.view(1).data();

  const std::vector<NameId> m1 = merged.mergeFrom(a);
  const std::vector<NameId> m2 = absorbed.absorb(std::move(b));
  // By hand: "" -> 0, delta -> 4 (new after alpha 1, beta 2, gamma 3), beta -> 2, the long one
  // -> 5, epsilon -> 6.
  CHECK(m1 == std::vector<NameId>{0, 4, 2, 5, 6});
  CHECK(m2 == m1);
  REQUIRE(absorbed.size() == 7);
  for (NameId id = 0; id < absorbed.size(); ++id) CHECK(absorbed.view(id) == merged.view(id));
  CHECK(absorbed.view(4).data() == storedDelta);  // adopted, not copied
  CHECK(b.size() == 1);                            // the other pool is left with "" only
  CHECK(absorbed.find("epsilon") == 6);
  CHECK(absorbed.find(std::string(70000, 'x')) == 5);
  // The adopted arena (a 64 KiB chunk and one for the long string) is counted.
  CHECK(absorbed.memoryBytes() >= merged.memoryBytes() - 64 * 1024);
  CHECK(absorbed.memoryBytes() >= 64 * 1024 + 70000);

  // Interning after an absorb uses the pool's own chunk, never an adopted one.
  const NameId z = absorbed.intern("zeta");
  CHECK(z == 7);
  CHECK(absorbed.view(z) == "zeta");
  CHECK(absorbed.view(4) == "delta");
  CHECK(absorbed.find("zeta") == 7);
}

TEST_CASE("StringPool::absorb into an empty pool keeps the other pool's ids - reserve keeps ids") {
  StringPool other;
  for (int i = 0; i < 5000; ++i) other.intern("name" + std::to_string(i));
  StringPool pool;
  pool.reserve(6000);
  const std::vector<NameId> map = pool.absorb(std::move(other));
  REQUIRE(map.size() == 5001);
  for (NameId i = 0; i < map.size(); ++i) CHECK(map[i] == i);
  CHECK(pool.find("name4999") == 5000);
  CHECK(pool.intern("name0") == 1);
}

TEST_CASE("StringPool::absorb stops early on a stop request and stays consistent") {
  StringPool other;
  // Appended rather than "s" + std::to_string(i): GCC 12 at -O3 reports a bogus -Wrestrict on
  // operator+(const char*, std::string&&) (GCC bug 105329).
  for (int i = 0; i < 40000; ++i) other.intern(std::string("s").append(std::to_string(i)));
  StringPool pool;
  pool.intern("s5");
  std::stop_source stop;
  stop.request_stop();
  const std::stop_token token = stop.get_token();
  const std::vector<NameId> map = pool.absorb(std::move(other), &token);
  REQUIRE(map.size() == 40001);
  // Polled before string 16383 (of ids 0 = "", 1 = "s0", ...): ids 0..16382 are merged.
  CHECK(map[0] == 0);
  CHECK(map[6] == 1);  // "s5", already there
  REQUIRE(map[16382] != npuscope::core::kInvalidIndex);
  CHECK(pool.view(map[16382]) == "s16381");
  CHECK(map[16383] == npuscope::core::kInvalidIndex);
  CHECK(map[40000] == npuscope::core::kInvalidIndex);
  CHECK(pool.find("s20000") == npuscope::core::kInvalidIndex);
  CHECK(pool.view(pool.find("s100")) == "s100");  // adopted bytes still valid
  const NameId added = pool.intern("new");
  CHECK(added == pool.size() - 1);
  CHECK(pool.view(added) == "new");
}
