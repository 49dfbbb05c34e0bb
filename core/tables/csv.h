// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::core {

/// A CSV file read into memory: the header and the rows as strings (RFC 4180: quoted fields with
/// "" escapes, embedded commas and CR/LF kept; CRLF or LF line ends; a UTF-8 BOM skipped; cells
/// are not trimmed except that the header names lose surrounding spaces). Ragged rows are kept
/// as they are (shorter or longer than the header). The profilers write UTF-8; a file that is
/// not valid UTF-8 (e.g. GBK) is reported in `error` and not parsed.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string error;  ///< empty on success; "empty CSV" for a 0-byte file
  /// Index of a column by exact header name, or -1.
  [[nodiscard]] int column(std::string_view name) const;
  /// Index of the first column matching any of `names` (aliases), or -1.
  [[nodiscard]] int column(std::initializer_list<std::string_view> names) const;
  /// Cell (row, col) or empty when the row is short or col < 0.
  [[nodiscard]] std::string_view cell(std::size_t row, int col) const;
};

/// Parses CSV text (see CsvTable): UTF-8, with or without a byte order mark, or UTF-16 with one
/// (decoded to UTF-8; an unpaired surrogate becomes U+FFFD). Other bytes (GBK, UTF-16 without a
/// mark, told by its every-other-byte NULs) give `error` and no rows.
[[nodiscard]] CsvTable parseCsv(std::string_view text);
/// Reads and parses a CSV file; on an unreadable file sets `error`.
[[nodiscard]] CsvTable readCsv(const std::string& path);

/// A cell without surrounding spaces, tabs, quotes and line ends (the profilers append a TAB to
/// times and quote shapes with literal quotes).
[[nodiscard]] std::string_view csvTrim(std::string_view cell);

/// Parses a number cell: trims spaces, tabs and quotes; "N/A", "" and non-numbers give nullopt.
[[nodiscard]] std::optional<double> csvNumber(std::string_view cell);

}  // namespace npuscope::core
