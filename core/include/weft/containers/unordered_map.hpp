// UnorderedMap: a fixed-capacity hash map that kernels insert into and look up concurrently on every backend, as
// Kokkos::UnorderedMap. The keys and values sit at dense indices below capacity() (what valid_at/key_at/value_at
// and the insert results name); an open-addressed table of twice as many slots, claimed by compare-and-swap and
// probed linearly, maps a key's hash to its index. The table is at most half full even when every index is taken,
// so probes stay short up to the last key.
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
/// The state of an UnorderedMap index (valid_at: kSlotFull).
enum UnorderedMapSlot : unsigned { kSlotEmpty = 0, kSlotBusy = 1, kSlotFull = 2, kSlotErased = 3 };
/// A hash-table slot: empty, being claimed, or the index of its key plus kTableIndexBase.
inline constexpr unsigned kTableEmpty = 0, kTableBusy = 1, kTableIndexBase = 2;
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
///
/// An insert into a map whose capacity() indices are all taken fails at the first empty table slot of its probe
/// (the key is not there), as quickly as at any other load.
template <class Key, class Value, class Device = DefaultExecutionSpace,
          class Hasher = pod_hash<std::remove_const_t<Key>>, class EqualTo = pod_equal_to<std::remove_const_t<Key>>>
class UnorderedMap {
 public:
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using device_type = weft::Device<execution_space, memory_space>;
  using key_type = std::remove_const_t<Key>;
  using original_key_type = Key;
  using hasher_type = Hasher;
  using equal_to_type = EqualTo;
  using value_type = Value;
  using impl_value_type = std::conditional_t<std::is_void_v<Value>, char, std::remove_const_t<Value>>;
  using size_type = std::uint32_t;
  using insert_result = UnorderedMapInsertResult;
  using key_view = View<key_type*, memory_space>;
  using value_view = View<impl_value_type*, memory_space>;
  using default_op_type = typename UnorderedMapInsertOpTypes<value_view, size_type>::NoOp;
  /// The map of the same keys in host memory (create_mirror(map), deep_copy(mirror, map)).
  using HostMirror = UnorderedMap<Key, Value, typename key_view::host_mirror_space, Hasher, EqualTo>;
  static constexpr bool is_set = std::is_void_v<Value>;
  static constexpr bool is_insertable_map = !std::is_const_v<Key> && !std::is_const_v<Value>;
  static constexpr bool is_const_map = std::is_const_v<Key> && (is_set || std::is_const_v<Value>);
  static constexpr size_type invalid_index = ~size_type(0);
  static constexpr unsigned kEmpty = impl::kSlotEmpty, kBusy = impl::kSlotBusy, kFull = impl::kSlotFull,
                            kErased = impl::kSlotErased;

  /// Room for at least capacity_hint keys (Kokkos's capacity: 7/6 of the hint rounded up to a multiple of 128,
  /// and 128 for a hint of 0).
  explicit UnorderedMap(size_type capacity_hint = 0, Hasher hasher = Hasher(), EqualTo equal = EqualTo())
      : hasher_(hasher), equal_(equal) {
    allocate(capacity_for(capacity_hint), "weft::UnorderedMap");
  }
  /// UnorderedMap(view_alloc("label", ...), capacity_hint): the label names the map's Views.
  explicit UnorderedMap(const impl::ViewAllocProps<>& props, size_type capacity_hint = 0, Hasher hasher = Hasher(),
                        EqualTo equal = EqualTo())
      : hasher_(hasher), equal_(equal) {
    allocate(capacity_for(capacity_hint), props.label.empty() ? "weft::UnorderedMap" : std::string(props.label));
  }
  /// The same map seen through const keys (and values): UnorderedMap<const K, const V> m = map;
  template <class K2, class V2>
  requires(!std::is_same_v<UnorderedMap<K2, V2, Device, Hasher, EqualTo>, UnorderedMap> &&
           std::is_same_v<std::remove_const_t<K2>, key_type> &&
           std::is_same_v<typename UnorderedMap<K2, V2, Device, Hasher, EqualTo>::impl_value_type, impl_value_type> &&
           (std::is_const_v<Key> || !std::is_const_v<K2>))
      UnorderedMap(const UnorderedMap<K2, V2, Device, Hasher, EqualTo>& o)
      : table_(o.table_),
        states_(o.states_),
        keys_(o.keys_),
        values_(o.values_),
        meta_(o.meta_),
        hasher_(o.hasher_),
        equal_(o.equal_),
        erasing_(o.erasing_) {}

