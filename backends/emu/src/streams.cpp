// The emulated GPU runtime (see <weft/emu/runtime.hpp>): streams, events, queued copies, memsets and kernels
// with CUDA's ordering rules, the three execution modes, and the stream-order checker.
//
// Ordering is tracked with vector clocks: every operation gets a sequence number on its stream and a clock
// (stream id -> the last sequence number it is ordered after). An operation inherits its stream's clock, the
// clocks of the events its stream waited for, the legacy stream's implicit edges and the host's clock (work
// enqueued after the host waited for something is ordered after that something). The host's clock grows at
// stream, event and device synchronizations. B is ordered after A exactly when B's clock covers A's sequence
// number, whatever order the emulator happened to run them in, so the checker's verdict does not depend on
// the mode or on timing.
#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <weft/emu/runtime.hpp>
#include <weft/error.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/impl/round_up.hpp>
#include <weft/impl/settings.hpp>
#include <weft/spaces.hpp>
#include <weft/view.hpp>

namespace weft::impl::emu {
namespace {

enum class Mode { lazy, concurrent, sync };

struct Config {
  Mode mode = Mode::lazy;
  bool check = true;
  unsigned seed = 0;
};

Config read_config() {
  Config c;
  // Checked by weft::initialize (the settings registry, impl/settings.hpp); a bad value is a weft::Error there.
  constexpr Mode modes[] = {Mode::lazy, Mode::concurrent, Mode::sync};  // the registry's order
  c.mode = modes[env_choice("WEFT_EMU_STREAMS", 0)];
  c.check = env_flag("WEFT_EMU_CHECK", true);
  c.seed = static_cast<unsigned>(env_integer("WEFT_EMU_STREAM_SEED", 0));
  return c;
}
const Config& config() {
  static const Config c = read_config();
  return c;
}

using Clock = std::map<std::uint64_t, std::uint64_t>;  // stream id -> last sequence number ordered before
void join(Clock& a, const Clock& b) {
  for (const auto& [k, v] : b) {
    auto& x = a[k];
    if (v > x) x = v;
  }
}
bool covers(const Clock& c, std::uint64_t stream, std::uint64_t seq) {
  const auto it = c.find(stream);
  return it != c.end() && it->second >= seq;
}

/// Bytes [b, e) of memory; a list of them is sorted and disjoint.
struct Span {
  const char* b;
  const char* e;
};
using Spans = std::vector<Span>;

/// Whether two sorted lists of disjoint spans share a byte.
bool intersects(const Spans& x, const Spans& y) {
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i].e <= y[j].b)
      ++i;
    else if (y[j].e <= x[i].b)
      ++j;
    else
      return true;
  }
  return false;
}

struct Op {
  Stream* stream = nullptr;
  std::uint64_t stream_id = 0;
  std::uint64_t seq = 0;
  std::string what;  // "kernel \"label\"", "an asynchronous copy of 800 bytes", ...
  std::function<void()> run;
  std::vector<std::shared_ptr<Op>> deps;  // operations of other streams it waits for
  Clock clock;
  std::vector<Access> accesses;
  std::vector<bool> host_reachable;  // per access
  // Per access, known once done (the checker on): the bytes it touched and the bytes it wrote. A copy or memset
  // touches its whole range (and writes its destination); a kernel, the elements of traced Views it accessed
  // (all of a View whose data() it took, all of an untraced range), and it wrote those of them that changed.
  std::vector<Spans> touched, written;
  bool is_kernel = false;
  bool done = false;
  std::string failure;  // an exception the operation threw, reported at the wait
};

struct Suspect;

}  // namespace

struct Stream {
  std::uint64_t id = 0;
  bool blocking = false;
  bool legacy = false;
  std::deque<std::shared_ptr<Op>> queue;   // enqueued, not yet run
  std::shared_ptr<Op> last;                // the last operation enqueued
  Clock clock;                             // what the next operation is ordered after
  std::vector<std::shared_ptr<Op>> waits;  // event edges for the next operation
  std::uint64_t next_seq = 0;
  std::string failure;  // the first operation that failed since the last wait (sticky, as CUDA's errors)
  std::thread worker;
  bool stop = false;
  std::mt19937 jitter;
  std::string name() const {
    if (legacy) return "the legacy default stream";
    return "stream " + std::to_string(id) + (blocking ? " (blocking)" : "");
  }
};

struct Event {
  std::shared_ptr<Op> marker;  // the last operation of its stream when recorded (null: nothing to wait for)
  Clock clock;
};

