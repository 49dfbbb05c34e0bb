// SPDX-License-Identifier: MIT
#include "core/import/trace_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "core/base/guard.h"
#include "core/base/time_limits.h"
#include "core/import/slice_builder.h"
#include "core/query/lod.h"

namespace npuscope::core {

using detail::FlowIdKind;
using detail::Key;
using detail::KeyKind;
using detail::MetaKind;
using detail::RawCounter;
using detail::RawFlow;
using detail::RawMeta;
using detail::RawSlice;
using detail::WorkerOut;

namespace {
/// Appends `s` as a JSON string (quotes, escapes of '"', '\\' and control bytes).
void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}
}  // namespace

bool TraceBuilder::badThread(ThreadId t) {
  if (t < chunk().threads.size()) return false;
  chunk().stats.add(ImportWarning::BadPid, "unknown thread id " + std::to_string(t) + " given to TraceBuilder (record dropped)");
  return true;
}

bool TraceBuilder::badProcess(ProcessId p) {
  if (p < chunk().processes.size()) return false;
  chunk().stats.add(ImportWarning::BadPid, "unknown process id " + std::to_string(p) + " given to TraceBuilder (record dropped)");
  return true;
}

TraceBuilder::TraceBuilder() = default;
TraceBuilder::~TraceBuilder() = default;

WorkerOut& TraceBuilder::chunk() {
  if (!m_ownChunk) {
    m_chunks.emplace_back();
    m_ownChunk = true;
  }
  return m_chunks.back();
}

void TraceBuilder::adoptChunks(std::vector<WorkerOut>&& chunks) {
  // The own chunk (if any) stays last: adopted chunks come first in input order.
  std::vector<WorkerOut> own;
  if (m_ownChunk) {
    own.push_back(std::move(m_chunks.back()));
    m_chunks.pop_back();
  }
  if (m_chunks.empty()) m_chunks = std::move(chunks);
  else for (auto& c : chunks) m_chunks.push_back(std::move(c));
  for (auto& c : own) m_chunks.push_back(std::move(c));
}

TraceBuilder::ProcessId TraceBuilder::process(std::int64_t pid) { return chunk().process(Key{pid, KeyKind::Number}); }

TraceBuilder::ProcessId TraceBuilder::process(std::string_view pidText) {
  WorkerOut& c = chunk();
  return c.process(Key{static_cast<std::int64_t>(c.pool.intern(pidText)), KeyKind::String});
}

TraceBuilder::ThreadId TraceBuilder::thread(ProcessId p, std::int64_t tid) {
  if (badProcess(p)) p = process(std::int64_t{0});
  WorkerOut& c = chunk();
  return c.thread(c.processes[p], Key{tid, KeyKind::Number});
}

TraceBuilder::ThreadId TraceBuilder::thread(ProcessId p, std::string_view tidText) {
  if (badProcess(p)) p = process(std::int64_t{0});
  WorkerOut& c = chunk();
  return c.thread(c.processes[p], Key{static_cast<std::int64_t>(c.pool.intern(tidText)), KeyKind::String});
}

void TraceBuilder::meta(MetaKind kind, ProcessId p, ThreadId t, std::string_view text, std::int64_t number) {
  if (badProcess(p)) return;
  WorkerOut& c = chunk();
  RawMeta m;
  m.kind = kind;
  m.process = p;
  m.thread = t;
  m.text = text.empty() ? kEmptyName : c.pool.intern(text);
  m.number = number;
  ++c.events;
  c.metas.push_back(m);
}

void TraceBuilder::setProcessName(ProcessId p, std::string_view name) { meta(MetaKind::ProcessName, p, 0, name, 0); }
void TraceBuilder::setProcessLabels(ProcessId p, std::string_view labels) {
  meta(MetaKind::ProcessLabels, p, 0, labels, 0);
}
void TraceBuilder::setProcessSortIndex(ProcessId p, std::int64_t index) {
  meta(MetaKind::ProcessSortIndex, p, 0, {}, index);
}
void TraceBuilder::setThreadName(ThreadId t, std::string_view name) {
  if (badThread(t)) return;
  meta(MetaKind::ThreadName, chunk().threads[t].first, t, name, 0);
}
void TraceBuilder::setThreadSortIndex(ThreadId t, std::int64_t index) {
  if (badThread(t)) return;
  meta(MetaKind::ThreadSortIndex, chunk().threads[t].first, t, {}, index);
}

void TraceBuilder::noteTime(TimeNs a, TimeNs b) {
  WorkerOut& c = chunk();
  c.minTs = std::min(c.minTs, a);
  c.maxTs = std::max(c.maxTs, b);
}

