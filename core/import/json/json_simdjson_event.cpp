// SPDX-License-Identifier: MIT
#include "core/import/json/json_simdjson_event.h"
#include "core/import/lazy_warning.h"
#include "core/base/time_limits.h"

#include <cstring>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core::detail {

namespace od = simdjson::ondemand;

/// Parses the object at [data, data + len), which is at offset `begin` of the file, from a copy
/// followed by simdjson's padding of spaces. Not in place: simdjson On-Demand reads the byte after
/// the document on a malformed one, so `{"":}` followed by `}` in the file parsed (a member whose
/// value is the closing brace, the object closed by the next byte) while the same event at the
/// end of the file, copied, did not (found by fuzz_json_simdjson): the result depended on the
/// bytes after the event and so on where the event lay.
void SimdjsonEventParser::parse(const char* data, std::size_t len, std::size_t begin) {
  if (m_scratch.size() < len + simdjson::SIMDJSON_PADDING) m_scratch.resize(len + simdjson::SIMDJSON_PADDING);
  std::memcpy(m_scratch.data(), data, len);
  std::memset(m_scratch.data() + len, ' ', simdjson::SIMDJSON_PADDING);
  const char* const base = m_scratch.data();
  m_interp.beginEvent(begin, base, data);
  ++m_interp.out().events;
  m_firstParse = true;
  m_malformedArgs = false;
  const bool parsed = parseObject(base, len);
  m_firstParse = false;
  if (parsed) return;
  // Args malformed but sound (readFields): blanked first, so that the strings of an object that is
  // read as no args are not repaired and reported ({"args":{:"\u"}}: the fast scanner keeps it
  // without an InvalidEscape).
  if (m_malformedArgs ? parseBlankArgs(data, len) || parseRepaired(data, len)
                      : parseRepaired(data, len) || parseBlankArgs(data, len))
    return;
  addWarning(m_interp.out().stats, ImportWarning::ParseError, [&] { return "malformed event " + offsetText(begin); });
}

/// The event at [data, data + len) of the file failed to parse. When sanitizeJsonStrings
/// changes it (invalid UTF-8, raw control bytes, lone surrogate escapes: case 19), parses the
/// repaired copy, reports each repaired string once, and returns true. The strings are interned,
/// so the copy is only needed during the call; the args of a slice keep their range in the
/// file (through the byte map), and core/model/slice_args.cpp repairs them again when they are read.
bool SimdjsonEventParser::parseRepaired(const char* data, std::size_t len) {
  m_fixed.clear();
  m_fixedMap.clear();
  const SanitizeResult fix = sanitizeJsonStrings(std::string_view(data, len), m_fixed, &m_fixedMap);
  if (!fix.changed) return false;
  const std::size_t fixedLen = m_fixed.size();
  m_fixed.append(simdjson::SIMDJSON_PADDING, ' ');
  m_interp.rebase(m_fixed.data(), &m_fixedMap);
  const bool ok = parseObject(m_fixed.data(), fixedLen);
  m_interp.rebase(m_fixed.data(), nullptr);
  if (ok) m_interp.reportRepairs(fix, m_interp.eventBegin());
  return ok;
}

namespace {
/// A scalar's raw token without the whitespace that raw_json_token() keeps after it: `"id":1 ,`
/// gave the id "1 ", another async track than the fast scanner's "1" (found by fuzz_json_scanner).
std::string_view token(od::value& v) {
  std::string_view t = v.raw_json_token();
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}
}  // namespace

