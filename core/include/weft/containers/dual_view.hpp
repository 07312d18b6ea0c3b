// DualView: a View in its own memory space and a host copy of it, with flags that say which side was modified
// last, so that sync_host()/sync_device() copy only when needed (Kokkos::DualView).
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/view.hpp>

namespace weft {

template <class DataType, class... Props>
class DualView;

namespace impl {
/// Which side of a DualView a space names: the device View's memory space is the device side; any other space
/// is the host side (in host-only builds both sides are the same memory and alias).
template <class Space, class DevMem>
inline constexpr bool names_device_side_v = std::is_same_v<typename Space::memory_space, DevMem>;

/// The modified flags every copy and subview of one DualView share: [0] host, [1] device.
using DualViewFlags = View<unsigned*, HostSpace>;
}  // namespace impl

/// DualView<DataType, Layout, Space>: `d_view` (in Space's memory) and `h_view` (in HostSpace). Mark the side
/// you wrote with modify_host()/modify_device(), bring the other side up to date with sync_host()/sync_device()
/// before reading it there. A sync after both sides were marked modified raises weft::Error: it would discard
/// one side's writes (Kokkos picks one silently).
template <class DataType, class... Props>
class DualView {
 public:
  using t_dev = View<DataType, Props...>;
  using t_host = View<DataType, typename t_dev::array_layout, HostSpace>;
  using t_dev_const = typename t_dev::const_type;
  using t_host_const = typename t_host::const_type;
  using traits = typename t_dev::traits;
  using data_type = DataType;
  using const_data_type = typename t_dev::const_data_type;
  using non_const_data_type = typename t_dev::non_const_data_type;
  using scalar_array_type = typename t_dev::scalar_array_type;
  using const_scalar_array_type = typename t_dev::const_scalar_array_type;
  using non_const_scalar_array_type = typename t_dev::non_const_scalar_array_type;
  using value_type = typename t_dev::value_type;
  using const_value_type = typename t_dev::const_value_type;
  using non_const_value_type = typename t_dev::non_const_value_type;
  using array_layout = typename t_dev::array_layout;
  using memory_space = typename t_dev::memory_space;
  using execution_space = typename t_dev::execution_space;
  using device_type = typename t_dev::device_type;
  using host_mirror_space = typename t_host::device_type;
  using HostMirror = t_host;
  using size_type = std::size_t;
  static constexpr int rank = t_dev::R;
  /// Whether the two sides are one allocation (the device View's memory is the host's).
  static constexpr bool impl_aliased =
      std::is_same_v<memory_space, HostSpace> && std::is_same_v<typename t_dev::mirror_layout, array_layout>;

  t_dev d_view;
  t_host h_view;

  DualView() = default;
  /// Allocates both sides: DualView<double**> a("A", n, m). Both start zeroed and in sync.
  template <impl::Label L, impl::ViewIndex... N>
  explicit DualView(const L& label, N... n) : DualView(view_alloc(std::string_view(label)), n...) {}
  /// view_alloc(WithoutInitializing, label): neither side is initialized. view_alloc(SequentialHostInit, label): the
  /// host side's elements are constructed on the calling thread, one after the other, and the device side is a copy
  /// of them (as Kokkos: for elements whose constructor is host code, such as Views).
  template <impl::ViewIndex... N>
  explicit DualView(const impl::ViewAllocProps<>& props, N... n) {
    if (sequential_on_host(props)) {
      h_view = t_host(props, n...);
      d_view = device_copy_of(h_view);
    } else {
      d_view = t_dev(props, n...);
      h_view = host_side_of(d_view, props.initialize);
    }
    flags_ = make_flags(d_view.label());
  }
  /// Adopts a device View: the host side is a copy of its current contents.
  explicit DualView(const t_dev& d) : d_view(d), h_view(host_side_of(d, false)), flags_(make_flags(d.label())) {
    if (!impl_aliased) deep_copy(h_view, d_view);
  }
  /// Adopts two Views of the same shape as the two sides (taken to be in sync).
  DualView(const t_dev& d, const t_host& h) : d_view(d), h_view(h), flags_(make_flags(d.label())) {
    for (int k = 0; k < rank; ++k)
      if (d.extent(k) != h.extent(k))
        impl::throw_cat({"DualView \"", d.label(), "\": the device and host Views differ in extent ", k, " (",
                         d.extent(k), " and ", h.extent(k), "); give two Views of one shape"});
  }
  /// The parts of another DualView (subview, conversions): shares its flags.
  template <class D2, class H2>
  DualView(const D2& d, const H2& h, const impl::DualViewFlags& flags) : d_view(d), h_view(h), flags_(flags) {}
  /// A DualView of const data from one of non-const data (shares the flags).
  template <class D2, class... P2>
  requires(!std::is_same_v<DualView<D2, P2...>, DualView>) DualView(const DualView<D2, P2...>& o)
      : d_view(o.d_view), h_view(o.h_view), flags_(o.impl_flags()) {}

