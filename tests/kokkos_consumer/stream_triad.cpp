// BabelStream's Kokkos kernels as it writes them: ViewAllocateWithoutInitializing, host mirrors, fences and a
// dot product, checked against the closed form of the iteration.
#include <Kokkos_Core.hpp>

template <class T>
struct Stream {
  Kokkos::View<T*> a, b, c;
  typename Kokkos::View<T*>::HostMirror ha, hb, hc;
  explicit Stream(int n)
      : a(Kokkos::ViewAllocateWithoutInitializing("a"), n),
        b(Kokkos::ViewAllocateWithoutInitializing("b"), n),
        c(Kokkos::ViewAllocateWithoutInitializing("c"), n) {
    ha = Kokkos::create_mirror_view(a);
    hb = Kokkos::create_mirror_view(b);
    hc = Kokkos::create_mirror_view(c);
  }
  void init(T ia, T ib, T ic) {
    auto a_ = a;
    auto b_ = b;
    auto c_ = c;
    Kokkos::parallel_for(
        a.extent(0), KOKKOS_LAMBDA(const long index) {
          a_[index] = ia;
          b_[index] = ib;
          c_[index] = ic;
        });
    Kokkos::fence();
  }
  void copy() {
    auto a_ = a;
    auto c_ = c;
    Kokkos::parallel_for(
        a.extent(0), KOKKOS_LAMBDA(const long index) { c_[index] = a_[index]; });
    Kokkos::fence();
  }
  void mul(T scalar) {
    auto b_ = b;
    auto c_ = c;
    Kokkos::parallel_for(
        b.extent(0), KOKKOS_LAMBDA(const long index) { b_[index] = scalar * c_[index]; });
    Kokkos::fence();
  }
  void add() {
    auto a_ = a;
    auto b_ = b;
    auto c_ = c;
    Kokkos::parallel_for(
        a.extent(0), KOKKOS_LAMBDA(const long index) { c_[index] = a_[index] + b_[index]; });
    Kokkos::fence();
  }
  void triad(T scalar) {
    auto a_ = a;
    auto b_ = b;
    auto c_ = c;
    Kokkos::parallel_for(
        a.extent(0), KOKKOS_LAMBDA(const long index) { a_[index] = b_[index] + scalar * c_[index]; });
    Kokkos::fence();
  }
  T dot() {
    auto a_ = a;
    auto b_ = b;
    T sum{0};
    Kokkos::parallel_reduce(
        a.extent(0), KOKKOS_LAMBDA(const long index, T& tmp) { tmp += a_[index] * b_[index]; }, sum);
    return sum;
  }
};

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int n = 1 << 20, times = 10;
    const double scalar = 0.4;
    Stream<double> s(n);
    s.init(0.1, 0.2, 0.0);
    Kokkos::Timer t;
    double sum = 0;
    for (int k = 0; k < times; ++k) {
      s.copy();
      s.mul(scalar);
      s.add();
      s.triad(scalar);
      sum = s.dot();
    }
    const double seconds = t.seconds();
    double ga = 0.1, gb = 0.2, gc = 0.0;  // the iteration on one element
    for (int k = 0; k < times; ++k) {
      gc = ga;
      gb = scalar * gc;
      gc = ga + gb;
      ga = gb + scalar * gc;
    }
    Kokkos::deep_copy(s.ha, s.a);
    Kokkos::deep_copy(s.hb, s.b);
    Kokkos::deep_copy(s.hc, s.c);
    double err = 0;
    for (int i = 0; i < n; ++i)
      err = Kokkos::fmax(err, Kokkos::fabs(s.ha(i) - ga) + Kokkos::fabs(s.hb(i) - gb) + Kokkos::fabs(s.hc(i) - gc));
    const double dot_err = std::fabs(sum - ga * gb * n) / (ga * gb * n);
    if (err > 1e-12 || dot_err > 1e-8) status = 1;
    std::printf("stream: %d elements x %d: max error %.3g, dot error %.3g, %.1f ms %s\n", n, times, err, dot_err,
                1e3 * seconds, status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
