// SPDX-License-Identifier: MIT
#include "core/import/json/json_scan.h"

#include "core/import/json/json_fast.h"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npuscope::core::detail {

std::optional<TimeNs> parseMicrosToNs(std::string_view t) {
  // Trim quotes and whitespace (a trailing tab appears in kernel_details.csv).
  while (!t.empty() && (t.front() == '"' || t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == '"' || t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r'))
    t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  {
    // Fast path for the common shapes ("1704161511420306.491", "23.47", "-3"): at most 16
    // integer digits and 3 fraction digits, no exponent. Anything else takes the exact general
    // path below (same results; it is just slower).
    std::size_t i = t[0] == '-' ? 1 : 0;
    const std::size_t intBegin = i;
    std::uint64_t v = 0;
    while (i < t.size() && i - intBegin < 17 && static_cast<unsigned>(t[i] - '0') < 10u) v = v * 10 + static_cast<unsigned>(t[i++] - '0');
    const std::size_t intDigits = i - intBegin;
    if (intDigits > 0 && intDigits <= 16) {
      std::uint64_t frac = 0;
      int fracDigits = 0;
      bool ok = true;
      if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && static_cast<unsigned>(t[i] - '0') < 10u) {
          if (++fracDigits > 3) { ok = false; break; }
          frac = frac * 10 + static_cast<unsigned>(t[i++] - '0');
        }
        if (fracDigits == 0) ok = false;  // "5." : leave to the general path
      }
      if (ok && i == t.size()) {
        static constexpr std::uint64_t kScale[4] = {1000, 100, 10, 1};
        const std::uint64_t ns = v * 1000 + frac * kScale[fracDigits];  // < 1e19: no uint64 overflow
        if (ns <= static_cast<std::uint64_t>(INT64_MAX))
          return intBegin ? -static_cast<TimeNs>(ns) : static_cast<TimeNs>(ns);
      }
    }
  }
  bool neg = false;
  std::size_t i = 0;
  if (t[0] == '-' || t[0] == '+') {
    neg = t[0] == '-';
    ++i;
  }
  // Mantissa digits as an exact integer; digits beyond 36 significant ones only move the scale.
  unsigned __int128 mant = 0;
  int scale = 0;  // value_us = mant * 10^scale
  int sig = 0;
  bool seenDot = false, anyDigit = false;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c >= '0' && c <= '9') {
      anyDigit = true;
      if (sig < 36) {
        mant = mant * 10 + static_cast<unsigned>(c - '0');
        if (mant != 0) ++sig;
        if (seenDot) --scale;
      } else if (!seenDot) {
        ++scale;
      }
    } else if (c == '.' && !seenDot) {
      seenDot = true;
    } else {
      break;
    }
  }
  if (!anyDigit) return std::nullopt;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) eneg = t[i++] == '-';
    if (i >= t.size()) return std::nullopt;
    int e = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
      e = e * 10 + (t[i] - '0');
      if (e > 400) return std::nullopt;
    }
    scale += eneg ? -e : e;
  }
  if (i != t.size()) return std::nullopt;
  scale += 3;  // us -> ns
  constexpr unsigned __int128 kLimit = static_cast<unsigned __int128>(INT64_MAX) + 1;
  unsigned __int128 v = mant;
  if (scale >= 0) {
    for (int k = 0; k < scale && v != 0; ++k) {
      v *= 10;
      if (v > kLimit) return std::nullopt;
    }
  } else {
    unsigned __int128 div = 1;
    for (int k = 0; k < -scale; ++k) {
      if (div > mant) { div = 0; break; }
      div *= 10;
    }
    if (div == 0) {
      v = 0;  // far below 1 ns
    } else {
      v = mant / div;
      if ((mant % div) * 2 >= div) v += 1;  // round half up
    }
  }
  if (v > kLimit || (!neg && v == kLimit)) return std::nullopt;
  return neg ? static_cast<TimeNs>(-static_cast<__int128>(v)) : static_cast<TimeNs>(v);
}