  // ---- the two sides ----
  const t_dev& view_device() const { return d_view; }
  const t_host& view_host() const { return h_view; }
  /// view<Space>(): the device View when Space is (or has) the device memory space, else the host View (a copy
  /// sharing the data, as Kokkos returns it).
  template <class Space>
  auto view() const {
    if constexpr (impl::names_device_side_v<Space, memory_space>)
      return d_view;
    else
      return h_view;
  }

  // ---- modified flags ----
  void modify_host() const { mark(0); }
  void modify_device() const { mark(1); }
  template <class Space>
  void modify() const {
    mark(impl::names_device_side_v<Space, memory_space> ? 1 : 0);
  }
  void clear_sync_state() const {
    if (!flags_.is_allocated()) return;
    flags_(0) = 0;
    flags_(1) = 0;
  }
  bool need_sync_host() const { return flags_.is_allocated() && flags_(1) != 0; }
  bool need_sync_device() const { return flags_.is_allocated() && flags_(0) != 0; }
  template <class Space>
  bool need_sync() const {
    return impl::names_device_side_v<Space, memory_space> ? need_sync_device() : need_sync_host();
  }

  // ---- syncs: copy the side that was modified onto the other, then both are in sync ----
  void sync_host() const {
    sync_to(0, [&] { copy_side(h_view, d_view, BlockingCopy{}); });
  }
  void sync_device() const {
    sync_to(1, [&] { copy_side(d_view, h_view, BlockingCopy{}); });
  }
  /// Enqueued on exec (returns before the copy is done; fence exec before reading the side).
  template <ExecutionSpace E>
  void sync_host(const E& exec) const {
    sync_to(0, [&] { copy_side(h_view, d_view, [&](const auto& d, const auto& s) { deep_copy(exec, d, s); }); });
  }
  template <ExecutionSpace E>
  void sync_device(const E& exec) const {
    sync_to(1, [&] { copy_side(d_view, h_view, [&](const auto& d, const auto& s) { deep_copy(exec, d, s); }); });
  }
  template <class Space>
  void sync() const {
    if constexpr (impl::names_device_side_v<Space, memory_space>)
      sync_device();
    else
      sync_host();
  }
  template <class Space, ExecutionSpace E>
  void sync(const E& exec) const {
    if constexpr (impl::names_device_side_v<Space, memory_space>)
      sync_device(exec);
    else
      sync_host(exec);
  }

  // ---- reallocation ----
  /// New extents, both sides keeping the elements that fit (the flags are kept).
  template <impl::ViewIndex... N>
  void resize(N... n) {
    reshape([&](auto& v) { weft::resize(v, n...); });
  }
  /// New extents, contents discarded, both sides in sync.
  template <impl::ViewIndex... N>
  void realloc(N... n) {
    reshape([&](auto& v) { weft::realloc(v, n...); });
    clear_sync_state();
  }
  /// resize(view_alloc(...), n...) and realloc(view_alloc(...), n...): WithoutInitializing, a new label, on both
  /// sides. With SequentialHostInit the host side is brought up to date (resize), reshaped on the calling thread,
  /// and the device side becomes a copy of it (as Kokkos).
  template <impl::ViewIndex... N>
  void resize(const impl::ViewAllocProps<>& props, N... n) {
    if (sequential_on_host(props)) {
      sync_host();
      weft::resize(props, h_view, n...);
      d_view = device_copy_of(h_view);
      return;
    }
    reshape([&](auto& v) { weft::resize(props, v, n...); });
  }
  template <impl::ViewIndex... N>
  void realloc(const impl::ViewAllocProps<>& props, N... n) {
    if (sequential_on_host(props)) {
      weft::realloc(props, h_view, n...);
      d_view = device_copy_of(h_view);
    } else {
      reshape([&](auto& v) { weft::realloc(props, v, n...); });
    }
    clear_sync_state();
  }

