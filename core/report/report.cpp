// SPDX-License-Identifier: MIT
#include "core/report/report.h"

#include "core/cluster/summary.h"
#include "core/analysis/operators.h"

#include "core/base/json_text.h"

#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <sstream>

#include "core/base/i18n.h"
#include "core/base/time_format.h"
#include "core/analysis/analysis.h"
#include "core/analysis/collectives.h"
#include "core/import/db/db_tables.h"
#include "core/report/advice_report.h"
#include "core/tables/table_summary.h"
#include <cmath>

namespace npuscope::core {

namespace {



/// Bound flows per category, in name order.
std::map<std::string, std::size_t> flowsPerCategory(const Trace& t) {
  std::map<std::string, std::size_t> m;
  for (const auto& f : t.flows) ++m[std::string(t.name(f.category))];
  return m;
}


void figuresJson(std::string& o, const OverlapFigures& f) {
  o += "{\"computing_us\": " + formatUsNumber(f.computing) + ", \"communication_us\": " + formatUsNumber(f.communication) +
       ", \"communication_not_overlapped_us\": " + formatUsNumber(f.commNotOverlapped) + ", \"overlapped_us\": " +
       formatUsNumber(f.overlapped) + ", \"free_us\": " + formatUsNumber(f.free) + ", \"e2e_us\": " + formatUsNumber(f.e2e) +
       ", \"free_ratio\": " + formatNumber6(f.freeRatio()) + "}";
}

/// True when `s` is a JSON number (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?).
bool isJsonNumber(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t b = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - b;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') ++i;
  else if (digits() == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

/// A recorded CSV value: the cell's text as written when it is a valid JSON number (exact), else
/// the parsed value with 17 significant digits (round-trips the double).
std::string recorded(const std::string& text, double v) {
  if (isJsonNumber(text)) {
    // "1e400" is JSON grammar but no double: strict parsers reject it, others read infinity
    // (found by fuzz/fuzz_folder_discovery). csvNumber refused it too, so the value is unknown.
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    if (!std::isfinite(parsed)) return "null";
    // An integer literal beyond 64 bits ("4000000000000000000000") is JSON grammar too, but
    // simdjson and other 64-bit readers refuse it (found by fuzz/fuzz_csv_tables): more than 18
    // digits is written as the double it parses to, which every reader takes.
    const bool integer = text.find_first_of(".eE") == std::string::npos;
    const std::size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
    if (!integer || digits <= 18) return text;
    v = parsed;
  }
  char b[48];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

void csvRowJson(std::string& o, const StepTraceRow& r) {
  o += "{\"computing_us\": " + recorded(r.computingText, r.computing) + ", \"communication_us\": " +
       recorded(r.communicationText, r.communication) + ", \"communication_not_overlapped_us\": " +
       recorded(r.commNotOverlappedText, r.commNotOverlapped) + ", \"overlapped_us\": " +
       recorded(r.overlappedText, r.overlapped) + ", \"free_us\": " + recorded(r.freeText, r.free) +
       ", \"stage_us\": " + recorded(r.stageText, r.stage) + ", \"bubble_us\": " + recorded(r.bubbleText, r.bubble) +
       ", \"preparing_us\": " + recorded(r.preparingText, r.preparing) + ", \"source\": ";
  appendJsonString(o, r.source);
  o += "}";
}

void peerWaitsJson(std::string& o, const std::vector<PeerWait>& v) {
  o += "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    o += (i ? ", " : "") + std::string("{\"peer\": ") + std::to_string(v[i].peer) + ", \"ns\": " + std::to_string(v[i].ns) + "}";
  o += "]";
}

void breakdownJson(std::string& o, const CommBreakdown& c) {
  const auto known = [&c](TimeNs v) { return c.fromTrace ? std::to_string(v) : std::string("null"); };
  o += "{\"exposed_ns\": " + std::to_string(c.exposed) + ", \"from_trace\": " + (c.fromTrace ? "true" : "false") +
       ", \"planes\": " + std::to_string(c.planes) + ", \"ops\": " + std::to_string(c.ops.size()) +
       ", \"synchronization_ns\": " + known(c.synchronization) + ", \"transit_ns\": " + known(c.transit) +
       ", \"wait_ns\": " + known(c.wait) + ", \"idle_ns\": " + known(c.idle) +
       ", \"idle_peer_wait_ns\": " + known(c.idlePeerWait) + ", \"idle_other_transfer_ns\": " + known(c.idleOtherTransfer) +
       ", \"synchronization_by_peer\": ";
  peerWaitsJson(o, c.synchronizationByPeer);
  o += ", \"idle_by_peer\": ";
  peerWaitsJson(o, c.idleByPeer);
  o += ", \"recorded\": ";
  if (c.json)
    o += "{\"ops\": " + std::to_string(c.jsonOps) + ", \"elapse_ns\": " + std::to_string(c.json->elapse) +
         ", \"transit_ns\": " + std::to_string(c.json->transit) + ", \"wait_ns\": " + std::to_string(c.json->wait) +
         ", \"synchronization_ns\": " + std::to_string(c.json->synchronization) +
         ", \"idle_ns\": " + std::to_string(c.json->idle) + "}";
  else
    o += "null";
  o += ", \"recorded_message\": ";
  appendJsonString(o, c.jsonMessage);
  o += "}";
}

/// `communication_matrix`: per (src rank, dst rank, transport) the transfers off the chip summed
/// over the capture (group ranks, as the plane tasks write them).
void matrixJson(std::string& o, const std::vector<CommPeerLink>& v) {
  o += "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    const CommPeerLink& p = v[i];
    char b[200];
    std::snprintf(b, sizeof b,
                  "{\"src\": %d, \"dst\": %d, \"transit_size_mb\": %.6f, \"transit_time_us\": %.3f, \"bandwidth_gb_s\": %.4f, "
                  "\"tasks\": %zu, \"transport\": ",
                  p.self, p.peer, static_cast<double>(p.link.bytes) / 1e6, static_cast<double>(p.link.time) / 1e3,
                  p.link.bandwidthGBs(), p.link.tasks);
    o += (i ? ", " : "") + std::string(b);
    appendJsonString(o, p.link.transport);
    o += "}";
  }
  o += "]";
}

/// `communication_links`: per transport the transfers summed over the capture.
void linksJson(std::string& o, const std::vector<CommLink>& links) {
  o += "[";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const CommLink& l = links[i];
    char b[160];
    std::snprintf(b, sizeof b, "\"transit_size_mb\": %.6f, \"transit_time_us\": %.3f, \"bandwidth_gb_s\": %.4f, \"tasks\": %zu}",
                  static_cast<double>(l.bytes) / 1e6, static_cast<double>(l.time) / 1e3, l.bandwidthGBs(), l.tasks);
    o += (i ? ", " : "") + std::string("{\"transport\": ");
    appendJsonString(o, l.transport);
    o += ", ";
    o += b;
  }
  o += "]";
}

void partsJson(std::string& o, const std::vector<BreakdownPart>& v) {
  o += "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o += ", ";
    appendJsonString(o, v[i].key);
    o += ": {\"ns\": " + std::to_string(v[i].ns) + ", \"exclusive_ns\": " + std::to_string(v[i].exclusive) +
         ", \"tasks\": " + std::to_string(v[i].tasks) + "}";
  }
  o += "}";
}

void breakdownJson(std::string& o, const ComputeBreakdown& c) {
  o += "{\"total_ns\": " + std::to_string(c.total) + ", \"tasks\": " + std::to_string(c.tasks) + ", \"by_core\": ";
  partsJson(o, c.byCore);
  o += ", \"by_class\": ";
  partsJson(o, c.byClass);
  o += ", \"by_pass\": ";
  if (c.byPass.empty()) o += "null";
  else partsJson(o, c.byPass);
  o += ", \"core_source\": ";
  appendJsonString(o, c.coreSource);
  o += ", \"class_source\": ";
  appendJsonString(o, c.classSource);
  o += ", \"pass_note\": ";
  appendJsonString(o, c.passNote);
  o += ", \"core_overlap_ns\": " + std::to_string(c.coreOverlap) + ", \"class_overlap_ns\": " +
       std::to_string(c.classOverlap) + ", \"pass_overlap_ns\": " + std::to_string(c.passOverlap);
  o += ", \"parts_are_unions\": true}";
}

void sliceJson(std::string& o, const Trace& t, SliceRef r) {
  if (!r.valid()) {
    o += "null";
    return;
  }
  o += "{\"name\": ";
  appendJsonString(o, t.sliceName(r));
  o += ", \"lane\": ";
  appendJsonString(o, t.processes[t.lanes[r.lane].process].name + " / " + t.lanes[r.lane].name);
  o += ", \"start_ns\": " + std::to_string(t.sliceRange(r).start) + ", \"dur_ns\": " +
       std::to_string(t.sliceRange(r).duration()) + "}";
}

void chainJson(std::string& o, const Trace& t, const DispatchChain& c) {
  o += "[";
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const ChainLink& k = c.links[i];
    if (i) o += ", ";
    o += "{\"layer\": ";
    appendJsonString(o, chainLayerKey(k.layer));
    o += ", \"name\": ";
    appendJsonString(o, t.sliceName(k.slice));
    o += ", \"start_ns\": " + std::to_string(t.sliceRange(k.slice).start) + ", \"dur_ns\": " +
         std::to_string(t.sliceRange(k.slice).duration()) + ", \"via\": ";
    appendJsonString(o, k.via);
    o += "}";
  }
  o += "]";
}

/// "overlap": the main device's computed figures with its device, the partial flag, the compute
/// set's rule and the recorded lanes' figures; null without a device.
void overlapJson(std::string& o, const RankAnalysis& a, const DeviceAnalysis* main) {
  o += ", \"overlap\": ";
  if (!main) {
    o += "null";
    return;
  }
  std::string f;
  figuresJson(f, main->computed);
  f.pop_back();
  o += f + ", \"device\": " + std::to_string(main->device) +
       ", \"partial\": " + (a.verdict.partial ? "true" : "false") +
       ", \"between_iterations_us\": " + formatUsNumber(main->betweenIterationsNs) + ", \"compute_rule\": ";
  appendJsonString(o, main->computeSetRule);
  if (main->lanes) {
    o += ", \"recorded\": ";
    figuresJson(o, *main->lanes);
  }
  o += "}";
}

/// "isolated_activity" and "far_events": activity isolated far from the rest and events far from
/// the device (docs/diagnosis.md §1.1).
void farActivityJson(std::string& o, const Trace& t, const RankAnalysis& a, const DeviceAnalysis* main) {
  o += ", \"isolated_activity\": [";
  if (main)
    for (std::size_t i = 0; i < main->isolated.size(); ++i) {
      const IsolatedActivity& ia = main->isolated[i];
      if (i) o += ", ";
      o += "{\"start_ns\": " + std::to_string(ia.busy.start) + ", \"end_ns\": " + std::to_string(ia.busy.end) +
           ", \"gap_ns\": " + std::to_string(ia.gap) + ", \"leading\": " + (ia.leading ? "true" : "false") +
           ", \"intervals\": " + std::to_string(ia.intervals) + ", \"task\": ";
      sliceJson(o, t, ia.task);
      o += ", \"without\": ";
      figuresJson(o, ia.without);
      o += "}";
    }
  o += "], \"far_events\": {\"count\": " + std::to_string(a.farEvents.count) +
       ", \"distance_ns\": " + std::to_string(a.farEvents.distance) + ", \"farthest\": ";
  sliceJson(o, t, a.farEvents.count ? a.farEvents.farthest : SliceRef{});
  o += "}";
}

/// One entry of "steps": its window, computed figures, preparing time and recorded figures (the
/// step_trace_time.csv row, else the lanes').
void stepJson(std::string& o, const StepOverlap& s) {
  o += "\n    {\"step\": " + (s.step >= 0 ? std::to_string(s.step) : std::string("null")) +
       ", \"start_ns\": " + std::to_string(s.window.start) + ", \"end_ns\": " + std::to_string(s.window.end);
  std::string f;
  figuresJson(f, s.computed);
  o += ", " + f.substr(1, f.size() - 2);
  if (s.preparing) o += ", \"preparing_us\": " + formatUsNumber(*s.preparing);
  if (s.lanes || s.csv) {
    o += ", \"recorded\": ";
    if (s.csv) csvRowJson(o, *s.csv);
    else figuresJson(o, *s.lanes);
  }
  if (s.lanes) {
    o += ", \"recorded_lanes\": ";
    figuresJson(o, *s.lanes);
  }
  o += "}";
}

/// One entry of "bubbles": the gap, its cause with detail and evidence, and its dispatch chain
/// with the launch figures.
void bubbleJson(std::string& o, const Trace& t, const Bubble& b) {
  o += "\n    {\"start_ns\": " + std::to_string(b.range.start) + ", \"dur_ns\": " + std::to_string(b.range.duration()) +
       ", \"step\": " + (b.step >= 0 ? std::to_string(b.step) : std::string("null")) + ", \"cause\": ";
  appendJsonString(o, bubbleCauseKey(b.cause));
  o += ", \"detail\": ";
  appendJsonString(o, b.detail);
  o += ", \"before\": ";
  sliceJson(o, t, b.before);
  o += ", \"after\": ";
  sliceJson(o, t, b.after);
  o += ", \"free_analysis_category\": ";
  appendJsonString(o, bubbleCauseFreeAnalysisCategory(b.cause));
  o += ", \"host_coverage\": " + formatNumber6(b.hostCoverage) + ", \"launched\": ";
  appendJsonString(o, launchTimingKey(b.launched));
  o += ", \"evidence\": [";
  for (std::size_t k = 0; k < b.evidence.size(); ++k) {
    if (k) o += ", ";
    sliceJson(o, t, b.evidence[k]);
  }
  o += "], \"path\": ";
  appendJsonString(o, b.chain.path);
  o += ", \"launch_latency_ns\": " + (b.chain.launchLatency ? std::to_string(*b.chain.launchLatency) : std::string("null"));
  o += ", \"launch_latency_corrected_ns\": " +
       (b.chain.correctedLatency ? std::to_string(*b.chain.correctedLatency) : std::string("null"));
  o += ", \"launch_ts_ns\": " + (b.chain.launchTs ? std::to_string(*b.chain.launchTs) : std::string("null"));
  o += ", \"latency_suspect\": " + std::string(b.chain.suspect ? "true" : "false");
  o += ", \"queue_wait_ns\": " + (b.chain.queueWait ? std::to_string(*b.chain.queueWait) : std::string("null"));
  o += ", \"chain\": ";
  chainJson(o, t, b.chain);
  o += ", \"chain_missing\": [";
  for (std::size_t k = 0; k < b.chain.missing.size(); ++k) {
    if (k) o += ", ";
    appendJsonString(o, chainLayerKey(b.chain.missing[k]));
  }
  o += "]}";
}

/// "bubble_causes" (the causes holding a bubble: count and ns), then "clock_skew" and "fan_out".
void causesAndLaunchesJson(std::string& o, const Trace& t, const DeviceAnalysis* main) {
  o += ", \"bubble_causes\": {";
  if (main) {
    bool firstCause = true;
    for (std::size_t c = 0; c < kBubbleCauseCount; ++c) {
      if (!main->causes.count[c]) continue;
      if (!firstCause) o += ", ";
      firstCause = false;
      appendJsonString(o, bubbleCauseKey(static_cast<BubbleCause>(c)));
      o += ": {\"count\": " + std::to_string(main->causes.count[c]) + ", \"ns\": " + std::to_string(main->causes.ns[c]) + "}";
    }
  }
  o += "}, \"clock_skew\": ";
  if (!main) {
    o += "null";
    return;
  }
  const ClockSkew& k = main->skew;
  o += "{\"min_task_minus_launch_ns\": " +
       (k.minTaskMinusLaunch ? std::to_string(*k.minTaskMinusLaunch) : std::string("null")) +
       ", \"bound_ns\": " + std::to_string(k.bound) + ", \"tasks_with_launch\": " + std::to_string(k.tasksWithLaunch) +
       ", \"outliers\": " + std::to_string(k.outliers) + ", \"median_latency_ns\": " +
       (k.medianLatency ? std::to_string(*k.medianLatency) : std::string("null")) +
       ", \"tight_launches\": " + std::to_string(k.tightLaunches) +
       ", \"worst_task\": ";
  sliceJson(o, t, k.worstTask);
  o += "}, \"fan_out\": {\"ops\": " + std::to_string(main->fanOut.ops) + ", \"ops_with_many\": " +
       std::to_string(main->fanOut.opsWithMany) + ", \"widest_tasks\": " + std::to_string(main->fanOut.widestTasks) +
       ", \"widest_op\": ";
  sliceJson(o, t, main->fanOut.widestOp);
  o += "}";
}

/// "verdict": the dominant share, headline, top cause, partial capture, findings, summary and
/// suggestions.
void verdictJson(std::string& o, const Verdict& v) {
  o += ", \"verdict\": {\"dominant\": ";
  appendJsonString(o, v.dominant);
  o += ", \"headline\": ";
  appendJsonString(o, v.headline);
  o += ", \"host_recorded\": " + std::string(v.hostRecorded ? "true" : "false") + ", \"top_cause\": ";
  if (v.topCauseNs > 0) appendJsonString(o, bubbleCauseKey(v.topCause));
  else o += "null";
  // A partial capture (docs/diagnosis.md §2.6): the shares cover the part that was read.
  o += ", \"partial\": " + std::string(v.partial ? "true" : "false") + ", \"partial_reason\": ";
  if (v.partial) appendJsonString(o, v.partialReason);
  else o += "null";
  o += ", \"covered_until_ns\": " + (v.coveredUntil ? std::to_string(*v.coveredUntil) : std::string("null"));
  o += ", \"top_cause_ns\": " + std::to_string(v.topCauseNs) + ", \"top_cause_count\": " +
       std::to_string(v.topCauseCount) + ", \"top_cause_share\": " + formatNumber6(v.topCauseShare) + ", \"findings\": [";
  for (std::size_t i = 0; i < v.findings.size(); ++i) {
    if (i) o += ", ";
    appendJsonString(o, v.findings[i]);
  }
  o += "], \"summary\": ";
  appendJsonString(o, v.summary);
  o += ", \"suggestions\": [";
  for (std::size_t i = 0; i < v.suggestions.size(); ++i) {
    if (i) o += ", ";
    appendJsonString(o, v.suggestions[i]);
  }
  o += "]}";
}

void analysisJson(std::string& o, const Trace& t, const RankAnalysis& a) {
  const DeviceAnalysis* main = a.devices.empty() ? nullptr : &a.devices.front();
  overlapJson(o, a, main);
  farActivityJson(o, t, a, main);
  o += ", \"steps\": [";
  if (main)
    for (std::size_t i = 0; i < main->steps.size(); ++i) {
      if (i) o += ", ";
      stepJson(o, main->steps[i]);
    }
  o += "], \"bubbles_found\": " + std::to_string(main ? main->gapsFound : 0) +
       ", \"bubbles_found_ns\": " + std::to_string(main ? main->gapsFoundNs : 0) + ", \"bubbles\": [";
  if (main)
    for (std::size_t i = 0; i < main->bubbles.size(); ++i) {
      if (i) o += ", ";
      bubbleJson(o, t, main->bubbles[i]);
    }
  o += "]";
  causesAndLaunchesJson(o, t, main);
  // What Communication (Not Overlapped) and Computing are made of (docs/diagnosis.md §5).
  o += ", \"communication_breakdown\": ";
  if (main) breakdownJson(o, main->comm);
  else o += "null";
  o += ", \"communication_links\": ";
  if (main) linksJson(o, main->comm.links);
  else o += "null";
  o += ", \"communication_matrix\": ";
  if (main) matrixJson(o, peerLinksOf(main->comm.ops));
  else o += "null";
  o += ", \"computing_breakdown\": ";
  if (main) breakdownJson(o, main->compute);
  else o += "null";
  verdictJson(o, a.verdict);
  o += ", \"discrepancies\": [";
  if (main)
    for (std::size_t i = 0; i < main->discrepancies.size(); ++i) {
      if (i) o += ", ";
      appendJsonString(o, main->discrepancies[i]);
    }
  o += "]";
}

void figuresText(std::ostringstream& o, const OverlapFigures& f) {
  char b[256];
  std::snprintf(b, sizeof b, "Computing %s, Communication %s (Not Overlapped %s, Overlapped %s), Free %s (%.1f%%), E2E %s",
                formatDuration(f.computing).c_str(), formatDuration(f.communication).c_str(),
                formatDuration(f.commNotOverlapped).c_str(), formatDuration(f.overlapped).c_str(),
                formatDuration(f.free).c_str(), f.freeRatio() * 100.0, formatDuration(f.e2e).c_str());
  o << b;
}

void analysisText(std::ostringstream& o, const Trace& t, const RankAnalysis& a) {
  if (a.verdict.partial)
    o << "   "
      << i18n::format(npuTr("npuscope::core::Report", "PARTIAL CAPTURE: %1; every figure below covers only the part read"),
                      {a.verdict.partialReason})
      << "\n";
  o << "   " << i18n::format(npuTr("npuscope::core::Report", "verdict: %1"), {a.verdict.summary}) << "\n";
  for (const auto& s : a.verdict.findings) o << "     * " << s << "\n";
  for (const auto& s : a.verdict.suggestions) o << "     - " << s << "\n";
  for (const DeviceAnalysis& d : a.devices) {
    o << "   device " << d.device << " overlap (computed): ";
    figuresText(o, d.computed);
    o << "\n";
    if (d.lanes) {
      o << "   device " << d.device << " overlap (recorded): ";
      figuresText(o, *d.lanes);
      o << "\n";
    }
    for (const StepOverlap& s : d.steps) {
      o << "     step " << (s.step >= 0 ? std::to_string(s.step) : std::string("-")) << ": ";
      figuresText(o, s.computed);
      if (s.csv)
        o << "\n       " << s.csv->source << ": Computing " << recorded(s.csv->computingText, s.csv->computing)
          << " us, Comm(NO) " << recorded(s.csv->commNotOverlappedText, s.csv->commNotOverlapped)
          << " us, Communication " << recorded(s.csv->communicationText, s.csv->communication) << " us, Free "
          << recorded(s.csv->freeText, s.csv->free) << " us, Preparing "
          << recorded(s.csv->preparingText, s.csv->preparing) << " us";
      o << "\n";
    }
    for (const auto& m : d.discrepancies) o << "     ! " << m << "\n";
    if (const std::string c = commBreakdownText(d.comm); !c.empty()) o << "   communication: " << c << "\n";
    if (const std::string c = computeBreakdownText(d.compute); !c.empty()) o << "   computing: " << c << "\n";
    if (d.gapsFound > d.bubbles.size())
      o << "   "
        << i18n::format(npuTr("npuscope::core::Report", "bubbles >= threshold: %1 (%2 in all), the longest %3 listed, longest first"),
                        {std::to_string(d.gapsFound), formatDuration(d.gapsFoundNs), std::to_string(d.bubbles.size())})
        << "\n";
    else
      o << "   " << i18n::format(npuTr("npuscope::core::Report", "bubbles >= threshold: %1 (longest first)"), {std::to_string(d.bubbles.size())})
        << "\n";
    std::size_t n = 0;
    for (const Bubble& b : d.bubbles) {
      if (n++ >= 10) break;
      o << "     "
        << i18n::format(b.step >= 0 ? npuTr("npuscope::core::Report", "%1 at +%2 (step %3): %4") : npuTr("npuscope::core::Report", "%1 at +%2: %4"),
                        {formatDuration(b.range.duration()), formatDuration(b.range.start - t.range.start),
                         std::to_string(b.step), i18n::lookup("npuscope::widgets::AnalysisLabels", bubbleCauseLabel(b.cause))})
        << (b.detail.empty() ? "" : " - " + b.detail) << "\n";
      if (!b.chain.links.empty()) {
        o << "       chain" << (b.chain.path.empty() ? "" : " [" + b.chain.path + "]") << ":";
        for (const ChainLink& k : b.chain.links) o << " " << chainLayerKey(k.layer) << "=" << t.sliceName(k.slice);
        if (b.chain.correctedLatency) o << clauseSep() << launchLatencyText(b.chain);
        o << clauseSep()
          << (b.launched == LaunchTiming::AfterGapStart    ? npuTr("npuscope::core::Report", "launched after the device went idle")
              : b.launched == LaunchTiming::BeforeGapStart ? npuTr("npuscope::core::Report", "launched before the device went idle")
                                                           : npuTr("npuscope::core::Report", "launched at an unknown time"));
        o << "\n";
      }
    }
  }
}
}  // namespace

