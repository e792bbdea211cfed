#include "sadsl/comm/padding.hpp"

#include "sadsl/compute/zero_padding.hpp"

namespace sadsl {

padding_plan plan_padding(const design& d, const design_point& point) {
  padding_plan out;
  for (const auto& prm : d.band->source->kernel().params()) out.values[prm.id()] = prm.value();
  zero_padding z = check_zero_padding(d);
  out.why_guarded = z.why_not;
  out.zero_padded = z.valid();
  if (!out.zero_padded) return out;
  for (const auto& [loop, param] : z.loop_params) {
    int64_t t1 = point.at({loop->loop_identity(), tile_level::array_partition});
    out.values[param->param_identity()] = (detail::size_of(*param) + t1 - 1) / t1 * t1;
  }
  return out;
}

}  // namespace sadsl
