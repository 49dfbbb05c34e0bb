// SPDX-License-Identifier: MIT
#include "core/base/time_format.h"

#include <cstdio>
#include <cstdlib>

namespace npuscope::core {

namespace {

// |ns| without overflow for INT64_MIN.
unsigned long long magnitude(TimeNs ns) {
  return ns < 0 ? 0ull - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
}

struct Unit {
  unsigned long long ns;  // ns per unit
  const char* name;
};

// The unit for a magnitude: ns below 1 us, then us, ms, s.
Unit unitFor(unsigned long long a) {
  if (a >= 1000000000ull) return {1000000000ull, "s"};
  if (a >= 1000000ull) return {1000000ull, "ms"};
  if (a >= 1000ull) return {1000ull, "us"};
  return {1, "ns"};
}

// ns in `unit` rounded to `decimals` decimals (10^decimals must divide unit.ns); trailing zeros
// of the fraction dropped when `trim`.
std::string fixedPoint(TimeNs ns, Unit unit, int decimals, bool trim) {
  unsigned long long digit = unit.ns;
  for (int d = 0; d < decimals; ++d) digit /= 10;
  const unsigned long long q = (magnitude(ns) + digit / 2) / digit;  // value in digits, rounded
  const unsigned long long perUnit = unit.ns / digit;
  unsigned long long fp = q % perUnit;
  if (trim)
    while (decimals > 0 && fp % 10 == 0) {
      fp /= 10;
      --decimals;
    }
  const char* sign = ns < 0 ? "-" : "";
  char buf[64];
  if (decimals == 0)
    std::snprintf(buf, sizeof buf, "%s%llu %s", sign, q / perUnit, unit.name);
  else
    std::snprintf(buf, sizeof buf, "%s%llu.%0*llu %s", sign, q / perUnit, decimals, fp, unit.name);
  return buf;
}

}  // namespace

std::string formatPercent(double ratio, int decimals) {
  char b[48];
  std::snprintf(b, sizeof b, "%.*f%%", decimals, ratio * 100.0);
  return b;
}

std::string formatDuration(TimeNs ns) {
  const Unit unit = unitFor(magnitude(ns));
  return fixedPoint(ns, unit, unit.ns == 1 ? 0 : 3, true);
}

std::string formatTickLabel(TimeNs ns, TimeNs step) {
  if (step <= 0) return formatDuration(ns);
  const Unit unit = unitFor(magnitude(ns));
  // Decimals: the fewest for which one digit (unit / 10^d ns) is at most the step.
  int decimals = 0;
  for (unsigned long long digit = unit.ns; digit > static_cast<unsigned long long>(step) && decimals < 9; digit /= 10)
    ++decimals;
  return fixedPoint(ns, unit, decimals, false);
}

std::string formatSignedOffset(TimeNs ns, TimeNs step) {
  std::string text = formatTickLabel(ns, step);
  if (ns >= 0) text.insert(text.begin(), '+');
  return text;
}

std::string formatTimeOffset(TimeNs ns) { return formatTickLabel(ns, 1000); }

std::string formatTimestampUs(TimeNs ns) {
  const bool neg = ns < 0;
  const unsigned long long a = magnitude(ns);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu us", neg ? "-" : "", a / 1000, a % 1000);
  return buf;
}

std::string formatUsNumber(TimeNs ns) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1000.0);
  return b;
}

std::string formatNumber6(double v) {
  char b[48];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string formatIdRuns(const std::vector<int>& ids, std::size_t maxRuns) {
  std::string s;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (++runs > maxRuns) return s + ", ...";
    if (i) s += ", ";
    s += std::to_string(ids[i]);
    if (j > i) s += '-' + std::to_string(ids[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace npuscope::core
