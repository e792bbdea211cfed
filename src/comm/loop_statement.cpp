// A statement of a module part as the program generator sees it (loop_statement.hpp).
//
// Why integer arithmetic: isl's gist, coalescing and inversion of a schedule build tableaux over
// a dozen variables on GMP numbers, about 1.4 ms per statement, a quarter of an architecture's
// build. A part's schedule is nearly always one conjunction in which each instance dimension
// equals a schedule dimension or a constant, and its context a box of parameters; then
// substitution and interval arithmetic give the same loops in microseconds.
#include "loop_statement.hpp"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/mat.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <memory>
#include <numeric>
#include <string>

namespace sadsl::comm_detail {

namespace {

// ---------------------------------------------------------------------------------------------
// The isl way, for the schedules the integer way does not take.

void size(statement& s, int dims) {
  auto n = static_cast<size_t>(dims);
  s.fixed.assign(n, std::nullopt);
  s.defined.assign(n, 0);
  s.lower.assign(n, std::nullopt);
  s.upper.assign(n, std::nullopt);
  s.bounds.assign(2 * n, std::nullopt);
}

// Files constraint c (as_set: the same, as a basic set) of a statement's points by the innermost
// schedule dimension it involves; false for what the generator does not handle.
bool add_constraint(statement& s, const isl::basic_set& as_set, isl_constraint* c, int dims) {
  int level = level_of(c, dims);
  if (level < 0) {
    s.guards.push_back(as_set);
    return true;
  }
  auto at = static_cast<size_t>(level);
  int64_t a = integer(isl_constraint_get_coefficient_val(c, isl_dim_set, level));
  bool unit = a == 1 || a == -1;
  if (!unit) return false;
  if (isl_constraint_is_equality(c) == isl_bool_true) {
    // c<level> = a constant, or a function of the outer dimensions and the parameters.
    if (s.fixed[at] || s.defined[at]) return false;
    auto params = static_cast<unsigned>(isl_constraint_dim(c, isl_dim_param));
    bool alone = isl_constraint_involves_dims(c, isl_dim_param, 0, params) == isl_bool_false &&
                 (level == 0 || isl_constraint_involves_dims(c, isl_dim_set, 0, static_cast<unsigned>(level)) == isl_bool_false);
    if (alone) s.fixed[at] = -integer(isl_constraint_get_constant_val(c)) * a;
    else s.defined[at] = 1;
    return true;
  }
  std::optional<isl::aff>& slot = a > 0 ? s.lower[at] : s.upper[at];
  if (slot) return false;
  slot = isl::manage(isl_constraint_get_bound(c, isl_dim_set, level));
  s.bounds[2 * at + (a > 0 ? 0 : 1)] = as_set;
  return true;
}

void check_bounds(const statement& s) {
  for (size_t at = 0; at < s.fixed.size(); ++at) {
    bool single = s.fixed[at] || s.defined[at];
    require(single ? !s.lower[at] && !s.upper[at] : s.lower[at] && s.upper[at]);
  }
}


// ---------------------------------------------------------------------------------------------
// The integer way.

// An affine constraint or function as integers: [constant | parameters | instance dims |
// schedule dims].
using row = std::vector<int64_t>;

int64_t checked(__int128 v) {
  require(v >= INT64_MIN && v <= INT64_MAX);
  return static_cast<int64_t>(v);
}

std::vector<row> rows_of(isl_mat* m) {
  std::unique_ptr<isl_mat, isl_mat* (*)(isl_mat*)> owned(m, isl_mat_free);
  std::vector<row> out(static_cast<size_t>(isl_mat_rows(m)), row(static_cast<size_t>(isl_mat_cols(m))));
  for (size_t r = 0; r < out.size(); ++r)
    for (size_t c = 0; c < out[r].size(); ++c) out[r][c] = integer(isl_mat_get_element_val(m, static_cast<int>(r), static_cast<int>(c)));
  return out;
}

// a + times * b, coefficient by coefficient.
row plus(const row& a, int64_t times, const row& b) {
  row out(a.size());
  for (size_t c = 0; c < a.size(); ++c) out[c] = checked(static_cast<__int128>(a[c]) + static_cast<__int128>(times) * b[c]);
  return out;
}

// Replaces variable k of r by e (a row with e[k] == 0): r + r[k] * e.
void substitute(row& r, size_t k, const row& e) {
  int64_t a = r[k];
  if (a == 0) return;
  for (size_t c = 0; c < r.size(); ++c) r[c] = checked(static_cast<__int128>(r[c]) + static_cast<__int128>(a) * e[c]);  // in place
  r[k] = 0;
}

// Solves equality e (coefficient ±1 at k) for variable k.
row solved(const row& e, size_t k) {
  row out(e.size());
  for (size_t c = 0; c < e.size(); ++c) out[c] = -e[k] * e[c];
  out[k] = 0;
  return out;
}

int64_t floor_div(int64_t n, int64_t d) { return n / d - ((n % d != 0) && ((n < 0) != (d < 0)) ? 1 : 0); }

row negated(row r) {
  for (auto& v : r) v = -v;
  return r;
}

// Divides an inequality's variable coefficients by their gcd, the constant rounded down (the
// integer points stay the same).
void normalize(row& r) {
  int64_t g = 0;
  for (size_t c = 1; c < r.size(); ++c) g = std::gcd(g, r[c]);
  if (g <= 1) return;
  for (size_t c = 1; c < r.size(); ++c) r[c] /= g;
  r[0] = r[0] >= 0 ? r[0] / g : -((-r[0] + g - 1) / g);
}

// Per variable an interval (the box the parameter context and the outer bounds give).
struct box {
  static constexpr int64_t none = INT64_MIN;
  std::vector<int64_t> lo, hi;  // `none`: unbounded
  explicit box(size_t n) : lo(n, none), hi(n, none) {}

