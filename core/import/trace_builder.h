// SPDX-License-Identifier: MIT
#pragma once
// TraceBuilder: the format-neutral core of every reader. A reader adds processes, threads,
// slices (complete or begin/end), instants, flows (v1 ids and v2 bind ids), counters and
// metadata; finish() nests the slices (overlap flags), matches B/E, binds and pairs the flows,
// orders processes and lanes for display, indexes the flows, builds the summary levels and
// returns the Trace. The JSON reader fills the same record buffers in parallel through the
// chunk API (adoptChunks) and is one client of it. Internal to core (no Qt, never throws).

#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/import/raw_events.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// The args of a slice: nothing, a byte range of the trace's mapped file (an `args` JSON object
/// read lazily, zero-copy: what the JSON reader gives), owned key/value pairs, kept by the Trace
/// as a JSON object text (Trace::ownedArgs), or a row of the builder's RowArgs (TraceBuilder::
/// rowArgs: what the database reader gives, packed columns, a few bytes per slice). sliceArg /
/// sliceArgs / sliceArgsJson read all alike. One builder takes file ranges or rows, not both.
class ImportArgs {
 public:
  ImportArgs() = default;
  /// [offset, offset + length) of Trace::file: a JSON object's text. length 0: no args.
  static ImportArgs fileRange(std::uint64_t offset, std::uint32_t length) {
    ImportArgs a;
    a.m_offset = offset;
    a.m_length = length;
    return a;
  }
  /// Owned (key, value) pairs in order; values are text (a number is given as its decimal text).
  static ImportArgs owned(std::vector<std::pair<std::string, std::string>> kv) {
    ImportArgs a;
    a.m_owned = std::move(kv);
    a.m_isOwned = true;
    return a;
  }
  /// Row `row` (< 2^40) of schema `schema` of TraceBuilder::rowArgs().
  static ImportArgs row(RowArgs::Schema schema, std::uint64_t row) {
    ImportArgs a;
    a.m_offset = row;
    a.m_length = schema + 1;
    a.m_isRow = true;
    return a;
  }
  [[nodiscard]] bool isOwned() const { return m_isOwned; }
  [[nodiscard]] bool isRow() const { return m_isRow; }
  [[nodiscard]] std::uint64_t offset() const { return m_offset; }
  [[nodiscard]] std::uint32_t length() const { return m_length; }
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& pairs() const { return m_owned; }

 private:
  std::uint64_t m_offset = 0;
  std::uint32_t m_length = 0;
  bool m_isOwned = false;
  bool m_isRow = false;
  std::vector<std::pair<std::string, std::string>> m_owned;
};

/// Builds one Trace from records of any format. Not thread-safe; the add* methods append to one
/// record chunk in call order ("file order": it decides ties, B/E pairing and flow pairing). Add
/// nothing after finish(). Invalid input never throws: it becomes an import warning and a partial
/// result, as in the JSON reader (ImportStats); a process or thread id this builder did not give
/// is a BadPid warning and the record is dropped.
class TraceBuilder {
 public:
  using ProcessId = std::uint32_t;  ///< a process of this builder
  using ThreadId = std::uint32_t;   ///< a thread of this builder

  TraceBuilder();
  ~TraceBuilder();
  TraceBuilder(const TraceBuilder&) = delete;
  TraceBuilder& operator=(const TraceBuilder&) = delete;

  // ---- Processes and threads (created on first use; the same pid/tid gives the same id).
  ProcessId process(std::int64_t pid);
  ProcessId process(std::string_view pidText);  ///< a pid written as text
  ThreadId thread(ProcessId process, std::int64_t tid);
  ThreadId thread(ProcessId process, std::string_view tidText);

  // ---- Metadata (Chrome M events: the last value set wins).
  void setProcessName(ProcessId p, std::string_view name);
  /// process_labels: "NPU k" gives the process device k (Process::deviceId, format notes §2.3).
  void setProcessLabels(ProcessId p, std::string_view labels);
  void setProcessSortIndex(ProcessId p, std::int64_t index);
  /// A named thread gets a lane even without slices.
  void setThreadName(ThreadId t, std::string_view name);
  void setThreadSortIndex(ThreadId t, std::int64_t index);

  // ---- Slices. Times in ns.
  /// A complete slice [start, start + dur). A negative dur is a BadDuration warning and taken as 0.
  void addSlice(ThreadId t, TimeNs start, TimeNs dur, std::string_view name, std::string_view category = {},
                const ImportArgs& args = {});
  /// A begin / end pair (Chrome B/E): an end closes the innermost open begin of its thread; an
  /// end without begin is an OrphanEnd warning, a begin never ended lasts to the trace end
  /// (UnterminatedBegin, kSliceUnfinished); `name` of an end may be empty.
  void beginSlice(ThreadId t, TimeNs ts, std::string_view name, std::string_view category = {},
                  const ImportArgs& args = {});
  void endSlice(ThreadId t, TimeNs ts, std::string_view name = {});
  /// An instant (Chrome i/I): a zero-length slice flagged kSliceInstant.
  void addInstant(ThreadId t, TimeNs ts, std::string_view name, std::string_view category = {},
                  const ImportArgs& args = {});

