// SPDX-License-Identifier: MIT
#pragma once
// A structure-aware mutator for the JSON event targets (issue 26 item 2): besides libFuzzer's own
// byte mutations (with the target's dictionary), it edits the text at the level of an event's
// members, so that most mutated inputs stay events that get past the first brace and reach the
// readers' per-member logic:
//   - replace a member's value with one of the values the format or its edge cases use;
//   - rename a member to one of the trace keys (its value kept);
//   - repeat a member right after itself (repeated keys: the last one wins on both paths);
//   - delete a member;
//   - insert a member (trace key, edge value) right after an object's `{`;
//   - repeat a whole object after itself (a second event, or a nested copy).
// Define NPUSCOPE_FUZZ_JSON_MUTATOR in exactly one translation unit (the target) before including
// this header to get LLVMFuzzerCustomMutator; it falls back to LLVMFuzzerMutate for 5 calls in 8,
// and whenever the edit would not fit max_size.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace npuscope::fuzz {

/// The trace format's keys (format notes §2) and a few others.
inline constexpr std::string_view kTraceKeys[] = {
    "ph", "name", "cat", "pid", "tid", "ts", "dur", "id", "id2", "bp", "s", "args", "bind_id", "flow_in", "flow_out",
    "tts", "local", "global", "labels", "sort_index", "Task Type", "traceEvents", "a", ""};

/// Values: the phases, times and ids in the forms the profilers write them, and the edge cases of
/// JSON numbers, strings and types.
inline constexpr std::string_view kTraceValues[] = {
    "\"X\"", "\"B\"", "\"E\"", "\"i\"", "\"I\"", "\"C\"", "\"M\"", "\"s\"", "\"t\"", "\"f\"", "\"b\"", "\"e\"", "\"n\"",
    "\"R\"", "\"P\"", "\"\"", "\"XX\"", "\"e\"", "\"g\"", "\"p\"",
    "\"process_name\"", "\"process_labels\"", "\"process_sort_index\"", "\"thread_name\"", "\"thread_sort_index\"",
    "0", "1", "-1", "7", "1000", "1.5", "-0", "-0.0", "0.0005", "0.00049", "1e3", "1E-3", "1.5e+2", "1e400", "-1e400",
    "4611686018427387", "4611686018427388", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551615", "18446744073709551616", "1731400000123456.789", "0.1234567891", "00", "01", "1.", ".5",
    "\"1000.125\"", "\"12.3456789\"", "\"-3\"", "\"1e3\"", "\"0x1F\"", "\"0x\"", "\"abc\"", "\" 1\"", "\"1 \"",
    "\"\\u0041\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\ud83d\\ude00\"", "\"\\u0000\"", "\"a\\\"b\"", "\"\\x\"",
    "\"\xff\"", "\"\xc3\x28\"", "\"\xe2\x82\xac\"", "\"\x01\"", "\"\t\"",
    "true", "false", "null", "{}", "[]", "[1]", "{\"name\":\"Python\"}", "{\"labels\":\"NPU 0\"}",
    "{\"sort_index\":-3}", "{\"Task Type\":\"AI_CORE\"}", "{\"MHz\":1800}", "{\"a\":1,\"b\":\"x\"}",
    "{\"a\" 1}", "{\"a\":}", "{a:1}", "{\"\":\"\":}", "{\"global\":\"0x1\"}", "{\"local\":\"7\"}"};

/// A small splitmix-style generator (libFuzzer gives the seed).
class FuzzRandom {
 public:
  explicit FuzzRandom(unsigned seed) : m_state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }

 private:
  std::uint64_t m_state;
};

namespace json_mutator {

/// One past the JSON value (string, container or scalar) at `i`, skipping strings and nested
/// brackets; a scalar ends at `,` `}` `]` or whitespace. The text's end when it does not close.
inline std::size_t valueEnd(std::string_view t, std::size_t i) {
  if (i >= t.size()) return t.size();
  if (t[i] == '"') {
    for (std::size_t k = i + 1; k < t.size(); ++k) {
      if (t[k] == '\\') ++k;
      else if (t[k] == '"') return k + 1;
    }
    return t.size();
  }
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    for (std::size_t k = i; k < t.size(); ++k) {
      const char c = t[k];
      if (c == '"') {
        k = valueEnd(t, k) - 1;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return k + 1;
      }
    }
    return t.size();
  }
  std::size_t k = i;
  while (k < t.size() && t[k] != ',' && t[k] != '}' && t[k] != ']' && t[k] != ' ' && t[k] != '\n') ++k;
  return k;
}

