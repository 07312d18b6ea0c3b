// libFuzzer harness for the Matrix Market reader (the `fuzz` preset: clang, -fsanitize=fuzzer,address,undefined).
// Each input is written to a file and read; a malformed one must raise weft::Error (naming the file and line) and
// nothing else: no other exception, no crash, no sanitizer report, no allocation beyond what the file can hold.
// What is read must be consistent: indices inside the declared sizes, one value per entry, and a symmetric file
// expanded within the bounds.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <weft/linalg.hpp>

namespace {
std::string input_path() {
  static const std::string path = [] {
    char dir[] = "/tmp/weft-fuzz-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    return std::string(dir) + "/input.mtx";
  }();
  return path;
}
[[noreturn]] void bug(const char* what) {
  std::fprintf(stderr, "fuzz_matrix_market: %s\n", what);
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = input_path();
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size > 0 && std::fwrite(data, 1, size, f) != size) bug("cannot write the input file");
    std::fclose(f);
  } else {
    bug("cannot create the input file");
  }
  try {
    const auto mm = weft::linalg::impl::read_matrix_market(path);
    if (mm.rows < 0 || mm.cols < 0) bug("negative sizes accepted");
    if (mm.i.size() != mm.v.size() || mm.j.size() != mm.v.size()) bug("entries and values differ in number");
    for (std::size_t k = 0; k < mm.v.size(); ++k)
      if (mm.i[k] < 0 || mm.i[k] >= mm.rows || mm.j[k] < 0 || mm.j[k] >= mm.cols) bug("an index outside the sizes");
  } catch (const weft::Error&) {
    // the expected answer to a malformed file
  }
  return 0;
}
