// SPDX-License-Identifier: MIT
#include "core/import/json/json_trace_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <unistd.h>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core::detail {

namespace od = simdjson::ondemand;

std::uint32_t WorkerOut::process(const Key& pid) {
  auto [it, inserted] = processIndex.try_emplace(pid, static_cast<std::uint32_t>(processes.size()));
  if (inserted) processes.push_back(pid);
  return it->second;
}

std::uint32_t WorkerOut::thread(const Key& pid, const Key& tid) {
  if (lastThread != UINT32_MAX && pid == lastPid && tid == lastTid) return lastThread;
  lastThread = threadLookup(pid, tid);
  lastPid = pid;
  lastTid = tid;
  return lastThread;
}

std::uint32_t WorkerOut::threadLookup(const Key& pid, const Key& tid) {
  auto [it, inserted] = threadIndex.try_emplace({pid, tid}, static_cast<std::uint32_t>(threads.size()));
  if (inserted) {
    threads.emplace_back(process(pid), tid);
    slices.emplace_back();
  }
  return it->second;
}

namespace {

std::string offsetText(std::size_t off) { return "at byte " + std::to_string(off); }

/// Shared between the parse workers (which publish what they found at each progress step) and
/// the calling thread (which turns it into a LoadPreview for first pixels).
struct PreviewSink {
  struct Meta {
    MetaKind kind;
    std::string pid, tid, text;
    std::optional<std::int64_t> number;
  };
  struct Part {
    std::vector<LoadPreview::Track> tracks;
    std::vector<Meta> metas;
    TimeNs minTs = INT64_MAX, maxTs = INT64_MIN;
    std::uint64_t events = 0;
  };
  std::mutex mutex;
  std::vector<Part> parts;
  std::atomic<std::uint64_t> version{0};
};

/// A worker's position in what it already published.
struct PreviewCursor {
  PreviewSink* sink = nullptr;
  std::size_t part = 0, threads = 0, metas = 0;
};

std::string keyText(const WorkerOut& out, const Key& k) {
  switch (k.kind) {
    case KeyKind::Number: return std::to_string(k.v);
    case KeyKind::String: return std::string(out.pool.view(static_cast<NameId>(k.v)));
    default: return "?";
  }
}

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

/// The first `n` (<= 4) bytes of `s` as an integer, first byte lowest (one load for constant n).
constexpr std::uint32_t keyCode(const char* s, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])) << (8 * i);
  return v;
}

/// Parses one event object per call. Holds the simdjson parsers and a padded scratch buffer.
class EventParser {
 public:
  explicit EventParser(WorkerOut& out) : m_out(out) {
    m_scratch.resize(4096 + simdjson::SIMDJSON_PADDING);
  }

  /// Parses the object at [data, data + len), which is at offset `begin` of the file; the bytes
  /// up to `validEnd` (>= data + len) are readable.
  void parse(const char* data, std::size_t len, std::size_t begin, const char* validEnd) {
    const char* base = data;
    if (static_cast<std::size_t>(validEnd - data) < len + simdjson::SIMDJSON_PADDING) {
      // Near the end of the readable bytes: copy into a padded buffer.
      if (m_scratch.size() < len + simdjson::SIMDJSON_PADDING) m_scratch.resize(len + simdjson::SIMDJSON_PADDING);
      std::memcpy(m_scratch.data(), data, len);
      std::memset(m_scratch.data() + len, ' ', simdjson::SIMDJSON_PADDING);
      base = m_scratch.data();
    }
    m_eventBegin = begin;
    m_eventBase = base;
    ++m_out.events;
    if (parseObject(base, len) || parseRepaired(data, len)) return;
    m_out.stats.add(ImportWarning::ParseError, "malformed event " + offsetText(begin));
  }

 private:
  struct Fields {
    std::string_view ph;
    NameId name = 0, cat = 0;
    Key pid{0, KeyKind::Invalid}, tid{0, KeyKind::Invalid};
    bool hasPid = false, hasTid = false;
    std::optional<TimeNs> ts, dur;
    bool tsPresent = false, durPresent = false;
    std::string_view idToken;
    bool idIsString = false, hasId = false;
    std::string_view id2Token;
    bool id2Global = false, hasId2 = false;
    bool bpE = false;
    std::string_view args;  // raw args object text (in m_eventBase)
    bool argsNotObject = false;  // `args` present but not an object
  };

  /// The event at [data, data + len) of the file failed to parse. When sanitizeJsonStrings
  /// changes it (invalid UTF-8, raw control bytes, lone surrogate escapes: case 19), parses the
  /// repaired copy, reports each repaired string once, and returns true. The strings are interned,
  /// so the copy is only needed during the call; the args of a slice keep their range in the
  /// file (through the byte map), and core/model/slice_args.cpp repairs them again when they are read.
  bool parseRepaired(const char* data, std::size_t len) {
    m_fixed.clear();
    m_fixedMap.clear();
    const SanitizeResult fix = sanitizeJsonStrings(std::string_view(data, len), m_fixed, &m_fixedMap);
    if (!fix.changed) return false;
    const std::size_t fixedLen = m_fixed.size();
    m_fixed.append(simdjson::SIMDJSON_PADDING, ' ');
    m_eventBase = m_fixed.data();
    m_argsMap = &m_fixedMap;
    const bool ok = parseObject(m_fixed.data(), fixedLen);
    m_argsMap = nullptr;
    if (ok) reportRepairs(fix, m_eventBegin);
    return ok;
  }

  /// One warning per repaired string (`base`: file offset of the repaired text). The example
  /// text is only built while the kind still keeps examples.
  void reportRepairs(const SanitizeResult& fix, std::uint64_t base) {
    for (const RepairedString& r : fix.strings) {
      if (r.invalidUtf8)
        m_out.stats.add(ImportWarning::InvalidUtf8,
                        m_out.stats.count(ImportWarning::InvalidUtf8) < ImportStats::kExamplesPerKind
                            ? "invalid UTF-8 or lone surrogate replaced by U+FFFD in a string " + offsetText(base + r.offset)
                            : std::string());
      if (r.control)
        m_out.stats.add(ImportWarning::ControlCharacter,
                        m_out.stats.count(ImportWarning::ControlCharacter) < ImportStats::kExamplesPerKind
                            ? "raw control character shown as \\u00xx in a string " + offsetText(base + r.offset)
                            : std::string());
      if (r.badEscape)
        m_out.stats.add(ImportWarning::InvalidEscape,
                        m_out.stats.count(ImportWarning::InvalidEscape) < ImportStats::kExamplesPerKind
                            ? "invalid escape kept as text in a string " + offsetText(base + r.offset)
                            : std::string());
    }
  }