/// A member `"key": value`: [keyBegin, keyEnd) is the key with its quotes, [valueBegin, valueEnd)
/// the value.
struct Member {
  std::size_t keyBegin, keyEnd, valueBegin, valueEnd;
};

/// The members of the text (keys found as a string followed by `:`), at most 256.
inline std::vector<Member> members(std::string_view t) {
  std::vector<Member> out;
  for (std::size_t i = 0; i < t.size() && out.size() < 256; ++i) {
    if (t[i] != '"') continue;
    const std::size_t keyEnd = valueEnd(t, i);
    std::size_t k = keyEnd;
    while (k < t.size() && (t[k] == ' ' || t[k] == '\n' || t[k] == '\t' || t[k] == '\r')) ++k;
    if (k < t.size() && t[k] == ':') {
      std::size_t v = k + 1;
      while (v < t.size() && (t[v] == ' ' || t[v] == '\n' || t[v] == '\t' || t[v] == '\r')) ++v;
      out.push_back({i, keyEnd, v, valueEnd(t, v)});
    }
    i = keyEnd - 1;
  }
  return out;
}

template <std::size_t N>
std::string_view pick(const std::string_view (&table)[N], FuzzRandom& r) {
  return table[r.below(N)];
}

inline std::string quoted(std::string_view key) { return "\"" + std::string(key) + "\""; }

/// One structural edit of `t` (in place); false when there was nothing to edit.
inline bool mutate(std::string& t, FuzzRandom& r) {
  const std::vector<Member> ms = members(t);
  const std::size_t op = r.below(6);
  if (op == 4 || op == 5 || ms.empty()) {
    std::vector<std::size_t> braces;
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i] == '{') braces.push_back(i);
    if (braces.empty()) return false;
    const std::size_t at = braces[r.below(braces.size())];
    if (op == 5) {
      // The whole object again, after itself.
      const std::size_t end = valueEnd(t, at);
      t.insert(end, "," + t.substr(at, end - at));
      return true;
    }
    const std::string member = quoted(pick(kTraceKeys, r)) + ":" + std::string(pick(kTraceValues, r));
    const bool empty = at + 1 < t.size() && t[at + 1] == '}';
    t.insert(at + 1, empty ? member : member + ",");
    return true;
  }
  const Member m = ms[r.below(ms.size())];
  switch (op) {
    case 0:
      t.replace(m.valueBegin, m.valueEnd - m.valueBegin, pick(kTraceValues, r));
      return true;
    case 1:
      t.replace(m.keyBegin, m.keyEnd - m.keyBegin, quoted(pick(kTraceKeys, r)));
      return true;
    case 2:
      t.insert(m.valueEnd, "," + t.substr(m.keyBegin, m.valueEnd - m.keyBegin));
      return true;
    default: {
      // Delete the member and the comma after it (or before it, for the last one).
      std::size_t b = m.keyBegin, e = m.valueEnd;
      if (e < t.size() && t[e] == ',') ++e;
      else if (b > 0 && t[b - 1] == ',') --b;
      t.erase(b, e - b);
      return true;
    }
  }
}

}  // namespace json_mutator

/// The custom mutator's body: a structural edit for 3 calls in 8, else libFuzzer's own mutation.
/// `skip` leading bytes (a target's mode byte) are kept as they are by the structural edits.
inline std::size_t mutateJson(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed,
                              std::size_t skip = 0) {
  FuzzRandom r(seed);
  if (r.below(8) < 5 || size <= skip) return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char*>(data) + skip, size - skip);
  if (!json_mutator::mutate(text, r) || text.size() + skip > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data + skip, text.data(), text.size());
  return text.size() + skip;
}

}  // namespace npuscope::fuzz

#ifdef NPUSCOPE_FUZZ_JSON_MUTATOR
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed) {
  return npuscope::fuzz::mutateJson(data, size, maxSize, seed);
}
#endif