  // ---- device-callable ----
  WEFT_INLINE_FUNCTION size_type capacity() const { return static_cast<size_type>(states_.extent(0)); }
  template <class Op = default_op_type>
  WEFT_INLINE_FUNCTION insert_result insert(const key_type& k, const impl_value_type& v = impl_value_type(),
                                            const Op& op = Op()) const {
    unsigned* const table = table_.data();
    unsigned* const meta = meta_.data();
    const size_type cap = capacity();
    const size_type slots = static_cast<size_type>(table_.extent(0));
    size_type t = hasher_(k) % slots;
    // At most cap of the 2 cap slots are ever taken, so the probe meets an empty slot.
    for (size_type probe = 1;; ++probe, t = t + 1 == slots ? 0 : t + 1) {
      unsigned s = atomic_load(table + t);
      while (s == impl::kTableEmpty || s == impl::kTableBusy) {
        if (s == impl::kTableBusy) {  // another thread is placing a key here: wait for its index (or its retreat)
          s = atomic_load(table + t);
          continue;
        }
        // The key is not in the map (its probe would have met it before this empty slot).
        if (atomic_load(meta + kMetaUsed) >= cap) return failed(meta, probe);
        s = atomic_compare_exchange(table + t, impl::kTableEmpty, impl::kTableBusy);
        if (s != impl::kTableEmpty) continue;  // lost the slot: look at what the winner put there
        const unsigned idx = atomic_fetch_add(meta + kMetaUsed, 1u);
        if (idx >= cap) {  // another thread took the last index meanwhile
          atomic_store(table + t, impl::kTableEmpty);
          return failed(meta, probe);
        }
        keys_(idx) = k;
        if constexpr (!is_set) values_(idx) = v;
        memory_fence();  // the key and value are visible before the index is
        atomic_store(states_.data() + idx, kFull);
        atomic_store(table + t, idx + impl::kTableIndexBase);
        return insert_result(insert_result::SUCCESS, idx, probe);
      }
      acquire_fence();  // the key behind the index is read after the index
      const size_type idx = s - impl::kTableIndexBase;
      if (equal_(keys_(idx), k) && atomic_load(states_.data() + idx) == kFull) {
        if constexpr (!is_set) op.op(values_, idx, v);
        return insert_result(insert_result::EXISTING, idx, probe);
      }
    }
  }
  /// The key's index, or invalid_index.
  WEFT_INLINE_FUNCTION size_type find(const key_type& k) const {
    const unsigned* const table = table_.data();
    const size_type slots = static_cast<size_type>(table_.extent(0));
    if (slots == 0) return invalid_index;
    size_type t = hasher_(k) % slots;
    for (size_type probe = 0; probe < slots; ++probe, t = t + 1 == slots ? 0 : t + 1) {
      const unsigned s = atomic_load(table + t);
      if (s == impl::kTableEmpty) return invalid_index;
      if (s == impl::kTableBusy) continue;  // a key being placed now (a find racing an insert may miss it)
      acquire_fence();
      const size_type idx = s - impl::kTableIndexBase;
      if (equal_(keys_(idx), k) && atomic_load(states_.data() + idx) == kFull) return idx;
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
    deep_copy(f, subview(meta_, std::size_t(kMetaFailed)));
    return f != 0;
  }
  /// Removes every key (the capacity stays).
  void clear() {
    deep_copy(table_, impl::kTableEmpty);
    deep_copy(states_, kEmpty);
    deep_copy(meta_, 0u);
  }
  /// Room for at least new_capacity keys (and the ones there), keeping them; false if fewer fit.
  bool rehash(size_type new_capacity = 0) {
    const size_type held = size();
    UnorderedMap bigger(ExactCapacity{}, capacity_for(new_capacity > held ? new_capacity : held), hasher_, equal_,
                        states_.label());
    bigger.insert_all_of(*this);
    if (bigger.failed_insert()) return false;
    *this = bigger;
    return true;
  }
  /// Kokkos's rehash(n, bounded_insert): Weft's inserts are always bounded (see the class comment).
  bool rehash(size_type new_capacity, bool /*bounded_insert*/) { return rehash(new_capacity); }
  bool is_allocated() const { return states_.is_allocated(); }
  Hasher hash_function() const { return hasher_; }
  EqualTo key_eq() const { return equal_; }
  bool erasable() const { return erasing_; }
  void begin_erase() { erasing_ = true; }
  /// Frees the slots of erased keys (the map is rebuilt at the same capacity).
  void end_erase() {
    erasing_ = false;
    UnorderedMap rebuilt(ExactCapacity{}, capacity(), hasher_, equal_, states_.label());
    rebuilt.insert_all_of(*this);
    *this = rebuilt;
  }
  /// This map becomes a copy of `o` (of any memory space): o's capacity, and each key at o's index, so that
  /// value_at(i) of the copy is o's value_at(i), as Kokkos's create_copy_view.
  template <class K2, class V2, class D2>
  void create_copy_view(const UnorderedMap<K2, V2, D2, Hasher, EqualTo>& o) {
    static_assert(
        std::is_same_v<std::remove_const_t<K2>, key_type> &&
            std::is_same_v<typename UnorderedMap<K2, V2, D2, Hasher, EqualTo>::impl_value_type, impl_value_type>,
        "weft::UnorderedMap::create_copy_view: the maps must have the same key and value types");
    if (static_cast<const void*>(states_.data()) == static_cast<const void*>(o.states_.data())) return;
    allocate_view(o);
    deep_copy(table_, o.table_);
    deep_copy(states_, o.states_);
    deep_copy(keys_, o.keys_);
    deep_copy(values_, o.values_);
    deep_copy(meta_, o.meta_);
  }
  /// A fresh, empty map with o's capacity, hasher and comparison (then deep_copy(*this, o) copies the keys).
  template <class K2, class V2, class D2>
  void allocate_view(const UnorderedMap<K2, V2, D2, Hasher, EqualTo>& o) {
    hasher_ = o.hasher_;
    equal_ = o.equal_;
    erasing_ = false;
    allocate(o.capacity(), o.states_.is_allocated() ? o.states_.label() : std::string("weft::UnorderedMap"));
  }

  WEFT_INLINE_FUNCTION const View<unsigned*, memory_space>& impl_states() const { return states_; }
  WEFT_INLINE_FUNCTION const key_view& impl_keys() const { return keys_; }
  WEFT_INLINE_FUNCTION const value_view& impl_values() const { return values_; }

 private:
  template <class, class, class, class, class>
  friend class UnorderedMap;
  // meta_: whether an insert failed, and how many indices inserts have taken.
  static constexpr std::size_t kMetaFailed = 0, kMetaUsed = 1;

  /// Orders the loads after it behind the index just loaded. On a host backend, x86 and Arm keep dependent loads in
  /// order once the compiler does: a compiler barrier (with an acquire fence, free on x86) instead of memory_fence's
  /// full barrier on every probe. Device code (and GpuEmu's model of it) keeps memory_fence.
  WEFT_FORCEINLINE_FUNCTION static void acquire_fence() {
#if !WEFT_IMPL_DEVICE_PASS
    if constexpr (execution_space::impl_is_host_space) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      return;
    }
#endif
    memory_fence();
  }
  WEFT_INLINE_FUNCTION static insert_result failed(unsigned* meta, size_type probe) {
    atomic_store(meta + kMetaFailed, 1u);
    return insert_result(insert_result::FAILED, invalid_index, probe);
  }

