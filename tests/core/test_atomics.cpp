// Atomics under contention from every thread: integer and floating add/sub, bit ops, min/max,
// exchange, compare_exchange, load/store, AtomicRef, and a 16-byte type through the lock table.
#include <complex>
#include <cstdint>

#include "test_common.hpp"

namespace {

TEST_CASE_TEMPLATE("atomic arithmetic under contention", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 400000;
  weft::View<std::int64_t*, E> iv("iv", 4);
  weft::View<double*, E> dv("dv", 2);
  weft::View<float*, E> fv("fv", 1);
  weft::View<unsigned*, E> bits("bits", 2);
  weft::View<int*, E> mm("mm", 2);
  weft::deep_copy(mm, 0);
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        weft::atomic_add(&iv(0), std::int64_t(i));
        weft::atomic_sub(&iv(1), std::int64_t(1));
        weft::atomic_fetch_add(&iv(2), std::int64_t(2));
        weft::atomic_increment(&iv(3));
        weft::atomic_add(&dv(0), 0.5);
        weft::atomic_fetch_sub(&dv(1), 0.25);
        weft::atomic_add(&fv(0), 1.0f);
        weft::atomic_fetch_or(&bits(0), 1u << (i % 32));
        weft::atomic_fetch_xor(&bits(1), 1u << (i % 4));
        weft::atomic_max(&mm(0), int(std::int64_t(i) * 7919 % n));
        weft::atomic_min(&mm(1), -int(std::int64_t(i) * 104729 % n));
      });
  auto hiv = weft_test::on_host(iv);
  auto hdv = weft_test::on_host(dv);
  auto hfv = weft_test::on_host(fv);
  auto hbits = weft_test::on_host(bits);
  auto hmm = weft_test::on_host(mm);
  CHECK(hiv(0) == std::int64_t(n) * (n - 1) / 2);
  CHECK(hiv(1) == -n);
  CHECK(hiv(2) == 2 * n);
  CHECK(hiv(3) == n);
  CHECK(hdv(0) == 0.5 * n);  // exact: every partial sum is representable
  CHECK(hdv(1) == -0.25 * n);
  CHECK(hfv(0) == float(n));
  CHECK(hbits(0) == 0xFFFFFFFFu);
  CHECK(hbits(1) == 0u);  // each bit flipped n/4 = 100000 times (even)
  CHECK(hmm(0) == n - 1);
  CHECK(hmm(1) == -(n - 1));
}

TEST_CASE_TEMPLATE("exchange, compare_exchange, load/store and AtomicRef", E, WEFT_TEST_EXEC_SPACES) {
  const int n = 100000;
  weft::View<int*, E> owner("owner", 1);
  weft::View<int*, E> winners("winners", 1);
  weft::deep_copy(owner, -1);
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int i) {
        if (weft::atomic_compare_exchange(&owner(0), -1, i) == -1) weft::atomic_add(&winners(0), 1);
      });
  CHECK(weft_test::on_host(winners)(0) == 1);
  CHECK(weft_test::on_host(owner)(0) >= 0);
  double d = 1.0;
  CHECK(weft::atomic_exchange(&d, 2.5) == 1.0);
  CHECK(weft::atomic_load(&d) == 2.5);
  weft::atomic_store(&d, -1.0);
  CHECK(d == -1.0);
  CHECK(weft::atomic_compare_exchange(&d, 3.0, 4.0) == -1.0);  // no match: unchanged
  CHECK(d == -1.0);
  weft::View<double*, E> acc("acc", 1);
  weft::parallel_for(
      weft::RangePolicy<E>(0, n), WEFT_LAMBDA(int) {
        weft::AtomicRef<double> r(acc(0));
        r += 2.0;
        r -= 1.0;
      });
  CHECK(weft_test::on_host(acc)(0) == double(n));
  if constexpr (weft_test::is_host_space_v<E>) {  // 16-byte atomics take the host lock table
    weft::View<std::complex<double>*, E> z("z", 1);
    weft::parallel_for(weft::RangePolicy<E>(0, n),
                       [=](int) { weft::atomic_add(&z(0), std::complex<double>(1.0, -2.0)); });
    CHECK(z(0).real() == double(n));
    CHECK(z(0).imag() == -2.0 * n);
  }
  double mx = -5;
  CHECK(weft::atomic_fetch_max(&mx, 3.0) == -5.0);
  CHECK(weft::atomic_fetch_min(&mx, 7.0) == 3.0);
  CHECK(mx == 3.0);
}

}  // namespace
