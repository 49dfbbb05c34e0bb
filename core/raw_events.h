// SPDX-License-Identifier: MIT
#pragma once
// Import-time records produced by the JSON reader's workers and consumed by the trace builder.
// Internal to core. Ids (NameId) are local to the worker's StringPool until merged.

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/import_stats.h"
#include "core/string_pool.h"
#include "core/types.h"

namespace npuscope::core::detail {

/// Large buffers are faulted in cheaply: transparent huge pages, and one MADV_POPULATE_WRITE
/// call for the first `populateBytes` (the part about to be written: the elements moved into a
/// grown buffer plus ~2 MiB) instead of one page fault per 4 KiB on first write (page faults were
/// a fifth of the load time; populate + huge pages measured ~20x cheaper per byte than touching).
/// The rest of the capacity is left unpopulated so that a doubled buffer does not become resident
/// before it is used (that spare capacity was ~150 MiB of the peak at 1 GB). Only for buffers of
/// 256 KiB and more; a no-op where unsupported.
inline void adviseLargeBuffer(const void* p, std::size_t bytes, std::size_t populateBytes) {
#if defined(__linux__)
  if (bytes < (256u << 10)) return;
  const auto b = (reinterpret_cast<std::uintptr_t>(p) + 4095) & ~std::uintptr_t{4095};
  const auto e = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~std::uintptr_t{4095};
  if (e <= b) return;
  ::madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#if defined(MADV_POPULATE_WRITE)
  const auto pe = std::min<std::uintptr_t>(e, (reinterpret_cast<std::uintptr_t>(p) + populateBytes + 4095) & ~std::uintptr_t{4095});
  if (pe > b) ::madvise(reinterpret_cast<void*>(b), pe - b, MADV_POPULATE_WRITE);
#endif
#else
  (void)p;
  (void)bytes;
  (void)populateBytes;
#endif
}

/// v.reserve(n), with the new block advised as above.
template <class V>
void reserveLarge(V& v, std::size_t n) {
  if (n <= v.capacity()) return;
  // Advise the new block before the elements are copied into it (v.reserve would copy first).
  V grown;
  grown.reserve(n);
  using T = typename V::value_type;
  adviseLargeBuffer(grown.data(), grown.capacity() * sizeof(T), v.size() * sizeof(T) + (2u << 20));
  grown.insert(grown.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  v.swap(grown);
}

/// push_back that grows by doubling through reserveLarge.
template <class V, class T>
void pushLarge(V& v, T&& x) {
  if (v.size() == v.capacity()) reserveLarge(v, std::max<std::size_t>(256, v.capacity() * 2));
  v.push_back(std::forward<T>(x));
}

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

/// A slice-like event (X, B, E, i/I) of one thread, in file order. 40 bytes.
struct RawSlice {
  TimeNs ts = 0;
  TimeNs dur = 0;             ///< ns; -1 for B/E/instant
  std::uint64_t argsOffset = 0;
  std::uint32_t argsLength = 0;
  NameId name = 0;
  NameId cat = 0;
  char ph = 'X';
  std::uint8_t flags = 0;
};
static_assert(sizeof(RawSlice) <= 40, "keep the import record small: it is held per event");

/// Flow id: numeric (exact uint64) or text (NameId of the raw token), or invalid.
enum class FlowIdKind : std::uint8_t { Numeric, Text, Invalid };

/// A flow event (s, t, f).
struct RawFlow {
  TimeNs ts = 0;
  std::uint64_t id = 0;       ///< numeric id, or NameId of the text for Text/Invalid
  std::uint32_t thread = 0;   ///< worker-local thread index
  NameId cat = 0;
  NameId name = 0;
  std::uint32_t order = 0;    ///< file order inside the worker
  char ph = 's';
  bool bindEnclosing = false; ///< bp == "e"
  FlowIdKind idKind = FlowIdKind::Numeric;
};

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

/// Everything one parse worker produced for its byte range.
struct WorkerOut {
  StringPool pool;
  ImportStats stats;
  std::vector<Key> processes;
  std::unordered_map<Key, std::uint32_t, KeyHash> processIndex;
  std::vector<std::pair<std::uint32_t, Key>> threads;  ///< (local process, tid)
  std::unordered_map<std::pair<Key, Key>, std::uint32_t, KeyPairHash> threadIndex;
  std::vector<std::vector<RawSlice>> slices;  ///< per local thread
  std::vector<RawFlow> flows;
  std::vector<RawCounter> counters;
  std::vector<RawMeta> metas;
  std::vector<RawAsync> asyncs;
  std::uint64_t events = 0;
  std::uint64_t batches = 0;         ///< events read by the fast scanner (EventParser::parseFast)
  std::uint64_t batchFallbacks = 0;  ///< events it passed to the general simdjson path
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
