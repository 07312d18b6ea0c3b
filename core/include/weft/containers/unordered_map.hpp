// UnorderedMap: a fixed-capacity hash map that kernels insert into and look up concurrently on every backend
// (open addressing with linear probing over slots claimed by compare-and-swap), as Kokkos::UnorderedMap.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <weft/atomics.hpp>
#include <weft/deep_copy.hpp>
#include <weft/error.hpp>
#include <weft/parallel.hpp>
#include <weft/policies.hpp>
#include <weft/reducers.hpp>
#include <weft/view.hpp>

namespace weft {

/// A hash of a key's bytes (FNV-1a, then a 32-bit avalanche), usable in device code: for keys without padding.
template <class Key>
struct pod_hash {
  WEFT_INLINE_FUNCTION std::uint32_t operator()(const Key& k) const {
    unsigned char bytes[sizeof(Key)];
    memcpy(bytes, &k, sizeof(Key));
    std::uint32_t h = 2166136261u;
    for (std::size_t i = 0; i < sizeof(Key); ++i) h = (h ^ bytes[i]) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
  }
};
/// Key equality by bytes, as Kokkos's pod_equal_to.
template <class Key>
struct pod_equal_to {
  WEFT_INLINE_FUNCTION bool operator()(const Key& a, const Key& b) const {
    unsigned char x[sizeof(Key)], y[sizeof(Key)];
    memcpy(x, &a, sizeof(Key));
    memcpy(y, &b, sizeof(Key));
    for (std::size_t i = 0; i < sizeof(Key); ++i)
      if (x[i] != y[i]) return false;
    return true;
  }
};

/// What insert returns: success (inserted now), existing (the key was there; its index is returned), failed
/// (the map is full: rehash to a larger capacity and insert again).
class UnorderedMapInsertResult {
 public:
  enum Status : std::uint32_t { SUCCESS = 1u, EXISTING = 2u, FAILED = 4u };
  WEFT_INLINE_FUNCTION UnorderedMapInsertResult() = default;
  WEFT_INLINE_FUNCTION UnorderedMapInsertResult(Status s, std::uint32_t index, std::uint32_t probes)
      : status_(s), index_(index), probes_(probes) {}
  WEFT_INLINE_FUNCTION bool success() const { return status_ == SUCCESS; }
  WEFT_INLINE_FUNCTION bool existing() const { return status_ == EXISTING; }
  WEFT_INLINE_FUNCTION bool failed() const { return status_ == FAILED; }
  WEFT_INLINE_FUNCTION bool freed_existing() const { return false; }
  WEFT_INLINE_FUNCTION std::uint32_t index() const { return index_; }
  /// How many slots the insert looked at (1 when the first was free or held the key).
  WEFT_INLINE_FUNCTION std::uint32_t list_position() const { return probes_; }

 private:
  Status status_ = FAILED;
  std::uint32_t index_ = ~0u;
  std::uint32_t probes_ = 0;
};

/// What insert(k, v, op) does to the value of a key that is already there (Kokkos 4's UnorderedMapInsertOpTypes).
template <class ValueView, class Index>
struct UnorderedMapInsertOpTypes {
  using value_type = typename ValueView::non_const_value_type;
  /// Keep the value that is there.
  struct NoOp {
    WEFT_INLINE_FUNCTION void op(const ValueView&, Index, const value_type&) const {}
  };
  /// Add the new value to it, atomically.
  struct AtomicAdd {
    WEFT_INLINE_FUNCTION void op(const ValueView& values, Index i, const value_type& v) const {
      atomic_add(&values(i), v);
    }
  };
};

namespace impl {
/// The state of an UnorderedMap slot.
enum UnorderedMapSlot : unsigned { kSlotEmpty = 0, kSlotBusy = 1, kSlotFull = 2, kSlotErased = 3 };
template <class M>
struct CountFullSlots {
  View<unsigned*, M> states;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i, std::uint32_t& c) const {
    c += states(i) == kSlotFull ? 1u : 0u;
  }
};
/// Inserts every key (and value) of `from` into `to`.
template <class To, class From>
struct ReinsertSlots {
  To to;
  From from;
  WEFT_INLINE_FUNCTION void operator()(std::int64_t i) const {
    if (from.impl_states()(i) != kSlotFull) return;
    if constexpr (To::is_set)
      to.insert(from.impl_keys()(i));
    else
      to.insert(from.impl_keys()(i), from.impl_values()(i));
  }
};
}  // namespace impl

