// SPDX-License-Identifier: MIT
#pragma once
// What the libFuzzer targets of fuzz/ share (issue 15): a private temporary folder per process,
// writing the input to a file there, the strict check that a JSON text npuscope wrote is valid
// UTF-8 JSON (simdjson's DOM parser validates both), and the abort that reports a finding.
// A target aborts (a libFuzzer crash, kept as crash-<sha1>) on any broken promise: invalid JSON
// out, two readers disagreeing. Crashes, leaks, UB, timeouts and memory beyond -rss_limit_mb
// are found by the sanitizers and libFuzzer themselves.

#include <unistd.h>

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

/// Aborts unless `text` is one valid JSON document in valid UTF-8 (RFC 8259, RFC 3629).
inline void requireValidJson(const std::string& text, const char* what) {
  static simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (const auto error = parser.parse(text).get(doc); error)
    fail(std::string(what) + " is not valid UTF-8 JSON: " + simdjson::error_message(error), text);
}

/// This process's own temporary folder ($TMPDIR or /tmp, npuscope-fuzz-XXXXXX), created on first
/// use and removed at exit. Never a path of the input.
inline const std::filesystem::path& tempRoot() {
  // Leaked on purpose: the atexit cleanup runs after static destructors registered later.
  static const std::filesystem::path* root = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/npuscope-fuzz-XXXXXX";
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