  // ---- queries (of the device side; both sides have one shape) ----
  template <std::integral I>
  constexpr std::size_t extent(I r) const {
    return d_view.extent(r);
  }
  template <std::integral I>
  constexpr int extent_int(I r) const {
    return d_view.extent_int(r);
  }
  template <std::integral I>
  constexpr std::size_t stride(I r) const {
    return d_view.stride(r);
  }
  std::size_t size() const { return d_view.size(); }
  std::size_t span() const { return d_view.span(); }
  bool span_is_contiguous() const { return d_view.span_is_contiguous(); }
  bool is_allocated() const { return d_view.is_allocated(); }
  std::string label() const { return d_view.label(); }
  const impl::DualViewFlags& impl_flags() const { return flags_; }

 private:
  static t_host host_side_of(const t_dev& d, bool init) {
    if constexpr (impl_aliased)
      return t_host(d);
    else
      return init ? t_host(create_mirror(d)) : t_host(create_mirror(WithoutInitializing, d));
  }
  /// SequentialHostInit on a DualView whose sides are apart: the host side is made first (on an aliased DualView
  /// the one View is, and weft::View itself refuses memory the host cannot reach).
  static bool sequential_on_host(const impl::ViewAllocProps<>& props) {
    if (!props.sequential_host_init) return false;
    if (!props.initialize)
      impl::throw_error("DualView \"" + props.label +
                        "\": SequentialHostInit constructs the elements and WithoutInitializing leaves them "
                        "unconstructed; give one of the two");
    return !impl_aliased;
  }
  /// The device side as a copy of the host side's elements (their bytes: a View element on the device is the host's
  /// handle, not another reference, as in Kokkos). The device memory is taken as raw bytes: its elements are never
  /// constructed or destroyed there (their constructors are host code, e.g. one that allocates a View, which a kernel
  /// cannot run; a WithoutInitializing t_dev still constructs non-trivial elements).
  static t_dev device_copy_of(const t_host& h) {
    impl::ViewOffset<typename t_dev::array_layout, rank> map;
    for (int k = 0; k < rank; ++k) map.ext[k] = h.extent(k);
    map.set_packed();
    using Bytes = View<unsigned char*, typename t_dev::memory_space>;
    const Bytes raw(view_alloc(h.label(), WithoutInitializing), map.span() * sizeof(typename t_dev::value_type));
    t_dev d = t_dev::impl_make(reinterpret_cast<typename t_dev::pointer_type>(raw.data()), map, raw.impl_track());
    copy_side(d, h, BlockingCopy{});
    return d;
  }
  /// copy_side's copy without an instance: deep_copy(dst, src), which returns when the copy is done.
  struct BlockingCopy {
    template <class D, class S>
    void operator()(const D& dst, const S& src) const {
      deep_copy(dst, src);
    }
  };
  /// Copies one side onto the other with `copy` (a deep_copy, with or without an instance). Elements that are not
  /// trivially copyable (Views of Views) cross between the two memory spaces as their bytes, as Kokkos copies them:
  /// neither side can run the other's copy constructors (an element-wise deep_copy would build and assign them in a
  /// kernel).
  template <class D, class S, class Copy>
  static void copy_side(const D& dst, const S& src, const Copy& copy) {
    using T = typename D::non_const_value_type;
    if constexpr (!std::is_trivially_copyable_v<T> &&
                  std::is_same_v<typename D::array_layout, typename S::array_layout>) {
      if (dst.span_is_contiguous() && src.span_is_contiguous() && dst.span() == src.span()) {
        using DB = View<unsigned char*, typename D::memory_space, MemoryUnmanaged>;
        using SB = View<const unsigned char*, typename S::memory_space, MemoryUnmanaged>;
        copy(DB(reinterpret_cast<unsigned char*>(dst.data()), dst.span() * sizeof(T)),
             SB(reinterpret_cast<const unsigned char*>(src.data()), src.span() * sizeof(T)));
        return;
      }
    }
    copy(dst, src);
  }
  static impl::DualViewFlags make_flags(const std::string& label) {
    return impl::DualViewFlags(label + " (DualView modified flags)", 2);
  }
  /// Applies a resize or realloc to the device side, and to the host side unless it aliases it.
  template <class F>
  void reshape(const F& f) {
    f(d_view);
    if constexpr (impl_aliased)
      h_view = d_view;
    else
      f(h_view);
  }
  /// A default-constructed DualView (no data, no flags): modify and sync do nothing, as Kokkos's.
  void mark(int side) const {
    if (!flags_.is_allocated()) return;
    flags_(side) = 1;
  }
  /// Brings `side` (0 host, 1 device) up to date with `copy` when the other side was modified.
  template <class Copy>
  void sync_to(int side, const Copy& copy) const {
    if (!flags_.is_allocated()) return;
    const int other = 1 - side;
    if (flags_(side) != 0 && flags_(other) != 0)
      impl::throw_error("DualView \"" + label() + "\": sync_" + (side ? "device" : "host") +
                        "() after both the host and the device sides were marked modified; the copy would discard "
                        "the " +
                        (side ? "device" : "host") +
                        " side's writes. Sync each side before the other side is modified (or call "
                        "clear_sync_state() after merging them yourself)");
    if constexpr (impl_aliased) {
      // One allocation: a sync towards either side (sync<Space>() names the side by its memory space, which both
      // sides share) has nothing to copy and leaves both sides current, as Kokkos's single-device DualView.
      clear_sync_state();
      return;
    }
    if (flags_(other) == 0) return;
    copy();
    clear_sync_state();
  }

