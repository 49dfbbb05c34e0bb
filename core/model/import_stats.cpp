// SPDX-License-Identifier: MIT
#include "core/model/import_stats.h"

#include <algorithm>

namespace npuscope::core {

namespace {
constexpr std::string_view kKeys[] = {
#define NPUSCOPE_X(name, label) #name,
    NPUSCOPE_IMPORT_WARNINGS(NPUSCOPE_X)
#undef NPUSCOPE_X
};
constexpr std::string_view kLabels[] = {
#define NPUSCOPE_X(name, label) label,
    NPUSCOPE_IMPORT_WARNINGS(NPUSCOPE_X)
#undef NPUSCOPE_X
};
}  // namespace

std::string_view warningKey(ImportWarning w) { return kKeys[static_cast<std::size_t>(w)]; }
std::string_view warningLabel(ImportWarning w) { return kLabels[static_cast<std::size_t>(w)]; }

void ImportStats::add(ImportWarning w, std::string_view example) {
  const auto k = static_cast<std::size_t>(w);
  if (counts[k]++ < kExamplesPerKind && !example.empty()) examples.emplace_back(w, std::string(example));
}

void ImportStats::add(ImportWarning w, std::uint64_t n, std::string_view example) {
  if (n == 0) return;
  const auto k = static_cast<std::size_t>(w);
  std::uint64_t shown = 0;
  for (const auto& e : examples) shown += e.first == w ? 1 : 0;
  counts[k] += n;
  if (shown < kExamplesPerKind && !example.empty()) examples.emplace_back(w, std::string(example));
}

std::uint64_t ImportStats::total() const {
  std::uint64_t t = 0;
  for (std::size_t k = 0; k < kKinds; ++k)
    if (!informational(static_cast<ImportWarning>(k))) t += counts[k];
  return t;
}

void ImportStats::merge(const ImportStats& other) {
  for (std::size_t k = 0; k < kKinds; ++k) {
    std::uint64_t shown = 0;
    for (const auto& e : examples) shown += (static_cast<std::size_t>(e.first) == k);
    for (const auto& e : other.examples) {
      if (static_cast<std::size_t>(e.first) == k && shown < kExamplesPerKind) {
        examples.push_back(e);
        ++shown;
      }
    }
    counts[k] += other.counts[k];
  }
  // Grouped by kind, each kind's in the order met: the same list whatever the split into parts
  // (a load in parts merges them one after another; a kind's examples could otherwise follow
  // another kind's of a later part: found by the MalformedArgs test, issue 15 item 7).
  if (!other.examples.empty())  // nothing added: still grouped (merge runs once per lane job)
    std::stable_sort(examples.begin(), examples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

}  // namespace npuscope::core
