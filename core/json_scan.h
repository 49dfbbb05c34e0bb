// SPDX-License-Identifier: MIT
#pragma once
// Byte-level helpers of the trace reader: exact decimal-to-ns conversion, flow-id parsing and a
// string-aware scanner that finds the extent of one JSON value without parsing it. Internal to
// core (used by json_trace_reader.cpp and its tests).

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/types.h"

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
/// byte (< 0x20, invalid JSON). Sets `escaped` when the content has a backslash escape (left
/// untouched: the caller decides). 32 bytes per step with AVX2.
[[nodiscard]] const char* scanString(const char* p, const char* end, bool& escaped);

/// Like skipValue, but validates what it skips: the grammar of objects and arrays (keys, colons,
/// commas, matching brackets, at most 512 levels), strings (no raw control bytes), literals
/// (true/false/null) and the characters of numbers (not their exact form, nor UTF-8: the caller
/// checks that). nullptr on anything invalid or when the buffer ends inside the value.
[[nodiscard]] const char* skipValueStrict(const char* p, const char* end, int depth = 0);

/// Skips JSON whitespace.
[[nodiscard]] inline const char* skipWs(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  return p;
}

/// Natural order of two labels: digit runs compare by numeric value ("Stream 5" < "Stream 12").
[[nodiscard]] int naturalCompare(std::string_view a, std::string_view b);

}  // namespace npuscope::core::detail
