// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace npuscope::core {

/// Read-only view of a file's bytes: memory-mapped (PROT_READ, MAP_PRIVATE) for plain files,
/// or decompressed into memory for gzip files (zlib), recognised by their magic bytes 1F 8B
/// whatever the file is called (and any .gz name). Concatenated gzip members are read one after
/// another; a gzip stream cut short keeps what was decoded and says so in warning(). The file is
/// never written.
/// A UTF-16 file (BOM FF FE / FE FF) is transcoded to UTF-8 in memory; a UTF-8 BOM is skipped.
/// Only a regular file is opened (openRegularFile: a FIFO or device is refused by its type).
///
/// A file that shrinks while it is mapped (a log rotated, a copy still in progress, a reload;
/// issue 15 item 2): touching a mapped page past the new end raises SIGBUS. Every mapping is
/// registered with a process-wide SIGBUS handler (installed once, chaining to the previous
/// one for any other address) that maps zero-filled anonymous pages over the rest of the
/// mapping (MAP_FIXED) and records the offset: the faulting read then returns, and sees zeros
/// from that page on. Reads through the descriptor (pread) see the short file directly. So a
/// shrink never kills the process; shrinkMessage() says what happened, and the reader reports it
/// as a truncated file. (Chosen over pread-only reading, which would keep the whole file in
/// memory for the lazy args, and over sigsetjmp around every mapped access, which would unwind
/// through C++ frames without running destructors.)
/// The default limit of a gzip file's inflated size for a file of `diskSize` compressed bytes:
/// 256 times it, and at least 64 MiB. Real traces compress 10-20x (the Kineto .json.gz of
/// ../shared/corpus: 9.9x, 12.9x, 19.6x; JSON text rarely passes 50x), so only a crafted file
/// (a gzip bomb) reaches it.
[[nodiscard]] constexpr std::uint64_t gzipInflateLimit(std::uint64_t diskSize) {
  constexpr std::uint64_t kFloor = 64ull << 20;
  constexpr std::uint64_t kRatio = 256;
  if (diskSize > (~0ull) / kRatio) return ~0ull;
  return diskSize * kRatio > kFloor ? diskSize * kRatio : kFloor;
}

class MappedFile {
 public:
  /// Opens `path`; on failure returns null and sets `error` to a sentence for the user.
  /// `maxInflatedBytes` bounds what a gzip file may inflate to (issue 15 item 6: deflate reaches
  /// about 1032:1, so a 1 MB file can become 1 GB): 0 is gzipInflateLimit(diskSize); past the
  /// limit the bytes inflated so far are kept and warning() says where it stopped
  /// (inflateLimited() is then true).
  static std::shared_ptr<MappedFile> open(const std::string& path, std::string& error,
                                          std::uint64_t maxInflatedBytes = 0);
  /// Wraps bytes already in memory (tests).
  static std::shared_ptr<MappedFile> fromMemory(std::string_view bytes);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The file's bytes (after a skipped BOM / transcoding). Stable for the object's lifetime.
  [[nodiscard]] std::string_view bytes() const { return {m_data, m_size}; }
  /// Size on disk (compressed size for .gz), bytes.
  [[nodiscard]] std::size_t diskSize() const { return m_diskSize; }
  /// A problem that left a partial result, e.g. "gzip data ends early (truncated file?) ...";
  /// empty when none.
  [[nodiscard]] const std::string& warning() const { return m_warning; }
  /// True when a gzip file was cut at the inflate limit (see open); warning() says so.
  [[nodiscard]] bool inflateLimited() const { return m_inflateLimited; }
  /// True when the bytes were transcoded from UTF-16.
  [[nodiscard]] bool transcodedUtf16() const { return m_utf16; }
  /// A read-only descriptor of the mapped file, open for the object's lifetime, or -1 when the
  /// bytes are not the file's (gzip, UTF-16, in memory, empty file). bytes()[i] is the file's
  /// byte at position fileOffset() + i (fileOffset() is 3 after a skipped UTF-8 BOM).
  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] std::size_t fileOffset() const { return m_fileOffset; }

  /// How many of bytes() are still backed by the file: bytes().size() unless the file shrank
  /// since it was opened (then its current size minus fileOffset(), or the offset of the first
  /// page a SIGBUS replaced by zeros, whichever is smaller). One fstat.
  [[nodiscard]] std::size_t validSize() const;
  /// Empty unless the file shrank since it was opened; else a sentence such as
  /// "/p/trace_view.json shrank from 1048576 to 4096 bytes after it was opened (truncated or
  /// rewritten while npuscope read it): the bytes past 4096 read as zeros". One fstat.
  [[nodiscard]] std::string shrinkMessage() const;

 private:
  MappedFile() = default;
  const char* m_data = nullptr;
  std::size_t m_size = 0;
  void* m_map = nullptr;
  std::size_t m_mapSize = 0;
  std::string m_owned;
  std::string m_warning;
  std::size_t m_diskSize = 0;
  bool m_utf16 = false;
  bool m_inflateLimited = false;
  int m_fd = -1;
  std::size_t m_fileOffset = 0;
  int m_guardSlot = -1;  ///< index in the SIGBUS handler's table of mappings, -1 when none
  std::string m_path;
};

namespace detail {
/// UTF-16 bytes (without their byte order mark; big-endian when `bigEndian`) as UTF-8. An
/// unpaired surrogate becomes U+FFFD and an odd last byte is dropped. Used for UTF-16 traces
/// (MappedFile) and CSV files (parseCsv).
[[nodiscard]] std::string utf16ToUtf8(std::string_view bytes, bool bigEndian);
}  // namespace detail

}  // namespace npuscope::core
