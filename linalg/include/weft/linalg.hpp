// weft::linalg: BLAS 1 on Views (std::linalg names) and sparse CSR matrices with spmv and CG.
#pragma once

#include <weft/linalg/blas1.hpp>
#include <weft/linalg/sparse.hpp>
