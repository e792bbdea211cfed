// A triangular design's latency and DRAM traffic from its tiles' counts (triangular_phases.hpp).
#include "triangular_phases.hpp"

#include "chain_phases.hpp"
#include "grid_phases.hpp"
#include "tile_traffic.hpp"

namespace sadsl::modeling {

namespace {

// The tiling in the model's parameters: each kernel param (symbols' first parameters), and per
// band loop its factor and its tiles.
struct tiling_terms {
  std::vector<expr> sizes, t1, tiles;
};

tiling_terms tiling_of(const band& b, const symbols& s) {
  tiling_terms out;
  const auto& params = b.source->kernel().params();
  for (size_t n = 0; n < params.size(); ++n) out.sizes.push_back(expr::parameter(n, params[n].name()));
  for (const auto& l : b.loop_ids()) {
    out.t1.push_back(s.loop(l).t1);
    out.tiles.push_back(s.loop(l).tiles);
  }
  return out;
}

}  // namespace

std::vector<moved_values> triangular_traffic(const architecture& a, const symbols& s, size_t& next_index) {
  const band& b = *a.design->band;
  tiling_terms t = tiling_of(b, s);
  std::vector<moved_values> out;
  for (const auto& traffic : tile_traffic_of(a))
    out.push_back({traffic.tensor, traffic.input, traffic_over_tiles(b, traffic, t.sizes, t.t1, t.tiles, next_index)});
  return out;
}

expr triangular_latency(const architecture& a, const symbols& s, const std::function<expr(const tensor_id&, bool)>& elements_per_word,
                        size_t& next_index) {
  tiling_terms t = tiling_of(*a.design->band, s);
  if (a.design->space.size() == 2) return grid_phases_latency(a, t.sizes, t.t1, t.tiles, elements_per_word, next_index);
  return chain_phases_latency(a, t.sizes, t.t1, t.tiles, elements_per_word, next_index);
}

}  // namespace sadsl::modeling
