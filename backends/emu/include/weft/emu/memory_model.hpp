// GpuEmu's memory model: how a GPU's memory system would see each emulated kernel's accesses (global sectors per
// request, shared-memory wavefronts and bank conflicts, counted as Nsight Compute counts them), without a GPU.
// On with WEFT_EMU_PROFILE=memory or set_memory_model(true); printed at finalize, read by tests through
// memory_figures(). What is recorded and how requests form: docs/how-it-runs.md, "GpuEmu's memory model".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace weft::gpuemu {

struct GlobalFigures {
  std::uint64_t requests = 0;       ///< warp-wide requests
  std::uint64_t sectors = 0;        ///< 32-byte sectors they touched
  std::uint64_t ideal_sectors = 0;  ///< the fewest sectors their distinct bytes could lie in
  std::uint64_t accesses = 0;       ///< lane accesses
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
  double ideal_sectors_per_request() const { return requests ? double(ideal_sectors) / double(requests) : 0.0; }
  /// sectors / ideal sectors: 1 when every request is as coalesced as its bytes allow.
  double excess() const { return ideal_sectors ? double(sectors) / double(ideal_sectors) : 1.0; }
  GlobalFigures& operator+=(const GlobalFigures& o) {
    requests += o.requests;
    sectors += o.sectors;
    ideal_sectors += o.ideal_sectors;
    accesses += o.accesses;
    return *this;
  }
};

struct SharedFigures {
  std::uint64_t requests = 0;          ///< warp-wide requests
  std::uint64_t wavefronts = 0;        ///< wavefronts the banks needed to serve them
  std::uint64_t ideal_wavefronts = 0;  ///< ceil(distinct words / 32) per request
  std::uint64_t accesses = 0;          ///< lane accesses
  std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
  double wavefronts_per_request() const { return requests ? double(wavefronts) / double(requests) : 0.0; }
  SharedFigures& operator+=(const SharedFigures& o) {
    requests += o.requests;
    wavefronts += o.wavefronts;
    ideal_wavefronts += o.ideal_wavefronts;
    accesses += o.accesses;
    return *this;
  }
};

/// All launches of kernels with one label.
struct KernelFigures {
  std::string label;
  std::uint64_t launches = 0;
  GlobalFigures global;
  SharedFigures shared;
  /// Global requests by the View whose memory the request's lowest address lies in ("(other)": none captured).
  std::vector<std::pair<std::string, GlobalFigures>> views;
};

/// Turns the model on or off for the launches that run from now on (off by default; WEFT_EMU_PROFILE=memory). With
/// it on, a launch also records which View each captured range belongs to, for the per-View figures.
void set_memory_model(bool on);
bool memory_model();
/// Forgets the figures gathered so far (the launches still queued are counted when they run).
void reset_memory_model();
/// Every kernel label seen since the last reset, in label order.
std::vector<KernelFigures> memory_figures();
/// The figures of the kernels labelled `label`; a weft::Error naming the labels seen when there are none.
KernelFigures memory_figures(std::string_view label);
/// The table printed at finalize.
std::string memory_model_table();

}  // namespace weft::gpuemu
