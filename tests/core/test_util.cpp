// SPDX-License-Identifier: MIT
#include "test_util.h"

#include <algorithm>
#include <catch2/catch.hpp>

namespace npuscope::test {

std::shared_ptr<const core::Trace> load(const std::string& path, unsigned threads) {
  core::LoadOptions o;
  o.threads = threads;
  auto r = core::loadTrace(path, o);
  INFO(path << ": " << r.error);
  REQUIRE(r.ok());
  return r.trace;
}

std::shared_ptr<core::Trace> loadMemory(const std::string& json, unsigned threads) {
  core::LoadOptions o;
  o.threads = threads;
  auto r = core::loadTraceFromMemory(json, "memory.json", o);
  INFO(r.error);
  REQUIRE(r.ok());
  return r.trace;
}

int laneIndex(const core::Trace& t, const std::string& process, const std::string& thread) {
  for (std::size_t i = 0; i < t.lanes.size(); ++i)
    if (t.processes[t.lanes[i].process].name == process && t.lanes[i].name == thread) return static_cast<int>(i);
  return -1;
}

core::SliceRef findSlice(const core::Trace& t, const std::string& name, int nth) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    // In start order within the lane.
    std::vector<std::uint32_t> hits;
    for (std::uint32_t i = 0; i < t.lanes[l].sliceCount(); ++i)
      if (t.name(t.lanes[l].names[i]) == name) hits.push_back(i);
    std::sort(hits.begin(), hits.end(), [&](auto a, auto b) { return t.lanes[l].start[a] < t.lanes[l].start[b]; });
    if (static_cast<int>(hits.size()) > nth) return {l, hits[static_cast<std::size_t>(nth)]};
    nth -= static_cast<int>(hits.size());
  }
  return {};
}

std::size_t countSlices(const core::Trace& t, const std::string& name) {
  std::size_t n = 0;
  for (const auto& l : t.lanes)
    for (auto id : l.names) n += t.name(id) == name;
  return n;
}

std::vector<std::string> flowPairs(const core::Trace& t) {
  std::vector<std::string> v;
  for (const auto& f : t.flows) v.push_back(std::string(t.sliceName(f.from)) + "->" + std::string(t.sliceName(f.to)));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace npuscope::test
