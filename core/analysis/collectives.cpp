// SPDX-License-Identifier: MIT
// HCCL ops split by the profiler's rule, and collectives matched across ranks
// (docs/diagnosis.md §5.3, §5.4).

#include "core/analysis/collectives.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <unordered_map>

#include "core/base/ascii.h"
#include "core/analysis/analysis.h"
#include "core/analysis/rank_summary.h"
#include "core/base/i18n.h"
#include "core/base/parse_number.h"
#include "core/model/slice_args.h"
#include "core/profile/profile.h"

namespace npuscope::core {

namespace {

enum class TaskKind : std::uint8_t { Wait, Signal, Transfer, Other };

/// Notify waits (Notify_Wait, "Notify Wait") wait; other notify tasks signal; every other task
/// moves or reduces data unless its link is on the chip (TaskKind::Other then).
TaskKind nameKind(std::string_view name) {
  const std::string n = asciiLower(name);
  if (n.rfind("notify", 0) == 0) return n.find("wait") != std::string::npos ? TaskKind::Wait : TaskKind::Signal;
  return TaskKind::Transfer;
}

/// An integer arg's value ("src rank", "dst rank", "size(Byte)"), or -1 when absent or not a number.
std::int64_t intOf(const std::optional<std::string>& v) {
  if (!v) return -1;
  std::int64_t x = -1;
  const char* b = v->data();
  const auto res = std::from_chars(b, b + v->size(), x);
  return res.ec == std::errc() ? x : -1;
}

/// A group rank as the plane tasks write it: 4294967295 (and any value beyond int) means none.
int rankOf(std::int64_t v) { return v >= 0 && v < 0x7fffffff ? static_cast<int>(v) : -1; }

/// "Plane 5" -> 5, else -1.
int planeNumber(std::string_view lane) {
  if (lane.rfind("Plane", 0) != 0) return -1;
  std::string_view d = lane.substr(5);
  while (!d.empty() && d.front() == ' ') d.remove_prefix(1);
  int v = -1;
  const auto res = std::from_chars(d.data(), d.data() + d.size(), v);
  return res.ec == std::errc() ? v : -1;
}

/// "hcom_allReduce__586_0_1" -> type "allReduce", key "586"; other names: the name without
/// trailing digits and underscores, and no key.
void parseOpName(std::string_view name, std::string& type, std::string& key) {
  key.clear();
  if (name.rfind("hcom_", 0) == 0) {
    const std::string_view rest = name.substr(5);
    const std::size_t us = rest.find('_');
    type = std::string(rest.substr(0, us));
    if (us != std::string_view::npos) {
      std::string_view tail = rest.substr(us);
      while (!tail.empty() && tail.front() == '_') tail.remove_prefix(1);
      std::size_t n = 0;
      while (n < tail.size() && std::isdigit(static_cast<unsigned char>(tail[n]))) ++n;
      key = std::string(tail.substr(0, n));
    }
    return;
  }
  std::size_t e = name.size();
  while (e > 0 && (std::isdigit(static_cast<unsigned char>(name[e - 1])) || name[e - 1] == '_' || name[e - 1] == '-')) --e;
  type = std::string(name.substr(0, e == 0 ? name.size() : e));
}

struct PlaneTask {
  TimeRange r;
  SliceRef ref;
  int plane = -1;
  TaskKind kind = TaskKind::Other;
  int peer = -1;
  /// The task's `is master` (the database's COMMUNICATION_TASK_INFO.isMaster: on the op's master
  /// stream), -1 when not recorded.
  std::int8_t master = -1;
  /// An RDMA_SEND_PAYLOAD task (`rdma type`, recorded by the database export): its transit runs to
  /// the run's closing task (rdmaRun); its bytes are `bytes`.
  bool payload = false;
  std::uint64_t bytes = 0;
};

struct GroupLanes {
  std::uint32_t lane = kInvalidIndex;            // the group lane
  std::vector<std::pair<int, std::uint32_t>> planes;  // (plane number, lane)
};

/// Adds bytes and time (`tasks` tasks) to the link `key` of `v` (appended when new).
void addToLink(std::vector<CommLink>& v, const std::string& key, std::uint64_t bytes, TimeNs time, std::size_t tasks = 1) {
  for (CommLink& l : v)
    if (l.transport == key) {
      l.bytes += bytes;
      l.time += time;
      l.tasks += tasks;
      return;
    }
  v.push_back(CommLink{key, bytes, time, tasks});
}

/// Sorts the links by name and appends "SDMA", the sum of the non-RDMA links (communication.json's
/// SDMA line is the sum of its HCCS, PCIE and SIO lines), when there is any.
void addSdma(std::vector<CommLink>& v) {
  std::sort(v.begin(), v.end(), [](const CommLink& a, const CommLink& b) { return a.transport < b.transport; });
  CommLink sdma{"SDMA", 0, 0, 0};
  for (const CommLink& l : v)
    if (l.transport != "RDMA") {
      sdma.bytes += l.bytes;
      sdma.time += l.time;
      sdma.tasks += l.tasks;
    }
  if (sdma.tasks > 0) v.push_back(sdma);
}

/// Adds to the (peer, key) entry of `v` (appended when new).
void addToPeer(std::vector<CommPeerLink>& v, int self, int peer, const std::string& key, std::uint64_t bytes, TimeNs time,
               std::size_t tasks = 1) {
  for (CommPeerLink& p : v)
    if (p.peer == peer && p.link.transport == key) {
      p.link.bytes += bytes;
      p.link.time += time;
      p.link.tasks += tasks;
      return;
    }
  v.push_back(CommPeerLink{self, peer, CommLink{key, bytes, time, tasks}});
}

TimeNs overlapWith(TimeRange r, const std::vector<TimeRange>& sortedDisjoint) {
  TimeNs o = 0;
  for (const TimeRange& b : sortedDisjoint) {
    if (b.start >= r.end) break;
    const TimeNs s = std::max(r.start, b.start), e = std::min(r.end, b.end);
    if (s < e) o += e - s;
  }
  return o;
}

/// The device's HCCL groups in lane order: a lane whose name contains "Communication" opens a
/// group, the Plane lanes after it belong to it (the text export's layout, format notes §2.4).
std::vector<GroupLanes> commGroups(const Trace& trace, int device) {
  std::vector<GroupLanes> groups;
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    const Process& p = trace.processes[lane.process];
    if (p.role != Process::Role::Communication) continue;
    if (!(p.deviceId == device || (device < 0 && p.deviceId < 0))) continue;
    if (lane.name.find("Communication") != std::string::npos) {
      groups.push_back(GroupLanes{l, {}});
      continue;
    }
    const int plane = planeNumber(lane.name);
    if (plane >= 0 && !groups.empty()) groups.back().planes.emplace_back(plane, l);
  }
  return groups;
}

/// Appends an op for every top-row slice of the group lane: its name, type and group key, and its
/// sequence among the ops of that (group key, type) so far (`seqOf`).
void appendGroupOps(const Trace& trace, const GroupLanes& g, std::map<std::string, std::size_t>& seqOf,
                    std::vector<CommOp>& out) {
  const Lane& gl = trace.lanes[g.lane];
  const std::uint32_t end0 = gl.rowBegin[std::min<std::size_t>(1, gl.depthCount())];
  for (std::uint32_t i = gl.rowBegin[0]; i < end0; ++i) {
    CommOp op;
    op.slice = SliceRef{g.lane, i};
    op.name = std::string(trace.name(gl.names[i]));
    op.groupLane = gl.name;
    op.range = TimeRange{gl.start[i], gl.end[i]};
    parseOpName(op.name, op.type, op.groupKey);
    if (op.groupKey.empty()) op.groupKey = gl.name;
    op.sequence = seqOf[op.groupKey + "|" + op.type]++;
    op.elapse = op.range.end - op.range.start;
    std::optional<std::string> count;
    sliceArgValues(trace, op.slice, {"count"}, &count);
    if (const std::int64_t n = intOf(count); n > 0) op.count = n;
    out.push_back(std::move(op));
  }
}

/// What a plane task's args say about it and its op: the op's own group rank (from its first such
/// task), the peer of a wait or transfer, whether a transfer is on the chip (then not a transfer),
/// and the bytes and time a transfer adds to the op's links. Where the task records its `rdma type`
/// (the database export), an RDMA task is a transfer only as RDMA_SEND_PAYLOAD, and its link time
/// is its run's (rdmaPayloadLinks), not its own: msprof communication_parser.py counts the RDMA
/// payload that way and no other RDMA task (Ascend/msprof 9ba1ac7, op_time_parser /
/// op_bandwidth_parser). `is master` is read into t.master.
void readTaskArgs(const Trace& trace, PlaneTask& t, CommOp& op) {
  // One parse of the task's args for every key needed (sliceArgValues).
  std::optional<std::string> v[7];
  sliceArgValues(trace, t.ref, {"src rank", "dst rank", "link type", "transport type", "size(Byte)", "rdma type", "is master"}, v);
  if (op.selfRank < 0) op.selfRank = rankOf(intOf(v[0]));
  if (const std::int64_t m = intOf(v[6]); m == 0 || m == 1) t.master = static_cast<std::int8_t>(m);
  // A wait, signal or transfer "to" the device's own rank names no peer (on-chip work).
  if (t.kind != TaskKind::Other) t.peer = rankOf(intOf(v[1]));
  if (t.peer >= 0 && t.peer == op.selfRank) t.peer = -1;
  if (t.kind != TaskKind::Transfer) return;
  const std::string link = v[2].value_or("");
  if (link == "ON_CHIP") {
    t.kind = TaskKind::Other;
    return;
  }
  const bool rdma = v[3].value_or("") == "RDMA";
  const std::string key = rdma ? std::string("RDMA") : link.empty() ? std::string("unknown") : link;
  const std::int64_t bytes = intOf(v[4]);
  const std::uint64_t b = bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
  if (rdma && v[5]) {
    t.payload = *v[5] == "RDMA_SEND_PAYLOAD";
    if (!t.payload) t.kind = TaskKind::Other;  // a notify, ack or check: no data
    t.bytes = b;
    return;
  }
  addToLink(op.links, key, b, t.r.end - t.r.start);
  addToPeer(op.peerLinks, op.selfRank, t.peer, key, b, t.r.end - t.r.start);
}

/// msprof's task count from an RDMA payload run to its closing task: 3 for send / receive ops
/// (no barrier), else 5 (NumberConstant.RDMA_NO_BARRIER_TASK_NUM / RDMA_WITH_BARRIER_TASK_NUM,
/// Ascend/msprof 9ba1ac7 number_constant.py; HcclAnalysisTool.is_send_or_recv_op on the op name).
std::size_t rdmaJump(const CommOp& op) {
  const std::string n = asciiLower(op.name);
  return n.find("send") != std::string::npos || n.find("receive") != std::string::npos ? 3 : 5;
}

/// The RDMA payload run starting at `tasks[i]` (one plane, in start order): the payload tasks
/// i..i+k-1 and the closing task i+k+jump-2; transit from the first payload's start to the closing
/// task's end (msprof meta_parser.py calculate_consecutive_payload_tasks_info). `last` is the
/// closing index, `ok` false when the run has no closing task (msprof then counts nothing).
struct RdmaRun {
  std::size_t k = 0, last = 0;
  bool ok = false;
  TimeRange transit;
  std::uint64_t bytes = 0;
};
RdmaRun rdmaRun(const std::vector<const PlaneTask*>& tasks, std::size_t i, std::size_t jump) {
  RdmaRun run;
  while (i + run.k < tasks.size() && tasks[i + run.k]->payload) run.bytes += tasks[i + run.k++]->bytes;
  run.last = i + run.k + jump - 2;
  run.ok = run.last < tasks.size();
  if (run.ok) run.transit = TimeRange{tasks[i]->r.start, tasks[run.last]->r.end};
  return run;
}

/// Walks `tasks` (one plane, in start order) as msprof's parsers do: an RDMA payload run with its
/// closing task is one unit, `onRun(run, first payload)`, and the tasks it spans are skipped; a
/// run without its closing task is skipped whole (msprof counts nothing); every other task is
/// `onTask(task)`.
template <class OnTask, class OnRun>
void walkPlane(const std::vector<const PlaneTask*>& tasks, std::size_t jump, OnTask onTask, OnRun onRun) {
  for (std::size_t i = 0; i < tasks.size();) {
    if (!tasks[i]->payload) {
      onTask(*tasks[i++]);
      continue;
    }
    const RdmaRun run = rdmaRun(tasks, i, jump);
    if (run.ok) onRun(run, *tasks[i]);
    i = run.ok ? run.last + 1 : i + run.k;
  }
}

/// Adds every plane's RDMA payload runs to the op's links (bytes of the payloads, time to the
/// closing task), as msprof's op_bandwidth_parser does per plane.
void rdmaPayloadLinks(CommOp& op, const std::vector<PlaneTask>& ts) {
  std::map<int, std::vector<const PlaneTask*>> byPlane;
  for (const PlaneTask& t : ts) byPlane[t.plane].push_back(&t);
  for (const auto& [plane, tasks] : byPlane)
    walkPlane(tasks, rdmaJump(op), [](const PlaneTask&) {}, [&](const RdmaRun& run, const PlaneTask& first) {
      addToLink(op.links, "RDMA", run.bytes, run.transit.duration(), run.k);
      addToPeer(op.peerLinks, op.selfRank, first.peer, "RDMA", run.bytes, run.transit.duration(), run.k);
    });
}

/// Gives each plane task of the group to the op it starts inside (the ops out[first..] of the
/// group, sorted by start): `tasksOf[k]` for op first + k; `planeWaits` tells for every plane
/// whether it holds a Notify_Wait (whole capture).
void assignPlaneTasks(const Trace& trace, const GroupLanes& g, std::vector<CommOp>& out, std::size_t first,
                      std::vector<std::vector<PlaneTask>>& tasksOf, std::map<int, bool>& planeWaits) {
  // Once one task records `is master` (the database export's isMaster), every task's is read: the
  // op's master plane is that of its first master task.
  bool recordsMaster = false;
  for (const auto& [plane, l] : g.planes) {
    const Lane& lane = trace.lanes[l];
    planeWaits.emplace(plane, false);
    constexpr std::uint32_t kAhead = 8;  // the tasks' args lie scattered over the file: fetch ahead
    for (std::uint32_t i = 0; i < lane.sliceCount(); ++i) {
      if (i + kAhead < lane.sliceCount()) __builtin_prefetch(trace.argsText({l, i + kAhead}).data());
      const TimeNs s = lane.start[i];
      // The last op starting at or before s.
      const auto it = std::upper_bound(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), s,
                                       [](TimeNs t, const CommOp& o) { return t < o.range.start; });
      if (it == out.begin() + static_cast<std::ptrdiff_t>(first)) continue;
      const std::size_t k = static_cast<std::size_t>(it - out.begin()) - 1;
      if (s > out[k].range.end) continue;
      PlaneTask t;
      t.r = TimeRange{s, lane.end[i]};
      t.ref = SliceRef{l, i};
      t.plane = plane;
      t.kind = nameKind(trace.name(lane.names[i]));
      if (t.kind == TaskKind::Wait) planeWaits[plane] = true;
      CommOp& op = out[k];
      // A signal's peer is read only while it may be the op's first signal to a peer (ready).
      const bool earlySignal = t.kind == TaskKind::Signal && (op.ready < 0 || s < op.ready);
      if (t.kind == TaskKind::Wait || t.kind == TaskKind::Transfer || earlySignal || op.selfRank < 0 || recordsMaster)
        readTaskArgs(trace, t, op);
      if (t.master >= 0) recordsMaster = true;
      if (t.kind == TaskKind::Signal) {
        if (earlySignal && t.peer >= 0) op.ready = s;
      } else if (t.peer >= 0 && t.peer != op.selfRank) {
        op.peers.push_back(t.peer);
      }
      tasksOf[k - first].push_back(t);
    }
  }
}

