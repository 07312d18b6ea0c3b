// perf/gpu: timing with CUDA events on the default instance's stream, shared by the GPU benchmarks.
#pragma once

#include <benchmark/benchmark.h>

#include <weft/weft.hpp>

namespace weft_perf {

/// Times `body` with CUDA events on the default weft::Cuda instance's stream; `setup` (untimed, e.g. restoring
/// the input a sort overwrote) runs before each repetition and is waited for.
template <class Setup, class Body>
void timed(benchmark::State& st, Setup&& setup, Body&& body) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  const cudaStream_t s = weft::Cuda().cuda_stream();
  for (auto _ : st) {
    setup();
    cudaStreamSynchronize(s);
    cudaEventRecord(a, s);
    body();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    st.SetIterationTime(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}
template <class Body>
void timed(benchmark::State& st, Body&& body) {
  timed(
      st, [] {}, body);
}

}  // namespace weft_perf