  // The least (sign 1) or greatest (sign -1) value of sign * r over the box; nullopt when unbounded.
  std::optional<__int128> least(const row& r, int sign) const {
    __int128 v = static_cast<__int128>(sign) * r[0];
    for (size_t c = 1; c < r.size(); ++c) {
      __int128 a = static_cast<__int128>(sign) * r[c];
      if (a == 0) continue;
      int64_t at = a > 0 ? lo[c] : hi[c];
      if (at == none) return std::nullopt;
      v += a * at;
    }
    return v;
  }
  bool always_nonnegative(const row& r) const {
    auto v = least(r, 1);
    return v && *v >= 0;
  }
  bool never_nonnegative(const row& r) const {
    auto v = least(r, -1);
    return v && *v > 0;
  }
  // Narrows variable k by a constraint on it alone: a * x + c >= 0 (or == 0).
  void narrow(const row& r, size_t k, bool equality) {
    int64_t a = r[k], c = r[0];
    if (a == 0) return;
    if (a > 0 || equality) {
      int64_t v = -floor_div(c, a);  // ceil(-c / a)
      lo[k] = lo[k] == none ? v : std::max(lo[k], v);
    }
    if (a < 0 || equality) {
      int64_t v = floor_div(-c, a);
      hi[k] = hi[k] == none ? v : std::min(hi[k], v);
    }
  }
};

// The only variable a row involves among columns [from, to), or -1 (none or several).
int only_variable(const row& r, size_t from, size_t to) {
  int found = -1;
  for (size_t c = from; c < to; ++c)
    if (r[c] != 0) {
      if (found >= 0) return -1;
      found = static_cast<int>(c);
    }
  return found;
}

bool involves(const row& r, size_t from, size_t to) {
  return std::any_of(r.begin() + static_cast<std::ptrdiff_t>(from), r.begin() + static_cast<std::ptrdiff_t>(to),
                     [](int64_t v) { return v != 0; });
}

// A basic set of `space` with these constraints, each [constant | parameters | set dims].
isl::basic_set set_from_rows(isl::space space, const std::vector<row>& eqs, const std::vector<row>& ineqs) {
  isl_ctx* ctx = space.ctx().get();
  auto matrix = [&](const std::vector<row>& rows) {
    auto cols = static_cast<unsigned>(1 + isl_space_dim(space.get(), isl_dim_param) + isl_space_dim(space.get(), isl_dim_set));
    isl_mat* m = isl_mat_alloc(ctx, static_cast<unsigned>(rows.size()), cols);
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < cols; ++c) {
        int64_t v = rows[r][c];
        int i = static_cast<int>(r), j = static_cast<int>(c);
        // Most coefficients fit an int: set without allocating an isl_val.
        if (v >= INT_MIN && v <= INT_MAX) m = isl_mat_set_element_si(m, i, j, static_cast<int>(v));
        else m = isl_mat_set_element_val(m, i, j, isl_val_int_from_si(ctx, v));
      }
    return m;
  };
  return isl::manage(isl_basic_set_from_constraint_matrices(space.release(), matrix(eqs), matrix(ineqs), isl_dim_cst,
                                                            isl_dim_param, isl_dim_set, isl_dim_div));
}

class integer_analysis {
public:
  integer_analysis(const isl::map& m, const isl::set& context) : m_(m), context_set_(context) {
    require(isl_map_n_basic_map(m.get()) == 1);
    isl_basic_map* b = nullptr;
    isl_map_foreach_basic_map(
        m.get(), [](isl_basic_map* bm, void* user) -> isl_stat { *static_cast<isl_basic_map**>(user) = bm; return isl_stat_ok; }, &b);
    isl::basic_map bmap = isl::manage(b);
    params_ = static_cast<size_t>(isl_basic_map_dim(b, isl_dim_param));
    ins_ = static_cast<size_t>(isl_basic_map_dim(b, isl_dim_in));
    outs_ = static_cast<size_t>(isl_basic_map_dim(b, isl_dim_out));
    read_existentials(bmap);
    eqs_ = rows_of(isl_basic_map_equalities_matrix(b, isl_dim_cst, isl_dim_param, isl_dim_in, isl_dim_out, isl_dim_div));
    ineqs_ = rows_of(isl_basic_map_inequalities_matrix(b, isl_dim_cst, isl_dim_param, isl_dim_in, isl_dim_out, isl_dim_div));
    context_ = std::make_unique<box>(width());
    require(isl_set_dim(context.get(), isl_dim_param) == static_cast<isl_size>(params_));
    for (size_t i = 0; i < params_; ++i) {  // the same parameters in the same order
      auto at = static_cast<unsigned>(i);
      isl::id a = isl::manage(isl_set_get_dim_id(context.get(), isl_dim_param, at));
      isl::id b = isl::manage(isl_map_get_dim_id(m.get(), isl_dim_param, at));
      require(a.get() == b.get());
    }
    read_context(context);
  }

