// SPDX-License-Identifier: MIT
#include "core/report/html_report.h"

#include "core/analysis/rank_summary.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/analysis/operators.h"
#include "core/analysis/profile_analysis.h"
#include "core/base/i18n.h"
#include "core/base/time_format.h"
#include "core/report/report.h"

namespace npuscope::core {

std::string htmlEscape(std::string_view text) {
  std::string o;
  o.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

namespace {

constexpr const char* kStyle =
    "body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;margin:24px auto;max-width:1280px;"
    "color:#1d232b;line-height:1.45}h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
    "border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}.meta{color:#57606a;"
    "font-size:13px}.verdict{background:#f6f8fa;border-left:4px solid #0969da;padding:8px 12px;margin:8px 0}"
    "table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}th,td{border:1px solid #d0d7de;padding:3px 8px;"
    "text-align:left;vertical-align:top}th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".issue{color:#cf222e;font-weight:600}.ok{color:#1a7f37}.unknown{color:#57606a}.info{color:#0969da}"
    ".pos{color:#cf222e}.neg{color:#1a7f37}figure{margin:12px 0}figure img{max-width:100%;border:1px solid #d0d7de}"
    "figcaption{font-size:13px;color:#57606a}.legend span{display:inline-block;margin-right:14px;font-size:12px}"
    ".sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}";

constexpr const char* kComputing = "#4c9be8";
constexpr const char* kComm = "#e8804c";
constexpr const char* kFree = "#c9ced6";

std::string ms(TimeNs ns) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1e6);
  return b;
}

std::string pct(TimeNs part, TimeNs whole) {
  return whole > 0 ? formatPercent(static_cast<double>(part) / static_cast<double>(whole), 1) : std::string("—");
}

std::string td(const std::string& text, bool number = false) {
  return std::string(number ? "<td class=\"n\">" : "<td>") + htmlEscape(text) + "</td>";
}

std::string th(const std::string& text) { return "<th>" + htmlEscape(text) + "</th>"; }

/// A stacked bar of Computing / Communication (Not Overlapped) / Free, `width` px, as inline SVG.
std::string shareBar(const OverlapFigures& f, int width = 360) {
  const double total = static_cast<double>(f.computing + f.commNotOverlapped + f.free);
  std::string o = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                  "\" height=\"14\" role=\"img\"><rect width=\"" + std::to_string(width) + "\" height=\"14\" fill=\"#eee\"/>";
  if (total > 0) {
    double x = 0;
    const std::pair<TimeNs, const char*> parts[] = {{f.computing, kComputing}, {f.commNotOverlapped, kComm}, {f.free, kFree}};
    for (const auto& [v, colour] : parts) {
      const double w = width * static_cast<double>(v) / total;
      char b[160];
      std::snprintf(b, sizeof b, "<rect x=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\"/>", x, w, colour);
      o += b;
      x += w;
    }
  }
  return o + "</svg>";
}

std::string legend() {
  return std::string("<p class=\"legend\"><span><i class=\"sw\" style=\"background:") + kComputing + "\"></i>" +
         htmlEscape(npuTr("npuscope::core::Html", "Computing")) + "</span><span><i class=\"sw\" style=\"background:" + kComm +
         "\"></i>" + htmlEscape(npuTr("npuscope::core::Html", "Communication (Not Overlapped)")) +
         "</span><span><i class=\"sw\" style=\"background:" + kFree + "\"></i>" +
         htmlEscape(npuTr("npuscope::core::Html", "Free")) + "</span></p>";
}

std::string head(const std::string& title, const HtmlMeta& meta) {
  return "<!DOCTYPE html>\n<html lang=\"" + htmlEscape(meta.lang) + "\"><head><meta charset=\"utf-8\"><title>" +
         htmlEscape(title) + "</title><style>" + kStyle + "</style></head><body>\n";
}

std::string metaLine(const HtmlMeta& meta) {
  return "<p class=\"meta\">" +
         htmlEscape(i18n::format(npuTr("npuscope::core::Html", "Written by npuscope %1 on %2."), {meta.version, meta.date})) +
         "</p>\n";
}

void imagesHtml(std::string& o, const std::vector<HtmlImage>& images) {
  if (images.empty()) return;
  o += "<h2 id=\"timeline\">" + htmlEscape(npuTr("npuscope::core::Html", "Timeline")) + "</h2>\n";
  for (const HtmlImage& im : images) {
    o += "<figure><h3>" + htmlEscape(im.title) + "</h3>";
    if (im.data.starts_with("<svg")) o += im.data;
    else o += "<img alt=\"" + htmlEscape(im.title) + "\" src=\"" + htmlEscape(im.data) + "\">";
    if (!im.caption.empty()) o += "<figcaption>" + htmlEscape(im.caption) + "</figcaption>";
    o += "</figure>\n";
  }
}

void figuresTable(std::string& o, const DeviceAnalysis& d) {
  o += "<table><tr>" + th(npuTr("npuscope::core::Html", "Scope")) + th(npuTr("npuscope::core::Html", "Computing (ms)")) +
       th(npuTr("npuscope::core::Html", "Communication (Not Overlapped) (ms)")) + th(npuTr("npuscope::core::Html", "Free (ms)")) +
       th(npuTr("npuscope::core::Html", "Device time (ms)")) + th(npuTr("npuscope::core::Html", "Shares")) + "</tr>";
  auto row = [&](const std::string& scope, const OverlapFigures& f) {
    const TimeNs total = f.computing + f.commNotOverlapped + f.free;
    o += "<tr>" + td(scope) + td(ms(f.computing) + " (" + pct(f.computing, total) + ")", true) +
         td(ms(f.commNotOverlapped) + " (" + pct(f.commNotOverlapped, total) + ")", true) +
         td(ms(f.free) + " (" + pct(f.free, total) + ")", true) + td(ms(f.e2e), true) + "<td>" + shareBar(f) + "</td></tr>";
  };
  row(npuTr("npuscope::core::Html", "Whole capture"), d.computed);
  for (const StepOverlap& s : d.steps)
    if (s.step >= 0) row(i18n::format(npuTr("npuscope::core::Html", "Step %1"), {std::to_string(s.step)}), s.computed);
  o += "</table>" + legend();
}

void bubblesTable(std::string& o, const Trace& t, const DeviceAnalysis& d) {
  if (d.bubbles.empty()) return;
  o += "<h3>" +
       htmlEscape(i18n::format(npuTr("npuscope::core::Html", "Bubbles: %1 device idle gaps of 10 us or more, %2 ms in all; the longest"),
                               {std::to_string(d.gapsFound), ms(d.gapsFoundNs)})) +
       "</h3><table><tr>" + th("#") + th(npuTr("npuscope::core::Html", "Duration (us)")) + th(npuTr("npuscope::core::Html", "Step")) +
       th(npuTr("npuscope::core::Html", "Cause")) + th(npuTr("npuscope::core::Html", "Task that ends it")) +
       th(npuTr("npuscope::core::Html", "Dispatch chain")) + "</tr>";
  for (std::size_t i = 0; i < d.bubbles.size() && i < 15; ++i) {
    const Bubble& b = d.bubbles[i];
    std::string chain;
    for (const ChainLink& l : b.chain.links) {
      if (!l.slice.valid()) continue;
      if (!chain.empty()) chain += " → ";
      chain += std::string(t.sliceName(l.slice));
    }
    if (chain.empty()) chain = npuTr("npuscope::core::Html", "not recorded");
    char dur[32];
    std::snprintf(dur, sizeof dur, "%.3f", static_cast<double>(b.range.duration()) / 1e3);
    o += "<tr>" + td(std::to_string(i + 1), true) + td(dur, true) + td(b.step >= 0 ? std::to_string(b.step) : "—", true) +
         td(i18n::lookup("npuscope::widgets::AnalysisLabels", bubbleCauseLabel(b.cause))) +
         td(b.after.valid() ? std::string(t.sliceName(b.after)) : "—") + td(chain) + "</tr>";
  }
  o += "</table>";
}

void adviceTable(std::string& o, const RankAdvice& a) {
  if (a.findings.empty()) return;
  o += "<h3>" + htmlEscape(npuTr("npuscope::core::Html", "Advice")) + "</h3><table><tr>" + th(npuTr("npuscope::core::Html", "Severity")) +
       th(npuTr("npuscope::core::Html", "Finding")) + th(npuTr("npuscope::core::Html", "At stake per step")) +
       th(npuTr("npuscope::core::Html", "Figures")) + th(npuTr("npuscope::core::Html", "What to do")) + "</tr>";
  for (const Finding& f : a.findings) {
    if (f.severity == Severity::Unknown) continue;  // the report's text and JSON keep them
    o += std::string("<tr><td class=\"") + severityKey(f.severity) + "\">" + htmlEscape(severityKey(f.severity)) + "</td>" +
         td(f.title) + td(f.atStakePerStep > 0 ? formatDuration(f.atStakePerStep) : "", true) + td(f.numbers) + td(f.fix) + "</tr>";
  }
  o += "</table>";
}

void clusterTables(std::string& o, const Profile& p) {
  if (!p.analysis || p.analysis->ranks.size() < 2) return;
  const ProfileAnalysis& a = *p.analysis;
  o += "<h2 id=\"ranks\">" + htmlEscape(npuTr("npuscope::core::Html", "Ranks compared")) + "</h2>";
  for (const std::string& f : a.findings) o += "<p class=\"verdict\">" + htmlEscape(f) + "</p>";
  o += "<table><tr>" + th(npuTr("npuscope::core::Html", "Rank")) + th(npuTr("npuscope::core::Html", "Computing (ms)")) +
       th(npuTr("npuscope::core::Html", "Communication (Not Overlapped) (ms)")) + th(npuTr("npuscope::core::Html", "Free (ms)")) +
       th(npuTr("npuscope::core::Html", "From")) + "</tr>";
  for (const RankTimeFigures& r : a.ranks)
    o += "<tr>" + td(std::to_string(r.rank), true) + td(ms(r.computing), true) + td(ms(r.commNotOverlapped), true) +
         td(ms(r.free), true) + td(r.source) + "</tr>";
  o += "</table>";
  if (a.comm.collectives.empty()) return;
  o += "<h3>" + htmlEscape(npuTr("npuscope::core::Html", "Collectives (the 20 with the most time lost)")) + "</h3><table><tr>" +
       th(npuTr("npuscope::core::Html", "Collective")) + th(npuTr("npuscope::core::Html", "Step")) +
       th(npuTr("npuscope::core::Html", "Holder")) + th(npuTr("npuscope::core::Html", "Largest skew (us)")) +
       th(npuTr("npuscope::core::Html", "Lost waiting for it (us)")) + "</tr>";
  std::vector<const Collective*> order;
  for (const Collective& c : a.comm.collectives) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [](const Collective* x, const Collective* y) { return x->lost > y->lost; });
  for (std::size_t i = 0; i < order.size() && i < 20; ++i) {
    const Collective& c = *order[i];
    char skew[32], lost[32];
    std::snprintf(skew, sizeof skew, "%.3f", static_cast<double>(c.maxSkew) / 1e3);
    std::snprintf(lost, sizeof lost, "%.3f", static_cast<double>(c.lost) / 1e3);
    o += "<tr>" + td(c.type + " #" + std::to_string(c.sequence) + " (" + c.group + ")") +
         td(c.step >= 0 ? std::to_string(c.step) : "—", true) + td(holderLabel(c), true) +
         td(skew, true) + td(lost, true) + "</tr>";
  }
  o += "</table>";
}

}  // namespace

