// SPDX-License-Identifier: MIT
// Summary levels (LaneLod, CounterLod) and visibleSpans: hand-built rows whose levels and boxes
// are worked out by hand in the comments, properties against the definition on random rows, and
// the loadTrace hook.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>
#include <string>

#include "core/query/lod.h"
#include "core/model/trace.h"

using namespace npuscope;
using core::LaneLod;
using core::SpanBox;
using core::TimeNs;

namespace {

// A lane with one depth row holding `slices` ([start, end) pairs, sorted and disjoint).
core::Lane makeRow(const std::vector<std::pair<TimeNs, TimeNs>>& slices) {
  core::Lane lane;
  for (const auto& [s, e] : slices) {
    lane.start.push_back(s);
    lane.end.push_back(e);
    lane.names.push_back(static_cast<core::NameId>(lane.names.size() % 5 + 1));  // distinct names: SpanBox::longestName is checked
    lane.categories.push_back(0);
    lane.argsOffset.push_back(0);
    lane.argsLength.push_back(0);
    lane.flags.push_back(0);
  }
  lane.rowBegin = {0, static_cast<std::uint32_t>(slices.size())};
  return lane;
}

// The 8 slices of the worked example (gaps between starts: 1, 2, 7, 11, 19, 1, 59).
core::Lane exampleRow() {
  return makeRow({{0, 1}, {1, 2}, {3, 4}, {10, 20}, {21, 22}, {40, 41}, {41, 43}, {100, 101}});
}

// Every level for small examples: base width 2 ns, any row, refine down to one group.
core::LodOptions tinyOptions(TimeNs base = 2) { return {base, 1, 1}; }

std::vector<SpanBox> spans(const core::Lane& lane, core::TimeRange view, double widthPx) {
  std::vector<SpanBox> out;
  core::visibleSpans(lane, 0, view, widthPx, out);
  return out;
}

bool sameBoxes(const std::vector<SpanBox>& a, const std::vector<SpanBox>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].first != b[i].first || a[i].count != b[i].count ||
        a[i].longest != b[i].longest)
      return false;
  return true;
}

std::vector<std::uint32_t> levelFirst(const core::Lane& lane, const LaneLod::Level& l) {
  return {lane.lod.first.begin() + l.begin, lane.lod.first.begin() + l.end};
}
std::vector<std::uint32_t> levelLongest(const core::Lane& lane, const LaneLod::Level& l) {
  return {lane.lod.longest.begin() + l.begin, lane.lod.longest.begin() + l.end};
}

}  // namespace

