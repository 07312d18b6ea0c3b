// Declarations shared by core's own sources (not installed).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace weft::impl {
/// One View allocation still alive (finalize reports them).
struct LiveAllocation {
  std::string label;
  std::size_t bytes;
  const char* space_name;
};
std::vector<LiveAllocation> live_allocations();  // memory.cpp
void fence_all_instances();                      // instances.cpp
}  // namespace weft::impl
