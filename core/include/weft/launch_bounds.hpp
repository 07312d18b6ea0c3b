// LaunchBounds, the policy property that bounds a GPU kernel's block size (and so its registers).
#pragma once

namespace weft {

/// A policy property: on GPUs, kernels of this policy run blocks of at most MaxThreads threads (0: no bound) and
/// the compiler keeps registers low enough for MinBlocks of them per multiprocessor (CUDA's __launch_bounds__;
/// HIP takes MaxThreads). Weft's own block sizes shrink to fit it; a team larger than MaxThreads raises
/// weft::Error. Host backends ignore it.
template <unsigned MaxThreads = 0, unsigned MinBlocks = 0>
struct LaunchBounds {
  using launch_bounds = LaunchBounds;
  static constexpr unsigned max_threads = MaxThreads, min_blocks = MinBlocks;
};

namespace impl {
[[noreturn]] void throw_launch_bounds_error(const char* label, unsigned threads, unsigned max_threads);
/// Raises weft::Error naming the kernel when a launch of `threads` per block breaks LB.
template <class LB>
void check_launch_bounds(const char* label, unsigned threads) {
  if constexpr (LB::max_threads > 0)
    if (threads > LB::max_threads) throw_launch_bounds_error(label, threads, LB::max_threads);
}
}  // namespace impl

}  // namespace weft
