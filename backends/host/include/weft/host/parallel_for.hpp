// impl::ParallelFor for every policy on the host backends (Serial, OpenMP).
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

#include <weft/host/region.hpp>
#include <weft/host/work.hpp>

namespace weft::impl {

template <class P>
inline constexpr bool is_static_range_v = false;
template <class... P>
inline constexpr bool is_static_range_v<RangePolicy<P...>> =
    std::is_same_v<typename RangePolicy<P...>::schedule_type, Schedule<Static>>;

/// What the threads of a static RangePolicy dispatch over a small functor (up to 112 bytes) read: the range and a
/// copy of the functor and the chunk size side by side, in the object HostThreading hands them (one 64-byte line for a
/// functor of up to 40 bytes, a lambda over one View). Behind a closure that points at the dispatch, which points at
/// the policy and at the caller's functor, a thread's first loads were four dependent reads of lines the calling thread
/// had just written, each a transfer from its core. The copy is made as a kernel's copies are (inside a host-parallel
/// scope): its Views do not count.
inline constexpr std::size_t host_packed_functor_max = 112;
template <class F, class I, class Tag>
struct alignas(64) HostPackedRange {
  I begin, end;
  F f;
  I chunk;  // the policy's chunk size; <= 0: each thread takes one contiguous share
  // Where a thread records the functor's exception (set by the OpenMP backend, which hands this object itself to
  // the threads as the region's data); read only then, so that it may sit past the first 64 bytes.
  HostRegion* region = nullptr;
  WEFT_HOST_FORCEINLINE void operator()(int tid, int n) const {
    static_schedule(begin, end, chunk, tid, n, [this](I i) { host_invoke<Tag>(f, i); });
  }
};

template <class F, class Policy, class E>
requires HostEngineSpace<E>
class ParallelFor<F, Policy, E> {
 public:
  // Either path, chosen at compile time: a kernel's loop is compiled once.
  static constexpr bool packed =
      is_static_range_v<Policy> && sizeof(F) <= host_packed_functor_max && std::is_copy_constructible_v<F>;

  ParallelFor(std::string_view label, const F& f, const Policy& p)
      : label_(label), f_(make_functor(f)), work_(label, p) {}

  void execute() const {
    using Tag = typename Policy::work_tag;
    host_dispatch(label_, work_.instance(), [this] {
      if constexpr (packed) {
        using I = typename Policy::index_type;
        // the functor copied into place as the general path's copy is made (host_kernel_functor's prvalue)
        HostPackedRange<F, I, Tag> run{work_.policy().begin(), work_.policy().end(), host_kernel_functor(f_),
                                       host_chunk<I>(work_.policy().chunk_size())};
        HostThreading<E>::parallel(work_.threads(), run);
      } else {
        HostThreading<E>::parallel(work_.threads(), [this](int tid, int n) {
          work_.run(tid, n, [this](const auto&... a) { host_invoke<Tag>(f_, a...); });
        });
      }
    });
  }

 private:
  // the packed path copies the functor beside the range itself; the general one calls the dispatch's copy
  static decltype(auto) make_functor(const F& f) {
    if constexpr (packed)
      return (f);
    else
      return host_kernel_functor(f);
  }

  std::string_view label_;
  std::conditional_t<packed, const F&, host_kernel_functor_t<F>> f_;
  HostWork<Policy> work_;  // owns the policy
};

}  // namespace weft::impl
