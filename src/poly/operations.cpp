#include "sadsl/poly/operations.hpp"

#include <isl/set.h>
#include <isl/aff.h>
#include <isl/val.h>

#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

bool is_arithmetic(expr_op op) {
  switch (op) {
    case expr_op::add: case expr_op::sub: case expr_op::mul: case expr_op::div:
    case expr_op::neg: case expr_op::min: case expr_op::max:
      return true;
    case expr_op::constant: case expr_op::read: case expr_op::cast:
      return false;
  }
  return false;
}

void count(const expr_node& e, int64_t& ops, bool& floating) {
  if (is_arithmetic(e.op)) {
    ++ops;
    floating = floating || is_float(e.type);
  }
  for (const auto& a : e.args) count(*a, ops, floating);
}

// The number of points of a set with every param fixed.
double points(isl::set s) {
  int n = static_cast<int>(s.tuple_dim());
  isl::set box = isl::set::universe(s.space());
  double product = 1;
  for (int d = 0; d < n; ++d) {
    isl::pw_aff lo = isl::manage(isl_set_dim_min(s.copy(), d)), hi = isl::manage(isl_set_dim_max(s.copy(), d));
    if (isl_pw_aff_is_cst(lo.get()) != isl_bool_true || isl_pw_aff_is_cst(hi.get()) != isl_bool_true) return -1;
    isl::val a = isl::manage(isl_pw_aff_min_val(lo.copy())), b = isl::manage(isl_pw_aff_max_val(hi.copy()));
    if (a.is_nan() || b.is_nan() || a.is_infty() || b.is_infty()) return -1;
    product *= static_cast<double>(b.get_num_si() - a.get_num_si() + 1);
    box = isl::manage(isl_set_lower_bound_val(box.release(), isl_dim_set, d, a.copy()));
    box = isl::manage(isl_set_upper_bound_val(box.release(), isl_dim_set, d, b.copy()));
  }
  if (s.is_equal(box)) return product;
  isl::val v = isl::manage(isl_set_count_val(s.get()));  // __isl_keep: a copy would leak
  SADSL_INTERNAL_ASSERT(!v.is_null() && v.is_int(), "isl could not count a statement domain");
  return static_cast<double>(v.get_num_si());
}

}  // namespace

int64_t operations_per_instance(const statement_info& s) {
  int64_t ops = 0;
  bool floating = false;
  count(*s.record->value().node(), ops, floating);
  return ops;
}

operation_count count_operations(const program& p) {
  operation_count out;
  isl::set values = isl_builder(p.kernel()).param_values().intersect(p.context());
  for (const auto& s : p.statements()) {
    int64_t ops = 0;
    count(*s.record->value().node(), ops, out.floating_point);
    isl::set domain = s.domain.intersect_params(values);
    domain = isl::manage(isl_set_project_out(domain.release(), isl_dim_param, 0, isl_set_dim(domain.get(), isl_dim_param)));
    double n = points(domain);
    SADSL_INTERNAL_ASSERT(n >= 0, "a statement domain is unbounded at fixed params");
    out.instances += n;
    out.operations += n * static_cast<double>(ops);
  }
  return out;
}

}  // namespace sadsl
