// SPDX-License-Identifier: MIT
// Rank summaries on disk (summary.h, docs/summary-format.md).

#include "core/cluster/summary.h"

#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>

#include "core/analysis/operators.h"
#include "core/base/gzip_stream.h"
#include "core/base/json_text.h"
#include "core/base/time_format.h"
#include "core/profile/profile.h"
#include "core/report/report.h"

namespace npuscope::core {

namespace {

// ---- writing ------------------------------------------------------------------------------

/// Appends `"key": ` (with a leading ", " unless first).
struct Obj {
  std::string& o;
  bool first = true;
  explicit Obj(std::string& out) : o(out) { o += '{'; }
  std::string& key(std::string_view k) {
    if (!first) o += ", ";
    first = false;
    appendJsonString(o, k);
    o += ": ";
    return o;
  }
  void close() { o += '}'; }
};

void num(std::string& o, std::int64_t v) { o += std::to_string(v); }
void str(std::string& o, std::string_view s) { appendJsonString(o, s); }
/// [[first, second], …] of string pairs.
void strPairs(std::string& o, const std::vector<std::pair<std::string, std::string>>& v) {
  o += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    o += i ? ", [" : "[";
    str(o, v[i].first);
    o += ", ";
    str(o, v[i].second);
    o += ']';
  }
  o += ']';
}
void boolean(std::string& o, bool b) { o += b ? "true" : "false"; }

void nums(std::string& o, std::initializer_list<std::int64_t> v) {
  o += '[';
  bool first = true;
  for (std::int64_t x : v) {
    if (!first) o += ", ";
    first = false;
    num(o, x);
  }
  o += ']';
}

void timeAt(std::string& o, const DeviceTimeAt& t) { nums(o, {t.computing, t.communication, t.free}); }

void overlapArray(std::string& o, const OverlapFigures& f) {
  nums(o, {f.computing, f.communication, f.commNotOverlapped, f.overlapped, f.free, f.e2e});
}

void opJson(std::string& o, const CommOp& op, const std::pair<DeviceTimeAt, DeviceTimeAt>* times) {
  Obj j(o);
  str(j.key("name"), op.name);
  str(j.key("type"), op.type);
  str(j.key("group"), op.groupKey);
  str(j.key("group_lane"), op.groupLane);
  num(j.key("sequence"), static_cast<std::int64_t>(op.sequence));
  nums(j.key("range_ns"), {op.range.start, op.range.end});
  num(j.key("self_rank"), op.selfRank);
  j.key("peers") += '[';
  for (std::size_t i = 0; i < op.peers.size(); ++i) o += (i ? ", " : "") + std::to_string(op.peers[i]);
  o += ']';
  boolean(j.key("has_tasks"), op.hasTasks);
  num(j.key("count"), op.count);
  num(j.key("master_plane"), op.masterPlane);
  nums(j.key("figures_ns"), {op.elapse, op.transit, op.wait, op.synchronization, op.idle});
  nums(j.key("sync_peer"), {op.syncPeer.peer, op.syncPeer.ns});
  nums(j.key("idle_wait"), {op.idleWait.peer, op.idleWait.ns});
  num(j.key("ready_ns"), op.ready);
  j.key("first_waits") += '[';
  for (std::size_t i = 0; i < op.firstWaits.size(); ++i) {
    if (i) o += ", ";
    nums(o, {op.firstWaits[i].peer, op.firstWaits[i].r.start, op.firstWaits[i].r.end});
  }
  o += ']';
  num(j.key("last_blocked_wait_end_ns"), op.lastBlockedWaitEnd);
  num(j.key("last_long_wait_end_ns"), op.lastLongWaitEnd);
  j.key("links") += '[';
  for (std::size_t i = 0; i < op.links.size(); ++i) {
    const CommLink& l = op.links[i];
    o += i ? ", [" : "[";
    str(o, l.transport);
    o += ", " + std::to_string(l.bytes) + ", " + std::to_string(l.time) + ", " + std::to_string(l.tasks) + "]";
  }
  o += ']';
  j.key("peer_links") += '[';
  for (std::size_t i = 0; i < op.peerLinks.size(); ++i) {
    const CommPeerLink& p = op.peerLinks[i];
    o += i ? ", [" : "[";
    o += std::to_string(p.self) + ", " + std::to_string(p.peer) + ", ";
    str(o, p.link.transport);
    o += ", " + std::to_string(p.link.bytes) + ", " + std::to_string(p.link.time) + ", " + std::to_string(p.link.tasks) + "]";
  }
  o += ']';
  std::string& r = j.key("recorded");
  if (op.recorded) {
    const CommOpTimes& t = *op.recorded;
    nums(r, {t.start.value_or(std::numeric_limits<std::int64_t>::min()), t.elapse, t.transit, t.wait, t.synchronization, t.idle});
  } else {
    r += "null";
  }
  if (times) {
    timeAt(j.key("at_start"), times->first);
    timeAt(j.key("at_end"), times->second);
  }
  j.close();
}

void stepJson(std::string& o, const SummaryStep& s) {
  Obj j(o);
  num(j.key("step"), s.number);
  nums(j.key("device_ns"), {s.device.start, s.device.end});
  num(j.key("host_start_ns"), s.hostStart);
  timeAt(j.key("at_device_start"), s.atDeviceStart);
  overlapArray(j.key("computed"), s.computed);
  std::string& r = j.key("recorded");
  if (s.recorded) nums(r, {s.recorded->computing, s.recorded->commNotOverlapped, s.recorded->free});
  else r += "null";
  j.close();
}

void analysesJson(std::string& o, const RankSummary& s) {
  Obj j(o);
  overlapArray(j.key("overlap"), s.overlap);
  str(j.key("dominant"), s.dominant);
  str(j.key("headline"), s.headline);
  str(j.key("summary"), s.verdictSummary);
  appendJsonStringArray(j.key("findings"), s.findings);
  appendJsonStringArray(j.key("suggestions"), s.suggestions);
  num(j.key("gaps_found"), static_cast<std::int64_t>(s.gapsFound));
  num(j.key("gaps_found_ns"), s.gapsFoundNs);
  j.key("bubbles") += '[';
  for (std::size_t i = 0; i < s.bubbles.size(); ++i) {
    const SummaryBubble& b = s.bubbles[i];
    if (i) o += ", ";
    Obj bj(o);
    nums(bj.key("range_ns"), {b.range.start, b.range.end});
    num(bj.key("step"), b.step);
    str(bj.key("cause"), b.cause);
    str(bj.key("detail"), b.detail);
    strPairs(bj.key("chain"), b.chain);
    std::string& l = bj.key("launch_latency_ns");
    if (b.launchLatency) num(l, *b.launchLatency);
    else l += "null";
    bj.close();
  }
  o += ']';
  j.key("bubble_causes") += '[';
  for (std::size_t i = 0; i < s.causes.size(); ++i) {
    o += i ? ", [" : "[";
    str(o, s.causes[i].key);
    o += ", " + std::to_string(s.causes[i].count) + ", " + std::to_string(s.causes[i].ns) + "]";
  }
  o += ']';
  std::string& k = j.key("kernels");
  if (s.hasKernels) {
    Obj ko(k);
    const auto groups = [&](std::string& to, const std::vector<KernelGroup>& v, bool shapes) {
      to += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        const KernelGroup& g = v[i];
        to += i ? ",\n  [" : "\n  [";
        str(to, g.type);
        to += ", ";
        str(to, g.name);
        if (shapes) {
          to += ", ";
          str(to, g.shapes);
        }
        to += std::string(", ") + (g.communication ? "true" : "false") + ", " + std::to_string(g.total) + ", " + std::to_string(g.count) + "]";
      }
      to += ']';
    };
    groups(ko.key("groups"), s.kernels, false);
    groups(ko.key("shapes"), s.kernelShapes, true);
    num(ko.key("cut"), static_cast<std::int64_t>(s.kernelGroupsCut));
    ko.close();
  } else {
    k += "null";
  }
  j.key("operators") += s.operatorsJson.empty() ? std::string("null") : s.operatorsJson;
  j.close();
}

