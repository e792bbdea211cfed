#pragma once
// The latency structure of a compiler-built model: from what each module does per tile to its
// prologue, main and epilogue (model::module_latency), phase by phase, as the timed simulation
// runs the architecture (timed_simulation.hpp; docs/modeling.md, "Latency").
#include <string>
#include <vector>

#include "sadsl/model/design_model.hpp"

namespace sadsl::modeling {

using model::expr;

/// Which tiles of one tile loop a module runs in, measured at the template point: all of them,
/// all but the first (a reload: the first tile has no partial result yet), all but the last (a
/// write-back: the last tile's result is final), only the first, or only the last (a drain).
enum class tile_range { all, all_but_first, all_but_last, first, last };

/// What one module does per tile.
struct module_timing {
  std::string name;
  model::module_role role = model::module_role::compute;
  /// One tile step in steady state: both sides of a double buffer overlap (the longer one),
  /// other modules run their parts one after another.
  expr step;
  /// Inputs: the transfer parts of one tile, which a phase's first tile waits for before the PEs
  /// start. Outputs: the transfer parts of the last tile, after the PEs end.
  expr fill, drain;
  /// The cycles by which the last PE finishes a tile after the first, as far as this module does
  /// not hide them (pe_pipeline.hpp).
  expr wavefront = 0;
  /// Inputs: the cycles a word takes from the module to the PEs beyond its transfer (a FIFO
  /// latency per level down to the PEs, and a fresh DRAM port's first access).
  expr latency = 0;
  std::vector<tile_range> ranges;  // per tile loop, in tile order
};

/// The design's tile loops and the compute stage every tile passes through.
struct tile_frame {
  std::vector<expr> tiles;   // per tile loop (tile order): its tiles
  std::vector<bool> phase;   // per tile loop: run on the host, one phase per tile
  expr pe_tile;              // the PEs' cycles for one tile
};

/// Each module's prologue, main and epilogue, summed over the phases (docs/modeling.md).
std::vector<model::module_latency> compose_latency(const tile_frame& frame, const std::vector<module_timing>& modules);

/// Tiles (all phases) a module with these ranges runs in.
expr tile_count(const tile_frame& frame, const std::vector<tile_range>& ranges);

}  // namespace sadsl::modeling