FlowIdParse parseFlowId(std::string_view tok, bool wasString) {
  FlowIdParse r;
  // The ids profilers write: 1 to 19 plain decimal digits (below 10^19 < 2^64, so no overflow),
  // in one tight loop; the general rules below give the same value for them.
  if (!tok.empty() && tok.size() <= 19) {
    std::uint64_t v = 0;
    std::size_t i = 0;
    for (; i < tok.size() && static_cast<unsigned>(tok[i] - '0') < 10u; ++i) v = v * 10 + static_cast<unsigned>(tok[i] - '0');
    if (i == tok.size()) {
      r.value = v;
      return r;
    }
  }
  if (wasString && tok.size() >= 2 && tok.front() == '"' && tok.back() == '"') tok = tok.substr(1, tok.size() - 2);
  while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\n' || tok.back() == '\r' || tok.back() == '\t'))
    tok.remove_suffix(1);
  if (tok.empty()) return r;
  unsigned base = 10;
  if (wasString && tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
    base = 16;
    tok.remove_prefix(2);
  }
  std::uint64_t v = 0;
  for (char c : tok) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return r;  // not numeric (a float id, a name): keyed by text
    if (v > (UINT64_MAX - d) / base) {
      r.overflow = true;
      return r;
    }
    v = v * base + d;
  }
  r.value = v;
  return r;
}

namespace {
// Returns a pointer to the closing quote of a string whose content starts at p.
const char* skipStringBody(const char* p, const char* end) {
  for (;;) {
#if defined(__SSE2__)
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
    while (p + 16 <= end) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)));
      if (m != 0) {
        p += __builtin_ctz(static_cast<unsigned>(m));
        break;
      }
      p += 16;
    }
#endif
    while (p < end && *p != '"' && *p != '\\') ++p;
    if (p >= end) return nullptr;
    if (*p == '"') return p;
    p += 2;  // escape: skip the backslash and the escaped byte
    if (p > end) return nullptr;
  }
}
}  // namespace

const char* skipValue(const char* p, const char* end) {
  if (p >= end) return nullptr;
  const char c0 = *p;
  if (c0 == '"') {
    const char* q = skipStringBody(p + 1, end);
    return q ? q + 1 : nullptr;
  }
  if (c0 != '{' && c0 != '[') {
    // Scalar: up to the next delimiter.
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' &&
           *p != '\t')
      ++p;
    return p;
  }
  int depth = 0;
  while (p < end) {
    const char c = *p++;
    switch (c) {
      case '"': {
        const char* q = skipStringBody(p, end);
        if (!q) return nullptr;
        p = q + 1;
        break;
      }
      case '{':
      case '[':
        ++depth;
        break;
      case '}':
      case ']':
        if (--depth == 0) return p;
        break;
      default:
        break;
    }
  }
  return nullptr;
}

const char* scanString(const char* p, const char* end, bool& escaped) {
  return scanStringInline(p, end, escaped);
}

namespace {
inline bool isNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}
}  // namespace

