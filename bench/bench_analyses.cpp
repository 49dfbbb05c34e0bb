// SPDX-License-Identifier: MIT
// npuscope_bench_analyses: the analyses a user waits for once a trace is loaded (issue 5 target:
// overlap, bubbles, chains, statistics on 10 M events in at most 200 ms together). Loads FILE with
// core::loadProfile, then times, median of --repeat runs each (wall ms and process CPU ms):
//   analyzeRank            overlap per device and step, bubbles with causes and dispatch chains,
//                          verdict (and its parts: stepWindows, collectDeviceTasks, commBreakdown,
//                          computeBreakdown, clockSkew, fanOut, findBubbles with every gap's cause)
//   adviseRank             the advisor's rules (run on demand by the Advice panel and the report)
//   computeStats LAYER     every layer, over the whole trace and over the middle step
//   findSlices             substring and regex search over every slice name
// then an "analyses total" line: analyzeRank + computeStats of the five layers over the whole
// trace (what the Top-Down and Statistics panels need once a trace is open).
// --dump PREFIX writes every result (stats CSVs, overlap figures, bubbles, chains, verdict, search
// hits) to PREFIX.* so that two builds can be diffed for identical results.
// --loop N only runs analyzeRank, adviseRank and computeStats (every layer) N times after loading (to
// profile them).
// Core only (no Qt): npuscope_bench_analyses FILE [--repeat N] [--query TEXT] [--dump PREFIX] [--loop N]

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/analysis/advisor_rules.h"
#include "core/analysis/analysis.h"
#include "core/analysis/breakdown.h"
#include "core/analysis/stats.h"
#include "core/analysis/trace_query.h"
#include "core/profile/profile.h"
#include "core/analysis/operators.h"
#include "core/report/advice_report.h"
#include "core/report/report.h"

namespace {

double cpuMs() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3) +
         (static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3);
}

struct Timing {
  double wall = 0, cpu = 0;  ///< medians, ms
};

