// weft::View: a reference-counted, labelled multidimensional array in a memory space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <weft/atomics.hpp>
#include <weft/backend_spaces.hpp>  // generated from backends/backend_spaces.hpp.in: the enabled backends
#include <weft/error.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/layouts.hpp>
#include <weft/scratch.hpp>
#include <weft/spaces.hpp>

namespace weft {

template <class DataType, class... Props>
class View;

/// The memory space of a View that may point into any space (Kokkos's AnonymousSpace): such a View is unmanaged,
/// takes any View of the same elements and layout (keeping its pointer, not its ownership) or a pointer, and is
/// usable wherever the memory it points to is.
struct AnonymousSpace {
  using memory_space = AnonymousSpace;
  using execution_space = DefaultExecutionSpace;
  using device_type = Device<DefaultExecutionSpace, AnonymousSpace>;
  using size_type = std::size_t;
  static constexpr const char* name() { return "AnonymousSpace"; }
};
namespace impl {
/// Every space reaches an AnonymousSpace View's memory: where it may be used is the program's to know (Kokkos).
template <class Space>
requires(!std::is_same_v<typename Space::memory_space, AnonymousSpace>) struct accessible<Space, AnonymousSpace>
    : std::true_type {
};
}  // namespace impl

namespace impl {

// ---- data type analysis: double**[3] -> value double, rank 3, 2 runtime extents, extent(2) == 3 ----
template <class T>
struct strip_pointers {
  static constexpr int count = 0;
  using type = T;
};
template <class T>
struct strip_pointers<T*> {
  static constexpr int count = 1 + strip_pointers<T>::count;
  using type = typename strip_pointers<T>::type;
};

template <class DataType>
struct DataTypeAnalysis {
  using no_extents = std::remove_all_extents_t<DataType>;
  static constexpr int rank_dynamic = strip_pointers<no_extents>::count;
  static constexpr int rank = rank_dynamic + static_cast<int>(std::rank_v<DataType>);
  using value_type = typename strip_pointers<no_extents>::type;
  template <std::size_t... I>
  static constexpr auto make_static(std::index_sequence<I...>) {
    struct A {
      std::size_t v[max_view_rank + 1];
    } a{};
    ((a.v[rank_dynamic + I] = std::extent_v<DataType, I>), ...);
    return a;
  }
  static constexpr auto static_extents = make_static(std::make_index_sequence<std::rank_v<DataType>>{});
  /// Static extent k (0 for runtime extents), usable in device code.
  WEFT_INLINE_FUNCTION static constexpr std::size_t extent_at(int k) {
    constexpr auto a = make_static(std::make_index_sequence<std::rank_v<DataType>>{});
    return a.v[k];
  }
  static_assert(rank <= static_cast<int>(max_view_rank), "weft::View: at most 8 dimensions");
};

template <class T, int Ptrs>
struct add_pointers {
  using type = typename add_pointers<T*, Ptrs - 1>::type;
};
template <class T>
struct add_pointers<T, 0> {
  using type = T;
};
/// Rebuilds a data type with another value type: rebind<double*[3], const double> = const double*[3].
template <class DataType, class NewValue>
struct rebind_data_type {
  using A = DataTypeAnalysis<DataType>;
  template <class T, std::size_t K>
  struct add_extents_from {
    using type = T;
  };
  template <class T, std::size_t K>
  requires(K < std::rank_v<DataType>) struct add_extents_from<T, K> {
    using inner = typename add_extents_from<T, K + 1>::type;
    using type = inner[std::extent_v<DataType, K>];
  };
  using type = typename add_extents_from<typename add_pointers<NewValue, A::rank_dynamic>::type, 0>::type;
};

// ---- view property parsing ----
template <class T>
struct is_memory_traits : std::false_type {};
template <unsigned F>
struct is_memory_traits<MemoryTraits<F>> : std::true_type {};
template <class T>
struct is_device : std::false_type {};
template <class E, class M>
struct is_device<Device<E, M>> : std::true_type {};

template <class Layout, class Space, class Traits, class... Props>
struct ParseViewProps {
  using layout = Layout;
  using space = Space;
  using traits = Traits;
};
template <class Layout, class Space, class Traits, class P, class... Rest>
struct ParseViewProps<Layout, Space, Traits, P, Rest...> {
  static constexpr bool is_layout = is_array_layout_v<P>;
  static constexpr bool is_traits = is_memory_traits<P>::value;
  static constexpr bool is_space = ExecutionSpace<P> || MemorySpace<P> || is_device<P>::value;
  // void stands for "the default" (Kokkos accepts it in any position: View<T*, Layout, Space, void>).
  static_assert(is_layout || is_traits || is_space || std::is_void_v<P>,
                "weft::View: a template argument after the data type is not a layout, a memory or execution "
                "space, a Device<>, MemoryTraits<> or void");
  using next = ParseViewProps<std::conditional_t<is_layout, P, Layout>, std::conditional_t<is_space, P, Space>,
                              std::conditional_t<is_traits, P, Traits>, Rest...>;
  using layout = typename next::layout;
  using space = typename next::space;
  using traits = typename next::traits;
};

template <class T>
struct is_scratch_space : std::false_type {};
template <class E>
struct is_scratch_space<ScratchMemorySpace<E>> : std::true_type {};

template <class M>
struct memory_space_exec {
  using type = DefaultHostExecutionSpace;  // host memory spaces run on the default host space
};
template <class M>
requires requires { typename M::execution_space; }
struct memory_space_exec<M> {
  using type = typename M::execution_space;
};

template <class Space>
struct SpacePair {
  using memory_space = typename Space::memory_space;
  using execution_space = typename Space::execution_space;
};
template <class M>
requires MemorySpace<M>
struct SpacePair<M> {
  using memory_space = M;
  using execution_space = typename memory_space_exec<M>::type;
};
}  // namespace impl

/// The compile-time properties of View<DataType, Props...>.
template <class DataType, class... Props>
struct ViewTraits {
  using analysis = impl::DataTypeAnalysis<DataType>;
  using parsed = impl::ParseViewProps<void, void, MemoryManaged, Props...>;
  using space_arg =
      std::conditional_t<std::is_void_v<typename parsed::space>, DefaultExecutionSpace, typename parsed::space>;
  using memory_space = typename impl::SpacePair<space_arg>::memory_space;
  using execution_space = typename impl::SpacePair<space_arg>::execution_space;
  using array_layout = std::conditional_t<std::is_void_v<typename parsed::layout>,
                                          typename execution_space::array_layout, typename parsed::layout>;
  using memory_traits = typename parsed::traits;
  using device_type = Device<execution_space, memory_space>;
  /// Where a host mirror of such a View lives (as View::host_mirror_space).
  using host_mirror_space = HostSpace;
  using value_type = typename analysis::value_type;
  using const_value_type = std::add_const_t<value_type>;
  using non_const_value_type = std::remove_cv_t<value_type>;
  using data_type = DataType;
  using const_data_type = typename impl::rebind_data_type<DataType, const_value_type>::type;
  using non_const_data_type = typename impl::rebind_data_type<DataType, non_const_value_type>::type;
  /// Kokkos's scalar_array_type: the data type with scalar values (Weft's values are scalars: the data type).
  using scalar_array_type = data_type;
  using const_scalar_array_type = const_data_type;
  using non_const_scalar_array_type = non_const_data_type;
  static constexpr int rank = analysis::rank;
  static constexpr int rank_dynamic = analysis::rank_dynamic;
  static constexpr bool is_managed = !memory_traits::is_unmanaged && !impl::is_scratch_space<memory_space>::value &&
                                     !std::is_same_v<memory_space, AnonymousSpace>;
};

namespace impl {

// ---- allocation records: the host-side reference count and the label ----
struct SharedAllocationRecord {
  int count;
  void* data;
  std::size_t bytes;
  const char* space_name;
  void (*destroy)(SharedAllocationRecord*);
  std::string label;
  SharedAllocationRecord* prev = nullptr;
  SharedAllocationRecord* next = nullptr;
  /// Builds with bounds checks: a copy of the label in the allocation's own memory space (null for HostSpace),
  /// so that a bounds error inside a device kernel can name the View; freed with the record.
  char* device_label = nullptr;
  /// False for an allocation made WithoutInitializing: its elements are the program's to construct and destroy (as
  /// Kokkos: Views of Views placed with new and destroyed by hand), so freeing it runs no destructor.
  bool elements_constructed = true;
};
void record_register(SharedAllocationRecord* r);
void record_unregister(SharedAllocationRecord* r) noexcept;
[[noreturn]] void throw_view_error(std::string_view label, const std::string& what);

#if WEFT_IMPL_ACCESS_HOOKS
/// Set while GpuEmu copies a kernel object for a launch: every managed View copied then reports the bytes
/// it spans and whether its data are const (the stream-order checker's record of what the kernel touches).
struct ViewCaptureSink {
  void (*note)(void* ctx, const SharedAllocationRecord* r, const void* begin, std::size_t bytes, bool read_only);
  void* ctx;
};
inline thread_local ViewCaptureSink* t_view_capture = nullptr;
#endif

/// The (possibly absent) record of a View. A copy made inside a host parallel region does not count
/// (bit 0 set), so copies inside kernels never touch the shared counter.
class ViewTracker {
 public:
  ViewTracker() = default;
  explicit ViewTracker(SharedAllocationRecord* r) : bits_(r ? reinterpret_cast<std::uintptr_t>(r) : 1u) {
#if WEFT_HAS_BOUNDS_CHECK
    device_label_ = r ? r->device_label : nullptr;
#endif
  }
  WEFT_INLINE_FUNCTION ViewTracker(const ViewTracker& o) : bits_(o.bits_) {
#if WEFT_HAS_BOUNDS_CHECK
    device_label_ = o.device_label_;
#endif
    retain();
  }
  WEFT_INLINE_FUNCTION ViewTracker(ViewTracker&& o) noexcept : bits_(o.bits_) {
#if WEFT_HAS_BOUNDS_CHECK
    device_label_ = o.device_label_;
    o.device_label_ = nullptr;
#endif
    o.bits_ = 1u;
  }
  WEFT_INLINE_FUNCTION ViewTracker& operator=(const ViewTracker& o) {
    if (this != &o) {
      ViewTracker tmp(o);
      swap(tmp);
    }
    return *this;
  }
  WEFT_INLINE_FUNCTION ViewTracker& operator=(ViewTracker&& o) noexcept {
    swap(o);
    return *this;
  }
  /// The label as device code can read it (builds with bounds checks, device memory spaces), else null.
  WEFT_INLINE_FUNCTION const char* device_label() const {
#if WEFT_HAS_BOUNDS_CHECK
    return device_label_;
#else
    return nullptr;
#endif
  }
  WEFT_INLINE_FUNCTION ~ViewTracker() { release(); }
  WEFT_INLINE_FUNCTION SharedAllocationRecord* record() const {
    return reinterpret_cast<SharedAllocationRecord*>(bits_ & ~std::uintptr_t(1));
  }
  int use_count() const { return record() ? __atomic_load_n(&record()->count, __ATOMIC_RELAXED) : 0; }
  /// Whether this handle counts in its record (a copy made inside a kernel, or an untracked() one, does not). One
  /// test of the flag bit, as Kokkos's tracker makes: an empty handle has the bit set too, so a clear bit always
  /// comes with a record.
  WEFT_INLINE_FUNCTION bool holds_reference() const { return !(bits_ & 1u); }
  /// A copy that does not hold a reference (for unmanaged views of managed memory).
  WEFT_INLINE_FUNCTION ViewTracker untracked() const {
    ViewTracker t;
    t.bits_ = bits_ | 1u;
#if WEFT_HAS_BOUNDS_CHECK
    t.device_label_ = device_label_;
#endif
    return t;
  }

