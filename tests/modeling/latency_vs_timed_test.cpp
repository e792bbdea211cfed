// The compiler-built models' latency against the timed simulation (simulate_timed, the referee):
// the bound is 2% on every tested design. Each row builds the architecture at the point,
// runs it on random data with the default timing (II 1, depth 0, 64 B/cycle per DRAM port) and
// evaluates the model there. SADSL_LATENCY_TABLE=1 prints the rows as the markdown table of
// docs/modeling.md ("Latency against the timed simulation").
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sadsl/catalog/kernels.hpp"
#include "sadsl/comm/timed_simulation.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "sadsl/poly/program.hpp"

using namespace sadsl;

namespace {

struct named_point {
  std::string label;  // what the point exercises
  std::map<std::string, int64_t> factors;
};

struct row {
  std::string design, label, point, bound;
  double model = 0;
  int64_t timed = 0;
  double error() const { return (model - static_cast<double>(timed)) / static_cast<double>(timed); }
};

// The point's factors of design d (a design has only the factors of its own loops and levels).
design_point point_of(const design& d, const named_point& p, std::string& text) {
  std::map<std::string, int64_t> own;
  for (const auto& f : d.factors) {
    std::string n = d.name_of(f.id);
    if (p.factors.count(n)) own[n] = p.factors.at(n);
  }
  for (const auto& [n, v] : own) text += fmt::format("{}{}={}", text.empty() ? "" : " ", n, v);
  return point_by_name(d, own);
}

row compare(const design& d, const model::design_model& m, const named_point& p) {
  const kernel& k = d.band->source->kernel();
  row r{d.name(), p.label, "", "", 0, 0};
  design_point point = point_of(d, p, r.point);
  architecture a = build_architecture(d, {point, {}, false});
  buffers data(k);
  data.randomize_inputs(1);
  timed_result t = simulate_timed(a, data);
  REQUIRE(t.ok());
  std::vector<double> x = model_point(m, point, k);
  model::metrics got = model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9});
  r.model = got.latency;
  r.timed = t.cycles;
  // The PE array is the bottleneck when its own main is the model's.
  r.bound = model::evaluate(model::cost(m.modules.front().main), x) >= got.latency_main ? "PE" : "I/O";
  return r;
}

void print_table(const std::vector<row>& rows) {
  if (!std::getenv("SADSL_LATENCY_TABLE")) return;
  std::printf("| design | point | bound | model | timed | error |\n|---|---|---|---:|---:|---:|\n");
  for (const auto& r : rows)
    std::printf("| `%s` | %s: %s | %s | %.0f | %lld | %+.2f%% |\n", r.design.c_str(), r.label.c_str(), r.point.c_str(),
                r.bound.c_str(), r.model, static_cast<long long>(r.timed), 100 * r.error());
}

}  // namespace

TEST_CASE("MM models: latency within 2% of the timed simulation, all 18 designs at three points", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(48);
  std::vector<named_point> points = {
      // First-level factors that do not divide 48 (padded to 60 x 66), C's PE box 5 x 11: packing 1.
      {"non-divisor", {{"i_t1", 30}, {"j_t1", 22}, {"k_t1", 16}, {"i_t2", 5}, {"j_t2", 11}, {"k_t2", 4}}},
      // Large tiles, a 6 x 6 array: the PEs' 768 cycles per tile hide every transfer.
      {"PE-bound", {{"i_t1", 48}, {"j_t1", 48}, {"k_t1", 24}, {"i_t2", 8}, {"j_t2", 8}, {"k_t2", 2}}},
      // 32 cycles of PE work per tile, 144-word C tiles: the I/O chains lead.
      {"I/O-bound", {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 16}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 8}}},
  };
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    model::design_model m = performance_model(d);
    for (const auto& p : points) rows.push_back(compare(d, m, p));
  }
  print_table(rows);
  CHECK(rows.size() == 54);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(std::abs(r.error()) <= 0.02);
  }
}

TEST_CASE("MM models: a space loop of one PE builds another architecture than the model's", "[modeling]") {
  // k_t1 = k_t2: one PE along k. The template has two or more PEs along every space loop, so the
  // model of a design with k in space describes partial sums flowing between k-PEs (and reloaded
  // through DRAM when k is not the innermost tile loop); with one PE along k there is no such
  // flow. Printed, not asserted: the tuner should not pick such points for these designs.
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(48);
  named_point p{"one k-PE", {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 8}}};
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    bool k_space = false;
    for (const auto& l : d.space) k_space = k_space || l.name() == "k";
    if (k_space && d.space.size() == 2) rows.push_back(compare(d, performance_model(d), p));
  }
  print_table(rows);
  CHECK(rows.size() == 6);
}
