// SPDX-License-Identifier: MIT
#include "core/import/db/sqlite_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <mutex>
#include <system_error>
#include <thread>

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
  // query_only: a second guard against any write. mmap_size: pages are read through a read-only
  // mapping of the file instead of being copied into the page cache (fewer copies, no cache
  // memory; a file of an immutable database does not change under the mapping). cache_size: the
  // tables are read once, front to back: a small cache is enough (-2048 = 2 MiB).
  sqlite3_exec(m_db, "PRAGMA query_only = 1; PRAGMA mmap_size = 1099511627776; PRAGMA cache_size = -2048", nullptr,
               nullptr, nullptr);
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

// The accessors take the column's value once (sqlite3_column_value) and read it with the
// sqlite3_value_* functions: what sqlite3_column_type / _int64 / _text / _bytes do, without
// looking the column up (and checking the connection's malloc state) once per call. The value is
// "unprotected" (SQLite's term: no mutex); the connection is used by this thread only.
bool SqliteStatement::isNull(int col) const { return sqlite3_value_type(sqlite3_column_value(m_stmt, col)) == SQLITE_NULL; }
bool SqliteStatement::isInteger(int col) const {
  return sqlite3_value_type(sqlite3_column_value(m_stmt, col)) == SQLITE_INTEGER;
}

std::int64_t SqliteStatement::integer(int col, std::int64_t fallback) const {
  sqlite3_value* v = sqlite3_column_value(m_stmt, col);
  if (sqlite3_value_type(v) == SQLITE_NULL) return fallback;
  return sqlite3_value_int64(v);
}

std::optional<std::int64_t> SqliteStatement::optionalInteger(int col) const {
  sqlite3_value* v = sqlite3_column_value(m_stmt, col);
  if (sqlite3_value_type(v) == SQLITE_NULL) return std::nullopt;
  return sqlite3_value_int64(v);
}

double SqliteStatement::real(int col, double fallback) const {
  sqlite3_value* v = sqlite3_column_value(m_stmt, col);
  if (sqlite3_value_type(v) == SQLITE_NULL) return fallback;
  return sqlite3_value_double(v);
}

std::string_view SqliteStatement::text(int col) const {
  sqlite3_value* v = sqlite3_column_value(m_stmt, col);
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  if (!p) return {};
  return {p, static_cast<std::size_t>(sqlite3_value_bytes(v))};
}

// ---- SqliteRowStream

namespace {
/// One value copied out of SQLite: its integer value in `i` (an INTEGER's own; for a TEXT, REAL
/// or BLOB SQLite's conversion, sqlite3_value_int64, as SqliteStatement::integer reads it) and
/// anything but an INTEGER also as its text in the batch's arena at [at, at + len).
struct Value {
  std::int64_t i = 0;
  std::uint32_t at = 0;
  std::uint32_t lenType = 0;  ///< len << 3 | SQLite type (1-5)
  [[nodiscard]] int type() const { return static_cast<int>(lenType & 7); }
  [[nodiscard]] std::uint32_t len() const { return lenType >> 3; }
};
struct Batch {
  std::vector<Value> cells;  ///< rows * columns
  std::string texts;
  std::size_t rows = 0;
};
}  // namespace

struct SqliteRowStream::Shared {
  std::string path, sql;
  std::stop_token stop;
  // Direct mode (no thread): the consumer steps this statement, on `connection` when given.
  SqliteDb* connection = nullptr;
  std::unique_ptr<SqliteDb> db;
  std::unique_ptr<SqliteStatement> stmt;
  bool opened = false;
  // Background mode.
  std::thread thread;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Batch> queue;
  /// Batches the consumer is done with, handed back (emptied, capacity kept) so that the reader
  /// refills them instead of allocating: its thread's malloc arena then holds a few batches
  /// only, and nothing is freed into it from the consumer's thread.
  std::vector<Batch> spare;
  bool done = false, abort = false;
  std::string error;  ///< the reader's, read once done
  // Consumer's position.
  Batch current;
  std::size_t row = 0;  ///< 1-based row of `current` being read (0: before the first)
  int columns = 0;
  mutable std::vector<char> numbers;  ///< 24 bytes a column: text() of an INTEGER

  const Value& value(int col) const { return current.cells[(row - 1) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(col)]; }

