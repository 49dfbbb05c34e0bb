// SPDX-License-Identifier: MIT
#include "core/import/json/json_trace_reader.h"
#include "core/import/lazy_warning.h"
#include "core/base/time_limits.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <unistd.h>

#include "core/base/gzip_stream.h"
#include "core/import/json/json_fast.h"
#include "core/import/json/json_fast_scanner.h"
#include "core/import/json/json_preview.h"
#include "core/import/json/json_range_board.h"
#include "core/import/json/json_simdjson_event.h"
#include "core/import/json/json_scan.h"
#include "core/base/guard.h"
#include "core/base/parse_number.h"

namespace npuscope::core::detail {

namespace od = simdjson::ondemand;

std::uint32_t WorkerOut::process(const Key& pid) {
  auto [it, inserted] = processIndex.try_emplace(pid, static_cast<std::uint32_t>(processes.size()));
  if (inserted) processes.push_back(pid);
  return it->second;
}

std::uint32_t WorkerOut::thread(const Key& pid, const Key& tid) {
  if (lastThread != UINT32_MAX && pid == lastPid && tid == lastTid) return lastThread;
  lastThread = threadLookup(pid, tid);
  lastPid = pid;
  lastTid = tid;
  return lastThread;
}

std::uint32_t WorkerOut::threadLookup(const Key& pid, const Key& tid) {
  auto [it, inserted] = threadIndex.try_emplace({pid, tid}, static_cast<std::uint32_t>(threads.size()));
  if (inserted) {
    threads.emplace_back(process(pid), tid);
    slices.emplace_back();
  }
  return it->second;
}

namespace {

std::size_t resync(std::string_view file, std::size_t from, std::size_t limit);

/// Inflates a GzipStream on a thread of its own, so that inflating overlaps parsing, and hands
/// its text over in order (read). It runs at most kBlocks blocks of `blockBytes` ahead of the
/// reader: the memory it holds is kBlocks * blockBytes (1 MiB at the default window), whatever
/// the text's size. The thread stops at the end of the text, on a stop request, or when the
/// object is destroyed (which joins it); an exception in it ends the text there and is rethrown
/// by rethrow().
class ReadAhead {
 public:
  ReadAhead(GzipStream& stream, std::size_t blockBytes, std::stop_token stop)
      : m_stream(stream), m_blockBytes(std::max<std::size_t>(blockBytes, 1)), m_stop(std::move(stop)) {
    for (int i = 0; i < kBlocks; ++i) m_free.push_back(std::make_unique_for_overwrite<char[]>(m_blockBytes));
    m_thread = std::jthread([this] {
      m_failure.run([this] { produce(); });
      {
        const std::lock_guard lock(m_mutex);
        m_done = true;
      }
      m_cv.notify_all();
    });
  }
  ~ReadAhead() { finish(); }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// Copies the next bytes of the text to `dst` (at most `n`; waits for the thread when none is
  /// ready); 0 once the text has ended.
  std::size_t read(char* dst, std::size_t n) {
    while (m_at == m_current.size) {
      if (!next()) return 0;
    }
    const std::size_t k = std::min(n, m_current.size - m_at);
    std::memcpy(dst, m_current.data.get() + m_at, k);
    m_at += k;
    return k;
  }
  /// Inflates the rest of the text without reading it (the stream's warnings then cover the whole
  /// file: a cut or the limit after the last event). Stops early on a stop request.
  void skipToEnd() {
    while (!m_stop.stop_requested() && next()) m_at = m_current.size;
  }
  /// Compressed bytes consumed by the thread so far / the file's size, in [0, 1].
  [[nodiscard]] double fraction() const {
    return m_stream.diskSize() ? std::min(1.0, static_cast<double>(m_compressed.load(std::memory_order_relaxed)) /
                                                   static_cast<double>(m_stream.diskSize()))
                               : 1.0;
  }
  /// Stops the thread and waits for it; after this the stream may be read by the caller.
  void finish() {
    {
      const std::lock_guard lock(m_mutex);
      m_quit = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }
  /// After finish(): rethrows what the thread threw, if anything.
  void rethrow() { m_failure.rethrow(); }

 private:
  static constexpr int kBlocks = 4;
  struct Block {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
  };

  /// Gives the block just read back to the thread and takes the next one; false at the end.
  bool next() {
    std::unique_lock lock(m_mutex);
    if (m_current.data) m_free.push_back(std::move(m_current.data));
    m_current.size = m_at = 0;
    m_cv.notify_all();
    m_cv.wait(lock, [&] { return !m_full.empty() || m_done; });
    if (m_full.empty()) return false;
    m_current = std::move(m_full.front());
    m_full.pop_front();
    return true;
  }

  /// The thread: fills free blocks from the stream, in order, until it ends.
  void produce() {
    for (;;) {
      std::unique_ptr<char[]> buffer;
      {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_quit || !m_free.empty(); });
        if (m_quit) return;
        buffer = std::move(m_free.back());
        m_free.pop_back();
      }
      std::size_t size = 0;
      while (size < m_blockBytes) {
        const std::size_t n = m_stream.read(buffer.get() + size, m_blockBytes - size);
        if (n == 0) break;
        size += n;
      }
      m_compressed.store(m_stream.compressedOffset(), std::memory_order_relaxed);
      {
        const std::lock_guard lock(m_mutex);
        if (size > 0) m_full.push_back({std::move(buffer), size});
        else m_free.push_back(std::move(buffer));
      }
      m_cv.notify_all();
      if (size < m_blockBytes || m_stop.stop_requested()) return;  // the text ended (read() gave 0) or cancel
    }
  }

