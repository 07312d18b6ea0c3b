// View: construction, ranks 0..8, static extents, layouts, subviews, deep_copy, mirrors, resize,
// reference counting, unmanaged and atomic views, and the errors a user can cause.
#include <limits>
#include <new>
#include <numeric>
#include <random>
#include <string>

#include <weft/containers/dyn_rank_view.hpp>

#include "test_common.hpp"

namespace {

TEST_CASE_TEMPLATE("View ranks 0..8 have the extents, strides and size given", E, WEFT_TEST_HOST_SPACES) {
  weft::View<double, E> r0("r0");
  CHECK(r0.rank() == 0);
  CHECK(r0.size() == 1);
  CHECK(r0.span() == 1);
  weft::View<int********, E> r8("r8", 2, 1, 3, 1, 2, 1, 1, 2);
  CHECK(decltype(r8)::rank == 8);
  CHECK(decltype(r8)::rank_dynamic == 8);
  CHECK(r8.size() == 24);
  CHECK(r8.extent(2) == 3);
  CHECK(r8.extent_int(7) == 2);
  CHECK(r8.stride(7) == 1);
  CHECK(r8.stride(6) == 2);
  CHECK(r8.stride(0) == 12);
  CHECK(r8.span_is_contiguous());
  CHECK(r8.label() == "r8");
  r8(1, 0, 2, 0, 1, 0, 0, 1) = 7;
  CHECK(r8.data()[12 + 2 * 4 + 2 + 1] == 7);

  weft::View<double** [3], E> s("s", 4, 5);
  CHECK(s.rank == 3);
  CHECK(s.rank_dynamic == 2);
  CHECK(decltype(s)::static_extent(2) == 3);
  CHECK(decltype(s)::static_extent(0) == 0);
  CHECK(s.extent(2) == 3);
  CHECK(s.size() == 60);
  weft::View<double** [3], E> s_all("s_all", 4, 5, 3);
  CHECK(s_all.size() == 60);
  CHECK_THROWS_WITH_AS((weft::View<double** [3], E>("bad_static", 4, 5, 2)),
                       doctest::Contains("extent 2 given as 2 but the data type fixes it at 3"), weft::Error);
  // another count of extents compiles (a branch that never runs for this type) and is refused when it runs
  CHECK_THROWS_WITH_AS((weft::View<double*, E>("too_many", 4, 5)),
                       doctest::Contains("\"too_many\": 2 extents given for a rank-1 View with 1 runtime extents; give "
                                         "1 (one per '*') or all 1"),
                       weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<double** [3], E>("three_of_two", 4)),
                       doctest::Contains("1 extents given for a rank-3 View with 2 runtime extents"), weft::Error);
  // trailing KOKKOS_INVALID_INDEX (~size_t(0)) extents are not given
  weft::View<double*, E> padded("padded", 6, ~std::size_t(0), ~std::size_t(0));
  CHECK(padded.extent(0) == 6);
  CHECK(padded.size() == 6);
}

/// Kokkos's view_is_assignable table: always (from the types), sometimes (for these Views), and the assignment
/// itself where it may happen.
template <class Dst, class Src, class... N>
void check_assignability(bool always, bool sometimes, N... n) {
  CAPTURE(always);
  CAPTURE(sometimes);
  Dst dst;
  Src src("src", n...);
  CHECK(weft::is_always_assignable<Dst, Src>::value == always);
  CHECK(weft::is_always_assignable_v<Dst&, const Src&> == always);
  CHECK(weft::is_assignable(dst, src) == sometimes);
  if constexpr (weft::impl::view_type_assignable<Dst, Src>::value) {
    if (sometimes) {
      dst = src;
      CHECK(dst.data() == src.data());
    } else {
      CHECK_THROWS_AS(dst = src, weft::Error);
    }
  }
}

// View sizes against Kokkos 4.6.01's (x86-64, its default View, read off Kokkos_ViewMapping.hpp: a pointer, the
// tracker, the runtime extents, and the strides its layout stores: none for rank <= 1 LayoutLeft/LayoutRight or one
// with every extent static, one otherwise, every one for LayoutStride). Weft's are the same size; bounds checks
// add the label pointer device code prints.
template <class V>
constexpr bool same_as_kokkos(std::size_t kokkos) {
  return sizeof(V) == kokkos + (WEFT_HAS_BOUNDS_CHECK ? sizeof(void*) : 0);
}
template <class Space>
constexpr bool view_sizes_match_kokkos() {
  using weft::LayoutLeft, weft::LayoutRight, weft::LayoutStride;
  using U = weft::MemoryTraits<weft::Unmanaged>;
  static_assert(same_as_kokkos<weft::View<double*, Space>>(24));
  static_assert(same_as_kokkos<weft::View<double**, Space>>(40));
  static_assert(same_as_kokkos<weft::View<double* [3], Space>>(32));
  static_assert(same_as_kokkos<weft::View<double***, Space>>(48));
  static_assert(same_as_kokkos<weft::View<double, Space>>(24));
  static_assert(same_as_kokkos<weft::View<double[3], Space>>(24));
  static_assert(same_as_kokkos<weft::View<double[3][4], LayoutLeft, Space>>(24));
  static_assert(same_as_kokkos<weft::View<double[3][4], Space>>(24));
  static_assert(same_as_kokkos<weft::View<double*, LayoutLeft, Space>>(24));
  static_assert(same_as_kokkos<weft::View<double**, LayoutLeft, Space>>(40));
  static_assert(same_as_kokkos<weft::View<double* [3], LayoutLeft, Space>>(32));
  static_assert(same_as_kokkos<weft::View<double********, LayoutLeft, Space>>(88));
  static_assert(same_as_kokkos<weft::View<double*, LayoutStride, Space>>(32));
  static_assert(same_as_kokkos<weft::View<double**, LayoutStride, Space>>(48));
  static_assert(same_as_kokkos<weft::View<double* [3], LayoutStride, Space>>(40));
  static_assert(same_as_kokkos<weft::View<const double*, Space>>(24));
  static_assert(same_as_kokkos<weft::View<const double**, LayoutLeft, Space>>(40));
  static_assert(same_as_kokkos<weft::View<double*, Space, U>>(24));
  static_assert(same_as_kokkos<weft::View<const int**, Space, U>>(40));
  static_assert(same_as_kokkos<weft::View<double*, Space, weft::MemoryTraits<weft::Atomic>>>(24));
  return true;
}
static_assert(view_sizes_match_kokkos<weft::HostSpace>());
static_assert(view_sizes_match_kokkos<weft::DefaultExecutionSpace::memory_space>());
// The host's packed launch (a functor of at most host_packed_functor_max bytes copied next to the range) takes 4
// rank-1 Views in a release build, as Kokkos's Views would fill it (bounds checks add a label pointer to each).
static_assert(WEFT_HAS_BOUNDS_CHECK || 4 * sizeof(weft::View<double*>) <= weft::impl::host_packed_functor_max);

