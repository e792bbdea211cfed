#include "sadsl/compute/simd.hpp"
#include "sadsl/compute/zero_padding.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/compute/latency_hiding.hpp"

namespace sadsl {

namespace {

// Coefficient of loop l in each index of an access.
std::vector<int64_t> coefficients(const access_info& a, const loop_id& l) {
  std::vector<int64_t> out;
  for (const auto& x : a.index) {
    int64_t c = 0;
    for (const auto& t : x.terms())
      if (t.symbol->kind == detail::symbol_kind::loop && t.symbol->seq == l.key()) c = t.coefficient;
    out.push_back(c);
  }
  return out;
}

// How an access can be made stride-0 or stride-1 in a loop: as it is, with a layout change
// (a read-only tensor whose loop dimension moves last), or not at all.
enum class stride_fit { as_is, with_layout, no };

stride_fit fit(const access_info& a, const loop_id& loop, bool read_only, layout_transform& layout) {
  auto c = coefficients(a, loop);
  size_t nonzero = std::count_if(c.begin(), c.end(), [](int64_t v) { return v != 0; });
  if (nonzero == 0) return stride_fit::as_is;
  if (nonzero > 1) return stride_fit::no;
  size_t d = std::find_if(c.begin(), c.end(), [](int64_t v) { return v != 0; }) - c.begin();
  if (c[d] != 1) return stride_fit::no;
  if (d + 1 == c.size()) return stride_fit::as_is;
  if (!read_only) return stride_fit::no;
  layout.tensor = a.tensor->id();
  layout.order.clear();
  for (size_t k = 0; k < c.size(); ++k)
    if (k != d) layout.order.push_back(static_cast<int>(k));
  layout.order.push_back(static_cast<int>(d));
  return stride_fit::with_layout;
}

bool is_reduction(const program& p, const loop_id& loop) {
  return std::any_of(p.statements().begin(), p.statements().end(), [&](const statement_info& s) {
    return std::find(s.reduction_loops.begin(), s.reduction_loops.end(), loop) != s.reduction_loops.end();
  });
}

std::optional<simd_choice> try_loop(const program& p, const loop_id& loop) {
  simd_choice choice{loop, {}};
  for (const auto& s : p.statements()) {
    std::vector<const access_info*> accesses{&s.write};
    for (const auto& r : s.reads) accesses.push_back(&r);
    for (const auto* a : accesses) {
      bool read_only = std::none_of(p.arrays().begin(), p.arrays().end(),
                                    [&](const array_info& x) { return x.tensor == a->tensor && x.written; });
      layout_transform layout;
      switch (fit(*a, loop, read_only, layout)) {
        case stride_fit::no: return std::nullopt;
        case stride_fit::as_is: break;
        case stride_fit::with_layout: {
          auto same = [&](const layout_transform& l) { return l.tensor == layout.tensor; };
          auto it = std::find_if(choice.layouts.begin(), choice.layouts.end(), same);
          if (it == choice.layouts.end()) choice.layouts.push_back(layout);
          else if (it->order != layout.order) return std::nullopt;  // two accesses want two layouts
        }
      }
    }
  }
  return choice;
}

}  // namespace

std::vector<simd_choice> simd_candidates(const design& d) {
  const program& p = *d.band->source;
  auto parallel = parallel_loops(d);
  std::vector<std::pair<std::tuple<int, size_t, int>, simd_choice>> ranked;
  auto loops = d.band->loop_ids();
  for (size_t l = 0; l < loops.size(); ++l) {
    bool reduction = is_reduction(p, loops[l]);
    bool par = std::find(parallel.begin(), parallel.end(), loops[l]) != parallel.end();
    if (!reduction && !par) continue;
    auto choice = try_loop(p, loops[l]);
    if (!choice) continue;
    ranked.push_back({{reduction ? 0 : 1, choice->layouts.size(), -static_cast<int>(l)}, *choice});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<simd_choice> out;
  for (auto& r : ranked) out.push_back(std::move(r.second));
  return out;
}

design_or_reason simd(const design& d) {
  if (d.tile_order.empty())
    return design_or_reason::illegal(fmt::format("SIMD of design {} needs array partitioning first", d.name()));
  if (d.simd) return design_or_reason::illegal(fmt::format("design {} is already vectorized", d.name()));
  // SIMD lanes run whole vectors: a partial tile's lanes past the end would need zeros.
  if (zero_padding z = check_zero_padding(d); !z.valid())
    return design_or_reason::illegal(fmt::format(
        "design {}: its partial tiles are guarded ({}), and SIMD lanes need whole vectors", d.name(), z.why_not));
  auto candidates = simd_candidates(d);
  if (candidates.empty())
    return design_or_reason::illegal(fmt::format(
        "design {}: no band loop is a reduction or parallel loop with stride-0 or stride-1 accesses", d.name()));
  design out = d;
  const auto& best = candidates.front();
  out.simd = best.loop;
  out.layouts = best.layouts;
  bool has_latency = std::find(d.latency.begin(), d.latency.end(), best.loop) != d.latency.end();
  tiling_factor lanes;
  lanes.id = {best.loop, tile_level::simd};
  lanes.parent = factor_id{best.loop, has_latency ? tile_level::latency_hiding : tile_level::array_partition};
  lanes.power_of_two = true;
  lanes.max_value = 8;
  out.factors.push_back(std::move(lanes));
  return out;
}

}  // namespace sadsl
