// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): the gzip reader alone (GzipStream, core/base/gzip_stream.h:
// zlib's inflate over concatenated members, a stream cut short or corrupt, the inflate limit of
// issue 15 item 6, the UTF-8 BOM and UTF-16 transcoded in pieces), and the UTF-16 transcoder it
// shares with MappedFile and parseCsv (detail::utf16ToUtf8, detail::appendUtf16AsUtf8). No JSON
// reader, no trace.
//
// Input: byte 0 = mode, byte 1 = read-size seed, the rest is the file, written to a temporary file
// (GzipStream reads files). Mode bit 0: the file is named trace.json.gz (gzip whatever its bytes,
// zlib's transparent copy for a file that is not), else trace.json (gzip by its magic 1F 8B
// only: isGzipFile). Bits 1-7 pick the small limit: 1-16 bytes, then 64 to 7,168 bytes in steps
// of 64.
// The file is read three times: with the small limit in reads of 1-16 bytes (sizes from the seed
// byte), with the small limit in reads of 64 KiB, and with a limit of 1 MiB in reads of 64 KiB.
// Checks: the text does not depend on the read sizes (the promise of GzipStream's BOM and UTF-16
// handling); at most the limit is inflated (inflatedBytes), and inflateLimited() only at the
// limit and with a warning; the text read with the small limit is a prefix of the text read with
// the large one (unless transcoded from UTF-16, a cut inside a surrogate pair, or the limit below 3
// bytes, a cut BOM), and equal to it when the small read was not cut; a stream refused (error(),
// corrupt before its first byte) is refused with either limit, and an error leaves no text; a transcoded text is valid
// UTF-8; read() returns 0 again once it has; isGzipFile matches the file's magic. And on the raw
// bytes: utf16ToUtf8 gives valid UTF-8 of at most 3 bytes per 2, and appendUtf16AsUtf8 in two
// pieces (cut where the seed byte says) gives utf16ToUtf8's output.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "core/base/gzip_stream.h"
#include "core/base/mapped_file.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

namespace {

constexpr std::uint64_t kLargeLimit = 1u << 20;

bool validUtf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

void checkUtf16(std::string_view bytes, bool bigEndian, std::size_t cut) {
  const std::string whole = core::detail::utf16ToUtf8(bytes, bigEndian);
  if (!validUtf8(whole)) fuzz::fail("utf16ToUtf8 gave invalid UTF-8", whole);
  if (whole.size() > bytes.size() / 2 * 3) fuzz::fail("utf16ToUtf8 gave more than 3 bytes per code unit", whole);
  // In two pieces: what the first call leaves (an odd byte, a high surrogate) goes with the second.
  cut = std::min(cut, bytes.size());
  std::string pieces;
  const std::size_t used = core::detail::appendUtf16AsUtf8(pieces, bytes.substr(0, cut), bigEndian, false);
  if (used > cut) fuzz::fail("appendUtf16AsUtf8 consumed more than it was given");
  core::detail::appendUtf16AsUtf8(pieces, bytes.substr(used), bigEndian, true);
  if (pieces != whole) fuzz::fail("appendUtf16AsUtf8 in two pieces differs from utf16ToUtf8", pieces);
}

/// One read of the whole text: GzipStream::open with `limit`, then read() in sizes from `sizes`
/// (1-16 bytes, cycling through its bits) or of 64 KiB when it is 0.
struct Read {
  bool opened = false;
  std::string error, text, warning;
  bool limited = false, utf16 = false;
  std::uint64_t inflated = 0;
};

Read readAll(const std::string& path, std::uint64_t limit, unsigned sizes) {
  Read r;
  const std::unique_ptr<core::GzipStream> g = core::GzipStream::open(path, r.error, limit);
  if (!g) {
    if (r.error.empty()) fuzz::fail("a failed GzipStream::open without an error message");
    return r;
  }
  r.opened = true;
  char buf[1 << 16];
  for (unsigned k = 0;; ++k) {
    const std::size_t want = sizes ? 1 + ((sizes >> (k % 5)) + k) % 16 : sizeof buf;
    const std::size_t n = g->read(buf, want);
    if (n > want) fuzz::fail("read() returned more than it was asked for");
    if (n == 0) break;
    r.text.append(buf, n);
    if (r.text.size() > 4 * kLargeLimit) fuzz::fail("more text than 4 times the limit");
  }
  if (g->read(buf, sizeof buf) != 0) fuzz::fail("read() returned bytes after it returned 0");
  r.error = g->error();
  r.warning = g->warning();
  r.limited = g->inflateLimited();
  r.utf16 = g->transcodedUtf16();
  r.inflated = g->inflatedBytes();
  if (!r.error.empty() && !r.text.empty()) fuzz::fail("an error and a text: " + r.error);
  if (r.inflated > limit) fuzz::fail("more inflated than the limit: " + std::to_string(r.inflated));
  if (r.limited && (r.warning.empty() || r.inflated != limit)) fuzz::fail("cut short of the limit, or without a warning");
  if (r.utf16 && !validUtf8(r.text)) fuzz::fail("a text transcoded from UTF-16 is not valid UTF-8", r.text);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const unsigned mode = data[0], seed = data[1];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
  checkUtf16(bytes, (mode & 1u) != 0, seed * 7u % (bytes.size() + 1));

  const bool gzName = (mode & 1u) != 0;
  const bool magic = bytes.size() >= 2 && bytes[0] == '\x1F' && bytes[1] == '\x8B';
  const std::string path = fuzz::writeTempFile(gzName ? "trace.json.gz" : "trace.json", bytes);
  if (core::isGzipFile(path) != (gzName || magic)) fuzz::fail("isGzipFile does not follow the name and the magic");
  const unsigned k = mode >> 1;
  const std::uint64_t smallLimit = k < 16 ? k + 1 : (k - 15) * 64;

  const Read smallPieces = readAll(path, smallLimit, seed | 1u);
  const Read small = readAll(path, smallLimit, 0);
  const Read large = readAll(path, kLargeLimit, 0);
  if (smallPieces.text != small.text || smallPieces.error != small.error || smallPieces.limited != small.limited)
    fuzz::fail("the text depends on the read sizes",
               "in pieces " + std::to_string(smallPieces.text.size()) + " bytes, whole " + std::to_string(small.text.size()));
  if (!large.opened || !small.opened) return 0;
  // error() is corrupt data before the first byte of text: the same with either limit.
  if (small.error.empty() != large.error.empty())
    fuzz::fail("refused with one limit and not with the other: " + small.error + large.error);
  // The prefix: not when transcoded from UTF-16 (a cut inside a surrogate pair reads otherwise),
  // nor with a limit below 3 bytes (a BOM cut short is text, whole it is skipped).
  if (!large.error.empty() || small.utf16 || large.utf16 || smallLimit < 3) return 0;
  const std::string_view a = small.text, b = large.text;
  if (a.size() > b.size() || b.substr(0, a.size()) != a)
    fuzz::fail("the text read with the small limit is not a prefix of the one read with the large",
               "small " + std::to_string(a.size()) + " bytes, large " + std::to_string(b.size()));
  if (!small.limited && a.size() != b.size()) fuzz::fail("the small read was not cut, yet the large one has more text");
  return 0;
}
