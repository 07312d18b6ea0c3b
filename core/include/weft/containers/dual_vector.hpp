// DualVector: a growable rank-1 array on both sides of a DualView, with std::vector's host-side interface (size,
// push_back, insert, resize, assign, iterators over the host side) and the DualView's flags and syncs for kernels
// (Kokkos::vector, which Kokkos 4 keeps as deprecated code).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>

#include <weft/containers/dual_view.hpp>
#include <weft/error.hpp>
#include <weft/layouts.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>

namespace weft {
namespace impl {
/// v(i) = value for i < n on exec (a free function: nvcc takes no device lambda in a private member).
template <class V, class E, class T>
void dual_vector_fill(const V& v, const E& exec, std::size_t n, const T& value) {
  parallel_for(
      "weft::DualVector::assign", RangePolicy<E>(exec, 0, n), WEFT_LAMBDA(std::size_t i) { v(i) = value; });
  exec.fence();
}
}  // namespace impl

/// DualVector<T, Space>: size() elements, room for span() of them (grown by the overallocation factor, 1.1 by
/// default). The host-side operations (operator[], push_back, insert, iterators) work on the host side and mark it
/// modified; assign() and resize(n, value) fill whichever side is current. Kernels use view_device() after
/// sync_device(), as with a DualView.
template <class T, class Space = DefaultExecutionSpace>
class DualVector : public DualView<T*, LayoutLeft, Space> {
  using DV = DualView<T*, LayoutLeft, Space>;

 public:
  using value_type = T;
  using pointer = T*;
  using const_pointer = const T*;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = std::size_t;

  DualVector() = default;
  /// n copies of value, written on the host side (marked modified there).
  explicit DualVector(size_type n, const T& value = T())
      : DV("Vector", static_cast<size_type>(static_cast<double>(n) * 1.1f)) {
    DV::modify_host();
    assign(n, value);
  }

  reference operator[](size_type i) const { return DV::h_view(i); }
  reference operator()(size_type i) const { return DV::h_view(i); }

  size_type size() const { return size_; }
  size_type max_size() const { return 2000000000; }
  size_type span() const { return DV::span(); }
  size_type capacity() const { return DV::span(); }
  bool empty() const { return size_ == 0; }
  bool is_allocated() const { return DV::is_allocated(); }

  pointer data() const { return DV::h_view.data(); }
  iterator begin() const { return DV::h_view.data(); }
  iterator end() const { return DV::h_view.data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reference front() const { return DV::h_view(0); }
  reference back() const { return DV::h_view(size_ - 1); }

  /// n elements; the new ones are left as the allocation has them (value-initialized when the storage grows).
  void resize(size_type n) {
    if (n >= span()) grow_to(grown(n));
    size_ = n;
  }
  /// n elements, all set to value (as assign).
  void resize(size_type n, const T& value) { assign(n, value); }
  /// n elements, all set to value: on the host side when it holds the newer data, else on the device side.
  void assign(size_type n, const T& value) {
    if (n > span()) grow_to(grown(n));
    size_ = n;
    if (DV::need_sync_device()) {
      impl::dual_vector_fill(DV::h_view, DefaultHostExecutionSpace(), n, value);
      DV::modify_host();
    } else {
      impl::dual_vector_fill(DV::d_view, typename DV::execution_space(), n, value);
      DV::modify_device();
    }
  }
  /// Room for n elements (times the overallocation factor) without moving them again.
  void reserve(size_type n) {
    if (grown(n) > span()) grow_to(grown(n));
  }
  void push_back(const T& value) {
    DV::sync_host();
    DV::modify_host();
    if (size_ == span()) grow_to(std::max(grown(size_), size_ + 1));
    DV::h_view(size_) = value;
    ++size_;
  }
  void pop_back() {
    if (size_ > 0) --size_;
  }
  void clear() { size_ = 0; }

  iterator insert(iterator it, const T& value) { return insert(it, size_type(1), value); }
  iterator insert(iterator it, size_type count, const T& value) {
    if (size_ == 0 && it == begin()) {
      resize(count, value);
      DV::sync_host();
      return begin();
    }
    const size_type at = open_gap(it, count, "insert(it, count, value)");
    std::fill_n(begin() + at, count, value);
    return begin() + at;
  }
  template <class InputIt>
  requires(!std::is_convertible_v<InputIt, size_type>) iterator insert(iterator it, InputIt first, InputIt last) {
    const auto count = static_cast<size_type>(std::distance(first, last));
    const size_type at = open_gap(it, count, "insert(it, first, last)");
    std::copy(first, last, begin() + at);
    return begin() + at;
  }

  /// In sorted host data: the position of the first element not less than value among [start, end) (a binary search).
  size_type lower_bound(size_type start, size_type end_, const T& value) const {
    const T* b = begin() + std::min(start, size_);
    const T* e = begin() + std::min(end_, size_);
    if (e <= b) return end_;
    return static_cast<size_type>(std::lower_bound(b, e, value) - begin());
  }
  bool is_sorted() const { return std::is_sorted(begin(), end()); }
  /// In sorted host data: an iterator to an element equal to value, else end().
  iterator find(const T& value) const {
    iterator it = std::lower_bound(begin(), end(), value);
    return it != end() && !(value < *it) && !(*it < value) ? it : end();
  }

  void device_to_host() { deep_copy(DV::h_view, DV::d_view); }
  void host_to_device() const { deep_copy(DV::d_view, DV::h_view); }
  void on_host() { DV::modify_host(); }
  void on_device() { DV::modify_device(); }
  /// Grows the storage to (1 + extra) times what is asked for (0.1 by default).
  void set_overallocation(float extra) { extra_ = 1.0f + extra; }

 private:
  size_type grown(size_type n) const { return static_cast<size_type>(static_cast<double>(n) * extra_); }
  /// Storage for n elements, the existing ones kept on both sides (a first allocation starts in sync).
  void grow_to(size_type n) {
    if (!DV::is_allocated())
      static_cast<DV&>(*this) = DV("Vector", n);
    else
      DV::resize(n);
  }
  /// Moves the elements from `it` on by count places (on the host side, synced first) and returns its index.
  size_type open_gap(iterator it, size_type count, const char* what) {
    DV::sync_host();
    DV::modify_host();
    if (std::less<>()(it, begin()) || std::less<>()(end(), it))
      impl::throw_cat({"weft::DualVector::", what, ": the iterator is not in [begin(), end()] of the ", size_,
                       " elements; insert at a position of this vector"});
    const auto at = static_cast<size_type>(it - begin());
    const size_type old = size_;
    resize(size_ + count);
    std::copy_backward(begin() + at, begin() + old, begin() + old + count);
    return at;
  }
  size_type size_ = 0;
  float extra_ = 1.1f;
};

}  // namespace weft
