// SPDX-License-Identifier: MIT
#pragma once
// The parallel simdjson reader: splits the top-level event array into byte ranges cut at event
// boundaries, parses each range on its own thread into detail::WorkerOut records, and checks
// that consecutive ranges meet exactly (a range start that fell inside an event is re-parsed
// sequentially). Internal to core; the public entry point is loadTrace (core/model/trace.h), which
// hands the records to TraceBuilder (core/import/trace_builder.h) through its chunk API.
// The parts: this file's parallel range reader (json_trace_reader.cpp), the fast scanner
// (json_fast_scanner.h), the simdjson path (json_simdjson_event.h), event interpretation
// (json_event_interpreter.h) and the preview sink (json_preview.h).

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/gzip_stream.h"
#include "core/base/mapped_file.h"
#include "core/base/page_memory.h"
#include "core/import/raw_events.h"
#include "core/model/trace.h"

namespace npuscope::core::detail {

/// Facts read outside the event array (object form).
struct TopLevelInfo {
  bool objectForm = false;
  bool foundEvents = false;        ///< an event array was found
  std::optional<int> rank;         ///< distributedInfo.rank
  std::optional<std::int64_t> baseTimeNanoseconds;
  std::string traceName;
  std::string displayTimeUnit;
};

/// Result of reading the JSON bytes: worker outputs in file order plus top-level facts.
struct ReadResult {
  /// The records, one WorkerOut per chunk of the file in file order (readTraceEvents: several
  /// per worker thread on a large file, see LoadOptions::chunkBytes).
  std::vector<WorkerOut> parts;
  /// Threads that read the parts: the build uses as many (buildTrace).
  unsigned workers = 1;
  TopLevelInfo top;
  std::string error;               ///< hard error (empty file, not JSON), else empty
  std::vector<std::string> notes;  ///< informational ("closing bracket added")
  bool cancelled = false;
  /// readTraceEventsStreamed only: the args texts of the kept events, copied out of the text
  /// (WorkerOut::copyArgs); the parts' args offsets are offsets into these bytes. Empty otherwise.
  RecordBuffer<char> copiedArgs;
};

/// How the parse workers get the bytes of their ranges. With `windowBytes` == 0 they read
/// `bytes` in place (the mapping). Else each worker copies its range, in order, into a reused
/// window of `windowBytes` (grown when one event is longer) and parses the copy: with `fd` >= 0
/// through pread at file position `fdOffset` + offset (a read error or a short read falls back to
/// copying from `bytes`), with `fd` < 0 by memcpy from `bytes` (tests). Offsets in the output
/// (args, warnings) are offsets into `bytes` either way, and the output is the same.
/// Why: on the build machines mapping the pages of the page cache costs ~0.75 CPU-s per GB
/// (page-table updates are expensive under the hypervisor), pread copies them for ~0.2 CPU-s,
/// and the mapping is then only touched where args are read on demand.
struct ReadSource {
  int fd = -1;
  std::uint64_t fdOffset = 0;
  std::size_t windowBytes = 0;
};

/// The ReadSource for `file`: pread through its descriptor when it is a mapped plain file
/// (window kDefaultWindowBytes), else in place.
[[nodiscard]] ReadSource readSourceFor(const MappedFile& file);
inline constexpr std::size_t kDefaultWindowBytes = 256u << 10;

/// Reads every event of `bytes` (the whole file) on `threads` worker threads (>= 1; fewer when a
/// thread would read less than LoadOptions::minPartBytes), in chunks of the event array that
/// each worker takes in turn (LoadOptions::chunkBytes).
/// `progress` receives the fraction of bytes read, from the calling thread. One part without a
/// `progress` or `preview` callback is read on the calling thread (no worker thread at all). `source`: see
/// ReadSource (the result does not depend on it).
[[nodiscard]] ReadResult readTraceEvents(std::string_view bytes, unsigned threads,
                                         const LoadOptions& options, const ReadSource& source = {});

/// Reads every event of the text of a gzip file while it is inflated (issue 26 item 4), so that
/// memory follows the events kept, not the inflated bytes: a thread inflates `stream` at most
/// 1 MiB ahead (ReadAhead), and one parser reads it through a window of `windowBytes` (grown
/// while one element, or one top-level member before or after the event array, is longer) that
/// is refilled as it advances; the text is never whole in memory. Same records, warnings, notes
/// and top-level facts as readTraceEvents on the whole text in one part, except the args
/// ranges: the text does not stay for the lazy args, so the args object of each kept slice or
/// async event is copied to ReadResult::copiedArgs and its range is an offset there (the loader
/// keeps those bytes as the trace's file, MappedFile::fromCopiedArgs). One part whatever
/// LoadOptions::threads (the inflating thread is the second); `progress` is the fraction of the
/// compressed bytes inflated; readHook is called at offsets of the text. After the event array
/// (and the top-level keys after it) the rest of the text is inflated and dropped, so that the
/// stream's warning (a cut, the limit) covers the whole file. `windowBytes` is small in tests
/// (elements straddle many refills); at least 16.
[[nodiscard]] ReadResult readTraceEventsStreamed(GzipStream& stream, const LoadOptions& options,
                                                 std::size_t windowBytes = kDefaultWindowBytes);

}  // namespace npuscope::core::detail
