#include "instance_check.hpp"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <limits>
#include <unordered_set>

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "sadsl/poly/dump.hpp"

namespace sadsl::detail {

namespace {

int64_t to_int64(isl_val* raw) {
  isl::val v = isl::manage(raw);
  SADSL_INTERNAL_ASSERT(
      v.is_int() && v.ge(std::numeric_limits<long>::min()) && v.le(std::numeric_limits<long>::max()),
      "instance check: an isl integer does not fit in 64 bits");
  return v.get_num_si();
}

// A point of a param-free `space` as a one-point set.
isl::set point_set(const isl::space& space, const int64_t* coords) {
  isl_set* s = isl_set_universe(space.copy());
  int n = isl_space_dim(space.get(), isl_dim_set);
  for (int d = 0; d < n; ++d)
    s = isl_set_fix_val(s, isl_dim_set, d, isl_val_int_from_si(isl_space_get_ctx(space.get()), coords[d]));
  return isl::manage(s);
}

isl::set without_params(const isl::set& s) {
  auto params = static_cast<unsigned>(isl_set_dim(s.get(), isl_dim_param));
  return isl::manage(isl_set_project_out(s.copy(), isl_dim_param, 0, params));
}

// Floor division of 128-bit values by a positive denominator.
__int128 floor_div(__int128 a, int64_t d) {
  __int128 q = a / d;
  return (a % d != 0 && a < 0) ? q - 1 : q;
}

}  // namespace

// ---- domain_test ---------------------------------------------------------------------------

domain_test::domain_test(const isl::set& domain) : fallback_(domain) {
  dims_ = static_cast<size_t>(isl_set_dim(domain.get(), isl_dim_set));
  SADSL_INTERNAL_ASSERT(isl_set_dim(domain.get(), isl_dim_param) == 0, "instance check: the domain has params");
  // Existentials become floors of affine expressions where isl can express them (possibly as
  // several disjuncts); a basic set that keeps an unknown one is tested by isl instead.
  isl::set with_divs = isl::manage(isl_set_compute_divs(domain.copy()));
  isl_set_foreach_basic_set(
      with_divs.get(),
      [](isl_basic_set* raw, void* self) {
        auto* t = static_cast<domain_test*>(self);
        if (!t->compile(isl::manage(raw))) t->use_fallback_ = true;
        return isl_stat_ok;
      },
      this);
}

// The basic set's divs and constraints as integer rows; false when a div has no explicit
// representation (an existential isl could not express as a floor).
bool domain_test::compile(const isl::basic_set& b) {
  disjunct out;
  int n_div = isl_basic_set_dim(b.get(), isl_dim_div);
  isl_basic_set* known = isl_basic_set_remove_unknown_divs(b.copy());
  bool explicit_divs = isl_basic_set_dim(known, isl_dim_div) == n_div;
  isl_basic_set_free(known);
  if (!explicit_divs) return false;
  isl_local_space* ls = isl_basic_set_get_local_space(b.get());
  for (int j = 0; j < n_div; ++j) {
    isl::aff div = isl::manage(isl_local_space_get_div(ls, j));  // the expression inside the floor
    int64_t den = to_int64(isl_aff_get_denominator_val(div.get()));
    isl_val* scale = isl_val_int_from_si(isl_aff_get_ctx(div.get()), den);
    isl::aff scaled = isl::manage(isl_aff_scale_val(div.copy(), scale));  // integer coefficients
    row r;
    for (size_t i = 0; i < dims_; ++i)
      r.coef.push_back(to_int64(isl_aff_get_coefficient_val(scaled.get(), isl_dim_in, static_cast<int>(i))));
    for (int k = 0; k < n_div; ++k)
      r.coef.push_back(to_int64(isl_aff_get_coefficient_val(scaled.get(), isl_dim_div, k)));
    r.constant = to_int64(isl_aff_get_constant_val(scaled.get()));
    out.divs.push_back(std::move(r));
    out.denominators.push_back(den);
  }
  isl_local_space_free(ls);
  struct context {
    disjunct* out;
    size_t dims;
    int n_div;
  } ctx{&out, dims_, n_div};
  isl_basic_set_foreach_constraint(
      b.get(),
      [](isl_constraint* raw, void* user) {
        auto* c = static_cast<context*>(user);
        row r;
        for (size_t i = 0; i < c->dims; ++i)
          r.coef.push_back(to_int64(isl_constraint_get_coefficient_val(raw, isl_dim_set, static_cast<int>(i))));
        for (int k = 0; k < c->n_div; ++k)
          r.coef.push_back(to_int64(isl_constraint_get_coefficient_val(raw, isl_dim_div, k)));
        r.constant = to_int64(isl_constraint_get_constant_val(raw));
        (isl_constraint_is_equality(raw) ? c->out->equalities : c->out->inequalities).push_back(std::move(r));
        isl_constraint_free(raw);
        return isl_stat_ok;
      },
      &ctx);
  disjuncts_.push_back(std::move(out));
  return true;
}

bool domain_test::contains(const disjunct& d, const int64_t* point) const {
  std::vector<__int128> divs;
  auto value = [&](const row& r) {
    __int128 v = r.constant;
    for (size_t i = 0; i < dims_; ++i) v += static_cast<__int128>(r.coef[i]) * point[i];
    for (size_t k = 0; k < divs.size(); ++k) v += static_cast<__int128>(r.coef[dims_ + k]) * divs[k];
    return v;
  };
  for (size_t k = 0; k < d.divs.size(); ++k) divs.push_back(floor_div(value(d.divs[k]), d.denominators[k]));
  for (const auto& r : d.equalities)
    if (value(r) != 0) return false;
  for (const auto& r : d.inequalities)
    if (value(r) < 0) return false;
  return true;
}

bool domain_test::contains(const int64_t* point) const {
  if (use_fallback_) return point_set(fallback_.space(), point).is_subset(fallback_);
  for (const auto& d : disjuncts_)
    if (contains(d, point)) return true;
  return false;
}

// ---- instance_checker ----------------------------------------------------------------------

struct instance_checker::statement_check {
  const statement_info* info;
  isl::set domain;  // params fixed, then projected out (exact: each is fixed by an equality)
  domain_test test;
  int64_t expected = 0, executed = 0;
  std::vector<int64_t> lo, size;     // the bounding box
  bool box = false;                  // the domain is its bounding box: containment is its bounds
  std::vector<uint64_t> bitmap;      // one bit per box point (boxes up to 2^26 points)
  std::unordered_set<int64_t> seen;  // box offsets (larger boxes)

