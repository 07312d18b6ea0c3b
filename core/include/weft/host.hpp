// What a program needs of the host around its kernels: the machine's memory (to refuse a problem before allocating
// it) and writing outputs so that a failure is never silent (the mini-apps and Weft's profiler use both).
#pragma once

#include <string>
#include <string_view>

namespace weft {

/// MemAvailable from /proc/meminfo (free memory plus what the kernel can reclaim), in bytes; 0 when unknown.
double host_memory_available();
/// The machine's physical memory in bytes; 0 when unknown.
double host_memory_total();

/// Writes `content` to `path` whole or not at all: into a temporary file next to it, flushed, synced and closed
/// with every error checked, then renamed over `path` (a reader sees the old file or the whole new one, and a full
/// disk leaves no empty file). A path that exists and is not a regular file (/dev/stdout, /dev/full, a FIFO) is
/// written in place, errors checked the same way. A failure raises weft::Error "cannot write "<path>": <reason>".
void write_file(const std::string& path, std::string_view content);

/// Flushes stdout; false when something written to it so far was lost (a full disk, /dev/full), with strerror's
/// text in `reason`.
bool stdout_ok(std::string* reason = nullptr);

/// True when the last weft::finalize() could not write an output it was asked for (WEFT_PROFILE=json:PATH on a full
/// disk); finalize printed one line saying why and left no empty or partial file. The mini-apps exit 2 then.
bool finalize_lost_output() noexcept;

}  // namespace weft