namespace {
// The rank's label for the advice across ranks, with its folder when another rank has the same
// label (a folder of two captures holds two "rank 0").
std::string adviceLabel(const Profile& profile, const RankProfile& rp) {
  std::size_t same = 0;
  for (const RankProfile& other : profile.ranks) same += other.source.label == rp.source.label ? 1 : 0;
  return same > 1 ? rp.source.label + " (" + rp.source.root + ")" : rp.source.label;
}
}  // namespace

RankAdvice adviseRankProfile(const RankProfile& rp, const AdvisorThresholds& thresholds) {
  if (!rp.trace || !rp.analysis) return {};
  RankMetadata meta = readRankMetadata(rp.source.root);
  if (meta.chip.empty()) meta.chip = rp.chip;  // the .db export's NPU_INFO
  // A rank loaded from its .db export: the memory and communication tables of the database
  // (db_tables.h) take the place of the text export's files, which are kept only where the
  // database lacks the table.
  if (!rp.source.dbFile.empty() && rp.trace->path == rp.source.dbFile) {
    DbRankTables db = readDbRankTables(rp.source.dbFile, rp.source.analysisDb);
    const std::string dbName = std::filesystem::path(rp.source.dbFile).filename().string();
    meta.dbExport = true;
    if (db.memoryRecord) meta.memoryRecord = std::move(db.memoryRecord), meta.memoryRecordFrom = "MEMORY_RECORD of " + dbName;
    if (db.operatorMemory) meta.operatorMemory = std::move(db.operatorMemory), meta.operatorMemoryFrom = "OP_MEMORY of " + dbName;
    if (db.communication)
      meta.communication = std::move(db.communication),
      meta.communicationFrom = "analysis.db CommAnalyzerTime and CommAnalyzerBandwidth";
  }
  return adviseRank(*rp.trace, rp.kernels.get(), *rp.analysis, &meta, thresholds);
}

