#include "sadsl/compute/array_partition.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace sadsl {

namespace {

// The band loops on which some distance vector of d is not zero: the loops that carry it.
std::vector<size_t> carrying_loops(const band_dependence& d, size_t n) {
  std::vector<size_t> out;
  for (size_t l = 0; l < n; ++l)
    for (const auto& v : d.distances)
      if (!v.component_is(l, 0)) {
        out.push_back(l);
        break;
      }
  return out;
}

}  // namespace

std::vector<loop_id> tile_order::loops() const {
  std::vector<loop_id> all = outer;
  all.insert(all.end(), inner.begin(), inner.end());
  return all;
}

std::vector<tile_order> tile_orders(const design& d) {
  const band& b = *d.band;
  size_t n = b.loops.size();
  // Reuse groups: per tensor, the loops carrying any of its flow (written tensors) or read
  // dependences; a tensor reused along several loops keeps all of them innermost.
  std::vector<tensor_id> tensors;
  std::map<tensor_id, std::set<size_t>> carried;
  std::map<tensor_id, bool> written;
  for (const auto& dep : b.deps) {
    if (dep.dep.kind != dep_kind::flow && dep.dep.kind != dep_kind::read) continue;
    auto inner = carrying_loops(dep, n);
    if (inner.empty()) continue;
    if (!carried.count(dep.dep.tensor)) tensors.push_back(dep.dep.tensor);
    carried[dep.dep.tensor].insert(inner.begin(), inner.end());
    written[dep.dep.tensor] = written[dep.dep.tensor] || dep.dep.kind == dep_kind::flow;
  }
  std::vector<std::pair<int, std::vector<size_t>>> groups;  // (sort key, inner loops)
  for (const auto& t : tensors) {
    std::vector<size_t> inner(carried[t].begin(), carried[t].end());
    groups.push_back({written[t] ? -1 : static_cast<int>(inner.front()), inner});
  }
  std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<tile_order> out;
  for (const auto& [key, inner] : groups) {
    tile_order order;
    for (size_t l = 0; l < n; ++l)
      (std::find(inner.begin(), inner.end(), l) == inner.end() ? order.outer : order.inner)
          .push_back(b.loops[l]->loop_identity());
    auto same = [&](const tile_order& o) { return o.outer == order.outer && o.inner == order.inner; };
    if (std::none_of(out.begin(), out.end(), same)) out.push_back(order);
  }
  if (out.empty()) out.push_back({b.loop_ids(), {}});  // no reuse at all: the band order
  return out;
}

design_or_reason array_partition(const design& d, const tile_order& order) {
  std::vector<loop_id> tile_order = order.loops();
  if (!d.tile_order.empty()) return design_or_reason::illegal(fmt::format("design {} is already partitioned", d.name()));
  auto loops = d.band->loop_ids();
  auto sorted_order = tile_order, sorted_loops = loops;
  std::sort(sorted_order.begin(), sorted_order.end());
  std::sort(sorted_loops.begin(), sorted_loops.end());
  if (sorted_order != sorted_loops)
    return design_or_reason::illegal(fmt::format("tile order [{}] is not a permutation of the band loops [{}]",
                                                 join_names(tile_order), join_names(loops)));
  design out = d;
  out.tile_order = tile_order;
  out.tile_inner = order.inner.size();
  // Factors in the order of the space-time schedule: space loops first, then the others.
  std::vector<loop_id> factor_order = d.space;
  for (const auto& l : loops)
    if (std::find(d.space.begin(), d.space.end(), l) == d.space.end()) factor_order.push_back(l);
  for (const auto& l : factor_order) out.factors.push_back({{l, tile_level::array_partition}, std::nullopt, false, 0});
  return out;
}

}  // namespace sadsl
