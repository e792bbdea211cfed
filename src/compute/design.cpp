#include "sadsl/compute/design.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

std::string tiling_factor::str() const {
  std::string s = fmt::format("{}: 1 <= {} <= {}", name, name, max_value > 0 ? fmt::format("min({}, {})", upper, max_value) : upper);
  if (!divides.empty()) s += fmt::format(", {} | {}", name, divides);
  if (power_of_two) s += ", power of two";
  return s;
}

std::string layout_transform::str() const {
  std::vector<std::string> from, to;
  for (size_t d = 0; d < order.size(); ++d) from.push_back(fmt::format("d{}", d));
  for (int o : order) to.push_back(fmt::format("d{}", o));
  return fmt::format("{}({}) -> {}_T({})", tensor, fmt::join(from, ", "), tensor, fmt::join(to, ", "));
}

std::string design::dataflow() const { return fmt::format("[{}]", fmt::join(space, ",")); }

std::string design::permutation() const {
  if (tile_order.empty()) return "<>";
  // The tile order is "outer set, then inner loops": the outer set is printed in band order.
  size_t inner = std::max<size_t>(1, tile_inner);
  std::vector<std::string> outer(tile_order.begin(), tile_order.end() - inner);
  auto names = band->loop_names();
  std::sort(outer.begin(), outer.end(), [&](const std::string& a, const std::string& b) {
    return std::find(names.begin(), names.end(), a) < std::find(names.begin(), names.end(), b);
  });
  return fmt::format("<[{}],{}>", fmt::join(outer, ","),
                     fmt::join(std::vector<std::string>(tile_order.end() - inner, tile_order.end()), ","));
}

const tiling_factor* design::factor(const std::string& name) const {
  for (const auto& f : factors)
    if (f.name == name) return &f;
  return nullptr;
}

std::string design::str() const {
  std::string s = fmt::format("design {}\n  band: [{}]\n  space loops: {}\n", name(), fmt::join(band->loop_names(), ", "),
                              dataflow());
  if (!tile_order.empty()) s += fmt::format("  tile loops (outermost first): {}\n", fmt::join(tile_order, ", "));
  if (!latency.empty()) s += fmt::format("  latency hiding: {}\n", fmt::join(latency, ", "));
  if (!simd.empty()) s += fmt::format("  simd: {}\n", simd);
  for (const auto& l : layouts) s += fmt::format("  host layout: {}\n", l.str());
  for (const auto& f : factors) s += fmt::format("  {}\n", f.str());
  return s;
}

const design& design_or_reason::value() const {
  if (!design_) throw error(why_);
  return *design_;
}

}  // namespace sadsl
