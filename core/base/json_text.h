// SPDX-License-Identifier: MIT
#pragma once
// Writing JSON text: one string escaper for every JSON document core produces (the report, the
// profile analysis).

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::core {

/// Length of the valid UTF-8 sequence that starts `s` (1..4), or 0 when the bytes there are
/// not one: a stray continuation byte, a truncated sequence, an overlong form, a UTF-16
/// surrogate (U+D800..U+DFFF) or a code point beyond U+10FFFF (RFC 3629, section 4). `s` is not
/// empty.
[[nodiscard]] inline std::size_t validUtf8Length(std::string_view s) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) { n = 3; lo = 0xA0; }
  else if (c == 0xED) { n = 3; hi = 0x9F; }
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) { n = 4; lo = 0x90; }
  else if (c == 0xF4) { n = 4; hi = 0x8F; }
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else return 0;
  if (s.size() < n || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (b(i) < 0x80 || b(i) > 0xBF) return 0;
  return n;
}

/// Appends `s` to `out` as a JSON string literal (quotes included): `"` and `\` escaped, \n \r \t
/// by name, other control characters as \u00XX. Valid UTF-8 is copied as it is; every byte that
/// is not part of a valid UTF-8 sequence (validUtf8Length) becomes U+FFFD, so the output is
/// always valid UTF-8 JSON (RFC 8259 section 8.1) whatever a file or path name held (issue 15
/// item 8; case 19-invalid-utf8-control-chars).
inline void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = validUtf8Length(s.substr(i));
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

/// `v` as a JSON array of strings ("[]" when empty), appended to `out`.
inline void appendJsonStringArray(std::string& out, const std::vector<std::string>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    appendJsonString(out, v[i]);
  }
  out += ']';
}

}  // namespace npuscope::core
