// SPDX-License-Identifier: MIT
#include "core/import/json/json_fast_scanner.h"

#include <simdjson.h>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core::detail {

namespace {
/// The first `n` (<= 4) bytes of `s` as an integer, first byte lowest (one load for constant n).
constexpr std::uint32_t keyCode(const char* s, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])) << (8 * i);
  return v;
}
}  // namespace

inline bool FastEventScanner::defer(State& s, std::string_view text, Target target) {
  if (s.pendingCount == s.pending.size()) return false;
  s.pending[s.pendingCount++] = {text, target};
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
  for (int k = 0; q < end && *q >= '0' && *q <= '9'; ++q, ++k)
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
inline bool FastEventScanner::timeValue(State& s, std::optional<TimeNs>& out) {
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
inline bool FastEventScanner::argsValue(State& s) {
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
inline bool FastEventScanner::member(State& s, std::string_view key) {
  EventFields& f = s.f;
  bool handled = true;
  // Keys compared as one integer each (string_view == went through memcmp: ~7% of the read).
  const std::uint32_t code = key.size() <= 4 ? keyCode(key.data(), key.size()) : 0;
  switch (key.size()) {
    case 2:
      if (code == keyCode("ph", 2)) {
        if (!plainString(s, s.ph)) return false;
      } else if (code == keyCode("ts", 2)) {
        f.tsPresent = true;
        if (!timeValue(s, f.ts)) return false;
      } else if (code == keyCode("id", 2)) {
        if (!flowId(s)) return false;
      } else if (code == keyCode("bp", 2)) {
        std::string_view bp;
        if (!plainString(s, bp)) return false;
        f.bpE = bp.size() == 1 && bp[0] == 'e';
      } else {
        handled = false;
      }
      break;
    case 3:
      if (code == keyCode("pid", 3)) {
        if (!idValue(s, f.pid, f.hasPid, Target::Pid)) return false;
      } else if (code == keyCode("tid", 3)) {
        if (!idValue(s, f.tid, f.hasTid, Target::Tid)) return false;
      } else if (code == keyCode("cat", 3)) {
        std::string_view cat;
        if (!plainString(s, cat) || !defer(s, cat, Target::Cat)) return false;
      } else if (code == keyCode("dur", 3)) {
        f.durPresent = true;
        if (!timeValue(s, f.dur)) return false;
      } else if (code == keyCode("id2", 3)) {
        return false;
      } else {
        handled = false;
      }
      break;
    case 4:
      if (code == keyCode("name", 4)) {
        std::string_view name;
        if (!plainString(s, name) || !defer(s, name, Target::Name)) return false;
      } else if (code == keyCode("args", 4)) {
        if (!argsValue(s)) return false;
      } else {
        handled = false;
      }
      break;
    case 1:
      // An instant's scope `s`: the general path reads it (rare: instants are few).
      if (key[0] == 's') return false;
      handled = false;
      break;
    case 7:
    case 8:
      // Flow v2 keys (bind_id, flow_in, flow_out): the general path reads them.
      if (key == "bind_id" || key == "flow_in" || key == "flow_out") return false;
      handled = false;
      break;
    default:
      handled = false;
      break;
  }
  if (!handled) {
    s.p = skipValueStrict(s.p, s.end);
    if (!s.p) return false;
  }
  return true;
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
      name = s.pending[i].text;
      hasName = true;
      continue;
    }
    const NameId id = m_interp.internCached(s.pending[i].text);
    switch (s.pending[i].target) {
      case Target::Name: break;
      case Target::Cat:
        f.cat = id;
        cat = s.pending[i].text;
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
  State s{nullptr, end, {}, {}, {}, 0};
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
      s.p = p;
      if (!member(s, key)) return nullptr;
      p = skipWs(s.p, end);
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
  // at a time), unless the caller already validated these bytes in bulk.
  if (p > validUtf8End && !simdjson::validate_utf8(begin, static_cast<std::size_t>(p - begin))) return nullptr;
  commit(s, begin, fileOffset);
  return p;
}

}  // namespace npuscope::core::detail
