// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): how MappedFile::open reads a file's bytes, alone: gzip by
// its magic bytes or its .gz name (zlib's gzread, concatenated members, a stream cut short, the
// inflate limit of issue 15 item 6), then the UTF-16 transcoding and the UTF-8 byte order mark;
// and detail::utf16ToUtf8 on the raw bytes. No JSON reader, no trace.
//
// Input: byte 0 = mode, the rest is the file, written to a temporary file (MappedFile reads
// files; zlib reads the descriptor). Mode bit 0: the file is named trace.json.gz (gzip whatever
// its bytes), else trace.json (gzip only by its magic 1F 8B). Bits 1-7 pick the small limit:
// 1-16 bytes, then 64 to 7,168 bytes in steps of 64.
// The file is opened twice, with the small limit and with 1 MiB. Checks: without UTF-16, at most
// `limit` bytes are kept (a UTF-8 BOM skipped counts), inflateLimited() exactly when the limit
// cut the stream, with a warning; the small read is a prefix of the large one (the limit keeps
// the bytes inflated so far); a read the large limit accepts is not refused by the small one;
// a file that is not gzip reads the same with both; utf16ToUtf8 gives valid UTF-8 and at most 3
// bytes per 2 input bytes.
// Speed: MappedFile asks zlib for a 1 MiB buffer (gzbuffer), and zlib then allocates 1 MiB of
// input and 2 MiB of output buffer per open. Under AddressSanitizer an allocation that large is an
// mmap, a shadow mapping and, once freed, a munmap with a TLB shootdown: perf put 75% of the
// target's time there (77 executions per second). This target interposes gzbuffer and gives zlib
// its default 8 KiB instead: what is under test (the reads, the limit, the warnings, the
// decoding) does not depend on the size of zlib's buffer, and the inputs are at most a few KB.
#include <dlfcn.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "core/base/mapped_file.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

// zlib's own gzbuffer with 8 KiB whatever the caller asks (see the file comment).
extern "C" int gzbuffer(gzFile file, unsigned size) {
  using Fn = int (*)(gzFile, unsigned);
  static const Fn real = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, "gzbuffer"));
  if (!real) fuzz::fail("cannot find zlib's gzbuffer");
  (void)size;
  return real(file, 8192);
}

namespace {

constexpr std::uint64_t kLargeLimit = 1u << 20;

void checkUtf16(std::string_view bytes, bool bigEndian) {
  const std::string u8 = core::detail::utf16ToUtf8(bytes, bigEndian);
  if (!simdjson::validate_utf8(u8.data(), u8.size())) fuzz::fail("utf16ToUtf8 gave invalid UTF-8", u8);
  if (u8.size() > bytes.size() / 2 * 3) fuzz::fail("utf16ToUtf8 gave more than 3 bytes per code unit", u8);
}

/// The promises of one read with `limit`.
void checkOne(const core::MappedFile& f, std::uint64_t limit, bool gzip) {
  const std::size_t kept = f.bytes().size() + f.fileOffset();
  if (f.fileOffset() != 0 && f.fileOffset() != 3) fuzz::fail("a file offset other than 0 or 3 (UTF-8 BOM)");
  if (f.inflateLimited() && f.warning().empty()) fuzz::fail("cut at the inflate limit without a warning");
  if (f.inflateLimited() && !gzip) fuzz::fail("a file that is not gzip cut at the inflate limit");
  if (!f.transcodedUtf16()) {
    if (gzip && kept > limit) fuzz::fail("more bytes kept than the inflate limit: " + std::to_string(kept));
    if (f.inflateLimited() && kept != limit) fuzz::fail("cut at the limit, but not at the limit: " + std::to_string(kept));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned mode = data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  checkUtf16(bytes, (mode & 1u) != 0);

  const bool gzName = (mode & 1u) != 0;
  const bool gzip = gzName || (bytes.size() >= 2 && bytes[0] == '\x1F' && bytes[1] == '\x8B');
  const std::string path = fuzz::writeTempFile(gzName ? "trace.json.gz" : "trace.json", bytes);
  const unsigned k = mode >> 1;
  const std::uint64_t smallLimit = k < 16 ? k + 1 : (k - 15) * 64;

  std::string smallError, largeError;
  const std::shared_ptr<core::MappedFile> small = core::MappedFile::open(path, smallError, smallLimit);
  const std::shared_ptr<core::MappedFile> large = core::MappedFile::open(path, largeError, kLargeLimit);
  if (!small && smallError.empty()) fuzz::fail("a failed open without an error message");
  if (!large && largeError.empty()) fuzz::fail("a failed open without an error message");
  if (small) checkOne(*small, smallLimit, gzip);
  if (large) checkOne(*large, kLargeLimit, gzip);
  // The small read stops early, so it may succeed where the large one meets corrupt data later
  // on; never the other way round.
  if (!small && large) fuzz::fail("refused with the small limit, read with the large one: " + smallError);
  if (!small || !large) return 0;
  if (!gzip && small->bytes() != large->bytes()) fuzz::fail("a plain file reads differently with another limit");
  // The prefix: comparable when neither was transcoded from UTF-16 (the cut may fall inside a
  // surrogate pair) and both skipped the same BOM (a cut inside it keeps its first bytes).
  if (gzip && !small->transcodedUtf16() && !large->transcodedUtf16() && small->fileOffset() == large->fileOffset()) {
    const std::string_view a = small->bytes(), b = large->bytes();
    if (a.size() > b.size() || b.substr(0, a.size()) != a)
      fuzz::fail("the read cut at the small limit is not a prefix of the read with the large one",
                 "small " + std::to_string(a.size()) + " bytes, large " + std::to_string(b.size()));
    if (!small->inflateLimited() && a.size() != b.size())
      fuzz::fail("the small read was not cut, yet the large one has more bytes");
  }
  return 0;
}