TEST_CASE_TEMPLATE("padded layouts of rank 3 and 4: one stride stored, the others its products", E,
                   WEFT_TEST_HOST_SPACES) {
  weft::LayoutRight lr(3, 4, 5);
  lr.stride = 7;  // dimension 1's stride: dimension 2 (5 elements) padded to 7
  weft::View<int***, weft::LayoutRight, E> r("r", lr);
  CHECK(r.stride(2) == 1);
  CHECK(r.stride(1) == 7);
  CHECK(r.stride(0) == 28);
  CHECK(r.span() == 2 * 28 + 3 * 7 + 4 + 1);
  CHECK_FALSE(r.span_is_contiguous());
  CHECK(r.layout().stride == 7);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) r(i, j, k) = 100 * i + 10 * j + k;
  CHECK(r.data()[2 * 28 + 3 * 7 + 4] == 234);
  CHECK(r.data()[1 * 28 + 0 * 7 + 2] == 102);

  weft::LayoutLeft ll(3, 4, 5, 2);
  ll.stride = 6;  // dimension 0 (3 elements) padded to 6
  weft::View<int****, weft::LayoutLeft, E> l("l", ll);
  CHECK(l.stride(0) == 1);
  CHECK(l.stride(1) == 6);
  CHECK(l.stride(2) == 24);
  CHECK(l.stride(3) == 120);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k)
        for (int m = 0; m < 2; ++m) l(i, j, k, m) = 1000 * m + 100 * k + 10 * j + i;
  CHECK(l.data()[2 + 3 * 6 + 4 * 24 + 1 * 120] == 1432);

  // subviews of padded Views keep the padding, in the layouts Kokkos gives them
  auto rs = weft::subview(r, std::pair(1, 3), weft::ALL, weft::ALL);
  static_assert(std::is_same_v<typename decltype(rs)::array_layout, weft::LayoutRight>);
  CHECK(rs.stride(0) == 28);
  CHECK(rs.stride(1) == 7);
  CHECK(rs(1, 3, 4) == 234);
  auto rt = weft::subview(r, weft::ALL, std::pair(1, 3), weft::ALL);
  static_assert(std::is_same_v<typename decltype(rt)::array_layout, weft::LayoutStride>);
  CHECK(rt(2, 1, 4) == 224);
  auto ls = weft::subview(l, std::pair(1, 3), weft::ALL, std::pair(2, 5), 1);
  static_assert(std::is_same_v<typename decltype(ls)::array_layout, weft::LayoutLeft>);
  CHECK(ls.stride(1) == 6);
  CHECK(ls.stride(2) == 24);
  CHECK(ls(1, 3, 2) == 1000 + 400 + 30 + 2);
  auto lt = weft::subview(l, weft::ALL, 2, weft::ALL, weft::ALL);
  static_assert(std::is_same_v<typename decltype(lt)::array_layout, weft::LayoutStride>);
  CHECK(lt(2, 4, 1) == 1000 + 400 + 20 + 2);
  // a padded LayoutRight View has no LayoutRight DynRankView (one stride, at dimension 5 of its rank-7 View)
  using RightDRV = weft::DynRankView<int, weft::LayoutRight, E>;
  CHECK_THROWS_WITH_AS(RightDRV{r}, doctest::Contains("cannot become a LayoutRight DynRankView"), weft::Error);
  weft::DynRankView<int, weft::LayoutStride, E> dr(r);
  CHECK(dr(2, 3, 4) == 234);
  weft::DynRankView<int, weft::LayoutLeft, E> dl(l);
  CHECK(dl(2, 3, 4, 1) == 1432);
}

TEST_CASE_TEMPLATE("is_always_assignable and is_assignable answer as Kokkos's", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  using L = weft::LayoutLeft;
  using R = weft::LayoutRight;
  using S = weft::LayoutStride;
  check_assignability<weft::View<int*, L, M>, weft::View<int*, L, M>>(true, true, 10);
  check_assignability<weft::View<int[10], L, M>, weft::View<int*, L, M>>(false, true, 10);
  check_assignability<weft::View<int[5], L, M>, weft::View<int*, L, M>>(false, false, 10);
  check_assignability<weft::View<int*, L, M>, weft::View<int[10], L, M>>(true, true);
  check_assignability<weft::View<int[5], L, M>, weft::View<int[10], L, M>>(false, false);
  check_assignability<weft::View<int* [10], L, M>, weft::View<int**, L, M>>(false, true, 10, 10);
  check_assignability<weft::View<int* [5], L, M>, weft::View<int**, L, M>>(false, false, 10, 10);
  check_assignability<weft::View<int**, L, M>, weft::View<int* [10], L, M>>(true, true, 10);
  check_assignability<weft::View<int* [5], L, M>, weft::View<int* [10], L, M>>(false, false, 10);
  check_assignability<weft::View<int*, L, M>, weft::View<double*, L, M>>(false, false, 10);
  check_assignability<weft::View<int, L, M>, weft::View<int, R, M>>(true, true);
  check_assignability<weft::View<int*, L, M>, weft::View<int*, R, M>>(true, true, 10);
  check_assignability<weft::View<int[10], L, M>, weft::View<int*, R, M>>(false, true, 10);
  check_assignability<weft::View<int**, L, M>, weft::View<int**, R, M>>(false, false, 10, 2);
  check_assignability<weft::View<int**, S, M>, weft::View<int**, R, M>>(true, true, 10, 2);
  check_assignability<weft::View<int**, S, M>, weft::View<int**, L, M>>(true, true, 10, 2);
  check_assignability<weft::View<const int*, L, M>, weft::View<int*, L, M>>(true, true, 10);
  check_assignability<weft::View<int*, L, M>, weft::View<const int*, L, M>>(false, false, 10);
  constexpr bool same = std::is_same_v<M, weft::HostSpace>;
  check_assignability<weft::View<int*, L, M>, weft::View<int*, L, weft::HostSpace>>(same, same, 10);
  static_assert(!weft::is_always_assignable_v<weft::View<int*>, int*>);
}

