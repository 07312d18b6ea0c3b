// DualView, ScatterView, UniqueToken, UnorderedMap and complex as Kokkos programs use them (the shape of the Kokkos
// tutorials' dualview, scatter_view, unique_token and unordered_map exercises): node counts of a mesh scattered from
// its elements, on data a DualView moves, and per-thread partial sums indexed by a UniqueToken; each checked against a
// serial loop.
#include <Kokkos_Complex.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_DualView.hpp>
#include <Kokkos_ScatterView.hpp>
#include <Kokkos_UniqueToken.hpp>
#include <Kokkos_UnorderedMap.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  int status = 0;
  Kokkos::initialize(argc, argv);
  {
    const int elements = 5000, nodes = 1201;
    // element e touches nodes (7e + k * 13) % nodes, k = 0..3
    Kokkos::DualView<int**> elem_nodes("elem_nodes", elements, 4);
    for (int e = 0; e < elements; ++e)
      for (int k = 0; k < 4; ++k) elem_nodes.h_view(e, k) = (7 * e + k * 13) % nodes;
    elem_nodes.modify_host();
    elem_nodes.sync_device();
    auto en = elem_nodes.view_device();

    Kokkos::View<int*> per_node("per_node", nodes);
    Kokkos::Experimental::ScatterView<int*> scatter(per_node);
    Kokkos::parallel_for(
        "count", elements, KOKKOS_LAMBDA(int e) {
          auto access = scatter.access();
          for (int k = 0; k < 4; ++k) access(en(e, k)) += 1;
        });
    Kokkos::Experimental::contribute(per_node, scatter);
    auto h_per_node = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), per_node);
    std::vector<int> expected(nodes, 0);
    for (int e = 0; e < elements; ++e)
      for (int k = 0; k < 4; ++k) ++expected[(7 * e + k * 13) % nodes];
    for (int n = 0; n < nodes; ++n)
      if (h_per_node(n) != expected[n]) {
        std::printf("  Error: node %d has %d elements, expected %d\n", n, h_per_node(n), expected[n]);
        status = 1;
        break;
      }

    // the device doubles the connectivity; the host reads it back through the DualView
    Kokkos::parallel_for(
        "twice", elements, KOKKOS_LAMBDA(int e) {
          for (int k = 0; k < 4; ++k) en(e, k) *= 2;
        });
    elem_nodes.modify_device();
    if (!elem_nodes.need_sync_host()) status = 1;
    elem_nodes.sync_host();
    if (elem_nodes.h_view(elements - 1, 3) != 2 * ((7 * (elements - 1) + 39) % nodes)) {
      std::printf("  Error: the host side did not receive the device's writes\n");
      status = 1;
    }

    // per-token partial sums: sum of i over [0, n)
    using Exec = Kokkos::DefaultExecutionSpace;
    Kokkos::Experimental::UniqueToken<Exec> token;
    Kokkos::View<long*> partial("partial", token.size());
    const long n = 100000;
    Kokkos::parallel_for(
        "partial_sums", n, KOKKOS_LAMBDA(long i) {
          const int id = token.acquire();
          Kokkos::atomic_add(&partial(id), i);  // another thread may get id later; atomics keep it exact
          token.release(id);
        });
    long total = 0;
    Kokkos::parallel_reduce(
        "total", token.size(), KOKKOS_LAMBDA(int t, long& s) { s += partial(t); }, total);
    if (total != n * (n - 1) / 2) {
      std::printf("  Error: token partial sums add to %ld, expected %ld\n", total, n * (n - 1) / 2);
      status = 1;
    }
    // the distinct nodes the elements touch, and how often each is touched, in an UnorderedMap
    Kokkos::UnorderedMap<int, int> touched(nodes);
    using AtomicAdd = Kokkos::UnorderedMapInsertOpTypes<Kokkos::View<int*>, std::uint32_t>::AtomicAdd;
    Kokkos::parallel_for(
        "touch", elements, KOKKOS_LAMBDA(int e) {
          for (int k = 0; k < 4; ++k) touched.insert(en(e, k) / 2, 1, AtomicAdd());
        });
    int distinct = 0;
    for (int n = 0; n < nodes; ++n) distinct += expected[n] > 0;
    if (touched.failed_insert() || static_cast<int>(touched.size()) != distinct) {
      std::printf("  Error: the map holds %u nodes, expected %d\n", touched.size(), distinct);
      status = 1;
    }
    Kokkos::View<int*> hits("hits", 1);
    Kokkos::parallel_for(
        "lookup", nodes, KOKKOS_LAMBDA(int n) {
          const auto at = touched.find(n);
          if (touched.valid_at(at)) Kokkos::atomic_add(&hits(0), touched.value_at(at));
        });
    int total_hits = 0;
    Kokkos::deep_copy(total_hits, Kokkos::subview(hits, 0));
    if (total_hits != 4 * elements) {
      std::printf("  Error: the map counted %d touches, expected %d\n", total_hits, 4 * elements);
      status = 1;
    }

    // the N-th roots of unity add up to zero; their squares' moduli to N
    const int roots = 1000;
    Kokkos::complex<double> root_sum;
    Kokkos::parallel_reduce(
        "roots", roots,
        KOKKOS_LAMBDA(int k, Kokkos::complex<double>& s) {
          const double theta = 2.0 * Kokkos::numbers::pi * k / roots;
          s += Kokkos::exp(Kokkos::complex<double>(0.0, theta));
        },
        root_sum);
    if (Kokkos::abs(root_sum) > 1e-10) {
      std::printf("  Error: the roots of unity add up to (%g, %g)\n", root_sum.real(), root_sum.imag());
      status = 1;
    }

    std::printf("  containers: %d nodes, %d elements, %d tokens: %s\n", nodes, elements, token.size(),
                status ? "FAILED" : "PASSED");
  }
  Kokkos::finalize();
  return status;
}
