// Function and lambda annotations that let one source compile for host and device backends.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define WEFT_HOST_DEVICE __host__ __device__
#else
#define WEFT_HOST_DEVICE
#endif

#define WEFT_FUNCTION WEFT_HOST_DEVICE
#define WEFT_INLINE_FUNCTION WEFT_HOST_DEVICE inline
#define WEFT_FORCEINLINE_FUNCTION WEFT_HOST_DEVICE inline __attribute__((always_inline))
#define WEFT_LAMBDA [=] WEFT_HOST_DEVICE
#define WEFT_CLASS_LAMBDA [ =, *this ] WEFT_HOST_DEVICE

#define WEFT_IMPL_STRINGIFY2(x) #x
#define WEFT_IMPL_STRINGIFY(x) WEFT_IMPL_STRINGIFY2(x)
