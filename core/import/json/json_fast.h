// SPDX-License-Identifier: MIT
#pragma once
// Inline SIMD helpers of the reader's fast path (FastEventScanner::scan). Internal to core and
// only included by files compiled with core's flags (AVX2 + PCLMUL when NPUSCOPE_NATIVE_SIMD),
// so every function here has internal linkage: no ODR clash with a scalar build of a test.

#include <cstdint>
#include <cstring>
#if defined(__AVX2__) && defined(__PCLMUL__)
#include <immintrin.h>
#define NPUSCOPE_FAST_SIMD 1
#endif

#include "core/import/json/json_scan.h"
#include "core/base/types.h"

namespace npuscope::core::detail {
namespace {

/// scanString (json_scan.h), inlined for the fast path (json_scan.cpp's scanString calls it):
/// `p` at the first content byte; returns the closing quote, nullptr on a raw control byte
/// (escaped or not: simdjson refuses a TAB after a backslash too, and the simdjson path then
/// repairs the string and reports it; found by fuzz_json_scanner) or the end of the buffer; sets
/// `escaped` on a backslash.
[[gnu::always_inline]] inline const char* scanStringInline(const char* p, const char* end, bool& escaped) {
#if defined(NPUSCOPE_FAST_SIMD)
  while (p + 32 <= end) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const auto mq = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('"'))));
    const auto mb = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\'))));
    const __m256i ctl = _mm256_set1_epi8(0x1F);
    const auto mc = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x, ctl), ctl)));
    const std::uint32_t any = mq | mb | mc;
    if (any == 0) {
      p += 32;
      continue;
    }
    const unsigned i = static_cast<unsigned>(__builtin_ctz(any));
    if (mq & (1u << i)) return p + i;
    if (mc & (1u << i)) return nullptr;
    escaped = true;
    if (p + i + 1 < end && static_cast<unsigned char>(p[i + 1]) < 0x20) return nullptr;  // escaped, still raw
    p += i + 2;
  }
#endif
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p;
    if (c < 0x20) return nullptr;
    if (c == '\\') {
      escaped = true;
      if (p + 1 < end && static_cast<unsigned char>(p[1]) < 0x20) return nullptr;  // escaped, still raw
      p += 2;
      continue;
    }
    ++p;
  }
  return nullptr;
}

/// True when the 8 bytes at `p` are all ASCII digits (readable: the caller checks).
[[gnu::always_inline]] inline bool eightDigits(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  // Each byte in '0'..'9': its high nibble is 3, and adding 6 does not carry out of the low one.
  return ((v & 0xF0F0F0F0F0F0F0F0ULL) | (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) ==
         0x3333333333333333ULL;
}

/// The value of the 8 ASCII digits at `p` (eightDigits(p)), first digit most significant: three
/// multiplications that combine pairs, then quads, then the halves (the SWAR method of
/// simdjson and fast_float), instead of eight dependent multiply-adds.
[[gnu::always_inline]] inline std::uint32_t parseEightDigits(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  v = ((v & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
  v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
  return static_cast<std::uint32_t>(((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32);
}

/// Parses a ts/dur value at `p` in the common forms "123.456" or 123.456 (quoted or not, at most
/// 3 decimals, no exponent) to ns. Returns the byte after the value, or nullptr when the value
/// needs the general parseMicrosToNs (more decimals, exponent, spaces, other types).
[[gnu::always_inline]] inline const char* parseTimeFast(const char* p, const char* end, TimeNs& out) {
  const char* q = p;
  const bool quoted = q < end && *q == '"';
  if (quoted) ++q;
  const bool neg = q < end && *q == '-';
  if (neg) ++q;
  const char* digits = q;
  std::int64_t v = 0;
  // Eight digits at a time while they are there (two blocks: 16 digits, < 10^16), then one at a
  // time. At most 17 digits are accumulated (< 10^17, no overflow); a longer number is declined
  // below.
  while (end - q >= 8 && q - digits < 16 && eightDigits(q)) {
    v = v * 100000000 + parseEightDigits(q);
    q += 8;
  }
  for (auto k = q - digits; q < end && static_cast<unsigned>(*q - '0') < 10u; ++q, ++k)
    if (k < 17) v = v * 10 + (*q - '0');
  const auto n = q - digits;
  if (n == 0 || n > 16 || v > (INT64_MAX - 999) / 1000) return nullptr;
  std::int64_t ns = v * 1000;
  if (q < end && *q == '.') {
    ++q;
    int k = 0;
    std::int64_t frac = 0;
    while (k < 3 && q < end && static_cast<unsigned>(*q - '0') < 10u) {
      frac = frac * 10 + (*q++ - '0');
      ++k;
    }
    if (k == 0 || (q < end && static_cast<unsigned>(*q - '0') < 10u)) return nullptr;
    for (; k < 3; ++k) frac *= 10;
    ns += frac;
  }
  if (q >= end) return nullptr;
  if (quoted) {
    if (*q != '"') return nullptr;
    ++q;
  } else if (*q != ',' && *q != '}' && *q != ' ' && *q != '\n' && *q != '\r' && *q != '\t') {
    return nullptr;
  }
  out = neg ? -ns : ns;
  return q;
}

#if defined(NPUSCOPE_FAST_SIMD)
[[gnu::always_inline]] inline std::uint64_t mask64(__m256i a, __m256i b, char c) {
  const __m256i k = _mm256_set1_epi8(c);
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, k))) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, k)))) << 32);
}
#endif