namespace {

/// One side of an unordered pair: an operation's access, or (op null) the host's.
struct Side {
  std::shared_ptr<Op> op;
  std::size_t access = 0;
  Access host{};
};
/// An unordered, overlapping pair that involves a kernel not yet run: decided once both sides are known, by
/// what the kernel touched and wrote (a View a kernel captured but never used, or disjoint elements of one View,
/// is no conflict).
struct Suspect {
  Side a, b;
  std::string head, what, tail;  // the report: head + " writes|reads " + what + tail + ", which writes|reads it..."
  std::string ordering;          // "(nothing orders ... after it)"
};

struct State {
  std::mutex m;
  std::condition_variable cv;
  Stream legacy;
  std::vector<Stream*> streams;  // every live stream, the legacy one first
  Clock host;
  std::vector<std::shared_ptr<Op>> live;  // enqueued, not yet ordered before the host (for the checker)
  std::vector<Suspect> suspects;
  long host_reachable_live = 0;
  Status last_error = Status::success;
  std::string last_message;
  std::uint64_t next_stream_id = 1;
  std::mutex device;  // one operation runs on the emulated device at a time
  std::map<const char*, std::size_t, std::greater<const char*>> device_allocations;  // base -> bytes
  std::size_t device_bytes = 0;
  State() {
    legacy.legacy = true;
    legacy.blocking = true;
    legacy.id = 0;
    streams.push_back(&legacy);
  }
};
State& state() {
  static State* s = new State;  // never destroyed: workers and static destructors may still reach it
  return *s;
}

Stream* resolve(stream_t s) { return s ? s : &state().legacy; }

bool in_device_allocation(State& st, const void* p) {
  const char* c = static_cast<const char*>(p);
  const auto it = st.device_allocations.lower_bound(c);  // the greatest base <= c
  return it != st.device_allocations.end() && c < it->first + it->second;
}

bool overlap(const Access& a, const void* p, std::size_t bytes) {
  const char* b = static_cast<const char*>(a.begin);
  const char* q = static_cast<const char*>(p);
  return a.bytes > 0 && bytes > 0 && b < q + bytes && q < b + a.bytes;
}

std::string describe(const Access& a) { return a.label.empty() ? std::string("memory") : "View " + quote(a.label); }

[[noreturn]] void stop_program(const std::string& what) { abort_with(("GpuEmu stream-order check: " + what).c_str()); }

const char* fix_advice =
    "order them: exec.fence() (or weft::fence()) before the host touches the data, deep_copy(exec, ...) on the "
    "instance that produced it, or an event (record on the first instance, wait on the second)";

// ---- completion and the checker's bookkeeping ---------------------------------------------------------------

void prune_live(State& st) {
  st.live.erase(std::remove_if(st.live.begin(), st.live.end(),
                               [&](const std::shared_ptr<Op>& op) {
                                 if (!covers(st.host, op->stream_id, op->seq)) return false;
                                 for (std::size_t i = 0; i < op->accesses.size(); ++i)
                                   if (op->host_reachable[i]) --st.host_reachable_live;
                                 return true;
                               }),
                st.live.end());
}

bool known(const Side& s) { return !s.op || !s.op->is_kernel || s.op->done; }

/// The bytes a side touched and wrote (an operation not yet run that is no kernel: its whole range).
void sets_of(const Side& s, Spans& touched, Spans& written) {
  const Access& a = s.op ? s.op->accesses[s.access] : s.host;
  if (s.op && s.op->done) {
    touched = s.op->touched[s.access];
    written = s.op->written[s.access];
    return;
  }
  const char* b = static_cast<const char*>(a.begin);
  touched = {{b, b + a.bytes}};
  written = a.write ? touched : Spans{};
}

/// Both sides known: stops the program if one wrote a byte the other touched.
void judge(const Suspect& s) {
  Spans ta, wa, tb, wb;
  sets_of(s.a, ta, wa);
  sets_of(s.b, tb, wb);
  const bool a_writes = intersects(wa, tb), b_writes = intersects(wb, ta);
  if (!a_writes && !b_writes) return;
  stop_program(s.head + (a_writes ? " writes " : " reads ") + s.what + s.tail + ", which " +
               (b_writes ? "writes" : "reads") + " it, may still be running (" + s.ordering + "); " + fix_advice);
}

/// An operation finished: the pairs now known are judged (and dropped).
void resolve_suspects(State& st, const Op& op) {
  std::vector<Suspect> ready;
  st.suspects.erase(std::remove_if(st.suspects.begin(), st.suspects.end(),
                                   [&](Suspect& s) {
                                     if (s.a.op.get() != &op && s.b.op.get() != &op) return false;
                                     if (!known(s.a) || !known(s.b)) return false;
                                     ready.push_back(std::move(s));
                                     return true;
                                   }),
                    st.suspects.end());
  for (const Suspect& s : ready) judge(s);
}

}  // namespace

// ---- memory ----------------------------------------------------------------------------------------------------