  statement run() {
    substitute_fixed_params();
    fix_existentials();
    fix_pinned_dims();
    solve_instance_dims();
    solve_schedule_equalities();
    statement s;
    s.name = isl_map_get_tuple_name(m_.get(), isl_dim_in);
    s.id = isl::manage(isl_map_get_tuple_id(m_.get(), isl_dim_in));
    size(s, static_cast<int>(outs_));
    box known = *context_;
    std::vector<row> point_eqs, point_ineqs;
    file_parameter_constraints(s, known, point_eqs, point_ineqs);
    file_dimensions(s, known, point_eqs, point_ineqs);
    check_bounds(s);
    build_sets(s, point_eqs, point_ineqs);
    for (size_t i = 0; i < params_; ++i) s.lo.push_back(known.lo[param(i)]), s.hi.push_back(known.hi[param(i)]);
    for (size_t d = 0; d < outs_; ++d) s.lo.push_back(known.lo[out(d)]), s.hi.push_back(known.hi[out(d)]);
    s.constraints = compact(point_ineqs);
    for (const auto& e : compact(point_eqs)) {
      s.constraints.push_back(e);
      s.constraints.push_back(negated(e));
    }
    return s;
  }

private:
  isl::map m_;
  isl::set context_set_;
  size_t params_ = 0, ins_ = 0, outs_ = 0;
  std::vector<row> eqs_, ineqs_;
  std::unique_ptr<box> context_;
  std::vector<row> iterators_;                // per instance dim: its value
  std::vector<std::pair<size_t, row>> defs_;  // schedule dim (column) = row, innermost first
  std::vector<std::pair<row, int64_t>> existentials_;  // per existential variable e = floor(row / denominator)

  size_t width() const { return 1 + params_ + ins_ + outs_ + existentials_.size(); }
  size_t param(size_t i) const { return 1 + i; }
  size_t in(size_t i) const { return 1 + params_ + i; }
  size_t out(size_t i) const { return 1 + params_ + ins_ + i; }
  size_t existential(size_t i) const { return 1 + params_ + ins_ + outs_ + i; }

  void for_each_row(const std::function<void(row&)>& f) {
    for (auto& r : eqs_) f(r);
    for (auto& r : ineqs_) f(r);
    for (auto& r : iterators_) f(r);
    for (auto& [c, r] : defs_) f(r);
  }