/// Skips the object or array at `p` ('{' or '['), one byte at a time, with exactly the rules of
/// skipContainerFast's 64-byte blocks: a backslash in a string escapes the next byte, a backslash
/// outside a string fails (JSON has none there, and skipValue, which finds an event's end for the
/// simdjson path, does not take it for an escape: `{\"}` ended the event at its `}` on the fast
/// path and inside a string on the other; found by fuzz_json_scanner), an unescaped quote opens or
/// closes a string, a raw control byte (< 0x20) inside a string fails, brackets outside strings
/// must match in type, at most 63 levels. Does not check the member grammar. Returns the byte
/// after the closing bracket, or nullptr. skipContainerFast uses it for the last bytes of its
/// buffer, so that what is accepted does not depend on how many bytes follow (issue 15 item 7).
struct ContainerScan {
  std::uint64_t types = 0;  ///< bit k: level k+1 is an object
  int depth = 0;
  bool inString = false;
  bool escaped = false;     ///< the next byte is escaped
};
inline const char* skipContainerScalar(const char* p, const char* end, ContainerScan st = {}) {
  for (; p < end; ++p) {
    const char c = *p;
    if (st.escaped) {  // the escaped byte: no quote, no bracket (a control byte in a string fails)
      st.escaped = false;
      if (st.inString && static_cast<unsigned char>(c) < 0x20) return nullptr;
      continue;
    }
    if (c == '\\') {
      if (!st.inString) return nullptr;
      st.escaped = true;
      continue;
    }
    if (c == '"') {
      st.inString = !st.inString;
      continue;
    }
    if (st.inString) {
      if (static_cast<unsigned char>(c) < 0x20) return nullptr;
      continue;
    }
    if (c == '{' || c == '[') {
      if (st.depth >= 63) return nullptr;
      st.types = (st.types << 1) | (c == '{' ? 1u : 0u);
      ++st.depth;
    } else if (c == '}' || c == ']') {
      if (st.depth == 0 || ((st.types & 1u) != 0) != (c == '}')) return nullptr;
      st.types >>= 1;
      if (--st.depth == 0) return p + 1;
    }
  }
  return nullptr;
}