/// The event at [data, data + len) failed to parse, also repaired. When its top-level members
/// are well formed and its "args" value is an object whose brackets and strings the fast
/// scanner accepts (skipContainerFast) but whose member grammar is broken ({"a" 1}, {a:1},
/// {"a":}, ...), parses a copy with the args replaced by an empty object of the same length
/// ("{   }") and returns true: the event is kept, its args range is the original bytes (read as
/// no args on demand), exactly as the fast scanner keeps it (issue 15 item 7). Only the broken
/// args objects are blanked: of {"args":{""},"args":{"":0}} the last, sound one is the event's,
/// and a counter reads its values from it (found by fuzz_json_scanner).
bool SimdjsonEventParser::parseBlankArgs(const char* data, std::size_t len) {
  const char* const end = data + len;
  const char* p = skipWs(data, end);
  if (p >= end || *p != '{') return false;
  p = skipWs(p + 1, end);
  // Every broken "args" object is blanked: the last one is the event's (as on the fast path), and
  // a broken one before or after a sound one must not fail the parse the fast scanner passes
  // (found in review: {"args":{"x":1},"args":{"a" 1}} was kept by one path, dropped by the other).
  std::size_t lastAt = 0;
  const char* lastOriginal = nullptr;  // the last blanked object in the event's bytes; null: none
  while (p < end && *p == '"') {
    bool escaped = false;
    const char* keyEnd = scanString(p + 1, end, escaped);
    if (!keyEnd) return false;
    const bool isArgs = !escaped && std::string_view(p + 1, static_cast<std::size_t>(keyEnd - p - 1)) == "args";
    p = skipWs(keyEnd + 1, end);
    if (p >= end || *p != ':') return false;
    const char* v = skipWs(p + 1, end);
    if (v >= end) return false;
    // An "args" that is no object is skipped like any member: a later "args" may be the broken
    // object the fast scanner keeps (it keeps the last one; found by fuzz_json_differential).
    if (isArgs && *v == '{') {
      const char* q = skipContainerFast(v, end);
      if (!q || q - v < 2) return false;
      if (!argsObjectMalformed(v, q)) {
        p = skipWs(q, end);
        if (p < end && *p == ',') p = skipWs(p + 1, end);
        continue;
      }
      if (!lastOriginal) m_fixed.assign(data, len);
      const std::size_t at = static_cast<std::size_t>(v - data), n = static_cast<std::size_t>(q - v);
      m_fixed[at] = '{';
      std::memset(m_fixed.data() + at + 1, ' ', n - 2);
      m_fixed[at + n - 1] = '}';
      lastAt = at;
      lastOriginal = v;
      p = q;
    } else {
      p = skipValueStrict(v, end);
      if (!p) return false;
    }
    p = skipWs(p, end);
    if (p < end && *p == ',') p = skipWs(p + 1, end);
  }
  if (!lastOriginal) return false;
  m_fixed.append(simdjson::SIMDJSON_PADDING, ' ');
  m_interp.rebase(m_fixed.data(), nullptr);  // same length: offsets unchanged
  // readFields judges the last (the event's) blanked object by its original bytes (MalformedArgs).
  m_blankedArgs = m_fixed.data() + lastAt;
  m_blankedOriginal = lastOriginal;
  const bool ok = parseObject(m_fixed.data(), len);
  m_blankedArgs = nullptr;
  m_interp.rebase(data, nullptr);
  return ok;
}

Key SimdjsonEventParser::readKey(od::value v, bool& ok) {
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
      std::int64_t di = 0;  // 1e30 does not fit: invalid (BadPid), never a wrapped number
      if (!v.get_double().get(d) && doubleToInt(d, di)) return {di, KeyKind::Number};
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
      return {static_cast<std::int64_t>(m_interp.out().pool.intern(s)), KeyKind::String};
    }
    default:
      return {0, KeyKind::Invalid};
  }
}

bool SimdjsonEventParser::parseObject(const char* base, std::size_t len) {
  od::document doc;
  if (m_parser.iterate(base, len, len + simdjson::SIMDJSON_PADDING).get(doc)) return false;
  od::object obj;
  if (doc.get_object().get(obj)) return false;
  EventFields f;
  m_badString = false;
  m_docEnd = base + len;
  m_hasName = false;
  if (!readFields(obj, f) || m_badString) return false;
  // The name is interned last, and not at all when it is a flow's category followed by its id
  // (flowNameFromId): the order and the rule of the fast scanner (FastEventScanner::commit), so
  // that both paths build the same string pool.
  if (m_hasName)
    f.name = flowNameFromId(f.ph, m_nameBuf, m_interp.out().pool.view(f.cat), f) ? kFlowNameIsCategoryAndId
                                                                                   : m_interp.out().pool.intern(m_nameBuf);
  m_interp.dispatch(f);
  return true;
}

bool SimdjsonEventParser::readFields(od::object& obj, EventFields& f) {
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
          tok = token(v);
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
          tok = token(v);
          f.durPresent = true;
          f.dur = parseMicrosToNs(tok);
        }
        break;
      case 'n':
        if (key == "name" && !readName(v)) return false;
        break;
      case 'c':
        if (key == "cat") {
          od::json_type t;
          std::string_view s;
          if (!v.type().get(t) && t == od::json_type::string) {
            if (v.get_string().get(s)) return false;
            f.cat = m_interp.out().pool.intern(s);
          }
        }
        break;
      case 'i':
      case 'b':
      case 'f':
        if (!readFlowField(key, v, f)) return false;
        break;
      case 's':
        if (key == "s") {  // instant scope: "t", "p" or "g"; anything else is '?'
          od::json_type t;
          std::string_view s;
          f.scope = '?';
          if (!v.type().get(t) && t == od::json_type::string && !v.get_string().get(s) && s.size() == 1 &&
              (s[0] == 't' || s[0] == 'p' || s[0] == 'g'))
            f.scope = s[0];
        }
        break;
      case 'a':
        if (key == "args" && !readArgs(v, f)) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