namespace {

/// The evidence of a collective finding: the rank's op slices, the largest figure first.
void collectiveEvidence(const Profile& profile, std::vector<std::pair<TimeNs, const CollectiveRank*>> ops, Finding& f) {
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [ns, r] : ops) {
    if (f.evidence.size() >= kMaxEvidence) break;
    if (const CommOp* op = collectiveOp(profile, *r); op && op->slice.valid()) f.evidence.push_back(op->slice);
  }
}

/// A holder's name in a sentence: "rank 3", or "group rank 5 of HCCL group 586 (not in this capture)".
std::string holderInSentence(const Profile& profile, const Collective& c) {
  if (c.holder.loaded() && c.holder.rank >= 0)
    return i18n::format(npuTr("npuscope::core::Advisor", "rank %1"), {std::to_string(c.holder.rank)});
  if (c.holder.loaded() && c.holder.index < c.ranks.size() && c.ranks[c.holder.index].rankIndex < profile.ranks.size())
    return profile.ranks[c.ranks[c.holder.index].rankIndex].source.label;  // a rank without an id
  return i18n::format(npuTr("npuscope::core::Advisor", "group rank %1 of %2 (not in this capture)"),
                      {std::to_string(c.holder.groupRank), hcclGroupName(c.group)});
}

}  // namespace

