// SPDX-License-Identifier: MIT
#include "core/import/memory_counters.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/query/lod.h"

namespace npuscope::core {

std::size_t addMemoryCounters(Trace& trace, const MemoryRecord& record, std::string_view from) {
  if (!record.error.empty() || record.rows.empty()) return 0;
  // Components in order of first appearance.
  std::vector<std::string> components;
  for (const MemoryRecordRow& r : record.rows)
    if (std::find(components.begin(), components.end(), r.component) == components.end())
      components.push_back(r.component);
  // Row order by time, stable: rows of one timestamp keep the file's order.
  std::vector<std::size_t> order(record.rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return record.rows[a].ts < record.rows[b].ts; });

  struct Measure {
    const char* name;
    std::optional<double> MemoryRecordRow::*field;
  };
  static constexpr Measure kMeasures[] = {{"Allocated", &MemoryRecordRow::allocatedMB},
                                          {"Reserved", &MemoryRecordRow::reservedMB},
                                          {"Active", &MemoryRecordRow::activeMB}};
  const auto process = static_cast<std::uint32_t>(trace.processes.size());
  std::vector<CounterSeries> added;
  for (const std::string& component : components)
    for (const Measure& m : kMeasures) {
      CounterSeries s;
      s.process = process;
      for (const std::size_t i : order) {
        const MemoryRecordRow& r = record.rows[i];
        if (r.component != component || !(r.*m.field)) continue;
        s.ts.push_back(r.ts);
        s.value.push_back(*(r.*m.field));
      }
      if (s.ts.empty()) continue;
      s.name = trace.strings.intern(component.empty() ? std::string(m.name) : component + " " + m.name);
      s.key = trace.strings.intern("MB");
      buildCounterLod(s);
      added.push_back(std::move(s));
    }
  if (added.empty()) return 0;
  Process p;
  p.name = std::string(kMemoryCurveProcess);
  p.pidText = p.name;
  p.label = std::string(from);
  p.deviceId = trace.deviceId();
  p.role = Process::Role::Counter;
  trace.processes.push_back(std::move(p));
  const std::size_t n = added.size();
  for (CounterSeries& s : added) trace.counters.push_back(std::move(s));
  return n;
}

}  // namespace npuscope::core
