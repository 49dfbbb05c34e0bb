// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace.h"
#include "core/base/types.h"

namespace npuscope::widgets {

/// The slice at the other end of a flow of `slice`: with `forward`, the `to` end of its first
/// outgoing flow (Trace::flows order, i.e. by the `s` event's time); else the `from` end of its
/// first incoming flow. An invalid ref when there is none. O(flows).
[[nodiscard]] core::SliceRef flowNeighbour(const core::Trace& trace, core::SliceRef slice, bool forward);

}  // namespace npuscope::widgets