  Key readKey(od::value v, bool& ok) {
    od::json_type t;
    ok = true;
    if (v.type().get(t)) { ok = false; return {0, KeyKind::Invalid}; }
    switch (t) {
      case od::json_type::number: {
        std::int64_t i;
        if (!v.get_int64().get(i)) return {i, KeyKind::Number};
        std::uint64_t u;
        if (!v.get_uint64().get(u)) return {static_cast<std::int64_t>(u), KeyKind::Number};
        double d;
        if (!v.get_double().get(d)) return {static_cast<std::int64_t>(d), KeyKind::Number};
        ok = false;
        return {0, KeyKind::Invalid};
      }
      case od::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s)) {
          ok = false;
          m_badString = true;  // e.g. a lone surrogate escape: parseRepaired retries the event
          return {0, KeyKind::Invalid};
        }
        return {static_cast<std::int64_t>(m_out.pool.intern(s)), KeyKind::String};
      }
      default:
        return {0, KeyKind::Invalid};
    }
  }

  bool parseObject(const char* base, std::size_t len) {
    od::document doc;
    if (m_parser.iterate(base, len, len + simdjson::SIMDJSON_PADDING).get(doc)) return false;
    od::object obj;
    if (doc.get_object().get(obj)) return false;
    Fields f;
    m_badString = false;
    if (!readFields(obj, f) || m_badString) return false;
    dispatch(f);
    return true;
  }

 public:
  /// The fast path: scans the event object at `p` (a '{' in the file) directly from the mapping,
  /// without simdjson, and dispatches it. Handles the shapes the profilers write (keys without
  /// escapes; ph/name/cat/bp strings without escapes; integer or plain-string pid/tid; ts/dur as
  /// numbers or strings; id as number or plain string; args skipped by skipContainerFast — strings,
  /// brackets and UTF-8 checked, not the member grammar — and kept as a byte range). Returns a pointer one past the event, or nullptr without any effect on the
  /// output when the event needs the general path (id2, escapes, odd types, invalid JSON or
  /// UTF-8): the caller then parses it with simdjson, which also reports the exact warnings.
  /// `fileOffset` is the offset of `p` in the file.
  const char* parseFast(const char* p, const char* end, std::size_t fileOffset) {
    const char* const begin = p;
    std::string_view ph;
    // Strings to intern once the event is known to be good, in the order the general path
    // interns them (key order), so that both paths build identical string pools.
    enum class Target : std::uint8_t { Name, Cat, Pid, Tid };
    struct Pending {
      std::string_view text;
      Target target;
    };
    std::array<Pending, 8> pending;
    std::size_t pendingCount = 0;
    const auto defer = [&](std::string_view text, Target target) {
      if (pendingCount == pending.size()) return false;
      pending[pendingCount++] = {text, target};
      return true;
    };
    Fields f;
    p = skipWs(p + 1, end);
    if (p < end && *p == '}') {
      ++p;
    } else {
      for (;;) {
        if (p >= end || *p != '"') return nullptr;
        bool esc = false;
        const char* keyEnd = scanStringInline(p + 1, end, esc);
        if (!keyEnd || esc) return nullptr;
        const std::string_view key(p + 1, static_cast<std::size_t>(keyEnd - p - 1));
        p = skipWs(keyEnd + 1, end);
        if (p >= end || *p != ':') return nullptr;
        p = skipWs(p + 1, end);
        if (p >= end) return nullptr;
        const char v0 = *p;
        // A string value without escapes: [p+1, q).
        const auto plainString = [&](std::string_view& out) -> bool {
          if (v0 != '"') return false;
          bool e = false;
          const char* q = scanStringInline(p + 1, end, e);
          if (!q || e) return false;
          out = std::string_view(p + 1, static_cast<std::size_t>(q - p - 1));
          p = q + 1;
          return true;
        };
        // A key (pid/tid): integer or plain string.
        const auto keyValue = [&](Key& k, std::string_view& text) -> bool {
          if (v0 == '"') {
            if (!plainString(text)) return false;
            k.kind = KeyKind::String;
            return true;
          }
          const char* q = p;
          bool neg = false;
          if (*q == '-') {
            neg = true;
            ++q;
          }
          const char* digits = q;
          std::int64_t v = 0;
          while (q < end && *q >= '0' && *q <= '9') v = v * 10 + (*q++ - '0');
          const auto n = q - digits;
          if (n == 0 || n > 18 || (n > 1 && *digits == '0')) return false;
          if (q < end && (*q == '.' || *q == 'e' || *q == 'E')) return false;
          k = {neg ? -v : v, KeyKind::Number};
          p = q;
          return true;
        };
        // A ts/dur token: a string with its quotes, or a scalar.
        const auto timeToken = [&](std::string_view& tok) -> bool {
          const char* start = p;
          if (v0 == '"') {
            bool e = false;
            const char* q = scanStringInline(p + 1, end, e);
            if (!q || e) return false;
            p = q + 1;
          } else if (v0 == '{' || v0 == '[') {
            return false;
          } else {
            p = skipValueStrict(p, end);
            if (!p) return false;
          }
          tok = std::string_view(start, static_cast<std::size_t>(p - start));
          return true;
        };
        // A ts/dur value (number or string, us) as ns: the fused parser, else the token's exact
        // conversion (nullopt when unreadable). False when the value cannot be scanned.
        const auto timeValue = [&](std::optional<TimeNs>& out) {
          TimeNs t = 0;
          if (const char* q = parseTimeFast(p, end, t)) {
            out = t;
            p = q;
            return true;
          }
          std::string_view tok;
          if (!timeToken(tok)) return false;
          out = parseMicrosToNs(tok);
          return true;
        };
        // A pid or tid value: a number, or a string interned with the others at the end.
        const auto idValue = [&](Key& key, bool& has, Target target) {
          std::string_view text;
          if (!keyValue(key, text)) return false;
          if (key.kind == KeyKind::String && !defer(text, target)) return false;
          has = true;
          return true;
        };
        bool handled = true;
        // Keys compared as one integer each (string_view == went through memcmp: ~7% of the read).
        const std::uint32_t code = key.size() <= 4 ? keyCode(key.data(), key.size()) : 0;
        switch (key.size()) {
          case 2:
            if (code == keyCode("ph", 2)) {
              if (!plainString(ph)) return nullptr;
            } else if (code == keyCode("ts", 2)) {
              f.tsPresent = true;
              if (!timeValue(f.ts)) return nullptr;
            } else if (code == keyCode("id", 2)) {
              if (v0 == '"') {
                if (!plainString(f.idToken)) return nullptr;
                f.idIsString = true;
              } else {
                if (v0 == '{' || v0 == '[') return nullptr;
                const char* q = skipValueStrict(p, end);
                if (!q) return nullptr;
                f.idToken = std::string_view(p, static_cast<std::size_t>(q - p));
                f.idIsString = false;
                p = q;
              }
              f.hasId = true;
            } else if (code == keyCode("bp", 2)) {
              std::string_view bp;
              if (!plainString(bp)) return nullptr;
              f.bpE = bp.size() == 1 && bp[0] == 'e';
            } else {
              handled = false;
            }
            break;
          case 3:
            if (code == keyCode("pid", 3)) {
              if (!idValue(f.pid, f.hasPid, Target::Pid)) return nullptr;
            } else if (code == keyCode("tid", 3)) {
              if (!idValue(f.tid, f.hasTid, Target::Tid)) return nullptr;
            } else if (code == keyCode("cat", 3)) {
              std::string_view cat;
              if (!plainString(cat) || !defer(cat, Target::Cat)) return nullptr;
            } else if (code == keyCode("dur", 3)) {
              f.durPresent = true;
              if (!timeValue(f.dur)) return nullptr;
            } else if (code == keyCode("id2", 3)) {
              return nullptr;
            } else {
              handled = false;
            }
            break;
          case 4:
            if (code == keyCode("name", 4)) {
              std::string_view name;
              if (!plainString(name) || !defer(name, Target::Name)) return nullptr;
            } else if (code == keyCode("args", 4)) {
              const char* q = v0 == '{' ? skipContainerFast(p, end) : skipValueStrict(p, end);
              if (!q) return nullptr;
              if (v0 == '{') {
                f.args = std::string_view(p, static_cast<std::size_t>(q - p));
                f.argsNotObject = false;
              } else {
                f.args = {};
                f.argsNotObject = true;
              }
              p = q;
            } else {
              handled = false;
            }
            break;
          default:
            handled = false;
            break;
        }
        if (!handled) {
          p = skipValueStrict(p, end);
          if (!p) return nullptr;
        }
        p = skipWs(p, end);
        if (p >= end) return nullptr;
        if (*p == '}') {
          ++p;
          break;
        }
        if (*p != ',') return nullptr;
        p = skipWs(p + 1, end);
      }
    }
    // simdjson validates UTF-8 on the general path; do the same (ASCII runs are checked 32+ bytes
    // at a time).
    if (!simdjson::validate_utf8(begin, static_cast<std::size_t>(p - begin))) return nullptr;
    // Committed: intern and dispatch.
    for (std::size_t i = 0; i < pendingCount; ++i) {
      const NameId id = internCached(pending[i].text);
      switch (pending[i].target) {
        case Target::Name: f.name = id; break;
        case Target::Cat: f.cat = id; break;
        case Target::Pid: f.pid.v = static_cast<std::int64_t>(id); break;
        case Target::Tid: f.tid.v = static_cast<std::int64_t>(id); break;
      }
    }
    f.ph = ph;
    m_eventBegin = fileOffset;
    m_eventBase = begin;
    ++m_out.events;
    dispatch(f);
    return p;
  }

 private:
  bool readFields(od::object& obj, Fields& f) {
    for (auto fieldResult : obj) {
      od::field field;
      if (std::move(fieldResult).get(field)) return false;
      std::string_view key;
      if (field.unescaped_key().get(key)) return false;
      od::value v = field.value();
      if (key.empty()) continue;
      switch (key[0]) {
        case 'p':
          if (key == "ph") {
            if (v.get_string().get(f.ph)) return false;
            m_phBuf.assign(f.ph);  // the view dies with the next string
            f.ph = m_phBuf;
          } else if (key == "pid") {
            bool ok;
            f.pid = readKey(v, ok);
            f.hasPid = true;
          }
          break;
        case 't':
          if (key == "ts") {
            std::string_view tok;
            tok = v.raw_json_token();
            f.tsPresent = true;
            f.ts = parseMicrosToNs(tok);
          } else if (key == "tid") {
            bool ok;
            f.tid = readKey(v, ok);
            f.hasTid = true;
          }
          break;
        case 'd':
          if (key == "dur") {
            std::string_view tok;
            tok = v.raw_json_token();
            f.durPresent = true;
            f.dur = parseMicrosToNs(tok);
          }
          break;
        case 'n':
          if (key == "name") {
            od::json_type t;
            if (v.type().get(t)) return false;
            std::string_view s;
            if (t == od::json_type::string) {
              // A string that does not decode (a lone surrogate escape): parseRepaired retries.
              if (v.get_string().get(s)) return false;
            } else {
              s = v.raw_json_token();  // a non-string name: keep its raw token as the name
            }
            f.name = m_out.pool.intern(s);
          }
          break;
        case 'c':
          if (key == "cat") {
            od::json_type t;
            std::string_view s;
            if (!v.type().get(t) && t == od::json_type::string) {
              if (v.get_string().get(s)) return false;
              f.cat = m_out.pool.intern(s);
            }
          }
          break;
        case 'i':
          if (key == "id") {
            od::json_type t;
            if (v.type().get(t)) return false;
            f.hasId = true;
            f.idIsString = t == od::json_type::string;
            if (f.idIsString) {
              std::string_view s;
              if (v.get_string().get(s)) return false;
              m_idBuf.assign(s);
              f.idToken = m_idBuf;
            } else { f.idToken = v.raw_json_token(); }
          } else if (key == "id2") {
            od::object o;
            if (!v.get_object().get(o)) {
              for (auto fr : o) {
                od::field ff;
                if (std::move(fr).get(ff)) return false;
                std::string_view k;
                if (ff.unescaped_key().get(k)) return false;
                std::string_view tok;
                tok = ff.value().raw_json_token();
                m_id2Buf.assign(tok);
                f.id2Token = m_id2Buf;
                f.id2Global = k == "global";
                f.hasId2 = true;
              }
            }
          }
          break;
        case 'b':
          if (key == "bp") {
            od::json_type t;
            std::string_view s;
            if (!v.type().get(t) && t == od::json_type::string) {
              if (v.get_string().get(s)) return false;
              f.bpE = s == "e";
            }
          }
          break;
        case 'a':
          if (key == "args") {
            od::object o;
            if (!v.get_object().get(o)) {
              if (o.raw_json().get(f.args)) return false;
            } else {
              f.argsNotObject = true;  // e.g. an array: counted as a bad counter value for C events
            }
          }
          break;
        default:
          break;
      }
    }
    return true;
  }

  static std::uint64_t load8(const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }

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

  /// File offset of the args text (a view into m_eventBase), through the byte map when the
  /// event was repaired.
  std::uint64_t argsFileOffset(std::string_view args) const {
    const auto rel = static_cast<std::size_t>(args.data() - m_eventBase);
    return m_eventBegin + (m_argsMap ? (*m_argsMap)[rel] : rel);
  }
  /// Length in the file of the args text (differs from args.size() in a repaired event).
  std::uint32_t argsFileLength(std::string_view args) const {
    if (!m_argsMap || args.empty()) return static_cast<std::uint32_t>(args.size());
    const auto rel = static_cast<std::size_t>(args.data() - m_eventBase);
    return (*m_argsMap)[rel + args.size() - 1] + 1 - (*m_argsMap)[rel];
  }

  Key checkedKey(const Fields& f, bool pid) {
    const Key k = pid ? f.pid : f.tid;
    const bool has = pid ? f.hasPid : f.hasTid;
    if (!has) return {0, KeyKind::Number};  // absent: 0, as chrome://tracing does
    if (k.kind == KeyKind::Invalid) {
      m_out.stats.add(ImportWarning::BadPid, std::string(pid ? "pid" : "tid") + " not a number or string " +
                                                 offsetText(m_eventBegin));
      return {0, KeyKind::Invalid};
    }
    return k;
  }

  void noteTime(TimeNs a, TimeNs b) {
    m_out.minTs = std::min(m_out.minTs, a);
    m_out.maxTs = std::max(m_out.maxTs, b);
  }

  void dispatch(const Fields& f) {
    const char ph = f.ph.size() == 1 ? f.ph[0] : '\0';
    if (ph == 'M') return metadata(f);
    const Key pid = checkedKey(f, true);
    if (!f.ts) {
      m_out.stats.add(ImportWarning::MissingTimestamp,
                      std::string(f.tsPresent ? "unreadable ts " : "no ts ") + offsetText(m_eventBegin));
      return;
    }
    const TimeNs ts = *f.ts;
    switch (ph) {
      case 'X': {
        TimeNs dur = f.dur.value_or(0);
        if (!f.dur || dur < 0) {
          m_out.stats.add(ImportWarning::BadDuration, "X event without a valid dur " + offsetText(m_eventBegin));
          dur = 0;
        }
        addSlice(f, pid, ts, dur, 'X', 0);
        noteTime(ts, ts + dur);
        return;
      }
      case 'B':
      case 'E':
        addSlice(f, pid, ts, -1, ph, 0);
        noteTime(ts, ts);
        return;
      case 'i':
      case 'I':
      case 'R':
        addSlice(f, pid, ts, 0, 'X', kSliceInstant);
        noteTime(ts, ts);
        return;
      case 'C':
        counter(f, pid, ts);
        noteTime(ts, ts);
        return;
      case 's':
      case 't':
      case 'f':
        flow(f, pid, ts, ph);
        return;
      case 'b':
      case 'e':
      case 'n':
        async(f, pid, ts, ph);
        noteTime(ts, ts);
        return;
      default:
        m_out.stats.add(ImportWarning::UnknownPhase, "ph \"" + std::string(f.ph) + "\" " + offsetText(m_eventBegin));
        return;
    }
  }

  void addSlice(const Fields& f, const Key& pid, TimeNs ts, TimeNs dur, char ph, std::uint8_t flags) {
    const Key tid = checkedKey(f, false);
    const std::uint32_t t = m_out.thread(pid, tid);
    RawSlice r;
    r.ts = ts;
    r.dur = dur;
    r.name = f.name;
    r.cat = f.cat;
    r.setPh(ph);
    r.setFlags(flags);
    if (!f.args.empty()) r.setArgs(argsFileOffset(f.args), argsFileLength(f.args), m_out.longArgs);
    m_out.slices[t].push_back(r);
  }

  void flow(const Fields& f, const Key& pid, TimeNs ts, char ph) {
    const Key tid = checkedKey(f, false);
    RawFlow r;
    r.ts = ts;
    r.ph = ph;
    r.cat = f.cat;
    r.name = f.name;
    r.bindEnclosing = f.bpE;
    r.thread = m_out.thread(pid, tid);
    r.order = static_cast<std::uint32_t>(m_out.flows.size());
    // Id rule (case 10): a number -> its exact value; a string "0x.." -> hex, an all-digit
    // string -> decimal; any other text is compared as text.
    std::string_view tok = f.hasId ? f.idToken : (f.hasId2 ? f.id2Token : std::string_view{});
    const bool isString = f.hasId ? f.idIsString : (!tok.empty() && tok.front() == '"');
    if (tok.empty()) {
      r.idKind = FlowIdKind::Invalid;
      r.id = m_out.pool.intern("(no id)");
    } else {
      const FlowIdParse p = parseFlowId(tok, isString);
      if (p.value) {
        r.idKind = FlowIdKind::Numeric;
        r.id = *p.value;
      } else {
        // A JSON number beyond uint64 cannot be compared exactly: invalid (case 04). A string
        // is compared as text whatever its length (msprof's packed HostToDevice ids exceed
        // uint64 as decimal strings).
        r.idKind = (p.overflow && !isString) ? FlowIdKind::Invalid : FlowIdKind::Text;
        r.id = m_out.pool.intern(tok);
      }
    }
    m_out.flows.push_back(r);
    noteTime(ts, ts);
  }

  void async(const Fields& f, const Key& pid, TimeNs ts, char ph) {
    if (!f.hasId && !f.hasId2) {
      m_out.stats.add(ImportWarning::AsyncWithoutId, "async event without id " + offsetText(m_eventBegin));
      return;
    }
    RawAsync r;
    r.ts = ts;
    r.ph = ph;
    r.name = f.name;
    r.cat = f.cat;
    r.process = m_out.process(pid);
    r.global = f.hasId2 ? f.id2Global : false;
    r.idText = m_out.pool.intern(f.hasId ? f.idToken : f.id2Token);
    if (!f.args.empty()) {
      r.argsOffset = argsFileOffset(f.args);
      r.argsLength = argsFileLength(f.args);
    }
    m_out.asyncs.push_back(r);
  }

  // Re-parses a raw args object (small) with the second parser. The event's own parse checked
  // its UTF-8 and control bytes, not what the escapes inside args decode to: args with a
  // backslash are repaired first (a lone surrogate escape becomes \ufffd, reported).
  bool iterateArgs(std::string_view args, od::document& doc) {
    m_argsBuf.clear();
    if (std::memchr(args.data(), '\\', args.size())) {
      const SanitizeResult fix = sanitizeJsonStrings(args, m_argsBuf);
      reportRepairs(fix, argsFileOffset(args));
    } else {
      m_argsBuf.assign(args.data(), args.size());
    }
    const std::size_t len = m_argsBuf.size();
    m_argsBuf.append(simdjson::SIMDJSON_PADDING, ' ');
    return !m_argsParser.iterate(m_argsBuf.data(), len, m_argsBuf.size()).get(doc);
  }

  void counter(const Fields& f, const Key& pid, TimeNs ts) {
    if (f.argsNotObject)
      m_out.stats.add(ImportWarning::BadCounterValue, "counter args that are not an object " + offsetText(m_eventBegin));
    if (f.args.empty()) return;
    od::document doc;
    if (!iterateArgs(f.args, doc)) return;
    od::object o;
    if (doc.get_object().get(o)) return;
    NameId name = f.name;
    if (f.hasId) {
      std::string n(m_out.pool.view(f.name));
      n += " [";
      n += f.idToken;
      n += "]";
      name = m_out.pool.intern(n);
    }
    const std::uint32_t proc = m_out.process(pid);
    for (auto fr : o) {
      od::field ff;
      if (std::move(fr).get(ff)) return;
      std::string_view k;
      if (ff.unescaped_key().get(k)) return;
      const NameId keyId = m_out.pool.intern(k);
      od::value v = ff.value();
      od::json_type t;
      if (v.type().get(t)) return;
      double value = 0;
      bool ok = false;
      if (t == od::json_type::number) {
        ok = !v.get_double().get(value);
      } else if (t == od::json_type::string) {
        std::string_view s;
        if (!v.get_string().get(s)) {
          std::string tmp(s);
          char* endp = nullptr;
          value = std::strtod(tmp.c_str(), &endp);
          ok = endp && endp != tmp.c_str() && *endp == '\0';
        }
      }
      if (!ok) {
        m_out.stats.add(ImportWarning::BadCounterValue, "counter " + std::string(m_out.pool.view(name)) + "." +
                                                            std::string(k) + " " + offsetText(m_eventBegin));
        continue;
      }
      m_out.counters.push_back(RawCounter{ts, value, proc, name, keyId});
    }
  }

  void metadata(const Fields& f) {
    const Key pid = checkedKey(f, true);
    const std::string_view what = m_out.pool.view(f.name);
    RawMeta m;
    m.process = m_out.process(pid);
    if (what == "process_name") m.kind = MetaKind::ProcessName;
    else if (what == "process_labels") m.kind = MetaKind::ProcessLabels;
    else if (what == "process_sort_index") m.kind = MetaKind::ProcessSortIndex;
    else if (what == "thread_name") m.kind = MetaKind::ThreadName;
    else if (what == "thread_sort_index") m.kind = MetaKind::ThreadSortIndex;
    else return;  // other metadata (process_uptime_seconds, ...) is ignored
    if (m.kind == MetaKind::ThreadName || m.kind == MetaKind::ThreadSortIndex)
      m.thread = m_out.thread(pid, checkedKey(f, false));
    if (f.args.empty()) return;
    od::document doc;
    if (!iterateArgs(f.args, doc)) return;
    od::object o;
    if (doc.get_object().get(o)) return;
    const char* wanted = m.kind == MetaKind::ProcessLabels ? "labels"
                         : (m.kind == MetaKind::ProcessName || m.kind == MetaKind::ThreadName) ? "name"
                                                                                                 : "sort_index";
    od::value v;
    if (o.find_field_unordered(wanted).get(v)) return;
    od::json_type t;
    if (v.type().get(t)) return;
    if (m.kind == MetaKind::ProcessSortIndex || m.kind == MetaKind::ThreadSortIndex) {
      std::int64_t n = 0;
      bool ok = false;
      if (t == od::json_type::number) {
        ok = !v.get_int64().get(n);
        if (!ok) {
          double d;
          if (!v.get_double().get(d) && d == static_cast<double>(static_cast<std::int64_t>(d))) {
            n = static_cast<std::int64_t>(d);
            ok = true;
          }
        }
      } else if (t == od::json_type::string) {
        std::string_view s;
        if (!v.get_string().get(s)) {
          std::string tmp(s);
          char* endp = nullptr;
          errno = 0;
          n = std::strtoll(tmp.c_str(), &endp, 10);
          ok = !tmp.empty() && endp && *endp == '\0' && errno == 0;
        }
      }
      m.valid = ok;
      m.number = n;
      if (!ok)
        m_out.stats.add(ImportWarning::BadSortIndex, "sort_index not an integer " + offsetText(m_eventBegin));
    } else {
      std::string_view s;
      if (t == od::json_type::string) {
        if (v.get_string().get(s)) return;
      } else {
        s = v.raw_json_token();
      }
      m.text = m_out.pool.intern(s);
    }
    m_out.metas.push_back(m);
  }

  struct CacheEntry {
    const char* text = nullptr;  // the pooled bytes (stable: the arena never moves them)
    std::size_t length = 0;
    NameId id = 0;
  };
  static constexpr unsigned kInternCacheBits = 8;

  WorkerOut& m_out;
  std::array<CacheEntry, 1u << kInternCacheBits> m_internCache{};
  od::parser m_parser{1u << 31};
  od::parser m_argsParser{1u << 31};
  std::string m_scratch;
  std::string m_argsBuf;
  std::string m_phBuf, m_idBuf, m_id2Buf;
  std::size_t m_eventBegin = 0;
  const char* m_eventBase = nullptr;
  std::string m_fixed;                       ///< parseRepaired's copy of the event
  std::vector<std::uint32_t> m_fixedMap;     ///< its byte -> offset in the event
  const std::vector<std::uint32_t>* m_argsMap = nullptr;  ///< set while the copy is parsed
  bool m_badString = false;                  ///< a pid/tid string did not decode
};