 private:
  WEFT_INLINE_FUNCTION void swap(ViewTracker& o) noexcept {
    std::swap(bits_, o.bits_);
#if WEFT_HAS_BOUNDS_CHECK
    std::swap(device_label_, o.device_label_);
#endif
  }
  WEFT_INLINE_FUNCTION void retain() {
#if WEFT_IMPL_DEVICE_PASS
    bits_ |= 1u;  // device copies never count
#else
    if (holds_reference()) {
      if (t_in_host_parallel)
        bits_ |= 1u;
      else
        __atomic_fetch_add(&record()->count, 1, __ATOMIC_RELAXED);
    }
#endif
  }
  WEFT_INLINE_FUNCTION void release() {
#if !WEFT_IMPL_DEVICE_PASS
#if WEFT_IMPL_HOST_RUN_DEVICE_CODE
    if (holds_reference() && !t_in_device_kernel) {
#else
    if (holds_reference()) {
#endif
      SharedAllocationRecord* r = record();
      if (__atomic_sub_fetch(&r->count, 1, __ATOMIC_ACQ_REL) == 0) r->destroy(r);
    }
#endif
    bits_ = 1u;
#if WEFT_HAS_BOUNDS_CHECK
    device_label_ = nullptr;
#endif
  }
  std::uintptr_t bits_ = 1u;  // the record's address; bit 0 set: this handle does not count (or is empty)
#if WEFT_HAS_BOUNDS_CHECK     // the build's setting (not a file's WEFT_BOUNDS_CHECK): the layout is the same everywhere
  const char* device_label_ = nullptr;
#endif
};

/// Constructs (value-initializes) or destroys the elements of an allocation; defined in deep_copy.hpp.
template <class T, class Space>
void construct_elements(T* p, std::size_t n, std::string_view label);
template <class T, class Space>
void destroy_elements(T* p, std::size_t n);
/// The elements built one after the other on this thread; on a throw those already built are destroyed.
template <class T, class Space>
void construct_elements_sequential(T* p, std::size_t n) {
  std::size_t i = 0;
  try {
    for (; i < n; ++i) new (p + i) T();
  } catch (...) {
    destroy_elements<T, Space>(p, i);
    throw;
  }
}

/// Builds with bounds checks: the label copied into Space's memory, where a device kernel can read it (none for
/// HostSpace, whose Views device code may not touch; host code reads the record's label).
template <class Space>
char* device_label_copy(const std::string& label) {
#if WEFT_HAS_BOUNDS_CHECK
  if constexpr (!std::is_same_v<Space, HostSpace>) {
    const std::size_t n = label.size() + 1;
    auto* p = static_cast<char*>(Space().allocate(n, label));
    // Device memory: enqueued on the default instance's stream, never waited for (the record's string outlives
    // the copy; only an error message reads the bytes).
    if constexpr (requires(const typename Space::execution_space& e) { e.impl_copy_bytes_async(p, p, n); })
      typename Space::execution_space().impl_copy_bytes_async(p, label.c_str(), n);
    else
      std::memcpy(p, label.c_str(), n);
    return p;
  }
#endif
  (void)label;
  return nullptr;
}
template <class Space>
void device_label_free(SharedAllocationRecord* r) {
  if (r->device_label) Space().deallocate(r->device_label, r->label.size() + 1, r->label);
}

template <class T, class Space>
void destroy_record(SharedAllocationRecord* r) {
  record_unregister(r);
  if (r->elements_constructed) destroy_elements<T, Space>(static_cast<T*>(r->data), r->bytes / sizeof(T));
  Space().deallocate(r->data, r->bytes, r->label);
  device_label_free<Space>(r);
  delete r;
}

/// The errors of a View whose bytes one allocation cannot hold (out of line: the message is built once, in the library,
/// not in every View type's constructor). "weft::View 'label': N elements of S bytes need ..." and "weft::View 'label':
/// extents (...) [and strides (...)] of S-byte elements need ..." (strides null: a packed layout).
/// `space`: the memory space of an allocation that these bytes are for (its name is in the message, with the label:
/// "HostSpace memory space failed to allocate them (label=...)"), null for an unmanaged View.
[[noreturn]] void throw_view_elements_bytes(std::string_view label, std::size_t n, std::size_t element_bytes,
                                            const char* space);
/// throw_view_error(label, compose(parts, numbers)), out of line.
[[noreturn]] void throw_view_parts(std::string_view label, std::initializer_list<std::string_view> parts,
                                   std::initializer_list<std::int64_t> numbers);
/// A subview argument k that is negative, or that selects [b, e) outside extent k (messages naming all extents).
[[noreturn]] void throw_subview_negative(std::string_view label, int k, long long value, const std::size_t* ext,
                                         int rank);
[[noreturn]] void throw_subview_outside(std::string_view label, int k, std::size_t b, std::size_t e,
                                        const std::size_t* ext, int rank);
/// impl_make's check: the extents and strides of a map do not fit the View type (an internal error).
[[noreturn]] void throw_view_map_mismatch(std::string_view label, const std::size_t* ext, const std::size_t* str,
                                          int rank);
/// A strided View assigned to LayoutLeft/LayoutRight whose strides are not that layout's (out of line).
[[noreturn]] void throw_strided_to_contiguous_impl(std::string_view label, const std::size_t* ext,
                                                   const std::size_t* str, int rank);
template <class M>
[[noreturn]] void throw_strided_to_contiguous(std::string_view label, const M& m, int rank) {
  std::size_t str[8] = {};  // a View has at most 8 dimensions
  for (int k = 0; k < rank; ++k) str[k] = m.stride(k);
  throw_strided_to_contiguous_impl(label, m.ext, str, rank);
}
[[noreturn]] void throw_view_span_bytes(std::string_view label, const std::size_t* ext, const std::size_t* str,
                                        int rank, std::size_t element_bytes, std::size_t bytes, const char* space);

template <class T, class Space>
SharedAllocationRecord* allocate_record(std::string_view label, std::size_t n, bool initialize,
                                        bool sequential_host_init = false) {
  check_initialized("allocate a View", label);
  if (sequential_host_init && !HostAccessibleSpace<Space>)
    throw_view_error(label, std::string("SequentialHostInit constructs the elements on the host, but ") +
                                Space::name() +
                                " memory is not accessible from the host; allocate it in a host-accessible space");
  const std::size_t bytes = size_mul(n, sizeof(T));
  if (bytes > max_bytes) [[unlikely]]
    throw_view_elements_bytes(label, n, sizeof(T), Space::name());
  void* p = Space().allocate(bytes, label);
  auto* r = new SharedAllocationRecord{1, p, bytes, Space::name(), &destroy_record<T, Space>, std::string(label)};
  try {
    r->device_label = device_label_copy<Space>(r->label);
  } catch (...) {
    Space().deallocate(p, bytes, label);
    delete r;
    throw;
  }
  record_register(r);
  // WithoutInitializing: nothing constructed, so nothing destroyed (Kokkos's rule, whatever the element type).
  r->elements_constructed = initialize;
  if constexpr (!std::is_default_constructible_v<T>) {
    // No constructor to run: the program fills the elements itself (Kokkos: only with WithoutInitializing).
    if (initialize) {
      record_unregister(r);
      Space().deallocate(p, bytes, label);
      device_label_free<Space>(r);
      delete r;
      throw_view_error(label,
                       "its element type has no default constructor; allocate it with "
                       "view_alloc(WithoutInitializing, label) and construct the elements yourself");
    }
  } else if (initialize) {
    try {
      if (sequential_host_init) {
        if constexpr (HostAccessibleSpace<Space>) construct_elements_sequential<T, Space>(static_cast<T*>(p), n);
      } else {
        construct_elements<T, Space>(static_cast<T*>(p), n, label);
      }
    } catch (...) {
      record_unregister(r);
      Space().deallocate(p, bytes, label);
      device_label_free<Space>(r);
      delete r;
      throw;
    }
  }
  return r;
}

[[noreturn]] void view_bounds_abort(const char* label, int rank, const std::int64_t* idx,
                                    const std::size_t* ext) noexcept;

// ---- the index -> offset map of each layout ----
template <class Layout, int R>
struct ViewOffset {
  std::size_t ext[R > 0 ? R : 1] = {};
  std::size_t str[R > 0 ? R : 1] = {};