  impl::DualViewFlags flags_;
};

/// deep_copy(dst, src) between DualViews, as Kokkos: copies src's up-to-date side (the host side when src's device
/// side needs a sync, else the device side) into the same side of dst, which then counts as the modified side.
template <class DD, class... DP, class SD, class... SP>
void deep_copy(DualView<DD, DP...>& dst, const DualView<SD, SP...>& src) {
  const bool host_newer = src.need_sync_device();
  if (host_newer)
    deep_copy(dst.h_view, src.h_view);
  else
    deep_copy(dst.d_view, src.d_view);
  dst.clear_sync_state();
  host_newer ? dst.modify_host() : dst.modify_device();
}
template <ExecutionSpace E, class DD, class... DP, class SD, class... SP>
void deep_copy(const E& exec, DualView<DD, DP...>& dst, const DualView<SD, SP...>& src) {
  const bool host_newer = src.need_sync_device();
  if (host_newer)
    deep_copy(exec, dst.h_view, src.h_view);
  else
    deep_copy(exec, dst.d_view, src.d_view);
  dst.clear_sync_state();
  host_newer ? dst.modify_host() : dst.modify_device();
}

/// resize/realloc(dual_view, n...), with WithoutInitializing or view_alloc(...) first: the members' forms.
template <class D, class... P, impl::ViewIndex... N>
void resize(DualView<D, P...>& dv, N... n) {
  dv.resize(n...);
}
template <class D, class... P, impl::ViewIndex... N>
void resize(impl::WithoutInitializing_t, DualView<D, P...>& dv, N... n) {
  dv.resize(view_alloc(WithoutInitializing), n...);
}
template <class D, class... P, impl::ViewIndex... N>
void resize(const impl::ViewAllocProps<>& props, DualView<D, P...>& dv, N... n) {
  dv.resize(props, n...);
}
template <class D, class... P, impl::ViewIndex... N>
void realloc(DualView<D, P...>& dv, N... n) {
  dv.realloc(n...);
}
template <class D, class... P, impl::ViewIndex... N>
void realloc(impl::WithoutInitializing_t, DualView<D, P...>& dv, N... n) {
  dv.realloc(view_alloc(WithoutInitializing), n...);
}
template <class D, class... P, impl::ViewIndex... N>
void realloc(const impl::ViewAllocProps<>& props, DualView<D, P...>& dv, N... n) {
  dv.realloc(props, n...);
}

/// subview(dual_view, args...): a DualView of the two sides' subviews, sharing the parent's modified flags.
template <class D, class... P, class... Args>
auto subview(const DualView<D, P...>& dv, const Args&... args) {
  auto d = subview(dv.d_view, args...);
  using S = decltype(d);
  using R =
      DualView<typename S::data_type, typename S::array_layout, typename S::device_type, typename S::memory_traits>;
  return R(d, typename R::t_host(subview(dv.h_view, args...)), dv.impl_flags());
}

}  // namespace weft
