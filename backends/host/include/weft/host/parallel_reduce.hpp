// impl::ParallelReduce for every policy on the host backends: one accumulator per thread in a
// cache-line-padded slot, joined in thread order after the region.
#pragma once

#include <new>
#include <string_view>

#include <weft/host/region.hpp>
#include <weft/host/work.hpp>
#include <weft/impl/round_up.hpp>

namespace weft::impl {

/// Per-thread reduction slots of `count` values each, padded to cache lines.
template <class V>
class HostSlots {
 public:
  HostSlots(int threads, int count)
      : count_(count),
        stride_(round_up<std::size_t>(count * sizeof(V), 64)),
        buf_(stride_ * threads),
        threads_(threads) {
    for (int t = 0; t < threads_; ++t)
      for (int c = 0; c < count_; ++c) new (at(t) + c) V();
  }
  ~HostSlots() {
    for (int t = 0; t < threads_; ++t)
      for (int c = 0; c < count_; ++c) at(t)[c].~V();
  }
  V* at(int t) { return std::launder(reinterpret_cast<V*>(buf_.get() + t * stride_)); }

 private:
  int count_;
  std::size_t stride_;
  HostBuffer buf_;
  int threads_;
};

template <class F, class Adaptor, class Policy, class E>
requires HostEngineSpace<E>
class ParallelReduce<F, Adaptor, Policy, E> {
 public:
  ParallelReduce(std::string_view label, const F& f, const Adaptor& a, const Policy& p)
      : label_(label), f_(host_kernel_functor(f)), a_(a), work_(label, p) {}

  void execute() const {
    host_dispatch(label_, work_.instance(), [this] { run(); });
  }

 private:
  void run() const {
    using Tag = typename Policy::work_tag;
    using V = typename Adaptor::value_type;
    const int nt = work_.threads();
    HostSlots<V> slots(nt, a_.value_count());
    int used = 1;
    HostThreading<E>::parallel(nt, [&](int tid, int n) {
      if (tid == 0) used = n;
      V* slot = slots.at(tid);
      if constexpr (Adaptor::is_array) {
        a_.init(slot);
        work_.run(tid, n, [&](const auto&... i) { host_invoke<Tag>(f_, i..., slot); });
      } else {
        V acc;  // a local accumulator the compiler keeps in registers
        a_.init(&acc);
        work_.run(tid, n,
                  [&](const auto&... i) { a_.apply(&acc, [&](auto&... r) { host_invoke<Tag>(f_, i..., r...); }); });
        *slot = acc;
      }
    });
    V* result = slots.at(0);
    for (int t = 1; t < used; ++t) a_.join(result, slots.at(t));
    a_.final(result);
    a_.store(result);
  }

  std::string_view label_;
  host_kernel_functor_t<F> f_;
  Adaptor a_;
  HostWork<Policy> work_;  // owns the policy
};

}  // namespace weft::impl