std::uint64_t TraceBuilder::storeArgs(const ImportArgs& args, std::uint32_t& length) {
  if (!args.isOwned()) {
    // Rows are stored as (row, schema + 1) in the packed field, like a file range, and flagged
    // kRowArgs in finish(): a builder holds one of the two kinds only.
    bool& mine = args.isRow() ? m_hasRowArgs : m_hasFileArgs;
    const bool other = args.isRow() ? m_hasFileArgs : m_hasRowArgs;
    if (args.length() && other) {
      // A reader's mistake, not the input's: noted once, the args dropped.
      if (!m_mixedArgsNoted) addNote("args of database rows and of file ranges given to one builder: some dropped");
      m_mixedArgsNoted = true;
      length = 0;
      return 0;
    }
    if (args.length()) mine = true;
    length = args.length();
    return args.offset();
  }
  if (args.pairs().empty()) {
    length = 0;
    return 0;
  }
  const std::size_t at = m_ownedArgs.size();
  m_ownedArgs += '{';
  for (std::size_t i = 0; i < args.pairs().size(); ++i) {
    if (i) m_ownedArgs += ',';
    appendJsonString(m_ownedArgs, args.pairs()[i].first);
    m_ownedArgs += ':';
    appendJsonString(m_ownedArgs, args.pairs()[i].second);
  }
  m_ownedArgs += '}';
  length = static_cast<std::uint32_t>(m_ownedArgs.size() - at);
  return kOwnedArgs | at;
}

namespace {
/// Whether `ts` keeps the time invariant |ts| <= kMaxTimeNs (core/base/time_limits.h).
bool withinTimeLimits(TimeNs ts) { return ts >= -kMaxTimeNs && ts <= kMaxTimeNs; }
}  // namespace

void TraceBuilder::push(ThreadId t, TimeNs ts, TimeNs dur, char ph, std::uint8_t flags, std::string_view name,
                        std::string_view category, const ImportArgs& args) {
  if (badThread(t)) return;
  WorkerOut& c = chunk();
  // The time invariant (core/base/time_limits.h) as the JSON reader applies it: a time beyond
  // +-kMaxTimeNs is skipped, an end beyond it makes the duration 0 (a database row with endNs =
  // 2^63 - 1 overflowed later sums: found by fuzz/fuzz_sqlite_db).
  if (!withinTimeLimits(ts)) {
    c.stats.add(ImportWarning::MissingTimestamp, "time " + std::to_string(ts) + " ns beyond the limit of +-2^62 ns");
    return;
  }
  if (dur > 0 && dur > kMaxTimeNs - ts) {
    c.stats.add(ImportWarning::BadDuration, "duration " + std::to_string(dur) + " ns ends beyond 2^62 ns: taken as 0");
    dur = 0;
  }
  RawSlice r;
  r.ts = ts;
  r.dur = dur;
  r.name = name.empty() ? kEmptyName : c.pool.intern(name);
  r.cat = category.empty() ? kEmptyName : c.pool.intern(category);
  r.setPh(ph);
  r.setFlags(flags);
  std::uint32_t length = 0;
  const std::uint64_t offset = storeArgs(args, length);
  if (length) r.setArgs(offset, length, c.longArgs);
  ++c.events;
  c.slices[t].push_back(r);
  noteTime(ts, ph == 'X' ? ts + dur : ts);
}

void TraceBuilder::addSlice(ThreadId t, TimeNs start, TimeNs dur, std::string_view name, std::string_view category,
                            const ImportArgs& args) {
  if (dur < 0) {
    chunk().stats.add(ImportWarning::BadDuration, "slice \"" + std::string(name) + "\" with a negative duration");
    dur = 0;
  }
  push(t, start, dur, 'X', 0, name, category, args);
}

void TraceBuilder::beginSlice(ThreadId t, TimeNs ts, std::string_view name, std::string_view category,
                              const ImportArgs& args) {
  push(t, ts, -1, 'B', 0, name, category, args);
}

void TraceBuilder::endSlice(ThreadId t, TimeNs ts, std::string_view name) { push(t, ts, -1, 'E', 0, name, {}, {}); }

void TraceBuilder::addInstant(ThreadId t, TimeNs ts, std::string_view name, std::string_view category,
                              const ImportArgs& args) {
  push(t, ts, 0, 'X', kSliceInstant, name, category, args);
}

void TraceBuilder::pushFlow(ThreadId t, TimeNs ts, char ph, std::uint64_t id, FlowIdKind kind, std::string_view category,
                            std::string_view name, bool bindEnclosing) {
  if (badThread(t)) return;
  WorkerOut& c = chunk();
  if (!withinTimeLimits(ts)) {
    c.stats.add(ImportWarning::MissingTimestamp, "time " + std::to_string(ts) + " ns beyond the limit of +-2^62 ns");
    return;
  }
  RawFlow r;
  r.ts = ts;
  r.ph = ph;
  const NameId cat = category.empty() ? kEmptyName : c.pool.intern(category);
  NameId nameId = kEmptyName;
  if (!name.empty())
    nameId = kind == FlowIdKind::Numeric && detail::flowNameIsCategoryAndId(name, category, id)
                 ? detail::kFlowNameIsCategoryAndId
                 : c.pool.intern(name);
  r.key = c.flowKeys.intern(cat, nameId);
  r.bindEnclosing = bindEnclosing;
  r.thread = t;
  r.order = static_cast<std::uint32_t>(c.flows.size());
  r.id = id;
  r.idKind = kind;
  ++c.events;
  c.flows.push_back(r);
  noteTime(ts, ts);
}

