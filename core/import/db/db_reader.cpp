// SPDX-License-Identifier: MIT
#include "core/import/db/db_reader.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/task_kinds.h"
#include "core/base/ascii.h"
#include "core/import/db/db_tables.h"
#include "core/import/db/sqlite_db.h"
#include "core/model/overlap_process.h"
#include "core/import/trace_builder.h"

namespace npuscope::core {

namespace {

/// A compute task's "Task Type" arg: COMPUTE_TASK_INFO.taskType as the text export writes it,
/// else, where Level0 leaves it "N/A", the core TASK.taskType names (KERNEL_AICPU -> AI_CPU, the
/// 910A database corpus' two StatelessDropOutGenMask kernels), so that a CPU fallback is told.
std::string computeTaskType(std::string_view computeType, std::string_view taskType) {
  if (!computeType.empty() && computeType != "N/A") return std::string(computeType);
  static const std::pair<std::string_view, std::string_view> kCores[] = {
      {"KERNEL_AICPU", "AI_CPU"}, {"KERNEL_AICORE", "AI_CORE"}, {"KERNEL_AIVEC", "AI_VECTOR_CORE"},
      {"KERNEL_MIX_AIC", "MIX_AIC"}, {"KERNEL_MIX_AIV", "MIX_AIV"}};
  for (const auto& [task, core] : kCores)
    if (taskType == task) return std::string(core);
  return std::string(computeType);
}
/// end - start of a row, or -1 (a bad duration: TraceBuilder warns and takes 0) when the
/// difference does not fit int64 (found by fuzz/fuzz_sqlite_db: endNs -7.6e18, startNs 1.7e18).
TimeNs spanNs(TimeNs start, TimeNs end) {
  TimeNs d = 0;
  return __builtin_sub_overflow(end, start, &d) ? -1 : d;
}
}  // namespace

namespace {

using detail::SqliteDb;
using detail::SqliteRowStream;
using detail::SqliteStatement;
using ProcessId = TraceBuilder::ProcessId;
using ThreadId = TraceBuilder::ThreadId;

/// "no device link" connection ids of MSTX_EVENTS and TASK (format notes §5.3, §5.4).
constexpr std::int64_t kNoConnection = 4294967295LL;
constexpr std::int64_t kNoConnectionMstx = 4000000000LL;
/// contextId of a task without sub-tasks.
constexpr std::int64_t kNoContext = 4294967295LL;
/// Keys of the synthetic processes (real OS pids stay far below).
constexpr std::int64_t kDevicePidBase = std::int64_t{1} << 40;
constexpr std::int64_t kHostPidBase = std::int64_t{1} << 41;

/// Sort indices of the layers as msprof's C++ writer numbers them (format notes §2.4).
enum Layer : int {
  kMsTx = 6, kCann = 7, kHardware = 14, kAiCoreFreq = 15, kHccl = 16, kNpuMem = 17, kDdr = 18, kAccPmu = 19,
  kHbm = 22, kStarsSoc = 23, kLlc = 25, kOverlap = 31,
};

std::string nsToUs(TimeNs ns) {
  // Exact: microseconds with 3 decimals, as the text export writes times.
  const bool neg = ns < 0;
  const std::uint64_t a = neg ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  char buf[40];
  char* p = buf;
  if (neg) *p++ = '-';
  p = std::to_chars(p, buf + sizeof buf, a / 1000).ptr;
  const auto frac = static_cast<unsigned>(a % 1000);
  *p++ = '.';
  *p++ = static_cast<char>('0' + frac / 100);
  *p++ = static_cast<char>('0' + frac / 10 % 10);
  *p++ = static_cast<char>('0' + frac % 10);
  return std::string(buf, p);
}

/// A device end of a connection id: a task slice or an HCCL big op.
struct DeviceEnd {
  ThreadId thread;
  TimeNs start;
};

/// A host row that may start a flow.
struct HostRow {
  ThreadId thread;
  TimeNs start;
  bool enqueue = false;
  bool dequeue = false;
};

class DbReader {
 public:
  DbReader(SqliteDb& db, std::string path, const LoadOptions& options, bool tables, DbImport& out)
      : m_db(db), m_path(std::move(path)), m_options(options), m_tables(tables), m_out(out) {}

  bool read(Trace& trace);

 private:
  // ---- helpers
  /// `"column"` when `table` has it, else `fallback` (an SQL expression such as NULL).
  std::string col(std::string_view table, std::string_view column, std::string_view fallback = "NULL") {
    return m_db.hasColumn(table, column) ? "\"" + std::string(column) + "\"" : std::string(fallback);
  }
  bool need(std::string_view table, std::initializer_list<std::string_view> columns) {
    if (!m_db.hasTable(table)) return false;
    for (auto c : columns)
      if (!m_db.hasColumn(table, c)) {
        note(std::string(table) + " has no column " + std::string(c) + ": table not read");
        return false;
      }
    return true;
  }
  void note(std::string m) { m_out.messages.push_back(std::move(m)); }
  template <typename S>
  void checkStatement(const S& s, std::string_view table) {
    if (!s.error().empty()) note(std::string(table) + ": read stopped (" + s.error() + "); what was read is shown");
  }
  std::string_view str(std::int64_t id) const {
    const auto it = m_strings.find(id);
    return it == m_strings.end() ? std::string_view{} : std::string_view(it->second);
  }
  /// strOr without a copy: a view of m_strings, or of the statement's text (valid until the
  /// next step).
  template <typename S>
  std::string_view strView(const S& s, int c) const {
    if (s.isNull(c)) return {};
    const auto it = m_strings.find(s.integer(c));
    return it == m_strings.end() ? s.text(c) : std::string_view(it->second);
  }
  /// strOr as a view that outlives the row: of m_strings, or of a copy appended to `own`.
  template <typename S>
  std::string_view strKept(const S& s, int c, std::deque<std::string>& own) const {
    if (s.isNull(c)) return {};
    const auto it = m_strings.find(s.integer(c));
    return it == m_strings.end() ? std::string_view(own.emplace_back(s.text(c))) : std::string_view(it->second);
  }
  template <typename S>
  std::string strOr(const S& s, int c) const {
    if (s.isNull(c)) return {};
    const auto it = m_strings.find(s.integer(c));
    return it == m_strings.end() ? std::string(s.text(c)) : it->second;
  }
  // ---- row args (TraceBuilder::rowArgs: packed columns, a few bytes a slice)
  RowArgs& argRows() { return m_b.rowArgs(); }
  /// Cell `key` of the current row from column `c` as the text export writes it: an INTEGER as
  /// itself (shown as its decimal text), anything else as SQLite's text ("" for NULL).
  template <typename S>
  void cell(RowArgs::Schema schema, std::size_t key, const S& s, int c) {
    if (s.isInteger(c)) argRows().setInteger(schema, key, s.integer(c));
    else argRows().setText(schema, key, s.text(c));
  }
  /// Cell `key` from a STRING_IDS reference in column `c` (strOr's value), each id interned once.
  template <typename S>
  void cellString(RowArgs::Schema schema, std::size_t key, const S& s, int c) {
    if (s.isNull(c)) {
      argRows().setTextId(schema, key, kEmptyName);
      return;
    }
    const std::int64_t id = s.integer(c);
    if (const auto it = m_argTexts.find(id); it != m_argTexts.end()) {
      argRows().setTextId(schema, key, it->second);
      return;
    }
    const auto st = m_strings.find(id);
    if (st == m_strings.end()) {
      argRows().setText(schema, key, s.text(c));
      return;
    }
    const NameId t = argRows().text(st->second);
    m_argTexts.emplace(id, t);
    argRows().setTextId(schema, key, t);
  }
  bool cancelled() const { return m_options.stop.stop_requested(); }
  void progress(double f) const {
    if (m_options.progress) m_options.progress(f);
  }
  ProcessId deviceProcess(int device, Layer layer, const char* name);
  ProcessId hostProcess(std::int64_t key, Layer layer, const char* name);
  /// The lane of an OS thread in a host process, named "Thread {tid}" as the text export names it.
  ThreadId hostThread(ProcessId p, std::int64_t tid) {
    const ThreadId t = m_b.thread(p, tid);
    if (m_namedThreads.insert(t).second) {
      m_b.setThreadName(t, "Thread " + std::to_string(tid));
      m_b.setThreadSortIndex(t, tid);
    }
    return t;
  }

  // ---- phases
  void startStreams();
  void readStrings();
  void readPython();
  void readPythonRows(std::map<std::int64_t, ProcessId>& processes, bool& steps);
  void readStepTime(const std::map<std::int64_t, ProcessId>& processes);
  void readCann();
  void readGc();
  void readMstx();
  void readTasks();
  void readCommunication();
  void readOverlap();
  [[nodiscard]] bool stepCommunicationFromTasks();
  void computeOverlap(int device, bool fromTasks);
  void readCounters();
  void buildFlows();
  /// Frees the connection maps and task sets (done with after buildFlows): they would otherwise
  /// stay allocated through TraceBuilder::finish, the load's peak.
  void releaseFlowMaps() {
    std::vector<std::pair<std::int64_t, HostRow>>().swap(m_cannConnections);
    std::vector<std::pair<std::int64_t, HostRow>>().swap(m_pythonConnections);
    std::vector<std::pair<std::int64_t, HostRow>>().swap(m_mstxConnections);
    std::vector<std::pair<std::int64_t, DeviceEnd>>().swap(m_taskEnds);
    std::vector<std::pair<std::int64_t, DeviceEnd>>().swap(m_opEnds);
    std::unordered_map<std::int64_t, int>().swap(m_deviceOfConnection);
    std::unordered_set<std::int64_t>().swap(m_hiddenTasks);
    std::unordered_set<std::int64_t>().swap(m_computeTasks);
    std::unordered_map<std::int64_t, TaskTime>().swap(m_taskTimes);
  }
  void readKernels();