/// UnorderedMap<Key, Value, Device, Hasher, EqualTo> (Value = void: a set). capacity() keys fit; an insert into
/// a full map fails, says so in its result and in failed_insert(), and leaves the map as it was: a key is never
/// lost silently. insert/find/exists/value_at/key_at/valid_at are const and work inside kernels of Device's
/// execution space; size(), rehash, clear and the erase phase are host calls.
template <class Key, class Value, class Device = DefaultExecutionSpace,
          class Hasher = pod_hash<std::remove_const_t<Key>>, class EqualTo = pod_equal_to<std::remove_const_t<Key>>>
class UnorderedMap {
 public:
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using device_type = weft::Device<execution_space, memory_space>;
  using key_type = std::remove_const_t<Key>;
  using original_key_type = Key;
  using value_type = Value;
  using impl_value_type = std::conditional_t<std::is_void_v<Value>, char, std::remove_const_t<Value>>;
  using size_type = std::uint32_t;
  using insert_result = UnorderedMapInsertResult;
  using key_view = View<key_type*, memory_space>;
  using value_view = View<impl_value_type*, memory_space>;
  using default_op_type = typename UnorderedMapInsertOpTypes<value_view, size_type>::NoOp;
  static constexpr bool is_set = std::is_void_v<Value>;
  static constexpr size_type invalid_index = ~size_type(0);
  static constexpr unsigned kEmpty = impl::kSlotEmpty, kBusy = impl::kSlotBusy, kFull = impl::kSlotFull,
                            kErased = impl::kSlotErased;

  /// Room for at least capacity_hint keys.
  explicit UnorderedMap(size_type capacity_hint = 0, Hasher hasher = Hasher(), EqualTo equal = EqualTo())
      : hasher_(hasher), equal_(equal) {
    allocate(capacity_for(capacity_hint));
  }

  // ---- device-callable ----
  WEFT_INLINE_FUNCTION size_type capacity() const { return static_cast<size_type>(states_.extent(0)); }
  template <class Op = default_op_type>
  WEFT_INLINE_FUNCTION insert_result insert(const key_type& k, const impl_value_type& v = impl_value_type(),
                                            const Op& op = Op()) const {
    unsigned* const state = states_.data();
    const size_type cap = capacity();
    size_type i = hasher_(k) % cap;
    for (size_type probe = 1; probe <= cap; ++probe, i = i + 1 == cap ? 0 : i + 1) {
      unsigned s = atomic_load(state + i);
      if (s == kEmpty) {
        s = atomic_compare_exchange(state + i, kEmpty, kBusy);
        if (s == kEmpty) {
          keys_(i) = k;
          if constexpr (!is_set) values_(i) = v;
          memory_fence();  // the key and value are visible before the slot reads full
          atomic_store(state + i, kFull);
          return insert_result(insert_result::SUCCESS, i, probe);
        }
      }
      while (s == kBusy) s = atomic_load(state + i);  // another thread is writing this slot's key
      memory_fence();
      if (s == kFull && equal_(keys_(i), k)) {
        if constexpr (!is_set) op.op(values_, i, v);
        return insert_result(insert_result::EXISTING, i, probe);
      }
    }
    atomic_store(failed_.data(), 1u);
    return insert_result(insert_result::FAILED, invalid_index, cap);
  }
  /// The key's index, or invalid_index.
  WEFT_INLINE_FUNCTION size_type find(const key_type& k) const {
    const unsigned* const state = states_.data();
    const size_type cap = capacity();
    size_type i = hasher_(k) % cap;
    for (size_type probe = 0; probe < cap; ++probe, i = i + 1 == cap ? 0 : i + 1) {
      const unsigned s = atomic_load(state + i);
      if (s == kEmpty) return invalid_index;
      if (s == kFull && equal_(keys_(i), k)) return i;
    }
    return invalid_index;
  }
  WEFT_INLINE_FUNCTION bool exists(const key_type& k) const { return find(k) != invalid_index; }
  WEFT_INLINE_FUNCTION bool valid_at(size_type i) const { return atomic_load(states_.data() + i) == kFull; }
  WEFT_INLINE_FUNCTION const key_type& key_at(size_type i) const { return keys_(i); }
  WEFT_INLINE_FUNCTION impl_value_type& value_at(size_type i) const requires(!is_set) { return values_(i); }
  /// Marks the key erased (between begin_erase and end_erase); false when it is not there.
  WEFT_INLINE_FUNCTION bool erase(const key_type& k) const {
    const size_type i = find(k);
    if (i == invalid_index) return false;
    return atomic_compare_exchange(states_.data() + i, kFull, kErased) == kFull;
  }

