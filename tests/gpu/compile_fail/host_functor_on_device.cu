// Must not compile (CUDA builds check it at configure time, tests/CMakeLists.txt): a functor whose operator() is
// host-only, dispatched on weft::Cuda, is an error naming that operator() (weft::impl::invoke makes nvcc's #20011
// an error), not a warning and a kernel that cannot call it. With WEFT_PROBE_GOOD its operator() is
// WEFT_INLINE_FUNCTION and it compiles; on a host space the host-only one compiles too.
#include <weft/weft.hpp>

struct HostOnlyFunctor {
  weft::View<double*, weft::CudaSpace> x;
#ifdef WEFT_PROBE_GOOD
  WEFT_INLINE_FUNCTION
#endif
  void operator()(int i) const { x(i) = i; }
};

struct HostFunctor {
  weft::View<double*, weft::HostSpace> x;
  void operator()(int i) const { x(i) = i; }
};

void probe() {
  weft::View<double*, weft::CudaSpace> x("x", 4);
  weft::parallel_for("probe", weft::RangePolicy<weft::Cuda>(0, 4), HostOnlyFunctor{x});
  weft::View<double*, weft::HostSpace> h("h", 4);
  weft::parallel_for("probe (host)", weft::RangePolicy<weft::DefaultHostExecutionSpace>(0, 4), HostFunctor{h});
}
