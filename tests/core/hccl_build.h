// SPDX-License-Identifier: MIT
#pragma once
// Hand-built HCCL captures whose holder is known by construction (docs/diagnosis.md §5.4 "The
// holder"): one allReduce of one group, each member arriving at a chosen time, written as the
// trace_view.json text of each loaded rank, with the plane tasks HCCL records.
//
// The model, in us on one clock:
//  - Mesh (one plane per peer, 910B): a member arriving at a records to every peer at a + 1 (its
//    preamble), then waits on each peer p from a + 2 until p's record lands (arrival_p + 1 + 3 us of
//    latency, or at once when it already has); once every member has signalled, each plane moves
//    10 us of data (an HCCS Memcpy) and the op ends 2 us later.
//  - Ring (group ranks 0..n-1 in ring order, 910A): a member records to its next at a + 1 and
//    waits on its previous until that one's record lands (handshake); then n - 1 steps, each
//    waiting for the previous member's chunk of the step before and moving it for 10 us:
//    done_i(s) = max(done_i(s - 1), done_prev(s - 1)) + 10, so a late member delays every
//    member downstream, one step per hop.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace npuscope::test {

/// The trace_view.json text of group rank `self` in a capture whose members arrive at `arrivals`
/// (us, indexed by group rank; their count is the group size). `ring`: the ring model, else mesh.
/// `moveUs`: how long each transfer (Memcpy) lasts, us (10 in the model above).
inline std::string hcclRankTrace(int self, const std::vector<long long>& arrivals, bool ring, const char* opName = "hcom_allReduce__111_0_1",
                                 long long moveUs = 10) {
  const auto meta = [](int pid, const char* name, const char* label) {
    return std::string(R"({"ph":"M","name":"process_name","pid":)") + std::to_string(pid) + R"(,"tid":0,"args":{"name":")" + name +
           "\"}},\n" + R"({"ph":"M","name":"process_labels","pid":)" + std::to_string(pid) + R"(,"tid":0,"args":{"labels":")" + label +
           "\"}},\n";
  };
  const auto thread = [](int tid, const std::string& name) {
    return std::string(R"({"ph":"M","name":"thread_name","pid":400,"tid":)") + std::to_string(tid) + R"(,"args":{"name":")" + name +
           "\"}},\n" + R"({"ph":"M","name":"thread_sort_index","pid":400,"tid":)" + std::to_string(tid) +
           R"(,"args":{"sort_index":)" + std::to_string(tid) + "}},\n";
  };
  const auto x = [](int pid, int tid, const std::string& name, long long ts, long long dur, const std::string& args) {
    return std::string(R"({"ph":"X","pid":)") + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"name":")" + name +
           R"(","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":)" + args + "},\n";
  };
  const auto peerArgs = [self](int peer, const char* link = "INVALID_TYPE", long long bytes = 0) {
    return std::string(R"({"src rank":)") + std::to_string(self) + R"(,"dst rank":)" + std::to_string(peer) + R"(,"link type":")" +
           link + R"j(","transport type":"SDMA","size(Byte)":)j" + std::to_string(bytes) + "}";
  };
  const int n = static_cast<int>(arrivals.size());
  const long long a = arrivals[static_cast<std::size_t>(self)];
  const auto land = [&](int p) { return arrivals[static_cast<std::size_t>(p)] + 4; };  // p's first record lands
  std::string b = meta(300, "Ascend Hardware", "NPU 0") + meta(400, "HCCL", "NPU 0") + thread(0, "Group 0 Communication");
  b += x(300, 5, "MatMul", a + 100000, 5, R"({"Task Type":"AI_CORE"})");  // a device task: the device is analysed
  long long end = a;
  if (!ring) {
    long long all = a + 2;
    for (int p = 0; p < n; ++p) all = std::max(all, land(p));
    int plane = 0;
    for (int p = 0; p < n; ++p) {
      if (p == self) continue;
      const int tid = ++plane;
      b += thread(tid, "Plane " + std::to_string(tid - 1));
      b += x(400, tid, "Notify_Record", a + 1, 0, peerArgs(p));
      b += x(400, tid, "Notify_Wait", a + 2, std::max(a + 2, land(p)) - (a + 2), peerArgs(p));
      b += x(400, tid, "Memcpy", all + 1, moveUs, peerArgs(p, "HCCS", 1000000));
    }
    end = all + moveUs + 3;
  } else {
    // done[i][s]: member i has its step-s chunk (s = 0: the handshake).
    std::vector<std::vector<long long>> done(static_cast<std::size_t>(n), std::vector<long long>(static_cast<std::size_t>(n), 0));
    const auto prevOf = [n](int i) { return (i + n - 1) % n; };
    for (int i = 0; i < n; ++i) done[i][0] = std::max(arrivals[static_cast<std::size_t>(i)] + 2, land(prevOf(i)));
    for (int s = 1; s < n; ++s)
      for (int i = 0; i < n; ++i) done[i][s] = std::max(done[i][s - 1], done[prevOf(i)][s - 1]) + moveUs;
    b += thread(1, "Plane 0");
    const int next = (self + 1) % n, prev = prevOf(self);
    b += x(400, 1, "Notify_Record", a + 1, 0, peerArgs(next));
    b += x(400, 1, "Notify_Wait", a + 2, done[self][0] - (a + 2), peerArgs(prev));
    for (int s = 1; s < n; ++s) {
      const long long from = done[self][s - 1], ready = std::max(from, done[prev][s - 1]);
      b += x(400, 1, "Notify_Wait", from, ready - from, peerArgs(prev));
      b += x(400, 1, "Memcpy", ready, moveUs, peerArgs(prev, "HCCS", 1000000));
    }
    end = done[self][n - 1] + 2;
  }
  b += x(400, 0, opName, a, end - a, "{}");
  b.erase(b.find_last_of(','));
  return "[\n" + b + "\n]\n";
}

}  // namespace npuscope::test