namespace {
/// The emulated device's memory, and the checker's buffers: 256-byte aligned, as cudaMalloc's; an allocation of
/// 2 MiB or more is 2 MiB aligned and asks the kernel for huge pages (transparent huge pages in `madvise` mode,
/// Debian's default), as a GPU's driver maps device memory in large pages. The emulator walks memory the way a
/// warp's lanes would, one lane at a time: a View<double**> walked down its columns touches a new 4 KiB page at
/// every access, and the TLB misses were a large part of GpuEmu's time on such kernels.
constexpr std::size_t huge_page = std::size_t(2) << 20;
void* emu_alloc(std::size_t bytes) {
  if (bytes > (std::size_t(1) << 56)) return nullptr;  // beyond any machine (and size_round_up's range)
  if (bytes < huge_page) return std::aligned_alloc(256, size_round_up(bytes, 256));
  void* p = std::aligned_alloc(huge_page, size_round_up(bytes, huge_page));
  if (p) (void)madvise(p, size_round_up(bytes, huge_page), MADV_HUGEPAGE);  // advice: ignored where unsupported
  return p;
}
struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
}  // namespace

// ---- what a kernel touches (the checker) ---------------------------------------------------------------------

/// One traced range of the running kernel: a bit map of the bytes its threads accessed (bit j of map[k]: byte
/// 8k + j; an 8-byte element is one map byte, so the map adds an eighth to the kernel's memory traffic), or
/// `whole` once the kernel took the View's data() pointer.
struct TouchRange {
  const char* begin;
  std::size_t bytes;
  std::uint8_t* map = nullptr;  // (bytes + 7) / 8; null: untraced, every byte counts as touched
  bool whole = false;
};
struct Touch {
  std::vector<TouchRange> ranges;
};

namespace {
thread_local Touch* t_touch = nullptr;  // set by execute while the kernel's grid runs on this thread
}  // namespace

Touch* launching_touch() { return t_touch; }

void touch_bytes(Touch* t, const void* p, std::size_t bytes) {
  const char* q = static_cast<const char*>(p);
  for (TouchRange& r : t->ranges) {
    if (!r.map || q + bytes <= r.begin || q >= r.begin + r.bytes) continue;
    const std::size_t from = q > r.begin ? std::size_t(q - r.begin) : 0;
    const std::size_t to = std::min(r.bytes, std::size_t(q + bytes - r.begin));
    // Threads of other blocks may mark the same bits: relaxed atomics, and none where the bits are set.
    if (to - from == 8 && from % 8 == 0) {  // an aligned 8-byte element: one whole map byte
      std::uint8_t* m = r.map + from / 8;
      if (__atomic_load_n(m, __ATOMIC_RELAXED) != 0xFF) __atomic_store_n(m, std::uint8_t(0xFF), __ATOMIC_RELAXED);
      continue;
    }
    for (std::size_t k = from; k < to;) {
      const std::size_t bit = k % 8, len = std::min<std::size_t>(8 - bit, to - k);
      const auto bits = static_cast<std::uint8_t>(((1u << len) - 1u) << bit);
      std::uint8_t* m = r.map + k / 8;
      if ((__atomic_load_n(m, __ATOMIC_RELAXED) & bits) != bits) __atomic_fetch_or(m, bits, __ATOMIC_RELAXED);
      k += len;
    }
  }
}

void touch_view(Touch* t, const void* p, std::size_t bytes) {
  const char* q = static_cast<const char*>(p);
  for (TouchRange& r : t->ranges)
    if (q < r.begin + r.bytes && r.begin < q + std::max<std::size_t>(bytes, 1))
      __atomic_store_n(&r.whole, true, __ATOMIC_RELAXED);
}

namespace {

/// Buffers for the byte maps and the copies taken before a kernel runs, kept for the next kernels: allocating
/// them anew for each kernel costs page faults, and returning them to the system TLB shootdowns across the
/// emulator's worker threads (8x the time of a triad without them).
class BufferPool {
 public:
  struct Buffer {
    std::unique_ptr<char, FreeDeleter> p;
    std::size_t bytes = 0;
  };
  Buffer take(std::size_t bytes) {
    std::lock_guard<std::mutex> g(m_);
    std::size_t best = free_.size();
    for (std::size_t i = 0; i < free_.size(); ++i)
      if (free_[i].bytes >= bytes && (best == free_.size() || free_[i].bytes < free_[best].bytes)) best = i;
    if (best == free_.size()) {
      char* q = static_cast<char*>(emu_alloc(bytes));
      if (!q) throw std::bad_alloc();
      return {std::unique_ptr<char, FreeDeleter>(q), bytes};
    }
    Buffer b = std::move(free_[best]);
    free_.erase(free_.begin() + std::ptrdiff_t(best));
    return b;
  }
  void give(Buffer b) {
    if (!b.p) return;
    std::lock_guard<std::mutex> g(m_);
    free_.push_back(std::move(b));
    if (free_.size() > 16)  // keep the 16 largest
      free_.erase(std::min_element(free_.begin(), free_.end(),
                                   [](const Buffer& x, const Buffer& y) { return x.bytes < y.bytes; }));
  }

