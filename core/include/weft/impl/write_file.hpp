// Writing a file so that a failure is never silent and never leaves a truncated or empty file behind.
#pragma once

#include <string>
#include <string_view>

namespace weft::impl {

/// Writes `content` to `path`: into a temporary file next to it, flushed, synced and closed with every error
/// checked, then renamed over `path` (a reader sees the old file or the whole new one). A path that exists and is
/// not a regular file (a device such as /dev/stdout or /dev/full, a FIFO) is written in place, errors checked the
/// same way. Any failure raises weft::Error "cannot write \"<path>\": <reason>" and leaves no temporary file.
void write_file(const std::string& path, std::string_view content);

/// Flushes stdout and reports whether everything written to it so far reached it (false after a write error,
/// e.g. stdout on a full disk or /dev/full); `reason` receives strerror's text on failure.
bool stdout_ok(std::string* reason = nullptr);

}  // namespace weft::impl
