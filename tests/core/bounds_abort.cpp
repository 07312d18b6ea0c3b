// With bounds checks on, an out-of-range access inside a kernel aborts naming the label, index and extents.
#include <weft/weft.hpp>

int main(int argc, char* argv[]) {
  weft::ScopeGuard guard(argc, argv);
  using Host = weft::DefaultHostExecutionSpace;
  weft::View<int**, Host> v("bounded", 4, 5);
  weft::parallel_for(
      "in_range", weft::RangePolicy<Host>(0, 4), WEFT_LAMBDA(int i) { v(i, 4) = i; });
  weft::parallel_for(
      "out_of_range", weft::RangePolicy<Host>(2, 3), WEFT_LAMBDA(int i) { v(i, 7) = 1; });
  return 0;
}
