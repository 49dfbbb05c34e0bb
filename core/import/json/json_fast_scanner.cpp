// SPDX-License-Identifier: MIT
#include "core/import/json/json_fast_scanner.h"

#include <simdjson.h>

#include <cstring>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core::detail {

namespace {
using KeyId = FastEventScanner::KeyId;

/// A key as the profilers write it, with its quotes and the colon right after (`"name":`), as
/// the first `len` bytes of a little-endian word (len <= 8).
struct KeyToken {
  std::uint64_t word = 0, mask = 0;
  std::uint8_t len = 0;
};
constexpr KeyToken keyToken(const char* text, std::size_t len) {
  KeyToken t;
  for (std::size_t i = 0; i < len; ++i) t.word |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
  t.mask = len >= 8 ? ~0ULL : (1ULL << (8 * len)) - 1;
  t.len = static_cast<std::uint8_t>(len);
  return t;
}
constexpr KeyToken kPh = keyToken("\"ph\":", 5), kPid = keyToken("\"pid\":", 6),
                   kTid = keyToken("\"tid\":", 6), kTs = keyToken("\"ts\":", 5),
                   kDur = keyToken("\"dur\":", 6), kCat = keyToken("\"cat\":", 6),
                   kName = keyToken("\"name\":", 7), kArgs = keyToken("\"args\":", 7),
                   kId = keyToken("\"id\":", 5), kBp = keyToken("\"bp\":", 5);

/// The key at `p` (its opening quote) when it is one of the keys above followed at once by its
/// colon: its id, and `p` moved past the colon. Else KeyId::Other and `p` kept: the general key
/// scan reads it, with the same result. One 8-byte compare instead of a scan of the key for its
/// closing quote, escapes and control bytes (with the dispatch by id below: read CPU 3.1-3.6 ->
/// 2.6-2.8 s on 11 M events). [p, p + 8) must be readable.
[[gnu::always_inline]] inline KeyId knownKey(const char*& p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  const auto is = [&](const KeyToken& t) {
    if ((w & t.mask) != t.word) return false;
    p += t.len;
    return true;
  };
  switch (p[1]) {
    case 'p': return is(kPh) ? KeyId::Ph : is(kPid) ? KeyId::Pid : KeyId::Other;
    case 't': return is(kTs) ? KeyId::Ts : is(kTid) ? KeyId::Tid : KeyId::Other;
    case 'n': return is(kName) ? KeyId::Name : KeyId::Other;
    case 'd': return is(kDur) ? KeyId::Dur : KeyId::Other;
    case 'c': return is(kCat) ? KeyId::Cat : KeyId::Other;
    case 'a': return is(kArgs) ? KeyId::Args : KeyId::Other;
    case 'i': return is(kId) ? KeyId::Id : KeyId::Other;
    case 'b': return is(kBp) ? KeyId::Bp : KeyId::Other;
    default: return KeyId::Other;
  }
}

/// skipWs, with the white space json.dumps writes (one space after `,` and `:`, or none) found
/// first: fewer compares per call than skipWs's loop, and scan calls it ~30 times per event.
[[gnu::always_inline]] inline const char* skipSpace(const char* p, const char* end) {
  if (p < end && *p == ' ') ++p;
  if (p < end && static_cast<unsigned char>(*p) <= ' ') p = skipWs(p, end);
  return p;
}

/// The id of a key read by the general scan (its text without quotes; no escapes).
KeyId keyIdOf(std::string_view key) {
  const auto is = [&](std::string_view text) { return key == text; };
  switch (key.size()) {
    case 1: return key[0] == 's' ? KeyId::Scope : KeyId::Other;
    case 2: return is("ph") ? KeyId::Ph : is("ts") ? KeyId::Ts : is("id") ? KeyId::Id : is("bp") ? KeyId::Bp : KeyId::Other;
    case 3:
      return is("pid")   ? KeyId::Pid
             : is("tid") ? KeyId::Tid
             : is("cat") ? KeyId::Cat
             : is("dur") ? KeyId::Dur
             : is("id2") ? KeyId::Id2
                         : KeyId::Other;
    case 4: return is("name") ? KeyId::Name : is("args") ? KeyId::Args : KeyId::Other;
    case 7:
    case 8: return is("bind_id") || is("flow_in") || is("flow_out") ? KeyId::FlowV2 : KeyId::Other;
    default: return KeyId::Other;
  }
}
}  // namespace

inline bool FastEventScanner::defer(State& s, std::string_view text, Target target) {
  // A string longer than 4 GiB is not held here (the simdjson path reads it).
  if (s.pendingCount == std::size(s.pending) || text.size() > UINT32_MAX) return false;
  s.pending[s.pendingCount++] = {text.data(), static_cast<std::uint32_t>(text.size()), target};
  return true;
}