  statement_check(const statement_info& s, const isl::set& values)
      : info(&s), domain(without_params(s.domain.intersect_params(values))), test(domain) {
    if (domain.is_empty()) return;
    __int128 volume = 1;
    for (int d = 0; d < static_cast<int>(s.loops.size()); ++d) {
      lo.push_back(to_int64(isl_set_dim_min_val(domain.copy(), d)));
      size.push_back(to_int64(isl_set_dim_max_val(domain.copy(), d)) - lo.back() + 1);
      volume *= size.back();
      SADSL_INTERNAL_ASSERT(volume <= std::numeric_limits<int64_t>::max(),
                            "instance check: the domain of " + s.name() + " is too large to check");
    }
    if (volume <= (int64_t{1} << 26)) bitmap.assign(static_cast<size_t>((volume + 63) / 64), 0);
    box = is_its_bounding_box();
    expected = count(static_cast<int64_t>(volume));
  }

  // Whether the domain equals the box of lo and size (isl's is_box only looks at the shape of the
  // constraints; this compares the sets, so a domain with a stride never passes for its box).
  bool is_its_bounding_box() const {
    isl_set* bounds = isl_set_universe(isl_set_get_space(domain.get()));
    for (size_t d = 0; d < lo.size(); ++d) {
      bounds = isl_set_lower_bound_val(bounds, isl_dim_set, static_cast<unsigned>(d),
                                       isl_val_int_from_si(isl_set_get_ctx(domain.get()), lo[d]));
      bounds = isl_set_upper_bound_val(bounds, isl_dim_set, static_cast<unsigned>(d),
                                       isl_val_int_from_si(isl_set_get_ctx(domain.get()), lo[d] + size[d] - 1));
    }
    isl_bool equal = isl_set_is_equal(domain.get(), bounds);
    isl_set_free(bounds);
    return equal == isl_bool_true;
  }

  // Whether the domain holds `coords` (for a box, a comparison per dimension rather than every
  // constraint row in 128 bits: a tenth of a verification run of TTMc's designs).
  bool contains(const int64_t* coords) const {
    if (!box) return test.contains(coords);
    for (size_t d = 0; d < lo.size(); ++d)
      if (coords[d] < lo[d] || coords[d] >= lo[d] + size[d]) return false;
    return true;
  }

