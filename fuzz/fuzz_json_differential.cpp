// SPDX-License-Identifier: MIT
// Differential fuzz target (issue 15 item 7): the JSON reader's two paths and its split into
// parts must read the same trace from the same bytes. Each input is read four ways:
//   A  the fast scanner, one part (the default path);
//   B  simdjson for every event (LoadOptions::fastScanner = false), one part (the reference);
//   C  the fast scanner, split into 2-4 parts (LoadOptions::minPartBytes = 64);
//   D  simdjson, split the same way;
// and the four must agree on: the load's success, the event count, the count of every warning
// kind (among them MalformedArgs, the events kept without their malformed args object, and its
// examples: which events, where), and the slices (per lane: name, start, end, args range, flags),
// flows and counters. An event one path keeps and the other drops, or a dropped / repaired event
// not counted as a warning, shows up here. Abort with both fingerprints on a difference.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "core/model/import_stats.h"
#include "core/model/trace.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

namespace {

std::string fingerprint(const core::LoadResult& r) {
  if (!r.ok()) return "(no trace: " + r.error + ")";
  const core::Trace& t = *r.trace;
  std::ostringstream s;
  s << "events " << t.eventCount << "\nwarnings";
  for (std::size_t k = 0; k < core::ImportStats::kKinds; ++k)
    if (t.stats.counts[k]) s << ' ' << core::warningKey(static_cast<core::ImportWarning>(k)) << '=' << t.stats.counts[k];
  s << '\n';
  // Issue 15 item 7: an event kept without its malformed args object is counted alike on every
  // path, with the same examples (the first events met, by name and position).
  s << "malformed args " << t.stats.count(core::ImportWarning::MalformedArgs) << '\n';
  for (const auto& e : t.stats.examples)
    if (e.first == core::ImportWarning::MalformedArgs) s << "  e.g. " << e.second << '\n';
  for (const auto& l : t.lanes) {
    s << "lane " << t.processes[l.process].name << " / " << l.name << '\n';
    for (std::size_t i = 0; i < l.sliceCount(); ++i)
      s << "  " << t.strings.view(l.names[i]) << ' ' << l.start[i] << ' ' << l.end[i] << " args@" << l.argsOffset[i]
        << '+' << l.argsLength[i] << " flags " << int(l.flags[i]) << '\n';
  }
  s << "flows " << t.flows.size() << " counters " << t.counters.size() << '\n';
  return s.str();
}

core::LoadResult read(std::string_view bytes, bool fast, unsigned threads) {
  core::LoadOptions o;
  o.fastScanner = fast;
  o.threads = threads;
  o.minPartBytes = 64;
  return core::loadTraceFromMemory(bytes, "differential.json", o);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned threads = 2 + data[0] % 3;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string reference = fingerprint(read(bytes, false, 1));
  const std::string fast = fingerprint(read(bytes, true, 1));
  if (fast != reference) fuzz::fail("fast scanner != simdjson (1 part)", "simdjson:\n" + reference + "\nfast:\n" + fast);
  const std::string fastSplit = fingerprint(read(bytes, true, threads));
  if (fastSplit != reference)
    fuzz::fail("fast scanner in parts != simdjson (1 part)", "simdjson:\n" + reference + "\nfast, parts:\n" + fastSplit);
  const std::string simdSplit = fingerprint(read(bytes, false, threads));
  if (simdSplit != reference)
    fuzz::fail("simdjson in parts != simdjson (1 part)", "simdjson:\n" + reference + "\nsimdjson, parts:\n" + simdSplit);
  return 0;
}
