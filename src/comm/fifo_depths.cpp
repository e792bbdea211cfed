// FIFO depths: the input FIFOs of PEs that run behind along a partial-sum chain (fifo_depths.hpp).
#include "sadsl/comm/fifo_depths.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "sadsl/comm/part_cycles.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// Space dim d carries partial sums of tensor t: a statement of the band that writes t reduces
// over the space loop d.
bool reduces_along(const architecture& a, const tensor_id& t, size_t d) {
  const loop_id& l = a.design->space.at(d);
  for (const auto& st : a.design->band->source->statements())
    if (st.write.tensor->id() == t && std::find(st.reduction_loops.begin(), st.reduction_loops.end(), l) != st.reduction_loops.end())
      return true;
  return false;
}

// Tiles that show every value a part's cycles can take: per tile loop its first, second and last
// value (a module runs in all tiles, all but the first or the last, or only one of those; a
// guarded design's partial tile is the last).
std::vector<std::vector<int64_t>> sample_tiles(const architecture& a) {
  std::vector<std::vector<int64_t>> all = phase_tiles(a, 0);
  if (all.empty()) return all;
  std::vector<std::set<int64_t>> values(all.front().size());
  for (const auto& t : all)
    for (size_t j = 0; j < t.size(); ++j) values[j].insert(t[j]);
  std::vector<std::set<int64_t>> keep(values.size());
  for (size_t j = 0; j < values.size(); ++j) {
    keep[j].insert(*values[j].begin());
    keep[j].insert(*std::next(values[j].begin(), values[j].size() > 1 ? 1 : 0));
    keep[j].insert(*values[j].rbegin());
  }
  std::vector<std::vector<int64_t>> out;
  for (const auto& t : all) {
    bool sample = true;
    for (size_t j = 0; j < t.size() && sample; ++j) sample = keep[j].count(t[j]) > 0;
    if (sample) out.push_back(t);
  }
  return out;
}

}  // namespace

std::vector<partial_sum_chain> partial_sum_chains(const architecture& a) {
  std::vector<partial_sum_chain> out;
  for (const auto& g : a.groups) {
    if (g.kind != io_group_kind::flow || g.type != io_type::exterior) continue;
    for (size_t d = 0; d < g.direction.size(); ++d) {
      if (g.direction[d] == 0 || !reduces_along(a, g.tensor, d)) continue;
      if (std::any_of(out.begin(), out.end(), [&](const partial_sum_chain& c) { return c.dim == static_cast<int>(d); })) continue;
      out.push_back({static_cast<int>(d), g.direction[d] > 0});
    }
  }
  std::sort(out.begin(), out.end(), [](const partial_sum_chain& x, const partial_sum_chain& y) { return x.dim < y.dim; });
  return out;
}

int64_t partial_sum_place(const architecture& a, const std::vector<partial_sum_chain>& chains, const std::vector<int64_t>& pe) {
  int64_t place = 0;
  for (const auto& c : chains) {
    int64_t x = pe.at(static_cast<size_t>(c.dim));
    place += c.increasing ? x : a.pe_grid.at(static_cast<size_t>(c.dim)) - 1 - x;
  }
  return place;
}

int64_t tokens_per_tile(const architecture& a, int kind) {
  const module_kind& k = a.modules.at(static_cast<size_t>(kind));
  SADSL_INTERNAL_ASSERT(k.role == module_role::io_in && k.buffered, "tokens_per_tile: a buffered input module kind");
  std::vector<std::vector<int64_t>> tiles = sample_tiles(a);
  int64_t most = 0;
  for (size_t p = 0; p < k.parts.size(); ++p) {
    if (k.parts[p].iterates != module_part::iteration::pe_frame) continue;
    for (int64_t c : most_part_cycles(a, kind, static_cast<int>(p), tiles, pipeline_timing{1, 0})) most = std::max(most, c);
  }
  return most;
}

void size_fifos(architecture& a) {
  std::vector<partial_sum_chain> chains = partial_sum_chains(a);
  std::map<int, int64_t> tokens;  // per input module kind
  for (auto& f : a.fifos) {
    f.depth = default_fifo_depth;
    if (chains.empty() || f.consumer_kind != 0 || a.modules.at(static_cast<size_t>(f.producer_kind)).role != module_role::io_in)
      continue;
    int64_t place = partial_sum_place(a, chains, a.pe().instances.at(static_cast<size_t>(f.consumer_instance)));
    if (place == 0) continue;
    auto t = tokens.find(f.producer_kind);
    if (t == tokens.end()) t = tokens.emplace(f.producer_kind, tokens_per_tile(a, f.producer_kind)).first;
    f.depth += place * t->second;
  }
}

}  // namespace sadsl
