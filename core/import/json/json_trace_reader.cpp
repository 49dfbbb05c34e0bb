// SPDX-License-Identifier: MIT
#include "core/import/json/json_trace_reader.h"
#include "core/import/lazy_warning.h"
#include "core/base/time_limits.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <unistd.h>

#include "core/import/json/json_fast.h"
#include "core/import/json/json_fast_scanner.h"
#include "core/import/json/json_preview.h"
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

/// The bytes a parse worker reads: the whole file in place (ReadSource::windowBytes == 0), or a
/// window that holds a copy of [offset(), offset() + size) of the file and is refilled, in file
/// order, as the worker advances (ReadSource). The window keeps simdjson's padding readable after
/// its bytes (SimdjsonEventParser::parse copies each event it parses into its own padded buffer).
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
    m_capacity = std::max<std::size_t>(source.windowBytes, 16);
    m_buffer.reset(new char[m_capacity + simdjson::SIMDJSON_PADDING]);
    m_data = m_end = m_buffer.get();
    m_offset = begin;
    fill();
  }

  [[nodiscard]] const char* data() const { return m_data; }
  /// One past the last readable byte of the file copied so far.
  [[nodiscard]] const char* end() const { return m_end; }
  /// True when end() is the end of the file: no refill can add bytes.
  [[nodiscard]] bool atFileEnd() const { return m_offset + static_cast<std::size_t>(m_end - m_data) >= m_file.size(); }
  /// File offset of the byte at `p` (in [data(), end()]).
  [[nodiscard]] std::size_t offsetOf(const char* p) const { return m_offset + static_cast<std::size_t>(p - m_data); }
  /// True when fewer than `bytes` bytes are readable from `p` and the file has more.
  [[nodiscard]] bool low(const char* p, std::size_t bytes) const {
    return static_cast<std::size_t>(m_end - p) < bytes && !atFileEnd();
  }
  /// Keeps the bytes from `p` on (moved to the front of the window) and appends the next bytes of
  /// the file, growing the window when `p` is already at its front and it is full (an element
  /// longer than the window). Returns where `p`'s byte now is. Only when !atFileEnd().
  const char* refill(const char* p) {
    const auto keep = static_cast<std::size_t>(m_end - p);
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
  /// Appends file bytes after m_end until the window is full or the file ends.
  void fill() {
    char* const buf = m_buffer.get();
    std::size_t have = static_cast<std::size_t>(m_end - buf);
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
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_capacity = 0;
  const char* m_data = nullptr;
  const char* m_end = nullptr;
  std::size_t m_offset = 0;  // file offset of m_data[0]
};

/// Parses the array elements starting at `begin` until an element starts at or after `limit`,
/// the array closes, or the file ends. With `fastScanner`, each event goes through the fast
/// scanner (FastEventScanner::scan) and only the events it declines through simdjson, so the
/// result is the same as without it (simdjson for every event: the reference path).
/// The bytes come from `source` (ReadSource); the result does not depend on it.
void parseRange(std::string_view file, std::size_t begin, std::size_t limit, WorkerOut& out,
                std::atomic<std::size_t>* bytesDone, const std::stop_token& stop, bool fastScanner,
                const ReadSource& source, PreviewCursor preview = {},
                const std::function<void(std::size_t)>* readHook = nullptr) {
  RangeWindow win(file, source, begin);
  // An element is parsed once at least this many bytes follow its start in the window, or the
  // window ends at the end of the file; a longer element makes the window refill (and grow).
  const std::size_t margin = std::min<std::size_t>(source.windowBytes / 4, 64u << 10);
  const char* end = win.end();
  const char* p = win.data();
  out.beginOffset = begin;
  EventInterpreter interp(out);
  FastEventScanner scanner(interp);
  SimdjsonEventParser simd(interp);
  bool expectElement = false;  // a comma was seen and no element followed yet
  std::size_t lastReport = begin;
  const auto refill = [&] {
    p = win.refill(p);
    end = win.end();
  };
  if (source.windowBytes == 0) p += begin;
  for (;;) {
    if (win.low(p, margin)) refill();
    p = skipWs(p, end);
    if (p >= end) {
      if (!win.atFileEnd()) {
        refill();
        continue;
      }
      out.stop = WorkerOut::Stop::EndOfFile;
      out.stopOffset = file.size();
      break;
    }
    const char c = *p;
    if (c == ']') {
      out.stop = WorkerOut::Stop::ArrayEnd;
      out.stopOffset = win.offsetOf(p + 1);
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
    const char* fast = (c == '{' && fastScanner) ? scanner.scan(p, end, off) : nullptr;
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
        addWarning(out.stats, ImportWarning::TruncatedEvent, [&] { return "file ends inside an event at byte " + std::to_string(file.size()); });
        out.stop = WorkerOut::Stop::Truncated;
        out.stopOffset = file.size();
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

// Scans the keys of the top-level object from `p` (just after '{' or after a value) until
// "traceEvents" (returns the offset just after its '[') or the end (returns npos).
std::size_t scanObjectKeys(std::string_view file, std::size_t from, TopLevelInfo& top, bool& unterminated) {
  const char* base = file.data();
  const char* end = base + file.size();
  const char* p = base + from;
  for (;;) {
    p = skipWs(p, end);
    if (p >= end) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (*p == '}') return std::string_view::npos;
    if (*p == ',') {
      ++p;
      continue;
    }
    if (*p != '"') {
      unterminated = true;  // garbage: give up on the rest
      return std::string_view::npos;
    }
    const char* keyEnd = skipValue(p, end);
    if (!keyEnd) {
      unterminated = true;
      return std::string_view::npos;
    }
    const std::string_view key(p + 1, static_cast<std::size_t>(keyEnd - p - 2));
    p = skipWs(keyEnd, end);
    if (p >= end || *p != ':') {
      unterminated = true;
      return std::string_view::npos;
    }
    p = skipWs(p + 1, end);
    if (p >= end) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (key == "traceEvents" && *p == '[') return static_cast<std::size_t>(p + 1 - base);
    const char* v = skipValue(p, end);
    if (!v) {
      unterminated = true;
      return std::string_view::npos;
    }
    if (key == "distributedInfo" || key == "baseTimeNanoseconds" || key == "traceName" || key == "displayTimeUnit")
      readTopLevelValue(key, std::string_view(p, static_cast<std::size_t>(v - p)), top);
    p = v;
  }
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

ReadResult readTraceEvents(std::string_view file, unsigned parts, const LoadOptions& options, const ReadSource& source) {
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
    const std::size_t a = scanObjectKeys(file, static_cast<std::size_t>(p + 1 - base), result.top, unterminatedObject);
    if (a == std::string_view::npos) {
      result.notes.push_back("no traceEvents found");
      return result;
    }
    arrayStart = a;
    result.top.foundEvents = true;
  } else {
    result.error = "not a JSON trace: the file starts with '" + std::string(1, *p) +
                   "' (expected '[' or '{')";
    return result;
  }

  // Split [arrayStart, size) into ranges; each range after the first starts at a resync point.
  parts = std::max(1u, parts);
  const std::size_t span = file.size() - arrayStart;
  // Below ~1 MB per range, threads cost more than they save (LoadOptions::minPartBytes).
  parts = static_cast<unsigned>(std::clamp<std::size_t>(span / std::max<std::size_t>(options.minPartBytes, 1), 1, parts));
  std::vector<std::size_t> begins(parts);
  begins[0] = arrayStart;
  for (unsigned k = 1; k < parts; ++k)
    begins[k] = std::max(begins[k - 1], resync(file, arrayStart + span * k / parts, file.size()));
  std::vector<WorkerOut> outs(parts);
  std::atomic<std::size_t> bytesDone{0};
  std::atomic<unsigned> finished{0};
  PreviewSink sink;
  sink.parts.resize(parts);
  ExceptionSlot failure;  // a worker that throws still counts as finished; rethrown after the join
  // The calling thread waits at most 20 ms between two progress reports, and no longer than the
  // last worker takes (a small file must not cost a whole poll period).
  std::mutex doneMutex;
  std::condition_variable doneCv;
  if (parts == 1 && !options.progress && !options.preview) {
    // One part and nobody to tell: parse on this thread. A worker here would only cost a thread
    // start and the 20 ms poll below per load (issue 15: the fuzz targets ran at 11-176 exec/s).
    failure.run([&] {
      parseRange(file, begins[0], SIZE_MAX, outs[0], nullptr, options.stop, options.fastScanner, source, {}, &options.readHook);
    });
  } else {
    std::vector<std::jthread> threads;
    for (unsigned k = 0; k < parts; ++k) {
      const std::size_t limit = k + 1 < parts ? begins[k + 1] : SIZE_MAX;
      PreviewCursor cursor;
      if (options.preview) {
        cursor.sink = &sink;
        cursor.part = k;
      }
      threads.emplace_back([&, k, limit, cursor] {
        failure.run([&] {
          parseRange(file, begins[k], limit, outs[k], &bytesDone, options.stop, options.fastScanner, source, cursor,
                     &options.readHook);
        });
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
    while (finished.load(std::memory_order_acquire) < parts) {
      {
        std::unique_lock lock(doneMutex);
        doneCv.wait_for(lock, std::chrono::milliseconds(20),
                        [&] { return finished.load(std::memory_order_acquire) >= parts; });
      }
      const double fraction = std::min(1.0, static_cast<double>(bytesDone.load(std::memory_order_relaxed)) /
                                                static_cast<double>(std::max<std::size_t>(span, 1)));
      if (options.progress) options.progress(fraction);
      const auto now = std::chrono::steady_clock::now();
      const std::uint64_t v = sink.version.load(std::memory_order_acquire);
      if (options.preview && v != shownVersion && now - lastPreview >= std::chrono::milliseconds(100) &&
          !options.stop.stop_requested()) {
        shownVersion = v;
        lastPreview = now;
        options.preview(makePreview(sink, fraction));
      }
    }
    if (options.preview && !options.stop.stop_requested()) options.preview(makePreview(sink, 1.0));
  }  // join
  failure.rethrow();
  if (options.stop.stop_requested()) {
    result.cancelled = true;
    return result;
  }
  // Verify that consecutive ranges meet; re-parse sequentially where a resync guess was wrong.
  result.parts.reserve(parts + 2);
  result.parts.push_back(std::move(outs[0]));
  for (unsigned k = 1; k < parts; ++k) {
    WorkerOut& cur = result.parts.back();
    if (cur.stop != WorkerOut::Stop::Limit) break;  // the array ended before this range
    if (cur.stopOffset == begins[k]) {
      result.parts.push_back(std::move(outs[k]));
      continue;
    }
    // Mismatch: range k started inside an event. Parse from where the previous one stopped.
    const std::size_t limit = k + 1 < parts ? begins[k + 1] : SIZE_MAX;
    WorkerOut repair;
    parseRange(file, cur.stopOffset, limit, repair, nullptr, options.stop, options.fastScanner, source);
    result.parts.push_back(std::move(repair));
  }
  const WorkerOut& last = result.parts.back();
  if (last.stop == WorkerOut::Stop::Cancelled) {
    result.cancelled = true;
    return result;
  }
  if (last.stop == WorkerOut::Stop::EndOfFile || last.stop == WorkerOut::Stop::Truncated) {
    if (result.top.objectForm) {
      result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed at end of file");
    } else if (last.stop == WorkerOut::Stop::EndOfFile) {
      result.notes.push_back("closing bracket added (the event array was not closed)");
    }
  } else if (last.stop == WorkerOut::Stop::ArrayEnd && result.top.objectForm) {
    bool unterminated = false;
    TopLevelInfo more = result.top;
    scanObjectKeys(file, last.stopOffset, more, unterminated);
    more.objectForm = true;
    result.top = more;
    if (unterminated) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  }
  if (unterminatedObject) result.parts.back().stats.add(ImportWarning::UnterminatedObject, "object form not closed");
  if (options.progress) options.progress(1.0);
  return result;
}

}  // namespace npuscope::core::detail