TEST_CASE("summary levels of a hand-built row", "[lod]") {
  core::Lane lane = exampleRow();
  const std::size_t before = lane.memoryBytes();
  core::buildLaneLod(lane, tinyOptions());
  // Worked by hand (8 slices, a level is kept when it has at most half the groups of the last):
  //  W=8 (the first width whose gaps allow <= 4 groups: gaps >= 8 are 11, 19, 59):
  //      {0,1,2} {3} {4} {5,6} {7}: 5 groups, not kept; reach 8.
  //  W=16 (gaps between those group starts: 10, 11, 19, 60): {0..3} {4} {5,6} {7}: 4 groups, kept;
  //      reach 16 + 8 = 24; longest: slice 3 [10,20), 4, slice 6 [41,43), 7.
  //  W=32: {0..4} {5,6} {7}: 3 groups, not kept; reach 56.
  //  W=64: {0..6} {7}: 2 groups, kept; reach 120.   W=128: {0..7}: kept; reach 248.
  REQUIRE(lane.lod.levels.size() == 3);
  const auto& l0 = lane.lod.levels[0];
  CHECK(l0.depth == 0);
  CHECK(l0.width == 16);
  CHECK(l0.reach == 24);
  CHECK(levelFirst(lane, l0) == std::vector<std::uint32_t>{0, 4, 5, 7});
  CHECK(levelLongest(lane, l0) == std::vector<std::uint32_t>{3, 4, 6, 7});
  const auto& l1 = lane.lod.levels[1];
  CHECK(l1.width == 64);
  CHECK(l1.reach == 120);
  CHECK(levelFirst(lane, l1) == std::vector<std::uint32_t>{0, 7});
  CHECK(levelLongest(lane, l1) == std::vector<std::uint32_t>{3, 7});
  const auto& l2 = lane.lod.levels[2];
  CHECK(l2.width == 128);
  CHECK(l2.reach == 248);
  CHECK(levelFirst(lane, l2) == std::vector<std::uint32_t>{0});
  CHECK(levelLongest(lane, l2) == std::vector<std::uint32_t>{3});
  // 7 groups of 8 bytes, counted by the lane.
  CHECK(lane.lod.first.size() + lane.lod.longest.size() == 14);
  CHECK(lane.memoryBytes() - before == lane.lod.memoryBytes());
  CHECK(lane.lod.memoryBytes() >= 7 * 8);

  // The level used for a resolution: the largest reach <= ns per pixel.
  CHECK(core::lodLevelFor(lane, 0, 23.9) == nullptr);
  CHECK(core::lodLevelFor(lane, 0, 25.6) == &l0);
  CHECK(core::lodLevelFor(lane, 0, 120) == &l1);
  CHECK(core::lodLevelFor(lane, 0, 1e9) == &l2);
  CHECK(core::lodLevelFor(lane, 1, 1e9) == nullptr);

  // Rows below minRowSlices get no levels.
  core::Lane small = exampleRow();
  core::buildLaneLod(small, {2, 9, 1});
  CHECK(small.lod.empty());
}

TEST_CASE("visibleSpans at several resolutions, with and without levels", "[lod]") {
  const core::Lane raw = exampleRow();
  core::Lane lod = exampleRow();
  core::buildLaneLod(lod, tinyOptions());

  // 25.6 ns per px (level reach 24). From [0,1): the boundary is ceil(1 * 25.6) = 26, so the box
  // takes slices 0..4 (starts 0, 1, 3, 10, 21), ends at 22, longest slice 3 [10,20). From [40,41):
  // boundary ceil(2 * 25.6) = 52: slices 5, 6; longest 6 [41,43). Then [100,101) alone.
  const std::vector<SpanBox> expected{{0, 22, 0, 5, 3}, {40, 43, 5, 2, 6}, {100, 101, 7, 1, 7}};
  CHECK(sameBoxes(spans(raw, {0, 2560}, 100), expected));
  CHECK(sameBoxes(spans(lod, {0, 2560}, 100), expected));

  // The view starts inside the first group (at 5): slice 3 [10,20) opens a box up to 5 + 26 = 31,
  // which takes slice 4 (starts 21) too; then as above with boundaries 5 + 52 and 5 + 103.
  const std::vector<SpanBox> shifted{{10, 22, 3, 2, 3}, {40, 43, 5, 2, 6}, {100, 101, 7, 1, 7}};
  CHECK(sameBoxes(spans(raw, {5, 2565}, 100), shifted));
  CHECK(sameBoxes(spans(lod, {5, 2565}, 100), shifted));

  // 120 ns per px (level reach 120): everything starts before 120, one box, longest slice 3.
  const std::vector<SpanBox> one{{0, 101, 0, 8, 3}};
  CHECK(sameBoxes(spans(raw, {0, 1200}, 10), one));
  CHECK(sameBoxes(spans(lod, {0, 1200}, 10), one));

  // 1 ns per px (no level): slices at least 1 px long are boxes of their own.
  const auto fine = spans(lod, {0, 50}, 50);
  REQUIRE(fine.size() == 7);  // the 7 slices starting before 50
  for (std::uint32_t i = 0; i < fine.size(); ++i) {
    CHECK(fine[i].count == 1);
    CHECK(fine[i].first == i);
  }
}

