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
void subsets(const std::vector<loop_id>& pool, size_t k, size_t from, std::vector<loop_id>& current,
             std::vector<std::vector<loop_id>>& out) {
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

bool contains(const std::vector<loop_id>& v, const loop_id& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Why band loop `l` (not a candidate) cannot be a space loop: the first dependence against it.
std::string why_not_space(const band& b, const loop_id& l) {
  size_t at = b.position(l);
  for (const auto& d : b.deps)
    for (const auto& v : d.distances)
      if (communicates(d) && !v.component_is(at, 0) && !v.component_is(at, 1))
        return fmt::format(
            "loop \"{}\" cannot be a space loop: the {} dependence {} -> {} on {} has distance {} over [{}] (space "
            "loops need 0 or 1: data moves between neighbouring PEs only)",
            l.name(), dep_kind_name(d.dep.kind), d.dep.source.name(), d.dep.sink.name(),
            access_text(*b.source, d.dep.sink_access), v.str(), fmt::join(b.loop_names(), ", "));
  SADSL_INTERNAL_ASSERT(false, "a loop that is no space-loop candidate has a dependence against it");
}

}  // namespace

std::vector<loop_id> space_loop_candidates(const band& b) {
  std::vector<loop_id> out;
  for (size_t l = 0; l < b.loops.size(); ++l) {
    bool ok = std::all_of(b.deps.begin(), b.deps.end(),
                          [&](const band_dependence& d) { return !communicates(d) || zero_or_one_on(d, l); });
    if (ok) out.push_back(b.loops[l]->loop_identity());
  }
  return out;
}

design_or_reason space_time(std::shared_ptr<const band> b, const std::vector<loop_id>& space_loops) {
  if (space_loops.empty()) return design_or_reason::illegal("a systolic array needs at least one space loop");
  auto candidates = space_loop_candidates(*b);
  auto band_loops = b->loop_ids();
  for (const auto& l : space_loops) {
    if (!contains(band_loops, l))
      return design_or_reason::illegal(
          fmt::format("\"{}\" is not a loop of the band [{}]", l.name(), fmt::join(b->loop_names(), ", ")));
    if (!contains(candidates, l)) return design_or_reason::illegal(why_not_space(*b, l));
  }
  design d;
  d.band = std::move(b);
  for (const auto& l : band_loops)  // band order, whatever order the caller gave
    if (contains(space_loops, l)) d.space.push_back(l);
  if (d.space.size() != space_loops.size()) {
    std::vector<std::string> names;
    for (const auto& l : space_loops) names.push_back(l.name());
    return design_or_reason::illegal(fmt::format("space loops [{}] name a loop twice", fmt::join(names, ", ")));
  }
  return d;
}

design_or_reason space_time(std::shared_ptr<const band> b, const std::vector<std::string>& space_loops) {
  std::vector<loop_id> ids;
  auto band_loops = b->loop_ids();
  for (const auto& name : space_loops) {
    auto at = std::find_if(band_loops.begin(), band_loops.end(), [&](const loop_id& l) { return l.name() == name; });
    if (at == band_loops.end())
      return design_or_reason::illegal(
          fmt::format("\"{}\" is not a loop of the band [{}]", name, fmt::join(b->loop_names(), ", ")));
    ids.push_back(*at);
  }
  return space_time(std::move(b), ids);
}

std::vector<design> space_time_candidates(std::shared_ptr<const band> b, int max_dims) {
  if (max_dims < 1 || max_dims > 3)
    throw error(fmt::format("space_time_candidates: max_dims = {}, but a systolic array has 1, 2 or 3 space dimensions",
                            max_dims));
  auto pool = space_loop_candidates(*b);
  std::vector<design> out;
  for (size_t k = 1; k <= static_cast<size_t>(max_dims) && k <= pool.size(); ++k) {
    std::vector<std::vector<loop_id>> choices;
    std::vector<loop_id> current;
    subsets(pool, k, 0, current, choices);
    for (const auto& c : choices) out.push_back(space_time(b, c).value());
  }
  return out;
}

}  // namespace sadsl
