// HostSpace allocation and the registry of live allocations (reported by label at finalize).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <weft/host.hpp>
#include <weft/impl/checked_size.hpp>
#include <weft/impl/tools.hpp>
#include <weft/view.hpp>

#include "internal.hpp"

namespace weft {

namespace impl {
namespace {
std::mutex g_records_mutex;
SharedAllocationRecord* g_records_head = nullptr;
}  // namespace

void record_register(SharedAllocationRecord* r) {
  if (tools::g_active) [[unlikely]]
    tools::allocate(r->space_name, r->label.c_str(), r->data, r->bytes);
  std::lock_guard<std::mutex> g(g_records_mutex);
  r->prev = nullptr;
  r->next = g_records_head;
  if (g_records_head) g_records_head->prev = r;
  g_records_head = r;
}

void record_unregister(SharedAllocationRecord* r) noexcept {
  if (tools::g_active) [[unlikely]]
    tools::deallocate(r->space_name, r->label.c_str(), r->data, r->bytes);
  std::lock_guard<std::mutex> g(g_records_mutex);
  if (r->prev)
    r->prev->next = r->next;
  else if (g_records_head == r)
    g_records_head = r->next;
  if (r->next) r->next->prev = r->prev;
  r->prev = r->next = nullptr;
}

std::vector<LiveAllocation> live_allocations() {
  std::lock_guard<std::mutex> g(g_records_mutex);
  std::vector<LiveAllocation> out;
  for (auto* r = g_records_head; r; r = r->next) out.push_back({r->label, r->bytes, r->space_name});
  return out;
}
}  // namespace impl

double host_memory_available() {
  double avail = 0;
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (unsigned long long kib = 0; std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) avail = kib * 1024.0;
    std::fclose(f);
  }
  return avail;
}
double host_memory_total() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<double>(pages) * static_cast<double>(size) : 0.0;
}

void* HostSpace::allocate(std::size_t bytes, std::string_view label) const {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const std::size_t rounded = impl::check_bytes(
      impl::size_round_up(bytes, 64),
      [&] { return "weft::HostSpace: allocating " + impl::quote(label) + ": " + std::to_string(bytes) + " bytes"; },
      "use smaller extents");
  p = std::aligned_alloc(64, rounded);
  if (!p)
    impl::throw_error("weft::HostSpace: allocating " + std::to_string(bytes) + " bytes for " + impl::quote(label) +
                      " failed (out of memory); use smaller extents or free other Views first");
  return p;
}

void HostSpace::deallocate(void* ptr, std::size_t bytes, std::string_view label) const {
#if WEFT_IMPL_ACCESS_HOOKS
  impl::host_space_free_check(ptr, bytes, label);  // a queued copy may still read or write it
#else
  (void)bytes;
  (void)label;
#endif
  std::free(ptr);
}

}  // namespace weft