/// A string value without escapes: [p+1, q).
inline bool FastEventScanner::plainString(State& s, std::string_view& out) {
  const char* const p = s.p;
  if (*p != '"') return false;
  bool e = false;
  const char* q = scanStringInline(p + 1, s.end, e);
  if (!q || e) return false;
  out = std::string_view(p + 1, static_cast<std::size_t>(q - p - 1));
  s.p = q + 1;
  return true;
}

/// A key (pid/tid): integer or plain string.
inline bool FastEventScanner::keyValue(State& s, Key& k, std::string_view& text) {
  if (*s.p == '"') {
    if (!plainString(s, text)) return false;
    k.kind = KeyKind::String;
    return true;
  }
  const char* const end = s.end;
  const char* q = s.p;
  bool neg = false;
  if (*q == '-') {
    neg = true;
    ++q;
  }
  const char* digits = q;
  std::int64_t v = 0;
  // At most 18 digits are accumulated (< 10^18, no overflow); a longer number is declined below.
  for (int k = 0; q < end && static_cast<unsigned>(*q - '0') < 10u; ++q, ++k)
    if (k < 18) v = v * 10 + (*q - '0');
  const auto n = q - digits;
  if (n == 0 || n > 18 || (n > 1 && *digits == '0')) return false;
  if (q < end && (*q == '.' || *q == 'e' || *q == 'E')) return false;
  k = {neg ? -v : v, KeyKind::Number};
  s.p = q;
  return true;
}

/// A ts/dur token: a string with its quotes, or a scalar.
inline bool FastEventScanner::timeToken(State& s, std::string_view& tok) {
  const char* start = s.p;
  const char v0 = *start;
  if (v0 == '"') {
    bool e = false;
    const char* q = scanStringInline(start + 1, s.end, e);
    if (!q || e) return false;
    s.p = q + 1;
  } else if (v0 == '{' || v0 == '[') {
    return false;
  } else {
    s.p = skipValueStrict(start, s.end);
    if (!s.p) return false;
  }
  tok = std::string_view(start, static_cast<std::size_t>(s.p - start));
  return true;
}

/// A ts/dur value (number or string, us) as ns: the fused parser, else the token's exact
/// conversion (nullopt when unreadable). False when the value cannot be scanned.
[[gnu::always_inline]] inline bool FastEventScanner::timeValue(State& s, std::optional<TimeNs>& out) {
  TimeNs t = 0;
  if (const char* q = parseTimeFast(s.p, s.end, t)) {
    out = t;
    s.p = q;
    return true;
  }
  std::string_view tok;
  if (!timeToken(s, tok)) return false;
  out = parseMicrosToNs(tok);
  return true;
}

/// A pid or tid value: a number, or a string interned with the others at the end.
inline bool FastEventScanner::idValue(State& s, Key& key, bool& has, Target target) {
  std::string_view text;
  if (!keyValue(s, key, text)) return false;
  if (key.kind == KeyKind::String && !defer(s, text, target)) return false;
  has = true;
  return true;
}

/// The flow id: a plain string or a scalar token.
inline bool FastEventScanner::flowId(State& s) {
  EventFields& f = s.f;
  const char v0 = *s.p;
  if (v0 == '"') {
    if (!plainString(s, f.idToken)) return false;
    f.idIsString = true;
  } else {
    if (v0 == '{' || v0 == '[') return false;
    const char* q = skipValueStrict(s.p, s.end);
    if (!q) return false;
    f.idToken = std::string_view(s.p, static_cast<std::size_t>(q - s.p));
    f.idIsString = false;
    s.p = q;
  }
  f.hasId = true;
  return true;
}

/// The args value: an object kept as its byte range, anything else skipped (argsNotObject).
[[gnu::always_inline]] inline bool FastEventScanner::argsValue(State& s) {
  const char v0 = *s.p;
  if (v0 == '{') {
    // One pass reads the object by the JSON grammar (scanArgsObject). Only when that fails does
    // skipContainerFast, which checks brackets and strings only, tell whether the event is kept:
    // an args object whose member grammar is broken ({"a" 1}, {a:1}, ...) is kept as a byte
    // range, reads as no args on demand and is counted (MalformedArgs). The simdjson path keeps
    // and counts such an event too (SimdjsonEventParser::parseBlankArgs, readFields), so that
    // both paths agree on every input (issue 15 item 7, tests/core/import/test_reader_agreement.cpp).
    const char* q = scanArgsObject(s.p, s.end);
    const bool malformed = q == nullptr;
    if (malformed) {
      q = skipContainerFast(s.p, s.end);
      if (!q) return false;
    }
    s.f.args = std::string_view(s.p, static_cast<std::size_t>(q - s.p));
    s.f.argsNotObject = false;
    s.f.argsMalformed = malformed;
    s.p = q;
    return true;
  }
  const char* q = skipValueStrict(s.p, s.end);
  if (!q) return false;
  s.f.args = {};
  s.f.argsNotObject = true;
  s.f.argsMalformed = false;
  s.p = q;
  return true;
}