  static constexpr bool right = std::is_same_v<Layout, LayoutRight>;
  static constexpr bool left = std::is_same_v<Layout, LayoutLeft>;

  template <class... I>
  WEFT_FORCEINLINE_FUNCTION std::size_t operator()(I... i) const {
    return offset_impl(std::make_index_sequence<sizeof...(I)>{}, i...);
  }
  template <std::size_t... K, class... I>
  WEFT_FORCEINLINE_FUNCTION std::size_t offset_impl(std::index_sequence<K...>, I... i) const {
    return (std::size_t(0) + ... + term<K>(static_cast<std::size_t>(i)));
  }
  template <std::size_t K>
  WEFT_FORCEINLINE_FUNCTION std::size_t term(std::size_t i) const {
    if constexpr ((right && K == R - 1) || (left && K == 0))
      return i;
    else
      return i * str[K];
  }
  WEFT_INLINE_FUNCTION std::size_t size() const {
    std::size_t s = 1;
    for (int k = 0; k < R; ++k) s *= ext[k];
    return s;
  }
  WEFT_INLINE_FUNCTION std::size_t stride(int k) const {
    if ((right && k == R - 1) || (left && k == 0)) return 1;
    return str[k];
  }
  WEFT_INLINE_FUNCTION std::size_t span() const {
    if (size() == 0) return 0;
    std::size_t s = 1;
    for (int k = 0; k < R; ++k) s += (ext[k] - 1) * stride(k);
    return s;
  }
  WEFT_INLINE_FUNCTION bool contiguous() const { return span() == size(); }
  /// Packed strides for the layout from the extents.
  WEFT_INLINE_FUNCTION void set_packed() {
    if constexpr (left) {
      std::size_t s = 1;
      for (int k = 0; k < R; ++k) {
        str[k] = s;
        s *= ext[k];
      }
    } else {
      std::size_t s = 1;
      for (int k = R - 1; k >= 0; --k) {
        str[k] = s;
        s *= ext[k];
      }
    }
  }
};

template <int N>
struct MapDynamicExtents {
  std::size_t dext[N] = {};
};
template <>
struct MapDynamicExtents<0> {};
template <int N>
struct MapStrides {
  std::size_t dstr[N] = {};
};
template <>
struct MapStrides<0> {};
template <class Layout, int R>
inline constexpr int stored_strides = std::is_same_v<Layout, LayoutRight> || std::is_same_v<Layout, LayoutLeft>
                                          ? (R >= 2 ? 1 : 0)
                                          : R;

/// The index map a View stores, as small as Kokkos's: the runtime extents only (S... are the data type's
/// compile-time extents of dimensions D.., constants here), and only the strides the layout cannot derive: none for
/// LayoutRight/LayoutLeft of rank <= 1, one for rank >= 2 (the stride of dimension R-2 for LayoutRight, of dimension
/// 1 for LayoutLeft: the one a padded layout sets; the others are products of it and the extents), all R for
/// LayoutStride. ViewOffset (every extent and stride) is the form Views are built from and taken apart into.
template <class Layout, int D, std::size_t... S>
struct ViewMap : MapDynamicExtents<D>, MapStrides<stored_strides<Layout, D + int(sizeof...(S))>> {
  static constexpr int R = D + int(sizeof...(S));
  static constexpr bool right = std::is_same_v<Layout, LayoutRight>;
  static constexpr bool left = std::is_same_v<Layout, LayoutLeft>;
  using full_type = ViewOffset<Layout, R>;

  template <int K>
  WEFT_FORCEINLINE_FUNCTION constexpr std::size_t ext() const {
    if constexpr (K < D) {
      return this->dext[K];
    } else {
      constexpr std::size_t s[] = {S..., 0};
      return s[K - D];
    }
  }
  template <int K>
  WEFT_FORCEINLINE_FUNCTION constexpr std::size_t str() const {
    if constexpr (!right && !left)
      return this->dstr[K];
    else if constexpr ((right && K == R - 1) || (left && K == 0))
      return 1;
    else if constexpr ((right && K == R - 2) || (left && K == 1))
      return this->dstr[0];
    else if constexpr (right)
      return str<K + 1>() * ext<K + 1>();
    else
      return str<K - 1>() * ext<K - 1>();
  }

  /// The offset of element (i...): LayoutRight as ((i0 * e1 + i1) * e2 + ...) * s + i(R-1), LayoutLeft mirrored
  /// (as Kokkos computes them: no more multiplications than with every stride stored).
  template <class... I>
  WEFT_FORCEINLINE_FUNCTION std::size_t operator()(I... i) const {
    static_assert(sizeof...(I) == R);
    if constexpr (R == 0) {
      return 0;
    } else {
      const std::size_t idx[] = {static_cast<std::size_t>(i)...};
      if constexpr (R == 1 && (right || left))
        return idx[0];
      else if constexpr (right)
        return right_part<R - 2>(idx) * this->dstr[0] + idx[R - 1];
      else if constexpr (left)
        return idx[0] + this->dstr[0] * left_part<1>(idx);
      else
        return strided_sum(idx, std::make_integer_sequence<int, R>{});
    }
  }
  WEFT_INLINE_FUNCTION constexpr std::size_t extent(int k) const {
    return extent_of(k, std::make_integer_sequence<int, R>{});
  }
  WEFT_INLINE_FUNCTION constexpr std::size_t stride(int k) const {
    return stride_of(k, std::make_integer_sequence<int, R>{});
  }
  WEFT_INLINE_FUNCTION constexpr std::size_t size() const { return size_of(std::make_integer_sequence<int, R>{}); }
  WEFT_INLINE_FUNCTION constexpr std::size_t span() const {
    if (size() == 0) return 0;
    return span_of(std::make_integer_sequence<int, R>{});
  }
  WEFT_INLINE_FUNCTION constexpr bool contiguous() const { return span() == size(); }

  /// Every extent and stride.
  WEFT_INLINE_FUNCTION full_type full() const {
    full_type m;
    fill(m, std::make_integer_sequence<int, R>{});
    return m;
  }
  /// From every extent and stride (the static extents and the derived strides are taken as they are: see
  /// represents()).
  template <class L2>
  WEFT_INLINE_FUNCTION static ViewMap from(const ViewOffset<L2, R>& m) {
    ViewMap v;
    if constexpr (D > 0)
      for (int k = 0; k < D; ++k) v.dext[k] = m.ext[k];
    if constexpr (!right && !left && R > 0) {  // a rank-0 LayoutStride map stores no stride
      for (int k = 0; k < R; ++k) v.dstr[k] = m.stride(k);
    } else if constexpr ((right || left) && R >= 2) {
      v.dstr[0] = m.stride(right ? R - 2 : 1);
    }
    return v;
  }
  /// Packed strides for these extents (the first `count` given, the data type's static ones after them).
  WEFT_INLINE_FUNCTION static ViewMap packed(const std::size_t* e, int count) {
    full_type m;
    for (int k = 0; k < R; ++k) m.ext[k] = k < count ? e[k] : static_extent(k);
    m.set_packed();
    return from(m);
  }
  /// Whether from(m) gives back m: the data type's extents, and the strides this map derives wherever an index can
  /// be other than 0 (an empty map, or a dimension of extent 1, takes any stride).
  template <class L2>
  bool represents(const ViewOffset<L2, R>& m) const {
    const full_type f = full();
    bool empty = false;
    for (int k = 0; k < R; ++k) {
      if (m.ext[k] != f.ext[k]) return false;
      empty = empty || m.ext[k] == 0;
    }
    for (int k = 0; k < R && !empty; ++k)
      if (m.ext[k] > 1 && m.stride(k) != f.stride(k)) return false;
    return true;
  }
  WEFT_INLINE_FUNCTION static constexpr std::size_t static_extent(int k) {
    constexpr std::size_t s[] = {S..., 0};
    return k < D ? 0 : s[k - D];
  }