  GzipStream& m_stream;
  const std::size_t m_blockBytes;
  std::stop_token m_stop;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::deque<Block> m_full;                       ///< inflated, not yet read
  std::vector<std::unique_ptr<char[]>> m_free;    ///< to be filled
  bool m_done = false;                            ///< the thread has ended
  bool m_quit = false;                            ///< finish() was called
  Block m_current;                                ///< the block read() copies from
  std::size_t m_at = 0;                           ///< read position in m_current
  std::atomic<std::uint64_t> m_compressed{0};
  ExceptionSlot m_failure;
  std::jthread m_thread;  ///< last: started after every other member exists
};

/// The bytes a parse worker reads: the whole file in place (ReadSource::windowBytes == 0), a
/// window that holds a copy of [offset(), offset() + size) of the file and is refilled, in file
/// order, as the worker advances (ReadSource), or such a window refilled from a ReadAhead (a
/// streamed gzip text, which is never whole in memory). The window keeps simdjson's padding
/// readable after its bytes (SimdjsonEventParser::parse copies each event it parses into its own
/// padded buffer).
class RangeWindow {
 public:
  RangeWindow(std::string_view file, const ReadSource& source, std::size_t begin)
      : m_file(file), m_source(source) {
    if (source.windowBytes == 0) {
      m_data = file.data();
      m_end = file.data() + file.size();
      m_offset = 0;
      return;
    }
    allocate(source.windowBytes);
    m_offset = begin;
    fill();
  }
  /// A window of `windowBytes` over the text `stream` hands over, from its first byte.
  RangeWindow(ReadAhead& stream, std::size_t windowBytes) : m_stream(&stream) {
    allocate(windowBytes);
    fill();
  }

  [[nodiscard]] const char* data() const { return m_data; }
  /// One past the last readable byte of the file copied so far.
  [[nodiscard]] const char* end() const { return m_end; }
  /// True when end() is the end of the file: no refill can add bytes.
  [[nodiscard]] bool atFileEnd() const {
    return m_stream ? m_streamEnded : m_offset + static_cast<std::size_t>(m_end - m_data) >= m_file.size();
  }
  /// File offset of the byte at `p` (in [data(), end()]).
  [[nodiscard]] std::size_t offsetOf(const char* p) const { return m_offset + static_cast<std::size_t>(p - m_data); }
  /// File offset of end(): the file's size once atFileEnd().
  [[nodiscard]] std::size_t endOffset() const { return offsetOf(m_end); }
  /// Bytes that should follow an element's start before it is parsed (0 in place).
  [[nodiscard]] std::size_t margin() const { return m_margin; }
  /// True when fewer than `bytes` bytes are readable from `p` and the file has more.
  [[nodiscard]] bool low(const char* p, std::size_t bytes) const {
    return static_cast<std::size_t>(m_end - p) < bytes && !atFileEnd();
  }
  /// Keeps the bytes from `p` on (moved to the front of the window) and appends the next bytes of
  /// the file, growing the window when `p` is already at its front and it is full (an element
  /// longer than the window). Returns where `p`'s byte now is. Only when !atFileEnd().
  const char* refill(const char* p) {
    const std::size_t keep = p < m_end ? static_cast<std::size_t>(m_end - p) : 0;
    const std::size_t at = offsetOf(p);
    if (keep == m_capacity) {
      std::unique_ptr<char[]> grown(new char[2 * m_capacity + simdjson::SIMDJSON_PADDING]);
      std::memcpy(grown.get(), p, keep);
      m_buffer = std::move(grown);
      m_capacity *= 2;
    } else if (keep > 0) {
      std::memmove(m_buffer.get(), p, keep);
    }
    m_data = m_buffer.get();
    m_end = m_data + keep;
    m_offset = at;
    fill();
    return m_data;
  }