TEST_CASE("a level merges whole groups, gaps above a pixel stay gaps", "[lod]") {
  // Pairs 1 ns long, 2 ns apart inside a pair; pairs start at 0, 9, 20, 30.
  const auto slices = std::vector<std::pair<TimeNs, TimeNs>>{{0, 1},   {2, 3},   {9, 10},  {11, 12},
                                                             {20, 21}, {22, 23}, {30, 31}, {32, 33}};
  const core::Lane raw = makeRow(slices);
  core::Lane lod = makeRow(slices);
  core::buildLaneLod(lod, tinyOptions(4));
  // W=4: gaps >= 4 are 7, 9, 8, so 4 groups are possible: the pairs, kept with reach 4.
  REQUIRE(!lod.lod.levels.empty());
  CHECK(lod.lod.levels[0].reach == 4);
  CHECK(levelFirst(lod, lod.lod.levels[0]) == std::vector<std::uint32_t>{0, 2, 4, 6});

  // 5 ns per px: the pair at 9 lies across the pixel boundary 10. Slice by slice it is two boxes;
  // the level keeps the pair whole (its second slice starts 1 ns = 0.2 px after the boundary,
  // within the reach). The 6 ns gap 3 -> 9 (1.2 px) stays a gap in both.
  CHECK(sameBoxes(spans(raw, {0, 500}, 100),
                  {{0, 3, 0, 2, 0}, {9, 10, 2, 1, 2}, {11, 12, 3, 1, 3}, {20, 23, 4, 2, 4}, {30, 33, 6, 2, 6}}));
  CHECK(sameBoxes(spans(lod, {0, 500}, 100), {{0, 3, 0, 2, 0}, {9, 12, 2, 2, 2}, {20, 23, 4, 2, 4}, {30, 33, 6, 2, 6}}));
}

TEST_CASE("a group holding a slice wider than a pixel is drawn slice by slice", "[lod]") {
  // [8,9) and [11,100) share a group at W=4 (11 < 8 + 4); the pairs at 200 and 300 make it kept.
  const auto slices =
      std::vector<std::pair<TimeNs, TimeNs>>{{8, 9}, {11, 100}, {200, 201}, {202, 203}, {300, 301}, {302, 303}};
  core::Lane lod = makeRow(slices);
  core::buildLaneLod(lod, tinyOptions(4));
  REQUIRE(!lod.lod.levels.empty());
  CHECK(lod.lod.levels[0].reach == 4);
  CHECK(levelFirst(lod, lod.lod.levels[0]) == std::vector<std::uint32_t>{0, 2, 4});
  // 10 ns per px: [8,9) is a box up to the boundary 10 (the long slice starts at 11), the long
  // slice a box of its own, then each pair one box.
  const std::vector<SpanBox> expected{{8, 9, 0, 1, 0}, {11, 100, 1, 1, 1}, {200, 203, 2, 2, 2}, {300, 303, 4, 2, 4}};
  CHECK(sameBoxes(spans(lod, {0, 1000}, 100), expected));
  CHECK(sameBoxes(spans(makeRow(slices), {0, 1000}, 100), expected));
}

