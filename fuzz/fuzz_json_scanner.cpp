// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): the fast event scanner (detail::FastEventScanner) alone,
// over the input bytes, against the simdjson path on the same events. No loadTrace, no trace
// build, no analyses: the scanner, the event interpreter behind it and the reference path.
//
// Input: the events, as they stand in a trace's event array (`{...}` objects; whatever is between
// them, commas, brackets or junk, is skipped a byte at a time). For each object:
//   A  the fast scanner (FastEventScanner::scan) and, when it declines, the simdjson path
//      (SimdjsonEventParser::parse) on [object, skipValue(object)), as the reader's parse loop does;
//   B  the simdjson path for every object (LoadOptions::fastScanner = false: the reference).
// Checks: a declined event leaves no record in A (the scanner's promise: "without any effect");
// an accepted event ends where skipValue says the object ends; at the end A and B hold the same
// records (string pool, warnings and their examples, processes, threads, slices with their args
// ranges, flows, counters, metadata, async events); every args range is an object's bytes in the
// input and every interned string is valid UTF-8 (fuzz/json_events.h). The input buffer is exactly
// the input's size, so AddressSanitizer sees any read past the end.
// Mutations: libFuzzer's own with fuzz/dicts/fuzz_json_scanner.dict, and the member-level edits of
// fuzz/json_mutator.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/import/json/json_event_interpreter.h"
#include "core/import/json/json_fast_scanner.h"
#include "core/import/json/json_scan.h"
#include "core/import/json/json_simdjson_event.h"
#include "fuzz/fuzz_common.h"
#include "fuzz/json_events.h"
#define NPUSCOPE_FUZZ_JSON_MUTATOR
#include "fuzz/json_mutator.h"

using namespace npuscope;
namespace detail = core::detail;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* const begin = reinterpret_cast<const char*>(data);
  const char* const end = begin + size;
  const std::string_view file(begin, size);

  detail::WorkerOut outA, outB;
  detail::EventInterpreter interpA(outA), interpB(outB);
  detail::FastEventScanner scanner(interpA);
  detail::SimdjsonEventParser simdA(interpA), simdB(interpB);

  for (const char* p = fuzz::nextObject(begin, end); p < end; p = fuzz::nextObject(p, end)) {
    const auto offset = static_cast<std::size_t>(p - begin);
    const char* const q = detail::skipValue(p, end);
    const auto before = fuzz::summary(outA);
    const char* const fast = scanner.scan(p, end, offset, p);
    if (fast) {
      if (fast != q)
        fuzz::fail("the scanner ended an event at " + std::to_string(fast - begin) + ", skipValue at " +
                       (q ? std::to_string(q - begin) : std::string("the end (none)")),
                   file);
    } else {
      if (fuzz::summary(outA) != before)
        fuzz::fail("a declined event left records", file);
      if (!q) break;  // the input ends inside the object: the reader stops there (TruncatedEvent)
      simdA.parse(p, static_cast<std::size_t>(q - p), offset);
    }
    simdB.parse(p, static_cast<std::size_t>(q - p), offset);
    p = q;
  }

  const std::string a = fuzz::fingerprint(outA), b = fuzz::fingerprint(outB);
  if (a != b) fuzz::failDiff("fast scanner != simdjson", "fast scanner", a, "simdjson", b);
  fuzz::requireSoundOutput(outA, file);
  return 0;
}
