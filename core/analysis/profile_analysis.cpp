// SPDX-License-Identifier: MIT
#include "core/analysis/profile_analysis.h"
#include "core/base/time_limits.h"

#include "core/base/json_text.h"
#include "core/base/time_format.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

#include "core/profile/profile.h"
#include "core/base/i18n.h"

namespace npuscope::core {

namespace {

TimeNs usToNs(double us) { return clampedNs(us * 1000.0); }

/// Figures of one rank, or false when it has none (no device analysis and no CSV rows).
bool rankFigures(const RankProfile& rp, RankTimeFigures& f) {
  const DeviceAnalysis* dev = nullptr;
  if (rp.analysis && !rp.analysis->cancelled && !rp.analysis->devices.empty()) dev = &rp.analysis->devices.front();
  f.rank = rp.rank();
  f.device = dev ? dev->device : INT_MAX;
  if (!dev)  // no trace analysis: the lowest Device_id of the CSV (-1 when the column is absent)
    for (const StepTraceRow& row : rp.stepTrace) f.device = std::min(f.device, row.device);
  // step_trace_time.csv rows of that device, summed over the steps.
  bool anyRow = false;
  TimeNs c = 0, m = 0, fr = 0;
  for (const StepTraceRow& row : rp.stepTrace) {
    if (row.device >= 0 && f.device >= 0 && row.device != f.device) continue;
    c += usToNs(row.computing);
    m += usToNs(row.commNotOverlapped);
    fr += usToNs(row.free);
    anyRow = true;
  }
  if (f.device == INT_MAX) f.device = -1;
  if (anyRow) {
    f.computing = c;
    f.commNotOverlapped = m;
    f.free = fr;
    f.source = "step_trace_time.csv";
    return true;
  }
  if (!dev) return false;
  const OverlapFigures& o = dev->lanes ? *dev->lanes : dev->computed;
  f.computing = o.computing;
  f.commNotOverlapped = o.commNotOverlapped;
  f.free = o.free;
  f.source = dev->lanes ? "Overlap Analysis lanes" : "device tasks";
  return true;
}

std::string us3(double ns) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", ns / 1000.0);
  return b;
}

std::string percent(double ratio) { return formatPercent(ratio, 2); }

}  // namespace

std::vector<const SlowRankDimension*> ProfileAnalysis::bottlenecks() const {
  std::vector<const SlowRankDimension*> out;
  for (const auto& d : slowRank)
    if (d.bottleneck) out.push_back(&d);
  return out;
}

ProfileAnalysis analyzeProfile(const Profile& profile) {
  ProfileAnalysis pa;
  for (std::size_t i = 0; i < profile.ranks.size(); ++i) {
    RankTimeFigures f;
    f.rankIndex = i;
    if (rankFigures(profile.ranks[i], f)) pa.ranks.push_back(f);
    else
      pa.notes.push_back(i18n::format(npuTr("npuscope::core::ProfileAnalysis", "%1: no device figures, left out of the cross-rank comparison"),
                                      {profile.ranks[i].source.label}));
  }
  if (pa.ranks.empty()) return pa;
  double sum = 0;
  for (const auto& f : pa.ranks) sum += static_cast<double>(f.total());
  pa.meanTotal = sum / static_cast<double>(pa.ranks.size());
  const std::string& firstSource = pa.ranks.front().source;
  if (std::any_of(pa.ranks.begin(), pa.ranks.end(), [&](const RankTimeFigures& f) { return f.source != firstSource; }))
    pa.notes.push_back(npuTr("npuscope::core::ProfileAnalysis", "the ranks' figures come from different sources (see each rank's source)"));
  if (pa.ranks.size() < 2) return pa;
  struct Dim {
    const char* name;
    TimeNs RankTimeFigures::*field;
  };
  const Dim dims[] = {{"Computing", &RankTimeFigures::computing},
                      {"Communication(Not Overlapped)", &RankTimeFigures::commNotOverlapped},
                      {"Free", &RankTimeFigures::free}};
  for (const Dim& dim : dims) {
    SlowRankDimension d;
    d.name = dim.name;
    const RankTimeFigures* maxF = &pa.ranks.front();
    d.max = d.min = maxF->*dim.field;
    for (const auto& f : pa.ranks) {
      const TimeNs v = f.*dim.field;
      if (v > d.max) {
        d.max = v;
        maxF = &f;
      }
      d.min = std::min(d.min, v);
    }
    d.maxRank = maxF->rank;
    d.maxRankIndex = maxF->rankIndex;
    d.ratio = pa.meanTotal > 0 ? static_cast<double>(d.max - d.min) / pa.meanTotal : 0.0;
    d.bottleneck = d.ratio > kSlowRankThreshold;
    pa.slowRank.push_back(d);
  }
  return pa;
}

