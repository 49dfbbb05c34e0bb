// SPDX-License-Identifier: MIT
// Issue 15, item 2: a trace file that shrinks while or after it is memory-mapped (a log rotated,
// a copy still in progress) used to kill npuscope with SIGBUS on the next touch of a lost page.
// Each case truncates a file written to a fresh temp folder; the sizes are the test's own.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/base/mapped_file.h"
#include "core/model/slice_args.h"
#include "core/model/trace.h"

using namespace npuscope;

namespace {

namespace fs = std::filesystem;

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& tag) {
    path = fs::temp_directory_path() /
           ("npuscope-test-" + tag + "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
            ".json");
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  void write(const std::string& text) const {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
};

/// `n` X slices named "op" of 1 us each on pid 1 / tid 1, 2 us apart, each with an args object
/// padded to about `argBytes` bytes.
std::string traceOf(std::size_t n, std::size_t argBytes) {
  const std::string pad(argBytes, 'a');
  std::string s = "[\n";
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ",\n";
    s += R"({"ph":"X","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(1000 + 2 * i) +
         R"(,"dur":1,"args":{"pad":")" + pad + R"("}})";
  }
  s += "\n]\n";
  return s;
}

}  // namespace

TEST_CASE("a mapped file truncated after it was opened reads as zeros past its new end, with a message") {
  TempFile f("shrink-mapped");
  const std::string text(1u << 20, 'x');  // 1 MiB of 'x'
  f.write(text);
  std::string error;
  const auto file = core::MappedFile::open(f.path.string(), error);
  REQUIRE(file);
  REQUIRE(file->bytes().size() == text.size());
  CHECK(file->shrinkMessage().empty());
  REQUIRE(::truncate(f.path.c_str(), 4096) == 0);
  // Touch every byte: without the guard the first page past 4096 raises SIGBUS.
  std::size_t xs = 0, zeros = 0;
  for (const char c : file->bytes()) (c == 'x' ? xs : zeros) += (c == 'x' || c == '\0') ? 1 : 0;
  CHECK(xs == 4096);
  CHECK(zeros == text.size() - 4096);
  CHECK(file->validSize() == 4096);
  CHECK(file->shrinkMessage() == f.path.string() + " shrank from 1048576 to 4096 bytes after it was opened "
                                                   "(truncated or rewritten while npuscope read it): the bytes past 4096 read as zeros");
}

TEST_CASE("args read after the trace file was truncated give a message, not a signal") {
  TempFile f("shrink-args");
  // 2000 slices with ~1 KB of args each: about 2.1 MB, so the args of the last slice are far
  // past the first pages.
  f.write(traceOf(2000, 1000));
  const core::LoadResult r = core::loadTrace(f.path.string());
  REQUIRE(r.ok());
  REQUIRE(r.trace->lanes.size() == 1);
  REQUIRE(r.trace->lanes[0].sliceCount() == 2000);
  const core::SliceRef last{0, 1999};
  REQUIRE(core::sliceArg(*r.trace, last, "pad") == std::string(1000, 'a'));
  CHECK(core::argsLostMessage(*r.trace, last).empty());

  REQUIRE(::truncate(f.path.c_str(), 0) == 0);
  const auto args = core::sliceArgs(*r.trace, last);
  REQUIRE(args.size() == 1);
  CHECK(args[0].first == "(args lost)");
  CHECK(args[0].second.find("shrank from") != std::string::npos);
  CHECK(args[0].second.find(" to 0 bytes") != std::string::npos);
  // The lookup used by the analyses finds nothing (the bytes are zeros) rather than crashing.
  CHECK_FALSE(core::sliceArg(*r.trace, last, "pad"));
  CHECK(core::sliceArgsJson(*r.trace, last).find("aaaa") == std::string::npos);
}

TEST_CASE("a trace file truncated while it is read loads what was left, with a message") {
  TempFile f("shrink-during");
  // About 8 MB in 80,000 small slices; the read's hook (LoadOptions::readHook, called on the
  // parsing thread every MiB or so, the read waiting for it) cuts the file to a third of its size
  // once 1 MiB has been read: a byte position, not a time, so the same on every machine.
  const std::string text = traceOf(80000, 16);
  f.write(text);
  const std::size_t cut = text.size() / 3;
  core::LoadOptions o;
  o.threads = 1;
  bool truncated = false;
  std::size_t truncatedAt = 0;
  o.readHook = [&](std::size_t offset) {
    if (truncated) return;
    truncated = ::truncate(f.path.c_str(), static_cast<off_t>(cut)) == 0;
    truncatedAt = offset;
  };
  const core::LoadResult r = core::loadTrace(f.path.string(), o);
  INFO("truncated at byte " << truncatedAt);
  REQUIRE(truncated);
  CHECK(truncatedAt < cut);
  REQUIRE(r.ok());
  bool noted = false;
  for (const auto& n : r.trace->notes) noted = noted || n.find("shrank from " + std::to_string(text.size())) != std::string::npos;
  CHECK(noted);
  // Every slice kept lies in the file as it was; not all of it survived the cut.
  REQUIRE(r.trace->lanes.size() == 1);
  CHECK(r.trace->lanes[0].sliceCount() < 80000);
}
