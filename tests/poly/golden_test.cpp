// Golden dumps of the polyhedral program and dependences of every catalogue kernel, plus the
// dependences paper 002 (table 2) lists for MM. SADSL_UPDATE_GOLDEN=1 rewrites the golden files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {



std::string full_dump(const kernel& k) {
  program p = build_program(k);
  return dump_program(p) + "dependences:\n" + dump_dependences(p, compute_dependences(p)) + "loop nest:\n" +
         dump_schedule_code(p, p.schedule());
}

const dependence& find(const std::vector<dependence>& deps, dep_kind kind, const std::string& tensor,
                       const std::string& source, const std::string& sink) {
  for (const auto& d : deps)
    if (d.kind == kind && d.tensor.name() == tensor && d.source.name() == source && d.sink.name() == sink) return d;
  FAIL("dependence not found");
  return deps.front();
}

}  // namespace

TEST_CASE("golden: catalogue kernels") {
  for (const auto& k : {catalog::mm(), catalog::cnn(), catalog::mttkrp(), catalog::ttmc(), catalog::fir(),
                        catalog::lu(), catalog::lu_uniform()}) {
    INFO(k.name());
    check_golden("poly", k.name(), full_dump(k));
  }
}

TEST_CASE("MM dependences as in paper 002, table 2") {
  kernel k = catalog::mm();
  program p = build_program(k);
  auto deps = compute_dependences(p);
  const auto& flow = find(deps, dep_kind::flow, "C", "S1", "S1");
  CHECK(names_of(flow.loops) == std::vector<std::string>{"i", "j", "k"});
  CHECK(flow.constant_distances() == std::vector<std::vector<int64_t>>{{0, 0, 1}});
  CHECK(find(deps, dep_kind::read, "A", "S1", "S1").constant_distances() == std::vector<std::vector<int64_t>>{{0, 1, 0}});
  CHECK(find(deps, dep_kind::read, "B", "S1", "S1").constant_distances() == std::vector<std::vector<int64_t>>{{1, 0, 0}});
  // The implicit initialization feeds the first accumulation, over the shared loops i and j.
  const auto& init = find(deps, dep_kind::flow, "C", "S0", "S1");
  CHECK(names_of(init.loops) == std::vector<std::string>{"i", "j"});
  CHECK(init.constant_distances() == std::vector<std::vector<int64_t>>{{0, 0}});
  // Exactly one read dependence per reuse direction: A along j, B along i; none for C, which is
  // written (its reuse is a flow dependence).
  CHECK(std::count_if(deps.begin(), deps.end(), [](const dependence& d) { return d.kind == dep_kind::read; }) == 2);
  for (const auto& d : deps) CHECK_FALSE((d.kind == dep_kind::read && d.tensor.name() == "C"));
  CHECK(names_of(p.statement("S1").reduction_loops) == std::vector<std::string>{"k"});
  CHECK(p.statement("S0").record->implicit_init);
}

TEST_CASE("PolyBench LU has non-uniform dependences, the uniformized LU only uniform ones") {
  auto lu = compute_dependences(build_program(catalog::lu()));
  CHECK(std::any_of(lu.begin(), lu.end(), [](const dependence& d) {
    return d.kind == dep_kind::flow && !d.is_uniform() && !d.loops.empty();
  }));
  auto uni = compute_dependences(build_program(catalog::lu_uniform()));
  for (const auto& d : uni) {
    INFO(dep_kind_name(d.kind) << " " << d.source.name() << " -> " << d.sink.name() << " on " << d.tensor.name());
    CHECK(d.is_uniform());
  }
  CHECK(find(uni, dep_kind::flow, "U_tmp", "S4", "S4").constant_distances() == std::vector<std::vector<int64_t>>{{0, 1, 0}});
  CHECK(find(uni, dep_kind::flow, "L_tmp", "S7", "S7").constant_distances() == std::vector<std::vector<int64_t>>{{0, 0, 1}});
}

TEST_CASE("CNN: the reduction loops are i, p and q; shifted reads stay in bounds") {
  program p = build_program(catalog::cnn());
  CHECK(names_of(p.statement("S1").reduction_loops) == std::vector<std::string>{"i", "p", "q"});
  CHECK(names_of(p.statement("S1").loops) == std::vector<std::string>{"o", "r", "c", "i", "p", "q"});
}

TEST_CASE("CNN: reuse directions and the accumulation's piecewise-uniform distances") {
  kernel k = catalog::cnn();
  auto deps = compute_dependences(build_program(k));
  std::vector<std::string> reads;
  for (const auto& d : deps)
    if (d.kind == dep_kind::read) reads.push_back(d.tensor.name() + " " + d.distance_str());
  // cin(r + p, c + q, i) is reused along o only; w(o, p, q, i) along r and along c.
  CHECK(reads == std::vector<std::string>{"cin (1, 0, 0, 0, 0, 0)", "w (0, 1, 0, 0, 0, 0)", "w (0, 0, 1, 0, 0, 0)"});
  // The accumulation into cout steps along q, wraps q into p, and p into i (q, p in [0, K)).
  const auto& acc = find(deps, dep_kind::flow, "cout", "S1", "S1");
  CHECK(acc.is_uniform());
  CHECK(acc.distance_str() == "(0, 0, 0, 0, 0, 1) (0, 0, 0, 0, 1, 1 - K) (0, 0, 0, 1, 1 - K, 1 - K)");
  CHECK(acc.distances[1].component_is(4, 1));
  CHECK_FALSE(acc.distances[1].component_is(5, 1));
}

TEST_CASE("a dependence empty at every valid size is none (a reuse whose pairs need N < 1)") {
  // The reuse relation of x(2) is empty under the context; kept, it was an empty map the band
  // finder could not place (an isl error out of designs(): tests/compute/mapping_errors_test.cpp).
  kernel k = empty_reuse();
  program p = build_program(k);
  std::vector<dependence> deps = compute_dependences(p);
  CHECK(std::none_of(deps.begin(), deps.end(), [](const dependence& d) { return d.kind == dep_kind::read; }));
}
