// Kokkos's unit tests on Weft's GpuEmu backend (the GPU code path on the CPU: asynchronous streams, the
// stream-order checker, device memory the host may not touch), as Kokkos's TestCuda_Category.hpp names Cuda.
// The tests' `#ifdef KOKKOS_ENABLE_CUDA` branches do not apply: GpuEmu is its own backend.
#ifndef WEFT_KOKKOS_TEST_GPUEMU_HPP
#define WEFT_KOKKOS_TEST_GPUEMU_HPP

#include <gtest/gtest.h>

#define TEST_CATEGORY gpuemu
#define TEST_CATEGORY_NUMBER 9
#define TEST_CATEGORY_DEATH gpuemu_DeathTest
#define TEST_EXECSPACE Kokkos::GpuEmu
#define TEST_CATEGORY_FIXTURE(name) gpuemu_##name

#endif
