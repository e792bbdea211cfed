// A statement as the program generator sees it (src/comm/loop_statement.hpp): the integer
// analysis gives the loops isl's gist and inversion give, on schedules of the shapes module parts
// have, and gives up (not_simple) where a dimension keeps two bounds.
#include <catch2/catch.hpp>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

#include <optional>
#include <string>

#include "../../src/comm/loop_statement.hpp"

using namespace sadsl::comm_detail;

namespace {

// Equal on the statement's domain (points and context).
bool same_on(const isl::aff& a, const isl::aff& b, const isl::set& domain) {
  isl::pw_aff pa = isl::manage(isl_pw_aff_intersect_domain(isl_pw_aff_from_aff(a.copy()), domain.copy()));
  isl::pw_aff pb = isl::manage(isl_pw_aff_intersect_domain(isl_pw_aff_from_aff(b.copy()), domain.copy()));
  return isl_pw_aff_is_equal(pa.get(), pb.get()) == isl_bool_true;
}

// The integer analysis agrees with isl's on every dimension, the points and the iterators.
void check_like_isl(isl_ctx* ctx, const char* schedule, const char* context) {
  INFO(schedule);
  isl::map m = isl::manage(isl_map_read_from_str(ctx, schedule));
  isl::set c = isl::manage(isl_set_read_from_str(ctx, context));
  std::optional<statement> integers = analyse_with_integers(m, c);
  REQUIRE(integers);
  statement& mine = *integers;
  statement reference = analyse_with_isl(m, c);
  CHECK(isl_set_is_equal(mine.domain.get(), reference.domain.get()) == isl_bool_true);
  isl::pw_multi_aff a = isl::manage(isl_pw_multi_aff_intersect_domain(mine.iterators.copy(), mine.domain.copy()));
  isl::pw_multi_aff b = isl::manage(isl_pw_multi_aff_intersect_domain(reference.iterators.copy(), reference.domain.copy()));
  CHECK(isl_pw_multi_aff_is_equal(a.get(), b.get()) == isl_bool_true);
  REQUIRE(mine.fixed.size() == reference.fixed.size());
  for (size_t d = 0; d < mine.fixed.size(); ++d) {
    INFO("dimension " << d);
    CHECK(mine.fixed[d] == reference.fixed[d]);
    CHECK(mine.defined[d] == reference.defined[d]);
    REQUIRE(mine.lower[d].has_value() == reference.lower[d].has_value());
    if (mine.lower[d]) {
      CHECK(same_on(*mine.lower[d], *reference.lower[d], mine.domain));
      CHECK(same_on(*mine.upper[d], *reference.upper[d], mine.domain));
    }
  }
  CHECK(mine.guards.size() == reference.guards.size());
}

}  // namespace

TEST_CASE("loop statement: integer analysis gives isl's loops on module part schedules") {
  isl_ctx* ctx = isl_ctx_alloc();
  const char* pe = "[I, t0, t1, p0] -> { : I = 1026 and 0 <= t0 <= 1 and 0 <= t1 <= 1 and 0 <= p0 <= 2 }";
  // A PE's accumulator initialisation: fixed dimensions, a bound implied by another on the box of
  // tile and PE indices (i1 >= 0 implies i1 >= -513t0 - 171p0), a problem size as its value.
  check_like_isl(ctx,
                 "[I, t0, t1, p0] -> { S0[i0, i1, i2] -> [o0, o1, o2, o3] : I = 1026 and i0 = 0 and i2 = 0 and "
                 "o0 = 0 and o1 = i1 and o2 = 0 and o3 = 0 and i1 >= 0 and i1 >= -513t0 - 171p0 and "
                 "i1 <= 1025 - 513t0 - 171p0 and i1 <= 170 }",
                 pe);
  // A transfer along a chain: the instance's first dimension is a schedule dimension bounded by
  // a PE index, the others bounded by it; a guard on the tile index.
  check_like_isl(ctx,
                 "[I, t0, t1, p0] -> { xfer[q, i1, i2] -> [o0, o1, o2] : I = 1026 and t1 = 1 and o0 = q and o1 = i1 and "
                 "o2 = i2 and q >= 0 and q <= 2 and q >= p0 and i1 >= 513t0 + 171q and i1 >= 0 and i1 <= 1025 and "
                 "i1 <= 170 + 513t0 + 171q and i2 >= 0 and i2 <= I - 1 }",
                 pe);
  // A dimension defined by a parameter (a drain at its own PE): no loop, and the iterator is
  // written with the parameter.
  check_like_isl(ctx,
                 "[I, t0, t1, p0] -> { d[q, i] -> [o0, o1] : I = 1026 and q = p0 and o0 = p0 and o1 = i and "
                 "0 <= i <= 170 }",
                 pe);
  isl_ctx_free(ctx);
}

TEST_CASE("loop statement: a dimension with two bounds the box cannot order is left to isl") {
  isl_ctx* ctx = isl_ctx_alloc();
  {
    isl::map m = isl::manage(isl_map_read_from_str(ctx, "[n, m] -> { S[i] -> [i] : 0 <= i < n and i < m }"));
    isl::set c = isl::manage(isl_set_read_from_str(ctx, "[n, m] -> { : 1 <= n <= 8 and 1 <= m <= 8 }"));
    CHECK_FALSE(analyse_with_integers(m, c));
    CHECK_THROWS_AS(analyse(m, c), not_simple);
    // Once the context orders them, one bound remains.
    isl::set ordered = isl::manage(isl_set_read_from_str(ctx, "[n, m] -> { : 1 <= n <= 4 and 5 <= m <= 8 }"));
    std::optional<statement> found = analyse_with_integers(m, ordered);
    REQUIRE(found);
    statement& s = *found;
    REQUIRE(s.upper[0]);
    isl::aff n_minus_1 = isl::manage(isl_aff_read_from_str(ctx, "[n, m] -> { [i] -> [(n - 1)] }"));
    CHECK(isl_aff_plain_is_equal(s.upper[0]->get(), n_minus_1.get()) == isl_bool_true);
  }
  isl_ctx_free(ctx);
}
