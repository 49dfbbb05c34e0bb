// SPDX-License-Identifier: MIT
#include "core/analysis/stats.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "core/analysis/intervals.h"
#include "core/time_format.h"

namespace npuscope::core {

const char* statsLayerKey(StatsLayer l) {
  switch (l) {
    case StatsLayer::Python: return "python";
    case StatsLayer::Cann: return "cann";
    case StatsLayer::Kernels: return "kernels";
    case StatsLayer::Communication: return "communication";
    case StatsLayer::Overlap: return "overlap";
  }
  return "kernels";
}

std::optional<StatsLayer> statsLayerFromKey(std::string_view k) {
  for (auto l : {StatsLayer::Python, StatsLayer::Cann, StatsLayer::Kernels, StatsLayer::Communication, StatsLayer::Overlap})
    if (k == statsLayerKey(l)) return l;
  return std::nullopt;
}

namespace {

bool inLayer(const Trace& t, const Lane& lane, StatsLayer layer) {
  const auto role = t.processes[lane.process].role;
  switch (layer) {
    case StatsLayer::Python: return role == Process::Role::Python || role == Process::Role::PythonGc;
    case StatsLayer::Cann: return role == Process::Role::Cann;
    case StatsLayer::Kernels: return role == Process::Role::AscendHardware;
    case StatsLayer::Communication: return role == Process::Role::Communication;
    case StatsLayer::Overlap: return role == Process::Role::OverlapAnalysis;
  }
  return false;
}

/// Index range [b, e) of slices in one lane row whose start is in scope.
template <typename Fn>
void forEachInScope(const Trace& t, StatsLayer layer, TimeRange scope, Fn&& fn) {
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const Lane& lane = t.lanes[l];
    if (!inLayer(t, lane, layer)) continue;
    for (std::uint32_t d = 0; d < lane.depthCount(); ++d) {
      const auto b = lane.start.begin() + lane.rowBegin[d], e = lane.start.begin() + lane.rowBegin[d + 1];
      auto i = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.start) - lane.start.begin());
      const auto end = static_cast<std::uint32_t>(std::lower_bound(b, e, scope.end) - lane.start.begin());
      for (; i < end; ++i) fn(l, i);
    }
  }
}

std::string usText(TimeNs ns) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1000.0);
  return b;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

}  // namespace

