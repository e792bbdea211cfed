// template_point: the point a design's model is read at (see the header).
#include "template_point.hpp"

#include <map>

namespace sadsl::modeling {

design_point template_point(const design& d) {
  design_point p;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
    for (const auto& f : d.factors) {
      if (f.id.level != level) continue;
      if (!f.parent) {
        p[f.id] = 8;
        continue;
      }
      int64_t parent = p.at(*f.parent), v = 1;
      for (int64_t t = parent / 2; t >= 1 && v == 1; --t)
        if (parent % t == 0 && (!f.power_of_two || (t & (t - 1)) == 0) && (f.max_value == 0 || t <= f.max_value)) v = t;
      p[f.id] = v;
    }
  return p;
}

std::vector<int64_t> template_sizes(const design& d, bool whole_tiles) {
  const kernel& k = d.band->source->kernel();
  // Every kernel param that bounds a band loop 16 + 2n: each loop then has two or more tiles of
  // the template factors (MM's reduction loop K, n = 2, three: a loop whose tiles run in all but
  // the first must have three to tell that from the first alone). A param that bounds two or more
  // band loops (square MM's N) 24 + 2n + 2 x params, so that each of its loops has three, and its
  // value stays distinct. A param that bounds only loops below the band (CNN's kernel size) 3 + 2n:
  // they run whole in every PE, where three or more iterations suffice and every one costs
  // template cycles. Odd and even keep every param's value distinct. At whole tiles a band param
  // is 8 x (3 + n), three or more tiles of the first-level factors (8), distinct.
  std::map<uint64_t, int> band_loops;
  for (const auto& l : d.band->loop_ids()) {
    affine extent = d.band->extent(l);
    for (const auto& t : extent.terms()) ++band_loops[t.symbol->seq];
  }
  const std::vector<param> params = k.params();
  const int64_t count = static_cast<int64_t>(params.size());
  std::vector<int64_t> out;
  for (int64_t n = 0; n < count; ++n) {
    const int loops = band_loops[params[static_cast<size_t>(n)].id().key()];
    if (whole_tiles && loops > 0) out.push_back(8 * (3 + n));
    else out.push_back(loops > 1 ? 24 + 2 * n + 2 * count : loops == 1 ? 16 + 2 * n : 3 + 2 * n);
  }
  return out;
}

}  // namespace sadsl::modeling
