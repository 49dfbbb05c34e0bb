// SPDX-License-Identifier: MIT
#pragma once
// Writing JSON text: one string escaper for every JSON document core produces (the report, the
// profile analysis).

#include <cstdio>
#include <string>
#include <string_view>

namespace npuscope::core {

/// Appends `s` to `out` as a JSON string literal (quotes included): `"` and `\` escaped, \n \r \t
/// by name, other control characters as \u00XX. Bytes >= 0x80 are copied as they are (the
/// caller passes UTF-8).
inline void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
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

}  // namespace npuscope::core
