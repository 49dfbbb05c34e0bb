// SPDX-License-Identifier: MIT
#include "core/trace.h"

#include "core/mapped_file.h"

namespace npuscope::core {

Trace::Trace() = default;
Trace::~Trace() = default;

std::string_view Trace::argsText(SliceRef r) const {
  if (!r.valid() || !file) return {};
  const Lane& l = lanes[r.lane];
  const auto len = l.argsLength[r.index];
  if (len == 0) return {};
  return file->bytes().substr(l.argsOffset[r.index], len);
}

std::size_t Trace::sliceCount() const {
  std::size_t n = 0;
  for (const auto& l : lanes) n += l.sliceCount();
  return n;
}

int Trace::deviceId() const {
  for (const auto& p : processes)
    if (p.deviceId >= 0) return p.deviceId;
  return -1;
}

std::size_t Trace::memoryBytes() const {
  std::size_t b = strings.memoryBytes() + flows.capacity() * sizeof(Flow) +
                  processes.capacity() * sizeof(Process) + lanes.capacity() * sizeof(Lane);
  for (const auto& l : lanes) b += l.memoryBytes();
  for (const auto& c : counters) b += c.ts.capacity() * 8 + c.value.capacity() * 8 + sizeof(c);
  return b;
}

}  // namespace npuscope::core