 private:
  template <int K>
  WEFT_FORCEINLINE_FUNCTION std::size_t right_part(const std::size_t* idx) const {
    if constexpr (K == 0)
      return idx[0];
    else
      return right_part<K - 1>(idx) * ext<K>() + idx[K];
  }
  template <int K>
  WEFT_FORCEINLINE_FUNCTION std::size_t left_part(const std::size_t* idx) const {
    if constexpr (K == R - 1)
      return idx[K];
    else
      return idx[K] + ext<K>() * left_part<K + 1>(idx);
  }
  template <int... K>
  WEFT_FORCEINLINE_FUNCTION std::size_t strided_sum(const std::size_t* idx, std::integer_sequence<int, K...>) const {
    return (std::size_t(0) + ... + (idx[K] * this->dstr[K]));
  }
  template <int... K>
  WEFT_INLINE_FUNCTION constexpr std::size_t extent_of(int k, std::integer_sequence<int, K...>) const {
    std::size_t r = 1;
    ((k == K ? (void)(r = ext<K>()) : (void)0), ...);
    return r;
  }
  template <int... K>
  WEFT_INLINE_FUNCTION constexpr std::size_t stride_of(int k, std::integer_sequence<int, K...>) const {
    std::size_t r = 1;
    ((k == K ? (void)(r = str<K>()) : (void)0), ...);
    return r;
  }
  template <int... K>
  WEFT_INLINE_FUNCTION constexpr std::size_t size_of(std::integer_sequence<int, K...>) const {
    return (std::size_t(1) * ... * ext<K>());
  }
  template <int... K>
  WEFT_INLINE_FUNCTION constexpr std::size_t span_of(std::integer_sequence<int, K...>) const {
    return (std::size_t(1) + ... + ((ext<K>() - 1) * str<K>()));
  }
  template <int... K>
  WEFT_INLINE_FUNCTION void fill(full_type& m, std::integer_sequence<int, K...>) const {
    ((m.ext[K] = ext<K>(), m.str[K] = str<K>()), ...);
  }
};

/// The ViewMap of a layout and a data type's analysis.
template <class Layout, class A, class Seq = std::make_index_sequence<std::size_t(A::rank - A::rank_dynamic)>>
struct view_map_of;
template <class Layout, class A, std::size_t... I>
struct view_map_of<Layout, A, std::index_sequence<I...>> {
  using type = ViewMap<Layout, A::rank_dynamic, A::static_extents.v[A::rank_dynamic + I]...>;
};

/// A View's label: text (a string, a string_view, a character array or pointer), never nullptr (Kokkos reads
/// View<T*>(nullptr, n) as an unmanaged View of nothing, and string_view(nullptr) would read address 0).
template <class T>
concept Label = std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, std::nullptr_t>;
/// A label for a View whose pointer_type is Ptr: a pointer that is the View's own pointer type (View<const char*>'s
/// `const char*`) is its data, as in Kokkos, not a label.
template <class T, class Ptr>
concept LabelFor = Label<T> && !(std::is_pointer_v<T> && std::is_same_v<T, Ptr>);

/// What view_alloc(...) collects: a label, WithoutInitializing, SequentialHostInit, an execution space instance.
struct WithoutInitializing_t {};
struct SequentialHostInit_t {};
template <class... P>
struct ViewAllocProps {
  /// A copy: `auto p = view_alloc(WithoutInitializing, v.label());` outlives the temporary string it was given.
  std::string label;
  bool initialize = true;
  /// The elements are constructed (and destroyed) one after the other by the calling host thread, never in a kernel:
  /// for elements whose constructor is host code, e.g. Views of Views.
  bool sequential_host_init = false;
};

template <class V>
struct is_view : std::false_type {};
template <class D, class... P>
struct is_view<View<D, P...>> : std::true_type {};

std::string format_extents(const std::size_t* ext, int rank);
}  // namespace impl

inline constexpr impl::WithoutInitializing_t WithoutInitializing{};
/// view_alloc(SequentialHostInit, "label"): construct the elements on the calling host thread, one after the other
/// (memory the host can access only; Kokkos's name).
inline constexpr impl::SequentialHostInit_t SequentialHostInit{};

/// view_alloc("label"), view_alloc(WithoutInitializing, "label"), view_alloc(SequentialHostInit, "label"),
/// view_alloc(exec, "label").
template <class... Args>
impl::ViewAllocProps<> view_alloc(const Args&... args) {
  impl::ViewAllocProps<> p;
  auto take = [&p](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (std::is_same_v<A, impl::WithoutInitializing_t>)
      p.initialize = false;
    else if constexpr (std::is_same_v<A, impl::SequentialHostInit_t>)
      p.sequential_host_init = true;
    else if constexpr (impl::Label<A>)
      p.label = std::string(std::string_view(a));
    else if constexpr (requires { typename A::impl_view_alloc_ignored; })
      (void)a;  // a property that only carries a type (Kokkos's common_view_alloc_prop for plain Views)
    else
      static_assert(
          ExecutionSpace<A> || MemorySpace<A>,
          "weft::view_alloc takes a label, weft::WithoutInitializing, weft::SequentialHostInit, and execution/memory "
          "spaces");
  };
  (take(args), ...);
  return p;
}

template <class V>
inline constexpr bool is_view_v = impl::is_view<std::remove_cv_t<V>>::value;

template <std::size_t N>
struct ViewRankConstant {
  constexpr operator std::size_t() const { return N; }
  constexpr std::size_t operator()() const { return N; }
};

template <class DataType, class... Props>
class View {
 public:
  using traits = ViewTraits<DataType, Props...>;
  using data_type = DataType;
  using const_data_type = typename traits::const_data_type;
  using non_const_data_type = typename traits::non_const_data_type;
  using scalar_array_type = typename traits::scalar_array_type;
  using const_scalar_array_type = typename traits::const_scalar_array_type;
  using non_const_scalar_array_type = typename traits::non_const_scalar_array_type;
  using value_type = typename traits::value_type;
  using const_value_type = typename traits::const_value_type;
  using non_const_value_type = typename traits::non_const_value_type;
  using array_layout = typename traits::array_layout;
  using memory_space = typename traits::memory_space;
  using execution_space = typename traits::execution_space;
  using device_type = typename traits::device_type;
  using memory_traits = typename traits::memory_traits;
  using size_type = std::size_t;
  using pointer_type = value_type*;
  using reference_type = std::conditional_t<memory_traits::is_atomic, AtomicRef<value_type>, value_type&>;
  using mirror_layout = std::conditional_t<std::is_same_v<array_layout, LayoutStride>, LayoutRight, array_layout>;
  using host_mirror_type = View<non_const_data_type, mirror_layout, HostSpace>;
  using HostMirror = host_mirror_type;
  using host_mirror_space = typename host_mirror_type::memory_space;
  using const_type = View<const_data_type, array_layout, device_type, memory_traits>;
  using non_const_type = View<non_const_data_type, array_layout, device_type, memory_traits>;
  using uniform_type = View<data_type, array_layout, device_type, memory_traits>;

  static constexpr ViewRankConstant<traits::rank> rank{};
  static constexpr ViewRankConstant<traits::rank_dynamic> rank_dynamic{};
  static constexpr int R = traits::rank;
  static constexpr bool is_managed = traits::is_managed;

  // ---- construction ----
  View() = default;
#if WEFT_IMPL_ACCESS_HOOKS
  View(const View& o) : h_(o.h_), track_(o.track_) {
    if (impl::t_view_capture && track_.record()) [[unlikely]]
      impl::t_view_capture->note(impl::t_view_capture->ctx, track_.record(), h_.ptr, h_.map.span() * sizeof(value_type),
                                 std::is_const_v<value_type>);
  }
#else
  View(const View&) = default;
#endif
  View& operator=(const View&) = default;
  /// A moved-from View is empty (not allocated), as after View().
  WEFT_INLINE_FUNCTION View(View&& o) noexcept : h_(o.h_), track_(static_cast<impl::ViewTracker&&>(o.track_)) {
    o.h_ = Handle{nullptr, empty_map()};
  }
  WEFT_INLINE_FUNCTION View& operator=(View&& o) noexcept {
    h_ = o.h_;
    track_ = static_cast<impl::ViewTracker&&>(o.track_);
    o.h_ = Handle{nullptr, empty_map()};
    o.track_ = impl::ViewTracker();
    return *this;
  }

