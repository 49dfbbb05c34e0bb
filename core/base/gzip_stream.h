// SPDX-License-Identifier: MIT
#pragma once
// Sequential reading of a gzip file's text (zlib), for the JSON reader's streamed load: the
// inflated bytes are handed over in order and never held whole (issue 26 item 4).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace npuscope::core {

/// The default limit of a gzip file's inflated size for a file of `diskSize` compressed bytes:
/// 256 times it, and at least 64 MiB. Real traces compress 10-20x (the Kineto .json.gz of
/// ../shared/corpus: 9.9x, 12.9x, 19.6x; JSON text rarely passes 50x; a 1 GB trace of
/// npuscope_gen_trace 15.6x with gzip -6), so only a crafted file (a gzip bomb) reaches it.
/// Why a limit still, now that the text is streamed (issue 26 item 4): memory no longer follows
/// the inflated bytes (the reader holds a window of them and the events it keeps), but time does:
/// inflating and skipping cost about 3 CPU-s per GB here (a 2 MB file of 2 GiB of spaces stops at
/// 533 MB after 1.5 CPU-s), and deflate reaches about 1032:1, so without it a 2 MB file would
/// cost 2 GB of work, a 1 GB one a TB. Why not higher: 256x is still more than 10 times what any
/// real trace needs, and raising it would only let a bomb cost more time. Why not lower: memory
/// is no longer a reason, and the 64 MiB floor keeps a small file of repeated events (which
/// compresses far better than a real trace) from being cut. Source: issue 15 item 6.
[[nodiscard]] constexpr std::uint64_t gzipInflateLimit(std::uint64_t diskSize) {
  constexpr std::uint64_t kFloor = 64ull << 20;
  constexpr std::uint64_t kRatio = 256;
  if (diskSize > (~0ull) / kRatio) return ~0ull;
  return diskSize * kRatio > kFloor ? diskSize * kRatio : kFloor;
}

/// True when `path` is to be read as gzip: its name ends with ".gz", or its first two bytes are
/// gzip's magic 1F 8B (RFC 1952) whatever it is called (a trace.json that is really gzip would
/// otherwise be parsed as JSON and fail with raw binary bytes in the message). False when the
/// file cannot be opened as a regular file (openRegularFile; the caller's open then says why).
[[nodiscard]] bool isGzipFile(const std::string& path);

/// The text of a gzip file, inflated in order as it is read (zlib's inflate): never more than the
/// caller's buffer plus a 256 KiB input buffer and zlib's state (a 32 KiB window) at a time.
/// - Concatenated gzip members are read one after another (RFC 1952 §2.2); bytes after a member
///   that do not start another one (zero padding) are ignored; a file that is not gzip at all
///   (named .gz) is read as it is. (As zlib's gzread did here before.)
/// - At most `maxInflatedBytes` are inflated (0: gzipInflateLimit(diskSize)); when the stream
///   goes on past them, read() ends there, inflateLimited() is true and warning() says so:
///   "gzip data in P inflates to more than N bytes (D compressed; the limit is ...): reading
///   stopped there, the events after it are lost (a gzip bomb?)".
/// - A stream cut short (no trailer) ends where the data ends and warning() says "gzip data in P
///   ends early (truncated file?): N bytes decoded, the rest is lost (unexpected end of file)".
///   Corrupt data (a bad block, a CRC mismatch) after some bytes ends the text there, every byte
///   decoded before it kept, with the warning "corrupt gzip data in P after N bytes decoded
///   (zlib's reason): the rest is lost"; corrupt before any byte is error() (no text at all).
/// - Text encoding, from its first bytes: a UTF-8 BOM (EF BB BF) is skipped; UTF-16 with a BOM
///   (FF FE little-endian, FE FF big-endian) is transcoded to UTF-8 as it is read, by the rules
///   of detail::utf16ToUtf8 (the same bytes whatever the read sizes); transcodedUtf16() is then
///   true. The limit counts inflated bytes, before transcoding.
/// Not thread-safe: one thread reads at a time (the reader's inflate thread).
class GzipStream {
 public:
  /// Opens `path` (only a regular file, openRegularFile); on failure null and `error` set.
  static std::unique_ptr<GzipStream> open(const std::string& path, std::string& error,
                                          std::uint64_t maxInflatedBytes = 0);
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  /// Copies the next bytes of the text to `dst` (at most `n`, at least 1 unless the text has
  /// ended); 0 once it has ended (see warning(), error()). Never throws but std::bad_alloc.
  std::size_t read(char* dst, std::size_t n);
  /// Compressed bytes consumed so far (for progress), <= diskSize().
  [[nodiscard]] std::uint64_t compressedOffset() const;
  /// Size of the file on disk, bytes.
  [[nodiscard]] std::size_t diskSize() const { return m_diskSize; }
  /// Bytes inflated so far (before transcoding; the limit counts these).
  [[nodiscard]] std::uint64_t inflatedBytes() const { return m_inflated; }
  /// The path given to open(), for messages.
  [[nodiscard]] const std::string& path() const { return m_path; }
  /// Once read() returned 0: a problem that left a partial text (see the class comment); empty
  /// when none.
  [[nodiscard]] const std::string& warning() const { return m_warning; }
  /// True when the text was cut at the inflate limit (warning() says so).
  [[nodiscard]] bool inflateLimited() const { return m_limited; }
  /// Corrupt data before the first byte of text: a sentence for the user; empty otherwise.
  [[nodiscard]] const std::string& error() const { return m_error; }
  /// True when the text was transcoded from UTF-16.
  [[nodiscard]] bool transcodedUtf16() const { return m_mode == Mode::Utf16Le || m_mode == Mode::Utf16Be; }

