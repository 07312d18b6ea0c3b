// Bitset and ConstBitset: a fixed number of bits in a memory space that kernels set, reset and test atomically and
// search near a hint (Kokkos::Bitset, Kokkos::ConstBitset); count(), set() and reset() of all bits from the host.
#pragma once

#include <bit>
#include <climits>
#include <cstdint>
#include <string>

#include <weft/atomics.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/layouts.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>
#include <weft/view.hpp>

namespace weft {

template <class Device = DefaultExecutionSpace>
class Bitset;
template <class Device = DefaultExecutionSpace>
class ConstBitset;

namespace impl {
/// The bit arithmetic of Bitset's 32-bit blocks, for host and device code.
struct BitsetBlock {
  static constexpr unsigned bits = sizeof(unsigned) * CHAR_BIT;
  static constexpr unsigned shift = std::countr_zero(bits);
  static constexpr unsigned mask = bits - 1;
  static_assert(std::has_single_bit(bits), "Bitset: blocks of a power-of-two number of bits");
  WEFT_FORCEINLINE_FUNCTION static unsigned blocks_for(unsigned n) { return (n >> shift) + ((n & mask) != 0); }
  /// The bits of the last block that belong to the set (all of them when the size is a multiple of 32).
  WEFT_FORCEINLINE_FUNCTION static unsigned last_mask(unsigned n) { return (n & mask) ? (1u << (n & mask)) - 1 : ~0u; }
  WEFT_FORCEINLINE_FUNCTION static unsigned rotate_right(unsigned x, unsigned r) {
    r &= mask;
    return r ? (x >> r) | (x << (bits - r)) : x;
  }
  WEFT_FORCEINLINE_FUNCTION static unsigned lowest_set(unsigned x) {  // x != 0
#if WEFT_IMPL_DEVICE_PASS
    return static_cast<unsigned>(__ffs(static_cast<int>(x)) - 1);
#else
    return static_cast<unsigned>(std::countr_zero(x));
#endif
  }
  WEFT_FORCEINLINE_FUNCTION static unsigned highest_set(unsigned x) {  // x != 0
#if WEFT_IMPL_DEVICE_PASS
    return bits - 1 - static_cast<unsigned>(__clz(static_cast<int>(x)));
#else
    return bits - 1 - static_cast<unsigned>(std::countl_zero(x));
#endif
  }
  WEFT_FORCEINLINE_FUNCTION static unsigned population(unsigned x) {
#if WEFT_IMPL_DEVICE_PASS
    return static_cast<unsigned>(__popc(x));
#else
    return static_cast<unsigned>(std::popcount(x));
#endif
  }
};

/// The search both bitsets share: in the hint's block (`live`: its bits of the kind sought, below the set's size),
/// the first such bit at or after the hint's offset going up, around the block (with BIT_SCAN_REVERSE: at or before
/// it going down); none there, {false, the same offset in the next block (the previous one with MOVE_HINT_BACKWARD),
/// wrapping around the set}.
WEFT_INLINE_FUNCTION pair<bool, unsigned> bitset_find(unsigned block_index, unsigned blocks, unsigned offset,
                                                      unsigned live, unsigned direction) {
  using B = BitsetBlock;
  if (live != 0) {
    const bool reverse = (direction & 1u) != 0;
    // forward: the offset rotated to bit 0, then the lowest bit; reverse: the offset rotated to bit 31, the highest
    const unsigned start = reverse ? offset + 1 : offset;
    const unsigned r = B::rotate_right(live, start);
    const unsigned at = ((reverse ? B::highest_set(r) : B::lowest_set(r)) + start) & B::mask;
    return pair<bool, unsigned>(true, (block_index << B::shift) + at);
  }
  long long next = static_cast<long long>(block_index) + ((direction & 2u) ? -1 : 1);
  if (next < 0) next = static_cast<long long>(blocks) - 1;
  if (next >= static_cast<long long>(blocks)) next = 0;
  return pair<bool, unsigned>(false, (static_cast<unsigned>(next) << B::shift) + offset);
}

/// Set bits over the blocks, from the host.
template <class ExecSpace, class Blocks>
unsigned bitset_count(const Blocks& blocks, unsigned last_mask) {
  const unsigned n = static_cast<unsigned>(blocks.extent(0));
  unsigned total = 0;
  parallel_reduce(
      "weft::Bitset::count", RangePolicy<ExecSpace>(0, n),
      WEFT_LAMBDA(unsigned b, unsigned& acc) {
        acc += BitsetBlock::population(b + 1 == n ? blocks(b) & last_mask : blocks(b));
      },
      total);
  return total;
}
}  // namespace impl

/// Bitset<Device>(n) or Bitset<Device>(view_alloc("label"), n): n bits, all 0, in Device's memory space. A copy is
/// another handle to the same bits (as a View). set(i), reset(i) and test(i) work in kernels, atomically; set(),
/// reset()/clear() and count() work on all bits from the host.
template <class Device>
class Bitset {
 public:
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using device_type = weft::Device<execution_space, memory_space>;
  using size_type = unsigned int;
  using block_view_type = View<unsigned*, device_type>;

