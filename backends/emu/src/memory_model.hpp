// The memory model's accounting (memory_model.cpp), shared with the emulator's scheduler (emu.cpp), which groups
// each warp's accesses into requests at its synchronization points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <weft/emu/context.hpp>
#include <weft/emu/memory_model.hpp>

namespace weft::impl::emu::model {

/// One lane's access: where it was issued from (the kernel's call site, as a GPU's instruction) and how many
/// times before this lane issued from that site since its warp's last synchronization point.
struct Acc {
  std::uintptr_t addr;
  std::uint32_t bytes;
  std::uint32_t seq;
  const void* site;
};

/// The Views a launch captured, sorted by address, for naming its global requests.
class Views {
 public:
  explicit Views(const std::vector<ModelView>* views);
  /// The index of the View holding address a, or size() ("(other)").
  std::size_t find(std::uintptr_t a) const;
  std::size_t size() const { return labels_.size(); }
  const std::string& label(std::size_t i) const { return labels_[i]; }

 private:
  struct Range {
    std::uintptr_t begin, end;
    std::size_t index;
  };
  std::vector<Range> ranges_;
  std::vector<std::string> labels_;
};

/// Figures of one block (or one launch): by View, the last entry for addresses outside every View.
struct Counts {
  gpuemu::GlobalFigures global;
  gpuemu::SharedFigures shared;
  std::vector<gpuemu::GlobalFigures> views;
  void reset(std::size_t nviews) {
    global = {};
    shared = {};
    views.assign(nviews + 1, {});
  }
  void add(const Counts& o) {
    global += o.global;
    shared += o.shared;
    for (std::size_t i = 0; i < views.size() && i < o.views.size(); ++i) views[i] += o.views[i];
  }
};

/// One warp-wide request of n lanes (1 to 32).
void account_global(Counts& c, const Views& v, const Acc* lanes, int n);
void account_shared(Counts& c, const Acc* lanes, int n);
/// Adds a finished launch's figures under its label.
void add_launch(const char* label, const Counts& c, const Views& v);

}  // namespace weft::impl::emu::model

namespace weft::impl::emu {
/// Adds the model's table and JSON to the profile (tools::add_report).
void register_memory_model_report();
}  // namespace weft::impl::emu
