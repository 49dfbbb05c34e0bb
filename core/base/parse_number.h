// SPDX-License-Identifier: MIT
#pragma once
// Checked text -> integer conversion for core. std::stoi / std::atoi / strtol without checks are
// banned in core (scripts/check_source.sh): std::stoi throws std::out_of_range on a 10+ digit
// number (a device label "NPU 99999999999", a file profiler_info_99999999999.json), which
// aborted the process, and atoi has undefined behaviour on overflow.

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace npuscope::core {

/// The decimal integer that is the whole of `text` (an optional '-' then digits; no spaces, no
/// '+', no trailing characters), or nullopt when `text` is not one or the value does not fit in
/// T. Locale-independent, never throws. T is an integer type (int, long long, ...).
template <typename T = int>
[[nodiscard]] std::optional<T> parseInteger(std::string_view text) {
  T value{};
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value, 10);
  if (text.empty() || ec != std::errc{} || ptr != last) return std::nullopt;
  return value;
}

}  // namespace npuscope::core
