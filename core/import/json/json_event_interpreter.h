// SPDX-License-Identifier: MIT
#pragma once
// Event interpretation of the JSON reader: one event's fields (read by the fast scanner or by
// the simdjson path) become the import records of a WorkerOut (slices, flows, counters,
// metadata, async events) with the warnings of the Chrome trace format's rules. Internal to core.

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/json/json_scan.h"
#include "core/import/raw_events.h"
#include "core/model/trace.h"

namespace npuscope::core::detail {

/// "at byte N": the position part of a warning's example text.
std::string offsetText(std::size_t off);

/// The fields of one event object that npuscope reads. Views point into the event's bytes (or a
/// parser's buffers) and live until the event is dispatched.
struct EventFields {
  std::string_view ph;
  NameId name = 0, cat = 0;  ///< name: or kFlowNameIsCategoryAndId (flowNameFromId)
  Key pid{0, KeyKind::Invalid}, tid{0, KeyKind::Invalid};
  bool hasPid = false, hasTid = false;
  std::optional<TimeNs> ts, dur;  ///< ns; nullopt when absent or unreadable
  bool tsPresent = false, durPresent = false;
  std::string_view idToken;
  bool idIsString = false, hasId = false;
  std::string_view id2Token;
  bool id2Global = false, hasId2 = false;
  bool bpE = false;
  /// Flow v2 on a slice: `bind_id` (else `id`) with `flow_out` / `flow_in` true.
  std::string_view bindIdToken;
  bool hasBindId = false, bindIdIsString = false, flowIn = false, flowOut = false;
  /// Instant scope `s`: 't' thread (also when absent), 'p' process, 'g' global; '?' any other
  /// value (an InvalidInstantScope warning; drawn on the thread).
  char scope = 't';
  std::string_view args;       ///< raw args object text (in the event's base, see beginEvent)
  bool argsNotObject = false;  ///< `args` present but not an object
  /// `args` is an object whose brackets and strings are sound but whose grammar is not
  /// ({"a" 1}, {a:1}, {"a":}: scanArgsObject fails, skipContainerFast accepts): the event is
  /// kept and its args read as none; dispatch counts an ImportWarning::MalformedArgs.
  bool argsMalformed = false;
};

/// True when the event is a flow event (ph s, t or f) with an `id` whose numeric value
/// (parseFlowId, as EventInterpreter::flow reads it) follows its category in its name:
/// flowNameIsCategoryAndId. Both JSON paths ask it with the texts before interning the name
/// and set EventFields::name to kFlowNameIsCategoryAndId instead.
[[nodiscard]] bool flowNameFromId(std::string_view ph, std::string_view name, std::string_view cat, const EventFields& f);

/// Turns events into one worker's records. Not thread-safe: one per parse worker.
class EventInterpreter {
 public:
  explicit EventInterpreter(WorkerOut& out);

  [[nodiscard]] WorkerOut& out() { return m_out; }

  /// Starts an event: `fileOffset` is its offset in the file, `base` where its bytes are read
  /// from (the file, a window or a padded copy), `raw` where the event's own bytes are (the file
  /// or the window; null: `base`), from which WorkerOut::copyArgs copies the args.
  void beginEvent(std::size_t fileOffset, const char* base, const char* raw = nullptr) {
    m_eventBegin = fileOffset;
    m_eventBase = base;
    m_eventRaw = raw ? raw : base;
    m_argsMap = nullptr;
  }
  /// Only changes where the event's bytes are read from (a repaired copy is being parsed).
  void rebase(const char* base, const std::vector<std::uint32_t>* argsMap) {
    m_eventBase = base;
    m_argsMap = argsMap;
  }
  [[nodiscard]] std::size_t eventBegin() const { return m_eventBegin; }

  /// Interprets the event's fields by phase (Chrome trace format: X, B/E, i/I/R, C, s/t/f,
  /// b/e/n, M; any other phase is an UnknownPhase warning). Timestamps are ns.
  void dispatch(const EventFields& f);

