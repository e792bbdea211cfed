#include "sadsl/compute/design.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

std::string layout_transform::str() const {
  std::vector<std::string> from, to;
  for (size_t d = 0; d < order.size(); ++d) from.push_back(fmt::format("d{}", d));
  for (int o : order) to.push_back(fmt::format("d{}", o));
  return fmt::format("{}({}) -> {}_T({})", tensor.name(), fmt::join(from, ", "), tensor.name(), fmt::join(to, ", "));
}

std::string design::dataflow() const { return fmt::format("[{}]", join_names(space, ",")); }

std::string design::permutation() const {
  if (tile_order.empty()) return "<>";
  // The tile order is "outer set, then inner loops": the outer set is printed in band order.
  size_t inner = std::max<size_t>(1, tile_inner);
  std::vector<loop_id> outer(tile_order.begin(), tile_order.end() - inner);
  std::sort(outer.begin(), outer.end(),
            [&](const loop_id& a, const loop_id& b) { return band->position(a) < band->position(b); });
  std::vector<loop_id> inner_loops(tile_order.end() - inner, tile_order.end());
  return fmt::format("<[{}],{}>", join_names(outer, ","), join_names(inner_loops, ","));
}

const tiling_factor* design::factor(const factor_id& f) const {
  for (const auto& x : factors)
    if (x.id == f) return &x;
  return nullptr;
}

const tiling_factor* design::factor(const std::string& name) const {
  for (const auto& x : factors)
    if (name_of(x.id) == name) return &x;
  return nullptr;
}

std::vector<factor_id> design::chain(const loop_id& l) const {
  std::vector<factor_id> out;
  for (const auto& f : factors)
    if (f.id.loop == l) out.push_back(f.id);
  std::sort(out.begin(), out.end());  // by level: array partitioning, latency hiding, SIMD
  return out;
}

std::string design::name_of(const factor_id& f) const {
  auto c = chain(f.loop);
  auto at = std::find(c.begin(), c.end(), f);
  SADSL_INTERNAL_ASSERT(at != c.end(), fmt::format("design {} has no factor of loop {} at level {}", name(),
                                                   f.loop.name(), level_name(f.level)));
  return factor_name(f.loop, static_cast<int>(at - c.begin()) + 1);
}

std::string design::str(const tiling_factor& f) const {
  std::string name = name_of(f.id);
  std::string upper = f.parent ? name_of(*f.parent) : band->extent(f.id.loop).str();
  if (f.max_value > 0) upper = fmt::format("min({}, {})", upper, f.max_value);
  std::string s = fmt::format("{}: 1 <= {} <= {}", name, name, upper);
  if (f.parent) s += fmt::format(", {} | {}", name, name_of(*f.parent));
  if (f.power_of_two) s += ", power of two";
  return s;
}

std::string design::str() const {
  std::string s = fmt::format("design {}\n  band: [{}]\n  space loops: {}\n", name(), fmt::join(band->loop_names(), ", "),
                              dataflow());
  if (!tile_order.empty()) s += fmt::format("  tile loops (outermost first): {}\n", join_names(tile_order));
  if (!latency.empty()) s += fmt::format("  latency hiding: {}\n", join_names(latency));
  if (simd) s += fmt::format("  simd: {}\n", simd->name());
  for (const auto& l : layouts) s += fmt::format("  host layout: {}\n", l.str());
  for (const auto& f : factors) s += fmt::format("  {}\n", str(f));
  return s;
}

design_point point_by_name(const design& d, const factor_values& values) {
  design_point out;
  for (const auto& [name, v] : values) {
    const tiling_factor* f = d.factor(name);
    if (!f) throw error(fmt::format("design {} has no tiling factor \"{}\"", d.name(), name));
    out[f->id] = v;
  }
  return out;
}

const design& design_or_reason::value() const {
  if (!design_) throw error(why_);
  return *design_;
}

}  // namespace sadsl
