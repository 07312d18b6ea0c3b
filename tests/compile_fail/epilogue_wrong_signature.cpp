// An epilogue that does not take (i, j, ab): one line naming the signature matrix_product wants.
#include <weft/linalg.hpp>

int main() {
  weft::ScopeGuard guard;
  weft::View<double**> a("a", 2, 2), b("b", 2, 2), c("c", 2, 2);
  weft::linalg::matrix_product(weft::DefaultExecutionSpace(), a, b, c,
                               weft::linalg::epilogue(WEFT_LAMBDA(long i, long j) { return double(i + j); }));
}
