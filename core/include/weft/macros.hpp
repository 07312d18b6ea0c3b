// Function and lambda annotations that let one source compile for host and device backends.
#pragma once

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>  // hip-clang, unlike nvcc, does not pre-include its runtime (atomicAdd, __shfl)
#endif

#if defined(__CUDACC__) || defined(__HIPCC__)
#define WEFT_HOST_DEVICE __host__ __device__
#else
#define WEFT_HOST_DEVICE
#endif

#define WEFT_FUNCTION WEFT_HOST_DEVICE
#define WEFT_INLINE_FUNCTION WEFT_HOST_DEVICE inline
#define WEFT_FORCEINLINE_FUNCTION WEFT_HOST_DEVICE inline __attribute__((always_inline))
/// Host-only code that must inline (the host backends' loops), kept out of device compilation.
#define WEFT_HOST_FORCEINLINE inline __attribute__((always_inline))
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define WEFT_IMPL_DEVICE_PASS 1
#else
#define WEFT_IMPL_DEVICE_PASS 0
#endif
/// Before a user-declared deduction guide: clang's HIP and CUDA take guides for host functions, so class template
/// argument deduction in device code needs them __host__ __device__ (nvcc deduces without).
#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))
#define WEFT_DEDUCTION_GUIDE __host__ __device__
#else
#define WEFT_DEDUCTION_GUIDE
#endif
#define WEFT_LAMBDA [=] WEFT_HOST_DEVICE
#define WEFT_CLASS_LAMBDA [ =, *this ] WEFT_HOST_DEVICE

/// 1 when NVIDIA's nvcc compiles (its pragmas below and in parallel.hpp), not clang's CUDA or HIP.
#if defined(__CUDACC__) && !defined(__clang__)
#define WEFT_IMPL_NVCC 1
#else
#define WEFT_IMPL_NVCC 0
#endif
/// Before a __host__ __device__ template whose instantiation for a host-only type (std::complex, which nvcc's device
/// code lacks) calls host functions: nvcc does not warn about its device pass, which only host spaces' code reaches.
#if WEFT_IMPL_NVCC
#define WEFT_IMPL_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define WEFT_IMPL_EXEC_CHECK_DISABLE
#endif

#define WEFT_IMPL_STRINGIFY2(x) #x
#define WEFT_IMPL_STRINGIFY(x) WEFT_IMPL_STRINGIFY2(x)

/// Stops the kernel (device code only).
#if defined(__CUDA_ARCH__)
#define WEFT_IMPL_DEVICE_TRAP() __trap()
#else
#define WEFT_IMPL_DEVICE_TRAP() __builtin_trap()
#endif
