// SPDX-License-Identifier: MIT
#pragma once
// The allocator's memory curve on the timeline (issue 13, tutorial §4 "a memory curve linked to
// the timeline"): the rows of memory_record.csv, or of the .db export's MEMORY_RECORD, become
// counter series of one process of the rank's trace, drawn like every other counter lane.

#include <cstddef>
#include <string_view>

#include "core/model/trace.h"
#include "core/tables/memory_tables.h"

namespace npuscope::core {

/// The name of the process addMemoryCounters adds ("Memory allocator").
inline constexpr std::string_view kMemoryCurveProcess = "Memory allocator";

/// Appends the allocator's totals of `record` to `trace` as counter series of one new process
/// named kMemoryCurveProcess, labelled `from` (the file or table read, e.g. "memory_record.csv"),
/// role Process::Role::Counter, device trace.deviceId().
///
/// One series per (component, measure) that has at least one value, components in order of first
/// appearance ("PTA", "GE", "PTA+GE", "APP": torch_npu `_memory_view_parser.py`, format notes
/// §5.1), measures Allocated, Reserved, Active: name "<component> Allocated", key "MB", the
/// values in MB as recorded, at the rows' timestamps (ns, the host clock the trace uses). A row
/// without a measure (APP rows hold only Reserved) leaves that series alone: its last value holds,
/// as every counter's does until its next sample. Samples are sorted by time (stable: rows of one
/// timestamp keep file order, the last one wins when drawn). Each series gets its LOD
/// (buildCounterLod).
///
/// Returns the number of series added: 0 (and nothing added, not even the process) when the
/// record has an error or no value. Never throws beyond std::bad_alloc.
std::size_t addMemoryCounters(Trace& trace, const MemoryRecord& record, std::string_view from);

}  // namespace npuscope::core
