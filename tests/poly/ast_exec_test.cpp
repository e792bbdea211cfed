// The interpreter's translation of isl's AST (src/poly/ast_exec.hpp): affine coordinates and
// bounds become one sum each, in the same order of instances, and their arithmetic stays checked.
#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include <sadsl/sadsl.hpp>

#include "../../src/poly/ast_exec.hpp"

using namespace sadsl;

namespace {

const ast_exec::node* first_call(const ast_exec::node& n) {
  if (n.kind == ast_exec::node_kind::call) return &n;
  for (const auto& c : n.children)
    if (const auto* found = first_call(c)) return found;
  return nullptr;
}

}  // namespace

TEST_CASE("ast_exec: a tiled schedule's coordinates are affine sums, its instances in order") {
  kernel k("k");
  param N = k.param("N", 10);
  auto A = k.output<int32_t>("A", {N});
  loop i("i", N);
  A(i) = 1;
  program p = build_program(k);
  // Tiles of 4, then the point loop: the original order, with the coordinate 4 * c0 + c1.
  isl::schedule tiled(isl::ctx(k.ctx()),
                      "{ domain: \"[N] -> { S0[i] : 0 <= i < N }\", child: { schedule: \"[N] -> [{ S0[i] -> "
                      "[(floor((i)/4))] }, { S0[i] -> [((i) mod 4)] }]\" } }");
  ast_exec::tree t = ast_exec::translate(tiled, p.context(), {{"N", 10}}, [](const std::string&) { return 0; });
  const ast_exec::node* call = first_call(t.root);
  REQUIRE(call != nullptr);
  REQUIRE(call->args.size() == 1);
  CHECK(call->args[0].op == ast_exec::int_op::affine);
  CHECK(call->args[0].terms.size() == 2);
  std::vector<int64_t> order;
  ast_exec::execute(t, [&](int, const int64_t* coordinates, const ast_exec::call_site&) { order.push_back(coordinates[0]); });
  CHECK(order == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("ast_exec: an affine sum that leaves 64 bits is an internal error") {
  ast_exec::int_expr e;
  e.op = ast_exec::int_op::affine;
  e.value = 1;
  e.terms = {{0, std::numeric_limits<int64_t>::max() / 2}};
  CHECK(ast_exec::evaluate(e, {2}) == std::numeric_limits<int64_t>::max());
  CHECK_THROWS_AS(ast_exec::evaluate(e, {3}), internal_error);
  CHECK_THROWS_WITH(ast_exec::evaluate(e, {3}),
                    "interpreter: 64-bit overflow in a multiplication while evaluating a schedule expression");
  e.value = 2;
  CHECK_THROWS_WITH(ast_exec::evaluate(e, {2}),
                    "interpreter: 64-bit overflow in an addition while evaluating a schedule expression");
}
