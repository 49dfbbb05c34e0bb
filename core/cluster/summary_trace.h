// SPDX-License-Identifier: MIT
#pragma once
// A rank read from a summary, drawn on the timeline (issue 40 item 5): one small Trace per rank,
// built through the format-neutral TraceBuilder like any other input, with the lanes a summary
// can fill: its steps, its HCCL ops (one lane per HCCL group lane, as the trace had them) and its
// longest bubbles with their causes.

#include <memory>

#include "core/analysis/rank_summary.h"
#include "core/model/trace.h"

namespace npuscope::core {

/// The trace of summary `s`: process "Summary" (label "NPU d", so its lanes sit under the rank's
/// device header), lanes "Steps" (a slice "Step N" per step's device window), one per HCCL group
/// lane (each op as a slice with its five figures as args) and "Longest bubbles" (a slice per
/// kept bubble, named by cause, its detail and chain as args). Sets each op's CommOp::slice in
/// `s` to its slice, so the Cluster dock can outline it. `path` is the summary file. Never
/// throws but std::bad_alloc.
[[nodiscard]] std::shared_ptr<Trace> traceOfSummary(RankSummary& s, const std::string& path);

}  // namespace npuscope::core
