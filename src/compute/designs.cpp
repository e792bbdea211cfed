#include "sadsl/compute/designs.hpp"

#include "sadsl/compute/array_partition.hpp"
#include "sadsl/compute/expand_locals.hpp"
#include "sadsl/compute/latency_hiding.hpp"
#include "sadsl/compute/simd.hpp"
#include "sadsl/compute/space_time.hpp"

namespace sadsl {

std::vector<design> designs(const kernel& k, const design_options& options) {
  program p = expand_local_tensors(build_program(k));
  auto b = std::make_shared<const band>(outermost_band(p));
  std::vector<design> out;
  for (const auto& dataflow : space_time_candidates(b, options.max_space_dims)) {
    for (const auto& order : tile_orders(dataflow)) {
      design d = array_partition(dataflow, order).value();
      if (options.latency_hiding)
        if (auto hidden = latency_hiding(d)) d = hidden.value();
      if (options.simd)
        if (auto vectorized = simd(d)) d = vectorized.value();
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace sadsl