std::string profileAnalysisJson(const ProfileAnalysis& a) {
  std::string o = "{\"ranks\": [";
  for (std::size_t i = 0; i < a.ranks.size(); ++i) {
    const RankTimeFigures& f = a.ranks[i];
    if (i) o += ", ";
    o += "{\"rank\": " + std::to_string(f.rank) + ", \"device\": " + std::to_string(f.device) + ", \"source\": ";
    appendJsonString(o, f.source);
    o += ", \"computing_us\": " + us3(static_cast<double>(f.computing)) +
         ", \"communication_not_overlapped_us\": " + us3(static_cast<double>(f.commNotOverlapped)) +
         ", \"free_us\": " + us3(static_cast<double>(f.free)) + ", \"total_us\": " + us3(static_cast<double>(f.total())) +
         "}";
  }
  o += "], \"mean_total_us\": " + us3(a.meanTotal) + ", \"slow_rank\": ";
  if (a.slowRank.empty()) {
    o += "null";
  } else {
    char thr[32];
    std::snprintf(thr, sizeof thr, "%g", kSlowRankThreshold);
    o += "{\"threshold\": " + std::string(thr) + ", \"dimensions\": [";
    for (std::size_t i = 0; i < a.slowRank.size(); ++i) {
      const SlowRankDimension& d = a.slowRank[i];
      if (i) o += ", ";
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.6g", d.ratio);
      o += "{\"name\": ";
      appendJsonString(o, d.name);
      o += ", \"max_us\": " + us3(static_cast<double>(d.max)) + ", \"min_us\": " + us3(static_cast<double>(d.min)) +
           ", \"max_rank\": " + std::to_string(d.maxRank) + ", \"ratio\": " + ratio +
           ", \"bottleneck\": " + (d.bottleneck ? "true" : "false") + "}";
    }
    o += "]}";
  }
  o += ", \"notes\": [";
  for (std::size_t i = 0; i < a.notes.size(); ++i) {
    if (i) o += ", ";
    appendJsonString(o, a.notes[i]);
  }
  o += "]}";
  return o;
}

std::string profileAnalysisLine(const ProfileAnalysis& a) {
  if (a.slowRank.empty())
    return i18n::format(npuTr("npuscope::core::ProfileAnalysis", "slow rank (msprof-analyze rule): needs 2 or more ranks with figures, %1 here"),
                        {std::to_string(a.ranks.size())});
  std::string s = i18n::format(npuTr("npuscope::core::ProfileAnalysis", "slow rank (msprof-analyze rule, %1, threshold %2 of the mean rank time): "),
                               {countNoun(a.ranks.size(), npuTr("npuscope::core::ProfileAnalysis", "rank"), npuTr("npuscope::core::ProfileAnalysis", "ranks")),
                                percent(kSlowRankThreshold)});
  const auto bad = a.bottlenecks();
  if (bad.empty()) {
    const auto widest = std::max_element(a.slowRank.begin(), a.slowRank.end(),
                                         [](const SlowRankDimension& x, const SlowRankDimension& y) { return x.ratio < y.ratio; });
    return s + i18n::format(npuTr("npuscope::core::ProfileAnalysis", "no bottleneck; largest gap %1 %2 (max on rank %3)"),
                            {widest->name, percent(widest->ratio), std::to_string(widest->maxRank)});
  }
  for (std::size_t i = 0; i < bad.size(); ++i)
    s += (i ? "; " : "") + i18n::format(npuTr("npuscope::core::ProfileAnalysis", "%1 %2 (max on rank %3)"),
                                        {bad[i]->name, percent(bad[i]->ratio), std::to_string(bad[i]->maxRank)});
  return s;
}

}  // namespace npuscope::core
