// SPDX-License-Identifier: MIT
#include "core/tables/csv.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <string>
#include "core/base/file_access.h"
#include "core/base/mapped_file.h"

namespace npuscope::core {

namespace {
bool validUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (n < 0 || i + static_cast<std::size_t>(n) >= s.size() + (n == 0 ? 1 : 0)) return false;
    for (int k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) >> 6) != 2) return false;
    i += static_cast<std::size_t>(n) + 1;
  }
  return true;
}

/// UTF-16 without a byte order mark, by its NUL bytes: of the first 512 bytes, at least a third
/// of those at even (big-endian ASCII) or at odd (little-endian) positions are NUL, and at most
/// a quarter as many at the other parity. Zero padding (after a crashed write) has NULs at both
/// parities alike, and a UTF-8 file with a few NULs has too few: neither is taken for UTF-16.
bool looksLikeUtf16(std::string_view text) {
  const std::size_t n = std::min<std::size_t>(text.size(), 512);
  if (n < 4) return false;
  std::size_t even = 0, odd = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (text[i] == '\0') ++(i % 2 ? odd : even);
  const std::size_t big = std::max(even, odd), small = std::min(even, odd);
  return big * 3 >= n / 2 && small * 4 <= big;
}

}  // namespace

std::string_view csvTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '"' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

int CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

int CsvTable::column(std::initializer_list<std::string_view> names) const {
  for (auto n : names) {
    const int c = column(n);
    if (c >= 0) return c;
  }
  return -1;
}

std::string_view CsvTable::cell(std::size_t row, int col) const {
  if (col < 0 || row >= rows.size() || static_cast<std::size_t>(col) >= rows[row].size()) return {};
  return rows[row][static_cast<std::size_t>(col)];
}

CsvTable parseCsv(std::string_view text) {
  CsvTable t;
  // UTF-16 with a byte order mark (PowerShell 5's `>` writes it): decoded to UTF-8 and read
  // as any CSV.
  if (text.size() >= 2 && (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF"))
    return parseCsv(detail::utf16ToUtf8(text.substr(2), text[0] == '\xFE'));
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    t.error = "empty CSV";
    return t;
  }
  if (looksLikeUtf16(text)) {
    t.error = "the CSV holds NUL bytes (UTF-16 without a byte order mark?); re-export it as UTF-8";
    return t;
  }
  if (!validUtf8(text)) {
    t.error = "the CSV is not UTF-8 (GBK or another legacy encoding?); re-export it as UTF-8";
    return t;
  }
  std::vector<std::string> row;
  std::string field;
  bool inQuotes = false, fieldStarted = false;
  std::vector<std::vector<std::string>> all;
  auto endField = [&] {
    row.push_back(std::move(field));
    field.clear();
    fieldStarted = false;
  };
  auto endRow = [&] {
    endField();
    if (!(row.size() == 1 && row[0].empty())) all.push_back(std::move(row));
    row.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inQuotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          inQuotes = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c == ',') {
      endField();
    } else if (c == '\n') {
      endRow();
    } else if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;
      endRow();
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (fieldStarted || !row.empty()) endRow();
  if (all.empty()) {
    t.error = "empty CSV";
    return t;
  }
  for (auto& h : all[0]) t.header.emplace_back(csvTrim(h));
  t.rows.assign(std::make_move_iterator(all.begin() + 1), std::make_move_iterator(all.end()));
  return t;
}

CsvTable readCsv(const std::string& path) {
  std::string text, error;
  if (!readRegularFile(path, text, error)) {  // a FIFO or device is not opened; the error says what it is
    CsvTable t;
    t.error = error;
    return t;
  }
  return parseCsv(text);
}

std::optional<double> csvNumber(std::string_view cell) {
  cell = csvTrim(cell);
  if (cell.empty() || cell == "N/A" || cell == "NA") return std::nullopt;
  std::string tmp(cell);
  char* end = nullptr;
  const double v = std::strtod(tmp.c_str(), &end);
  if (end == tmp.c_str() || *end != '\0') return std::nullopt;
  // strtod also reads "NaN", "inf" and overflows ("1e400") to infinity: no profiler figure, and a
  // non-finite value would reach the analyses and print as nan / inf, which is not JSON (found
  // while writing fuzz/fuzz_csv_tables, whose seed holds such cells). Such a cell is not a number.
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace npuscope::core
