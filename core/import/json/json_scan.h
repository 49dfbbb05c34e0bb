// SPDX-License-Identifier: MIT
#pragma once
// Byte-level helpers of the trace reader: exact decimal-to-ns conversion, flow-id parsing and a
// string-aware scanner that finds the extent of one JSON value without parsing it. Internal to
// core (used by json_trace_reader.cpp and its tests).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"

namespace npuscope::core::detail {

/// Converts a decimal microsecond text ("1731400000123456.789", "10.5", "-3", "1.5e3", with or
/// without surrounding quotes) to int64 ns exactly: the integer and fraction digits are combined
/// as integers, never through a double. Digits beyond ns are rounded half up. nullopt when the
/// text is not a number or the value does not fit int64.
[[nodiscard]] std::optional<TimeNs> parseMicrosToNs(std::string_view text);

/// A flow id as an exact unsigned 64-bit number. Rule (documented for case 10): a JSON number
/// -> its decimal value; a string "0x..." -> hexadecimal; an all-digit string -> decimal.
/// Any other string is not numeric (the caller keys the flow by the text). nullopt + overflow
/// flag when the value does not fit uint64 (e.g. 18446744073709551616).
struct FlowIdParse {
  std::optional<std::uint64_t> value;
  bool overflow = false;
};
[[nodiscard]] FlowIdParse parseFlowId(std::string_view token, bool wasString);

/// Given `p` pointing at the first byte of a JSON value (object, array, string or scalar) and
/// `end` the end of the buffer, returns a pointer one past the value's last byte, or nullptr
/// if the buffer ends inside the value. Strings and escapes are honoured; the content is not
/// validated (simdjson does that later).
[[nodiscard]] const char* skipValue(const char* p, const char* end);

/// Given `p` at the first byte of a string's content (after the opening quote), returns a pointer
/// to its closing quote, or nullptr when the buffer ends first or the string holds a raw control
/// byte (< 0x20, invalid JSON; after a backslash too). Sets `escaped` when the content has a backslash escape (left
/// untouched: the caller decides). 32 bytes per step with AVX2.
[[nodiscard]] const char* scanString(const char* p, const char* end, bool& escaped);

/// Like skipValue, but validates what it skips: the grammar of objects and arrays (keys, colons,
/// commas, matching brackets, at most 512 levels), strings (no raw control bytes), literals
/// (true/false/null) and the characters of numbers (not their exact form, nor UTF-8: the caller
/// checks that). nullptr on anything invalid or when the buffer ends inside the value.
[[nodiscard]] const char* skipValueStrict(const char* p, const char* end, int depth = 0);

/// One string that sanitizeJsonStrings changed: `offset` (in the input) of the first byte of it
/// that was replaced, and what it held.
struct RepairedString {
  std::size_t offset = 0;
  bool invalidUtf8 = false;  ///< invalid UTF-8 bytes or a lone surrogate escape (now U+FFFD)
  bool control = false;      ///< a raw control byte other than TAB (now the visible text \u00xx)
  bool badEscape = false;    ///< an invalid escape such as \x (its backslash now text)
};

/// What sanitizeJsonStrings did: `changed` when the output differs from the input, and the
/// strings it reports (a string that only had a raw TAB is changed but not reported).
struct SanitizeResult {
  bool changed = false;
  std::vector<RepairedString> strings;
};

/// Makes the strings of the JSON text `in` acceptable to a strict parser (simdjson), the way a
/// tolerant viewer reads them (case 19; TraceLens PR #1045 retries after replacing bad bytes):
///  - each maximal ill-formed UTF-8 subpart (Unicode §3.9, "U+FFFD substitution of maximal
///    subparts", as WHATWG's decoder does) becomes EF BF BD (U+FFFD): "k" FF FE "_" C3 "(x" ->
///    "k\uFFFD\uFFFD_\uFFFD(x", "lat" E9 "n_1" -> "lat\uFFFDn_1";
///  - a lone surrogate escape (\uD800..\uDFFF not in a high+low pair) becomes \uFFFD;
///  - a raw TAB becomes the escape \t (kept as a tab, not reported: "tab\there" of case 19 b,
///    whose expected result has one warning, for the 0x01 only);
///  - any other raw control byte 0x00..0x1F becomes \\u00xx (lowercase hex), so that the decoded
///    string shows the six visible characters \u00xx ("fn\u0001hidden");
///  - the backslash of an invalid escape (\x, \u12; RFC 8259 §7 allows \" \\ \/ \b \f \n \r
///    \t \uXXXX only) becomes \\, so that the decoded string shows "\x".
/// Bytes outside strings are copied unchanged (the parser still rejects bad syntax). Appends
/// the result to `out`. With `map`, appends for every byte appended to `out` the offset in `in`
/// of the byte it came from (a replacement maps to the first byte it replaces), then one final
/// entry in.size(), so that a range of `out` maps back to the input. O(|in|).
[[nodiscard]] SanitizeResult sanitizeJsonStrings(std::string_view in, std::string& out,
                                                 std::vector<std::uint32_t>* map = nullptr);

/// Skips JSON whitespace.
[[nodiscard]] inline const char* skipWs(const char* p, const char* end) {
  // One compare for the usual byte above the space (the loop's four compares per byte were 10%
  // of the fast scanner's instructions on json.dumps output, which puts a space after , and :).
  while (p < end && static_cast<unsigned char>(*p) <= ' ' && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  return p;
}

/// Natural order of two labels: digit runs compare by numeric value ("Stream 5" < "Stream 12").
[[nodiscard]] int naturalCompare(std::string_view a, std::string_view b);

}  // namespace npuscope::core::detail