TEST_CASE("visibleSpans with levels keeps coverage and gaps on random rows", "[lod]") {
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 20; ++trial) {
    // A row of 5000 slices: mostly short and dense, some long, some wide gaps.
    std::vector<std::pair<TimeNs, TimeNs>> slices;
    TimeNs t = 1'000'000;
    for (int i = 0; i < 5000; ++i) {
      const TimeNs gap = rng() % 10 == 0 ? static_cast<TimeNs>(rng() % 50'000) : static_cast<TimeNs>(rng() % 300);
      const TimeNs len = rng() % 50 == 0 ? static_cast<TimeNs>(rng() % 200'000) : static_cast<TimeNs>(rng() % 200);
      t += gap;
      slices.push_back({t, t + len});
      t += len;
    }
    core::Lane lane = makeRow(slices);
    core::buildLaneLod(lane, {512, 64, 16});
    REQUIRE(!lane.lod.empty());
    // The same levels without group summaries: the boxes must be the same ones.
    core::Lane plain = makeRow(slices);
    core::buildLaneLod(plain, {512, 64, 16, 0});
    REQUIRE(!plain.lod.summaries);
    REQUIRE(lane.lod.summaries);
    const TimeNs t0 = slices.front().first, t1 = slices.back().second;
    for (int v = 0; v < 10; ++v) {
      const TimeNs a = t0 + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(t1 - t0));
      const TimeNs len = std::max<TimeNs>(1000, static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(t1 - a + 1)));
      const core::TimeRange view{a, a + len};
      const double width = 200 + static_cast<double>(rng() % 1800);
      const double nsPerPx = static_cast<double>(len) / width;
      const auto boxes = spans(lane, view, width);
      const auto plainBoxes = spans(plain, view, width);
      CHECK(sameBoxes(boxes, plainBoxes));
      // The visible slices: end after the view start (or zero-length at it), start before its end.
      std::uint32_t i0 = 0;
      while (i0 < slices.size() && slices[i0].second <= view.start && slices[i0].first != view.start) ++i0;
      std::uint32_t i1 = i0;
      while (i1 < slices.size() && slices[i1].first < view.end) ++i1;
      REQUIRE(!boxes.empty() == (i1 > i0));
      if (boxes.empty()) continue;
      // Boxes partition [i0, i1) in order, span their slices, never overlap; the last merged box
      // may take slices starting within its pixel column (plus the reach), past the view end.
      CHECK(boxes.front().first == i0);
      CHECK(boxes.back().first < i1);
      CHECK(boxes.back().first + boxes.back().count >= i1);
      for (std::uint32_t s = i1; s < boxes.back().first + boxes.back().count; ++s)
        CHECK(static_cast<double>(slices[s].first) < static_cast<double>(view.end) + 2 * nsPerPx + 1);
      for (std::size_t k = 0; k < boxes.size(); ++k) {
        const SpanBox& b = boxes[k];
        REQUIRE(b.count >= 1);
        CHECK(b.start == slices[b.first].first);
        CHECK(b.end == slices[b.first + b.count - 1].second);
        CHECK(b.longest >= b.first);
        CHECK(b.longest < b.first + b.count);
        if (b.count == 1) CHECK(b.longest == b.first);
        CHECK(b.longestName == lane.names[b.longest]);
        CHECK(b.longestDur == slices[b.longest].second - slices[b.longest].first);
        if (k > 0) {
          CHECK(b.first == boxes[k - 1].first + boxes[k - 1].count);
          CHECK(b.start >= boxes[k - 1].end);
        }
        // Inside a merged box no gap is wider than a pixel.
        // (the pixel boundary is rounded up to whole ns: + 1)
        for (std::uint32_t s = b.first + 1; s < b.first + b.count; ++s)
          CHECK(static_cast<double>(slices[s].first - slices[s - 1].second) <= nsPerPx + 1);
      }
      // Each box starts in a pixel column of its own.
      CHECK(static_cast<double>(boxes.size()) <= width + 2);
    }
  }
}

// `trials` random ranges [a, b) of `series`: counterRangeMax gives the maximum a scan gives.
void checkRangeMaxima(const core::CounterSeries& series, std::mt19937_64& rng, int trials) {
  for (int k = 0; k < trials; ++k) {
    std::size_t a = rng() % series.value.size(), b = rng() % series.value.size();
    if (a > b) std::swap(a, b);
    ++b;
    // Every other range is short (up to 5000 values): its ends fall in the lower levels.
    if (k % 2) b = std::min(series.value.size(), a + 1 + rng() % 5000);
    const double brute = *std::max_element(series.value.begin() + static_cast<std::ptrdiff_t>(a),
                                           series.value.begin() + static_cast<std::ptrdiff_t>(b));
    CHECK(core::counterRangeMax(series, a, b) == brute);
  }
}

