// SPDX-License-Identifier: MIT
#pragma once
// What the narrow JSON targets (fuzz_json_scanner, fuzz_json_simdjson) share: a parse worker's
// records (detail::WorkerOut) written out as text, so that two paths can be compared, a cheap
// summary of them (to see that a declined event left no trace), and the promises every worker
// output keeps whatever the bytes: each slice's and async event's args range lies in the file and
// starts at an object's '{', and every interned string is valid UTF-8. (Not that it ends at the
// object's '}': for args whose brackets do not match in type, {"a":[1}], the simdjson path keeps
// the range On-Demand gives, which the args reader then reads as no args.)

#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include <simdjson.h>

#include "core/import/json/json_scan.h"
#include "core/import/raw_events.h"
#include "fuzz/fuzz_common.h"

namespace npuscope::fuzz {

inline std::ostream& operator<<(std::ostream& s, const core::detail::Key& k) {
  return s << static_cast<int>(k.kind) << ':' << k.v;
}

/// Every record of `w` (the string pool, warnings with their examples, processes, threads,
/// slices, flows, counters, metadata, async events, the time range), one per line.
inline std::string fingerprint(const core::detail::WorkerOut& w) {
  std::ostringstream s;
  s << "events " << w.events << " ts " << w.minTs << ".." << w.maxTs << "\npool";
  for (std::size_t i = 0; i < w.pool.size(); ++i) s << " [" << w.pool.view(static_cast<core::NameId>(i)) << ']';
  s << "\nwarnings";
  for (std::size_t k = 0; k < core::ImportStats::kKinds; ++k)
    if (w.stats.counts[k]) s << ' ' << k << '=' << w.stats.counts[k];
  for (const auto& [kind, text] : w.stats.examples) s << "\n  e.g. " << static_cast<int>(kind) << ' ' << text;
  s << "\nprocesses";
  for (const auto& p : w.processes) s << ' ' << p;
  s << "\nthreads";
  for (const auto& [p, t] : w.threads) s << ' ' << p << '/' << t;
  for (std::size_t t = 0; t < w.slices.size(); ++t) {
    s << "\nthread " << t << ':';
    for (const auto& r : w.slices[t])
      s << "\n  " << r.ph() << ' ' << r.ts << '+' << r.dur << " name " << r.name << " cat " << r.cat << " args@"
        << r.argsOffset(&w.longArgs) << '+' << r.argsLength(&w.longArgs) << " flags " << int(r.flags());
  }
  s << "\nflows";
  for (const auto& f : w.flows) {
    // The pair and the slice end as the builder reads them (RawFlow::key, flowBindEnds).
    const auto [cat, name] = f.key < w.flowKeys.pairs.size() ? w.flowKeys.pairs[f.key] : std::pair<core::NameId, core::NameId>{0, 0};
    s << "\n  " << f.ph << ' ' << f.ts << " id " << f.id << '/' << int(f.idKind) << " thread " << f.thread << " cat "
      << cat << " name " << name << " order " << f.order << " bind " << f.bindEnclosing;
    if (f.hasBindEnd)
      for (const auto& [order, end] : w.flowBindEnds)
        if (order == f.order) s << " end " << end;
  }
  s << "\ncounters";
  for (const auto& c : w.counters)
    s << "\n  " << c.ts << ' ' << c.value << " process " << c.process << " name " << c.name << " key " << c.key;
  s << "\nmetas";
  for (const auto& m : w.metas)
    s << "\n  " << int(m.kind) << ' ' << m.process << '/' << m.thread << " text " << m.text << " number " << m.number
      << " valid " << m.valid;
  s << "\nasyncs";
  for (const auto& a : w.asyncs)
    s << "\n  " << a.ph << ' ' << a.ts << " args@" << a.argsOffset << '+' << a.argsLength << " process " << a.process
      << " name " << a.name << " cat " << a.cat << " id " << a.idText << " global " << a.global;
  s << '\n';
  return s.str();
}

/// How many records of each kind `w` holds (and its time range): equal before and after a call
/// that had no effect.
inline std::array<std::uint64_t, 16> summary(const core::detail::WorkerOut& w) {
  std::uint64_t slices = 0, warnings = 0;
  for (const auto& t : w.slices) slices += t.size();
  for (const auto c : w.stats.counts) warnings += c;
  return {w.events,         w.pool.size(),   warnings,           w.stats.examples.size(), w.processes.size(),
          w.threads.size(), slices,          w.longArgs.size(),  w.flows.size(),          w.counters.size(),
          w.metas.size(),   w.asyncs.size(), static_cast<std::uint64_t>(w.minTs), static_cast<std::uint64_t>(w.maxTs),
          w.flowKeys.pairs.size(), w.flowBindEnds.size()};
}

/// Empty when the args range [offset, offset + length) of `file` is empty, or lies in the file and
/// starts with '{'; else what is wrong with it.
inline std::string argsRangeProblem(std::string_view file, std::uint64_t offset, std::uint32_t length) {
  if (length == 0) return {};
  if (offset > file.size() || length > file.size() - offset)
    return "args range beyond the file: " + std::to_string(offset) + "+" + std::to_string(length) + " of " +
           std::to_string(file.size());
  if (file[offset] != '{')
    return "args range does not start an object: " + std::to_string(offset) + "+" + std::to_string(length) + " [" +
           std::string(file.substr(offset, length)) + "]";
  return {};
}

/// The promises of any worker output read from `file` (see the file comment).
inline void requireSoundOutput(const core::detail::WorkerOut& w, std::string_view file) {
  for (std::size_t i = 0; i < w.pool.size(); ++i) {
    const std::string_view v = w.pool.view(static_cast<core::NameId>(i));
    if (!simdjson::validate_utf8(v.data(), v.size())) fail("an interned string is not valid UTF-8", v);
  }
  for (const auto& t : w.slices)
    for (const auto& r : t)
      if (const std::string p = argsRangeProblem(file, r.argsOffset(&w.longArgs), r.argsLength(&w.longArgs)); !p.empty())
        fail("a slice's " + p, fingerprint(w));
  for (const auto& a : w.asyncs)
    if (const std::string p = argsRangeProblem(file, a.argsOffset, a.argsLength); !p.empty())
      fail("an async event's " + p, fingerprint(w));
}

/// The next `{` at or after `p` that starts an event: whitespace and any other byte between the
/// events (commas, brackets, junk) are skipped a byte at a time, as the narrow JSON targets read
/// their input. `end` when there is none.
inline const char* nextObject(const char* p, const char* end) {
  while (p < end) {
    p = core::detail::skipWs(p, end);
    if (p >= end) break;
    if (*p == '{') return p;
    ++p;
  }
  return end;
}

}  // namespace npuscope::fuzz
