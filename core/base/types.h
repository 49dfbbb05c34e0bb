// SPDX-License-Identifier: MIT
#pragma once
// The contract of npuscope's core: every timestamp is an int64 count of nanoseconds (epoch ns
// as the profiler wrote it, never rebased), and every interval is half-open [start, end).
// A zero-length slice [t, t) is treated as covering the instant t when hit-testing.

#include <cstdint>
#include <limits>

namespace npuscope::core {

/// A timestamp or duration in nanoseconds.
using TimeNs = std::int64_t;
/// An interned string (name, category, label) of a Trace's StringPool. 0 is the empty string.
using NameId = std::uint32_t;
inline constexpr NameId kEmptyName = 0;
inline constexpr std::uint32_t kInvalidIndex = std::numeric_limits<std::uint32_t>::max();

/// Half-open time interval [start, end) in ns.
struct TimeRange {
  TimeNs start = 0;
  TimeNs end = 0;
  [[nodiscard]] constexpr TimeNs duration() const { return end - start; }
  [[nodiscard]] constexpr bool empty() const { return end <= start; }
  [[nodiscard]] constexpr bool contains(TimeNs t) const { return t >= start && t < end; }
  [[nodiscard]] constexpr bool overlaps(const TimeRange& o) const {
    return start < o.end && o.start < end;
  }
  constexpr bool operator==(const TimeRange&) const = default;
};

/// Identifies one slice of a Trace: the lane index and the slice index inside that lane's
/// columns (see Lane). Invalid when lane == kInvalidIndex.
struct SliceRef {
  std::uint32_t lane = kInvalidIndex;
  std::uint32_t index = kInvalidIndex;
  [[nodiscard]] constexpr bool valid() const { return lane != kInvalidIndex; }
  constexpr bool operator==(const SliceRef&) const = default;
};

}  // namespace npuscope::core
