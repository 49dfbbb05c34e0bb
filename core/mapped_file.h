// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace npuscope::core {

/// Read-only view of a file's bytes: memory-mapped (PROT_READ, MAP_PRIVATE) for plain files,
/// or decompressed into memory for .gz files (zlib). The file is never written.
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
  /// True when the bytes were transcoded from UTF-16.
  [[nodiscard]] bool transcodedUtf16() const { return m_utf16; }

 private:
  MappedFile() = default;
  const char* m_data = nullptr;
  std::size_t m_size = 0;
  void* m_map = nullptr;
  std::size_t m_mapSize = 0;
  std::string m_owned;
  std::size_t m_diskSize = 0;
  bool m_utf16 = false;
};

}  // namespace npuscope::core
