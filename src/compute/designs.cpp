#include "sadsl/compute/designs.hpp"

#include "sadsl/compute/array_partition.hpp"
#include "sadsl/compute/expand_locals.hpp"
#include "sadsl/compute/latency_hiding.hpp"
#include "sadsl/compute/simd.hpp"
#include "sadsl/compute/space_time.hpp"
#include "sadsl/error.hpp"

#include <fmt/format.h>

namespace sadsl {

std::vector<design> designs(const kernel& k, const design_options& options) {
  if (options.max_space_dims < 1 || options.max_space_dims > 3)
    throw error(fmt::format("designs of kernel \"{}\": design_options::max_space_dims = {}, but a systolic array has "
                            "1, 2 or 3 space dimensions",
                            k.name(), options.max_space_dims));
  program p = expand_local_tensors(build_program(k));
  auto b = std::make_shared<const band>(outermost_band(p));
  std::vector<design> out;
  auto dataflows = space_time_candidates(b, options.max_space_dims);
  if (dataflows.empty()) {
    // Say why each band loop is excluded: space_time reports the offending dependence.
    std::vector<std::string> reasons;
    for (const auto& l : b->loop_names()) reasons.push_back(space_time(b, {l}).why());
    throw error(fmt::format("kernel \"{}\" has no legal space loop: {}", k.name(), fmt::join(reasons, "; ")));
  }
  for (const auto& dataflow : dataflows) {
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