bool SimdjsonEventParser::readName(od::value v) {
  od::json_type t;
  if (v.type().get(t)) return false;
  std::string_view s;
  if (t == od::json_type::string) {
    // A string that does not decode (a lone surrogate escape): parseRepaired retries.
    if (v.get_string().get(s)) return false;
  } else {
    s = token(v);  // a non-string name: keep its raw token as the name
  }
  m_nameBuf.assign(s);  // interned by parseObject once the event is read whole
  m_hasName = true;
  return true;
}

bool SimdjsonEventParser::readFlowField(std::string_view key, od::value v, EventFields& f) {
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
    } else { f.idToken = token(v); }
  } else if (key == "id2") {
    od::object o;
    if (!v.get_object().get(o)) {
      for (auto fr : o) {
        od::field ff;
        if (std::move(fr).get(ff)) return false;
        std::string_view k;
        if (ff.unescaped_key().get(k)) return false;
        std::string_view tok;
        od::value idValue = ff.value();
        tok = token(idValue);
        m_id2Buf.assign(tok);
        f.id2Token = m_id2Buf;
        f.id2Global = k == "global";
        f.hasId2 = true;
      }
    }
  } else if (key == "bp") {
    od::json_type t;
    std::string_view s;
    if (!v.type().get(t) && t == od::json_type::string) {
      if (v.get_string().get(s)) return false;
      f.bpE = s == "e";
    }
  } else if (key == "bind_id") {  // flow v2: a number or a string, as `id`
    od::json_type t;
    if (v.type().get(t)) return false;
    f.hasBindId = true;
    f.bindIdIsString = t == od::json_type::string;
    if (f.bindIdIsString) {
      std::string_view s;
      if (v.get_string().get(s)) return false;
      m_bindIdBuf.assign(s);
      f.bindIdToken = m_bindIdBuf;
    } else {
      f.bindIdToken = token(v);
    }
  } else if (key == "flow_in" || key == "flow_out") {
    bool on = false;
    if (!v.get_bool().get(on) && on) (key == "flow_in" ? f.flowIn : f.flowOut) = true;
  }
  return true;
}

bool SimdjsonEventParser::readArgs(od::value v, EventFields& f) {
  od::object o;
  if (v.get_object().get(o)) {
    f.args = {};
    f.argsNotObject = true;  // e.g. an array: counted as a bad counter value for C events
    f.argsMalformed = false;
    return true;
  }
  if (o.raw_json().get(f.args)) return false;
  // The object's bytes by the fast scanner's rule (skipContainerFast: its brackets and strings)
  // when they are sound, not raw_json()'s: On-Demand does not check what it skips, and the
  // raw_json() of a malformed object can stop before its closing brace ({ab} gave "{ab" where the
  // fast scanner keeps "{ab}"; found by fuzz_json_simdjson). Otherwise (brackets of other types,
  // more than 63 levels: the fast scanner declines the event) raw_json()'s range, without the
  // whitespace after it (it runs to the next token).
  const char* const objectEnd = skipContainerFast(f.args.data(), m_docEnd);
  const bool soundArgs = objectEnd != nullptr;
  if (soundArgs) {
    f.args = std::string_view(f.args.data(), static_cast<std::size_t>(objectEnd - f.args.data()));
  } else {
    while (!f.args.empty() && (f.args.back() == ' ' || f.args.back() == '\n' || f.args.back() == '\r' ||
                               f.args.back() == '\t'))
      f.args.remove_suffix(1);
  }
  f.argsNotObject = false;  // a repeated "args": the last one counts, as on the fast path
  // The same grammar check as the fast scanner's (scanArgsObject), on the bytes the
  // fast scanner reads: the original ones of an object parseBlankArgs blanked. On-Demand
  // skips a nested value without checking its grammar, so this is not simdjson's verdict.
  const char* const text = f.args.data() == m_blankedArgs ? m_blankedOriginal : f.args.data();
  f.argsMalformed = argsObjectMalformed(text, text + f.args.size());
  // On-Demand skipped the malformed object without checking it and may now stand inside it:
  // {"args":{0,"ts":}} read "ts" as the event's own member (an unreadable ts where the fast
  // scanner has none; found by fuzz_json_scanner). When its brackets and strings are sound, the
  // event is parsed again with its args blanked (parseBlankArgs), as the fast scanner keeps it.
  if (f.argsMalformed && m_firstParse && soundArgs) {
    m_malformedArgs = true;
    return false;
  }
  return true;
}

}  // namespace npuscope::core::detail
