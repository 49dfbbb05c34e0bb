// SPDX-License-Identifier: MIT
#pragma once
// Import-time records: a chunk (WorkerOut) is filled by one JSON parse worker or by
// TraceBuilder's add* methods, and consumed by buildTrace (TraceBuilder::finish).
// Internal to core. Ids (NameId) are local to the worker's StringPool until merged.

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/import_stats.h"
#include "core/base/page_memory.h"
#include "core/base/string_pool.h"
#include "core/base/types.h"

namespace npuscope::core::detail {

/// pid / tid key: a number, a string (NameId of the text) or invalid (null, bool, ...).
enum class KeyKind : std::uint8_t { Number, String, Invalid };
struct Key {
  std::int64_t v = 0;
  KeyKind kind = KeyKind::Number;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    return std::hash<std::int64_t>()(k.v) * 31 + static_cast<std::size_t>(k.kind);
  }
};
struct KeyPairHash {
  std::size_t operator()(const std::pair<Key, Key>& k) const {
    return KeyHash()(k.first) * 1000003u ^ KeyHash()(k.second);
  }
};

/// An args object (file offset, length) that does not fit RawSlice's packed field.
using LongArgs = std::pair<std::uint64_t, std::uint32_t>;

/// A slice-like event (X, B, E, i/I) of one thread, in file order. 32 bytes: the args offset and
/// length, the phase and the flags share one 64-bit word (`packed`): offset bits 0-39 (files up
/// to 1 TiB), length bits 40-58 (args up to 512 KiB - 2), phase bits 59-60, flags bits 61-63
/// (the SliceFlag bits, all < 8). Args beyond either limit are kept in a side table of LongArgs
/// (WorkerOut::longArgs, or the builder's scratch table) and the word holds the sentinel length
/// kLongArgs with the table index as the offset: setArgs / argsOffset / argsLength hide this.
struct RawSlice {
  TimeNs ts = 0;
  TimeNs dur = 0;             ///< ns; -1 for B/E
  std::uint64_t packed = 0;   ///< args offset | length | phase | flags (see above)
  NameId name = 0;
  NameId cat = 0;

  static constexpr unsigned kLengthShift = 40, kPhaseShift = 59, kFlagsShift = 61;
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kLengthShift) - 1;
  static constexpr std::uint32_t kLongArgs = (1u << (kPhaseShift - kLengthShift)) - 1;  ///< sentinel length

  /// 'X', 'B' or 'E'.
  [[nodiscard]] char ph() const {
    static constexpr char kPh[4] = {'X', 'B', 'E', 'X'};
    return kPh[(packed >> kPhaseShift) & 3];
  }
  void setPh(char ph) {
    const std::uint64_t code = ph == 'B' ? 1 : ph == 'E' ? 2 : 0;
    packed = (packed & ~(std::uint64_t{3} << kPhaseShift)) | (code << kPhaseShift);
  }
  /// SliceFlag bits.
  [[nodiscard]] std::uint8_t flags() const { return static_cast<std::uint8_t>(packed >> kFlagsShift); }
  void setFlags(std::uint8_t f) {
    packed = (packed & ~(std::uint64_t{7} << kFlagsShift)) | (std::uint64_t{f & 7u} << kFlagsShift);
  }
  [[nodiscard]] bool hasLongArgs() const { return ((packed >> kLengthShift) & kLongArgs) == kLongArgs; }
  /// Stores the args range; one that does not fit goes to `table`.
  void setArgs(std::uint64_t offset, std::uint32_t length, std::vector<LongArgs>& table) {
    if (offset > kOffsetMask || length >= kLongArgs) {
      table.emplace_back(offset, length);
      offset = table.size() - 1;
      length = kLongArgs;
    }
    packed = (packed & ~((std::uint64_t{1} << kPhaseShift) - 1)) | offset | (std::uint64_t{length} << kLengthShift);
  }
  /// The args range; `table` is the side table setArgs used (may be null when !hasLongArgs()).
  [[nodiscard]] std::uint64_t argsOffset(const std::vector<LongArgs>* table) const {
    return hasLongArgs() ? (*table)[packed & kOffsetMask].first : packed & kOffsetMask;
  }
  [[nodiscard]] std::uint32_t argsLength(const std::vector<LongArgs>* table) const {
    return hasLongArgs() ? (*table)[packed & kOffsetMask].second
                         : static_cast<std::uint32_t>((packed >> kLengthShift) & kLongArgs);
  }
};
static_assert(sizeof(RawSlice) == 32, "keep the import record small: it is held per event");