  SqliteDb& m_db;
  std::string m_path;
  const LoadOptions& m_options;
  bool m_tables = true;  ///< also build DbImport's tables (readKernels)
  /// The big tables, read on threads of their own while the builder takes the others
  /// (startStreams; null when the table or a needed column is missing).
  std::unique_ptr<SqliteRowStream> m_pythonRows, m_cannRows, m_taskRows, m_connectionRows;
  DbImport& m_out;
  TraceBuilder m_b;
  std::unordered_map<std::int64_t, std::string> m_strings;
  std::unordered_map<std::int64_t, NameId> m_argTexts;  ///< STRING_IDS id -> RowArgs text id
  std::map<std::pair<int, int>, ProcessId> m_deviceProcesses;
  std::map<std::int64_t, ProcessId> m_hostProcesses;
  // The connection maps are vectors of (connectionId, row) in read order, sorted (stably) by
  // connectionId in buildFlows: a sorted vector and equal_range instead of a hash map of vectors.
  std::vector<std::pair<std::int64_t, HostRow>> m_cannConnections;    ///< CANN_API connectionId -> row
  std::vector<std::pair<std::int64_t, HostRow>> m_pythonConnections;  ///< PYTORCH_API connectionId -> row
  std::vector<std::pair<std::int64_t, HostRow>> m_mstxConnections;    ///< MSTX_EVENTS connectionId -> row
  std::vector<std::pair<std::int64_t, DeviceEnd>> m_taskEnds;  ///< shown compute / memcpy TASKs by connectionId
  std::vector<std::pair<std::int64_t, DeviceEnd>> m_opEnds;    ///< COMMUNICATION_OP by connectionId
  std::unordered_map<std::int64_t, int> m_deviceOfConnection;           ///< TASK connectionId -> deviceId
  std::unordered_set<std::int64_t> m_hiddenTasks;                       ///< globalTaskId of containers
  std::unordered_set<std::int64_t> m_computeTasks;  ///< globalTaskId of the Overlap Analysis compute set
  struct TaskTime {
    TimeNs start, end;
    int device, stream;
  };
  std::unordered_map<std::int64_t, TaskTime> m_taskTimes;  ///< globalTaskId -> task
  std::vector<int> m_devices;                              ///< distinct TASK deviceIds
  std::unordered_set<ThreadId> m_namedThreads;
  bool m_hasOverlapTable = false;
  std::uint64_t m_nextFlow = 1;
};

ProcessId DbReader::deviceProcess(int device, Layer layer, const char* name) {
  const auto key = std::make_pair(device, static_cast<int>(layer));
  if (const auto it = m_deviceProcesses.find(key); it != m_deviceProcesses.end()) return it->second;
  const ProcessId p = m_b.process(kDevicePidBase + std::int64_t{device < 0 ? 0xFFFF : device} * 64 + layer);
  m_b.setProcessName(p, name);
  m_b.setProcessLabels(p, device >= 0 ? "NPU " + std::to_string(device) : std::string("NPU"));
  m_b.setProcessSortIndex(p, layer);
  m_deviceProcesses.emplace(key, p);
  return p;
}

ProcessId DbReader::hostProcess(std::int64_t key, Layer layer, const char* name) {
  const std::int64_t pid = kHostPidBase + key * 64 + layer;
  if (const auto it = m_hostProcesses.find(pid); it != m_hostProcesses.end()) return it->second;
  const ProcessId p = m_b.process(pid);
  m_b.setProcessName(p, name);
  m_b.setProcessLabels(p, "CPU");
  m_b.setProcessSortIndex(p, layer);
  m_hostProcesses.emplace(pid, p);
  return p;
}

void DbReader::startStreams() {
  // One connection and thread per big table (SqliteRowStream): SQLite steps and decodes them
  // while this thread builds; with options.threads == 1 every table is read on this thread,
  // through the reader's own connection (one open and schema parse instead of one per table).
  const bool background = m_options.threads != 1;
  const auto stream = [&](const std::string& sql) {
    return std::make_unique<SqliteRowStream>(m_path, sql, background, m_options.stop, background ? nullptr : &m_db);
  };
  if (need("PYTORCH_API", {"startNs", "endNs", "globalTid", "name"}))
    m_pythonRows = stream("SELECT CAST(startNs AS INTEGER), CAST(endNs AS INTEGER), globalTid, name, " +
                          col("PYTORCH_API", "connectionId") + ", " + col("PYTORCH_API", "sequenceNumber") + ", " +
                          col("PYTORCH_API", "fwdThreadId") + ", " + col("PYTORCH_API", "inputDtypes") + ", " +
                          col("PYTORCH_API", "inputShapes") + ", " + col("PYTORCH_API", "callchainId") + ", " +
                          col("PYTORCH_API", "type") + " FROM PYTORCH_API");
  if (need("CANN_API", {"startNs", "endNs", "globalTid", "name"}))
    m_cannRows = stream("SELECT startNs, endNs, globalTid, name, " + col("CANN_API", "type") + ", " +
                        col("CANN_API", "connectionId") + " FROM CANN_API");
  if (need("TASK", {"startNs", "endNs", "deviceId", "streamId"}))
    m_taskRows = stream("SELECT startNs, endNs, deviceId, streamId, " + col("TASK", "connectionId") + ", " +
                        col("TASK", "globalTaskId") + ", " + col("TASK", "contextId") + ", " + col("TASK", "taskId") +
                        ", " + col("TASK", "modelId") + ", " + col("TASK", "taskType") + " FROM TASK ORDER BY startNs");
  if (need("CONNECTION_IDS", {"id", "connectionId"}))
    m_connectionRows = stream("SELECT id, connectionId FROM CONNECTION_IDS");
}

void DbReader::readStrings() {
  if (!need("STRING_IDS", {"id", "value"})) {
    note("no STRING_IDS table: names are shown as their ids");
    return;
  }
  SqliteStatement s(m_db, "SELECT id, value FROM STRING_IDS");
  while (s.step()) m_strings.emplace(s.integer(0), std::string(s.text(1)));
  checkStatement(s, "STRING_IDS");
}

void DbReader::readPython() {
  std::map<std::int64_t, ProcessId> processes;
  bool steps = false;  // a ProfilerStep#N row seen
  if (m_pythonRows) readPythonRows(processes, steps);
  if (!steps) readStepTime(processes);
}

void DbReader::readStepTime(const std::map<std::int64_t, ProcessId>& processes) {
  // No ProfilerStep#N in PYTORCH_API: the steps of STEP_TIME(id, startNs, endNs) (format notes
  // §1.2, §5.3: "host ProfilerStep windows"), as ProfilerStep#{id} slices on a lane of their own
  // in the Python process (the first one), so that the step analyses find them as in a torch
  // capture.
  if (!m_db.hasTable("STEP_TIME") || !need("STEP_TIME", {"id", "startNs", "endNs"})) return;
  SqliteStatement s(m_db, "SELECT id, CAST(startNs AS INTEGER), CAST(endNs AS INTEGER) FROM STEP_TIME ORDER BY 2");
  ThreadId t = 0;
  std::size_t n = 0;
  while (s.step()) {
    if (s.isNull(0) || s.isNull(1) || s.isNull(2) || s.integer(2) < s.integer(1)) continue;
    if (n++ == 0) {
      ProcessId p = 0;
      if (!processes.empty()) {
        p = processes.begin()->second;
      } else {
        p = hostProcess(2, static_cast<Layer>(0), "Python");
      }
      t = m_b.thread(p, std::int64_t{-1});
      m_b.setThreadName(t, "Steps (STEP_TIME)");
      m_b.setThreadSortIndex(t, -1);
    }
    // spanNs: a step from INT64_MIN to 8 passes the check above, but its length overflows
    // (found by fuzz_sqlite_reader).
    m_b.addSlice(t, s.integer(1), spanNs(s.integer(1), s.integer(2)), "ProfilerStep#" + std::to_string(s.integer(0)), "cpu_op");
  }
  checkStatement(s, "STEP_TIME");
  if (n)
    note("no ProfilerStep rows in PYTORCH_API: the " + std::to_string(n) +
         " steps of the STEP_TIME table are shown on the Python lane \"Steps (STEP_TIME)\"");
}

/// True for a torch op's `Input Dims` text: digits with commas, semicolons and line breaks only.
bool looksLikeDims(std::string_view text) {
  bool digit = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c != ',' && c != ';' && c != '\r' && c != '\n' && c != ' ' && c != '-') return false;
  }
  return digit;
}