 private:
  std::mutex m_;
  std::vector<Buffer> free_;
};
BufferPool& buffers() {
  static BufferPool* p = new BufferPool;  // never destroyed, as the state
  return *p;
}

/// Appends [b, e) to a sorted span list, merging with the last span when they meet.
void append(Spans& out, const char* b, const char* e) {
  if (!out.empty() && out.back().e == b)
    out.back().e = e;
  else
    out.push_back({b, e});
}

/// At most this many spans per list (else neighbours merge across the smallest gaps, touching more: a false
/// report is then possible, a missed one not).
std::size_t span_limit(std::size_t bytes) { return std::max<std::size_t>(4096, bytes / 16); }
void coarsen(Spans& s, std::size_t limit) {
  for (std::size_t gap = 8; s.size() > limit; gap *= 2) {
    Spans c;
    for (const Span& x : s)
      if (!c.empty() && std::size_t(x.b - c.back().e) <= gap)
        c.back().e = x.e;
      else
        c.push_back(x);
    s.swap(c);
  }
}

/// Appends the runs of set bits of `bits` (bit j: byte p + j) to a sorted span list.
void append_bits(Spans& out, const char* p, unsigned bits) {
  if (bits == 0xFFu) {
    append(out, p, p + 8);
    return;
  }
  while (bits) {
    const int b = __builtin_ctz(bits);
    const int len = __builtin_ctz(~(bits >> b));
    append(out, p + b, p + b + len);
    bits &= ~(((1u << len) - 1u) << b);
  }
}

/// The bytes (bit j: byte j) in which two 8-byte words differ.
unsigned differing_bytes(std::uint64_t x) {
  // a byte's high bit is set when any of its bits is: fold each byte's bits onto its top bit
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  x &= 0x0101010101010101ull;
  return unsigned((x * 0x0102040810204080ull) >> 56);  // gathers bit 8j of x into bit j
}

/// A kernel's touched and written bytes of one access: `map` (the bit map; null: every byte touched) and, of
/// those, the bytes that differ from `before` (null: a read-only access, nothing written), 8 bytes at a time.
/// A byte the kernel did not touch may change while it runs (the host or another stream writes it, unordered
/// with this kernel and rightly so): not the kernel's write.
void summarize(const char* cur, std::size_t n, const std::uint8_t* map, const char* before, Spans& touched,
               Spans& written) {
  if (!map && !before) {  // an untraced read-only range, or a View whose data() the kernel took, not written
    append(touched, cur, cur + n);
    return;
  }
  const auto bit = [&](std::size_t k) { return !map || (map[k / 8] >> (k % 8) & 1u); };
  std::size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const unsigned m = map ? map[k / 8] : 0xFFu;
    if (m == 0) continue;
    append_bits(touched, cur + k, m);
    if (!before) continue;
    std::uint64_t c, o;
    std::memcpy(&c, cur + k, 8);
    std::memcpy(&o, before + k, 8);
    if (c != o) append_bits(written, cur + k, m & differing_bytes(c ^ o));
  }
  for (; k < n; ++k) {
    if (!bit(k)) continue;
    append(touched, cur + k, cur + k + 1);
    if (before && cur[k] != before[k]) append(written, cur + k, cur + k + 1);
  }
  coarsen(touched, span_limit(n));
  coarsen(written, span_limit(n));
}

/// Runs one operation (the caller holds the state lock in lazy and sync mode, not in concurrent mode). With the
/// checker on, a kernel runs with a Touch (a bit map per traced View) and copies of the ranges it may write.
void execute(Op& op) {
  const bool check = config().check;
  const std::size_t n = op.accesses.size();
  Touch touch;
  std::vector<BufferPool::Buffer> maps(n), before(n);
  if (check && op.is_kernel) {
    touch.ranges.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Access& a = op.accesses[i];
      TouchRange r{static_cast<const char*>(a.begin), a.bytes};
      if (a.traced) {
        maps[i] = buffers().take((a.bytes + 7) / 8);
        std::memset(maps[i].p.get(), 0, (a.bytes + 7) / 8);
        r.map = reinterpret_cast<std::uint8_t*>(maps[i].p.get());
      }
      touch.ranges.push_back(r);
      if (a.write) {
        before[i] = buffers().take(a.bytes);
        std::memcpy(before[i].p.get(), a.begin, a.bytes);
      }
    }
  }
  Touch* const saved = t_touch;
  t_touch = check && op.is_kernel ? &touch : nullptr;
  try {
    op.run();
  } catch (const std::exception& e) {
    op.failure = e.what();
  } catch (...) {
    op.failure = "an unknown exception";
  }
  t_touch = saved;
  op.run = nullptr;  // frees the kernel's copy of its arguments
  if (!check) return;
  op.touched.assign(n, {});
  op.written.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) {
    const Access& a = op.accesses[i];
    const char* b = static_cast<const char*>(a.begin);
    if (!op.is_kernel) {
      op.touched[i] = {{b, b + a.bytes}};
      if (a.write) op.written[i] = op.touched[i];
      continue;
    }
    const TouchRange& r = touch.ranges[i];
    summarize(b, a.bytes, r.whole ? nullptr : r.map, before[i].p.get(), op.touched[i], op.written[i]);
    buffers().give(std::move(maps[i]));
    buffers().give(std::move(before[i]));
  }
}

