// The architecture executor, the second oracle: every dataflow x tile order of the benchmark
// kernels runs as a network of processes and computes what the reference interpreter computes —
// bit for bit, or within a relative 1e-5 where the architecture reorders a float reduction (SIMD
// lanes of a reduction inside CNN's p and q loops, as AutoSA orders them).
//
// Each design runs with its module programs from sadsl's own generator (where it applies,
// src/comm/loop_generator.hpp), and every MM, FIR, GEMV and LU design, and one CNN, MTTKRP and
// TTMc design in three (of each three in a row, each in turn; isl's generator takes most of the
// time), also with all of them from isl's AST generator; both must equal the interpreter and
// move the same tokens through every FIFO and the same bytes to and from DRAM.
//
// Here at the non-divisor tiling (partial tiles, zero padding or guards); CNN at the wide one
// (SIMD > 1: the reordered reductions). The code-generation
// sweep (tests/codegen/csim_sweep_test.cpp) runs the executor on every design at all three tilings
// (non-divisor; SIMD > 1 and wide words; all ones), checks its outputs the same way and compares
// its FIFO token counts with the generated code's.
#include <catch2/catch.hpp>

#include <isl/ast.h>
#include <isl/id.h>

#include <functional>
#include <map>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"
#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

struct sweep_result {
  int runs = 0, isl_runs = 0, reordered = 0;
  int parts = 0, own_parts = 0;  // module parts, and those sadsl's own generator made
};

// `isl_one_in_three`: only designs i with (i + i / 3) % 3 == 0 are also built by isl.
sweep_result sweep(kernel k, std::initializer_list<std::pair<const char*, int64_t>> sizes,
                   tiling_shape shape = tiling_shape::non_divisor, bool isl_one_in_three = false) {
  for (auto [name, v] : sizes) k.get_param(name).set(v);
  buffers want(k);
  want.randomize_inputs(11);
  run(build_program(k), want);
  sweep_result r;
  std::vector<design> all = designs(k);
  for (size_t i = 0; i < all.size(); ++i) {
    const design& d = all[i];
    INFO(k.name() << " " << d.name());
    architecture_point p{tiling(d, shape), {}};
    std::vector<architecture> built{build_architecture(d, p)};
    if (!isl_one_in_three || (i + i / 3) % 3 == 0) {
      p.isl_programs = true;
      built.push_back(build_architecture(d, p));
      ++r.isl_runs;
    }
    std::vector<execution_result> results;
    for (const architecture& arch : built) {
      buffers got(k);
      got.randomize_inputs(11);
      results.push_back(execute(arch, got));
      REQUIRE(results.back().deadlock == "");
      CHECK(output_difference(k, got, want, arch.reduction_reordered ? 1e-5 : 0) == "");
    }
    for (size_t j = 1; j < results.size(); ++j) {
      CHECK(results[0].fifo_tokens == results[j].fifo_tokens);
      CHECK(results[0].dram_bytes_read == results[j].dram_bytes_read);
      CHECK(results[0].dram_bytes_written == results[j].dram_bytes_written);
      CHECK(results[0].phases == results[j].phases);
    }
    const architecture& a = built[0];
    ++r.runs;
    r.reordered += a.reduction_reordered;
    for (const auto& m : a.modules)
      for (const auto& part : m.parts) {
        ++r.parts;
        r.own_parts += !part.isl_program;
      }
    for (size_t j = 1; j < built.size(); ++j)
      for (const auto& m : built[j].modules)
        for (const auto& part : m.parts) CHECK(part.isl_program);
  }
  return r;
}

}  // namespace