/// The master plane (docs/diagnosis.md §5.3): the lowest plane holding a Notify_Wait, else the
/// lowest plane; -1 without planes.
int masterPlane(const std::map<int, bool>& planeWaits) {
  for (const auto& [plane, waits] : planeWaits)
    if (waits) return plane;
  return planeWaits.empty() ? -1 : planeWaits.begin()->first;
}

/// An op's times from its plane tasks `ts` (sorted by start): the elapse from the first task to
/// the last end; on the master plane the transit, the waits (synchronization before the first
/// transfer, with its peer) and the idle rest; a wait on another plane outside the master plane's
/// busy time names the peer the op idled for. The intervals go to `split` when given.
void opTimes(CommOp& op, const std::vector<PlaneTask>& ts, int master, CommOpIntervals* split) {
  TimeNs firstStart = ts.front().r.start, lastEnd = ts.front().r.end;
  TimeNs firstTransit = INT64_MAX;
  for (const PlaneTask& t : ts) {
    lastEnd = std::max(lastEnd, t.r.end);
    if (t.plane == master && t.kind == TaskKind::Transfer) firstTransit = std::min(firstTransit, t.r.start);
    if (t.kind != TaskKind::Wait) continue;
    // The first wait on each peer over all planes (ts is in start order), and the last long one.
    if (t.peer >= 0 && std::none_of(op.firstWaits.begin(), op.firstWaits.end(), [&](const FirstWait& w) { return w.peer == t.peer; }))
      op.firstWaits.push_back(FirstWait{t.peer, t.r});
  }
  std::sort(op.firstWaits.begin(), op.firstWaits.end(), [](const FirstWait& a, const FirstWait& b) { return a.peer < b.peer; });
  // A pipelined step waits for its upstream's transfer of the chunk, about as long as its own:
  // only a wait of twice the longest transfer (and kLateRankMinSkewNs) tells that a peer was late.
  TimeNs longestTransfer = 0;
  for (const PlaneTask& t : ts)
    if (t.kind == TaskKind::Transfer) longestTransfer = std::max(longestTransfer, t.r.end - t.r.start);
  const TimeNs blocking = std::max(kLateRankMinSkewNs, 2 * longestTransfer);
  for (const PlaneTask& t : ts) {
    if (t.kind != TaskKind::Wait) continue;
    if (t.r.end - t.r.start >= blocking) op.lastBlockedWaitEnd = std::max(op.lastBlockedWaitEnd, t.r.end);
    if (t.r.end - t.r.start >= kLateRankMinSkewNs) op.lastLongWaitEnd = std::max(op.lastLongWaitEnd, t.r.end);
  }
  op.elapse = lastEnd - firstStart;
  // The master plane's tasks in start order. An RDMA payload run (rdma type recorded) is one
  // transit from its first payload to its closing task, and the tasks it spans count for nothing
  // else (msprof op_time_parser); a run without its closing task counts nothing. (firstTransit
  // above already holds every run's start: a payload is a transfer task.)
  std::vector<const PlaneTask*> m;
  for (const PlaneTask& t : ts)
    if (t.plane == master) m.push_back(&t);
  std::vector<TimeRange> masterBusy;
  const auto transit = [&](TimeRange r) {
    op.transit += r.duration();
    masterBusy.push_back(r);
    if (split) split->transit.push_back(r);
  };
  walkPlane(
      m, rdmaJump(op),
      [&](const PlaneTask& t) {
        if (t.kind == TaskKind::Transfer) {
          transit(t.r);
        } else if (t.kind == TaskKind::Wait) {
          const TimeNs d = t.r.end - t.r.start;
          op.wait += d;
          masterBusy.push_back(t.r);
          if (t.r.start < firstTransit) {
            op.synchronization += d;
            if (d > op.syncPeer.ns) op.syncPeer = PeerWait{t.peer, d, t.ref};
            if (split) {
              split->synchronization.push_back(t.r);
              split->syncWaits.emplace_back(t.r, t.peer);
            }
          } else if (split) {
            split->wait.push_back(t.r);
          }
        }
      },
      [&](const RdmaRun& run, const PlaneTask&) { transit(run.transit); });
  // syncPeer.ns is the longest wait; make it the summed synchronization of that op.
  if (op.syncPeer.ns > 0) op.syncPeer.ns = op.synchronization;
  op.idle = op.elapse - op.transit - op.wait;
  std::sort(masterBusy.begin(), masterBusy.end(), [](TimeRange a, TimeRange b) { return a.start < b.start; });
  Intervals busy;
  for (const TimeRange& r : masterBusy)
    if (busy.empty() || r.start > busy.back().end) busy.push_back(r);
    else busy.back().end = std::max(busy.back().end, r.end);
  for (const PlaneTask& t : ts) {
    if (t.plane == master) continue;
    if (t.kind == TaskKind::Wait) {
      const TimeNs outside = (t.r.end - t.r.start) - overlapWith(t.r, busy);
      if (outside > op.idleWait.ns) op.idleWait = PeerWait{t.peer, outside, t.ref};
      if (split) split->peerWaits.emplace_back(t.r, t.peer);
    } else if (t.kind == TaskKind::Transfer && split) {
      split->otherTransfers.push_back(t.r);
    }
  }
}