std::size_t resync(std::string_view file, std::size_t from, std::size_t limit);

/// The bytes a parse worker reads: the whole file in place (ReadSource::windowBytes == 0), or a
/// window that holds a copy of [offset(), offset() + size) of the file and is refilled, in file
/// order, as the worker advances (ReadSource). The window keeps simdjson's padding readable after
/// its bytes; the data in place keeps the file's own rule (EventParser::parse copies near its end).
class RangeWindow {
 public:
  RangeWindow(std::string_view file, const ReadSource& source, std::size_t begin)
      : m_file(file), m_source(source) {
    if (source.windowBytes == 0) {
      m_data = file.data();
      m_end = file.data() + file.size();
      m_offset = 0;
      return;
    }
    m_capacity = std::max<std::size_t>(source.windowBytes, 16);
    m_buffer.reset(new char[m_capacity + simdjson::SIMDJSON_PADDING]);
    m_data = m_end = m_buffer.get();
    m_offset = begin;
    fill();
  }

  [[nodiscard]] const char* data() const { return m_data; }
  /// One past the last readable byte of the file copied so far.
  [[nodiscard]] const char* end() const { return m_end; }
  /// True when end() is the end of the file: no refill can add bytes.
  [[nodiscard]] bool atFileEnd() const { return m_offset + static_cast<std::size_t>(m_end - m_data) >= m_file.size(); }
  /// File offset of the byte at `p` (in [data(), end()]).
  [[nodiscard]] std::size_t offsetOf(const char* p) const { return m_offset + static_cast<std::size_t>(p - m_data); }
  /// True when fewer than `bytes` bytes are readable from `p` and the file has more.
  [[nodiscard]] bool low(const char* p, std::size_t bytes) const {
    return static_cast<std::size_t>(m_end - p) < bytes && !atFileEnd();
  }
  /// Keeps the bytes from `p` on (moved to the front of the window) and appends the next bytes of
  /// the file, growing the window when `p` is already at its front and it is full (an element
  /// longer than the window). Returns where `p`'s byte now is. Only when !atFileEnd().
  const char* refill(const char* p) {
    const auto keep = static_cast<std::size_t>(m_end - p);
    const std::size_t at = offsetOf(p);
    if (keep == m_capacity) {
      std::unique_ptr<char[]> grown(new char[2 * m_capacity + simdjson::SIMDJSON_PADDING]);
      std::memcpy(grown.get(), p, keep);
      m_buffer = std::move(grown);
      m_capacity *= 2;
    } else if (keep > 0) {
      std::memmove(m_buffer.get(), p, keep);
    }
    m_data = m_buffer.get();
    m_end = m_data + keep;
    m_offset = at;
    fill();
    return m_data;
  }

