// comm/: element types, reduction operators and paths, as the type-erased layer below the View API sees them.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace weft::comm {

/// Which runtime a Communicator talks through.
enum class Backend : int { self, mpi, nccl };
/// How a call moves a View's memory (weft::comm::path_of): MPI on host memory, CUDA-aware MPI on device
/// memory, MPI through host staging buffers for device memory, NCCL, or the one-rank Self communicator.
enum class Path : int { self, mpi_host, mpi_cuda_aware, mpi_staged, nccl };
const char* to_string(Backend b) noexcept;
const char* to_string(Path p) noexcept;

/// Reduction operators of allreduce / reduce / reduce_scatter (MPI_SUM, MPI_PROD, ... and ncclSum, ...).
struct Sum {};
struct Prod {};
struct Min {};
struct Max {};
struct LogicalAnd {};
struct LogicalOr {};
struct BitAnd {};
struct BitOr {};

namespace impl {
/// Element types the layer below knows; any other trivially copyable type travels as bytes (no reductions).
enum class Dtype : int { byte, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, c32, c64, boolean };
enum class OpKind : int { none, sum, prod, min, max, land, lor, band, bor };
std::size_t dtype_size(Dtype d) noexcept;
const char* dtype_name(Dtype d) noexcept;
const char* op_name(OpKind o) noexcept;

template <class T>
constexpr Dtype dtype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return Dtype::boolean;
  else if constexpr (std::is_floating_point_v<U> && sizeof(U) == 4)
    return Dtype::f32;
  else if constexpr (std::is_floating_point_v<U> && sizeof(U) == 8)
    return Dtype::f64;
  else if constexpr (std::is_same_v<U, std::complex<float>>)
    return Dtype::c32;
  else if constexpr (std::is_same_v<U, std::complex<double>>)
    return Dtype::c64;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 1)
    return Dtype::i8;
  else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> && sizeof(U) == 1)
    return Dtype::u8;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 2)
    return Dtype::i16;
  else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> && sizeof(U) == 2)
    return Dtype::u16;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 4)
    return Dtype::i32;
  else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> && sizeof(U) == 4)
    return Dtype::u32;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U> && sizeof(U) == 8)
    return Dtype::i64;
  else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U> && sizeof(U) == 8)
    return Dtype::u64;
  else
    return Dtype::byte;
}

template <class Op>
constexpr OpKind op_of() {
  if constexpr (std::is_same_v<Op, Sum>)
    return OpKind::sum;
  else if constexpr (std::is_same_v<Op, Prod>)
    return OpKind::prod;
  else if constexpr (std::is_same_v<Op, Min>)
    return OpKind::min;
  else if constexpr (std::is_same_v<Op, Max>)
    return OpKind::max;
  else if constexpr (std::is_same_v<Op, LogicalAnd>)
    return OpKind::land;
  else if constexpr (std::is_same_v<Op, LogicalOr>)
    return OpKind::lor;
  else if constexpr (std::is_same_v<Op, BitAnd>)
    return OpKind::band;
  else if constexpr (std::is_same_v<Op, BitOr>)
    return OpKind::bor;
  else
    return OpKind::none;
}

/// Whether MPI (and NCCL) define `op` on elements of type T; checked at compile time by every reduction.
template <class T, class Op>
constexpr bool reducible() {
  constexpr Dtype d = dtype_of<T>();
  constexpr OpKind o = op_of<Op>();
  if constexpr (o == OpKind::none || d == Dtype::byte)
    return false;
  else if constexpr (d == Dtype::c32 || d == Dtype::c64)
    return o == OpKind::sum || o == OpKind::prod;
  else if constexpr (d == Dtype::f32 || d == Dtype::f64)
    return o != OpKind::band && o != OpKind::bor;
  else if constexpr (d == Dtype::boolean)
    return o == OpKind::land || o == OpKind::lor;
  else
    return true;
}
}  // namespace impl
}  // namespace weft::comm