  // Each existential variable's definition floor(f / d) as (f, d), f in the rows' columns; not
  // simple when isl does not know one.
  void read_existentials(const isl::basic_map& b) {
    isl_size n = isl_basic_map_dim(b.get(), isl_dim_div);
    if (n == 0) return;
    isl::basic_set wrapped = isl::manage(isl_basic_map_wrap(b.copy()));  // set dims: in, then out
    existentials_.assign(static_cast<size_t>(n), {});
    for (isl_size i = 0; i < n; ++i) {
      isl_aff* a = isl_basic_set_get_div(wrapped.get(), i);
      bool known = a && isl_aff_is_nan(a) == isl_bool_false;
      if (!known) isl_aff_free(a);
      require(known);
      isl::aff def = isl::manage(a);
      isl::val d = isl::manage(isl_aff_get_denominator_val(def.get()));
      auto scaled = [&](isl_val* v) { return integer(isl_val_mul(v, d.copy())); };
      row f(width());
      f[0] = scaled(isl_aff_get_constant_val(def.get()));
      for (size_t k = 0; k < params_; ++k) f[param(k)] = scaled(isl_aff_get_coefficient_val(def.get(), isl_dim_param, static_cast<int>(k)));
      for (size_t k = 0; k < ins_ + outs_; ++k) f[in(k)] = scaled(isl_aff_get_coefficient_val(def.get(), isl_dim_in, static_cast<int>(k)));
      for (size_t k = 0; k < static_cast<size_t>(n); ++k) f[existential(k)] = scaled(isl_aff_get_coefficient_val(def.get(), isl_dim_div, static_cast<int>(k)));
      existentials_[static_cast<size_t>(i)] = {std::move(f), integer(d.release())};
    }
  }

  // An existential variable floor(f / d) whose numerator stays within one multiple of d over the
  // intervals the constraints give each variable is that multiple, substituted everywhere: the
  // parts of a tiling with a non-divisor factor have them (`513 floor(i / 513) >= i - 170` with
  // 0 <= i <= 170, `i mod 513 = 0` with 0 <= i <= 512). Not simple otherwise.
  void fix_existentials() {
    if (existentials_.empty()) return;
    box b = propagated_box();
    for (size_t i = 0; i < existentials_.size(); ++i) {
      const auto& [f, d] = existentials_[i];
      std::optional<__int128> least = b.least(f, 1), greatest = b.least(f, -1);
      require(least && greatest);
      int64_t q = floor_div(checked(*least), d);
      require(q == floor_div(checked(-*greatest), d));
      row value(width());
      value[0] = q;
      for_each_row([&](row& r) { substitute(r, existential(i), value); });
      for (auto& later : existentials_) substitute(later.first, existential(i), value);
    }
  }

  // The instance and schedule dimensions the constraints' intervals pin to one value are that
  // value, an equality (isl's simplification finds these implicit equalities too): with
  // `4i0 + i2 = 0`, 0 <= i0 <= 1 and 0 <= i2 <= 3, both are 0, no loop.
  void fix_pinned_dims() {
    box b = propagated_box();
    for (size_t k = in(0); k < existential(0); ++k) {
      if (b.lo[k] == box::none || b.lo[k] != b.hi[k]) continue;
      row value(width());
      value[0] = b.lo[k];
      for_each_row([&](row& r) { substitute(r, k, value); });
      row pinned(width());  // x - value = 0
      pinned[0] = -value[0];
      pinned[k] = 1;
      eqs_.push_back(std::move(pinned));
    }
  }

  // The context's box narrowed by every constraint, each variable in turn bounded by the others'
  // intervals, for a few rounds (enough for chains of equalities between instance and schedule
  // dimensions).
  box propagated_box() const {
    box b = *context_;
    auto narrow_by = [&b](const row& r) {
      for (size_t k = 1; k < r.size(); ++k) {
        if (r[k] == 0) continue;
        row rest = r;
        rest[k] = 0;
        std::optional<__int128> greatest = b.least(rest, -1);  // -max(rest)
        if (!greatest) continue;
        row implied(r.size());  // r[k] x + max(rest) >= 0
        implied[0] = checked(-*greatest);
        implied[k] = r[k];
        b.narrow(implied, k, false);
      }
    };
    for (int round = 0; round < 3; ++round) {
      for (const row& e : eqs_) narrow_by(e), narrow_by(negated(e));
      for (const row& r : ineqs_) narrow_by(r);
    }
    for (size_t k = 1; k < b.lo.size(); ++k) require(b.lo[k] == box::none || b.hi[k] == box::none || b.lo[k] <= b.hi[k]);
    return b;
  }