StatsTable computeStats(const Trace& t, StatsLayer layer, std::optional<TimeRange> scopeArg, const KernelDetails* kernels) {
  StatsTable table;
  table.layer = layer;
  const TimeRange scope = scopeArg ? *scopeArg : TimeRange{t.range.start, t.range.end + 1};
  table.scope = scopeArg ? *scopeArg : t.range;
  table.scopeDuration = table.scope.duration();
  struct Acc {
    std::uint64_t count = 0;
    TimeNs total = 0, self = 0, min = INT64_MAX, max = INT64_MIN;
    std::set<std::string> shapes;
    double wait = 0;
    const KernelRow* sample = nullptr;
  };
  std::unordered_map<NameId, Acc> acc;
  std::unordered_map<TimeNs, const KernelRow*> byStart;
  if (kernels && layer == StatsLayer::Kernels)
    for (const auto& k : kernels->rows)
      if (k.start) byStart.emplace(*k.start, &k);
  std::vector<TimeRange> all;
  const bool nested = layer == StatsLayer::Python || layer == StatsLayer::Cann;
  forEachInScope(t, layer, scope, [&](std::uint32_t l, std::uint32_t i) {
    const Lane& lane = t.lanes[l];
    Acc& a = acc[lane.names[i]];
    const TimeNs d = lane.end[i] - lane.start[i];
    ++a.count;
    a.total += d;
    a.self += nested ? lane.selfTime(i) : d;
    a.min = std::min(a.min, d);
    a.max = std::max(a.max, d);
    all.push_back({lane.start[i], lane.end[i]});
    if (!byStart.empty()) {
      // A kernel_details row belongs to the task with its exact start and name (an SDMA task
      // may start together with the communication op listed in the CSV).
      auto it = byStart.find(lane.start[i]);
      if (it != byStart.end() && it->second->name == t.name(lane.names[i])) {
        a.sample = it->second;
        a.shapes.insert(it->second->inputShapes);
        a.wait += it->second->waitUs.value_or(0.0);
      }
    }
  });
  table.slices = all.size();
  for (const auto& r : all) table.sumTotal += r.duration();
  table.unionTotal = totalOf(unionOf(std::move(all)));
  table.rows.reserve(acc.size());
  for (auto& [id, a] : acc) {
    StatsRow r;
    r.name = std::string(t.name(id));
    r.count = a.count;
    r.total = a.total;
    r.self = a.self;
    r.min = a.min;
    r.max = a.max;
    r.avg = static_cast<double>(a.total) / static_cast<double>(a.count);
    r.share = table.scopeDuration > 0 ? static_cast<double>(a.total) / static_cast<double>(table.scopeDuration) : 0.0;
    if (a.sample) {
      r.type = a.sample->type;
      r.core = a.sample->core;
    }
    r.shapes = static_cast<std::uint32_t>(a.shapes.size());
    r.waitUs = a.wait;
    table.rows.push_back(std::move(r));
  }
  std::sort(table.rows.begin(), table.rows.end(), [](const StatsRow& a, const StatsRow& b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  return table;
}

std::vector<SliceRef> statsOccurrences(const Trace& t, StatsLayer layer, std::string_view name, std::optional<TimeRange> scopeArg) {
  std::vector<SliceRef> out;
  const NameId id = t.strings.find(name);
  if (id == kInvalidIndex) return out;
  const TimeRange scope = scopeArg ? *scopeArg : TimeRange{t.range.start, t.range.end + 1};
  forEachInScope(t, layer, scope, [&](std::uint32_t l, std::uint32_t i) {
    if (t.lanes[l].names[i] == id) out.push_back({l, i});
  });
  std::sort(out.begin(), out.end(), [&](SliceRef a, SliceRef b) {
    return t.lanes[a.lane].start[a.index] < t.lanes[b.lane].start[b.index];
  });
  return out;
}

std::string statsCsv(const StatsTable& table) {
  const bool kernels = table.layer == StatsLayer::Kernels;
  std::string o = "Name,Count,Total(us),Self(us),Avg(us),Min(us),Max(us),Share(%)";
  if (kernels) o += ",Type,Accelerator Core,Distinct Shapes,Wait Time(us)";
  o += "\n";
  for (const auto& r : table.rows) {
    char share[32], avg[48];
    std::snprintf(share, sizeof share, "%.3f", r.share * 100.0);
    std::snprintf(avg, sizeof avg, "%.3f", r.avg / 1000.0);
    o += csvField(r.name) + "," + std::to_string(r.count) + "," + usText(r.total) + "," + usText(r.self) + "," + avg + "," +
         usText(r.min) + "," + usText(r.max) + "," + share;
    if (kernels) {
      char wait[48];
      std::snprintf(wait, sizeof wait, "%.3f", r.waitUs);
      o += "," + csvField(r.type) + "," + csvField(r.core) + "," + std::to_string(r.shapes) + "," + wait;
    }
    o += "\n";
  }
  return o;
}

std::string statsText(const StatsTable& table, std::size_t maxRows) {
  std::string o;
  char line[512];
  std::snprintf(line, sizeof line, "%s statistics, scope %s (%s): %llu slices, sum %s, union %s\n",
                statsLayerKey(table.layer), formatTimestampUs(table.scope.start).c_str(),
                formatDuration(table.scopeDuration).c_str(), static_cast<unsigned long long>(table.slices),
                formatDuration(table.sumTotal).c_str(), formatDuration(table.unionTotal).c_str());
  o += line;
  std::snprintf(line, sizeof line, "%-60s %8s %12s %12s %11s %11s %11s %7s\n", "Name", "Count", "Total", "Self", "Avg",
                "Min", "Max", "Share");
  o += line;
  std::size_t n = 0;
  for (const auto& r : table.rows) {
    if (maxRows && n++ >= maxRows) break;
    std::string name = r.name.size() > 60 ? r.name.substr(0, 57) + "..." : r.name;
    std::snprintf(line, sizeof line, "%-60s %8llu %12s %12s %11s %11s %11s %6.2f%%\n", name.c_str(),
                  static_cast<unsigned long long>(r.count), formatDuration(r.total).c_str(), formatDuration(r.self).c_str(),
                  formatDuration(static_cast<TimeNs>(r.avg + 0.5)).c_str(), formatDuration(r.min).c_str(),
                  formatDuration(r.max).c_str(), r.share * 100.0);
    o += line;
  }
  return o;
}

std::vector<bool> matchingNames(const Trace& t, const NameQuery& q, std::string* error) {
  std::vector<bool> match(t.strings.size(), false);
  if (q.text.empty()) return match;
  if (q.regex) {
    std::regex re;
    try {
      re = std::regex(q.text, q.caseSensitive ? std::regex::ECMAScript : std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error& e) {
      if (error) *error = std::string("invalid regular expression: ") + e.what();
      return match;
    }
    for (NameId i = 1; i < t.strings.size(); ++i) {
      const auto v = t.strings.view(i);
      match[i] = std::regex_search(v.begin(), v.end(), re);
    }
    return match;
  }
  const std::string needle = q.caseSensitive ? q.text : lower(q.text);
  for (NameId i = 1; i < t.strings.size(); ++i) {
    const auto v = t.strings.view(i);
    if (v.size() < needle.size()) continue;
    match[i] = q.caseSensitive ? v.find(needle) != std::string_view::npos : lower(v).find(needle) != std::string::npos;
  }
  return match;
}

std::vector<SliceRef> findSlices(const Trace& t, const NameQuery& q, std::string* error) {
  const std::vector<bool> match = matchingNames(t, q, error);
  std::vector<SliceRef> out;
  for (std::uint32_t l = 0; l < t.lanes.size(); ++l) {
    const auto& names = t.lanes[l].names;
    for (std::uint32_t i = 0; i < names.size(); ++i)
      if (match[names[i]]) out.push_back({l, i});
  }
  std::sort(out.begin(), out.end(), [&](SliceRef a, SliceRef b) {
    const TimeNs sa = t.lanes[a.lane].start[a.index], sb = t.lanes[b.lane].start[b.index];
    return sa != sb ? sa < sb : a.lane < b.lane;
  });
  return out;
}

std::vector<std::pair<std::string, std::size_t>> flowCategories(const Trace& t) {
  std::map<std::string, std::size_t> m;
  for (const auto& f : t.flows) ++m[std::string(t.name(f.category))];
  return {m.begin(), m.end()};
}

}  // namespace npuscope::core