// ---- reading ------------------------------------------------------------------------------

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

/// Reads fields of one JSON object, remembering the first problem (with its path).
class Reader {
 public:
  explicit Reader(std::string& error) : m_error(error) {}
  [[nodiscard]] bool ok() const { return m_error.empty(); }
  void fail(const std::string& where, const std::string& what) {
    if (m_error.empty()) m_error = where + ": " + what;
  }
  bool field(object o, const std::string& where, std::string_view key, element& out) {
    if (!ok()) return false;
    if (o.at_key(key).get(out) != simdjson::SUCCESS) {
      fail(where, "no \"" + std::string(key) + "\"");
      return false;
    }
    return true;
  }
  std::int64_t i64(element e, const std::string& where) {
    std::int64_t v = 0;
    if (ok() && e.get(v) != simdjson::SUCCESS) fail(where, "not an integer in the int64 range");
    return v;
  }
  std::int64_t i64(object o, const std::string& where, std::string_view key) {
    element e;
    return field(o, where, key, e) ? i64(e, where + "." + std::string(key)) : 0;
  }
  /// A key added by a minor version: `absent` when an older summary lacks it.
  std::int64_t i64Or(object o, const std::string& where, std::string_view key, std::int64_t absent) {
    element e;
    if (!ok() || o.at_key(key).get(e) != simdjson::SUCCESS) return absent;
    return i64(e, where + "." + std::string(key));
  }
  /// An int in [lo, hi].
  int bounded(object o, const std::string& where, std::string_view key, std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = i64(o, where, key);
    if (ok() && (v < lo || v > hi)) fail(where + "." + std::string(key), "out of range");
    return static_cast<int>(v);
  }
  std::string text(object o, const std::string& where, std::string_view key) {
    element e;
    std::string_view v;
    if (!field(o, where, key, e)) return {};
    if (e.get(v) != simdjson::SUCCESS) fail(where + "." + std::string(key), "not a string");
    return std::string(v);
  }
  bool flag(object o, const std::string& where, std::string_view key) {
    element e;
    bool v = false;
    if (field(o, where, key, e) && e.get(v) != simdjson::SUCCESS) fail(where + "." + std::string(key), "not a boolean");
    return v;
  }
  /// The array's elements (none when it is not an array: a default simdjson array must never be
  /// iterated).
  std::vector<element> arr(element e, const std::string& where) {
    array a;
    if (!ok()) return {};
    if (e.get(a) != simdjson::SUCCESS) {
      fail(where, "not an array");
      return {};
    }
    return std::vector<element>(a.begin(), a.end());
  }
  std::vector<element> arr(object o, const std::string& where, std::string_view key) {
    element e;
    return field(o, where, key, e) ? arr(e, where + "." + std::string(key)) : std::vector<element>();
  }
  object obj(element e, const std::string& where) {
    object v;
    if (ok() && e.get(v) != simdjson::SUCCESS) fail(where, "not an object");
    return v;
  }
  /// An array of exactly `n` integers.
  std::vector<std::int64_t> ints(element e, const std::string& where, std::size_t n) {
    std::vector<std::int64_t> v;
    const std::vector<element> a = arr(e, where);
    if (!ok()) return std::vector<std::int64_t>(n, 0);
    for (element x : a) v.push_back(i64(x, where));
    if (ok() && v.size() != n) fail(where, "expected " + std::to_string(n) + " numbers");
    v.resize(n, 0);
    return v;
  }
  std::vector<std::int64_t> ints(object o, const std::string& where, std::string_view key, std::size_t n) {
    element e;
    return field(o, where, key, e) ? ints(e, where + "." + std::string(key), n) : std::vector<std::int64_t>(n, 0);
  }
  TimeRange range(object o, const std::string& where, std::string_view key) {
    const auto v = ints(o, where, key, 2);
    if (ok() && v[1] < v[0]) fail(where + "." + std::string(key), "end before start");
    return TimeRange{v[0], v[1]};
  }
  DeviceTimeAt timeAt(object o, const std::string& where, std::string_view key) {
    const auto v = ints(o, where, key, 3);
    if (ok() && (v[0] < 0 || v[1] < 0 || v[2] < 0)) fail(where + "." + std::string(key), "negative device time");
    return DeviceTimeAt{v[0], v[1], v[2]};
  }
  std::vector<std::string> texts(object o, const std::string& where, std::string_view key) {
    std::vector<std::string> out;
    const std::vector<element> a = arr(o, where, key);
    if (!ok()) return out;
    for (element x : a) {
      std::string_view v;
      if (x.get(v) != simdjson::SUCCESS) {
        fail(where + "." + std::string(key), "not a string");
        break;
      }
      out.emplace_back(v);
    }
    return out;
  }