TEST_CASE_TEMPLATE("View allocations are zero-initialized unless WithoutInitializing", E, WEFT_TEST_HOST_SPACES) {
  weft::View<double*, E> a("a", 100000);
  double s = 0;
  for (std::size_t i = 0; i < a.extent(0); ++i) s += a(i) * a(i);
  CHECK(s == 0.0);
  weft::View<double*, E> b(weft::view_alloc(weft::WithoutInitializing, "b"), 1000);
  CHECK(b.label() == "b");
  CHECK(b.extent(0) == 1000);
  weft::View<std::string*, E> strings("strings", 3);  // non-trivial types are always constructed
  CHECK(strings(2).empty());
  strings(1) = "weft";
  CHECK(strings(1) == "weft");
}

TEST_CASE_TEMPLATE("LayoutLeft, LayoutRight and LayoutStride map indices as documented", E, WEFT_TEST_HOST_SPACES) {
  weft::View<int**, weft::LayoutLeft, E> l("l", 3, 4);
  weft::View<int**, weft::LayoutRight, E> r("r", 3, 4);
  CHECK(l.stride(0) == 1);
  CHECK(l.stride(1) == 3);
  CHECK(r.stride(0) == 4);
  CHECK(r.stride(1) == 1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      l(i, j) = 10 * i + j;
      r(i, j) = 10 * i + j;
    }
  CHECK(l.data()[2 + 3 * 1] == 21);
  CHECK(r.data()[2 * 4 + 1] == 21);
  weft::View<int**, weft::LayoutStride, E> st("st", weft::LayoutStride(3, 8, 4, 2));
  CHECK(st.stride(0) == 8);
  CHECK(st.stride(1) == 2);
  CHECK(st.span() == 2 * 8 + 3 * 2 + 1);
  CHECK_FALSE(st.span_is_contiguous());
  st(2, 3) = 5;
  CHECK(st.data()[16 + 6] == 5);
  weft::View<int**, weft::LayoutStride, E> from_left = l;  // any layout converts to LayoutStride
  CHECK(from_left(2, 1) == 21);
  CHECK(from_left.stride(1) == 3);
}

