// SPDX-License-Identifier: MIT
#include "core/model/slice_args.h"

#include <simdjson.h>

#include "core/base/json_text.h"
#include "core/base/mapped_file.h"
#include "core/import/json/json_fast.h"
#include "core/import/json/json_scan.h"

namespace npuscope::core {

namespace {
namespace od = simdjson::ondemand;

/// The (schema, row) of a slice whose args are a row of Trace::rowArgs (kRowArgs).
bool rowArgsOf(const Trace& trace, SliceRef r, RowArgs::Schema& schema, std::uint64_t& row) {
  if (!r.valid() || r.lane >= trace.lanes.size()) return false;
  const Lane& l = trace.lanes[r.lane];
  if (r.index >= l.argsOffset.size() || !(l.argsOffset[r.index] & kRowArgs) || l.argsLength[r.index] == 0) return false;
  schema = l.argsLength[r.index] - 1;
  row = l.argsOffset[r.index] & ~kRowArgs;
  return true;
}

/// Calls fn(key, value) for the top-level args of slice `r` in file order while fn returns true.
/// `want(key)` first: a member it refuses is skipped without copying its key or value (the
/// analyses read a few keys of hundreds of thousands of slices; issue 43).
template <typename Want, typename Fn>
void forEachArg(const Trace& trace, SliceRef r, Want&& want, Fn&& fn) {
  RowArgs::Schema schema = 0;
  std::uint64_t row = 0;
  if (rowArgsOf(trace, r, schema, row)) {
    trace.rowArgs.forEach(schema, row, [&](std::string_view k, std::string& v) { return !want(k) || fn(std::string(k), v); });
    return;
  }
  const std::string_view text = trace.argsText(r);
  if (text.empty()) return;
  thread_local od::parser parser;
  thread_local std::string buf;
  buf.clear();
  // The args are the file's bytes: repair invalid UTF-8, raw control bytes and lone surrogate
  // escapes as the reader did for the event (case 19: kname "k\uFFFD\uFFFD_\uFFFD(x"). The
  // reader reported them when it parsed the event; nothing is reported here.
  (void)detail::sanitizeJsonStrings(text, buf);
  const std::size_t len = buf.size();
  // An args object the reader counted as malformed (ImportWarning::MalformedArgs, the same
  // check) reads as no args, not as the members before the break.
  if (len == 0 || buf[0] != '{' || detail::argsObjectMalformed(buf.data(), buf.data() + len)) return;
  buf.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser.iterate(buf.data(), len, buf.size()).get(doc)) return;
  od::object o;
  if (doc.get_object().get(o)) return;
  for (auto fr : o) {
    od::field f;
    if (std::move(fr).get(f)) return;
    std::string_view k;
    if (f.unescaped_key().get(k)) return;
    if (!want(k)) continue;
    std::string key(k);
    od::value v = f.value();
    od::json_type t;
    if (v.type().get(t)) return;
    std::string value;
    if (t == od::json_type::string) {
      std::string_view s;
      if (v.get_string().get(s)) return;
      value.assign(s);
    } else if (t == od::json_type::object || t == od::json_type::array) {
      std::string_view raw;
      if (t == od::json_type::object) {
        od::object so;
        if (v.get_object().get(so) || so.raw_json().get(raw)) return;
      } else {
        od::array sa;
        if (v.get_array().get(sa) || sa.raw_json().get(raw)) return;
      }
      value.assign(raw);
    } else {
      std::string_view raw = v.raw_json_token();
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
        raw.remove_suffix(1);
      value.assign(raw);
    }
    if (!fn(key, value)) return;
  }
}
}  // namespace

std::string sliceArgsJson(const Trace& trace, SliceRef r) {
  std::string out;
  RowArgs::Schema schema = 0;
  std::uint64_t row = 0;
  if (rowArgsOf(trace, r, schema, row)) {
    // Every value as a JSON string, as the reader gave owned args (TraceBuilder, ImportArgs).
    trace.rowArgs.forEach(schema, row, [&](std::string_view k, const std::string& v) {
      out += out.empty() ? '{' : ',';
      appendJsonString(out, k);
      out += ':';
      appendJsonString(out, v);
      return true;
    });
    if (!out.empty()) out += '}';
    return out;
  }
  (void)detail::sanitizeJsonStrings(trace.argsText(r), out);
  // The reader keeps an args object whose brackets and strings are sound but whose member
  // grammar is not ({"a" 1}, {a:1}, {"a":}: issue 15 item 7, both paths alike); such args read as
  // no args, so the promise "a strict parser accepts it" holds (found by fuzz/fuzz_json_trace).
  if (!out.empty()) {
    thread_local simdjson::dom::parser strict;
    simdjson::dom::object object;
    if (strict.parse(out).get(object)) out.clear();
  }
  return out;
}

std::optional<std::string> sliceArg(const Trace& trace, SliceRef r, std::string_view key) {
  RowArgs::Schema schema = 0;
  std::uint64_t row = 0;
  if (rowArgsOf(trace, r, schema, row)) return trace.rowArgs.find(schema, row, key);  // O(keys), no parse
  std::optional<std::string> out;
  forEachArg(
      trace, r, [&](std::string_view k) { return k == key; },
      [&](const std::string&, std::string& v) {
        out = std::move(v);
        return false;
      });
  return out;
}

void sliceArgValues(const Trace& trace, SliceRef r, std::initializer_list<std::string_view> keys, std::optional<std::string>* out) {
  std::size_t left = keys.size();
  for (std::size_t i = 0; i < keys.size(); ++i) out[i].reset();
  if (left == 0) return;
  RowArgs::Schema schema = 0;
  std::uint64_t row = 0;
  if (rowArgsOf(trace, r, schema, row)) {
    std::size_t i = 0;
    for (std::string_view k : keys) out[i++] = trace.rowArgs.find(schema, row, k);
    return;
  }
  const auto wanted = [&](std::string_view k) {
    std::size_t i = 0;
    for (std::string_view want : keys)
      if (!out[i++] && k == want) return true;
    return false;
  };
  forEachArg(trace, r, wanted, [&](const std::string& k, std::string& v) {
    std::size_t i = 0;
    for (std::string_view want : keys) {
      if (!out[i] && k == want) {
        out[i] = std::move(v);
        return --left > 0;
      }
      ++i;
    }
    return true;
  });
}

std::string argsLostMessage(const Trace& trace, SliceRef r) {
  if (!r.valid() || !trace.file || r.lane >= trace.lanes.size()) return {};
  const Lane& l = trace.lanes[r.lane];
  if (r.index >= l.argsOffset.size() || l.argsLength[r.index] == 0 || (l.argsOffset[r.index] & kOwnedArgs)) return {};
  if (l.argsOffset[r.index] + l.argsLength[r.index] <= trace.file->validSize()) return {};
  return trace.file->shrinkMessage();
}

std::vector<std::pair<std::string, std::string>> sliceArgs(const Trace& trace, SliceRef r) {
  std::vector<std::pair<std::string, std::string>> out;
  if (std::string lost = argsLostMessage(trace, r); !lost.empty()) {
    out.emplace_back("(args lost)", std::move(lost));
    return out;
  }
  forEachArg(trace, r, [](std::string_view) { return true; }, [&](const std::string& k, std::string& v) {
    out.emplace_back(k, std::move(v));
    return true;
  });
  return out;
}

}  // namespace npuscope::core