/// The ops of one group (appended to `out`) with their plane tasks, peers and times.
void groupOps(const Trace& trace, const GroupLanes& g, std::map<std::string, std::size_t>& seqOf, std::vector<CommOp>& out,
              CommOpIntervals* split) {
  const std::size_t first = out.size();
  appendGroupOps(trace, g, seqOf, out);
  const std::size_t count = out.size() - first;
  if (count == 0) return;
  // The plane tasks of each op: those starting inside it.
  std::vector<std::vector<PlaneTask>> tasksOf(count);
  std::map<int, bool> planeWaits;  // plane -> holds a Notify_Wait (whole capture)
  assignPlaneTasks(trace, g, out, first, tasksOf, planeWaits);
  const int master = masterPlane(planeWaits);
  for (std::size_t k = 0; k < count; ++k) {
    CommOp& op = out[first + k];
    std::vector<PlaneTask>& ts = tasksOf[k];
    std::sort(op.peers.begin(), op.peers.end());
    op.peers.erase(std::unique(op.peers.begin(), op.peers.end()), op.peers.end());
    op.peers.erase(std::remove(op.peers.begin(), op.peers.end(), op.selfRank), op.peers.end());
    if (ts.empty()) continue;
    op.hasTasks = true;
    std::sort(ts.begin(), ts.end(), [](const PlaneTask& a, const PlaneTask& b) { return a.r.start < b.r.start; });
    // Where the tasks record `is master`, the op's master plane is its first master task's (msprof
    // communication_parser.py get_master_plane_id, Ascend/msprof 9ba1ac7); else the group's rule.
    op.masterPlane = master;
    if (const auto m = std::find_if(ts.begin(), ts.end(), [](const PlaneTask& t) { return t.master == 1; }); m != ts.end())
      op.masterPlane = m->plane;
    rdmaPayloadLinks(op, ts);
    opTimes(op, ts, op.masterPlane, split);
  }
}

/// Gives each op its communication.json figures: the n-th op of a name gets the n-th record of
/// that name (the record's name without its "@group" suffix).
void attachRecorded(std::vector<CommOp>& out, const CommunicationJson& json) {
  std::map<std::string, std::vector<const CommOpTimes*>> recordedByName;
  for (const CommOpTimes& o : json.ops) recordedByName[o.name.substr(0, o.name.find('@'))].push_back(&o);
  std::map<std::string, std::size_t> recordedUsed;
  for (CommOp& op : out) {
    const auto it = recordedByName.find(op.name);
    if (it == recordedByName.end()) continue;
    std::size_t& used = recordedUsed[op.name];
    if (used < it->second.size()) op.recorded = *it->second[used++];
  }
}

}  // namespace

std::vector<CommOp> commOpsFromRecords(const CommunicationJson& json) {
  std::vector<CommOp> out;
  for (const CommOpTimes& t : json.ops) {
    if (!t.start || t.elapse < 0 || *t.start > INT64_MAX - t.elapse) continue;
    CommOp op;
    op.name = t.name.substr(0, t.name.find('@'));
    parseOpName(op.name, op.type, op.groupKey);
    const std::size_t at = t.name.find('@');
    op.groupLane = at == std::string::npos ? std::string() : t.name.substr(at + 1);
    if (op.groupKey.empty()) op.groupKey = op.groupLane;
    op.range = TimeRange{*t.start, *t.start + t.elapse};
    op.elapse = t.elapse;
    op.recorded = t;
    out.push_back(std::move(op));
  }
  std::stable_sort(out.begin(), out.end(), [](const CommOp& a, const CommOp& b) { return a.range.start < b.range.start; });
  std::map<std::string, std::size_t> seqOf;
  for (CommOp& op : out) op.sequence = seqOf[op.groupKey + "|" + op.type]++;
  return out;
}

std::vector<CommOp> commOps(const Trace& trace, int device, const CommunicationJson* json, std::vector<CommLink>* links,
                            CommOpIntervals* split) {
  std::vector<CommOp> out;
  std::map<std::string, std::size_t> seqOf;  // (groupKey|type) -> next sequence
  for (const GroupLanes& g : commGroups(trace, device)) groupOps(trace, g, seqOf, out, split);
  std::stable_sort(out.begin(), out.end(), [](const CommOp& a, const CommOp& b) { return a.range.start < b.range.start; });
  if (json) attachRecorded(out, *json);
  // Each op's SDMA line (the sum of its non-RDMA links), and the device's links over all ops.
  std::vector<CommLink> all;
  for (CommOp& op : out) {
    for (const CommLink& l : op.links) addToLink(all, l.transport, l.bytes, l.time, l.tasks);
    addSdma(op.links);
  }
  addSdma(all);
  if (links) *links = std::move(all);
  return out;
}