 private:
  std::string& m_error;
};

constexpr std::int64_t kMaxRank = 0x7ffffffe;

void readOverlap(Reader& rd, object o, const std::string& where, std::string_view key, OverlapFigures& f) {
  const auto v = rd.ints(o, where, key, 6);
  f = OverlapFigures{v[0], v[1], v[2], v[3], v[4], v[5]};
}

/// Reads one op; false when it has no device times (a rank of tables only: its ops come from
/// communication.json, and the writer leaves at_start / at_end out).
bool readOp(Reader& rd, object o, const std::string& w, CommOp& op, std::pair<DeviceTimeAt, DeviceTimeAt>& times) {
  op.name = rd.text(o, w, "name");
  op.type = rd.text(o, w, "type");
  op.groupKey = rd.text(o, w, "group");
  op.groupLane = rd.text(o, w, "group_lane");
  op.sequence = static_cast<std::size_t>(rd.bounded(o, w, "sequence", 0, kMaxRank));
  op.range = rd.range(o, w, "range_ns");
  op.selfRank = rd.bounded(o, w, "self_rank", -1, kMaxRank);
  for (element x : rd.arr(o, w, "peers")) {
    const std::int64_t p = rd.i64(x, w + ".peers");
    if (rd.ok() && (p < 0 || p > kMaxRank)) rd.fail(w + ".peers", "out of range");
    op.peers.push_back(static_cast<int>(p));
  }
  op.hasTasks = rd.flag(o, w, "has_tasks");
  op.count = rd.i64(o, w, "count");
  if (rd.ok() && op.count < -1) rd.fail(w + ".count", "out of range");
  op.masterPlane = rd.bounded(o, w, "master_plane", -1, kMaxRank);
  const auto f = rd.ints(o, w, "figures_ns", 5);
  op.elapse = f[0], op.transit = f[1], op.wait = f[2], op.synchronization = f[3], op.idle = f[4];
  const auto sp = rd.ints(o, w, "sync_peer", 2);
  op.syncPeer = PeerWait{static_cast<int>(std::clamp<std::int64_t>(sp[0], -1, kMaxRank)), sp[1], {}};
  const auto iw = rd.ints(o, w, "idle_wait", 2);
  op.idleWait = PeerWait{static_cast<int>(std::clamp<std::int64_t>(iw[0], -1, kMaxRank)), iw[1], {}};
  op.ready = rd.i64(o, w, "ready_ns");
  for (element x : rd.arr(o, w, "first_waits")) {
    const auto v = rd.ints(x, w + ".first_waits", 3);
    if (rd.ok() && (v[0] < 0 || v[0] > kMaxRank || v[2] < v[1])) rd.fail(w + ".first_waits", "bad peer or end before start");
    op.firstWaits.push_back(FirstWait{static_cast<int>(v[0]), TimeRange{v[1], v[2]}});
  }
  op.lastBlockedWaitEnd = rd.i64(o, w, "last_blocked_wait_end_ns");
  op.lastLongWaitEnd = rd.i64Or(o, w, "last_long_wait_end_ns", op.lastBlockedWaitEnd);  // 1.1
  for (element x : rd.arr(o, w, "links")) {
    const std::vector<element> e = rd.arr(x, w + ".links");
    std::string_view t;
    std::int64_t bytes = 0, time = 0, tasks = 0;
    if (rd.ok() && (e.size() != 4 || e[0].get(t) || e[1].get(bytes) || e[2].get(time) || e[3].get(tasks) || bytes < 0 || time < 0 || tasks < 0))
      rd.fail(w + ".links", "expected [transport, bytes, time_ns, tasks]");
    op.links.push_back(CommLink{std::string(t), static_cast<std::uint64_t>(bytes), time, static_cast<std::size_t>(tasks)});
  }
  for (element x : rd.arr(o, w, "peer_links")) {
    const std::vector<element> e = rd.arr(x, w + ".peer_links");
    std::string_view t;
    std::int64_t self = 0, peer = 0, bytes = 0, time = 0, tasks = 0;
    if (rd.ok() && (e.size() != 6 || e[0].get(self) || e[1].get(peer) || e[2].get(t) || e[3].get(bytes) || e[4].get(time) ||
                    e[5].get(tasks) || self < -1 || self > kMaxRank || peer < -1 || peer > kMaxRank || bytes < 0 || time < 0 || tasks < 0))
      rd.fail(w + ".peer_links", "expected [self, peer, transport, bytes, time_ns, tasks]");
    op.peerLinks.push_back(CommPeerLink{static_cast<int>(self), static_cast<int>(peer),
                                        CommLink{std::string(t), static_cast<std::uint64_t>(bytes), time, static_cast<std::size_t>(tasks)}});
  }
  element rec;
  if (rd.field(o, w, "recorded", rec) && !rec.is_null()) {
    const auto v = rd.ints(rec, w + ".recorded", 6);
    CommOpTimes t;
    if (v[0] != std::numeric_limits<std::int64_t>::min()) t.start = v[0];
    t.elapse = v[1], t.transit = v[2], t.wait = v[3], t.synchronization = v[4], t.idle = v[5];
    op.recorded = t;
  }
  element unused;
  if (o.at_key("at_start").get(unused) != simdjson::SUCCESS && o.at_key("at_end").get(unused) != simdjson::SUCCESS) return false;
  times.first = rd.timeAt(o, w, "at_start");
  times.second = rd.timeAt(o, w, "at_end");
  return true;
}