  static size_type capacity_for(size_type hint) {
    // Kokkos's: 7/6 of the hint, rounded up to a multiple of 128.
    const std::uint64_t want = hint ? (7ull * hint / 6u + 127u) / 128u * 128u : 128u;
    if (want >= (std::uint64_t(1) << 31))  // the table's 2 x capacity slots hold an index + 2 in 32 bits
      impl::throw_cat({"UnorderedMap: a capacity hint of ", hint,
                       " keys is more than one map holds (2^31 - 1 with Kokkos's headroom); use several maps"});
    return static_cast<size_type>(want);
  }
  /// The map's Views, named "<label>" (the index states, which carry the map's label), "<label> keys", ...
  void allocate(size_type cap, const std::string& label) {
    table_ = View<unsigned*, memory_space>(label + " table", 2 * std::size_t(cap));
    states_ = View<unsigned*, memory_space>(label, cap);
    keys_ = key_view(view_alloc(label + " keys", WithoutInitializing), cap);
    values_ = value_view(view_alloc(label + " values", WithoutInitializing), is_set ? 0 : cap);
    meta_ = View<unsigned*, memory_space>(label + " counts", 2);
  }

  template <class Other>
  void insert_all_of(const Other& o) {
    parallel_for("weft::UnorderedMap::copy", RangePolicy<execution_space>(0, o.capacity()),
                 impl::ReinsertSlots<UnorderedMap, Other>{*this, o});
  }
  struct ExactCapacity {};
  UnorderedMap(ExactCapacity, size_type cap, Hasher hasher, EqualTo equal, const std::string& label)
      : hasher_(hasher), equal_(equal) {
    allocate(cap, label);
  }

  View<unsigned*, memory_space> table_;
  View<unsigned*, memory_space> states_;
  key_view keys_;
  value_view values_;
  View<unsigned*, memory_space> meta_;
  Hasher hasher_;
  EqualTo equal_;
  bool erasing_ = false;
};

/// create_mirror(map): an empty host map of map's capacity; deep_copy(mirror, map) then copies the keys.
template <class K, class V, class D, class H, class E>
auto create_mirror(const UnorderedMap<K, V, D, H, E>& src) {
  typename UnorderedMap<K, V, D, H, E>::HostMirror dst;
  dst.allocate_view(src);
  return dst;
}
/// deep_copy(dst, src) between maps of any memory spaces: dst becomes a copy of src (its capacity, each key at
/// src's index).
template <class K, class V, class D, class H, class E, class K2, class V2, class D2>
void deep_copy(UnorderedMap<K, V, D, H, E>& dst, const UnorderedMap<K2, V2, D2, H, E>& src) {
  dst.create_copy_view(src);
}

}  // namespace weft