std::string reportHtml(const Profile& profile, const AdvisorThresholds& thresholds, const HtmlMeta& meta,
                       const std::vector<HtmlImage>& images) {
  std::string o = head("npuscope — " + profile.path, meta);
  o += "<h1>" + htmlEscape(i18n::format(npuTr("npuscope::core::Html", "Performance report: %1"), {profile.path})) + "</h1>\n";
  o += metaLine(meta);
  for (const std::string& m : profile.messages) o += "<p class=\"meta\">" + htmlEscape(m) + "</p>";
  for (const RankProfile& rp : profile.ranks) {
    o += "<h2>" + htmlEscape(rp.source.label) + "</h2>\n";
    if (rp.summary) {  // read from a summary: what it says, and where the rank's trace lies
      const RankSummary& s = *rp.summary;
      o += "<p class=\"meta\">" +
           htmlEscape(i18n::format(npuTr("npuscope::core::Html", "From its summary, made on %1 from %2"),
                                   {s.host.empty() ? std::string("?") : s.host, s.path})) +
           "</p>";
      if (s.full) {
        o += "<div class=\"verdict\">" + htmlEscape(s.verdictSummary.empty() ? s.headline : s.verdictSummary) + "</div>";
        if (!s.findings.empty()) {
          o += "<ul>";
          for (const std::string& f : s.findings) o += "<li>" + htmlEscape(f) + "</li>";
          o += "</ul>";
        }
      } else if (!s.error.empty()) {
        o += "<p>" + htmlEscape(s.error) + "</p>";
      }
      continue;
    }
    if (!rp.trace || !rp.analysis) {
      o += "<p>" + htmlEscape(rp.error.empty() ? npuTr("npuscope::core::Html", "no analysis") : rp.error) + "</p>";
      continue;
    }
    const RankAnalysis& a = *rp.analysis;
    // The summary often starts with the headline already ("Communication bound: ...").
    o += "<div class=\"verdict\">";
    if (!a.verdict.summary.starts_with(a.verdict.headline)) o += "<b>" + htmlEscape(a.verdict.headline) + "</b>: ";
    o += htmlEscape(a.verdict.summary);
    if (!a.verdict.suggestions.empty()) {
      o += "<ul>";
      for (const std::string& s : a.verdict.suggestions) o += "<li>" + htmlEscape(s) + "</li>";
      o += "</ul>";
    }
    o += "</div>\n";
    for (const DeviceAnalysis& d : a.devices) {
      o += "<h3>" + htmlEscape(i18n::format(npuTr("npuscope::core::Html", "Device %1: where the device time goes"),
                                            {std::to_string(d.device)})) +
           "</h3>";
      figuresTable(o, d);
      bubblesTable(o, *rp.trace, d);
    }
    const RankAdvice advice = adviseRankInProfile(profile, static_cast<std::size_t>(&rp - profile.ranks.data()), thresholds);
    adviceTable(o, advice);
  }
  clusterTables(o, profile);
  imagesHtml(o, images);
  o += "</body></html>\n";
  return o;
}

