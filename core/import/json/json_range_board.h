// SPDX-License-Identifier: MIT
#pragma once
// The parse workers' byte ranges while a JSON trace is read in parallel (readTraceEvents): a
// worker that has read all of its range takes the back half of what another still has to read.
// Internal to core.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <vector>

namespace npuscope::core::detail {

/// Work stealing by halving, for the parse workers of one read. The file's event array starts
/// as one range (part) per worker. Each worker reports its position at every progress step of
/// its part (RangeBoard::step, about once per MiB); a worker whose part is done asks for more
/// (RangeBoard::steal), and the part with the most bytes left is cut in two by its own worker at
/// its next step: it keeps the front half and the asking worker reads the back half as a new
/// part. Only the worker reading a part moves that part's limit, and only at a position it knows
/// exactly, so a part never ends before where its worker already read.
///
/// Why (issue 27, load at 1 GB/s): with one fixed half per worker, the two halves of an 11 M-event
/// file ended 40-610 ms apart on the 2-core build machines (one core slowed by the host), and
/// the first worker to end idled. Cutting the file into more fixed chunks balanced the read but
/// every part costs the build a run to merge (16 chunks: build 0.69 -> 0.84 s); halving cuts
/// only when a worker runs dry, so a balanced read stays at one part per worker.
///
/// Cuts are at `cut(from, limit)`: a likely element start at or after `from` (the reader's
/// resync), or `limit` when there is none; readTraceEvents verifies afterwards that each part
/// ends where the next begins, and reparses where a guess was wrong. Thread-safe; offsets are
/// file offsets in bytes; a limit of SIZE_MAX means the end of the file.
class RangeBoard {
 public:
  /// A part's bytes: its elements start in [begin, limit).
  struct Range {
    std::size_t begin = 0;
    std::size_t limit = 0;
  };
  /// Starts with `initial` (part k = initial[k], in file order). A part is cut only while at
  /// least 2 * `minCut` bytes of it are left (each half gets >= minCut); `fileSize` bounds a
  /// SIZE_MAX limit. `cut`: see the class comment.
  RangeBoard(std::vector<Range> initial, std::size_t minCut, std::size_t fileSize,
             std::function<std::size_t(std::size_t from, std::size_t limit)> cut);

  /// The worker of part `k` is at file offset `pos` (the next element starts there or later).
  /// Answers a pending request to cut part k: when enough is left, part k ends at the cut
  /// instead and the asking worker gets the rest. Returns part k's limit from now on (<= the
  /// limit it had, and > pos).
  std::size_t step(unsigned k, std::size_t pos);
  /// Part `k` is read to its end (or its worker stopped): answers a pending request with nothing.
  void finished(unsigned k);
  /// For a worker whose part is done: a new part (its index) cut from the part with the most
  /// bytes left, or nullopt when no part has 2 * minCut bytes left (or on `stop`). Blocks until
  /// that part's worker answers (its next step, about 1 MiB of reading away).
  std::optional<unsigned> steal(const std::stop_token& stop);

  /// Part k's range (its limit may still move while its worker reads).
  [[nodiscard]] Range range(unsigned k) const;
  /// Number of parts so far.
  [[nodiscard]] std::size_t parts() const;
  /// Part indices in file order (by begin).
  [[nodiscard]] std::vector<unsigned> fileOrder() const;

 private:
  enum class Answer : unsigned char { None, Pending, Declined, Given };
  struct Part {
    Range range;
    std::size_t pos = 0;     ///< the worker's last reported position
    bool active = true;      ///< its worker still reads it
    Answer answer = Answer::None;
    unsigned given = 0;      ///< the new part when answer == Given
  };
  [[nodiscard]] std::size_t left(const Part& p) const;

  mutable std::mutex m_mutex;
  std::condition_variable m_answered;
  std::vector<Part> m_parts;
  std::size_t m_minCut;
  std::size_t m_fileSize;
  std::function<std::size_t(std::size_t, std::size_t)> m_cut;
};

}  // namespace npuscope::core::detail
