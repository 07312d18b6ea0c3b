// The state the SIMT emulator keeps for the emulated thread that is running (one per OS thread at a time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::impl::emu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct BlockState;
struct Touch;

/// Where the running emulated thread is: its indices and its block.
struct ThreadContext {
  Dim3 thread_idx;
  Dim3 block_idx;
  Dim3 block_dim;
  Dim3 grid_dim;
  unsigned linear;  // thread index within the block, x fastest
  BlockState* block;
  char* shared;  // the block's dynamic shared memory
  std::size_t shared_bytes;
  bool model;    // the memory model records this launch's accesses (WEFT_EMU_PROFILE=memory)
  Touch* touch;  // the stream-order checker records which bytes of its Views the launch touches (null: off)
};

/// Set while an emulated thread runs; nullptr in host code.
inline thread_local ThreadContext* t_thread = nullptr;

enum class WarpOp : int { sync, shfl_idx, shfl_up, shfl_down, shfl_xor, ballot };

void sync_block();
/// Checks one shared-memory access of the running thread: bounds, and races with other threads since the
/// last barrier (a write, then another thread's read or write of the same word, with no barrier between;
/// lanes of one warp are also ordered by a warp collective they all took part in).
void shared_access(const void* p, std::size_t bytes, bool write);
/// Asynchronous global-to-shared copies (gpu::copy_async, cp.async): a copy is recorded when issued, its
/// destination bytes marked in flight (any access to them before the copy lands is reported as a race), and
/// performed, as late as a GPU may, when the issuing thread's async_wait(n) leaves fewer than n + 1 of its
/// committed groups pending; a thread that exits with copies in flight is reported.
void async_copy(void* dst, const void* src, unsigned bytes, unsigned src_bytes);
void async_commit();
void async_wait(unsigned pending_groups);
/// The memory model (WEFT_EMU_PROFILE=memory, weft::gpuemu::set_memory_model): records one access of the
/// running thread, shared memory when p lies in its block's shared memory, global memory otherwise. Views of
/// the GPU spaces and of team scratch, gpu::shared_load/store, the asynchronous copies and the coherent loads
/// call it through model_access (see <weft/emu/memory_model.hpp> for what it counts). The callers inline into the
/// kernel, so that the return address of note_access (and of shared_access) is the kernel's call site: accesses
/// from one site form the warp's requests, as one instruction of a GPU's warp does.
void note_access(const void* p, std::size_t bytes);
void touch_bytes(Touch* t, const void* p, std::size_t bytes);
/// With the memory model off (the usual case), straight to the checker's marks: one call per access, not two.
__attribute__((always_inline)) inline void model_access(const void* p, std::size_t bytes) {
  if (ThreadContext* const t = t_thread) {
    if (t->model) [[unlikely]]
      note_access(p, bytes);
    else if (t->touch)
      touch_bytes(t->touch, p, bytes);
  }
}
/// The stream-order checker (backends/emu/src/streams.cpp): touch_bytes (declared above): the running kernel
/// touched [p, p + bytes) of the Views it captured (model_access calls it for every element access through a
/// View); touch_view: it may touch every byte of the View [p, p + bytes) lies in (View::data(): a raw pointer
/// reaches elements unseen).
void touch_view(Touch* t, const void* p, std::size_t bytes);
/// The Touch of the kernel the calling thread is about to run (launch gives it to every emulated thread).
Touch* launching_touch();
__attribute__((always_inline)) inline void data_access(const void* p, std::size_t bytes) {
  if (t_thread && t_thread->touch) touch_view(t_thread->touch, p, bytes);
}
std::uint32_t warp_collective(WarpOp op, std::uint32_t mask, std::uint32_t value, int arg, int width);
/// A shuffle of a value of `words` 32-bit words in one rendezvous of the warp's lanes: word k of each lane's `out`
/// is what the one-word shuffle of word k of `in` would give it (the same source lane for every word, as the
/// vendor paths' word-by-word shuffles with the same arguments). One suspension per lane instead of `words`.
void warp_shuffle_words(WarpOp op, std::uint32_t mask, const std::uint32_t* in, std::uint32_t* out, int words, int arg,
                        int width);
[[noreturn]] void report(const char* what);

using KernelBody = void (*)(const void*);
/// A View a kernel captured, by its address range: the memory model counts global requests per View.
struct ModelView {
  const void* begin;
  std::size_t bytes;
  std::string label;
};
/// Runs body(arg) on every thread of every block; returns when all have finished. `views` (may be null) names
/// the memory model's global requests by the View they fall in.
void launch(const char* label, Dim3 grid, Dim3 block, std::size_t shared_bytes, KernelBody body, const void* arg,
            const std::vector<ModelView>* views = nullptr);
/// Whether the memory model records the next launches.
bool memory_model_on();

/// Block order for the following launches (default: WEFT_EMU_BLOCK_ORDER, else index order).
void set_block_order(bool shuffle, unsigned seed);

/// Emulated device properties.
inline constexpr int warp_size = 32;
inline constexpr int max_threads_per_block = 1024;
/// As sm_90's opt-in maximum (227 KiB), so that kernels sized for Hopper run here.
inline constexpr std::size_t max_shared_per_block = 227 * 1024;
int multiprocessor_count();
/// Devices the emulator presents (WEFT_EMU_DEVICES, default 1); all are the one emulated machine.
int device_count();

}  // namespace weft::impl::emu