/// One member's value (s.p at its first byte); keys npuscope does not read are skipped. False:
/// the event needs the general path.
[[gnu::always_inline]] inline bool FastEventScanner::member(State& s, KeyId key) {
  EventFields& f = s.f;
  switch (key) {
    case KeyId::Ph: return plainString(s, s.ph);
    case KeyId::Ts: f.tsPresent = true; return timeValue(s, f.ts);
    case KeyId::Dur: f.durPresent = true; return timeValue(s, f.dur);
    case KeyId::Id: return flowId(s);
    case KeyId::Bp: {
      std::string_view bp;
      if (!plainString(s, bp)) return false;
      f.bpE = bp.size() == 1 && bp[0] == 'e';
      return true;
    }
    case KeyId::Pid: return idValue(s, f.pid, f.hasPid, Target::Pid);
    case KeyId::Tid: return idValue(s, f.tid, f.hasTid, Target::Tid);
    case KeyId::Cat: {
      std::string_view cat;
      return plainString(s, cat) && defer(s, cat, Target::Cat);
    }
    case KeyId::Name: {
      std::string_view name;
      return plainString(s, name) && defer(s, name, Target::Name);
    }
    case KeyId::Args: return argsValue(s);
    // id2, an instant's scope `s` (instants are few) and the flow v2 keys (bind_id, flow_in,
    // flow_out): the general path reads them.
    case KeyId::Id2:
    case KeyId::Scope:
    case KeyId::FlowV2: return false;
    case KeyId::Other: break;
  }
  s.p = skipValueStrict(s.p, s.end);
  return s.p != nullptr;
}

/// Committed: interns the deferred strings (in key order, the name last) and dispatches the event.
void FastEventScanner::commit(State& s, const char* begin, std::size_t fileOffset) {
  EventFields& f = s.f;
  // The name is interned last (the last one given), and not at all when it is a flow's category
  // followed by its id (flowNameFromId); the simdjson path does the same (parseObject).
  std::string_view name, cat;
  bool hasName = false;
  for (std::size_t i = 0; i < s.pendingCount; ++i) {
    if (s.pending[i].target == Target::Name) {
      name = s.pending[i].text();
      hasName = true;
      continue;
    }
    const NameId id = m_interp.internCached(s.pending[i].text());
    switch (s.pending[i].target) {
      case Target::Name: break;
      case Target::Cat:
        f.cat = id;
        cat = s.pending[i].text();
        break;
      // A pid / tid given again later as a number (a repeated key) wins, as on the simdjson path:
      // the deferred string is dropped (found by fuzz_json_differential, seed 1).
      case Target::Pid:
        if (f.pid.kind == KeyKind::String) f.pid.v = static_cast<std::int64_t>(id);
        break;
      case Target::Tid:
        if (f.tid.kind == KeyKind::String) f.tid.v = static_cast<std::int64_t>(id);
        break;
    }
  }
  if (hasName) f.name = flowNameFromId(s.ph, name, cat, f) ? kFlowNameIsCategoryAndId : m_interp.internCached(name);
  f.ph = s.ph;
  m_interp.beginEvent(fileOffset, begin);
  ++m_interp.out().events;
  m_interp.dispatch(f);
}

const char* FastEventScanner::scan(const char* p, const char* end, std::size_t fileOffset, const char* validUtf8End) {
  const char* const begin = p;
  State s;  // `pending` left uninitialised (see Pending)
  s.p = nullptr;
  s.end = end;
  s.pendingCount = 0;
  p = skipSpace(p + 1, end);
  if (p < end && *p == '}') {
    ++p;
  } else {
    for (;;) {
      if (p >= end || *p != '"') return nullptr;
      KeyId key = end - p >= 8 ? knownKey(p) : KeyId::Other;
      if (key != KeyId::Other) {
        p = skipSpace(p, end);
      } else {
        bool esc = false;
        const char* keyEnd = scanStringInline(p + 1, end, esc);
        if (!keyEnd || esc) return nullptr;
        key = keyIdOf(std::string_view(p + 1, static_cast<std::size_t>(keyEnd - p - 1)));
        p = skipWs(keyEnd + 1, end);
        if (p >= end || *p != ':') return nullptr;
        p = skipWs(p + 1, end);
      }
      if (p >= end) return nullptr;
      s.p = p;
      if (!member(s, key)) return nullptr;
      p = skipSpace(s.p, end);
      if (p >= end) return nullptr;
      if (*p == '}') {
        ++p;
        break;
      }
      if (*p != ',') return nullptr;
      p = skipSpace(p + 1, end);
    }
  }
  // simdjson validates UTF-8 on the general path; do the same (ASCII runs are checked 32+ bytes
  // at a time), unless the caller already validated these bytes in bulk.
  if (p > validUtf8End && !simdjson::validate_utf8(begin, static_cast<std::size_t>(p - begin))) return nullptr;
  commit(s, begin, fileOffset);
  return p;
}

}  // namespace npuscope::core::detail