/// Sets the last error (cudaGetLastError) and returns it.
Status fail_with(State& st, Status s, std::string message) {
  st.last_error = s;
  st.last_message = std::move(message);
  return s;
}

void finish(State& st, const std::shared_ptr<Op>& op) {
  op->done = true;
  if (config().check) resolve_suspects(st, *op);
  if (!op->failure.empty()) {
    const std::string msg = op->what + " failed: " + op->failure;
    if (op->stream->failure.empty()) op->stream->failure = msg;
    if (st.last_error == Status::success) {
      st.last_error = Status::launch_failure;
      st.last_message = msg;
    }
  }
}

/// Lazy and sync mode: runs `target` and everything it is ordered after, on the calling thread.
void run_through(State& st, const std::shared_ptr<Op>& target) {
  Stream* s = target->stream;
  while (!target->done) {
    std::shared_ptr<Op> op = s->queue.front();
    for (const auto& d : op->deps) run_through(st, d);
    if (!op->done) {
      execute(*op);
      finish(st, op);
    }
    s->queue.pop_front();
  }
}

/// Waits until `op` has finished (runs it in lazy and sync mode).
void wait_for(std::unique_lock<std::mutex>& lk, State& st, const std::shared_ptr<Op>& op) {
  if (!op || op->done) return;
  if (config().mode == Mode::concurrent)
    st.cv.wait(lk, [&] { return op->done; });
  else
    run_through(st, op);
}

void worker_loop(Stream* s) {
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  while (true) {
    st.cv.wait(lk, [&] {
      if (s->queue.empty()) return s->stop;
      for (const auto& d : s->queue.front()->deps)
        if (!d->done) return false;
      return true;
    });
    if (s->queue.empty()) return;
    std::shared_ptr<Op> op = s->queue.front();
    const unsigned pause = s->jitter() % 4;
    lk.unlock();
    if (pause) std::this_thread::sleep_for(std::chrono::microseconds(50 * pause));  // vary the interleaving
    {
      std::lock_guard<std::mutex> dev(st.device);
      execute(*op);
    }
    lk.lock();
    s->queue.pop_front();
    finish(st, op);
    st.cv.notify_all();
  }
}

void start_worker(Stream* s) {
  if (config().mode != Mode::concurrent) return;
  s->jitter.seed(config().seed * 7919u + unsigned(s->id));
  s->worker = std::thread(worker_loop, s);
}

/// The host now knows everything `c` covers has finished.
void host_learns(State& st, const Clock& c) {
  join(st.host, c);
  if (config().check) prune_live(st);
}

/// A failure of work the wait covered on stream `s` is reported by the wait (and then cleared).
Status take_failure(State& st, Stream* s) {
  if (!s || s->failure.empty()) return Status::success;
  const Status r = fail_with(st, Status::launch_failure, s->failure);
  s->failure.clear();
  return r;
}

Status sync_stream_locked(std::unique_lock<std::mutex>& lk, State& st, Stream* s) {
  std::shared_ptr<Op> last = s->last;
  wait_for(lk, st, last);
  if (last) host_learns(st, last->clock);
  return take_failure(st, s);
}

// ---- the checker's conflicts ---------------------------------------------------------------------------------

std::string access_verb(bool write) { return write ? "writes" : "reads"; }

/// A new access `a` (by the operation `who` being enqueued, with its clock, or by the host when `who` is
/// null) against the live operations of other streams that nothing orders it after. Where both sides are
/// known (copies, memsets, the host, kernels that ran) a write of a byte the other side touches stops the
/// program at once; a pair with a kernel not yet run is judged when it ran, by the bytes it really touched and
/// wrote.
void check_against_live(State& st, const std::shared_ptr<Op>& who, const Clock& clock, const Access& a,
                        const std::string& who_text) {
  for (const auto& p : st.live) {
    if (who && p->stream_id == who->stream_id) continue;  // the same stream orders them
    if (covers(clock, p->stream_id, p->seq)) continue;    // ordered after p
    for (std::size_t i = 0; i < p->accesses.size(); ++i) {
      const Access& b = p->accesses[i];
      if (!overlap(b, a.begin, a.bytes) || (!a.write && !b.write)) continue;
      Suspect s;
      s.a = who ? Side{who, std::size_t(&a - who->accesses.data()), {}} : Side{nullptr, 0, a};
      s.b = Side{p, i, {}};
      s.head = who_text;
      s.what = describe(a.label.empty() ? b : a);
      s.tail = " while " + p->what + " on " + p->stream->name();
      s.ordering = who ? "nothing orders " + who->what + " after it" : std::string("the host has not waited for it");
      if (known(s.a) && known(s.b))
        judge(s);
      else
        st.suspects.push_back(std::move(s));
    }
  }
}

