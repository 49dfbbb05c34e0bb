// SPDX-License-Identifier: MIT
// The dispatch chain of a device task (../shared/docs/ascend-profiling-format.md §3):
// Python API -> aten op -> Enqueue -> Dequeue -> CANN API (aclnn* / aclopCompileAndExecute) ->
// Node@launch -> Ascend Hardware task, walked back through the flows torch_npu and msprof write.

#include <algorithm>
#include <set>
#include <tuple>

#include "core/analysis/analysis.h"
#include "core/analysis/trace_query.h"
#include "core/base/gallop.h"
#include "core/base/i18n.h"
#include "core/base/parse_number.h"
#include "core/base/time_format.h"
#include "core/model/slice_args.h"

namespace npuscope::core {

const char* chainLayerKey(ChainLayer l) {
  switch (l) {
    case ChainLayer::PythonApi: return "python_api";
    case ChainLayer::TorchOp: return "aten_op";
    case ChainLayer::Enqueue: return "enqueue";
    case ChainLayer::Dequeue: return "dequeue";
    case ChainLayer::CannApi: return "cann_api";
    case ChainLayer::Launch: return "launch";
    case ChainLayer::DeviceTask: return "device_task";
  }
  return "?";
}

const ChainLink* DispatchChain::find(ChainLayer l) const {
  for (const auto& k : links)
    if (k.layer == l) return &k;
  return nullptr;
}

namespace detail {

SliceRef parentOf(const Trace& trace, SliceRef r) {
  if (!r.valid()) return {};
  const Lane& lane = trace.lanes[r.lane];
  const std::uint32_t d = lane.depthOf(r.index);
  if (d == 0) return {};
  const TimeNs t = lane.start[r.index];
  const std::uint32_t b = lane.rowBegin[d - 1], e = lane.rowBegin[d];
  // The last parent found in this row (a direct-mapped cache per thread): only where to start.
  struct Hint {
    const Lane* lane = nullptr;
    std::uint32_t row = 0, at = 0;
  };
  thread_local Hint hints[64];
  Hint& h = hints[(reinterpret_cast<std::uintptr_t>(&lane) / sizeof(Lane) * 7 + d) & 63];
  const std::size_t hint = h.lane == &lane && h.row == d - 1 ? h.at : e;  // e: none
  const TimeNs* starts = lane.start.data();
  const auto up = static_cast<std::uint32_t>(partitionPointNear(b, e, hint, [&](std::size_t p) { return starts[p] <= t; }));
  if (up == b) return {};
  const std::uint32_t i = up - 1;
  h = {&lane, d - 1, i};
  if (t < lane.end[i] || lane.start[i] == t) return {r.lane, i};
  return {};
}

FlowRefs flowsTo(const Trace& trace, SliceRef r) {
  if (trace.flowsIndexed()) return {trace, trace.flowsByTo, trace.flowsToRange(r)};
  return {trace, trace.flowsTo(r)};
}

FlowRefs flowsFrom(const Trace& trace, SliceRef r) {
  if (trace.flowsIndexed()) return {trace, trace.flowsByFrom, trace.flowsFromRange(r)};
  return {trace, trace.flowsFrom(r)};
}

std::uint32_t laneByRoleAndTid(const Trace& trace, Process::Role role, std::int64_t tid) {
  for (std::uint32_t l = 0; l < trace.lanes.size(); ++l)
    if (trace.processes[trace.lanes[l].process].role == role && trace.lanes[l].tid == tid && trace.lanes[l].tidText.empty())
      return l;
  return kInvalidIndex;
}

bool isKernelRecord(const Trace& trace, const Flow& f) {
  if (!f.from.valid() || !f.to.valid() || f.from.lane >= trace.lanes.size() || f.to.lane >= trace.lanes.size()) return false;
  const Lane& from = trace.lanes[f.from.lane];
  if (from.end[f.from.index] != from.start[f.from.index]) return false;
  const std::string_view cat = trace.name(from.categories[f.from.index]);
  if (cat != "privateuse1_runtime" && cat != "cuda_runtime" && cat != "cuda_driver") return false;
  const TimeNs d = from.start[f.from.index] - trace.lanes[f.to.lane].start[f.to.index];
  return d >= -kKernelRecordNs && d <= kKernelRecordNs;
}

namespace {
std::optional<std::int64_t> externalId(const Trace& trace, SliceRef r) {
  const auto v = sliceArg(trace, r, "External id");
  return v ? parseInteger<std::int64_t>(*v) : std::nullopt;
}
}  // namespace

SliceRef kinetoIssuingOp(const Trace& trace, SliceRef record) {
  const auto id = externalId(trace, record);
  if (!id) return {};
  auto& d = trace.derived;
  std::call_once(d.externalIdsOnce, [&] {
    const NameId cpuOp = trace.strings.find("cpu_op");
    if (cpuOp == kInvalidIndex) return;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
      const Lane& lane = trace.lanes[l];
      if (trace.processes[lane.process].role == Process::Role::KinetoDevice) continue;
      for (std::uint32_t i = 0; i < lane.sliceCount(); ++i)
        if (lane.categories[i] == cpuOp)
          if (const auto e = externalId(trace, {l, i})) d.opsByExternalId.emplace_back(*e, SliceRef{l, i});
    }
    std::sort(d.opsByExternalId.begin(), d.opsByExternalId.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  });
  const auto& v = d.opsByExternalId;
  const auto it = std::lower_bound(v.begin(), v.end(), *id, [](const auto& e, std::int64_t x) { return e.first < x; });
  // Two ops with one id (ids are per process; a trace of several processes may repeat one): the
  // op that issued the kernel cannot be told.
  if (it == v.end() || it->first != *id || (it + 1 != v.end() && (it + 1)->first == *id)) return {};
  return it->second;
}

}  // namespace detail

namespace {

bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

/// The deepest slice on `lane` containing t whose name starts with `prefix`.
SliceRef enclosingNamed(const Trace& trace, std::uint32_t lane, TimeNs t, std::string_view prefix) {
  if (lane == kInvalidIndex) return {};
  SliceRef r{lane, trace.lanes[lane].enclosingSlice(t)};
  while (r.valid() && r.index != kInvalidIndex) {
    if (trace.sliceName(r).starts_with(prefix)) return r;
    r = detail::parentOf(trace, r);
  }
  return {};
}

/// The outermost ancestor (or itself) of `r` whose name starts with `prefix`.
SliceRef outermostNamed(const Trace& trace, SliceRef r, std::string_view prefix) {
  SliceRef best;
  for (SliceRef c = r; c.valid(); c = detail::parentOf(trace, c))
    if (trace.sliceName(c).starts_with(prefix)) best = c;
  return best;
}

bool isStep(std::string_view n) { return n.starts_with("ProfilerStep#"); }

/// The chain of a task on a Kineto stream (format notes §6.1): the ac2g flow starts at the
/// runtime launch (cudaLaunchKernel, hipLaunchKernel, cudaMemcpyAsync, a privateuse1_runtime
/// launch, ...) on the host thread; the torch op is the nearest cpu_op around it, the Python API
/// the nearest python_function around that. Kineto has no task queue and no CANN layer, so the
/// Enqueue, Dequeue and CANN API layers are neither links nor missing: they do not exist here.
/// Where the flow starts at a record of the kernel rather than its launch (isKernelRecord), the
/// record is shown as such (via "kernel_record"), the torch op is the one with the record's
/// External id (else missing: what surrounds the record in time did not issue the kernel), and
/// the launch time is only known to lie inside that op (issuedDuring).
DispatchChain kinetoChain(const Trace& trace, SliceRef task, const Flow& launchFlow) {
  DispatchChain chain;
  const SliceRef launch = launchFlow.from;
  const bool record = detail::isKernelRecord(trace, launchFlow);
  SliceRef torchOp, pyApi;
  if (record) {
    torchOp = detail::kinetoIssuingOp(trace, launch);
  } else {
    for (SliceRef c = detail::parentOf(trace, launch); c.valid(); c = detail::parentOf(trace, c)) {
      if (isStep(trace.sliceName(c))) break;
      if (trace.name(trace.lanes[c.lane].categories[c.index]) == "cpu_op") {
        torchOp = c;
        break;
      }
    }
  }
  for (SliceRef c = torchOp.valid() ? detail::parentOf(trace, torchOp) : SliceRef{}; c.valid(); c = detail::parentOf(trace, c)) {
    if (isStep(trace.sliceName(c))) break;
    if (trace.name(trace.lanes[c.lane].categories[c.index]) == "python_function") {
      pyApi = c;
      break;
    }
  }
  const auto add = [&](ChainLayer layer, SliceRef r, std::string_view via) {
    if (r.valid()) chain.links.push_back({layer, r, via});
    else chain.missing.push_back(layer);
  };
  add(ChainLayer::PythonApi, pyApi, "enclosing");
  add(ChainLayer::TorchOp, torchOp, record ? "External id" : "enclosing");
  add(ChainLayer::Launch, launch, record ? "kernel_record" : "ac2g");
  add(ChainLayer::DeviceTask, task, "");
  if (record) {
    if (torchOp.valid()) chain.issuedDuring = trace.sliceRange(torchOp);
    return chain;
  }
  chain.launchTs = launchFlow.fromTs;
  chain.launchLatency = trace.lanes[task.lane].start[task.index] - trace.lanes[launch.lane].start[launch.index];
  return chain;
}

}  // namespace

DispatchChain dispatchChain(const Trace& trace, SliceRef task, bool pythonApi) {
  DispatchChain chain;
  if (!task.valid()) return chain;
  SliceRef launch, cannApi, dequeue, enqueue, torchOp, pyApi;
  std::optional<TimeNs> launchTs;
  std::string_view viaCann, viaTorch;  // string literals (ChainLink::via)
  if (detail::isKinetoDeviceLane(trace, task.lane))
    for (const Flow* f : detail::flowsTo(trace, task))
      if (trace.name(f->category) == "ac2g" && f->from.valid()) return kinetoChain(trace, task, *f);
  for (const Flow* f : detail::flowsTo(trace, task)) {
    const std::string_view cat = trace.name(f->category);
    const Process::Role role = trace.processes[trace.lanes[f->from.lane].process].role;
    if (cat == "HostToDevice" && role == Process::Role::Cann && !launch.valid() && !cannApi.valid()) {
      // The flow starts in Node@launch, or in newer torch_npu output in a child of it (a
      // Runtime@... slice): the Launch layer is the nearest ancestor-or-self named like a launch.
      // Prefer the Node@launch ancestor; else the nearest launch-named slice (older names).
      for (SliceRef c = f->from; c.valid() && !launch.valid(); c = detail::parentOf(trace, c))
        if (trace.sliceName(c).starts_with("Node@") && contains(trace.sliceName(c), "launch")) launch = c;
      for (SliceRef c = f->from; c.valid() && !launch.valid(); c = detail::parentOf(trace, c))
        if (contains(trace.sliceName(c), "launch") && !trace.sliceName(c).starts_with("AscendCL@")) launch = c;
      launchTs = f->fromTs;
      // The CANN API is the outermost AscendCL@ slice around the launch (aclnnXxx or
      // aclopCompileAndExecute); in older CANN the flow starts inside it directly.
      cannApi = outermostNamed(trace, f->from, "AscendCL@");
      if (!cannApi.valid() && !launch.valid()) cannApi = f->from;
      viaCann = "HostToDevice";
    } else if ((cat == "async_npu" || cat == "async_acl_npu") && !torchOp.valid()) {
      torchOp = f->from;
      viaTorch = cat == "async_npu" ? "async_npu" : "async_acl_npu";
    }
  }
  // Level0: the HostToDevice `s` survives on the pruned CANN thread (no slice to bind to);
  // its OS tid and ts locate the Dequeue that launched the task (torch_npu's acl_ts rule, §3).
  std::optional<std::pair<std::int64_t, TimeNs>> unboundLaunch;
  if (!launch.valid() && !cannApi.valid())
    for (const UnboundStartFlow& u : trace.unboundStarts)
      if (u.to == task && trace.name(u.category) == "HostToDevice") {
        unboundLaunch = {u.fromTid, u.fromTs};
        launchTs = u.fromTs;
        break;
      }
  if (unboundLaunch) {
    const std::uint32_t pyLane = detail::laneByRoleAndTid(trace, Process::Role::Python, unboundLaunch->first);
    dequeue = enclosingNamed(trace, pyLane, unboundLaunch->second, "Dequeue");
  }
  // Dequeue: on the Python process, same OS thread as the CANN API.
  const SliceRef hostLaunch = launch.valid() ? launch : cannApi;
  if (hostLaunch.valid()) {
    const std::uint32_t pyLane = detail::laneByRoleAndTid(trace, Process::Role::Python, trace.lanes[hostLaunch.lane].tid);
    dequeue = enclosingNamed(trace, pyLane, trace.lanes[hostLaunch.lane].start[hostLaunch.index], "Dequeue");
    // Without a task queue the CANN API runs inside the torch op itself.
    if (!dequeue.valid() && !torchOp.valid() && pyLane != kInvalidIndex) {
      SliceRef r{pyLane, trace.lanes[pyLane].enclosingSlice(trace.lanes[hostLaunch.lane].start[hostLaunch.index])};
      if (r.index != kInvalidIndex && !isStep(trace.sliceName(r))) {
        torchOp = r;
        viaTorch = "same thread";
      }
    }
  }
  if (dequeue.valid()) {
    for (const Flow* f : detail::flowsTo(trace, dequeue))
      if (trace.name(f->category) == "async_task_queue") enqueue = f->from;
  } else if (torchOp.valid()) {
    // Level0: find the Enqueue inside the torch op whose Dequeue ran last before the task.
    const Lane& lane = trace.lanes[torchOp.lane];
    const std::uint32_t d = lane.depthOf(torchOp.index) + 1;
    if (d < lane.depthCount()) {
      const TimeNs s = lane.start[torchOp.index], e = lane.end[torchOp.index];
      for (std::uint32_t i = lane.rowBegin[d]; i < lane.rowBegin[d + 1]; ++i) {
        if (lane.start[i] < s || lane.start[i] >= std::max(e, s + 1)) continue;
        if (!trace.name(lane.names[i]).starts_with("Enqueue")) continue;
        for (const Flow* f : detail::flowsFrom(trace, {torchOp.lane, i})) {
          if (trace.name(f->category) != "async_task_queue") continue;
          if (trace.sliceRange(f->to).start <= trace.lanes[task.lane].start[task.index]) {
            enqueue = {torchOp.lane, i};
            dequeue = f->to;
          }
        }
      }
    }
  }
  if (!torchOp.valid() && enqueue.valid()) {
    torchOp = detail::parentOf(trace, enqueue);
    viaTorch = "enclosing";
    if (torchOp.valid() && isStep(trace.sliceName(torchOp))) torchOp = {};
  }
  // Python API: the nearest python_function ancestor of the torch op (recorded with
  // with_stack=True). Without one the layer is reported missing, not guessed.
  if (torchOp.valid() && pythonApi) {
    for (SliceRef c = detail::parentOf(trace, torchOp); c.valid(); c = detail::parentOf(trace, c)) {
      if (isStep(trace.sliceName(c))) break;
      if (trace.name(trace.lanes[c.lane].categories[c.index]) == "python_function") {
        pyApi = c;
        break;
      }
    }
  }
  chain.links.reserve(7);
  auto add = [&](ChainLayer layer, SliceRef r, std::string_view via) {
    if (r.valid()) chain.links.push_back({layer, r, via});
    else chain.missing.push_back(layer);
  };
  add(ChainLayer::PythonApi, pyApi, "enclosing");
  add(ChainLayer::TorchOp, torchOp, viaTorch);
  add(ChainLayer::Enqueue, enqueue, dequeue.valid() ? "async_task_queue" : "enclosing");
  add(ChainLayer::Dequeue, dequeue, "same thread");
  add(ChainLayer::CannApi, cannApi, launch.valid() ? "enclosing" : viaCann);
  add(ChainLayer::Launch, launch, viaCann);
  add(ChainLayer::DeviceTask, task, "");
  // Path: ACLNN (aclnn* API / Dequeue@aclnn* / aclnn-named kernel) or ACLOP (aclopCompileAndExecute,
  // Dequeue@{OpType}).
  const std::string_view api = cannApi.valid() ? trace.sliceName(cannApi) : std::string_view{};
  const std::string_view dq = dequeue.valid() ? trace.sliceName(dequeue) : std::string_view{};
  const std::string_view kernel = trace.sliceName(task);
  if (contains(api, "aclopCompileAndExecute")) chain.path = "ACLOP";
  else if (contains(api, "aclnn") || dq.starts_with("Dequeue@aclnn") || kernel.starts_with("aclnn")) chain.path = "ACLNN";
  else if (dq.starts_with("Dequeue@") && !contains(dq, "event") && !contains(dq, "memcpy")) chain.path = "ACLOP";
  chain.launchTs = launchTs;
  // Launch latency: task start minus the start of Node@launch; without it the HostToDevice `s`
  // ts (older CANN starts the flow inside the CANN API, whose start can be a millisecond earlier
  // for ACLOP; at Level0 the launching slices were pruned); else the CANN API, else the Dequeue.
  const TimeNs taskStart = trace.lanes[task.lane].start[task.index];
  if (launch.valid()) chain.launchLatency = taskStart - trace.lanes[launch.lane].start[launch.index];
  else if (launchTs) chain.launchLatency = taskStart - *launchTs;
  else if (cannApi.valid()) chain.launchLatency = taskStart - trace.lanes[cannApi.lane].start[cannApi.index];
  else if (dequeue.valid()) chain.launchLatency = taskStart - trace.lanes[dequeue.lane].start[dequeue.index];
  if (enqueue.valid() && dequeue.valid())
    chain.queueWait = trace.lanes[dequeue.lane].start[dequeue.index] - trace.lanes[enqueue.lane].start[enqueue.index];
  return chain;
}

std::vector<SliceRef> tasksLaunchedBy(const Trace& trace, SliceRef host, std::size_t limit) {
  std::vector<SliceRef> tasks;
  if (!host.valid() || host.lane >= trace.lanes.size() || host.index >= trace.lanes[host.lane].sliceCount()) return tasks;
  const NameId launchCats[] = {trace.strings.find("HostToDevice"), trace.strings.find("async_npu"),
                               trace.strings.find("async_acl_npu"), trace.strings.find("ac2g")};
  const NameId queue = trace.strings.find("async_task_queue");
  std::size_t budget = 20'000;  // slices read at most
  std::vector<SliceRef> roots{host}, seen;
  const auto visit = [&](SliceRef r) {
    for (const Flow* f : detail::flowsFrom(trace, r)) {
      if (!f->to.valid() || f->to.lane >= trace.lanes.size()) continue;
      if (f->category == queue && std::find(seen.begin(), seen.end(), f->to) == seen.end()) {
        seen.push_back(f->to);
        roots.push_back(f->to);  // the Dequeue on the other thread, walked in turn
        continue;
      }
      if (std::find(std::begin(launchCats), std::end(launchCats), f->category) != std::end(launchCats) &&
          detail::isDeviceTaskLane(trace, f->to.lane))
        tasks.push_back(f->to);
    }
  };
  // The slices of `li` from row `first` down that start inside [s, e).
  const auto inside = [&](std::uint32_t li, std::uint32_t first, TimeNs s, TimeNs e) {
    const Lane& lane = trace.lanes[li];
    for (std::uint32_t d = first; d < lane.depthCount() && budget > 0; ++d) {
      const auto b = lane.start.begin() + lane.rowBegin[d], end = lane.start.begin() + lane.rowBegin[d + 1];
      for (auto it = std::lower_bound(b, end, s); it != end && *it < e && budget > 0; ++it, --budget)
        visit({li, static_cast<std::uint32_t>(it - lane.start.begin())});
    }
  };
  for (std::size_t k = 0; k < roots.size() && budget > 0; ++k) {
    const SliceRef root = roots[k];
    const Lane& lane = trace.lanes[root.lane];
    const TimeNs s = lane.start[root.index], e = std::max(lane.end[root.index], s + 1);
    visit(root);
    --budget;
    inside(root.lane, lane.depthOf(root.index) + 1, s, e);
    // A Python slice's CANN calls lie on the CANN lane of the same OS thread (a Dequeue's
    // AscendCL@ APIs and Node@launch; a torch op's without a task queue), as dispatchChain finds them.
    if (trace.processes[lane.process].role == Process::Role::Python && lane.tidText.empty())
      if (const std::uint32_t cann = detail::laneByRoleAndTid(trace, Process::Role::Cann, lane.tid); cann != kInvalidIndex)
        inside(cann, 0, s, e);
  }
  std::sort(tasks.begin(), tasks.end(), [&](SliceRef a, SliceRef b) {
    const TimeNs x = trace.lanes[a.lane].start[a.index], y = trace.lanes[b.lane].start[b.index];
    return x != y ? x < y : (a.lane != b.lane ? a.lane < b.lane : a.index < b.index);
  });
  tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
  if (tasks.size() > limit) tasks.resize(limit);
  return tasks;
}

ClockSkew clockSkew(const Trace& trace, int device) {
  ClockSkew k;
  // The launch flows: HostToDevice on Ascend captures; ac2g (runtime launch -> kernel) on a
  // Kineto trace's streams (format notes §6.1). Both run from the host launch to the task.
  NameId h2d = trace.strings.find("HostToDevice");
  std::vector<char> laneOnDevice(trace.lanes.size());
  bool kineto = false;
  for (std::size_t l = 0; l < trace.lanes.size(); ++l) {
    const Process& p = trace.processes[trace.lanes[l].process];
    laneOnDevice[l] = (p.role == Process::Role::AscendHardware || p.role == Process::Role::KinetoDevice) &&
                      p.deviceId == device;
    kineto = kineto || (laneOnDevice[l] && p.role == Process::Role::KinetoDevice);
  }
  if (kineto) h2d = trace.strings.find("ac2g");
  if (h2d == kInvalidIndex) return k;
  const auto onDevice = [&](SliceRef r) { return r.lane < laneOnDevice.size() && laneOnDevice[r.lane]; };
  // (task start - launch ts, task) per launch. A Level0 launch is kept both as an unbound start
  // and as a flow drawn from its Dequeue (same task, same start ts): count each pair once. The
  // unbound starts are few; the flows can be millions, so only they are looked up.
  std::vector<TimeNs> v;  // 8 bytes a launch: a 10 M event trace has 2 M flows
  std::set<std::tuple<std::uint32_t, std::uint32_t, TimeNs>> unbound;
  for (const UnboundStartFlow& u : trace.unboundStarts)
    if (u.category == h2d && u.to.valid() && onDevice(u.to) && unbound.emplace(u.to.lane, u.to.index, u.fromTs).second)
      v.push_back(trace.lanes[u.to.lane].start[u.to.index] - u.fromTs);
  // A Kineto record of the kernel (isKernelRecord) is no launch: its 0 would hide the skew and
  // count as a launch the device ran at once.
  const auto boundLaunch = [&](const Flow& f) {
    return f.category == h2d && f.to.valid() && onDevice(f.to) &&
           (unbound.empty() || !unbound.count({f.to.lane, f.to.index, f.fromTs})) && !(kineto && detail::isKernelRecord(trace, f));
  };
  for (const Flow& f : trace.flows)
    if (boundLaunch(f)) v.push_back(trace.lanes[f.to.lane].start[f.to.index] - f.fromTs);
  k.tasksWithLaunch = v.size();
  if (v.empty()) return k;
  // The median first (nth_element reorders), then the lowest values in order.
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  const TimeNs median = *mid;
  // Only the lowest values matter: order the first 1% + 5 of them (O(n) + O(k log k)).
  const std::size_t head = std::min(v.size(), v.size() / 100 + 5);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(head - 1), v.end());
  std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(head));
  // The minimum, unless it is a lone outlier (a mis-bound flow): the lowest value with two more
  // within kSkewClusterNs above it, looking at most 1% + 2 values up (docs/diagnosis.md §4).
  std::size_t base = 0;
  const std::size_t limit = std::min(v.size(), v.size() / 100 + 3);
  for (std::size_t i = 0; i + 2 < v.size() && i < limit; ++i)
    if (v[i + 2] - v[i] <= kSkewClusterNs) {
      base = i;
      break;
    }
  k.outliers = base;
  k.minTaskMinusLaunch = v[base];
  if (v[base] < 0) k.bound = -v[base];
  k.medianLatency = median + k.bound;
  for (TimeNs x : v)
    if (x + k.bound <= kTightLaunchNs) ++k.tightLaunches;
  // The task giving it: the first launch (unbound starts, then flows) with that value.
  for (const UnboundStartFlow& u : trace.unboundStarts)
    if (!k.worstTask.valid() && u.category == h2d && u.to.valid() && onDevice(u.to) &&
        trace.lanes[u.to.lane].start[u.to.index] - u.fromTs == v[base])
      k.worstTask = u.to;
  for (std::size_t i = 0; !k.worstTask.valid() && i < trace.flows.size(); ++i) {
    const Flow& f = trace.flows[i];
    if (boundLaunch(f) && trace.lanes[f.to.lane].start[f.to.index] - f.fromTs == v[base]) k.worstTask = f.to;
  }
  return k;
}