Timing measure(int repeat, const std::function<void()>& fn) {
  std::vector<double> wall, cpu;
  for (int i = 0; i < repeat; ++i) {
    const double c0 = cpuMs();
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(cpuMs() - c0);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

void writeFile(const std::string& path, const std::string& text) {
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
}

std::string figuresText(const npuscope::core::OverlapFigures& f) {
  return "computing " + std::to_string(f.computing) + " communication " + std::to_string(f.communication) +
         " notOverlapped " + std::to_string(f.commNotOverlapped) + " overlapped " + std::to_string(f.overlapped) +
         " free " + std::to_string(f.free) + " e2e " + std::to_string(f.e2e);
}

/// Every figure of a RankAnalysis as text, for diffing two builds.
std::string analysisText(const npuscope::core::Trace& trace, const npuscope::core::RankAnalysis& ra) {
  namespace core = npuscope::core;
  std::string o;
  for (const auto& s : ra.steps)
    o += "step " + std::to_string(s.number) + " host " + std::to_string(s.host.start) + " " + std::to_string(s.host.end) +
         " device " + std::to_string(s.device.start) + " " + std::to_string(s.device.end) + "\n";
  for (const auto& da : ra.devices) {
    o += "device " + std::to_string(da.device) + " rule " + da.computeSetRule + "\n  computed " + figuresText(da.computed) +
         "\n  intervals " + std::to_string(da.computing.size()) + " " + std::to_string(da.communication.size()) + " " +
         std::to_string(da.commNotOverlapped.size()) + " " + std::to_string(da.free.size()) + "\n";
    if (da.lanes) o += "  lanes " + figuresText(*da.lanes) + "\n";
    o += "  comm " + core::commBreakdownText(da.comm) + "\n  compute " + core::computeBreakdownText(da.compute) +
         "\n  skew " + std::to_string(da.skew.bound) + " " + std::to_string(da.skew.tasksWithLaunch) + " " +
         std::to_string(da.skew.tightLaunches) + " " + std::to_string(da.skew.medianLatency.value_or(-1)) + " " + std::to_string(da.skew.worstTask.lane) + ":" + std::to_string(da.skew.worstTask.index) + " fanOut " +
         std::to_string(da.fanOut.ops) + " " + std::to_string(da.fanOut.opsWithMany) + " " +
         std::to_string(da.fanOut.widestTasks) + "\n  gaps " + std::to_string(da.gapsFound) + " " +
         std::to_string(da.gapsFoundNs) + " causes";
    for (std::size_t c = 0; c < core::kBubbleCauseCount; ++c)
      o += " " + std::to_string(da.causes.count[c]) + "/" + std::to_string(da.causes.ns[c]);
    o += "\n";
    for (const auto& d : da.discrepancies) o += "  discrepancy " + d + "\n";
    for (const auto& so : da.steps) {
      o += "  step " + std::to_string(so.step) + " computed " + figuresText(so.computed);
      if (so.lanes) o += " lanes " + figuresText(*so.lanes);
      if (so.preparing) o += " preparing " + std::to_string(*so.preparing);
      o += "\n";
    }
    for (const auto& b : da.bubbles) {
      o += "  bubble " + std::to_string(b.range.start) + " " + std::to_string(b.range.end) + " step " +
           std::to_string(b.step) + " cause " + core::bubbleCauseKey(b.cause) + " before " + std::to_string(b.before.lane) +
           ":" + std::to_string(b.before.index) + " after " + std::to_string(b.after.lane) + ":" +
           std::to_string(b.after.index) + " host " + std::to_string(b.hostSlices.size()) + " detail " + b.detail +
           "\n    chain " + b.chain.path;
      for (const auto& l : b.chain.links)
        o += std::string(" ") + core::chainLayerKey(l.layer) + "=" + std::to_string(l.slice.lane) + ":" +
             std::to_string(l.slice.index) + "(" + std::string(l.via) + ")";
      for (auto m : b.chain.missing) o += std::string(" -") + core::chainLayerKey(m);
      if (b.chain.launchLatency) o += " latency " + std::to_string(*b.chain.launchLatency);
      o += "\n";
    }
  }
  o += "verdict " + ra.verdict.summary + "\n";
  for (const auto& s : ra.verdict.suggestions) o += "suggest " + s + "\n";
  for (const auto& n : ra.notes) o += "note " + n + "\n";
  (void)trace;
  return o;
}

void row(const std::string& label, Timing t) { std::printf("%-48s %10.1f %10.1f\n", label.c_str(), t.wall, t.cpu); }

}  // namespace

int main(int argc, char** argv) {
  namespace core = npuscope::core;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--repeat N] [--query TEXT]\n", argv[0]);
    return 2;
  }
  int repeat = 5;
  int loop = 0;  // --loop N: only run the analyses N times after loading (for a profiler)
  std::string query = "matmul", dump;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--query")) query = argv[i + 1];
    else if (!std::strcmp(argv[i], "--dump")) dump = argv[i + 1];
    else if (!std::strcmp(argv[i], "--loop")) loop = std::atoi(argv[i + 1]);
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto loaded = core::loadProfile(argv[1]);
  if (!loaded.ok()) {
    std::fprintf(stderr, "cannot load: %s\n", loaded.error.c_str());
    return 1;
  }
  const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto& rank = loaded.profile->ranks.front();
  const core::Trace& trace = *rank.trace;
  const core::KernelDetails* kernels = rank.kernels.get();
  std::printf("file %s: %llu events, %zu slices, %zu flows, %zu strings; loadProfile %.0f ms\n\n", argv[1],
              static_cast<unsigned long long>(trace.eventCount), trace.sliceCount(), trace.flows.size(), trace.strings.size(), loadMs);
  if (loop > 0) {
    for (int i = 0; i < loop; ++i) {
      const auto a = core::analyzeRank(trace, kernels, nullptr);
      (void)core::adviseRank(trace, kernels, a, nullptr);
      for (auto layer : {core::StatsLayer::Python, core::StatsLayer::Cann, core::StatsLayer::Kernels,
                         core::StatsLayer::Communication, core::StatsLayer::Overlap})
        (void)core::computeStats(trace, layer, std::nullopt, kernels);
    }
    return 0;
  }
  std::printf("%-48s %10s %10s\n", "query (median of runs)", "wall ms", "cpu ms");

  // Cold: the very first analyzeRank after load (no caches of ours warmed).
  {
    rusage u0{}, u1{};
    getrusage(RUSAGE_SELF, &u0);
    const double c0 = cpuMs();
    const auto w0 = std::chrono::steady_clock::now();
    (void)core::analyzeRank(trace, kernels, nullptr);
    getrusage(RUSAGE_SELF, &u1);
    row("analyzeRank, first call (" + std::to_string(u1.ru_minflt - u0.ru_minflt) + " minor, " +
            std::to_string(u1.ru_majflt - u0.ru_majflt) + " major faults)",
        {std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count(),
                                    cpuMs() - c0});
  }
  std::size_t bubbles = 0;
  const Timing rankT = measure(repeat, [&] {
    const auto a = core::analyzeRank(trace, kernels, nullptr);
    bubbles = a.devices.empty() ? 0 : a.devices.front().bubbles.size();
  });
  row("analyzeRank (overlap, bubbles, chains, verdict)", rankT);
  std::vector<core::StepWindow> steps;
  row("  stepWindows", measure(repeat, [&] { steps = core::stepWindows(trace); }));
  const auto ra = core::analyzeRank(trace, kernels, nullptr);
  const int device = ra.devices.empty() ? -1 : ra.devices.front().device;
  row("  collectDeviceTasks (first device)",
      measure(repeat, [&] { (void)core::detail::collectDeviceTasks(trace, device, kernels); }));
  if (!ra.devices.empty())
    row("  findBubbles (first device)",
        measure(repeat, [&] { (void)core::detail::findBubbles(trace, ra.devices.front(), ra.steps, {}); }));
  if (!ra.devices.empty()) {
    const core::DeviceAnalysis& da = ra.devices.front();
    const auto tasks = core::detail::collectDeviceTasks(trace, device, kernels);
    row("  commBreakdown (first device)",
        measure(repeat, [&] { (void)core::commBreakdown(trace, device, da.commNotOverlapped, nullptr); }));
    row("  computeBreakdown (first device)",
        measure(repeat, [&] { (void)core::computeBreakdown(trace, tasks.computeTasks, kernels); }));
    row("  clockSkew (first device)", measure(repeat, [&] { (void)core::clockSkew(trace, device); }));
    row("  fanOut (first device)", measure(repeat, [&] { (void)core::fanOut(trace, device); }));
    row("  findBubbles with every gap's cause (first device)", measure(repeat, [&] {
          std::size_t found = 0;
          core::TimeNs foundNs = 0;
          core::CauseTotals causes;
          (void)core::detail::findBubbles(trace, da, ra.steps, {}, &found, &foundNs, &causes);
        }));
  }
  row("  makeVerdict", measure(repeat, [&] { (void)core::makeVerdict(trace, ra); }));
  std::size_t findings = 0;
  const Timing adviseT = measure(repeat, [&] { findings = core::adviseRank(trace, kernels, ra, nullptr).findings.size(); });
  row("adviseRank (advisor rules)", adviseT);
  {
    // Every step of adviseRank, in its order, so that the rows add up to its total (issue 43 item 3):
    // the context, each rule, the operator tree, then the per-finding steps-with-evidence and
    // at-stake bounds and the sort.
    const core::AdvisorThresholds th;
    const core::detail::AdvisorContext shared(trace, kernels, ra, th);
    std::vector<core::Finding> out;
    Timing parts;
    const auto rule = [&](const char* name, const std::function<void(const core::detail::AdvisorContext&)>& fn) {
      const Timing t = measure(repeat, [&] {
        out.clear();
        fn(shared);
      });
      parts.wall += t.wall;
      parts.cpu += t.cpu;
      row(std::string("  ") + name, t);
    };
    rule("AdvisorContext", [&](const auto&) { const core::detail::AdvisorContext c(trace, kernels, ra, th); });
    rule("ruleMatmul", [&](const auto& c) { core::detail::ruleMatmul(c, "", out); });
    rule("ruleAicpu", [&](const auto& c) { core::detail::ruleAicpu(c, out); });
    rule("ruleAclop", [&](const auto& c) { core::detail::ruleAclop(c, out); });
    rule("ruleShortOps", [&](const auto& c) { core::detail::ruleShortOps(c, out); });
    rule("ruleTransfers", [&](const auto& c) { core::detail::ruleTransfers(c, out); });
    rule("ruleSyncStream", [&](const auto& c) { core::detail::ruleSyncStream(c, out); });
    rule("ruleGc", [&](const auto& c) { core::detail::ruleGc(c, out); });
    rule("rulePipelines", [&](const auto& c) { core::detail::rulePipelines(c, out); });
    rule("ruleBlockDim", [&](const auto& c) { core::detail::ruleBlockDim(c, "", out); });
    rule("ruleEnvironment", [&](const auto&) { core::detail::ruleEnvironment(nullptr, out); });
    rule("ruleMemory", [&](const auto& c) { core::detail::ruleMemory(c, nullptr, out); });
    rule("ruleCommAlignment", [&](const auto& c) { core::detail::ruleCommAlignment(c, out); });
    rule("ruleCommBandwidth", [&](const auto& c) { core::detail::ruleCommBandwidth(c, nullptr, "", out); });
    rule("ruleCommPackets", [&](const auto& c) { core::detail::ruleCommPackets(c, nullptr, out); });
    rule("ruleAicoreFreq", [&](const auto& c) { core::detail::ruleAicoreFreq(c, out); });
    rule("ruleDynamicShapes", [&](const auto& c) { core::detail::ruleDynamicShapes(c, out); });
    rule("ruleAffinityApi", [&](const auto& c) { core::detail::ruleAffinityApi(c, out); });
    rule("ruleFusibleOps", [&](const auto& c) { core::detail::ruleFusibleOps(c, out); });
    rule("ruleForwardBackward", [&](const auto& c) { core::detail::ruleForwardBackward(c, out); });
    if (kernels) rule("ruleOperatorTree", [&](const auto& c) { (void)core::detail::ruleOperatorTree(c, "", out); });
    const std::vector<core::Finding> all = core::adviseRank(trace, kernels, ra, nullptr).findings;
    rule("stepsWithEvidence, boundAtStake (every finding)", [&](const auto& c) {
      for (core::Finding f : all) {
        f.stepsWithEvidence = core::detail::stepsWithEvidence(trace, ra.steps, f);
        if (!ra.devices.empty()) core::detail::boundAtStake(c, f);
      }
    });
    row("  (the rows above added up)", parts);
  }
  row("dispatchStats (report, summary)", measure(repeat, [&] { (void)core::dispatchStats(trace, ra); }));
  {
    const core::RankAdvice advice = core::adviseRank(trace, kernels, ra, nullptr);
    const auto stats = core::dispatchStats(trace, ra);
    row("adviceJson", measure(repeat, [&] { (void)core::adviceJson(trace, advice); }));
    const core::OperatorAdvice* ops = advice.operators.get();
    row("operatorsJson", measure(repeat, [&] {
          std::string o;
          core::operatorsJson(o, trace, ops ? &ops->table : nullptr, ops ? ops->tree : std::vector<core::TreeNode>{}, stats);
        }));
  }
  row("reportJson (whole: advice, operators, dispatch statistics, JSON)",
      measure(repeat, [&] { (void)core::reportJson(*loaded.profile, {}); }));

  const core::StatsLayer layers[] = {core::StatsLayer::Python, core::StatsLayer::Cann, core::StatsLayer::Kernels,
                                     core::StatsLayer::Communication, core::StatsLayer::Overlap};
  Timing statsT;
  std::size_t rows = 0;
  for (auto layer : layers) {
    const Timing t = measure(repeat, [&] { rows += core::computeStats(trace, layer, std::nullopt, kernels).rows.size(); });
    statsT.wall += t.wall;
    statsT.cpu += t.cpu;
    row(std::string("computeStats ") + core::statsLayerKey(layer) + " (whole trace)", t);
  }
  if (!steps.empty()) {
    const core::StepWindow& mid = steps[steps.size() / 2];
    for (auto layer : layers)
      row(std::string("computeStats ") + core::statsLayerKey(layer) + " (step " + std::to_string(mid.number) + ")",
          measure(repeat, [&] { (void)core::computeStats(trace, layer, mid.host, kernels); }));
  }
  std::size_t hits = 0;
  row("findSlices \"" + query + "\"", measure(repeat, [&] { hits = core::findSlices(trace, {query}).size(); }));
  row("findSlices regex \"^aten::(add|mul)\"",
      measure(repeat, [&] { (void)core::findSlices(trace, {"^aten::(add|mul)", true}); }));
  row("analyses total (analyzeRank + computeStats x5)", {rankT.wall + statsT.wall, rankT.cpu + statsT.cpu});
  row("  + adviseRank", {rankT.wall + statsT.wall + adviseT.wall, rankT.cpu + statsT.cpu + adviseT.cpu});
  if (!dump.empty()) {
    writeFile(dump + ".analysis.txt", analysisText(trace, ra));
    writeFile(dump + ".advice.json", core::adviceJson(trace, core::adviseRank(trace, kernels, ra, nullptr)));
    for (auto layer : layers) {
      writeFile(dump + ".stats-" + core::statsLayerKey(layer) + ".csv",
                core::statsText(core::computeStats(trace, layer, std::nullopt, kernels)) +
                    core::statsCsv(core::computeStats(trace, layer, std::nullopt, kernels)));
      if (!steps.empty())
        writeFile(dump + ".stats-" + core::statsLayerKey(layer) + "-step.csv",
                  core::statsText(core::computeStats(trace, layer, steps[steps.size() / 2].host, kernels)) +
                      core::statsCsv(core::computeStats(trace, layer, steps[steps.size() / 2].host, kernels)));
    }
    std::string hitsText;
    for (const auto& r : core::findSlices(trace, {query})) hitsText += std::to_string(r.lane) + ":" + std::to_string(r.index) + "\n";
    writeFile(dump + ".search.txt", hitsText);
  }
  std::printf("(bubbles %zu, search hits %zu, stats rows %zu, findings %zu)\n", bubbles, hits,
              rows / static_cast<std::size_t>(repeat), findings);
  return 0;
}