void check_new_op(State& st, const std::shared_ptr<Op>& op) {
  for (const Access& a : op->accesses) check_against_live(st, op, op->clock, a, op->what + " on " + op->stream->name());
}

std::shared_ptr<Op> enqueue(std::unique_lock<std::mutex>& lk, State& st, Stream* s, std::shared_ptr<Op> op) {
  if (s->legacy && config().mode == Mode::concurrent && !s->worker.joinable()) start_worker(s);
  op->stream = s;
  op->stream_id = s->id;
  op->seq = ++s->next_seq;
  // Implicit synchronization of the legacy stream: it waits for blocking streams and they wait for it.
  if (s->legacy) {
    for (Stream* o : st.streams)
      if (o != s && o->blocking && o->last) {
        op->deps.push_back(o->last);
        join(s->clock, o->last->clock);
      }
  } else if (s->blocking && st.legacy.last) {
    op->deps.push_back(st.legacy.last);
    join(s->clock, st.legacy.last->clock);
  }
  for (auto& w : s->waits) op->deps.push_back(std::move(w));
  s->waits.clear();
  join(s->clock, st.host);
  s->clock[s->id] = op->seq;
  op->clock = s->clock;
  if (config().check) {
    op->host_reachable.resize(op->accesses.size());
    for (std::size_t i = 0; i < op->accesses.size(); ++i) {
      op->host_reachable[i] = !in_device_allocation(st, op->accesses[i].begin);
      if (op->host_reachable[i]) ++st.host_reachable_live;
    }
    check_new_op(st, op);
    st.live.push_back(op);
  }
  s->last = op;
  s->queue.push_back(op);
  switch (config().mode) {
    case Mode::sync:
      run_through(st, op);
      break;
    case Mode::concurrent:
      st.cv.notify_all();
      break;
    case Mode::lazy:
      break;
  }
  (void)lk;
  return op;
}

thread_local CaptureScope* t_capture = nullptr;
thread_local std::vector<Access> t_next_accesses;

void note_view(void*, const SharedAllocationRecord* r, const void* begin, std::size_t bytes, bool read_only) {
  if (!t_capture || bytes == 0) return;
  for (auto& a : *t_capture->out)
    if (a.begin == begin) {
      a.write = a.write || !read_only;
      a.bytes = std::max(a.bytes, bytes);
      return;
    }
  t_capture->out->push_back({begin, bytes, !read_only, r->label, true});
}
ViewCaptureSink g_sink{&note_view, nullptr};

}  // namespace

// ---- the API -----------------------------------------------------------------------------------------------

const char* status_name(Status s) {
  switch (s) {
    case Status::success:
      return "emuSuccess";
    case Status::invalid_value:
      return "emuErrorInvalidValue";
    case Status::invalid_handle:
      return "emuErrorInvalidResourceHandle";
    case Status::not_ready:
      return "emuErrorNotReady";
    case Status::memory_allocation:
      return "emuErrorMemoryAllocation";
    case Status::launch_failure:
      return "emuErrorLaunchFailure";
    case Status::no_device:
      return "emuErrorNoDevice";
  }
  return "emuErrorUnknown";
}
const char* status_string(Status s) {
  static thread_local std::string text;
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  if (!st.last_message.empty() && (s == Status::launch_failure || s == Status::invalid_value)) {
    text = st.last_message;
    return text.c_str();
  }
  switch (s) {
    case Status::success:
      return "no error";
    case Status::invalid_value:
      return "invalid argument";
    case Status::invalid_handle:
      return "invalid resource handle";
    case Status::not_ready:
      return "device not ready";
    case Status::memory_allocation:
      return "out of memory";
    case Status::launch_failure:
      return "unspecified launch failure";
    case Status::no_device:
      return "no emulated device";
  }
  return "unknown error";
}
Status get_last_error() {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  const Status s = st.last_error;
  st.last_error = Status::success;
  return s;
}