TEST_CASE_TEMPLATE("subview with integers, ALL and ranges keeps the right layout and elements", E,
                   WEFT_TEST_HOST_SPACES) {
  weft::View<double***, E> a("a", 4, 5, 6);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 6; ++k) a(i, j, k) = 100 * i + 10 * j + k;
  auto row = weft::subview(a, 2, 3, weft::ALL);
  static_assert(std::is_same_v<typename decltype(row)::array_layout, weft::LayoutRight>);
  CHECK(row.rank == 1);
  CHECK(row.extent(0) == 6);
  CHECK(row(4) == 234);
  auto col = weft::subview(a, weft::ALL, 1, 2);
  static_assert(std::is_same_v<typename decltype(col)::array_layout, weft::LayoutStride>);
  CHECK(col.extent(0) == 4);
  CHECK(col.stride(0) == 30);
  CHECK(col(3) == 312);
  // Two ranges then ALL: LayoutStride, as in Kokkos (rank >= 3 keeps LayoutRight only for integers, one range,
  // then ALLs; its Views store one stride, and this block's first stride is not a product of the second)
  auto block = weft::subview(a, weft::pair<int, int>(1, 3), std::pair<int, int>(2, 5), weft::ALL);
  static_assert(std::is_same_v<typename decltype(block)::array_layout, weft::LayoutStride>);
  auto slab = weft::subview(a, weft::pair<int, int>(1, 3), weft::ALL, weft::ALL);
  static_assert(std::is_same_v<typename decltype(slab)::array_layout, weft::LayoutRight>);
  CHECK(slab(1, 4, 5) == 245);
  CHECK(slab.stride(0) == 30);
  CHECK(block.extent(0) == 2);
  CHECK(block.extent(1) == 3);
  CHECK(block(1, 2, 5) == 245);
  CHECK_FALSE(block.span_is_contiguous());
  auto scalar = weft::subview(a, 3, 4, 5);
  CHECK(scalar.rank == 0);
  CHECK(scalar() == 345);
  CHECK(row.use_count() == a.use_count());
  CHECK(a.use_count() == 6);  // a, row, col, block, slab, scalar

  weft::View<double**, weft::LayoutLeft, E> left("left", 5, 7);
  auto lcol = weft::subview(left, weft::ALL, 3);
  static_assert(std::is_same_v<typename decltype(lcol)::array_layout, weft::LayoutLeft>);
  lcol(4) = 1.5;
  CHECK(left(4, 3) == 1.5);
  auto empty = weft::subview(left, std::pair<int, int>(2, 2), weft::ALL);
  CHECK(empty.size() == 0);
  CHECK_THROWS_WITH_AS(weft::subview(left, std::pair<int, int>(3, 6), weft::ALL),
                       doctest::Contains("selects [3, 6) outside extent 5"), weft::Error);
  // A negative index is named as written, not as the unsigned number it would wrap to.
  CHECK_THROWS_WITH_AS(weft::subview(left, -1, weft::ALL), doctest::Contains("subview argument 0 is negative (-1)"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(weft::subview(left, weft::ALL, std::pair<int, int>(-2, 3)),
                       doctest::Contains("subview argument 1 is negative (-2)"), weft::Error);
}

TEST_CASE_TEMPLATE("subview keeps compile-time extents and the parent's memory traits as Kokkos does", E,
                   WEFT_TEST_HOST_SPACES) {
  // ALL over a compile-time extent keeps it in the type; a range (or ALL over a runtime extent) gives a runtime one,
  // and runtime extents come first, so a runtime dimension turns the kept ones to its left into runtime ones.
  weft::View<int* [10][5][2], E> a("a", 20);
  weft::View<int[6][7][8], E> b("b");
  using weft::ALL;
  const auto r = weft::make_pair(0, 1);
  static_assert(std::is_same_v<typename decltype(weft::subview(a, 0, ALL, ALL, ALL))::data_type, int[10][5][2]>);
  static_assert(std::is_same_v<typename decltype(weft::subview(a, 0, 0, ALL, 0))::data_type, int[5]>);
  static_assert(std::is_same_v<typename decltype(weft::subview(a, ALL, 0, ALL, ALL))::data_type, int* [5][2]>);
  static_assert(std::is_same_v<typename decltype(weft::subview(a, ALL, 0, ALL, r))::data_type, int***>);
  static_assert(std::is_same_v<typename decltype(weft::subview(a, ALL, 0, r, ALL))::data_type, int** [2]>);
  static_assert(std::is_same_v<typename decltype(weft::subview(b, r, ALL, ALL))::data_type, int* [7][8]>);
  static_assert(std::is_same_v<typename decltype(weft::subview(b, 1, 2, 3))::data_type, int>);
  // The elements are those of the parent, whatever the type.
  std::mt19937 gen(77);
  for (std::size_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<int>(gen() % 1000);
  auto s = weft::subview(a, 7, ALL, 3, ALL);
  static_assert(decltype(s)::rank_dynamic == 0 && decltype(s)::rank == 2);
  CHECK(s.extent(0) == 10);
  CHECK(s.extent(1) == 2);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 2; ++j) CHECK(s(i, j) == a(7, i, 3, j));
  auto t = weft::subview(a, weft::make_pair(3, 9), 4, ALL, ALL);
  static_assert(std::is_same_v<typename decltype(t)::data_type, int* [5][2]>);
  CHECK(t.extent(0) == 6);
  CHECK(t(5, 4, 1) == a(8, 4, 4, 1));
  weft::View<const int**, weft::LayoutStride, E> dyn = s;  // to runtime extents
  CHECK(dyn(9, 1) == a(7, 9, 3, 1));
  // Memory traits: the parent's, less Aligned.
  weft::View<double*, E> base("base", 8);
  using Traits = weft::MemoryTraits<weft::Unmanaged | weft::RandomAccess | weft::Aligned>;
  weft::View<double*, E, Traits> u(base.data(), 8);
  auto su = weft::subview(u, weft::make_pair(2, 5));
  static_assert(decltype(su)::memory_traits::impl_value == (weft::Unmanaged | weft::RandomAccess));
  static_assert(decltype(weft::subview(base, ALL))::memory_traits::impl_value == 0);
  // void in a View's properties means the default.
  static_assert(std::is_same_v<typename weft::View<int*, weft::LayoutLeft, E, void>::array_layout, weft::LayoutLeft>);
}

TEST_CASE_TEMPLATE("deep_copy between layouts, strided subviews and scalars", E, WEFT_TEST_HOST_SPACES) {
  const int n = 37, m = 53;
  weft::View<double**, weft::LayoutRight, E> r("r", n, m);
  weft::View<double**, weft::LayoutLeft, E> l("l", n, m);
  auto vals = weft_test::random_values<double>(n * m, 1234);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) r(i, j) = vals[i * m + j];
  weft::deep_copy(l, r);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) bad += l(i, j) != vals[i * m + j];
  CHECK(bad == 0);

  weft::View<double**, weft::LayoutRight, E> r2("r2", n, m);
  weft::deep_copy(r2, r);  // contiguous, same layout: a memcpy
  CHECK(r2(n - 1, m - 1) == vals[n * m - 1]);

  auto sub = weft::subview(l, std::pair<int, int>(3, 20), weft::ALL);
  weft::deep_copy(sub, -2.0);
  CHECK(l(2, 0) == vals[2 * m]);
  CHECK(l(3, 0) == -2.0);
  CHECK(l(19, m - 1) == -2.0);
  CHECK(l(20, m - 1) == vals[20 * m + m - 1]);

  weft::View<double, E> s("s");
  weft::deep_copy(s, 4.25);
  double out = 0;
  weft::deep_copy(out, s);
  CHECK(out == 4.25);

  weft::View<double**, E> wrong("wrong", m, n);
  CHECK_THROWS_WITH_AS(weft::deep_copy(wrong, r),
                       doctest::Contains("extents differ: destination (53, 37), source (37, 53)"), weft::Error);
  weft::View<double*, E> big("big", 1 << 20);  // big enough for the parallel copy paths
  weft::View<double*, E> big2("big2", 1 << 20);
  weft::deep_copy(big, 3.0);
  weft::deep_copy(E(), big2, big);
  E().fence();
  CHECK(big2((1 << 20) - 1) == 3.0);
  CHECK(big2(0) == 3.0);
}

TEST_CASE_TEMPLATE("mirrors, resize and realloc", E, WEFT_TEST_HOST_SPACES) {
  weft::View<int**, E> a("a", 3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) a(i, j) = i * 4 + j;
  auto h = weft::create_mirror_view(a);
  CHECK(h.data() == a.data());  // host memory: the mirror view is the view
  auto c = weft::create_mirror(a);
  CHECK(c.data() != a.data());
  CHECK(c.label() == "a_mirror");
  CHECK(c(2, 3) == 0);
  weft::deep_copy(c, a);
  CHECK(c(2, 3) == 11);
  auto hc = weft::create_mirror_view_and_copy(weft::HostSpace(), a);
  CHECK(hc(1, 2) == 6);

  weft::resize(a, 5, 2);
  CHECK(a.extent(0) == 5);
  CHECK(a.extent(1) == 2);
  CHECK(a.label() == "a");
  CHECK(a(2, 1) == 9);
  CHECK(a(4, 1) == 0);
  weft::realloc(a, 7, 7);
  CHECK(a.extent(0) == 7);
  CHECK(a(6, 6) == 0);

  weft::View<double**, weft::LayoutStride, E> st("st", weft::LayoutStride(2, 1, 3, 2));
  auto sm = weft::create_mirror(st);
  static_assert(std::is_same_v<typename decltype(sm)::array_layout, weft::LayoutRight>);
  CHECK(sm.extent(1) == 3);
}