  /// Allocates: View<double**> a("A", n, m). Give the runtime extents, or all of them.
  template <impl::LabelFor<pointer_type> L, impl::ViewIndex... N>
  explicit View(const L& label, N... n) : View(view_alloc(std::string_view(label)), n...) {}
  /// Another count of extents (say in a branch that never runs for this type) is a weft::Error when it runs, as
  /// Kokkos checks it at run time; trailing KOKKOS_INVALID_INDEX extents count as not given.
  template <impl::ViewIndex... N>
  explicit View(const impl::ViewAllocProps<>& props, N... n) {
    static_assert(sizeof...(N) <= 8, "weft::View: at most 8 extents");
    if constexpr ((std::is_unsigned_v<N> || ...)) (check_unsigned_extent(props.label, n), ...);
    const std::int64_t e[] = {static_cast<std::int64_t>(n)..., 0};
    set_extents(props.label, e, given_extent_count<sizeof...(N)>(props.label, e), true, memory_space::name());
    allocate(props);
  }
  template <impl::LabelFor<pointer_type> L>
  View(const L& label, const array_layout& layout) : View(view_alloc(std::string_view(label)), layout) {}
  View(const impl::ViewAllocProps<>& props, const array_layout& layout) {
    set_layout(props.label, layout, memory_space::name());
    allocate(props);
  }
  /// View(src, args...): the subview of src that subview(src, args...) gives (Kokkos's subview constructor):
  /// View<double*> row(A, i, ALL), View<double*> part(v, std::pair(b, e)).
  template <class D2, class... P2, class A0, class... Args>
  requires(sizeof...(Args) + 1 == View<D2, P2...>::R)
      View(const View<D2, P2...>& src, const A0& a0, const Args&... args)
      : View(subview(src, a0, args...)) {}
  /// Wraps user memory (never freed by Weft): View<double*> v(ptr, n). Device code may do it too (the extents are
  /// checked on the host only).
  template <impl::ViewIndex... N>
  WEFT_INLINE_FUNCTION explicit View(pointer_type p, N... n) : h_{p, {}} {
    check_extent_count<sizeof...(N)>();
#if WEFT_IMPL_DEVICE_PASS
    const std::size_t e[] = {static_cast<std::size_t>(n)..., 0};
    set_extents_unchecked(e, sizeof...(N));
#else
    const std::int64_t e[] = {static_cast<std::int64_t>(n)..., 0};
    set_extents("(unmanaged)", e, sizeof...(N));
#endif
  }
  View(pointer_type p, const array_layout& layout) : h_{p, {}} { set_layout("(unmanaged)", layout); }
  /// A view of team or thread scratch: View<double*, ScratchSpace, MemoryUnmanaged> s(member.team_scratch(0), n);
  /// also a View of a space the team's execution space reaches (Kokkos: View<double*, ExecSpace> s(
  /// member.team_scratch(0), n), with or without MemoryUnmanaged): such a View never owns its scratch bytes.
  template <class E, impl::ViewIndex... N>
  requires(std::is_same_v<memory_space, ScratchMemorySpace<E>> ||
           SpaceAccessibility<E, memory_space>::accessible) WEFT_INLINE_FUNCTION
      View(const ScratchMemorySpace<E>& space, N... n) {
    check_extent_count<sizeof...(N)>();
    const std::size_t e[] = {static_cast<std::size_t>(n)..., 0};
    set_extents_unchecked(e, sizeof...(N));
    const std::size_t bytes = h_.map.size() * sizeof(value_type);
    h_.ptr = static_cast<pointer_type>(space.get_shmem_aligned(bytes, scratch_alignment));
    if (!h_.ptr && bytes > 0) [[unlikely]]
      space.impl_abort_exhausted(bytes);
  }
  /// A scratch View starts at a multiple of its element's size (at least 8 bytes), as in Kokkos, so that code
  /// indexing scratch as an array of elements from any base finds them whole.
  static constexpr std::size_t scratch_alignment = sizeof(value_type) > 8 ? sizeof(value_type) : 8;
  /// Bytes of scratch a View of these extents needs (with alignment slack).
  template <impl::ViewIndex... N>
  static std::size_t shmem_size(N... n) {
    // Saturating: extents past size_t ask for SIZE_MAX bytes, which every scratch maximum refuses.
    std::size_t s = sizeof(value_type);
    ((s = impl::size_mul(s, static_cast<std::size_t>(n))), ...);
    for (int k = sizeof...(N); k < R; ++k) s = impl::size_mul(s, traits::analysis::extent_at(k));
    return impl::size_add(s, scratch_alignment);
  }

  /// Scratch bytes a View of this layout needs (its span, with alignment slack).
  static std::size_t shmem_size(const array_layout& layout) {
    return impl::size_add(required_allocation_size(layout), scratch_alignment);
  }
  /// Bytes an allocation of these extents (or of this layout) takes: the span times the element size, as
  /// Kokkos's required_allocation_size (extents as for the constructor: the runtime ones, or all of them; any
  /// further extents given must be 0 or 1... they are ignored as Kokkos ignores them).
  template <impl::ViewIndex... N>
  static constexpr std::size_t required_allocation_size(N... n) {
    const std::size_t e[] = {static_cast<std::size_t>(n)..., 0};
    std::size_t bytes = sizeof(value_type);
    const int given = static_cast<int>(sizeof...(N));
    const bool dynamic_only = given < R || given == traits::rank_dynamic;
    for (int k = 0; k < R; ++k) {
      const std::size_t ext =
          k < traits::rank_dynamic || !dynamic_only ? (k < given ? e[k] : 0) : traits::analysis::extent_at(k);
      bytes = impl::size_mul(bytes, ext);
    }
    return bytes;
  }
  static constexpr std::size_t required_allocation_size(const array_layout& layout) {
    impl::ViewOffset<array_layout, R> m;
    for (int k = 0; k < R; ++k)
      m.ext[k] = k < traits::rank_dynamic || layout.dimension[k] != invalid_extent ? layout.dimension[k]
                                                                                   : traits::analysis::extent_at(k);
    if constexpr (std::is_same_v<array_layout, LayoutStride>)
      for (int k = 0; k < R; ++k) m.str[k] = layout.stride[k];
    else
      m.set_packed();
    return impl::size_mul(m.span(), sizeof(value_type));
  }

  /// Conversion between compatible views (adding const, to LayoutStride, dynamic <-> static extents).
  template <class D2, class... P2>
  requires(!std::is_same_v<View<D2, P2...>, View>) && (View<D2, P2...>::R == R) &&
      (std::is_same_v<typename View<D2, P2...>::memory_space, memory_space> ||
       std::is_same_v<
           memory_space,
           AnonymousSpace>)&&(std::is_same_v<typename View<D2, P2...>::value_type, value_type> ||
                              std::is_same_v<
                                  typename View<D2, P2...>::value_type const,
                                  value_type>)&&(std::is_same_v<typename View<D2, P2...>::array_layout, array_layout> ||
                                                 std::is_same_v<array_layout, LayoutStride> ||
                                                 std::is_same_v<typename View<D2, P2...>::array_layout, LayoutStride> ||
                                                 R <= 1) WEFT_INLINE_FUNCTION View(const View<D2, P2...>& o)
      : h_{o.h_.ptr, {}} {
    if constexpr (is_managed)
      track_ = o.track_;
    else
      track_ = o.track_.untracked();
    h_.map = map_type::from(o.h_.map.full());
#if !WEFT_IMPL_DEVICE_PASS  // the checks raise weft::Error: host side only
    if constexpr (!std::is_same_v<array_layout, LayoutStride> &&
                  !std::is_same_v<typename View<D2, P2...>::array_layout, array_layout>) {
      // A strided source (LayoutStride, or a rank-1 view of another layout) keeps its elements only if its strides
      // are this layout's, padded or not: checked at run time, as Kokkos's assignment checks them.
      if (!h_.map.represents(o.h_.map.full())) impl::throw_strided_to_contiguous(o.label(), o.h_.map.full(), R);
    }
    for (int k = traits::rank_dynamic; k < R; ++k)
      if (o.h_.map.extent(k) != traits::analysis::extent_at(k))
        impl::throw_view_parts(o.label(), {"assigned to a view whose type fixes extent ", " at ", ", but it is ", ""},
                               {k, std::int64_t(traits::analysis::extent_at(k)), std::int64_t(o.h_.map.extent(k))});
#endif
  }