 private:
  /// Appends file bytes after m_end until the window is full or the file ends.
  void fill() {
    char* const buf = m_buffer.get();
    std::size_t have = static_cast<std::size_t>(m_end - buf);
    std::size_t pos = m_offset + have;
    const std::size_t want = std::min(m_capacity - have, m_file.size() - pos);
    std::size_t got = 0;
    while (m_source.fd >= 0 && got < want) {
      const ssize_t n = ::pread(m_source.fd, buf + have + got, want - got, static_cast<off_t>(m_source.fdOffset + pos + got));
      if (n <= 0) break;  // error or short file: copy the rest from the mapping below
      got += static_cast<std::size_t>(n);
    }
    if (got < want) std::memcpy(buf + have + got, m_file.data() + pos + got, want - got);
    m_end = buf + have + want;
  }

  std::string_view m_file;
  ReadSource m_source;
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_capacity = 0;
  const char* m_data = nullptr;
  const char* m_end = nullptr;
  std::size_t m_offset = 0;  // file offset of m_data[0]
};

/// Parses the array elements starting at `begin` until an element starts at or after `limit`,
/// the array closes, or the file ends. With `fastScanner`, each event goes through the fast
/// scanner (EventParser::parseFast) and only the events it declines through simdjson, so the
/// result is the same as without it (simdjson for every event: the reference path).
/// The bytes come from `source` (ReadSource); the result does not depend on it.
void parseRange(std::string_view file, std::size_t begin, std::size_t limit, WorkerOut& out,
                std::atomic<std::size_t>* bytesDone, const std::stop_token& stop, bool fastScanner,
                const ReadSource& source, PreviewCursor preview = {}) {
  RangeWindow win(file, source, begin);
  // An element is parsed once at least this many bytes follow its start in the window, or the
  // window ends at the end of the file; a longer element makes the window refill (and grow).
  const std::size_t margin = std::min<std::size_t>(source.windowBytes / 4, 64u << 10);
  const char* end = win.end();
  const char* p = win.data();
  out.beginOffset = begin;
  EventParser parser(out);
  bool expectElement = false;  // a comma was seen and no element followed yet
  std::size_t lastReport = begin;
  const auto refill = [&] {
    p = win.refill(p);
    end = win.end();
  };
  if (source.windowBytes == 0) p += begin;
  for (;;) {
    if (win.low(p, margin)) refill();
    p = skipWs(p, end);
    if (p >= end) {
      if (!win.atFileEnd()) {
        refill();
        continue;
      }
      out.stop = WorkerOut::Stop::EndOfFile;
      out.stopOffset = file.size();
      break;
    }
    const char c = *p;
    if (c == ']') {
      out.stop = WorkerOut::Stop::ArrayEnd;
      out.stopOffset = win.offsetOf(p + 1);
      break;
    }
    if (c == ',') {
      if (expectElement) out.stats.add(ImportWarning::EmptyElement, "empty element " + offsetText(win.offsetOf(p)));
      expectElement = true;
      ++p;
      continue;
    }
    const std::size_t off = win.offsetOf(p);
    if (off >= limit) {
      out.stop = WorkerOut::Stop::Limit;
      out.stopOffset = off;
      break;
    }
    // The file is read once, front to back: fetch ahead (the hardware prefetcher stops at
    // 4 KiB page boundaries of the mapping; the loads of the scanner stalled on them).
    __builtin_prefetch(p + 1024);
    __builtin_prefetch(p + 1088);
    __builtin_prefetch(p + 1152);
    __builtin_prefetch(p + 1216);
    const char* fast = (c == '{' && fastScanner) ? parser.parseFast(p, end, off) : nullptr;
    if (fast) {
      ++out.fastEvents;
      expectElement = false;
      p = fast;
    } else {
      const char* q = skipValue(p, end);
      // Not all of the element is in the window (or a scalar may go on after its end): neither
      // path had any effect yet; read on and parse it again.
      if ((!q || q == end) && !win.atFileEnd()) {
        refill();
        continue;
      }
      if (c == '{' && fastScanner) ++out.declinedEvents;
      if (!q) {
        out.stats.add(ImportWarning::TruncatedEvent, "file ends inside an event at byte " + std::to_string(file.size()));
        out.stop = WorkerOut::Stop::Truncated;
        out.stopOffset = file.size();
        break;
      }
      if (q == p) {
        // A stray delimiter (`}`, `:`) where an element should start: skip the byte (never loop).
        out.stats.add(ImportWarning::NotAnObject, "unexpected '" + std::string(1, c) + "' " + offsetText(off));
        q = p + 1;
      } else if (c == '{') {
        parser.parse(p, static_cast<std::size_t>(q - p), off, end);
      } else {
        out.stats.add(ImportWarning::NotAnObject, "array element that is not an object " + offsetText(off));
      }
      expectElement = false;
      p = q;
    }
    const std::size_t done = win.offsetOf(p);
    if (done - lastReport > (1u << 20)) {
      if (bytesDone) bytesDone->fetch_add(done - lastReport, std::memory_order_relaxed);
      lastReport = done;
      publishPreview(out, preview);
      if (stop.stop_requested()) {
        out.stop = WorkerOut::Stop::Cancelled;
        out.stopOffset = done;
        return;
      }
    }
  }
  if (bytesDone) bytesDone->fetch_add(out.stopOffset > lastReport ? out.stopOffset - lastReport : 0, std::memory_order_relaxed);
  publishPreview(out, preview);
}

