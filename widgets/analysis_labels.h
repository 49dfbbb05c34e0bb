// SPDX-License-Identifier: MIT
#pragma once
// Display names of core's analysis labels in the interface language. core/ returns English
// (it has no Qt and its report is English); the views translate the few fixed labels here, in
// the context "npuscope::widgets::AnalysisLabels" of resources/translations/. Core's composed
// sentences (verdict, findings, advice, bubble details) stay English in this round.

#include <QString>

#include "core/analysis/analysis.h"

namespace npuscope::widgets {

/// core::bubbleCauseLabel(c) translated ("Slow dispatch" -> "下发慢" under zh_CN); the English
/// label itself when no translator is installed.
[[nodiscard]] QString bubbleCauseText(core::BubbleCause c);

}  // namespace npuscope::widgets
