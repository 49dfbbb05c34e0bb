// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::core {

// Every anomaly the importer can meet, with a human label. Bad input is counted here and the
// load goes on with a partial result; nothing aborts (Perfetto's stats.h idea).
#define NPUSCOPE_IMPORT_WARNINGS(X)                                                          \
  X(ParseError, "malformed JSON event (skipped)")                                           \
  X(TruncatedEvent, "file ends inside an event (partial event discarded)")                  \
  X(UnterminatedObject, "object form not closed (missing ']}')")                            \
  X(EmptyElement, "empty array element (',,')")                                             \
  X(NotAnObject, "array element that is not an event object")                               \
  X(MissingTimestamp, "event without a valid ts (skipped)")                                  \
  X(BadDuration, "X event with a missing or negative dur (taken as 0)")                      \
  X(UnknownPhase, "event with an unknown or unsupported ph (ignored)")                       \
  X(InvalidInstantScope, "instant event with a scope s other than t, p or g (drawn on its thread)") \
  X(BadPid, "pid or tid null, boolean or not a number/string (fallback process used)")       \
  X(BadSortIndex, "sort_index that is not an integer (treated as absent)")                   \
  X(OrphanEnd, "E event with no open B on its thread")                                       \
  X(EndNameMismatch, "E event whose name differs from the B it closes")                      \
  X(UnterminatedBegin, "B event never ended (drawn to the trace end, marked 'did not end')") \
  X(PartialOverlap, "slice overlaps another on its thread without nesting (kept, drawn one row down and outlined; Statistics count its whole duration and take the shared time out of the other's self time)") \
  X(MinorOverlap, "slice starting under 1 us before the previous one on its thread ends (device clock rounding: informational, nested one level down)") \
  X(InvalidFlowId, "flow id not representable (beyond uint64 or empty)")                     \
  X(FlowStartWithoutEnd, "flow started but never finished")                                  \
  X(FlowEndWithoutStart, "flow finished without a start")                                    \
  X(FlowStepWithoutStart, "flow step (t) without a start")                                   \
  X(FlowNoEnclosingSlice, "flow end with no slice to bind to")                               \
  X(AsyncWithoutId, "async event without id/id2 (ignored)")                                  \
  X(BadCounterValue, "counter value that is not a number (ignored)")                         \
  X(InvalidUtf8, "invalid UTF-8 or lone surrogate in a string (replaced by U+FFFD)")         \
  X(Utf16File, "UTF-16 file transcoded to UTF-8")                                            \
  X(TruncatedGzip, "gzip data ends early (the events before the cut are kept)")             \
  X(GzipLimit, "gzip data inflates past the limit (the events before it are kept)")        \
  X(ControlCharacter, "raw control character in a string (shown as \\u00xx; TAB kept)")      \
  X(InvalidEscape, "invalid escape in a string (backslash kept as text)")                  \
  X(MalformedArgs, "event whose args object is malformed (kept without its args)")          \
  X(FlowOnEnd, "flow_in / flow_out on an E event (ignored: a flow binds to its slice at the B, as Perfetto's importer does)") \
  X(ConcurrentCommTasks, "communication tasks running at once on one device stream (HCCL's links, written on one stream by the profiler: informational, nested one level down; Computing and Communication count the shared time once)")

/// Kinds of import anomaly (see NPUSCOPE_IMPORT_WARNINGS for the labels).
enum class ImportWarning : std::uint8_t {
#define NPUSCOPE_X(name, label) name,
  NPUSCOPE_IMPORT_WARNINGS(NPUSCOPE_X)
#undef NPUSCOPE_X
      Count
};

/// Stable snake_case-free identifier of a warning kind, e.g. "OrphanEnd" (used in JSON reports).
[[nodiscard]] std::string_view warningKey(ImportWarning w);
/// Human label of a warning kind.
[[nodiscard]] std::string_view warningLabel(ImportWarning w);

/// Counts of import anomalies, plus the first few concrete messages per kind
/// (e.g. "orphan E at 5.000 us on 1/1") for the warnings dialog.
struct ImportStats {
  static constexpr std::size_t kKinds = static_cast<std::size_t>(ImportWarning::Count);
  static constexpr std::size_t kExamplesPerKind = 5;
  std::array<std::uint64_t, kKinds> counts{};
  std::vector<std::pair<ImportWarning, std::string>> examples;

  void add(ImportWarning w, std::string_view example = {});
  /// Adds `n` of kind `w` with one example (a per-lane summary line).
  void add(ImportWarning w, std::uint64_t n, std::string_view example);
  /// Kinds that inform rather than warn (MinorOverlap, ConcurrentCommTasks): listed, but left out of total().
  [[nodiscard]] static bool informational(ImportWarning w) {
    return w == ImportWarning::MinorOverlap || w == ImportWarning::ConcurrentCommTasks;
  }
  [[nodiscard]] std::uint64_t count(ImportWarning w) const {
    return counts[static_cast<std::size_t>(w)];
  }
  /// The warnings, informational kinds left out (the status bar's count).
  [[nodiscard]] std::uint64_t total() const;
  /// Adds `other`'s counts and, up to kExamplesPerKind per kind, its examples; the examples end
  /// grouped by kind (in kind order), each kind's in the order they were added.
  void merge(const ImportStats& other);
};

}  // namespace npuscope::core