TEST_CASE_TEMPLATE("reference counting: copies count, kernel copies do not, the last one frees", E,
                   WEFT_TEST_HOST_SPACES) {
  weft::View<double*, E> a("counted", 10);
  CHECK(a.use_count() == 1);
  {
    auto b = a;
    CHECK(a.use_count() == 2);
    weft::View<const double*, E> c = b;
    CHECK(a.use_count() == 3);
  }
  CHECK(a.use_count() == 1);
  weft::View<int*, E> seen("seen", 1000);
  weft::parallel_for(weft::RangePolicy<E>(0, 1000), [=](int i) {
    auto inner = a;  // a copy inside a kernel never touches the count
    seen(i) = inner.use_count();
  });
  int wrong = 0;
  for (int i = 0; i < 1000; ++i) wrong += seen(i) != 2;  // a and the lambda's capture
  CHECK(wrong == 0);
  CHECK(a.use_count() == 1);
  weft::View<double*, E> moved = std::move(a);
  CHECK(moved.use_count() == 1);
  CHECK_FALSE(a.is_allocated());
  weft::View<double*, E> zero("zero", 0);
  CHECK(zero.is_allocated());
  CHECK(zero.size() == 0);
  weft::View<double*, E> none;
  CHECK_FALSE(none.is_allocated());
  CHECK(none.use_count() == 0);
  // An empty handle is marked as not counting (so a copy or a release tests one flag bit, as Kokkos's does): an empty
  // View, a moved-from one and their copies hold nothing, and assigning an empty View releases the old reference.
  CHECK_FALSE(none.impl_track().holds_reference());
  CHECK_FALSE(a.impl_track().holds_reference());
  CHECK(moved.impl_track().holds_reference());
  weft::View<double*, E> reassigned = moved;
  CHECK(moved.use_count() == 2);
  reassigned = none;
  CHECK(moved.use_count() == 1);
  CHECK_FALSE(reassigned.is_allocated());
  CHECK_FALSE(reassigned.impl_track().holds_reference());
  reassigned = std::move(moved);
  CHECK(reassigned.use_count() == 1);
  CHECK_FALSE(moved.impl_track().holds_reference());
  weft::View<int*, E> empty_inside("empty_inside", 100);
  weft::parallel_for(weft::RangePolicy<E>(0, 100), [=](int i) {
    auto copy = none;
    auto from_moved = a;
    empty_inside(i) = (copy.is_allocated() ? 1 : 0) + (from_moved.is_allocated() ? 2 : 0) +
                      (copy.impl_track().holds_reference() ? 4 : 0);
  });
  int nonzero = 0;
  for (int i = 0; i < 100; ++i) nonzero += empty_inside(i) != 0;
  CHECK(nonzero == 0);
  CHECK(reassigned.use_count() == 1);
}

TEST_CASE_TEMPLATE("rank-0 Views convert to LayoutStride and back (a rank-0 stride map stores nothing)", E,
                   WEFT_TEST_HOST_SPACES) {
  weft::View<double, E> scalar("scalar");
  scalar() = 2.5;
  weft::View<double, weft::LayoutStride, E> strided = scalar;  // DynRankView's rank-0 subviews take this path
  CHECK(strided() == 2.5);
  CHECK(strided.data() == scalar.data());
  CHECK(scalar.use_count() == 2);
  weft::View<const double, weft::LayoutRight, E> back = strided;
  CHECK(back() == 2.5);
  CHECK(weft::subview(weft::View<double**, weft::LayoutStride, E>(scalar.data(), weft::LayoutStride(1, 1, 1, 1)), 0,
                      0)() == 2.5);
}

TEST_CASE_TEMPLATE("unmanaged views wrap user memory", E, WEFT_TEST_HOST_SPACES) {
  std::vector<double> mem(12);
  std::iota(mem.begin(), mem.end(), 0.0);
  weft::View<double**, E, weft::MemoryUnmanaged> u(mem.data(), 3, 4);
  CHECK(u(2, 1) == 9.0);
  CHECK(u.use_count() == 0);
  weft::View<double**, weft::LayoutLeft, E, weft::MemoryTraits<weft::Unmanaged>> ul(mem.data(), 3, 4);
  CHECK(ul(2, 1) == 5.0);
  weft::View<double*, E> managed("m", 4);
  weft::View<double*, E, weft::MemoryUnmanaged> alias = managed;
  CHECK(managed.use_count() == 1);
  CHECK(alias.data() == managed.data());
}

TEST_CASE_TEMPLATE("Atomic memory trait makes every access atomic", E, WEFT_TEST_HOST_SPACES) {
  const int n = 200000, bins = 7;
  weft::View<long*, E> counts("counts", bins);
  weft::View<double*, E> sums("sums", bins);
  weft::View<long*, E, weft::MemoryTraits<weft::Atomic>> ac = counts;
  weft::View<double*, E, weft::MemoryTraits<weft::Atomic>> as = sums;
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        ac(i % bins) += 1;
        as(i % bins) += 0.5;
      });
  for (int b = 0; b < bins; ++b) {
    const long expect = n / bins + (b < n % bins ? 1 : 0);
    CHECK(counts(b) == expect);
    CHECK(sums(b) == doctest::Approx(0.5 * expect));
  }
}