/// Finds a likely event start at or after `from`: `}` ws `,` ws `{` ws `"`. Speculative: the
/// caller verifies that the previous range ends exactly here.
std::size_t resync(std::string_view file, std::size_t from, std::size_t limit) {
  const char* base = file.data();
  const char* end = base + std::min(limit, file.size());
  const char* p = base + from;
  while (p < end) {
    p = static_cast<const char*>(std::memchr(p, ',', static_cast<std::size_t>(end - p)));
    if (!p) break;
    const char* b = p - 1;
    while (b > base && (*b == ' ' || *b == '\n' || *b == '\r' || *b == '\t')) --b;
    const char* a = skipWs(p + 1, end);
    if (*b == '}' && a < end && *a == '{') {
      const char* k = skipWs(a + 1, end);
      if (k < end && *k == '"') return static_cast<std::size_t>(a - base);
    }
    ++p;
  }
  return std::min(limit, file.size());
}

// Reads a small top-level value with simdjson.
void readTopLevelValue(std::string_view key, std::string_view raw, TopLevelInfo& top) {
  std::string buf(raw);
  buf.append(simdjson::SIMDJSON_PADDING, ' ');
  od::parser parser;
  od::document doc;
  if (parser.iterate(buf.data(), raw.size(), buf.size()).get(doc)) return;
  if (key == "distributedInfo") {
    od::object o;
    if (doc.get_object().get(o)) return;
    od::value v;
    std::int64_t r;
    if (!o.find_field_unordered("rank").get(v) && !v.get_int64().get(r)) top.rank = static_cast<int>(r);
  } else if (key == "baseTimeNanoseconds") {
    std::string_view tok;
    if (doc.raw_json_token().get(tok)) return;
    std::int64_t v = 0;
    bool any = false;
    for (char c : tok) {
      if (c < '0' || c > '9') break;
      v = v * 10 + (c - '0');
      any = true;
    }
    if (any) top.baseTimeNanoseconds = v;
  } else if (key == "traceName" || key == "displayTimeUnit") {
    std::string_view s;
    if (doc.get_string().get(s)) return;
    (key == "traceName" ? top.traceName : top.displayTimeUnit).assign(s);
  }
}

