// Matrix Market coordinate files (https://math.nist.gov/MatrixMarket/formats.html): real, integer or pattern
// entries, general or symmetric. Every malformed line raises weft::Error with the file name and line number.
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

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
}  // namespace

MatrixMarketData read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("weft::linalg: cannot open the Matrix Market file \"" + path + "\"");
  std::string line;
  long lineno = 1;
  if (!std::getline(in, line)) bad(path, lineno, "the file is empty");
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
  long entries = -1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '%') continue;
    std::istringstream s(line);
    std::string extra;
    if (!(s >> d.rows >> d.cols >> entries) || (s >> extra))
      bad(path, lineno, "the size line must hold three integers: rows columns entries");
    if (d.rows < 0 || d.cols < 0 || entries < 0) bad(path, lineno, "negative size");
    if (d.symmetric && d.rows != d.cols) bad(path, lineno, "a symmetric matrix must be square");
    break;
  }
  if (entries < 0) bad(path, lineno, "the size line is missing");
  d.i.reserve(static_cast<std::size_t>(entries) * (d.symmetric ? 2 : 1));
  long seen = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '%') continue;
    std::istringstream s(line);
    long r = 0, c = 0;
    double v = 1.0;
    std::string extra;
    if (!(s >> r >> c) || (!pattern && !(s >> v)) || (s >> extra))
      bad(path, lineno, pattern ? "an entry must be two integers: row column" : "an entry must be: row column value");
    if (r < 1 || r > d.rows || c < 1 || c > d.cols)
      bad(path, lineno,
          "entry (" + std::to_string(r) + ", " + std::to_string(c) + ") is outside the " + std::to_string(d.rows) +
              " x " + std::to_string(d.cols) + " matrix (indices start at 1)");
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
}  // namespace weft::linalg::impl