TEST_CASE("View errors name the label, the sizes and the fix") {
  CHECK_THROWS_WITH_AS(weft::View<double*>("negative", -3),
                       doctest::Contains("\"negative\": extent 0 is negative (-3)"), weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<double**>("overflow", std::size_t(1) << 40, std::size_t(1) << 40)),
                       doctest::Contains("\"overflow\": extents (1099511627776, 1099511627776) of 8-byte elements "
                                         "need 18446744073709551615 bytes or more, more than one allocation can hold"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(weft::View<char*>("huge", std::size_t(1) << 62),
                       doctest::Contains("allocating 4611686018427387904 bytes for \"huge\" failed"), weft::Error);
  weft::View<double**, weft::LayoutStride> st("st", weft::LayoutStride(4, 3, 2, 1));
  auto col = weft::subview(st, weft::ALL, 0);
  CHECK_THROWS_WITH_AS((weft::View<double*, weft::LayoutRight>(col)),
                       doctest::Contains("cannot be assigned to a contiguous layout"), weft::Error);
  weft::View<double*> dyn("dyn", 4);
  weft::View<double[3]> fixed_ok(weft::View<double[3]>("ok"));
  CHECK(fixed_ok.extent(0) == 3);
  CHECK_THROWS_WITH_AS((weft::View<double[3]>(dyn)), doctest::Contains("fixes extent 0 at 3, but it is 4"),
                       weft::Error);
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("device-side views: layouts, subviews, deep_copy and fills, checked through mirrors", E,
                   WEFT_TEST_EXEC_SPACES) {
  const int n = 37, m = 53;
  weft::View<double**, weft::LayoutRight, E> r("r", n, m);
  weft::View<double**, weft::LayoutLeft, E> l("l", n, m);
  auto vals = weft_test::random_values<double>(n * m, 99);
  {
    auto hr = weft::create_mirror_view(r);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) hr(i, j) = vals[i * m + j];
    weft::deep_copy(r, hr);  // host -> device, contiguous
  }
  weft::deep_copy(l, r);  // device -> device across layouts: an element-wise kernel
  auto sub = weft::subview(l, std::pair<int, int>(3, 20), weft::ALL);
  weft::deep_copy(sub, -2.0);  // fill of a strided subview on the device
  weft::View<double*, weft::LayoutStride, E> col = weft::subview(r, weft::ALL, 7);
  weft::View<double*, E> col_copy("col_copy", n);
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) { col_copy(i) = 2 * col(i); });
  auto hl = weft_test::on_host(l);
  auto hc = weft_test::on_host(col_copy);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) wrong += hl(i, j) != ((i >= 3 && i < 20) ? -2.0 : vals[i * m + j]);
    wrong += hc(i) != 2 * vals[i * m + 7];
  }
  CHECK(wrong == 0);
  weft::View<int***, E> big("big", 64, 64, 64);  // large enough for the parallel fill path
  weft::deep_copy(E(), big, 7);
  E().fence();
  long s = 0;
  weft::parallel_reduce(
      weft::MDRangePolicy<E, weft::Rank<3>>({0, 0, 0}, {64, 64, 64}),
      WEFT_LAMBDA(int i, int j, int k, long& a) { a += big(i, j, k); }, s);
  CHECK(s == 7L * 64 * 64 * 64);
}

}  // namespace

namespace {

TEST_CASE_TEMPLATE("deep_copy between host and device views of different layouts and strides", E,
                   WEFT_TEST_EXEC_SPACES) {
  const int n = 9, m = 14;
  weft::View<double**, weft::LayoutLeft, E> dev("dev", n, m);
  weft::View<double**, weft::LayoutRight, weft::HostSpace> host("host", n, m + 5);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m + 5; ++j) host(i, j) = 100.0 * i + j;
  auto host_part = weft::subview(host, weft::ALL, std::pair<int, int>(2, 2 + m));  // strided, LayoutRight
  weft::deep_copy(dev, host_part);  // host strided -> device LayoutLeft: staged
  weft::View<double**, weft::LayoutRight, weft::HostSpace> back("back", n, m);
  weft::deep_copy(back, dev);  // device LayoutLeft -> host LayoutRight: staged
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) wrong += back(i, j) != 100.0 * i + j + 2;
  CHECK(wrong == 0);
  auto dev_col = weft::subview(dev, weft::ALL, 3);  // a device column: contiguous in LayoutLeft
  weft::View<double*, weft::HostSpace> col("col", n);
  weft::deep_copy(col, dev_col);
  CHECK(col(n - 1) == 100.0 * (n - 1) + 5);
  auto dev_row = weft::subview(dev, 4, weft::ALL);  // a device row: strided
  weft::View<double*, weft::HostSpace> row("row", m);
  weft::deep_copy(row, dev_row);
  CHECK(row(m - 1) == 400.0 + m + 1);
}

}  // namespace

