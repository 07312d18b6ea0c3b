// GpuEmu builds only (<weft/spaces.hpp> includes it when WEFT_IMPL_ACCESS_HOOKS is on). The stream-order
// checker judges two unordered operations by the elements each really touched: a kernel's element accesses
// through Views are recorded one by one, but a pointer from View::data() reaches any element unseen, so
// data() called in a GpuEmu kernel counts as touching the whole View. Weft's own subview construction takes
// the pointer without that (the subview's element accesses are recorded as they happen).
// A fragment: <weft/spaces.hpp> includes it inside namespace weft, after <cstddef> and <type_traits>, so that
// builds without GpuEmu preprocess to the same text as before it existed (their compiler cache stays valid).
#pragma once

namespace impl {

/// Set while Weft itself takes a View's pointer for a subview (not a raw access by the kernel).
inline thread_local bool t_data_hook_off = false;

template <class M>
constexpr void note_data(const void* p, std::size_t bytes) {
  if constexpr (requires { M::impl_note_data(p, bytes); })
    if (!std::is_constant_evaluated() && !t_data_hook_off) M::impl_note_data(p, bytes);
}

template <class V>
auto subview_data(const V& v) {
  const bool saved = t_data_hook_off;
  t_data_hook_off = true;
  auto* p = v.data();
  t_data_hook_off = saved;
  return p;
}

}  // namespace impl

// In View::data() (a member: memory_space, span() and value_type are the View's).
#define WEFT_IMPL_NOTE_DATA(p) ::weft::impl::note_data<memory_space>(p, span() * sizeof(value_type));
#define WEFT_IMPL_SUBVIEW_DATA(v) ::weft::impl::subview_data(v)
