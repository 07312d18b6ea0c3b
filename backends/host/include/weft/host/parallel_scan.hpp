// impl::ParallelScan for RangePolicy on the host backends: a two-pass block scan (each thread sums its
// block, the block sums are scanned, each thread rescans its block from its offset); one pass on one thread.
#pragma once

#include <string_view>

#include <weft/host/parallel_reduce.hpp>

namespace weft::impl {

template <class F, class Adaptor, class Policy, class E>
requires HostEngineSpace<E>
class ParallelScan<F, Adaptor, Policy, E> {
 public:
  ParallelScan(std::string_view label, const F& f, const Adaptor& a, const Policy& p)
      : label_(label), f_(host_kernel_functor(f)), a_(a), work_(label, p) {}

  void execute() const {
    host_dispatch(label_, work_.instance(), [this] { run(); });
  }

 private:
  void run() const {
    using Tag = typename Policy::work_tag;
    using V = typename Adaptor::value_type;
    using I = typename Policy::index_type;
    static_assert(!Adaptor::is_array, "weft::parallel_scan: array value types are not supported");
    const int nt = work_.threads();
    HostSlots<V> slots(nt + 1, 1);
    HostThreading<E>::parallel(nt, [&](int tid, int n) {
      I b, e;
      work_.static_range(tid, n, b, e);
      V acc;
      a_.init(&acc);
      if (n == 1) {
        for (I i = b; i < e; ++i) host_invoke<Tag>(f_, i, acc, true);
        *slots.at(nt) = acc;
        return;
      }
      for (I i = b; i < e; ++i) host_invoke<Tag>(f_, i, acc, false);
      *slots.at(tid) = acc;
      HostThreading<E>::barrier(n);
      V off;
      a_.init(&off);
      for (int t = 0; t < tid; ++t) a_.join(&off, slots.at(t));
      for (I i = b; i < e; ++i) host_invoke<Tag>(f_, i, off, true);
      if (tid == n - 1) *slots.at(nt) = off;
    });
    a_.store(slots.at(nt));
  }

  std::string_view label_;
  host_kernel_functor_t<F> f_;
  Adaptor a_;
  HostWork<Policy> work_;  // owns the policy
};

}  // namespace weft::impl