FanOut fanOut(const Trace& trace, int device) {
  FanOut out;
  const NameId asyncNpu = trace.strings.find("async_npu");
  if (asyncNpu == kInvalidIndex || trace.flowsByFrom.size() != trace.flows.size()) return out;
  // flowsByFrom is sorted by the start slice: count each op's run of async_npu flows.
  SliceRef cur;
  std::size_t n = 0;
  const auto close = [&] {
    if (!n) return;
    ++out.ops;
    if (n >= kManyTasks) ++out.opsWithMany;
    if (n > out.widestTasks) {
      out.widestTasks = n;
      out.widestOp = cur;
    }
  };
  for (std::uint32_t i : trace.flowsByFrom) {
    const Flow& f = trace.flows[i];
    if (f.category != asyncNpu || !f.from.valid() || !f.to.valid()) continue;
    const Process& p = trace.processes[trace.lanes[f.to.lane].process];
    if (p.role != Process::Role::AscendHardware || p.deviceId != device) continue;
    if (!(f.from == cur)) {
      close();
      cur = f.from;
      n = 0;
    }
    ++n;
  }
  close();
  return out;
}

void applySkew(DispatchChain& chain, const ClockSkew& skew) {
  chain.skewBound = skew.bound;
  chain.correctedLatency.reset();
  chain.suspect = false;
  if (!chain.launchLatency) return;
  // A task that starts before its launch even after the correction is one of the outliers the
  // bound left out: its latency cannot be told.
  if (*chain.launchLatency + skew.bound < 0) chain.suspect = true;
  else chain.correctedLatency = *chain.launchLatency + skew.bound;
}

std::string launchLatencyText(const DispatchChain& chain) {
  if (!chain.launchLatency) return npuTr("npuscope::core::Chain", "launch latency unknown");
  if (chain.suspect)
    return i18n::format(npuTr("npuscope::core::Chain", "launch latency unknown: the task starts %1 before its recorded launch even after "
                                  "the clock correction (a suspect flow binding)"),
                        {formatDuration(-(*chain.launchLatency + chain.skewBound))});
  const TimeNs corrected = chain.correctedLatency ? *chain.correctedLatency : *chain.launchLatency;
  if (chain.skewBound > 0)
    return i18n::format(npuTr("npuscope::core::Chain", "launch latency %1 (recorded %2; host/device clocks corrected by %3)"),
                        {formatDuration(corrected), formatDuration(*chain.launchLatency), formatDuration(chain.skewBound)});
  return i18n::format(npuTr("npuscope::core::Chain", "launch latency %1"), {formatDuration(corrected)});
}

}  // namespace npuscope::core
