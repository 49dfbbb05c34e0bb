// SPDX-License-Identifier: MIT
#pragma once
// RowArgs: the args of slices read from a database, kept as compact columns instead of text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/string_pool.h"

namespace npuscope::core {

/// One column of 64-bit values packed at build time into the fewest bytes per row: a constant
/// column takes 0 bytes a row, else either `base + k` with k in 1, 2, 4 or 8 bytes (frame of
/// reference) or a k-byte code into a dictionary of the distinct values, whichever is smaller.
/// Immutable after pack(); get() is thread-safe.
class PackedColumn {
 public:
  /// Packs `values` (consumed). O(n log n) (the distinct count sorts a copy).
  void pack(std::vector<std::int64_t>&& values);
  [[nodiscard]] std::int64_t get(std::size_t row) const;
  [[nodiscard]] std::size_t size() const { return m_size; }
  /// Bytes held (codes + dictionary).
  [[nodiscard]] std::size_t memoryBytes() const { return m_bytes.capacity() + m_dict.capacity() * 8; }

 private:
  std::size_t m_size = 0;
  std::int64_t m_base = 0;           ///< frame of reference (unused with a dictionary)
  unsigned m_width = 0;              ///< bytes per row: 0, 1, 2, 4 or 8
  std::vector<std::uint8_t> m_bytes; ///< n * m_width little-endian codes
  std::vector<std::int64_t> m_dict;  ///< distinct values, sorted; empty: frame of reference
};

/// Args of database rows (core/import/db) as typed columns, one table ("schema") per row shape
/// (TASK, CANN_API, ...): a slice refers to (schema, row) through Lane::argsOffset = kRowArgs |
/// row and Lane::argsLength = schema + 1 (core/model/trace.h), so a slice costs only the packed
/// cells of its row, typically 0-4 bytes per key instead of the key/value text (docs/benchmarks.md).
/// Every cell is a 64-bit value code: an integer (shown as its decimal text, as SQLite shows an
/// INTEGER), a text (an id of `texts`, shown as the text) or absent (the key is left out of the
/// slice's args). Built by one reader thread (addSchema / beginRow / set*); pack() makes it
/// immutable and compact; then reads are thread-safe. Never throws beyond std::bad_alloc.
class RowArgs {
 public:
  using Schema = std::uint32_t;
  /// Value codes: text ids occupy [kText, kText + 2^32), INT64_MIN is "absent". Integers in that
  /// range (below -2^63 + 2^32 + 1) cannot be stored as integers: they are stored as their text.
  static constexpr std::int64_t kAbsent = INT64_MIN;
  static constexpr std::int64_t kText = INT64_MIN + 1;

  RowArgs() = default;
  RowArgs(RowArgs&&) noexcept = default;
  RowArgs& operator=(RowArgs&&) noexcept = default;

  // ---- Building (before pack()).
  /// A new row shape with these keys, in display order. Returns its id.
  Schema addSchema(std::vector<std::string> keys);
  /// Starts a row of `schema` with every cell absent; returns its row index (< 2^40).
  std::uint64_t beginRow(Schema schema);
  /// Sets cell `key` (index into the schema's keys) of the row last begun.
  void setInteger(Schema schema, std::size_t key, std::int64_t value);
  void setText(Schema schema, std::size_t key, std::string_view text);
  /// A text already interned with text() (saves the hash of a repeated value).
  void setTextId(Schema schema, std::size_t key, NameId id);
  /// Interns `text` into the store's own pool.
  NameId text(std::string_view t) { return m_texts.intern(t); }
  /// Packs every column (call once, after the last row).
  void pack();

  // ---- Reading (after pack(); thread-safe).
  [[nodiscard]] bool empty() const { return m_tables.empty(); }
  [[nodiscard]] std::size_t schemaCount() const { return m_tables.size(); }
  /// Calls fn(key, valueText) for each present cell of (schema, row), in key order; fn returns
  /// false to stop. An out-of-range schema or row gives nothing.
  template <typename Fn>
  void forEach(Schema schema, std::uint64_t row, Fn&& fn) const {
    if (schema >= m_tables.size()) return;
    const Table& t = m_tables[schema];
    if (row >= t.rows || t.packed.size() != t.keys.size()) return;
    std::string value;
    for (std::size_t k = 0; k < t.keys.size(); ++k) {
      if (!valueText(t.packed[k].get(row), value)) continue;
      if (!fn(std::string_view(t.keys[k]), value)) return;
    }
  }
  /// The value text of `key` in (schema, row); nullopt when absent or unknown.
  [[nodiscard]] std::optional<std::string> find(Schema schema, std::uint64_t row, std::string_view key) const;
  /// Approximate bytes held (columns, keys, texts).
  [[nodiscard]] std::size_t memoryBytes() const;

 private:
  /// `code` as text into `out`; false when absent.
  bool valueText(std::int64_t code, std::string& out) const;

  struct Table {
    std::vector<std::string> keys;
    std::uint64_t rows = 0;
    std::vector<std::vector<std::int64_t>> building;  ///< per key, until pack()
    std::vector<PackedColumn> packed;                 ///< per key, after pack()
  };
  std::vector<Table> m_tables;
  StringPool m_texts;
};

}  // namespace npuscope::core
