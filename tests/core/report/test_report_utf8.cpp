// SPDX-License-Identifier: MIT
// Issue 15, item 8: `report --json` must be valid UTF-8 JSON whatever the files and their names
// hold. Each report is checked by python3's own strict decoder and JSON parser (a route that
// shares no code with npuscope), fed through a pipe.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/base/json_text.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "tests/core/test_util.h"

using namespace npuscope;
using npuscope::test::shared;

namespace {

namespace fs = std::filesystem;

/// What python3 says of `text`: "ok" when it decodes as strict UTF-8 and parses as JSON, else
/// its error. "no python3" when it cannot be run.
std::string pythonJsonVerdict(const std::string& text) {
  const fs::path tmp = fs::temp_directory_path() /
                       ("npuscope-test-report-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
  }
  const std::string cmd =
      "python3 -c 'import json,sys\ntry:\n json.loads(open(sys.argv[1],\"rb\").read().decode(\"utf-8\",\"strict\"))\n "
      "print(\"ok\")\nexcept Exception as e:\n print(type(e).__name__, e)' '" +
      tmp.string() + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  } else {
    out = "no python3";
  }
  std::error_code ec;
  fs::remove(tmp, ec);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

TEST_CASE("appendJsonString replaces every byte that is not valid UTF-8 by U+FFFD") {
  // Hand-made: FF and FE are never UTF-8; C3 28 is a lead byte with a bad continuation; E9 alone
  // is Latin-1; C0 80 is an overlong NUL; ED A0 80 a UTF-16 surrogate; F4 90 80 80 is past
  // U+10FFFF; E4 B8 AD is a valid "中" (kept).
  std::string out;
  core::appendJsonString(out, "a\xFF\xFE|\xC3\x28|\xE9|\xC0\x80|\xED\xA0\x80|\xF4\x90\x80\x80|\xE4\xB8\xAD");
  const std::string r = "\xEF\xBF\xBD";
  CHECK(out == "\"a" + r + r + "|" + r + "(|" + r + "|" + r + r + "|" + r + r + r + "|" + r + r + r + r + "|\xE4\xB8\xAD\"");
  CHECK(pythonJsonVerdict(out) == "ok");
}

TEST_CASE("case 19: report --json of invalid UTF-8 and control characters is valid UTF-8 JSON") {
  for (const char* f : {"", "/a_invalid_utf8.json", "/b_raw_control_chars.json", "/c_unicode_escapes.json"}) {
    const auto r = core::loadProfile(shared(std::string("cases/19-invalid-utf8-control-chars") + f));
    REQUIRE(r.ok());
    INFO(f);
    CHECK(pythonJsonVerdict(core::reportJson(*r.profile)) == "ok");
  }
}

TEST_CASE("a trace file whose name is not valid UTF-8 loads, and its JSON report is valid UTF-8") {
  const fs::path dir = fs::temp_directory_path() /
                       ("npuscope-test-badname-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(dir);
  // Latin-1 "é" (E9) and a stray FF in the file name: bytes the file system takes as they are.
  const fs::path file = dir / "caf\xE9_\xFF.json";
  {
    std::ofstream f(file, std::ios::binary);
    f << R"([{"ph":"X","name":"op\u00e9","pid":1,"tid":1,"ts":1000,"dur":10}])";
  }
  const auto r = core::loadProfile(dir.string());
  REQUIRE(r.ok());
  REQUIRE(r.profile->ranks.size() == 1);
  CHECK(r.profile->ranks[0].trace != nullptr);
  const std::string json = core::reportJson(*r.profile);
  CHECK(pythonJsonVerdict(json) == "ok");
  CHECK(json.find("caf\xEF\xBF\xBD_\xEF\xBF\xBD.json") != std::string::npos);  // the name, bad bytes replaced
  std::error_code ec;
  fs::remove_all(dir, ec);
}
