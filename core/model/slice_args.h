// SPDX-License-Identifier: MIT
#pragma once
// Lazy access to a slice's `args`: raw JSON text in the mapped file (or Trace::ownedArgs) parsed
// when needed, or a packed database row of Trace::rowArgs (kRowArgs) decoded when needed.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/trace.h"

namespace npuscope::core {

/// The value of args[key] of slice `r` as text: strings unescaped, numbers/other values as
/// their raw JSON text (a database row's values: their text, integers in decimal). nullopt when the
/// slice has no args or no such key. O(|args|); O(keys) for a row. Invalid
/// UTF-8, raw control bytes and lone surrogate escapes in the file's args text are repaired as
/// the reader repairs events (detail::sanitizeJsonStrings, core/import/json/json_scan.h): U+FFFD, \u00xx.
[[nodiscard]] std::optional<std::string> sliceArg(const Trace& trace, SliceRef r, std::string_view key);

/// The values of several args of slice `r` in one parse: out[i] = sliceArg(trace, r, keys[i]) for
/// every i < keys.size() (`out` holds keys.size() entries). O(|args|) once, where sliceArg per key
/// parses the args each time: for the analyses that read several keys of many slices (the HCCL
/// plane tasks, collectives.cpp).
void sliceArgValues(const Trace& trace, SliceRef r, std::initializer_list<std::string_view> keys, std::optional<std::string>* out);

/// The args object of slice `r` as JSON text a strict parser accepts: the file's bytes with
/// invalid UTF-8, raw control bytes, lone surrogate escapes and invalid escapes repaired as the
/// reader repairs events (case 19). Empty when the slice has no args. O(|args|). For viewers that
/// parse the object themselves (the details panel uses QJsonDocument, which rejects bad UTF-8).
/// A database row (kRowArgs) gives an object of its present keys, every value a JSON string.
[[nodiscard]] std::string sliceArgsJson(const Trace& trace, SliceRef r);

/// Empty unless slice `r`'s args lie past the end of a trace file that shrank after it was
/// loaded (issue 15 item 2: the bytes now read as zeros); then MappedFile::shrinkMessage().
/// One fstat per call.
[[nodiscard]] std::string argsLostMessage(const Trace& trace, SliceRef r);

/// All top-level args of slice `r` as (key, value text) pairs in file order (for the details
/// panel); nested objects/arrays are returned as raw JSON text. When the file shrank after the
/// load and took these args with it (argsLostMessage), the one pair ("(args lost)", message).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> sliceArgs(const Trace& trace, SliceRef r);

}  // namespace npuscope::core
