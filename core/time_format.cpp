// SPDX-License-Identifier: MIT
#include "core/time_format.h"

#include <cstdio>
#include <cstdlib>

namespace npuscope::core {

namespace {
// Prints value/scale with up to 3 decimals, trailing zeros removed.
std::string scaled(TimeNs ns, TimeNs scale, const char* unit) {
  const bool neg = ns < 0;
  const unsigned long long a = neg ? 0ull - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
  const unsigned long long s = static_cast<unsigned long long>(scale);
  // Round to 3 decimals of the unit.
  const unsigned long long milli = s / 1000;
  unsigned long long q = (a + milli / 2) / milli;  // value in 1/1000 units
  unsigned long long ip = q / 1000, fp = q % 1000;
  char buf[64];
  if (fp == 0) {
    std::snprintf(buf, sizeof buf, "%s%llu %s", neg ? "-" : "", ip, unit);
  } else {
    char frac[8];
    std::snprintf(frac, sizeof frac, "%03llu", fp);
    int len = 3;
    while (len > 0 && frac[len - 1] == '0') --len;
    frac[len] = 0;
    std::snprintf(buf, sizeof buf, "%s%llu.%s %s", neg ? "-" : "", ip, frac, unit);
  }
  return buf;
}
}  // namespace

std::string formatDuration(TimeNs ns) {
  const TimeNs a = ns < 0 ? -ns : ns;
  if (a < 1000) return std::to_string(ns) + " ns";
  if (a < 1000000) return scaled(ns, 1000, "us");
  if (a < 1000000000) return scaled(ns, 1000000, "ms");
  return scaled(ns, 1000000000, "s");
}

std::string formatTickLabel(TimeNs ns, TimeNs step) {
  if (step <= 0) return formatDuration(ns);
  const bool neg = ns < 0;
  const unsigned long long a = neg ? 0ull - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
  unsigned long long unit = 1;
  const char* name = "ns";
  if (a >= 1000000000ull) {
    unit = 1000000000ull;
    name = "s";
  } else if (a >= 1000000ull) {
    unit = 1000000ull;
    name = "ms";
  } else if (a >= 1000ull) {
    unit = 1000ull;
    name = "us";
  }
  // Decimals: the fewest for which one digit (unit / 10^d ns) is at most the step.
  int decimals = 0;
  unsigned long long digit = unit;
  while (digit > static_cast<unsigned long long>(step) && decimals < 9) {
    digit /= 10;
    ++decimals;
  }
  const unsigned long long q = (a + digit / 2) / digit;  // value in digits, rounded
  const unsigned long long perUnit = unit / digit;
  char buf[64];
  if (decimals == 0) {
    std::snprintf(buf, sizeof buf, "%s%llu %s", neg ? "-" : "", q, name);
  } else {
    std::snprintf(buf, sizeof buf, "%s%llu.%0*llu %s", neg ? "-" : "", q / perUnit, decimals, q % perUnit, name);
  }
  return buf;
}

std::string formatTimestampUs(TimeNs ns) {
  const bool neg = ns < 0;
  const unsigned long long a = neg ? 0ull - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu us", neg ? "-" : "", a / 1000, a % 1000);
  return buf;
}

}  // namespace npuscope::core