  // The domain's points. isl enumerates them one by one through its tableaux (a fifth of a
  // verification run of TTMc's designs); a box has as many as its volume, and a box of up to 2^26
  // points is scanned with the compiled rows, some ten times faster than isl.
  int64_t count(int64_t volume) const {
    if (box) return volume;
    if (!test.exact_rows() || volume > (int64_t{1} << 26)) return to_int64(isl_set_count_val(domain.get()));
    std::vector<int64_t> at = lo;
    int64_t points = 0;
    for (int64_t n = 0; n < volume; ++n) {
      points += test.contains(at.data());
      for (size_t d = at.size(); d-- > 0;) {  // the next point of the box, last dimension fastest
        if (++at[d] < lo[d] + size[d]) break;
        at[d] = lo[d];
      }
    }
    return points;
  }

  // Marks an instance of the domain; false if it was marked before.
  bool mark(const int64_t* coords) {
    int64_t at = 0;
    for (size_t d = 0; d < lo.size(); ++d) at = at * size[d] + (coords[d] - lo[d]);
    if (bitmap.empty()) return seen.insert(at).second;
    uint64_t bit = uint64_t{1} << (at % 64);
    uint64_t& word = bitmap[static_cast<size_t>(at / 64)];
    if (word & bit) return false;
    word |= bit;
    return true;
  }

  bool marked(const int64_t* coords) const {
    int64_t at = 0;
    for (size_t d = 0; d < lo.size(); ++d) at = at * size[d] + (coords[d] - lo[d]);
    if (bitmap.empty()) return seen.count(at) > 0;
    return (bitmap[static_cast<size_t>(at / 64)] >> (at % 64)) & 1;
  }
};

instance_checker::instance_checker(const program& p, const isl::set& param_values) : p_(p) {
  std::vector<std::string> values;
  for (const auto& prm : p.kernel().params()) values.push_back(fmt::format("{} = {}", prm.name(), prm.value()));
  params_ = fmt::format("{}", fmt::join(values, ", "));
  for (const auto& s : p.statements()) statements_.push_back(std::make_unique<statement_check>(s, param_values));
}

instance_checker::~instance_checker() = default;

void instance_checker::executed(int s, const int64_t* coords, const ast_exec::call_site& where) {
  statement_check& c = *statements_[static_cast<size_t>(s)];
  if (!c.contains(coords))
    fail(c, fmt::format("executed instance {}, outside its domain {}, at {}; the schedule's loop nest "
                        "(dump_schedule_code) runs it at {}",
                        instance_text(c, coords), isl_str(c.info->domain), params_, where.str()));
  if (!c.mark(coords))
    fail(c, fmt::format("executed instance {} twice at {}; the second time the schedule's loop nest "
                        "(dump_schedule_code) runs it at {}",
                        instance_text(c, coords), params_, where.str()));
  ++c.executed;
}

void instance_checker::finish() const {
  for (const auto& c : statements_) {
    if (c->executed == c->expected) continue;
    std::string missing;
    std::vector<int64_t> coords(c->lo.size());
    struct search {
      const instance_checker* self;
      const statement_check* c;
      std::vector<int64_t>* coords;
      std::string* missing;
    } state{this, c.get(), &coords, &missing};
    isl_set_foreach_point(
        c->domain.get(),
        [](isl_point* raw, void* user) {
          auto* st = static_cast<search*>(user);
          isl::point pt = isl::manage(raw);
          for (size_t d = 0; d < st->coords->size(); ++d)
            (*st->coords)[d] = to_int64(isl_point_get_coordinate_val(pt.get(), isl_dim_set, static_cast<int>(d)));
          if (st->c->marked(st->coords->data())) return isl_stat_ok;
          *st->missing = st->self->instance_text(*st->c, st->coords->data());
          return isl_stat_error;  // found one: stop
        },
        &state);
    fail(*c, fmt::format("executed {} of the {} instances of its domain at {}{}", c->executed, c->expected, params_,
                         missing.empty() ? "" : "; never executed: " + missing));
  }
}

void instance_checker::fail(const statement_check& s, const std::string& problem) const {
  throw internal_error(fmt::format("interpreter check: statement {} ({}) of kernel \"{}\" {}", s.info->name(),
                                   s.info->record->str(), p_.kernel().name(), problem));
}

std::string instance_checker::instance_text(const statement_check& s, const int64_t* coords) const {
  std::vector<std::string> parts;
  for (size_t d = 0; d < s.info->loops.size(); ++d)
    parts.push_back(fmt::format("{} = {}", s.info->loops[d].name(), coords[d]));
  return fmt::format("({})", fmt::join(parts, ", "));
}

}  // namespace sadsl::detail
