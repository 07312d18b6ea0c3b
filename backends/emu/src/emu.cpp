// The SIMT emulator: runs a kernel's blocks on CPU threads, each block's threads as cooperatively
// scheduled fibers (Weft's own switch on x86-64, Boost.Context elsewhere), with real per-block shared memory, block
// barriers and warp collectives with CUDA's semantics; reports divergent barriers, shuffles outside their mask and
// deadlocks with the kernel label, block and thread.
#include <omp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <weft/emu/context.hpp>
#include <weft/error.hpp>

#include <weft/impl/settings.hpp>
#include <weft/spaces.hpp>
#include "memory_model.hpp"

// How an emulated thread's fiber is switched. On x86-64 ELF, Weft's own switch: it saves and restores the six
// callee-saved registers and the stack pointer, nothing else (no kernel changes the rounding mode, and CUDA
// device code cannot). It lets a suspending thread continue the next thread of the round directly (yield), one
// switch where Boost.Context's resume goes through the scheduler, two; on its own it measured as fast as Boost's.
// Elsewhere (or with WEFT_EMU_BOOST_FIBERS defined), Boost.Context, through the scheduler.
#if defined(__x86_64__) && defined(__ELF__) && !defined(WEFT_EMU_BOOST_FIBERS)
#define WEFT_EMU_OWN_SWITCH 1
extern "C" {
/// Saves the callee-saved registers on the running stack, stores its stack pointer in *save, and continues the
/// context whose stack pointer is `to` (one weft_emu_swap suspended, or a frame run_block made). It leaves by
/// an indirect jump, not `ret`: a return to another context's address would miss the CPU's return-address
/// predictor and leave it out of step for the returns that follow.
void weft_emu_swap(void** save, void* to);
/// Where a new fiber starts: calls r13(r12), which never returns.
void weft_emu_fiber_start();
}
asm(R"(
  .text
  .p2align 4
  .globl weft_emu_swap
  .hidden weft_emu_swap
  .type weft_emu_swap, @function
weft_emu_swap:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  popq %rcx
  jmpq *%rcx
  .cfi_endproc
  .size weft_emu_swap, .-weft_emu_swap

  .p2align 4
  .globl weft_emu_fiber_start
  .hidden weft_emu_fiber_start
  .type weft_emu_fiber_start, @function
weft_emu_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size weft_emu_fiber_start, .-weft_emu_fiber_start
)");
#else
#define WEFT_EMU_OWN_SWITCH 0
#endif

