// SPDX-License-Identifier: MIT
// Issue 15, items 1, 3 and 8: what a user's disk can hold besides profiler files. Symlink loops
// and dangling links inside a profiling folder (directory_entry::is_directory() threw
// std::filesystem::filesystem_error and aborted npuscope), a FIFO or a device node named like a
// profiler file (the open blocked forever), a folder where a file was expected, a path longer
// than PATH_MAX, an unreadable ASCEND_PROFILER_OUTPUT. Every tree is built in a fresh temp
// folder; the expected messages are the sentences of core/base/file_access.h.
#include <catch2/catch.hpp>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/base/file_access.h"
#include "core/profile/profile.h"
#include "core/tables/communication_json.h"
#include "core/tables/tables.h"

#include "tests/core/test_util.h"

using namespace npuscope;

namespace {

namespace fs = std::filesystem;

using npuscope::test::TempDir;

/// One X slice of 10 us (1000 us .. 1010 us): a trace that loads.
const char* kTrace = R"([{"ph":"X","name":"op","pid":1,"tid":1,"ts":1000,"dur":10}])";

bool hasMessageWith(const std::vector<std::string>& messages, const std::string& part) {
  return std::any_of(messages.begin(), messages.end(), [&](const std::string& m) { return m.find(part) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& messages) {
  std::string s;
  for (const auto& m : messages) s += m + " | ";
  return s;
}

}  // namespace

TEST_CASE("symlink loops and dangling links inside a profiling folder are skipped, not thrown") {
  TempDir dir("symlinks");
  dir.write("a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", kTrace);
  // In the parent (walked two levels deep for rank folders), in the rank folder (walked for
  // PROF_*), and in ASCEND_PROFILER_OUTPUT (walked for the .db export).
  for (const fs::path& d : {dir.root, dir.root / "a_ascend_pt", dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT"}) {
    fs::create_symlink("loop", d / "loop");                // loop -> loop: ELOOP on stat
    fs::create_symlink("PROF_1", d / "PROF_1");            // a loop named like msprof's folder
    fs::create_symlink("nowhere", d / "dangling");         // dangling
    fs::create_symlink("nowhere", d / "PROF_2");           // dangling, named like msprof's folder
  }
  fs::create_symlink("x_ascend_pt", dir.root / "x_ascend_pt");  // a loop named like a rank folder
  // std::filesystem's throwing overload on the loop is what used to abort npuscope.
  CHECK_THROWS_AS(fs::directory_entry(dir.root / "loop").is_directory(), fs::filesystem_error);

  const core::ProfileLayout layout = core::discoverProfile(dir.root.string());
  INFO(layout.error << " / " << joined(layout.messages));
  REQUIRE(layout.error.empty());
  REQUIRE(layout.ranks.size() == 1);  // a_ascend_pt only: the links lead nowhere
  CHECK(layout.ranks[0].traceFile == (dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json").string());

  const auto r = core::loadProfile(dir.root.string());
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  CHECK(r.profile->ranks[0].trace != nullptr);

  // Opened directly, the loop and the dangling link say what they are.
  CHECK(core::discoverProfile((dir.root / "loop").string()).error.find("symbolic link loop") != std::string::npos);
  CHECK(core::discoverProfile((dir.root / "dangling").string()).error.find("dangling symbolic link") !=
        std::string::npos);
}

TEST_CASE("trace_view.json as a symlink loop or a dangling link is named in the messages") {
  TempDir dir("symlink-trace");
  fs::create_directories(dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT");
  fs::create_symlink("trace_view.json", dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
  fs::create_symlink("nowhere.csv", dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
  const core::ProfileLayout layout = core::discoverProfile((dir.root / "a_ascend_pt").string());
  INFO(layout.error << " / " << joined(layout.messages));
  CHECK(layout.ranks.empty());
  CHECK(layout.error.find("ASCEND_PROFILER_OUTPUT/trace_view.json is a symbolic link loop") != std::string::npos);
  CHECK(layout.error.find("ASCEND_PROFILER_OUTPUT/kernel_details.csv is a dangling symbolic link") != std::string::npos);
}

TEST_CASE("a FIFO named like a profiler file never blocks and is named as a FIFO") {
  TempDir dir("fifo");
  dir.write("a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", kTrace);
  const fs::path out = dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT";
  // Nobody ever writes into these: opening one for reading without O_NONBLOCK blocks forever.
  REQUIRE(::mkfifo((out / "kernel_details.csv").c_str(), 0600) == 0);
  REQUIRE(::mkfifo((out / "communication.json").c_str(), 0600) == 0);
  REQUIRE(::mkfifo((dir.root / "a_ascend_pt/profiler_info_0.json").c_str(), 0600) == 0);
  REQUIRE(::mkfifo((dir.root / "fifo.json").c_str(), 0600) == 0);

  const auto r = core::loadProfile((dir.root / "a_ascend_pt").string());
  REQUIRE(r.ok());
  INFO(joined(r.profile->messages));
  CHECK(hasMessageWith(r.profile->messages, "ASCEND_PROFILER_OUTPUT/kernel_details.csv is a FIFO (named pipe), not a file: skipped"));
  CHECK(hasMessageWith(r.profile->messages, "ASCEND_PROFILER_OUTPUT/communication.json is a FIFO (named pipe), not a file: skipped"));
  CHECK(hasMessageWith(r.profile->messages, "profiler_info_0.json is a FIFO (named pipe), not a file"));
  REQUIRE(r.profile->ranks.size() == 1);
  CHECK(r.profile->ranks[0].trace != nullptr);

  // Each reader on its own, handed the FIFO's path.
  const std::string fifo = (dir.root / "fifo.json").string();
  const core::LoadResult lr = core::loadTrace(fifo);
  CHECK_FALSE(lr.ok());
  CHECK(lr.error == fifo + " is a FIFO (named pipe), not a file");
  CHECK(core::readCsv((out / "kernel_details.csv").string()).error ==
        (out / "kernel_details.csv").string() + " is a FIFO (named pipe), not a file");
  CHECK(core::readCommunicationJson((out / "communication.json").string()).error ==
        (out / "communication.json").string() + " is a FIFO (named pipe), not a file");
  const core::ProfileLayout direct = core::discoverProfile(fifo);
  CHECK(direct.error == fifo + " is a FIFO (named pipe), not a file");
}

TEST_CASE("a device node named like a profiler file is not opened") {
  // /dev/zero never ends and /dev/tty may block: a link to either named trace_view.json must be
  // refused by its type, before any read.
  TempDir dir("device");
  fs::create_directories(dir.root / "d");
  fs::create_symlink("/dev/zero", dir.root / "d/trace_view.json");
  const std::string path = (dir.root / "d/trace_view.json").string();
  const core::LoadResult lr = core::loadTrace(path);
  CHECK_FALSE(lr.ok());
  CHECK(lr.error == path + " is a character device, not a file");
}

TEST_CASE("a folder where a file was expected is named as a folder") {
  TempDir dir("folder-as-file");
  dir.write("a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", kTrace);
  fs::create_directories(dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
  const auto r = core::loadProfile((dir.root / "a_ascend_pt").string());
  REQUIRE(r.ok());
  INFO(joined(r.profile->messages));
  CHECK(hasMessageWith(r.profile->messages, "ASCEND_PROFILER_OUTPUT/kernel_details.csv is a folder, not a file: skipped"));
  const std::string folder = (dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv").string();
  CHECK(core::loadTrace(folder).error == folder + " is a folder, not a file");
  CHECK(core::readCsv(folder).error == folder + " is a folder, not a file");
}

TEST_CASE("a path longer than PATH_MAX gets its own message") {
  TempDir dir("long-path");
  std::string path = dir.root.string();
  while (path.size() <= PATH_MAX) path += "/abcdefghij";
  path += "/trace_view.json";
  const core::LoadResult lr = core::loadTrace(path);
  CHECK_FALSE(lr.ok());
  CHECK(lr.error.find("is longer than PATH_MAX (" + std::to_string(PATH_MAX) + " bytes)") != std::string::npos);
  CHECK(core::discoverProfile(path).error.find("is longer than PATH_MAX") != std::string::npos);
}

namespace {

/// discoverProfile(path).error, found by a process that is not root. When this one is root (root
/// reads any folder whatever its mode), a forked child drops to uid / gid 65534 (nobody) first and
/// sends the error back through a pipe. Empty optional when that drop is refused (a container
/// without CAP_SETUID, or 65534 unmapped) or when nobody cannot enter `path` itself (a private
/// temp folder): the case cannot be built here.
std::optional<std::string> discoverErrorAsNonRoot(const std::string& path, bool* ranksEmpty) {
  if (::geteuid() != 0) {
    const core::ProfileLayout layout = core::discoverProfile(path);
    *ranksEmpty = layout.ranks.empty();
    return layout.error;
  }
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0 ||
        ::access(path.c_str(), R_OK | X_OK) != 0)
      ::_exit(3);
    const core::ProfileLayout layout = core::discoverProfile(path);
    const std::string& e = layout.error;
    const bool wrote = ::write(fds[1], e.data(), e.size()) == static_cast<ssize_t>(e.size());
    ::_exit(!wrote ? 5 : layout.ranks.empty() ? 0 : 4);
  }
  ::close(fds[1]);
  std::string error;
  char buffer[512];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) error.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) == 3)
    return std::nullopt;
  REQUIRE((WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 4));
  *ranksEmpty = WEXITSTATUS(status) == 0;
  return error;
}

}  // namespace

TEST_CASE("an unreadable ASCEND_PROFILER_OUTPUT is named with the reason") {
  TempDir dir("unreadable");
  dir.write("a_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", kTrace);
  fs::permissions(dir.root / "a_ascend_pt/ASCEND_PROFILER_OUTPUT", fs::perms::none);
  bool ranksEmpty = false;
  const std::optional<std::string> error = discoverErrorAsNonRoot((dir.root / "a_ascend_pt").string(), &ranksEmpty);
  if (!error) {
    WARN("running as root, and uid 65534 is refused or cannot enter the temp folder: the unreadable-folder case is not checked here");
    return;
  }
  INFO(*error);
  CHECK(ranksEmpty);
  CHECK(error->find("ASCEND_PROFILER_OUTPUT cannot be listed: Permission denied") != std::string::npos);
}

TEST_CASE("listDirectory of a missing folder is empty with a message, describeNotRegularFile of a file is empty") {
  TempDir dir("list");
  dir.write("f.json", "{}");
  std::string error;
  CHECK(core::listDirectory(dir.root / "missing", &error).empty());
  CHECK(error.find("cannot be listed") != std::string::npos);
  CHECK(core::listDirectory(dir.root).size() == 1);
  CHECK(core::describeNotRegularFile((dir.root / "f.json").string()).empty());
  CHECK(core::describeNotRegularFile((dir.root / "missing").string()) == "does not exist");
}
