#pragma once
// Lowering of DSL objects (affine expressions, loops, guards, tensor accesses) to isl objects,
// built structurally (spaces, affs, constraints), never by parsing text.
#include <isl/cpp.h>

#include <string>
#include <vector>

#include "sadsl/dsl/kernel.hpp"

namespace sadsl {

class isl_builder {
public:
  isl_builder(isl_ctx* ctx, std::vector<detail::symbol_ptr> params) : ctx_(ctx), params_(std::move(params)) {}
  explicit isl_builder(const kernel& k);

  isl::ctx ctx() const { return isl::ctx(ctx_); }
  /// The parameter space: every param of the kernel, in declaration order.
  isl::space param_space() const;
  /// The params' context: every param >= 1.
  isl::set param_context() const;
  /// The params fixed to their current values.
  isl::set param_values() const;
  /// The set space name[loops...] with the loops' names as dimension names.
  isl::space set_space(const std::string& tuple, const std::vector<detail::symbol_ptr>& loops) const;
  /// An affine expression on a set space whose dimensions are `loops`.
  isl::aff to_aff(const affine& a, const isl::space& space, const std::vector<detail::symbol_ptr>& loops) const;
  /// The set of points of `space` (dimensions `loops`) that satisfy `c`.
  isl::set condition_set(const condition& c, const isl::space& space,
                         const std::vector<detail::symbol_ptr>& loops) const;
  /// The iteration domain of a statement: loop bounds and guards.
  isl::set statement_domain(const statement_record& s) const;
  /// The access relation S[loops] -> T[index] (not restricted to the domain).
  isl::map access_relation(const statement_record& s, const detail::tensor_node& t,
                           const std::vector<affine>& index) const;
  /// { T[d...] : 0 <= d_i < extent_i }.
  isl::set tensor_extent_set(const detail::tensor_node& t) const;
  /// { T[x] : x_dim < 0 } (upper = false) or { T[x] : x_dim >= extent_dim } (upper = true).
  isl::set tensor_outside(const detail::tensor_node& t, int dim, bool upper) const;

private:
  isl::space tensor_space(const detail::tensor_node& t) const;
  int param_position(const detail::symbol_node* p) const;
  isl_ctx* ctx_;
  std::vector<detail::symbol_ptr> params_;
};

}  // namespace sadsl
