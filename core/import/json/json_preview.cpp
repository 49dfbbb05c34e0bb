// SPDX-License-Identifier: MIT
#include "core/import/json/json_preview.h"

#include <algorithm>
#include <map>
#include <set>

namespace npuscope::core::detail {

namespace {
std::string keyText(const WorkerOut& out, const Key& k) {
  switch (k.kind) {
    case KeyKind::Number: return std::to_string(k.v);
    case KeyKind::String: return std::string(out.pool.view(static_cast<NameId>(k.v)));
    default: return "?";
  }
}

}  // namespace

/// Publishes the worker's new threads, metadata and time range (cheap: called once per MB).
void publishPreview(const WorkerOut& out, PreviewCursor& c) {
  if (!c.sink) return;
  std::lock_guard lock(c.sink->mutex);
  PreviewSink::Part& part = c.sink->parts[c.part];
  for (; c.threads < out.threads.size(); ++c.threads) {
    const auto& [proc, tid] = out.threads[c.threads];
    LoadPreview::Track t;
    t.pid = keyText(out, out.processes[proc]);
    t.tid = keyText(out, tid);
    part.tracks.push_back(std::move(t));
  }
  for (; c.metas < out.metas.size(); ++c.metas) {
    const RawMeta& m = out.metas[c.metas];
    if (!m.valid) continue;
    PreviewSink::Meta pm{m.kind, keyText(out, out.processes[m.process]), {}, {}, {}};
    if (m.kind == MetaKind::ThreadName || m.kind == MetaKind::ThreadSortIndex)
      pm.tid = keyText(out, out.threads[m.thread].second);
    if (m.kind == MetaKind::ProcessSortIndex || m.kind == MetaKind::ThreadSortIndex) pm.number = m.number;
    else pm.text = std::string(out.pool.view(m.text));
    part.metas.push_back(std::move(pm));
  }
  part.minTs = out.minTs;
  part.maxTs = out.maxTs;
  part.events = out.events;
  c.sink->version.fetch_add(1, std::memory_order_release);
}

/// Merges what the workers published into one preview (tracks deduplicated by pid/tid, names
/// and sort indices from the metadata seen so far).
LoadPreview makePreview(PreviewSink& sink, double fraction) {
  LoadPreview p;
  p.fraction = fraction;
  std::lock_guard lock(sink.mutex);
  std::map<std::string, std::string> procName;
  std::map<std::string, std::int64_t> procSort;
  std::map<std::pair<std::string, std::string>, std::string> threadName;
  std::map<std::pair<std::string, std::string>, std::int64_t> threadSort;
  std::set<std::pair<std::string, std::string>> seen;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& part : sink.parts) {
    for (const auto& m : part.metas) {
      switch (m.kind) {
        case MetaKind::ProcessName: procName[m.pid] = m.text; break;
        case MetaKind::ProcessSortIndex: procSort[m.pid] = *m.number; break;
        case MetaKind::ThreadName: threadName[{m.pid, m.tid}] = m.text; break;
        case MetaKind::ThreadSortIndex: threadSort[{m.pid, m.tid}] = *m.number; break;
        default: break;
      }
    }
    lo = std::min(lo, part.minTs);
    hi = std::max(hi, part.maxTs);
    p.events += part.events;
  }
  for (const auto& part : sink.parts) {
    for (const auto& t : part.tracks) {
      if (!seen.insert({t.pid, t.tid}).second) continue;
      LoadPreview::Track x = t;
      if (auto it = procName.find(t.pid); it != procName.end()) x.processName = it->second;
      if (auto it = procSort.find(t.pid); it != procSort.end()) x.processSortIndex = it->second;
      if (auto it = threadName.find({t.pid, t.tid}); it != threadName.end()) x.threadName = it->second;
      if (auto it = threadSort.find({t.pid, t.tid}); it != threadSort.end()) x.threadSortIndex = it->second;
      p.tracks.push_back(std::move(x));
    }
  }
  if (lo <= hi) {
    p.hasRange = true;
    p.minTs = lo;
    p.maxTs = hi;
  }
  return p;
}

}  // namespace npuscope::core::detail