  // The context's single-parameter constraints as intervals (other constraints are left out:
  // a larger box only keeps more constraints).
  void read_context(const isl::set& context) {
    if (isl_set_n_basic_set(context.get()) != 1) return;
    isl::basic_set hull = isl::manage(isl_set_simple_hull(context.copy()));
    if (isl_basic_set_dim(hull.get(), isl_dim_div) != 0) return;
    auto read = [&](isl_mat* m, bool equality) {
      for (const row& r : rows_of(m)) {
        int k = only_variable(r, 1, r.size());
        if (k < 0) continue;
        row wide(width());
        wide[0] = r[0];
        wide[static_cast<size_t>(k)] = r[static_cast<size_t>(k)];
        context_->narrow(wide, static_cast<size_t>(k), equality);
      }
    };
    read(isl_basic_set_equalities_matrix(hull.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div), true);
    read(isl_basic_set_inequalities_matrix(hull.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div), false);
  }

  // The problem sizes the context fixes become their values.
  void substitute_fixed_params() {
    for (size_t i = 0; i < params_; ++i) {
      size_t k = param(i);
      if (context_->lo[k] == box::none || context_->lo[k] != context_->hi[k]) continue;
      row value(width());
      value[0] = context_->lo[k];
      for_each_row([&](row& r) { substitute(r, k, value); });
    }
  }

  // Each instance dim from an equality with coefficient ±1 on it (Gaussian elimination).
  void solve_instance_dims() {
    iterators_.assign(ins_, row());
    std::vector<char> solved_dim(ins_, 0);
    for (bool progress = true; progress;) {
      progress = false;
      for (size_t e = 0; e < eqs_.size() && !progress; ++e)
        for (size_t i = 0; i < ins_ && !progress; ++i) {
          if (eqs_[e][in(i)] != 1 && eqs_[e][in(i)] != -1) continue;
          row value = solved(eqs_[e], in(i));
          eqs_.erase(eqs_.begin() + static_cast<std::ptrdiff_t>(e));
          for_each_row([&](row& r) {
            if (!r.empty()) substitute(r, in(i), value);
          });
          iterators_[i] = std::move(value);
          solved_dim[i] = 1;
          progress = true;
        }
    }
    require(std::all_of(solved_dim.begin(), solved_dim.end(), [](char c) { return c != 0; }));
  }

  // Each schedule equality defines its innermost dimension (coefficient ±1), which is then
  // substituted everywhere: a dimension a statement fixes is no loop of it.
  void solve_schedule_equalities() {
    for (;;) {
      int best = -1, level = -1;
      for (size_t e = 0; e < eqs_.size(); ++e)
        for (size_t d = outs_; d-- > 0;)
          if (eqs_[e][out(d)] != 0) {
            if (static_cast<int>(d) > level) best = static_cast<int>(e), level = static_cast<int>(d);
            break;
          }
      if (best < 0) return;
      const row& e = eqs_[static_cast<size_t>(best)];
      size_t k = out(static_cast<size_t>(level));
      require(e[k] == 1 || e[k] == -1);
      row value = solved(e, k);
      eqs_.erase(eqs_.begin() + best);
      for_each_row([&](row& r) { substitute(r, k, value); });
      defs_.push_back({static_cast<size_t>(level), std::move(value)});
    }
  }

  // Constraints on the parameters only: dropped when the context implies them, else guards (and
  // narrowing the box the bounds are compared in).
  void file_parameter_constraints(statement& s, box& known, std::vector<row>& point_eqs, std::vector<row>& point_ineqs) {
    for (auto& r : eqs_) {
      if (!involves(r, 1, r.size())) {
        require(r[0] == 0);  // an empty statement: isl decides
        continue;
      }
      if (context_->always_nonnegative(r) && context_->always_nonnegative(negated(r))) continue;
      s.guards.push_back(set_of({r}, {}));
      point_eqs.push_back(r);
      if (int k = only_variable(r, 1, r.size()); k >= 0) known.narrow(r, static_cast<size_t>(k), true);
    }
    std::vector<row> dims;
    for (auto& r : ineqs_) {
      normalize(r);
      if (involves(r, out(0), r.size())) {
        dims.push_back(r);
        continue;
      }
      require(!context_->never_nonnegative(r));  // an empty statement: isl decides
      if (context_->always_nonnegative(r)) continue;
      if (std::any_of(point_ineqs.begin(), point_ineqs.end(), [&](const row& p) { return p == r; })) continue;
      s.guards.push_back(set_of({}, {r}));
      point_ineqs.push_back(r);
      if (int k = only_variable(r, 1, r.size()); k >= 0) known.narrow(r, static_cast<size_t>(k), false);
    }
    ineqs_ = std::move(dims);
  }

