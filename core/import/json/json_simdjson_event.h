// SPDX-License-Identifier: MIT
#pragma once
// The general (simdjson On-Demand) path of the JSON reader: parses one event object whatever
// its shape (escapes, id2, odd types), repairs invalid UTF-8 / control bytes / lone surrogate
// escapes once when the event does not parse as is, and hands the fields to the interpreter.
// The reference path: the fast scanner must give the same records. Internal to core.

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/import/json/json_event_interpreter.h"

namespace npuscope::core::detail {

/// Parses events through simdjson into an EventInterpreter. One per parse worker.
class SimdjsonEventParser {
 public:
  explicit SimdjsonEventParser(EventInterpreter& interp) : m_interp(interp) {
    m_scratch.resize(4096 + simdjson::SIMDJSON_PADDING);
  }

  /// Parses the object at [data, data + len), which is at offset `begin` of the file, from a copy
  /// padded with spaces (the bytes after the event never change the result). An event that does
  /// not parse even repaired is a ParseError warning ("malformed event at byte N"). Counts the event.
  void parse(const char* data, std::size_t len, std::size_t begin);

 private:
  bool parseRepaired(const char* data, std::size_t len);
  bool parseBlankArgs(const char* data, std::size_t len);
  Key readKey(simdjson::ondemand::value v, bool& ok);
  bool parseObject(const char* base, std::size_t len);
  bool readFields(simdjson::ondemand::object& obj, EventFields& f);
  /// "name": a string, else the raw token of another value, kept in m_nameBuf (parseObject
  /// interns it); false when the string does not decode (parseRepaired retries).
  bool readName(simdjson::ondemand::value v);
  /// The flow fields of an event (id, id2, bp, bind_id, flow_in, flow_out); other keys are left
  /// alone. False when a value does not decode.
  bool readFlowField(std::string_view key, simdjson::ondemand::value v, EventFields& f);
  /// "args": the object's byte range and whether its grammar holds, or not an object (a bad
  /// counter value for C events). False when the object's bytes cannot be read.
  bool readArgs(simdjson::ondemand::value v, EventFields& f);

  EventInterpreter& m_interp;
  simdjson::ondemand::parser m_parser{1u << 31};
  std::string m_scratch;
  std::string m_phBuf, m_idBuf, m_id2Buf, m_bindIdBuf;  // keep string views alive until dispatch
  std::string m_nameBuf;  ///< readName: the name, interned by parseObject after the other fields
  bool m_hasName = false;
  std::string m_fixed;                    ///< parseRepaired's copy of the event
  std::vector<std::uint32_t> m_fixedMap;  ///< its byte -> offset in the event
  bool m_badString = false;               ///< a pid/tid string did not decode
  const char* m_blankedArgs = nullptr;      ///< parseBlankArgs: the blanked args object in m_fixed
  const char* m_blankedOriginal = nullptr;  ///< and the same object in the event's bytes
  const char* m_docEnd = nullptr;           ///< parseObject: the end of the bytes being parsed
  bool m_firstParse = false;                ///< parseObject on the event as it is (not repaired or blanked)
  bool m_malformedArgs = false;             ///< that parse stopped at a malformed but sound args object
};

}  // namespace npuscope::core::detail