// Scans the keys of the top-level object from `p` (just after '{' or after a value) until
// "traceEvents" (returns the offset just after its '[') or the end (returns npos).
std::size_t scanObjectKeys(std::string_view file, std::size_t from, TopLevelInfo& top, bool& unterminated) {
  const char* base = file.data();
  const char* end = base + file.size();
  const char* p = base + from;
  for (;;) {
    p = skipWs(p, end);
    if (p >= end) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (*p == '}') return std::string_view::npos;
    if (*p == ',') {
      ++p;
      continue;
    }
    if (*p != '"') {
      unterminated = true;  // garbage: give up on the rest
      return std::string_view::npos;
    }
    const char* keyEnd = skipValue(p, end);
    if (!keyEnd) {
      unterminated = true;
      return std::string_view::npos;
    }
    const std::string_view key(p + 1, static_cast<std::size_t>(keyEnd - p - 2));
    p = skipWs(keyEnd, end);
    if (p >= end || *p != ':') {
      unterminated = true;
      return std::string_view::npos;
    }
    p = skipWs(p + 1, end);
    if (p >= end) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (key == "traceEvents" && *p == '[') return static_cast<std::size_t>(p + 1 - base);
    const char* v = skipValue(p, end);
    if (!v) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (key == "distributedInfo" || key == "baseTimeNanoseconds" || key == "traceName" || key == "displayTimeUnit")
      readTopLevelValue(key, std::string_view(p, static_cast<std::size_t>(v - p)), top);
    p = v;
  }
}

}  // namespace

