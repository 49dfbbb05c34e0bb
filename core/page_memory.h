// SPDX-License-Identifier: MIT
#pragma once
// Page-level control of large std::vector buffers, shared by the reader, the trace builder and
// the analyses. Page faults on fresh anonymous memory cost ~10-15 us each on the build machines
// (../shared/docs/performance-notes.md), and glibc keeps freed heap memory resident; these
// helpers fault big buffers in by the megabyte and give dead pages back at once. Internal to core.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace npuscope::core::detail {

/// The whole 4 KiB pages inside [p, p + bytes), as [first, last) addresses (first >= last when
/// there is none).
struct PageSpan {
  std::uintptr_t first = 0, last = 0;
};
[[nodiscard]] inline PageSpan innerPages(const void* p, std::size_t bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return {(a + 4095) & ~std::uintptr_t{4095}, (a + bytes) & ~std::uintptr_t{4095}};
}

/// Large buffers are faulted in cheaply: transparent huge pages, and one MADV_POPULATE_WRITE
/// call for the first `populateBytes` (the part about to be written) instead of one page fault
/// per 4 KiB on first write (page faults were a fifth of the load time; populate + huge pages
/// measured ~20x cheaper per byte than touching). The rest of the capacity is left unpopulated
/// so that a doubled buffer does not become resident before it is used (that spare capacity was
/// ~150 MiB of the peak at 1 GB). Only for buffers of 256 KiB and more; a no-op where unsupported.
inline void adviseLargeBuffer(const void* p, std::size_t bytes, std::size_t populateBytes) {
#if defined(__linux__)
  if (bytes < (256u << 10)) return;
  const PageSpan s = innerPages(p, bytes);
  if (s.last <= s.first) return;
  ::madvise(reinterpret_cast<void*>(s.first), s.last - s.first, MADV_HUGEPAGE);
#if defined(MADV_POPULATE_WRITE)
  const std::uintptr_t pe = std::min(s.last, innerPages(p, populateBytes + 4095).last);
  if (pe > s.first) ::madvise(reinterpret_cast<void*>(s.first), pe - s.first, MADV_POPULATE_WRITE);
#endif
#else
  (void)p;
  (void)bytes;
  (void)populateBytes;
#endif
}

/// v.reserve(n), with the new block advised as above: the elements moved into it plus 2 MiB
/// are populated, the rest becomes resident as it is written.
template <class V>
void reserveLarge(V& v, std::size_t n) {
  if (n <= v.capacity()) return;
  // Advise the new block before the elements are copied into it (v.reserve would copy first).
  V grown;
  grown.reserve(n);
  using T = typename V::value_type;
  adviseLargeBuffer(grown.data(), grown.capacity() * sizeof(T), v.size() * sizeof(T) + (2u << 20));
  grown.insert(grown.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  v.swap(grown);
}

/// push_back that grows by doubling (at least `minCapacity`) through reserveLarge.
template <class V, class T>
void pushLarge(V& v, T&& x, std::size_t minCapacity = 256) {
  if (v.size() == v.capacity()) reserveLarge(v, std::max<std::size_t>(minCapacity, v.capacity() * 2));
  v.push_back(std::forward<T>(x));
}

/// Drops the whole pages inside [p, p + bytes) from the resident set (they read as zero when
/// touched again). Ranges under 64 KiB are left alone. A no-op where unsupported.
inline void releasePages(const void* p, std::size_t bytes) {
#if defined(__linux__)
  if (bytes < (64u << 10)) return;
  const PageSpan s = innerPages(p, bytes);
  if (s.last > s.first) ::madvise(reinterpret_cast<void*>(s.first), s.last - s.first, MADV_DONTNEED);
#else
  (void)p;
  (void)bytes;
#endif
}

/// Releases the pages of the unused capacity of `v` (a buffer grown by doubling may be up to
/// half unused). The vector is unchanged.
template <class T>
void releaseSpare(std::vector<T>& v) {
  releasePages(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}

/// Frees `v` and its pages now.
template <class T>
void freeNow(std::vector<T>& v) {
  releasePages(v.data(), v.capacity() * sizeof(T));
  std::vector<T>().swap(v);
}

}  // namespace npuscope::core::detail
