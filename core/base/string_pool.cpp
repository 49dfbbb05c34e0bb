// SPDX-License-Identifier: MIT
#include "core/base/string_pool.h"

#include <cstring>
#include <iterator>

namespace npuscope::core {

namespace {
// FNV-1a over 8-byte words for speed; names are short.
std::uint32_t hashOf(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
  h ^= h >> 32;
  return static_cast<std::uint32_t>(h);
}
constexpr std::size_t kMinChunk = 64 * 1024;
}  // namespace

StringPool::StringPool() {
  m_table.assign(1024, 0);
  m_views.emplace_back();
  m_hashes.push_back(hashOf({}));
  const std::size_t mask = m_table.size() - 1;
  m_table[m_hashes[0] & mask] = 1;
}
StringPool::StringPool(StringPool&&) noexcept = default;
StringPool& StringPool::operator=(StringPool&&) noexcept = default;
StringPool::~StringPool() = default;

NameId StringPool::find(std::string_view s) const {
  const std::uint32_t h = hashOf(s);
  const std::size_t mask = m_table.size() - 1;
  for (std::size_t slot = h & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t e = m_table[slot];
    if (e == 0) return kInvalidIndex;
    if (m_hashes[e - 1] == h && m_views[e - 1] == s) return e - 1;
  }
}

NameId StringPool::intern(std::string_view s) {
  const std::uint32_t h = hashOf(s);
  std::size_t mask = m_table.size() - 1;
  std::size_t slot = h & mask;
  for (;; slot = (slot + 1) & mask) {
    const std::uint32_t e = m_table[slot];
    if (e == 0) break;
    if (m_hashes[e - 1] == h && m_views[e - 1] == s) return e - 1;
  }
  // Store the bytes in the arena.
  if (m_chunkUsed + s.size() > m_chunkSize || m_chunks.empty()) {
    m_chunkSize = std::max(kMinChunk, s.size());
    m_chunks.emplace_back(new char[m_chunkSize]);
    m_arenaBytes += m_chunkSize;
    m_chunkUsed = 0;
  }
  char* dst = m_chunks.back().get() + m_chunkUsed;
  if (!s.empty()) std::memcpy(dst, s.data(), s.size());
  m_chunkUsed += s.size();
  const auto id = static_cast<NameId>(m_views.size());
  m_views.emplace_back(dst, s.size());
  m_hashes.push_back(h);
  m_table[slot] = id + 1;
  if (m_views.size() * 2 > m_table.size()) grow();
  return id;
}

void StringPool::grow() { rehash(m_table.size() * 2); }

void StringPool::reserve(std::size_t n) {
  std::size_t size = m_table.size();
  while (n * 2 > size) size *= 2;
  if (size != m_table.size()) rehash(size);
  m_views.reserve(n);
  m_hashes.reserve(n);
}

void StringPool::rehash(std::size_t tableSize) {
  std::vector<std::uint32_t> table(tableSize, 0);
  const std::size_t mask = table.size() - 1;
  for (std::uint32_t id = 0; id < m_views.size(); ++id) {
    std::size_t slot = m_hashes[id] & mask;
    while (table[slot] != 0) slot = (slot + 1) & mask;
    table[slot] = id + 1;
  }
  m_table.swap(table);
}

std::vector<NameId> StringPool::mergeFrom(const StringPool& other) {
  std::vector<NameId> map(other.size());
  for (std::size_t i = 0; i < other.size(); ++i) map[i] = intern(other.view(static_cast<NameId>(i)));
  return map;
}

NameId StringPool::addStored(std::string_view s, std::uint32_t h, std::size_t slot) {
  const auto id = static_cast<NameId>(m_views.size());
  m_views.push_back(s);
  m_hashes.push_back(h);
  m_table[slot] = id + 1;
  if (m_views.size() * 2 > m_table.size()) grow();
  return id;
}

std::vector<NameId> StringPool::absorb(StringPool&& other, const std::stop_token* stop) {
  std::vector<NameId> map(other.size(), kInvalidIndex);
  reserve(size() + other.size());
  for (std::size_t i = 0; i < other.size(); ++i) {
    if ((i & 0x3fff) == 0x3fff && stop && stop->stop_requested()) break;
    const std::string_view s = other.m_views[i];
    const std::uint32_t h = other.m_hashes[i];
    const std::size_t mask = m_table.size() - 1;
    std::size_t slot = h & mask;
    NameId found = kInvalidIndex;
    for (;; slot = (slot + 1) & mask) {
      const std::uint32_t e = m_table[slot];
      if (e == 0) break;
      if (m_hashes[e - 1] == h && m_views[e - 1] == s) {
        found = e - 1;
        break;
      }
    }
    map[i] = found != kInvalidIndex ? found : addStored(s, h, slot);
  }
  // Adopt the arena: the views above point into it. The chunks go in front, so that the chunk
  // being filled by intern() stays the last one.
  m_chunks.insert(m_chunks.begin(), std::make_move_iterator(other.m_chunks.begin()),
                  std::make_move_iterator(other.m_chunks.end()));
  m_arenaBytes += other.m_arenaBytes;
  other = StringPool();
  return map;
}

std::size_t StringPool::memoryBytes() const {
  return m_table.capacity() * 4 + m_hashes.capacity() * 4 + m_views.capacity() * sizeof(std::string_view) +
         m_arenaBytes;
}

}  // namespace npuscope::core
