#pragma once
// One statement of a module part as sadsl's program generator (loop_generator.hpp) sees it: its
// schedule points in the part's context, per schedule dimension a constant, a function of the
// outer dimensions, or one lower and one upper bound, and the map back from a schedule point to
// the statement's instance. `analyse` reads that off the statement's schedule with integer
// arithmetic when the schedule is one conjunction whose existential variables are constant on
// its intervals (nearly every part), and with isl's gist and coalescing otherwise.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <isl/constraint.h>
#include <isl/set.h>
#include <isl/cpp.h>
#include <isl/val.h>

namespace sadsl::comm_detail {

/// Thrown for anything the generator does not handle: isl generates the part.
struct not_simple {};

inline void require(bool ok) {
  if (!ok) throw not_simple{};
}

/// The integer an isl value holds (consumed); not_simple for a rational one.
inline int64_t integer(isl_val* v) {
  bool ok = isl_val_is_int(v) == isl_bool_true;
  int64_t n = ok ? isl_val_get_num_si(v) : 0;
  isl_val_free(v);
  require(ok);
  return n;
}

/// The highest schedule dimension a constraint involves, or -1.
inline int level_of(isl_constraint* c, int dims) {
  for (int d = dims; d-- > 0;)
    if (isl_constraint_involves_dims(c, isl_dim_set, static_cast<unsigned>(d), 1) == isl_bool_true) return d;
  return -1;
}

/// One statement: its schedule points, and per schedule dimension a constant or one lower and one
/// upper bound (affine in the outer dimensions and the parameters).
struct statement {
  std::string name;
  isl::id id;
  isl::set points;              // simplified in the context
  isl::set context;             // the part's parameters
  isl::pw_multi_aff iterators;  // schedule point -> instance
  std::vector<std::optional<int64_t>> fixed;
  std::vector<char> defined;  // per dimension: equal to a function of outer dimensions and parameters
  std::vector<std::optional<isl::aff>> lower, upper;
  std::vector<std::optional<isl::basic_set>> bounds;  // per dimension: its lower and upper bound constraint
  std::vector<isl::basic_set> guards;  // constraints on the parameters only
  // From the integer analysis only: per parameter, then per schedule dimension, the interval its
  // values lie in over the points (INT64_MIN: unbounded); empty otherwise.
  std::vector<int64_t> lo, hi;
  // From the integer analysis only: the points' constraints, each [constant | parameters |
  // dimensions] >= 0 (an equality as two).
  std::vector<std::vector<int64_t>> constraints;

  /// The points in the context: what isl's gist simplifies expressions in. Made when first asked
  /// for, as only expressions the intervals cannot simplify need it.
  const isl::set& domain() const {
    if (!domain_) domain_ = isl::manage(isl_set_intersect_params(points.copy(), context.copy()));
    return *domain_;
  }

private:
  mutable std::optional<isl::set> domain_;
};

/// The statement whose schedule is `m` (instances -> schedule points) in `context` (a set of
/// parameters); not_simple when a dimension has several lower or upper bounds, a non-unit
/// coefficient, or the points are not one polyhedron.
statement analyse(const isl::map& m, const isl::set& context);

/// The same with integer arithmetic only (substitution, interval arithmetic on the context's
/// box of parameters, existential variables replaced by the value their intervals give them,
/// dimensions pinned by the intervals fixed); std::nullopt for a schedule of another shape:
/// several pieces after coalescing, an existential variable that varies (a stride), an instance
/// dimension no equality gives, bounds the box cannot order.
std::optional<statement> analyse_with_integers(const isl::map& m, const isl::set& context);

/// A condition over the schedule points of statement `s` (analysed with integers) with the
/// constraints dropped that the intervals of its parameters and dimensions imply, alone or with
/// one of the points' constraints, and the parameters
/// and dimensions fixed there replaced by their values: `false` when it never holds there;
/// std::nullopt when the condition has several pieces or existential variables, or `s` has no
/// intervals (isl's gist must simplify it).
std::optional<isl::basic_set> condition_on_box(const statement& s, const isl::set& on_schedule);
constexpr int64_t unbounded = INT64_MIN;

/// The same with isl (gist, coalescing, inversion) only: what `analyse` falls back to, and the
/// reference the integer way is tested against.
statement analyse_with_isl(const isl::map& m, const isl::set& context);

}  // namespace sadsl::comm_detail
