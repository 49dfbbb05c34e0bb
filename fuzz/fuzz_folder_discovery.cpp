// SPDX-License-Identifier: MIT
// Fuzz target: folder discovery (discoverProfile) and the whole load (loadProfile, one thread)
// on a directory tree made from the input in a temporary folder: odd names, empty files, files
// with content, symlinks (loops, dangling, to a folder, to a file), FIFOs named like profiler
// files. The report of what loaded must be valid UTF-8 JSON. Nothing outside the temporary
// folder is ever created or pointed at.
//
// Input: lines, each one entry, made in order (a line that cannot be made is ignored):
//   d PATH            a folder (and its parents)
//   f PATH            an empty file
//   w PATH<TAB>TEXT   a file holding TEXT (`\n` in TEXT written as the two bytes `\` `n`
//                     becomes a line end, so CSV and JSON fit on one line)
//   l PATH<TAB>TARGET a symbolic link to TARGET (relative; no `/` at the start, no `..` except
//                     the whole target `..`, so every link stays inside the tree)
//   p PATH            a FIFO
//   o PATH            the path to open (default: the tree's root)
// PATH is relative, at most 8 components, no `..` or empty component; at most 64 entries.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/model/trace.h"
#include "core/profile/profile.h"
#include "core/report/report.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

/// A safe relative path: not empty, no NUL, no leading `/`, no `.` / `..` / empty component,
/// at most 8 components of at most 255 bytes.
bool safeRelative(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.find('\0') != std::string_view::npos) return false;
  int components = 0;
  std::size_t begin = 0;
  while (begin <= p.size()) {
    std::size_t end = p.find('/', begin);
    if (end == std::string_view::npos) end = p.size();
    const std::string_view c = p.substr(begin, end - begin);
    if (c.empty() || c == "." || c == ".." || c.size() > 255 || ++components > 8) return false;
    begin = end + 1;
  }
  return true;
}

std::string unescapeLineEnds(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

/// Writes `text` to `p` (replacing it); a path that cannot be written is left alone.
void writeFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

/// Whether `p`, with every symlink that exists on it followed, lies inside `root` (canonical):
/// a link to `..` inside a link to `..` must not lead out of the tree.
bool inside(const fs::path& p, const std::string& root) {
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(p, ec).string();
  return !ec && (resolved == root || resolved.starts_with(root + "/"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path root = fuzz::tempRoot() / "tree";
  std::error_code ec;
  fs::remove_all(root, ec);  // symlinks are removed, never followed
  fs::create_directory(root, ec);
  if (ec) fuzz::fail("cannot create " + root.string(), ec.message());
  const std::string rootText = fs::canonical(root, ec).string();

  std::string_view rest(reinterpret_cast<const char*>(data), size);
  fs::path open = root;
  int entries = 0;
  while (!rest.empty() && entries < 64) {
    std::size_t eol = rest.find('\n');
    const std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view{} : rest.substr(eol + 1);
    if (line.size() < 3 || line[1] != ' ') continue;
    const char kind = line[0];
    std::string_view path = line.substr(2);
    std::string_view arg;
    if (const std::size_t tab = path.find('\t'); tab != std::string_view::npos) {
      arg = path.substr(tab + 1);
      path = path.substr(0, tab);
    }
    if (!safeRelative(path)) continue;
    ++entries;
    const fs::path p = root / fs::path(std::string(path));
    if (!inside(p.parent_path(), rootText) || (kind != 'l' && kind != 'p' && !inside(p, rootText))) continue;
    fs::create_directories(p.parent_path(), ec);
    switch (kind) {
      case 'd':
        fs::create_directories(p, ec);
        break;
      case 'f':
        writeFile(p, {});
        break;
      case 'w':
        writeFile(p, unescapeLineEnds(arg));
        break;
      case 'l':
        if (arg == ".." || safeRelative(arg)) fs::create_symlink(std::string(arg), p, ec);
        break;
      case 'p':
        (void)::mkfifo(p.c_str(), 0600);
        break;
      case 'o':
        open = p;
        break;
      default:
        break;
    }
  }

  if (!inside(open, rootText)) open = root;
  const core::ProfileLayout layout = core::discoverProfile(open.string());
  if (layout.ranks.empty() && layout.error.empty()) fuzz::fail("no rank and no error for " + open.string());
  core::LoadOptions options;
  options.threads = 1;
  const core::ProfileLoadResult loaded = core::loadProfile(open.string(), options);
  if (!loaded.ok()) {
    if (loaded.error.empty()) fuzz::fail("a failed loadProfile without an error message");
    return 0;
  }
  fuzz::requireValidJson(core::reportJson(*loaded.profile), "reportJson");
  (void)core::reportText(*loaded.profile);
  return 0;
}