Status stream_create(stream_t* out, unsigned flags) {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  auto* s = new Stream;
  s->id = st.next_stream_id++;
  s->blocking = (flags & stream_non_blocking) == 0;
  st.streams.push_back(s);
  start_worker(s);
  *out = s;
  return Status::success;
}
Status stream_destroy(stream_t s) {
  if (!s) return Status::invalid_handle;
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  // CUDA lets the work finish after cudaStreamDestroy returns; here it finishes first (nothing can wait later).
  std::shared_ptr<Op> last = s->last;
  wait_for(lk, st, last);
  if (last) host_learns(st, last->clock);  // the host waited: its work leaves the checker with the stream
  s->stop = true;
  st.cv.notify_all();
  if (s->worker.joinable()) {
    lk.unlock();
    s->worker.join();
    lk.lock();
  }
  st.streams.erase(std::find(st.streams.begin(), st.streams.end(), s));
  delete s;
  return Status::success;
}
Status stream_sync(stream_t s) {
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  Stream* str = resolve(s);
  // The legacy stream also waits for the blocking streams' earlier work (and blocking streams for it): both
  // are edges of its last operation, so waiting for that operation covers them.
  return sync_stream_locked(lk, st, str);
}
Status stream_query(stream_t s) {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  Stream* str = resolve(s);
  if (str->last && !str->last->done) return Status::not_ready;
  // A query that finds the work done orders the host after it, as a sync does (CUDA: what the host does after
  // cudaStreamQuery returned cudaSuccess may use the stream's results; Weft's pool reuses blocks so).
  if (str->last) host_learns(st, str->last->clock);
  return Status::success;
}
Status device_sync() {
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  Status result = Status::success;
  for (std::size_t i = 0; i < st.streams.size(); ++i) {
    const Status r = sync_stream_locked(lk, st, st.streams[i]);
    if (result == Status::success) result = r;
  }
  return result;
}

Status event_create(event_t* e) {
  *e = new Event;
  return Status::success;
}
Status event_destroy(event_t e) {
  delete e;
  return Status::success;
}
Status event_record(event_t e, stream_t s) {
  if (!e) return Status::invalid_handle;
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  Stream* str = resolve(s);
  e->marker = str->last;
  e->clock = str->last ? str->last->clock : Clock{};
  return Status::success;
}
Status event_query(event_t e) {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  if (e->marker && !e->marker->done) return Status::not_ready;
  host_learns(st, e->clock);  // complete: the host is ordered after the recorded work, as after event_sync
  return Status::success;
}
Status event_sync(event_t e) {
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  wait_for(lk, st, e->marker);
  host_learns(st, e->clock);
  if (e->marker && !e->marker->failure.empty())  // the recorded operation itself (its stream may be gone)
    return fail_with(st, Status::launch_failure, e->marker->what + " failed: " + e->marker->failure);
  return Status::success;
}
Status stream_wait_event(stream_t s, event_t e) {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  Stream* str = resolve(s);
  if (e->marker) {
    str->waits.push_back(e->marker);
    join(str->clock, e->clock);
  }
  return Status::success;
}

Status memcpy_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
  if (bytes == 0) return Status::success;
  if (!dst || !src) return Status::invalid_value;
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  auto op = std::make_shared<Op>();
  op->what = "an asynchronous copy of " + std::to_string(bytes) + " bytes";
  op->run = [dst, src, bytes] { std::memmove(dst, src, bytes); };
  op->accesses = {{src, bytes, false, {}}, {dst, bytes, true, {}}};
  // CUDA: a copy between two host buffers is fully synchronous with respect to the host; one that touches
  // device memory may be asynchronous (with pageable memory it "might be synchronous": nothing to rely on).
  const bool host_to_host = !in_device_allocation(st, dst) && !in_device_allocation(st, src);
  std::shared_ptr<Op> queued = enqueue(lk, st, resolve(s), std::move(op));
  if (host_to_host) {
    wait_for(lk, st, queued);
    host_learns(st, queued->clock);
  }
  return Status::success;
}
Status memset_async(void* p, int value, std::size_t bytes, stream_t s) {
  if (bytes == 0) return Status::success;
  if (!p) return Status::invalid_value;
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  auto op = std::make_shared<Op>();
  op->what = "an asynchronous memset of " + std::to_string(bytes) + " bytes";
  op->run = [p, value, bytes] { std::memset(p, value, bytes); };
  op->accesses = {{p, bytes, true, {}}};
  enqueue(lk, st, resolve(s), std::move(op));
  return Status::success;
}

