// The packing factor of a network's chunks and its inverse (modeling/symbols.hpp), against the
// largest power of two that divides every offset, found one by one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>

#include "../../src/modeling/symbols.hpp"
#include "sadsl/model/expr.hpp"

using model_expr = sadsl::model::expr;

TEST_CASE("packing: the largest power of two dividing every offset, and exactly its inverse", "[modeling]") {
  std::vector<model_expr> offsets{model_expr::parameter(0, "a"), model_expr::parameter(1, "b"),
                                  model_expr(3.0) * model_expr::parameter(1, "b"),
                                  model_expr::parameter(0, "a")};  // a repeated offset counts once
  std::mt19937_64 random(5);
  for (int bits : {8, 16, 32, 64}) {
    auto [pack, inverse] = sadsl::modeling::symbols::pack_and_inverse(offsets, bits);
    int64_t widest = 512 / bits;
    for (int n = 0; n < 300; ++n) {
      int64_t a = std::uniform_int_distribution<int64_t>(1, 200)(random), b = std::uniform_int_distribution<int64_t>(1, 200)(random);
      int64_t want = 1;
      while (want * 2 <= widest && a % (want * 2) == 0 && (3 * b) % (want * 2) == 0 && b % (want * 2) == 0) want *= 2;
      std::vector<double> x{double(a), double(b)};
      INFO("bits " << bits << " a " << a << " b " << b);
      CHECK(sadsl::model::evaluate(pack, x) == double(want));
      CHECK(sadsl::model::evaluate(inverse, x) == 1.0 / double(want));
    }
  }
}