 private:
  void allocate(std::size_t windowBytes) {
    m_capacity = std::max<std::size_t>(windowBytes, 16);
    m_margin = std::min<std::size_t>(windowBytes / 4, 64u << 10);
    m_buffer.reset(new char[m_capacity + simdjson::SIMDJSON_PADDING]);
    m_data = m_end = m_buffer.get();
  }

  /// Appends file bytes after m_end until the window is full or the file ends.
  void fill() {
    char* const buf = m_buffer.get();
    std::size_t have = static_cast<std::size_t>(m_end - buf);
    if (m_stream) {
      while (have < m_capacity) {
        const std::size_t n = m_stream->read(buf + have, m_capacity - have);
        if (n == 0) {
          m_streamEnded = true;
          break;
        }
        have += n;
      }
      m_end = buf + have;
      return;
    }
    std::size_t pos = m_offset + have;
    const std::size_t want = std::min(m_capacity - have, m_file.size() - pos);
    std::size_t got = 0;
    while (m_source.fd >= 0 && got < want) {
      const ssize_t n = ::pread(m_source.fd, buf + have + got, want - got, static_cast<off_t>(m_source.fdOffset + pos + got));
      if (n <= 0) break;  // error or short file: copy the rest from the mapping below
      got += static_cast<std::size_t>(n);
    }
    if (got < want) std::memcpy(buf + have + got, m_file.data() + pos + got, want - got);
    m_end = buf + have + want;
  }

  std::string_view m_file;
  ReadSource m_source;
  ReadAhead* m_stream = nullptr;  ///< the stream mode's source, else null
  bool m_streamEnded = false;     ///< the stream gave its last byte
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_capacity = 0;
  std::size_t m_margin = 0;
  const char* m_data = nullptr;
  const char* m_end = nullptr;
  std::size_t m_offset = 0;  // file offset of m_data[0]
};

/// UTF-8 validated in bulk ahead of the fast scanner: simdjson::validate_utf8 over up to 1 MiB
/// of the window at a time instead of once per event (per-event calls on ~185-byte events were
/// 2.9% of the load at 11 M events, most of it the cost of a call). The chunk is cut at a
/// character boundary (a cut elsewhere would only fail the check); a valid text cut at character boundaries
/// is valid, and an event's bytes start and end at ASCII bytes ('{', '}'), so every event inside
/// a valid chunk is valid. A chunk that fails (a bad byte somewhere in it) leaves its events to
/// the scanner's own per-event check, so every event gets the verdict it had. Ranges are file
/// offsets: they survive refills, which move the bytes but never change them.
class Utf8Ahead {
 public:
  /// The end, in the window, of the bytes known valid from `p` on; `p` when nothing is known.
  const char* validEnd(const RangeWindow& win, const char* p) {
    const std::size_t off = win.offsetOf(p);
    const bool inside = off >= m_begin && off <= m_end;
    if ((!inside || m_end - off < kAhead) && off >= m_failedUpTo) {
      const std::size_t from = inside ? m_end : off;
      const char* const a = p + (from - off);
      if (a < win.end()) {
        const char* e = a + std::min<std::size_t>(kChunk, static_cast<std::size_t>(win.end() - a));
        // Back to a character boundary: over up to 3 continuation bytes, then their lead byte.
        for (int k = 0; k < 3 && e > a && (static_cast<unsigned char>(e[-1]) & 0xC0) == 0x80; ++k) --e;
        if (e > a && static_cast<unsigned char>(e[-1]) >= 0xC0) --e;
        if (e > a) {
          if (simdjson::validate_utf8(a, static_cast<std::size_t>(e - a))) {
            if (!inside) m_begin = off;
            m_end = win.offsetOf(e);
          } else {
            m_failedUpTo = win.offsetOf(e);
          }
        }
      }
    }
    return off >= m_begin && off <= m_end ? p + (m_end - off) : p;
  }