  static constexpr unsigned BIT_SCAN_REVERSE = 1u;
  static constexpr unsigned MOVE_HINT_BACKWARD = 2u;
  static constexpr unsigned BIT_SCAN_FORWARD_MOVE_HINT_FORWARD = 0u;
  static constexpr unsigned BIT_SCAN_REVERSE_MOVE_HINT_FORWARD = BIT_SCAN_REVERSE;
  static constexpr unsigned BIT_SCAN_FORWARD_MOVE_HINT_BACKWARD = MOVE_HINT_BACKWARD;
  static constexpr unsigned BIT_SCAN_REVERSE_MOVE_HINT_BACKWARD = BIT_SCAN_REVERSE | MOVE_HINT_BACKWARD;

  /// No bits and no allocation (is_allocated() is false).
  Bitset() = default;
  explicit Bitset(unsigned n) : Bitset(view_alloc("Bitset"), n) {}
  /// The label names the blocks' View ("Bitset" when none is given); WithoutInitializing leaves the bits undefined.
  Bitset(const impl::ViewAllocProps<>& props, unsigned n)
      : size_(n),
        last_mask_(impl::BitsetBlock::last_mask(n)),
        blocks_(labelled(props), impl::BitsetBlock::blocks_for(n)) {}

  WEFT_FORCEINLINE_FUNCTION unsigned size() const { return size_; }
  /// The number of bits set to 1 (host only: a reduction over the blocks).
  unsigned count() const { return impl::bitset_count<execution_space>(blocks_, last_mask_); }
  /// All bits to 1 (host only); the bits past size() in the last block stay 0.
  void set() {
    if (blocks_.extent(0) == 0) return;
    deep_copy(blocks_, ~0u);
    if (last_mask_ != ~0u) {
      execution_space exec;
      deep_copy(exec, subview(blocks_, blocks_.extent(0) - 1), last_mask_);
      exec.fence();
    }
  }
  /// All bits to 0 (host only).
  void reset() { deep_copy(blocks_, 0u); }
  void clear() { reset(); }

  /// Sets bit i; true when this call changed it (0 -> 1). An i at or past size() does nothing and returns false.
  WEFT_FORCEINLINE_FUNCTION bool set(unsigned i) const {
    if (i >= size_) return false;
    const unsigned bit = 1u << (i & impl::BitsetBlock::mask);
    return (atomic_fetch_or(&blocks_(i >> impl::BitsetBlock::shift), bit) & bit) == 0;
  }
  /// Clears bit i; true when this call changed it (1 -> 0).
  WEFT_FORCEINLINE_FUNCTION bool reset(unsigned i) const {
    if (i >= size_) return false;
    const unsigned bit = 1u << (i & impl::BitsetBlock::mask);
    return (atomic_fetch_and(&blocks_(i >> impl::BitsetBlock::shift), ~bit) & bit) != 0;
  }
  /// Whether bit i is 1 (false past size()).
  WEFT_FORCEINLINE_FUNCTION bool test(unsigned i) const {
    if (i >= size_) return false;
    return (atomic_load(&blocks_(i >> impl::BitsetBlock::shift)) >> (i & impl::BitsetBlock::mask)) & 1u;
  }
  /// The number of hints a full search goes through (one per block).
  WEFT_FORCEINLINE_FUNCTION unsigned max_hint() const { return static_cast<unsigned>(blocks_.extent(0)); }
  /// A bit set to 1 in the hint's block: {true, its index}; none, {false, a hint in the next block to try}.
  WEFT_INLINE_FUNCTION pair<bool, unsigned> find_any_set_near(
      unsigned hint, unsigned direction = BIT_SCAN_FORWARD_MOVE_HINT_FORWARD) const {
    return find_near(hint, direction, false);
  }
  /// A bit set to 0 in the hint's block: {true, its index}; none, {false, a hint in the next block to try}.
  WEFT_INLINE_FUNCTION pair<bool, unsigned> find_any_unset_near(
      unsigned hint, unsigned direction = BIT_SCAN_FORWARD_MOVE_HINT_FORWARD) const {
    return find_near(hint, direction, true);
  }
  WEFT_INLINE_FUNCTION constexpr bool is_allocated() const { return blocks_.is_allocated(); }
  /// The blocks, 32 bits each (bit i is bit i % 32 of block i / 32).
  WEFT_INLINE_FUNCTION const block_view_type& impl_blocks() const { return blocks_; }
  WEFT_INLINE_FUNCTION unsigned impl_last_mask() const { return last_mask_; }

