// SPDX-License-Identifier: MIT
#pragma once
// Which processes hold Overlap Analysis lanes: the profiler's and npuscope's computed ones.

#include <string_view>

#include "core/model/trace.h"

namespace npuscope::core {

/// The process the `.db` reader computes the Overlap Analysis lanes into when the export has no
/// OVERLAP_ANALYSIS table (format notes §4.1). Its role stays Other so that no analysis takes
/// it for the profiler's record; views place it where the recorded one goes (showsOverlap).
inline constexpr std::string_view kComputedOverlapProcess = "Overlap Analysis (computed by npuscope)";

/// Whether `p` holds Overlap Analysis lanes: the profiler's (Role::OverlapAnalysis) or
/// npuscope's computed ones (named kComputedOverlapProcess). For display order and overlays
/// only; the analyses read the recorded role alone.
[[nodiscard]] inline bool showsOverlap(const Process& p) {
  return p.role == Process::Role::OverlapAnalysis ||
         (p.role == Process::Role::Other && p.name == kComputedOverlapProcess);
}

}  // namespace npuscope::core