namespace {

const std::vector<CommOp>* opsOfRank(const RankProfile& rp) {
  if (!rp.analysis && !rp.recordedOps.empty()) return &rp.recordedOps;  // a rank of tables only
  if (!rp.analysis || rp.analysis->cancelled || rp.analysis->devices.empty()) return nullptr;
  const auto& ops = rp.analysis->devices.front().comm.ops;
  return ops.empty() ? nullptr : &ops;
}

const std::vector<CommOp>* opsOf(const RankSummary* s) { return s && !s->ops.empty() ? &s->ops : nullptr; }

}  // namespace

bool isP2pType(std::string_view type) {
  const std::string t = asciiLower(type);
  return t.rfind("send", 0) == 0 || t.rfind("receive", 0) == 0 || t.rfind("recv", 0) == 0 || t.rfind("batchsendrecv", 0) == 0;
}

const CommOp* collectiveOp(const Profile& profile, const CollectiveRank& r) {
  if (r.rankIndex >= profile.ranks.size()) return nullptr;
  const std::vector<CommOp>* ops = opsOfRank(profile.ranks[r.rankIndex]);
  return ops && r.opIndex < ops->size() ? &(*ops)[r.opIndex] : nullptr;
}

const CommOp* collectiveOp(const RankSummaries& ranks, const CollectiveRank& r) {
  if (r.rankIndex >= ranks.size()) return nullptr;
  const std::vector<CommOp>* ops = opsOf(ranks[r.rankIndex].get());
  return ops && r.opIndex < ops->size() ? &(*ops)[r.opIndex] : nullptr;
}

double CommPeerLink::nominalShare(std::string_view chip) const {
  const double n = nominalLinkGBs(link.transport, chip);
  return n > 0 ? link.bandwidthGBs() / n : 0.0;
}

std::vector<CommPeerLink> peerLinksOf(const std::vector<CommOp>& ops) {
  std::vector<CommPeerLink> v;
  for (const CommOp& op : ops)
    for (const CommPeerLink& p : op.peerLinks) addToPeer(v, p.self, p.peer, p.link.transport, p.link.bytes, p.link.time, p.link.tasks);
  std::sort(v.begin(), v.end(), [](const CommPeerLink& a, const CommPeerLink& b) {
    return a.peer != b.peer ? a.peer < b.peer : a.link.transport < b.link.transport;
  });
  return v;
}

std::vector<CommLink> linksOf(const std::vector<CommOp>& ops) {
  std::vector<CommLink> all;
  for (const CommOp& op : ops)
    for (const CommLink& l : op.links)
      if (l.transport != "SDMA") addToLink(all, l.transport, l.bytes, l.time, l.tasks);
  addSdma(all);
  return all;
}

SlowLink slowestLink(const RankSummaries& ranks) {
  SlowLink best;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const std::vector<CommOp>* ops = opsOf(ranks[i].get());
    if (!ops) continue;
    const std::string& chip = ranks[i]->chip;
    for (const CommPeerLink& p : peerLinksOf(*ops)) {
      if (p.link.bytes < kSlowLinkMinBytes || p.link.time <= 0 || nominalLinkGBs(p.link.transport, chip) <= 0) continue;
      if (!best.found || p.nominalShare(chip) < best.share) best = SlowLink{i, ranks[i]->rank, p, true, p.nominalShare(chip), chip};
    }
  }
  return best;
}

const Collective* ClusterComm::worst() const {
  const Collective* w = nullptr;
  for (const Collective& c : collectives)
    if (c.lateRank >= 0 && (!w || c.lost > w->lost)) w = &c;
  return w;
}

std::string holderLabel(const Collective& c) {
  const Holder& h = c.holder;
  const std::string rank = i18n::format(npuTr("npuscope::core::Collectives", "rank %1"), {std::to_string(h.rank)});
  switch (h.status) {
    case Holder::Status::None: return "—";
    case Holder::Status::Unknown: return npuTr("npuscope::core::Collectives", "unknown");
    case Holder::Status::Unverified: return rank + "?";
    case Holder::Status::Contradicted: return npuTr("npuscope::core::Collectives", "unknown (clocks disagree)");
    case Holder::Status::Known: break;
  }
  return h.loaded() ? rank
                    : i18n::format(npuTr("npuscope::core::Collectives", "group rank %1 (not captured)"), {std::to_string(h.groupRank)});
}

