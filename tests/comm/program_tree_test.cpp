// Module programs as trees (program_tree.hpp): converted from isl's AST node for node, and
// printed in the layout of isl's C printer.
#include <catch2/catch.hpp>

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <cstdlib>
#include <string>

#include <sadsl/comm/program_tree.hpp>

using namespace sadsl;

namespace {

struct generated {
  program_node program;
  std::string isl_text;
};

generated generate(isl_ctx* ctx, const char* schedule, const char* context) {
  isl_ast_build* build = isl_ast_build_from_context(isl_set_read_from_str(ctx, context));
  isl_ast_node* root = isl_ast_build_node_from_schedule_map(build, isl_union_map_read_from_str(ctx, schedule));
  isl_ast_build_free(build);
  char* text = isl_ast_node_to_C_str(root);
  generated out{program_from_isl(isl::manage(root)), text};
  std::free(text);
  return out;
}

}  // namespace

TEST_CASE("program tree: a loop, a guard and a sequence convert node for node") {
  isl_ctx* ctx = isl_ctx_alloc();
  {
    auto g = generate(ctx,
                      "[t] -> { S0[i, 0] -> [i, 0, 0] : 0 <= i <= 3 and t = 0; S1[i, j] -> [i, j, 1] : 0 <= i <= 3 and "
                      "0 <= j <= 5 }",
                      "[t] -> { : 0 <= t <= 1 }");
    const program_node& outer = g.program;
    REQUIRE(outer.what == program_node::kind::loop);
    CHECK(outer.iterator == "c0");
    const program_node& seq = outer.body.at(0);
    REQUIRE(seq.what == program_node::kind::sequence);
    REQUIRE(seq.body.size() == 2);
    const program_node& guard = seq.body[0];
    REQUIRE(guard.what == program_node::kind::guard);
    REQUIRE(guard.body.size() == 1);
    CHECK(guard.body[0].what == program_node::kind::call);
    CHECK(guard.body[0].block == -1);  // not annotated by the architecture builder
    const program_node& inner = seq.body[1];
    REQUIRE(inner.what == program_node::kind::loop);
    CHECK(inner.iterator == "c1");
    CHECK(inner.body.at(0).what == program_node::kind::call);
    CHECK(program_text(g.program) == g.isl_text);
    CHECK(program_text(g.program) ==
          "for (int c0 = 0; c0 <= 3; c0 += 1) {\n"
          "  if (t == 0)\n"
          "    S0(c0, 0);\n"
          "  for (int c1 = 0; c1 <= 5; c1 += 1)\n"
          "    S1(c0, c1);\n"
          "}\n");
  }
  isl_ctx_free(ctx);
}

TEST_CASE("program tree: its text has the layout of isl's C printer (else-if chains, sequences in braces)") {
  isl_ctx* ctx = isl_ctx_alloc();
  {
    // A guard with else branches (the parameter picks one statement) and a top-level sequence.
    auto chain = generate(ctx, "[p] -> { A[] -> [0] : p = 0; B[] -> [0] : p = 1; C[] -> [0] : p = 2 }",
                          "[p] -> { : 0 <= p <= 2 }");
    CHECK(program_text(chain.program) == chain.isl_text);
    CHECK(program_text(chain.program) ==
          "if (p == 2) {\n  C();\n} else if (p == 1) {\n  B();\n} else {\n  A();\n}\n");
    auto seq = generate(ctx, "[n] -> { A[i] -> [0, i] : 0 <= i < n; B[i] -> [1, i] : 0 <= i < 2n }", "[n] -> { : n >= 1 }");
    CHECK(seq.program.what == program_node::kind::sequence);
    CHECK(program_text(seq.program) == seq.isl_text);
    auto nested = generate(ctx, "[n] -> { A[i, j] -> [i, j] : 0 <= i < n and 0 <= j <= i and (i + j) mod 2 = 0 }",
                           "[n] -> { : n >= 1 }");
    CHECK(program_text(nested.program) == nested.isl_text);  // a stride of 2
    CHECK(program_text(nested.program).find("c1 += 2") != std::string::npos);
  }
  isl_ctx_free(ctx);
}
