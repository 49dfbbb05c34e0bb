// SPDX-License-Identifier: MIT
#pragma once
// What the libFuzzer targets of fuzz/ share (issue 15): a private temporary folder per process,
// writing the input to a file there, the strict check that a JSON text npuscope wrote is valid
// UTF-8 JSON (simdjson's DOM parser validates both), and the abort that reports a finding.
// A target aborts (a libFuzzer crash, kept as crash-<sha1>) on any broken promise: invalid JSON
// out, two readers disagreeing. Crashes, leaks, UB, timeouts and memory beyond -rss_limit_mb
// are found by the sanitizers and libFuzzer themselves.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace npuscope::fuzz {

/// Prints `what` (and up to 2000 bytes of `detail`) to stderr and aborts: a finding.
[[noreturn]] inline void fail(const std::string& what, std::string_view detail = {}) {
  std::fprintf(stderr, "npuscope fuzz finding: %s\n%.*s\n", what.c_str(),
               static_cast<int>(std::min<std::size_t>(detail.size(), 2000)), detail.data());
  std::abort();
}

/// Aborts (a finding) with the first line where `a` and `b` differ and a few lines around it: two
/// readings of the same input that should be alike (the fingerprints can be long).
[[noreturn]] inline void failDiff(const std::string& what, const std::string& nameA, std::string_view a,
                                  const std::string& nameB, std::string_view b) {
  std::size_t at = 0, line = 0, lineStart = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) {
    if (a[at] == '\n') {
      ++line;
      lineStart = at + 1;
    }
    ++at;
  }
  // From two lines before the difference, up to 600 bytes of each side.
  std::size_t from = lineStart;
  for (int k = 0; k < 2 && from > 0; ++k) {
    from = a.rfind('\n', from - 2);
    from = from == std::string_view::npos ? 0 : from + 1;
  }
  const auto part = [&](std::string_view t) { return t.substr(std::min(from, t.size()), 600); };
  fail(what + " (first difference on line " + std::to_string(line + 1) + ")",
       nameA + ":\n" + std::string(part(a)) + "\n---- " + nameB + ":\n" + std::string(part(b)));
}

/// Aborts unless `text` is one valid JSON document in valid UTF-8 (RFC 8259, RFC 3629).
inline void requireValidJson(const std::string& text, const char* what) {
  static simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (const auto error = parser.parse(text).get(doc); error)
    fail(std::string(what) + " is not valid UTF-8 JSON: " + simdjson::error_message(error), text);
}

/// This process's own temporary folder (npuscope-fuzz-XXXXXX in $TMPDIR when set, else in
/// /dev/shm when it is a writable folder, else in /tmp), created on first use and removed at exit.
/// Never a path of the input. Why /dev/shm (tmpfs) first: on the build machine's ext4 /tmp,
/// rewriting a file in place (truncate, write, close) makes ext4 flush it to disk at close
/// (auto_da_alloc): fuzz_gzip spent 80% of its wall time waiting for those writes.
inline const std::filesystem::path& tempRoot() {
  // Leaked on purpose: the atexit cleanup runs after static destructors registered later.
  static const std::filesystem::path* root = [] {
    const char* env = std::getenv("TMPDIR");
    const char* base = env && *env ? env : ::access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string pattern = std::string(base) + "/npuscope-fuzz-XXXXXX";
    if (!::mkdtemp(pattern.data())) fail("cannot create a temporary folder", pattern);
    auto* p = new std::filesystem::path(pattern);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(*root, ec);
    });
    return p;
  }();
  return *root;
}

/// Writes `bytes` to tempRoot()/name (replacing it) and returns the path.
inline std::string writeTempFile(const std::string& name, std::string_view bytes) {
  const std::filesystem::path p = tempRoot() / name;
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail("cannot write " + p.string());
  return p.string();
}

}  // namespace npuscope::fuzz
