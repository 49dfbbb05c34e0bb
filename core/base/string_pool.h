// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string_view>
#include <vector>

#include "core/base/types.h"

namespace npuscope::core {

/// Interns strings (names, categories, labels) into an append-only arena and hands out dense
/// 32-bit ids. id 0 is always the empty string. Views returned by view() stay valid for the
/// pool's lifetime (the arena never moves stored bytes). Not thread-safe: the parallel reader
/// gives each worker its own pool and merges them afterwards (mergeFrom).
class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) noexcept;
  StringPool& operator=(StringPool&&) noexcept;
  ~StringPool();

  /// Returns the id of `s`, adding it if new. O(|s|) expected.
  NameId intern(std::string_view s);
  /// Returns the id of `s` or kInvalidIndex if it was never interned.
  [[nodiscard]] NameId find(std::string_view s) const;
  /// The text of `id`; id must be < size().
  [[nodiscard]] std::string_view view(NameId id) const { return m_views[id]; }
  /// Number of distinct strings (including the empty string).
  [[nodiscard]] std::size_t size() const { return m_views.size(); }
  /// Interns every string of `other` and returns the id mapping other-id -> this-id.
  std::vector<NameId> mergeFrom(const StringPool& other);
  /// Same mapping and the same ids as mergeFrom, but consumes `other`: its arena is adopted
  /// (new strings keep pointing at the bytes already stored there, nothing is copied) and its
  /// stored hashes are reused. `other` is left empty (only the empty string). O(other.size()).
  /// `stop` (may be null) is polled every 16k strings: once it is requested, the rest of `other`
  /// is not merged and its map entries are kInvalidIndex (the caller is abandoning the result).
  std::vector<NameId> absorb(StringPool&& other, const std::stop_token* stop = nullptr);
  /// Makes room for `n` strings in total without rehashing.
  void reserve(std::size_t n);
  /// Bytes held by the arena and the table (for the memory figures).
  [[nodiscard]] std::size_t memoryBytes() const;

 private:
  void grow();
  void rehash(std::size_t tableSize);
  /// Adds `s` (hash `h`, known to be absent; `slot` is its free table slot) without copying
  /// its bytes: they must live in the arena already.
  NameId addStored(std::string_view s, std::uint32_t h, std::size_t slot);
  std::vector<std::unique_ptr<char[]>> m_chunks;  ///< the last one is being filled
  std::size_t m_arenaBytes = 0;                   ///< bytes allocated over all chunks
  std::size_t m_chunkUsed = 0;
  std::size_t m_chunkSize = 0;
  std::vector<std::string_view> m_views;
  std::vector<std::uint32_t> m_table;   // open addressing: id+1, 0 = empty
  std::vector<std::uint32_t> m_hashes;  // hash per id, to rehash without rereading
};

}  // namespace npuscope::core
