// SPDX-License-Identifier: MIT
#include "core/report/advice_report.h"

#include "core/base/json_text.h"
#include "core/base/time_format.h"

namespace npuscope::core {

std::string adviceJson(const Trace& t, const RankAdvice& a) {
  std::string o = "{\"chip\": ";
  appendJsonString(o, a.chip);
  o += ", \"steps\": " + std::to_string(a.steps) + ", \"findings\": [";
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    const Finding& f = a.findings[i];
    o += i ? ",\n    " : "\n    ";
    o += "{\"rule\": ";
    appendJsonString(o, f.rule);
    o += ", \"title\": ";
    appendJsonString(o, f.title);
    o += ", \"severity\": ";
    appendJsonString(o, severityKey(f.severity));
    o += ", \"at_stake_per_step_ns\": " + std::to_string(f.atStakePerStep) + ", \"numbers\": ";
    appendJsonString(o, f.numbers);
    o += ", \"threshold\": ";
    appendJsonString(o, f.threshold);
    o += ", \"source\": ";
    appendJsonString(o, f.source);
    o += ", \"fix\": ";
    appendJsonString(o, f.fix);
    o += ", \"evidence_count\": " + std::to_string(f.evidence.size()) + ", \"evidence\": [";
    for (std::size_t e = 0; e < f.evidence.size() && e < 10; ++e) {
      const SliceRef r = f.evidence[e];
      if (e) o += ", ";
      o += "{\"name\": ";
      appendJsonString(o, t.sliceName(r));
      o += ", \"lane\": ";
      appendJsonString(o, t.processes[t.lanes[r.lane].process].name + " / " + t.lanes[r.lane].name);
      o += ", \"start_ns\": " + std::to_string(t.sliceRange(r).start) +
           ", \"dur_ns\": " + std::to_string(t.sliceRange(r).duration()) + "}";
    }
    o += "]}";
  }
  o += "]}";
  return o;
}

std::string adviceText(const RankAdvice& a) {
  if (a.findings.empty()) return {};
  std::string o = "   advice (chip " + (a.chip.empty() ? std::string("unknown") : a.chip) + ", " +
                  std::to_string(a.steps) + " step" + (a.steps == 1 ? "" : "s") +
                  "; issues first, by time at stake per step):\n";
  for (const Finding& f : a.findings) {
    o += "     [" + std::string(severityKey(f.severity)) + "] " + f.title;
    if (f.atStakePerStep > 0) o += " - " + formatDuration(f.atStakePerStep) + " per step at stake";
    o += ": " + f.numbers + " (mark: " + f.threshold + ")";
    if (!f.fix.empty()) o += "\n       fix: " + f.fix;
    o += "\n";
  }
  return o;
}

}  // namespace npuscope::core
