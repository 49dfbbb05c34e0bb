// SPDX-License-Identifier: MIT
#include "core/tables/tables.h"
#include "core/base/time_limits.h"

#include <limits>

#include "core/import/json/json_scan.h"

namespace npuscope::core {

namespace {
/// A cell as an integer (a CSV may write "3.0"); nullopt when empty, not a number or out of
/// long long's range (a static_cast would be undefined behaviour).
std::optional<long long> intCell(std::string_view s) {
  const auto v = csvNumber(s);
  long long i = 0;
  if (!v || !doubleToInt(*v, i)) return std::nullopt;
  return i;
}

/// A Device_id cell: -1 when absent, not a number or beyond int.
int deviceCell(std::string_view s) {
  const auto v = intCell(s);
  return v && *v >= 0 && *v <= std::numeric_limits<int>::max() ? static_cast<int>(*v) : -1;
}

/// A time cell in us as ns, or nullopt when it is not a number or beyond +-kMaxTimeNs (types.h).
std::optional<TimeNs> timeCell(std::string_view s) {
  const auto v = detail::parseMicrosToNs(s);
  if (!v || *v > kMaxTimeNs || *v < -kMaxTimeNs) return std::nullopt;
  return v;
}
}  // namespace

KernelDetails parseKernelDetails(const CsvTable& t) {
  KernelDetails k;
  if (!t.error.empty()) {
    k.warnings.push_back(t.error);
    k.table = t;
    return k;
  }
  const int cName = t.column({"Name", "Op Name"});
  const int cType = t.column({"Type", "OP Type"});
  const int cCore = t.column({"Accelerator Core", "Task Type"});
  const int cStart = t.column({"Start Time(us)", "Task Start Time(us)"});
  const int cDur = t.column({"Duration(us)", "Task Duration(us)"});
  const int cWait = t.column({"Wait Time(us)", "Task Wait Time(us)"});
  const int cBlock = t.column({"Block Num", "Block Dim"});
  const int cShapes = t.column({"Input Shapes"});
  const int cDev = t.column({"Device_id"});
  const int cStep = t.column({"Step Id", "Step ID"});
  if (cName < 0) k.warnings.push_back("kernel_details.csv has no Name column");
  if (cStart < 0) k.warnings.push_back("no Start Time(us) column: kernels are listed in the table only, not placed on the timeline");
  if (cDur < 0) k.warnings.push_back("kernel_details.csv has no Duration(us) column");
  std::size_t reported = 0, more = 0;
  auto rowWarning = [&](std::size_t r, const std::string& what) {
    if (reported++ < 20) k.warnings.push_back("row " + std::to_string(r + 1) + " " + what);
    else ++more;
  };
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    KernelRow row;
    row.name = std::string(csvTrim(t.cell(r, cName)));
    row.type = std::string(csvTrim(t.cell(r, cType)));
    row.core = std::string(csvTrim(t.cell(r, cCore)));
    row.blockDim = std::string(csvTrim(t.cell(r, cBlock)));
    row.inputShapes = std::string(csvTrim(t.cell(r, cShapes)));
    if (cStart >= 0) row.start = timeCell(t.cell(r, cStart));
    if (cDur >= 0) row.duration = timeCell(t.cell(r, cDur));
    if (row.start && row.duration && *row.duration > kMaxTimeNs - *row.start) row.duration.reset();  // end would pass kMaxTimeNs
    if (cWait >= 0) row.waitUs = csvNumber(t.cell(r, cWait));
    if (cDev >= 0) row.device = deviceCell(t.cell(r, cDev));
    if (cStep >= 0) row.step = intCell(t.cell(r, cStep));
    // One warning per bad row (kept, values shown as missing, never as 0).
    const std::size_t n = t.rows[r].size(), h = t.header.size();
    if (n < h) rowWarning(r, "has " + std::to_string(n) + " of " + std::to_string(h) + " fields (missing values)");
    else if (n > h) rowWarning(r, "has " + std::to_string(n) + " of " + std::to_string(h) + " fields (extra fields ignored)");
    else if ((cStart >= 0 && !row.start) || (cDur >= 0 && !row.duration))
      rowWarning(r, "has no valid start or duration (shown as missing, not placed on the timeline)");
    k.rows.push_back(std::move(row));
  }
  if (more) k.warnings.push_back(std::to_string(more) + " more rows with missing or extra values");
  k.table = t;
  return k;
}

KernelDetails readKernelDetails(const std::string& path) { return parseKernelDetails(readCsv(path)); }

std::vector<StepTraceRow> parseStepTraceTime(const CsvTable& t, std::string& error) {
  std::vector<StepTraceRow> rows;
  if (!t.error.empty()) {
    error = t.error;
    return rows;
  }
  const int cDev = t.column("Device_id"), cStep = t.column("Step");
  const int cComp = t.column("Computing"), cNo = t.column("Communication(Not Overlapped)");
  const int cOv = t.column("Overlapped"), cComm = t.column("Communication"), cFree = t.column("Free");
  const int cStage = t.column("Stage"), cBubble = t.column("Bubble");
  const int cNoEx = t.column("Communication(Not Overlapped and Exclude Receive)"), cPrep = t.column("Preparing");
  if (cComp < 0 || cFree < 0) {
    error = "step_trace_time.csv lacks the Computing/Free columns";
    return rows;
  }
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    StepTraceRow s;
    if (cDev >= 0) s.device = deviceCell(t.cell(r, cDev));
    if (cStep >= 0) s.step = intCell(t.cell(r, cStep));
    auto num = [&](int c, double& v, std::string& text) {
      v = csvNumber(t.cell(r, c)).value_or(0.0);
      text = std::string(csvTrim(t.cell(r, c)));
    };
    num(cComp, s.computing, s.computingText);
    num(cNo, s.commNotOverlapped, s.commNotOverlappedText);
    num(cOv, s.overlapped, s.overlappedText);
    num(cComm, s.communication, s.communicationText);
    num(cFree, s.free, s.freeText);
    num(cStage, s.stage, s.stageText);
    num(cBubble, s.bubble, s.bubbleText);
    num(cNoEx, s.commNotOverlappedExclReceive, s.commNotOverlappedExclReceiveText);
    num(cPrep, s.preparing, s.preparingText);
    rows.push_back(s);
  }
  return rows;
}

std::vector<StepTraceRow> readStepTraceTime(const std::string& path, std::string& error) {
  return parseStepTraceTime(readCsv(path), error);
}

}  // namespace npuscope::core
