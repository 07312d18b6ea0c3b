// weft::linalg: BLAS 1 and matrix_product on Views (std::linalg names), sparse CSR matrices with spmv and CG.
#pragma once

#include <weft/linalg/blas1.hpp>
#include <weft/linalg/blas2.hpp>
#include <weft/linalg/gemm.hpp>
#include <weft/linalg/sparse.hpp>