namespace {

struct Odd7 {
  char c[7];
};

// Byte counts near and past 2^63 (impl::check_bytes): each is one weft::Error naming the label, the extents (and
// strides) and the bytes, on every backend; before the checked arithmetic these wrapped to small allocations that
// the initialization overran, or spun in the device pool's size-class loop.
TEST_CASE_TEMPLATE("impossible View sizes raise weft::Error naming the label, the extents and the bytes", E,
                   WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  // 3 x 768614336404564650 x 8 = 2^64 - 16 bytes: fits size_t, but rounding up to the allocation's 64-byte
  // alignment wrapped to 0.
  CHECK_THROWS_WITH_AS(
      (weft::View<double**, M>("w", 3, 768614336404564650ull)),
      doctest::Contains((std::string("weft::View \"w\": extents (3, 768614336404564650) of 8-byte elements need ") +
                         "18446744073709551600 bytes, more than one allocation can hold "
                         "(9223372036854775807 bytes); " +
                         std::string(M::name()) +
                         " memory space failed to allocate them (label=\"w\"); use smaller extents")
                            .c_str()),
      weft::Error);
  // 2^64 - 1 bytes of chars: blamed a RangePolicy before.
  CHECK_THROWS_WITH_AS((weft::View<char**, M>("c", 3, 6148914691236517205ull)),
                       doctest::Contains("\"c\": extents (3, 6148914691236517205) of 1-byte elements need "
                                         "18446744073709551615 bytes or more"),
                       weft::Error);
  // The span of a LayoutStride from its strides, not its extents: 1 + 3 x 2^62 + 3 elements of 8 bytes wraps.
  CHECK_THROWS_WITH_AS((weft::View<double**, weft::LayoutStride, M>("s", weft::LayoutStride(4, 1ull << 62, 4, 1))),
                       doctest::Contains("\"s\": extents (4, 4) and strides (4611686018427387904, 1) of 8-byte "
                                         "elements need 18446744073709551615 bytes or more"),
                       weft::Error);
  // No size_t overflow at all, still past one allocation: 2^60 + 1 doubles (spun forever in the device pool).
  CHECK_THROWS_WITH_AS((weft::View<double*, M>("p", (1ull << 60) + 1)),
                       doctest::Contains("\"p\": extents (1152921504606846977) of 8-byte elements need "
                                         "9223372036854775816 bytes"),
                       weft::Error);
  // An odd element size: 7 x (2^63 / 7 + 1) bytes, just over the limit.
  const std::size_t odd = weft::impl::max_bytes / 7 + 1;
  CHECK_THROWS_WITH_AS((weft::View<Odd7*, M>("odd", odd)),
                       doctest::Contains(("of 7-byte elements need " + std::to_string(odd * 7) + " bytes").c_str()),
                       weft::Error);
  // Exactly the limit passes the size check and fails in the allocator (no machine holds 2^63 - 1 bytes), with the
  // label; on the device spaces the pool's size class for it is 2^63.
  CHECK_THROWS_WITH_AS((weft::View<char*, M>("limit", weft::impl::max_bytes)), doctest::Contains("\"limit\""),
                       weft::Error);
  // Unsigned extents past int64 are too many elements (Kokkos's ViewBadAlloc: size_t(-43)), not negative ones.
  CHECK_THROWS_WITH_AS((weft::View<char*, M>("big", std::size_t(1) << 63)),
                       doctest::Contains("\"big\": 9223372036854775808 elements of 1 bytes need 9223372036854775808 "
                                         "bytes, more than one allocation can hold"),
                       weft::Error);
  CHECK_THROWS_WITH_AS(
      (weft::View<double*, M>("m", std::numeric_limits<std::size_t>::max() - 42)),
      doctest::Contains((std::string(M::name()) + " memory space failed to allocate them (label=\"m\")").c_str()),
      weft::Error);
  CHECK_THROWS_WITH_AS((weft::View<char*, M>("neg", std::int64_t(-5))),
                       doctest::Contains("\"neg\": extent 0 is negative"), weft::Error);
  // An empty View spans nothing, whatever its other extents.
  weft::View<double**, M> empty("empty", 0, std::size_t(1) << 62);
  CHECK(empty.size() == 0);
  // Scratch requests: per-thread bytes x team size saturate and are refused, naming the kernel and the level.
  CHECK(weft::View<double*, weft::ScratchMemorySpace<E>, weft::MemoryUnmanaged>::shmem_size(std::size_t(1) << 62) ==
        weft::impl::size_overflow);
  weft::TeamPolicy<E> tp(1, 1);
  tp.set_scratch_size(1, weft::PerThread(weft::impl::size_overflow / 2 + 1));
  CHECK_THROWS_WITH_AS(
      weft::parallel_for("huge_scratch", tp, WEFT_LAMBDA(const typename weft::TeamPolicy<E>::member_type&){}),
      doctest::Contains("scratch level 1 request of"), weft::Error);
}

TEST_CASE("checked size arithmetic saturates at size_overflow and check_bytes refuses past max_bytes") {
  using namespace weft::impl;
  CHECK(size_mul(0, size_overflow) == 0);
  CHECK(size_mul(size_overflow, 1) == size_overflow);
  CHECK(size_mul(std::size_t(1) << 32, std::size_t(1) << 32) == size_overflow);
  CHECK(size_mul((std::size_t(1) << 32) - 1, (std::size_t(1) << 32) + 1) == size_overflow - 0);  // 2^64 - 1
  CHECK(size_add(size_overflow - 1, 1) == size_overflow);
  CHECK(size_add(size_overflow, 0) == size_overflow);
  CHECK(size_add(size_overflow - 2, 1) == size_overflow - 1);
  CHECK(size_round_up(size_overflow - 15, 64) == size_overflow);  // wrapped to 0 before
  CHECK(size_round_up(max_bytes, 64) == max_bytes + 1);
  CHECK(size_round_up(0, 64) == 0);
  CHECK(size_round_up(65, 64) == 128);
  CHECK(check_bytes(
            max_bytes, [] { return std::string("never"); }, "") == max_bytes);
  CHECK_THROWS_WITH_AS(check_bytes(
                           max_bytes + 1, [] { return std::string("who: what"); }, "fix it"),
                       "who: what need 9223372036854775808 bytes, more than one allocation can hold "
                       "(9223372036854775807 bytes); fix it",
                       weft::Error);
}

}  // namespace

namespace {
struct Counted {
  static inline int alive = 0;
  int v = 7;
  Counted() { ++alive; }
  Counted(const Counted& o) : v(o.v) { ++alive; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --alive; }
};
}  // namespace

// Kokkos's ViewEmptyRuntimeUnmanaged: nullptr, NULL and 0 as the first argument are a null data pointer, not a label
// (string_view(nullptr) read address 0); a View<const char*>'s own pointer type is its data too.
TEST_CASE("View(nullptr, n), View(NULL, n) and View(0, n) are unmanaged Views, not labels") {
  auto* odd = reinterpret_cast<float*>(0xABADBABE);
  CHECK(weft::View<float*>(odd, 0).data() == odd);
  CHECK(weft::View<float*>(nullptr, 0).data() == nullptr);
  CHECK(weft::View<float**>(nullptr, 0, 0).size() == 0);
  CHECK(weft::View<const double*>(NULL, 0).data() == nullptr);  // NOLINT(modernize-use-nullptr)
  CHECK(weft::View<char**>(0, 0, 0).data() == nullptr);         // NOLINT(modernize-use-nullptr)
  const char text[] = "abc";
  const char* p = text;
  weft::View<const char*> chars(p, 3);
  CHECK(chars.data() == text);
  CHECK(chars.extent(0) == 3);
  weft::View<const char, weft::HostSpace> one(p);  // rank 0, read on the host
  CHECK(one() == 'a');
}

