// A DualView with SequentialHostInit whose element type's default constructor is host code (it allocates a View),
// as the S of Kokkos's dualview_sequential_host_init: the elements are built on the host only and the device side is
// their bytes; nothing constructs them in a kernel (on GpuEmu that kernel's allocation deadlocked; on a GPU it cannot
// run). GpuEmu only: hipcc refuses to compile the device construction path for such a type even where it is never
// taken (Kokkos's test has the same limit there).
#include <weft/containers.hpp>

#include "test_common.hpp"

namespace {
struct HostBuilt {
  weft::View<double*, weft::GpuEmu> v;
  HostBuilt() : v("v", 10) {}
};
}  // namespace

TEST_CASE("DualView of elements whose constructor is host code: built on the host, bytes on the device") {
  using DV = weft::DualView<HostBuilt*, weft::GpuEmu>;
  DV owners(weft::view_alloc("owners", weft::SequentialHostInit), 3u);
  CHECK(owners.view_host()(2).v.extent(0) == 10);
  CHECK(owners.view_device().size() == 3u);
  owners.modify_host();
  owners.sync_device();
  owners.resize(weft::view_alloc(weft::SequentialHostInit), 4u);
  CHECK(owners.view_host()(3).v.label() == "v");
  CHECK(owners.view_host()(0).v.extent(0) == 10);
  CHECK(owners.view_device().size() == 4u);
  owners.realloc(weft::view_alloc(weft::SequentialHostInit), 2u);
  CHECK(owners.view_host()(1).v.extent(0) == 10);
}