 private:
  static constexpr std::size_t kChunk = 1u << 20;  ///< bytes validated per call at most
  static constexpr std::size_t kAhead = 16u << 10; ///< validate on when fewer are left ahead
  std::size_t m_begin = 0, m_end = 0;  ///< [m_begin, m_end): file bytes known to be valid UTF-8
  std::size_t m_failedUpTo = 0;        ///< no bulk check before this offset (a chunk failed)
};

/// Where a parse worker reports its progress steps (RangeBoard::step), which may move its limit
/// back: none for a read in one part.
struct PartSteps {
  RangeBoard* board = nullptr;
  unsigned part = 0;
};

/// Parses the array elements from `p` (in `win`) until an element starts at or after `limit`,
/// the array closes, or the file ends; `p` is left after the last byte read (after the `]` when
/// the array closed). With `fastScanner`, each event goes through the fast scanner
/// (FastEventScanner::scan) and only the events it declines through simdjson, so the result is
/// the same as without it (simdjson for every event: the reference path). The result does not
/// depend on the window (in place, pread or stream).
void parseElements(RangeWindow& win, const char*& p, std::size_t limit, WorkerOut& out,
                   std::atomic<std::size_t>* bytesDone, const std::stop_token& stop, bool fastScanner,
                   PreviewCursor preview = {}, const std::function<void(std::size_t)>* readHook = nullptr,
                   PartSteps steps = {}) {
  // An element is parsed once at least this many bytes follow its start in the window, or the
  // window ends at the end of the file; a longer element makes the window refill (and grow).
  const std::size_t margin = win.margin();
  const char* end = win.end();
  const std::size_t begin = win.offsetOf(p);
  out.beginOffset = begin;
  EventInterpreter interp(out);
  FastEventScanner scanner(interp);
  SimdjsonEventParser simd(interp);
  Utf8Ahead utf8;
  bool expectElement = false;  // a comma was seen and no element followed yet
  std::size_t lastReport = begin;
  const auto refill = [&] {
    p = win.refill(p);
    end = win.end();
  };
  for (;;) {
    if (win.low(p, margin)) refill();
    p = skipWs(p, end);
    if (p >= end) {
      if (!win.atFileEnd()) {
        refill();
        continue;
      }
      out.stop = WorkerOut::Stop::EndOfFile;
      out.stopOffset = win.endOffset();
      break;
    }
    const char c = *p;
    if (c == ']') {
      out.stop = WorkerOut::Stop::ArrayEnd;
      out.stopOffset = win.offsetOf(++p);
      break;
    }
    if (c == ',') {
      if (expectElement)
        addWarning(out.stats, ImportWarning::EmptyElement, [&] { return "empty element " + offsetText(win.offsetOf(p)); });
      expectElement = true;
      ++p;
      continue;
    }
    const std::size_t off = win.offsetOf(p);
    if (off >= limit) {
      out.stop = WorkerOut::Stop::Limit;
      out.stopOffset = off;
      break;
    }
    // The file is read once, front to back: fetch ahead (the hardware prefetcher stops at
    // 4 KiB page boundaries of the mapping; the loads of the scanner stalled on them).
    __builtin_prefetch(p + 1024);
    __builtin_prefetch(p + 1088);
    __builtin_prefetch(p + 1152);
    __builtin_prefetch(p + 1216);
    const char* fast = (c == '{' && fastScanner) ? scanner.scan(p, end, off, utf8.validEnd(win, p)) : nullptr;
    if (fast) {
      ++out.fastEvents;
      expectElement = false;
      p = fast;
    } else {
      const char* q = skipValue(p, end);
      // Not all of the element is in the window (or a scalar may go on after its end): neither
      // path had any effect yet; read on and parse it again.
      if ((!q || q == end) && !win.atFileEnd()) {
        refill();
        continue;
      }
      if (c == '{' && fastScanner) ++out.declinedEvents;
      if (!q) {
        addWarning(out.stats, ImportWarning::TruncatedEvent, [&] { return "file ends inside an event at byte " + std::to_string(win.endOffset()); });
        out.stop = WorkerOut::Stop::Truncated;
        out.stopOffset = win.endOffset();
        break;
      }
      if (q == p) {
        // A stray delimiter (`}`, `:`) where an element should start: skip the byte (never loop).
        addWarning(out.stats, ImportWarning::NotAnObject, [&] { return "unexpected '" + std::string(1, c) + "' " + offsetText(off); });
        q = p + 1;
      } else if (c == '{') {
        simd.parse(p, static_cast<std::size_t>(q - p), off);
      } else {
        addWarning(out.stats, ImportWarning::NotAnObject, [&] { return "array element that is not an object " + offsetText(off); });
      }
      expectElement = false;
      p = q;
    }
    const std::size_t done = win.offsetOf(p);
    if (done - lastReport > (1u << 20)) {
      if (bytesDone) bytesDone->fetch_add(done - lastReport, std::memory_order_relaxed);
      lastReport = done;
      if (readHook && *readHook) (*readHook)(done);
      if (steps.board) limit = steps.board->step(steps.part, done);
      publishPreview(out, preview);
      if (stop.stop_requested()) {
        out.stop = WorkerOut::Stop::Cancelled;
        out.stopOffset = done;
        return;
      }
    }
  }
  if (bytesDone) bytesDone->fetch_add(out.stopOffset > lastReport ? out.stopOffset - lastReport : 0, std::memory_order_relaxed);
  publishPreview(out, preview);
}

/// Parses the array elements of `file` from offset `begin` (see parseElements), reading the
/// bytes from `source` (ReadSource); the result does not depend on it.
void parseRange(std::string_view file, std::size_t begin, std::size_t limit, WorkerOut& out,
                std::atomic<std::size_t>* bytesDone, const std::stop_token& stop, bool fastScanner,
                const ReadSource& source, PreviewCursor preview = {},
                const std::function<void(std::size_t)>* readHook = nullptr, PartSteps steps = {}) {
  RangeWindow win(file, source, begin);
  const char* p = source.windowBytes == 0 ? win.data() + begin : win.data();
  parseElements(win, p, limit, out, bytesDone, stop, fastScanner, preview, readHook, steps);
}

/// Finds a likely event start at or after `from`: `}` ws `,` ws `{` ws `"`. Speculative: the
/// caller verifies that the previous range ends exactly here.
std::size_t resync(std::string_view file, std::size_t from, std::size_t limit) {
  const char* base = file.data();
  const char* end = base + std::min(limit, file.size());
  const char* p = base + from;
  while (p < end) {
    p = static_cast<const char*>(std::memchr(p, ',', static_cast<std::size_t>(end - p)));
    if (!p) break;
    const char* b = p - 1;
    while (b > base && (*b == ' ' || *b == '\n' || *b == '\r' || *b == '\t')) --b;
    const char* a = skipWs(p + 1, end);
    if (*b == '}' && a < end && *a == '{') {
      const char* k = skipWs(a + 1, end);
      if (k < end && *k == '"') return static_cast<std::size_t>(a - base);
    }
    ++p;
  }
  return std::min(limit, file.size());
}

// Reads a small top-level value with simdjson.
void readTopLevelValue(std::string_view key, std::string_view raw, TopLevelInfo& top) {
  std::string buf(raw);
  buf.append(simdjson::SIMDJSON_PADDING, ' ');
  od::parser parser;
  od::document doc;
  if (parser.iterate(buf.data(), raw.size(), buf.size()).get(doc)) return;
  if (key == "distributedInfo") {
    od::object o;
    if (doc.get_object().get(o)) return;
    od::value v;
    std::int64_t r;
    if (!o.find_field_unordered("rank").get(v) && !v.get_int64().get(r)) top.rank = static_cast<int>(r);
  } else if (key == "baseTimeNanoseconds") {
    std::string_view tok;
    if (doc.raw_json_token().get(tok)) return;
    // The leading digits as an int64; too many for one (they would wrap) -> not set.
    std::size_t n = 0;
    while (n < tok.size() && tok[n] >= '0' && tok[n] <= '9') ++n;
    if (const auto v = parseInteger<std::int64_t>(tok.substr(0, n)); v && *v <= kMaxTimeNs) top.baseTimeNanoseconds = *v;
  } else if (key == "traceName" || key == "displayTimeUnit") {
    std::string_view s;
    if (doc.get_string().get(s)) return;
    (key == "traceName" ? top.traceName : top.displayTimeUnit).assign(s);
  }
}

/// Scans the keys of the top-level object from `p` (just after '{' or after a value) until
/// "traceEvents": returns true with `p` just after its '['. Returns false at the object's end or
/// the end of the text (then `unterminated`) or at bytes that are no member (`unterminated`).
/// Reads "distributedInfo", "baseTimeNanoseconds", "traceName" and "displayTimeUnit" into `top`.
/// A member that is not wholly in `win` makes it refill (and grow) until it is, or the text ends.
bool scanObjectKeys(RangeWindow& win, const char*& p, TopLevelInfo& top, bool& unterminated) {
  const char* end = win.end();
  // The member from `from` is cut by the window's end: true after a refill that keeps it.
  const auto more = [&](const char* from) {
    if (win.atFileEnd()) return false;
    p = win.refill(from);
    end = win.end();
    return true;
  };
  for (;;) {
    p = skipWs(p, end);
    if (p >= end) {
      if (more(p)) continue;
      unterminated = true;
      return false;
    }
    if (*p == '}') return false;
    if (*p == ',') {
      ++p;
      continue;
    }
    if (*p != '"') {
      unterminated = true;  // garbage: give up on the rest
      return false;
    }
    const char* const member = p;
    const char* keyEnd = skipValue(p, end);
    if (!keyEnd) {
      if (more(member)) continue;
      unterminated = true;
      return false;
    }
    const std::string_view key(p + 1, static_cast<std::size_t>(keyEnd - p - 2));
    const char* colon = skipWs(keyEnd, end);
    if (colon >= end && more(member)) continue;
    if (colon >= end || *colon != ':') {
      unterminated = true;
      return false;
    }
    const char* v = skipWs(colon + 1, end);
    if (v >= end) {
      if (more(member)) continue;
      unterminated = true;
      return false;
    }
    if (key == "traceEvents" && *v == '[') {
      p = v + 1;
      return true;
    }
    const char* q = skipValue(v, end);
    if ((!q || q == end) && more(member)) continue;  // a value cut by the window (or a scalar that may go on)
    if (!q) {
      unterminated = true;
      return false;
    }
    if (key == "distributedInfo" || key == "baseTimeNanoseconds" || key == "traceName" || key == "displayTimeUnit")
      readTopLevelValue(key, std::string_view(v, static_cast<std::size_t>(q - v)), top);
    p = q;
  }
}

/// Runs body(w, sink, bytesDone) for w in [0, workers): on the calling thread when there is one
/// worker and no progress or preview callback (a worker would only cost a thread start and a poll
/// period per load; issue 15: the fuzz targets ran at 11-176 exec/s), else each on its own thread
/// while the calling thread reports options.progress(fraction(bytesDone)) and the preview.
/// `sink` is where the parts publish their preview (null without a preview callback);
/// `bytesDone` is the workers' shared count of bytes read (null on the calling thread).
/// Rethrows what a body threw, after every one has ended.
void runParts(unsigned workers, const LoadOptions& options,
              const std::function<void(unsigned, PreviewSink*, std::atomic<std::size_t>*)>& body,
              const std::function<double(std::size_t)>& fraction) {
  std::atomic<std::size_t> bytesDone{0};
  std::atomic<unsigned> finished{0};
  PreviewSink sink;
  PreviewSink* const sinkOrNull = options.preview ? &sink : nullptr;
  ExceptionSlot failure;  // a worker that throws still counts as finished; rethrown after the join
  // The calling thread waits at most 20 ms between two progress reports, and no longer than the
  // last worker takes (a small file must not cost a whole poll period).
  std::mutex doneMutex;
  std::condition_variable doneCv;
  if (workers == 1 && !options.progress && !options.preview) {
    failure.run([&] { body(0, nullptr, nullptr); });
  } else {
    std::vector<std::jthread> threads;
    for (unsigned w = 0; w < workers; ++w) {
      threads.emplace_back([&, w] {
        failure.run([&] { body(w, sinkOrNull, &bytesDone); });
        {
          const std::lock_guard lock(doneMutex);
          finished.fetch_add(1, std::memory_order_release);
        }
        doneCv.notify_all();
      });
    }
    // Report progress (and the preview) from the calling thread while the workers run.
    std::uint64_t shownVersion = 0;
    auto lastPreview = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    while (finished.load(std::memory_order_acquire) < workers) {
      {
        std::unique_lock lock(doneMutex);
        doneCv.wait_for(lock, std::chrono::milliseconds(20),
                        [&] { return finished.load(std::memory_order_acquire) >= workers; });
      }
      const double f = std::clamp(fraction(bytesDone.load(std::memory_order_relaxed)), 0.0, 1.0);
      if (options.progress) options.progress(f);
      const auto now = std::chrono::steady_clock::now();
      const std::uint64_t v = sink.version.load(std::memory_order_acquire);
      if (options.preview && v != shownVersion && now - lastPreview >= std::chrono::milliseconds(100) &&
          !options.stop.stop_requested()) {
        shownVersion = v;
        lastPreview = now;
        options.preview(makePreview(sink, f));
      }
    }
    if (options.preview && !options.stop.stop_requested()) options.preview(makePreview(sink, 1.0));
  }  // join
  failure.rethrow();
}

/// What follows the last part: the notes and warnings of how the event array ended, and the
/// top-level keys after it (object form), read by scanTail(top, unterminated) from where the
/// array closed.
void finishRead(ReadResult& result, bool unterminatedObject, const LoadOptions& options,
                const std::function<void(TopLevelInfo&, bool&)>& scanTail) {
  const WorkerOut& last = result.parts.back();
  if (last.stop == WorkerOut::Stop::EndOfFile || last.stop == WorkerOut::Stop::Truncated) {
    if (result.top.objectForm) {
      result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed at end of file");
    } else if (last.stop == WorkerOut::Stop::EndOfFile) {
      result.notes.push_back("closing bracket added (the event array was not closed)");
    }
  } else if (last.stop == WorkerOut::Stop::ArrayEnd && result.top.objectForm) {
    bool unterminated = false;
    TopLevelInfo more = result.top;
    scanTail(more, unterminated);
    more.objectForm = true;
    result.top = more;
    if (unterminated) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  }
  if (unterminatedObject) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  if (options.progress) options.progress(1.0);
}

}  // namespace

