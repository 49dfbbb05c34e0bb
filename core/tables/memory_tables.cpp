// SPDX-License-Identifier: MIT
#include "core/tables/memory_tables.h"

#include "core/base/time_limits.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core {

namespace {

std::optional<TimeNs> timeCell(std::string_view s) {
  const auto v = detail::parseMicrosToNs(csvTrim(s));
  if (!v || *v > kMaxTimeNs || *v < -kMaxTimeNs) return std::nullopt;
  return v;
}

}  // namespace

MemoryRecord parseMemoryRecord(const CsvTable& t) {
  MemoryRecord m;
  if (!t.error.empty()) {
    m.error = "memory_record.csv: " + t.error;
    return m;
  }
  const int cComp = t.column("Component"), cTs = t.column("Timestamp(us)");
  const int cAlloc = t.column("Total Allocated(MB)"), cRes = t.column("Total Reserved(MB)");
  const int cAct = t.column("Total Active(MB)"), cDev = t.column("Device Type");
  if (cTs < 0) {
    m.error = "memory_record.csv has no Timestamp(us) column";
    return m;
  }
  if (cAlloc < 0) m.warnings.push_back("no Total Allocated(MB) column");
  if (cRes < 0) m.warnings.push_back("no Total Reserved(MB) column");
  detail::RowWarnings w{m.warnings};
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto ts = timeCell(t.cell(r, cTs));
    if (!ts) {
      w.add(r, "has no valid Timestamp(us): skipped");
      continue;
    }
    MemoryRecordRow row;
    row.ts = *ts;
    row.component = std::string(csvTrim(t.cell(r, cComp)));
    // A cell that is there but no number is said, not silently dropped (an empty cell is absent:
    // APP rows leave Total Allocated empty).
    const auto number = [&](int col, const char* name) {
      const std::string_view cell = csvTrim(t.cell(r, col));
      const std::optional<double> v = csvNumber(cell);
      if (!v && !cell.empty()) w.add(r, std::string(name) + " \"" + std::string(cell.substr(0, 40)) + "\" is no number: ignored");
      return detail::plausibleTotalMB(v, r, name, w);
    };
    row.allocatedMB = number(cAlloc, "Total Allocated(MB)");
    row.reservedMB = number(cRes, "Total Reserved(MB)");
    row.activeMB = number(cAct, "Total Active(MB)");
    row.device = std::string(csvTrim(t.cell(r, cDev)));
    m.rows.push_back(std::move(row));
  }
  w.finish();
  return m;
}

MemoryRecord readMemoryRecord(const std::string& path) { return parseMemoryRecord(readCsv(path)); }

OperatorMemory parseOperatorMemory(const CsvTable& t) {
  OperatorMemory m;
  if (!t.error.empty()) {
    m.error = "operator_memory.csv: " + t.error;
    return m;
  }
  const int cName = t.column("Name"), cSize = t.column("Size(KB)"), cAlloc = t.column("Allocation Time(us)");
  const int cRel = t.column("Release Time(us)"), cDev = t.column("Device Type");
  if (cName < 0 || cSize < 0 || cAlloc < 0) {
    m.error = "operator_memory.csv lacks the Name, Size(KB) or Allocation Time(us) column";
    return m;
  }
  detail::RowWarnings w{m.warnings};
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto size = csvNumber(t.cell(r, cSize));
    const auto alloc = timeCell(t.cell(r, cAlloc));
    if (!size || !alloc) {
      w.add(r, "has no valid Size(KB) or Allocation Time(us): skipped");
      continue;
    }
    OperatorMemoryRow row;
    row.name = std::string(csvTrim(t.cell(r, cName)));
    row.sizeKB = *size;
    row.allocation = alloc;
    if (cRel >= 0) row.release = timeCell(t.cell(r, cRel));
    row.device = std::string(csvTrim(t.cell(r, cDev)));
    m.rows.push_back(std::move(row));
  }
  w.finish();
  return m;
}

OperatorMemory readOperatorMemory(const std::string& path) { return parseOperatorMemory(readCsv(path)); }

}  // namespace npuscope::core
