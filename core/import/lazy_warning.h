// SPDX-License-Identifier: MIT
#pragma once
// Counting repeated anomalies without formatting each one (issue 15 item 6): ImportStats keeps
// only the first kExamplesPerKind example texts per kind, so building the text of every
// occurrence (200 MB of commas = 100 M "empty element at byte N" strings) is wasted work.

#include <string>

#include "core/model/import_stats.h"

namespace npuscope::core::detail {

/// Counts warning `w` in `stats`; calls `example()` (which returns the example text) only while
/// the kind still has room for an example. Same result as stats.add(w, example()).
template <class F>
void addWarning(ImportStats& stats, ImportWarning w, F&& example) {
  if (stats.count(w) < ImportStats::kExamplesPerKind) {
    const std::string text = example();
    stats.add(w, text);
  } else {
    stats.add(w);
  }
}

}  // namespace npuscope::core::detail
