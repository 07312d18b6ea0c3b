// weft::profiling: regions, sections and metadata for profiling tools (the Kokkos Tools interface, chained over
// every library in WEFT_TOOLS_LIBS, and Weft's built-in kernel timer WEFT_PROFILE=summary|json:PATH).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace weft::profiling {
/// Whether a tool library or the built-in timer is listening.
bool is_enabled() noexcept;
void push_region(const std::string& name);
void pop_region();
/// push_region in the constructor, pop_region in the destructor.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { push_region(name); }
  ~ScopedRegion() { pop_region(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};
std::uint32_t create_section(const std::string& name);
void start_section(std::uint32_t id);
void stop_section(std::uint32_t id);
void destroy_section(std::uint32_t id);
void declare_metadata(const std::string& key, const std::string& value);
/// A named instant for the tools (Kokkos's markEvent).
void mark_event(const std::string& name);

/// A memory space as the tools see it (the Kokkos Tools interface's SpaceHandle).
struct SpaceHandle {
  char name[64];
};
/// One device as the init callback describes it.
struct DeviceInfo {
  std::size_t device_id;
};
/// Listeners inside the program, with the Kokkos Tools interface's C signatures, called beside the tool libraries
/// (after them) for every event; any may be null. Kernel, fence and section ids are the callback's own: what a begin
/// or create callback stores is what its end, start, stop or destroy callback gets.
struct Callbacks {
  void (*init)(int load_sequence, std::uint64_t interface_version, std::uint32_t device_count,
               DeviceInfo* devices) = nullptr;
  void (*finalize)() = nullptr;
  void (*begin_parallel_for)(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) = nullptr;
  void (*begin_parallel_reduce)(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) = nullptr;
  void (*begin_parallel_scan)(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) = nullptr;
  void (*end_parallel_for)(std::uint64_t kernel_id) = nullptr;
  void (*end_parallel_reduce)(std::uint64_t kernel_id) = nullptr;
  void (*end_parallel_scan)(std::uint64_t kernel_id) = nullptr;
  void (*begin_fence)(const char* name, std::uint32_t device_id, std::uint64_t* fence_id) = nullptr;
  void (*end_fence)(std::uint64_t fence_id) = nullptr;
  void (*push_region)(const char* name) = nullptr;
  void (*pop_region)() = nullptr;
  void (*allocate_data)(SpaceHandle space, const char* label, const void* ptr, std::uint64_t bytes) = nullptr;
  void (*deallocate_data)(SpaceHandle space, const char* label, const void* ptr, std::uint64_t bytes) = nullptr;
  void (*begin_deep_copy)(SpaceHandle dst_space, const char* dst_label, const void* dst, SpaceHandle src_space,
                          const char* src_label, const void* src, std::uint64_t bytes) = nullptr;
  void (*end_deep_copy)() = nullptr;
  void (*create_profile_section)(const char* name, std::uint32_t* section_id) = nullptr;
  void (*start_profile_section)(std::uint32_t section_id) = nullptr;
  void (*stop_profile_section)(std::uint32_t section_id) = nullptr;
  void (*destroy_profile_section)(std::uint32_t section_id) = nullptr;
  void (*profile_event)(const char* name) = nullptr;
  void (*declare_metadata)(const char* key, const char* value) = nullptr;
};
/// The program's listeners now.
Callbacks callbacks() noexcept;
/// Replaces them (Callbacks{} removes them all); is_enabled() is true while any is set.
void set_callbacks(const Callbacks& c) noexcept;
}  // namespace weft::profiling