  /// One warning per repaired string (`base`: file offset of the repaired text). The example
  /// text is only built while the kind still keeps examples.
  void reportRepairs(const SanitizeResult& fix, std::uint64_t base);

  /// pool.intern(s) through a direct-mapped cache of recent strings (names and categories come in
  /// runs): a hit costs one compare with the pooled bytes instead of the pool's hash and probe,
  /// whose table, hashes and views miss the CPU caches once the pool holds 100k+ strings. The
  /// ids are the pool's own (a miss interns), so the pool and its ids are unchanged.
  NameId internCached(std::string_view s) {
    const std::size_t n = s.size();
    const char* const d = s.data();
    std::uint64_t w = n;
    if (n >= 8) {
      w ^= load8(d) ^ (load8(d + n - 8) * 31);
    } else {
      for (std::size_t i = 0; i < n; ++i) w = w * 131 + static_cast<unsigned char>(d[i]);
    }
    CacheEntry& e = m_internCache[(w * 0x9E3779B97F4A7C15ull) >> (64 - kInternCacheBits)];
    if (e.text && e.length == n) {
      const bool same = (n >= 8 && n <= 16) ? load8(e.text) == load8(d) && load8(e.text + n - 8) == load8(d + n - 8)
                                            : std::memcmp(e.text, d, n) == 0;
      if (same) return e.id;
    }
    const NameId id = m_out.pool.intern(s);
    e = {m_out.pool.view(id).data(), n, id};
    return id;
  }

 private:
  static std::uint64_t load8(const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  std::uint64_t argsFileOffset(std::string_view args) const;
  std::uint32_t argsFileLength(std::string_view args) const;
  /// The args range kept for `args`: its file offset and length, or with WorkerOut::copyArgs the
  /// offset of a copy of those file bytes appended to WorkerOut::copiedArgs.
  std::pair<std::uint64_t, std::uint32_t> keptArgs(std::string_view args);
  Key checkedKey(const EventFields& f, bool pid);
  void noteTime(TimeNs a, TimeNs b) {
    m_out.minTs = std::min(m_out.minTs, a);
    m_out.maxTs = std::max(m_out.maxTs, b);
  }
  void addSlice(const EventFields& f, const Key& pid, TimeNs ts, TimeNs dur, char ph, std::uint8_t flags);
  void flow(const EventFields& f, const Key& pid, TimeNs ts, char ph);
  void flowV2(const EventFields& f, const Key& pid, TimeNs ts, TimeNs dur);
  void instant(const EventFields& f, const Key& pid, TimeNs ts);
  void async(const EventFields& f, const Key& pid, TimeNs ts, char ph);
  bool iterateArgs(std::string_view args, simdjson::ondemand::document& doc);
  void counter(const EventFields& f, const Key& pid, TimeNs ts);
  void metadata(const EventFields& f);

  struct CacheEntry {
    const char* text = nullptr;  // the pooled bytes (stable: the arena never moves them)
    std::size_t length = 0;
    NameId id = 0;
  };
  static constexpr unsigned kInternCacheBits = 8;

  WorkerOut& m_out;
  std::array<CacheEntry, 1u << kInternCacheBits> m_internCache{};
  simdjson::ondemand::parser m_argsParser{1u << 31};
  std::string m_argsBuf;
  simdjson::dom::parser m_metaParser;  ///< metadata(): validates the whole args object first
  std::vector<RawCounter> m_counterValues;  ///< counter(): one event's values until its args are read whole
  std::vector<NameId> m_counterBadKeys;      ///< counter(): its keys whose value is no number
  std::size_t m_eventBegin = 0;
  const char* m_eventBase = nullptr;
  const char* m_eventRaw = nullptr;  ///< the event's bytes as in the file (beginEvent)
  const std::vector<std::uint32_t>* m_argsMap = nullptr;  ///< set while a repaired copy is parsed
};

}  // namespace npuscope::core::detail
