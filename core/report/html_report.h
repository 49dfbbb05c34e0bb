// SPDX-License-Identifier: MIT
#pragma once
// The self-contained HTML report (`npuscope report PATH --html OUT`, `npuscope compare A B --html
// OUT`): one file, styles inline, images as data: URIs, no script and no network, in the language
// of the installed translator (npuTr). Core writes the text, the tables and the share bars (inline
// SVG); the images of the timeline are rendered by the app and passed in.

#include <string>
#include <vector>

#include "core/analysis/advisor.h"
#include "core/profile/profile.h"
#include "core/report/compare.h"

namespace npuscope::core {

/// What the report says of itself: npuscope's version, the date it was written (as the caller
/// formats it) and the document language ("en", "zh-CN") for <html lang>.
struct HtmlMeta {
  std::string version;
  std::string date;
  std::string lang = "en";
};

/// One image of the timeline: a title, a caption and the image as a data: URI
/// ("data:image/png;base64,...") or inline SVG markup (starting with "<svg").
struct HtmlImage {
  std::string title;
  std::string caption;
  std::string data;
};

/// `text` with &, <, >, " and ' escaped for HTML text and attribute values.
[[nodiscard]] std::string htmlEscape(std::string_view text);

/// The report of one capture: the capture and meta line, then per analysed rank its verdict, the
/// Top-Down shares per device and step (table and bar), the longest bubbles with their causes and
/// chains, the operator decision tree and the advice with its figures; with several ranks the
/// cluster tables (ranks, collectives, findings); then `images`. Never throws.
[[nodiscard]] std::string reportHtml(const Profile& profile, const AdvisorThresholds& thresholds, const HtmlMeta& meta,
                                     const std::vector<HtmlImage>& images);

/// The comparison of two captures: the verdict, per rank the figures of A and B with the deltas,
/// the steps, the operator types and bubble causes that changed most, the notes; then `images`.
[[nodiscard]] std::string compareHtml(const CompareResult& result, const HtmlMeta& meta, const std::vector<HtmlImage>& images);

}  // namespace npuscope::core
