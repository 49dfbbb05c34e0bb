// SPDX-License-Identifier: MIT
#include "core/model/row_args.h"

#include <algorithm>
#include <cstring>

namespace npuscope::core {

namespace {
unsigned widthFor(std::uint64_t maxCode) {
  if (maxCode == 0) return 0;
  if (maxCode <= 0xFF) return 1;
  if (maxCode <= 0xFFFF) return 2;
  if (maxCode <= 0xFFFFFFFFu) return 4;
  return 8;
}
}  // namespace

void PackedColumn::pack(std::vector<std::int64_t>&& values) {
  m_size = values.size();
  m_bytes.clear();
  m_dict.clear();
  m_width = 0;
  m_base = 0;
  if (values.empty()) return;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const std::uint64_t range = static_cast<std::uint64_t>(*hi) - static_cast<std::uint64_t>(*lo);
  const unsigned forWidth = widthFor(range);
  std::size_t forCost = forWidth * m_size;
  std::vector<std::int64_t> dict;
  unsigned dictWidth = 8;
  if (forWidth > 1) {
    dict = values;
    std::sort(dict.begin(), dict.end());
    dict.erase(std::unique(dict.begin(), dict.end()), dict.end());
    dictWidth = widthFor(dict.size() - 1);
  }
  const bool useDict = forWidth > 1 && dictWidth * m_size + dict.size() * 8 < forCost;
  if (useDict) {
    m_dict = std::move(dict);
    m_dict.shrink_to_fit();
    m_width = dictWidth;
  } else {
    m_base = *lo;
    m_width = forWidth;
  }
  if (m_width == 0) return;
  m_bytes.resize(m_size * m_width);
  std::uint8_t* out = m_bytes.data();
  for (std::size_t i = 0; i < m_size; ++i, out += m_width) {
    const std::uint64_t code =
        useDict ? static_cast<std::uint64_t>(std::lower_bound(m_dict.begin(), m_dict.end(), values[i]) - m_dict.begin())
                : static_cast<std::uint64_t>(values[i]) - static_cast<std::uint64_t>(m_base);
    for (unsigned b = 0; b < m_width; ++b) out[b] = static_cast<std::uint8_t>(code >> (8 * b));
  }
  values.clear();
  values.shrink_to_fit();
}

std::int64_t PackedColumn::get(std::size_t row) const {
  if (row >= m_size) return RowArgs::kAbsent;
  std::uint64_t code = 0;
  const std::uint8_t* p = m_bytes.data() + row * m_width;
  for (unsigned b = 0; b < m_width; ++b) code |= std::uint64_t{p[b]} << (8 * b);
  if (!m_dict.empty()) return code < m_dict.size() ? m_dict[code] : RowArgs::kAbsent;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(m_base) + code);
}

RowArgs::Schema RowArgs::addSchema(std::vector<std::string> keys) {
  Table t;
  t.building.resize(keys.size());
  t.keys = std::move(keys);
  m_tables.push_back(std::move(t));
  return static_cast<Schema>(m_tables.size() - 1);
}

std::uint64_t RowArgs::beginRow(Schema schema) {
  Table& t = m_tables[schema];
  for (auto& c : t.building) c.push_back(kAbsent);
  return t.rows++;
}

void RowArgs::setInteger(Schema schema, std::size_t key, std::int64_t value) {
  if (value < kText + (std::int64_t{1} << 32)) {
    setText(schema, key, std::to_string(value));
    return;
  }
  m_tables[schema].building[key].back() = value;
}

void RowArgs::setText(Schema schema, std::size_t key, std::string_view text) {
  setTextId(schema, key, m_texts.intern(text));
}

void RowArgs::setTextId(Schema schema, std::size_t key, NameId id) {
  m_tables[schema].building[key].back() = kText + static_cast<std::int64_t>(id);
}

void RowArgs::pack() {
  for (Table& t : m_tables) {
    t.packed.resize(t.building.size());
    for (std::size_t k = 0; k < t.building.size(); ++k) t.packed[k].pack(std::move(t.building[k]));
    t.building.clear();
    t.building.shrink_to_fit();
  }
}

bool RowArgs::valueText(std::int64_t code, std::string& out) const {
  if (code == kAbsent) return false;
  if (code >= kText && code < kText + (std::int64_t{1} << 32)) {
    const auto id = static_cast<std::uint64_t>(code - kText);
    if (id >= m_texts.size()) return false;
    out.assign(m_texts.view(static_cast<NameId>(id)));
    return true;
  }
  out = std::to_string(code);
  return true;
}

std::optional<std::string> RowArgs::find(Schema schema, std::uint64_t row, std::string_view key) const {
  if (schema >= m_tables.size()) return std::nullopt;
  const Table& t = m_tables[schema];
  if (row >= t.rows || t.packed.size() != t.keys.size()) return std::nullopt;
  for (std::size_t k = 0; k < t.keys.size(); ++k)
    if (t.keys[k] == key) {
      std::string out;
      if (valueText(t.packed[k].get(row), out)) return out;
      return std::nullopt;
    }
  return std::nullopt;
}

std::size_t RowArgs::memoryBytes() const {
  std::size_t b = m_texts.memoryBytes() + m_tables.capacity() * sizeof(Table);
  for (const Table& t : m_tables) {
    for (const auto& k : t.keys) b += k.capacity();
    for (const auto& c : t.packed) b += c.memoryBytes() + sizeof(c);
    for (const auto& c : t.building) b += c.capacity() * 8;
  }
  return b;
}

}  // namespace npuscope::core
