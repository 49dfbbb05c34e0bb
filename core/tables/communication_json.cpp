// SPDX-License-Identifier: MIT
#include "core/tables/communication_json.h"
#include "core/base/time_limits.h"

#include <cmath>
#include "core/base/file_access.h"

#include <simdjson.h>

namespace npuscope::core {

namespace {

TimeNs msToNs(double ms) {
  if (!std::isfinite(ms)) return 0;
  return clampedNs(ms * 1'000'000.0);
}

/// A number (or a numeric string) at `key` of `o`, in ms -> ns. Missing or non-numeric: 0 and a warning.
TimeNs timeAt(simdjson::dom::object o, std::string_view key, const std::string& where, std::vector<std::string>& warnings) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) {
    warnings.push_back(where + ": no \"" + std::string(key) + "\"");
    return 0;
  }
  double d = 0;
  if (!e.get_double().get(d)) return msToNs(d);
  std::int64_t i = 0;
  if (!e.get_int64().get(i)) return msToNs(static_cast<double>(i));
  std::uint64_t u = 0;
  if (!e.get_uint64().get(u)) return msToNs(static_cast<double>(u));
  std::string_view s;
  if (!e.get_string().get(s)) {
    char* endp = nullptr;
    const std::string str(s);
    d = std::strtod(str.c_str(), &endp);
    if (endp && endp != str.c_str()) return msToNs(d);
  }
  warnings.push_back(where + ": \"" + std::string(key) + "\" is not a number");
  return 0;
}

CommOpTimes readTimes(simdjson::dom::object info, const std::string& where, std::vector<std::string>& w) {
  CommOpTimes t;
  t.elapse = timeAt(info, "Elapse Time(ms)", where, w);
  t.transit = timeAt(info, "Transit Time(ms)", where, w);
  t.wait = timeAt(info, "Wait Time(ms)", where, w);
  t.synchronization = timeAt(info, "Synchronization Time(ms)", where, w);
  t.idle = timeAt(info, "Idle Time(ms)", where, w);
  return t;
}

/// A number (or a numeric string) at `key`, or nullopt.
std::optional<double> numberAt(simdjson::dom::object o, std::string_view key) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) return std::nullopt;
  double d = 0;
  if (!e.get_double().get(d)) return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
  std::int64_t i = 0;
  if (!e.get_int64().get(i)) return static_cast<double>(i);
  std::uint64_t u = 0;
  if (!e.get_uint64().get(u)) return static_cast<double>(u);
  std::string_view s;
  if (!e.get_string().get(s)) {
    const std::string str(s);
    char* endp = nullptr;
    d = std::strtod(str.c_str(), &endp);
    if (endp && endp != str.c_str() && std::isfinite(d)) return d;
  }
  return std::nullopt;
}

/// a += b for each time, held at +-kMaxTimeNs (each op's time is, but many ops' sum can pass 2^63:
/// signed overflow, found by fuzz_sqlite_reader through the same sum of analysis.db's ops).
void add(CommOpTimes& a, const CommOpTimes& b) {
  a.elapse = clampedSum(a.elapse, b.elapse);
  a.transit = clampedSum(a.transit, b.transit);
  a.wait = clampedSum(a.wait, b.wait);
  a.synchronization = clampedSum(a.synchronization, b.synchronization);
  a.idle = clampedSum(a.idle, b.idle);
}

}  // namespace

const CommBandwidth* CommOpTimes::transportInfo(std::string_view transport) const {
  for (const CommBandwidth& b : bandwidth)
    if (b.transport == transport) return &b;
  return nullptr;
}

CommOpTimes CommunicationJson::sum() const {
  CommOpTimes s;
  for (const CommOpTimes& o : ops) add(s, o);
  return s;
}

CommunicationJson parseCommunicationJson(std::string_view text) {
  CommunicationJson out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.parse(simdjson::padded_string(text)).get(doc)) {
    out.error = std::string("communication.json is not valid JSON: ") + simdjson::error_message(err);
    return out;
  }
  simdjson::dom::object steps;
  if (doc.get_object().get(steps)) {
    out.error = "communication.json: the top level is not an object";
    return out;
  }
  for (auto [stepKey, stepVal] : steps) {
    simdjson::dom::object kinds;
    if (stepVal.get_object().get(kinds)) {
      out.warnings.push_back(std::string(stepKey) + ": not an object, skipped");
      continue;
    }
    for (auto [kindKey, kindVal] : kinds) {
      simdjson::dom::object ops;
      if (kindVal.get_object().get(ops)) {
        out.warnings.push_back(std::string(stepKey) + "/" + std::string(kindKey) + ": not an object, skipped");
        continue;
      }
      for (auto [opKey, opVal] : ops) {
        const std::string where = std::string(stepKey) + "/" + std::string(kindKey) + "/" + std::string(opKey);
        simdjson::dom::object info;
        if (opVal["Communication Time Info"].get_object().get(info)) {
          out.warnings.push_back(where + ": no \"Communication Time Info\"");
          continue;
        }
        CommOpTimes t = readTimes(info, where, out.warnings);
        if (const auto st = numberAt(info, "Start Timestamp(us)")) {
          const double ns = *st * 1000.0;
          if (ns > -static_cast<double>(kMaxTimeNs) && ns < static_cast<double>(kMaxTimeNs)) t.start = clampedNs(ns);
        }
        simdjson::dom::object bw;
        if (!opVal["Communication Bandwidth Info"].get_object().get(bw)) {
          for (auto [transport, tv] : bw) {
            simdjson::dom::object b;
            if (tv.get_object().get(b)) continue;
            CommBandwidth c;
            c.transport = std::string(transport);
            c.sizeMB = numberAt(b, "Transit Size(MB)").value_or(0.0);
            c.timeMs = numberAt(b, "Transit Time(ms)").value_or(0.0);
            c.gbps = numberAt(b, "Bandwidth(GB/s)").value_or(0.0);
            t.bandwidth.push_back(std::move(c));
          }
        }
        t.step = std::string(stepKey);
        t.kind = std::string(kindKey);
        t.name = std::string(opKey);
        if (opKey == "Total Op Info") {
          if (!out.recordedTotal) out.recordedTotal = CommOpTimes{};
          add(*out.recordedTotal, t);
        } else {
          out.ops.push_back(std::move(t));
        }
      }
    }
  }
  if (out.warnings.size() > 20) {
    const std::size_t more = out.warnings.size() - 20;
    out.warnings.resize(20);
    out.warnings.push_back("... and " + std::to_string(more) + " more");
  }
  return out;
}

CommunicationJson readCommunicationJson(const std::string& path) {
  std::string text, error;
  if (!readRegularFile(path, text, error)) {  // a FIFO or device is not opened; the error says what it is
    CommunicationJson out;
    out.error = error;
    return out;
  }
  return parseCommunicationJson(text);
}

}  // namespace npuscope::core
