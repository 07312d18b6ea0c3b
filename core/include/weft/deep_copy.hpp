// deep_copy, mirrors (create_mirror, create_mirror_view, create_mirror_view_and_copy), resize and realloc.
#pragma once

#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include <weft/parallel.hpp>
#include <weft/view.hpp>

namespace weft {
namespace impl {

template <class Space>
using exec_for_memory_t = typename memory_space_exec<Space>::type;

/// Below this many bytes a fill or copy runs in the calling thread: a parallel region costs more.
inline constexpr std::size_t serial_copy_bytes = std::size_t(1) << 16;

/// Notes, for GpuEmu's stream-order checker, memory the next device kernel launched from this thread touches
/// through raw pointers (deep_copy's and View initialization's element loops); nothing elsewhere.
template <class Exec>
void note_device_kernel_access(const void* p, std::size_t bytes, bool write, std::string_view label) {
#if WEFT_IMPL_ACCESS_HOOKS
  if constexpr (!Exec::impl_is_host_space) note_kernel_access(p, bytes, write, label);
#else
  (void)p, (void)bytes, (void)write, (void)label;
#endif
}

template <class T, class Space>
void construct_elements(T* p, std::size_t n, std::string_view label) {
  using E = exec_for_memory_t<Space>;
  if constexpr (HostAccessibleSpace<Space> && E::impl_is_host_space && !std::is_nothrow_default_constructible_v<T>) {
    // A constructor that may throw (std::complex's, a user type's without noexcept): on a throw the elements built
    // so far are destroyed before the exception leaves, as std::uninitialized_value_construct does (the caller
    // frees the memory). On one thread the count says which; in parallel each element marks itself built.
    if (n * sizeof(T) >= serial_copy_bytes && !t_in_host_parallel) {
      std::unique_ptr<unsigned char[]> built(new unsigned char[n]());
      unsigned char* const b = built.get();
      try {
        parallel_for("weft::View::initialize", RangePolicy<E, IndexType<std::size_t>>(0, n), [p, b](std::size_t i) {
          new (p + i) T();
          b[i] = 1;
        });
      } catch (const Error& e) {
        for (std::size_t i = 0; i < n; ++i)
          if (b[i]) p[i].~T();
        std::rethrow_if_nested(e);  // the element's own exception, as on one thread
        throw;
      }
      return;
    }
    construct_elements_sequential<T, Space>(p, n);
  } else {
    auto body = [p] WEFT_HOST_DEVICE(std::size_t i) { new (p + i) T(); };
    if (HostAccessibleSpace<Space> && (n * sizeof(T) < serial_copy_bytes || t_in_host_parallel)) {
      for (std::size_t i = 0; i < n; ++i) body(i);
    } else {
      note_device_kernel_access<E>(p, n * sizeof(T), true, label);
      parallel_for("weft::View::initialize", RangePolicy<E, IndexType<std::size_t>>(0, n), body);
      // As Kokkos: a new View is ready for any instance (the kernel ran on the default one).
      if constexpr (!E::impl_is_host_space) E().fence("weft::View::initialize: fence after initialization");
    }
  }
}

/// Destroys the elements where they live: on the host for memory it can reach, else in a kernel of the memory's
/// execution space, as Kokkos does (device code's View handles hold no references, so destroying a View element
/// copied to the device releases nothing, on a GPU and on GpuEmu alike).
template <class T, class Space>
void destroy_elements(T* p, std::size_t n) {
  if constexpr (!std::is_trivially_destructible_v<T>) {
    using E = exec_for_memory_t<Space>;
    if constexpr (HostAccessibleSpace<Space>) {
      for (std::size_t i = 0; i < n; ++i) p[i].~T();
    } else if (n > 0) {
      parallel_for("weft::View::destroy", RangePolicy<E, IndexType<std::size_t>>(0, n),
                   [p] WEFT_HOST_DEVICE(std::size_t i) { p[i].~T(); });
      E().fence("weft::View::destroy: fence before the memory is freed");
    }
  }
}

/// Calls body(dst_offset, src_offset) for every multi-index of views of extents `ext`, row by row.
template <class M>
concept DeviceCopySpace = requires(void* d, const void* s, std::size_t n) {
  M::impl_copy_bytes(d, s, n);
};

template <int R, class Exec, class Body>
void for_each_element(const Exec& exec, const std::size_t* ext, const std::size_t* dst_stride,
                      const std::size_t* src_stride, const Body& body) {
  std::size_t rows = 1;
  for (int k = 0; k + 1 < R; ++k) rows *= ext[k];
  const std::size_t cols = R == 0 ? 1 : ext[R - 1];
  const std::size_t dl = R == 0 ? 0 : dst_stride[R - 1];
  const std::size_t sl = R == 0 ? 0 : src_stride[R - 1];
  std::size_t e[R > 0 ? R : 1], ds[R > 0 ? R : 1], ss[R > 0 ? R : 1];
  for (int k = 0; k < R; ++k) {
    e[k] = ext[k];
    ds[k] = dst_stride[k];
    ss[k] = src_stride[k];
  }
  auto row = [=] WEFT_HOST_DEVICE(std::size_t r) {
    std::size_t d = 0, s = 0, rem = r;
    for (int k = R - 2; k >= 0; --k) {
      const std::size_t i = rem % e[k];
      rem /= e[k];
      d += i * ds[k];
      s += i * ss[k];
    }
    for (std::size_t j = 0; j < cols; ++j) body(d + j * dl, s + j * sl);
  };
  if (Exec::impl_is_host_space && (rows * cols < serial_copy_bytes / 8 || t_in_host_parallel)) {
    for (std::size_t r = 0; r < rows; ++r) row(r);
  } else {
    parallel_for("weft::deep_copy", RangePolicy<Exec, IndexType<std::size_t>>(exec, 0, rows), row);
  }
}

template <class V>
void strides_of(const V& v, std::size_t* s) {
  for (int k = 0; k < V::R; ++k) s[k] = v.stride(k);
}

/// A device execution space that enqueues byte copies on its instance's stream (Cuda, HIP, GpuEmu).
template <class E>
concept AsyncCopyExec = requires(const E& e, void* d, const void* s, std::size_t n) {
  e.impl_copy_bytes_async(d, s, n);
};

/// Host memory on both sides, copied by the calling thread or, when large, by a parallel_for on `exec`.
template <class Exec>
void host_copy_bytes(const Exec& exec, void* d, const void* s, std::size_t bytes) {
#if WEFT_IMPL_ACCESS_HOOKS
  host_copy_check(d, s, bytes);  // the stream-order checker: queued work may still write s or touch d
#endif
  if (bytes < serial_copy_bytes || t_in_host_parallel) {
    std::memcpy(d, s, bytes);
    return;
  }
  const std::size_t chunks = (bytes + serial_copy_bytes - 1) / serial_copy_bytes;
  auto* dc = static_cast<char*>(d);
  const auto* sc = static_cast<const char*>(s);
  parallel_for("weft::deep_copy", RangePolicy<Exec, IndexType<std::size_t>>(exec, 0, chunks), [=](std::size_t c) {
    const std::size_t b = c * serial_copy_bytes;
    std::memcpy(dc + b, sc + b, (b + serial_copy_bytes < bytes ? serial_copy_bytes : bytes - b));
  });
}

/// deep_copy's customization point (DESIGN.md): copies `bytes` contiguous bytes from SrcSpace memory to DstSpace
/// memory, ordered on `exec`. On a device instance the copy is enqueued on its stream (never the legacy
/// stream) and the call returns; a host instance reaching device memory copies on the device's default
/// instance and waits for it; host memory on both sides is copied at once. Backends or users specialize it
/// for other pairs (a vendor copy engine, a peer copy).
template <class DstSpace, class SrcSpace, class ExecSpace>
struct DeepCopy {
  static void copy(const ExecSpace& exec, void* dst, const void* src, std::size_t bytes) {
    if constexpr (impl::AsyncCopyExec<ExecSpace>) {
      exec.impl_copy_bytes_async(dst, src, bytes);
    } else if constexpr (impl::DeviceCopySpace<DstSpace>) {
      DstSpace::impl_copy_bytes(dst, src, bytes);
    } else if constexpr (impl::DeviceCopySpace<SrcSpace>) {
      SrcSpace::impl_copy_bytes(dst, src, bytes);
    } else {
      impl::host_copy_bytes(exec, dst, src, bytes);
    }
  }
};

/// The device instance a copy touching device memory M runs on: `exec` itself when it is a device instance,
/// else M's default instance (which the caller then waits for).
template <class M, class Exec>
auto device_exec_for(const Exec& exec) {
  if constexpr (AsyncCopyExec<Exec>)
    return exec;
  else
    return typename M::execution_space();
}

/// Kokkos's refusal of a copy with a non-contiguous side between mutually unreachable spaces.
[[noreturn]] void throw_no_copy_mechanism(const std::string& dst_label, const std::string& src_label,
                                          const char* dst_space, const char* src_space);

/// deep_copy's refusal of two views of different extents (out of line: one copy of the message, not one per pair of
/// View types).
[[noreturn]] void throw_copy_extents_differ(const std::string& dst_label, const std::string& src_label,
                                            const std::size_t* dst_ext, const std::size_t* src_ext, int rank);

template <class Exec, class DV, class SV>
void copy_view(const Exec& exec, const DV& dst, const SV& src);
template <class Exec, class DV, class SV>
void copy_view_same(const Exec& exec, const DV& dst, const SV& src);

/// deep_copy between Views of different value types (extents already checked) (double into float, int into double):
/// each element converted, by a kernel of an instance that reaches both sides, else through a copy of the source in the
/// destination's memory space (Kokkos converts in its ViewRemap kernel where one side's space reaches the other, and
/// refuses otherwise).
template <class Exec, class DV, class SV>
void convert_view(const Exec& exec, const DV& dst, const SV& src) {
  using T = typename DV::non_const_value_type;
  using S = typename SV::non_const_value_type;
  static_assert(std::is_convertible_v<const S&, T>,
                "weft::deep_copy: the source's value type does not convert to the destination's");
  constexpr int R = DV::R;
  using DM = typename DV::memory_space;
  using SM = typename SV::memory_space;
  if (dst.size() == 0) return;
  if constexpr (accessible<Exec, DM>::value && accessible<Exec, SM>::value) {
    std::size_t ds[R > 0 ? R : 1], ss[R > 0 ? R : 1];
    strides_of(dst, ds);
    strides_of(src, ss);
    T* d = dst.data();
    const S* s = src.data();
    note_device_kernel_access<Exec>(s, src.span() * sizeof(S), false, src.label());
    note_device_kernel_access<Exec>(d, dst.span() * sizeof(T), true, dst.label());
    for_each_element<R>(exec, dst.impl_map().full().ext, ds, ss,
                        [=] WEFT_HOST_DEVICE(std::size_t a, std::size_t b) { d[a] = static_cast<T>(s[b]); });
  } else {
    LayoutRight shape;
    for (int k = 0; k < R; ++k) shape.dimension[k] = src.extent(k);
    const View<typename SV::non_const_data_type, LayoutRight, DM> staged(
        view_alloc(WithoutInitializing, src.label() + " (deep_copy conversion staging)"), shape);
    copy_view(exec, staged, src);  // same value type: across the spaces
    const exec_for_memory_t<DM> there;
    exec.fence("weft::deep_copy: before converting where the destination lives");
    convert_view(there, dst, staged);
    there.fence("weft::deep_copy: conversion done");
  }
}

/// Every View-to-View copy: the checks both kinds share, then the same-type copy or the converting one.
template <class Exec, class DV, class SV>
void copy_view(const Exec& exec, const DV& dst, const SV& src) {
  static_assert(DV::R == SV::R, "weft::deep_copy: the two views have different ranks");
  static_assert(!std::is_const_v<typename DV::value_type>, "weft::deep_copy: the destination view is const");
  constexpr int R = DV::R;
  for (int k = 0; k < R; ++k)
    if (dst.extent(k) != src.extent(k))
      throw_copy_extents_differ(dst.label(), src.label(), dst.impl_map().full().ext, src.impl_map().full().ext, R);
  if constexpr (std::is_same_v<typename DV::non_const_value_type, typename SV::non_const_value_type>)
    copy_view_same(exec, dst, src);
  else
    convert_view(exec, dst, src);
}

/// copy_view between Views of one value type (extents already checked).
template <class Exec, class DV, class SV>
void copy_view_same(const Exec& exec, const DV& dst, const SV& src) {
  constexpr int R = DV::R;
  if (dst.size() == 0 || static_cast<const void*>(dst.data()) == static_cast<const void*>(src.data())) return;
  std::size_t ds[R > 0 ? R : 1], ss[R > 0 ? R : 1];
  strides_of(dst, ds);
  strides_of(src, ss);
  bool same_strides = true;
  for (int k = 0; k < R; ++k) same_strides = same_strides && (ds[k] == ss[k] || dst.extent(k) == 1);
  using T = typename DV::non_const_value_type;
  using DM = typename DV::memory_space;
  using SM = typename SV::memory_space;
  T* d = dst.data();
  const T* s = src.data();
  const bool contiguous = same_strides && dst.span_is_contiguous() && src.span_is_contiguous();
  if (contiguous && std::is_trivially_copyable_v<T>) {
    DeepCopy<DM, SM, Exec>::copy(exec, d, s, dst.span() * sizeof(T));
    return;
  }
  if constexpr (DeviceCopySpace<DM> || DeviceCopySpace<SM>) {
    using CM = std::conditional_t<DeviceCopySpace<DM>, DM, SM>;
    const auto dev = device_exec_for<CM>(exec);
    using DevExec = std::remove_const_t<decltype(dev)>;
    if constexpr (!std::is_same_v<DM, SM>) {
      // Device memory on one side, not contiguous or of other layouts: packed LayoutRight copies on each side,
      // each filled by an element-wise copy where it lives, one byte copy between them on the device instance.
      // Kokkos has no such copy where neither side's execution space reaches the other's memory: through the
      // drop-in a copy with a non-contiguous side is refused, as Kokkos refuses it (its ViewCopy_a test pins the
      // message down). Two contiguous sides of different layouts are still staged: Weft's host mirror of a
      // LayoutStride View is LayoutRight where Kokkos's keeps the strides, so refusing them would refuse copies
      // that work under Kokkos.
      if constexpr (!accessible<exec_for_memory_t<DM>, SM>::value && !accessible<exec_for_memory_t<SM>, DM>::value)
        if (kokkos_error_style() && !(dst.span_is_contiguous() && src.span_is_contiguous()))
          throw_no_copy_mechanism(dst.label(), src.label(), DM::name(), SM::name());
      using SrcStage = View<typename DV::non_const_data_type, LayoutRight, SM>;
      using DstStage = View<typename DV::non_const_data_type, LayoutRight, DM>;
      LayoutRight shape;
      for (int k = 0; k < R; ++k) shape.dimension[k] = dst.extent(k);
      SrcStage packed_src(view_alloc(WithoutInitializing, src.label() + " (deep_copy staging)"), shape);
      DstStage packed_dst(view_alloc(WithoutInitializing, dst.label() + " (deep_copy staging)"), shape);
      if constexpr (DeviceCopySpace<SM>) {
        copy_view(dev, packed_src, src);
      } else {
        dev.fence("weft::deep_copy: before packing on the host");  // earlier work on the instance may write src
        copy_view(exec_for_memory_t<SM>(), packed_src, src);
      }
      DeepCopy<DM, SM, DevExec>::copy(dev, packed_dst.data(), packed_src.data(), packed_src.span() * sizeof(T));
      if constexpr (DeviceCopySpace<DM>) {
        copy_view(dev, dst, packed_dst);
      } else {
        dev.fence("weft::deep_copy: before unpacking on the host");
        copy_view(exec_for_memory_t<DM>(), dst, packed_dst);
      }
      dev.fence("weft::deep_copy: the staging buffers go");  // they die here; the copy must not outlive them
      return;
    } else {
      note_device_kernel_access<DevExec>(s, src.span() * sizeof(T), false, src.label());
      note_device_kernel_access<DevExec>(d, dst.span() * sizeof(T), true, dst.label());
      for_each_element<R>(dev, dst.impl_map().full().ext, ds, ss,
                          [=] WEFT_HOST_DEVICE(std::size_t a, std::size_t b) { d[a] = s[b]; });
      if constexpr (!AsyncCopyExec<Exec>) dev.fence("weft::deep_copy: a host instance waits");
      return;
    }
  }
  if constexpr (!Exec::impl_is_host_space) {
    if constexpr (!(accessible<Exec, DM>::value && accessible<Exec, SM>::value)) {
      // Host memory the device instance cannot reach: after its earlier work, on the host.
      exec.fence("weft::deep_copy: host memory the instance cannot reach");
      copy_view(DefaultHostExecutionSpace(), dst, src);
      return;
    }
  }
  note_device_kernel_access<Exec>(s, src.span() * sizeof(T), false, src.label());
  note_device_kernel_access<Exec>(d, dst.span() * sizeof(T), true, dst.label());
  for_each_element<R>(exec, dst.impl_map().full().ext, ds, ss,
                      [=] WEFT_HOST_DEVICE(std::size_t a, std::size_t b) { d[a] = s[b]; });
}

template <class Exec, class DV>
void fill_view(const Exec& exec, const DV& dst, const typename DV::non_const_value_type& value) {
  static_assert(!std::is_const_v<typename DV::value_type>, "weft::deep_copy: the destination view is const");
  constexpr int R = DV::R;
  using T = typename DV::non_const_value_type;
  using DM = typename DV::memory_space;
  T* d = dst.data();
  if (dst.size() == 0) return;
  std::size_t ds[R > 0 ? R : 1];
  strides_of(dst, ds);
  if constexpr (!accessible<Exec, DM>::value) {
    // A host instance filling device memory, or a device instance filling host memory it cannot reach.
    if constexpr (DeviceCopySpace<DM>) {
      const auto dev = typename DM::execution_space();
      fill_view(dev, dst, value);
      dev.fence("weft::deep_copy: a host instance waits");
    } else {
      exec.fence("weft::deep_copy: host memory the instance cannot reach");
      fill_view(DefaultHostExecutionSpace(), dst, value);
    }
    return;
  }
  note_device_kernel_access<Exec>(d, dst.span() * sizeof(T), true, dst.label());
  for_each_element<R>(exec, dst.impl_map().full().ext, ds, ds,
                      [=] WEFT_HOST_DEVICE(std::size_t a, std::size_t) { d[a] = value; });
}

/// deep_copy as the tools see it: begin (destination and source spaces, labels, pointers, bytes), end.
template <class DV, class Src>
struct DeepCopyEvent {
  bool on;
  DeepCopyEvent(const DV& dst, const Src& src) : on(tools::g_active) {
    if (on) [[unlikely]] {
      const std::uint64_t bytes = dst.span() * sizeof(typename DV::non_const_value_type);
      if constexpr (is_view_v<Src>)
        tools::begin_deep_copy(DV::memory_space::name(), dst.label(), dst.data(), Src::memory_space::name(),
                               src.label(), src.data(), bytes);
      else
        tools::begin_deep_copy(DV::memory_space::name(), dst.label(), dst.data(), "Scalar", "(value)", &src, bytes);
    }
  }
  ~DeepCopyEvent() {
    if (on) [[unlikely]]
      tools::end_deep_copy();
  }
};

/// Whether a deep_copy involves memory a device may be working on — device, pinned or managed memory on either
/// side, anything but HostSpace — and so fences as Kokkos does.
template <class DV, class Src>
constexpr bool deep_copy_touches_device() {
  if constexpr (!std::is_same_v<typename DV::memory_space, HostSpace>) return true;
  if constexpr (is_view_v<Src>) return !std::is_same_v<typename Src::memory_space, HostSpace>;
  return false;
}
}  // namespace impl

namespace impl {
/// A DynRankView or a DynamicView (containers/): their own deep_copy overloads take them, these below do not.
template <class T>
concept HasOwnDeepCopy = requires {
  typename T::impl_dyn_rank_tag;
}
|| requires { typename T::impl_own_deep_copy_tag; };
}  // namespace impl

/// Copies src into dst (same shape, any layouts) or sets every element of dst to a scalar, as Kokkos does: when
/// device memory is involved it first waits for all outstanding work on every instance, and it returns when
/// the copy is done.
template <class D1, class... P1, class Src>
requires(!impl::HasOwnDeepCopy<Src>) void deep_copy(const View<D1, P1...>& dst, const Src& src) {
  using DV = View<D1, P1...>;
  using Exec = impl::exec_for_memory_t<typename DV::memory_space>;
  impl::check_initialized("deep_copy", dst.label());
  impl::DeepCopyEvent<DV, Src> profile(dst, src);
  constexpr bool device = impl::deep_copy_touches_device<DV, Src>();
  if constexpr (device) fence("weft::deep_copy: fence before the copy");
  if constexpr (is_view_v<Src>) {
    using SM = typename Src::memory_space;
    if constexpr (impl::DeviceCopySpace<typename DV::memory_space> || !impl::DeviceCopySpace<SM>) {
      impl::copy_view(Exec(), dst, src);
      if constexpr (!Exec::impl_is_host_space) Exec().fence("weft::deep_copy: fence after the copy");
    } else {
      // Device source, host destination: on the source's default instance, waited for.
      using SE = typename SM::execution_space;
      impl::copy_view(SE(), dst, src);
      SE().fence("weft::deep_copy: fence after the copy");
    }
  } else {
    impl::fill_view(Exec(), dst, src);
    if constexpr (!Exec::impl_is_host_space) Exec().fence("weft::deep_copy: fence after the copy");
  }
}
/// Enqueues the copy (or fill) on `exec` and returns; nothing else is fenced.
template <ExecutionSpace E, class D1, class... P1, class Src>
requires(!impl::HasOwnDeepCopy<Src>) void deep_copy(const E& exec, const View<D1, P1...>& dst, const Src& src) {
  impl::check_initialized("deep_copy", dst.label());
  impl::DeepCopyEvent<View<D1, P1...>, Src> profile(dst, src);
  if constexpr (is_view_v<Src>)
    impl::copy_view(exec, dst, src);
  else
    impl::fill_view(exec, dst, src);
}
/// deep_copy(exec, scalar, rank-0 view): reads the single element in exec's stream order (a device source is read
/// after the work enqueued on exec; exec is waited for).
template <ExecutionSpace E, class T, class D1, class... P1>
requires(!is_view_v<T> && !impl::HasOwnDeepCopy<T>) void deep_copy(const E& exec, T& dst, const View<D1, P1...>& src) {
  using SV = View<D1, P1...>;
  static_assert(SV::R == 0, "weft::deep_copy(exec, scalar, view) needs a rank-0 view");
  using SM = typename SV::memory_space;
  exec.fence("weft::deep_copy(exec, scalar, view): fence before the read");
  if constexpr (impl::DeviceCopySpace<SM>)
    SM::impl_copy_bytes(&dst, src.data(), sizeof(T));
  else
    dst = *src.data();
}
/// deep_copy(scalar, rank-0 view): reads the single element (after all outstanding work, from device memory).
template <class T, class D1, class... P1>
requires(!is_view_v<T> && !ExecutionSpace<T> && !impl::HasOwnDeepCopy<T>) void deep_copy(T& dst,
                                                                                         const View<D1, P1...>& src) {
  using SV = View<D1, P1...>;
  static_assert(SV::R == 0, "weft::deep_copy(scalar, view) needs a rank-0 view");
  using SM = typename SV::memory_space;
  if constexpr (impl::DeviceCopySpace<SM>) {
    fence("weft::deep_copy: fence before the copy");
    SM::impl_copy_bytes(&dst, src.data(), sizeof(T));
  } else {
    if constexpr (!std::is_same_v<SM, HostSpace>) fence("weft::deep_copy: fence before the copy");  // pinned, managed
    dst = *src.data();
  }
}

// ---- mirrors -----------------------------------------------------------------------------------------------
namespace impl {
template <class Space, class V>
using mirror_t = View<typename V::non_const_data_type, typename V::mirror_layout, typename Space::memory_space>;

template <class Space, class V>
mirror_t<Space, V> make_mirror(const V& v, bool init) {
  using M = mirror_t<Space, V>;
  typename M::array_layout layout;
  for (int k = 0; k < V::R; ++k) layout.dimension[k] = v.extent(k);
  const std::string label = v.label() + "_mirror";
  return init ? M(view_alloc(label), layout) : M(view_alloc(label, WithoutInitializing), layout);
}
}  // namespace impl

/// A new host allocation with v's shape (not a copy of the data).
template <class D, class... P>
auto create_mirror(const View<D, P...>& v) {
  return impl::make_mirror<HostSpace>(v, true);
}
template <class D, class... P>
auto create_mirror(impl::WithoutInitializing_t, const View<D, P...>& v) {
  return impl::make_mirror<HostSpace>(v, false);
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror(const Space&, const View<D, P...>& v) {
  return impl::make_mirror<Space>(v, true);
}
namespace impl {
/// v itself when Space's memory already holds it in the mirror's type, else a new mirror (initialized or not).
template <class Space, class V>
auto mirror_view(const V& v, bool init) {
  using M = mirror_t<Space, V>;
  if constexpr (std::is_same_v<typename V::memory_space, typename Space::memory_space> &&
                std::is_same_v<typename V::value_type, typename M::value_type> &&
                std::is_same_v<typename V::array_layout, typename M::array_layout>)
    return M(v);
  else
    return make_mirror<Space>(v, init);
}
}  // namespace impl
/// v itself when the host can already read it, else create_mirror(v).
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view(const Space&, const View<D, P...>& v) {
  return impl::mirror_view<Space>(v, true);
}
template <class D, class... P>
auto create_mirror_view(const View<D, P...>& v) {
  return create_mirror_view(HostSpace(), v);
}
/// The same without initializing a new allocation (its elements are left as they come).
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror(impl::WithoutInitializing_t, const Space&,
                                                                         const View<D, P...>& v) {
  return impl::make_mirror<Space>(v, false);
}
template <class Space, class D, class... P>
requires(ExecutionSpace<Space> || MemorySpace<Space>) auto create_mirror_view(impl::WithoutInitializing_t, const Space&,
                                                                              const View<D, P...>& v) {
  return impl::mirror_view<Space>(v, false);
}
template <class D, class... P>
auto create_mirror_view(impl::WithoutInitializing_t w, const View<D, P...>& v) {
  return create_mirror_view(w, HostSpace(), v);
}
/// create_mirror_view plus a deep_copy when a new allocation was made.
template <class Space, class D, class... P>
auto create_mirror_view_and_copy(const Space& space, const View<D, P...>& v) {
  auto m = create_mirror_view(space, v);
  if (static_cast<const void*>(m.data()) != static_cast<const void*>(v.data())) deep_copy(m, v);
  return m;
}

// ---- resize / realloc ----------------------------------------------------------------------------------------
namespace impl {
template <class V, std::size_t... I>
void copy_overlap(const V& dst, const V& src, std::index_sequence<I...>) {
  auto range = [&](std::size_t k) {
    const std::size_t n = dst.extent(k) < src.extent(k) ? dst.extent(k) : src.extent(k);
    return pair<std::size_t, std::size_t>(0, n);
  };
  if constexpr (sizeof...(I) == 0)
    deep_copy(dst, src);
  else
    deep_copy(subview(dst, range(I)...), subview(src, range(I)...));
}
}  // namespace impl

namespace impl {
/// What resize/realloc take as an extent: an integer, an unscoped enumerator, or a floating-point value that
/// converts to one (as Kokkos's size_t parameters take it).
template <class T>
concept ResizeExtent = ViewIndex<T> || std::is_floating_point_v<T>;

template <class V>
bool same_shape(const V& v, const typename V::array_layout& l) {
  for (int k = 0; k < V::R; ++k) {
    if (v.extent(k) != l.dimension[k]) return false;
    if constexpr (std::is_same_v<typename V::array_layout, LayoutStride>)
      if (v.stride(k) != l.stride[k]) return false;
  }
  return true;
}
template <class V, class... N>
typename V::array_layout extents_layout(N... n) {
  static_assert(sizeof...(N) == V::traits::rank_dynamic || sizeof...(N) == V::R,
                "weft::resize/realloc: give exactly the runtime extents of the data type, or all of them");
  const std::size_t e[] = {static_cast<std::size_t>(static_cast<std::int64_t>(n))..., 0};
  typename V::array_layout l;
  for (int k = 0; k < V::R; ++k)
    l.dimension[k] = k < static_cast<int>(sizeof...(N)) ? e[k] : V::static_extent(static_cast<unsigned>(k));
  if constexpr (std::is_same_v<typename V::array_layout, LayoutStride>) {
    std::size_t s = 1;
    for (int k = V::R - 1; k >= 0; --k) {
      l.stride[k] = s;
      s *= l.dimension[k];
    }
  }
  return l;
}
/// resize (keep = true: the elements that fit in both shapes stay) and realloc (keep = false). Extents that do not
/// change leave the allocation as it is; realloc then sets the elements to value_type{} unless WithoutInitializing
/// was given (as Kokkos).
template <class V>
void reshape(ViewAllocProps<> props, V& v, const typename V::array_layout& layout, bool keep) {
  static_assert(V::is_managed, "weft::resize/realloc: the View must be managed (not Unmanaged, not scratch)");
  using T = typename V::value_type;
  if (v.is_allocated() && same_shape(v, layout)) {
    if constexpr (std::is_default_constructible_v<T> && !std::is_const_v<T>) {
      if (!keep && props.initialize) {
        // Elements that are Views (or with SequentialHostInit): assigned on this thread, as they were built.
        if constexpr (HostAccessibleSpace<typename V::memory_space>) {
          if (is_view_v<T> || props.sequential_host_init) {
            for (std::size_t i = 0; i < v.span(); ++i) v.data()[i] = T{};
            return;
          }
        }
        if constexpr (!is_view_v<T>) deep_copy(v, T{});
      }
    }
    return;
  }
  const std::string label = props.label.empty() ? v.label() : std::string(props.label);
  props.label = label;
  if (keep) {
    // The kept elements are assigned into the new allocation: elements that are not trivially copyable (Views, strings)
    // are constructed first, even WithoutInitializing, since assigning into raw memory would read garbage.
    if constexpr (!std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>) props.initialize = true;
    V fresh(props, layout);
    if (v.is_allocated()) copy_overlap(fresh, v, std::make_index_sequence<V::R>{});
    v = fresh;
  } else {
    v = V();
    v = V(props, layout);
  }
}
}  // namespace impl

/// Reallocates v with new extents, keeping the elements that fit in both shapes: resize(v, n...),
/// resize(WithoutInitializing, v, n...), resize(view_alloc(...), v, n...), and each with an array layout instead of
/// the extents. Extents that do not change keep the allocation.
template <class D, class... P, impl::ResizeExtent... N>
void resize(View<D, P...>& v, N... n) {
  impl::reshape(view_alloc(), v, impl::extents_layout<View<D, P...>>(n...), true);
}
template <class D, class... P, impl::ResizeExtent... N>
void resize(impl::WithoutInitializing_t, View<D, P...>& v, N... n) {
  impl::reshape(view_alloc(WithoutInitializing), v, impl::extents_layout<View<D, P...>>(n...), true);
}
template <class D, class... P, impl::ResizeExtent... N>
void resize(const impl::ViewAllocProps<>& props, View<D, P...>& v, N... n) {
  impl::reshape(props, v, impl::extents_layout<View<D, P...>>(n...), true);
}
template <class D, class... P>
void resize(View<D, P...>& v, const typename View<D, P...>::array_layout& layout) {
  impl::reshape(view_alloc(), v, layout, true);
}
template <class D, class... P>
void resize(impl::WithoutInitializing_t, View<D, P...>& v, const typename View<D, P...>::array_layout& layout) {
  impl::reshape(view_alloc(WithoutInitializing), v, layout, true);
}
template <class D, class... P>
void resize(const impl::ViewAllocProps<>& props, View<D, P...>& v, const typename View<D, P...>::array_layout& layout) {
  impl::reshape(props, v, layout, true);
}
/// Reallocates v with new extents without keeping its contents (same forms as resize).
template <class D, class... P, impl::ResizeExtent... N>
void realloc(View<D, P...>& v, N... n) {
  impl::reshape(view_alloc(), v, impl::extents_layout<View<D, P...>>(n...), false);
}
template <class D, class... P, impl::ResizeExtent... N>
void realloc(impl::WithoutInitializing_t, View<D, P...>& v, N... n) {
  impl::reshape(view_alloc(WithoutInitializing), v, impl::extents_layout<View<D, P...>>(n...), false);
}
template <class D, class... P, impl::ResizeExtent... N>
void realloc(const impl::ViewAllocProps<>& props, View<D, P...>& v, N... n) {
  impl::reshape(props, v, impl::extents_layout<View<D, P...>>(n...), false);
}
template <class D, class... P>
void realloc(View<D, P...>& v, const typename View<D, P...>::array_layout& layout) {
  impl::reshape(view_alloc(), v, layout, false);
}
template <class D, class... P>
void realloc(impl::WithoutInitializing_t, View<D, P...>& v, const typename View<D, P...>::array_layout& layout) {
  impl::reshape(view_alloc(WithoutInitializing), v, layout, false);
}
template <class D, class... P>
void realloc(const impl::ViewAllocProps<>& props, View<D, P...>& v,
             const typename View<D, P...>::array_layout& layout) {
  impl::reshape(props, v, layout, false);
}

}  // namespace weft
