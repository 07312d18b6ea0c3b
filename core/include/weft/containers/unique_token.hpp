// UniqueToken: a small integer in [0, size()) that no other running thread of an execution space holds (per-thread
// scratch arrays, ScatterView's copies, work queues), as Kokkos::Experimental::UniqueToken.
#pragma once

#include <mutex>
#include <string>

#include <weft/atomics.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/initialize.hpp>
#include <weft/view.hpp>

namespace weft {

/// Instance: unique among the threads running work of one execution-space instance (the default); Global: unique
/// among all threads of the execution space, whatever the instance.
enum class UniqueTokenScope : int { Instance, Global };

namespace impl {
/// The token pool: one word per token (0 free, 1 held) and a hint counter after them, in Exec's memory.
template <class Exec>
using TokenLocks = View<unsigned*, typename Exec::memory_space>;

template <class Exec>
TokenLocks<Exec> make_token_locks(int size) {
  if (size <= 0) throw_cat({"UniqueToken: the size must be positive (got ", size, " for ", Exec::name(), ")"});
  TokenLocks<Exec> locks("weft::UniqueToken locks", static_cast<std::size_t>(size) + 1);
  deep_copy(locks, 0u);
  return locks;
}

/// The one pool of Global scope per execution space, sized to its concurrency at first use, freed at finalize.
template <class Exec>
TokenLocks<Exec> global_token_locks() {
  static std::mutex m;
  static TokenLocks<Exec>* pool = nullptr;
  std::lock_guard<std::mutex> g(m);
  if (!pool) {
    pool = new TokenLocks<Exec>(make_token_locks<Exec>(Exec().concurrency()));
    push_finalize_hook([] {
      std::lock_guard<std::mutex> g2(m);
      delete pool;
      pool = nullptr;
    });
  }
  return *pool;
}
}  // namespace impl

/// UniqueToken<Exec, Scope>: acquire() returns a token no other running thread holds until it is release()d.
/// On a host instance (Instance scope, size() >= its threads) the token is the thread's index in the region (no
/// atomics); elsewhere tokens come from a pool of atomic flags in Exec's memory, probed from a rotating start.
/// A thread that finds every token held waits until one is released.
template <class Exec = DefaultExecutionSpace, UniqueTokenScope Scope = UniqueTokenScope::Instance>
class UniqueToken {
 public:
  using execution_space = Exec;
  using size_type = int;

  /// size() = exec.concurrency(): as many tokens as threads can run at once.
  explicit UniqueToken(const Exec& exec = Exec()) : size_(exec.concurrency()) {
    if constexpr (Scope == UniqueTokenScope::Global) {
      locks_ = impl::global_token_locks<Exec>();
      size_ = static_cast<int>(locks_.extent(0)) - 1;
    } else if constexpr (!Exec::impl_is_host_space) {
      locks_ = impl::make_token_locks<Exec>(size_);
    }
  }
  /// At most max_size tokens (Instance scope only): with fewer tokens than threads, threads wait for one.
  explicit UniqueToken(size_type max_size, const Exec& exec = Exec()) requires(Scope == UniqueTokenScope::Instance)
      : size_(max_size) {
    if (max_size <= 0) impl::throw_cat({"UniqueToken(max_size): max_size must be positive (got ", max_size, ")"});
    if (!Exec::impl_is_host_space || max_size < exec.concurrency()) locks_ = impl::make_token_locks<Exec>(max_size);
  }

  WEFT_INLINE_FUNCTION size_type size() const { return size_; }

  WEFT_INLINE_FUNCTION size_type acquire() const {
#if !WEFT_IMPL_DEVICE_PASS
    if constexpr (Exec::impl_is_host_space) {
      if (by_thread()) {
        const int t = impl::t_host_thread_index;
        if (t >= size_) [[unlikely]]
          impl::abort_with(
              "UniqueToken::acquire: the calling thread's index in its parallel region is not below the token's "
              "size(); make the UniqueToken from the instance the work runs on (or with max_size >= its threads)");
        return t;
      }
    }
#endif
    unsigned* const w = locks_.data();
    const unsigned n = static_cast<unsigned>(size_);
    unsigned t = atomic_fetch_add(w + n, 1u) % n;
    while (true) {
      for (unsigned k = 0; k < n; ++k, t = t + 1 == n ? 0 : t + 1) {
        if (atomic_load(w + t) == 0u && atomic_compare_exchange(w + t, 0u, 1u) == 0u) {
          memory_fence();  // what the previous holder wrote before its release is seen after this
          return static_cast<size_type>(t);
        }
      }
    }
  }

  WEFT_INLINE_FUNCTION void release(size_type t) const {
    if (by_thread()) return;
    memory_fence();
    atomic_store(locks_.data() + t, 0u);
  }

 private:
  /// Tokens are thread indices exactly when there is no pool.
  WEFT_INLINE_FUNCTION bool by_thread() const { return locks_.data() == nullptr; }

  impl::TokenLocks<Exec> locks_;
  int size_ = 0;
};

/// Holds a token for its lifetime: `AcquireUniqueToken<Exec> lock(token); use(lock.value());`.
template <class Exec = DefaultExecutionSpace, UniqueTokenScope Scope = UniqueTokenScope::Instance>
class AcquireUniqueToken {
 public:
  using token_type = UniqueToken<Exec, Scope>;
  using size_type = typename token_type::size_type;
  WEFT_INLINE_FUNCTION explicit AcquireUniqueToken(const token_type& t) : token_(t), value_(t.acquire()) {}
  WEFT_INLINE_FUNCTION ~AcquireUniqueToken() { token_.release(value_); }
  AcquireUniqueToken(const AcquireUniqueToken&) = delete;
  AcquireUniqueToken& operator=(const AcquireUniqueToken&) = delete;
  WEFT_INLINE_FUNCTION size_type value() const { return value_; }

 private:
  const token_type& token_;
  size_type value_;
};

}  // namespace weft
