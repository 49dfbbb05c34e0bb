// SPDX-License-Identifier: MIT
// A summary drawn as a trace (summary_trace.h).

#include "core/cluster/summary_trace.h"

#include <algorithm>
#include <map>

#include "core/base/time_format.h"
#include "core/import/trace_builder.h"

namespace npuscope::core {

std::shared_ptr<Trace> traceOfSummary(RankSummary& s, const std::string& path) {
  TraceBuilder b;
  const auto p = b.process(1);
  b.setProcessName(p, "Summary");
  if (s.device >= 0) b.setProcessLabels(p, "NPU " + std::to_string(s.device));
  std::int64_t tid = 0;
  const auto steps = b.thread(p, ++tid);
  b.setThreadName(steps, "Steps");
  b.setThreadSortIndex(steps, tid);
  for (const SummaryStep& st : s.steps)
    b.addSlice(steps, st.device.start, st.device.duration(), "Step " + std::to_string(st.number), "step",
               ImportArgs::owned({{"Computing(us)", formatUsNumber(st.computed.computing)},
                                  {"Communication(Not Overlapped)(us)", formatUsNumber(st.computed.commNotOverlapped)},
                                  {"Free(us)", formatUsNumber(st.computed.free)}}));
  std::map<std::string, TraceBuilder::ThreadId> groupLanes;
  for (const CommOp& op : s.ops) {
    auto it = groupLanes.find(op.groupLane);
    if (it == groupLanes.end()) {
      it = groupLanes.emplace(op.groupLane, b.thread(p, ++tid)).first;
      b.setThreadName(it->second, op.groupLane);
      b.setThreadSortIndex(it->second, tid);
    }
    std::vector<std::pair<std::string, std::string>> args{{"group", op.groupKey}, {"group rank", std::to_string(op.selfRank)},
                                                          {"elapse(us)", formatUsNumber(op.elapse)}};
    if (op.hasTasks)
      for (const auto& [k, v] : {std::pair{"transit(us)", op.transit}, {"wait(us)", op.wait},
                                 {"synchronization(us)", op.synchronization}, {"idle(us)", op.idle}})
        args.emplace_back(k, formatUsNumber(v));
    b.addSlice(it->second, op.range.start, op.range.duration(), op.name, "hccl", ImportArgs::owned(std::move(args)));
  }
  if (s.full) {
    const auto bubbles = b.thread(p, ++tid);
    b.setThreadName(bubbles, "Longest bubbles");
    b.setThreadSortIndex(bubbles, tid);
    for (const SummaryBubble& bu : s.bubbles) {
      std::vector<std::pair<std::string, std::string>> args{{"cause", bu.cause}, {"detail", bu.detail}};
      for (const auto& [layer, name] : bu.chain) args.emplace_back("chain: " + layer, name);
      b.addSlice(bubbles, bu.range.start, bu.range.duration(), "bubble: " + bu.cause, "bubble", ImportArgs::owned(std::move(args)));
    }
  }
  auto trace = std::make_shared<Trace>();
  trace->path = path;
  if (!b.finish(*trace, {})) return nullptr;
  // Each op's slice: the depth-0 slice of its group lane with its start and name.
  for (CommOp& op : s.ops)
    for (std::uint32_t l = 0; l < trace->lanes.size(); ++l) {
      const Lane& lane = trace->lanes[l];
      if (lane.name != op.groupLane) continue;
      const std::uint32_t end0 = lane.rowBegin[std::min<std::size_t>(1, lane.depthCount())];
      const auto first = lane.start.begin() + lane.rowBegin[0], last = lane.start.begin() + end0;
      for (auto at = std::lower_bound(first, last, op.range.start); at != last && *at == op.range.start; ++at) {
        const auto i = static_cast<std::uint32_t>(at - lane.start.begin());
        if (trace->name(lane.names[i]) == op.name) {
          op.slice = SliceRef{l, i};
          break;
        }
      }
    }
  return trace;
}

}  // namespace npuscope::core