/// Flow id: numeric (exact uint64) or text (NameId of the raw token), or invalid.
enum class FlowIdKind : std::uint8_t { Numeric, Text, Invalid };

/// The name (in a WorkerOut::flowKeys pair) of a flow event whose name is its category followed
/// by its numeric id in decimal: torch_npu names every HostToDevice flow so ("HostToDevice263", cat "HostToDevice",
/// id "263"; format notes §2.1), one distinct name per flow, which cost ~35 B per flow in the
/// string table (a sixth of the trace's strings at 10 M events) and an intern per event. Such a
/// name says nothing the category and the id do not, so it is not interned: the events group
/// by (id, category, this marker) exactly as they grouped by the name, and the Flow's name is
/// kEmptyName (Flow::name). Decided by flowNameIsCategoryAndId, before the name is interned.
inline constexpr NameId kFlowNameIsCategoryAndId = 0xFFFFFFFFu;

/// True when `name` is `category` (not empty) followed by `id` in decimal without leading zeros,
/// e.g. ("HostToDevice263", "HostToDevice", 263). The rule of kFlowNameIsCategoryAndId for every
/// reader (the JSON fast scanner, its simdjson path and TraceBuilder::addFlowEvent), so that one
/// flow's events agree whichever path read them.
[[nodiscard]] inline bool flowNameIsCategoryAndId(std::string_view name, std::string_view category, std::uint64_t id) {
  if (category.empty() || name.size() <= category.size() || name.size() > category.size() + 20) return false;
  if (name.compare(0, category.size(), category) != 0) return false;
  char digits[20];
  const auto r = std::to_chars(digits, digits + sizeof digits, id);
  return name.substr(category.size()) == std::string_view(digits, static_cast<std::size_t>(r.ptr - digits));
}

/// The distinct (category, name) pairs of flow events, numbered in first-appearance order
/// (RawFlow::key): a worker's (WorkerOut::flowKeys, local names) and the build's (global names).
/// A profiler's trace has a handful; the last kRecent pairs are remembered, as flows of a few
/// kinds come interleaved (HostToDevice, async_npu, async_task_queue).
class FlowKeyTable {
 public:
  /// The number of (cat, name), added if new.
  std::uint32_t intern(NameId cat, NameId name) {
    const std::uint64_t k = (std::uint64_t{cat} << 32) | name;
    for (std::size_t r = 0; r < kRecent; ++r)
      if (m_recentKey[r] == k) return m_recentIndex[r];
    auto [it, inserted] = m_index.try_emplace(k, static_cast<std::uint32_t>(pairs.size()));
    if (inserted) pairs.emplace_back(cat, name);
    m_recentKey[m_recentNext] = k;
    m_recentIndex[m_recentNext] = it->second;
    m_recentNext = (m_recentNext + 1) % kRecent;
    return it->second;
  }
  /// Frees the pairs and the index.
  void clear() { *this = FlowKeyTable(); }

  std::vector<std::pair<NameId, NameId>> pairs;  ///< by number

 private:
  static constexpr std::size_t kRecent = 4;
  std::unordered_map<std::uint64_t, std::uint32_t> m_index;
  // UINT64_MAX is no pair: a category id is below its pool's size.
  std::uint64_t m_recentKey[kRecent] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
  std::uint32_t m_recentIndex[kRecent] = {};
  std::size_t m_recentNext = 0;
};

/// A flow event (s, t, f). 32 bytes (was 48: 4.5 M flow events held 215 MB while the file was
/// read; at 32 the load's peak fell by ~65 MB at 11 M events): the category and the name are one
/// pair index, and a flow v2 endpoint's slice end is kept aside (WorkerOut::flowBindEnds).
struct RawFlow {
  TimeNs ts = 0;
  std::uint64_t id = 0;       ///< numeric id, or NameId of the text for Text/Invalid
  std::uint32_t thread = 0;   ///< worker-local thread index
  /// (category, name): index in WorkerOut::flowKeys; after buildTrace's binding, in the global
  /// table of the build. Equal keys are equal pairs.
  std::uint32_t key = 0;
  std::uint32_t order = 0;    ///< file order inside the worker
  char ph = 's';
  bool bindEnclosing = false; ///< bp == "e"
  FlowIdKind idKind = FlowIdKind::Numeric;
  /// A flow v2 endpoint (bind_id with flow_out / flow_in on an X slice): the end of that slice is
  /// in WorkerOut::flowBindEnds under this event's `order`, so that it binds to the slice itself
  /// and not to a child starting at the same ts.
  bool hasBindEnd = false;
  static constexpr TimeNs kNoBindEnd = INT64_MIN;
};
static_assert(sizeof(RawFlow) == 32, "keep the import record small: it is held per flow event");