  // ---- element access ----
  /// Unscoped enumerators index as their values (`u(i, j, VelocityX)`), as in Kokkos.
  template <impl::ViewIndex... I>
  requires(sizeof...(I) == R && (std::is_enum_v<I> || ...)) WEFT_FORCEINLINE_FUNCTION reference_type operator()(
      I... i) const {
    return (*this)(impl::index_value(i)...);
  }
  template <std::integral... I>
  requires(sizeof...(I) == R) WEFT_FORCEINLINE_FUNCTION reference_type operator()(I... i) const {
#if WEFT_BOUNDS_CHECK
    check_bounds(i...);
#endif
    const std::size_t at = h_.map(i...);
#if WEFT_IMPL_ACCESS_HOOKS
    // GpuEmu's memory model sees every element access in a kernel (one thread-local test when it is off).
    if constexpr (requires { memory_space::impl_note_access(static_cast<const void*>(h_.ptr), std::size_t(0)); })
      memory_space::impl_note_access(h_.ptr + at, sizeof(value_type));
#endif
    if constexpr (memory_traits::is_atomic)
      return AtomicRef<value_type>(h_.ptr[at]);
    else
      return h_.ptr[at];
  }
  template <impl::ViewIndex I>
  requires(R == 1) WEFT_FORCEINLINE_FUNCTION reference_type operator[](I i) const { return (*this)(i); }
  /// Element access that also takes more indices than the rank (up to 8), as Kokkos's access(): the extra ones
  /// must be 0 (bounds-checked builds check that) and are dropped.
  template <impl::ViewIndex... I>
  requires(sizeof...(I) >= R && sizeof...(I) <= max_view_rank) WEFT_FORCEINLINE_FUNCTION reference_type access(I... i)
  const {
    if constexpr (sizeof...(I) == R) {
      return (*this)(i...);
    } else {
      const std::int64_t idx[] = {static_cast<std::int64_t>(impl::index_value(i))...};
#if WEFT_BOUNDS_CHECK
      for (std::size_t k = R; k < sizeof...(I); ++k)
        if (idx[k] != 0) [[unlikely]]
          extra_index_abort(idx, static_cast<int>(sizeof...(I)));
#endif
      return access_first(idx, std::make_index_sequence<std::size_t(R)>{});
    }
  }

