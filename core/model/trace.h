// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/import_stats.h"
#include "core/model/row_args.h"
#include "core/model/lane_column.h"
#include "core/model/lane_lod.h"
#include "core/base/string_pool.h"
#include "core/base/types.h"

namespace npuscope::core {

class MappedFile;

/// A process of the trace (one `pid`). pids are opaque keys: a number (possibly above 2^53) or
/// a string label; numeric 1 and string "1" are distinct processes (documented policy, as in
/// Perfetto). Events with a null/boolean pid go to a fallback process named "(invalid pid)".
struct Process {
  std::int64_t pid = 0;          ///< numeric pid, or 0 when the pid was a string
  std::string pidText;           ///< the pid as written when it was a string, else empty
  std::string name;              ///< process_name metadata, else the pid as text
  std::string label;             ///< process_labels metadata ("NPU 0", "CPU"), may be empty
  std::optional<std::int64_t> sortIndex;  ///< process_sort_index when valid
  /// The k of a "NPU k" label; for a plain "NPU" label (older CANN / msprof, format notes §2.3)
  /// the rank's own device (LoadOptions::device, else deviceFromTracePath), the same for every
  /// such process of the file; the k of a Kineto "GPU k" label, or the numeric pid of a Kineto
  /// "Ascend NPU" process (Kineto writes device activity under pid = device index); else -1.
  /// An Ascend pid is never decoded.
  int deviceId = -1;
  /// Role of the process in an Ascend profile, from its name (see classifyProcess). In a
  /// PyTorch Kineto trace (format notes §6.1) a process labelled "GPU k" or "Ascend NPU" is a
  /// KinetoDevice (its threads are streams; the device is k, else the numeric pid), and the
  /// processes labelled "CPU" of such a trace are Python (cpu_op, cuda_runtime /
  /// privateuse1_runtime launches, python_function): see assignRolesAndDevices.
  enum class Role : std::uint8_t {
    Other, Python, PythonGc, Cann, AscendHardware, Communication, OverlapAnalysis, Counter, KinetoDevice
  } role = Role::Other;
};

/// Slice flags (Lane::flags).
enum SliceFlag : std::uint8_t {
  kSliceUnfinished = 1,     ///< a B never ended: end is the trace end, the duration is unknown
  kSlicePartialOverlap = 2, ///< overlaps an earlier slice on its thread without nesting
  kSliceInstant = 4,        ///< an instant event (i/I), stored as a zero-length slice
  /// Overlaps an earlier slice on its thread without nesting, as the import counts only as
  /// information (ImportStats::informational: a device task under 1 us over the previous one,
  /// communication tasks running at once on one stream): placed below like a partial overlap, but
  /// not drawn as an alarm (issue 42 item 4).
  kSliceMinorOverlap = 8,
};

/// One thread (pid, tid) of the trace with its slices, in compact sorted columns.
///
/// Layout: the slices of depth d occupy indices [rowBegin[d], rowBegin[d+1]) of every column.
/// Inside one depth row slices are sorted by start and pairwise disjoint (half-open), so both
/// `start` and `end` are sorted there and one lower_bound culls a row. Depth follows the nesting
/// rule of SliceBuilder: sort by (start asc, dur desc, file order), a slice is the child of the
/// innermost open slice whose end is after its start; a slice that starts inside a parent but
/// ends after it is kept, placed below, and flagged kSlicePartialOverlap.
struct Lane {
  std::uint32_t process = 0;       ///< index into Trace::processes
  std::int64_t tid = 0;            ///< numeric tid (0 when the tid was a string)
  std::string tidText;             ///< the tid as written when it was a string
  std::string name;                ///< thread_name metadata, else "Thread {tid}" / the string
  std::optional<std::int64_t> sortIndex;  ///< thread_sort_index when valid

  // Hot columns (LaneColumn: std::vector's interface in 16 bytes, a one-slice lane's values
  // held inside the column; issue 27 item 3).
  LaneColumn<TimeNs> start;        ///< ns
  LaneColumn<TimeNs> end;          ///< ns, >= start
  LaneColumn<NameId> names;        ///< slice names (Trace::strings)
  // Cold columns.
  LaneColumn<NameId> categories;   ///< `cat`, kEmptyName if absent
  LaneColumn<std::uint64_t> argsOffset;  ///< byte offset of the `args` object in the file, or kOwnedArgs | offset in Trace::ownedArgs, or kRowArgs | row of Trace::rowArgs
  LaneColumn<std::uint32_t> argsLength;  ///< its length in bytes (for kRowArgs: the RowArgs schema + 1), 0 if no args
  LaneColumn<std::uint8_t> flags;  ///< SliceFlag bits
  LaneColumn<std::uint32_t> rowBegin{0};  ///< depthCount()+1 entries
  /// Summary levels of the depth rows for zoomed-out drawing (core::buildTraceLod, run by
  /// loadTrace); empty for a lane built by hand. Counted in memoryBytes().
  LaneLod lod;

