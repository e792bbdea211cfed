// A chunk's origin with integers (box_origin_on_box, src/comm/construction.hpp) is isl's
// parametric minimum (box_origin) where it answers, and it leaves to isl the sets it cannot order.
#include <catch2/catch.hpp>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/set.h>

#include <utility>
#include <vector>

#include "../../src/comm/construction.hpp"

using namespace sadsl::comm_detail;

namespace {

using ranges = std::vector<std::pair<int64_t, int64_t>>;

// Equal on the parameters' box.
bool same_on_box(const isl::pw_aff& a, const isl::pw_aff& b, const ranges& r) {
  isl_set* box = isl_set_universe(isl_space_domain(isl_pw_aff_get_space(b.get())));
  for (size_t i = 0; i < r.size(); ++i) {
    box = isl_set_lower_bound_si(box, isl_dim_param, static_cast<unsigned>(i), static_cast<int>(r[i].first));
    box = isl_set_upper_bound_si(box, isl_dim_param, static_cast<unsigned>(i), static_cast<int>(r[i].second));
  }
  isl::pw_aff bb = isl::manage(isl_pw_aff_intersect_domain(b.copy(), box));
  return isl_pw_aff_is_equal(a.get(), bb.get()) == isl_bool_true;
}

struct ctx_holder {
  isl_ctx* ctx = isl_ctx_alloc();
  ~ctx_holder() { isl_ctx_free(ctx); }
};

}  // namespace

TEST_CASE("box origin: the integer way gives isl's minimum where a bound dominates on the box") {
  ctx_holder h;
  {
    // MM's chunk of C at one leaf: i0's bounds 513 t2 + 171 p0 and 0, i1's 513 t0 and 0.
    isl::set chunk = isl::manage(isl_set_read_from_str(
        h.ctx, "[I, J, K, t0, t1, t2, p0] -> { C[i0, i1] : I = 1026 and J = 1026 and K = 1026 and t1 = 1 and 0 <= p0 <= 2 "
               "and i0 >= 513t2 + 171p0 and 0 <= i0 <= 1025 and i0 <= 170 + 513t2 + 171p0 and i1 >= 513t0 and "
               "0 <= i1 <= 1025 and i1 <= 512 + 513t0 }"));
    ranges r{{1026, 1026}, {1026, 1026}, {1026, 1026}, {0, 1}, {0, 1}, {0, 1}, {0, 2}};
    auto fast = box_origin_on_box(chunk, r);
    REQUIRE(fast);
    auto reference = box_origin(chunk);
    REQUIRE(fast->size() == reference.size());
    for (size_t d = 0; d < reference.size(); ++d) CHECK(same_on_box((*fast)[d], reference[d], r));
  }
  {
    // An equality fixes the first dimension; the second's bounds couple it to the first.
    isl::set s = isl::manage(isl_set_read_from_str(h.ctx, "[t0] -> { A[i0, i1] : i0 = 2t0 + 1 and i1 >= 3 and i1 >= t0 and i1 <= i0 + 4 }"));
    // i1 >= 3 and i1 >= t0 on t0 in [0, 2]: 3 is the larger (beyond t0 = 3, t0 would be).
    ranges r{{0, 2}};
    auto fast = box_origin_on_box(s, r);
    REQUIRE(fast);
    auto reference = box_origin(s);
    for (size_t d = 0; d < reference.size(); ++d) CHECK(same_on_box((*fast)[d], reference[d], r));
  }
}

TEST_CASE("box origin: bounds the box cannot order, strides and scaled bounds are left to isl") {
  ctx_holder h;
  auto none = [&](const char* text, const ranges& r) {
    INFO(text);
    isl::set s = isl::manage(isl_set_read_from_str(h.ctx, text));
    CHECK_FALSE(box_origin_on_box(s, r));
  };
  none("[t0] -> { [i] : i >= t0 and i >= 3 and i <= 10 }", {{0, 5}});
  none("[t0] -> { [i] : exists e : i = 2e and t0 <= i <= 8 }", {{0, 5}});
  none("[t0] -> { [i] : 2i >= t0 and i <= 8 }", {{0, 5}});
  none("[t0] -> { [i, j] : i >= j and 0 <= j <= 3 and i <= 8 + t0 }", {{0, 5}});
  none("[t0] -> { [i] : 0 <= i <= 3 or 6 + t0 <= i <= 9 }", {{0, 5}});
}

TEST_CASE("box divisions: existential variables the box fixes are replaced, and the set is the same on the box") {
  ctx_holder h;
  auto check = [&](const char* text, const ranges& box, bool removed) {
    INFO(text);
    isl::set s = isl::manage(isl_set_read_from_str(h.ctx, text));
    isl::set out = without_box_divs(s, box);
    CHECK((isl_set_involves_locals(out.get()) != isl_bool_true) == removed);
    // Equal on the box.
    isl_set* b = isl_set_universe(isl_set_get_space(s.get()));
    size_t np = static_cast<size_t>(isl_set_dim(s.get(), isl_dim_param));
    for (size_t i = 0; i < box.size(); ++i) {
      isl_dim_type t = i < np ? isl_dim_param : isl_dim_set;
      unsigned pos = static_cast<unsigned>(i < np ? i : i - np);
      if (box[i].first != INT64_MIN) b = isl_set_lower_bound_si(b, t, pos, static_cast<int>(box[i].first));
      if (box[i].second != INT64_MAX) b = isl_set_upper_bound_si(b, t, pos, static_cast<int>(box[i].second));
    }
    isl::set on_box = isl::manage(b);
    CHECK(isl_set_is_equal(out.intersect(on_box).get(), s.intersect(on_box).get()) == isl_bool_true);
  };
  // One value: the tile's first element.
  check("[t1] -> { [i0, i1] : (i0) mod 513 = 0 and -513t1 < i0 <= 512 and 0 <= i0 and 0 <= i1 <= 3 }", {{0, 1}, {0, 512}, {0, 3}},
        true);
  // Two values (split): the tile's last element, and all but the first with the initial one.
  check("[t1] -> { [i0] : (1 + i0) mod 513 = 0 and 0 <= i0 <= 512 and i0 <= 1024 - 513t1 }", {{0, 1}, {0, 512}}, true);
  check("[t1] -> { [i0] : 0 <= i0 <= 512 and i0 > -513t1 and 513*floor((-1 + i0)/513) >= -512 + i0; [0] : t1 = 0 }",
        {{0, 1}, {0, 512}}, true);
  // Three values or more, and an unbounded dimension: kept.
  check("{ [i0] : (i0) mod 4 = 0 and 0 <= i0 <= 15 }", {{0, 15}}, false);
  check("{ [i0, i1] : (i1) mod 4 = 0 and 0 <= i0 <= 3 }", {{0, 3}, {INT64_MIN, INT64_MAX}}, false);
}