std::string hcclGroupName(const std::string& group) {
  const bool digits = !group.empty() && std::all_of(group.begin(), group.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
  return digits ? i18n::format(npuTr("npuscope::core::Collectives", "HCCL group %1"), {group})
                : i18n::format(npuTr("npuscope::core::Collectives", "the HCCL group on lane “%1”"), {group});
}

std::string collectiveLabel(const Collective& c) {
  return c.type + " #" + std::to_string(c.sequence) + " (" + c.name + ")";
}

namespace {

long long stepOf(const std::vector<SummaryStep>& steps, TimeNs t) {
  for (const SummaryStep& s : steps)
    if (t >= s.device.start && t < s.device.end) return s.number;
  return -1;
}

TimeNs median(std::vector<TimeNs> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n % 2) return v[n / 2];
  // The mean of the two middle values, rounded toward minus infinity (no overflow: the
  // values are differences of times within the trace's limits).
  const TimeNs a = v[n / 2 - 1], b = v[n / 2];
  const TimeNs sum = a + b;
  return sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
}

/// The reference rank's ops, indexed for matching the other ranks' ops: its groups (by key, in
/// order of first appearance), its ops by (group, name, occurrence) and by (group, type,
/// sequence), and the group ranks (`src rank`) each of its groups holds.
struct ReferenceOps {
  std::size_t index = 0;
  const RankSummary* rank = nullptr;
  const std::vector<CommOp>* ops = nullptr;
  std::vector<std::string> groups;
  std::map<std::tuple<std::string, std::string, std::size_t>, std::size_t> byName, bySeq;
  /// A group has one member per group rank, so a rank holding one of them is not in that group;
  /// grows as the other ranks' groups are paired.
  std::map<std::string, std::set<int>> groupSelf;
  /// The notes of groups not paired by order because they hold a group rank taken (notes: the
  /// first three, then a count).
  std::vector<std::string> differentGroups;
};

/// The reference index of rank `refIndex`'s ops, and one collective per op holding that rank.
ReferenceOps referenceOps(const RankSummaries& ranks, std::size_t refIndex, ClusterComm& cc) {
  ReferenceOps ref;
  ref.index = refIndex;
  ref.rank = ranks[refIndex].get();
  ref.ops = opsOf(ref.rank);
  const std::vector<CommOp>& refOps = *ref.ops;
  for (const CommOp& o : refOps)
    if (std::find(ref.groups.begin(), ref.groups.end(), o.groupKey) == ref.groups.end()) ref.groups.push_back(o.groupKey);
  {
    std::map<std::pair<std::string, std::string>, std::size_t> occ;
    for (std::size_t k = 0; k < refOps.size(); ++k) {
      const CommOp& o = refOps[k];
      ref.byName.emplace(std::make_tuple(o.groupKey, o.name, occ[{o.groupKey, o.name}]++), k);
      ref.bySeq.emplace(std::make_tuple(o.groupKey, o.type, o.sequence), k);
    }
  }
  cc.collectives.resize(refOps.size());
  for (std::size_t k = 0; k < refOps.size(); ++k) {
    Collective& c = cc.collectives[k];
    const CommOp& o = refOps[k];
    c.name = o.name;
    c.type = o.type;
    c.group = o.groupKey;
    c.sequence = o.sequence;
    c.step = stepOf(ref.rank->steps, o.range.start);
    c.ranks.push_back(CollectiveRank{refIndex, ref.rank->rank, k, o.range.start, o.range.start, 0});
  }
  for (const CommOp& o : refOps)
    if (o.selfRank >= 0) ref.groupSelf[o.groupKey].insert(o.selfRank);
  return ref;
}

/// A rank's groups paired with the reference's: its key -> (the reference's key, paired by key).
/// By key, else by order of first appearance among the groups left unpaired (CANN writes per-rank
/// hash digits in some versions), which the notes say; the group ranks it holds join the paired
/// groups' (ref.groupSelf).
std::map<std::string, std::pair<std::string, bool>> pairGroups(ReferenceOps& ref, const RankSummary& rp,
                                                               const std::vector<CommOp>& ops,
                                                               const std::map<std::string, std::size_t>& keyHolders, ClusterComm& cc) {
  const std::vector<std::string>& refGroups = ref.groups;
  std::vector<std::string> groups;
  for (const CommOp& o : ops)
    if (std::find(groups.begin(), groups.end(), o.groupKey) == groups.end()) groups.push_back(o.groupKey);
  std::map<std::string, std::pair<std::string, bool>> pairTo;  // its key -> (ref key, by key)
  std::vector<std::string> refLeft;
  for (const std::string& k : refGroups)
    if (std::find(groups.begin(), groups.end(), k) == groups.end()) refLeft.push_back(k);
  std::size_t nextLeft = 0;
  // Groups pair by order only when the rank shares no group name with the reference and holds as
  // many groups: a rank sharing some names holds its other groups for other peers.
  const bool byOrder = refLeft.size() == refGroups.size() && groups.size() == refGroups.size();
  for (const std::string& k : groups) {
    if (std::find(refGroups.begin(), refGroups.end(), k) != refGroups.end()) {
      pairTo[k] = {k, true};
    } else if (byOrder && nextLeft < refLeft.size() && keyHolders.at(k) == 1) {
      // (A key that other ranks hold too is a group's real name: matched by it, below.)
      // By order only when this rank's place in the group is free there: two ranks holding the
      // same group rank are in two different groups (e.g. two tensor-parallel groups), whose
      // ops never wait for each other and must not be compared.
      int self = -1;
      for (const CommOp& o : ops)
        if (o.groupKey == k && o.selfRank >= 0) {
          self = o.selfRank;
          break;
        }
      const std::string& refKey = refLeft[nextLeft];
      if (self >= 0 && ref.groupSelf[refKey].count(self)) {
        ref.differentGroups.push_back(i18n::format(
            npuTr("npuscope::core::Collectives", "%1: HCCL group %2 not compared with rank %3's group %4: both hold group rank %5, "
                                                 "so they are different groups"),
            {rp.label, k, std::to_string(ref.rank->rank), refKey, std::to_string(self)}));
        pairTo[k] = {k, true};  // its own group, matched among the ranks holding it
        continue;
      }
      pairTo[k] = {refLeft[nextLeft++], false};
      cc.notes.push_back(i18n::format(
          npuTr("npuscope::core::Collectives", "%1: HCCL group %2 paired with rank %3's group %4 by their order (the names differ)"),
          {rp.label, k, std::to_string(ref.rank->rank), pairTo[k].first}));
    } else {
      // A group the reference does not hold: matched by its own key among the ranks that do.
      pairTo[k] = {k, true};
    }
  }
  for (const CommOp& o : ops)
    if (const auto p = pairTo.find(o.groupKey); p != pairTo.end() && o.selfRank >= 0) ref.groupSelf[p->second.first].insert(o.selfRank);
  return pairTo;
}

/// Adds rank `ri`'s ops to the collectives of their counterparts: by (group, name, occurrence) in
/// a group paired by key, by (group, type, sequence) in one paired by order. An op of a group the
/// reference does not hold (its own key, pairTo's entry) joins, or opens, the collective of the
/// first rank holding it: a cluster's ranks need not share a group with the reference. Returns
/// the number of its ops without a counterpart in a group the reference holds.
std::size_t matchRankOps(ReferenceOps& ref, std::size_t ri, const RankSummary& rp, const std::vector<CommOp>& ops,
                         const std::map<std::string, std::pair<std::string, bool>>& pairTo, ClusterComm& cc) {
  std::size_t unmatched = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> occ;
  for (std::size_t oi = 0; oi < ops.size(); ++oi) {
    const CommOp& o = ops[oi];
    const std::size_t n = occ[{o.groupKey, o.name}]++;
    const auto p = pairTo.find(o.groupKey);
    if (p == pairTo.end()) {
      ++unmatched;
      continue;
    }
    const bool refGroup = std::find(ref.groups.begin(), ref.groups.end(), p->second.first) != ref.groups.end();
    std::optional<std::size_t> k;
    if (p->second.second) {
      const auto key = std::make_tuple(p->second.first, o.name, n);
      if (const auto it = ref.byName.find(key); it != ref.byName.end()) {
        k = it->second;
      } else if (!refGroup) {
        // The first rank holding this op of a group the reference is not in.
        k = cc.collectives.size();
        Collective& c = cc.collectives.emplace_back();
        c.name = o.name;
        c.type = o.type;
        c.group = o.groupKey;
        c.sequence = o.sequence;
        c.step = stepOf(rp.steps, o.range.start);
        ref.byName.emplace(key, *k);
      }
    } else if (const auto it = ref.bySeq.find(std::make_tuple(p->second.first, o.type, o.sequence)); it != ref.bySeq.end()) {
      k = it->second;
    }
    if (!k) {
      ++unmatched;
      continue;
    }
    cc.collectives[*k].ranks.push_back(CollectiveRank{ri, rp.rank, oi, o.range.start, o.range.start, 0});
  }
  return unmatched;
}

/// Drops the collectives opened by a rank other than the reference that no second rank joined
/// and whose op has no plane tasks (their group's other members are not in the capture, and
/// nothing tells when they arrived); returns their number. A lone op with plane tasks stays: its
/// first waits tell its outside members' arrivals (one rank captured per group is common).
std::size_t dropLoneOpened(const RankSummaries& ranks, const ReferenceOps& ref, ClusterComm& cc) {
  const auto lone = [&](const Collective& c) {
    if (c.ranks.empty()) return true;
    if (c.ranks.size() >= 2 || c.ranks.front().rankIndex == ref.index) return false;
    const CommOp* op = collectiveOp(ranks, c.ranks.front());
    return !op || !op->hasTasks;
  };
  const std::size_t n = static_cast<std::size_t>(std::count_if(cc.collectives.begin(), cc.collectives.end(), lone));
  cc.collectives.erase(std::remove_if(cc.collectives.begin(), cc.collectives.end(), lone), cc.collectives.end());
  return n;
}

/// Point-to-point ops (send / receive / batchSendRecv: communication.json's "p2p", format notes
/// §5.2) synchronise two ranks, not the group: no late rank among all ranks is to be told from
/// them, so they leave the collectives (said in a note).
void dropPointToPoint(ClusterComm& cc) {
  const auto p2p = [](const Collective& c) { return isP2pType(c.type); };
  const std::size_t n = static_cast<std::size_t>(std::count_if(cc.collectives.begin(), cc.collectives.end(), p2p));
  if (n == 0) return;
  cc.collectives.erase(std::remove_if(cc.collectives.begin(), cc.collectives.end(), p2p), cc.collectives.end());
  cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "%1 point-to-point op(s) (send / receive) are not compared "
                                                                       "across ranks: they synchronise two ranks, not the group"),
                                  {std::to_string(n)}));
}

/// The clock offset of rank `v` against rank `u` (RankClock without rankIndex and rank): the
/// median of (v's op end - u's op end) over the collectives both hold (`of[u]`: u's collectives),
/// applied only from kClockMinSamples differences of one sign and kLateRankMinSkewNs.
RankClock clockAgainst(const RankSummaries& ranks, const ClusterComm& cc, const std::vector<std::size_t>& ofU, std::size_t u,
                       std::size_t v) {
  std::vector<TimeNs> d;
  for (const std::size_t k : ofU) {
    const Collective& c = cc.collectives[k];
    const CollectiveRank* ru = nullptr;
    const CollectiveRank* rv = nullptr;
    for (const CollectiveRank& r : c.ranks) {
      if (r.rankIndex == u && !ru) ru = &r;
      if (r.rankIndex == v && !rv) rv = &r;
    }
    if (ru && rv) d.push_back(collectiveOp(ranks, *rv)->range.end - collectiveOp(ranks, *ru)->range.end);
  }
  RankClock rc;
  rc.samples = d.size();
  rc.estimate = median(d);
  const bool oneSign = std::all_of(d.begin(), d.end(), [](TimeNs x) { return x > 0; }) ||
                       std::all_of(d.begin(), d.end(), [](TimeNs x) { return x < 0; });
  rc.applied = rc.samples >= kClockMinSamples && oneSign && (rc.estimate >= kLateRankMinSkewNs || rc.estimate <= -kLateRankMinSkewNs);
  rc.offset = rc.applied ? rc.estimate : 0;
  return rc;
}

