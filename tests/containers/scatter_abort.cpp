// A ScatterView made for Serial has one copy, the View itself; used from an OpenMP kernel of two threads it must
// abort naming the mistake, not let the second thread add into the View unsynchronized (updates lost silently).
#include <cstdio>

#include <weft/containers.hpp>
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  if (weft::OpenMP().concurrency() < 2) {
    std::puts("needs two OpenMP threads (OMP_NUM_THREADS=2)");
    return 1;
  }
  weft::View<long*, weft::HostSpace> bins("bins", 4);
  weft::ScatterView<long*, weft::LayoutRight, weft::Serial> scatter(bins);
  weft::parallel_for("scatter_from_openmp", weft::RangePolicy<weft::OpenMP>(0, 1000),
                     [=](int i) { scatter.access()(i % 4) += 1; });
  weft::Serial().fence();
  weft::contribute(bins, scatter);
  std::printf("no abort: bins(0) = %ld\n", bins(0));
  return 0;
}