ReadSource readSourceFor(const MappedFile& file) {
  ReadSource s;
  if (file.fd() < 0) return s;
  s.fd = file.fd();
  s.fdOffset = file.fileOffset();
  s.windowBytes = kDefaultWindowBytes;
  return s;
}

ReadResult readTraceEvents(std::string_view file, unsigned parts, const LoadOptions& options, const ReadSource& source) {
  ReadResult result;
  const char* base = file.data();
  const char* end = base + file.size();
  const char* p = skipWs(base, end);
  if (p >= end) {
    result.error = "file is empty";
    return result;
  }
  std::size_t arrayStart = 0;
  bool unterminatedObject = false;
  if (*p == '[') {
    arrayStart = static_cast<std::size_t>(p + 1 - base);
    result.top.foundEvents = true;
  } else if (*p == '{') {
    result.top.objectForm = true;
    const std::size_t a = scanObjectKeys(file, static_cast<std::size_t>(p + 1 - base), result.top, unterminatedObject);
    if (a == std::string_view::npos) {
      result.notes.push_back("no traceEvents found");
      return result;
    }
    arrayStart = a;
    result.top.foundEvents = true;
  } else {
    result.error = "not a JSON trace: the file starts with '" + std::string(1, *p) +
                   "' (expected '[' or '{')";
    return result;
  }

  // Split [arrayStart, size) into ranges; each range after the first starts at a resync point.
  parts = std::max(1u, parts);
  const std::size_t span = file.size() - arrayStart;
  // Below ~1 MB per range, threads cost more than they save (LoadOptions::minPartBytes).
  parts = static_cast<unsigned>(std::clamp<std::size_t>(span / std::max<std::size_t>(options.minPartBytes, 1), 1, parts));
  std::vector<std::size_t> begins(parts);
  begins[0] = arrayStart;
  for (unsigned k = 1; k < parts; ++k)
    begins[k] = std::max(begins[k - 1], resync(file, arrayStart + span * k / parts, file.size()));
  std::vector<WorkerOut> outs(parts);
  std::atomic<std::size_t> bytesDone{0};
  std::atomic<unsigned> finished{0};
  PreviewSink sink;
  sink.parts.resize(parts);
  {
    std::vector<std::jthread> threads;
    for (unsigned k = 0; k < parts; ++k) {
      const std::size_t limit = k + 1 < parts ? begins[k + 1] : SIZE_MAX;
      PreviewCursor cursor;
      if (options.preview) {
        cursor.sink = &sink;
        cursor.part = k;
      }
      threads.emplace_back([&, k, limit, cursor] {
        parseRange(file, begins[k], limit, outs[k], &bytesDone, options.stop, options.fastScanner, source, cursor);
        finished.fetch_add(1, std::memory_order_release);
      });
    }
    // Report progress (and the preview) from the calling thread while the workers run.
    std::uint64_t shownVersion = 0;
    auto lastPreview = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    while (finished.load(std::memory_order_acquire) < parts) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const double fraction = std::min(1.0, static_cast<double>(bytesDone.load(std::memory_order_relaxed)) /
                                                static_cast<double>(std::max<std::size_t>(span, 1)));
      if (options.progress) options.progress(fraction);
      const auto now = std::chrono::steady_clock::now();
      const std::uint64_t v = sink.version.load(std::memory_order_acquire);
      if (options.preview && v != shownVersion && now - lastPreview >= std::chrono::milliseconds(100) &&
          !options.stop.stop_requested()) {
        shownVersion = v;
        lastPreview = now;
        options.preview(makePreview(sink, fraction));
      }
    }
    if (options.preview && !options.stop.stop_requested()) options.preview(makePreview(sink, 1.0));
  }  // join
  if (options.stop.stop_requested()) {
    result.cancelled = true;
    return result;
  }
  // Verify that consecutive ranges meet; re-parse sequentially where a resync guess was wrong.
  result.parts.reserve(parts + 2);
  result.parts.push_back(std::move(outs[0]));
  for (unsigned k = 1; k < parts; ++k) {
    WorkerOut& cur = result.parts.back();
    if (cur.stop != WorkerOut::Stop::Limit) break;  // the array ended before this range
    if (cur.stopOffset == begins[k]) {
      result.parts.push_back(std::move(outs[k]));
      continue;
    }
    // Mismatch: range k started inside an event. Parse from where the previous one stopped.
    const std::size_t limit = k + 1 < parts ? begins[k + 1] : SIZE_MAX;
    WorkerOut repair;
    parseRange(file, cur.stopOffset, limit, repair, nullptr, options.stop, options.fastScanner, source);
    result.parts.push_back(std::move(repair));
  }
  const WorkerOut& last = result.parts.back();
  if (last.stop == WorkerOut::Stop::Cancelled) {
    result.cancelled = true;
    return result;
  }
  if (last.stop == WorkerOut::Stop::EndOfFile || last.stop == WorkerOut::Stop::Truncated) {
    if (result.top.objectForm) {
      result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed at end of file");
    } else if (last.stop == WorkerOut::Stop::EndOfFile) {
      result.notes.push_back("closing bracket added (the event array was not closed)");
    }
  } else if (last.stop == WorkerOut::Stop::ArrayEnd && result.top.objectForm) {
    bool unterminated = false;
    TopLevelInfo more = result.top;
    scanObjectKeys(file, last.stopOffset, more, unterminated);
    more.objectForm = true;
    result.top = more;
    if (unterminated) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  }
  if (unterminatedObject) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  if (options.progress) options.progress(1.0);
  return result;
}

}  // namespace npuscope::core::detail
