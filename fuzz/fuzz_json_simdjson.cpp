// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): the general path of the JSON reader alone
// (detail::SimdjsonEventParser: simdjson On-Demand, the repair of invalid UTF-8 / control bytes /
// lone surrogates, the blanked broken args) with the event interpreter behind it, and the repair
// itself (detail::sanitizeJsonStrings). The fallback path every event the fast scanner declines
// takes. No loadTrace, no trace build, no analyses.
//
// Input: the events, as in fuzz_json_scanner (`{...}` objects, anything between them skipped),
// each parsed by SimdjsonEventParser::parse into one worker output. Checks: every parse counts
// exactly one event; an event that is a valid JSON object in valid UTF-8 (simdjson's DOM parser
// accepts it) is never repaired (no invalid UTF-8, control character or invalid escape warning;
// it may still be a ParseError when a field has the wrong type, `{"ph":2}`); the output's args ranges are objects' bytes in the input and its strings
// valid UTF-8 (fuzz/json_events.h); sanitizeJsonStrings keeps its contract on each object:
// `changed` exactly when the output differs, a byte map one longer than the output,
// non-decreasing, ending at the input's size, and repaired strings inside the input.
// (Until its first finding the target also parsed each event in place with the input's next
// bytes after it, and found that they changed the result: parse copies every event now.)
// Mutations: libFuzzer's own with fuzz/dicts/fuzz_json_simdjson.dict, and the member-level edits
// of fuzz/json_mutator.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "core/import/json/json_event_interpreter.h"
#include "core/import/json/json_scan.h"
#include "core/import/json/json_simdjson_event.h"
#include "fuzz/fuzz_common.h"
#include "fuzz/json_events.h"
#define NPUSCOPE_FUZZ_JSON_MUTATOR
#include "fuzz/json_mutator.h"

using namespace npuscope;
namespace detail = core::detail;

namespace {

/// Whether `event` is one valid JSON object in valid UTF-8 (strict: simdjson's DOM parser).
bool validObject(std::string_view event) {
  static simdjson::dom::parser parser;
  simdjson::dom::element e;
  return !parser.parse(event.data(), event.size(), true).get(e) && e.is_object();
}

/// The warnings of a repair, which a valid object must not add.
std::uint64_t repairWarnings(const core::ImportStats& s) {
  using W = core::ImportWarning;
  return s.count(W::InvalidUtf8) + s.count(W::ControlCharacter) + s.count(W::InvalidEscape);
}

void checkSanitize(std::string_view event) {
  std::string out;
  std::vector<std::uint32_t> map;
  const detail::SanitizeResult r = detail::sanitizeJsonStrings(event, out, &map);
  if (r.changed != (out != event)) fuzz::fail("sanitizeJsonStrings: `changed` does not say whether it changed", event);
  if (map.size() != out.size() + 1 || map.back() != event.size())
    fuzz::fail("sanitizeJsonStrings: the byte map is not one entry per output byte plus the input's size", event);
  for (std::size_t i = 1; i < map.size(); ++i)
    if (map[i] < map[i - 1]) fuzz::fail("sanitizeJsonStrings: the byte map goes backwards", event);
  for (const auto& s : r.strings)
    if (s.offset >= event.size()) fuzz::fail("sanitizeJsonStrings: a repaired string beyond the input", event);
  if (!r.changed && !r.strings.empty()) fuzz::fail("sanitizeJsonStrings: repairs reported, nothing changed", event);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* const begin = reinterpret_cast<const char*>(data);
  const char* const end = begin + size;

  detail::WorkerOut out;
  detail::EventInterpreter interp(out);
  detail::SimdjsonEventParser simd(interp);

  for (const char* p = fuzz::nextObject(begin, end); p < end; p = fuzz::nextObject(p, end)) {
    const char* const q = detail::skipValue(p, end);
    if (!q) break;  // the input ends inside the object: the reader stops there (TruncatedEvent)
    const auto offset = static_cast<std::size_t>(p - begin);
    const auto length = static_cast<std::size_t>(q - p);
    const std::uint64_t events = out.events, repairs = repairWarnings(out.stats);
    simd.parse(p, length, offset);
    if (out.events != events + 1) fuzz::fail("a parse did not count exactly one event", std::string_view(p, length));
    if (repairWarnings(out.stats) != repairs && validObject(std::string_view(p, length)))
      fuzz::fail("a valid JSON object was repaired", std::string_view(p, length));
    checkSanitize(std::string_view(p, length));
    p = q;
  }
  fuzz::requireSoundOutput(out, std::string_view(begin, size));
  return 0;
}
