// weft::comm::CartesianDecomposition: a 1-, 2- or 3-D grid of cells split into blocks over the ranks.
#pragma once

#include <array>
#include <vector>

#include <weft/comm/communicator.hpp>

namespace weft::comm {

/// Splits a global grid over the ranks of a communicator, as MPI_Dims_create and MPI_Cart_create (without
/// reordering) would: rank = row-major index of its coordinates. Along dimension d with N cells over P ranks,
/// the rank at coordinate c owns N/P cells, plus one if c < N % P, starting at offset(d).
class CartesianDecomposition {
 public:
  static constexpr int no_neighbor = -1;

  /// `global`: cells per dimension (1 to 3 entries); `periodic`: per dimension (empty: none);
  /// `dims`: ranks per dimension, 0 entries chosen by MPI_Dims_create (empty: all chosen).
  CartesianDecomposition(const Communicator& comm, std::vector<long> global, std::vector<bool> periodic = {},
                         std::vector<int> dims = {});

  int ndims() const noexcept { return ndims_; }
  int dims(int d) const { return dims_.at(check(d)); }
  int coord(int d) const { return coords_.at(check(d)); }
  bool periodic(int d) const { return periodic_.at(check(d)); }
  long global_extent(int d) const { return global_.at(check(d)); }
  long local_extent(int d) const { return local_.at(check(d)); }
  /// Global index of this rank's first cell along d.
  long offset(int d) const { return offset_.at(check(d)); }
  /// The rank next to this one along d on `side` (-1: lower, +1: upper), or no_neighbor at a
  /// non-periodic boundary. With one rank along a periodic dimension that is this rank itself.
  int neighbor(int d, int side) const;
  /// The rank at the given coordinates (ndims() entries).
  int rank_of(const std::array<int, 3>& coords) const;
  const Communicator& comm() const noexcept { return comm_; }

 private:
  Communicator comm_;
  int ndims_ = 0;
  std::array<int, 3> dims_{1, 1, 1}, coords_{0, 0, 0};
  std::array<bool, 3> periodic_{false, false, false};
  std::array<long, 3> global_{1, 1, 1}, local_{1, 1, 1}, offset_{0, 0, 0};
  int check(int d) const;
};
}  // namespace weft::comm
