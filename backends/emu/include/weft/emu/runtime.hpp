// The emulated GPU runtime: what the CUDA runtime does on the host (streams with CUDA's flags and the legacy
// default stream's implicit synchronization, events, asynchronous copies and memsets, kernel launches that
// enqueue, device/pinned/managed allocations, the last-error state), on the CPU. GpuEmu's `EmuApi` of
// gpu_rt::Runtime is a table over these functions, so the host code CUDA and HIP run is the code GpuEmu runs.
//
// WEFT_EMU_STREAMS picks when queued work runs:
//   lazy (default)  as late as CUDA allows: only when something waits for it (a stream, event or device
//                   synchronization, a blocking copy, the legacy stream's implicit synchronization), so an
//                   access that is not ordered after a kernel deterministically sees the data from before it;
//   concurrent      a worker thread per stream runs its queue in order while the host goes on; operations of
//                   different streams interleave in an order seeded by WEFT_EMU_STREAM_SEED;
//   sync            each operation runs when it is enqueued (the emulator's old behaviour, for debugging).
// WEFT_EMU_CHECK (on unless 0/off): the stream-order checker. Every queued operation carries the memory it
// touches (a kernel: the Views it captured; a copy or memset: its ranges); a host access through a View, a
// host-side copy, a free, or another stream's operation that touches the same bytes without being ordered
// after a conflicting operation (no synchronization, no event edge, not the same stream) stops the program
// with one message naming both sides and the fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <weft/emu/context.hpp>

namespace weft::impl::emu {

struct Stream;
struct Event;
/// nullptr is the legacy default stream, as CUDA's 0 stream.
using stream_t = Stream*;
using event_t = Event*;

enum class Status : int {
  success = 0,
  invalid_value,
  invalid_handle,
  not_ready,
  memory_allocation,
  launch_failure,
  no_device
};
const char* status_name(Status s);
const char* status_string(Status s);
/// Returns and clears the last error (cudaGetLastError).
Status get_last_error();

/// Stream flags: blocking streams synchronize implicitly with the legacy stream, non-blocking ones do not.
inline constexpr unsigned stream_blocking = 0;
inline constexpr unsigned stream_non_blocking = 1;

Status stream_create(stream_t* s, unsigned flags);
/// Waits for the stream's work, then destroys it (cudaStreamDestroy returns at once; the work still runs).
Status stream_destroy(stream_t s);
Status stream_sync(stream_t s);
/// success when everything enqueued on s has finished, not_ready otherwise (never runs work).
Status stream_query(stream_t s);
Status device_sync();

Status event_create(event_t* e);
Status event_destroy(event_t e);
Status event_record(event_t e, stream_t s);
Status event_query(event_t e);
Status event_sync(event_t e);
Status stream_wait_event(stream_t s, event_t e);

/// A range of memory an operation reads or writes; `label` names it in reports (a View's label).
struct Access {
  const void* begin;
  std::size_t bytes;
  bool write;
  std::string label;
  /// A View a kernel captured: the checker records which of its bytes the kernel touches, element by element
  /// (otherwise, as for the raw ranges deep_copy's kernels pass, every byte counts as touched).
  bool traced = false;
};

Status memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s);
Status memset_async(void* p, int value, std::size_t bytes, stream_t s);

/// Enqueues a kernel: `body` runs the grid (it owns the kernel's copy of its arguments). `accesses` are the
/// memory it may touch (write = may write). The checker judges the kernel by what it did: the bytes of traced
/// accesses it touched, and which of them changed (compared with a copy taken before it ran). A bad
/// configuration is reported at once, as by cudaGetLastError after a launch.
Status launch_kernel(stream_t s, const char* label, Dim3 grid, Dim3 block, std::size_t shared_bytes,
                     std::function<void()> body, std::vector<Access> accesses);

Status malloc_device(void** p, std::size_t bytes);
Status free_device(void* p);
Status malloc_host(void** p, std::size_t bytes);
Status free_host(void* p);
Status malloc_managed(void** p, std::size_t bytes);
Status mem_get_info(std::size_t* free_bytes, std::size_t* total_bytes);

// ---- the stream-order checker's host side -------------------------------------------------------------------
/// Whether the checker is on (WEFT_EMU_CHECK).
bool checker_on();
/// True while some queued operation not yet ordered before the host touches host-reachable memory: host
/// accesses through Views are checked only then (a relaxed load otherwise).
bool host_reachable_pending();
/// The host reads (or writes) [p, p + bytes): reported if a queued, unordered operation writes (or touches) it.
void host_access(const void* p, std::size_t bytes, bool write, const char* label, const char* what);
/// The host frees [p, p + bytes): reported if a queued, unordered operation still touches it.
void host_free(const void* p, std::size_t bytes, const char* label);

/// Collects the Views a kernel object captures while it is copied for a launch (see ViewTracker).
struct CaptureScope {
  std::vector<Access>* out;
  CaptureScope* saved_scope;
  bool saved_parallel;
  explicit CaptureScope(std::vector<Access>& accesses);
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;
};
/// Memory the next kernel launched from this thread also touches, beyond its Views (deep_copy's element
/// copies pass raw pointers); consumed by that launch.
void note_next_kernel_access(const void* p, std::size_t bytes, bool write, const char* label);
std::vector<Access> take_next_kernel_accesses();

/// The mode's name ("lazy", "concurrent", "sync") for print_configuration.
const char* streams_mode();

}  // namespace weft::impl::emu
