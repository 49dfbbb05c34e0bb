// SPDX-License-Identifier: MIT
// RangeBoard (issue 27 item 2): the parse workers' ranges while a JSON trace is read in parallel.
// A worker that runs dry takes the back half of the part with the most bytes left, cut by that
// part's own worker at its next step. Every range below is a hand count from the cut rule: the
// back half starts at cut(pos + left / 2, limit).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <thread>

#include "core/import/json/json_range_board.h"

using npuscope::core::detail::RangeBoard;

namespace {

/// Asks for a part on another thread and answers with step(k, pos) until the answer came (the
/// request is not visible from outside: step answers nothing until it is pending).
std::optional<unsigned> stealAnsweredBy(RangeBoard& b, unsigned k, std::size_t pos) {
  std::optional<unsigned> got;
  std::atomic<bool> done{false};
  std::jthread asker([&] {
    got = b.steal({});
    done = true;
  });
  for (int i = 0; i < 5000 && !done; ++i) {
    b.step(k, pos);  // the same position each time: only the first step after the request cuts
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  asker.join();
  return got;
}

RangeBoard::Range rangeOf(std::size_t begin, std::size_t limit) { return {begin, limit}; }

/// Part `victim` now ends at `cut`, and the new part `part` is [cut, limit).
void checkCut(const RangeBoard& b, unsigned victim, unsigned part, std::size_t cut, std::size_t limit) {
  CHECK(b.range(victim).limit == cut);
  CHECK(b.range(part).begin == cut);
  CHECK(b.range(part).limit == limit);
}

}  // namespace

TEST_CASE("RangeBoard: a dry worker takes the back half of the part with the most left") {
  // Two parts of a 2,000-byte file; cuts land where asked.
  RangeBoard b({rangeOf(0, 1000), rangeOf(1000, SIZE_MAX)}, 100, 2000,
               [](std::size_t from, std::size_t) { return from; });
  b.step(1, 1900);  // part 1: 100 left
  b.finished(1);
  // Part 0 is at 200 with 800 left: cut at 200 + 400 = 600.
  const std::optional<unsigned> got = stealAnsweredBy(b, 0, 200);
  REQUIRE(got == 2u);
  CHECK(b.range(0).begin == 0);
  checkCut(b, 0, 2, 600, 1000);
  // The step that answered returns the new limit from then on.
  CHECK(b.step(0, 250) == 600);
  b.finished(0);
  // Part 2 (at 700: 300 left, >= 2 * 100) is the only one left to cut: 700 + 150 = 850.
  const std::optional<unsigned> again = stealAnsweredBy(b, 2, 700);
  REQUIRE(again == 3u);
  checkCut(b, 2, 3, 850, 1000);
  // File order: 0 [0, 600), 2 [600, 850), 3 [850, 1000), 1 [1000, end).
  CHECK(b.fileOrder() == std::vector<unsigned>{0, 2, 3, 1});
  // 150 left in part 2 and 150 in part 3: nothing worth a cut, no wait.
  b.step(3, 850);
  CHECK_FALSE(b.steal({}).has_value());
}

TEST_CASE("RangeBoard: the last part's open limit is the file's end, and without a cut point there is no cut") {
  // SIZE_MAX: the end of the file (1,000 bytes). At 200: 800 left, cut at 600.
  RangeBoard open({rangeOf(0, SIZE_MAX)}, 100, 1000, [](std::size_t from, std::size_t) { return from; });
  REQUIRE(stealAnsweredBy(open, 0, 200) == 1u);
  checkCut(open, 0, 1, 600, SIZE_MAX);

  // A cut function that finds no element start before the limit: the part is not cut, and the
  // asker gets nothing once too little is left (the step declines, the asker looks again).
  RangeBoard none({rangeOf(0, 1000)}, 100, 1000, [](std::size_t, std::size_t limit) { return limit; });
  std::optional<unsigned> got = 7u;
  std::atomic<bool> done{false};
  std::jthread asker([&] {
    got = none.steal({});
    done = true;
  });
  std::size_t pos = 0;
  while (!done && pos < 1000) {
    none.step(0, pos);
    pos += 50;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  none.finished(0);
  asker.join();
  CHECK_FALSE(got.has_value());
  CHECK(none.parts() == 1);
  CHECK(none.range(0).limit == 1000);
}

TEST_CASE("RangeBoard: a part that ends answers the asker with nothing, and a stop ends the wait") {
  RangeBoard b({rangeOf(0, 1000)}, 100, 1000, [](std::size_t from, std::size_t) { return from; });
  std::optional<unsigned> got = 7u;
  std::jthread asker([&] { got = b.steal({}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  b.finished(0);  // no step came: the request is answered with nothing
  asker.join();
  CHECK_FALSE(got.has_value());
  CHECK(b.parts() == 1);

  RangeBoard c({rangeOf(0, 1000)}, 100, 1000, [](std::size_t from, std::size_t) { return from; });
  std::stop_source stop;
  std::optional<unsigned> got2 = 7u;
  std::jthread asker2([&] { got2 = c.steal(stop.get_token()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  stop.request_stop();  // nobody answers; the asker gives up within its 20 ms poll
  asker2.join();
  CHECK_FALSE(got2.has_value());
  // A later step of the part finds no pending request: nothing is cut.
  CHECK(c.step(0, 100) == 1000);
  CHECK(c.parts() == 1);
}
