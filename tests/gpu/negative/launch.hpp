// The negative tests' launch: one kernel object on GpuEmu with a 1-D grid and block and dynamic shared memory, run
// through the emulator's vendor layer as Weft's GPU backend launches (each test then expects GpuEmu's diagnostic).
#pragma once

#include <cstddef>

#include <weft/weft.hpp>

namespace negative {
template <class Kernel>
void launch(const char* label, unsigned grid, unsigned block, std::size_t shared_bytes, const Kernel& kernel) {
  weft::impl::GpuLaunchShape s;
  s.grid = {grid, 1, 1};
  s.block = {block, 1, 1};
  s.shared_bytes = shared_bytes;
  weft::impl::EmuVendor::launch(weft::GpuEmu(), label, s, kernel);
}
}  // namespace negative