  // ---- Flows. Events with equal (id, category, name) form one flow, paired in call order.
  enum class FlowPhase : std::uint8_t { Start, Step, End };
  /// A v1 flow event (Chrome s/t/f): a start binds to the slice enclosing `ts` on its thread, an
  /// end to the enclosing slice when `bindEnclosing` (bp:"e") and else to the next slice
  /// starting at or after `ts` (chrome://tracing's rule).
  void addFlowEvent(ThreadId t, TimeNs ts, FlowPhase phase, std::uint64_t id, std::string_view category = {},
                    std::string_view name = {}, bool bindEnclosing = false);
  /// v1 with a text id (compared as text).
  void addFlowEvent(ThreadId t, TimeNs ts, FlowPhase phase, std::string_view idText, std::string_view category = {},
                    std::string_view name = {}, bool bindEnclosing = false);
  /// v2 bind ids (Chrome flow_out / flow_in on a slice, or a database's flow table): the slice on
  /// thread `t` that encloses `ts` (give the slice's start; the deepest slice holding it) is the
  /// source / destination of flow `bindId`.
  void addFlowOut(ThreadId t, TimeNs ts, std::uint64_t bindId, std::string_view category = {}, std::string_view name = {});
  void addFlowIn(ThreadId t, TimeNs ts, std::uint64_t bindId, std::string_view category = {}, std::string_view name = {});

  // ---- Counters: one series per (process, name, key); unsorted samples are sorted (stable).
  void addCounter(ProcessId p, TimeNs ts, std::string_view name, std::string_view key, double value);

  // ---- Args kept as packed rows (ImportArgs::row): define the schemas and fill the rows here;
  // finish() packs them and moves them to Trace::rowArgs.
  RowArgs& rowArgs() { return m_rowArgs; }

  // ---- Trace-level facts.
  void setRank(int rank) { m_top.rank = rank; }
  void setBaseTimeNanoseconds(std::int64_t ns) { m_top.baseTimeNanoseconds = ns; }
  void setTraceName(std::string name) { m_top.traceName = std::move(name); }
  /// Trace::communicationFromTasks of the trace `finish` builds.
  void setCommunicationFromTasks(bool v) { m_communicationFromTasks = v; }
  /// Trace::communicationTasks of `device` (sorted, disjoint intervals, ns).
  void setCommunicationTasks(int device, std::vector<TimeRange> tasks) {
    m_communicationTasks.emplace_back(device, std::move(tasks));
  }
  void addNote(std::string note) { m_notes.push_back(std::move(note)); }
  /// A warning of the reader itself (a bad line, ...): counted, `example` kept while the kind keeps examples.
  void addWarning(ImportWarning kind, std::string_view example = {});
  /// Counts one input record (Trace::eventCount) that no add* call counted (e.g. a skipped line).
  void countEvent() { ++chunk().events; }

  // ---- Chunk API: readers that parse in parallel fill one detail::WorkerOut per byte range
  // (each with its own string pool and local process/thread indices) and hand them over in
  // input order; they come before the records of the add* methods.
  void adoptChunks(std::vector<detail::WorkerOut>&& chunks);

  struct FinishOptions {
    std::stop_token stop;     ///< a stop request makes finish() return false (nothing built)
    int plainNpuDevice = -1;  ///< device of processes labelled plain "NPU" (Process::deviceId)
    unsigned threads = 0;     ///< build threads at most (0: one per chunk) and summary-level threads (0: hardware concurrency)
    bool summaryLevels = true;  ///< false: no summary levels (LoadOptions::summaryLevels)
  };
  /// Builds `trace` (empty on entry; path / file / fileBytes are the caller's): nesting and
  /// overlap flags, B/E matching, flow binding and pairing, display order, the flow index
  /// (Trace::indexFlows) and the summary levels (buildTraceLod). Consumes the records. Returns
  /// false when cancelled through options.stop.
  bool finish(Trace& trace, const FinishOptions& options);

 private:
  detail::WorkerOut& chunk();
  /// An id this builder never returned: a BadPid warning (the record is dropped).
  bool badThread(ThreadId t);
  bool badProcess(ProcessId p);
  std::uint64_t storeArgs(const ImportArgs& args, std::uint32_t& length);
  void push(ThreadId t, TimeNs ts, TimeNs dur, char ph, std::uint8_t flags, std::string_view name,
            std::string_view category, const ImportArgs& args);
  void pushFlow(ThreadId t, TimeNs ts, char ph, std::uint64_t id, detail::FlowIdKind kind, std::string_view category,
                std::string_view name, bool bindEnclosing);
  void meta(detail::MetaKind kind, ProcessId p, ThreadId t, std::string_view text, std::int64_t number);
  void noteTime(TimeNs a, TimeNs b);

  std::vector<detail::WorkerOut> m_chunks;  ///< adopted chunks, then (last) the own one
  bool m_ownChunk = false;                  ///< the last of m_chunks is the add* methods'
  detail::TopLevelFacts m_top;
  std::vector<std::string> m_notes;
  std::string m_ownedArgs;  ///< owned args as JSON object texts (Trace::ownedArgs)
  RowArgs m_rowArgs;        ///< row args (Trace::rowArgs)
  bool m_hasFileArgs = false, m_hasRowArgs = false, m_mixedArgsNoted = false;  ///< which kinds were given (not both)
  bool m_communicationFromTasks = false;
  std::vector<std::pair<int, std::vector<TimeRange>>> m_communicationTasks;
};

}  // namespace npuscope::core
