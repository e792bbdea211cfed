// From a model's tuned parameter values back to the design's factors.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sadsl/driver/compile.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// The factors of `loop` in `ids`, outermost level first.
std::vector<factor_id> chain_of(std::vector<factor_id> ids, const loop_id& loop) {
  std::erase_if(ids, [&](const factor_id& f) { return f.loop != loop; });
  std::stable_sort(ids.begin(), ids.end(), [](const factor_id& a, const factor_id& b) { return a.level < b.level; });
  return ids;
}

}  // namespace

// Matched by loop and position in its chain rather than by level alone: AutoSA's descriptors do
// not say whether a loop's second factor hides latency or sets SIMD lanes, sadsl's designs do.
design_point design_point_of(const design& d, const model::design_model& m, const std::vector<double>& values) {
  if (values.size() != m.params.size())
    throw error(fmt::format("a point of model \"{}\" has {} values for {} parameters", m.name, values.size(), m.params.size()));
  std::vector<factor_id> model_factors, design_factors;
  std::map<factor_id, double> value_of;
  for (size_t p = 0; p < m.params.size(); ++p)
    if (const auto* f = std::get_if<factor_id>(&m.params[p].origin)) {
      model_factors.push_back(*f);
      value_of[*f] = values[p];
    }
  for (const auto& f : d.factors) design_factors.push_back(f.id);
  design_point point;
  for (const auto& loop : d.band->loop_ids()) {
    auto mine = chain_of(design_factors, loop), theirs = chain_of(model_factors, loop);
    if (mine.size() != theirs.size())
      throw error(fmt::format("model \"{}\" tiles loop {} with {} factors, design {} with {}", m.name, loop.name(),
                              theirs.size(), d.name(), mine.size()));
    for (size_t x = 0; x < mine.size(); ++x) {
      double v = value_of.at(theirs[x]);
      if (!(v >= 1) || v != std::floor(v) || v > 9.0e15)
        throw error(fmt::format("model \"{}\": factor {} = {} is not a positive integer", m.name, d.name_of(mine[x]), v));
      point[mine[x]] = static_cast<int64_t>(v);
    }
  }
  return point;
}

}  // namespace sadsl
