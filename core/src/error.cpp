// weft::Error helpers and formatted failure messages for views, policies and teams.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <weft/deep_copy.hpp>  // the declarations of the copy refusals
#include <weft/error.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/policies.hpp>
#include <weft/view.hpp>

namespace weft::impl {

void throw_error(const std::string& message) { throw Error(message); }

void abort_with(const char* message) noexcept {
  std::fprintf(stderr, "weft: %s\n", message);
  std::fflush(stderr);
  std::abort();
}

std::string format_bytes(std::size_t bytes) {
  if (bytes == size_overflow) return std::to_string(size_overflow) + " bytes or more";
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

void throw_bytes_error(std::size_t bytes, const std::string& subject, std::string_view fix) {
  std::string m = subject + " need " + format_bytes(bytes) + ", more than one allocation can hold (" +
                  std::to_string(max_bytes) + " bytes)";
  if (!fix.empty()) {
    m += "; ";
    m += fix;
  }
  throw Error(m);
}

std::string format_extents(const std::size_t* ext, int rank) {
  std::string s = "(";
  for (int k = 0; k < rank; ++k) {
    if (k) s += ", ";
    s += std::to_string(ext[k]);
  }
  return s + ")";
}

std::string compose(std::initializer_list<std::string_view> parts, std::initializer_list<std::int64_t> numbers) {
  std::string s;
  auto n = numbers.begin();
  for (const std::string_view p : parts) {
    s += p;
    if (n != numbers.end()) s += std::to_string(*n++);
  }
  return s;
}

std::string cat(std::initializer_list<MessagePiece> pieces) {
  std::string s;
  for (const MessagePiece& p : pieces) {
    if (p.kind == MessagePiece::text_kind)
      s += p.text;
    else if (p.kind == MessagePiece::signed_kind)
      s += std::to_string(static_cast<std::int64_t>(p.bits));
    else
      s += std::to_string(p.bits);
  }
  return s;
}

void throw_cat(std::initializer_list<MessagePiece> pieces) { throw Error(cat(pieces)); }

void throw_bitset_sizes(const char* what, unsigned dst, unsigned src) {
  throw Error(std::string("weft::deep_copy(") + what + ", Bitset): the destination has " + std::to_string(dst) +
              " bits and the source " + std::to_string(src) + "; give bitsets of the same size");
}

void throw_policy_parts(std::initializer_list<std::string_view> parts, std::initializer_list<std::int64_t> numbers) {
  throw_policy_error(compose(parts, numbers));
}

void throw_scratch_request(std::string_view label, int level, std::size_t want, std::size_t per_team,
                           std::size_t per_thread, int team_size, std::size_t limit, std::size_t level1_max) {
  throw_team_error(label, "scratch level " + std::to_string(level) + " request of " + format_bytes(want) +
                              " per team (" + std::to_string(per_team) + " per team + " + std::to_string(per_thread) +
                              " per thread x " + std::to_string(team_size) + " threads) exceeds the maximum " +
                              std::to_string(limit) + " bytes; " +
                              (level == 0 ? "reduce it or move the data to level 1 (at most " +
                                                std::to_string(level1_max) + " bytes per team)"
                                          : std::string("reduce it, or keep the data in a View in global memory and "
                                                        "pass it to the kernel")));
}

void throw_host_team_size(std::string_view label, int team_size, int max, const char* space, int concurrency) {
  throw_team_error(label, "team size " + std::to_string(team_size) + " exceeds the maximum " + std::to_string(max) +
                              " of " + space + " with " + std::to_string(concurrency) +
                              " threads; use weft::AUTO or at most " + std::to_string(max));
}

void throw_host_team_memory(std::string_view label, int teams, std::size_t bytes_each) {
  throw_team_error(label, std::to_string(teams) + " teams' scratch and state (" + format_bytes(bytes_each) +
                              " each) could not be allocated; ask for less level-1 scratch, or run fewer teams at "
                              "once (fewer threads)");
}

namespace {
// The fix for a View too large for one allocation; for an allocation, the memory space that could not make it and
// the label, in Kokkos's words ("HostSpace memory space failed to allocate ... (label=\"a\")": its ViewBadAlloc test).
std::string too_large_fix(std::string_view label, const char* space) {
  if (!space) return "use smaller extents";
  return std::string(space) + " memory space failed to allocate them (label=\"" + std::string(label) +
         "\"); use smaller extents";
}
}  // namespace

void throw_view_elements_bytes(std::string_view label, std::size_t n, std::size_t element_bytes, const char* space) {
  throw_bytes_error(size_mul(n, element_bytes),
                    "weft::View " + quote(label) + ": " + std::to_string(n) + " elements of " +
                        std::to_string(element_bytes) + " bytes",
                    too_large_fix(label, space));
}

void throw_gpu_team_shape(std::string_view label, const char* space, int team_size, int vector_length, int max) {
  const std::string vl = std::to_string(vector_length);
  if (space && team_size == 0)
    throw_team_error(label, "vector length " + vl + " is not a power of two up to 32 on " + space);
  if (space)
    throw_team_error(label, "team size " + std::to_string(team_size) + " exceeds the maximum " + std::to_string(max) +
                                " of " + space + " at vector length " + vl +
                                " (1024 threads per block); use weft::AUTO or at most " + std::to_string(max));
  throw_team_error(label, "team size " + std::to_string(team_size) + " x vector length " + vl +
                              " is over the policy's LaunchBounds of " + std::to_string(max) +
                              " threads per block; use a smaller team or raise the bound");
}

void throw_view_parts(std::string_view label, std::initializer_list<std::string_view> parts,
                      std::initializer_list<std::int64_t> numbers) {
  throw_view_error(label, compose(parts, numbers));
}

void throw_subview_negative(std::string_view label, int k, long long value, const std::size_t* ext, int rank) {
  throw_view_error(label, "subview argument " + std::to_string(k) + " is negative (" + std::to_string(value) +
                              "); indices start at 0 (extents " + format_extents(ext, rank) + ")");
}

void throw_subview_outside(std::string_view label, int k, std::size_t b, std::size_t e, const std::size_t* ext,
                           int rank) {
  throw_view_error(label, "subview argument " + std::to_string(k) + " selects [" + std::to_string(b) + ", " +
                              std::to_string(e) + ") outside extent " + std::to_string(ext[k]) + " (extents " +
                              format_extents(ext, rank) + ")");
}

void throw_strided_to_contiguous_impl(std::string_view label, const std::size_t* ext, const std::size_t* str,
                                      int rank) {
  throw_view_error(label, "a strided view (extents " + format_extents(ext, rank) + ", strides " +
                              format_extents(str, rank) +
                              ") cannot be assigned to a contiguous layout whose strides are not these; use "
                              "LayoutStride for the destination");
}

void throw_view_map_mismatch(std::string_view label, const std::size_t* ext, const std::size_t* str, int rank) {
  throw_view_error(label, "internal: extents " + format_extents(ext, rank) + " and strides " +
                              format_extents(str, rank) +
                              " do not fit the View type's layout or static extents; please report this");
}

void throw_view_span_bytes(std::string_view label, const std::size_t* ext, const std::size_t* str, int rank,
                           std::size_t element_bytes, std::size_t bytes, const char* space) {
  std::string s = "weft::View " + quote(label) + ": extents " + format_extents(ext, rank);
  if (str) s += " and strides " + format_extents(str, rank);
  throw_bytes_error(bytes, s + " of " + std::to_string(element_bytes) + "-byte elements", too_large_fix(label, space));
}

void throw_view_error(std::string_view label, const std::string& what) {
  throw Error("weft::View " + quote(label) + ": " + what);
}

namespace {
std::atomic<bool> g_kokkos_error_style{false};
}
void set_kokkos_error_style(bool on) noexcept { g_kokkos_error_style.store(on, std::memory_order_relaxed); }
bool kokkos_error_style() noexcept { return g_kokkos_error_style.load(std::memory_order_relaxed); }

void throw_copy_extents_differ(const std::string& dst_label, const std::string& src_label, const std::size_t* dst_ext,
                               const std::size_t* src_ext, int rank) {
  throw_view_error(dst_label, "deep_copy from " + quote(src_label) + ": extents differ: destination " +
                                  format_extents(dst_ext, rank) + ", source " + format_extents(src_ext, rank) +
                                  "; copy between views of the same shape (use subview to select a part)");
}

void throw_no_copy_mechanism(const std::string& dst_label, const std::string& src_label, const char* dst_space,
                             const char* src_space) {
  throw Error("Kokkos::deep_copy with no available copy mechanism: from source view (" + quote(src_label) +
              ") to destination view (" + quote(dst_label) + "): no execution space reaches both the source's space (" +
              src_space + ") and the destination's space (" + dst_space +
              "), so as in Kokkos both must be contiguous; copy through a contiguous View on the non-contiguous "
              "side (deep_copy the part into it where it lives), or build against <weft/...>, whose deep_copy "
              "stages such copies");
}

void throw_offset_view_error(std::string_view label, const std::string& what) {
  if (kokkos_error_style()) {  // Kokkos's OffsetView death tests: the program ends with Kokkos's words
    std::fprintf(stderr, "Kokkos::Experimental::OffsetView ERROR: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
  }
  throw Error("weft::OffsetView " + quote(label) + ": " + what);
}

void throw_policy_error(const std::string& what) {
  if (kokkos_error_style()) {
    // The program names Kokkos::RangePolicy: so does the message.
    const std::string m = what.rfind("weft::", 0) == 0 ? "Kokkos::" + what.substr(6) : what;
    std::fprintf(stderr, "%s\n", m.c_str());
    std::fflush(stderr);
    std::abort();
  }
  throw Error(what);
}
void throw_launch_bounds_error(const char* label, unsigned threads, unsigned max_threads) {
  throw Error("kernel \"" + std::string(label) + "\": a block of " + std::to_string(threads) +
              " threads is over the policy's LaunchBounds of " + std::to_string(max_threads) +
              " threads; use a smaller team (or range) or raise the bound");
}

void throw_team_error(std::string_view label, const std::string& what) {
  throw Error("weft::TeamPolicy in kernel " + quote(label) + ": " + what);
}

void view_bounds_abort(const char* label, int rank, const std::int64_t* idx, const std::size_t* ext) noexcept {
  char msg[512];
  int n = std::snprintf(msg, sizeof msg, "View bounds error: View \"%s\" indexed (", label);
  for (int k = 0; k < rank && n < 400; ++k)
    n += std::snprintf(msg + n, sizeof msg - n, k ? ", %" PRId64 : "%" PRId64, idx[k]);
  n += std::snprintf(msg + n, sizeof msg - n, ") but its extents are (");
  for (int k = 0; k < rank && n < 480; ++k) n += std::snprintf(msg + n, sizeof msg - n, k ? ", %zu" : "%zu", ext[k]);
  std::snprintf(msg + n, sizeof msg - n, ")");
  abort_with(msg);
}

}  // namespace weft::impl