ReadSource readSourceFor(const MappedFile& file) {
  ReadSource s;
  if (file.fd() < 0) return s;
  s.fd = file.fd();
  s.fdOffset = file.fileOffset();
  s.windowBytes = kDefaultWindowBytes;
  return s;
}

ReadResult readTraceEvents(std::string_view file, unsigned threads, const LoadOptions& options, const ReadSource& source) {
  ReadResult result;
  const char* base = file.data();
  const char* end = base + file.size();
  const char* p = skipWs(base, end);
  if (p >= end) {
    result.error = "file is empty";
    return result;
  }
  std::size_t arrayStart = 0;
  bool unterminatedObject = false;
  if (*p == '[') {
    arrayStart = static_cast<std::size_t>(p + 1 - base);
    result.top.foundEvents = true;
  } else if (*p == '{') {
    result.top.objectForm = true;
    RangeWindow whole(file, ReadSource{}, 0);
    const char* q = whole.data() + (p + 1 - base);
    if (!scanObjectKeys(whole, q, result.top, unterminatedObject)) {
      result.notes.push_back("no traceEvents found");
      return result;
    }
    arrayStart = whole.offsetOf(q);
    result.top.foundEvents = true;
  } else {
    result.error = "not a JSON trace: the file starts with '" + std::string(1, *p) +
                   "' (expected '[' or '{')";
    return result;
  }

  // Split [arrayStart, size) into one range per worker; each range after the first starts at a
  // resync point. A worker whose range is done takes the back half of another's (RangeBoard).
  const std::size_t span = file.size() - arrayStart;
  // Below ~1 MB per range, threads cost more than they save (LoadOptions::minPartBytes).
  const unsigned workers = static_cast<unsigned>(
      std::clamp<std::size_t>(span / std::max<std::size_t>(options.minPartBytes, 1), 1, std::max(1u, threads)));
  std::vector<RangeBoard::Range> initial(workers);
  for (unsigned k = 0; k < workers; ++k) {
    initial[k].begin = k == 0 ? arrayStart : std::max(initial[k - 1].begin, resync(file, arrayStart + span * k / workers, file.size()));
    if (k > 0) initial[k - 1].limit = initial[k].begin;
  }
  initial.back().limit = SIZE_MAX;
  // A range is cut while 2 * kCutParts * minPartBytes of it are left (16 MiB by default: what is
  // left unbalanced at the end is then ~10 ms of reading).
  constexpr std::size_t kCutParts = 8;
  RangeBoard board(std::move(initial), kCutParts * std::max<std::size_t>(options.minPartBytes, 1), file.size(),
                   [&](std::size_t from, std::size_t limit) { return resync(file, from, limit); });
  std::deque<WorkerOut> outs(workers);  // one per part; grows as parts are cut (references stay valid)
  std::mutex outsMutex;
  result.workers = workers;
  runParts(
      workers, options,
      [&](unsigned w, PreviewSink* sink, std::atomic<std::size_t>* bytesDone) {
        for (std::optional<unsigned> k = w; k; k = board.steal(options.stop)) {
          WorkerOut* out = nullptr;
          {
            const std::lock_guard lock(outsMutex);
            if (outs.size() <= *k) outs.resize(*k + 1);
            out = &outs[*k];
          }
          PreviewCursor cursor;
          if (sink) {
            const std::lock_guard lock(sink->mutex);
            if (sink->parts.size() <= *k) sink->parts.resize(*k + 1);
            cursor.sink = sink;
            cursor.part = *k;
          }
          const RangeBoard::Range r = board.range(*k);
          // Ends the part on the board even when the parse throws: a worker waiting to take
          // half of it must not wait for ever.
          const ScopeExit ended([&] { board.finished(*k); });
          parseRange(file, r.begin, r.limit, *out, bytesDone, options.stop, options.fastScanner, source, cursor,
                     &options.readHook, PartSteps{&board, *k});
        }
      },
      [&](std::size_t bytesDone) {
        return static_cast<double>(bytesDone) / static_cast<double>(std::max<std::size_t>(span, 1));
      });
  if (options.stop.stop_requested()) {
    result.cancelled = true;
    return result;
  }
  // Verify that consecutive ranges meet; re-parse sequentially where a resync guess was wrong.
  const std::vector<unsigned> order = board.fileOrder();
  result.parts.reserve(order.size() + 2);
  result.parts.push_back(std::move(outs[order[0]]));
  for (std::size_t i = 1; i < order.size(); ++i) {
    WorkerOut& cur = result.parts.back();
    if (cur.stop != WorkerOut::Stop::Limit) break;  // the array ended before this range
    const RangeBoard::Range r = board.range(order[i]);
    if (cur.stopOffset == r.begin) {
      result.parts.push_back(std::move(outs[order[i]]));
      continue;
    }
    // Mismatch: range i started inside an event. Parse from where the previous one stopped.
    WorkerOut repair;
    parseRange(file, cur.stopOffset, r.limit, repair, nullptr, options.stop, options.fastScanner, source);
    result.parts.push_back(std::move(repair));
  }
  if (result.parts.back().stop == WorkerOut::Stop::Cancelled) {
    result.cancelled = true;
    return result;
  }
  finishRead(result, unterminatedObject, options, [&](TopLevelInfo& more, bool& unterminated) {
    RangeWindow whole(file, ReadSource{}, 0);
    const char* q = whole.data() + result.parts.back().stopOffset;
    scanObjectKeys(whole, q, more, unterminated);
  });
  return result;
}

