#include "init_placement.hpp"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>

#include <algorithm>

namespace sadsl::detail {

const statement_info* reduction_of(const program& p, const statement_info& init) {
  if (!init.record->implicit_init) return nullptr;
  const auto& all = p.statements();
  auto at = std::find_if(all.begin(), all.end(), [&](const statement_info& s) { return &s == &init; });
  for (auto s = at; s != all.end(); ++s)  // recorded right after its initialization
    if (s != at && s->write.tensor == init.write.tensor && s->record->op != update_op::assign) return &*s;
  return nullptr;
}

std::optional<std::vector<isl::aff>> first_reduction_instance(const statement_info& init,
                                                              const statement_info& reduction, size_t depth) {
  size_t m = init.loops.size(), n = std::min(depth, reduction.loops.size());
  if (n <= m) return std::vector<isl::aff>{};
  for (size_t d = 0; d < m; ++d)
    if (reduction.loops[d] != init.loops[d]) return std::nullopt;  // init's loops must be the outer ones
  // { init[x] -> [r] : (x, r, ...) in the reduction's domain }, r the reduction loops in the band.
  unsigned total = static_cast<unsigned>(reduction.loops.size());
  isl_map* rel = isl_map_from_range(reduction.domain.copy());
  rel = isl_map_project_out(rel, isl_dim_out, static_cast<unsigned>(n), total - static_cast<unsigned>(n));
  rel = isl_map_move_dims(rel, isl_dim_in, 0, isl_dim_out, 0, static_cast<unsigned>(m));
  rel = isl_map_set_tuple_id(rel, isl_dim_in, isl_set_get_tuple_id(init.domain.get()));
  rel = isl_map_reset_tuple_id(rel, isl_dim_out);
  isl::map instances = isl::manage(rel).intersect_domain(init.domain);
  isl::pw_multi_aff first =
      isl::manage(isl_pw_multi_aff_coalesce(isl_map_lexmin_pw_multi_aff(instances.release())));
  if (isl_pw_multi_aff_n_piece(first.get()) != 1) return std::nullopt;
  // One piece: its expression is the first instance wherever the reduction is not empty; where it
  // is, any point will do (no reduction instance depends on that initialization), and the band's
  // legality checks see every dependence with this placement anyway.
  isl::multi_aff only;
  isl_pw_multi_aff_foreach_piece(
      first.get(),
      [](isl_set* domain, isl_multi_aff* ma, void* user) {
        isl_set_free(domain);
        *static_cast<isl::multi_aff*>(user) = isl::manage(ma);
        return isl_stat_ok;
      },
      &only);
  std::vector<isl::aff> out;
  for (size_t d = 0; d < n - m; ++d)
    out.push_back(isl::manage(isl_multi_aff_get_at(only.get(), static_cast<int>(d))));
  return out;
}

}  // namespace sadsl::detail