  // ---- host ----
  /// The number of keys (a reduction over the slots).
  size_type size() const {
    size_type n = 0;
    parallel_reduce("weft::UnorderedMap::size", RangePolicy<execution_space>(0, capacity()),
                    impl::CountFullSlots<memory_space>{states_}, n);
    return n;
  }
  /// Whether an insert failed since the map was made, cleared or rehashed.
  bool failed_insert() const {
    unsigned f = 0;
    deep_copy(f, subview(failed_, 0));
    return f != 0;
  }
  /// Removes every key (the capacity stays).
  void clear() {
    deep_copy(states_, kEmpty);
    deep_copy(failed_, 0u);
  }
  /// Room for at least new_capacity keys (and the ones there), keeping them; false if fewer fit.
  bool rehash(size_type new_capacity) {
    const size_type held = size();
    UnorderedMap bigger(new_capacity > held ? new_capacity : held, hasher_, equal_);
    bigger.insert_all_of(*this);
    if (bigger.failed_insert()) return false;
    *this = bigger;
    return true;
  }
  bool erasable() const { return erasing_; }
  void begin_erase() { erasing_ = true; }
  /// Frees the slots of erased keys (the map is rebuilt at the same capacity).
  void end_erase() {
    erasing_ = false;
    UnorderedMap rebuilt(ExactCapacity{}, capacity(), hasher_, equal_);
    rebuilt.insert_all_of(*this);
    *this = rebuilt;
  }
  /// Copies another map's keys and values into this one (capacities may differ).
  template <class Other>
  void create_copy_view(const Other& o) {
    clear();
    insert_all_of(o);
  }

  WEFT_INLINE_FUNCTION const View<unsigned*, memory_space>& impl_states() const { return states_; }
  WEFT_INLINE_FUNCTION const key_view& impl_keys() const { return keys_; }
  WEFT_INLINE_FUNCTION const value_view& impl_values() const { return values_; }

 private:
  static size_type capacity_for(size_type hint) {
    const std::uint64_t want = static_cast<std::uint64_t>(hint) + hint / 4 + 1;  // probing stays short
    if (want >= invalid_index)
      impl::throw_error("UnorderedMap: a capacity of " + std::to_string(hint) +
                        " keys is more than 32-bit indices "
                        "address; use several maps");
    return static_cast<size_type>(want < 64 ? 64 : want);
  }
  void allocate(size_type cap) {
    states_ = View<unsigned*, memory_space>("weft::UnorderedMap states", cap);
    keys_ = key_view(view_alloc("weft::UnorderedMap keys", WithoutInitializing), cap);
    values_ = value_view(view_alloc("weft::UnorderedMap values", WithoutInitializing), is_set ? 0 : cap);
    failed_ = View<unsigned*, memory_space>("weft::UnorderedMap failed", 1);
  }
  template <class Other>
  void insert_all_of(const Other& o) {
    parallel_for("weft::UnorderedMap::copy", RangePolicy<execution_space>(0, o.capacity()),
                 impl::ReinsertSlots<UnorderedMap, Other>{*this, o});
  }
  struct ExactCapacity {};
  UnorderedMap(ExactCapacity, size_type cap, Hasher hasher, EqualTo equal) : hasher_(hasher), equal_(equal) {
    allocate(cap);
  }

  View<unsigned*, memory_space> states_;
  key_view keys_;
  value_view values_;
  View<unsigned*, memory_space> failed_;
  Hasher hasher_;
  EqualTo equal_;
  bool erasing_ = false;
};

}  // namespace weft