TEST_CASE("executor: every MM design (fp32, int16) at a non-divisor tiling equals the interpreter") {
  auto floats = sweep(catalog::mm(), {{"I", 9}, {"J", 11}, {"K", 12}});
  CHECK(floats.runs == 18);
  // sadsl's own generator makes every MM module program (isl: triangular loops, e.g. LU's).
  CHECK(floats.parts > 0);
  CHECK(floats.own_parts == floats.parts);
  auto ints = sweep(mm_typed("mm_int16", elem_type::i16), {{"I", 7}, {"J", 10}, {"K", 12}});
  CHECK(ints.runs == 18);
  CHECK(ints.reordered == 0);
}

TEST_CASE("executor: every CNN (wide tiling), MTTKRP and TTMc design equals the interpreter") {
  auto cnn = sweep(catalog::cnn(), {{"O", 4}, {"R", 5}, {"C", 4}, {"I", 4}, {"K", 3}}, tiling_shape::wide, true);
  CHECK(cnn.runs == 30);
  CHECK(cnn.isl_runs == 10);
  CHECK(cnn.reordered > 0);  // SIMD over the input channels, inside p and q
  auto mttkrp = sweep(catalog::mttkrp(), {{"I", 5}, {"J", 4}, {"K", 6}, {"L", 3}}, tiling_shape::non_divisor, true);
  CHECK(mttkrp.runs == static_cast<int>(designs(catalog::mttkrp()).size()));
  CHECK(mttkrp.isl_runs >= mttkrp.runs / 3);
  auto ttmc = sweep(catalog::ttmc(), {{"I", 3}, {"J", 4}, {"K", 3}, {"L", 4}, {"M", 3}}, tiling_shape::non_divisor, true);
  CHECK(ttmc.runs == static_cast<int>(designs(catalog::ttmc()).size()));
  CHECK(ttmc.isl_runs >= ttmc.runs / 3);
}

TEST_CASE("executor: every FIR, GEMV and uniformized LU design at a non-divisor tiling equals the interpreter") {
  CHECK(sweep(catalog::fir(), {{"N", 13}, {"T", 5}}).runs == static_cast<int>(designs(catalog::fir()).size()));
  CHECK(sweep(catalog::gemv(), {{"I", 10}, {"J", 9}}).runs == static_cast<int>(designs(catalog::gemv()).size()));
  CHECK(sweep(catalog::lu_uniform(), {{"N", 6}}).runs == 18);
}

// One tile per loop: the last PE along k (j) computes no V (U_tmp), so the dummy sink at the end
// of that chain must drop nothing; it used to wait for as many tokens as that PE reads (deadlock).
TEST_CASE("executor: every uniformized LU design with one tile per loop (AutoSA's LU array) equals the interpreter") {
  CHECK(sweep(catalog::lu_uniform(), {{"N", 5}}, tiling_shape::whole).runs == 18);
}

// Guarded reductions over triangular domains whose partial sums stay in the PE across k tiles: a
// partial tile touches fewer elements of y, and the buffer must keep each element where the
// earlier tiles left it.
TEST_CASE("executor: every causal convolution and transposed TRMV design equals the interpreter") {
  for (auto shape : {tiling_shape::non_divisor, tiling_shape::whole}) {  // wide: SIMD > 1, refused when guarded
    INFO("shape " << static_cast<int>(shape));
    CHECK(sweep(catalog::causal_conv(), {{"N", 11}, {"K", 4}}, shape).runs == 6);
    CHECK(sweep(catalog::trmv_t(), {{"N", 9}}, shape).runs == static_cast<int>(designs(catalog::trmv_t()).size()));
  }
}