  [[nodiscard]] std::size_t sliceCount() const { return start.size(); }
  [[nodiscard]] std::uint32_t depthCount() const {
    return static_cast<std::uint32_t>(rowBegin.size() - 1);
  }
  /// Depth of slice `index` (binary search over rowBegin, O(log depth)).
  [[nodiscard]] std::uint32_t depthOf(std::uint32_t index) const;
  /// The deepest slice containing `t` (start <= t < end, or start == end == t), or kInvalidIndex.
  [[nodiscard]] std::uint32_t enclosingSlice(TimeNs t) const;
  /// The first slice (at any depth, preferring depth 0) starting at or after `t`, or
  /// kInvalidIndex. Used for flows without bp:"e" (chrome://tracing's next-slice binding).
  [[nodiscard]] std::uint32_t nextSlice(TimeNs t) const;
  /// Self time of slice `index`: its duration minus the union of its direct children, ns.
  [[nodiscard]] TimeNs selfTime(std::uint32_t index) const;
  /// Memory held by the columns, bytes.
  [[nodiscard]] std::size_t memoryBytes() const;
};

/// Set in Lane::argsOffset when the args are owned by the trace (Trace::ownedArgs: key/values a
/// reader gave, e.g. from a database row) rather than a byte range of the mapped file.
inline constexpr std::uint64_t kOwnedArgs = std::uint64_t{1} << 63;
/// Set in Lane::argsOffset when the args are a row of Trace::rowArgs (a database row kept as
/// packed columns, core/model/row_args.h): the low 40 bits are the row, Lane::argsLength is the
/// RowArgs schema + 1. Read them with sliceArg / sliceArgs / sliceArgsJson (argsText gives "").
inline constexpr std::uint64_t kRowArgs = std::uint64_t{1} << 62;

/// A flow arrow between two slices (both ends bound). Categories as written in `cat`
/// (async_npu, HostToDevice, async_task_queue, fwdbwd, MsTx, ...).
struct Flow {
  NameId category = kEmptyName;
  /// The flow's name; kEmptyName when it had none, or when it was its category followed by its
  /// numeric id (torch_npu's "HostToDevice263": one distinct string per flow, not kept;
  /// detail::kFlowNameIsCategoryAndId).
  NameId name = kEmptyName;
  SliceRef from;      ///< the slice bound to the `s` event
  SliceRef to;        ///< the slice bound to the `f` event
  TimeNs fromTs = 0;  ///< ts of the `s` event, ns
  TimeNs toTs = 0;    ///< ts of the `f` event, ns
};

/// A flow whose end is bound but whose start is not: its `s` lies on a thread without slices,
/// e.g. Level0 HostToDevice flows whose CANN layer the profiler pruned (format notes §2.1). The
/// start's OS thread id and timestamp still locate the launch (the Dequeue on that thread).
struct UnboundStartFlow {
  NameId category = kEmptyName;
  std::int64_t fromTid = 0;  ///< numeric tid of the `s` event
  TimeNs fromTs = 0;         ///< ts of the `s` event, ns
  SliceRef to;               ///< the slice bound to the `f` event
  TimeNs toTs = 0;
  NameId name = kEmptyName;  ///< the flow's name, as Flow::name (kEmptyName for HostToDevice{id})
  /// The start is on a pid without process_name metadata in a trace without a CANN process:
  /// a Level0 capture, whose CANN layer torch_npu prunes (format notes §2.1). Expected, so it
  /// is not counted as an import warning.
  bool prunedCann = false;
};

/// One counter series of a process: the `C` events named `name`, key `key` of their args.
/// Counter tracks are process-scoped (the tid is ignored, as in chrome://tracing).
/// A value holds until the next sample (last value held to the trace end).
struct CounterSeries {
  std::uint32_t process = 0;
  NameId name = kEmptyName;   ///< the event name (plus " [id]" when the event had an id)
  NameId key = kEmptyName;    ///< the args key ("MHz", "KB", "value", ...)
  std::vector<TimeNs> ts;     ///< sorted, ns
  std::vector<double> value;
  /// Block maxima of `value` for zoomed-out drawing (core::buildTraceLod, run by loadTrace);
  /// empty for a series built by hand. Counted in Trace::memoryBytes().
  CounterLod lod;
};

/// An immutable, fully indexed trace of one file (one rank). Built by loadTrace; shared between
/// threads as shared_ptr<const Trace> without locks.
class Trace {
 public:
  Trace();
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  std::string path;                    ///< the file read
  std::vector<Process> processes;      ///< in display order (see sortForDisplay)
  std::vector<Lane> lanes;             ///< grouped by process, in display order
  std::vector<Flow> flows;             ///< bound flows, sorted by fromTs
  std::vector<UnboundStartFlow> unboundStarts;  ///< flows with only the end bound, sorted by fromTs
  std::vector<std::uint32_t> flowsByFrom;  ///< indices into flows, sorted by (from.lane, from.index)
  std::vector<std::uint32_t> flowsByTo;    ///< indices into flows, sorted by (to.lane, to.index)
  /// Every kFlowKeyStride-th entry of flowsByFrom / flowsByTo as the key (lane << 32 | index) of
  /// its slice, so that a lookup first searches this small array (it stays in the cache) and
  /// then at most kFlowKeyStride entries of the index, not ~20 scattered Flow records (issue 43:
  /// the lookups were a fifth of the dispatch statistics on 1.1 M flows). Built by indexFlows;
  /// without them (another size) a lookup searches the whole index.
  std::vector<std::uint64_t> flowsByFromKeys, flowsByToKeys;
  static constexpr std::size_t kFlowKeyStride = 32;
  std::vector<CounterSeries> counters; ///< grouped by process, then name, key
  StringPool strings;
  ImportStats stats;
  TimeRange range;                     ///< min start .. max end over slices and flows (counters only when there are no slices)
  std::uint64_t eventCount = 0;        ///< JSON events read (all phases)
  std::uint64_t fileBytes = 0;
  std::optional<int> rankFromFile;     ///< Kineto distributedInfo.rank, when present
  std::optional<std::int64_t> baseTimeNanoseconds;  ///< Kineto baseTimeNanoseconds
  std::string traceName;               ///< Kineto traceName, when present
  std::vector<std::string> notes;      ///< informational messages ("0 events", ...)
  /// The export's own Communication figure is the union of the HCCL small tasks (the Plane lanes'
  /// slices and the planeless hcom tasks on the streams), not of the big ops: set by the database
  /// reader for an export without OVERLAP_ANALYSIS whose torch_npu build computes analysis.db's
  /// StepTraceTime that way (builds before 2024-10-24, DbReader::stepCommunicationFromTasks; corpus
  /// ascend-pt-910a-db-2rank: 18,903.303 us of tasks against 22,665.868 us of ops on Level1 rank 1). The Top-Down analysis then takes Communication from those tasks
  /// (docs/diagnosis.md §1).
  bool communicationFromTasks = false;
  /// With communicationFromTasks: per device, the union of its HCCL small tasks (sorted, disjoint,
  /// ns), as the reader found them (COMMUNICATION_TASK_INFO's TASK rows, with or without a plane).
  std::vector<std::pair<int, std::vector<TimeRange>>> communicationTasks;
  std::string ownedArgs;               ///< args objects (JSON text) that are not in the file (see kOwnedArgs)
  RowArgs rowArgs;                     ///< args of database rows as packed columns (see kRowArgs)
  /// Indices the analyses derive from the loaded data on first use, each built once under
  /// std::call_once, so a const Trace stays shareable between threads without locks.
  struct Derived {
    std::once_flag externalIdsOnce;
    /// Kineto `cpu_op` slices by their args "External id" (torch's correlation of an op with its
    /// runtime calls, format notes §6.1), sorted by id: built by detail::kinetoIssuingOp.
    std::vector<std::pair<std::int64_t, SliceRef>> opsByExternalId;
  };
  mutable Derived derived;