std::vector<Finding> collectiveAdvice(const Profile& profile, std::size_t rankIndex, std::size_t steps) {
  std::vector<Finding> out;
  if (!profile.analysis || rankIndex >= profile.ranks.size()) return out;
  const ClusterComm& cc = profile.analysis->comm;
  const RankCollectiveTotals* totals = nullptr;
  for (const RankCollectiveTotals& t : cc.totals)
    if (t.rankIndex == rankIndex) totals = &t;
  if (!totals) return out;
  // Per step; adviseRankInProfile bounds it as the advisor's communication rules (settleFindings).
  const auto stake = [steps](Finding& f, TimeNs total) {
    f.atStakePerStep = static_cast<TimeNs>(static_cast<double>(total) / static_cast<double>(std::max<std::size_t>(1, steps)));
  };
  const std::string source = "npuscope's cross-rank stage: the holder of each collective, the member of its group that arrives "
                             "last (loaded ranks by their clock-corrected op start, members outside the capture by the end of "
                             "the loaded ranks' first Notify_Wait on them); docs/diagnosis.md §5.4";
  const std::string mark = i18n::format(npuTr("npuscope::core::Advisor", "a member arrives %1 or more after this rank"), {formatDuration(kLateRankMinSkewNs)});
  if (totals->waited > 0) {
    Finding f;
    f.rule = "collective_wait";
    f.severity = Severity::Issue;
    std::vector<std::pair<TimeNs, const CollectiveRank*>> ops;
    const Collective* worst = nullptr;
    TimeNs worstNs = 0;
    std::size_t held = 0;
    for (const Collective& c : cc.collectives)
      for (const CollectiveRank& r : c.ranks) {
        if (r.rankIndex != rankIndex || r.waited <= 0) continue;
        ++held;
        ops.push_back({r.waited, &r});
        if (r.waited > worstNs) worstNs = r.waited, worst = &c;
      }
    f.title = worst ? i18n::format(npuTr("npuscope::core::Advisor", "Waits in collectives for %1"), {holderInSentence(profile, *worst)})
                    : npuTr("npuscope::core::Advisor", "Waits in collectives for a later rank");
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "%1 in all in %2 of %3 collectives, waiting for the member that arrives last; "
                                                              "the longest %4 in %5"),
                             {formatDuration(totals->waited), std::to_string(held), std::to_string(cc.collectives.size()),
                              formatDuration(worstNs), worst ? collectiveLabel(*worst) : std::string("—")});
    f.threshold = mark;
    f.source = source;
    f.fix = worst && !worst->holder.loaded()
                ? npuTr("npuscope::core::Advisor", "The rank that holds the collectives is not in this capture: capture it (or the whole group) "
                                                   "to see what delays it; this rank only waits.")
                : npuTr("npuscope::core::Advisor", "This rank only waits: open the holder's rank and fix what makes it late (its own "
                                                   "verdict: computing, host dispatch or data loading).");
    stake(f, totals->waited);
    collectiveEvidence(profile, std::move(ops), f);
    out.push_back(std::move(f));
  }
  if (totals->caused > 0) {
    Finding f;
    f.rule = "collective_late";
    f.severity = Severity::Issue;
    std::vector<std::pair<TimeNs, const CollectiveRank*>> ops;
    std::size_t late = 0;
    for (const Collective& c : cc.collectives)
      if (c.lateRank >= 0 && c.holder.loaded() && c.holder.index < c.ranks.size() && c.ranks[c.holder.index].rankIndex == rankIndex) {
        ++late;
        ops.push_back({c.lost, &c.ranks[c.holder.index]});
      }
    f.title = npuTr("npuscope::core::Advisor", "Late to collectives: the other ranks wait for this one");
    f.numbers = i18n::format(npuTr("npuscope::core::Advisor", "the last to arrive in %1 of %2 collectives; the other loaded ranks wait %3 in all"),
                             {std::to_string(late), std::to_string(cc.collectives.size()), formatDuration(totals->caused)});
    f.threshold = mark;
    f.source = source;
    f.fix = npuTr("npuscope::core::Advisor", "What makes this rank reach its collectives late (see its verdict and bubbles: computing, host "
                                             "dispatch or data loading before the op) holds every other rank of the group.");
    stake(f, totals->caused);
    collectiveEvidence(profile, std::move(ops), f);
    out.push_back(std::move(f));
  }
  return out;
}

