// The runtime shared by the GPU backends (CUDA, HIP and the emulator): instances (streams) with reference
// counts, device selection and the start-up checks, the caching pool of device memory, byte copies and error
// reports. Each backend supplies a thin `Api` struct over its vendor runtime (backends/cuda/include/weft/cuda/api.hpp,
// backends/hip/..., backends/emu/...). The front classes (<weft/gpu/front.hpp>) call Front<Api>, declared here
// and defined once, with Runtime<Api>, in the source part below, which only the backend's one source file
// includes (and instantiates: `template struct gpu_rt::Front<CudaApi>;`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace weft::impl::gpu_rt {

/// One execution-space instance: its stream (owned, or the user's) and a reference count.
template <class Stream>
struct Instance {
  int refcount;
  std::uint32_t id;
  Stream stream;
  bool owned;
  bool is_default;
};

/// The reference-counted handle an execution-space object holds. The default instance is never released
/// by handles (the backend's finalize owns it); `Release` destroys an owned stream with the last handle.
template <class Stream, void (*Release)(Instance<Stream>*) noexcept>
class Handle {
 public:
  using instance_type = Instance<Stream>;
  /// Adopts `p` (a freshly created instance with one reference, or the default instance).
  static Handle adopt(instance_type* p) {
    Handle h;
    h.p_ = p;
    return h;
  }
  /// Shares `p` (adds a reference).
  explicit Handle(instance_type* p) : p_(p) { retain(); }
  Handle(const Handle& o) : p_(o.p_) { retain(); }
  Handle& operator=(const Handle& o) {
    Handle tmp(o);
    std::swap(p_, tmp.p_);
    return *this;
  }
  ~Handle() {
    if (p_ && !p_->is_default) Release(p_);
  }
  Stream stream() const { return p_ ? p_->stream : Stream{}; }
  std::uint32_t id() const { return p_ ? p_->id : 0; }
  friend bool operator==(const Handle& a, const Handle& b) { return a.p_ == b.p_; }

 private:
  Handle() = default;
  void retain() {
    if (p_ && !p_->is_default) __atomic_fetch_add(&p_->refcount, 1, __ATOMIC_RELAXED);
  }
  instance_type* p_ = nullptr;
};

/// The entry points a GPU backend's front classes call: written once over the backend's Api, defined in the
/// source part of this header and instantiated in the backend's one source file.
template <class Api>
struct Front {
  using stream_t = typename Api::stream_t;
  using error_t = typename Api::error_t;
  using instance_t = Instance<stream_t>;
  /// The default instance (its own non-blocking stream, created at initialize).
  static inline instance_t* default_instance = nullptr;

  [[noreturn]] static void fail(error_t e, const char* what, std::string_view label);
  static void check(error_t e, const char* what, std::string_view label = {}) {
    if (e != Api::success) [[unlikely]]
      fail(e, what, label);
  }
  /// The last error after a kernel launch (as cudaGetLastError), reported with the kernel's label.
  static void check_launch(const char* label);
  static void copy_bytes(void* dst, const void* src, std::size_t bytes, stream_t stream, bool wait);
  static void memset(void* p, int value, std::size_t bytes, stream_t stream);
  static void stream_sync(stream_t stream, const char* what, std::string_view label = {});
  /// The default instance's stream (never the legacy stream, which it does not wait for).
  static stream_t default_stream() { return default_instance ? default_instance->stream : stream_t{}; }
  [[noreturn]] static void host_access_abort(const char* space, const char* label);
  static instance_t* instance_create(stream_t stream, bool owned);
  static void instance_release(instance_t* p) noexcept;
  static int multiprocessor_count();
  static int device_id();
  static std::size_t shared_per_block();
  /// Kernel scratch and reduction results, freed stream-ordered (see CachingPool::deallocate_on).
  static void* scratch_allocate(std::size_t bytes, stream_t stream);
  static void scratch_free(void* p, std::size_t bytes, stream_t stream) noexcept;
  static void* result_allocate(std::size_t bytes);
  static void result_free(void* p, std::size_t bytes, stream_t stream) noexcept;
  /// The three memory spaces' storage.
  static void* allocate_device(std::size_t bytes, std::string_view label);
  static void free_device(void* p, std::size_t bytes) noexcept;
  static void* allocate_pinned(std::size_t bytes, std::string_view label);
  static void free_pinned(void* p, std::size_t bytes, std::string_view label);
  static void* allocate_managed(std::size_t bytes, std::string_view label);
  static void free_managed(void* p, std::size_t bytes, std::string_view label);
  /// Registers the backend with core (initialize, fence, finalize, print_configuration).
  static void register_backend();
};

}  // namespace weft::impl::gpu_rt

