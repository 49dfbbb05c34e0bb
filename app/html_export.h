// SPDX-License-Identifier: MIT
#pragma once
// `report --html` and `compare --html`: the timeline images of a capture rendered offscreen
// (as `screenshot` renders them) for core::reportHtml / compareHtml, and the file written.
// Needs a QApplication.

#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "core/profile/profile.h"
#include "core/report/html_report.h"

namespace npuscope {

/// The whole capture (every rank's device lanes first, 1400 px wide) and the `bubbles` longest
/// bubbles of the first analysed rank, each zoomed with its dispatch chain highlighted, as PNG
/// data: URIs titled with `prefix` ("A: " in a comparison, or ""). An image that cannot be
/// rendered is left out.
[[nodiscard]] std::vector<core::HtmlImage> timelineImages(const std::shared_ptr<const core::Profile>& profile, int bubbles,
                                                          const QString& prefix = {});

/// npuscope's version, today's date (ISO) and the installed language for <html lang>.
[[nodiscard]] core::HtmlMeta htmlMeta();

/// Writes `html` to `file` atomically (QSaveFile); "" on success, else the error.
[[nodiscard]] QString writeHtmlFile(const QString& file, const std::string& html);

}  // namespace npuscope