// Kokkos's ViewOfViews: WithoutInitializing leaves the elements to the program, construction and destruction both
// (Weft destroyed all of them, after the program had destroyed the ones it built: a double free).
TEST_CASE("WithoutInitializing: the elements are neither constructed nor destroyed") {
  Counted::alive = 0;
  {
    weft::View<Counted*, weft::HostSpace> raw(weft::view_alloc("raw", weft::WithoutInitializing), 4);
    CHECK(Counted::alive == 0);
    new (&raw(1)) Counted();
    new (&raw(3)) Counted();
    CHECK(Counted::alive == 2);
    raw(1).~Counted();
    raw(3).~Counted();
  }
  CHECK(Counted::alive == 0);
  {
    weft::View<Counted*, weft::HostSpace> built("built", 4);
    CHECK(Counted::alive == 4);
    CHECK(built(2).v == 7);
    // resize keeps the old elements by assignment: elements that are not trivially copyable are constructed first.
    weft::resize(weft::WithoutInitializing, built, 6);
    CHECK(Counted::alive == 6);
    CHECK(built(5).v == 7);
  }
  CHECK(Counted::alive == 0);
  using Inner = weft::View<int, weft::HostSpace>;
  weft::View<Inner*, weft::HostSpace> vov(weft::view_alloc("vov", weft::WithoutInitializing), 3);
  Inner a("a");
  new (&vov(0)) Inner(a);
  new (&vov(2)) Inner(a);
  CHECK(a.use_count() == 3);
  vov(0).~Inner();
  vov(2).~Inner();
  CHECK(a.use_count() == 1);
}

// deep_copy between Views of different value types converts each element (Kokkos's DeepCopyAlignment), any layouts,
// on every backend, and across memory spaces through a staged copy.
TEST_CASE_TEMPLATE("deep_copy converts between value types", E, WEFT_TEST_EXEC_SPACES) {
  using M = typename E::memory_space;
  const int n0 = 37, n1 = 5;
  weft::View<double**, weft::LayoutRight, weft::HostSpace> src("src", n0, n1);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j) src(i, j) = 0.25 * (i * n1 + j) + 1e-9;
  weft::View<float**, weft::LayoutLeft, M> dev("dev", n0, n1);
  weft::deep_copy(dev, src);  // host double -> device float, another layout
  weft::View<int**, weft::LayoutRight, M> ints("ints", n0, n1);
  weft::deep_copy(E(), ints, dev);  // float -> int on the instance
  E().fence();
  weft::View<double**, weft::LayoutStride, weft::HostSpace> back("back", weft::LayoutStride(n0, n1 + 2, n1, 1));
  weft::deep_copy(back, dev);
  auto ih = weft_test::on_host(ints);
  int wrong = 0;
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j) {
      wrong += back(i, j) != static_cast<double>(static_cast<float>(src(i, j)));
      wrong += ih(i, j) != static_cast<int>(static_cast<float>(src(i, j)));
    }
  CHECK(wrong == 0);
  weft::View<float*, M> shorter("shorter", 3);
  weft::View<double*, M> longer("longer", 4);
  CHECK_THROWS_WITH_AS(weft::deep_copy(shorter, longer), doctest::Contains("extents differ"), weft::Error);
}

// assign_data re-points a View (here a subview copied into a kernel, as Kokkos's SubView_c13) at another slab of the
// same shape; the View it came from keeps its allocation.
TEST_CASE_TEMPLATE("assign_data re-points a subview in a kernel", E, WEFT_TEST_EXEC_SPACES) {
  weft::View<int****, E> a("a", 6, 4, 3, 2);
  weft::View<int*, E> wrong("wrong", 1);
  const auto first = weft::subview(a, 0, weft::ALL, weft::ALL, weft::ALL);  // subview is host code in Weft
  weft::parallel_for(
      "reset", weft::RangePolicy<E>(0, 1), WEFT_LAMBDA(int) {
        auto sub = first;
        for (int i = 0; i < int(a.extent(0)); ++i) {
          sub.assign_data(&a(i, 0, 0, 0));
          if (&sub(1, 2, 1) != &a(i, 1, 2, 1)) wrong(0) += 1;
          sub(3, 2, 1) = i;
        }
      });
  auto h = weft_test::on_host(a);
  auto w = weft_test::on_host(wrong);
  CHECK(w(0) == 0);
  for (int i = 0; i < 6; ++i) CHECK(h(i, 3, 2, 1) == i);
  weft::View<double*, weft::HostSpace> owner("owner", 4);
  auto copy = owner;
  double other[4] = {1, 2, 3, 4};
  copy.assign_data(other);
  CHECK(copy(2) == 3);
  CHECK(owner.use_count() == 1);
}

// A LayoutStride View assigns to LayoutRight/LayoutLeft (copy-initialization too) when its strides are that layout's,
// padded or not, checked at run time (Kokkos's ViewLayoutStrideAssignment); other strides are refused, naming them.
TEST_CASE("LayoutStride to LayoutRight/LayoutLeft when the strides are theirs") {
  using H = weft::HostSpace;
  weft::View<double***, weft::LayoutRight, H> r("r", 4, 3, 5);
  weft::View<double***, weft::LayoutStride, H> s = r;
  weft::View<double***, weft::LayoutRight, H> back = s;
  CHECK(back.data() == r.data());
  CHECK(back.stride(0) == 15);
  weft::View<double***, weft::LayoutStride, H> ps("ps", weft::LayoutStride(4, 21, 3, 7, 5, 1));  // rows padded to 7
  weft::View<double***, weft::LayoutRight, H> pr = ps;
  CHECK(pr.stride(1) == 7);
  CHECK(&pr(3, 2, 4) == &ps(3, 2, 4));
  weft::View<double**, weft::LayoutLeft, H> l("l", 4, 3);
  weft::View<double**, weft::LayoutStride, H> ls = l;
  weft::View<double**, weft::LayoutLeft, H> lb = ls;
  CHECK(lb.data() == l.data());
  CHECK_THROWS_WITH_AS(
      (weft::View<double**, weft::LayoutRight, H>(ls)),
      doctest::Contains("\"l\": a strided view (extents (4, 3), strides (1, 4)) cannot be assigned to a "
                        "contiguous layout whose strides are not these"),
      weft::Error);
  auto col = weft::subview(r, weft::ALL, 1, 2);  // rank 1, stride 15
  CHECK_THROWS_WITH_AS((weft::View<double*, weft::LayoutRight, H>(col)),
                       doctest::Contains("cannot be assigned to a contiguous layout"), weft::Error);
}