  // Per schedule dimension, outermost first: its definition, or its one lower and one upper
  // bound after those another bound implies on the box are dropped.
  void file_dimensions(statement& s, box& known, std::vector<row>& point_eqs, std::vector<row>& point_ineqs) {
    for (size_t d = 0; d < outs_; ++d) {
      size_t k = out(d);
      if (auto def = std::find_if(defs_.begin(), defs_.end(), [&](const auto& p) { return p.first == d; }); def != defs_.end()) {
        const row& v = def->second;
        if (involves(v, 1, v.size())) s.defined[d] = 1;
        else s.fixed[d] = v[0];
        row eq = v;
        eq[k] = -1;
        point_eqs.push_back(eq);
        if (auto lo = known.least(v, 1)) known.lo[k] = checked(*lo);
        if (auto hi = known.least(v, -1)) known.hi[k] = checked(-*hi);
        continue;
      }
      std::vector<row> lowers, uppers;
      for (const auto& r : ineqs_) {
        if (only_variable(r, k, r.size()) != static_cast<int>(k)) continue;
        require(r[k] == 1 || r[k] == -1);
        (r[k] > 0 ? lowers : uppers).push_back(r);
      }
      const row* lower = tightest(lowers, known);
      const row* upper = tightest(uppers, known);
      require(lower && upper);
      s.lower[d] = bound(*lower, k);
      s.upper[d] = bound(*upper, k);
      s.bounds[2 * d] = set_of({}, {*lower});
      s.bounds[2 * d + 1] = set_of({}, {*upper});
      point_ineqs.push_back(*lower);
      point_ineqs.push_back(*upper);
      row lo = *lower, hi = *upper;  // c >= -rest, c <= rest
      lo[k] = 0;
      hi[k] = 0;
      if (auto v = known.least(negated(lo), 1)) known.lo[k] = checked(*v);
      if (auto v = known.least(hi, -1)) known.hi[k] = checked(-*v);
    }
  }

  // The one bound of `bounds` (all on the same dim with the same sign) that implies the others
  // on the box; null when there is none.
  static const row* tightest(const std::vector<row>& bounds, const box& known) {
    for (const auto& candidate : bounds) {
      bool implies_all = true;
      for (const auto& other : bounds) {
        if (&other == &candidate) continue;
        // candidate: x + f >= 0 (or -x + f >= 0), other: x + g >= 0: implied when g - f >= 0.
        implies_all = implies_all && known.always_nonnegative(plus(other, -1, candidate));
      }
      if (implies_all) return &candidate;
    }
    return nullptr;
  }

  isl::space set_space() const { return isl::manage(isl_space_range(isl_map_get_space(m_.get()))); }

  // The bound a constraint r (coefficient ±1 at column k) gives column k: an affine function of
  // the parameters and the outer schedule dims.
  isl::aff bound(const row& r, size_t k) const {
    row v(r.size());  // r[k] x + rest >= 0 with r[k] = ±1: x >= -rest or x <= rest
    for (size_t c = 0; c < v.size(); ++c) v[c] = c == k ? 0 : -r[c] * r[k];
    return aff_of(v);
  }

  isl::aff aff_of(const row& v) const {
    isl_ctx* ctx = isl_map_get_ctx(m_.get());
    isl_aff* a = isl_aff_zero_on_domain(isl_local_space_from_space(set_space().release()));
    a = isl_aff_set_constant_val(a, isl_val_int_from_si(ctx, v[0]));
    for (size_t i = 0; i < params_; ++i)
      if (v[param(i)] != 0) a = isl_aff_set_coefficient_val(a, isl_dim_param, static_cast<int>(i), isl_val_int_from_si(ctx, v[param(i)]));
    for (size_t d = 0; d < outs_; ++d)
      if (v[out(d)] != 0) a = isl_aff_set_coefficient_val(a, isl_dim_in, static_cast<int>(d), isl_val_int_from_si(ctx, v[out(d)]));
    return isl::manage(a);
  }