void readStep(Reader& rd, object o, const std::string& w, SummaryStep& s) {
  s.number = rd.i64(o, w, "step");
  s.device = rd.range(o, w, "device_ns");
  s.hostStart = rd.i64(o, w, "host_start_ns");
  s.atDeviceStart = rd.timeAt(o, w, "at_device_start");
  readOverlap(rd, o, w, "computed", s.computed);
  element rec;
  if (rd.field(o, w, "recorded", rec) && !rec.is_null()) {
    const auto v = rd.ints(rec, w + ".recorded", 3);
    OverlapFigures f;
    f.computing = v[0], f.commNotOverlapped = v[1], f.free = v[2];
    s.recorded = f;
  }
}

void readAnalyses(Reader& rd, object o, RankSummary& s) {
  const std::string w = "analyses";
  s.full = true;
  readOverlap(rd, o, w, "overlap", s.overlap);
  s.dominant = rd.text(o, w, "dominant");
  s.headline = rd.text(o, w, "headline");
  s.verdictSummary = rd.text(o, w, "summary");
  s.findings = rd.texts(o, w, "findings");
  s.suggestions = rd.texts(o, w, "suggestions");
  s.gapsFound = static_cast<std::size_t>(rd.bounded(o, w, "gaps_found", 0, kMaxRank));
  s.gapsFoundNs = rd.i64(o, w, "gaps_found_ns");
  std::size_t i = 0;
  for (element x : rd.arr(o, w, "bubbles")) {
    const std::string bw = w + ".bubbles[" + std::to_string(i++) + "]";
    object bo = rd.obj(x, bw);
    if (!rd.ok()) return;
    SummaryBubble b;
    b.range = rd.range(bo, bw, "range_ns");
    b.step = rd.i64(bo, bw, "step");
    b.cause = rd.text(bo, bw, "cause");
    b.detail = rd.text(bo, bw, "detail");
    for (element c : rd.arr(bo, bw, "chain")) {
      const std::vector<element> e = rd.arr(c, bw + ".chain");
      std::string_view layer, name;
      if (rd.ok() && (e.size() != 2 || e[0].get(layer) || e[1].get(name))) rd.fail(bw + ".chain", "expected [layer, name]");
      b.chain.emplace_back(std::string(layer), std::string(name));
    }
    element l;
    if (rd.field(bo, bw, "launch_latency_ns", l) && !l.is_null()) b.launchLatency = rd.i64(l, bw + ".launch_latency_ns");
    s.bubbles.push_back(std::move(b));
  }
  for (element c : rd.arr(o, w, "bubble_causes")) {
    const std::vector<element> e = rd.arr(c, w + ".bubble_causes");
    std::string_view key;
    std::int64_t count = 0, ns = 0;
    if (rd.ok() && (e.size() != 3 || e[0].get(key) || e[1].get(count) || e[2].get(ns) || count < 0 || ns < 0))
      rd.fail(w + ".bubble_causes", "expected [cause, count, ns]");
    s.causes.push_back(SummaryCause{std::string(key), static_cast<std::size_t>(count), ns});
  }
  element kernels;
  if (rd.field(o, w, "kernels", kernels) && !kernels.is_null()) {
    object ko = rd.obj(kernels, w + ".kernels");
    s.hasKernels = rd.ok();
    for (const bool withShapes : {false, true}) {
      const std::string where = w + (withShapes ? ".kernels.shapes" : ".kernels.groups");
      for (element g : rd.arr(ko, w + ".kernels", withShapes ? "shapes" : "groups")) {
        const std::vector<element> e = rd.arr(g, where);
        const std::size_t n = withShapes ? 6 : 5, at = withShapes ? 3 : 2;
        std::string_view type, name, shapes;
        bool comm = false;
        std::int64_t total = 0, count = 0;
        if (rd.ok() && (e.size() != n || e[0].get(type) || e[1].get(name) || (withShapes && e[2].get(shapes)) || e[at].get(comm) ||
                        e[at + 1].get(total) || e[at + 2].get(count) || total < 0 || count < 0))
          rd.fail(where, withShapes ? "expected [type, name, shapes, communication, total_ns, count]"
                                    : "expected [type, name, communication, total_ns, count]");
        (withShapes ? s.kernelShapes : s.kernels)
            .push_back(KernelGroup{std::string(type), std::string(name), std::string(shapes), comm, total, static_cast<std::size_t>(count)});
      }
    }
    s.kernelGroupsCut = static_cast<std::size_t>(rd.bounded(ko, w + ".kernels", "cut", 0, kMaxRank));
  }
  element ops;
  if (rd.field(o, w, "operators", ops) && !ops.is_null()) {
    if (!ops.is_object()) rd.fail(w + ".operators", "not an object");
    else s.operatorsJson = simdjson::minify(ops);
  }
}

