// SPDX-License-Identifier: MIT
#include "widgets/analysis_labels.h"

#include <QCoreApplication>

namespace npuscope::widgets {

QString bubbleCauseText(core::BubbleCause c) {
  // The same English words as core::bubbleCauseLabel (core/analysis/bubbles.cpp), listed here so
  // that lupdate finds them; test_i18n checks the two lists agree.
  const char* s = "Unknown";
  switch (c) {
    case core::BubbleCause::DeviceCopy: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Device copy"); break;
    case core::BubbleCause::DeviceWait: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Device wait"); break;
    case core::BubbleCause::Queued: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Queued on the device"); break;
    case core::BubbleCause::Synchronization:
      s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Synchronization");
      break;
    case core::BubbleCause::HostToDeviceCopy:
      s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "HostToDevice copy");
      break;
    case core::BubbleCause::AclopCompile: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "ACLOP compile"); break;
    case core::BubbleCause::AclopExecute:
      s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "ACLOP execution on the host");
      break;
    case core::BubbleCause::DataLoading: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Data loading"); break;
    case core::BubbleCause::FirstCall:
      s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "First call (warm-up)");
      break;
    case core::BubbleCause::SlowDispatch: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Slow dispatch"); break;
    case core::BubbleCause::HostIdle: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Host idle"); break;
    case core::BubbleCause::Unknown: s = QT_TRANSLATE_NOOP("npuscope::widgets::AnalysisLabels", "Unknown"); break;
  }
  return QCoreApplication::translate("npuscope::widgets::AnalysisLabels", s);
}

}  // namespace npuscope::widgets
