// A Kokkos Tools library that records every callback, one line each, into the file named by
// WEFT_TEST_RECORD_<TOOL_ID>: the tools test checks the sequence, the ids and the names. Built twice (ids 1 and
// 2) to check that Weft chains several libraries.
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#ifndef TOOL_ID
#define TOOL_ID 1
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

namespace {
FILE* out = nullptr;
std::uint64_t next_kernel = 100 * TOOL_ID, next_fence = 5000 * TOOL_ID;
std::uint32_t next_section = 70 * TOOL_ID;
std::string parsed_args;  // kokkosp_parse_args comes before init opens the record: written there
void line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void line(const char* fmt, ...) {
  if (!out) return;
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(out, fmt, ap);
  va_end(ap);
  std::fputc('\n', out);
}
}  // namespace

struct SpaceHandle {
  char name[64];
};

extern "C" {
void kokkosp_parse_args(int argc, char** argv) {
  parsed_args = "parse_args " + std::to_string(argc);
  for (int i = 0; i < argc; ++i) parsed_args += (i ? "|" : " ") + std::string(argv[i]);
}
void kokkosp_print_help(char* program) {
  std::printf("recording tool " STR(TOOL_ID) " help for %s\n", program ? program : "(no name)");
}
void kokkosp_init_library(int seq, std::uint64_t version, std::uint32_t, void*) {
  const char* path = std::getenv("WEFT_TEST_RECORD_" STR(TOOL_ID));
  out = path ? std::fopen(path, "w") : nullptr;
  if (!parsed_args.empty()) line("%s", parsed_args.c_str());
  line("init %d %llu", seq, static_cast<unsigned long long>(version));
}
void kokkosp_finalize_library() {
  line("finalize");
  if (out) std::fclose(out);
  out = nullptr;
}
// A begin/end pair of callbacks: begin hands out the next id of `counter` and records the name with it.
#define RECORDING_TOOL_PAIR(KIND, WORD, COUNTER)                                  \
  void kokkosp_begin_##KIND(const char* name, std::uint32_t, std::uint64_t* id) { \
    *id = COUNTER++;                                                              \
    line("begin_" WORD " %s %llu", name, static_cast<unsigned long long>(*id));   \
  }                                                                               \
  void kokkosp_end_##KIND(std::uint64_t id) { line("end_" WORD " %llu", static_cast<unsigned long long>(id)); }
RECORDING_TOOL_PAIR(parallel_for, "for", next_kernel)
RECORDING_TOOL_PAIR(parallel_reduce, "reduce", next_kernel)
RECORDING_TOOL_PAIR(parallel_scan, "scan", next_kernel)
RECORDING_TOOL_PAIR(fence, "fence", next_fence)
#undef RECORDING_TOOL_PAIR
void kokkosp_allocate_data(SpaceHandle h, const char* name, const void*, std::uint64_t size) {
  line("allocate %s %s %llu", h.name, name, static_cast<unsigned long long>(size));
}
void kokkosp_deallocate_data(SpaceHandle h, const char* name, const void*, std::uint64_t size) {
  line("deallocate %s %s %llu", h.name, name, static_cast<unsigned long long>(size));
}
void kokkosp_begin_deep_copy(SpaceHandle dh, const char* dn, const void*, SpaceHandle sh, const char* sn, const void*,
                             std::uint64_t size) {
  line("begin_deep_copy %s %s %s %s %llu", dh.name, dn, sh.name, sn, static_cast<unsigned long long>(size));
}
void kokkosp_end_deep_copy() { line("end_deep_copy"); }
void kokkosp_push_profile_region(const char* name) { line("push %s", name); }
void kokkosp_pop_profile_region() { line("pop"); }
void kokkosp_create_profile_section(const char* name, std::uint32_t* id) {
  *id = next_section++;
  line("create_section %s %u", name, *id);
}
void kokkosp_start_profile_section(std::uint32_t id) { line("start_section %u", id); }
void kokkosp_stop_profile_section(std::uint32_t id) { line("stop_section %u", id); }
void kokkosp_destroy_profile_section(std::uint32_t id) { line("destroy_section %u", id); }
void kokkosp_declare_metadata(const char* key, const char* value) { line("metadata %s %s", key, value); }
}
