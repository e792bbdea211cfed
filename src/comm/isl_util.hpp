#pragma once
// Small isl helpers of the comm area (every isl object owned by a C++ wrapper at once).
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include <isl/cpp.h>

namespace sadsl::comm_isl {

/// The function of a pw_aff with one piece (null otherwise), whatever that piece's domain.
inline isl_aff* only_piece(__isl_take isl_pw_aff* f) {
  isl_aff* out = nullptr;
  if (isl_pw_aff_n_piece(f) == 1)
    isl_pw_aff_foreach_piece(
        f,
        [](isl_set* domain, isl_aff* a, void* user) -> isl_stat {
          isl_set_free(domain);
          *static_cast<isl_aff**>(user) = a;
          return isl_stat_ok;
        },
        &out);
  isl_pw_aff_free(f);
  return out;
}

/// The function of a pw_multi_aff with one piece (null otherwise), whatever that piece's domain.
inline isl_multi_aff* only_piece(__isl_take isl_pw_multi_aff* f) {
  isl_multi_aff* out = nullptr;
  if (isl_pw_multi_aff_n_piece(f) == 1)
    isl_pw_multi_aff_foreach_piece(
        f,
        [](isl_set* domain, isl_multi_aff* ma, void* user) -> isl_stat {
          isl_set_free(domain);
          *static_cast<isl_multi_aff**>(user) = ma;
          return isl_stat_ok;
        },
        &out);
  isl_pw_multi_aff_free(f);
  return out;
}

/// S[x] -> name[affs(x)] for affs on the space of S, as a function.
inline isl::multi_aff multi_aff_of(const isl::space& domain, const std::vector<isl::aff>& affs, const std::string& name) {
  isl_space* range = isl_space_add_dims(isl_space_set_from_params(isl_space_params(domain.copy())), isl_dim_set,
                                        static_cast<unsigned>(affs.size()));
  range = isl_space_set_tuple_name(range, isl_dim_set, name.c_str());
  isl_space* sp = isl_space_map_from_domain_and_range(domain.copy(), range);
  isl_aff_list* list = isl_aff_list_alloc(isl_space_get_ctx(sp), static_cast<int>(affs.size()));
  for (const auto& a : affs) list = isl_aff_list_add(list, a.copy());
  return isl::manage(isl_multi_aff_from_aff_list(sp, list));
}

/// { S[x] -> name[affs(x)] } for affs on the space of S.
inline isl::map map_of(const isl::space& domain, const std::vector<isl::aff>& affs, const std::string& name) {
  return isl::manage(isl_map_from_multi_aff(multi_aff_of(domain, affs, name).release()));
}

/// The constant aff v on a set space.
inline isl::aff constant_on(const isl::space& set_space, int64_t v) {
  isl_local_space* ls = isl_local_space_from_space(set_space.copy());
  return isl::manage(isl_aff_val_on_domain(ls, isl_val_int_from_si(isl_space_get_ctx(set_space.get()), v)));
}

/// The aff of dimension `pos` of a set space.
inline isl::aff var_on(const isl::space& set_space, int pos) {
  return isl::manage(isl_aff_var_on_domain(isl_local_space_from_space(set_space.copy()), isl_dim_set,
                                           static_cast<unsigned>(pos)));
}

/// Dimension pos of a set (negative: counted from the end), as a function on the set.
inline isl::pw_aff var_on_set(const isl::set& s, int pos) {
  int n = static_cast<int>(isl_set_dim(s.get(), isl_dim_set));
  if (pos < 0) pos += n;
  return isl::pw_aff(var_on(s.space(), pos)).intersect_domain(s);
}

/// The set with its tuple renamed.
inline isl::set renamed(const isl::set& s, const std::string& name) {
  return isl::manage(isl_set_set_tuple_name(s.copy(), name.c_str()));
}

/// { name[p] -> name[p + e_dim] } on an n-dimensional named set space (params of `params`).
inline isl::map shift(const isl::space& params, const std::string& name, unsigned n, unsigned dim, int64_t by) {
  isl_space* sp = isl_space_set_from_params(params.copy());
  sp = isl_space_add_dims(sp, isl_dim_set, n);
  sp = isl_space_set_tuple_name(sp, isl_dim_set, name.c_str());
  isl_multi_aff* ma = isl_multi_aff_identity_on_domain_space(sp);
  isl_aff* a = isl_multi_aff_get_at(ma, static_cast<int>(dim));
  ma = isl_multi_aff_set_at(ma, static_cast<int>(dim), isl_aff_add_constant_si(a, static_cast<int>(by)));
  return isl::manage(isl_map_from_multi_aff(ma));
}

}  // namespace sadsl::comm_isl
