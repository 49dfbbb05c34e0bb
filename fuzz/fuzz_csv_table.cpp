// SPDX-License-Identifier: MIT
// Narrow fuzz target (issue 26 item 2): one table reader of core/tables at a time, from memory.
// No trace, no analyses, no report, no file system.
//
// Input: byte 0 picks the reader (byte 0 % 6), the rest is the file's text:
//   0  parseCsv alone (RFC 4180, BOM, UTF-16 with a mark, the encoding checks);
//   1  kernel_details.csv: parseCsv + parseKernelDetails, then summarizeTables / tablesOnlyJson;
//   2  step_trace_time.csv: parseCsv + parseStepTraceTime, then summarizeTables / tablesOnlyJson;
//   3  communication.json: parseCommunicationJson and CommunicationJson::sum;
//   4  memory_record.csv: parseCsv + parseMemoryRecord, then the memory curve (addMemoryCounters
//      on an empty trace);
//   5  operator_memory.csv: parseCsv + parseOperatorMemory.
// Checks: parseCsv's table written back as CSV (every cell quoted) reads back the same; a table
// with an error has no rows; tablesOnlyJson is valid UTF-8 JSON; numbers read from cells are
// finite; memory totals are absent or within 0 .. kMaxMemoryTotalMB; every memory series is
// non-empty, sorted and as long in times as in values. Sanitizers: UB (overflow in the sums),
// leaks, reads out of bounds.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/memory_counters.h"
#include "core/model/trace.h"
#include "core/tables/communication_json.h"
#include "core/tables/csv.h"
#include "core/tables/memory_tables.h"
#include "core/tables/table_summary.h"
#include "core/tables/tables.h"
#include "fuzz/fuzz_common.h"

using namespace npuscope;

namespace {

/// `t` as CSV text, every cell quoted ("" for a quote), rows ended by LF.
std::string writeCsv(const core::CsvTable& t) {
  std::string out;
  const auto row = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i) out += ',';
      out += '"';
      for (const char c : cells[i]) out += c == '"' ? std::string("\"\"") : std::string(1, c);
      out += '"';
    }
    out += '\n';
  };
  row(t.header);
  for (const auto& r : t.rows) row(r);
  return out;
}

core::CsvTable csv(std::string_view text) {
  core::CsvTable t = core::parseCsv(text);
  if (!t.error.empty()) {
    if (!t.header.empty() || !t.rows.empty()) fuzz::fail("parseCsv: rows with an error: " + t.error, text);
    return t;
  }
  if (t.header.empty()) fuzz::fail("parseCsv: no header and no error", text);
  for (const auto& h : t.header)
    if (core::csvTrim(h) != h) fuzz::fail("parseCsv: a header name keeps surrounding spaces or quotes", h);
  // Round trip. A written cell may hold NUL bytes, which the UTF-16 check may take for UTF-16
  // text in a new layout, and a header of one empty name (a first line `" "`) is written as a
  // line parseCsv skips as empty: such tables are left out.
  const std::string again = writeCsv(t);
  const bool emptyHeader = t.header.size() == 1 && t.header[0].empty();
  if (!emptyHeader && again.find('\0') == std::string::npos) {
    const core::CsvTable u = core::parseCsv(again);
    if (!u.error.empty() || u.header != t.header || u.rows != t.rows)
      fuzz::fail("parseCsv: the table written back as CSV reads differently" + (u.error.empty() ? "" : ": " + u.error),
                 again);
  }
  return t;
}

void requireFinite(double v, const char* what) {
  if (!std::isfinite(v)) fuzz::fail(std::string(what) + " is not finite");
}

void requireTotal(const std::optional<double>& v, const char* what) {
  if (v && !(*v >= 0 && *v <= core::kMaxMemoryTotalMB)) fuzz::fail(std::string(what) + " out of range");
}

void summary(const core::KernelDetails* kernels, const std::vector<core::StepTraceRow>* steps) {
  const core::TablesOnlySummary s = core::summarizeTables(kernels, steps, {"communication.json"});
  fuzz::requireValidJson(core::tablesOnlyJson(s), "tablesOnlyJson");
  (void)core::tablesOnlyLines(s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0:
      (void)csv(text);
      break;
    case 1: {
      const core::KernelDetails k = core::parseKernelDetails(csv(text));
      if (k.rows.size() > k.table.rows.size()) fuzz::fail("kernel_details.csv: more kernels than rows");
      for (const auto& r : k.rows)
        if (r.waitUs) requireFinite(*r.waitUs, "Wait Time(us)");
      summary(&k, nullptr);
      break;
    }
    case 2: {
      std::string error;
      const std::vector<core::StepTraceRow> steps = core::parseStepTraceTime(csv(text), error);
      for (const auto& r : steps)
        for (const double v : {r.computing, r.commNotOverlapped, r.overlapped, r.communication, r.free, r.stage, r.bubble,
                               r.commNotOverlappedExclReceive, r.preparing})
          requireFinite(v, "a step_trace_time.csv figure");
      summary(nullptr, &steps);
      break;
    }
    case 3: {
      const core::CommunicationJson c = core::parseCommunicationJson(text);
      (void)c.sum();
      for (const auto& op : c.ops)
        for (const auto& b : op.bandwidth) {
          requireFinite(b.sizeMB, "Transit Size(MB)");
          requireFinite(b.timeMs, "Transit Time(ms)");
          requireFinite(b.gbps, "Bandwidth(GB/s)");
        }
      break;
    }
    case 4: {
      const core::MemoryRecord record = core::parseMemoryRecord(csv(text));
      for (const auto& r : record.rows) {
        requireTotal(r.allocatedMB, "Total Allocated(MB)");
        requireTotal(r.reservedMB, "Total Reserved(MB)");
        requireTotal(r.activeMB, "Total Active(MB)");
      }
      core::Trace trace;
      const std::size_t added = core::addMemoryCounters(trace, record, "memory_record.csv");
      if (trace.counters.size() != added) fuzz::fail("addMemoryCounters miscounts its series");
      for (const auto& s : trace.counters) {
        if (s.ts.size() != s.value.size() || s.ts.empty() || !std::is_sorted(s.ts.begin(), s.ts.end()))
          fuzz::fail("a memory series is empty, unsorted or ragged");
        for (const double v : s.value) requireFinite(v, "a memory series value");
      }
      break;
    }
    default: {
      const core::OperatorMemory m = core::parseOperatorMemory(csv(text));
      for (const auto& r : m.rows) requireFinite(r.sizeKB, "Size(KB)");
      break;
    }
  }
  return 0;
}
