// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <vector>

namespace npuscope::core {

/// One column of a Lane (start, end, names, ...): a growable array of a trivially copyable type
/// of at most 8 bytes, with the part of std::vector's interface the code uses, in 16 bytes
/// instead of std::vector's 24 plus a heap block. Up to 8 / sizeof(T) elements are held inside
/// the object (1 time, 2 name ids, 8 flag bytes), so a lane of one slice allocates nothing for its
/// columns: a trace of 200,000 one-slice threads held 8 heap blocks per lane (256 bytes with
/// glibc's headers) beside a 360-byte Lane (issue 27 item 3). Larger arrays live on the heap
/// (malloc / realloc, so glibc moves a large block by mremap instead of copying it), growing by
/// doubling. At most UINT32_MAX elements (std::bad_alloc beyond: 4 G slices in one lane is far
/// beyond any memory). Iterators are plain pointers, invalidated by growth as std::vector's.
template <class T>
class LaneColumn {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "a column holds small trivially copyable values");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;
  static constexpr std::uint32_t kInline = 8 / sizeof(T);

  LaneColumn() = default;
  LaneColumn(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  LaneColumn(const LaneColumn& o) { assign(o.begin(), o.end()); }
  LaneColumn(LaneColumn&& o) noexcept { steal(o); }
  /// Copies the elements of `v` (and leaves it as it was).
  explicit LaneColumn(const std::vector<T>& v) { assign(v.begin(), v.end()); }
  LaneColumn& operator=(const LaneColumn& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  LaneColumn& operator=(LaneColumn&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  LaneColumn& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  /// Copies the elements of `v` and frees `v`'s block at once.
  LaneColumn& operator=(std::vector<T>&& v) {
    assign(v.begin(), v.end());
    std::vector<T>().swap(v);
    return *this;
  }
  ~LaneColumn() { release(); }

  [[nodiscard]] std::size_t size() const { return m_size; }
  [[nodiscard]] bool empty() const { return m_size == 0; }
  [[nodiscard]] std::size_t capacity() const { return m_capacity; }
  /// Heap bytes held (0 while the elements fit in the object).
  [[nodiscard]] std::size_t heapBytes() const { return onHeap() ? std::size_t{m_capacity} * sizeof(T) : 0; }
  [[nodiscard]] T* data() { return onHeap() ? m_heap : reinterpret_cast<T*>(m_inline); }
  [[nodiscard]] const T* data() const { return onHeap() ? m_heap : reinterpret_cast<const T*>(m_inline); }
  [[nodiscard]] T* begin() { return data(); }
  [[nodiscard]] T* end() { return data() + m_size; }
  [[nodiscard]] const T* begin() const { return data(); }
  [[nodiscard]] const T* end() const { return data() + m_size; }
  [[nodiscard]] const T* cbegin() const { return data(); }
  [[nodiscard]] const T* cend() const { return data() + m_size; }
  [[nodiscard]] T& operator[](std::size_t i) { return data()[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return data()[i]; }
  [[nodiscard]] T& front() { return data()[0]; }
  [[nodiscard]] const T& front() const { return data()[0]; }
  [[nodiscard]] T& back() { return data()[m_size - 1]; }
  [[nodiscard]] const T& back() const { return data()[m_size - 1]; }

  void push_back(const T& x) {
    const T copy = x;  // x may lie inside this column
    if (m_size == m_capacity) grow(std::size_t{m_size} + 1);
    data()[m_size++] = copy;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --m_size; }
  /// Room for `n` elements in total.
  void reserve(std::size_t n) {
    if (n > m_capacity) setCapacity(n);
  }
  /// New elements are value-initialised (zero), as std::vector's.
  void resize(std::size_t n) { resize(n, T{}); }
  void resize(std::size_t n, const T& value) {
    const T v = value;  // value may lie inside this column, which growing moves or frees
    if (n > m_capacity) grow(n);
    for (std::size_t i = m_size; i < n; ++i) data()[i] = v;
    m_size = static_cast<std::uint32_t>(n);
  }
  void clear() { m_size = 0; }
  void shrink_to_fit() {
    if (onHeap() && m_capacity > m_size) setCapacity(m_size);
  }
  template <class It>
    requires(!std::is_integral_v<It>)
  void assign(It first, It last) {
    m_size = 0;
    append(first, last);
  }
  void assign(std::size_t n, const T& value) {
    const T v = value;  // (as in resize)
    m_size = 0;
    resize(n, v);
  }
  /// Inserts [first, last) before `pos`. (Only the end is used: an append; elsewhere the
  /// elements after `pos` move up.)
  template <class It>
  T* insert(const T* pos, It first, It last) {
    const std::size_t at = static_cast<std::size_t>(pos - data());
    const std::size_t old = m_size;
    append(first, last);
    std::rotate(data() + at, data() + old, data() + m_size);
    return data() + at;
  }
  void swap(LaneColumn& o) noexcept {
    LaneColumn t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  friend bool operator==(const LaneColumn& a, const LaneColumn& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
  friend bool operator==(const LaneColumn& a, const std::vector<T>& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

 private:
  [[nodiscard]] bool onHeap() const { return m_capacity > kInline; }
  template <class It>
  void append(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>) {
      const auto n = static_cast<std::size_t>(std::distance(first, last));
      reserve(std::size_t{m_size} + n);
      std::copy(first, last, data() + m_size);
      m_size = static_cast<std::uint32_t>(m_size + n);
    } else {
      for (; first != last; ++first) push_back(*first);
    }
  }
  /// Grows to at least `n` (doubling, up to UINT32_MAX).
  void grow(std::size_t n) {
    setCapacity(std::max<std::size_t>(n, std::min<std::size_t>(std::size_t{m_capacity} * 2, UINT32_MAX)));
  }
  /// Capacity `n` (>= size): back inside the object when the elements fit, else a heap block.
  void setCapacity(std::size_t n) {
    if (n > UINT32_MAX) throw std::bad_alloc();
    if (n <= kInline) {
      if (onHeap()) {
        T* heap = m_heap;
        std::memcpy(m_inline, heap, std::size_t{m_size} * sizeof(T));
        std::free(heap);
      }
      m_capacity = kInline;
      return;
    }
    if (onHeap()) {
      void* p = std::realloc(m_heap, n * sizeof(T));
      if (!p) throw std::bad_alloc();
      m_heap = static_cast<T*>(p);
    } else {
      void* p = std::malloc(n * sizeof(T));
      if (!p) throw std::bad_alloc();
      std::memcpy(p, m_inline, std::size_t{m_size} * sizeof(T));
      m_heap = static_cast<T*>(p);
    }
    m_capacity = static_cast<std::uint32_t>(n);
  }
  void release() noexcept {
    if (onHeap()) std::free(m_heap);
    m_capacity = kInline;
    m_size = 0;
  }
  void steal(LaneColumn& o) noexcept {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&o), sizeof(LaneColumn));
    o.m_capacity = kInline;
    o.m_size = 0;
  }

  union {
    T* m_heap;
    alignas(T) unsigned char m_inline[8]{};
  };
  std::uint32_t m_size = 0;
  std::uint32_t m_capacity = kInline;
};

}  // namespace npuscope::core