TEST_CASE("executor: a guarded partial sum kept in the PE across k tiles stays in place (causal convolution)") {
  kernel k = catalog::causal_conv();
  k.get_param("N").set(11);
  k.get_param("K").set(4);
  design d = find_design(k, "[i] <[i],k>");
  design_point p;
  for (const auto& f : d.factors) {
    std::string n = d.name_of(f.id);
    p[f.id] = n == "i_t1" ? 9 : n == "i_t2" ? 3 : 1;
  }
  architecture a = build_architecture(d, {p, {}});
  buffers data(k);
  std::vector<float> x(11);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(1 << i);
  data.set("x", x);
  data.set("h", std::vector<float>{1, 1000, 100000, 1e7});
  REQUIRE(execute(a, data).deadlock == "");
  const auto& y = data.get<float>("y");
  CHECK(y[1] == 1002.0f);    // x(1) h(0) + x(0) h(1): the k = 0 term was lost
  CHECK(y[2] == 102004.0f);  // x(2) + x(1) h(1) + x(0) h(2)
  CHECK(y[4] == 20408016.0f);  // 16 + 8 x 1000 + 4 x 100000 + 2 x 1e7
}

TEST_CASE("executor: a program that uses an iterator outside its loop is refused, not run on garbage") {
  kernel k = catalog::mm();
  for (const char* p : {"I", "J", "K"}) k.get_param(p).set(9);
  const design d = designs(k).front();
  architecture a = build_architecture(d, {tiling(d, tiling_shape::non_divisor), {}});
  std::function<program_node*(program_node&)> first_loop = [&](program_node& n) -> program_node* {
    if (n.what == program_node::kind::loop) return &n;
    for (auto& c : n.body)
      if (program_node* l = first_loop(c)) return l;
    return nullptr;
  };
  program_node* found = first_loop(a.modules.front().parts.front().program);
  REQUIRE(found);
  program_node& loop = *found;
  // The first loop of the PE's compute part starts at an iterator no loop around defines.
  isl_ctx* ctx = isl_ast_expr_get_ctx(loop.init->get());
  loop.init = isl::manage(isl_ast_expr_from_id(isl_id_alloc(ctx, "c9", nullptr)));
  buffers data(k);
  data.randomize_inputs(1);
  CHECK_THROWS_WITH(execute(a, data), Catch::Contains("the program of part compute uses c9 where it has no value"));
}

namespace shared_reads {

// The tokens through the FIFOs of tensors A and B (their networks and PE chains).
std::map<std::string, int64_t> tokens_of_a_and_b(const kernel& k, const design& d, const design_point& p) {
  architecture a = build_architecture(d, {p, {}});
  buffers data(k);
  data.randomize_inputs(5);
  execution_result x = execute(a, data);
  REQUIRE(x.deadlock == "");
  std::map<std::string, int64_t> out;
  for (const auto& [name, tokens] : x.fifo_tokens)
    if (name.find("_A_") != std::string::npos || name.find("_B_") != std::string::npos) out[name] = tokens;
  return out;
}

}  // namespace shared_reads

// Reads that take an earlier read's register (routing's shared reads): MM whose product reads
// A(i, k) twice (zero-padded: A forwarded along chains), and E = A + B at k's last iteration
// beside the if/else MM (guarded: A and B from networks), whose E statement reads A(i, k) and
// B(k, j) where the accumulation reads them. A and B move exactly as in MM alone, and the
// outputs are right.
TEST_CASE("executor: a read of an element an earlier read of the PE iteration holds moves no token of its own") {
  CHECK(sweep(mm_fused_reads(9), {{"N", 9}}).runs == 18);
  CHECK(sweep(mm_init_and_last(9), {{"N", 9}}).runs == 18);
  kernel fused = mm_fused_reads(9), last = mm_init_and_last(9), plain = mm_square(9), init = mm_explicit_init(9);
  for (const auto& [with, without] : {std::pair{&fused, &plain}, std::pair{&last, &init}}) {
    for (const design& d : designs(*with)) {
      INFO(with->name() << " " << d.name());
      design_point p = tiling(d, tiling_shape::non_divisor);
      design alone = find_design(*without, d.name());
      auto want = shared_reads::tokens_of_a_and_b(*without, alone, tiling(alone, tiling_shape::non_divisor));
      CHECK(!want.empty());
      CHECK(shared_reads::tokens_of_a_and_b(*with, d, p) == want);
    }
  }
}