namespace {
char flowPh(TraceBuilder::FlowPhase phase) {
  return phase == TraceBuilder::FlowPhase::Start ? 's' : phase == TraceBuilder::FlowPhase::Step ? 't' : 'f';
}
}  // namespace

void TraceBuilder::addFlowEvent(ThreadId t, TimeNs ts, FlowPhase phase, std::uint64_t id, std::string_view category,
                                std::string_view name, bool bindEnclosing) {
  pushFlow(t, ts, flowPh(phase), id, FlowIdKind::Numeric, category, name, bindEnclosing);
}

void TraceBuilder::addFlowEvent(ThreadId t, TimeNs ts, FlowPhase phase, std::string_view idText,
                                std::string_view category, std::string_view name, bool bindEnclosing) {
  // An empty id cannot be paired: invalid, as the JSON reader's "(no id)".
  const FlowIdKind kind = idText.empty() ? FlowIdKind::Invalid : FlowIdKind::Text;
  const NameId id = chunk().pool.intern(idText.empty() ? std::string_view("(no id)") : idText);
  pushFlow(t, ts, flowPh(phase), id, kind, category, name, bindEnclosing);
}

void TraceBuilder::addFlowOut(ThreadId t, TimeNs ts, std::uint64_t bindId, std::string_view category,
                              std::string_view name) {
  pushFlow(t, ts, 's', bindId, FlowIdKind::Numeric, category, name, true);
}

void TraceBuilder::addFlowIn(ThreadId t, TimeNs ts, std::uint64_t bindId, std::string_view category,
                             std::string_view name) {
  pushFlow(t, ts, 'f', bindId, FlowIdKind::Numeric, category, name, true);
}

void TraceBuilder::addCounter(ProcessId p, TimeNs ts, std::string_view name, std::string_view key, double value) {
  if (badProcess(p)) return;
  WorkerOut& c = chunk();
  if (!withinTimeLimits(ts)) {
    c.stats.add(ImportWarning::MissingTimestamp, "time " + std::to_string(ts) + " ns beyond the limit of +-2^62 ns");
    return;
  }
  // A value the JSON reader could not have read (its numbers are finite): a database REAL of
  // +-inf, or a sum of two near DBL_MAX, would reach the counter lanes and the report as inf
  // (found by fuzz_sqlite_reader: ACC_PMU readBwLevel = inf). Skipped, as the JSON reader skips
  // a counter value that is not a number.
  if (!std::isfinite(value)) {
    c.stats.add(ImportWarning::BadCounterValue,
                std::string(name) + " " + std::string(key) + " = " + (value > 0 ? "inf" : value < 0 ? "-inf" : "nan") +
                    " at " + std::to_string(ts) + " ns");
    return;
  }
  ++c.events;
  c.counters.push_back(RawCounter{ts, value, p, c.pool.intern(name), c.pool.intern(key)});
  noteTime(ts, ts);
}

void TraceBuilder::addWarning(ImportWarning kind, std::string_view example) { chunk().stats.add(kind, example); }

bool TraceBuilder::finish(Trace& trace, const FinishOptions& options) {
  m_ownChunk = false;
  // Packed before the build: the rows' 8-byte cells are freed before the lanes are allocated
  // (a lower peak: the database reader's rows took ~7 MB of 11 MB per 100 k slices unpacked).
  if (m_hasRowArgs) m_rowArgs.pack();
  const bool built =
      detail::buildTrace(m_chunks, m_top, std::move(m_notes), trace, options.stop, options.plainNpuDevice, options.threads);
  m_chunks.clear();
  if (!built) return false;
  trace.ownedArgs = std::move(m_ownedArgs);
  trace.communicationFromTasks = m_communicationFromTasks;
  trace.communicationTasks = std::move(m_communicationTasks);
  if (m_hasRowArgs) {
    for (Lane& l : trace.lanes)
      for (std::size_t i = 0; i < l.argsOffset.size(); ++i)
        if (l.argsLength[i] != 0 && !(l.argsOffset[i] & kOwnedArgs)) l.argsOffset[i] |= kRowArgs;
    trace.rowArgs = std::move(m_rowArgs);
  }
  // The flow index and the summary levels both only read the lanes and the flows, and write
  // apart (Trace::flowsByFrom / flowsByTo; Lane::lod, CounterSeries::lod): built at once, they
  // keep both cores busy (each alone left ~40% of the second core idle: 80 CPU ms in 50 ms and
  // 180 in 115 at 11 M events).
  if (!options.summaryLevels) {
    trace.indexFlows();
  } else if (options.threads == 1) {
    trace.indexFlows();
    buildTraceLod(trace, {}, 1);  // summary levels for zoomed-out frames (core/query/lod.h)
  } else {
    ExceptionSlot failure;  // a bad_alloc in either is rethrown here, after the join
    {
      const std::jthread index([&] { failure.run([&] { trace.indexFlows(); }); });
      failure.run([&] { buildTraceLod(trace, {}, options.threads); });
    }
    failure.rethrow();
  }
  return true;
}

}  // namespace npuscope::core
