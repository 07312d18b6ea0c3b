// impl::ParallelReduce on the GPU backends: a single-pass kernel. Each thread accumulates its share,
// the block reduces through warp shuffles and shared memory, each block writes its partial, and the
// last block to finish (an atomic ticket) reduces the partials as a block (each thread a strided share, then
// gpu::block_reduce) and writes the result. Deterministic for a fixed launch shape.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <weft/gpu/block.hpp>
#include <weft/gpu/team.hpp>
#include <weft/gpu/work.hpp>
#include <weft/impl/round_up.hpp>

namespace weft::impl {

template <class F, class Adaptor, class Policy, class Work>
struct GpuReduceKernel {
  using V = typename Adaptor::value_type;
  F f;
  Adaptor a;
  Work work;
  unsigned* ticket;         // zero before the launch; the last block resets it
  V* partials;              // one (value_count values) per block
  V* result;                // value_count values
  V* host_out;              // when not null, the last block copies the final result here (pinned host memory)
  std::size_t temp_offset;  // after the policy's own shared memory (team slots and scratch)
  std::size_t flag_offset;

  WEFT_DEVICE void operator()() const {
    using Tag = typename Policy::work_tag;
    constexpr bool team = policy_kind<Policy>::value == PolicyKind::team;
    char* shared = gpu::dynamic_shared() + temp_offset;
    const int count = a.value_count();
    const unsigned bid = gpu::block_idx().x;
    if constexpr (!Adaptor::is_array) {
      V acc;
      a.init(&acc);
      work.run([&](const auto&... i) { a.apply(&acc, [&](auto&... r) { invoke<Tag>(f, i..., r...); }); });
      if (team && gpu::thread_idx().x != 0) a.init(&acc);  // a team thread's vector lanes count once
      const V block_value = gpu::block_reduce(a, acc, shared);
      if (gpu::thread_rank() == 0) partials[bid] = block_value;
    } else {
      V* mine = reinterpret_cast<V*>(shared) + std::size_t(gpu::thread_rank()) * count;
      a.init(mine);
      work.run([&](const auto&... i) { invoke<Tag>(f, i..., mine); });
      if (team && gpu::thread_idx().x != 0) a.init(mine);
      gpu::sync_block();
      if (gpu::thread_rank() == 0) {  // the per-thread arrays, joined in thread order
        V* first = reinterpret_cast<V*>(shared);
        for (unsigned t = 1; t < gpu::block_threads(); ++t) a.join(first, first + std::size_t(t) * count);
        for (int c = 0; c < count; ++c) partials[std::size_t(bid) * count + c] = first[c];
      }
    }
    finish(gpu::dynamic_shared() + flag_offset, count);
  }

  WEFT_DEVICE void finish(char* flag_mem, int count) const {
    unsigned* is_last = reinterpret_cast<unsigned*>(flag_mem);
    const unsigned nblocks = gpu::grid_dim().x;
    if (gpu::thread_rank() == 0) {
      gpu::threadfence();  // publish this block's partial before taking a ticket
      gpu::shared_store(is_last, atomic_fetch_add(ticket, 1u) == nblocks - 1 ? 1u : 0u);
    }
    gpu::sync_block();
    if (!gpu::shared_load(is_last)) return;  // the same answer for the whole block
    gpu::threadfence();
    if constexpr (!Adaptor::is_array) {
      // The last block joins the partials as a block: thread t the partials t, t + threads, ... (coalesced), then
      // a block reduction. A fixed order for a fixed launch shape: deterministic.
      V acc;
      a.init(&acc);
      for (unsigned b = gpu::thread_rank(); b < nblocks; b += gpu::block_threads()) {
        const V p = gpu::load_coherent(partials + b);
        a.join(&acc, &p);
      }
      const V total = gpu::block_reduce(a, acc, gpu::dynamic_shared() + temp_offset);
      if (gpu::thread_rank() == 0) {
        *result = total;
        a.final(result);
        if (host_out) *host_out = *result;
        *ticket = 0;
      }
    } else if (gpu::thread_rank() == 0) {  // arrays join whole: one thread, in block order
      for (int c = 0; c < count; ++c) result[c] = partials[c];
      for (unsigned b = 1; b < nblocks; ++b) a.join(result, partials + std::size_t(b) * count);
      a.final(result);
      if (host_out)
        for (int c = 0; c < count; ++c) host_out[c] = result[c];
      *ticket = 0;
    }
  }
};

template <class F, class Adaptor, class Policy, class E>
requires GpuEngineSpace<E>
class ParallelReduce<F, Adaptor, Policy, E> {
  using Vendor = typename E::impl_vendor;
  using V = typename Adaptor::value_type;

