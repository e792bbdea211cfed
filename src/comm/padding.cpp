#include "sadsl/comm/padding.hpp"

#include "sadsl/compute/zero_padding.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace sadsl {

padding_plan plan_padding(const design& d, const design_point& point) {
  padding_plan out;
  for (const auto& prm : d.band->source->kernel().params()) out.values[prm.id()] = prm.value();
  zero_padding z = check_zero_padding(d);
  out.why_guarded = z.why_not;
  out.zero_padded = z.valid();
  if (!out.zero_padded) return out;
  // Each param padded to a multiple of its loops' first-level factors: the largest such size of
  // the loops that share it, each loop running to its own where the design allows it, else they
  // must agree or their partial tiles are guarded at this point.
  std::map<param_id, const detail::symbol_node*> first_loop;
  padding_plan guarded = out;  // the kernel's own values, for a point whose loops disagree
  guarded.zero_padded = false;
  for (const auto& [loop, param] : z.loop_params) {
    int64_t t1 = point.at({loop->loop_identity(), tile_level::array_partition});
    int64_t padded = (detail::size_of(*param) + t1 - 1) / t1 * t1;
    auto [seen, fresh] = first_loop.emplace(param->param_identity(), loop);
    int64_t& value = out.values[param->param_identity()];
    if (!fresh && value != padded && !z.pads_apart) {
      guarded.why_guarded = fmt::format("loops \"{}\" and \"{}\" share the param \"{}\", which their first-level "
                                        "factors pad to {} and {}",
                                        seen->second->name, loop->name, param->name, value, padded);
      return guarded;
    }
    value = fresh ? padded : std::max(value, padded);
    out.loop_bounds[loop->loop_identity()] = padded;
  }
  return out;
}

}  // namespace sadsl