/// Each rank's clock offset, estimated from the op ends (a collective ends at nearly the same
/// moment on every rank; docs/diagnosis.md §5.4): breadth first from the reference over the
/// collectives the ranks share, each rank against the first rank it was reached from (the
/// reference itself for every rank sharing a collective with it); a rank's offset is its
/// parent's plus its own applied estimate. Ranks the reference cannot reach form their own
/// groups, each from its first rank (offset 0): their skews are only ever compared among
/// themselves, since a collective's ranks are always connected. Fills cc.clocks (in `withOps`
/// order); returns the offset by rank index.
std::map<std::size_t, TimeNs> estimateClocks(const RankSummaries& ranks, const std::vector<std::size_t>& withOps,
                                             const ReferenceOps& ref, ClusterComm& cc) {
  std::map<std::size_t, std::vector<std::size_t>> collectivesOf;  // rank index -> its collectives
  for (std::size_t k = 0; k < cc.collectives.size(); ++k)
    for (const CollectiveRank& r : cc.collectives[k].ranks) {
      std::vector<std::size_t>& v = collectivesOf[r.rankIndex];
      if (v.empty() || v.back() != k) v.push_back(k);
    }
  std::map<std::size_t, RankClock> clockOf;
  std::map<std::size_t, TimeNs> offsetOf;
  std::size_t unreached = 0, firstUnreached = SIZE_MAX;
  std::vector<std::size_t> order{ref.index};
  for (const std::size_t ri : withOps)
    if (ri != ref.index) order.push_back(ri);
  for (const std::size_t root : order) {
    if (offsetOf.count(root)) continue;
    offsetOf[root] = 0;
    clockOf[root] = RankClock{};
    std::vector<std::size_t> queue{root};
    for (std::size_t qi = 0; qi < queue.size(); ++qi) {
      const std::size_t u = queue[qi];
      for (const std::size_t k : collectivesOf[u])
        for (const CollectiveRank& r : cc.collectives[k].ranks) {
          const std::size_t v = r.rankIndex;
          if (offsetOf.count(v)) continue;
          RankClock rc = clockAgainst(ranks, cc, collectivesOf[u], u, v);
          offsetOf[v] = offsetOf[u] + rc.offset;
          rc.offset = offsetOf[v];
          clockOf[v] = rc;
          queue.push_back(v);
        }
    }
    if (root == ref.index) continue;
    unreached += queue.size();  // the ranks of this component: none shares a collective with the reference's
    firstUnreached = std::min(firstUnreached, root);
  }
  if (unreached == 1)
    cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "%1: no collective shared with rank %2, clock offset not estimated"),
                                    {ranks[firstUnreached]->label, std::to_string(ref.rank->rank)}));
  if (unreached > 1)
    cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "%1 ranks share no collective with rank %2, directly or through "
                                                                         "other ranks: their clocks are compared only among the ranks "
                                                                         "they share collectives with"),
                                    {std::to_string(unreached), std::to_string(ref.rank->rank)}));
  for (const std::size_t ri : withOps) {
    RankClock rc = clockOf[ri];
    rc.rankIndex = ri;
    rc.rank = ranks[ri]->rank;
    cc.clocks.push_back(rc);
  }
  return offsetOf;
}

/// The group ranks of the loaded ranks in each reference group (sorted, distinct), to tell the
/// peers no loaded rank is.
std::map<std::string, std::vector<int>> loadedGroupRanks(const RankSummaries& ranks, const ClusterComm& cc) {
  std::map<std::string, std::vector<int>> selfRanks;  // ref group key -> group ranks loaded
  for (const Collective& c : cc.collectives)
    for (const CollectiveRank& r : c.ranks)
      if (const int self = collectiveOp(ranks, r)->selfRank; self >= 0) selfRanks[c.group].push_back(self);
  for (auto& [k, v] : selfRanks) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return selfRanks;
}

/// The arrivals of the group ranks of `c` that no loaded rank is (`loaded`: the loaded ranks'
/// group ranks, sorted), from the loaded ranks' first waits on them (docs/diagnosis.md §5.4):
/// a first wait that blocks ends when the peer arrives. Times in start terms on the reference
/// clock: less the waiting rank's offset and preamble.
std::vector<OutsideArrival> outsideArrivals(const RankSummaries& ranks, const Collective& c, const std::vector<int>& loaded,
                                            std::map<std::size_t, TimeNs>& offsetOf) {
  std::map<int, OutsideArrival> out;
  for (const CollectiveRank& r : c.ranks) {
    const CommOp* op = collectiveOp(ranks, r);
    if (!op || !op->hasTasks) continue;
    const TimeNs shift = offsetOf[r.rankIndex] + (op->ready >= 0 ? op->ready - op->range.start : 0);
    for (const FirstWait& w : op->firstWaits) {
      if (std::binary_search(loaded.begin(), loaded.end(), w.peer)) continue;
      OutsideArrival& a = out[w.peer];
      const bool blocked = w.r.end - w.r.start >= kLateRankMinSkewNs;
      const TimeNs at = w.r.end - shift;
      if (blocked ? (!a.blocked || at > a.arrival) : (!a.blocked && (a.groupRank < 0 || at < a.arrival))) {
        a.blocked = blocked;
        a.arrival = at;
        a.seenBy = r.rank;
      }
      a.groupRank = w.peer;
    }
  }
  std::vector<OutsideArrival> v;
  for (auto& [peer, a] : out) v.push_back(a);
  return v;
}

/// How many loaded ranks of `c` have plane tasks for its op (Level1: the waits tell arrivals).
std::size_t ranksWithTasks(const RankSummaries& ranks, const Collective& c) {
  return static_cast<std::size_t>(std::count_if(c.ranks.begin(), c.ranks.end(), [&](const CollectiveRank& r) {
    const CommOp* op = collectiveOp(ranks, r);
    return op && op->hasTasks;
  }));
}

/// The group ranks in `named` are exactly 0..n-1 (none missing below the largest).
bool fromZeroWithoutGap(const std::set<int>& named) {
  return !named.empty() && *named.begin() == 0 && *named.rbegin() == static_cast<int>(named.size()) - 1;
}

/// Every member of the group is seen: some loaded rank with plane tasks names, with itself, every
/// group rank that any loaded rank names, and those are 0..n-1 (a mesh: each rank waits on every
/// other; a ring shows only its neighbours). Two loaded ranks with plane tasks at least: one rank
/// always names every member it knows of (MindSpore's four-plane rings show one rank group ranks
/// 0-4 of 8, which looks complete alone).
bool everyMemberSeen(const RankSummaries& ranks, const Collective& c) {
  if (ranksWithTasks(ranks, c) < 2) return false;
  std::set<int> members;
  for (const CollectiveRank& r : c.ranks)
    if (const CommOp* op = collectiveOp(ranks, r); op && op->hasTasks) {
      if (op->selfRank >= 0) members.insert(op->selfRank);
      members.insert(op->peers.begin(), op->peers.end());
    }
  if (!fromZeroWithoutGap(members)) return false;
  for (const CollectiveRank& r : c.ranks)
    if (const CommOp* op = collectiveOp(ranks, r); op && op->hasTasks && op->selfRank >= 0 && op->peers.size() + 1 == members.size())
      return true;
  return false;
}

/// The group ranks `op` names (itself and its peers) leave a gap below their largest: the rank
/// certainly does not see every member of its group (a 910A server's rings show a rank group
/// ranks 0, 2, 3 and 5 of 8 around its own 1).
bool namesGap(const CommOp& op) {
  std::set<int> named(op.peers.begin(), op.peers.end());
  if (op.selfRank >= 0) named.insert(op.selfRank);
  return !named.empty() && !fromZeroWithoutGap(named);
}