#ifdef WEFT_IMPL_GPU_RUNTIME_SOURCE  // the backend's source file only: needs <weft/error.hpp> and the pool
#include <weft/error.hpp>
#include <weft/gpu/pool.hpp>
#include <weft/impl/backend_registry.hpp>

namespace weft::impl {
extern bool g_device_round_robin;
}

namespace weft::impl::gpu_rt {

/// `Api` provides: stream_t, error_t, success, backend ("Cuda"), device_space ("CudaSpace"),
/// error_name/error_string/get_last_error, device_count/set_device/device_sync, multiprocessor_count(dev),
/// arch(dev) (the architecture name as the build option spells it), describe(os, dev),
/// architectures (the build's list), architectures_option (its CMake variable), no_device_advice,
/// stream_create/stream_destroy/stream_sync, memcpy_async, malloc/free, malloc_host/free_host,
/// malloc_managed, mem_get_info, event_t with event_create/event_record/event_query/event_sync/event_destroy.
template <class Api>
struct Runtime {
  using stream_t = typename Api::stream_t;
  using error_t = typename Api::error_t;
  using instance_t = Instance<stream_t>;

  static inline instance_t* default_instance = nullptr;
  static inline int device = 0;
  static inline int multiprocessors = 0;
  /// Dynamic shared memory one block may have (the opt-in maximum; above 48 KiB a CUDA kernel opts in at launch).
  static inline std::size_t shared_per_block = 48 * 1024;
  static inline std::uint32_t next_id = 1u << 20;
  /// Set once an instance other than the default exists (its own stream or a user's): from then on the pool
  /// waits for the device before caching a freed block.
  static inline bool several_streams = false;

  [[noreturn]] static void fail(error_t e, const char* what, std::string_view label) {
    std::string msg = std::string("weft::") + Api::backend + ": " + what;
    if (!label.empty()) msg += " (kernel or View " + quote(label) + ")";
    msg += " failed: " + std::string(Api::error_name(e)) + ": " + Api::error_string(e);
    throw Error(msg);
  }
  static void check(error_t e, const char* what, std::string_view label = {}) {
    if (e != Api::success) [[unlikely]]
      fail(e, what, label);
  }
  static void copy_bytes(void* dst, const void* src, std::size_t bytes, stream_t stream, bool wait) {
    check(Api::memcpy_async(dst, src, bytes, stream), "copying bytes (memcpy async)");
    if (wait) check(Api::stream_sync(stream), "synchronizing a stream");
  }
  [[noreturn]] static void host_access_abort(const char* space, const char* label) {
    const std::string msg = std::string("View \"") + label + "\" lives in " + space +
                            " (device memory) but was accessed from host code; copy it to a host mirror first "
                            "(weft::create_mirror_view_and_copy(weft::HostSpace(), view))";
    abort_with(msg.c_str());
  }

