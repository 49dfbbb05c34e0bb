// SPDX-License-Identifier: MIT
#pragma once
// Small helpers shared by the core tests: locate shared/ inputs, find lanes and slices by name.

#include <optional>
#include <string>

#include "core/profile/profile.h"
#include "core/model/trace.h"

namespace npuscope::test {

/// Path of a file under ../shared (NPUSCOPE_SHARED_DIR).
inline std::string shared(const std::string& rel) { return std::string(NPUSCOPE_SHARED_DIR) + "/" + rel; }

/// Loads a trace file; fails the test (REQUIRE) when it does not load.
std::shared_ptr<const core::Trace> load(const std::string& path, unsigned threads = 1);

/// Loads JSON text in memory with `threads` parse parts; fails the test when it does not load.
std::shared_ptr<core::Trace> loadMemory(const std::string& json, unsigned threads = 1);

/// Index of the lane "process / thread" (by names), or -1.
int laneIndex(const core::Trace& t, const std::string& process, const std::string& thread);

/// The first slice with `name` on any lane, or an invalid ref.
core::SliceRef findSlice(const core::Trace& t, const std::string& name, int nth = 0);

/// Number of slices named `name` over all lanes.
std::size_t countSlices(const core::Trace& t, const std::string& name);

/// Flows as "fromName->toName" strings, sorted.
std::vector<std::string> flowPairs(const core::Trace& t);

}  // namespace npuscope::test