/// When not every member is seen (a ring shows each rank its neighbours only): the holder stands
/// only if the loaded rank that saw it arrive is held by nobody afterwards. A loaded holder must
/// not block (a wait of kLateRankMinSkewNs or more) at all once there: on a ring every member is
/// upstream of it within n - 1 steps, so a member arriving later would hold one of its steps. An
/// outside holder seen by a loaded rank's blocked first wait must leave that rank unblocked after
/// the wait ends. Otherwise Holder::Unknown, with how long after the holder's arrival the rank
/// was held (start terms, reference clock). With one loaded rank with plane tasks whose named
/// group ranks leave a gap (namesGap), any wait of kLateRankMinSkewNs after that arrival holds
/// (CommOp::lastLongWaitEnd): such a rank cannot tell a pipelined step's wait from a member it does
/// not see arriving later (MindSpore device 1 alone, naming 0-3 and 5, waits on group rank 3 for
/// 859 us after group rank 2's arrival, within twice its 530 us PCIe transfers; device 0 shows
/// group rank 4 arriving 388 us after group rank 2).
void checkUnseenLater(const RankSummaries& ranks, Collective& c, std::map<std::size_t, TimeNs>& offsetOf) {
  Holder& h = c.holder;
  std::size_t j = h.index;
  TimeNs after = h.arrival;  // start terms: a blocked wait ending later than this (+ the bound) holds
  if (!h.loaded()) {
    const auto it = std::find_if(c.outside.begin(), c.outside.end(), [&](const OutsideArrival& a) { return a.groupRank == h.groupRank; });
    const auto w = std::find_if(c.ranks.begin(), c.ranks.end(), [&](const CollectiveRank& r) { return it != c.outside.end() && r.rank == it->seenBy; });
    if (w == c.ranks.end()) return;
    j = static_cast<std::size_t>(w - c.ranks.begin());
  }
  const CollectiveRank& r = c.ranks[j];
  const CommOp* op = collectiveOp(ranks, r);
  const bool alone = ranksWithTasks(ranks, c) < 2;
  const TimeNs lastHold = !op ? -1 : alone && namesGap(*op) ? op->lastLongWaitEnd : op->lastBlockedWaitEnd;
  if (!op || !op->hasTasks || lastHold < 0) return;
  const TimeNs held = lastHold - offsetOf[r.rankIndex] - (op->ready >= 0 ? op->ready - op->range.start : 0);
  if (!h.loaded() && held - after < kLateRankMinSkewNs) return;
  h.status = Holder::Status::Unknown;
  h.heldAfter = std::max<TimeNs>(0, held - after);
  h.heldRank = r.rank;
}

/// Without plane tasks (Level0) the op slices still tell one thing: the last loaded rank's own op
/// cannot take much longer than moving its data once every member is there. Its expected time is
/// its element count at the best rate (count / elapse) of that rank's ops of the same group and
/// type; when the op lasts at least kLateRankMinSkewNs longer and at least 4x as long, the rank was
/// held inside it (by a member the capture does not hold, a slow link, or the group's first-op
/// link setup: the data cannot tell): Holder::Unknown, heldAfter that excess.
/// (910B Level0 corpus: allReduce #0 of 4,097,000 elements lasts 56.08 ms on the last rank where
/// the same rank's #2 moves 37,752,832 in 2.49 ms.)
void checkHeldInsideOp(const RankSummaries& ranks, Collective& c, std::size_t late) {
  Holder& h = c.holder;
  const CommOp* op = collectiveOp(ranks, c.ranks[late]);
  if (!op || op->count <= 0 || op->elapse <= 0) return;
  double rate = 0;  // elements per ns, the best of the rank's ops of this group and type
  for (const CommOp& o : ranks[c.ranks[late].rankIndex]->ops)
    if (o.groupKey == op->groupKey && o.type == op->type && o.count > 0 && o.elapse > 0)
      rate = std::max(rate, static_cast<double>(o.count) / static_cast<double>(o.elapse));
  if (rate <= 0) return;
  const TimeNs expected = static_cast<TimeNs>(static_cast<double>(op->count) / rate);
  const TimeNs held = op->elapse - expected;
  // At least 4x the expected time: an op of a four times wider data type at the same byte rate
  // (int8 best, fp32 here) is not taken for held.
  if (held < kLateRankMinSkewNs || op->elapse < 4 * expected) return;
  h.status = Holder::Status::Unknown;
  h.heldAfter = held;
  h.heldRank = c.ranks[late].rank;
  h.expected = expected;
}

/// Without plane tasks but with the profiler's record of the last loaded rank's op (a rank of
/// tables only: communication.json): its recorded synchronization, the master plane's waits
/// before its first transfer, of kLateRankMinSkewNs or more says a member arrived that much after
/// it (the rule "held by a later peer", docs/diagnosis.md §5.4; comm_oracle.py rule 4 on the same
/// records): Holder::Unknown, heldAfter that synchronization. Less does not make it the holder:
/// the master plane waits on one peer only.
void checkRecordedSynchronization(const RankSummaries& ranks, Collective& c, std::size_t late) {
  const CommOp* op = collectiveOp(ranks, c.ranks[late]);
  if (!op || op->hasTasks || !op->recorded || op->recorded->synchronization < kLateRankMinSkewNs) return;
  Holder& h = c.holder;
  h.status = Holder::Status::Unknown;
  h.heldAfter = op->recorded->synchronization;
  h.heldRank = c.ranks[late].rank;
}

/// A loaded holder's lateness must agree with what the ranks before it saw: a loaded rank that
/// reaches the op at least kLateRankMinSkewNs before it cannot have its first wait on it end (the
/// holder's notify received) kLateRankMinSkewNs or more before the holder's arrival. When such a
/// wait ends so early and no rank before it shows a blocked first wait on it (one lasting
/// kLateRankMinSkewNs), the starts misplace the ranks (their clocks differ by more than the op
/// ends could establish): Holder::Contradicted, with the rank that saw it in heldRank. Times are
/// compared corrected by offsetOf.
void checkCorroborated(const RankSummaries& ranks, Collective& c, std::map<std::size_t, TimeNs>& offsetOf) {
  Holder& h = c.holder;
  int witness = -1;
  TimeNs early = 0;
  for (const CollectiveRank& r : c.ranks) {
    if (r.rank == h.rank || h.arrival - r.correctedStart < kLateRankMinSkewNs) continue;
    const CommOp* op = collectiveOp(ranks, r);
    if (!op || !op->hasTasks) continue;
    for (const FirstWait& w : op->firstWaits) {
      if (w.peer != h.groupRank) continue;
      if (w.r.end - w.r.start >= kLateRankMinSkewNs) return;  // blocked: its lateness is seen
      const TimeNs before = h.arrival - (w.r.end - offsetOf[r.rankIndex]);
      if (before >= kLateRankMinSkewNs && before > early) {
        witness = r.rank;
        early = before;
      }
    }
  }
  if (witness < 0) return;
  h.status = Holder::Status::Contradicted;
  h.heldRank = witness;
  h.heldAfter = early;
}

/// The holder of `c` (docs/diagnosis.md §5.4 "The holder"): the latest of the loaded ranks'
/// corrected starts and the outside members' blocked arrivals; a loaded rank wins a tie within
/// kLateRankMinSkewNs (it can be looked at). Sets holder, outside and maxSkew; `late` is the
/// index of the last loaded rank.
void findHolder(const RankSummaries& ranks, Collective& c, std::size_t late, const std::vector<int>& loaded,
                std::map<std::size_t, TimeNs>& offsetOf) {
  Holder& h = c.holder;
  c.outside = outsideArrivals(ranks, c, loaded, offsetOf);
  const TimeNs lastLoaded = c.ranks[late].correctedStart;
  const OutsideArrival* latestOut = nullptr;
  for (const OutsideArrival& a : c.outside)
    if (a.blocked && (!latestOut || a.arrival > latestOut->arrival)) latestOut = &a;
  const CommOp* lateOp = collectiveOp(ranks, c.ranks[late]);
  if (latestOut && latestOut->arrival - lastLoaded >= kLateRankMinSkewNs) {
    h.groupRank = latestOut->groupRank;
    h.arrival = latestOut->arrival;
    h.afterLastLoaded = h.arrival - lastLoaded;
  } else {
    h.groupRank = lateOp ? lateOp->selfRank : -1;
    h.rank = c.ranks[late].rank;
    h.inCapture = true;
    h.index = late;
    h.arrival = lastLoaded;
  }
  // The next latest member: every other loaded rank and outside arrival (an unblocked one's bound).
  TimeNs next = INT64_MIN;
  for (std::size_t j = 0; j < c.ranks.size(); ++j)
    if (!(h.loaded() && j == h.index) && c.ranks[j].correctedStart > next) {
      next = c.ranks[j].correctedStart;
      h.beforeRank = c.ranks[j].rank;
      const CommOp* op = collectiveOp(ranks, c.ranks[j]);
      h.beforeGroupRank = op ? op->selfRank : -1;
    }
  for (const OutsideArrival& a : c.outside) {
    if (a.groupRank == h.groupRank && !h.loaded()) continue;
    if (a.arrival > next) {
      // An unblocked first wait gives only an upper bound of that member's arrival: it is not
      // named as the member before the holder (the margin is then a lower bound).
      h.beforeRank = -1;
      h.beforeGroupRank = a.blocked ? a.groupRank : -1;
    }
    next = std::max(next, a.arrival);
    if (a.blocked && a.groupRank != h.groupRank && a.arrival > h.arrival - kLateRankMinSkewNs) h.arriveWith.push_back(a.groupRank);
  }
  h.margin = next == INT64_MIN ? 0 : std::max<TimeNs>(0, h.arrival - next);
  const bool anyTasks = ranksWithTasks(ranks, c) > 0;
  if (!anyTasks) {
    h.status = Holder::Status::Unverified;
    checkHeldInsideOp(ranks, c, late);
    if (h.status == Holder::Status::Unverified) checkRecordedSynchronization(ranks, c, late);
  } else {
    h.status = Holder::Status::Known;
    if (!everyMemberSeen(ranks, c)) checkUnseenLater(ranks, c, offsetOf);
    else if (h.loaded()) checkCorroborated(ranks, c, offsetOf);
  }
  TimeNs earliest = INT64_MAX;
  for (const CollectiveRank& r : c.ranks) earliest = std::min(earliest, r.correctedStart);
  if (h.status != Holder::Status::Unknown && h.arrival - earliest < kLateRankMinSkewNs) h.status = Holder::Status::None;
}

