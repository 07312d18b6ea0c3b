// weft::Array<T, N>: a fixed-size array usable in host and device code (Kokkos::Array), the point type of
// MDRangePolicy and a value a functor can capture, reduce over or return.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>  // std::tuple_size, std::tuple_element

#include <weft/macros.hpp>

namespace weft {

/// An aggregate of N values of T, trivially copyable when T is: `Array<int, 3> a{1, 2, 3}`, `a[k]`, `a.size()`,
/// `a.data()`, iteration, `==` / `!=`. Indexing with a negative or too large index is undefined, as with C arrays.
template <class T, std::size_t N>
struct Array {
  T impl_values[N];  // public so that Array stays an aggregate (brace initialization, constexpr)

  using value_type = T;
  using reference = T&;
  using const_reference = std::add_const_t<T>&;
  using pointer = T*;
  using const_pointer = std::add_const_t<T>*;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;

  static constexpr bool empty() { return N == 0; }
  WEFT_INLINE_FUNCTION static constexpr size_type size() { return N; }
  WEFT_INLINE_FUNCTION constexpr size_type max_size() const { return N; }
  template <class I>
  requires(std::is_integral_v<I> || std::is_enum_v<I>) WEFT_INLINE_FUNCTION constexpr reference operator[](I i) {
    return impl_values[i];
  }
  template <class I>
  requires(std::is_integral_v<I> || std::is_enum_v<I>) WEFT_INLINE_FUNCTION constexpr const_reference operator[](
      I i) const {
    return impl_values[i];
  }
  WEFT_INLINE_FUNCTION constexpr pointer data() { return impl_values; }
  WEFT_INLINE_FUNCTION constexpr const_pointer data() const { return impl_values; }
  WEFT_INLINE_FUNCTION constexpr pointer begin() { return impl_values; }
  WEFT_INLINE_FUNCTION constexpr const_pointer begin() const { return impl_values; }
  WEFT_INLINE_FUNCTION constexpr pointer end() { return impl_values + N; }
  WEFT_INLINE_FUNCTION constexpr const_pointer end() const { return impl_values + N; }

  friend WEFT_INLINE_FUNCTION constexpr bool operator==(const Array& a, const Array& b) {
    for (size_type k = 0; k < N; ++k)
      if (!(a.impl_values[k] == b.impl_values[k])) return false;
    return true;
  }
  friend WEFT_INLINE_FUNCTION constexpr bool operator!=(const Array& a, const Array& b) { return !(a == b); }
};

/// The empty array: no storage, size() == 0.
template <class T>
struct Array<T, 0> {
  using value_type = T;
  using reference = T&;
  using const_reference = std::add_const_t<T>&;
  using pointer = T*;
  using const_pointer = std::add_const_t<T>*;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;

  static constexpr bool empty() { return true; }
  WEFT_INLINE_FUNCTION static constexpr size_type size() { return 0; }
  WEFT_INLINE_FUNCTION constexpr size_type max_size() const { return 0; }
  WEFT_INLINE_FUNCTION constexpr pointer data() { return nullptr; }
  WEFT_INLINE_FUNCTION constexpr const_pointer data() const { return nullptr; }
  WEFT_INLINE_FUNCTION constexpr pointer begin() { return nullptr; }
  WEFT_INLINE_FUNCTION constexpr const_pointer begin() const { return nullptr; }
  WEFT_INLINE_FUNCTION constexpr pointer end() { return nullptr; }
  WEFT_INLINE_FUNCTION constexpr const_pointer end() const { return nullptr; }
  friend WEFT_INLINE_FUNCTION constexpr bool operator==(const Array&, const Array&) { return true; }
  friend WEFT_INLINE_FUNCTION constexpr bool operator!=(const Array&, const Array&) { return false; }
};

template <class T, class... U>
WEFT_DEDUCTION_GUIDE Array(T, U...) -> Array<T, 1 + sizeof...(U)>;

/// std::get-style access and structured bindings.
template <std::size_t I, class T, std::size_t N>
WEFT_INLINE_FUNCTION constexpr T& get(Array<T, N>& a) {
  static_assert(I < N, "weft::get<I>(Array<T, N>): I must be less than N");
  return a.impl_values[I];
}
template <std::size_t I, class T, std::size_t N>
WEFT_INLINE_FUNCTION constexpr const T& get(const Array<T, N>& a) {
  static_assert(I < N, "weft::get<I>(Array<T, N>): I must be less than N");
  return a.impl_values[I];
}
template <std::size_t I, class T, std::size_t N>
WEFT_INLINE_FUNCTION constexpr T&& get(Array<T, N>&& a) {
  static_assert(I < N, "weft::get<I>(Array<T, N>): I must be less than N");
  return static_cast<T&&>(a.impl_values[I]);
}

}  // namespace weft

namespace std {
template <class T, std::size_t N>
struct tuple_size<weft::Array<T, N>> : std::integral_constant<std::size_t, N> {};
template <std::size_t I, class T, std::size_t N>
struct tuple_element<I, weft::Array<T, N>> {
  using type = T;
};
}  // namespace std