bool parseUnguarded(std::string_view text, RankSummary& s, std::string& error) {
  simdjson::dom::parser parser;
  element root;
  if (const auto err = parser.parse(text.data(), text.size()).get(root); err) {
    error = std::string("not JSON: ") + simdjson::error_message(err);
    return false;
  }
  Reader rd(error);
  object o = rd.obj(root, "summary");
  if (!rd.ok()) return false;
  const std::string schema = rd.text(o, "summary", "schema");
  if (rd.ok() && schema != kSummarySchema) rd.fail("summary", "schema \"" + schema + "\" is not " + std::string(kSummarySchema));
  const std::string version = rd.text(o, "summary", "schema_version");
  if (!rd.ok()) return false;
  int major = -1, minor = -1;
  if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2 || major < 0 || minor < 0) {
    rd.fail("summary", "schema_version \"" + version + "\" is not MAJOR.MINOR");
    return false;
  }
  if (major != kSummaryMajor) {
    rd.fail("summary", "schema_version " + version + (major > kSummaryMajor ? " is newer than" : " is older than") +
                           " this npuscope reads (" + std::to_string(kSummaryMajor) + ".x): summarize the rank again with this version");
    return false;
  }
  s.rank = rd.bounded(o, "summary", "rank", -1, kMaxRank);
  s.device = rd.bounded(o, "summary", "device", -1, kMaxRank);
  s.label = rd.text(o, "summary", "label");
  s.host = rd.text(o, "summary", "host");
  s.chip = rd.text(o, "summary", "chip");
  s.profilerLevel = rd.text(o, "summary", "profiler_level");
  if (element ps; rd.ok() && o.at_key("profiler_settings").get(ps) == simdjson::SUCCESS)  // 1.1
    for (element x : rd.arr(ps, "summary.profiler_settings")) {
      const std::vector<element> kv = rd.arr(x, "summary.profiler_settings");
      std::string_view k, v;
      if (rd.ok() && (kv.size() != 2 || kv[0].get(k) != simdjson::SUCCESS || kv[1].get(v) != simdjson::SUCCESS))
        rd.fail("summary.profiler_settings", "expected [name, value] strings");
      if (!rd.ok()) break;
      s.profilerSettings.emplace_back(std::string(k), std::string(v));
    }
  if (element pg; rd.ok() && o.at_key("parallel_groups").get(pg) == simdjson::SUCCESS)  // 1.2
    for (element x : rd.arr(pg, "summary.parallel_groups")) {
      const std::vector<element> nr = rd.arr(x, "summary.parallel_groups");
      std::string_view name;
      if (rd.ok() && (nr.size() != 2 || nr[0].get(name) != simdjson::SUCCESS)) rd.fail("summary.parallel_groups", "expected [name, [ranks]]");
      if (!rd.ok()) break;
      ParallelGroup g{std::string(name), {}};
      for (element r : rd.arr(nr[1], "summary.parallel_groups")) {
        const std::int64_t v = rd.i64(r, "summary.parallel_groups");
        if (rd.ok() && (v < 0 || v > kMaxRank)) rd.fail("summary.parallel_groups", "rank out of range");
        if (!rd.ok()) break;
        g.ranks.push_back(static_cast<int>(v));
      }
      s.parallelGroups.push_back(std::move(g));
    }
  s.path = rd.text(o, "summary", "path");
  s.file = rd.text(o, "summary", "file");
  s.error = rd.text(o, "summary", "error");
  s.traceBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rd.i64(o, "summary", "trace_bytes")));
  s.events = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rd.i64(o, "summary", "events")));
  s.span = rd.range(o, "summary", "span_ns");
  element fig;
  if (rd.field(o, "summary", "figures", fig) && !fig.is_null()) {
    object f = rd.obj(fig, "figures");
    s.hasFigures = rd.ok();
    s.figuresSource = rd.text(f, "figures", "source");
    s.figuresDevice = rd.bounded(f, "figures", "device", -1, kMaxRank);
    const auto v = rd.ints(f, "figures", "ns", 3);
    s.computing = v[0], s.commNotOverlapped = v[1], s.free = v[2];
  }
  s.firstComputeStart = rd.i64(o, "summary", "first_compute_ns");
  s.atFirstCompute = rd.timeAt(o, "summary", "at_first_compute");
  std::size_t i = 0;
  for (element x : rd.arr(o, "summary", "steps")) {
    const std::string w = "steps[" + std::to_string(i++) + "]";
    object so = rd.obj(x, w);
    if (!rd.ok()) break;
    SummaryStep st;
    readStep(rd, so, w, st);
    s.steps.push_back(st);
  }
  i = 0;
  bool timesMissing = false;
  for (element x : rd.arr(o, "summary", "ops")) {
    const std::string w = "ops[" + std::to_string(i++) + "]";
    object oo = rd.obj(x, w);
    if (!rd.ok()) break;
    CommOp op;
    std::pair<DeviceTimeAt, DeviceTimeAt> times;
    if (readOp(rd, oo, w, op, times)) s.opTimes.push_back(times);
    else timesMissing = true;
    s.ops.push_back(std::move(op));
  }
  if (timesMissing) s.opTimes.clear();  // index-aligned with ops, or none
  element an;
  if (rd.field(o, "summary", "analyses", an) && !an.is_null()) {
    object ao = rd.obj(an, "analyses");
    if (rd.ok()) readAnalyses(rd, ao, s);
  }
  return rd.ok();
}