/// One counter sample (one args key of a C event).
struct RawCounter {
  TimeNs ts = 0;
  double value = 0;
  std::uint32_t process = 0;  ///< worker-local process index
  NameId name = 0;
  NameId key = 0;
};

/// A metadata (M) record.
enum class MetaKind : std::uint8_t { ProcessName, ProcessLabels, ProcessSortIndex, ThreadName, ThreadSortIndex };
struct RawMeta {
  MetaKind kind = MetaKind::ProcessName;
  std::uint32_t process = 0;  ///< worker-local process index
  std::uint32_t thread = 0;   ///< worker-local thread index (thread records)
  NameId text = 0;
  std::int64_t number = 0;
  bool valid = true;
};

/// An async (b/e/n) event.
struct RawAsync {
  TimeNs ts = 0;
  std::uint64_t argsOffset = 0;
  std::uint32_t argsLength = 0;
  std::uint32_t process = 0;  ///< worker-local process index (scope of local ids)
  NameId name = 0;
  NameId cat = 0;
  NameId idText = 0;          ///< id text (interned)
  bool global = false;        ///< id2.global: one track across processes
  char ph = 'b';
};

/// Facts about the whole trace that a reader may know (Kineto's top-level keys).
struct TopLevelFacts {
  std::optional<int> rank;                          ///< distributedInfo.rank
  std::optional<std::int64_t> baseTimeNanoseconds;  ///< Kineto baseTimeNanoseconds
  std::string traceName;
};

/// Everything one parse worker produced for its byte range.
struct WorkerOut {
  StringPool pool;
  ImportStats stats;
  std::vector<Key> processes;
  std::unordered_map<Key, std::uint32_t, KeyHash> processIndex;
  std::vector<std::pair<std::uint32_t, Key>> threads;  ///< (local process, tid)
  std::unordered_map<std::pair<Key, Key>, std::uint32_t, KeyPairHash> threadIndex;
  std::vector<RecordBuffer<RawSlice>> slices;  ///< per local thread
  std::vector<LongArgs> longArgs;  ///< args of slices that do not fit RawSlice::packed
  RecordBuffer<RawFlow> flows;
  /// The (category, name) pairs of `flows` (RawFlow::key).
  FlowKeyTable flowKeys;
  /// The flow v2 endpoints' slice ends (RawFlow::hasBindEnd): (order, end), by order.
  std::vector<std::pair<std::uint32_t, TimeNs>> flowBindEnds;
  RecordBuffer<RawCounter> counters;
  std::vector<RawMeta> metas;
  RecordBuffer<RawAsync> asyncs;
  /// Set for a streamed read (readTraceEventsStreamed), whose text does not stay once read: the
  /// args object of each kept slice and async event is then copied to copiedArgs and its args
  /// range is an offset there instead of in the file.
  bool copyArgs = false;
  RecordBuffer<char> copiedArgs;
  std::uint64_t events = 0;
  std::uint64_t fastEvents = 0;      ///< events read by the fast scanner (FastEventScanner::scan)
  std::uint64_t declinedEvents = 0;  ///< events it passed to the general simdjson path
  TimeNs maxTs = INT64_MIN;  ///< max over ts and ts+dur of every timed event
  TimeNs minTs = INT64_MAX;

  enum class Stop : std::uint8_t { Limit, ArrayEnd, EndOfFile, Truncated, Cancelled } stop = Stop::EndOfFile;
  std::size_t stopOffset = 0;  ///< file offset where the worker stopped (next element / after ']')
  std::size_t beginOffset = 0;

  std::uint32_t process(const Key& pid);
  std::uint32_t thread(const Key& pid, const Key& tid);
  /// Last (pid, tid) looked up: events come in runs on one thread, so most lookups skip the map.
  Key lastPid{0, KeyKind::Invalid}, lastTid{0, KeyKind::Invalid};
  std::uint32_t lastThread = UINT32_MAX;
  std::uint32_t threadLookup(const Key& pid, const Key& tid);
};

}  // namespace npuscope::core::detail
