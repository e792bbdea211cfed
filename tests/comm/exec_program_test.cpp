// The executor's compiled expressions (src/comm/exec_program.hpp): a guard compiled as a
// conjunction or disjunction of affine comparisons evaluates as its postfix code does, at every
// tested slot value, and the guards of real module programs take that form.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/sadsl.hpp>

#include "../../src/comm/exec_program.hpp"
#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

struct guard_count {
  int conditions = 0;      // expressions with a condition form
  int checked = 0;         // evaluations compared with their code
  std::string difference;  // the first evaluation that differs from its code
};

// Compares each condition-form expression under n with its code at `samples` random slot values
// around the parts' real ones (-3 .. 20: tile and PE coordinates, iterators, their edges).
void check_expr(const exec::iexpr& e, int slots, std::mt19937& random, guard_count& count) {
  if (e.condition.empty()) return;
  if (e.affine) count.difference = "an expression both affine and a condition";
  ++count.conditions;
  std::uniform_int_distribution<int64_t> value(-3, 20);
  std::vector<int64_t> s(static_cast<size_t>(slots));
  for (int sample = 0; sample < 100; ++sample) {
    for (auto& x : s) x = value(random);
    // Near-edge values make equalities true often enough to matter.
    if (sample % 2 == 0)
      for (auto& x : s) x = x % 2 == 0 ? 0 : x;
    int64_t got = exec::evaluate(e, s.data()), want = exec::run_code(e, s.data());
    if (got != want && count.difference.empty())
      count.difference = "an expression of " + std::to_string(e.code.size()) + " instructions is " +
                         std::to_string(got) + ", its code " + std::to_string(want);
    ++count.checked;
  }
}

void check_node(const exec::node& n, const exec::compiled_part& p, std::mt19937& random, guard_count& count) {
  for (const auto* e : {&n.init, &n.cond, &n.inc, &n.bound}) check_expr(*e, p.slots, random, count);
  for (const auto& c : n.children) check_node(c, p, random, count);
}

// Every `stride`-th design of k.
guard_count check_kernel(kernel k, size_t stride) {
  guard_count count;
  std::mt19937 random(5);
  std::vector<design> all = designs(k);
  for (size_t i = 0; i < all.size(); i += stride) {
    const design& d = all[i];
    INFO(k.name() << " " << d.name());
    architecture a = build_architecture(d, {tiling(d, tiling_shape::non_divisor), {}});
    for (const auto& m : a.modules)
      for (const auto& part : m.parts) {
        exec::compiled_part p = exec::compile_part(part, a.design->tile_order.size(), m.index_dims.size());
        check_node(p.root, p, random, count);
        for (const auto& b : p.blocks)
          for (const auto& op : b.ops) {
            if (op.has_when) check_expr(op.when, p.slots, random, count);
            for (const auto& x : op.index) check_expr(x, p.slots, random, count);
          }
      }
  }
  return count;
}

}  // namespace

TEST_CASE("executor: guards compiled as affine comparisons evaluate as their code (TTMc, uniformized LU)") {
  kernel ttmc = catalog::ttmc();
  for (auto [name, v] : {std::pair{"I", 6}, {"J", 7}, {"K", 8}, {"L", 9}, {"M", 10}}) ttmc.get_param(name).set(v);
  guard_count t = check_kernel(ttmc, 8);
  CHECK(t.difference == "");
  CHECK(t.conditions > 0);  // the tile's first iteration guards of the init statement
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(9);
  guard_count l = check_kernel(lu, 3);
  CHECK(l.difference == "");
  CHECK(l.conditions > 0);  // the triangular domain's guards
}
