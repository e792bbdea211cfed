#pragma once
// The latency and DRAM traffic of a triangular design (a band loop's bounds depend on an outer
// loop: LU's j and i start at k), read off its tiles' counts rather than its template's part
// cycles, which differ from tile to tile there (docs/modeling.md, "Triangular designs"). Every
// tile of such a design is a phase of its own (tile_traffic.hpp refuses others), so the latency
// is a sum over the tile space of one tile's phase (chain_phases.hpp for a chain of PEs,
// grid_phases.hpp for a grid) and each network's
// traffic a sum of the values each tile moves.
#include <cstddef>
#include <functional>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "symbols.hpp"

namespace sadsl::modeling {

/// The values of one tensor moved in one direction in a whole run.
struct moved_values {
  tensor_id tensor;
  bool input = true;
  expr values;
};

/// Those of template architecture a of a triangular design, in the model parameters of s, one
/// entry per tensor and direction that moves (tile_traffic_of's order). Sum indices are numbered
/// from next_index (advanced past them).
std::vector<moved_values> triangular_traffic(const architecture& a, const symbols& s, std::size_t& next_index);

/// Its latency: chain_phases_latency (one space loop) or grid_phases_latency (two) over the tiles.
/// `elements_per_word(tensor, input)` is the packing of the tensor's DRAM network in that
/// direction. sadsl::error for a design the phase compositions do not describe (three space
/// loops, several values of a space loop in a PE).
expr triangular_latency(const architecture& a, const symbols& s,
                        const std::function<expr(const tensor_id&, bool input)>& elements_per_word, std::size_t& next_index);

}  // namespace sadsl::modeling
