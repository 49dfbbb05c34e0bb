// SPDX-License-Identifier: MIT
#pragma once
// A small read-only SQLite wrapper for the database readers (core/import/db/). Internal to core:
// no Qt, never throws. Every file is opened as the URI `file:PATH?immutable=1` with
// SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, so SQLite never writes and never creates a -wal, -shm or
// journal file beside the user's data, even for a database left in WAL mode by another tool
// (corpus ascend-pt-910b-db-2rank/level1/rank0: MindStudio Insight switched it to WAL).

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace npuscope::core::detail {

/// `path` as a SQLite URI `file:...?immutable=1`: every byte outside [A-Za-z0-9/._~-] is
/// percent-escaped (so '?', '#', '%' and spaces in folder names are taken literally).
[[nodiscard]] std::string sqliteImmutableUri(std::string_view path);

class SqliteStatement;

/// One database opened read-only and immutable. Not thread-safe.
class SqliteDb {
 public:
  SqliteDb() = default;
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  /// Opens `path` (see the file comment) and checks that it is a readable database by reading its
  /// schema. False with `error` set (a sentence naming the file) when it is not.
  bool open(const std::string& path, std::string& error);
  [[nodiscard]] bool isOpen() const { return m_db != nullptr; }
  /// Tables of the schema (sqlite_master), exact names.
  [[nodiscard]] bool hasTable(std::string_view table) const;
  /// Column names of `table` (pragma table_info), empty when the table does not exist.
  [[nodiscard]] const std::vector<std::string>& columns(std::string_view table);
  [[nodiscard]] bool hasColumn(std::string_view table, std::string_view column);
  /// The last error text of the connection.
  [[nodiscard]] std::string lastError() const;
  [[nodiscard]] sqlite3* handle() const { return m_db; }

 private:
  sqlite3* m_db = nullptr;
  std::vector<std::string> m_tables;
  std::vector<std::pair<std::string, std::vector<std::string>>> m_columns;
};

/// A prepared statement; step() through its rows. A statement that failed to prepare has
/// ok() false and error() set, and step() returns false at once.
class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  [[nodiscard]] bool ok() const { return m_stmt != nullptr; }
  [[nodiscard]] const std::string& error() const { return m_error; }
  /// Next row: true while there is one. An error (corrupt page, ...) ends the rows and sets error().
  bool step();
  [[nodiscard]] bool isNull(int col) const;
  /// The value is stored as an INTEGER (not NULL, REAL, TEXT or BLOB).
  [[nodiscard]] bool isInteger(int col) const;
  /// The value as int64 (SQLite's conversion: a TEXT "123" gives 123); `fallback` when NULL.
  [[nodiscard]] std::int64_t integer(int col, std::int64_t fallback = 0) const;
  [[nodiscard]] std::optional<std::int64_t> optionalInteger(int col) const;
  [[nodiscard]] double real(int col, double fallback = 0) const;
  /// The value as text (numbers in SQLite's own decimal form); empty when NULL.
  [[nodiscard]] std::string_view text(int col) const;
  [[nodiscard]] sqlite3_stmt* raw() const { return m_stmt; }

 private:
  sqlite3_stmt* m_stmt = nullptr;
  sqlite3* m_db = nullptr;
  std::string m_error;
};

/// The rows of one query, read on a thread of its own through a connection of its own (opened
/// like SqliteDb::open) and handed to the consuming thread in batches of kBatchRows through a
/// queue of at most kQueueBatches batches, so that SQLite's stepping and decoding of one table
/// runs while the consumer builds another and the memory in flight stays bounded (~ kQueueBatches
/// * kBatchRows rows). Without `background` it steps the statement on the consumer's thread.
/// The consumer steps through the rows with the accessors of SqliteStatement (values copied out
/// of SQLite: an INTEGER as int64, anything else as its text). The destructor stops the reader
/// and joins it. A stop request of `stop` ends the rows early (error() "cancelled"). Not
/// thread-safe on the consumer's side (one consumer). Without `background`, the statement runs on
/// `connection` when given (the caller's open connection to the same file, which must outlive
/// the stream: no second open and schema parse per table), else on a connection of its own.
class SqliteRowStream {
 public:
  static constexpr std::size_t kBatchRows = 4096;
  static constexpr std::size_t kQueueBatches = 4;

  SqliteRowStream(std::string path, std::string sql, bool background, std::stop_token stop,
                  SqliteDb* connection = nullptr);
  ~SqliteRowStream();
  SqliteRowStream(const SqliteRowStream&) = delete;
  SqliteRowStream& operator=(const SqliteRowStream&) = delete;

  /// Next row: true while there is one. Errors (cannot open, bad SQL, corrupt page) end the rows
  /// and set error().
  bool step();
  [[nodiscard]] const std::string& error() const { return m_error; }
  [[nodiscard]] bool isNull(int col) const;
  [[nodiscard]] bool isInteger(int col) const;
  /// As SqliteStatement::integer (a TEXT "123" gives 123); `fallback` when NULL.
  [[nodiscard]] std::int64_t integer(int col, std::int64_t fallback = 0) const;
  /// As SqliteStatement::text: an INTEGER as its decimal text; empty when NULL. Valid until the
  /// next step().
  [[nodiscard]] std::string_view text(int col) const;

  struct Shared;  ///< the queue between reader and consumer (sqlite_db.cpp)

 private:
  std::unique_ptr<Shared> m_shared;
  std::string m_error;
};

}  // namespace npuscope::core::detail