RankAdvice adviseRankInProfile(const Profile& profile, std::size_t rankIndex, const AdvisorThresholds& thresholds) {
  if (rankIndex >= profile.ranks.size()) return {};
  RankAdvice a = adviseRankProfile(profile.ranks[rankIndex], thresholds);
  if (!profile.ranks[rankIndex].trace || !profile.ranks[rankIndex].analysis) return a;
  std::vector<Finding> more = collectiveAdvice(profile, rankIndex, a.steps);
  if (more.empty()) return a;
  const RankProfile& rp = profile.ranks[rankIndex];
  settleFindings(*rp.trace, *rp.analysis, thresholds, more);
  for (Finding& f : more) a.findings.push_back(std::move(f));
  std::stable_sort(a.findings.begin(), a.findings.end(), findingBefore);
  return a;
}

std::shared_ptr<const OperatorTable> rankOperatorTable(const RankProfile& rp, const AdvisorThresholds& thresholds) {
  if (!rp.trace || !rp.analysis || !rp.kernels || isGpuTrace(*rp.trace)) return nullptr;
  // adviseRankProfile's chip: readRankMetadata's msprof info.json, else the .db's; adviseRank
  // prefers thresholds.chip.
  const MsprofDeviceInfo device = msprofDeviceInfo(rp.source.root);
  std::string chip = thresholds.chip;
  if (chip.empty()) chip = device.chip;
  if (chip.empty()) chip = rp.chip;
  AdvisorThresholds th = thresholds;  // the device's own peaks first, as adviseRank
  const std::vector<PeakTflops> own = devicePeaks(device);
  th.peaks.insert(th.peaks.begin(), own.begin(), own.end());
  return std::make_shared<const OperatorTable>(operatorTable(*rp.trace, *rp.kernels, *rp.analysis, chip, th));
}