  [[nodiscard]] std::string_view name(NameId id) const { return strings.view(id); }
  [[nodiscard]] std::string_view sliceName(SliceRef r) const {
    return strings.view(lanes[r.lane].names[r.index]);
  }
  [[nodiscard]] TimeRange sliceRange(SliceRef r) const {
    return {lanes[r.lane].start[r.index], lanes[r.lane].end[r.index]};
  }
  /// Indices (into flows) of the flows that start / end at slice `r`. O(log flows) once
  /// indexFlows() ran (the loader does), else a scan.
  [[nodiscard]] std::vector<std::uint32_t> flowsFrom(SliceRef r) const;
  [[nodiscard]] std::vector<std::uint32_t> flowsTo(SliceRef r) const;
  /// True once indexFlows() ran (the loader does): flowsFromRange / flowsToRange may be used.
  [[nodiscard]] bool flowsIndexed() const { return flowsByFrom.size() == flows.size() && flowsByTo.size() == flows.size(); }
  /// The positions [first, last) in flowsByFrom / flowsByTo of the flows that start / end at
  /// slice `r`: O(log flows) without allocating. {0, 0} unless flowsIndexed().
  [[nodiscard]] std::pair<std::size_t, std::size_t> flowsFromRange(SliceRef r) const;
  [[nodiscard]] std::pair<std::size_t, std::size_t> flowsToRange(SliceRef r) const;
  /// Builds flowsByFrom / flowsByTo (called once by the loader).
  void indexFlows();
  /// The raw JSON text of a slice's `args` object ("" when absent): in the mapped file, or in
  /// ownedArgs (kOwnedArgs). Parsed on demand only. "" for args kept in rowArgs (kRowArgs):
  /// sliceArgsJson (core/model/slice_args.h) gives every kind as JSON text.
  [[nodiscard]] std::string_view argsText(SliceRef r) const;
  /// Total slices over all lanes.
  [[nodiscard]] std::size_t sliceCount() const;
  /// Device id of the trace: the first process with a device (Process::deviceId), else -1.
  [[nodiscard]] int deviceId() const;
  /// Approximate resident bytes of the loaded trace (columns, strings, flows, counters, the
  /// args copied out of a gzip file), not counting the memory-mapped file.
  [[nodiscard]] std::size_t memoryBytes() const;