namespace weft::impl::emu {
namespace ctx = boost::context;

namespace {

enum class State { runnable, at_barrier, at_warp, done };

struct Thread {
#if WEFT_EMU_OWN_SWITCH
  void* sp = nullptr;  // the fiber's stack pointer while it is suspended
#else
  ctx::fiber fiber;
  ctx::fiber scheduler;  // where a yield returns to
#endif
  ThreadContext context;
  State state = State::runnable;
  WarpOp op = WarpOp::sync;
  std::uint32_t mask = 0;
  std::uint32_t value = 0;
  int arg = 0;
  int width = 32;
  std::uint32_t result = 0;
  int words = 1;  // a multi-word shuffle (warp_shuffle_words): its words in `in` and `out`, not value and result
  const std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;
  struct AsyncCopy {
    char* dst;
    const char* src;
    unsigned bytes, src_bytes;
    std::uint32_t group;
  };
  std::vector<AsyncCopy> copies;  // issued, not yet performed (gpu::copy_async)
  std::uint32_t committed = 0;    // groups committed so far; a new copy joins group `committed`
  // The memory model: this thread's global and shared accesses since its warp's last synchronization point,
  // and how often it issued from each call site since then.
  std::vector<model::Acc> global_accesses, shared_accesses;
  std::vector<std::pair<const void*, std::uint32_t>> site_counts;
};

}  // namespace

/// Who last wrote a byte of shared memory, and when (block-barrier epoch, the writer's warp's
/// collective epoch).
struct Shadow {
  std::uint32_t epoch = 0;
  std::uint16_t writer = 0;
  std::uint16_t warp_epoch = 0;
};

struct BlockState {
  const char* label;
  std::vector<Thread> threads;
  std::vector<char> shared;
  std::vector<Shadow> shadow;
  std::vector<std::uint8_t> in_flight;  // bytes an asynchronous copy will write
  std::uint32_t epoch = 1;
  std::vector<std::uint16_t> warp_epoch;
  // Kept as the threads change state, so that the scheduler need not scan them after every round: threads
  // that exited, that wait at the block barrier, and per warp, lanes that wait in a warp collective.
  int done = 0, at_barrier = 0;
  std::vector<std::uint16_t> warp_waiting;
  model::Counts* counts = nullptr;  // the memory model's figures for this block (null: the model is off)
  const model::Views* views = nullptr;
};

namespace {

thread_local Thread* t_fiber = nullptr;
thread_local BlockState* t_block = nullptr;

[[noreturn]] void fail(BlockState* b, const Thread* t, const std::string& what) {
  std::string msg = "GpuEmu: kernel \"" + std::string(b ? b->label : "?") + "\"";
  if (t) {
    const auto& c = t->context;
    msg += " block (" + std::to_string(c.block_idx.x) + "," + std::to_string(c.block_idx.y) + "," +
           std::to_string(c.block_idx.z) + ") thread (" + std::to_string(c.thread_idx.x) + "," +
           std::to_string(c.thread_idx.y) + "," + std::to_string(c.thread_idx.z) + ")";
  }
  msg += ": " + what;
  abort_with(msg.c_str());
}

/// Where the scheduler of this worker's block waits while a fiber runs (Weft's own switch).
thread_local void* t_scheduler_sp = nullptr;

void yield() {
  Thread* self = t_fiber;
#if WEFT_EMU_OWN_SWITCH
  // Straight to the next thread of this round that can run (one switch per thread per round, not two through
  // the scheduler); the round's last thread goes back to the scheduler. The threads' states change only in the
  // scheduler, between rounds, or by the thread itself before it yields, so this visits the threads the
  // scheduler's loop would, in the same order.
  BlockState& b = *t_block;
  for (Thread *n = self + 1, *end = b.threads.data() + b.threads.size(); n < end; ++n)
    if (n->state == State::runnable) {
      t_fiber = n;
      t_thread = &n->context;
      weft_emu_swap(&self->sp, n->sp);
      return;  // resumed: whoever resumed this thread set t_fiber and t_thread
    }
  weft_emu_swap(&self->sp, t_scheduler_sp);
#else
  self->scheduler = std::move(self->scheduler).resume();
#endif
  // Resumed by the scheduler, which has set the thread context again.
}

/// The memory model: at a synchronization point of a warp, the accesses its lanes issued since the last one from
/// the same call site, the k-th of each lane with the k-th of the others, form one warp-wide request (as the
/// lanes of a warp issue one instruction together; lanes that took another branch issue it apart).
thread_local std::vector<model::Acc> t_warp_accesses;
void flush_warp(BlockState& b, int warp_begin, int warp_end) {
  if (!b.counts) return;
  std::vector<model::Acc>& all = t_warp_accesses;
  for (auto member : {&Thread::global_accesses, &Thread::shared_accesses}) {
    all.clear();
    for (int i = warp_begin; i < warp_end; ++i) {
      auto& mine = b.threads[i].*member;
      all.insert(all.end(), mine.begin(), mine.end());
      mine.clear();
    }
    if (all.empty()) continue;
    std::stable_sort(all.begin(), all.end(), [](const model::Acc& x, const model::Acc& y) {
      return x.site != y.site ? std::less<const void*>()(x.site, y.site) : x.seq < y.seq;
    });
    for (std::size_t g = 0; g < all.size();) {
      std::size_t e = g + 1;
      while (e < all.size() && all[e].site == all[g].site && all[e].seq == all[g].seq) ++e;
      const int n = static_cast<int>(e - g);
      if (member == &Thread::global_accesses)
        model::account_global(*b.counts, *b.views, &all[g], n);
      else
        model::account_shared(*b.counts, &all[g], n);
      g = e;
    }
  }
  for (int i = warp_begin; i < warp_end; ++i) b.threads[i].site_counts.clear();
}
void flush_block(BlockState& b) {
  const int n = static_cast<int>(b.threads.size());
  for (int w = 0; w < n; w += 32) flush_warp(b, w, std::min(n, w + 32));
}

/// The lanes of a mask, lowest first (the loops below visit only the lanes a collective names: a one-lane
/// collective, as a team's per-thread segment sync at vector length 1, costs one step, not 32).
template <class F>
inline void for_lanes(std::uint32_t mask, F&& f) {
  for (std::uint32_t m = mask; m; m &= m - 1) f(__builtin_ctz(m));
}

/// Lane l's part of a shuffle whose lanes (mask) have all arrived: its result, from the lane it reads.
void shuffle_lane(BlockState& b, int warp_begin, int l, std::uint32_t mask) {
  Thread& me = b.threads[warp_begin + l];
  const int w = me.width;
  if (w <= 0 || w > 32 || (w & (w - 1)))
    fail(&b, &me, "shuffle width " + std::to_string(w) + " is not a power of two up to 32");
  const int base = l & ~(w - 1);
  int src = l;
  switch (me.op) {
    case WarpOp::shfl_idx:
      src = base + (me.arg & (w - 1));
      break;
    case WarpOp::shfl_up:
      src = l - me.arg >= base ? l - me.arg : l;
      break;
    case WarpOp::shfl_down:
      src = l + me.arg < base + w ? l + me.arg : l;
      break;
    case WarpOp::shfl_xor:
      src = (l ^ me.arg) < base + w && (l ^ me.arg) >= base ? (l ^ me.arg) : l;
      break;
    default:
      break;
  }
  if (!(mask & (1u << src)))
    fail(
        &b, &me, "shuffle reads lane " + std::to_string(src) + ", outside its mask 0x" + [&] {
          char h[16];
          std::snprintf(h, sizeof h, "%08x", mask);
          return std::string(h);
        }() + " (the value would be undefined on a GPU)");
  const Thread& from = b.threads[warp_begin + src];
  if (me.words == 1)
    me.result = from.value;
  else
    std::memcpy(me.out, from.in, sizeof(std::uint32_t) * static_cast<std::size_t>(me.words));
}

/// The results of a collective whose lanes (mask) have all arrived: a ballot's bits on each lane, or each lane's
/// shuffled value. The scheduler's completion and a one-lane collective's completion in place share it.
void complete_results(BlockState& b, int warp_begin, std::uint32_t mask, WarpOp op) {
  if (op == WarpOp::ballot) {
    std::uint32_t bits = 0;
    for_lanes(mask, [&](int k) {
      if (b.threads[warp_begin + k].value) bits |= 1u << k;
    });
    for_lanes(mask, [&](int l) { b.threads[warp_begin + l].result = bits; });
  } else if (op != WarpOp::sync) {
    for_lanes(mask, [&](int l) { shuffle_lane(b, warp_begin, l, mask); });
  }
}

/// Completes the warp collectives that every lane of their mask has reached.
bool complete_warp_ops(BlockState& b, int warp_begin, int warp_end) {
  bool released = false;
  for (int i = warp_begin; i < warp_end; ++i) {
    Thread& t = b.threads[i];
    if (t.state != State::at_warp) continue;
    const std::uint32_t mask = t.mask;
    const int lane = i - warp_begin;
    if (!(mask & (1u << lane))) fail(&b, &t, "warp collective with a mask that excludes the calling lane");
    bool ready = true;
    for (std::uint32_t m = mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int j = warp_begin + l;
      if (j >= warp_end)
        fail(&b, &t, "warp collective mask names lane " + std::to_string(l) + ", which does not exist in this block");
      const Thread& o = b.threads[j];
      if (o.state == State::done)
        fail(&b, &t, "warp collective mask names lane " + std::to_string(l) + ", which has exited");
      if (o.state != State::at_warp) {
        ready = false;
        break;
      }
      if (o.mask != mask || o.op != t.op)
        fail(&b, &t, "lanes of one warp reached different collectives (or with different masks) together");
      if (o.words != t.words) fail(&b, &t, "lanes of one warp shuffled values of different sizes together");
    }
    if (!ready) continue;
    complete_results(b, warp_begin, mask, t.op);
    std::uint16_t lanes = 0;
    for_lanes(mask, [&](int l) {
      b.threads[warp_begin + l].state = State::runnable;
      ++lanes;
    });
    b.warp_waiting[warp_begin / 32] -= lanes;
    ++b.warp_epoch[warp_begin / 32];
    flush_warp(b, warp_begin, warp_end);
    released = true;
  }
  return released;
}

/// The fibers' stacks of one worker thread, kept from launch to launch (a block's thread i always runs on slot
/// i): one mapping of equal slots, each with a guard page below it, so that a kernel overflowing its stack stops
/// on a fault instead of writing over its neighbour's. Slots are 17 pages apart and each top is moved down by a
/// further 256 bytes per slot (mod 16), so that neighbouring fibers' top bytes do not share cache sets as slots a
/// power of two apart would (measured: no change on a team kernel; harmless, so kept).
class StackArena {
 public:
  static constexpr std::size_t page = 4096;
  static constexpr std::size_t stride = 17 * page;             // one guard page + 64 KiB
  static constexpr std::size_t usable = 64 * 1024 - 16 * 256;  // below the lowest top