const char* skipValueStrict(const char* p, const char* end, int depth) {
  if (p >= end) return nullptr;
  const char c = *p;
  if (c == '"') {
    bool esc = false;
    const char* q = scanString(p + 1, end, esc);
    return q ? q + 1 : nullptr;
  }
  if (c == '{' || c == '[') {
    if (depth >= 512) return nullptr;
    const bool object = c == '{';
    const char close = object ? '}' : ']';
    p = skipWs(p + 1, end);
    if (p < end && *p == close) return p + 1;
    for (;;) {
      if (object) {
        if (p >= end || *p != '"') return nullptr;
        bool esc = false;
        p = scanString(p + 1, end, esc);
        if (!p) return nullptr;
        p = skipWs(p + 1, end);
        if (p >= end || *p != ':') return nullptr;
        p = skipWs(p + 1, end);
      }
      p = skipValueStrict(p, end, depth + 1);
      if (!p) return nullptr;
      p = skipWs(p, end);
      if (p >= end) return nullptr;
      if (*p == close) return p + 1;
      if (*p != ',') return nullptr;
      p = skipWs(p + 1, end);
    }
  }
  const auto literal = [&](std::string_view word) -> const char* {
    if (static_cast<std::size_t>(end - p) < word.size() || std::string_view(p, word.size()) != word) return nullptr;
    return p + word.size();
  };
  if (c == 't') return literal("true");
  if (c == 'f') return literal("false");
  if (c == 'n') return literal("null");
  if (c != '-' && (c < '0' || c > '9')) return nullptr;
  const char* q = p + 1;
  while (q < end && isNumberChar(*q)) ++q;
  return q;
}

namespace {
/// The valid UTF-8 sequence at p (p[0] >= 0x80): its length, or 0 with `bad` = the length of the
/// maximal ill-formed subpart (the lead byte and the continuation bytes that fit it, >= 1).
/// Well-formed sequences per Unicode Table 3-7.
std::size_t utf8Sequence(const unsigned char* p, const unsigned char* end, std::size_t& bad) {
  const unsigned c = p[0];
  std::size_t need = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) need = 1;
  else if (c == 0xE0) { need = 2; lo = 0xA0; }
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) need = 2;
  else if (c == 0xED) { need = 2; hi = 0x9F; }
  else if (c == 0xF0) { need = 3; lo = 0x90; }
  else if (c >= 0xF1 && c <= 0xF3) need = 3;
  else if (c == 0xF4) { need = 3; hi = 0x8F; }
  else {
    bad = 1;  // 80..C1, F5..FF: never a lead byte
    return 0;
  }
  std::size_t i = 1;
  for (; i <= need && p + i < end; ++i) {
    const unsigned b = p[i];
    if (b < lo || b > hi) break;
    lo = 0x80;
    hi = 0xBF;
  }
  if (i == need + 1) return i;
  bad = i;
  return 0;
}

/// The 4 hex digits at p as a code unit; false when they are not 4 hex digits.
bool hex4(const unsigned char* p, const unsigned char* end, unsigned& v) {
  if (end - p < 4) return false;
  v = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned c = p[k];
    unsigned d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = v * 16 + d;
  }
  return true;
}
}  // namespace

namespace {
/// True when `in` has no byte the sanitizer could change: none below 0x20, none from 0x80, no
/// backslash (then every string is plain ASCII without escapes). 32 bytes a step, vectorised.
bool plainAscii(std::string_view in) {
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  const auto special = [](unsigned char c) { return static_cast<unsigned>(c < 0x20) | static_cast<unsigned>(c >= 0x80) | static_cast<unsigned>(c == '\\'); };
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    unsigned bad = 0;
    for (std::size_t j = 0; j < 32; ++j) bad |= special(s[i + j]);
    if (bad) return false;
  }
  for (; i < n; ++i)
    if (special(s[i])) return false;
  return true;
}
}  // namespace