TEST_CASE("counter block maxima give the range maximum", "[lod]") {
  core::CounterSeries series;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20'000; ++i) {
    series.ts.push_back(i * 10);
    series.value.push_back(static_cast<double>(rng() % 100'000) / 7.0);
  }
  core::buildCounterLod(series);
  // 20000 values: ceil(20000 / 8) = 2500 blocks of 8, then ceil(/ 8) each: 313 of 64, 40 of 512,
  // 5 of 4096, 1 of 32768.
  REQUIRE(series.lod.maxima.size() == 5);
  CHECK(series.lod.maxima[0].size() == 2500);
  CHECK(series.lod.maxima[1].size() == 313);
  CHECK(series.lod.maxima[2].size() == 40);
  CHECK(series.lod.maxima[3].size() == 5);
  CHECK(series.lod.maxima[4].size() == 1);
  CHECK(series.lod.ts8.size() == 2500);
  checkRangeMaxima(series, rng, 500);
  // A spike placed by hand is found from far away.
  series.value[12'345] = 1e9;
  core::buildCounterLod(series);
  CHECK(core::counterRangeMax(series, 3, 19'999) == 1e9);
  CHECK(core::counterRangeMax(series, 12'346, 19'999) < 1e9);
  // Short series have no summary and are scanned.
  core::CounterSeries shortSeries;
  shortSeries.ts = {0, 1, 2};
  shortSeries.value = {1, 5, 2};
  core::buildCounterLod(shortSeries);
  CHECK(shortSeries.lod.empty());
  CHECK(core::counterRangeMax(shortSeries, 0, 3) == 5);
  CHECK(core::counterRangeMax(shortSeries, 2, 3) == 2);
}

TEST_CASE("a counter range over the whole summary reads its top entry", "[lod]") {
  // 4096 values: levels of 512, 64, 8 and 1 entries; [0, 4096) climbs to the top one, ranges
  // trimmed by a value at either end stop a level below. A spike placed by hand, and a scan, are
  // the oracles.
  core::CounterSeries series;
  for (int i = 0; i < 4096; ++i) {
    series.ts.push_back(i * 3);
    series.value.push_back(static_cast<double>((i * 7919) % 4093));
  }
  series.value[2777] = 1e6;
  core::buildCounterLod(series);
  REQUIRE(series.lod.maxima.size() == 4);
  CHECK(series.lod.maxima[3].size() == 1);
  CHECK(core::counterRangeMax(series, 0, 4096) == 1e6);
  CHECK(core::counterRangeMax(series, 1, 4095) == 1e6);
  CHECK(core::counterRangeMax(series, 2778, 4096) < 1e6);
  CHECK(core::counterRangeMax(series, 0, 2777) < 1e6);
  for (const auto& [a, b] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 4096}, {0, 2777}, {2778, 4096}, {8, 4088}})
    CHECK(core::counterRangeMax(series, a, b) == *std::max_element(series.value.begin() + static_cast<std::ptrdiff_t>(a),
                                                                   series.value.begin() + static_cast<std::ptrdiff_t>(b)));
}

TEST_CASE("a counter time search through the block starts finds what std::lower_bound finds", "[lod]") {
  std::mt19937_64 rng(11);
  for (const std::size_t n : {std::size_t{3}, std::size_t{255}, std::size_t{256}, std::size_t{5'003}, std::size_t{70'000}}) {
    core::CounterSeries series;
    TimeNs t = 0;
    for (std::size_t i = 0; i < n; ++i) {
      t += static_cast<TimeNs>(rng() % 4);  // repeated times too
      series.ts.push_back(t);
      series.value.push_back(0);
    }
    core::buildCounterLod(series);
    CHECK(series.lod.empty() == (n < 256));
    // Large series: the largest range maximum also comes out of the three levels.
    for (int k = 0; k < 400; ++k) {
      std::size_t from = rng() % (n + 1), limit = rng() % (n + 1);
      if (from > limit) std::swap(from, limit);
      const TimeNs probe = static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(t + 3)) - 1;
      const auto expected = static_cast<std::size_t>(
          std::lower_bound(series.ts.begin() + static_cast<std::ptrdiff_t>(from),
                           series.ts.begin() + static_cast<std::ptrdiff_t>(limit), probe) - series.ts.begin());
      CHECK(core::counterLowerBound(series, from, limit, probe) == expected);
      // Any hint gives the same answer: near it, far before or after it, past the end.
      const std::size_t near = expected + rng() % 17 - 8;
      for (const std::size_t hint : {near, expected, std::size_t{0}, n, rng() % (2 * n + 1)})
        CHECK(core::counterLowerBound(series, from, limit, probe, hint) == expected);
    }
  }
}

TEST_CASE("a galloping search from a guess finds what std::lower_bound finds", "[lod]") {
  std::mt19937_64 rng(13);
  std::vector<TimeNs> keys;
  for (int i = 0; i < 3000; ++i) keys.push_back(static_cast<TimeNs>(rng() % 1000));  // repeats too
  std::sort(keys.begin(), keys.end());
  const auto key = [&](std::size_t i) { return keys[i]; };
  for (int k = 0; k < 3000; ++k) {
    std::size_t lo = rng() % (keys.size() + 1), hi = rng() % (keys.size() + 1);
    if (lo > hi) std::swap(lo, hi);
    const TimeNs v = static_cast<TimeNs>(rng() % 1002) - 1;
    const auto expected = static_cast<std::size_t>(
        std::lower_bound(keys.begin() + static_cast<std::ptrdiff_t>(lo), keys.begin() + static_cast<std::ptrdiff_t>(hi), v) -
        keys.begin());
    const std::size_t guess = rng() % (keys.size() + 10);  // inside, outside and past [lo, hi]
    CHECK(core::gallopLowerBoundNear(lo, hi, guess, v, key) == expected);
    CHECK(core::gallopLowerBoundNear(lo, hi, expected, v, key) == expected);
  }
}

TEST_CASE("a counter range maximum spanning every summary level", "[lod]") {
  core::CounterSeries series;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200'000; ++i) {
    series.ts.push_back(i);
    series.value.push_back(static_cast<double>(rng() % 1'000'000));
  }
  core::buildCounterLod(series);
  REQUIRE(series.lod.maxima.size() == 6);      // 25000, 3125, 391, 49, 7 and 1 entries
  REQUIRE(series.lod.maxima[4].size() == 7);  // ceil(200000 / 32768)
  checkRangeMaxima(series, rng, 200);
}

