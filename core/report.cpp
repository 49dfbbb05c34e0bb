// SPDX-License-Identifier: MIT
#include "core/report.h"

#include <map>
#include <sstream>

#include "core/time_format.h"

namespace npuscope::core {

namespace {

void jsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

/// Bound flows per category, in name order.
std::map<std::string, std::size_t> flowsPerCategory(const Trace& t) {
  std::map<std::string, std::size_t> m;
  for (const auto& f : t.flows) ++m[std::string(t.name(f.category))];
  return m;
}

}  // namespace

std::string reportJson(const Profile& profile) {
  std::string o;
  o += "{\"path\": ";
  jsonString(o, profile.path);
  o += ", \"ranks\": [";
  bool firstRank = true;
  for (const RankProfile& rp : profile.ranks) {
    if (!firstRank) o += ", ";
    firstRank = false;
    o += "\n  {\"rank\": " + std::to_string(rp.rank()) + ", \"device\": " + std::to_string(rp.device());
    o += ", \"label\": ";
    jsonString(o, rp.source.label);
    o += ", \"file\": ";
    jsonString(o, rp.source.traceFile);
    if (!rp.trace) {
      o += ", \"error\": ";
      jsonString(o, rp.error);
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
      jsonString(o, t.processes[l.process].name);
      o += ", \"thread\": ";
      jsonString(o, l.name);
      o += ", \"slices\": " + std::to_string(l.sliceCount()) + ", \"depth\": " + std::to_string(l.depthCount()) + "}";
    }
    o += "]";
    o += ", \"counters\": [";
    for (std::size_t i = 0; i < t.counters.size(); ++i) {
      const auto& c = t.counters[i];
      if (i) o += ", ";
      o += "{\"process\": ";
      jsonString(o, t.processes[c.process].name);
      o += ", \"name\": ";
      jsonString(o, t.name(c.name));
      o += ", \"key\": ";
      jsonString(o, t.name(c.key));
      o += ", \"samples\": " + std::to_string(c.ts.size()) + "}";
    }
    o += "]";
    o += ", \"flows\": {";
    bool first = true;
    for (const auto& [cat, n] : flowsPerCategory(t)) {
      if (!first) o += ", ";
      first = false;
      jsonString(o, cat);
      o += ": " + std::to_string(n);
    }
    o += "}, \"warnings\": {";
    first = true;
    for (std::size_t k = 0; k < ImportStats::kKinds; ++k) {
      if (!t.stats.counts[k]) continue;
      if (!first) o += ", ";
      first = false;
      jsonString(o, warningKey(static_cast<ImportWarning>(k)));
      o += ": " + std::to_string(t.stats.counts[k]);
    }
    o += "}, \"notes\": [";
    for (std::size_t i = 0; i < t.notes.size(); ++i) {
      if (i) o += ", ";
      jsonString(o, t.notes[i]);
    }
    o += "]}";
  }
  o += "\n], \"messages\": [";
  for (std::size_t i = 0; i < profile.messages.size(); ++i) {
    if (i) o += ", ";
    jsonString(o, profile.messages[i]);
  }
  o += "]}\n";
  return o;
}

std::string reportText(const Profile& profile) {
  std::ostringstream o;
  o << "npuscope report: " << profile.path << "\n";
  for (const RankProfile& rp : profile.ranks) {
    o << "\n== " << rp.source.label << " (rank " << rp.rank() << ", device " << rp.device() << ")\n";
    if (!rp.trace) {
      o << "   error: " << rp.error << "\n";
      continue;
    }
    const Trace& t = *rp.trace;
    o << "   file:   " << rp.source.traceFile << "\n";
    o << "   events: " << t.eventCount << ", slices: " << t.sliceCount() << ", span: " << formatDuration(t.range.duration())
      << "\n   lanes:\n";
    for (const Lane& l : t.lanes)
      o << "     " << t.processes[l.process].name << " / " << l.name << ": " << l.sliceCount() << " slices\n";
    o << "   flows (bound arrows):";
    for (const auto& [cat, n] : flowsPerCategory(t)) o << " " << cat << "=" << n;
    o << "\n";
    if (t.stats.total()) {
      o << "   warnings:\n";
      for (std::size_t k = 0; k < ImportStats::kKinds; ++k)
        if (t.stats.counts[k])
          o << "     " << t.stats.counts[k] << " x " << warningLabel(static_cast<ImportWarning>(k)) << "\n";
    }
    for (const auto& n : t.notes) o << "   note: " << n << "\n";
  }
  for (const auto& m : profile.messages) o << "\nmessage: " << m << "\n";
  return o.str();
}

}  // namespace npuscope::core
