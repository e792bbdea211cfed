#include "sadsl/compute/space_time.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

namespace {

bool zero_or_one_on(const band_dependence& d, size_t l) {
  return std::all_of(d.distances.begin(), d.distances.end(),
                     [&](const distance_vector& v) { return v.component_is(l, 0) || v.component_is(l, 1); });
}

bool communicates(const band_dependence& d) { return d.dep.kind == dep_kind::flow || d.dep.kind == dep_kind::read; }

// All k-element subsets of `pool`, in lexicographic order of positions.
void subsets(const std::vector<std::string>& pool, size_t k, size_t from, std::vector<std::string>& current,
             std::vector<std::vector<std::string>>& out) {
  if (current.size() == k) {
    out.push_back(current);
    return;
  }
  for (size_t i = from; i < pool.size(); ++i) {
    current.push_back(pool[i]);
    subsets(pool, k, i + 1, current, out);
    current.pop_back();
  }
}

}  // namespace

std::vector<std::string> space_loop_candidates(const band& b) {
  std::vector<std::string> out;
  for (size_t l = 0; l < b.loops.size(); ++l) {
    bool ok = std::all_of(b.deps.begin(), b.deps.end(),
                          [&](const band_dependence& d) { return !communicates(d) || zero_or_one_on(d, l); });
    if (ok) out.push_back(b.loops[l]->name);
  }
  return out;
}

design_or_reason space_time(std::shared_ptr<const band> b, const std::vector<std::string>& space_loops) {
  auto candidates = space_loop_candidates(*b);
  auto names = b->loop_names();
  if (space_loops.empty()) return design_or_reason::illegal("a systolic array needs at least one space loop");
  for (const auto& l : space_loops) {
    if (std::find(names.begin(), names.end(), l) == names.end())
      return design_or_reason::illegal(fmt::format("\"{}\" is not a loop of the band [{}]", l, fmt::join(names, ", ")));
    if (std::find(candidates.begin(), candidates.end(), l) == candidates.end()) {
      size_t at = b->position(l);
      for (const auto& d : b->deps)
        for (const auto& v : d.distances)
          if (communicates(d) && !v.component_is(at, 0) && !v.component_is(at, 1))
            return design_or_reason::illegal(fmt::format(
                "loop \"{}\" cannot be a space loop: the {} dependence {} -> {} on {} has distance {} over [{}] (space "
                "loops need 0 or 1: data moves between neighbouring PEs only)",
                l, dep_kind_name(d.dep.kind), d.dep.source, d.dep.sink, d.dep.sink_access, v.str(),
                fmt::join(names, ", ")));
    }
  }
  design d;
  d.band = std::move(b);
  for (const auto& n : names)  // band order, whatever order the caller gave
    if (std::find(space_loops.begin(), space_loops.end(), n) != space_loops.end()) d.space.push_back(n);
  if (d.space.size() != space_loops.size())
    return design_or_reason::illegal(fmt::format("space loops [{}] name a loop twice", fmt::join(space_loops, ", ")));
  return d;
}

std::vector<design> space_time_candidates(std::shared_ptr<const band> b, int max_dims) {
  if (max_dims < 1 || max_dims > 3)
    throw error(fmt::format("space_time_candidates: max_dims = {}, but a systolic array has 1, 2 or 3 space dimensions",
                            max_dims));
  auto pool = space_loop_candidates(*b);
  std::vector<design> out;
  for (size_t k = 1; k <= static_cast<size_t>(max_dims) && k <= pool.size(); ++k) {
    std::vector<std::vector<std::string>> choices;
    std::vector<std::string> current;
    subsets(pool, k, 0, current, choices);
    for (const auto& c : choices) out.push_back(space_time(b, c).value());
  }
  return out;
}

}  // namespace sadsl
