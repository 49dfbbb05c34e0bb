// SPDX-License-Identifier: MIT
#pragma once
// The translation seam of core's human sentences (verdict, bubble details, chain text, advisor
// findings, report text). core has no Qt: the application installs a TranslateFn (the GUI and
// the CLI's --lang call QCoreApplication::translate through it) and core asks it for every
// sentence. Without one, everything stays English, byte for byte.
//
// Call sites write npuTr("npuscope::core::Verdict", "Compute bound") with literal strings so that
// lupdate finds them (scripts/update_translations.sh passes -tr-function-alias translate+=npuTr);
// sentences with values are templates filled by i18n::format ("%1 of the time"), so that a
// translation can reorder them. Ids (dominant, rule, cause ids, JSON keys) are never translated,
// and no logic compares translated text.

#include <initializer_list>
#include <string>
#include <string_view>

namespace npuscope::core {

namespace i18n {

/// A translation function: the translation of `source` (UTF-8) in `context`, or `source` itself
/// when there is none. Must be thread-safe (the analyses run on worker threads) and not throw.
using TranslateFn = std::string (*)(const char* context, const char* source);

/// Installs `fn` process-wide (nullptr: English). Thread-safe (an atomic store); the analyses
/// already running may see either function for their remaining sentences.
void setTranslator(TranslateFn fn) noexcept;

/// The installed function (nullptr when English).
[[nodiscard]] TranslateFn translator() noexcept;

/// The translation of `source` in `context` by the installed TranslateFn (named lookup, not tr:
/// lupdate takes every tr( call for a Qt one); `source` itself when
/// none is installed, when the function returns an empty string, or when either pointer is null
/// (then ""). Thread-safe; never throws (a failing allocation gives the source, or "").
[[nodiscard]] std::string lookup(const char* context, const char* source) noexcept;

/// Fills a positional template, Qt .arg() style: "%1".."%9" become args[0]..args[8]; "%%"
/// becomes one "%"; a "%" followed by anything else, and "%N" without an argument, are kept as
/// they are. One pass: text inside the arguments is never substituted again. E.g.
/// format("%2 of %1 (100%%)", {"a", "b"}) == "b of a (100%)". Never throws (allocation failure:
/// returns what was built so far).
[[nodiscard]] std::string format(std::string_view tmpl, std::initializer_list<std::string_view> args) noexcept;

}  // namespace i18n

/// i18n::lookup under the name lupdate is told about (-tr-function-alias translate+=npuTr): context
/// and source must be string literals at the call site.
[[nodiscard]] inline std::string npuTr(const char* context, const char* source) noexcept {
  return i18n::lookup(context, source);
}

/// The separators that join clauses and list items inside core's sentences: "; " and ", " in
/// English, full-width "；" and "，" in Chinese (issue 41 item 8: Chinese text joined with
/// half-width ones read as broken). Use them wherever code joins translated parts.
[[nodiscard]] inline std::string clauseSep() noexcept { return npuTr("npuscope::core::I18n", "; "); }
[[nodiscard]] inline std::string itemSep() noexcept { return npuTr("npuscope::core::I18n", ", "); }

}  // namespace npuscope::core
