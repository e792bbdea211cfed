#include "sadsl/compute/verify.hpp"

#include <fmt/format.h>

#include "sadsl/compute/concrete.hpp"
#include "sadsl/error.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

namespace {

int64_t current_extent(const design& d, const loop_id& l) {
  // Triangular loops have no single extent: take the widest (their lower bound at 0).
  return d.band->extent(l).evaluate([](const detail::symbol_node& s) { return s.kind == detail::symbol_kind::param ? detail::size_of(s) : 0; });
}

// The first-level factor: the largest non-divisor of n below n when there is one (7 for 8 is a
// divisor-free choice: 8 = 7 + 1 leaves a partial tile of one), else n.
int64_t first_level(int64_t n) {
  for (int64_t t = (n + 1) / 2 + 1; t < n; ++t)
    if (n % t != 0) return t;
  return std::max<int64_t>(n, 1);
}

int64_t inner_level(const tiling_factor& f, int64_t parent) {
  for (int64_t t = parent / 2; t >= 1; --t) {
    if (parent % t != 0) continue;
    if (f.power_of_two && (t & (t - 1)) != 0) continue;
    if (f.max_value > 0 && t > f.max_value) continue;
    return t;
  }
  return 1;
}

template <class T>
std::string first_difference(const std::string& tensor, const std::vector<T>& got, const std::vector<T>& want) {
  for (size_t x = 0; x < want.size(); ++x)
    if (got[x] != want[x])
      return fmt::format("{}[{}] is {} instead of {}", tensor, x, +got[x], +want[x]);
  return "";
}

}  // namespace

design_point sample_point(const design& d) {
  design_point p;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
    for (const auto& f : d.factors)
      if (f.id.level == level)
        p[f.id] = f.parent ? inner_level(f, p.at(*f.parent)) : first_level(current_extent(d, f.id.loop));
  return p;
}

buffers reference_run(const kernel& k, uint64_t seed) {
  buffers expected(k);
  expected.randomize_inputs(seed);
  run(build_program(k), expected);  // the kernel as written (no local expansion)
  return expected;
}

std::string verify_design(const design& d, const design_point& point, uint64_t seed) {
  return verify_design(d, point, reference_run(d.band->source->kernel(), seed), seed);
}

std::string verify_design(const design& d, const design_point& point, const buffers& expected, uint64_t seed) {
  const program& p = *d.band->source;
  buffers data(p.kernel());
  data.randomize_inputs(seed);
  auto layouts = stored_layouts(d);
  for (const auto& l : layouts) data.permute(l.tensor.name(), l.order);
  run(p, concrete_schedule(d, point), data, run_options{layouts, true});  // every instance once
  // Back to the kernel's layouts: a tensor the band only reads may still be an output (inout).
  for (const auto& l : layouts) {
    std::vector<int> back(l.order.size());
    for (size_t k = 0; k < l.order.size(); ++k) back[static_cast<size_t>(l.order[k])] = static_cast<int>(k);
    data.permute(l.tensor.name(), back);
  }
  for (const auto& [name, b] : expected.all()) {
    if (b.tensor->role == tensor_role::input || b.tensor->role == tensor_role::local) continue;
    std::string diff = std::visit(
        [&](const auto& want) {
          using V = std::decay_t<decltype(want)>;
          return first_difference(name, std::get<V>(data.all().at(name).data), want);
        },
        b.data);
    if (!diff.empty()) return fmt::format("design {}: {}", d.name(), diff);
  }
  return "";
}

}  // namespace sadsl
