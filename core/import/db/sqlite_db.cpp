// SPDX-License-Identifier: MIT
#include "core/import/db/sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>

namespace npuscope::core::detail {

std::string sqliteImmutableUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
                       c == '.' || c == '_' || c == '~' || c == '-';
    if (plain) {
      uri += ch;
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  uri += "?immutable=1";
  return uri;
}

SqliteDb::~SqliteDb() {
  if (m_db) sqlite3_close_v2(m_db);
}

bool SqliteDb::open(const std::string& path, std::string& error) {
  const std::string uri = sqliteImmutableUri(path);
  sqlite3* db = nullptr;
  // NOMUTEX: one connection per reader, used from one thread; without it every sqlite3_column_*
  // call takes the connection's mutex (9% of a load's time in npuscope_bench_load).
  const int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    error = path + ": cannot open as a SQLite database (" + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)) + ")";
    if (db) sqlite3_close_v2(db);
    return false;
  }
  m_db = db;
  // Reading the schema is the first access to the file: a file that is not a database, or whose
  // first page is damaged, fails here ("file is not a database").
  SqliteStatement s(*this, "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (s.step()) m_tables.emplace_back(s.text(0));
  if (!s.ok() || !s.error().empty()) {
    error = path + ": not a readable SQLite database (" + s.error() + ")";
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    m_tables.clear();
    return false;
  }
  return true;
}

bool SqliteDb::hasTable(std::string_view table) const {
  return std::find(m_tables.begin(), m_tables.end(), table) != m_tables.end();
}

const std::vector<std::string>& SqliteDb::columns(std::string_view table) {
  for (const auto& [name, cols] : m_columns)
    if (name == table) return cols;
  std::vector<std::string> cols;
  if (hasTable(table)) {
    // The name comes from sqlite_master itself; quoted for the pragma.
    std::string quoted = "\"";
    for (const char c : table) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    quoted += '"';
    SqliteStatement s(*this, "PRAGMA table_info(" + quoted + ")");
    while (s.step()) cols.emplace_back(s.text(1));
  }
  m_columns.emplace_back(std::string(table), std::move(cols));
  return m_columns.back().second;
}

bool SqliteDb::hasColumn(std::string_view table, std::string_view column) {
  const auto& cols = columns(table);
  return std::find(cols.begin(), cols.end(), column) != cols.end();
}

std::string SqliteDb::lastError() const { return m_db ? sqlite3_errmsg(m_db) : "not open"; }

SqliteStatement::SqliteStatement(SqliteDb& db, const std::string& sql) : m_db(db.handle()) {
  if (!m_db) {
    m_error = "database not open";
    return;
  }
  if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK) {
    m_error = sqlite3_errmsg(m_db);
    m_stmt = nullptr;
  }
}

SqliteStatement::~SqliteStatement() {
  if (m_stmt) sqlite3_finalize(m_stmt);
}

bool SqliteStatement::step() {
  if (!m_stmt) return false;
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE && m_error.empty()) m_error = sqlite3_errmsg(m_db);
  return false;
}

bool SqliteStatement::isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }

std::int64_t SqliteStatement::integer(int col, std::int64_t fallback) const {
  if (isNull(col)) return fallback;
  return sqlite3_column_int64(m_stmt, col);
}

std::optional<std::int64_t> SqliteStatement::optionalInteger(int col) const {
  if (isNull(col)) return std::nullopt;
  return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col, double fallback) const {
  if (isNull(col)) return fallback;
  return sqlite3_column_double(m_stmt, col);
}

std::string_view SqliteStatement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
  if (!p) return {};
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col))};
}

}  // namespace npuscope::core::detail
