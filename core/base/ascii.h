// SPDX-License-Identifier: MIT
#pragma once
// ASCII case folding for the analyses' name matching: independent of the C locale (which the
// GUI may set), bytes outside A-Z (UTF-8 included) unchanged.

#include <string>
#include <string_view>

namespace npuscope::core {

/// `s` with A-Z lowered to a-z; every other byte as it is. O(|s|).
[[nodiscard]] inline std::string asciiLower(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return o;
}

}  // namespace npuscope::core