TEST_CASE("loadTrace builds the summary levels of long rows", "[lod]") {
  // 3000 slices of 100 ns every 1 us on one thread, 300 counter samples.
  std::string json = "[";
  for (int i = 0; i < 3000; ++i)
    json += "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"k" + std::to_string(i % 7) + "\",\"ts\":" +
            std::to_string(i) + ",\"dur\":0.1},";
  for (int i = 0; i < 300; ++i)
    json += "{\"ph\":\"C\",\"pid\":1,\"name\":\"c\",\"ts\":" + std::to_string(i * 10) + ",\"args\":{\"v\":" +
            std::to_string(i % 13) + "}},";
  json.back() = ']';
  const auto r = core::loadTraceFromMemory(json, "lod.json");
  REQUIRE(r.ok());
  const core::Trace& t = *r.trace;
  REQUIRE(t.lanes.size() == 1);
  const core::Lane& lane = t.lanes[0];
  REQUIRE(lane.sliceCount() == 3000);
  REQUIRE(!lane.lod.empty());
  // Starts are 1000 ns apart: the first width that can merge is 1024 (> 1000), 2 slices a group.
  CHECK(lane.lod.levels[0].width == 1024);
  CHECK(lane.lod.levels[0].end - lane.lod.levels[0].begin == 1500);
  REQUIRE(t.counters.size() == 1);
  CHECK(t.counters[0].lod.maxima[0].size() == 38);  // ceil(300 / 8)
  // The whole trace over 100 px: 30 us per px, one box per pixel column at most.
  std::vector<SpanBox> out;
  core::visibleSpans(lane, 0, t.range, 100, out);
  CHECK(out.size() <= 101);
  std::uint32_t covered = 0;
  for (const auto& b : out) covered += b.count;
  CHECK(covered == 3000);
  CHECK(t.memoryBytes() >= lane.lod.memoryBytes() + t.counters[0].lod.memoryBytes());
}
