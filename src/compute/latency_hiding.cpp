#include "sadsl/compute/latency_hiding.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace sadsl {

std::vector<loop_id> parallel_loops(const design& d) {
  std::vector<loop_id> out;
  const band& b = *d.band;
  for (size_t l = 0; l < b.loops.size(); ++l) {
    bool carried = std::any_of(b.deps.begin(), b.deps.end(), [&](const band_dependence& dep) {
      return dep.dep.kind != dep_kind::read &&
             std::any_of(dep.distances.begin(), dep.distances.end(),
                         [&](const distance_vector& v) { return !v.component_is(l, 0); });
    });
    if (!carried) out.push_back(b.loops[l]->loop_identity());
  }
  return out;
}

design_or_reason latency_hiding(const design& d) {
  if (d.tile_order.empty())
    return design_or_reason::illegal(fmt::format("latency hiding of design {} needs array partitioning first", d.name()));
  if (!d.latency.empty()) return design_or_reason::illegal(fmt::format("design {} already hides latency", d.name()));
  auto loops = parallel_loops(d);
  if (loops.empty())
    return design_or_reason::illegal(fmt::format("design {} has no parallel loop to hide latency with", d.name()));
  design out = d;
  out.latency = loops;
  // Factors listed space loops first, as the array-partitioning factors (Odyssey's order).
  std::stable_partition(loops.begin(), loops.end(), [&](const loop_id& l) {
    return std::find(d.space.begin(), d.space.end(), l) != d.space.end();
  });
  for (const auto& l : loops) {
    tiling_factor f;
    f.id = {l, tile_level::latency_hiding};
    f.parent = factor_id{l, tile_level::array_partition};
    out.factors.push_back(std::move(f));
  }
  return out;
}

}  // namespace sadsl
