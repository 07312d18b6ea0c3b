// weft::linalg: BLAS 1/2, matrix_product (also batched), triangular solves on Views (std::linalg names), sparse CSR
// matrices with spmv and CG.
#pragma once

#include <weft/linalg/blas1.hpp>
#include <weft/linalg/blas2.hpp>
#include <weft/linalg/gemm.hpp>
#include <weft/linalg/sparse.hpp>
#include <weft/linalg/triangular.hpp>
