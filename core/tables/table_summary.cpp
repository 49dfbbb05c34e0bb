// SPDX-License-Identifier: MIT
#include "core/tables/table_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/base/json_text.h"
#include "core/base/time_limits.h"
#include "core/base/time_format.h"

namespace npuscope::core {

namespace {

TimeNs usToNs(double us) { return std::isfinite(us) ? clampedNs(us * 1000.0) : 0; }

/// a += b, held at +-kMaxTimeNs instead of overflowing: a table's cells can hold any number, and
/// two durations near 2^63 ns overflowed the kernel time (UBSan, found by fuzz_csv_tables).
void addClamped(TimeNs& a, TimeNs b) { a = clampedSum(a, b); }

/// The map's entries, longest first (ties by name), at most `limit`.
std::vector<std::pair<std::string, TimeNs>> longestFirst(const std::map<std::string, TimeNs>& m, std::size_t limit) {
  std::vector<std::pair<std::string, TimeNs>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > limit) v.resize(limit);
  return v;
}

}  // namespace

TablesOnlySummary summarizeTables(const KernelDetails* kernels, const std::vector<StepTraceRow>* stepTrace,
                                  const std::vector<std::string>& others) {
  TablesOnlySummary s;
  if (stepTrace && !stepTrace->empty()) {
    s.present.emplace_back("step_trace_time.csv");
    std::map<int, TableDeviceFigures> byDevice;
    for (const StepTraceRow& r : *stepTrace) {
      TableDeviceFigures& d = byDevice[r.device];
      d.device = r.device;
      ++d.steps;
      addClamped(d.computing, usToNs(r.computing));
      addClamped(d.commNotOverlapped, usToNs(r.commNotOverlapped));
      addClamped(d.free, usToNs(r.free));
      addClamped(d.communication, usToNs(r.communication));
      addClamped(d.overlapped, usToNs(r.overlapped));
    }
    for (auto& [dev, d] : byDevice) s.devices.push_back(d);
  }
  if (kernels && !kernels->rows.empty()) {
    s.present.emplace_back("kernel_details.csv");
    std::map<std::string, TimeNs> core, type;
    for (const KernelRow& r : kernels->rows) {
      const TimeNs d = r.duration.value_or(0);
      if (r.isCommunication()) {
        ++s.commRows;
        addClamped(s.commTime, d);
        continue;
      }
      ++s.kernelRows;
      addClamped(s.kernelTime, d);
      addClamped(core[r.core.empty() ? "(no Accelerator Core)" : r.core], d);
      addClamped(type[r.type.empty() ? "(no Type)" : r.type], d);
    }
    s.byCore = longestFirst(core, core.size());
    s.topTypes = longestFirst(type, TablesOnlySummary::kTopTypes);
  }
  for (const auto& o : others) s.present.push_back(o);
  s.missing.emplace_back(
      "trace_view.json: no timeline, and no bubbles, dispatch chains or per-task Top-Down analysis (they need the "
      "trace)");
  if (s.devices.empty())
    s.missing.emplace_back("step_trace_time.csv: no Computing / Communication / Free figures");
  if (s.kernelRows == 0 && s.commRows == 0) s.missing.emplace_back("kernel_details.csv: no kernel statistics");
  return s;
}

std::vector<std::string> tablesOnlyLines(const TablesOnlySummary& s) {
  std::vector<std::string> out;
  for (const TableDeviceFigures& d : s.devices) {
    std::string line = "device " + (d.device >= 0 ? std::to_string(d.device) : std::string("?")) + ", " +
                       std::to_string(d.steps) + " step" + (d.steps == 1 ? "" : "s") +
                       " (step_trace_time.csv, the profiler's figures; no trace): Computing " +
                       formatDuration(d.computing) + " (" + formatPercent(d.share(d.computing), 1) +
                       "), Communication(Not Overlapped) " + formatDuration(d.commNotOverlapped) + " (" +
                       formatPercent(d.share(d.commNotOverlapped), 1) + "), Free " + formatDuration(d.free) + " (" +
                       formatPercent(d.share(d.free), 1) + ")";
    out.push_back(std::move(line));
  }
  if (s.kernelRows || s.commRows) {
    std::string line = "kernel_details.csv: " + std::to_string(s.kernelRows) + " kernels, " +
                       formatDuration(s.kernelTime) + " in all";
    if (s.commRows)
      line += ", and " + std::to_string(s.commRows) + " communication op" + (s.commRows == 1 ? "" : "s") +
              " (Accelerator Core COMMUNICATION, not counted as kernels), " + formatDuration(s.commTime);
    line += "; kernels by core:";
    for (std::size_t i = 0; i < s.byCore.size(); ++i)
      line += (i ? ", " : " ") + s.byCore[i].first + " " + formatDuration(s.byCore[i].second);
    line += "; top kernel types:";
    for (std::size_t i = 0; i < s.topTypes.size(); ++i)
      line += (i ? ", " : " ") + s.topTypes[i].first + " " + formatDuration(s.topTypes[i].second);
    out.push_back(std::move(line));
  }
  for (const auto& m : s.missing) out.push_back("missing: " + m);
  return out;
}

std::string tablesOnlyJson(const TablesOnlySummary& s) {
  const auto strings = [](std::string& o, const std::vector<std::string>& v) {
    o += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) o += ", ";
      appendJsonString(o, v[i]);
    }
    o += ']';
  };
  const auto pairs = [](std::string& o, const std::vector<std::pair<std::string, TimeNs>>& v, const char* key) {
    o += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      o += i ? ", {\"" : "{\"";
      o += key;
      o += "\": ";
      appendJsonString(o, v[i].first);
      o += ", \"total_us\": " + formatUsNumber(v[i].second) + "}";
    }
    o += ']';
  };
  std::string o = "{\"source\": \"tables only\", \"present\": ";
  strings(o, s.present);
  o += ", \"missing\": ";
  strings(o, s.missing);
  o += ", \"devices\": [";
  for (std::size_t i = 0; i < s.devices.size(); ++i) {
    const TableDeviceFigures& d = s.devices[i];
    if (i) o += ", ";
    o += "{\"device\": " + std::to_string(d.device) + ", \"steps\": " + std::to_string(d.steps) +
         ", \"computing_us\": " + formatUsNumber(d.computing) + ", \"communication_not_overlapped_us\": " +
         formatUsNumber(d.commNotOverlapped) + ", \"free_us\": " + formatUsNumber(d.free) + ", \"computing_share\": " +
         formatNumber6(d.share(d.computing)) + ", \"communication_not_overlapped_share\": " +
         formatNumber6(d.share(d.commNotOverlapped)) + ", \"free_share\": " + formatNumber6(d.share(d.free)) + "}";
  }
  o += "], \"kernels\": {\"rows\": " + std::to_string(s.kernelRows) + ", \"total_us\": " + formatUsNumber(s.kernelTime) +
       ", \"communication_rows\": " + std::to_string(s.commRows) + ", \"communication_us\": " + formatUsNumber(s.commTime) +
       ", \"by_core\": ";
  pairs(o, s.byCore, "core");
  o += ", \"top_types\": ";
  pairs(o, s.topTypes, "type");
  o += "}}";
  return o;
}

}  // namespace npuscope::core
