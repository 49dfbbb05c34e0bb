// SPDX-License-Identifier: MIT
#include "core/report/advice_report.h"

#include <algorithm>

#include "core/base/json_text.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"

namespace npuscope::core {

std::string stepsText(int stepsWithEvidence, std::size_t steps) {
  if (stepsWithEvidence < 0) return {};
  const auto k = static_cast<std::size_t>(stepsWithEvidence);
  if (k == steps) return i18n::format(npuTr("npuscope::core::Report", "every step (%1 of %2)"), {std::to_string(k), std::to_string(steps)});
  return i18n::format(npuTr("npuscope::core::Report", "in %1 of %2"),
                      {std::to_string(k), countNoun(steps, npuTr("npuscope::core::Report", "step"), npuTr("npuscope::core::Report", "steps"))});
}

std::string adviceJson(const Trace& t, const RankAdvice& a) {
  std::string o = "{\"chip\": ";
  appendJsonString(o, a.chip);
  o += ", \"steps\": " + std::to_string(a.steps) + ", \"not_run\": ";
  appendJsonString(o, a.notRun);
  o += ", \"findings\": [";
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    const Finding& f = a.findings[i];
    o += i ? ",\n    " : "\n    ";
    o += "{\"rule\": ";
    appendJsonString(o, f.rule);
    o += ", \"title\": ";
    appendJsonString(o, f.title);
    o += ", \"severity\": ";
    appendJsonString(o, severityKey(f.severity));
    o += ", \"at_stake_per_step_ns\": " + std::to_string(f.atStakePerStep) + ", \"at_stake_note\": ";
    appendJsonString(o, f.atStakeNote);
    o += ", \"numbers\": ";
    appendJsonString(o, f.numbers);
    o += ", \"threshold\": ";
    appendJsonString(o, f.threshold);
    o += ", \"source\": ";
    appendJsonString(o, f.source);
    o += ", \"fix\": ";
    appendJsonString(o, f.fix);
    o += ", \"steps_with_evidence\": " + (f.stepsWithEvidence < 0 ? std::string("null") : std::to_string(f.stepsWithEvidence));
    o += ", \"moment_ns\": " + (f.moment ? std::to_string(f.moment->t) : std::string("null"));
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
  if (a.findings.empty() && a.notRun.empty()) return {};
  // A GPU has no Ascend chip: "chip unknown" would read as a missing Ascend model.
  const std::string device =
      !a.notRun.empty() && a.chip.empty()
          ? std::string("GPU")
          : i18n::format(npuTr("npuscope::core::Report", "chip %1"), {a.chip.empty() ? npuTr("npuscope::core::Report", "unknown") : a.chip});
  std::string o = "   " +
                  i18n::format(npuTr("npuscope::core::Report", "advice (%1, %2; issues first, by time at stake per step):"),
                               {device, countNoun(a.steps, npuTr("npuscope::core::Report", "step"), npuTr("npuscope::core::Report", "steps"))}) +
                  "\n";
  if (!a.notRun.empty()) o += "     " + a.notRun + "\n";
  for (const Finding& f : a.findings) {
    o += "     [" + std::string(severityKey(f.severity)) + "] " + f.title;
    if (f.atStakePerStep > 0 || !f.atStakeNote.empty())
      o += i18n::format(f.atStakeNote.empty() ? npuTr("npuscope::core::Report", " - %1 per step at stake")
                                              : npuTr("npuscope::core::Report", " - %1 per step at stake (%2)"),
                        {formatDuration(f.atStakePerStep), f.atStakeNote});
    o += i18n::format(npuTr("npuscope::core::Report", ": %1 (mark: %2)"), {f.numbers, f.threshold});
    if (f.stepsWithEvidence >= 0) o += clauseSep() + stepsText(f.stepsWithEvidence, a.steps);
    if (!f.fix.empty()) o += "\n       " + i18n::format(npuTr("npuscope::core::Report", "fix: %1"), {f.fix});
    o += "\n";
  }
  return o;
}

std::vector<RuleAcrossRanks> issuesAcrossRanks(const std::vector<std::pair<std::string, RankAdvice>>& advised) {
  std::vector<RuleAcrossRanks> out;
  if (advised.size() < 2) return out;
  std::vector<std::vector<std::size_t>> rankIndices;  // per entry of `out`: the advised indices counted
  for (std::size_t ai = 0; ai < advised.size(); ++ai) {
    const auto& [label, a] = advised[ai];
    for (const Finding& f : a.findings) {
      if (f.severity != Severity::Issue) continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const RuleAcrossRanks& r) {
        return r.rule == f.rule && (f.rule != "operator_tree" || r.title == f.title);
      });
      if (it == out.end()) {
        out.push_back({f.rule, f.title, {}, advised.size()});
        rankIndices.emplace_back();
        it = out.end() - 1;
      }
      // Each rank counts once (the decision tree has several findings of its rule per rank).
      auto& seen = rankIndices[static_cast<std::size_t>(it - out.begin())];
      if (std::find(seen.begin(), seen.end(), ai) != seen.end()) continue;
      seen.push_back(ai);
      it->ranks.push_back(label);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const RuleAcrossRanks& a, const RuleAcrossRanks& b) {
    return a.ranks.size() != b.ranks.size() ? a.ranks.size() > b.ranks.size() : a.rule < b.rule;
  });
  return out;
}

std::string adviceAcrossRanksJson(const std::vector<RuleAcrossRanks>& rules) {
  std::string o = "[";
  for (std::size_t i = 0; i < rules.size(); ++i) {
    o += i ? ", " : "";
    o += "{\"rule\": ";
    appendJsonString(o, rules[i].rule);
    o += ", \"title\": ";
    appendJsonString(o, rules[i].title);
    o += ", \"ranks\": [";
    for (std::size_t k = 0; k < rules[i].ranks.size(); ++k) {
      if (k) o += ", ";
      appendJsonString(o, rules[i].ranks[k]);
    }
    o += "], \"of\": " + std::to_string(rules[i].of) + "}";
  }
  return o + "]";
}

std::string adviceAcrossRanksText(const std::vector<RuleAcrossRanks>& rules) {
  if (rules.empty()) return {};
  std::string o = npuTr("npuscope::core::Report", "advice across ranks (each issue, on which ranks):") + "\n";
  for (const RuleAcrossRanks& r : rules) {
    o += "  " + r.title + ": ";
    if (r.ranks.size() == r.of) {
      o += i18n::format(npuTr("npuscope::core::Report", "every rank (%1)"), {std::to_string(r.of)}) + "\n";
      continue;
    }
    std::string labels;
    for (std::size_t k = 0; k < r.ranks.size(); ++k) labels += (k ? ", " : "") + r.ranks[k];
    o += i18n::format(npuTr("npuscope::core::Report", "%1 of %2 (%3)"),
                      {std::to_string(r.ranks.size()), countNoun(r.of, npuTr("npuscope::core::Report", "rank"), npuTr("npuscope::core::Report", "ranks")), labels}) +
         "\n";
  }
  return o;
}

}  // namespace npuscope::core