  static instance_t* instance_create(stream_t stream, bool owned) {
    if (owned) check(Api::stream_create(&stream), "creating a stream");
    if (default_instance) __atomic_store_n(&several_streams, true, __ATOMIC_RELAXED);  // not the default itself
    const std::uint32_t id = __atomic_fetch_add(&next_id, 1u, __ATOMIC_RELAXED);
    return new instance_t{1, id, stream, owned, false};
  }
  static void instance_release(instance_t* p) noexcept {
    if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (p->owned) Api::stream_destroy(p->stream);
    delete p;
  }

  /// Events for the pool's stream-ordered frees (kernel scratch): errors leave the device-wide rule in charge.
  static inline const CachingPool::StreamEvents stream_events{
      [](void* stream) -> void* {
        typename Api::event_t e{};
        if (Api::event_create(&e) != Api::success) return nullptr;
        if (Api::event_record(e, static_cast<stream_t>(stream)) != Api::success) {
          Api::event_destroy(e);
          return nullptr;
        }
        return reinterpret_cast<void*>(e);
      },
      [](void* e) { return Api::event_query(reinterpret_cast<typename Api::event_t>(e)) == Api::success; },
      [](void* e) { (void)Api::event_sync(reinterpret_cast<typename Api::event_t>(e)); },
      [](void* e) { Api::event_destroy(reinterpret_cast<typename Api::event_t>(e)); }};
  static CachingPool& pool() {
    static CachingPool p(
        Api::device_space,
        [](std::size_t b) -> void* {
          void* q = nullptr;
          return Api::malloc(&q, b) == Api::success ? q : nullptr;
        },
        [](void* q) { Api::free(q); },
        [] {
          // A second stream may still run work that reads a block freed on the host: wait for the device
          // before the block can be handed out again (errors are left for the next checked call).
          if (__atomic_load_n(&several_streams, __ATOMIC_RELAXED)) (void)Api::device_sync();
        },
        &stream_events);
    return p;
  }
  /// Kernel scratch of work on `stream`: freed stream-ordered (an event on the stream, no device-wide wait), so a
  /// reduction into a View or a team dispatch with level-1 scratch only enqueues, whatever streams exist.
  static void* allocate_scratch(std::size_t bytes, stream_t stream) {
    void* p = pool().allocate_on(bytes, reinterpret_cast<void*>(stream));
    if (!p) return allocate_device(bytes, "weft kernel scratch");
    return p;
  }
  static void free_scratch(void* p, std::size_t bytes, stream_t stream) noexcept {
    pool().deallocate_on(p, bytes, reinterpret_cast<void*>(stream));
  }
  /// Pinned host memory for reduction results a kernel writes straight to the host (cached like device memory:
  /// a cudaMallocHost per reduction would cost far more than the copy it saves).
  static CachingPool& pinned_pool() {
    static CachingPool p(
        "pinned reduction results",
        [](std::size_t b) -> void* {
          void* q = nullptr;
          return Api::malloc_host(&q, b) == Api::success ? q : nullptr;
        },
        [](void* q) { Api::free_host(q); },
        [] {
          if (__atomic_load_n(&several_streams, __ATOMIC_RELAXED)) (void)Api::device_sync();
        },
        &stream_events);
    return p;
  }
  /// A reduction's pinned result goes back stream-ordered (it was delivered after a stream wait, so the event
  /// has completed and nothing waits; on an error path the event keeps the block until the kernel is done).
  static void free_result_pinned(void* p, std::size_t bytes, stream_t stream) noexcept {
    pinned_pool().deallocate_on(p, bytes, reinterpret_cast<void*>(stream));
  }
  static void* allocate_result_pinned(std::size_t bytes) {
    void* p = pinned_pool().allocate(bytes);
    if (!p)
      throw Error(std::string("weft::") + Api::backend + ": allocating " + std::to_string(bytes) +
                  " bytes of pinned host memory for a reduction result failed");
    return p;
  }
  /// Device memory from the pool; a failure names the label, the bytes and the device's free memory.
  static void* allocate_device(std::size_t bytes, std::string_view label) {
    if (bytes == 0) return nullptr;
    void* p = pool().allocate(bytes);
    if (!p) {
      const error_t e = Api::get_last_error();
      std::size_t free_b = 0, total_b = 0;
      (void)Api::mem_get_info(&free_b, &total_b);
      throw Error(std::string("weft::") + Api::device_space + ": allocating " + std::to_string(bytes) + " bytes for " +
                  quote(label) + " failed (" + Api::error_string(e) + "); " + std::to_string(free_b) + " of " +
                  std::to_string(total_b) + " bytes are free on the device");
    }
    return p;
  }
  static void* allocate_host_pinned(std::size_t bytes, std::string_view label) {
    if (bytes == 0) return nullptr;
    void* p = nullptr;
    check(Api::malloc_host(&p, bytes), "allocating pinned host memory", label);
    return p;
  }
  static void* allocate_managed(std::size_t bytes, std::string_view label) {
    if (bytes == 0) return nullptr;
    void* p = nullptr;
    check(Api::malloc_managed(&p, bytes), "allocating managed memory", label);
    return p;
  }