// ---- gzip ---------------------------------------------------------------------------------

/// `text` deflated in gzip format (RFC 1952) with an empty header (no name, time 0), level 6.
bool gzipText(std::string_view text, std::string& out, std::string& error) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    error = "zlib: deflateInit2 failed";
    return false;
  }
  gz_header h{};
  h.os = 3;  // Unix, whatever the build machine: the same bytes everywhere
  deflateSetHeader(&z, &h);
  out.resize(deflateBound(&z, static_cast<uLong>(text.size())) + 64);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) {
    error = "zlib: deflate did not finish";
    return false;
  }
  return true;
}

std::string readAll(const std::string& path, std::string& error) {
  std::string text;
  auto in = GzipStream::open(path, error, kSummaryMaxBytes);
  if (!in) return text;
  char buf[1 << 16];
  for (std::size_t n; (n = in->read(buf, sizeof buf)) > 0;) text.append(buf, n);
  if (!in->error().empty()) error = in->error();
  else if (in->inflateLimited()) error = in->warning();
  return text;
}

std::string sanitizedLabel(std::string_view label) {
  std::string s;
  for (const char c : label) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return s.empty() ? std::string("unknown") : s;
}

}  // namespace

void addRankAnalyses(RankSummary& s, const RankProfile& rp, const AdvisorThresholds& thresholds, unsigned threads) {
  if (!rp.trace || !rp.analysis || rp.analysis->cancelled) return;
  const Trace& t = *rp.trace;
  const RankAnalysis& a = *rp.analysis;
  s.full = true;
  s.dominant = a.verdict.dominant;
  s.headline = a.verdict.headline;
  s.verdictSummary = a.verdict.summary;
  s.findings = a.verdict.findings;
  s.suggestions = a.verdict.suggestions;
  if (!a.devices.empty()) {
    const DeviceAnalysis& d = a.devices.front();
    s.overlap = d.computed;
    s.gapsFound = d.gapsFound;
    s.gapsFoundNs = d.gapsFoundNs;
    for (std::size_t c = 0; c < kBubbleCauseCount; ++c)
      if (d.causes.count[c] > 0)
        s.causes.push_back(SummaryCause{bubbleCauseKey(static_cast<BubbleCause>(c)), d.causes.count[c], d.causes.ns[c]});
    for (std::size_t i = 0; i < d.bubbles.size() && i < kSummaryBubbles; ++i) {
      const Bubble& b = d.bubbles[i];
      SummaryBubble sb;
      sb.range = b.range;
      sb.step = b.step;
      sb.cause = bubbleCauseKey(b.cause);
      sb.detail = b.detail;
      for (const ChainLink& l : b.chain.links) sb.chain.emplace_back(chainLayerKey(l.layer), std::string(t.sliceName(l.slice)));
      sb.launchLatency = b.chain.correctedLatency;
      s.bubbles.push_back(std::move(sb));
    }
  }
  if (rp.kernels) {
    s.hasKernels = true;
    s.kernels = kernelGroupsOf(rp.kernels.get(), false);
    s.kernelShapes = kernelGroupsOf(rp.kernels.get());
    if (s.kernelShapes.size() > kSummaryKernelGroups) {
      s.kernelGroupsCut = s.kernelShapes.size() - kSummaryKernelGroups;
      s.kernelShapes.resize(kSummaryKernelGroups);
    }
  }
  // The report's operator table and dispatch statistics, cut to the first entries. The two read
  // the trace and the analysis only: the statistics run beside the table. Only the table of the
  // advisor is kept (rankOperatorTable: its other rules' findings are not in a summary), so its
  // other rules are not run (on a 1 GB trace 0.47 s, docs/benchmarks.md "A cluster of 1,024 ranks").
  std::future<std::vector<DispatchStat>> pending = std::async(std::launch::async, [&t, &a, threads] { return dispatchStats(t, a, 10'000, threads); });
  const std::shared_ptr<const OperatorTable> full = rankOperatorTable(rp, thresholds);
  std::vector<DispatchStat> stats = pending.get();
  if (stats.size() > kSummaryDispatch) stats.resize(kSummaryDispatch);
  std::string ops;
  if (full) {
    OperatorTable table = *full;
    if (table.groups.size() > kSummaryOperators) table.groups.resize(kSummaryOperators);
    // The decision tree is left out (its findings are in the verdict's advice; it would double a
    // small trace's summary): "decision_tree" is empty.
    operatorsJson(ops, t, &table, {}, stats);
  } else {
    operatorsJson(ops, t, nullptr, {}, stats);
  }
  // operatorsJson writes `, "operators_chip": …, …`: an object's members after a first one. Kept
  // minified by simdjson, as the reader keeps it, so a summary read back writes the same bytes.
  const std::string object = "{" + ops.substr(ops.rfind(", ", 0) == 0 ? 2 : 0) + "}";
  simdjson::dom::parser parser;
  element e;
  s.operatorsJson = parser.parse(object).get(e) == simdjson::SUCCESS ? simdjson::minify(e) : std::string();
}

std::string summaryJson(const RankSummary& s) {
  std::string o;
  o.reserve(4096 + s.ops.size() * 1024);
  Obj j(o);
  str(j.key("schema"), kSummarySchema);
  str(j.key("schema_version"), std::to_string(kSummaryMajor) + "." + std::to_string(kSummaryMinor));
  num(j.key("rank"), s.rank);
  num(j.key("device"), s.device);
  str(j.key("label"), s.label);
  str(j.key("host"), s.host);
  str(j.key("chip"), s.chip);
  str(j.key("profiler_level"), s.profilerLevel);
  strPairs(j.key("profiler_settings"), s.profilerSettings);
  {
    std::string& g = j.key("parallel_groups");  // [[name, [rank, ...]], ...]
    g += '[';
    for (std::size_t i = 0; i < s.parallelGroups.size(); ++i) {
      g += i ? ", [" : "[";
      str(g, s.parallelGroups[i].name);
      g += ", [";
      for (std::size_t k = 0; k < s.parallelGroups[i].ranks.size(); ++k) g += (k ? ", " : "") + std::to_string(s.parallelGroups[i].ranks[k]);
      g += "]]";
    }
    g += ']';
  }
  str(j.key("path"), s.path);
  str(j.key("file"), s.file);
  str(j.key("error"), s.error);
  num(j.key("trace_bytes"), static_cast<std::int64_t>(std::min<std::uint64_t>(s.traceBytes, INT64_MAX)));
  num(j.key("events"), static_cast<std::int64_t>(std::min<std::uint64_t>(s.events, INT64_MAX)));
  nums(j.key("span_ns"), {s.span.start, s.span.end});
  std::string& f = j.key("figures");
  if (s.hasFigures) {
    Obj fo(f);
    str(fo.key("source"), s.figuresSource);
    num(fo.key("device"), s.figuresDevice);
    nums(fo.key("ns"), {s.computing, s.commNotOverlapped, s.free});
    fo.close();
  } else {
    f += "null";
  }
  num(j.key("first_compute_ns"), s.firstComputeStart);
  timeAt(j.key("at_first_compute"), s.atFirstCompute);
  j.key("steps") += '[';
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    o += i ? ",\n " : "\n ";
    stepJson(o, s.steps[i]);
  }
  o += ']';
  j.key("ops") += '[';
  for (std::size_t i = 0; i < s.ops.size(); ++i) {
    o += i ? ",\n " : "\n ";
    opJson(o, s.ops[i], i < s.opTimes.size() ? &s.opTimes[i] : nullptr);
  }
  o += ']';
  std::string& an = j.key("analyses");
  if (s.full) {
    o += '\n';
    analysesJson(an, s);
  } else {
    an += "null";
  }
  j.close();
  o += '\n';
  return o;
}

bool parseSummaryJson(std::string_view text, RankSummary& out, std::string& error) {
  error.clear();
  out = RankSummary{};
  try {
    if (parseUnguarded(text, out, error)) return true;
  } catch (const std::exception& e) {
    error = std::string("cannot be read: ") + e.what();
  }
  if (error.empty()) error = "cannot be read";
  return false;
}

bool writeSummaryFile(const std::string& path, const RankSummary& s, std::string& error) {
  try {
    std::string gz;
    if (!gzipText(summaryJson(s), gz, error)) return false;
    const std::string tmp = path + ".part";
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      if (!f) {
        error = "cannot write " + tmp;
        return false;
      }
      f.write(gz.data(), static_cast<std::streamsize>(gz.size()));
      if (!f.flush()) {
        error = "cannot write " + tmp;
        return false;
      }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      error = "cannot rename " + tmp + " to " + path + ": " + ec.message();
      std::filesystem::remove(tmp, ec);
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = std::string("cannot write ") + path + ": " + e.what();
    return false;
  }
}

bool readSummaryFile(const std::string& path, RankSummary& out, std::string& error) {
  try {
    std::string err;
    const std::string text = readAll(path, err);
    if (!err.empty()) {
      error = path + ": " + err;
      return false;
    }
    if (!parseSummaryJson(text, out, err)) {
      error = path + ": " + err;
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = path + ": cannot be read: " + e.what();
    return false;
  }
}

std::string summaryFileName(const RankSummary& s) {
  char buf[32];
  if (s.rank >= 0) {
    std::snprintf(buf, sizeof buf, "rank%05d", s.rank);
    return buf + std::string(kSummarySuffix);
  }
  return "rank-" + sanitizedLabel(s.label) + std::string(kSummarySuffix);
}

bool isSummaryFileName(std::string_view name) {
  const std::string_view plain = kSummarySuffix.substr(0, kSummarySuffix.size() - 3);
  const auto ends = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return ends(kSummarySuffix) || ends(plain);
}

std::string summaryReportJson(const RankSummary& s) {
  std::string o;
  Obj j(o);
  num(j.key("rank"), s.rank);
  num(j.key("device"), s.device);
  str(j.key("label"), s.label);
  str(j.key("file"), s.file);
  {
    std::string& w = j.key("summary");
    Obj so(w);
    str(so.key("host"), s.host);
    str(so.key("path"), s.path);
    str(so.key("chip"), s.chip);
    str(so.key("profiler_level"), s.profilerLevel);
    num(so.key("trace_bytes"), static_cast<std::int64_t>(std::min<std::uint64_t>(s.traceBytes, INT64_MAX)));
    num(so.key("events"), static_cast<std::int64_t>(std::min<std::uint64_t>(s.events, INT64_MAX)));
    num(so.key("span_ns"), s.span.duration());
    num(so.key("start_ns"), s.span.start);
    num(so.key("hccl_ops"), static_cast<std::int64_t>(s.ops.size()));
    boolean(so.key("full"), s.full);
    so.close();
  }
  if (!s.error.empty()) str(j.key("error"), s.error);
  j.key("steps") += '[';
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    const SummaryStep& st = s.steps[i];
    if (i) o += ", ";
    Obj so(o);
    num(so.key("step"), st.number);
    num(so.key("start_ns"), st.device.start);
    num(so.key("end_ns"), st.device.end);
    so.key("computing_us") += formatUsNumber(st.computed.computing);
    so.key("communication_us") += formatUsNumber(st.computed.communication);
    so.key("communication_not_overlapped_us") += formatUsNumber(st.computed.commNotOverlapped);
    so.key("free_us") += formatUsNumber(st.computed.free);
    so.key("e2e_us") += formatUsNumber(st.computed.e2e);
    so.close();
  }
  o += ']';
  if (s.full) {
    std::string& ov = j.key("overlap");
    Obj oo(ov);
    oo.key("computing_us") += formatUsNumber(s.overlap.computing);
    oo.key("communication_us") += formatUsNumber(s.overlap.communication);
    oo.key("communication_not_overlapped_us") += formatUsNumber(s.overlap.commNotOverlapped);
    oo.key("overlapped_us") += formatUsNumber(s.overlap.overlapped);
    oo.key("free_us") += formatUsNumber(s.overlap.free);
    oo.key("e2e_us") += formatUsNumber(s.overlap.e2e);
    oo.close();
    std::string& v = j.key("verdict");
    Obj vo(v);
    str(vo.key("dominant"), s.dominant);
    str(vo.key("headline"), s.headline);
    str(vo.key("summary"), s.verdictSummary);
    appendJsonStringArray(vo.key("findings"), s.findings);
    appendJsonStringArray(vo.key("suggestions"), s.suggestions);
    vo.close();
    num(j.key("gaps_found"), static_cast<std::int64_t>(s.gapsFound));
    j.key("bubbles") += '[';
    for (std::size_t i = 0; i < s.bubbles.size(); ++i) {
      const SummaryBubble& b = s.bubbles[i];
      if (i) o += ", ";
      Obj bo(o);
      num(bo.key("start_ns"), b.range.start);
      bo.key("duration_us") += formatUsNumber(b.range.duration());
      num(bo.key("step"), b.step);
      str(bo.key("cause"), b.cause);
      str(bo.key("detail"), b.detail);
      bo.key("chain") += '[';
      for (std::size_t k = 0; k < b.chain.size(); ++k) {
        o += k ? ", {" : "{";
        o += "\"layer\": ";
        str(o, b.chain[k].first);
        o += ", \"name\": ";
        str(o, b.chain[k].second);
        o += '}';
      }
      o += ']';
      std::string& l = bo.key("launch_latency_us");
      if (b.launchLatency) l += formatUsNumber(*b.launchLatency);
      else l += "null";
      bo.close();
    }
    o += ']';
    // The operator table's members (operators_chip, operators, decision_tree, dispatch_stats).
    if (s.operatorsJson.size() > 2) o += ", " + s.operatorsJson.substr(1, s.operatorsJson.size() - 2);
  }
  j.close();
  return o;
}

std::vector<std::string> summaryReportLines(const RankSummary& s) {
  std::vector<std::string> out;
  out.push_back("summary of " + (s.host.empty() ? std::string() : s.host + ":") + s.path + " (" + s.file + ", " +
                std::to_string(s.events) + " events, " + std::to_string(s.ops.size()) + " HCCL ops)");
  if (!s.error.empty()) out.push_back("error: " + s.error);
  for (const SummaryStep& st : s.steps)
    out.push_back("step " + std::to_string(st.number) + ": computing " + formatUsNumber(st.computed.computing) +
                  " us, communication (not overlapped) " + formatUsNumber(st.computed.commNotOverlapped) + " us, free " +
                  formatUsNumber(st.computed.free) + " us");
  if (!s.full) return out;
  out.push_back("verdict: " + s.headline + (s.verdictSummary.empty() ? std::string() : " - " + s.verdictSummary));
  for (const std::string& f : s.findings) out.push_back("  * " + f);
  for (const SummaryBubble& b : s.bubbles)
    out.push_back("bubble " + formatUsNumber(b.range.duration()) + " us at " + std::to_string(b.range.start) + " ns: " + b.cause +
                  (b.detail.empty() ? std::string() : " (" + b.detail + ")"));
  return out;
}

}  // namespace npuscope::core
