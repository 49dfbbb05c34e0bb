// SPDX-License-Identifier: MIT
#pragma once
// Hand-built in-memory profiles for the widgets tests (no JSON loader involved).

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <QString>
#include <catch2/catch.hpp>

#include "core/base/mapped_file.h"
#include "core/profile/profile.h"
#include "core/model/trace.h"

namespace Catch {
template <>
struct StringMaker<QString> {
  static std::string convert(const QString& s) { return '"' + s.toStdString() + '"'; }
};
}  // namespace Catch

namespace npuscope::testing {

struct SliceSpec {
  std::uint32_t depth = 0;
  core::TimeNs start = 0;
  core::TimeNs end = 0;
  std::string name;
  std::string category;
  std::uint8_t flags = 0;
  std::string args;  ///< raw JSON args object, "" for none
};

/// Appends a lane for `process` with `slices` (any order): sorted per depth by start, rowBegin
/// filled. Args are appended to `argsBlob` (offsets into it); call finishArgs afterwards.
inline std::uint32_t addLane(core::Trace& t, std::uint32_t process, std::int64_t tid, const std::string& name,
                             std::vector<SliceSpec> slices, std::string* argsBlob = nullptr) {
  std::stable_sort(slices.begin(), slices.end(), [](const SliceSpec& a, const SliceSpec& b) {
    return std::tie(a.depth, a.start) < std::tie(b.depth, b.start);
  });
  core::Lane lane;
  lane.process = process;
  lane.tid = tid;
  lane.name = name;
  lane.rowBegin.clear();
  std::uint32_t depths = slices.empty() ? 0 : slices.back().depth + 1;
  std::size_t k = 0;
  for (std::uint32_t d = 0; d < depths; ++d) {
    lane.rowBegin.push_back(static_cast<std::uint32_t>(k));
    while (k < slices.size() && slices[k].depth == d) {
      const SliceSpec& s = slices[k];
      lane.start.push_back(s.start);
      lane.end.push_back(s.end);
      lane.names.push_back(t.strings.intern(s.name));
      lane.categories.push_back(t.strings.intern(s.category));
      lane.flags.push_back(s.flags);
      if (!s.args.empty() && argsBlob) {
        lane.argsOffset.push_back(argsBlob->size());
        lane.argsLength.push_back(static_cast<std::uint32_t>(s.args.size()));
        *argsBlob += s.args;
      } else {
        lane.argsOffset.push_back(0);
        lane.argsLength.push_back(0);
      }
      ++k;
    }
  }
  lane.rowBegin.push_back(static_cast<std::uint32_t>(k));
  t.lanes.push_back(std::move(lane));
  return static_cast<std::uint32_t>(t.lanes.size() - 1);
}

inline std::uint32_t addProcess(core::Trace& t, std::int64_t pid, const std::string& name,
                                core::Process::Role role = core::Process::Role::Other, const std::string& label = {}) {
  core::Process p;
  p.pid = pid;
  p.name = name;
  p.label = label;
  p.role = role;
  t.processes.push_back(p);
  return static_cast<std::uint32_t>(t.processes.size() - 1);
}

/// Sets Trace::range from the lanes and counters.
inline void finishRange(core::Trace& t) {
  bool any = false;
  core::TimeRange r;
  auto add = [&](core::TimeNs s, core::TimeNs e) {
    if (!any) { r = {s, e}; any = true; }
    r.start = std::min(r.start, s);
    r.end = std::max(r.end, e);
  };
  for (const auto& l : t.lanes)
    for (std::size_t i = 0; i < l.sliceCount(); ++i) add(l.start[i], l.end[i]);
  for (const auto& c : t.counters)
    for (auto ts : c.ts) add(ts, ts);
  t.range = r;
}

/// The standard 2-lane trace of the widgets tests (times in ns from kBase):
///  process 0 "CANN" (pid 100): lane 0 "Thread 1":
///     depth 0: "outer" [0, 1000), "tail" [1000, 1000) (zero-length), "late" [5000, 9000)
///     depth 1: "inner" [100, 400), "inner2" [500, 900)
///  process 1 "Ascend Hardware" (pid 200, label "NPU 0"): lane 1 "Stream 7":
///     depth 0: "kernelA" [200, 700) partial-overlap, "kernelB" [2000, 10000) unfinished
///  flow "async_npu": outer -> kernelA.
inline constexpr core::TimeNs kBase = 1'700'000'000'000'000'000;

inline std::shared_ptr<core::Trace> makeTwoLaneTrace() {
  auto t = std::make_shared<core::Trace>();
  std::string blob;
  const auto cann = addProcess(*t, 100, "CANN", core::Process::Role::Cann);
  const auto hw = addProcess(*t, 200, "Ascend Hardware", core::Process::Role::AscendHardware, "NPU 0");
  t->processes[hw].deviceId = 0;
  addLane(*t, cann, 1, "Thread 1",
          {{0, kBase + 0, kBase + 1000, "outer", "cpu_op", 0, R"({"Sequence number": 42, "Input Dims": "[[1, 2]]\r\n[[3]]"})"},
           {0, kBase + 1000, kBase + 1000, "tail", "cpu_op", core::kSliceInstant, ""},
           {0, kBase + 5000, kBase + 9000, "late", "cpu_op", 0, ""},
           {1, kBase + 100, kBase + 400, "inner", "cpu_op", 0, ""},
           {1, kBase + 500, kBase + 900, "inner2", "cpu_op", 0, ""}},
          &blob);
  addLane(*t, hw, 7, "Stream 7",
          {{0, kBase + 200, kBase + 700, "kernelA", "", core::kSlicePartialOverlap, ""},
           {0, kBase + 2000, kBase + 10000, "kernelB", "", core::kSliceUnfinished, ""}},
          &blob);
  core::Flow f;
  f.category = t->strings.intern("async_npu");
  f.name = t->strings.intern("torch_to_npu");
  f.from = {0, 0};  // outer
  f.to = {1, 0};    // kernelA
  f.fromTs = kBase + 50;
  f.toTs = kBase + 200;
  t->flows.push_back(f);
  t->file = core::MappedFile::fromMemory(blob);
  finishRange(*t);
  return t;
}

inline std::shared_ptr<core::Profile> makeProfile(std::vector<std::shared_ptr<core::Trace>> traces) {
  auto p = std::make_shared<core::Profile>();
  int r = 0;
  for (auto& t : traces) {
    core::RankProfile rp;
    rp.source.rank = r++;
    rp.trace = t;
    p->ranks.push_back(rp);
  }
  return p;
}

}  // namespace npuscope::testing
