// SPDX-License-Identifier: MIT
#include "core/import/json/json_event_interpreter.h"
#include "core/import/lazy_warning.h"
#include "core/base/time_limits.h"

#include <cerrno>
#include <cstdlib>
#include <tuple>
#include <utility>

namespace npuscope::core::detail {

namespace od = simdjson::ondemand;

std::string offsetText(std::size_t off) { return "at byte " + std::to_string(off); }

EventInterpreter::EventInterpreter(WorkerOut& out) : m_out(out) {}

/// One warning per repaired string (`base`: file offset of the repaired text). The example
/// text is only built while the kind still keeps examples.
void EventInterpreter::reportRepairs(const SanitizeResult& fix, std::uint64_t base) {
  for (const RepairedString& r : fix.strings) {
    if (r.invalidUtf8)
      m_out.stats.add(ImportWarning::InvalidUtf8,
                      m_out.stats.count(ImportWarning::InvalidUtf8) < ImportStats::kExamplesPerKind
                          ? "invalid UTF-8 or lone surrogate replaced by U+FFFD in a string " + offsetText(base + r.offset)
                          : std::string());
    if (r.control)
      m_out.stats.add(ImportWarning::ControlCharacter,
                      m_out.stats.count(ImportWarning::ControlCharacter) < ImportStats::kExamplesPerKind
                          ? "raw control character shown as \\u00xx in a string " + offsetText(base + r.offset)
                          : std::string());
    if (r.badEscape)
      m_out.stats.add(ImportWarning::InvalidEscape,
                      m_out.stats.count(ImportWarning::InvalidEscape) < ImportStats::kExamplesPerKind
                          ? "invalid escape kept as text in a string " + offsetText(base + r.offset)
                          : std::string());
  }
}

/// File offset of the args text (a view into m_eventBase), through the byte map when the
/// event was repaired.
std::uint64_t EventInterpreter::argsFileOffset(std::string_view args) const {
  const auto rel = static_cast<std::size_t>(args.data() - m_eventBase);
  return m_eventBegin + (m_argsMap ? (*m_argsMap)[rel] : rel);
}

/// Length in the file of the args text (differs from args.size() in a repaired event).
std::uint32_t EventInterpreter::argsFileLength(std::string_view args) const {
  if (!m_argsMap || args.empty()) return static_cast<std::uint32_t>(args.size());
  const auto rel = static_cast<std::size_t>(args.data() - m_eventBase);
  return (*m_argsMap)[rel + args.size() - 1] + 1 - (*m_argsMap)[rel];
}

std::pair<std::uint64_t, std::uint32_t> EventInterpreter::keptArgs(std::string_view args) {
  const std::uint64_t offset = argsFileOffset(args);
  const std::uint32_t length = argsFileLength(args);
  if (!m_out.copyArgs) return {offset, length};
  // The file's bytes, not the view's: those of a repaired or blanked copy differ (the args are
  // repaired again when read, as for args read from the file).
  const std::uint64_t at = m_out.copiedArgs.size();
  m_out.copiedArgs.append(m_eventRaw + (offset - m_eventBegin), length);
  return {at, length};
}

bool flowNameFromId(std::string_view ph, std::string_view name, std::string_view cat, const EventFields& f) {
  if (ph.size() != 1 || (ph[0] != 's' && ph[0] != 't' && ph[0] != 'f') || !f.hasId) return false;
  // Most flow names (enqueue_to_dequeue) do not start with their category: no id to parse.
  if (!name.starts_with(cat)) return false;
  const FlowIdParse id = parseFlowId(f.idToken, f.idIsString);
  return id.value && flowNameIsCategoryAndId(name, cat, *id.value);
}

Key EventInterpreter::checkedKey(const EventFields& f, bool pid) {
  const Key k = pid ? f.pid : f.tid;
  const bool has = pid ? f.hasPid : f.hasTid;
  if (!has) return {0, KeyKind::Number};  // absent: 0, as chrome://tracing does
  if (k.kind == KeyKind::Invalid) {
    addWarning(m_out.stats, ImportWarning::BadPid,
               [&] { return std::string(pid ? "pid" : "tid") + " not a number or string " + offsetText(m_eventBegin); });
    return {0, KeyKind::Invalid};
  }
  return k;
}

void EventInterpreter::dispatch(const EventFields& f) {
  const char ph = f.ph.size() == 1 ? f.ph[0] : '\0';
  // An event kept with a malformed args object (its args read as none) is counted here. Both
  // paths set argsMalformed by the same rule (scanArgsObject), so the count does not depend on
  // the path. An event dropped for its ts or phase is counted under that warning only.
  const auto countMalformedArgs = [&] {
    addWarning(m_out.stats, ImportWarning::MalformedArgs, [&] {
      const std::string_view name = f.name == kFlowNameIsCategoryAndId ? std::string_view() : m_out.pool.view(f.name);
      return "malformed args object" + (name.empty() ? std::string() : " of \"" + std::string(name) + "\"") + " (event " +
             offsetText(m_eventBegin) + ")";
    });
  };
  if (ph == 'M') {
    if (f.argsMalformed) countMalformedArgs();
    return metadata(f);
  }
  const Key pid = checkedKey(f, true);
  if (!f.ts) {
    m_out.stats.add(ImportWarning::MissingTimestamp,
                    std::string(f.tsPresent ? "unreadable ts " : "no ts ") + offsetText(m_eventBegin));
    return;
  }
  const TimeNs ts = *f.ts;
  // Times stay within +-kMaxTimeNs so that no end, difference or range width can wrap.
  if (ts > kMaxTimeNs || ts < -kMaxTimeNs) {
    m_out.stats.add(ImportWarning::MissingTimestamp,
                    "ts " + std::to_string(ts) + " ns, beyond +-2^62 ns (146 years from 1970), " + offsetText(m_eventBegin));
    return;
  }
  // b / e / n without an id are dropped as AsyncWithoutId (async()): counted there only.
  if (f.argsMalformed && ph != '\0' && std::strchr("XBEiIRCstfben", ph) &&
      (!std::strchr("ben", ph) || f.hasId || f.hasId2))
    countMalformedArgs();
  switch (ph) {
    case 'X': {
      TimeNs dur = f.dur.value_or(0);
      if (!f.dur || dur < 0) {
        addWarning(m_out.stats, ImportWarning::BadDuration, [&] { return "X event without a valid dur " + offsetText(m_eventBegin); });
        dur = 0;
      }
      if (dur > kMaxTimeNs - ts) {  // no overflow: ts >= -kMaxTimeNs, so kMaxTimeNs - ts < 2^63
        m_out.stats.add(ImportWarning::BadDuration,
                        "dur " + std::to_string(dur) + " ns ends beyond 2^62 ns, taken as 0, " + offsetText(m_eventBegin));
        dur = 0;
      }
      addSlice(f, pid, ts, dur, 'X', 0);
      noteTime(ts, ts + dur);
      if (f.flowIn || f.flowOut) flowV2(f, pid, ts, dur);
      return;
    }
    case 'B':
    case 'E':
      addSlice(f, pid, ts, -1, ph, 0);
      noteTime(ts, ts);
      // Flow v2 on a begin: the slice it opens is the flow's end (its end is not known yet: the
      // flow binds to the deepest slice holding ts, which is this one unless a child begins at
      // the same ts). On an end: Perfetto's JSON importer reads flows on B and X only
      // (json_trace_parser.cc, MaybeAddFlow), so they are ignored, and counted.
      if (f.flowIn || f.flowOut) {
        if (ph == 'B') flowV2(f, pid, ts, -1);
        else addWarning(m_out.stats, ImportWarning::FlowOnEnd, [&] { return "E event with flow_in/flow_out " + offsetText(m_eventBegin); });
      }
      return;
    case 'i':
    case 'I':
      instant(f, pid, ts);
      noteTime(ts, ts);
      return;
    case 'R':
      addSlice(f, pid, ts, 0, 'X', kSliceInstant);
      noteTime(ts, ts);
      return;
    case 'C':
      counter(f, pid, ts);
      noteTime(ts, ts);
      return;
    case 's':
    case 't':
    case 'f':
      flow(f, pid, ts, ph);
      return;
    case 'b':
    case 'e':
    case 'n':
      async(f, pid, ts, ph);
      noteTime(ts, ts);
      return;
    default:
      addWarning(m_out.stats, ImportWarning::UnknownPhase, [&] { return "ph \"" + std::string(f.ph) + "\" " + offsetText(m_eventBegin); });
      return;
  }
}

void EventInterpreter::addSlice(const EventFields& f, const Key& pid, TimeNs ts, TimeNs dur, char ph, std::uint8_t flags) {
  const Key tid = checkedKey(f, false);
  const std::uint32_t t = m_out.thread(pid, tid);
  RawSlice r;
  r.ts = ts;
  r.dur = dur;
  r.name = f.name;
  r.cat = f.cat;
  r.setPh(ph);
  r.setFlags(flags);
  if (!f.args.empty()) {
    const auto [offset, length] = keptArgs(f.args);
    r.setArgs(offset, length, m_out.longArgs);
  }
  m_out.slices[t].push_back(r);
}

/// An instant at its scope (Trace Event Format: `s` "t" thread, "p" process, "g" global). A
/// process instant goes to the process's lane "(process instants)", a global one to the lane
/// "(global instants)" of the process "(global instants)" (string keys, so they cannot meet a
/// numeric pid or tid). Any other scope is a warning and the instant stays on its thread.
void EventInterpreter::instant(const EventFields& f, const Key& pid, TimeNs ts) {
  static constexpr std::string_view kProcessLane = "(process instants)", kGlobal = "(global instants)";
  if (f.scope == '?')
    m_out.stats.add(ImportWarning::InvalidInstantScope, "instant scope not t/p/g " + offsetText(m_eventBegin));
  if (f.scope != 'p' && f.scope != 'g') return addSlice(f, pid, ts, 0, 'X', kSliceInstant);
  const Key where = f.scope == 'g' ? Key{static_cast<std::int64_t>(m_out.pool.intern(kGlobal)), KeyKind::String} : pid;
  const Key lane{static_cast<std::int64_t>(m_out.pool.intern(f.scope == 'g' ? kGlobal : kProcessLane)), KeyKind::String};
  RawSlice r;
  r.ts = ts;
  r.dur = 0;
  r.name = f.name;
  r.cat = f.cat;
  r.setPh('X');
  r.setFlags(kSliceInstant);
  if (!f.args.empty()) {
    const auto [offset, length] = keptArgs(f.args);
    r.setArgs(offset, length, m_out.longArgs);
  }
  m_out.slices[m_out.thread(where, lane)].push_back(r);
}

/// Flow v2 (Trace Event Format: `bind_id`, else `id`, with `flow_out` / `flow_in` on a slice):
/// the X (or B) slice itself is the flow's source / destination. The flows have no category and no
/// name (as TraceBuilder::addFlowOut), so v2 endpoints pair by their id alone.
void EventInterpreter::flowV2(const EventFields& f, const Key& pid, TimeNs ts, TimeNs dur) {
  EventFields g;
  g.tid = f.tid;
  g.hasTid = f.hasTid;
  g.cat = kEmptyName;
  g.name = kEmptyName;
  g.bpE = true;
  g.hasId = f.hasBindId || f.hasId;
  g.idToken = f.hasBindId ? f.bindIdToken : f.idToken;
  g.idIsString = f.hasBindId ? f.bindIdIsString : f.idIsString;
  // dur < 0: a B event, whose end is not known: bound to the slice enclosing ts.
  const auto bindToSlice = [&] {
    if (dur < 0) return;
    m_out.flows.back().hasBindEnd = true;
    m_out.flowBindEnds.emplace_back(m_out.flows.back().order, ts + dur);
  };
  if (f.flowOut) {
    flow(g, pid, ts, 's');
    bindToSlice();
  }
  if (f.flowIn) {
    flow(g, pid, ts, 'f');
    bindToSlice();
  }
}

void EventInterpreter::flow(const EventFields& f, const Key& pid, TimeNs ts, char ph) {
  const Key tid = checkedKey(f, false);
  RawFlow r;
  r.ts = ts;
  r.ph = ph;
  r.key = m_out.flowKeys.intern(f.cat, f.name);
  r.bindEnclosing = f.bpE;
  r.thread = m_out.thread(pid, tid);
  r.order = static_cast<std::uint32_t>(m_out.flows.size());
  // Id rule (case 10): a number -> its exact value; a string "0x.." -> hex, an all-digit
  // string -> decimal; any other text is compared as text.
  std::string_view tok = f.hasId ? f.idToken : (f.hasId2 ? f.id2Token : std::string_view{});
  const bool isString = f.hasId ? f.idIsString : (!tok.empty() && tok.front() == '"');
  if (tok.empty()) {
    r.idKind = FlowIdKind::Invalid;
    r.id = m_out.pool.intern("(no id)");
  } else {
    const FlowIdParse p = parseFlowId(tok, isString);
    if (p.value) {
      r.idKind = FlowIdKind::Numeric;
      r.id = *p.value;
    } else {
      // A JSON number beyond uint64 cannot be compared exactly: invalid (case 04). A string
      // is compared as text whatever its length (msprof's packed HostToDevice ids exceed
      // uint64 as decimal strings).
      r.idKind = (p.overflow && !isString) ? FlowIdKind::Invalid : FlowIdKind::Text;
      r.id = m_out.pool.intern(tok);
    }
  }
  m_out.flows.push_back(r);
  noteTime(ts, ts);
}

void EventInterpreter::async(const EventFields& f, const Key& pid, TimeNs ts, char ph) {
  if (!f.hasId && !f.hasId2) {
    addWarning(m_out.stats, ImportWarning::AsyncWithoutId, [&] { return "async event without id " + offsetText(m_eventBegin); });
    return;
  }
  RawAsync r;
  r.ts = ts;
  r.ph = ph;
  r.name = f.name;
  r.cat = f.cat;
  r.process = m_out.process(pid);
  r.global = f.hasId2 ? f.id2Global : false;
  r.idText = m_out.pool.intern(f.hasId ? f.idToken : f.id2Token);
  if (!f.args.empty()) std::tie(r.argsOffset, r.argsLength) = keptArgs(f.args);
  m_out.asyncs.push_back(r);
}

// Re-parses a raw args object (small) with the second parser. The event's own parse checked
// its UTF-8 and control bytes, not what the escapes inside args decode to: args with a
// backslash are repaired first (a lone surrogate escape becomes \ufffd, reported).
bool EventInterpreter::iterateArgs(std::string_view args, simdjson::ondemand::document& doc) {
  m_argsBuf.clear();
  if (std::memchr(args.data(), '\\', args.size())) {
    const SanitizeResult fix = sanitizeJsonStrings(args, m_argsBuf);
    reportRepairs(fix, argsFileOffset(args));
  } else {
    m_argsBuf.assign(args.data(), args.size());
  }
  const std::size_t len = m_argsBuf.size();
  m_argsBuf.append(simdjson::SIMDJSON_PADDING, ' ');
  return !m_argsParser.iterate(m_argsBuf.data(), len, m_argsBuf.size()).get(doc);
}

void EventInterpreter::counter(const EventFields& f, const Key& pid, TimeNs ts) {
  if (f.argsNotObject)
    addWarning(m_out.stats, ImportWarning::BadCounterValue, [&] { return "counter args that are not an object " + offsetText(m_eventBegin); });
  // A malformed args object is counted as kept without its args (MalformedArgs): no values are
  // read from it, though On-Demand would read the members before a broken nested value.
  if (f.args.empty() || f.argsMalformed) return;
  simdjson::ondemand::document doc;
  if (!iterateArgs(f.args, doc)) return;
  od::object o;
  if (doc.get_object().get(o)) return;
  NameId name = f.name;
  if (f.hasId) {
    std::string n(m_out.pool.view(f.name));
    n += " [";
    n += f.idToken;
    n += "]";
    name = m_out.pool.intern(n);
  }
  const std::uint32_t proc = m_out.process(pid);
  // Values and bad keys are kept aside until the whole object has been read: args whose member
  // grammar breaks part-way ({"":"":}, kept by the fast scanner as a byte range) read as no args,
  // as the simdjson path reads them (SimdjsonEventParser::parseBlankArgs blanks them), not as the
  // members before the break (found by fuzz_json_differential, issue 15 item 7).
  m_counterValues.clear();
  m_counterBadKeys.clear();
  for (auto fr : o) {
    od::field ff;
    if (std::move(fr).get(ff)) return;
    std::string_view k;
    if (ff.unescaped_key().get(k)) return;
    const NameId keyId = m_out.pool.intern(k);
    od::value v = ff.value();
    od::json_type t;
    if (v.type().get(t)) return;
    double value = 0;
    bool ok = false;
    if (t == od::json_type::number) {
      ok = !v.get_double().get(value);
    } else if (t == od::json_type::string) {
      std::string_view s;
      if (!v.get_string().get(s)) {
        std::string tmp(s);
        char* endp = nullptr;
        value = std::strtod(tmp.c_str(), &endp);
        ok = endp && endp != tmp.c_str() && *endp == '\0';
      }
    }
    if (!ok) {
      m_counterBadKeys.push_back(keyId);
      continue;
    }
    m_counterValues.push_back(RawCounter{ts, value, proc, name, keyId});
  }
  for (const NameId k : m_counterBadKeys)
    addWarning(m_out.stats, ImportWarning::BadCounterValue, [&] {
      return "counter " + std::string(m_out.pool.view(name)) + "." + std::string(m_out.pool.view(k)) + " " +
             offsetText(m_eventBegin);
    });
  for (const RawCounter& c : m_counterValues) m_out.counters.push_back(c);
}

void EventInterpreter::metadata(const EventFields& f) {
  const Key pid = checkedKey(f, true);
  const std::string_view what = m_out.pool.view(f.name);
  RawMeta m;
  m.process = m_out.process(pid);
  if (what == "process_name") m.kind = MetaKind::ProcessName;
  else if (what == "process_labels") m.kind = MetaKind::ProcessLabels;
  else if (what == "process_sort_index") m.kind = MetaKind::ProcessSortIndex;
  else if (what == "thread_name") m.kind = MetaKind::ThreadName;
  else if (what == "thread_sort_index") m.kind = MetaKind::ThreadSortIndex;
  else return;  // other metadata (process_uptime_seconds, ...) is ignored
  if (m.kind == MetaKind::ThreadName || m.kind == MetaKind::ThreadSortIndex)
    m.thread = m_out.thread(pid, checkedKey(f, false));
  // A malformed args object reads as no args, as in counter(): not even its strings are repaired
  // (the fast path reported an invalid escape in {"\x"} that the simdjson path, which blanks the
  // object, never sees; found by fuzz_json_scanner).
  if (f.args.empty() || f.argsMalformed) return;
  simdjson::ondemand::document doc;
  if (!iterateArgs(f.args, doc)) return;
  // find_field_unordered reads only up to the member it wants: args whose grammar breaks later
  // ({"name":"Pyth{": "x"}) must read as no args, as the simdjson path reads them (it blanks
  // them; found by fuzz_json_differential). Metadata events are few: validate them whole.
  simdjson::dom::element whole;
  if (m_metaParser.parse(m_argsBuf.data(), m_argsBuf.size() - simdjson::SIMDJSON_PADDING, false).get(whole)) return;
  od::object o;
  if (doc.get_object().get(o)) return;
  const char* wanted = m.kind == MetaKind::ProcessLabels ? "labels"
                       : (m.kind == MetaKind::ProcessName || m.kind == MetaKind::ThreadName) ? "name"
                                                                                               : "sort_index";
  od::value v;
  if (o.find_field_unordered(wanted).get(v)) return;
  od::json_type t;
  if (v.type().get(t)) return;
  if (m.kind == MetaKind::ProcessSortIndex || m.kind == MetaKind::ThreadSortIndex) {
    std::int64_t n = 0;
    bool ok = false;
    if (t == od::json_type::number) {
      ok = !v.get_int64().get(n);
      if (!ok) {
        double d;
        std::int64_t i = 0;
        if (!v.get_double().get(d) && doubleToInt(d, i) && d == static_cast<double>(i)) {
          n = i;
          ok = true;
        }
      }
    } else if (t == od::json_type::string) {
      std::string_view s;
      if (!v.get_string().get(s)) {
        std::string tmp(s);
        char* endp = nullptr;
        errno = 0;
        n = std::strtoll(tmp.c_str(), &endp, 10);
        ok = !tmp.empty() && endp && *endp == '\0' && errno == 0;
      }
    }
    m.valid = ok;
    m.number = n;
    if (!ok)
      addWarning(m_out.stats, ImportWarning::BadSortIndex, [&] { return "sort_index not an integer " + offsetText(m_eventBegin); });
  } else {
    std::string_view s;
    if (t == od::json_type::string) {
      if (v.get_string().get(s)) return;
    } else {
      // A number or literal as written, without the whitespace raw_json_token() keeps after it.
      s = v.raw_json_token();
      while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
    }
    m.text = m_out.pool.intern(s);
  }
  m_out.metas.push_back(m);
}

}  // namespace npuscope::core::detail
