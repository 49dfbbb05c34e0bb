// SPDX-License-Identifier: MIT
#include "widgets/timeline/flow_navigation.h"

namespace npuscope::widgets {

core::SliceRef flowNeighbour(const core::Trace& trace, core::SliceRef slice, bool forward) {
  if (!slice.valid()) return {};
  for (const core::Flow& f : trace.flows) {
    if (forward && f.from == slice && f.to.valid()) return f.to;
    if (!forward && f.to == slice && f.from.valid()) return f.from;
  }
  return {};
}

}  // namespace npuscope::widgets
