// impl::ParallelScan on the GPU backends: reduce-then-scan in three kernels (block sums; an exclusive
// scan of the block sums and the total; each block rescans its chunk in tiles of blockDim from its
// offset), built on the block scan. Independent of the order blocks run in.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <weft/gpu/block.hpp>
#include <weft/gpu/work.hpp>

namespace weft::impl {

template <class F, class Adaptor, class Policy>
struct GpuScanKernel {
  using V = typename Adaptor::value_type;
  using I = typename Policy::index_type;
  F f;
  Adaptor a;
  I begin, end;
  std::int64_t chunk;  // elements per block, a multiple of the block size
  V* partials;         // pass 0 writes block sums; pass 1 turns them into offsets; pass 2 reads them
  V* total;
  int pass;

  WEFT_DEVICE void operator()() const {
    using Tag = typename Policy::work_tag;
    char* shared = gpu::dynamic_shared();
    const unsigned bid = gpu::block_idx().x;
    const std::int64_t lo = static_cast<std::int64_t>(begin) + std::int64_t(bid) * chunk;
    const std::int64_t hi = lo + chunk < static_cast<std::int64_t>(end) ? lo + chunk : static_cast<std::int64_t>(end);
    const unsigned t = gpu::thread_rank(), nt = gpu::block_threads();
    if (pass == 0) {
      V acc;
      a.init(&acc);
      for (std::int64_t i = lo + t; i < hi; i += nt) invoke<Tag>(f, static_cast<I>(i), acc, false);
      const V s = gpu::block_reduce(a, acc, shared);
      if (t == 0) partials[bid] = s;
    } else if (pass == 1) {
      if (t == 0) {
        V run;
        a.init(&run);
        const unsigned nb = static_cast<unsigned>(chunk_blocks());
        for (unsigned b = 0; b < nb; ++b) {
          const V s = partials[b];
          partials[b] = run;
          a.join(&run, &s);
        }
        *total = run;
      }
    } else {
      V carry = partials[bid];
      for (std::int64_t tile = lo; tile < hi; tile += nt) {
        const std::int64_t i = tile + t;
        V mine;
        a.init(&mine);
        if (i < hi) invoke<Tag>(f, static_cast<I>(i), mine, false);
        V tile_total;
        const V ex = gpu::block_exclusive_scan(a, mine, &tile_total, shared);
        V update = carry;
        a.join(&update, &ex);
        if (i < hi) invoke<Tag>(f, static_cast<I>(i), update, true);
        a.join(&carry, &tile_total);
      }
    }
  }
  WEFT_DEVICE std::int64_t chunk_blocks() const {
    const std::int64_t n = static_cast<std::int64_t>(end) - static_cast<std::int64_t>(begin);
    return n == 0 ? 0 : (n + chunk - 1) / chunk;
  }
};

template <class F, class Adaptor, class Policy, class E>
requires GpuEngineSpace<E>
class ParallelScan<F, Adaptor, Policy, E> {
  using Vendor = typename E::impl_vendor;
  using V = typename Adaptor::value_type;

 public:
  ParallelScan(std::string_view label, const F& f, const Adaptor& a, const Policy& p)
      : label_(label), f_(f), a_(a), p_(p) {}

  void execute() const {
    static_assert(!Adaptor::is_array, "weft::parallel_scan: array value types are not supported");
    const std::int64_t n = static_cast<std::int64_t>(p_.end()) - static_cast<std::int64_t>(p_.begin());
    GpuLaunchShape s = range_shape<Vendor>(n);
    const std::int64_t per_block = (n + s.grid.x - 1) / s.grid.x;
    const std::int64_t chunk = per_block <= 0 ? 256 : (per_block + 255) / 256 * 256;
    s.grid.x = n == 0 ? 1u : static_cast<unsigned>((n + chunk - 1) / chunk);
    s.shared_bytes = gpu::BlockTemp<V>::bytes(s.threads());
    const std::size_t bytes = sizeof(V) * (s.grid.x + 1);
    V* buf = static_cast<V*>(Vendor::scratch_allocate(bytes));
    using K = GpuScanKernel<F, Adaptor, Policy>;
    K k{f_, a_, p_.begin(), p_.end(), chunk, buf, buf + s.grid.x, 0};
    const std::string l0 = label_ + " [block sums]", l1 = label_ + " [offsets]";
    if (n > 0) {
      Vendor::launch(p_.space(), l0.c_str(), s, k);
      k.pass = 1;
      GpuLaunchShape one;
      one.block = {unsigned(gpu::warp_size), 1, 1};
      Vendor::launch(p_.space(), l1.c_str(), one, k);
      k.pass = 2;
      Vendor::launch(p_.space(), label_.c_str(), s, k);
    } else {
      a_.init(buf + s.grid.x);
    }
    Vendor::deliver(p_.space(), a_, buf + s.grid.x, 1);
    Vendor::scratch_free(buf, bytes);
  }

 private:
  std::string label_;
  const F& f_;
  Adaptor a_;
  Policy p_;
};

}  // namespace weft::impl
