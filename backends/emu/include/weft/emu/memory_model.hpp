// GpuEmu's memory model: how a GPU's memory system would see each emulated kernel's accesses, counted as Nsight
// Compute counts them, so that coalescing and shared-memory bank conflicts are measured without a GPU.
//
// On with WEFT_EMU_PROFILE=memory (or set_memory_model(true)); the figures are printed at finalize (beside the
// kernel timer under --weft-profile=summary, in its JSON under json:PATH) and read by tests through
// memory_figures().
//
// What is recorded: every access a kernel makes through a View of a GPU memory space or of team scratch (and
// through impl::ScratchPtr), every gpu::shared_load / shared_store, each gpu::copy_async (its global source and its
// shared destination), gpu::load_coherent and the look-back flags. Raw pointer dereferences are not seen: of
// Weft's kernels, the reduction's partials, the scan's tile states, the GEMM's epilogue source reads through
// raw operand pointers, the sort's global keys and View::initialize / deep_copy's element loops.
//
// How requests form (the model of SIMT lock-step): between two synchronization points of a warp (a block barrier,
// or a warp collective any of its lanes takes part in), the accesses its lanes issued from one call site of the
// kernel -- the k-th of each lane with the k-th of the others -- make up one warp-wide request, as the lanes of a
// warp issue one instruction together. A call site is where the access inlines into the kernel (View element
// access, shared_load and the other intrinsics are always inlined in GpuEmu builds), so lanes that took different
// branches issue apart, and a loop's iterations pair up by count. Where a GPU would split a request the model
// cannot see (a warp that diverges inside one site's loop and reconverges later), it pairs what the lanes issued
// in order; the convergent loops of Weft's kernels and of ordinary team code are counted instruction by
// instruction. A read-modify-write through one View reference (v(i) += x) is one request here, a load and a
// store on a GPU; loads and stores are not told apart.
//  - Global memory: a request touches the 32-byte sectors its lanes' bytes lie in (Nsight's sectors per request:
//    a warp's unit-stride doubles are 8, floats 4, a stride-2 double load 16, a stride-32 one 32, a broadcast 1).
//    The ideal is the fewest sectors the distinct bytes could lie in, ceil(bytes / 32).
//  - Shared memory: 32 banks of 4 bytes; a request takes as many wavefronts as the most distinct 4-byte words any
//    one bank serves (lanes reading the same word share it, a broadcast). An 8-byte access spans two banks, so a
//    warp's unit-stride doubles take 2 wavefronts (the two half-warps CUDA splits it into), 16-byte ones 4. The
//    ideal is ceil(distinct words / 32); bank conflicts are the wavefronts beyond it (Nsight's
//    l1tex__data_bank_conflicts_pipe_lsu_mem_shared).
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