ReadResult readTraceEventsStreamed(GzipStream& stream, const LoadOptions& options, std::size_t windowBytes) {
  ReadResult result;
  windowBytes = std::max<std::size_t>(windowBytes, 16);
  // Inflating runs on its own thread, parsing on this one (or one worker when there is progress
  // to report): blocks of at most 1 MiB, so that the window's refills find them ready.
  ReadAhead ahead(stream, std::min<std::size_t>(windowBytes, 1u << 20), options.stop);
  std::optional<RangeWindow> win;
  const char* p = nullptr;
  WorkerOut out;
  out.copyArgs = true;
  bool inArray = false, unterminatedObject = false;
  runParts(
      1, options,
      [&](unsigned, PreviewSink* sink, std::atomic<std::size_t>* bytesDone) {
        PreviewCursor cursor;
        if (sink) {
          const std::lock_guard lock(sink->mutex);
          sink->parts.resize(1);
          cursor.sink = sink;
        }
        win.emplace(ahead, windowBytes);
        p = win->data();
        for (;;) {
          p = skipWs(p, win->end());
          if (p < win->end() || win->atFileEnd()) break;
          p = win->refill(p);
        }
        if (p >= win->end()) {
          result.error = "file is empty";
        } else if (*p == '[') {
          result.top.foundEvents = inArray = true;
          ++p;
        } else if (*p == '{') {
          result.top.objectForm = true;
          ++p;
          if (scanObjectKeys(*win, p, result.top, unterminatedObject)) result.top.foundEvents = inArray = true;
          else result.notes.push_back("no traceEvents found");
        } else {
          result.error = "not a JSON trace: the file starts with '" + std::string(1, *p) + "' (expected '[' or '{')";
        }
        if (inArray)
          parseElements(*win, p, SIZE_MAX, out, bytesDone, options.stop, options.fastScanner, cursor, &options.readHook);
      },
      [&](std::size_t) { return ahead.fraction(); });
  if (options.stop.stop_requested() || out.stop == WorkerOut::Stop::Cancelled) {
    result.cancelled = true;
    return result;
  }
  if (inArray) {
    result.parts.push_back(std::move(out));
    finishRead(result, unterminatedObject, options,
               [&](TopLevelInfo& more, bool& unterminated) { scanObjectKeys(*win, p, more, unterminated); });
    result.copiedArgs = std::move(result.parts.back().copiedArgs);
  }
  // The rest of the text is inflated too, so that a cut or the limit after the last event is
  // still said (GzipStream::warning), as when the file was inflated whole.
  if (result.error.empty()) ahead.skipToEnd();
  ahead.finish();
  ahead.rethrow();
  return result;
}

}  // namespace npuscope::core::detail