 private:
  GzipStream() = default;
  enum class Mode : std::uint8_t { Unknown, Utf8, Utf16Le, Utf16Be };
  bool ensureInput(std::size_t bytes);
  bool atGzipMagic();
  std::size_t inflateInto(char* dst, std::size_t n);
  std::size_t readInflated(char* dst, std::size_t n);
  void detectEncoding();

  int m_fd = -1;
  void* m_z = nullptr;  ///< z_stream (zlib's inflate, used directly: gzread drops the bytes it
                        ///< decoded in a call that then meets corrupt data, up to a whole block)
  bool m_zReady = false;
  std::unique_ptr<unsigned char[]> m_in;  ///< compressed input, kInputBytes
  std::uint64_t m_fileRead = 0;           ///< compressed bytes read from the file
  bool m_formatKnown = false;
  bool m_transparent = false;  ///< not gzip: the file's bytes are the text
  bool m_inMember = false;     ///< inside a gzip member (between its header and its trailer)
  bool m_stopped = false;      ///< the text has ended (end of file, a cut, corrupt data)
  std::string m_path;
  std::size_t m_diskSize = 0;
  std::uint64_t m_limit = 0;
  bool m_defaultLimit = true;
  std::uint64_t m_inflated = 0;
  bool m_limited = false;
  Mode m_mode = Mode::Unknown;
  std::string m_pending;    ///< text ready to be returned (from m_pendingAt on)
  std::size_t m_pendingAt = 0;
  std::string m_carry;      ///< UTF-16 bytes not yet transcoded (an odd byte, a high surrogate)
  bool m_utf16Done = false;  ///< the last UTF-16 bytes were transcoded
  std::string m_warning;
  std::string m_error;
};

namespace detail {
/// Appends to `out` the UTF-8 of the UTF-16 code units of `bytes` (big-endian when `bigEndian`)
/// and returns how many bytes of `bytes` it consumed. Unless `final`, a trailing odd byte and a
/// trailing high surrogate (whose low half may come with the next bytes) are left for the next
/// call; with `final` every byte is consumed: an unpaired surrogate becomes U+FFFD and an odd last
/// byte is dropped. Used by utf16ToUtf8 (whole) and GzipStream (in pieces): the same output.
std::size_t appendUtf16AsUtf8(std::string& out, std::string_view bytes, bool bigEndian, bool final);
}  // namespace detail

}  // namespace npuscope::core
