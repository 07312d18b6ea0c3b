// Matrix Market coordinate files (https://math.nist.gov/MatrixMarket/formats.html): real, integer or pattern
// entries, general or symmetric. Every malformed line raises weft::Error with the file name and line number;
// declared sizes are checked against what the file can hold and what the machine can give before anything is
// allocated, so a 35-byte file cannot ask for gigabytes.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

#include <weft/host.hpp>
#include <weft/linalg.hpp>

namespace weft::linalg::impl {
namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
[[noreturn]] void bad(const std::string& path, long line, const std::string& what) {
  throw Error("weft::linalg: Matrix Market file \"" + path + "\" line " + std::to_string(line) + ": " + what);
}
bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }
/// std::getline that refuses a line holding a NUL byte (it would end the number parsers' text early, so that
/// "1 1 1\0junk" read as a clean entry).
bool next_line(std::istream& in, std::string& line, const std::string& path, long lineno) {
  if (!std::getline(in, line)) return false;
  if (line.find('\0') != std::string::npos)
    bad(path, lineno,
        "the line holds a NUL byte at column " + std::to_string(line.find('\0') + 1) +
            "; a Matrix Market file is text");
  return true;
}
/// The value of an entry: a finite number; for integer fields an integer.
double parse_value(const std::string& path, long lineno, const std::string& token, bool integer) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0') bad(path, lineno, "the value \"" + token + "\" is not a number");
  if (!std::isfinite(v)) bad(path, lineno, "the value \"" + token + "\" is not finite (nan and inf are not allowed)");
  if (integer) {
    const long long k = std::strtoll(token.c_str(), &end, 10);
    if (*end != '\0' || errno == ERANGE || static_cast<double>(k) != v)
      bad(path, lineno, "the value \"" + token + "\" is not an integer, but the file's field is integer");
  }
  return v;
}
MatrixMarketData read(const std::string& path);
}  // namespace

MatrixMarketData read_matrix_market(const std::string& path) {
  try {
    return read(path);
  } catch (const std::bad_alloc&) {
    throw Error("weft::linalg: Matrix Market file \"" + path +
                "\": out of memory holding its entries; the matrix is too large for this machine");
  } catch (const std::length_error&) {
    throw Error("weft::linalg: Matrix Market file \"" + path + "\": its declared sizes are too large to hold");
  }
}