  // ---- queries ----
  static constexpr std::size_t static_extent(unsigned r) {
    return static_cast<int>(r) < traits::rank_dynamic ? 0 : traits::analysis::extent_at(r);
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr std::size_t extent(I r) const {
    return static_cast<int>(r) < R ? h_.map.extent(static_cast<int>(r)) : 1;
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr int extent_int(I r) const {
    return static_cast<int>(extent(r));
  }
  template <std::integral I>
  WEFT_INLINE_FUNCTION constexpr std::size_t stride(I r) const {
    return static_cast<int>(r) < R ? h_.map.stride(static_cast<int>(r))
                                   : (R == 0 ? 1 : h_.map.stride(R - 1) * h_.map.extent(R - 1));
  }
  template <std::integral I>
  void stride(I* s) const {
    for (int k = 0; k < R; ++k) s[k] = static_cast<I>(h_.map.stride(k));
    s[R] = static_cast<I>(span());
  }
  std::size_t stride_0() const { return stride(0); }
  std::size_t stride_1() const { return stride(1); }
  std::size_t stride_2() const { return stride(2); }
  std::size_t stride_3() const { return stride(3); }
  WEFT_INLINE_FUNCTION constexpr std::size_t size() const { return h_.map.size(); }
  WEFT_INLINE_FUNCTION constexpr std::size_t span() const { return h_.map.span(); }
  WEFT_INLINE_FUNCTION constexpr bool span_is_contiguous() const { return h_.map.contiguous(); }
  WEFT_INLINE_FUNCTION constexpr pointer_type data() const { WEFT_IMPL_NOTE_DATA(h_.ptr) return h_.ptr; }
  /// Points the View at `p`, keeping its extents and strides; it lets go of its allocation, as an unmanaged View
  /// (Kokkos's assign_data: re-pointing a subview at the next slab inside a kernel). p must hold the View's span.
  WEFT_INLINE_FUNCTION void assign_data(pointer_type p) {
    track_ = impl::ViewTracker();
    h_.ptr = p;
  }
  WEFT_INLINE_FUNCTION constexpr bool is_allocated() const { return h_.ptr != nullptr || track_.record() != nullptr; }
  std::string label() const { return track_.record() ? track_.record()->label : std::string(); }
  int use_count() const { return track_.use_count(); }
  array_layout layout() const {
    array_layout l;
    for (int k = 0; k < R; ++k) {
      l.dimension[k] = h_.map.extent(k);
      if constexpr (std::is_same_v<array_layout, LayoutStride>) l.stride[k] = h_.map.stride(k);
    }
    if constexpr (!std::is_same_v<array_layout, LayoutStride> && R >= 2)
      l.stride = h_.map.stride(std::is_same_v<array_layout, LayoutLeft> ? 1 : R - 2);
    return l;
  }
  /// Two Views are equal when they view the same elements the same way: the same value type (const aside), layout,
  /// memory space and rank, the same data pointer, extents and strides (as Kokkos).
  template <class D2, class... P2>
  friend bool operator==(const View& a, const View<D2, P2...>& b) {
    using B = View<D2, P2...>;
    if constexpr (!std::is_same_v<std::remove_cv_t<value_type>, std::remove_cv_t<typename B::value_type>> ||
                  !std::is_same_v<array_layout, typename B::array_layout> ||
                  !std::is_same_v<memory_space, typename B::memory_space> || R != B::R) {
      return false;
    } else {
      if (static_cast<const void*>(a.data()) != static_cast<const void*>(b.data()) || a.span() != b.span())
        return false;
      for (int k = 0; k < R; ++k)
        if (a.extent(k) != b.extent(k) || a.stride(k) != b.stride(k)) return false;
      return true;
    }
  }
  const impl::ViewTracker& impl_track() const { return track_; }
  /// The index map this View stores (impl::ViewMap: the runtime extents, the strides its layout cannot derive).
  using impl_map_type = typename impl::view_map_of<array_layout, typename traits::analysis>::type;
  WEFT_INLINE_FUNCTION const impl_map_type& impl_map() const { return h_.map; }
  /// Builds a view from its parts (subview, mirrors): every extent and stride, which this View's type must be able
  /// to hold (its static extents; for LayoutLeft/LayoutRight, strides that are products of one stride and the
  /// extents).
  /// Whether a View of this type can hold these extents and strides (impl_make's condition).
  static bool impl_holds(const impl::ViewOffset<array_layout, R>& m) { return map_type::from(m).represents(m); }
  static View impl_make(pointer_type p, const impl::ViewOffset<array_layout, R>& m, const impl::ViewTracker& t) {
    View v;
    v.h_.ptr = p;
    v.h_.map = map_type::from(m);
    if (!v.h_.map.represents(m))
      impl::throw_view_map_mismatch(t.record() ? std::string_view(t.record()->label) : std::string_view("(unmanaged)"),
                                    m.ext, m.str, R);
    if constexpr (is_managed)
      v.track_ = t;
    else
      v.track_ = t.untracked();
    return v;
  }

 private:
  template <class, class...>
  friend class View;

  /// How many of the N extents an allocating constructor got were given (trailing invalid ones, -1 as signed, are
  /// not); a count that is neither the runtime extents nor all of them raises weft::Error.
  template <std::size_t N>
  static std::size_t given_extent_count(std::string_view label, const std::int64_t* e) {
    if constexpr (N == traits::rank_dynamic || N == R) {
      return N;
    } else {
      std::size_t given = N;
      while (given > 0 && e[given - 1] == -1) --given;
      if (given != traits::rank_dynamic && given != R)
        impl::throw_view_parts(
            label,
            {"", " extents given for a rank-", " View with ", " runtime extents; give ", " (one per '*') or all ", ""},
            {std::int64_t(given), R, traits::rank_dynamic, traits::rank_dynamic, R});
      return given;
    }
  }
  template <std::size_t N>
  static constexpr void check_extent_count() {
    static_assert(N == traits::rank_dynamic || N == R,
                  "weft::View: give exactly the runtime extents of the data type (one per '*'), or all of them");
  }
  /// An unsigned extent over 2^63-1 (size_t(-43) say) is too many elements, not a negative extent; SIZE_MAX is
  /// KOKKOS_INVALID_INDEX, an extent not given.
  template <class I>
  static void check_unsigned_extent(std::string_view label, I n) {
    if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(std::int64_t))
      if (n > static_cast<I>(std::numeric_limits<std::int64_t>::max()) && n != static_cast<I>(invalid_extent))
          [[unlikely]]
        impl::throw_view_elements_bytes(label, static_cast<std::size_t>(n), sizeof(value_type), memory_space::name());
  }
  /// `space`: the memory space allocating (named when the View would not fit one allocation), null if unmanaged.
  void set_extents(std::string_view label, const std::int64_t* e, std::size_t count, bool check = true,
                   const char* space = nullptr) {
    std::size_t ext[R > 0 ? R : 1];
    for (std::size_t k = 0; k < count; ++k) {
      if (e[k] < 0)
        impl::throw_view_parts(label, {"extent ", " is negative (", "); extents must be >= 0"},
                               {std::int64_t(k), e[k]});
      ext[k] = static_cast<std::size_t>(e[k]);
    }
    for (int k = static_cast<int>(count); k < R; ++k) ext[k] = traits::analysis::extent_at(k);
    for (int k = traits::rank_dynamic; k < static_cast<int>(count); ++k)
      if (ext[k] != traits::analysis::extent_at(k))
        impl::throw_view_parts(label, {"extent ", " given as ", " but the data type fixes it at ", ""},
                               {k, std::int64_t(ext[k]), std::int64_t(traits::analysis::extent_at(k))});
    set_extents_unchecked(ext, R);
    if (check) check_size(label, h_.map.full(), std::is_same_v<array_layout, LayoutStride>, space);
  }
  WEFT_INLINE_FUNCTION void set_extents_unchecked(const std::size_t* e, std::size_t count) {
    h_.map = map_type::packed(e, static_cast<int>(count));
  }
  void set_layout(std::string_view label, const array_layout& l, const char* space = nullptr) {
    std::int64_t e[R > 0 ? R : 1];
    for (int k = 0; k < R; ++k) {
      if (l.dimension[k] == invalid_extent)
        impl::throw_view_parts(label, {"the layout gives no extent for dimension ", " of a rank-", " view"}, {k, R});
      e[k] = static_cast<std::int64_t>(l.dimension[k]);
    }
    set_extents(label, e, R, !std::is_same_v<array_layout, LayoutStride>, space);
    if constexpr (std::is_same_v<array_layout, LayoutStride>) {
      auto m = h_.map.full();
      for (int k = 0; k < R; ++k) m.str[k] = l.stride[k];
      check_size(label, m, true, space);  // with the layout's strides: their span, not the packed one
      h_.map = map_type::from(m);
    } else if constexpr (R >= 2) {
      if (l.stride != invalid_extent) {  // a padded LayoutLeft / LayoutRight
        constexpr bool left = std::is_same_v<array_layout, LayoutLeft>;
        auto m = h_.map.full();
        const int lead = left ? 0 : R - 1;
        if (l.stride < m.ext[lead])
          impl::throw_view_parts(label,
                                 {"the layout's stride (", ") is less than the extent it pads (",
                                  "); give a stride of at least that extent"},
                                 {std::int64_t(l.stride), std::int64_t(m.ext[lead])});
        if (left) {
          m.str[1] = l.stride;
          for (int k = 2; k < R; ++k) m.str[k] = impl::size_mul(m.str[k - 1], m.ext[k - 1]);
        } else {
          m.str[R - 2] = l.stride;
          for (int k = R - 3; k >= 0; --k) m.str[k] = impl::size_mul(m.str[k + 1], m.ext[k + 1]);
        }
        check_size(label, m, true, space);  // the strides saturate here, where the map's own products would wrap
        h_.map = map_type::from(m);
      }
    }
  }
  /// The bytes the View spans must fit one allocation (impl::check_bytes), whatever its extents and strides.
  void check_size(std::string_view label) const { check_size(label, h_.map.full()); }
  static void check_size(std::string_view label, const impl::ViewOffset<array_layout, R>& m,
                         bool strided = std::is_same_v<array_layout, LayoutStride>, const char* space = nullptr) {
    std::size_t span = 1;  // packed layouts: the product of the extents (their strides wrap with it)
    for (int k = 0; k < R; ++k) {
      if (m.ext[k] == 0) return;  // empty: spans nothing, whatever the other extents
      span = strided ? impl::size_add(span, impl::size_mul(m.ext[k] - 1, m.str[k])) : impl::size_mul(span, m.ext[k]);
    }
    const std::size_t bytes = impl::size_mul(span, sizeof(value_type));
    if (bytes > impl::max_bytes) [[unlikely]]
      impl::throw_view_span_bytes(label, m.ext, strided ? m.str : nullptr, R, sizeof(value_type), bytes, space);
  }
  void allocate(const impl::ViewAllocProps<>& props) {
    static_assert(is_managed, "weft::View: an unmanaged View cannot allocate; pass a pointer instead");
    using T = non_const_value_type;
    const std::size_t n = h_.map.span();
    impl::SharedAllocationRecord* r =
        impl::allocate_record<T, memory_space>(props.label, n, props.initialize, props.sequential_host_init);
    h_.ptr = static_cast<pointer_type>(r->data);
    track_ = impl::ViewTracker(r);
  }
  template <std::size_t... K>
  WEFT_FORCEINLINE_FUNCTION reference_type access_first(const std::int64_t* idx, std::index_sequence<K...>) const {
    return (*this)(idx[K]...);
  }
#if WEFT_BOUNDS_CHECK
  /// access() with an index past the rank that is not 0: a bounds error on that (extent-1) dimension.
  WEFT_INLINE_FUNCTION void extra_index_abort(const std::int64_t* idx, int n) const {
#if WEFT_IMPL_DEVICE_PASS
    (void)idx;
    printf("weft: View access() with %d indices on a rank-%d View: the indices past its rank must be 0\n", n, R);
    WEFT_IMPL_DEVICE_TRAP();
#else
    std::size_t ext[max_view_rank];
    for (int j = 0; j < n; ++j) ext[j] = j < R ? h_.map.extent(j) : 1;
    impl::view_bounds_abort(track_.record() ? track_.record()->label.c_str() : "(unmanaged)", n, idx, ext);
#endif
  }
  template <class... I>
  WEFT_INLINE_FUNCTION void check_bounds(I... i) const {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)..., 0};
#if WEFT_IMPL_DEVICE_PASS
    if constexpr (std::is_same_v<memory_space, HostSpace>) {
      // The record (and its label) lives in host memory, out of the kernel's reach.
      printf(
          "weft: a View of HostSpace memory was accessed in a GPU kernel; a host View captured in a device "
          "kernel must be copied to device memory first (weft::create_mirror_view_and_copy)\n");
      WEFT_IMPL_DEVICE_TRAP();
    }
    for (int k = 0; k < R; ++k)
      if (idx[k] < 0 || static_cast<std::size_t>(idx[k]) >= h_.map.extent(k)) {
        printf("weft: View \"%s\" bounds error: index %lld of dimension %d is outside extent %llu\n",
               track_.device_label() ? track_.device_label() : "(label not on the device)", (long long)idx[k], k,
               (unsigned long long)h_.map.extent(k));
        WEFT_IMPL_DEVICE_TRAP();
      }
#else
    // The label is read only where it is used: a queued kernel's copy of a View may outlive the allocation
    // record on an emulated device, as a GPU kernel's argument copy outlives nothing it does not touch.
    const auto label = [this] { return track_.record() ? track_.record()->label.c_str() : "(unmanaged)"; };
    if constexpr (requires { memory_space::impl_access_allowed(); }) {
      if (!memory_space::impl_access_allowed()) [[unlikely]]
        memory_space::impl_host_access_abort(label());
    } else if constexpr (requires { memory_space::impl_check_access("", h_.ptr, std::size_t(0)); }) {
      memory_space::impl_check_access(label(), h_.ptr, h_.map.span() * sizeof(value_type));
    } else if constexpr (requires { memory_space::impl_check_access(""); }) {
      memory_space::impl_check_access(label());
    }
    for (int k = 0; k < R; ++k)
      if (idx[k] < 0 || static_cast<std::size_t>(idx[k]) >= h_.map.extent(k)) [[unlikely]]
        impl::view_bounds_abort(label(), R, idx, h_.map.full().ext);
#endif
  }
#endif

  using map_type = impl_map_type;
  /// An empty View's map: 0 for the runtime extents (the static ones are the data type's: View<double*[3]>() has
  /// extent(1) == 3, as in Kokkos).
  WEFT_INLINE_FUNCTION static constexpr map_type empty_map() { return map_type{}; }

