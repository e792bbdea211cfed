// one_tile_extents: a triangular design's buffer extents along a loop of one tile (see the header).
#include "one_tile_extents.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <map>

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/modeling/performance_model.hpp"

namespace sadsl::modeling {

using model::expr;

std::vector<one_tile_template> one_tile_templates(const design& d, const architecture_point& base,
                                                  const model::design_model& m, const symbols& s) {
  for (const auto& f : d.factors)
    if (f.parent)
      throw error(fmt::format("design {}: sadsl models a triangular design whose loops have one level of tiles; {} is "
                              "tiled again",
                              d.name(), f.id.loop.name()));
  std::vector<one_tile_template> out;
  const kernel& k = d.band->source->kernel();
  const std::vector<double> sizes = model_point(m, base.factors, k);
  const std::vector<loop_id> loops = d.band->loop_ids();
  for (uint64_t set = 1; set < (uint64_t{1} << loops.size()); ++set) {
    one_tile_template t;
    architecture_point at = base;
    int64_t other = 8;
    for (size_t i = 0; i < loops.size(); ++i) {
      const bool one = (set >> i) & 1;
      if (one) t.loops.push_back(loops[i]);
      for (const auto& f : d.factors)
        if (f.id.loop == loops[i]) at.factors[f.id] = one ? static_cast<int64_t>(model::evaluate(s.loop(loops[i]).extent, sizes)) : other;
      if (!one) other = other == 8 ? 4 : 8;
    }
    t.arch = build_architecture(d, at);
    t.values = model_point(m, at.factors, k);
    out.push_back(std::move(t));
  }
  return out;
}

namespace {

// e with each parameter in `by` (index -> expression) replaced.
expr substituted(const expr& e, const std::map<size_t, expr>& by) {
  using model::op;
  switch (e.kind()) {
    case op::parameter: {
      auto it = by.find(e.parameter_index());
      return it == by.end() ? e : it->second;
    }
    case op::add: return substituted(e.lhs(), by) + substituted(e.rhs(), by);
    case op::sub: return substituted(e.lhs(), by) - substituted(e.rhs(), by);
    case op::mul: return substituted(e.lhs(), by) * substituted(e.rhs(), by);
    case op::div: return substituted(e.lhs(), by) / substituted(e.rhs(), by);
    case op::min: return model::min(substituted(e.lhs(), by), substituted(e.rhs(), by));
    case op::max: return model::max(substituted(e.lhs(), by), substituted(e.rhs(), by));
    case op::floor_div: return model::floor_div(substituted(e.lhs(), by), substituted(e.rhs(), by));
    case op::ceil_div: return model::ceil_div(substituted(e.lhs(), by), substituted(e.rhs(), by));
    default: return e;  // constants, and other operations keeping their factors: the same values there
  }
}

// The candidates for an extent where the loops `ones` have one tile, in the order they are tried:
// each such loop's factor written as its extent (the same value there), so that a candidate
// such as N - k_t1 depends on one loop and is never negative, as the exact search bounds a term.
std::vector<expr> candidates(const symbols& s, const design& d, const std::vector<loop_id>& ones, const expr& multi,
                             const expr& span) {
  std::map<size_t, expr> whole;
  for (const auto& l : ones) {
    const expr& t1 = s.loop(l).t1;
    SADSL_INTERNAL_ASSERT(t1.kind() == model::op::parameter, "a first-level factor is a model parameter");
    whole.emplace(t1.parameter_index(), s.loop(l).extent);
  }
  const expr at_one = substituted(span, whole);
  std::vector<expr> out{substituted(multi, whole), at_one, at_one - expr(1)};
  for (const auto& x : d.band->loop_ids()) {
    if (std::find(ones.begin(), ones.end(), x) != ones.end()) continue;
    const expr& t1 = s.loop(x).t1;
    for (int c : {0, -1, 1}) out.push_back(at_one - t1 + expr(static_cast<double>(c)));
  }
  return out;
}

// A set of points by which band loops have one tile: the loops in `care` (bit x: the band's
// loop x) have one tile where their bit of `ones` is set, several where it is not.
struct cube {
  uint64_t care = 0, ones = 0;
};

// The cubes merged where two differ in one loop only (their union is a cube): the same points in
// fewer, shorter products. The cubes stay disjoint.
std::vector<cube> merged(std::vector<cube> cs) {
  for (bool again = true; again;) {
    again = false;
    for (size_t a = 0; a < cs.size() && !again; ++a)
      for (size_t b = a + 1; b < cs.size() && !again; ++b) {
        const uint64_t differ = cs[a].ones ^ cs[b].ones;
        if (cs[a].care != cs[b].care || std::popcount(differ) != 1) continue;
        cs[a].care &= ~differ;
        cs[a].ones &= ~differ;
        cs.erase(cs.begin() + static_cast<std::ptrdiff_t>(b));
        again = true;
      }
  }
  return cs;
}

// 1 on the cube's points, else 0: a product of [one tile] and [two or more tiles] factors, each
// over one loop and never negative, as the exact search bounds a term (tune/bound.cpp).
expr indicator(const symbols& s, const std::vector<loop_id>& loops, const cube& c) {
  expr out = 1;
  for (size_t x = 0; x < loops.size(); ++x) {
    if (!((c.care >> x) & 1)) continue;
    expr several = model::min(expr(1), s.loop(loops[x]).tiles - expr(1));
    out = out * (((c.ones >> x) & 1) ? expr(1) - several : several);
  }
  return out;
}

std::string names(const std::vector<loop_id>& loops) {
  std::string out;
  for (const auto& l : loops) out += (out.empty() ? "" : ", ") + l.name();
  return out;
}

}  // namespace

std::optional<int64_t> network_extent(const architecture& a, const io_network& net, size_t dim) {
  for (size_t n = 0; n < a.networks.size(); ++n) {
    const io_network& m = a.networks[n];
    if (m.tensor != net.tensor || m.input != net.input || m.kind != net.kind) continue;
    for (const auto& k : a.modules)
      if (k.network == static_cast<int>(n) && k.buffered) return k.buffers.at(0).extents.at(dim);
  }
  return std::nullopt;
}

std::optional<int64_t> pe_extent(const architecture& a, const tensor_id& tensor, size_t dim) {
  for (const auto& b : a.pe().buffers)
    if (b.tensor == tensor) return b.extents.at(dim);
  return std::nullopt;
}

expr one_tile_extent(const symbols& s, const std::vector<one_tile_template>& templates, const expr& multi,
                     const expr& span, const std::function<std::optional<int64_t>(const architecture&)>& at,
                     const std::string& what) {
  if (templates.empty()) return multi;
  const design& d = *templates.front().arch.design;
  const std::vector<loop_id> loops = d.band->loop_ids();
  const uint64_t all = (uint64_t{1} << loops.size()) - 1;
  // Each extent and the sets of loops of one tile where it holds (every loop has one tile or
  // several: the sets partition the points).
  std::vector<std::pair<expr, std::vector<cube>>> extents{{multi, {{all, 0}}}};
  auto holds = [&](const expr& e, uint64_t set) {
    for (auto& [known, sets] : extents)
      if (known.same_as(e)) return sets.push_back({all, set});
    extents.push_back({e, {{all, set}}});
  };
  for (const auto& t : templates) {
    uint64_t set = 0;
    for (size_t x = 0; x < loops.size(); ++x)
      if (std::find(t.loops.begin(), t.loops.end(), loops[x]) != t.loops.end()) set |= uint64_t{1} << x;
    std::optional<int64_t> want = at(t.arch);
    const double value = want ? static_cast<double>(*want) : 0;
    if (!want || model::evaluate(multi, t.values) == value) {  // not built there, or as elsewhere
      holds(multi, set);
      continue;
    }
    std::optional<expr> fit;
    for (const auto& c : candidates(s, d, t.loops, multi, span))
      if (model::evaluate(c, t.values) == value) {
        fit = c;
        break;
      }
    if (!fit)
      throw error(fmt::format("{}: with one tile along {} the architecture has {}, which no extent the model knows gives; "
                              "sadsl cannot model this design yet",
                              what, names(t.loops), *want));
    holds(*fit, set);
  }
  if (extents.size() == 1) return multi;
  // The sum over the extents of [its sets] x the extent: no difference, which the exact search
  // could not bound.
  expr out = 0;
  for (const auto& [e, sets] : extents) {
    expr where = 0;
    for (const cube& c : merged(sets)) where = where + indicator(s, loops, c);
    out = out + e * where;
  }
  return out;
}

}  // namespace sadsl::modeling