void DbReader::readPythonRows(std::map<std::int64_t, ProcessId>& processes, bool& steps) {
  // Call stacks: PYTORCH_CALLCHAINS(id, stack -> STRING_IDS, stackDepth), frames joined as the
  // text export joins them (";\r\n", format notes §2.7).
  std::unordered_map<std::int64_t, NameId> stacks;  ///< callchain id -> RowArgs text
  if (need("PYTORCH_CALLCHAINS", {"id", "stack", "stackDepth"})) {
    std::unordered_map<std::int64_t, std::string> texts;
    SqliteStatement s(m_db, "SELECT id, stack FROM PYTORCH_CALLCHAINS ORDER BY id, stackDepth");
    while (s.step()) {
      std::string& st = texts[s.integer(0)];
      if (!st.empty()) st += ";\r\n";
      st += strOr(s, 1);
    }
    checkStatement(s, "PYTORCH_CALLCHAINS");
    for (const auto& [id, text] : texts) stacks.emplace(id, argRows().text(text));
  }
  const RowArgs::Schema schema =
      argRows().addSchema({"Sequence number", "Fwd thread id", "Input Dims", "Input type", "Call stack"});
  SqliteRowStream& s = *m_pythonRows;
  // Rows come in runs of one thread: the last globalTid's lane skips the lookups.
  std::int64_t lastGtid = 0;
  ThreadId t = 0;
  bool haveLast = false;
  while (s.step()) {
    const std::int64_t gtid = s.integer(2);
    if (!haveLast || gtid != lastGtid) {
      const std::int64_t pid = gtid >> 32, tid = gtid & 0xFFFFFFFF;
      auto pit = processes.find(pid);
      if (pit == processes.end()) {
        const ProcessId p = m_b.process(pid);
        m_b.setProcessName(p, "Python");
        m_b.setProcessLabels(p, "CPU");
        m_b.setProcessSortIndex(p, 0);
        pit = processes.emplace(pid, p).first;
      }
      t = hostThread(pit->second, tid);
      lastGtid = gtid;
      haveLast = true;
    }
    const TimeNs start = s.integer(0), end = s.integer(1);
    const std::string_view name = strView(s, 3);
    const std::int64_t type = s.integer(10, 50001);
    if (name.starts_with("ProfilerStep#")) steps = true;
    const bool enqueue = type == 50002 && name.starts_with("Enqueue");
    const bool dequeue = type == 50002 && name.starts_with("Dequeue");
    // Categories as the text export writes them (format notes §2.6, §2.7).
    const char* cat = type == 50003 ? "python_function" : type == 50004 ? "mstx" : enqueue ? "enqueue" : dequeue ? "dequeue" : "cpu_op";
    // Args as a packed row: keys in the text export's order, a NULL column leaves its key out.
    const bool op = type == 50001 && (!s.isNull(5) || !s.isNull(6) || !s.isNull(7) || !s.isNull(8));
    const auto stack = s.isNull(9) ? stacks.end() : stacks.find(s.integer(9));
    ImportArgs args;
    if (op || stack != stacks.end()) {
      args = ImportArgs::row(schema, argRows().beginRow(schema));
      if (type == 50001) {
        if (!s.isNull(5)) cell(schema, 0, s, 5);
        if (!s.isNull(6)) cell(schema, 1, s, 6);
        // Some torch_npu versions store the two swapped (the 910A corpus databases: inputShapes
        // "float;\r\nfloat;..." and inputDtypes "32,3,224,224;\r\n64,3,11,11;..."): the column
        // holding only digits and separators is the dims.
        int dims = 8, dtypes = 7;
        if (!s.isNull(7) && !s.isNull(8) && looksLikeDims(strView(s, 7)) && !looksLikeDims(strView(s, 8))) std::swap(dims, dtypes);
        if (!s.isNull(dims)) cellString(schema, 2, s, dims);
        if (!s.isNull(dtypes)) cellString(schema, 3, s, dtypes);
      }
      if (stack != stacks.end()) argRows().setTextId(schema, 4, stack->second);
    }
    m_b.addSlice(t, start, spanNs(start, end), name, cat, args);
    if (!s.isNull(4)) m_pythonConnections.emplace_back(s.integer(4), HostRow{t, start, enqueue, dequeue});
  }
  checkStatement(s, "PYTORCH_API");
}

void DbReader::readCann() {
  if (!m_cannRows) return;
  // ENUM_API_TYPE names -> the text export's level prefixes (msprof cann_assembler.cpp, §2.4).
  std::unordered_map<std::int64_t, std::pair<std::string, NameId>> levels;  ///< id -> (name, RowArgs text)
  if (need("ENUM_API_TYPE", {"id", "name"})) {
    SqliteStatement e(m_db, "SELECT id, name FROM ENUM_API_TYPE");
    while (e.step()) levels.emplace(e.integer(0), std::make_pair(std::string(e.text(1)), argRows().text(e.text(1))));
  }
  const RowArgs::Schema schema = argRows().addSchema({"Thread Id", "level", "id", "connection_id"});
  std::string name;
  const auto prefix = [](std::string_view level) -> const char* {
    if (level == "acl") return "AscendCL";
    if (level == "runtime") return "Runtime";
    if (level == "node") return "Node";
    if (level == "model") return "Model";
    if (level == "hccl" || level == "communication") return "Communication";
    return "Api";
  };
  SqliteRowStream& s = *m_cannRows;
  std::int64_t lastTid = -1;  // rows come in runs of one thread: its lane skips the lookups
  ThreadId t = 0;
  while (s.step()) {
    const std::int64_t gtid = s.integer(2);
    if ((gtid & 0xFFFFFFFF) != lastTid) {
      lastTid = gtid & 0xFFFFFFFF;
      t = hostThread(hostProcess(0, kCann, "CANN"), lastTid);
    }
    const TimeNs start = s.integer(0), end = s.integer(1);
    const std::string_view api = strView(s, 3);
    const auto lv = levels.find(s.integer(4, -1));
    const std::string_view level = lv == levels.end() ? std::string_view() : std::string_view(lv->second.first);
    const std::uint64_t row = argRows().beginRow(schema);
    argRows().setInteger(schema, 0, gtid & 0xFFFFFFFF);
    argRows().setTextId(schema, 1, lv == levels.end() ? kEmptyName : lv->second.second);
    cellString(schema, 2, s, 3);
    if (!s.isNull(5)) cell(schema, 3, s, 5);
    name.assign(prefix(level)).append("@").append(api);
    m_b.addSlice(t, start, spanNs(start, end), name, {}, ImportArgs::row(schema, row));
    if (!s.isNull(5)) m_cannConnections.emplace_back(s.integer(5), HostRow{t, start});
  }
  checkStatement(s, "CANN_API");
}

void DbReader::readGc() {
  if (!need("GC_RECORD", {"startNs", "endNs", "globalTid"})) return;
  SqliteStatement s(m_db, "SELECT startNs, endNs, globalTid FROM GC_RECORD");
  while (s.step()) {
    const ProcessId p = hostProcess(1, static_cast<Layer>(1), "Python GC");
    const ThreadId t = hostThread(p, s.integer(2) & 0xFFFFFFFF);
    m_b.addSlice(t, s.integer(0), spanNs(s.integer(0), s.integer(1)), "GC", "GC");
  }
  checkStatement(s, "GC_RECORD");
}

void DbReader::readMstx() {
  if (!need("MSTX_EVENTS", {"startNs", "endNs", "globalTid"})) return;
  SqliteStatement s(m_db, "SELECT startNs, endNs, globalTid, " + col("MSTX_EVENTS", "message") + ", " +
                              col("MSTX_EVENTS", "connectionId") + ", " + col("MSTX_EVENTS", "eventType") +
                              " FROM MSTX_EVENTS");
  while (s.step()) {
    const ProcessId p = hostProcess(0, kMsTx, "MsTx");
    const ThreadId t = hostThread(p, s.integer(2) & 0xFFFFFFFF);
    const TimeNs start = s.integer(0), end = s.integer(1);
    const std::string message = strOr(s, 3);
    if (end <= start) m_b.addInstant(t, start, message, "mstx");
    else m_b.addSlice(t, start, spanNs(start, end), message, "mstx");
    const std::int64_t c = s.integer(4, kNoConnection);
    if (c != kNoConnection && c != kNoConnectionMstx) m_mstxConnections.emplace_back(c, HostRow{t, start});
  }
  checkStatement(s, "MSTX_EVENTS");
}

