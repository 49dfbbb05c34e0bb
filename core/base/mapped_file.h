// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
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
class MappedFile {
 public:
  /// Opens `path`; on failure returns null and sets `error` to a sentence for the user.
  static std::shared_ptr<MappedFile> open(const std::string& path, std::string& error);
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
  /// True when the bytes were transcoded from UTF-16.
  [[nodiscard]] bool transcodedUtf16() const { return m_utf16; }
  /// A read-only descriptor of the mapped file, open for the object's lifetime, or -1 when the
  /// bytes are not the file's (gzip, UTF-16, in memory, empty file). bytes()[i] is the file's
  /// byte at position fileOffset() + i (fileOffset() is 3 after a skipped UTF-8 BOM).
  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] std::size_t fileOffset() const { return m_fileOffset; }

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
  int m_fd = -1;
  std::size_t m_fileOffset = 0;
};

}  // namespace npuscope::core