namespace {
MatrixMarketData read(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("weft::linalg: \"" + path + "\" is a directory, not a Matrix Market file");
  std::ifstream in(path);
  if (!in) throw Error("weft::linalg: cannot open the Matrix Market file \"" + path + "\"");
  const auto file_bytes = std::filesystem::file_size(path, ec);
  std::string line;
  long lineno = 1;
  if (!next_line(in, line, path, lineno)) bad(path, lineno, "the file is empty");
  std::istringstream header(line);
  std::string banner, object, format, field, symmetry;
  header >> banner >> object >> format >> field >> symmetry;
  if (banner != "%%MatrixMarket")
    bad(path, lineno, "the first line must start with %%MatrixMarket, found \"" + line.substr(0, 40) + "\"");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix") bad(path, lineno, "object \"" + object + "\" is not supported (only matrix)");
  if (format != "coordinate") bad(path, lineno, "format \"" + format + "\" is not supported (only coordinate)");
  if (field != "real" && field != "integer" && field != "pattern" && field != "double")
    bad(path, lineno, "field \"" + field + "\" is not supported (real, integer or pattern)");
  if (symmetry != "general" && symmetry != "symmetric")
    bad(path, lineno, "symmetry \"" + symmetry + "\" is not supported (general or symmetric)");
  MatrixMarketData d;
  d.symmetric = symmetry == "symmetric";
  const bool pattern = field == "pattern";
  const bool integer = field == "integer";
  long entries = -1;
  while (next_line(in, line, path, lineno + 1)) {
    ++lineno;
    if (blank(line) || line[0] == '%') continue;  // blank lines are allowed here, as NIST's mmio allows them
    std::istringstream s(line);
    std::string extra;
    if (!(s >> d.rows >> d.cols >> entries) || (s >> extra))
      bad(path, lineno, "the size line must hold three integers: rows columns entries");
    if (d.rows < 0 || d.cols < 0 || entries < 0) bad(path, lineno, "negative size");
    if (d.symmetric && d.rows != d.cols) bad(path, lineno, "a symmetric matrix must be square");
    break;
  }
  if (entries < 0) bad(path, lineno, "the size line is missing");
  // Each entry line needs at least "1 1\n" (pattern) or "1 1 1\n": a count far beyond what the rest of the file
  // can hold is a broken size line, not a reason to reserve memory for it.
  if (!ec) {
    const std::streamoff at = in.tellg();
    const double rest = at >= 0 ? double(file_bytes) - double(at) : double(file_bytes);
    const double most = rest / (pattern ? 4.0 : 6.0);
    if (double(entries) > 2 * most + 1000)  // small shortfalls get "the file ends after k of n" at the end
      bad(path, lineno,
          "the size line announces " + std::to_string(entries) + " entries, but the rest of the file (" +
              std::to_string(static_cast<long long>(rest)) + " bytes) holds at most " +
              std::to_string(static_cast<long long>(most)) + "; fix the size line");
  }
  // The triplets, the CSR row offsets and their copies: refuse what the machine cannot give now.
  const double expanded = double(entries) * (d.symmetric ? 2.0 : 1.0);
  const double need = 48.0 * expanded + 16.0 * (double(d.rows) + 1.0);
  if (const double avail = weft::host_memory_available(); avail > 0 && need > 0.9 * avail) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "a %ld x %ld matrix with %ld entries needs about %.1f GB to read and convert, but the machine has "
                  "%.1f GB available",
                  d.rows, d.cols, entries, need / 1e9, avail / 1e9);
    bad(path, lineno, msg);
  }
  d.i.reserve(static_cast<std::size_t>(expanded));
  d.j.reserve(static_cast<std::size_t>(expanded));
  d.v.reserve(static_cast<std::size_t>(expanded));
  long seen = 0;
  while (next_line(in, line, path, lineno + 1)) {
    ++lineno;
    if (blank(line) || line[0] == '%') continue;
    std::istringstream s(line);
    long r = 0, c = 0;
    double v = 1.0;
    std::string token, extra;
    if (!(s >> r >> c) || (!pattern && !(s >> token)) || (s >> extra))
      bad(path, lineno, pattern ? "an entry must be two integers: row column" : "an entry must be: row column value");
    if (!pattern) v = parse_value(path, lineno, token, integer);
    if (r < 1 || r > d.rows || c < 1 || c > d.cols)
      bad(path, lineno,
          "entry (" + std::to_string(r) + ", " + std::to_string(c) + ") is outside the " + std::to_string(d.rows) +
              " x " + std::to_string(d.cols) + " matrix (indices start at 1)");
    if (d.symmetric && c > r)
      bad(path, lineno,
          "entry (" + std::to_string(r) + ", " + std::to_string(c) +
              ") is above the diagonal, but a symmetric file lists the lower triangle only (each off-diagonal entry "
              "stands for both)");
    if (++seen > entries) bad(path, lineno, "more entries than the " + std::to_string(entries) + " announced");
    d.i.push_back(r - 1);
    d.j.push_back(c - 1);
    d.v.push_back(v);
    if (d.symmetric && r != c) {
      d.i.push_back(c - 1);
      d.j.push_back(r - 1);
      d.v.push_back(v);
    }
  }
  if (seen < entries)
    bad(path, lineno,
        "the file ends after " + std::to_string(seen) + " of the " + std::to_string(entries) + " announced entries");
  return d;
}
}  // namespace
}  // namespace weft::linalg::impl