std::string reportJson(const Profile& profile, const AdvisorThresholds& thresholds) {
  std::string o;
  std::vector<std::pair<std::string, RankAdvice>> advised;
  o += std::string("{\"schema_version\": \"") + kReportSchemaVersion + "\", \"path\": ";
  appendJsonString(o, profile.path);
  // The captures of a folder holding several (only the `loaded` one's ranks follow).
  o += ", \"captures\": [";
  for (std::size_t i = 0; i < profile.captures.size(); ++i) {
    const CaptureInfo& c = profile.captures[i];
    o += i ? ", {\"name\": " : "{\"name\": ";
    appendJsonString(o, c.name);
    o += ", \"ranks\": " + std::to_string(c.ranks) + ", \"profiler_level\": ";
    appendJsonString(o, c.profilerLevel);
    o += ", \"end_ns\": " + (c.endNs >= 0 ? std::to_string(c.endNs) : std::string("null")) +
         ", \"loaded\": " + (c.loaded ? "true" : "false") + "}";
  }
  o += "], \"ranks\": [";
  bool firstRank = true;
  for (const RankProfile& rp : profile.ranks) {
    if (!firstRank) o += ", ";
    firstRank = false;
    if (rp.summary) {  // read from a summary file: what it holds
      o += "\n  " + summaryReportJson(*rp.summary);
      continue;
    }
    o += "\n  {\"rank\": " + std::to_string(rp.rank()) + ", \"device\": " + std::to_string(rp.device());
    o += ", \"label\": ";
    appendJsonString(o, rp.source.label);
    o += ", \"file\": ";
    appendJsonString(o, rp.trace ? rp.trace->path : rp.source.traceFile);  // the .db for a database rank
    if (!rp.trace) {
      o += ", \"error\": ";
      appendJsonString(o, rp.error);
      o += ", \"table_messages\": ";
      appendJsonStringArray(o, rp.tableMessages);
      if (rp.tablesOnly) o += ", \"tables_only\": " + tablesOnlyJson(*rp.tablesOnly);
      o += "}";
      continue;
    }
    const Trace& t = *rp.trace;
    o += ", \"events\": " + std::to_string(t.eventCount);
    o += ", \"span_ns\": " + std::to_string(t.range.duration());
    o += ", \"start_ns\": " + std::to_string(t.range.start);
    o += ", \"lanes\": [";
    for (std::size_t i = 0; i < t.lanes.size(); ++i) {
      const Lane& l = t.lanes[i];
      if (i) o += ", ";
      o += "\n    {\"process\": ";
      appendJsonString(o, t.processes[l.process].name);
      o += ", \"thread\": ";
      appendJsonString(o, l.name);
      o += ", \"slices\": " + std::to_string(l.sliceCount()) + ", \"depth\": " + std::to_string(l.depthCount()) + "}";
    }
    o += "]";
    o += ", \"counters\": [";
    for (std::size_t i = 0; i < t.counters.size(); ++i) {
      const auto& c = t.counters[i];
      if (i) o += ", ";
      o += "{\"process\": ";
      appendJsonString(o, t.processes[c.process].name);
      o += ", \"name\": ";
      appendJsonString(o, t.name(c.name));
      o += ", \"key\": ";
      appendJsonString(o, t.name(c.key));
      o += ", \"samples\": " + std::to_string(c.ts.size()) + "}";
    }
    o += "]";
    o += ", \"flows\": {";
    bool first = true;
    for (const auto& [cat, n] : flowsPerCategory(t)) {
      if (!first) o += ", ";
      first = false;
      appendJsonString(o, cat);
      o += ": " + std::to_string(n);
    }
    o += "}, \"warnings\": {";
    first = true;
    for (std::size_t k = 0; k < ImportStats::kKinds; ++k) {
      if (!t.stats.counts[k]) continue;
      if (!first) o += ", ";
      first = false;
      appendJsonString(o, warningKey(static_cast<ImportWarning>(k)));
      o += ": " + std::to_string(t.stats.counts[k]);
    }
    o += "}";
    if (rp.analysis) analysisJson(o, t, *rp.analysis);
    o += ", \"notes\": [";
    for (std::size_t i = 0; i < t.notes.size(); ++i) {
      if (i) o += ", ";
      appendJsonString(o, t.notes[i]);
    }
    o += "], \"table_messages\": ";
    appendJsonStringArray(o, rp.tableMessages);
    if (rp.analysis) {
      // The dispatch statistics and the advisor both only read the trace and the analysis: the
      // statistics run beside the rules (as summarizeRank does; issue 43: 0.27 s and 0.27 s of a
      // 1 GB trace's report, one after the other).
      std::future<std::vector<DispatchStat>> stats =
          std::async(std::launch::async, [&t, &rp] { return dispatchStats(t, *rp.analysis, 10'000, 1); });
      advised.emplace_back(adviceLabel(profile, rp), adviseRankInProfile(profile, static_cast<std::size_t>(&rp - profile.ranks.data()), thresholds));
      o += ",\n   \"advice\": " + adviceJson(t, advised.back().second);
      // The operator table and tree the advice was made from (computed once, by adviseRank).
      const OperatorAdvice* ops = advised.back().second.operators.get();
      operatorsJson(o, t, ops ? &ops->table : nullptr, ops ? ops->tree : std::vector<TreeNode>{}, stats.get());
    }
    o += "}";
  }
  o += "\n], \"messages\": [";
  for (std::size_t i = 0; i < profile.messages.size(); ++i) {
    if (i) o += ", ";
    appendJsonString(o, profile.messages[i]);
  }
  o += "]";
  if (advised.size() >= 2) o += ",\n\"advice_across_ranks\": " + adviceAcrossRanksJson(issuesAcrossRanks(advised));
  if (profile.analysis) o += ",\n\"profile_analysis\": " + profileAnalysisJson(*profile.analysis);
  o += "}\n";
  return o;
}

namespace {

/// The rank header's note on the devices other than the analysed one (RankProfile::otherDevices):
/// "; other devices: 3 (with events), 0-1, 4-15 (no events)"; "" when there is none.
std::string otherDevicesNote(const RankProfile& rp) {
  std::vector<int> analysed, busy, idle;
  for (const auto& [d, hasEvents] : rp.otherDevices()) {
    const bool inAnalysis = rp.analysis && std::any_of(rp.analysis->devices.begin(), rp.analysis->devices.end(),
                                                       [d = d](const DeviceAnalysis& a) { return a.device == d; });
    (inAnalysis ? analysed : hasEvents ? busy : idle).push_back(d);
  }
  std::string s;
  if (!analysed.empty()) s += formatIdRuns(analysed) + " (analysed below)";
  if (!busy.empty()) s += (s.empty() ? "" : ", ") + formatIdRuns(busy) + " (with events, no device tasks)";
  if (!idle.empty()) s += (s.empty() ? "" : ", ") + formatIdRuns(idle) + " (labelled, no events)";
  return s.empty() ? s : "; other devices: " + s;
}

}  // namespace

std::string reportText(const Profile& profile, const AdvisorThresholds& thresholds) {
  std::ostringstream o;
  std::vector<std::pair<std::string, RankAdvice>> advised;
  o << "npuscope report: " << profile.path << "\n";
  if (profile.captures.size() > 1) {
    o << "captures: " << profile.captures.size() << " separate profiling runs in this folder; only the loaded one is shown\n";
    for (std::size_t i = 0; i < profile.captures.size(); ++i) {
      const CaptureInfo& c = profile.captures[i];
      o << "  " << (i + 1) << ". " << c.name << ": " << c.ranks << (c.ranks == 1 ? " rank" : " ranks")
        << (c.profilerLevel.empty() ? "" : ", " + c.profilerLevel) << (c.loaded ? "  <- loaded" : "  (--capture " + std::to_string(i + 1) + ")")
        << "\n";
    }
  }
  for (const RankProfile& rp : profile.ranks) {
    o << "\n== " << rp.source.label << " (rank " << rp.rank() << ", device " << rp.device() << otherDevicesNote(rp) << ")\n";
    if (rp.summary) {
      for (const std::string& line : summaryReportLines(*rp.summary)) o << "   " << line << "\n";
      continue;
    }
    if (!rp.trace) {
      o << "   error: " << rp.error << "\n";
      for (const auto& m : rp.tableMessages) o << "   table: " << m << "\n";
      if (rp.tablesOnly)
        for (const auto& line : tablesOnlyLines(*rp.tablesOnly)) o << "   " << line << "\n";
      continue;
    }
    const Trace& t = *rp.trace;
    o << "   file:   " << t.path << "\n";  // trace_view.json, or the .db export it was read from
    o << "   events: " << t.eventCount << ", slices: " << t.sliceCount() << ", span: " << formatDuration(t.range.duration())
      << "\n   lanes:\n";
    for (const Lane& l : t.lanes)
      o << "     " << t.processes[l.process].name << " / " << l.name << ": " << countNoun(l.sliceCount(), "slice") << "\n";
    o << "   flows (bound arrows):";
    for (const auto& [cat, n] : flowsPerCategory(t)) o << " " << cat << "=" << n;
    o << "\n";
    if (t.stats.total()) {
      o << "   warnings:\n";
      for (std::size_t k = 0; k < ImportStats::kKinds; ++k) {
        if (!t.stats.counts[k]) continue;
        const auto kind = static_cast<ImportWarning>(k);
        o << "     " << t.stats.counts[k] << " x " << warningLabel(kind);
        // The first recorded example says where (e.g. "... at byte 189").
        for (const auto& [exampleKind, text] : t.stats.examples)
          if (exampleKind == kind) {
            o << ", e.g. " << text;
            break;
          }
        o << "\n";
      }
    }
    for (const auto& n : t.notes) o << "   note: " << n << "\n";
    for (const auto& m : rp.tableMessages) o << "   table: " << m << "\n";
    if (rp.analysis) {
      analysisText(o, t, *rp.analysis);
      advised.emplace_back(adviceLabel(profile, rp), adviseRankInProfile(profile, static_cast<std::size_t>(&rp - profile.ranks.data()), thresholds));
      o << adviceText(advised.back().second);
    }
  }
  for (const auto& m : profile.messages) o << "\nmessage: " << m << "\n";
  if (const std::string across = adviceAcrossRanksText(issuesAcrossRanks(advised)); !across.empty())
    o << "\n" << across;
  if (profile.analysis) {
    o << "\n" << profileAnalysisLine(*profile.analysis) << "\n";
    for (const std::string& line : profile.analysis->findings)
      o << npuTr("npuscope::core::Report", "collectives:") << " " << line << "\n";
  }
  return o.str();
}

}  // namespace npuscope::core