/// Skips the object or array at `p` ('{' or '['), 64 bytes per step in the manner of simdjson's
/// stage 1: escaped characters, then the in-string mask by carry-less prefix XOR of the quotes,
/// then the brackets outside strings (types matched, at most 63 levels). Checks strings for raw
/// control bytes and fails on a backslash outside a string (the first one is found exactly: up
/// to it, escapes are only in strings and the masks are right); does not check the member
/// grammar (commas, colons, literals) — the args it is used for are parsed on demand, with their
/// own error. Continues with skipContainerScalar (the
/// same rules) for the last bytes of the buffer. Returns the byte after the closing bracket, or
/// nullptr.
inline const char* skipContainerFast(const char* p, const char* end) {
#if defined(NPUSCOPE_FAST_SIMD)
  constexpr std::uint64_t kEven = 0x5555555555555555ULL;
  std::uint64_t prevEscaped = 0, prevInString = 0, types = 0;
  int depth = 0;
  for (const char* b = p; b + 64 <= end; b += 64) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32));
    // Escapes (simdjson's find_escaped_branchless).
    std::uint64_t bs = mask64(lo, hi, '\\') & ~prevEscaped;
    const std::uint64_t follows = (bs << 1) | prevEscaped;
    const std::uint64_t oddStarts = bs & ~kEven & ~follows;
    unsigned long long evenSeq = 0;
    prevEscaped = __builtin_uaddll_overflow(oddStarts, bs, &evenSeq) ? 1 : 0;
    const std::uint64_t escaped = (kEven ^ (evenSeq << 1)) & follows;
    const std::uint64_t quotes = mask64(lo, hi, '"') & ~escaped;
    const std::uint64_t inString =
        static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(
            _mm_set_epi64x(0, static_cast<long long>(quotes)), _mm_set1_epi8(static_cast<char>(0xFF)), 0))) ^
        prevInString;
    prevInString = static_cast<std::uint64_t>(static_cast<std::int64_t>(inString) >> 63);
    const __m256i ctl = _mm256_set1_epi8(0x1F);
    const std::uint64_t ctlMask =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(lo, ctl), ctl))) |
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(
             _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(hi, ctl), ctl))))
         << 32);
    // A raw control byte in a string, or a backslash outside one.
    const std::uint64_t bad = (ctlMask & inString) | (mask64(lo, hi, '\\') & ~inString);
    std::uint64_t s = (mask64(lo, hi, '{') | mask64(lo, hi, '}') | mask64(lo, hi, '[') | mask64(lo, hi, ']')) & ~inString;
    while (s) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(s));
      s &= s - 1;
      const char c = b[i];
      if (c == '{' || c == '[') {
        if (depth >= 63) return nullptr;
        types = (types << 1) | (c == '{' ? 1u : 0u);
        ++depth;
      } else {
        if (depth == 0 || ((types & 1u) != 0) != (c == '}')) return nullptr;
        types >>= 1;
        if (--depth == 0) {
          const std::uint64_t upto = i == 63 ? ~0ULL : ((2ULL << i) - 1);
          return (bad & upto) ? nullptr : b + i + 1;
        }
      }
    }
    if (bad) return nullptr;
    p = b + 64;  // the first byte not scanned yet
  }
  return skipContainerScalar(p, end, ContainerScan{types, depth, prevInString != 0, prevEscaped != 0});
#else
  return skipContainerScalar(p, end);
#endif
}


/// A string of an args object for scanArgsObject: `p` at the first content byte; returns the
/// closing quote, or nullptr. The rules of skipContainerFast exactly: a backslash escapes the
/// next byte (whatever it is: an invalid escape is repaired when the args are read, not a grammar
/// error), a raw control byte (< 0x20) fails, escaped or not. 32 bytes per step with AVX2.
[[gnu::always_inline]] inline const char* scanArgsString(const char* p, const char* end) {
#if defined(NPUSCOPE_FAST_SIMD)
  const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), ctl = _mm256_set1_epi8(0x1F);
  while (p + 32 <= end) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const auto mq = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, quote)));
    const auto mb = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, backslash)));
    const auto mc = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x, ctl), ctl)));
    std::uint32_t any = mq | mb | mc;
    // The block's quotes, control bytes and backslashes in order; an escape clears the bit of the
    // byte it escapes, so a string dense with \r\n does not reload the block at every escape.
    for (;;) {
      if (any == 0) {
        p += 32;
        break;
      }
      const unsigned i = static_cast<unsigned>(__builtin_ctz(any));
      const std::uint32_t bit = 1u << i;
      if (mq & bit) return p + i;
      if (mc & bit) return nullptr;
      if (i == 31) {  // the escaped byte is the next block's first
        if (p + 32 >= end || static_cast<unsigned char>(p[32]) < 0x20) return nullptr;
        p += 33;
        break;
      }
      if (mc & (bit << 1)) return nullptr;  // an escaped control byte
      any &= static_cast<std::uint32_t>(~((static_cast<std::uint64_t>(bit) << 2) - 1));
    }
  }
#endif
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') return p;
    if (c < 0x20) return nullptr;
    if (c == '\\') {
      if (p + 1 >= end || static_cast<unsigned char>(p[1]) < 0x20) return nullptr;
      p += 2;
      continue;
    }
    ++p;
  }
  return nullptr;
}