  /// The data pointer and the mapping in one trivially-copyable member, so that a copy moves them as one block
  /// (a rank-1 View's 16 bytes in one SSE move, as g++ moves Kokkos's handle-and-offset member) and the tracker
  /// after them: a struct of Views copied inside a kernel makes two stores per View, not three.
  struct Handle {
    pointer_type ptr = nullptr;
    map_type map{};
  };
  Handle h_{};
  impl::ViewTracker track_;
};

// ---- subview -----------------------------------------------------------------------------------------
namespace impl {
template <class T>
struct is_range_arg : std::false_type {};
template <>
struct is_range_arg<ALL_t> : std::true_type {};
template <class A, class B>
struct is_range_arg<pair<A, B>> : std::true_type {};
template <class A, class B>
struct is_range_arg<std::pair<A, B>> : std::true_type {};

template <class SrcLayout, int SrcRank, class... Args>
struct SubviewLayout {
  static constexpr int rank = (0 + ... + int(is_range_arg<std::decay_t<Args>>::value));
  /// Where the parent's LayoutLeft/LayoutRight is kept, as Kokkos keeps it (and so only where the result's Views can
  /// store it: one stride, the others products of it and the extents). Rank <= 2: LayoutRight when the last argument
  /// is a range, LayoutLeft when the first is. Rank >= 3: LayoutRight for (integers..., a range, ALL...), LayoutLeft
  /// for (a range, ALL..., a range, integers...).
  static constexpr bool keeps(bool right) {
    constexpr int n = static_cast<int>(sizeof...(Args));
    if constexpr (n == 0) {
      return true;
    } else {
      constexpr bool range[] = {is_range_arg<std::decay_t<Args>>::value...};
      constexpr bool all[] = {std::is_same_v<std::decay_t<Args>, ALL_t>...};
      // (if constexpr: a plain `if` before the loop leaves nvcc a loop it calls unreachable, warning #128-D)
      if constexpr (rank <= 2) {
        return right ? range[n - 1] : range[0];
      } else {
        bool ok = true;
        for (int k = 0; k < n; ++k)
          ok = ok && (right ? (k < n - rank    ? !range[k]
                               : k == n - rank ? range[k]
                                               : all[k])
                            : (k == 0 || k == rank - 1 ? range[k]
                               : k < rank - 1          ? all[k]
                                                       : !range[k]));
        return ok;
      }
    }
  }
  using type = std::conditional_t<rank == 0, LayoutRight,
                                  std::conditional_t<(std::is_same_v<SrcLayout, LayoutRight> && keeps(true)) ||
                                                         (std::is_same_v<SrcLayout, LayoutLeft> && keeps(false)),
                                                     SrcLayout, LayoutStride>>;
};

/// A subview's data type, as Kokkos forms it: an ALL over a compile-time extent keeps it in the type, any other kept
/// dimension is a runtime one, and since runtime extents must come first, a runtime dimension makes every kept
/// dimension to its left a runtime one too (View<int*[10][5][2]> with (ALL, 0, pair, ALL) gives View<int**[2]>).
template <class Analysis, class... Args>
struct SubviewDataType {
  struct Kept {
    std::size_t ext[max_view_rank + 1]{};
    int rank = 0;
    int dynamic = 0;  // the leading runtime dimensions
  };
  static constexpr Kept kept() {
    Kept r;
    int k = 0;
    auto one = [&](auto tag) {
      using A = typename decltype(tag)::type;
      if constexpr (is_range_arg<A>::value) {
        const bool fixed = std::is_same_v<A, ALL_t> && k >= Analysis::rank_dynamic;
        r.ext[r.rank] = fixed ? Analysis::extent_at(k) : 0;
        if (!fixed) r.dynamic = r.rank + 1;
        ++r.rank;
      }
      ++k;
    };
    (one(std::type_identity<std::decay_t<Args>>{}), ...);
    return r;
  }
  static constexpr Kept info = kept();
  template <class T, int K>
  struct append {
    using type = T;
  };
  template <class T, int K>
  requires(K < info.rank) struct append<T, K> {
    using type = typename append<T, K + 1>::type[info.ext[K]];
  };
  using type =
      typename append<typename add_pointers<typename Analysis::value_type, info.dynamic>::type, info.dynamic>::type;
};

template <class T>
WEFT_INLINE_FUNCTION void subview_range(const T& a, std::size_t ext, std::size_t& b, std::size_t& e) {
  using A = std::decay_t<T>;
  if constexpr (std::is_same_v<A, ALL_t>) {
    b = 0;
    e = ext;
  } else if constexpr (is_range_arg<A>::value) {
    b = static_cast<std::size_t>(a.first);
    e = static_cast<std::size_t>(a.second);
  } else {
    b = static_cast<std::size_t>(a);
    e = b + 1;
  }
}
/// The first and last selected index as the caller wrote them (signed), for the message of a negative argument.
template <class T>
void subview_signed(const T& a, long long& b, long long& e) {
  using A = std::decay_t<T>;
  if constexpr (std::is_same_v<A, ALL_t>) {
    b = e = 0;
  } else if constexpr (is_range_arg<A>::value) {
    b = static_cast<long long>(a.first);
    e = static_cast<long long>(a.second);
  } else {
    b = e = static_cast<long long>(a);
  }
}
}  // namespace impl

/// subview(v, i, ALL, pair(a, b), ...): integers drop a dimension; ALL and [a, b) ranges keep it.
template <class D, class... P, class... Args>
auto subview(const View<D, P...>& v, const Args&... args) {
  using V = View<D, P...>;
  static_assert(sizeof...(Args) == V::R, "weft::subview: give one argument (index, ALL or range) per dimension");
  using SL = impl::SubviewLayout<typename V::array_layout, V::R, Args...>;
  constexpr int SR = SL::rank;
  using data_type = typename impl::SubviewDataType<typename V::traits::analysis, Args...>::type;
  // The parent's memory traits less Aligned (an offset into the parent need not be aligned), as in Kokkos.
  using Traits = MemoryTraits<V::memory_traits::impl_value & ~unsigned(Aligned)>;
  using Result = View<data_type, typename SL::type, typename V::device_type, Traits>;
  const auto m = v.impl_map().full();
  impl::ViewOffset<typename SL::type, SR> sm;
  std::size_t offset = 0;
  int k = 0;
  int out = 0;
  auto one = [&](const auto& a) {
    if constexpr (std::is_signed_v<std::decay_t<decltype(a)>> || impl::is_range_arg<std::decay_t<decltype(a)>>::value) {
      long long sb = 0, se = 0;
      impl::subview_signed(a, sb, se);
      if (sb < 0 || se < 0) impl::throw_subview_negative(v.label(), k, sb < 0 ? sb : se, m.ext, V::R);
    }
    std::size_t b, e;
    impl::subview_range(a, m.ext[k], b, e);
    const bool keep = impl::is_range_arg<std::decay_t<decltype(a)>>::value;
    if (b > e || e > m.ext[k] || (!keep && b >= m.ext[k])) impl::throw_subview_outside(v.label(), k, b, e, m.ext, V::R);
    offset += b * m.stride(k);
    if (keep) {
      sm.ext[out] = e - b;
      sm.str[out] = m.stride(k);
      ++out;
    }
    ++k;
  };
  (one(args), ...);
  return Result::impl_make(WEFT_IMPL_SUBVIEW_DATA(v) + (WEFT_IMPL_SUBVIEW_DATA(v) ? offset : 0), sm, v.impl_track());
}

namespace impl {
/// Whether a View of type Src may be assigned to one of type Dst at all (Kokkos's mapping is_assignable): the
/// converting constructor takes it (rank, value type, memory space, layout) and the extents both types fix agree.
template <class Dst, class Src>
struct view_type_assignable : std::false_type {};
template <class D1, class... P1, class D2, class... P2>
struct view_type_assignable<View<D1, P1...>, View<D2, P2...>> {
  using A = View<D1, P1...>;
  using B = View<D2, P2...>;
  static constexpr bool fixed_extents_agree() {
    if constexpr (A::R != B::R) {
      return false;
    } else {
      for (int k = 0; k < A::R; ++k)
        if (k >= A::traits::rank_dynamic && k >= B::traits::rank_dynamic &&
            A::traits::analysis::extent_at(k) != B::traits::analysis::extent_at(k))
          return false;
      return true;
    }
  }
  static constexpr bool value = std::is_constructible_v<A, const B&> && fixed_extents_agree();
};
}  // namespace impl

/// is_always_assignable<Dst, Src>::value: every View of type Src can be assigned to one of type Dst (Kokkos's name;
/// references and a const Src are looked through): assignable types, and no extent that Dst fixes is left to run
/// time in Src.
template <class Dst, class Src>
struct is_always_assignable {
  using A = std::remove_reference_t<Dst>;
  using B = std::remove_const_t<std::remove_reference_t<Src>>;
  static constexpr bool value = [] {
    if constexpr (is_view_v<A> && is_view_v<B>)
      return impl::view_type_assignable<std::remove_cv_t<A>, B>::value &&
             std::remove_cv_t<A>::traits::rank_dynamic >= B::traits::rank_dynamic;
    else
      return false;
  }();
};
template <class Dst, class Src>
inline constexpr bool is_always_assignable_v = is_always_assignable<Dst, Src>::value;

/// is_assignable(dst, src): whether `dst = src` would succeed for these Views (Kokkos's name): always, or the types
/// are assignable and src's extents equal the ones dst's type fixes.
template <class D1, class... P1, class D2, class... P2>
constexpr bool is_assignable(const View<D1, P1...>&, const View<D2, P2...>& src) {
  using A = View<D1, P1...>;
  if constexpr (is_always_assignable_v<A, View<D2, P2...>>) {
    return true;
  } else if constexpr (!impl::view_type_assignable<A, View<D2, P2...>>::value) {
    return false;
  } else {
    for (int k = A::traits::rank_dynamic; k < A::R; ++k)
      if (src.extent(k) != A::traits::analysis::extent_at(k)) return false;
    return true;
  }
}

}  // namespace weft
