// SPDX-License-Identifier: MIT
#pragma once
// The fast scanner of the JSON reader: reads the event shapes the profilers write straight from
// the bytes, without simdjson, and declines (without any effect) every other event, which then
// goes through the simdjson path (json_simdjson_event.h). Both give the same records and the
// same string pool. Internal to core.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/import/json/json_event_interpreter.h"

namespace npuscope::core::detail {

/// Scans events into an EventInterpreter. One per parse worker.
class FastEventScanner {
 public:
  explicit FastEventScanner(EventInterpreter& interp) : m_interp(interp) {}

  /// Scans the event object at `p` (a '{' in the file) directly from the bytes, without simdjson,
  /// and dispatches it. Handles the shapes the profilers write (keys without escapes;
  /// ph/name/cat/bp strings without escapes; integer or plain-string pid/tid; ts/dur as numbers
  /// or strings, us -> ns; id as number or plain string; args read by scanArgsObject — the JSON
  /// grammar, strings as skipContainerFast reads them — and kept as a byte range; an args object
  /// whose grammar is broken but whose brackets and strings are sound is kept too and marked
  /// EventFields::argsMalformed).
  /// Returns a pointer one past the event, or nullptr without any effect on the output when the
  /// event needs the general path (id2, escapes, odd types, invalid JSON or UTF-8): the caller
  /// then parses it with simdjson, which also reports the exact warnings. `fileOffset` is the
  /// offset of `p` in the file; [p, end) is readable. [p, validUtf8End) is known to be valid
  /// UTF-8 (the caller validated it in bulk, Utf8Ahead in json_trace_reader.cpp): an event that ends there is not
  /// validated again; pass `p` when nothing is known.
  const char* scan(const char* p, const char* end, std::size_t fileOffset, const char* validUtf8End);

  /// The event keys the scanner tells apart (Other: skipped).
  enum class KeyId : std::uint8_t { Other, Ph, Ts, Dur, Id, Bp, Pid, Tid, Cat, Name, Args, Id2, Scope, FlowV2 };

 private:
  /// Strings to intern once the event is known to be good, in the order the general path
  /// interns them (key order), so that both paths build identical string pools.
  enum class Target : std::uint8_t { Name, Cat, Pid, Tid };
  /// Trivially default-constructible, and the array below is left uninitialised: zeroing the
  /// whole State per event (480 bytes, `rep stos`) was 8% of scan's time.
  struct Pending {
    const char* data;
    std::uint32_t size;
    Target target;
    [[nodiscard]] std::string_view text() const { return {data, size}; }
  };
  /// One event's scan: the cursor (`p` at the value being read), the fields, the deferred strings
  /// (only [0, pendingCount) of `pending` is set).
  struct State {
    const char* p;
    const char* end;
    EventFields f;
    std::string_view ph;
    std::size_t pendingCount;
    Pending pending[8];
  };

  static bool member(State& s, KeyId key);
  static bool defer(State& s, std::string_view text, Target target);
  static bool plainString(State& s, std::string_view& out);
  static bool keyValue(State& s, Key& k, std::string_view& text);
  static bool timeToken(State& s, std::string_view& tok);
  static bool timeValue(State& s, std::optional<TimeNs>& out);
  static bool idValue(State& s, Key& key, bool& has, Target target);
  static bool flowId(State& s);
  static bool argsValue(State& s);
  void commit(State& s, const char* begin, std::size_t fileOffset);

  EventInterpreter& m_interp;
};

}  // namespace npuscope::core::detail