/// Reads the args object at `p` (a '{') by the JSON grammar (RFC 8259): members "key": value
/// separated by commas, values objects, arrays, strings, true / false / null and numbers of the
/// form -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? (any magnitude: 1e400 and -0 are sound).
/// Strings follow skipContainerFast's rules (scanArgsString: escapes are not checked, they are
/// repaired when the args are read); at most 63 levels, as skipContainerFast. Returns the byte
/// after the closing brace when the object is sound, else nullptr: then skipContainerFast tells
/// whether the object is kept at all (sound brackets and strings, a malformed args object:
/// ImportWarning::MalformedArgs) or the event is declined. Both JSON paths decide with it
/// (issue 15 item 7). One pass, no allocation; the fast scanner's only read of the args bytes.
/// `tooDeep`, when given, is set when the result is nullptr because a 64th level was met: the
/// object may well be sound (the simdjson path keeps it: see argsObjectMalformed).
inline const char* scanArgsObject(const char* p, const char* end, bool* tooDeep = nullptr) {
  if (tooDeep) *tooDeep = false;
  std::uint64_t types = 1;  // bit k: level k+1 is an object; level 1 is the args object
  int depth = 1;
  const auto ws = [end](const char* q) {  // one compare for the usual byte above the space
    while (q < end && static_cast<unsigned char>(*q) <= ' ' && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t')) ++q;
    return q;
  };
  const auto digits = [end](const char* q) {
    while (q < end && static_cast<unsigned>(*q - '0') < 10u) ++q;
    return q;
  };
  p = ws(p + 1);
  if (p < end && *p == '}') return p + 1;
  for (;;) {
    // At a member's key (inside an object) or an element (inside an array).
    if (types & 1u) {
      if (p >= end || *p != '"') return nullptr;
      p = scanArgsString(p + 1, end);
      if (!p) return nullptr;
      p = ws(p + 1);
      if (p >= end || *p != ':') return nullptr;
      p = ws(p + 1);
    }
    // A value.
    if (p >= end) return nullptr;
    switch (*p) {
      case '"':
        p = scanArgsString(p + 1, end);
        if (!p) return nullptr;
        ++p;
        break;
      case '{':
      case '[': {
        if (depth >= 63) {
          if (tooDeep) *tooDeep = true;
          return nullptr;
        }
        const bool object = *p == '{';
        types = (types << 1) | (object ? 1u : 0u);
        ++depth;
        p = ws(p + 1);
        if (p < end && *p == (object ? '}' : ']')) {
          ++p;
          types >>= 1;
          --depth;
          break;
        }
        continue;  // the new container's first key or element
      }
      case 't':
        if (end - p < 4 || std::memcmp(p, "true", 4) != 0) return nullptr;
        p += 4;
        break;
      case 'f':
        if (end - p < 5 || std::memcmp(p, "false", 5) != 0) return nullptr;
        p += 5;
        break;
      case 'n':
        if (end - p < 4 || std::memcmp(p, "null", 4) != 0) return nullptr;
        p += 4;
        break;
      default: {
        if (*p == '-') ++p;
        if (p >= end) return nullptr;
        if (*p == '0') {
          ++p;
        } else {
          const char* q = digits(p);
          if (q == p) return nullptr;
          p = q;
        }
        if (p < end && *p == '.') {
          const char* q = digits(p + 1);
          if (q == p + 1) return nullptr;
          p = q;
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
          ++p;
          if (p < end && (*p == '+' || *p == '-')) ++p;
          const char* q = digits(p);
          if (q == p) return nullptr;
          p = q;
        }
        break;
      }
    }
    // After a value: a comma, or the closing bracket of its container (maybe several).
    for (;;) {
      p = ws(p);
      if (p >= end) return nullptr;
      if (*p == ',') {
        p = ws(p + 1);
        break;
      }
      if (*p != ((types & 1u) ? '}' : ']')) return nullptr;
      ++p;
      types >>= 1;
      if (--depth == 0) return p;
    }
  }
}

/// True when the args object [p, end) (the whole range, a '{' first) is malformed by
/// scanArgsObject's grammar: not read to its end. An object nested deeper than scanArgsObject
/// follows (64 levels or more) is not called malformed: the simdjson path reads it whole.
/// The rule of ImportWarning::MalformedArgs on the simdjson path and when args are read
/// (sliceArgs); the fast scanner declines such an event to the simdjson path.
inline bool argsObjectMalformed(const char* p, const char* end) {
  bool tooDeep = false;
  return scanArgsObject(p, end, &tooDeep) != end && !tooDeep;
}

}  // namespace
}  // namespace npuscope::core::detail
