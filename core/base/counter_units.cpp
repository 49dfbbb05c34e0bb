// SPDX-License-Identifier: MIT
#include "core/base/counter_units.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace npuscope::core {
namespace {

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The unit of a bare unit text ("KB", "MB/s", "%", ...), None when it names none.
CounterUnit unitOfText(std::string_view u) {
  if (u == "KB" || u == "KiB") return CounterUnit::KiB;
  if (u == "MB" || u == "MiB") return CounterUnit::MiB;
  if (u == "B" || u == "Byte" || u == "Bytes" || u == "bytes") return CounterUnit::Bytes;
  if (u == "MB/s") return CounterUnit::MBps;
  if (u == "GB/s") return CounterUnit::GBps;
  if (u == "MHz") return CounterUnit::MHz;
  if (u == "%") return CounterUnit::Percent;
  return CounterUnit::None;
}

// The unit in parentheses at the end of `s` ("Read(MB/s)" -> MB/s), None when there is none.
CounterUnit unitInParentheses(std::string_view s) {
  if (!endsWith(s, ")")) return CounterUnit::None;
  const auto open = s.rfind('(');
  if (open == std::string_view::npos) return CounterUnit::None;
  return unitOfText(s.substr(open + 1, s.size() - open - 2));
}

// `v` with 3 significant digits, no exponent, trailing zeros dropped ("2.06", "24.5", "512").
std::string threeDigits(double v) {
  const double a = std::fabs(v);
  const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// `v` scaled by `step` through `names` (names[0] is v's own unit) until below `step`.
template <std::size_t N>
std::string scaled(double v, double step, const std::array<const char*, N>& names, const char* sep) {
  std::size_t i = 0;
  // Round first so that 1023.9 KiB reads "1 MiB", not "1024 KiB".
  while (i + 1 < N && std::fabs(v) >= step * 0.9995) {
    v /= step;
    ++i;
  }
  return threeDigits(v) + sep + names[i];
}

}  // namespace

CounterUnit counterUnitOf(std::string_view name, std::string_view key) {
  if (const CounterUnit u = unitOfText(key); u != CounterUnit::None) return u;
  if (const CounterUnit u = unitInParentheses(key); u != CounterUnit::None) return u;
  return unitInParentheses(name);
}

std::string_view counterUnitSymbol(CounterUnit unit) {
  switch (unit) {
    case CounterUnit::None: return "";
    case CounterUnit::Bytes: return "B";
    case CounterUnit::KiB: return "KiB";
    case CounterUnit::MiB: return "MiB";
    case CounterUnit::MBps: return "MB/s";
    case CounterUnit::GBps: return "GB/s";
    case CounterUnit::MHz: return "MHz";
    case CounterUnit::Percent: return "%";
  }
  return "";
}

std::string formatCounterValue(double v, CounterUnit unit) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  static constexpr std::array<const char*, 7> kBytes{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  static constexpr std::array<const char*, 7> kRates{"B/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"};
  switch (unit) {
    case CounterUnit::Bytes: return scaled(v, 1024, kBytes, " ");
    case CounterUnit::KiB: return scaled(v * 1024, 1024, kBytes, " ");
    case CounterUnit::MiB: return scaled(v * 1024 * 1024, 1024, kBytes, " ");
    case CounterUnit::MBps: return scaled(v * 1e6, 1000, kRates, " ");
    case CounterUnit::GBps: return scaled(v * 1e9, 1000, kRates, " ");
    case CounterUnit::MHz: return threeDigits(v) + " MHz";
    case CounterUnit::Percent: return threeDigits(v) + " %";
    case CounterUnit::None: {
      static constexpr std::array<const char*, 7> kSi{"", "k", "M", "G", "T", "P", "E"};
      if (std::fabs(v) < 1000) {
        if (v != 0 && std::fabs(v) < 0.01) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%.3g", v);  // tiny values: the exponent is clearer
          return buf;
        }
        return threeDigits(v);
      }
      return scaled(v, 1000, kSi, "");
    }
  }
  return threeDigits(v);
}

}  // namespace npuscope::core