/// A collective's holder and what the others lose to it (docs/diagnosis.md §5.4): the starts
/// corrected by the clock offsets, each rank's skew from the earliest, the holder (findHolder);
/// when it is known (or, without plane tasks, unverified) every loaded rank arriving at least
/// kLateRankMinSkewNs before it lost the difference, and a loaded holder is the late rank (those
/// arriving with it are also late). Adds to the ranks' and the outside holders' totals.
void judgeHolder(const RankSummaries& ranks, Collective& c, const std::vector<int>& loaded, std::map<std::size_t, TimeNs>& offsetOf,
                 std::map<std::size_t, RankCollectiveTotals>& totals,
                 std::map<std::pair<std::string, int>, OutsideHolderTotals>& outsideTotals, std::size_t index) {
  TimeNs earliest = INT64_MAX;
  for (CollectiveRank& r : c.ranks) {
    r.correctedStart = r.start - offsetOf[r.rankIndex];
    earliest = std::min(earliest, r.correctedStart);
  }
  std::size_t late = 0;
  for (std::size_t j = 0; j < c.ranks.size(); ++j) {
    CollectiveRank& r = c.ranks[j];
    r.skew = r.correctedStart - earliest;
    if (r.skew > c.ranks[late].skew) late = j;
  }
  c.maxSkew = c.ranks[late].skew;
  c.lateIndex = late;
  // One loaded rank tells a holder through its first waits on its outside members, and without
  // plane tasks only whether it was held inside the op (checkHeldInsideOp).
  if (c.ranks.empty()) return;
  findHolder(ranks, c, late, loaded, offsetOf);
  const Holder& h = c.holder;
  if (h.status == Holder::Status::Unknown) {
    for (std::size_t j = 0; j < c.ranks.size(); ++j)
      if (!(h.loaded() && j == h.index) && h.arrival - c.ranks[j].correctedStart >= kLateRankMinSkewNs)
        c.lostAtLeast += h.arrival - c.ranks[j].correctedStart;
    return;
  }
  if (h.status != Holder::Status::Known && h.status != Holder::Status::Unverified) return;
  for (std::size_t j = 0; j < c.ranks.size(); ++j) {
    if (h.loaded() && j == h.index) continue;
    const TimeNs lost = h.arrival - c.ranks[j].correctedStart;
    if (lost < kLateRankMinSkewNs) {
      // Arrived together with a loaded holder: about as late, not waiting for it.
      if (h.loaded() && c.ranks[j].skew >= kLateRankMinSkewNs) {
        c.alsoLate.push_back(c.ranks[j].rank);
        totals[c.ranks[j].rankIndex].lateCount++;
      }
      continue;
    }
    c.lost += lost;
    c.ranks[j].waited = lost;
    totals[c.ranks[j].rankIndex].waited += lost;
  }
  std::sort(c.alsoLate.begin(), c.alsoLate.end());
  if (h.loaded()) {
    c.lateRank = h.rank;
    totals[c.ranks[h.index].rankIndex].lateCount++;
    totals[c.ranks[h.index].rankIndex].caused += c.lost;
    return;
  }
  OutsideHolderTotals& t = outsideTotals[{c.group, h.groupRank}];
  t.group = c.group;
  t.groupRank = h.groupRank;
  t.count++;
  t.caused += c.lost;
  if (t.count == 1 || c.lost > t.worstLost) {
    t.worst = index;
    t.worstLost = c.lost;
  }
}

}  // namespace

ClusterComm matchCollectives(const RankSummaries& ranks) {
  ClusterComm cc;
  std::vector<std::size_t> withOps;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (opsOf(ranks[i].get())) withOps.push_back(i);
  if (withOps.empty()) return cc;  // one rank: its collectives, told by its own first waits
  ReferenceOps ref = referenceOps(ranks, withOps.front(), cc);
  if (withOps.size() < ranks.size()) {
    std::string without;
    std::size_t n = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i)
      if (!opsOf(ranks[i].get()) && n++ < 5) without += (without.empty() ? "" : ", ") + std::to_string(ranks[i]->rank);
    if (n > 5) without += ", …";
    cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "rank(s) %1: no HCCL op read (no trace, or none in it): not "
                                                                         "compared; who they wait for, or hold, cannot be told"),
                                    {without}));
  }
  // How many ranks hold each group key: a key of one rank only may be per-rank digits of a group
  // the reference names otherwise (paired by order); a key several ranks hold names the group.
  std::map<std::string, std::size_t> keyHolders;
  for (const std::size_t ri : withOps) {
    std::set<std::string> keys;
    for (const CommOp& o : *opsOf(ranks[ri].get())) keys.insert(o.groupKey);
    for (const std::string& k : keys) ++keyHolders[k];
  }
  std::size_t unmatched = 0;
  for (std::size_t wi = 1; wi < withOps.size(); ++wi) {
    const std::size_t ri = withOps[wi];
    const RankSummary& rp = *ranks[ri];
    const std::vector<CommOp>& ops = *opsOf(&rp);
    const auto pairTo = pairGroups(ref, rp, ops, keyHolders, cc);
    unmatched += matchRankOps(ref, ri, rp, ops, pairTo, cc);
  }
  unmatched += dropLoneOpened(ranks, ref, cc);
  for (std::size_t i = 0; i < ref.differentGroups.size() && i < 3; ++i) cc.notes.push_back(ref.differentGroups[i]);
  if (ref.differentGroups.size() > 3)
    cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "and %1 more ranks hold HCCL groups of their own (other names, "
                                                                         "group ranks taken in rank %2's): matched among themselves"),
                                    {std::to_string(ref.differentGroups.size() - 3), std::to_string(ref.rank->rank)}));
  if (unmatched > 0)
    cc.notes.push_back(i18n::format(npuTr("npuscope::core::Collectives", "%1 op(s) of other ranks have no counterpart on rank %2"),
                                    {std::to_string(unmatched), std::to_string(ref.rank->rank)}));
  dropPointToPoint(cc);
  std::map<std::size_t, TimeNs> offsetOf = estimateClocks(ranks, withOps, ref, cc);
  std::map<std::string, std::vector<int>> selfRanks = loadedGroupRanks(ranks, cc);
  std::map<std::size_t, RankCollectiveTotals> totals;
  for (const std::size_t ri : withOps) totals[ri] = RankCollectiveTotals{ri, ranks[ri]->rank, 0, 0, 0};
  std::map<std::pair<std::string, int>, OutsideHolderTotals> outsideTotals;
  for (std::size_t k = 0; k < cc.collectives.size(); ++k) {
    Collective& c = cc.collectives[k];
    const std::vector<int>& loaded = selfRanks[c.group];
    judgeHolder(ranks, c, loaded, offsetOf, totals, outsideTotals, k);
    // The peers of its ops that no loaded rank is: not captured.
    for (const CollectiveRank& r : c.ranks)
      for (int p : collectiveOp(ranks, r)->peers)
        if (!std::binary_search(loaded.begin(), loaded.end(), p) &&
            std::find(c.uncaptured.begin(), c.uncaptured.end(), p) == c.uncaptured.end())
          c.uncaptured.push_back(p);
    std::sort(c.uncaptured.begin(), c.uncaptured.end());
  }
  for (auto& [ri, t] : totals) cc.totals.push_back(t);
  for (auto& [key, t] : outsideTotals) cc.outsideHolders.push_back(t);
  std::stable_sort(cc.outsideHolders.begin(), cc.outsideHolders.end(),
                   [](const OutsideHolderTotals& a, const OutsideHolderTotals& b) { return a.caused > b.caused; });
  return cc;
}

ClusterComm matchCollectives(const Profile& profile) {
  RankSummaries ranks;
  for (const RankProfile& rp : profile.ranks) ranks.push_back(std::make_shared<const RankSummary>(summarizeRank(rp)));
  return matchCollectives(ranks);
}

}  // namespace npuscope::core
