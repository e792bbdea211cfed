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
  CHECK(isl_set_is_equal(mine.domain().get(), reference.domain().get()) == isl_bool_true);
  isl::pw_multi_aff a = isl::manage(isl_pw_multi_aff_intersect_domain(mine.iterators.copy(), mine.domain().copy()));
  isl::pw_multi_aff b = isl::manage(isl_pw_multi_aff_intersect_domain(reference.iterators.copy(), reference.domain().copy()));
  CHECK(isl_pw_multi_aff_is_equal(a.get(), b.get()) == isl_bool_true);
  REQUIRE(mine.fixed.size() == reference.fixed.size());
  for (size_t d = 0; d < mine.fixed.size(); ++d) {
    INFO("dimension " << d);
    CHECK(mine.fixed[d] == reference.fixed[d]);
    CHECK(mine.defined[d] == reference.defined[d]);
    REQUIRE(mine.lower[d].has_value() == reference.lower[d].has_value());
    if (mine.lower[d]) {
      CHECK(same_on(*mine.lower[d], *reference.lower[d], mine.domain()));
      CHECK(same_on(*mine.upper[d], *reference.upper[d], mine.domain()));
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

TEST_CASE("loop statement: existential variables constant on the box and a union that coalesces are analysed with integers") {
  isl_ctx* ctx = isl_ctx_alloc();
  const char* pe = "[I, J, K, t0, t1, t2, p0] -> { : I = 1026 and J = 1026 and K = 1026 and 0 <= t0 <= 1 and "
                   "0 <= t1 <= 1 and 0 <= t2 <= 1 and 0 <= p0 <= 2 }";
  // MM at a non-divisor tiling (513 = 3 x 171): floor(i2 / 513) is 0 for 0 <= i2 <= 170, so the
  // constraint is i2 <= 170, which the box already gives.
  check_like_isl(ctx,
                 "[I, J, K, t0, t1, t2, p0] -> { S1_r2[i0, i1, i2, i3, 0] -> [i0, i1, i2, i3, 0, 0] : I = 1026 and "
                 "J = 1026 and K = 1026 and 0 <= i0 <= 2 and i1 >= 0 and -513t2 <= i1 <= 1025 - 513t2 and i1 <= 512 and "
                 "i2 >= 0 and -513t0 <= i2 <= 1025 - 513t0 and i2 <= 170 and i3 >= 0 and "
                 "-513t1 - 171i0 <= i3 <= 1025 - 513t1 - 171i0 and i3 <= 170 and 513*floor((i2)/513) >= -170 + i2 }",
                 pe);
  // A reduction's first and last iterations: i1 mod 513 = 0 and (1 + i1) mod 513 = 0 with
  // 0 <= i1 <= 512 fix i1 (0 and 512), a dimension without a loop.
  check_like_isl(ctx,
                 "[I, J, K, t0, t1, t2, p0] -> { S1_r0[i0, i1, i2, i3, 0] -> [i0, i1, i2, i3, 0, 0] : I = 1026 and "
                 "J = 1026 and K = 1026 and (i1) mod 513 = 0 and 0 <= i0 <= 2 and i1 >= 0 and -513t1 < i1 <= 1025 - 513t1 "
                 "and i1 <= 512 and i2 >= 0 and -513t2 - 171p0 <= i2 <= 1025 - 513t2 - 171p0 and i2 <= 170 and i3 >= 0 "
                 "and -513t0 - 171i0 <= i3 <= 1025 - 513t0 - 171i0 and i3 <= 170 }",
                 pe);
  check_like_isl(ctx,
                 "[I, J, K, t0, t1, t2, p0] -> { S1_w[i0, i1, i2, i3, 0] -> [i0, i1, i2, i3, 0, 0] : I = 1026 and "
                 "J = 1026 and K = 1026 and (1 + i1) mod 513 = 0 and 0 <= i0 <= 2 and i1 >= 0 and -513t1 <= i1 <= 1024 - "
                 "513t1 and i1 <= 512 and i2 >= 0 and -513t2 - 171p0 <= i2 <= 1025 - 513t2 - 171p0 and i2 <= 170 and "
                 "i3 >= 0 and -513t0 - 171i0 <= i3 <= 1025 - 513t0 - 171i0 and i3 <= 170 }",
                 pe);
  // FIR at a non-divisor tiling: (4i0 + i2) mod 8 = 0 with 0 <= i0 <= 1 and 0 <= i2 <= 3 pins
  // both to 0 (an implicit equality): no loop over i0, which would double the part's cycles.
  check_like_isl(ctx,
                 "[N, T, t0, t1, p0] -> { S1_r0[i0, i1, i2] -> [i0, i1, i2, 0] : N = 16 and T = 24 and "
                 "(4i0 + i2) mod 8 = 0 and 0 <= p0 <= 1 and 0 <= i0 <= 1 and i1 >= 0 and -8t1 - 4p0 <= i1 <= 15 - 8t1 - "
                 "4p0 and i1 <= 3 and i2 >= 0 and -8t0 - 4i0 < i2 <= 23 - 8t0 - 4i0 and i2 <= 3 }",
                 "[N, T, t0, t1, p0] -> { : N = 16 and T = 24 and 0 <= t0 <= 2 and 0 <= t1 <= 1 and 0 <= p0 <= 1 }");
  // The tile loop's statement as the union of all tiles and the tiles of the first k: one piece.
  check_like_isl(ctx,
                 "[I, J, K, t0, t1, t2, p0] -> { tile[i0, i1, i2] -> [i0, i1, i2] : I = 1026 and J = 1026 and "
                 "K = 1026 and 0 <= i0 <= 1 and 0 <= i1 <= 1 and 0 <= i2 <= 1; tile[i0, i1, 0] -> [i0, i1, 0] : "
                 "I = 1026 and J = 1026 and K = 1026 and 0 <= i0 <= 1 and 0 <= i1 <= 1 }",
                 "[I, J, K, t0, t1, t2, p0] -> { : I = 1026 and J = 1026 and K = 1026 }");
  isl_ctx_free(ctx);
}

TEST_CASE("loop statement: an existential variable that varies, or a union that stays two pieces, is left to isl") {
  isl_ctx* ctx = isl_ctx_alloc();
  {
    isl::set c = isl::manage(isl_set_read_from_str(ctx, "[n] -> { : 1 <= n <= 64 }"));
    // Every fourth i: floor(i / 4) takes 16 values; a stride isl's program generator must handle.
    isl::map strided = isl::manage(isl_map_read_from_str(ctx, "[n] -> { S[i] -> [i] : 0 <= i < 64 and i mod 4 = 0 }"));
    CHECK_FALSE(analyse_with_integers(strided, c));
    isl::map two = isl::manage(isl_map_read_from_str(ctx, "[n] -> { S[i] -> [i] : 0 <= i < 4 or 8 <= i < 12 }"));
    CHECK_FALSE(analyse_with_integers(two, c));
  }
  isl_ctx_free(ctx);
}