  /// The reader thread's body.
  void read() {
    SqliteDb conn;
    std::string openError;
    if (!conn.open(path, openError)) return finish(openError);
    SqliteStatement s(conn, sql);
    if (!s.ok()) return finish(s.error());
    sqlite3_stmt* st = s.raw();
    const int n = sqlite3_column_count(st);
    {
      std::lock_guard lock(mutex);
      columns = n;
    }
    Batch b;
    // The first batch grows with the rows (a table of a few rows takes a few cells, not
    // kBatchRows' worth: 720 KB for PYTORCH_API's 11 columns); the next ones reuse a spare batch's
    // capacity.
    b.cells.reserve(std::min<std::size_t>(kBatchRows, 64) * static_cast<std::size_t>(n));
    while (s.step()) {
      for (int c = 0; c < n; ++c) {
        Value v;
        sqlite3_value* const cell = sqlite3_column_value(st, c);  // as SqliteStatement's accessors
        const int type = sqlite3_value_type(cell);
        if (type == SQLITE_INTEGER) {
          v.i = sqlite3_value_int64(cell);
        } else if (type != SQLITE_NULL) {
          // SQLite's own integer of the value, taken here where the value is: a conversion of the
          // text on the consumer's side read a REAL beyond int64 (1e20, stored "1.0e+20") as 1
          // where SQLite gives INT64_MAX, and differed on other texts (found by fuzz_sqlite_reader).
          v.i = sqlite3_value_int64(cell);
          const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(cell));
          // (a text of 512 MiB or more is cut there: the packed length has 29 bits)
          const auto len = static_cast<std::uint32_t>(std::min(sqlite3_value_bytes(cell), (1 << 29) - 1));
          v.at = static_cast<std::uint32_t>(b.texts.size());
          if (p) b.texts.append(p, len);
          v.lenType = len << 3;
        }
        v.lenType |= static_cast<std::uint32_t>(type);
        b.cells.push_back(v);
      }
      if (++b.rows == kBatchRows) {
        if (!push(std::move(b))) return;
        b = takeSpare();
        b.cells.reserve(kBatchRows * static_cast<std::size_t>(n));
      }
    }
    if (b.rows && !push(std::move(b))) return;
    finish(s.error());
  }
  /// An emptied batch of `spare`, or a new one.
  Batch takeSpare() {
    std::lock_guard lock(mutex);
    if (spare.empty()) return Batch{};
    Batch b = std::move(spare.back());
    spare.pop_back();
    return b;
  }
  /// Queues a batch, waiting while the queue is full. False when the consumer went away or a
  /// stop was requested.
  bool push(Batch&& b) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return abort || queue.size() < kQueueBatches || stop.stop_requested(); });
    if (abort || stop.stop_requested()) {
      done = true;
      error = "cancelled";
      changed.notify_all();
      return false;
    }
    queue.push_back(std::move(b));
    changed.notify_all();
    return true;
  }
  void finish(const std::string& e) {
    std::lock_guard lock(mutex);
    done = true;
    error = e;
    changed.notify_all();
  }
};

SqliteRowStream::SqliteRowStream(std::string path, std::string sql, bool background, std::stop_token stop,
                                 SqliteDb* connection)
    : m_shared(std::make_unique<Shared>()) {
  m_shared->connection = connection;
  m_shared->path = std::move(path);
  m_shared->sql = std::move(sql);
  m_shared->stop = std::move(stop);
  if (background) {
    try {
      m_shared->thread = std::thread([s = m_shared.get()] { s->read(); });
    } catch (const std::system_error&) {
      // No thread to be had (a process limit): the rows are read on the consumer's thread.
    }
  }
}

SqliteRowStream::~SqliteRowStream() {
  if (m_shared->thread.joinable()) {
    {
      std::lock_guard lock(m_shared->mutex);
      m_shared->abort = true;
      m_shared->changed.notify_all();
    }
    m_shared->thread.join();
  }
}

bool SqliteRowStream::step() {
  Shared& s = *m_shared;
  if (!s.thread.joinable()) {  // direct mode
    if (!s.opened) {
      s.opened = true;
      if (!s.connection) {
        s.db = std::make_unique<SqliteDb>();
        std::string e;
        if (!s.db->open(s.path, e)) {
          m_error = e;
          return false;
        }
        s.connection = s.db.get();
      }
      s.stmt = std::make_unique<SqliteStatement>(*s.connection, s.sql);
    }
    if (!s.stmt) return false;
    if (s.stop.stop_requested()) {
      if (m_error.empty()) m_error = "cancelled";
      return false;
    }
    if (s.stmt->step()) return true;
    if (m_error.empty()) m_error = s.stmt->error();
    return false;
  }
  if (s.row < s.current.rows) {
    ++s.row;
    return true;
  }
  std::unique_lock lock(s.mutex);
  s.changed.wait(lock, [&] { return !s.queue.empty() || s.done; });
  if (s.queue.empty()) {
    if (m_error.empty()) m_error = s.error;
    return false;
  }
  Batch used = std::move(s.current);
  used.cells.clear();
  used.texts.clear();
  used.rows = 0;
  if (used.cells.capacity() && s.spare.empty()) s.spare.push_back(std::move(used));  // one kept: the peak stays
  s.current = std::move(s.queue.front());
  s.queue.pop_front();
  s.changed.notify_all();
  s.row = 1;
  return s.current.rows > 0;
}

bool SqliteRowStream::isNull(int col) const {
  if (m_shared->stmt) return m_shared->stmt->isNull(col);
  return m_shared->value(col).type() == SQLITE_NULL;
}

bool SqliteRowStream::isInteger(int col) const {
  if (m_shared->stmt) return m_shared->stmt->isInteger(col);
  return m_shared->value(col).type() == SQLITE_INTEGER;
}

std::int64_t SqliteRowStream::integer(int col, std::int64_t fallback) const {
  if (m_shared->stmt) return m_shared->stmt->integer(col, fallback);
  const Value& v = m_shared->value(col);
  return v.type() == SQLITE_NULL ? fallback : v.i;
}

std::string_view SqliteRowStream::text(int col) const {
  if (m_shared->stmt) return m_shared->stmt->text(col);
  const Value& v = m_shared->value(col);
  if (v.type() == SQLITE_NULL) return {};
  if (v.type() == SQLITE_INTEGER) {
    auto& numbers = m_shared->numbers;
    if (numbers.size() < static_cast<std::size_t>(m_shared->columns) * 24) numbers.resize(static_cast<std::size_t>(m_shared->columns) * 24);
    char* const at = numbers.data() + static_cast<std::size_t>(col) * 24;
    const auto r = std::to_chars(at, at + 24, v.i);
    return {at, static_cast<std::size_t>(r.ptr - at)};
  }
  return {m_shared->current.texts.data() + v.at, v.len()};
}

}  // namespace npuscope::core::detail