void DbReader::readTasks() {
  if (!m_taskRows) {
    note("no TASK table: no device tasks");
    return;
  }
  // Compute records (COMPUTE_TASK_INFO, keyed by globalTaskId).
  // Texts as views of STRING_IDS (m_strings), or of `own` for a text that is not a reference.
  struct Compute {
    std::string_view name, type, opType;
    std::int64_t blockDim = -1;
    std::string_view inputShapes;
  };
  std::deque<std::string> own;
  std::unordered_map<std::int64_t, Compute> compute;
  if (need("COMPUTE_TASK_INFO", {"globalTaskId", "name"})) {
    SqliteStatement c(m_db, "SELECT globalTaskId, name, " + col("COMPUTE_TASK_INFO", "taskType") + ", " +
                                col("COMPUTE_TASK_INFO", "opType") + ", " +
                                col("COMPUTE_TASK_INFO", "blockDim", col("COMPUTE_TASK_INFO", "blockNum")) + ", " +
                                col("COMPUTE_TASK_INFO", "inputShapes") + " FROM COMPUTE_TASK_INFO");
    while (c.step())
      compute.emplace(c.integer(0), Compute{strKept(c, 1, own), strKept(c, 2, own), strKept(c, 3, own), c.integer(4, -1),
                                            strKept(c, 5, own)});
    checkStatement(c, "COMPUTE_TASK_INFO");
  }
  struct Row {
    TimeNs start, end;
    int device, stream;
    std::int64_t connection, globalTask, context, taskId, model;
    std::string_view type;  ///< a view of m_strings, or of `own`
  };
  std::vector<Row> rows;
  SqliteRowStream& s = *m_taskRows;
  while (s.step()) {
    const std::string_view type = strKept(s, 9, own);
    rows.push_back({s.integer(0), s.integer(1), static_cast<int>(s.integer(2, -1)), static_cast<int>(s.integer(3, -1)),
                    s.integer(4, kNoConnection), s.integer(5, -1), s.integer(6, kNoContext), s.integer(7, -1),
                    s.integer(8, kNoConnection), type});
  }
  checkStatement(s, "TASK");
  // Containers: a task without a compute record, without a context id, that holds a sub-task of
  // the same (device, stream, taskId) with a context id (an FFTS+ / MIX parent of its sub-task,
  // or the HCCL op's task around its notify/memcpy tasks). The text export shows the sub-tasks
  // only (corpus ascend-pt-910b-db-2rank level1: 17 such tasks, 13 on stream 2 and 4 on the HCCL
  // stream; trace_view.json of the text capture has none of them).
  // Rows grouped by (device, stream, taskId): row indices sorted by that key.
  const auto taskKey = [&](std::size_t i) { return std::make_tuple(rows[i].device, rows[i].stream, rows[i].taskId); };
  std::vector<std::uint32_t> byTask(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) byTask[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(byTask.begin(), byTask.end(), [&](std::uint32_t a, std::uint32_t b) { return taskKey(a) < taskKey(b); });
  for (std::size_t g = 0; g < byTask.size();) {
    std::size_t e = g + 1;
    while (e < byTask.size() && taskKey(byTask[e]) == taskKey(byTask[g])) ++e;
    for (std::size_t a = g; e - g >= 2 && a < e; ++a) {
      const Row& r = rows[byTask[a]];
      if (r.context != kNoContext || compute.count(r.globalTask)) continue;
      for (std::size_t b = g; b < e; ++b) {
        const Row& o = rows[byTask[b]];
        if (b != a && o.context != kNoContext && o.start >= r.start && o.start <= r.end) {
          m_hiddenTasks.insert(r.globalTask);
          break;
        }
      }
    }
    g = e;
  }
  m_taskTimes.reserve(rows.size());
  std::map<std::pair<int, int>, ThreadId> lanes;
  const RowArgs::Schema schema = argRows().addSchema({"Model Id", "Task Type", "Physic Stream Id", "Task Id",
                                                         "Subtask Id", "connection_id", "Op Type", "Input Shapes"});
  for (const Row& r : rows) {
    m_taskTimes[r.globalTask] = {r.start, r.end, r.device, r.stream};
    if (r.connection != kNoConnection) m_deviceOfConnection.emplace(r.connection, r.device);
    if (std::find(m_devices.begin(), m_devices.end(), r.device) == m_devices.end()) m_devices.push_back(r.device);
    if (m_hiddenTasks.count(r.globalTask)) continue;
    auto lit = lanes.find({r.device, r.stream});
    if (lit == lanes.end()) {
      const ThreadId t = m_b.thread(deviceProcess(r.device, kHardware, "Ascend Hardware"), r.stream);
      m_b.setThreadName(t, "Stream " + std::to_string(r.stream));
      m_b.setThreadSortIndex(t, r.stream);
      lit = lanes.emplace(std::make_pair(r.device, r.stream), t).first;
    }
    const auto c = compute.find(r.globalTask);
    const bool isCompute = c != compute.end();
    if (isCompute && !detail::isExcludedKernel(c->second.name)) m_computeTasks.insert(r.globalTask);
    const std::uint64_t row = argRows().beginRow(schema);
    argRows().setInteger(schema, 0, r.model);
    argRows().setText(schema, 1, isCompute ? computeTaskType(c->second.type, r.type) : r.type);
    argRows().setInteger(schema, 2, r.stream);
    argRows().setInteger(schema, 3, r.taskId);
    argRows().setInteger(schema, 4, r.context);
    argRows().setInteger(schema, 5, r.connection);
    if (isCompute && !c->second.opType.empty()) argRows().setText(schema, 6, c->second.opType);
    if (isCompute && !c->second.inputShapes.empty()) argRows().setText(schema, 7, c->second.inputShapes);
    m_b.addSlice(lit->second, r.start, spanNs(r.start, r.end), isCompute ? c->second.name : r.type, {},
                 ImportArgs::row(schema, row));
    // Flow ends: compute and memcpy tasks, those the text export's HostToDevice flows end on
    // (corpus ascend-pt-910b-l1-text-2rank rank0: 187 compute, 24 MEMCPY_ASYNC, 4 HCCL ops; no
    // event or notify task has one).
    if (r.connection != kNoConnection && (isCompute || r.type == "MEMCPY_ASYNC"))
      m_taskEnds.emplace_back(r.connection, DeviceEnd{lit->second, r.start});
  }
  std::sort(m_devices.begin(), m_devices.end());
}

void DbReader::readCommunication() {
  if (!need("COMMUNICATION_OP", {"startNs", "endNs", "opName"})) return;
  // Groups in order of first appearance get tid base, base+1+plane (the text export's layout:
  // "Group k Communication" then its "Plane p" threads, format notes §2.4).
  std::map<std::string, std::int64_t> groupBase;
  std::int64_t nextBase = 0;
  const auto baseOf = [&](const std::string& g) {
    auto it = groupBase.find(g);
    if (it == groupBase.end()) {
      it = groupBase.emplace(g, nextBase).first;
      nextBase += 1000;
    }
    return it->second;
  };
  const int soleDevice = m_devices.size() == 1 ? m_devices.front() : -1;
  SqliteStatement s(m_db, "SELECT startNs, endNs, opName, " + col("COMMUNICATION_OP", "connectionId") + ", " +
                              col("COMMUNICATION_OP", "groupName") + ", " + col("COMMUNICATION_OP", "deviceId") + ", " +
                              col("COMMUNICATION_OP", "dataType") + ", " + col("COMMUNICATION_OP", "algType") + ", " +
                              col("COMMUNICATION_OP", "count") + ", " + col("COMMUNICATION_OP", "opId") +
                              " FROM COMMUNICATION_OP ORDER BY startNs");
  std::unordered_map<std::int64_t, std::string> dataTypes;
  if (need("ENUM_HCCL_DATA_TYPE", {"id", "name"})) {
    SqliteStatement e(m_db, "SELECT id, name FROM ENUM_HCCL_DATA_TYPE");
    while (e.step()) dataTypes.emplace(e.integer(0), std::string(e.text(1)));
  }
  const RowArgs::Schema opSchema = argRows().addSchema({"connection_id", "group_name", "data_type", "alg_type", "count"});
  std::unordered_map<std::int64_t, int> deviceOfOp;
  std::set<std::pair<int, std::int64_t>> named;
  while (s.step()) {
    const std::int64_t conn = s.integer(3, kNoConnection);
    int device = s.isNull(5) ? -1 : static_cast<int>(s.integer(5));
    if (device < 0)
      if (const auto it = m_deviceOfConnection.find(conn); it != m_deviceOfConnection.end()) device = it->second;
    if (device < 0) device = soleDevice;
    const std::string group = strOr(s, 4);
    const std::int64_t base = baseOf(group);
    const ThreadId t = m_b.thread(deviceProcess(device, kHccl, "HCCL"), base);
    if (named.insert({device, base}).second) {
      m_b.setThreadName(t, "Group " + std::to_string(base / 1000) + " Communication");
      m_b.setThreadSortIndex(t, base);
    }
    const auto dt = dataTypes.find(s.integer(6, -1));
    const std::uint64_t row = argRows().beginRow(opSchema);
    argRows().setInteger(opSchema, 0, conn);
    argRows().setText(opSchema, 1, group);
    if (dt == dataTypes.end()) cell(opSchema, 2, s, 6);
    else argRows().setText(opSchema, 2, dt->second);
    cellString(opSchema, 3, s, 7);
    cell(opSchema, 4, s, 8);
    m_b.addSlice(t, s.integer(0), spanNs(s.integer(0), s.integer(1)), strOr(s, 2), {}, ImportArgs::row(opSchema, row));
    if (conn != kNoConnection) m_opEnds.emplace_back(conn, DeviceEnd{t, s.integer(0)});
    if (!s.isNull(9)) deviceOfOp.emplace(s.integer(9), device);
  }
  checkStatement(s, "COMMUNICATION_OP");
  if (!need("COMMUNICATION_TASK_INFO", {"globalTaskId", "name"})) return;
  SqliteStatement c(m_db, "SELECT globalTaskId, name, " + col("COMMUNICATION_TASK_INFO", "planeId") + ", " +
                              col("COMMUNICATION_TASK_INFO", "groupName") + ", " +
                              col("COMMUNICATION_TASK_INFO", "taskType") + ", " +
                              col("COMMUNICATION_TASK_INFO", "srcRank") + ", " + col("COMMUNICATION_TASK_INFO", "dstRank") +
                              ", " + col("COMMUNICATION_TASK_INFO", "size") + ", " +
                              col("COMMUNICATION_TASK_INFO", "notifyId") + ", " +
                              col("COMMUNICATION_TASK_INFO", "transportType") + ", " +
                              col("COMMUNICATION_TASK_INFO", "linkType") + ", " +
                              col("COMMUNICATION_TASK_INFO", "rdmaType") + ", " +
                              col("COMMUNICATION_TASK_INFO", "isMaster") + " FROM COMMUNICATION_TASK_INFO");
  // The transport and link of each task by name, as the text export writes them (SDMA / RDMA /
  // LOCAL; ON_CHIP / HCCS / PCIE / ROCE / SIO ...): the collectives' transit and links need them
  // (docs/diagnosis.md §5.3). Without the enum table the number is kept.
  const auto enumTable = [&](const char* table) {
    std::unordered_map<std::int64_t, std::string> m;
    if (need(table, {"id", "name"})) {
      SqliteStatement e(m_db, std::string("SELECT id, name FROM ") + table);
      while (e.step()) m.emplace(e.integer(0), std::string(e.text(1)));
    }
    return m;
  };
  const auto transportNames = enumTable("ENUM_HCCL_TRANSPORT_TYPE");
  const auto linkNames = enumTable("ENUM_HCCL_LINK_TYPE");
  // rdmaType (RDMA_SEND_PAYLOAD, RDMA_SEND_NOTIFY, ...) and isMaster (newer msprof schemas,
  // msprof_db.cpp): the collectives count RDMA transit and choose the master plane from them
  // (docs/diagnosis.md §5.3); the text export writes neither.
  const auto rdmaNames = enumTable("ENUM_HCCL_RDMA_TYPE");
  const RowArgs::Schema taskSchema = argRows().addSchema({"task type", "op name", "src rank", "dst rank", "size(Byte)", "notify_id",
                                                          "stream id", "transport type", "link type", "rdma type", "is master"});
  const auto enumCell = [&](std::size_t key, int column, const std::unordered_map<std::int64_t, std::string>& names) {
    if (c.isNull(column)) return;
    if (const auto it = names.find(c.integer(column)); it != names.end()) argRows().setText(taskSchema, key, it->second);
    else cell(taskSchema, key, c, column);
  };
  std::size_t skippedNoPlane = 0, skippedBadPlane = 0;
  while (c.step()) {
    const auto tt = m_taskTimes.find(c.integer(0));
    if (tt == m_taskTimes.end()) continue;  // no TASK row: no time
    // Level0 writes no plane (4294967295) and the text export omits the small tasks there (format
    // notes §7, msprof hccl_assembler.h IsLevel0): they stay tasks on their stream only.
    const std::int64_t plane = c.integer(2, 0);
    if (plane == kNoContext) {
      ++skippedNoPlane;
      continue;
    }
    // A plane's lane is its group's base + 1 + plane, the next group's base 1000 further: a plane
    // beyond 0..998 is no plane of this layout (INT64_MAX overflowed base + 1 + plane: found by
    // fuzz_sqlite_reader). Such a task stays on its stream only, and is said.
    if (plane < 0 || plane > 998) {
      ++skippedBadPlane;
      continue;
    }
    const std::int64_t base = baseOf(strOr(c, 3));
    const ThreadId t = m_b.thread(deviceProcess(tt->second.device, kHccl, "HCCL"), base + 1 + plane);
    if (named.insert({tt->second.device, base + 1 + plane}).second) {
      m_b.setThreadName(t, "Plane " + std::to_string(plane));
      m_b.setThreadSortIndex(t, base + 1 + plane);
    }
    const std::uint64_t row = argRows().beginRow(taskSchema);
    cellString(taskSchema, 0, c, 4);
    cellString(taskSchema, 1, c, 1);
    for (int k = 0; k < 4; ++k) cell(taskSchema, 2 + static_cast<std::size_t>(k), c, 5 + k);
    argRows().setInteger(taskSchema, 6, tt->second.stream);
    enumCell(7, 9, transportNames);
    enumCell(8, 10, linkNames);
    // Most tasks are no RDMA task (INVALID_TYPE, N/A): nothing kept for them.
    if (const auto it = c.isNull(11) ? rdmaNames.end() : rdmaNames.find(c.integer(11));
        it != rdmaNames.end() && it->second.starts_with("RDMA_"))
      argRows().setText(taskSchema, 9, it->second);
    cell(taskSchema, 10, c, 12);
    // Named by the task type (Notify_Wait, Memcpy, Reduce_Inline, ...) as the text export names
    // the plane tasks: the `name` column holds the op's name (STRING_IDS, corpus 910B level1).
    const std::string name = c.isNull(4) ? strOr(c, 1) : strOr(c, 4);
    m_b.addSlice(t, tt->second.start, spanNs(tt->second.start, tt->second.end), name, {}, ImportArgs::row(taskSchema, row));
  }
  checkStatement(c, "COMMUNICATION_TASK_INFO");
  if (skippedNoPlane)
    note(std::to_string(skippedNoPlane) + " HCCL tasks without a plane (Level0) are shown on their streams only, "
         "as in the text export");
  if (skippedBadPlane)
    note(std::to_string(skippedBadPlane) + " HCCL tasks with a plane id outside 0-998 are shown on their streams only");
}

void DbReader::readOverlap() {
  m_hasOverlapTable = need("OVERLAP_ANALYSIS", {"startNs", "endNs", "type"});
  if (!m_hasOverlapTable) {
    // Older schemas have no OVERLAP_ANALYSIS (format notes §5.3, §7): computed as torch_npu's
    // StepTraceTime does, whose Communication is the HCCL small tasks or the big ops by build
    // (stepCommunicationFromTasks, Trace::communicationFromTasks).
    const bool fromTasks = stepCommunicationFromTasks();
    m_b.setCommunicationFromTasks(fromTasks);
    for (const int d : m_devices) computeOverlap(d, fromTasks);
    if (!m_devices.empty())
      note(std::string("no OVERLAP_ANALYSIS table: no recorded Overlap Analysis; the lanes \"Overlap Analysis (computed by "
                       "npuscope)\" come from TASK, COMPUTE_TASK_INFO and ") +
           (fromTasks ? "COMMUNICATION_TASK_INFO (the HCCL small tasks: a torch_npu build before 2024-10-24)"
                      : "COMMUNICATION_OP (the HCCL ops: a torch_npu build from 2024-10-24 on)") +
           " as torch_npu's StepTraceTime computes them (format notes §4.1) and are not compared with anything");
    return;
  }
  static const char* kNames[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
  const int soleDevice = m_devices.size() == 1 ? m_devices.front() : -1;
  SqliteStatement s(m_db, "SELECT startNs, endNs, type, " + col("OVERLAP_ANALYSIS", "deviceId") +
                              " FROM OVERLAP_ANALYSIS ORDER BY startNs");
  std::map<std::pair<int, std::int64_t>, ThreadId> lanes;  ///< (device, type) -> lane, named once
  std::pair<int, std::int64_t> lastKey{INT_MIN, -1};
  ThreadId t = 0;
  while (s.step()) {
    const std::int64_t type = s.integer(2, -1);
    if (type < 0 || type > 3) continue;
    const int device = s.isNull(3) ? soleDevice : static_cast<int>(s.integer(3));
    if (const std::pair<int, std::int64_t> key{device, type}; key != lastKey) {
      lastKey = key;
      auto it = lanes.find(key);
      if (it == lanes.end()) {
        it = lanes.emplace(key, m_b.thread(deviceProcess(device, kOverlap, "Overlap Analysis"), type)).first;
        m_b.setThreadName(it->second, kNames[type]);
      } else {
        m_b.countEvent();  // the thread-name record this row gave before (Trace::eventCount unchanged)
      }
      t = it->second;
    } else {
      m_b.countEvent();
    }
    m_b.addSlice(t, s.integer(0), spanNs(s.integer(0), s.integer(1)), kNames[type]);
  }
  checkStatement(s, "OVERLAP_ANALYSIS");
}

/// Which intervals torch_npu's own StepTraceTime unions into Communication for this export:
/// TraceStepTimeDbParser (torch_npu/profiler/analysis/prof_view/prof_db_parse/
/// _trace_step_time_db_parser.py) took COMMUNICATION_TASK_INFO's TASK rows (the HCCL small tasks)
/// until "[PROF] Profiler TraceStepTime table fix" (Ascend/pytorch 7e8ae592b, 2024-10-24, in
/// v6.0.rc3 and v6.0.0.alpha002 on), and COMMUNICATION_OP's ops since. The export names no build:
/// HOST_INFO.hostUid declared INTEGER (TEXT from 2024-09-29) or a session that ended before
/// 2024-10-24T00:00Z means the small tasks; anything else the ops. Corpus: the 910A databases
/// (INTEGER, 2024-09-29) match the tasks, the 910B ones (TEXT, 2025-01-09) the ops, within 1 us.
bool DbReader::stepCommunicationFromTasks() {
  constexpr std::int64_t kFixNs = 1729728000LL * 1000000000LL;  // 2024-10-24T00:00:00Z
  if (m_db.hasTable("HOST_INFO")) {
    SqliteStatement s(m_db, "SELECT type FROM pragma_table_info('HOST_INFO') WHERE name = 'hostUid'");
    if (s.step() && asciiLower(s.text(0)) == "integer") return true;
  }
  if (m_db.hasTable("SESSION_TIME_INFO")) {
    SqliteStatement s(m_db, "SELECT " + col("SESSION_TIME_INFO", "endTimeNs") + ", " + col("SESSION_TIME_INFO", "startTimeNs") +
                                " FROM SESSION_TIME_INFO");
    if (s.step()) {
      const std::int64_t at = s.isNull(0) ? s.integer(1, 0) : s.integer(0);
      if (at > 0 && at < kFixNs) return true;
    }
  }
  return false;
}

void DbReader::computeOverlap(int device, bool fromTasks) {
  // Format notes §4.1 (msprof overlap_analysis_processor.cpp): compute = tasks with a compute
  // record, except HCCL AIV / MC2 AICPU kernels; Free = the device span minus both, the span taken
  // over every task but the host kernel types, extended by both sets. Communication = the HCCL
  // small tasks (COMMUNICATION_TASK_INFO's TASK rows) when `fromTasks` (stepCommunicationFromTasks),
  // else the big ops (COMMUNICATION_OP); each set stands in for the other when the export has none.
  using Iv = std::pair<TimeNs, TimeNs>;
  std::vector<Iv> comp, comm;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (const auto& [id, t] : m_taskTimes) {
    if (t.device != device) continue;
    if (m_computeTasks.count(id)) comp.emplace_back(t.start, t.end);
  }
  if (m_db.hasTable("TASK")) {
    SqliteStatement s(m_db, "SELECT t.startNs, t.endNs, s.value FROM TASK t LEFT JOIN STRING_IDS s ON s.id = t.taskType "
                            "WHERE t.deviceId = " + std::to_string(device));
    static const std::set<std::string_view> kHost = {"KERNEL_AICORE",  "KERNEL_AIVEC",      "FFTS_PLUS",
                                                     "KERNEL_MIX_AIC", "KERNEL_MIX_AIV",    "PROFILING_ENABLE",
                                                     "PROFILING_DISABLE"};
    while (s.step())
      if (!kHost.count(s.text(2))) {
        lo = std::min(lo, s.integer(0));
        hi = std::max(hi, s.integer(1));
      }
  }
  const auto smallTasks = [&] {
    if (!m_db.hasTable("COMMUNICATION_TASK_INFO") || !m_db.hasTable("TASK")) return;
    SqliteStatement s(m_db, "SELECT t.startNs, t.endNs FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON t.globalTaskId = "
                            "c.globalTaskId WHERE t.deviceId = " + std::to_string(device));
    while (s.step()) comm.emplace_back(s.integer(0), s.integer(1));
    checkStatement(s, "COMMUNICATION_TASK_INFO");
  };
  if (fromTasks) smallTasks();
  if (comm.empty() && m_db.hasTable("COMMUNICATION_OP")) {
    SqliteStatement s(m_db, "SELECT startNs, endNs, " + col("COMMUNICATION_OP", "connectionId") + ", " +
                                col("COMMUNICATION_OP", "deviceId") + " FROM COMMUNICATION_OP");
    while (s.step()) {
      int d = s.isNull(3) ? -1 : static_cast<int>(s.integer(3));
      if (d < 0)
        if (const auto it = m_deviceOfConnection.find(s.integer(2, kNoConnection)); it != m_deviceOfConnection.end())
          d = it->second;
      if (d < 0 && m_devices.size() == 1) d = m_devices.front();
      if (d == device) comm.emplace_back(s.integer(0), s.integer(1));
    }
  }
  if (comm.empty() && !fromTasks) smallTasks();
  const auto merge = [](std::vector<Iv> v) {
    std::sort(v.begin(), v.end());
    std::vector<Iv> out;
    for (const Iv& x : v) {
      if (x.second <= x.first) continue;
      if (!out.empty() && x.first <= out.back().second) out.back().second = std::max(out.back().second, x.second);
      else out.push_back(x);
    }
    return out;
  };
  const auto minus = [](const std::vector<Iv>& a, const std::vector<Iv>& b) {
    std::vector<Iv> out;
    std::size_t j = 0;
    for (Iv x : a) {
      while (j < b.size() && b[j].second <= x.first) ++j;
      for (std::size_t k = j; k < b.size() && b[k].first < x.second; ++k) {
        if (b[k].first > x.first) out.emplace_back(x.first, b[k].first);
        x.first = std::max(x.first, b[k].second);
      }
      if (x.first < x.second) out.push_back(x);
    }
    return out;
  };
  const std::vector<Iv> c = merge(comp), m = merge(comm);
  {
    std::vector<TimeRange> tasks;
    tasks.reserve(m.size());
    for (const Iv& v : m) tasks.push_back(TimeRange{v.first, v.second});
    m_b.setCommunicationTasks(device, std::move(tasks));
  }
  std::vector<Iv> both = c;
  both.insert(both.end(), m.begin(), m.end());
  const std::vector<Iv> busy = merge(both);
  if (!busy.empty()) {
    lo = std::min(lo, busy.front().first);
    hi = std::max(hi, busy.back().second);
  }
  static const char* kNames[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
  const std::vector<Iv> sets[4] = {c, m, minus(m, c), lo < hi ? minus({{lo, hi}}, busy) : std::vector<Iv>{}};
  for (int k = 0; k < 4; ++k) {
    if (sets[k].empty()) continue;
    // Not named "Overlap Analysis": the analyses compare their own figures with that process as
    // the profiler's record, and these lanes are npuscope's computation, not a record.
    const ThreadId t = m_b.thread(deviceProcess(device, kOverlap, kComputedOverlapProcess.data()), k);
    m_b.setThreadName(t, kNames[k]);
    for (const Iv& v : sets[k]) m_b.addSlice(t, v.first, spanNs(v.first, v.second), kNames[k]);
  }
}

void DbReader::readCounters() {
  const int soleDevice = m_devices.size() == 1 ? m_devices.front() : 0;
  const auto dev = [&](const SqliteStatement& s, int c) { return s.isNull(c) ? soleDevice : static_cast<int>(s.integer(c)); };
  // NPU_MEM: bytes -> KB, series APP/DDR, APP/HBM, APP/Memory (and Device/...) as the text export.
  if (need("NPU_MEM", {"type", "ddr", "hbm", "timestampNs"})) {
    SqliteStatement s(m_db, "SELECT type, ddr, hbm, timestampNs, " + col("NPU_MEM", "deviceId") + " FROM NPU_MEM");
    while (s.step()) {
      std::string kind = strOr(s, 0);
      if (kind == "app") kind = "APP";
      else if (kind == "device") kind = "Device";
      const ProcessId p = deviceProcess(dev(s, 4), kNpuMem, "NPU MEM");
      const double ddr = s.real(1) / 1024.0, hbm = s.real(2) / 1024.0;
      m_b.addCounter(p, s.integer(3), kind + "/DDR", "KB", ddr);
      m_b.addCounter(p, s.integer(3), kind + "/HBM", "KB", hbm);
      m_b.addCounter(p, s.integer(3), kind + "/Memory", "KB", ddr + hbm);
    }
    checkStatement(s, "NPU_MEM");
  }
  // HBM / DDR bandwidth: B/s -> MB/s (2^20), "HBM {id}/Read" key "Read(MB/s)".
  if (need("HBM", {"timestampNs", "bandwidth", "hbmId", "type"})) {
    SqliteStatement s(m_db, "SELECT timestampNs, bandwidth, hbmId, type, " + col("HBM", "deviceId") + " FROM HBM");
    while (s.step()) {
      const bool read = strOr(s, 3) == "read";
      m_b.addCounter(deviceProcess(dev(s, 4), kHbm, "HBM"), s.integer(0),
                     "HBM " + std::string(s.text(2)) + (read ? "/Read" : "/Write"), read ? "Read(MB/s)" : "Write(MB/s)",
                     s.real(1) / 1048576.0);
    }
    checkStatement(s, "HBM");
  }
  if (need("DDR", {"timestampNs", "read", "write"})) {
    SqliteStatement s(m_db, "SELECT timestampNs, read, write, " + col("DDR", "deviceId") + " FROM DDR");
    while (s.step()) {
      const ProcessId p = deviceProcess(dev(s, 3), kDdr, "DDR");
      m_b.addCounter(p, s.integer(0), "Read", "Read(MB/s)", s.real(1));
      m_b.addCounter(p, s.integer(0), "Write", "Write(MB/s)", s.real(2));
    }
    checkStatement(s, "DDR");
  }
  if (need("LLC", {"timestampNs", "llcId", "hitRate", "throughput", "mode"})) {
    SqliteStatement s(m_db, "SELECT timestampNs, llcId, hitRate, throughput, mode, " + col("LLC", "deviceId") + " FROM LLC");
    while (s.step()) {
      std::string mode = strOr(s, 4);
      if (!mode.empty()) mode[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(mode[0])));
      const ProcessId p = deviceProcess(dev(s, 5), kLlc, "LLC");
      const std::string base = "LLC " + std::string(s.text(1)) + " " + mode;
      m_b.addCounter(p, s.integer(0), base + "/Hit Rate", "Hit Rate(%)", s.real(2));
      m_b.addCounter(p, s.integer(0), base + "/Throughput", "Throughput(MB/s)", s.real(3) / 1048576.0);
    }
    checkStatement(s, "LLC");
  }
  if (need("AICORE_FREQ", {"timestampNs", "freq"})) {
    SqliteStatement s(m_db, "SELECT CAST(timestampNs AS INTEGER), freq, " + col("AICORE_FREQ", "deviceId") +
                                " FROM AICORE_FREQ ORDER BY 1");
    while (s.step())
      m_b.addCounter(deviceProcess(dev(s, 2), kAiCoreFreq, "AI Core Freq"), s.integer(0), "AI Core Freq", "MHz", s.real(1));
    checkStatement(s, "AICORE_FREQ");
  }
  if (need("ACC_PMU", {"timestampNs", "readBwLevel", "writeBwLevel", "readOstLevel", "writeOstLevel"})) {
    SqliteStatement s(m_db, "SELECT CAST(timestampNs AS INTEGER), readBwLevel, writeBwLevel, readOstLevel, writeOstLevel, " +
                                col("ACC_PMU", "deviceId") + " FROM ACC_PMU");
    static const char* kNames[] = {"read_bandwidth", "write_band_width", "read_ost", "write_ost"};
    while (s.step())
      for (int k = 0; k < 4; ++k)
        m_b.addCounter(deviceProcess(dev(s, 5), kAccPmu, "Acc PMU"), s.integer(0), kNames[k], "value", s.real(1 + k));
    checkStatement(s, "ACC_PMU");
  }
  if (need("SOC_BANDWIDTH_LEVEL", {"timestampNs", "l2BufferBwLevel", "mataBwLevel"})) {
    SqliteStatement s(m_db, "SELECT CAST(timestampNs AS INTEGER), l2BufferBwLevel, mataBwLevel, " +
                                col("SOC_BANDWIDTH_LEVEL", "deviceId") + " FROM SOC_BANDWIDTH_LEVEL");
    while (s.step()) {
      const ProcessId p = deviceProcess(dev(s, 3), kStarsSoc, "Stars Soc Info");
      m_b.addCounter(p, s.integer(0), "L2 Buffer Bw Level", "L2 Buffer Bw Level", s.real(1));
      m_b.addCounter(p, s.integer(0), "Mata Bw Level", "Mata Bw Level", s.real(2));
    }
    checkStatement(s, "SOC_BANDWIDTH_LEVEL");
  }
}

namespace {
/// Sorts (key, value) pairs by key, keeping the read order of equal keys.
template <typename V>
void sortByKey(std::vector<std::pair<std::int64_t, V>>& v) {
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}
/// The values of `key` in a vector sorted by sortByKey, in read order (an empty range if none).
template <typename V>
std::pair<const std::pair<std::int64_t, V>*, const std::pair<std::int64_t, V>*> valuesOf(
    const std::vector<std::pair<std::int64_t, V>>& v, std::int64_t key) {
  const auto lo = std::lower_bound(v.begin(), v.end(), key, [](const auto& e, std::int64_t k) { return e.first < k; });
  auto hi = lo;
  while (hi != v.end() && hi->first == key) ++hi;
  return {v.data() + (lo - v.begin()), v.data() + (hi - v.begin())};
}
}  // namespace

void DbReader::buildFlows() {
  const auto flow = [&](const HostRow& from, const DeviceEnd& to, const char* cat, std::string_view name) {
    const std::uint64_t id = m_nextFlow++;
    m_b.addFlowOut(from.thread, from.start, id, cat, name);
    m_b.addFlowIn(to.thread, to.start, id, cat, name);
  };
  sortByKey(m_taskEnds);
  sortByKey(m_opEnds);
  // The device ends of a connection id: the HCCL big op when there is one (its small tasks share
  // the id), else the shown tasks (format notes §5.4); each in read order.
  const auto deviceEnds = [&](std::int64_t c) {
    const auto ops = valuesOf(m_opEnds, c);
    return ops.first != ops.second ? ops : valuesOf(m_taskEnds, c);
  };
  // HostToDevice: CANN_API row (the first one of a connectionId) -> device ends of its connectionId.
  sortByKey(m_cannConnections);
  std::string name;
  for (std::size_t i = 0; i < m_cannConnections.size(); ++i) {
    const auto& [c, row] = m_cannConnections[i];
    if (i && m_cannConnections[i - 1].first == c) continue;
    const auto ends = deviceEnds(c);
    if (ends.first == ends.second) continue;
    name.assign("HostToDevice").append(std::to_string(c));
    for (auto e = ends.first; e != ends.second; ++e) flow(row, e->second, "HostToDevice", name);
  }
  // PYTORCH_API connections through CONNECTION_IDS(id, connectionId): (connectionId, row) in the
  // order of the rows and, for one row, of CONNECTION_IDS.
  std::vector<std::pair<std::int64_t, std::int64_t>> ids;  ///< (id, connectionId)
  if (m_connectionRows) {
    SqliteRowStream& s = *m_connectionRows;
    while (s.step()) ids.emplace_back(s.integer(0), s.integer(1));
    checkStatement(s, "CONNECTION_IDS");
  }
  sortByKey(ids);
  std::vector<std::pair<std::int64_t, HostRow>> byConnection;
  byConnection.reserve(m_pythonConnections.size());
  for (const auto& [id, row] : m_pythonConnections) {
    const auto cs = valuesOf(ids, id);
    for (auto c = cs.first; c != cs.second; ++c) byConnection.emplace_back(c->second, row);
  }
  sortByKey(byConnection);
  std::vector<HostRow> rows;
  for (std::size_t i = 0; i < byConnection.size();) {
    const std::int64_t c = byConnection[i].first;
    std::size_t j = i;
    rows.clear();
    for (; j < byConnection.size() && byConnection[j].first == c; ++j) rows.push_back(byConnection[j].second);
    i = j;
    if (const auto ends = deviceEnds(c); ends.first != ends.second) {
      for (const HostRow& r : rows)
        for (auto e = ends.first; e != ends.second; ++e) flow(r, e->second, "async_npu", "torch_to_npu");
      continue;
    }
    if (rows.size() < 2) continue;
    std::stable_sort(rows.begin(), rows.end(), [](const HostRow& a, const HostRow& b) { return a.start < b.start; });
    const auto enq = std::find_if(rows.begin(), rows.end(), [](const HostRow& r) { return r.enqueue; });
    if (enq != rows.end()) {
      for (const HostRow& r : rows)
        if (!r.enqueue) flow(*enq, {r.thread, r.start}, "async_task_queue", "enqueue_to_dequeue");
    } else {
      for (std::size_t k = 1; k < rows.size(); ++k) flow(rows.front(), {rows[k].thread, rows[k].start}, "fwdbwd", "fwdbwd");
    }
  }
  // MsTx: MSTX_EVENTS.connectionId = TASK.connectionId.
  for (const auto& [c, row] : m_mstxConnections) {
    const auto ends = valuesOf(m_taskEnds, c);
    if (ends.first == ends.second) continue;
    name.assign("MsTx_").append(std::to_string(c));
    for (auto e = ends.first; e != ends.second; ++e) flow(row, e->second, "MsTx", name);
  }
}

void DbReader::readKernels() {
  if (!need("TASK", {"startNs", "endNs", "globalTaskId"}) || !need("COMPUTE_TASK_INFO", {"globalTaskId", "name"})) return;
  CsvTable t;
  t.header = {"Device_id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "Accelerator Core",
              "Start Time(us)", "Duration(us)", "Block Dim", "Input Shapes", "Context ID"};
  const bool wait = m_db.hasColumn("COMPUTE_TASK_INFO", "waitNs");
  if (wait) t.header.emplace_back("Wait Time(us)");
  // The shapes' companions (formats, data types, output shapes: STRING_IDS ids, format notes
  // §5.3) when the schema has them: the advisor's TFLOPS rule reads the dtype and the output
  // shape as it does in kernel_details.csv.
  std::string extra;
  std::size_t extras = 0;
  for (const auto& [column, header] : {std::pair{"inputFormats", "Input Formats"}, {"inputDataTypes", "Input Data Types"},
                                       {"outputShapes", "Output Shapes"}, {"outputFormats", "Output Formats"},
                                       {"outputDataTypes", "Output Data Types"}})
    if (m_db.hasColumn("COMPUTE_TASK_INFO", column)) {
      extra += std::string(", c.") + column;
      t.header.emplace_back(header);
      ++extras;
    }
  SqliteStatement s(m_db, "SELECT t.deviceId, t.modelId, t.taskId, t.streamId, c.name, " +
                              std::string(m_db.hasColumn("COMPUTE_TASK_INFO", "opType") ? "c.opType" : "NULL") + ", " +
                              std::string(m_db.hasColumn("COMPUTE_TASK_INFO", "taskType") ? "c.taskType" : "NULL") +
                              ", t.startNs, t.endNs, " +
                              (m_db.hasColumn("COMPUTE_TASK_INFO", "blockDim")   ? std::string("c.blockDim")
                               : m_db.hasColumn("COMPUTE_TASK_INFO", "blockNum") ? std::string("c.blockNum")
                                                                                 : std::string("NULL")) +
                              ", " + (m_db.hasColumn("COMPUTE_TASK_INFO", "inputShapes") ? "c.inputShapes" : "NULL") +
                              ", t.contextId, " + (wait ? "c.waitNs" : "NULL") + extra +
                              ", c.globalTaskId FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId ORDER BY t.startNs");
  // Level1's PipeUtilization metrics, one row per (task, metric) in TASK_PMU_INFO: the *_ratio
  // ones become kernel_details.csv's aic_*_ratio / aiv_*_ratio columns (the bound type reads them).
  std::map<std::string, std::size_t> pmuColumn;
  std::unordered_map<std::int64_t, std::vector<std::pair<std::size_t, double>>> pmu;
  if (m_db.hasTable("TASK_PMU_INFO") && m_db.hasColumn("TASK_PMU_INFO", "globalTaskId") &&
      m_db.hasColumn("TASK_PMU_INFO", "name") && m_db.hasColumn("TASK_PMU_INFO", "value")) {
    SqliteStatement p(m_db, "SELECT globalTaskId, name, value FROM TASK_PMU_INFO");
    while (p.step()) {
      const std::string_view metric = strView(p, 1);
      if (!metric.ends_with("_ratio")) continue;
      auto [it, added] = pmuColumn.emplace(std::string(metric), pmuColumn.size());
      pmu[p.integer(0)].emplace_back(it->second, p.real(2));
    }
    checkStatement(p, "TASK_PMU_INFO");
  }
  const std::size_t pmuFirst = t.header.size();  // after the extras, whose headers are in already
  std::vector<std::string> pmuNames(pmuColumn.size());
  for (const auto& [name, k] : pmuColumn) pmuNames[k] = name;
  for (const std::string& n : pmuNames) t.header.push_back(n);
  while (s.step()) {
    std::vector<std::string> row = {std::string(s.text(0)), std::string(s.text(1)), std::string(s.text(2)),
                                    std::string(s.text(3)), strOr(s, 4), strOr(s, 5), strOr(s, 6),
                                    nsToUs(s.integer(7)), (spanNs(s.integer(7), s.integer(8)) < 0 ? std::string("N/A") : nsToUs(s.integer(8) - s.integer(7))), std::string(s.text(9)),
                                    strOr(s, 10), std::string(s.text(11))};
    if (wait) row.push_back(s.isNull(12) ? std::string("N/A") : nsToUs(s.integer(12)));
    for (std::size_t e = 0; e < extras; ++e) row.push_back(strOr(s, static_cast<int>(13 + e)));
    if (!pmuNames.empty()) {
      row.resize(pmuFirst + pmuNames.size());
      if (const auto it = pmu.find(s.integer(static_cast<int>(13 + extras))); it != pmu.end())
        for (const auto& [k, v] : it->second) {
          char b[32];
          std::snprintf(b, sizeof b, "%.3f", v);
          row[pmuFirst + k] = b;
        }
    }
    t.rows.push_back(std::move(row));
  }
  checkStatement(s, "COMPUTE_TASK_INFO");
  m_out.kernelDetails = std::move(t);
}

bool DbReader::read(Trace& trace) {
  startStreams();
  readStrings();
  progress(0.1);
  readPython();
  if (cancelled()) return false;
  readCann();
  readGc();
  readMstx();
  progress(0.4);
  readTasks();
  readCommunication();
  if (cancelled()) return false;
  readOverlap();
  readCounters();
  buildFlows();
  releaseFlowMaps();
  if (m_tables) readKernels();
  progress(0.7);
  if (cancelled()) return false;
  if (need("RANK_DEVICE_MAP", {"rankId"})) {
    SqliteStatement s(m_db, "SELECT rankId FROM RANK_DEVICE_MAP");
    if (s.step() && !s.isNull(0) && s.integer(0) >= 0 && s.integer(0) <= INT32_MAX) m_b.setRank(static_cast<int>(s.integer(0)));
  }
  if (!m_db.hasTable("PYTORCH_API") && !m_db.hasTable("TASK") && !m_db.hasTable("CANN_API"))
    note("none of the timeline tables (PYTORCH_API, CANN_API, TASK) is in this database: nothing to show");
  const unsigned threads = m_options.threads ? m_options.threads : 2;
  return m_b.finish(trace, {m_options.stop, m_options.device, threads, m_options.summaryLevels});
}

/// analysis.db CommAnalyzerTime and CommAnalyzerBandwidth -> communication.json's time and
/// bandwidth info per op (db_tables.h).
void readCommAnalyzerTime(SqliteDb& db, DbImport& out) { out.communication = readCommAnalyzer(db); }

/// analysis.db StepTraceTime -> step_trace_time.csv columns (format notes §4.2, §5.3).
void readStepTraceTime(const std::string& path, int device, DbImport& out) {
  SqliteDb db;
  std::string error;
  if (!db.open(path, error)) {
    out.messages.push_back(error);
    return;
  }
  if (!db.hasTable("StepTraceTime")) {
    out.messages.push_back("analysis.db has no StepTraceTime table: no recorded step figures");
    readCommAnalyzerTime(db, out);
    return;
  }
  static const std::pair<const char*, const char*> kColumns[] = {
      {"step", "Step"},
      {"computing", "Computing"},
      {"communication_not_overlapped", "Communication(Not Overlapped)"},
      {"overlapped", "Overlapped"},
      {"communication", "Communication"},
      {"free", "Free"},
      {"stage", "Stage"},
      {"bubble", "Bubble"},
      {"communication_not_overlapped_and_exclude_receive", "Communication(Not Overlapped and Exclude Receive)"},
      {"preparing", "Preparing"}};
  CsvTable t;
  std::string sql = "SELECT " + std::string(db.hasColumn("StepTraceTime", "deviceId") ? "deviceId" : "NULL");
  t.header.emplace_back("Device_id");
  for (const auto& [dbName, csvName] : kColumns)
    if (db.hasColumn("StepTraceTime", dbName)) {
      sql += std::string(", \"") + dbName + "\"";
      t.header.emplace_back(csvName);
    }
  SqliteStatement s(db, sql + " FROM StepTraceTime");
  while (s.step()) {
    std::vector<std::string> row;
    row.push_back(s.isNull(0) ? std::to_string(device) : std::string(s.text(0)));
    for (std::size_t c = 1; c < t.header.size(); ++c) row.emplace_back(s.text(static_cast<int>(c)));
    t.rows.push_back(std::move(row));
  }
  if (!s.error().empty()) out.messages.push_back("analysis.db StepTraceTime: " + s.error());
  out.stepTraceTime = std::move(t);
  readCommAnalyzerTime(db, out);
}

}  // namespace

DbImport readAscendDb(const std::string& dbPath, const std::string& analysisDbPath, const LoadOptions& options,
                      bool tables) {
  DbImport out;
  SqliteDb db;
  std::string error;
  if (!db.open(dbPath, error)) {
    out.result.error = error;
    return out;
  }
  auto trace = std::make_shared<Trace>();
  trace->path = dbPath;
  std::error_code ec;
  const auto size = std::filesystem::file_size(dbPath, ec);
  trace->fileBytes = ec ? 0 : size;
  DbReader reader(db, dbPath, options, tables, out);
  if (!reader.read(*trace)) {
    out.result.error = "cancelled";
    return out;
  }
  if (!analysisDbPath.empty()) readStepTraceTime(analysisDbPath, trace->deviceId(), out);
  if (tables && db.hasTable("NPU_INFO") && db.hasColumn("NPU_INFO", "id") && db.hasColumn("NPU_INFO", "name")) {
    SqliteStatement s(db, "SELECT id, name FROM NPU_INFO ORDER BY id");
    const int device = trace->deviceId();
    while (s.step()) {
      if (s.isNull(1)) continue;
      const bool mine = !s.isNull(0) && device >= 0 && s.integer(0) == device;
      if (out.chip.empty() || mine) out.chip = std::string(s.text(1));
      if (mine) break;
    }
  }
  if (options.progress) options.progress(1.0);
  out.result.trace = std::move(trace);
  return out;
}

}  // namespace npuscope::core
