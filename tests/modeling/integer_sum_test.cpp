// Resource totals collected by cost (modeling/integer_sum.hpp): fewer operations, the same value
// as the terms added one by one at integer points.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "../../src/modeling/integer_sum.hpp"
#include "sadsl/model/expr.hpp"

using namespace sadsl::model;

namespace {

// The operations of `e` (each shared node once).
std::size_t operations(const expr& e, std::vector<const void*>& seen) {
  if (e.kind() == op::constant || e.kind() == op::parameter) return 0;
  for (const void* s : seen)
    if (s == e.identity()) return 0;
  seen.push_back(e.identity());
  std::size_t n = 1;
  for (std::size_t i = 0; i < operand_count(e.kind()); ++i) n += operations(e.operand(i), seen);
  return n;
}

}  // namespace

TEST_CASE("an integer sum collects equal costs and equal counts, with the value of the plain sum", "[modeling]") {
  expr a = expr::parameter(0, "a"), b = expr::parameter(1, "b"), c = expr::parameter(2, "c");
  expr bits = max(c - expr(64), expr(0)) * c * expr(32), block = ceil_div(a * c, expr(512));
  std::vector<std::pair<expr, expr>> terms = {{a, bits}, {b * expr(2), block}, {expr(1), bits}, {a, block},
                                              {a / b, bits}, {expr(1), expr(300)}, {a, bits}, {c, expr(0)},
                                              {expr(0), block}, {expr(3), bits}};
  sadsl::modeling::integer_sum collected;
  expr plain = 0;
  for (const auto& [count, each] : terms) {
    collected.add(count, each);
    plain = plain + count * each;
  }
  collected.add(b);  // x 1
  plain = plain + b;
  expr total = collected.total();
  std::vector<const void*> seen_total, seen_plain;
  // bits x (2a + a / b + 4) + block x (2b + a) + 300 + b: 17 operations (6 of them bits and
  // block) where the plain sum has 26 (c x 0 and 0 x block among them: x 0 is not folded).
  CHECK(to_string(total) == "(2 * a + a / b + 4) * (max(c - 64, 0) * c * 32) + (b * 2 + a) * ceil_div(a * c, 512) + 300 + b");
  CHECK(operations(total, seen_total) == 17);
  CHECK(operations(plain, seen_plain) == 26);
  std::mt19937_64 random(3);
  for (int n = 0; n < 2000; ++n) {
    double bv = std::uniform_int_distribution<int>(1, 64)(random);
    double point[] = {bv * std::uniform_int_distribution<int>(0, 512)(random), bv,
                      double(std::uniform_int_distribution<int>(0, 4096)(random))};
    REQUIRE(evaluate(total, point) == evaluate(plain, point));
  }
  CHECK(sadsl::modeling::integer_sum().total().is_constant(0));
}
