// SPDX-License-Identifier: MIT
#pragma once
// Display names of core's analysis labels in the interface language. core/ returns the English
// label (bubbleCauseLabel is also an id-like word in the text report); the views translate the
// few fixed labels here, in the context "npuscope::widgets::AnalysisLabels" of
// resources/translations/. Core's composed sentences (verdict, findings, advice, bubble details)
// are translated in core itself through core/base/i18n.h, which the app points at
// QCoreApplication::translate (app/appearance.cpp installTranslation).

#include <QString>

#include "core/analysis/analysis.h"

namespace npuscope::widgets {

/// core::bubbleCauseLabel(c) translated ("Slow dispatch" -> "下发慢" under zh_CN); the English
/// label itself when no translator is installed.
[[nodiscard]] QString bubbleCauseText(core::BubbleCause c);

}  // namespace npuscope::widgets