std::string compareHtml(const CompareResult& r, const HtmlMeta& meta, const std::vector<HtmlImage>& images) {
  std::string o = head("npuscope — compare", meta);
  o += "<h1>" + htmlEscape(npuTr("npuscope::core::Html", "Two captures compared")) + "</h1>\n";
  o += "<p>A: " + htmlEscape(r.a) + "<br>B: " + htmlEscape(r.b) + "</p>" + metaLine(meta);
  o += "<p class=\"verdict\">" + htmlEscape(r.verdict) + "</p>\n";
  for (const std::string& n : r.notes) o += "<p class=\"meta\">" + htmlEscape(n) + "</p>";
  auto deltaCell = [](TimeNs d) {
    char b[48];
    std::snprintf(b, sizeof b, "%+.3f", static_cast<double>(d) / 1e6);
    return std::string("<td class=\"n ") + (d > 0 ? "pos" : d < 0 ? "neg" : "") + "\">" + b + "</td>";
  };
  for (const CompareRank& k : r.ranks) {
    o += "<h2>" + htmlEscape(i18n::format(npuTr("npuscope::core::Html", "Rank %1"), {std::to_string(k.rank)})) + "</h2>";
    for (const std::string& n : k.notes) o += "<p class=\"meta\">" + htmlEscape(n) + "</p>";
    if (!k.a || !k.b) continue;
    o += "<table><tr>" + th("") + th("A (ms)") + th("B (ms)") + th("B - A (ms)") + th(npuTr("npuscope::core::Html", "Shares")) + "</tr>";
    const std::pair<std::string, TimeNs OverlapFigures::*> parts[] = {
        {npuTr("npuscope::core::Html", "Computing"), &OverlapFigures::computing},
        {npuTr("npuscope::core::Html", "Communication (Not Overlapped)"), &OverlapFigures::commNotOverlapped},
        {npuTr("npuscope::core::Html", "Free"), &OverlapFigures::free},
        {npuTr("npuscope::core::Html", "Device time"), &OverlapFigures::e2e}};
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& [name, m] = parts[i];
      o += "<tr>" + td(name) + td(ms((*k.a).*m), true) + td(ms((*k.b).*m), true) + deltaCell((*k.b).*m - (*k.a).*m);
      if (i == 0) o += "<td rowspan=\"4\">A " + shareBar(*k.a, 300) + "<br>B " + shareBar(*k.b, 300) + "</td>";
      o += "</tr>";
    }
    o += "</table>" + legend();
    o += "<h3>" + htmlEscape(npuTr("npuscope::core::Html", "Operator types that changed most")) + "</h3><table><tr>" +
         th(npuTr("npuscope::core::Html", "Type")) + th("A (ms)") + th("B (ms)") + th("B - A (ms)") +
         th(npuTr("npuscope::core::Html", "Calls A / B")) + "</tr>";
    for (std::size_t i = 0; i < k.operatorTypes.size() && i < 15; ++i) {
      const CompareRow& row = k.operatorTypes[i];
      o += "<tr>" + td(row.key) + td(ms(row.a), true) + td(ms(row.b), true) + deltaCell(row.delta()) +
           td(std::to_string(row.aCount) + " / " + std::to_string(row.bCount), true) + "</tr>";
    }
    o += "</table><h3>" + htmlEscape(npuTr("npuscope::core::Html", "Bubble time per cause")) + "</h3><table><tr>" +
         th(npuTr("npuscope::core::Html", "Cause")) + th("A (ms)") + th("B (ms)") + th("B - A (ms)") + "</tr>";
    for (const CompareRow& row : k.bubbleCauses)
      o += "<tr>" + td(row.key) + td(ms(row.a), true) + td(ms(row.b), true) + deltaCell(row.delta()) + "</tr>";
    o += "</table>";
  }
  imagesHtml(o, images);
  o += "</body></html>\n";
  return o;
}

}  // namespace npuscope::core
