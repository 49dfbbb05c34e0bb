// SPDX-License-Identifier: MIT
#pragma once
// The parallel simdjson reader: splits the top-level event array into byte ranges cut at event
// boundaries, parses each range on its own thread into detail::WorkerOut records, and checks
// that consecutive ranges meet exactly (a range start that fell inside an event is re-parsed
// sequentially). Internal to core; the public entry point is loadTrace (core/trace.h).

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "core/raw_events.h"
#include "core/trace.h"

namespace npuscope::core::detail {

/// Facts read outside the event array (object form).
struct TopLevelInfo {
  bool objectForm = false;
  bool foundEvents = false;        ///< an event array was found
  std::optional<int> rank;         ///< distributedInfo.rank
  std::optional<std::int64_t> baseTimeNanoseconds;
  std::string traceName;
  std::string displayTimeUnit;
};

/// Result of reading the JSON bytes: worker outputs in file order plus top-level facts.
struct ReadResult {
  std::vector<WorkerOut> parts;
  TopLevelInfo top;
  std::string error;               ///< hard error (empty file, not JSON), else empty
  std::vector<std::string> notes;  ///< informational ("closing bracket added")
  bool cancelled = false;
};

/// Reads every event of `bytes` (the whole file). `parts` = number of parallel ranges (>= 1).
/// `progress` receives the fraction of bytes read, from the calling thread.
[[nodiscard]] ReadResult readTraceEvents(std::string_view bytes, unsigned parts,
                                         const LoadOptions& options);

}  // namespace npuscope::core::detail