  // A basic set of the schedule space with these constraints.
  isl::basic_set set_of(const std::vector<row>& eqs, const std::vector<row>& ineqs) const {
    return set_from_rows(set_space(), compact(eqs), compact(ineqs));
  }

  // Rows without the instance dims' columns (all zero once they are solved).
  std::vector<row> compact(const std::vector<row>& rows) const {
    std::vector<row> compacted;
    for (const auto& r : rows) {
      row c(1 + params_ + outs_);
      c[0] = r[0];
      for (size_t i = 0; i < params_; ++i) c[1 + i] = r[param(i)];
      for (size_t d = 0; d < outs_; ++d) c[1 + params_ + d] = r[out(d)];
      compacted.push_back(std::move(c));
    }
    return compacted;
  }

  void build_sets(statement& s, const std::vector<row>& point_eqs, const std::vector<row>& point_ineqs) const {
    s.points = isl::manage(isl_set_from_basic_set(set_of(point_eqs, point_ineqs).release()));
    s.context = context_set_;
    isl_space* space = isl_space_reverse(isl_map_get_space(m_.get()));
    isl_aff_list* list = isl_aff_list_alloc(isl_map_get_ctx(m_.get()), static_cast<int>(ins_));
    for (const auto& v : iterators_) list = isl_aff_list_add(list, aff_of(v).release());
    s.iterators = isl::manage(isl_pw_multi_aff_from_multi_aff(isl_multi_aff_from_aff_list(space, list)));
  }
};

}  // namespace

statement analyse_with_isl(const isl::map& m, const isl::set& context) {
  statement s;
  s.name = isl_map_get_tuple_name(m.get(), isl_dim_in);
  s.id = isl::manage(isl_map_get_tuple_id(m.get(), isl_dim_in));
  isl::map coalesced = isl::manage(isl_map_coalesce(m.copy()));
  require(isl_map_n_basic_map(coalesced.get()) == 1);
  isl_set* points = isl_set_gist_params(isl_map_range(m.copy()), context.copy());
  points = isl_set_coalesce(isl_set_remove_redundancies(points));
  s.points = isl::manage(points);
  require(isl_set_n_basic_set(s.points.get()) == 1 && isl_set_dim(s.points.get(), isl_dim_div) == 0);
  s.context = context;
  isl_pw_multi_aff* it = isl_pw_multi_aff_from_map(isl_map_reverse(m.copy()));
  s.iterators = isl::manage(isl_pw_multi_aff_gist(it, s.domain().copy()));
  require(isl_pw_multi_aff_n_piece(s.iterators.get()) == 1);
  int dims = static_cast<int>(isl_set_dim(s.points.get(), isl_dim_set));
  size(s, dims);
  isl_basic_set* b = isl_set_simple_hull(s.points.copy());  // the set's only basic set
  require(isl_basic_set_dim(b, isl_dim_div) == 0 || (isl_basic_set_free(b), false));
  struct data {
    statement* s;
    int dims;
    bool failed = false;
  } d{&s, dims};
  isl_basic_set_foreach_constraint(
      b,
      [](isl_constraint* c, void* user) -> isl_stat {
        auto* d = static_cast<data*>(user);
        try {  // no exception may cross isl's C frames
          d->failed = !add_constraint(*d->s, isl::manage(isl_basic_set_from_constraint(isl_constraint_copy(c))), c, d->dims);
        } catch (...) {
          d->failed = true;
        }
        isl_constraint_free(c);
        return d->failed ? isl_stat_error : isl_stat_ok;
      },
      &d);
  isl_basic_set_free(b);
  require(!d.failed);
  check_bounds(s);
  return s;
}

