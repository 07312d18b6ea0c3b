// impl::ParallelFor for every policy on the host backends (Serial, OpenMP).
#pragma once

#include <string_view>

#include <weft/host/region.hpp>
#include <weft/host/work.hpp>

namespace weft::impl {

template <class F, class Policy, class E>
requires HostEngineSpace<E>
class ParallelFor<F, Policy, E> {
 public:
  ParallelFor(std::string_view label, const F& f, const Policy& p) : label_(label), f_(f), work_(label, p) {}

  void execute() const {
    using Tag = typename Policy::work_tag;
    host_dispatch(label_, [this] {
      HostThreading<E>::parallel(work_.threads(), [this](int tid, int n) {
        work_.run(tid, n, [this](const auto&... a) { host_invoke<Tag>(f_, a...); });
      });
    });
  }

 private:
  std::string_view label_;
  const F& f_;
  HostWork<Policy> work_;  // owns the policy
};

}  // namespace weft::impl
