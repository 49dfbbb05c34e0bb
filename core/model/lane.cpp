// SPDX-License-Identifier: MIT
#include <algorithm>

#include "core/query/lod.h"
#include "core/model/trace.h"

namespace npuscope::core {

std::uint32_t Lane::depthOf(std::uint32_t index) const {
  auto it = std::upper_bound(rowBegin.begin(), rowBegin.end(), index);
  return static_cast<std::uint32_t>(it - rowBegin.begin()) - 1;
}

std::uint32_t Lane::enclosingSlice(TimeNs t) const {
  for (std::uint32_t d = depthCount(); d-- > 0;) {
    const std::uint32_t b = rowBegin[d], e = rowBegin[d + 1];
    auto it = std::upper_bound(start.begin() + b, start.begin() + e, t);
    if (it == start.begin() + b) continue;
    const auto i = static_cast<std::uint32_t>(it - start.begin()) - 1;
    if (t < end[i] || (start[i] == end[i] && start[i] == t)) return i;
    // A zero-length slice may hide a longer one at the same start in a row: rows are disjoint,
    // so the only candidate is i.
  }
  return kInvalidIndex;
}

std::uint32_t Lane::nextSlice(TimeNs t) const {
  std::uint32_t best = kInvalidIndex;
  for (std::uint32_t d = 0; d < depthCount(); ++d) {
    const std::uint32_t b = rowBegin[d], e = rowBegin[d + 1];
    auto it = std::lower_bound(start.begin() + b, start.begin() + e, t);
    if (it == start.begin() + e) continue;
    const auto i = static_cast<std::uint32_t>(it - start.begin());
    if (best == kInvalidIndex || start[i] < start[best]) best = i;
  }
  return best;
}

TimeNs Lane::selfTime(std::uint32_t index) const {
  const std::uint32_t d = depthOf(index);
  const TimeNs s = start[index], e = end[index];
  TimeNs self = e - s;
  if (d + 1 >= depthCount()) return self;
  // Children: slices of row d+1 inside [s, e) (partially overlapping ones are clipped).
  TimeNs covered = 0, cursor = s;
  for (std::uint32_t i = firstVisibleInRow(*this, d + 1, s); i < rowBegin[d + 2] && start[i] < e; ++i) {
    const TimeNs cs = std::max(start[i], cursor), ce = std::min(end[i], e);
    if (ce > cs) { covered += ce - cs; cursor = ce; }
  }
  return self - covered;
}

std::size_t Lane::memoryBytes() const {
  // The columns' heap blocks (none while a column's values fit inside it) and the strings' (none
  // while the text fits in std::string's own short buffer).
  const auto heapText = [](const std::string& s) {
    const auto* object = reinterpret_cast<const char*>(&s);
    const bool inside = s.data() >= object && s.data() < object + sizeof s;  // the short-string buffer
    return inside ? std::size_t{0} : s.capacity() + 1;
  };
  return start.heapBytes() + end.heapBytes() + names.heapBytes() + categories.heapBytes() + argsOffset.heapBytes() +
         argsLength.heapBytes() + flags.heapBytes() + rowBegin.heapBytes() + lod.memoryBytes() + sizeof(Lane) +
         heapText(name) + heapText(tidText);
}

}  // namespace npuscope::core