 public:
  ParallelReduce(std::string_view label, const F& f, const Adaptor& a, const Policy& p)
      : label_(label), f_(f), a_(a), p_(p), work_(label, p) {}

  void execute() const {
    GpuWork<Policy> work = work_;
    const int count = a_.value_count();
    using K = GpuReduceKernel<F, Adaptor, Policy, GpuWork<Policy>>;
    if constexpr (requires { work.impl_auto_team(); }) {
      if (work.impl_auto_team())
        work.impl_take_block(Vendor::template occupancy_block<K, launch_bounds_of_t<Policy>>(
            [&](int b) {
              const std::size_t t =
                  Adaptor::is_array ? std::size_t(b) * count * sizeof(V) : gpu::BlockTemp<V>::bytes(b);
              return round_up<std::size_t>(round_up<std::size_t>(work.shared_bytes_for(b), 16) + t, 16) + 16;
            },
            work.team_size() * work.vector_length()));
    }
    GpuLaunchShape s = work.template shape<Vendor>();
    const GpuLevel1ScratchGuard<Vendor, E> level1_scratch(p_.space(), work,
                                                          s.blocks());  // freed after the launch, stream-ordered
    const std::size_t values = Adaptor::is_array ? std::size_t(s.threads()) * count : 0;
    const std::size_t temp = Adaptor::is_array ? values * sizeof(V) : gpu::BlockTemp<V>::bytes(s.threads());
    const std::size_t temp_offset = round_up<std::size_t>(work.shared_end(), 16);
    const std::size_t flag_offset = round_up<std::size_t>(temp_offset + temp, 16);
    s.shared_bytes = flag_offset + 16;
    // One device buffer: [ticket | result | partials].
    const std::size_t result_off = 64;
    const std::size_t partial_off = result_off + round_up<std::size_t>(count * sizeof(V), 64);
    const std::size_t bytes = partial_off + std::size_t(s.blocks()) * count * sizeof(V);
    // A View result the kernel can reach is written by the last block itself: nothing waits (the call only
    // enqueues, as for parallel_for). Otherwise the last block copies the result to host memory (pinned on a
    // GPU), and the call waits for the instance and hands it over: no copy is enqueued after the kernel.
    V* direct = nullptr;
    if constexpr (requires { a_.template direct_target<E>(); }) direct = a_.template direct_target<E>();
    const GpuResultBuffers<Vendor, V, E> buffers(p_.space(), bytes, direct ? 0 : std::size_t(count > 0 ? count : 1));
    char* buf = buffers.scratch();
    V* host_out = buffers.host();
    Vendor::memset(p_.space(), buf, 0, result_off);  // the ticket, ordered before the kernel on its stream
    const K k{f_,
              a_,
              work,
              reinterpret_cast<unsigned*>(buf),
              reinterpret_cast<V*>(buf + partial_off),
              direct ? direct : reinterpret_cast<V*>(buf + result_off),
              host_out,
              temp_offset,
              flag_offset};
    Vendor::template launch<launch_bounds_of_t<Policy>>(p_.space(), label_.c_str(), s, k);
    if (host_out) Vendor::deliver(p_.space(), a_, host_out, count);
  }

 private:
  std::string label_;
  const F& f_;
  Adaptor a_;
  Policy p_;
  GpuWork<Policy> work_;
};

}  // namespace weft::impl