Status launch_kernel(stream_t s, const char* label, Dim3 grid, Dim3 block, std::size_t shared_bytes,
                     std::function<void()> body, std::vector<Access> accesses) {
  State& st = state();
  std::unique_lock<std::mutex> lk(st.m);
  const unsigned long nthreads = static_cast<unsigned long>(block.x) * block.y * block.z;
  if (nthreads == 0 || nthreads > static_cast<unsigned long>(max_threads_per_block))
    return fail_with(st, Status::invalid_value,
                     "GpuEmu: kernel \"" + std::string(label) + "\" launched with " + std::to_string(nthreads) +
                         " threads per block; give 1 to " + std::to_string(max_threads_per_block));
  if (shared_bytes > max_shared_per_block)
    return fail_with(st, Status::invalid_value,
                     "GpuEmu: kernel \"" + std::string(label) + "\" asks for " + std::to_string(shared_bytes) +
                         " bytes of shared memory per block; the maximum is " + std::to_string(max_shared_per_block));
  auto op = std::make_shared<Op>();
  op->what = "kernel " + quote(label);
  op->is_kernel = true;
  op->run = std::move(body);
  op->accesses = std::move(accesses);
  enqueue(lk, st, resolve(s), std::move(op));
  return Status::success;
}

Status malloc_device(void** p, std::size_t bytes) {
  State& st = state();
  std::size_t free_b = 0, total_b = 0;
  (void)mem_get_info(&free_b, &total_b);
  void* q = bytes <= free_b && bytes <= max_bytes ? emu_alloc(bytes) : nullptr;
  std::lock_guard<std::mutex> g(st.m);
  if (!q) return fail_with(st, Status::memory_allocation, {});
  st.device_allocations[static_cast<const char*>(q)] = bytes;
  st.device_bytes += bytes;
  *p = q;
  return Status::success;
}
Status free_device(void* p) {
  if (!p) return Status::success;
  // cudaFree waits for the device first.
  (void)device_sync();
  State& st = state();
  {
    std::lock_guard<std::mutex> g(st.m);
    const auto it = st.device_allocations.find(static_cast<const char*>(p));
    if (it == st.device_allocations.end()) return Status::invalid_value;
    st.device_bytes -= it->second;
    st.device_allocations.erase(it);
  }
  std::free(p);
  return Status::success;
}
Status malloc_host(void** p, std::size_t bytes) {
  if (bytes > max_bytes) return Status::memory_allocation;  // as the runtime: too large is out of memory
  *p = emu_alloc(bytes);
  return *p ? Status::success : Status::memory_allocation;
}
Status free_host(void* p) {
  (void)device_sync();  // as cudaFreeHost
  std::free(p);
  return Status::success;
}
Status malloc_managed(void** p, std::size_t bytes) { return malloc_host(p, bytes); }
Status mem_get_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  // The emulated device has the machine's memory.
  static const std::size_t total = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
  *total_bytes = total;
  *free_bytes = *total_bytes > st.device_bytes ? *total_bytes - st.device_bytes : 0;
  return Status::success;
}

// ---- the checker's host side ---------------------------------------------------------------------------------

bool checker_on() { return config().check; }
bool host_reachable_pending() {
  return config().check && __atomic_load_n(&state().host_reachable_live, __ATOMIC_RELAXED) > 0;
}
void host_access(const void* p, std::size_t bytes, bool write, const char* label, const char* what) {
  if (!config().check || bytes == 0) return;
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  if (st.live.empty()) return;
  prune_live(st);
  check_against_live(st, nullptr, st.host, Access{p, bytes, write, label ? label : ""}, what);
}
void host_free(const void* p, std::size_t bytes, const char* label) {
  if (!config().check || bytes == 0) return;
  State& st = state();
  std::lock_guard<std::mutex> g(st.m);
  if (st.live.empty()) return;
  prune_live(st);
  for (const auto& op : st.live)
    for (const Access& a : op->accesses)
      if (overlap(a, p, bytes))
        stop_program("View " + quote(label ? label : "") + " is freed while " + op->what + " on " + op->stream->name() +
                     ", which " + access_verb(a.write) +
                     " it, may still be running (the host has not waited for it); keep the View alive until the "
                     "work is done: exec.fence() (or weft::fence()) before it goes out of scope");
}

CaptureScope::CaptureScope(std::vector<Access>& accesses)
    : out(&accesses), saved_scope(t_capture), saved_parallel(t_in_host_parallel) {
  t_capture = this;
  t_view_capture = &g_sink;
  t_in_host_parallel = true;  // the kernel's copy holds no references, as a GPU's bitwise argument copy
}
CaptureScope::~CaptureScope() {
  t_capture = saved_scope;
  t_view_capture = saved_scope ? &g_sink : nullptr;
  t_in_host_parallel = saved_parallel;
}

void note_next_kernel_access(const void* p, std::size_t bytes, bool write, const char* label) {
  if (config().check && bytes > 0) t_next_accesses.push_back({p, bytes, write, label ? label : ""});
}
std::vector<Access> take_next_kernel_accesses() {
  std::vector<Access> v;
  v.swap(t_next_accesses);
  return v;
}

const char* streams_mode() {
  switch (config().mode) {
    case Mode::lazy:
      return "lazy";
    case Mode::concurrent:
      return "concurrent";
    case Mode::sync:
      return "sync";
  }
  return "?";
}

}  // namespace weft::impl::emu
