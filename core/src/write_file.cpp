// write_file: a temporary file next to the target, every error checked, then a rename (see weft/host.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <weft/error.hpp>
#include <weft/host.hpp>

namespace weft {
namespace {

[[noreturn]] void write_failed(const std::string& path, const std::string& why) {
  throw Error("cannot write " + impl::quote(path) + ": " + why);
}

/// Writes all of `content` to fd, retrying short writes and interruptions; errno's text on failure, else "".
std::string write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    if (n == 0) return "the device accepted no more bytes";
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace

void write_file(const std::string& path, std::string_view content) {
  if (path.empty()) write_failed(path, "the path is empty");
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) write_failed(path, "it is a directory; give a file name");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or a FIFO: there is nothing to rename over; write it in place.
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) write_failed(path, std::strerror(errno));
    std::string why = write_all(fd, content);
    if (::close(fd) != 0 && why.empty()) why = std::strerror(errno);
    if (!why.empty()) write_failed(path, why);
    return;
  }
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + (slash == 0 ? 1 : 0));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "." + base + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    write_failed(path, std::string(std::strerror(errno)) + " (making a temporary file in " + impl::quote(dir) + ")");
  // mkstemp makes it 0600: give it the mode the file has, or what a new file would get under the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  std::string why = write_all(fd, content);
  if (why.empty() && ::fchmod(fd, mode) != 0) why = std::strerror(errno);
  if (why.empty() && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) why = std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = std::strerror(errno);
  if (why.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) why = std::strerror(errno);
  if (!why.empty()) {
    ::unlink(tmp.c_str());
    write_failed(path, why);
  }
}

bool stdout_ok(std::string* reason) {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && !std::ferror(stdout)) return true;
  if (reason) *reason = !flushed && errno ? std::strerror(errno) : "a write to standard output failed";
  return false;
}

}  // namespace weft
