// impl::ParallelFor on the GPU backends (CUDA, HIP, GpuEmu): one kernel, each thread walks its share.
#pragma once

#include <string>
#include <string_view>

#include <weft/gpu/team.hpp>
#include <weft/gpu/work.hpp>

namespace weft::impl {

template <class F, class Policy, class Work>
struct GpuForKernel {
  F f;
  Work work;
  WEFT_DEVICE void operator()() const {
    using Tag = typename Policy::work_tag;
    work.run([this](const auto&... i) { invoke<Tag>(f, i...); });
  }
};

template <class F, class Policy, class E>
requires GpuEngineSpace<E>
class ParallelFor<F, Policy, E> {
  using Vendor = typename E::impl_vendor;

 public:
  ParallelFor(std::string_view label, const F& f, const Policy& p) : label_(label), f_(f), p_(p), work_(label, p) {}
  void execute() const {
    GpuWork<Policy> work = work_;
    using K = GpuForKernel<F, Policy, GpuWork<Policy>>;
    if constexpr (requires { work.impl_auto_team(); }) {
      if (work.impl_auto_team())
        work.impl_take_block(Vendor::template occupancy_block<K, launch_bounds_of_t<Policy>>(
            [&](int b) { return work.shared_bytes_for(b); }, work.team_size() * work.vector_length()));
    }
    const GpuLaunchShape s = work.template shape<Vendor>();
    const GpuLevel1ScratchGuard<Vendor, E> level1_scratch(p_.space(), work,
                                                          s.blocks());  // freed after the launch, stream-ordered
    const K k{f_, work};
    Vendor::template launch<launch_bounds_of_t<Policy>>(p_.space(), label_.c_str(), s, k);
  }

 private:
  std::string label_;
  const F& f_;
  Policy p_;
  GpuWork<Policy> work_;
};

}  // namespace weft::impl
