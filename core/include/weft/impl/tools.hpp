// The hooks Weft's dispatch, fences, allocations and copies call for profiling: the Kokkos Tools C interface
// (libraries from WEFT_TOOLS_LIBS / KOKKOS_TOOLS_LIBS / --weft-tools-libs) and the built-in kernel timer
// (WEFT_PROFILE). When neither is on, each hook costs one predictable branch on a global flag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace weft::impl::tools {

/// A backend's range annotations (NVTX on CUDA builds: Nsight Systems shows kernels and regions by name, with
/// or without a tool library); each kernel and profiling region is pushed and popped through them when set.
struct RangeAnnotator {
  void (*push)(const char* name) = nullptr;
  void (*pop)() = nullptr;
};
void set_range_annotator(RangeAnnotator a) noexcept;

/// True when a tool library or the built-in timer listens.
extern bool g_active;
/// WEFT_PROFILE=launches: every GPU kernel launch prints its label, grid, block and dynamic shared memory.
extern bool g_print_launches;
void print_launch(const char* label, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  std::size_t shared_bytes);

enum class Kind : int { parallel_for, parallel_reduce, parallel_scan };

/// What begin_kernel hands to end_kernel: each chained tool's kernel id (the program's callbacks' last), and the
/// start time.
struct KernelToken {
  std::uint64_t ids[9];
  double start;
  Kind kind;
  const void* timer_slot;
};
void begin_kernel(Kind kind, std::string_view label, const char* type_name, std::uint32_t device_id, KernelToken& t);
void end_kernel(KernelToken& t);

struct FenceToken {
  std::uint64_t ids[9];
  double start;
  bool active;
};
void begin_fence(std::string_view label, std::uint32_t device_id, FenceToken& t);
void end_fence(FenceToken& t);

/// RAII around a fence's wait (host backends' fences only order memory; CUDA's waits on the stream).
class FenceScope {
 public:
  FenceScope(std::string_view label, std::uint32_t device_id) {
    t_.active = g_active;
    if (t_.active) [[unlikely]]
      begin_fence(label, device_id, t_);
  }
  ~FenceScope() {
    if (t_.active) [[unlikely]]
      end_fence(t_);
  }
  FenceScope(const FenceScope&) = delete;
  FenceScope& operator=(const FenceScope&) = delete;

 private:
  FenceToken t_;
};

void allocate(const char* space, const char* label, const void* ptr, std::uint64_t bytes);
void deallocate(const char* space, const char* label, const void* ptr, std::uint64_t bytes);
void begin_deep_copy(const char* dst_space, std::string_view dst_label, const void* dst, const char* src_space,
                     std::string_view src_label, const void* src, std::uint64_t bytes);
void end_deep_copy();

/// A report a backend adds to the profile (GpuEmu's memory model): its table is printed at finalize beside the
/// kernel timer's (or on its own when wanted() and the timer is off), its JSON is the profile's entry `key`;
/// reset() runs after finalize has printed it.
struct ProfileReport {
  const char* key;
  std::string (*text)();
  std::string (*json)();
  bool (*wanted)();
  void (*reset)();
};
/// Adds (or, for the same key, replaces) a report.
void add_report(const ProfileReport& r);

/// Loads the tool libraries and starts the timer (from initialize); calls the tools' finalize and prints the
/// timer's summary (from finalize). Before each library's kokkosp_init_library, as Kokkos: kokkosp_parse_args with
/// `args` split at spaces (its first word the program's name), and kokkosp_print_help when `help`.
void initialize(const std::string_view& libs, const std::string_view& profile, const std::string_view& args = {},
                bool help = false);
void finalize();
}  // namespace weft::impl::tools
