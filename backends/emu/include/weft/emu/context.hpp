// The state the SIMT emulator keeps for the emulated thread that is running (one per OS thread at a time).
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::impl::emu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct BlockState;

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
std::uint32_t warp_collective(WarpOp op, std::uint32_t mask, std::uint32_t value, int arg, int width);
[[noreturn]] void report(const char* what);

using KernelBody = void (*)(const void*);
/// Runs body(arg) on every thread of every block; returns when all have finished.
void launch(const char* label, Dim3 grid, Dim3 block, std::size_t shared_bytes, KernelBody body, const void* arg);

/// Block order for the following launches (default: WEFT_EMU_BLOCK_ORDER, else index order).
void set_block_order(bool shuffle, unsigned seed);

/// Emulated device properties.
inline constexpr int warp_size = 32;
inline constexpr int max_threads_per_block = 1024;
/// As sm_90's opt-in maximum (227 KiB), so that kernels sized for Hopper run here.
inline constexpr std::size_t max_shared_per_block = 227 * 1024;
int multiprocessor_count();

}  // namespace weft::impl::emu