namespace {

// r >= 0 holds where every constraint of `given` and every equality of `equal` does, for the
// values in the box: alone, or as one of `given`, plus a multiple of one of `equal`, plus a
// function the box keeps non-negative.
bool implied(const row& r, const box& b, const std::vector<row>& given, const std::vector<row>& equal) {
  auto holds = [&](const row& rest) {
    if (b.always_nonnegative(rest)) return true;
    for (const auto& e : equal) {
      size_t k = e.size();
      while (k-- > 1 && e[k] == 0) {
      }
      if (k == 0 || rest[k] % e[k] != 0) continue;
      if (b.always_nonnegative(plus(rest, -(rest[k] / e[k]), e))) return true;
    }
    return false;
  };
  if (holds(r)) return true;
  return std::any_of(given.begin(), given.end(), [&](const row& g) {
    return holds(plus(r, -1, g));
  });
}

// The variables the box fixes replaced by their values in each row.
void substitute_fixed(std::vector<row>& rows, const box& b) {
  for (row& r : rows)
    for (size_t k = 1; k < r.size(); ++k)
      if (b.lo[k] != box::none && b.lo[k] == b.hi[k]) {
        row value(r.size());
        value[0] = b.lo[k];
        substitute(r, k, value);
      }
}

// The constraints of `rows` (equalities when `equality`) the box, `given` and the condition's
// equalities `equal` do not imply; false when one never holds on the box.
bool keep_unimplied(std::vector<row>& rows, bool equality, const box& b, const std::vector<row>& given,
                    const std::vector<row>& equal) {
  std::vector<row> kept;
  for (row r : rows) {
    if (!equality) normalize(r);
    row negative = negated(r);
    if (b.never_nonnegative(r) || (equality && b.never_nonnegative(negative))) return false;
    if (implied(r, b, given, equal) && (!equality || implied(negative, b, given, equal))) continue;
    kept.push_back(std::move(r));
  }
  rows = std::move(kept);
  return true;
}

}  // namespace

std::optional<isl::basic_set> condition_on_box(const statement& s, const isl::set& on_schedule) {
  if (s.lo.empty() || isl_set_n_basic_set(on_schedule.get()) != 1) return std::nullopt;
  isl::space space = isl::manage(isl_set_get_space(on_schedule.get()));
  auto params = static_cast<size_t>(isl_space_dim(space.get(), isl_dim_param));
  auto dims = static_cast<size_t>(isl_space_dim(space.get(), isl_dim_set));
  if (params + dims != s.lo.size() || isl_set_dim(on_schedule.get(), isl_dim_div) != 0) return std::nullopt;
  for (size_t i = 0; i < params; ++i) {  // the statement's parameters, in its order
    isl::id a = isl::manage(isl_space_get_dim_id(space.get(), isl_dim_param, static_cast<unsigned>(i)));
    isl::id b = isl::manage(isl_set_get_dim_id(s.points.get(), isl_dim_param, static_cast<unsigned>(i)));
    if (a.get() != b.get()) return std::nullopt;
  }
  isl::basic_set only = isl::manage(isl_set_simple_hull(on_schedule.copy()));
  if (isl_basic_set_dim(only.get(), isl_dim_div) != 0) return std::nullopt;
  try {
    box b(1 + params + dims);
    std::copy(s.lo.begin(), s.lo.end(), b.lo.begin() + 1);
    std::copy(s.hi.begin(), s.hi.end(), b.hi.begin() + 1);
    auto eqs = rows_of(isl_basic_set_equalities_matrix(only.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
    auto ineqs = rows_of(isl_basic_set_inequalities_matrix(only.get(), isl_dim_cst, isl_dim_param, isl_dim_set, isl_dim_div));
    substitute_fixed(eqs, b);
    substitute_fixed(ineqs, b);
    const std::vector<row> equal = eqs;
    if (!keep_unimplied(eqs, true, b, s.constraints, {}) || !keep_unimplied(ineqs, false, b, s.constraints, equal)) return isl::manage(isl_basic_set_empty(space.release()));
    return set_from_rows(space, eqs, ineqs);
  } catch (const not_simple&) {
    return std::nullopt;
  }
}

std::optional<statement> analyse_with_integers(const isl::map& m, const isl::set& context) {
  try {
    if (isl_map_n_basic_map(m.get()) > 1) {  // e.g. a tile loop's statement and its first iteration's
      isl::map one = isl::manage(isl_map_coalesce(m.copy()));
      if (isl_map_n_basic_map(one.get()) > 1) return std::nullopt;
      return integer_analysis(one, context).run();
    }
    return integer_analysis(m, context).run();
  } catch (const not_simple&) {
    return std::nullopt;
  }
}

statement analyse(const isl::map& m, const isl::set& context) {
  if (auto s = analyse_with_integers(m, context)) return std::move(*s);
  return analyse_with_isl(m, context);
}

}  // namespace sadsl::comm_detail
