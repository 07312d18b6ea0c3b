// The device-intrinsics layer: every kernel in backends/gpu/ (and linalg's GPU kernels) reaches the
// hardware only through these functions, so that one kernel source runs on CUDA, HIP and the SIMT
// emulator (GpuEmu). On CUDA/HIP each is the vendor intrinsic; under emulation each calls the emulator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <weft/atomics.hpp>
#include <weft/config.hpp>
#include <weft/macros.hpp>

#if WEFT_HAS_CUDA && defined(__CUDACC__)
#define WEFT_GPU_VENDOR_INTRINSICS 1  // both nvcc passes see the CUDA intrinsics
#elif WEFT_HAS_HIP
// Both hip-clang passes see the HIP intrinsics; a file of a HIP build compiled as plain C++ (no kernels)
// sees their host-side declarations only.
#define WEFT_GPU_VENDOR_INTRINSICS 1
#include <hip/hip_runtime.h>
#else
#define WEFT_GPU_VENDOR_INTRINSICS 0
#include <weft/emu/context.hpp>
#endif

/// Functions of Weft's GPU kernels: host-device under nvcc (callable from WEFT_LAMBDA lambdas).
#define WEFT_DEVICE WEFT_HOST_DEVICE

namespace weft::gpu {

struct dim3_t {
  unsigned x, y, z;
};
#if WEFT_HAS_HIP
/// AMD's CDNA GPUs (gfx90a, gfx942) run wavefronts of 64 lanes; Weft's HIP build assumes wave64 everywhere
/// (RDNA targets compile with -mwavefrontsize64, see backends/hip/README.md).
inline constexpr int warp_size = 64;
/// A set of lanes of one warp (bit k = lane k).
using lane_mask_t = std::uint64_t;
#if defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN_WAVEFRONT_SIZE)
static_assert(__AMDGCN_WAVEFRONT_SIZE == 64, "Weft's HIP kernels assume wave64: compile with -mwavefrontsize64");
#endif
#else
inline constexpr int warp_size = 32;
using lane_mask_t = std::uint32_t;
#endif
inline constexpr lane_mask_t full_mask = ~lane_mask_t{0};
/// The mask of the lanes [0, n) of a warp, n <= warp_size.
WEFT_DEVICE constexpr lane_mask_t low_lanes(unsigned n) {
  return n >= unsigned(warp_size) ? full_mask : ((lane_mask_t{1} << n) - 1u);
}

#if WEFT_GPU_VENDOR_INTRINSICS
// Host-device so that Weft's __host__ __device__ lambdas may call them; only the device pass has a body.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define WEFT_IMPL_DEV(...) __VA_ARGS__
#else
#define WEFT_IMPL_DEV(...) __builtin_unreachable()
#endif
WEFT_DEVICE inline dim3_t thread_idx() { WEFT_IMPL_DEV(return {threadIdx.x, threadIdx.y, threadIdx.z}); }
WEFT_DEVICE inline dim3_t block_idx() { WEFT_IMPL_DEV(return {blockIdx.x, blockIdx.y, blockIdx.z}); }
WEFT_DEVICE inline dim3_t block_dim() { WEFT_IMPL_DEV(return {blockDim.x, blockDim.y, blockDim.z}); }
WEFT_DEVICE inline dim3_t grid_dim() { WEFT_IMPL_DEV(return {gridDim.x, gridDim.y, gridDim.z}); }
WEFT_DEVICE inline unsigned thread_rank() {
  WEFT_IMPL_DEV(return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
WEFT_DEVICE inline void sync_block() { WEFT_IMPL_DEV(__syncthreads()); }
#if WEFT_HAS_CUDA
WEFT_DEVICE inline void sync_warp(lane_mask_t mask = full_mask) { WEFT_IMPL_DEV(__syncwarp(mask)); }
WEFT_DEVICE inline std::uint32_t shfl_word(std::uint32_t v, int lane, lane_mask_t mask, int width) {
  WEFT_IMPL_DEV(return __shfl_sync(mask, v, lane, width));
}
WEFT_DEVICE inline std::uint32_t shfl_up_word(std::uint32_t v, unsigned d, lane_mask_t mask, int width) {
  WEFT_IMPL_DEV(return __shfl_up_sync(mask, v, d, width));
}
WEFT_DEVICE inline std::uint32_t shfl_down_word(std::uint32_t v, unsigned d, lane_mask_t mask, int width) {
  WEFT_IMPL_DEV(return __shfl_down_sync(mask, v, d, width));
}
WEFT_DEVICE inline std::uint32_t shfl_xor_word(std::uint32_t v, int m, lane_mask_t mask, int width) {
  WEFT_IMPL_DEV(return __shfl_xor_sync(mask, v, m, width));
}
WEFT_DEVICE inline lane_mask_t ballot(bool p, lane_mask_t mask = full_mask) {
  WEFT_IMPL_DEV(return __ballot_sync(mask, p));
}
#else
// HIP (ROCm 5.x): wavefronts run in lockstep and the cross-lane operations take no mask; Weft's kernels
// only name lanes that are active, as CUDA requires, so dropping the mask keeps their meaning. A warp
// barrier is a wavefront-scope release/acquire pair around the compiler's wave barrier.
WEFT_DEVICE inline void sync_warp(lane_mask_t = full_mask) {
  WEFT_IMPL_DEV(__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"); __builtin_amdgcn_wave_barrier();
                __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
}
WEFT_DEVICE inline std::uint32_t shfl_word(std::uint32_t v, int lane, lane_mask_t, int width) {
  WEFT_IMPL_DEV(return static_cast<std::uint32_t>(__shfl(static_cast<int>(v), lane, width)));
}
WEFT_DEVICE inline std::uint32_t shfl_up_word(std::uint32_t v, unsigned d, lane_mask_t, int width) {
  WEFT_IMPL_DEV(return static_cast<std::uint32_t>(__shfl_up(static_cast<int>(v), d, width)));
}
WEFT_DEVICE inline std::uint32_t shfl_down_word(std::uint32_t v, unsigned d, lane_mask_t, int width) {
  WEFT_IMPL_DEV(return static_cast<std::uint32_t>(__shfl_down(static_cast<int>(v), d, width)));
}
WEFT_DEVICE inline std::uint32_t shfl_xor_word(std::uint32_t v, int m, lane_mask_t, int width) {
  WEFT_IMPL_DEV(return static_cast<std::uint32_t>(__shfl_xor(static_cast<int>(v), m, width)));
}
WEFT_DEVICE inline lane_mask_t ballot(bool p, lane_mask_t mask = full_mask) {
  WEFT_IMPL_DEV(return static_cast<lane_mask_t>(__ballot(p)) & mask);
}
#endif
WEFT_DEVICE inline void threadfence() { WEFT_IMPL_DEV(__threadfence()); }
WEFT_DEVICE inline char* dynamic_shared() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  extern __shared__ char weft_dynamic_shared[];
  return weft_dynamic_shared;
#else
  __builtin_unreachable();
#endif
}
#undef WEFT_IMPL_DEV
#else
namespace emu = weft::impl::emu;
inline dim3_t thread_idx() {
  const auto& d = emu::t_thread->thread_idx;
  return {d.x, d.y, d.z};
}
inline dim3_t block_idx() {
  const auto& d = emu::t_thread->block_idx;
  return {d.x, d.y, d.z};
}
inline dim3_t block_dim() {
  const auto& d = emu::t_thread->block_dim;
  return {d.x, d.y, d.z};
}
inline dim3_t grid_dim() {
  const auto& d = emu::t_thread->grid_dim;
  return {d.x, d.y, d.z};
}
inline unsigned thread_rank() { return emu::t_thread->linear; }
inline void sync_block() { emu::sync_block(); }
inline void sync_warp(lane_mask_t mask = full_mask) { emu::warp_collective(emu::WarpOp::sync, mask, 0, 0, 32); }
inline std::uint32_t shfl_word(std::uint32_t v, int lane, std::uint32_t mask, int width) {
  return emu::warp_collective(emu::WarpOp::shfl_idx, mask, v, lane, width);
}
inline std::uint32_t shfl_up_word(std::uint32_t v, unsigned d, std::uint32_t mask, int width) {
  return emu::warp_collective(emu::WarpOp::shfl_up, mask, v, static_cast<int>(d), width);
}
inline std::uint32_t shfl_down_word(std::uint32_t v, unsigned d, std::uint32_t mask, int width) {
  return emu::warp_collective(emu::WarpOp::shfl_down, mask, v, static_cast<int>(d), width);
}
inline std::uint32_t shfl_xor_word(std::uint32_t v, int m, std::uint32_t mask, int width) {
  return emu::warp_collective(emu::WarpOp::shfl_xor, mask, v, m, width);
}
inline lane_mask_t ballot(bool p, lane_mask_t mask = full_mask) {
  return emu::warp_collective(emu::WarpOp::ballot, mask, p ? 1u : 0u, 0, 32);
}
inline void threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline char* dynamic_shared() { return emu::t_thread->shared; }
#endif

/// Under emulation the functions that report accesses to the emulator inline into the kernel, so that the
/// memory model sees each call site as a GPU instruction (see <weft/emu/context.hpp>).
#if WEFT_GPU_VENDOR_INTRINSICS
#define WEFT_IMPL_GPU_SITE
#else
#define WEFT_IMPL_GPU_SITE __attribute__((always_inline))
#endif

/// Shared-memory loads and stores of Weft's own kernels: plain accesses on a GPU; checked for bounds and
/// races by the emulator.
template <class T>
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE T shared_load(const T* p) {
#if !WEFT_GPU_VENDOR_INTRINSICS
  emu::shared_access(p, sizeof(T), false);
#endif
  return *p;
}
template <class T>
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE void shared_store(T* p, const T& v) {
#if !WEFT_GPU_VENDOR_INTRINSICS
  emu::shared_access(p, sizeof(T), true);
#endif
  *p = v;
}

/// Asynchronous copies from global to shared memory (cp.async, sm_80 and later). copy_async<Bytes>(dst, src,
/// src_bytes) copies src_bytes (0 to Bytes) bytes from global src to shared dst and zero-fills dst up to Bytes;
/// Bytes is 4, 8 or 16, both addresses aligned to it (src is not read when src_bytes is 0). The copies a thread
/// issued since its last async_commit() form a group; async_wait<N>() returns once at most N of the thread's
/// committed groups are still in flight. Other threads see the data after the issuing thread's wait and a
/// sync_block(); until then nobody may touch the destination. Elsewhere (HIP, CUDA before sm_80) the copy is
/// synchronous and commit/wait do nothing; GpuEmu performs each copy as late as a GPU may (at the wait) and
/// reports any access to a destination in flight.
template <int Bytes>
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE void copy_async(void* dst, const void* src, int src_bytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "weft::gpu::copy_async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(src_bytes) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src), "n"(Bytes), "r"(src_bytes)
                 : "memory");
#elif WEFT_GPU_VENDOR_INTRINSICS
  struct alignas(Bytes) Words {
    std::uint32_t w[Bytes / 4];
  };
  if (src_bytes == Bytes) {
    *static_cast<Words*>(dst) = *static_cast<const Words*>(src);
  } else {
    Words v = {};
    for (int k = 0; k < src_bytes; ++k)
      reinterpret_cast<unsigned char*>(&v)[k] = static_cast<const unsigned char*>(src)[k];
    *static_cast<Words*>(dst) = v;
  }
#else
  emu::async_copy(dst, src, Bytes, static_cast<unsigned>(src_bytes));
#endif
}
WEFT_DEVICE inline void async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#elif !WEFT_GPU_VENDOR_INTRINSICS
  emu::async_commit();
#endif
}
template <int N>
WEFT_DEVICE inline void async_wait() {
  static_assert(N >= 0 && N < 8, "weft::gpu::async_wait<N>: N is 0 to 7");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#elif !WEFT_GPU_VENDOR_INTRINSICS
  emu::async_wait(N);
#endif
}

/// Inter-block signalling (the scan's look-back): a flag store publishes every global write of the thread made
/// before it (a device-scope fence, then a store that bypasses L1); a flag load sees the latest value, and after
/// acquire_fence() the loads of what it guards (through load_coherent, which also bypasses L1) see their writes.
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE void store_flag(unsigned* p, unsigned v) {
#if WEFT_GPU_VENDOR_INTRINSICS
  threadfence();
  *static_cast<volatile unsigned*>(p) = v;
#else
  emu::model_access(p, sizeof(unsigned));
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE unsigned load_flag(const unsigned* p) {
#if WEFT_GPU_VENDOR_INTRINSICS
  return *static_cast<const volatile unsigned*>(p);
#else
  emu::model_access(p, sizeof(unsigned));
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}
WEFT_DEVICE inline void acquire_fence() { threadfence(); }
/// A value the GPU paths may move as its bytes (shuffles, coherent loads): trivially copyable, or, as Kokkos moves a
/// reduction value whatever its copy constructor, a type with nothing to destroy that can be default-constructed
/// and copied (a wrapper with its own copy constructor, Kokkos's long_wrapper). A type with a destructor owns
/// something its bytes do not carry, and is refused.
template <class T>
inline constexpr bool movable_as_bytes_v = std::is_trivially_copyable_v<T> ||
                                           (std::is_trivially_destructible_v<T> && std::is_default_constructible_v<T> &&
                                            std::is_copy_constructible_v<T>);

template <class T>
WEFT_DEVICE inline WEFT_IMPL_GPU_SITE T load_coherent(const T* p) {
  static_assert(movable_as_bytes_v<T>,
                "weft::gpu::load_coherent needs a type movable as its bytes (trivially copyable, or trivially "
                "destructible with a copy constructor)");
#if WEFT_GPU_VENDOR_INTRINSICS
  T r;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    std::uint32_t w[sizeof(T) / 4];
    for (std::size_t k = 0; k < sizeof(T) / 4; ++k)
      w[k] = static_cast<const volatile std::uint32_t*>(static_cast<const void*>(p))[k];
    __builtin_memcpy(static_cast<void*>(&r), w, sizeof(T));
  } else {
    unsigned char b[sizeof(T)];
    for (std::size_t k = 0; k < sizeof(T); ++k)
      b[k] = static_cast<const volatile unsigned char*>(static_cast<const void*>(p))[k];
    __builtin_memcpy(static_cast<void*>(&r), b, sizeof(T));
  }
  return r;
#else
  emu::model_access(p, sizeof(T));
  return *p;  // ordered by the acquiring flag load
#endif
}

WEFT_DEVICE inline unsigned lane_id() { return thread_rank() % warp_size; }
WEFT_DEVICE inline unsigned warp_id() { return thread_rank() / warp_size; }
WEFT_DEVICE inline bool any(bool p, lane_mask_t mask = full_mask) { return ballot(p, mask) != 0; }
WEFT_DEVICE inline bool all(bool p, lane_mask_t mask = full_mask) { return ballot(p, mask) == (ballot(true, mask)); }

/// Shuffles of any value movable as its bytes, one 32-bit word at a time (as CUDA does for 64-bit types).
/// Under emulation a value of several words moves in one rendezvous (emu::warp_shuffle_words: each word from the
/// same lane, as the word-by-word loop moves it), so that a lane is suspended once per shuffle, not once per word.
#if WEFT_GPU_VENDOR_INTRINSICS
#define WEFT_IMPL_GPU_SHFL_WORDS(WORD, OP, words, in, out, a, mask, width) \
  for (int k = 0; k < words; ++k) out[k] = WORD(in[k], a, mask, width)
#else
#define WEFT_IMPL_GPU_SHFL_WORDS(WORD, OP, words, in, out, a, mask, width) \
  if constexpr (words == 1)                                                \
    out[0] = WORD(in[0], a, mask, width);                                  \
  else                                                                     \
    emu::warp_shuffle_words(emu::WarpOp::OP, mask, in, out, words, static_cast<int>(a), width)
#endif
#define WEFT_IMPL_GPU_SHFL(NAME, WORD, OP, ARG_T)                                                       \
  template <class T>                                                                                    \
  WEFT_DEVICE inline T NAME(const T& v, ARG_T a, lane_mask_t mask = full_mask, int width = warp_size) { \
    static_assert(movable_as_bytes_v<T>, "weft::gpu shuffles need a type movable as its bytes");        \
    constexpr int words = (sizeof(T) + 3) / 4;                                                          \
    std::uint32_t in[words] = {};                                                                       \
    std::uint32_t out[words];                                                                           \
    __builtin_memcpy(in, static_cast<const void*>(&v), sizeof(T));                                      \
    WEFT_IMPL_GPU_SHFL_WORDS(WORD, OP, words, in, out, a, mask, width);                                 \
    T r;                                                                                                \
    __builtin_memcpy(static_cast<void*>(&r), out, sizeof(T));                                           \
    return r;                                                                                           \
  }
WEFT_IMPL_GPU_SHFL(shfl, shfl_word, shfl_idx, int)
WEFT_IMPL_GPU_SHFL(shfl_up, shfl_up_word, shfl_up, unsigned)
WEFT_IMPL_GPU_SHFL(shfl_down, shfl_down_word, shfl_down, unsigned)
WEFT_IMPL_GPU_SHFL(shfl_xor, shfl_xor_word, shfl_xor, int)
#undef WEFT_IMPL_GPU_SHFL
#undef WEFT_IMPL_GPU_SHFL_WORDS

}  // namespace weft::gpu