SanitizeResult sanitizeJsonStrings(std::string_view in, std::string& out, std::vector<std::uint32_t>* map) {
  SanitizeResult result;
  // The common case (issue 43: a tenth of the advisor's time went here): nothing to repair.
  if (plainAscii(in)) {
    out.append(in);
    if (map)
      for (std::size_t k = 0; k <= in.size(); ++k) map->push_back(static_cast<std::uint32_t>(k));  // and the end, as below
    return result;
  }
  const auto* s = reinterpret_cast<const unsigned char*>(in.data());
  const auto* const end = s + in.size();
  const std::size_t n = in.size();
  out.reserve(out.size() + n + 16);
  if (map) map->reserve(map->size() + n + 17);
  std::size_t runStart = 0;  // first input byte not yet appended
  const auto flush = [&](std::size_t upto) {
    out.append(in.data() + runStart, upto - runStart);
    if (map)
      for (std::size_t k = runStart; k < upto; ++k) map->push_back(static_cast<std::uint32_t>(k));
  };
  const auto replace = [&](std::size_t at, std::string_view with, std::size_t skip) {
    flush(at);
    out.append(with);
    if (map) map->insert(map->end(), with.size(), static_cast<std::uint32_t>(at));
    runStart = at + skip;
    result.changed = true;
  };
  bool inString = false;
  bool reported = false;  // the current string is already in result.strings
  enum class Repair { InvalidUtf8, Control, BadEscape };
  const auto mark = [&](std::size_t at, Repair what) {
    if (!reported) {
      result.strings.push_back({at, false, false, false});
      reported = true;
    }
    RepairedString& r = result.strings.back();
    (what == Repair::InvalidUtf8 ? r.invalidUtf8 : what == Repair::Control ? r.control : r.badEscape) = true;
  };
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = s[i];
    if (!inString) {
      if (c == '"') {
        inString = true;
        reported = false;
      }
      ++i;
      continue;
    }
    if (c == '"') {
      inString = false;
      ++i;
    } else if (c == '\\') {
      if (i + 1 >= n) break;  // the text ends inside the string
      const unsigned e = s[i + 1];
      unsigned u = 0;
      if (e != 'u') {
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          i += 2;
          continue;
        }
        // An invalid escape (\x, \', a backslash before a control byte...): the backslash
        // becomes text; the next byte is read as usual.
        replace(i, "\\\\", 1);
        mark(i, Repair::BadEscape);
        ++i;
        continue;
      }
      if (!hex4(s + i + 2, end, u)) {
        replace(i, "\\\\", 1);  // \u without 4 hex digits: the same
        mark(i, Repair::BadEscape);
        ++i;
        continue;
      }
      if (u < 0xD800 || u > 0xDFFF) {
        i += 6;
        continue;
      }
      unsigned low = 0;
      if (u <= 0xDBFF && i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u' && hex4(s + i + 8, end, low) &&
          low >= 0xDC00 && low <= 0xDFFF) {
        i += 12;  // a surrogate pair
        continue;
      }
      replace(i, "\\ufffd", 6);
      mark(i, Repair::InvalidUtf8);
      i += 6;
    } else if (c < 0x20) {
      if (c == '\t') {
        replace(i, "\\t", 1);
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[] = {'\\', '\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        replace(i, std::string_view(esc, sizeof esc), 1);
        mark(i, Repair::Control);
      }
      ++i;
    } else if (c < 0x80) {
      ++i;
    } else {
      std::size_t bad = 0;
      if (const std::size_t len = utf8Sequence(s + i, end, bad)) {
        i += len;
        continue;
      }
      replace(i, "\xEF\xBF\xBD", bad);
      mark(i, Repair::InvalidUtf8);
      i += bad;
    }
  }
  flush(n);
  if (map) map->push_back(static_cast<std::uint32_t>(n));
  return result;
}

int naturalCompare(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = a[i] >= '0' && a[i] <= '9', db = b[j] >= '0' && b[j] <= '9';
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && a[ie] == '0') ++ie;
      while (je < b.size() && b[je] == '0') ++je;
      std::size_t is = ie, js = je;
      while (ie < a.size() && a[ie] >= '0' && a[ie] <= '9') ++ie;
      while (je < b.size() && b[je] >= '0' && b[je] <= '9') ++je;
      const std::size_t la = ie - is, lb = je - js;
      if (la != lb) return la < lb ? -1 : 1;
      const int c = a.substr(is, la).compare(b.substr(js, lb));
      if (c != 0) return c < 0 ? -1 : 1;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
      ++i;
      ++j;
    }
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

}  // namespace npuscope::core::detail
