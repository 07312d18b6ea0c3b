// weft::profiling: regions, sections and metadata for profiling tools (the Kokkos Tools interface, chained over
// every library in WEFT_TOOLS_LIBS, and Weft's built-in kernel timer WEFT_PROFILE=summary|json:PATH).
#pragma once

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
}  // namespace weft::profiling
