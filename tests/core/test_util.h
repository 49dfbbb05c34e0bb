// SPDX-License-Identifier: MIT
#pragma once
// Small helpers shared by the core tests: locate shared/ inputs, find lanes and slices by name.

#include <chrono>
#include <filesystem>
#include <fstream>
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

/// A fresh folder under the system temp folder (npuscope-test-{tag}-{clock}), removed with all
/// it holds on destruction, after giving the owner back every permission a test took away (an
/// unreadable ASCEND_PROFILER_OUTPUT). Never throws.
struct TempDir {
  std::filesystem::path root;
  explicit TempDir(const std::string& tag = "tmp") {
    root = std::filesystem::temp_directory_path() /
           ("npuscope-test-" + tag + "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::error_code ec;
    std::filesystem::create_directories(root, ec);
  }
  ~TempDir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::add, ec);
    for (const auto& e : fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec))
      fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(root, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// Writes `text` to root / `rel` (binary), creating its folders.
  void write(const std::filesystem::path& rel, const std::string& text) const {
    std::error_code ec;
    std::filesystem::create_directories((root / rel).parent_path(), ec);
    std::ofstream f(root / rel, std::ios::binary);
    f << text;
  }
};

}  // namespace npuscope::test
