// What the host machine can give now, for checks that refuse a problem before allocating it (the apps' size
// checks, the Matrix Market reader's declared sizes).
#pragma once

namespace weft::impl {

/// MemAvailable from /proc/meminfo (free memory plus what the kernel can reclaim), in bytes; 0 when unknown.
double host_memory_available();
/// The machine's physical memory in bytes (sysconf); 0 when unknown.
double host_memory_total();

}  // namespace weft::impl