  StackArena() = default;
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;
  ~StackArena() {
    if (base_) munmap(base_, slots_ * stride);
  }
  /// Room for n fibers (called between blocks, when none is alive).
  void reserve(std::size_t n) {
    if (n <= slots_) return;
    if (base_) munmap(base_, slots_ * stride);
    base_ = nullptr;
    slots_ = 0;
    void* p = mmap(nullptr, n * stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw Error("GpuEmu: cannot map " + std::to_string(n * stride) + " bytes for fiber stacks");
    base_ = static_cast<char*>(p);
    slots_ = n;
    for (std::size_t i = 0; i < n; ++i) mprotect(base_ + i * stride, page, PROT_NONE);
  }
  /// The top of slot i (16-byte aligned; the stack grows down from it).
  char* top(std::size_t i) const { return base_ + (i + 1) * stride - 256 * (i % 16); }
  /// Whether p lies in one of the slots' guard pages.
  bool guards(const void* p) const {
    const char* c = static_cast<const char*>(p);
    return base_ && c >= base_ && c < base_ + slots_ * stride && std::size_t(c - base_) % stride < page;
  }

 private:
  char* base_ = nullptr;
  std::size_t slots_ = 0;
};

thread_local StackArena* t_arena = nullptr;
struct sigaction g_previous_segv;

/// A kernel that overflows its emulated thread's stack faults on the slot's guard page: stop naming the kernel,
/// block and thread, as for the emulator's other device faults, instead of a bare segmentation fault. A fault
/// elsewhere goes to the handler that was there before (the default: the usual crash).
void on_segv(int sig, siginfo_t* info, void* uc) {
  if (t_arena && t_arena->guards(info->si_addr) && t_block && t_fiber) {
    const auto& c = t_fiber->context;
    char msg[512];
    const int n =
        std::snprintf(msg, sizeof msg,
                      "weft: GpuEmu: kernel \"%s\" block (%u,%u,%u) thread (%u,%u,%u): the thread overflowed its "
                      "stack (%zu KiB per emulated thread): deep recursion or large local arrays in "
                      "device code\n",
                      t_block->label, c.block_idx.x, c.block_idx.y, c.block_idx.z, c.thread_idx.x, c.thread_idx.y,
                      c.thread_idx.z, StackArena::usable / 1024);
    if (n > 0) (void)!write(2, msg, std::min<std::size_t>(std::size_t(n), sizeof msg - 1));
    std::abort();
  }
  if (g_previous_segv.sa_flags & SA_SIGINFO) {
    if (g_previous_segv.sa_sigaction) return g_previous_segv.sa_sigaction(sig, info, uc);
  } else if (g_previous_segv.sa_handler != SIG_DFL && g_previous_segv.sa_handler != SIG_IGN) {
    return g_previous_segv.sa_handler(sig);
  }
  sigaction(SIGSEGV, &g_previous_segv, nullptr);  // the fault happens again on return, under the default
}

StackArena& worker_stacks() {
  static thread_local StackArena a;
  if (!t_arena) {
    // The handler runs on a stack of its own: the faulting one is exhausted.
    static std::once_flag installed;
    std::call_once(installed, [] {
      struct sigaction sa {};
      sa.sa_sigaction = &on_segv;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(SIGSEGV, &sa, &g_previous_segv);
    });
    stack_t alt{};
    if (sigaltstack(nullptr, &alt) == 0 && (alt.ss_flags & SS_DISABLE)) {  // keep one the program set
      alt = stack_t{};
      alt.ss_size = 64 * 1024;
      alt.ss_sp = mmap(nullptr, alt.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (alt.ss_sp != MAP_FAILED) sigaltstack(&alt, nullptr);  // kept for the thread's life
    }
    t_arena = &a;
  }
  return a;
}

/// A fiber's life up to its end: the kernel's body, then the checks a GPU thread's exit implies.
void fiber_body(Thread* tp, KernelBody body, const void* arg) {
  try {
    body(arg);
  } catch (const std::exception& e) {  // a GPU kernel cannot throw: stop, naming the kernel, block and thread
    fail(t_block, tp, std::string("the kernel threw an exception, which device code cannot: ") + e.what());
  } catch (...) {
    fail(t_block, tp, "the kernel threw an exception (not a std::exception), which device code cannot");
  }
  if (!tp->copies.empty())
    fail(t_block, tp,
         "the thread exits with " + std::to_string(tp->copies.size()) +
             " asynchronous copies (gpu::copy_async) in flight: wait for them (gpu::async_wait) first");
  tp->state = State::done;
  ++t_block->done;
}

#if WEFT_EMU_OWN_SWITCH
struct FiberLaunch {
  KernelBody body;
  const void* arg;
};
thread_local FiberLaunch t_launch;
/// Where weft_emu_fiber_start calls a new fiber: its last switch goes back to the scheduler, which never
/// resumes it (its slot is the next block's thread's).
[[noreturn]] void fiber_entry(Thread* tp) {
  fiber_body(tp, t_launch.body, t_launch.arg);
  yield();
  __builtin_unreachable();
}
#else
/// Boost.Context's stack allocator interface over slot i of a worker's arena.
struct ArenaStacks {
  StackArena* arena;
  std::size_t slot;
  ctx::stack_context allocate() {
    ctx::stack_context sc;
    sc.sp = arena->top(slot);
    sc.size = StackArena::usable;
    return sc;
  }
  void deallocate(ctx::stack_context&) noexcept {}
};
#endif

void run_block(BlockState& b, KernelBody body, const void* arg) {
  StackArena& arena = worker_stacks();
  arena.reserve(b.threads.size());
  t_block = &b;
#if WEFT_EMU_OWN_SWITCH
  t_launch = {body, arg};
#endif
  for (std::size_t i = 0; i < b.threads.size(); ++i) {
    Thread& t = b.threads[i];
    Thread* tp = &t;
    t.state = State::runnable;
    t.copies.clear();
    t.committed = 0;
    t.global_accesses.clear();
    t.shared_accesses.clear();
    t.site_counts.clear();
#if WEFT_EMU_OWN_SWITCH
    // The frame weft_emu_swap pops: r15, r14, r13 (the entry), r12 (its argument), rbx, rbp, then the return
    // address; placed so that the entry's call finds the stack 16-byte aligned, as the ABI wants.
    auto** frame = reinterpret_cast<void**>(arena.top(i) - 72);
    frame[0] = nullptr;
    frame[1] = nullptr;
    frame[2] = reinterpret_cast<void*>(&fiber_entry);
    frame[3] = tp;
    frame[4] = nullptr;
    frame[5] = nullptr;
    frame[6] = reinterpret_cast<void*>(&weft_emu_fiber_start);
    t.sp = frame;
#else
    t.fiber = ctx::fiber(std::allocator_arg, ArenaStacks{&arena, i}, [tp, body, arg](ctx::fiber&& s) {
      tp->scheduler = std::move(s);
      fiber_body(tp, body, arg);
      return std::move(tp->scheduler);
    });
#endif
  }
  const int n = static_cast<int>(b.threads.size());
  b.done = 0;
  b.at_barrier = 0;
  b.warp_waiting.assign((b.threads.size() + 31) / 32, 0);
  while (true) {
    bool progressed = false;
    for (auto& t : b.threads) {
      if (t.state != State::runnable) continue;
      t_fiber = &t;
      t_thread = &t.context;
      progressed = true;
#if WEFT_EMU_OWN_SWITCH
      weft_emu_swap(&t_scheduler_sp, t.sp);  // the round's threads hand on to each other (yield)
      break;
#else
      t.fiber = std::move(t.fiber).resume();
#endif
    }
    t_thread = nullptr;
    t_fiber = nullptr;
    if (b.done == n) {
      flush_block(b);
      break;
    }
    bool released = false;
    for (int w = 0; w < n; w += 32)
      if (b.warp_waiting[w / 32] > 0) released |= complete_warp_ops(b, w, std::min(n, w + 32));
    if (b.at_barrier > 0 && b.at_barrier + b.done == n) {
      if (b.done > 0) {
        const Thread* exited = nullptr;
        const Thread* waiting = nullptr;
        for (const auto& t : b.threads) (t.state == State::done ? exited : waiting) = &t;
        fail(&b, waiting,
             "sync_block() (__syncthreads) not reached by every thread of the block: thread (" +
                 std::to_string(exited->context.thread_idx.x) + "," + std::to_string(exited->context.thread_idx.y) +
                 "," + std::to_string(exited->context.thread_idx.z) + ") exited without reaching it");
      }
      for (auto& t : b.threads) t.state = State::runnable;
      b.at_barrier = 0;
      ++b.epoch;
      flush_block(b);
      released = true;
    }
    if (!progressed && !released) {
      const Thread* stuck = nullptr;
      for (const auto& t : b.threads)
        if (t.state == State::at_barrier) stuck = &t;
      for (const auto& t : b.threads)
        if (t.state == State::at_warp) stuck = &t;
      fail(&b, stuck,
           "deadlock: threads wait at a block barrier while others wait in a warp collective (divergent "
           "sync_block or a warp collective not reached by every lane of its mask)");
    }
  }
  t_block = nullptr;
}

struct Settings {
  bool shuffle = false;
  unsigned seed = 0;
};

Settings read_settings() {
  Settings s;
  const std::string v = env_text("WEFT_EMU_BLOCK_ORDER");  // checked: index or shuffle:SEED
  if (v.rfind("shuffle:", 0) == 0) {
    s.shuffle = true;
    s.seed = static_cast<unsigned>(std::strtoul(v.c_str() + 8, nullptr, 10));
  }
  return s;
}

}  // namespace

void sync_block() {
  if (!t_fiber) report("sync_block() called outside a kernel");
  t_fiber->state = State::at_barrier;
  ++t_block->at_barrier;
  yield();
}

namespace {
/// The calling thread (whose operands the caller has set) waits at a warp collective until every lane of its mask
/// has arrived and the scheduler has completed it.
Thread* current_for_warp() {
  if (!t_fiber) report("a warp collective was called outside a kernel");
  return t_fiber;
}
void wait_at_warp(Thread* self, WarpOp op, std::uint32_t mask, int arg, int width, int words) {
  self->op = op;
  self->mask = mask;
  self->arg = arg;
  self->width = width;
  self->words = words;
  const int lane = self->context.linear % 32;
  if (mask == 1u << lane) {
    // The calling lane alone (a team thread's vector segment at vector length 1): nothing to wait for, and on a
    // GPU it orders nothing with the other lanes, so it completes here, without a switch, and leaves the warp's
    // epoch (which orders shared-memory accesses between lanes that took part together) and its accesses as
    // they are.
    complete_results(*t_block, self->context.linear - lane, mask, op);
    return;
  }
  self->state = State::at_warp;
  ++t_block->warp_waiting[self->context.linear / 32];
  yield();
}
}  // namespace

std::uint32_t warp_collective(WarpOp op, std::uint32_t mask, std::uint32_t value, int arg, int width) {
  Thread* self = current_for_warp();
  self->value = value;
  wait_at_warp(self, op, mask, arg, width, 1);
  return self->result;
}

void warp_shuffle_words(WarpOp op, std::uint32_t mask, const std::uint32_t* in, std::uint32_t* out, int words, int arg,
                        int width) {
  Thread* self = current_for_warp();
  self->in = in;  // read by the other lanes at the rendezvous, while this one waits: its buffers stay alive
  self->out = out;
  wait_at_warp(self, op, mask, arg, width, words);
}

void report(const char* what) { fail(t_block, t_fiber, what); }

namespace {
void check_shared(const void* p, std::size_t bytes, bool write) {
  Thread* self = t_fiber;
  if (!self) report("a shared-memory access outside a kernel");
  BlockState& b = *t_block;
  const char* base = b.shared.data();
  const std::size_t size = self->context.shared_bytes;
  const char* c = static_cast<const char*>(p);
  if (c < base || c + bytes > base + size) {
    char msg[200];
    std::snprintf(msg, sizeof msg, "shared memory %s out of bounds: %zu bytes at offset %td, the block has %zu bytes",
                  write ? "write" : "read", bytes, c - base, size);
    fail(&b, self, msg);
  }
  const std::size_t first = static_cast<std::size_t>(c - base), last = first + bytes;
  const auto me = static_cast<std::uint16_t>(self->context.linear);
  const std::uint16_t my_warp_epoch = b.warp_epoch[me / 32];
  for (std::size_t w = first; w < last; ++w) {
    if (b.in_flight[w]) [[unlikely]] {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "shared memory race: %s of offset %zu while an asynchronous copy (gpu::copy_async) to it is in "
                    "flight (its thread must async_wait, then sync_block)",
                    write ? "a write" : "a read", w);
      fail(&b, self, msg);
    }
    Shadow& sh = b.shadow[w];
    if (sh.epoch == b.epoch && sh.writer != me) {
      const bool warp_ordered = sh.writer / 32 == me / 32 && sh.warp_epoch != my_warp_epoch;
      if (!warp_ordered) {
        const Thread& o = b.threads[sh.writer];
        char msg[300];
        std::snprintf(msg, sizeof msg,
                      "shared memory race: %s of offset %zu after thread (%u,%u,%u) wrote it with no barrier "
                      "(sync_block) between",
                      write ? "a write" : "a read", w, o.context.thread_idx.x, o.context.thread_idx.y,
                      o.context.thread_idx.z);
        fail(&b, self, msg);
      }
    }
    if (write) sh = Shadow{b.epoch, me, my_warp_epoch};
  }
}
}  // namespace

namespace {
/// Records one access of the running thread for the memory model.
void record(Thread* self, const void* p, std::size_t bytes, const void* site, bool shared) {
  std::uint32_t seq = 0;
  bool found = false;
  for (auto it = self->site_counts.rbegin(); it != self->site_counts.rend(); ++it)
    if (it->first == site) {
      seq = it->second++;
      found = true;
      break;
    }
  if (!found) self->site_counts.emplace_back(site, 1u);
  const model::Acc a{reinterpret_cast<std::uintptr_t>(p), static_cast<std::uint32_t>(bytes), seq, site};
  (shared ? self->shared_accesses : self->global_accesses).push_back(a);
}
bool in_shared(const Thread* self, const void* p) {
  const char* c = static_cast<const char*>(p);
  return c >= self->context.shared && c < self->context.shared + self->context.shared_bytes;
}
}  // namespace

// Out of line, so that the return address names the kernel's call site (the callers inline into it).
__attribute__((noinline)) void shared_access(const void* p, std::size_t bytes, bool write) {
  check_shared(p, bytes, write);
  if (t_fiber->context.model) [[unlikely]]
    record(t_fiber, p, bytes, __builtin_return_address(0), true);
}

__attribute__((noinline)) void note_access(const void* p, std::size_t bytes) {
  Thread* self = t_fiber;
  if (!self) return;
  if (self->context.touch) touch_bytes(self->context.touch, p, bytes);
  if (self->context.model) record(self, p, bytes, __builtin_return_address(0), in_shared(self, p));
}

__attribute__((noinline)) void async_copy(void* dst, const void* src, unsigned bytes, unsigned src_bytes) {
  Thread* self = t_fiber;
  if (!self) report("gpu::copy_async called outside a kernel");
  BlockState& b = *t_block;
  char* d = static_cast<char*>(dst);
  if (src_bytes > bytes) report("gpu::copy_async: more source bytes than the copy's size");
  if (reinterpret_cast<std::uintptr_t>(d) % bytes != 0 ||
      (src_bytes > 0 && reinterpret_cast<std::uintptr_t>(src) % bytes != 0))
    report("gpu::copy_async: the shared or global address is not aligned to the copy's size");
  check_shared(d, bytes, true);  // bounds, and no race with what was there
  if (self->context.model) [[unlikely]] {
    const void* site = __builtin_return_address(0);
    record(self, d, bytes, site, true);
    if (src_bytes > 0) record(self, src, src_bytes, site, in_shared(self, src));
  }
  const std::size_t first = static_cast<std::size_t>(d - b.shared.data());
  for (std::size_t w = first; w < first + bytes; ++w) ++b.in_flight[w];
  self->copies.push_back({d, static_cast<const char*>(src), bytes, src_bytes, self->committed});
}

void async_commit() {
  if (!t_fiber) report("gpu::async_commit called outside a kernel");
  ++t_fiber->committed;
}

void async_wait(unsigned pending_groups) {
  Thread* self = t_fiber;
  if (!self) report("gpu::async_wait called outside a kernel");
  BlockState& b = *t_block;
  const std::uint32_t done_below = self->committed > pending_groups ? self->committed - pending_groups : 0;
  std::size_t kept = 0;
  for (std::size_t c = 0; c < self->copies.size(); ++c) {
    const Thread::AsyncCopy& cp = self->copies[c];
    if (cp.group >= done_below) {
      self->copies[kept++] = cp;
      continue;
    }
    const std::size_t first = static_cast<std::size_t>(cp.dst - b.shared.data());
    for (std::size_t w = first; w < first + cp.bytes; ++w) --b.in_flight[w];
    check_shared(cp.dst, cp.bytes, true);
    if (cp.src_bytes > 0) std::memcpy(cp.dst, cp.src, cp.src_bytes);
    std::memset(cp.dst + cp.src_bytes, 0, cp.bytes - cp.src_bytes);
  }
  self->copies.resize(kept);
}

int device_count() {
  // WEFT_EMU_DEVICES=N: N devices that are all this one emulated machine, so that choosing a device per rank
  // (--weft-device-id, WEFT_MAP_DEVICE_ID_BY=mpi_rank) can be exercised without GPUs.
  static const int n = [] { return static_cast<int>(env_integer("WEFT_EMU_DEVICES", 1)); }();
  return n;
}

int multiprocessor_count() {
  static const int n = [] { return static_cast<int>(env_integer("WEFT_EMU_WORKERS", omp_get_max_threads())); }();
  return n;
}

namespace {
Settings& settings() {
  static Settings s = read_settings();
  return s;
}
}  // namespace

void set_block_order(bool shuffle, unsigned seed) {
  settings().shuffle = shuffle;
  settings().seed = seed;
}

void launch(const char* label, Dim3 grid, Dim3 block, std::size_t shared_bytes, KernelBody body, const void* arg,
            const std::vector<ModelView>* views) {
  const Settings& settings = emu::settings();
  const bool modelled = memory_model_on();
  Touch* const touch = launching_touch();
  const model::Views named(modelled ? views : nullptr);
  model::Counts launch_counts;
  launch_counts.reset(named.size());
  const unsigned nthreads = block.x * block.y * block.z;
  if (nthreads == 0 || nthreads > static_cast<unsigned>(max_threads_per_block))
    throw Error("GpuEmu: kernel \"" + std::string(label) + "\" launched with " + std::to_string(nthreads) +
                " threads per block; give 1 to " + std::to_string(max_threads_per_block));
  if (shared_bytes > max_shared_per_block)
    throw Error("GpuEmu: kernel \"" + std::string(label) + "\" asks for " + std::to_string(shared_bytes) +
                " bytes of shared memory per block; the maximum is " + std::to_string(max_shared_per_block));
  const long nblocks = static_cast<long>(grid.x) * grid.y * grid.z;
  if (nblocks == 0) return;
  std::vector<long> order(nblocks);
  std::iota(order.begin(), order.end(), 0L);
  if (settings.shuffle) std::shuffle(order.begin(), order.end(), std::mt19937(settings.seed));
  const int workers = std::max(1, std::min<int>(multiprocessor_count(), static_cast<int>(nblocks)));
  long next = 0;
#pragma omp parallel num_threads(workers)
  {
    HostParallelScope in_kernel;  // View copies inside kernels are not reference counted
    struct DeviceKernelScope {    // nor are View handles destroyed there (a GPU's device code)
      bool saved = t_in_device_kernel;
      DeviceKernelScope() { t_in_device_kernel = true; }
      ~DeviceKernelScope() { t_in_device_kernel = saved; }
    } in_device_code;
    BlockState b;
    b.label = label;
    b.threads.resize(nthreads);
    b.shared.resize(shared_bytes > 0 ? shared_bytes : 1);
    model::Counts counts;
    if (modelled) {
      counts.reset(named.size());
      b.counts = &counts;
      b.views = &named;
    }
    while (true) {
      const long k = __atomic_fetch_add(&next, 1L, __ATOMIC_RELAXED);
      if (k >= nblocks) break;
      const long id = order[k];
      const Dim3 bi{static_cast<unsigned>(id % grid.x), static_cast<unsigned>((id / grid.x) % grid.y),
                    static_cast<unsigned>(id / (static_cast<long>(grid.x) * grid.y))};
      std::memset(b.shared.data(), 0xA5, b.shared.size());  // uninitialized shared memory is not zero
      b.shadow.assign(b.shared.size(), Shadow{});
      b.in_flight.assign(b.shared.size(), 0);
      b.epoch = 1;
      b.warp_epoch.assign((nthreads + 31) / 32, 0);
      unsigned lin = 0;
      for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
          for (unsigned x = 0; x < block.x; ++x, ++lin) {
            Thread& t = b.threads[lin];
            t.context =
                ThreadContext{{x, y, z}, bi, block, grid, lin, &b, b.shared.data(), shared_bytes, modelled, touch};
          }
      run_block(b, body, arg);
    }
    if (modelled) {
#pragma omp critical(weft_emu_model)
      launch_counts.add(counts);
    }
  }
  if (modelled) model::add_launch(label, launch_counts, named);
}

}  // namespace weft::impl::emu