 private:
  static impl::ViewAllocProps<> labelled(impl::ViewAllocProps<> props) {
    if (props.label.empty()) props.label = "Bitset";
    return props;
  }
  /// The search of the hint's block (a hint past the end starts at block 0) for a 1 bit, or a 0 bit with `zeros`.
  WEFT_INLINE_FUNCTION pair<bool, unsigned> find_near(unsigned hint, unsigned direction, bool zeros) const {
    const unsigned n = max_hint();
    if (n == 0) return pair<bool, unsigned>(false, 0u);
    const unsigned b = (hint >> impl::BitsetBlock::shift) < n ? hint >> impl::BitsetBlock::shift : 0u;
    unsigned live = atomic_load(&blocks_(b));
    if (zeros) live = ~live;
    if (b + 1 == n) live &= last_mask_;
    return impl::bitset_find(b, n, hint & impl::BitsetBlock::mask, live, direction);
  }
  unsigned size_ = 0;
  unsigned last_mask_ = ~0u;
  block_view_type blocks_;
};

/// A read-only handle to a Bitset's bits: size(), count() and test(i).
template <class Device>
class ConstBitset {
 public:
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using device_type = weft::Device<execution_space, memory_space>;
  using size_type = unsigned int;
  using block_view_type = View<const unsigned*, device_type>;

  ConstBitset() = default;
  ConstBitset(const Bitset<Device>& b) : size_(b.size()), last_mask_(b.impl_last_mask()), blocks_(b.impl_blocks()) {}
  ConstBitset& operator=(const Bitset<Device>& b) { return *this = ConstBitset(b); }

  WEFT_FORCEINLINE_FUNCTION unsigned size() const { return size_; }
  unsigned count() const { return impl::bitset_count<execution_space>(blocks_, last_mask_); }
  WEFT_FORCEINLINE_FUNCTION bool test(unsigned i) const {
    if (i >= size_) return false;
    return (blocks_(i >> impl::BitsetBlock::shift) >> (i & impl::BitsetBlock::mask)) & 1u;
  }
  WEFT_INLINE_FUNCTION constexpr bool is_allocated() const { return blocks_.is_allocated(); }
  WEFT_INLINE_FUNCTION const block_view_type& impl_blocks() const { return blocks_; }
  WEFT_INLINE_FUNCTION unsigned impl_last_mask() const { return last_mask_; }

 private:
  unsigned size_ = 0;
  unsigned last_mask_ = ~0u;
  block_view_type blocks_;
};

/// deep_copy between bitsets of the same size, in any memory spaces (a ConstBitset as the source too).
template <class DstDevice, class SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, const Bitset<SrcDevice>& src) {
  if (dst.size() != src.size()) impl::throw_bitset_sizes("Bitset", dst.size(), src.size());
  deep_copy(dst.impl_blocks(), src.impl_blocks());
}
template <class DstDevice, class SrcDevice>
void deep_copy(Bitset<DstDevice>& dst, const ConstBitset<SrcDevice>& src) {
  if (dst.size() != src.size()) impl::throw_bitset_sizes("Bitset", dst.size(), src.size());
  deep_copy(dst.impl_blocks(), src.impl_blocks());
}

}  // namespace weft
