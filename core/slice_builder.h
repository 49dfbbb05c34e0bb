// SPDX-License-Identifier: MIT
#pragma once
// Turns the reader's raw records into an indexed Trace: merges the workers' string pools,
// applies metadata, matches B/E, nests slices into depth rows, pairs and binds flows, builds
// counter series and sorts processes and lanes for display. Internal to core.

#include <stop_token>

#include "core/json_trace_reader.h"
#include "core/trace.h"

namespace npuscope::core::detail {

/// Builds `trace` from `read` (consumed). Returns false when cancelled through `stop`.
bool buildTrace(ReadResult&& read, Trace& trace, const std::stop_token& stop);

/// Nesting rule for one thread's complete slices (see Lane): input slices in any order with
/// start/end set; fills `depth` (same size) and returns the number of partially overlapping
/// slices, which are flagged in `flags`. Exposed for tests.
std::size_t assignDepths(const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
                         std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& depth,
                         std::vector<std::uint8_t>& flags);

/// Role of a process from its name (Ascend process names, §2.4 of the format notes).
Process::Role classifyProcess(std::string_view name);

}  // namespace npuscope::core::detail