  static void initialize(int device_id) {
    int count = 0;
    const error_t e = Api::device_count(&count);
    if (e != Api::success || count == 0)
      throw Error(std::string("weft::initialize: the ") + Api::backend + " backend found no usable GPU (" +
                  Api::error_name(e) + ": " + Api::error_string(e) + "); " + Api::no_device_advice);
    if (g_device_round_robin && device_id >= 0) device_id %= count;
    if (device_id >= count)
      throw Error("weft::initialize: --weft-device-id " + std::to_string(device_id) + " but only " +
                  std::to_string(count) + " GPU(s) are visible");
    device = device_id < 0 ? 0 : device_id;
    check(Api::set_device(device), "selecting the device");
    multiprocessors = Api::multiprocessor_count(device);
    if (const std::size_t s = Api::shared_per_block(device); s > 0) shared_per_block = s;
    const std::string arch = Api::arch(device);
    const std::string archs = std::string(" ") + Api::architectures + " ";
    bool native = false;
    for (const char* suffix : {"", "-real", "a", "a-real"})
      native = native || archs.find(" " + arch + suffix + " ") != std::string::npos;
    if (!native)
      std::fprintf(stderr,
                   "weft: warning: this binary carries no machine code for the GPU's architecture %s (built for: "
                   "%s); the driver compiles at start-up, which can take minutes, or fails. Add %s to %s.\n",
                   arch.c_str(), Api::architectures, arch.c_str(), Api::architectures_option);
    if (!default_instance) {
      default_instance = instance_create(stream_t{}, true);
      default_instance->is_default = true;
    }
  }
  static void fence_all() { check(Api::device_sync(), "synchronizing the device"); }
  static void finalize() {
    pool().trim();
    pinned_pool().trim();
  }
  static void print_configuration(std::ostream& os) {
    os << "  " << Api::backend << ": device " << device << " ";
    if (!Api::describe(os, device)) {
      os << "(none)\n";
      return;
    }
    os << "; View allocator " << (pool().enabled() ? "caching pool" : "direct") << ", high-water mark "
       << pool().stats().high_water << " bytes\n";
  }
};

// ---- Front<Api>: the front classes' entry points, over Runtime<Api> ----------------------------------------
template <class Api>
void Front<Api>::fail(error_t e, const char* what, std::string_view label) {
  Runtime<Api>::fail(e, what, label);
}
template <class Api>
void Front<Api>::check_launch(const char* label) {
  const error_t e = Api::get_last_error();
  if (e != Api::success) [[unlikely]]
    fail(e, "launching a kernel", label);
}
template <class Api>
void Front<Api>::copy_bytes(void* dst, const void* src, std::size_t bytes, stream_t stream, bool wait) {
  Runtime<Api>::copy_bytes(dst, src, bytes, stream, wait);
}
template <class Api>
void Front<Api>::memset(void* p, int value, std::size_t bytes, stream_t stream) {
  check(Api::memset_async(p, value, bytes, stream), "memset async");
}
template <class Api>
void Front<Api>::stream_sync(stream_t stream, const char* what, std::string_view label) {
  check(Api::stream_sync(stream), what, label);
}
template <class Api>
void Front<Api>::host_access_abort(const char* space, const char* label) {
  Runtime<Api>::host_access_abort(space, label);
}
template <class Api>
typename Front<Api>::instance_t* Front<Api>::instance_create(stream_t stream, bool owned) {
  return Runtime<Api>::instance_create(stream, owned);
}
template <class Api>
void Front<Api>::instance_release(instance_t* p) noexcept {
  Runtime<Api>::instance_release(p);
}
template <class Api>
int Front<Api>::multiprocessor_count() {
  return Runtime<Api>::multiprocessors > 0 ? Runtime<Api>::multiprocessors : 1;
}
template <class Api>
int Front<Api>::device_id() {
  return Runtime<Api>::device;
}
template <class Api>
std::size_t Front<Api>::shared_per_block() {
  return Runtime<Api>::shared_per_block;
}
template <class Api>
void* Front<Api>::scratch_allocate(std::size_t bytes, stream_t stream) {
  return Runtime<Api>::allocate_scratch(bytes > 0 ? bytes : 1, stream);
}
template <class Api>
void Front<Api>::scratch_free(void* p, std::size_t bytes, stream_t stream) noexcept {
  Runtime<Api>::free_scratch(p, bytes > 0 ? bytes : 1, stream);
}
template <class Api>
void* Front<Api>::result_allocate(std::size_t bytes) {
  return Runtime<Api>::allocate_result_pinned(bytes > 0 ? bytes : 1);
}
template <class Api>
void Front<Api>::result_free(void* p, std::size_t bytes, stream_t stream) noexcept {
  Runtime<Api>::free_result_pinned(p, bytes > 0 ? bytes : 1, stream);
}
template <class Api>
void* Front<Api>::allocate_device(std::size_t bytes, std::string_view label) {
  return Runtime<Api>::allocate_device(bytes, label);
}
template <class Api>
void Front<Api>::free_device(void* p, std::size_t bytes) noexcept {
  Runtime<Api>::pool().deallocate(p, bytes);
}
template <class Api>
void* Front<Api>::allocate_pinned(std::size_t bytes, std::string_view label) {
  return Runtime<Api>::allocate_host_pinned(bytes, label);
}
template <class Api>
void Front<Api>::free_pinned(void* p, std::size_t bytes, std::string_view label) {
  if constexpr (requires { Api::before_host_free(p, bytes, label); }) Api::before_host_free(p, bytes, label);
  Api::free_host(p);
}
template <class Api>
void* Front<Api>::allocate_managed(std::size_t bytes, std::string_view label) {
  return Runtime<Api>::allocate_managed(bytes, label);
}
template <class Api>
void Front<Api>::free_managed(void* p, std::size_t bytes, std::string_view label) {
  if constexpr (requires { Api::before_host_free(p, bytes, label); }) Api::before_host_free(p, bytes, label);
  Api::free_managed(p);
}
template <class Api>
void Front<Api>::register_backend() {
  BackendEntry e;
  e.name = Api::backend;
  e.uses_device = true;
  e.initialize = [](const BackendSettings& s) {
    Runtime<Api>::initialize(s.device_id);
    default_instance = Runtime<Api>::default_instance;
  };
  e.finalize = [] { Runtime<Api>::finalize(); };
  e.fence_all = [] { Runtime<Api>::fence_all(); };
  e.print_configuration = [](std::ostream& os) { Runtime<Api>::print_configuration(os); };
  ::weft::impl::register_backend(e);
}

}  // namespace weft::impl::gpu_rt
#endif
