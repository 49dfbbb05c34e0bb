// SPDX-License-Identifier: MIT
#pragma once
// Page-level control of large std::vector buffers, shared by the reader, the trace builder, the
// analyses and the timeline's flow arrow index (widgets/timeline/draw_list.cpp). Page faults on
// fresh anonymous memory cost ~10-15 us each on the build machines
// (../shared/docs/performance-notes.md), and glibc keeps freed heap memory resident; these
// helpers fault big buffers in by the megabyte and give dead pages back at once. Internal to core
// and the widgets' big indexes.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
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

/// RecordBuffer moves to a mapping of its own from this size on (smaller buffers stay on the heap).
inline constexpr std::size_t kLargeBlockBytes = 256u << 10;

/// A growable array of trivially copyable import records (the reader's per-thread slices, flows,
/// counters, asyncs), with the part of std::vector's interface the reader and the builder use.
/// Small buffers live on the heap (realloc); from kLargeBlockBytes on, the buffer is a private
/// anonymous mapping of its own (transparent huge pages), grown by mremap: the pages move to the
/// larger mapping without a copy, so growing costs neither the copy of the records nor a second
/// resident copy during it (std::vector's doubling did both: ~4% of the load time, and the
/// largest buffer twice at the peak), and freeing leaves the resident set at once (glibc keeps
/// freed heap blocks below its dynamic mmap threshold resident). Memory past size() is zero or
/// stale; growth never value-initialises.
template <class T>
class RecordBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "records are moved as bytes");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  RecordBuffer() = default;
  RecordBuffer(const RecordBuffer&) = delete;
  RecordBuffer& operator=(const RecordBuffer&) = delete;
  RecordBuffer(RecordBuffer&& o) noexcept { swap(o); }
  RecordBuffer& operator=(RecordBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      swap(o);
    }
    return *this;
  }
  ~RecordBuffer() { reset(); }

  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] std::size_t capacity() const { return m_capacity; }
  [[nodiscard]] bool empty() const { return m_size == 0; }
  [[nodiscard]] T* data() { return m_data; }
  [[nodiscard]] const T* data() const { return m_data; }
  [[nodiscard]] T* begin() { return m_data; }
  [[nodiscard]] T* end() { return m_data + m_size; }
  [[nodiscard]] const T* begin() const { return m_data; }
  [[nodiscard]] const T* end() const { return m_data + m_size; }
  [[nodiscard]] T& operator[](std::size_t i) { return m_data[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return m_data[i]; }
  [[nodiscard]] T& back() { return m_data[m_size - 1]; }

  void push_back(const T& x) {
    if (m_size == m_capacity) grow(m_size + 1);
    std::memcpy(static_cast<void*>(m_data + m_size), &x, sizeof(T));
    ++m_size;
  }
  /// Appends the `n` records at `p` (not inside this buffer).
  void append(const T* p, std::size_t n) {
    if (n == 0) return;
    if (m_size + n > m_capacity) grow(m_size + n);
    std::memcpy(static_cast<void*>(m_data + m_size), p, n * sizeof(T));
    m_size += n;
  }
  /// Keeps the capacity.
  void clear() { m_size = 0; }
  /// Makes room for `n` records in total (the capacity may become larger).
  void reserve(std::size_t n) {
    if (n > m_capacity) grow(n);
  }
  /// Frees the buffer and its pages now.
  void reset() noexcept {
    if (m_mapped) {
#if defined(__linux__)
      ::munmap(m_data, m_capacity * sizeof(T));
#endif
    } else {
      std::free(m_data);
    }
    m_data = nullptr;
    m_size = m_capacity = 0;
    m_mapped = false;
  }
  void swap(RecordBuffer& o) noexcept {
    std::swap(m_data, o.m_data);
    std::swap(m_size, o.m_size);
    std::swap(m_capacity, o.m_capacity);
    std::swap(m_mapped, o.m_mapped);
  }

 private:
  static constexpr std::size_t kHuge = 2u << 20;

  /// Grows to at least `n` records: doubling from 1 record; mapped sizes are whole 2 MiB
  /// huge pages (so that the kernel places them on huge-page boundaries). The first buffer is
  /// one record because there is one per thread of the file: with 64 records (2 KB of slices) a
  /// file of 1 M threads with one event each held 2 GB while it was read (issue 15 item 6), and
  /// with 4 a trace of 200,000 one-slice threads held 26 MB of them (issue 27 item 3).
  void grow(std::size_t n) {
    std::size_t bytes = std::max({n, m_capacity * 2, std::size_t{1}}) * sizeof(T);
#if defined(__linux__)
    if (bytes >= kLargeBlockBytes) {
      bytes = (bytes + kHuge - 1) & ~(kHuge - 1);
      void* p = MAP_FAILED;
      if (m_mapped) {
        p = ::mremap(m_data, m_capacity * sizeof(T), bytes, MREMAP_MAYMOVE);
      } else {
        p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
          ::madvise(p, bytes, MADV_HUGEPAGE);
          if (m_size) std::memcpy(p, m_data, m_size * sizeof(T));
          std::free(m_data);
        }
      }
      if (p == MAP_FAILED) throw std::bad_alloc();
      m_data = static_cast<T*>(p);
      m_capacity = bytes / sizeof(T);
      m_mapped = true;
#if defined(MADV_POPULATE_WRITE)
      // The next 2 MiB are about to be written: one call instead of a fault per page.
      const PageSpan s = innerPages(m_data + m_size, std::min(kHuge, (m_capacity - m_size) * sizeof(T)));
      if (s.last > s.first) ::madvise(reinterpret_cast<void*>(s.first), s.last - s.first, MADV_POPULATE_WRITE);
#endif
      return;
    }
#endif
    void* p = std::realloc(m_data, bytes);
    if (!p) throw std::bad_alloc();
    m_data = static_cast<T*>(p);
    m_capacity = bytes / sizeof(T);
  }

  T* m_data = nullptr;
  std::size_t m_size = 0;
  std::size_t m_capacity = 0;
  bool m_mapped = false;
};

/// reserveLarge for a RecordBuffer: it places large buffers by itself.
template <class T>
void reserveLarge(RecordBuffer<T>& v, std::size_t n) {
  v.reserve(n);
}
/// Releases the pages of the unused capacity of `v`.
template <class T>
void releaseSpare(RecordBuffer<T>& v) {
  releasePages(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}
/// Frees `v` and its pages now.
template <class T>
void freeNow(RecordBuffer<T>& v) {
  v.reset();
}

}  // namespace npuscope::core::detail
