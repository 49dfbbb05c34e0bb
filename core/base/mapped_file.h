// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/base/page_memory.h"

namespace npuscope::core {

/// Read-only view of a file's bytes: memory-mapped (PROT_READ, MAP_PRIVATE) for plain files, or
/// bytes held in memory (fromMemory, fromCopiedArgs). A gzip file (magic bytes 1F 8B) is not
/// opened here: it is streamed (GzipStream, core/base/gzip_stream.h) and its trace keeps only the
/// args it needs (fromCopiedArgs). The file is never written.
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
class MappedFile {
 public:
  /// Opens `path` (not a gzip file: that is an error); on failure returns null and sets `error`
  /// to a sentence for the user.
  static std::shared_ptr<MappedFile> open(const std::string& path, std::string& error);
  /// Wraps bytes already in memory (tests).
  static std::shared_ptr<MappedFile> fromMemory(std::string_view bytes);
  /// The args texts a streamed read copied out of a gzip file's text (detail::ReadResult::
  /// copiedArgs): its trace's file, whose args offsets are offsets into these bytes. `diskSize`
  /// and `path` are the gzip file's.
  static std::shared_ptr<MappedFile> fromCopiedArgs(detail::RecordBuffer<char>&& args, std::size_t diskSize,
                                                    const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The file's bytes (after a skipped BOM / transcoding). Stable for the object's lifetime.
  [[nodiscard]] std::string_view bytes() const { return {m_data, m_size}; }
  /// Size on disk (the gzip file's for fromCopiedArgs), bytes.
  [[nodiscard]] std::size_t diskSize() const { return m_diskSize; }
  /// Bytes of memory the object holds (0 for a mapping; the copy for fromMemory, the args for
  /// fromCopiedArgs, the text of a transcoded UTF-16 file).
  [[nodiscard]] std::size_t heapBytes() const;
  /// True when the bytes were transcoded from UTF-16.
  [[nodiscard]] bool transcodedUtf16() const { return m_utf16; }
  /// A read-only descriptor of the mapped file, open for the object's lifetime, or -1 when the
  /// bytes are not the file's (UTF-16, in memory, copied args, empty file). bytes()[i] is the file's
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
  detail::RecordBuffer<char> m_args;  ///< fromCopiedArgs
  std::size_t m_diskSize = 0;
  bool m_utf16 = false;
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