  /// Kept for lazy args (the first file of several): the mapped file, or for a gzip file the
  /// args texts of its slices copied out while it was read (MappedFile::fromCopiedArgs).
  std::shared_ptr<const MappedFile> file;

  /// A file after the first of a trace read from several files (loadTraceFiles). The args
  /// offsets of its slices are shifted by `base`, the summed byte sizes (MappedFile::bytes) of
  /// the files before it, so one 64-bit offset names both the file and the place in it and the
  /// slice records stay as they are.
  struct MoreFile {
    std::uint64_t base = 0;
    std::shared_ptr<const MappedFile> file;
    std::string path;
  };
  /// The files after `file`, by increasing base; empty for a one-file trace (the usual case:
  /// argsText then never looks at it).
  std::vector<MoreFile> moreFiles;
};

/// Progress callback: fraction done in [0,1]. Called from the loading thread(s); must be cheap.
using ProgressFn = std::function<void(double)>;

/// What is known of a trace while its events are still being read, for drawing the first pixels
/// (ruler and lane headers) before the load ends. Grows monotonically during one load.
struct LoadPreview {
  /// One thread seen so far (a future lane). Texts are as written in the file.
  struct Track {
    std::string pid;          ///< pid as text ("2001", or the string pid)
    std::string tid;          ///< tid as text
    std::string processName;  ///< process_name metadata, empty when not seen (yet)
    std::string threadName;   ///< thread_name metadata, empty when not seen (yet)
    std::optional<std::int64_t> processSortIndex, threadSortIndex;
  };
  TimeNs minTs = 0, maxTs = 0;  ///< ns, time range of the timed events read so far
  bool hasRange = false;        ///< false until a timed event was read
  std::vector<Track> tracks;    ///< in order of discovery (first worker first)
  double fraction = 0;          ///< bytes read / event bytes, [0,1]
  std::uint64_t events = 0;     ///< events read so far
};
/// Preview callback: called from the loading thread (the one that calls loadTrace), at most
/// about every 100 ms and only when the preview changed, during the read phase, and once more
/// when the read phase ends (fraction 1). Not called after a cancel.
using PreviewFn = std::function<void(const LoadPreview&)>;

struct LoadOptions {
  /// Device of the processes labelled plain "NPU" (no number: older CANN / msprof, format notes
  /// §2.3), e.g. from the PROF_*/device_N folder or the rank (loadProfile sets it). -1: taken from
  /// the file's path (deviceFromTracePath), else -1 for every such process.
  int device = -1;
  /// Parser threads, 0 = hardware concurrency (at most 8). A gzip file is parsed by one thread
  /// while a second inflates it (detail::readTraceEventsStreamed), whatever this is.
  unsigned threads = 0;
  /// Fewest bytes of the event array per parse part (bytes): a file is split into at most
  /// size / minPartBytes parts, because below ~1 MiB a thread costs more than it saves. Tests set
  /// it small to split small real traces into 8 parts.
  std::size_t minPartBytes = 1u << 20;
  /// true: each event goes through the fast scanner and only what it declines through simdjson;
  /// false: simdjson for every event (the reference path, for tests and bench --simdjson-only).
  /// The result is the same either way.
  bool fastScanner = true;
  /// Which export loadProfile reads for a rank that has both a trace_view.json and the SQLite
  /// export (`ascend_*_profiler_{rank}.db`): Auto and Text take the text (the default, with a
  /// message saying so), Db the database. A rank with only one of them loads that one.
  enum class Source : std::uint8_t { Auto, Text, Db } source = Source::Auto;
  /// Which capture loadProfile loads when the folder holds several (discoverProfile): a
  /// CaptureInfo::name or its 1-based number; empty = the newest.
  std::string capture;
  /// Most bytes a gzip trace may inflate to (issue 15 item 6: deflate reaches about 1032:1, a
  /// 1 MB gzip bomb is 1 GB of text); 0 = the default, 256 times the compressed size and at least
  /// 64 MiB (gzipInflateLimit, core/base/gzip_stream.h, which says why it bounds time, not
  /// memory, now that the text is streamed). Past it the events inflated so far are kept and a
  /// GzipLimit warning says where reading stopped.
  std::uint64_t gzipMaxInflatedBytes = 0;
  /// false: the summary levels for zoomed-out frames (Lane::lod, CounterSeries::lod) are not
  /// built. Nothing but drawing reads them; `npuscope summarize`, which draws nothing, sets it.
  bool summaryLevels = true;
  ProgressFn progress;           ///< may be empty
  PreviewFn preview;             ///< may be empty; see LoadPreview
  /// Test hook (issue 26 item 7: a test that raced the clock): called on the parsing thread each
  /// time it has read about 1 MiB more of the JSON array, with the file offset reached (bytes);
  /// the read waits for it. Lets a test act at a byte position (truncate the file) instead of at
  /// a time. Empty: never called.
  std::function<void(std::size_t offset)> readHook;
  std::stop_token stop;          ///< cancel: loadTrace returns ok=false, error "cancelled"
};

struct LoadResult {
  std::shared_ptr<Trace> trace;  ///< null only on a hard error (unreadable, empty, cancelled)
  std::string error;             ///< empty on success; else a sentence for the user
  [[nodiscard]] bool ok() const { return trace != nullptr; }
};

/// The device a trace file's path names, for the processes labelled plain "NPU": k of a file
/// name `msprof_{k}_{model}_{iter}.json` (very old CANN, format notes §6), else N of the nearest
/// folder `device_{N}` on the path (PROF_*/device_N, §1.2); -1 when neither. Pure text, no I/O.
[[nodiscard]] int deviceFromTracePath(const std::string& path);

/// Reads a Chrome/Kineto/torch_npu/msprof trace JSON file (array or {"traceEvents":[...]}, .json
/// or .json.gz) into an indexed Trace. Never throws; bad events are counted in Trace::stats.
/// The file is memory-mapped read-only and kept open for lazy args; a gzip file (by its name or
/// its magic bytes) is parsed while it is inflated and only the args of its kept slices are kept
/// (copied; memory follows the events, not the inflated size: detail::readTraceEventsStreamed).
/// Dialect: see
/// ../shared/docs/ascend-profiling-format.md §2 (ts/dur as numbers or strings, converted
/// exactly to int64 ns; ids above 2^53; `,]` endings; metadata in any order).
/// A path ending in `.db` is read as the SQLite export instead (readAscendDb, core/import/db/,
/// with the `analysis.db` beside it when present; the reader's messages become Trace::notes).
[[nodiscard]] LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

/// Reads several trace files of one rank as one timeline: the files' events are built together
/// as if they were one file (processes and threads merged by pid / tid, metadata in file order,
/// flows paired across files), e.g. msprof's per-iteration `msprof_{dev}_{model}_{iter}.json`
/// (format notes §6, very old CANN) or the `msprof_slice_{k}_{ts}.json` parts of one export
/// (§6: every slice is a complete JSON array). `paths` in reading order; one path is loadTrace.
/// Events are not de-duplicated: the caller passes files that do not repeat events (the msprof
/// iteration files and slices do not; they repeat only metadata, which is idempotent). Args stay
/// lazy byte ranges of each mapped file, or of the args copied out of a gzip file (Trace::moreFiles). Trace::path is the first file,
/// Trace::fileBytes the summed size, and a note names the files read. A file that fails to map
/// or parse fails the whole load with its name in the error.
[[nodiscard]] LoadResult loadTraceFiles(const std::vector<std::string>& paths, const LoadOptions& options = {});

/// Same as loadTrace but from bytes in memory (tests). `name` is used in messages.
[[nodiscard]] LoadResult loadTraceFromMemory(std::string_view json, const std::string& name,
                                             const LoadOptions& options = {});

}  // namespace npuscope::core
