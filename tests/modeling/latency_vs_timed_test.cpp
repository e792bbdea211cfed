// The compiler-built models' latency against the timed simulation (simulate_timed, the referee):
// the bound is 2% on every tested design. Each row builds the architecture at the point,
// runs it on random data with the default timing (II 1, depth 0, 64 B/cycle per DRAM port) and
// evaluates the model there. SADSL_LATENCY_TABLE=1 prints the rows as the markdown table of
// docs/modeling.md ("Latency against the timed simulation").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sadsl/catalog/kernels.hpp"
#include "sadsl/comm/executor.hpp"
#include "sadsl/comm/fifo_depths.hpp"
#include "sadsl/comm/timed_simulation.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/compute/verify.hpp"
#include "sadsl/compute/zero_padding.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "sadsl/poly/program.hpp"
#include "../support/kernels.hpp"
#include "../support/test_support.hpp"
#include "random_point.hpp"

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
  bool legal = true, resources_exact = true;
  std::string ports;  // "" when the model's bytes per DRAM port are the timed run's, else the first difference
  bool partial_sums = false;  // the PEs forward partial sums along a space loop (comm/fifo_depths.hpp)
  int64_t timed_deep = 0;     // the timed run with every FIFO 65,536 deep (partial sums: no input chain stalls)
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

// "" when the model's bytes per DRAM port at x are the bytes the run moved through each tensor's
// port (read and written), and every tensor the run moved has a port in the model.
std::string port_difference(const model::design_model& m, const std::vector<double>& x, const timed_result& t) {
  std::map<std::string, int64_t> moved = t.dram_bytes_read;
  for (const auto& [tensor, bytes] : t.dram_bytes_written) moved[tensor] += bytes;
  double total = 0;
  for (const auto& port : m.dram_ports) {
    double want = static_cast<double>(moved[port.tensor.name()]), got = model::evaluate(port.bytes, x);
    if (got != want) return fmt::format("{}: model {} bytes, timed run {}", port.tensor.name(), got, want);
    moved.erase(port.tensor.name());
    total += got;
  }
  for (const auto& [tensor, bytes] : moved)
    if (bytes != 0) return fmt::format("{}: no port in the model, timed run {} bytes", tensor, bytes);
  if (total != model::evaluate(m.offchip_bytes, x)) return "the ports do not sum to offchip_bytes";
  return "";
}

// The model and the timed simulation at point `point` (its factors printed as `text`).
row compare(const design& d, const model::design_model& m, const design_point& point, std::string label, std::string text) {
  const kernel& k = d.band->source->kernel();
  row r;
  r.design = d.name();
  r.label = std::move(label);
  r.point = std::move(text);
  architecture a = build_architecture(d, {point, {}, false});
  buffers data(k);
  data.randomize_inputs(1);
  timed_result t = simulate_timed(a, data);
  REQUIRE(t.ok());
  std::vector<double> x = model_point(m, point, k);
  model::metrics got = model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9});
  r.model = got.latency;
  r.timed = t.cycles;
  r.legal = got.legal == 1;
  resource_counts want = count_resources(a);
  r.resources_exact = got.dsp == static_cast<double>(want.dsp) && got.bram18k == static_cast<double>(want.bram18k) &&
                      got.uram == static_cast<double>(want.uram) && got.ff == static_cast<double>(want.ff);
  r.ports = port_difference(m, x, t);
  r.partial_sums = !partial_sum_chains(a).empty();
  if (r.partial_sums) {
    for (auto& f : a.fifos) f.depth = 65536;
    r.timed_deep = simulate_timed(a, data).cycles;
  }
  // The PE array is the bottleneck when its own main is the model's.
  r.bound = model::evaluate(model::cost(m.modules.front().main), x) >= got.latency_main ? "PE" : "I/O";
  return r;
}

row compare(const design& d, const model::design_model& m, const named_point& p) {
  std::string text;
  design_point point = point_of(d, p, text);
  return compare(d, m, point, p.label, text);
}

// MTTKRP with every size `size`: design `name` at point p, model against the timed run.
row mttkrp_row(int64_t size, const std::string& name, const named_point& p) {
  kernel k = catalog::mttkrp();
  for (const auto& param : k.params()) param.set(size);
  for (const auto& d : designs(k))
    if (d.name() == name) return compare(d, performance_model(d), p);
  FAIL("no design " << name);
  return {};
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
    CHECK(r.ports == "");
  }
}

TEST_CASE("square MM (one size for i, j and k): each loop padded on its own, within 2%", "[modeling]") {
  // MM's dependences keep their sources in any box that holds their sinks, so each loop runs to
  // its own padded bound within the kernel at the largest (compute/zero_padding.hpp).
  kernel k = sadsl::testing::mm_square(44);
  std::vector<named_point> points = {
      // 24, 16 and 12 all pad 44 to 48.
      {"alike", {{"i_t1", 24}, {"j_t1", 16}, {"k_t1", 12}, {"i_t2", 8}, {"j_t2", 8}, {"k_t2", 4}}},
      // ... and 24, 24, 16 with 16 cycles of PE work per tile: the I/O leads.
      {"alike, I/O-bound", {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 16}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 2}}},
      // 22 pads 44 to 44, 16 to 48 and 20 to 60: the kernel runs at 60, i within 44, j within 48.
      {"apart", {{"i_t1", 22}, {"j_t1", 16}, {"k_t1", 20}, {"i_t2", 11}, {"j_t2", 8}, {"k_t2", 4}}},
  };
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    REQUIRE(check_zero_padding(d).pads_apart);
    model::design_model m = performance_model(d);
    for (const auto& p : points) rows.push_back(compare(d, m, p));
    std::string text;
    architecture a = build_architecture(d, {point_of(d, points.back(), text), {}, false});
    CHECK(a.padding == padding_mode::zero_padded);
    CHECK(a.param_values.begin()->second == 60);
    CHECK(verify_architecture(a) == "");
  }
  print_table(rows);
  CHECK(rows.size() == 54);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.legal);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.02);
    CHECK(r.ports == "");
  }
}

TEST_CASE("square CNN (one size for o, r, c and i): each loop padded on its own, within 2%", "[modeling]") {
  // The accumulation over i, p and q steps back in p and q, loops below the band: only the band
  // loops' distances matter for the box, and they are (0, 0, 0, 1) and 0.
  kernel k = sadsl::testing::cnn_square(8, 3);
  // o_t1 = 4 keeps 8, r_t1 = 3 pads it to 9, c_t1 = 5 to 10: the kernel runs at 10.
  named_point apart{"apart", {{"o_t1", 4}, {"r_t1", 3}, {"c_t1", 5}, {"i_t1", 8}, {"o_t2", 2}, {"r_t2", 1}, {"c_t2", 1},
                              {"i_t2", 2}, {"i_t3", 2}, {"o_t3", 2}}};
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    REQUIRE(check_zero_padding(d).pads_apart);
    std::string text;
    architecture a = build_architecture(d, {point_of(d, apart, text), {}, false});
    CHECK(a.padding == padding_mode::zero_padded);
    CHECK(verify_architecture(a) == "");
    rows.push_back(compare(d, performance_model(d), apart));
  }
  print_table(rows);
  CHECK(rows.size() == 30);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.02);
    CHECK(r.ports == "");
  }
}

// Random points of design d that model m calls legal; `wide`: with two or more PEs along every
// space loop (the model's constraints require it only where partial results flow: below).
std::vector<design_point> legal_points(const design& d, const model::design_model& m, int count, std::mt19937_64& rng,
                                       bool wide = true) {
  const kernel& k = d.band->source->kernel();
  std::vector<design_point> out;
  for (int tries = 0; tries < 100000 && static_cast<int>(out.size()) < count; ++tries) {
    design_point point = testing::random_point(d, rng);
    std::vector<int64_t> grid = testing::pe_grid(d, point);
    if (wide && std::any_of(grid.begin(), grid.end(), [](int64_t g) { return g < 2; })) continue;
    std::vector<double> x = model_point(m, point, k);
    if (model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9}).legal == 1) out.push_back(point);
  }
  return out;
}

std::string factors_text(const design& d, const design_point& p) {
  std::string text;
  for (const auto& [f, v] : p) text += fmt::format("{}{}={}", text.empty() ? "" : " ", d.name_of(f), v);
  return text;
}

TEST_CASE("guarded designs are modeled where their tiles are whole: max-plus MM within 2%, resources exact", "[modeling]") {
  // C = max(C, A + B) cannot be padded with zeros, so every design runs its partial tiles guarded;
  // where each first-level factor divides N there are none, and the model covers those points
  // (its space: t1 divides N), legal nowhere else.
  kernel k = sadsl::testing::tropical_mm(24);
  std::mt19937_64 rng(11);
  std::vector<row> rows;
  std::vector<design> ds = designs(k);
  REQUIRE(ds.size() == 18);
  for (const auto& d : ds) {
    INFO(d.name());
    REQUIRE_FALSE(check_zero_padding(d).valid());
    model::design_model m = performance_model(d);
    std::vector<design_point> points = legal_points(d, m, 2, rng);
    REQUIRE(points.size() == 2);
    points.push_back(legal_points(d, m, 1, rng, false).at(0));  // perhaps one PE along a space loop
    for (const auto& p : points) {
      for (const auto& f : d.factors)
        if (f.id.level == tile_level::array_partition) CHECK(24 % p.at(f.id) == 0);
      architecture a = build_architecture(d, {p, {}, false});
      CHECK(a.padding == padding_mode::guarded);
      rows.push_back(compare(d, m, p, "max-plus", factors_text(d, p)));
    }
    // A first-level factor that leaves a partial tile: not in the model's space.
    design_point partial = points.front();
    partial[{d.band->loop_ids().front(), tile_level::array_partition}] = 5;
    for (const auto& f : d.factors)
      if (f.parent && partial.at(f.id) > 1) partial[f.id] = 1;
    std::vector<double> x = model_point(m, partial, k);
    CHECK(model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9}).legal == 0);
  }
  print_table(rows);
  CHECK(rows.size() == 54);
  int chains = 0;
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.legal);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.02);
    CHECK(r.ports == "");
    // C's partial minima flow between the PEs along k when k is in space (comm/fifo_depths.hpp:
    // an assignment that reads its own result reduces): FIFOs sized so that no writer waits.
    if (r.partial_sums) CHECK(r.timed == r.timed_deep);
    chains += r.partial_sums;
  }
  CHECK(chains == 27);  // [k], [i,k] and [j,k]: three rows each
}

TEST_CASE("an inout accumulation (C += A B, C read): resources exact where C only passes through a PE", "[modeling]") {
  // No initialization writes C in a PE: where the loops that carry it (k: k_t1 in time, its SIMD
  // factor in space, and k's tiles in time where C persists across them) give one iteration, the
  // PE has no C buffer. Zero-padded: non-divisor points too. Latency within 2% on every design.
  kernel k = sadsl::testing::mm_inout(24);
  std::mt19937_64 rng(13);
  std::vector<row> rows;
  int without_buffer = 0;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    model::design_model m = performance_model(d);
    std::vector<design_point> points = legal_points(d, m, 2, rng);
    design_point one = points.front();  // and one whose k gives a PE one iteration in its tile
    one[{d.band->loop_ids().back(), tile_level::array_partition}] = 1;
    for (const auto& f : d.factors)
      if (f.id.loop == d.band->loop_ids().back() && f.parent) one[f.id] = 1;
    std::vector<double> x = model_point(m, one, k);
    if (model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9}).legal == 1) points.push_back(one);
    for (const auto& p : points) {
      architecture a = build_architecture(d, {p, {}, false});
      without_buffer += a.pe().buffers.empty();
      rows.push_back(compare(d, m, p, "inout C", factors_text(d, p)));
    }
  }
  print_table(rows);
  CHECK(rows.size() >= 36);
  CHECK(without_buffer > 0);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.legal);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.02);
    CHECK(r.ports == "");
  }
}

TEST_CASE("an inout C: a reload that staggers PEs coupled by a forwarding network, and a late first load", "[modeling]") {
  // [i,j] <[i,k],j>: C's unbuffered L2 chain along j fills the three PE columns 60 cycles apart,
  // but A flows along j through 2-deep FIFOs, so the first columns wait for the last and every
  // group's C leaves after the last PE: the whole 180-word send follows it (counting one group's
  // 60 was -13%). [i,j] <[i,j],k>: C is loaded at the first k tile of each (i, j) tile only, 242
  // words, while B's 22-word tiles could not run ahead more than their double buffer: B's tiles
  // follow the PEs' late start (counting them from the phase's start was -5.6%).
  kernel k = sadsl::testing::mm_inout(24);
  named_point coupled{"coupled", {{"i_t1", 12}, {"i_t2", 6}, {"j_t1", 15}, {"j_t2", 5}, {"k_t1", 1}, {"k_t2", 1}}};
  named_point held{"held up", {{"i_t1", 11}, {"i_t2", 1}, {"j_t1", 22}, {"j_t2", 11}, {"k_t1", 1}, {"k_t2", 1}}};
  int seen = 0;
  for (const auto& d : designs(k)) {
    bool is_coupled = d.name() == "[i,j] <[i,k],j>", is_held = d.name() == "[i,j] <[i,j],k>";
    if (!is_coupled && !is_held) continue;
    ++seen;
    row r = compare(d, performance_model(d), is_coupled ? coupled : held);
    INFO(d.name() << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.timed == (is_coupled ? 22566 : 3637));
    CHECK(std::abs(r.error()) <= 0.005);
    CHECK(r.resources_exact);
  }
  CHECK(seen == 2);
}

TEST_CASE("MM with C initialized under k == 0 (an if/else on a band loop's end): every design within 2%", "[modeling]") {
  // Where k is a time loop the first k-tile's PEs run the initialization block (`if (t == 0)`)
  // and k_t1 - 1 accumulations, the others k_t1: every tile takes k_t1 iterations, which the model
  // counts (part_cost.cpp). Where k is in space every tile is alike.
  kernel k = sadsl::testing::mm_explicit_init(24);
  std::mt19937_64 rng(12);
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    model::design_model m = performance_model(d);
    for (const auto& p : legal_points(d, m, 2, rng)) rows.push_back(compare(d, m, p, "explicit init", factors_text(d, p)));
  }
  print_table(rows);
  CHECK(rows.size() == 36);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.02);
    CHECK(r.ports == "");
  }
}

TEST_CASE("a guarded design whose part the template cannot tell has no model, and says why", "[modeling]") {
  // The explicit init, and E written at k's last iteration: where k alone is in space, only the
  // last k-PE writes E, and E's drain collects nothing at the template's tiles; such designs are
  // refused with the part that disagrees. The others are modeled. E's statement reads A(i, k) and
  // B(k, j) in the iteration whose accumulation reads them, and takes their registers (routing's
  // shared reads: one token of each a PE iteration, as the model counts; before them the model
  // was up to 7% under). What is left is E's drain in k's last phase, whose L1 modules (not
  // double-buffered) collect a tile's E only once they sent the previous one's, which the model
  // does not charge: up to 2.9% under at these points, so 3% here (docs/modeling.md, "Open").
  kernel k = sadsl::testing::mm_init_and_last(24);
  std::mt19937_64 rng(12);
  std::vector<row> rows;
  int refused = 0, modeled = 0;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    std::string why = sadsl::testing::message_of([&] { performance_model(d); });
    if (why == "(no sadsl::error)") {
      ++modeled;
      model::design_model m = performance_model(d);
      for (const auto& p : legal_points(d, m, 2, rng)) rows.push_back(compare(d, m, p, "init and last", factors_text(d, p)));
      continue;
    }
    CHECK_THAT(why, Catch::StartsWith("design " + d.name() + ", module E_drain_IO_L1_out, part collect: cycles per tile: the model "
                                      "says 64 (i_t1 / i_t2 * (j_t1 / j_t2 * (i_t2 * j_t2))), the architecture at the template "
                                      "point has 0; sadsl cannot model this design yet"));
    ++refused;
  }
  CHECK(refused == 3);  // [k]: k alone in space
  CHECK(modeled == 15);
  print_table(rows);
  CHECK(rows.size() == 30);
  for (const auto& r : rows) {
    INFO(r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.resources_exact);
    CHECK(std::abs(r.error()) <= 0.03);
    CHECK(r.ports == "");  // E's bytes where k is in space: the last PE along k alone drains it
  }
}

TEST_CASE("loops that must pad a shared size alike: elsewhere illegal in the model and guarded", "[modeling]") {
  // S3 lacks k and runs after S1 at k's last iteration, N - 1 of the kernel at the raised size,
  // which a k that ran to a bound of its own would not reach: the loops must pad N alike.
  kernel k("lacks_k");
  param N = k.param("N", 10);
  auto A = k.input<float>("A", {N, N});
  auto B = k.input<float>("B", {N, N});
  auto C = k.output<float>("C", {N, N});
  auto E = k.input<float>("E", {N, N});
  auto F = k.input<float>("F", {N});
  auto D = k.output<float>("D", {N, N});
  loop i("i", N), j("j", N), r("k", N);
  C(i, j) += A(i, r) * B(r, j);
  D(i, j) += E(i, j) * F(j);
  std::vector<design> ds = designs(k);
  REQUIRE(ds.size() >= 3);
  for (size_t n = 0; n < 3; ++n) {
    const design& d = ds[n];
    INFO(d.name());
    zero_padding z = check_zero_padding(d);
    INFO(z.why_not);
    REQUIRE(z.valid());
    CHECK_FALSE(z.pads_apart);
    model::design_model m = performance_model(d);
    // k_t1 = 4 pads 10 to 12, every other first-level factor (10) keeps it.
    design_point p = sample_point(d);
    for (auto& [f, v] : p) v = f.level == tile_level::array_partition ? (f.loop.name() == "k" ? 4 : 10) : 1;
    std::vector<double> x = model_point(m, p, k);
    CHECK(model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9}).legal == 0);
    architecture a = build_architecture(d, {p, {}, false});
    CHECK(a.padding == padding_mode::guarded);
    CHECK(verify_architecture(a) == "");
    if (!d.simd) continue;
    p[{*d.simd, tile_level::simd}] = 2;
    CHECK_THAT(sadsl::testing::message_of([&] { build_architecture(d, {p, {}, false}); }),
               Catch::Contains("share the param \"N\", which their first-level factors pad to"));
  }
}

TEST_CASE("MM models: a space loop of one PE builds another architecture than the model's", "[modeling]") {
  // k_t1 = k_t2: one PE along k. The template has two or more PEs along every space loop, so the
  // model of a design with k in space describes partial sums flowing between k-PEs (and reloaded
  // through DRAM when k is not the innermost tile loop); with one PE along k there is no such
  // flow and the architecture is another. The model's constraint "two or more PEs along k" makes
  // these points illegal (so the tuner does not pick them); the rows show how far off it would be.
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(48);
  named_point p{"one k-PE", {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 8}, {"i_t2", 8}, {"j_t2", 8}, {"k_t2", 8}}};
  std::vector<row> rows;
  for (const auto& d : designs(k)) {
    bool k_space = false;
    for (const auto& l : d.space) k_space = k_space || l.name() == "k";
    if (!k_space || d.space.size() != 2) continue;
    model::design_model m = performance_model(d);
    rows.push_back(compare(d, m, p));
    std::string text;
    std::vector<double> x = model_point(m, point_of(d, p, text), k);
    int grids = 0;
    for (const auto& c : m.constraints)
      if (c.description == "two or more PEs along k (partial sums flow between them)") {
        CHECK(model::evaluate(c.lhs, x) < model::evaluate(c.rhs, x));
        ++grids;
      }
    CHECK(grids == 1);
  }
  print_table(rows);
  CHECK(rows.size() == 6);
  for (const auto& r : rows) CHECK(!r.legal);
}

TEST_CASE("CNN, MTTKRP and TTMc models: latency within 2% of the timed simulation, resources exact", "[modeling]") {
  // Small sizes (the timed run walks every operation): every sixth design of each kernel, two
  // random points each that the model calls legal (the latency-hiding constraint among others:
  // the tuner searches no other) with two or more PEs along every space loop (with one, see above).
  //
  // Where partial sums flow between PEs (CNN's i, MTTKRP's k, TTMc's l in space) a partial sum
  // stays in a PE for the whole reduction below the band (CNN's p and q over every latency
  // element), so the last PE of a column runs tiles' worth of cycles behind the first. The
  // architecture sizes the FIFOs from the input chains into those PEs for it (comm/fifo_depths.hpp):
  // the timed run equals one with FIFOs so deep that no writer waits, asserted too.
  struct case_ {
    kernel k;
    int64_t size;
  };
  std::vector<case_> kernels = {{catalog::cnn(), 6}, {catalog::mttkrp(), 8}, {catalog::ttmc(), 6}};
  std::mt19937_64 rng(5);
  std::vector<row> rows, reducing;
  for (auto& [k, size] : kernels) {
    for (const auto& p : k.params())
      if (p.value() > size) p.set(size);  // CNN's kernel size K = 3 stays
    std::vector<design> ds = designs(k);
    for (size_t i = 0; i < ds.size(); i += 6) {
      model::design_model m = performance_model(ds[i]);
      for (int n = 0; n < 2; ++n) {
        design_point point;
        for (int tries = 0; tries < 10000; ++tries) {
          point = testing::random_point(ds[i], rng);
          std::vector<int64_t> grid = testing::pe_grid(ds[i], point);
          bool wide = std::all_of(grid.begin(), grid.end(), [](int64_t g) { return g >= 2; });
          std::vector<double> x = model_point(m, point, k);
          if (wide && model::interpreter(m).evaluate(x, {1e9, 1e9, 1e9}).legal == 1) break;
        }
        std::string text;
        for (const auto& [f, v] : point) text += fmt::format("{}{}={}", text.empty() ? "" : " ", ds[i].name_of(f), v);
        row r = compare(ds[i], m, point, k.name(), text);
        (r.partial_sums ? reducing : rows).push_back(r);
      }
    }
  }
  print_table(rows);
  print_table(reducing);
  CHECK(rows.size() + reducing.size() == 2 * (5 + 4 + 7));
  for (const auto& r : rows) {
    INFO(r.label << " " << r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed);
    CHECK(r.resources_exact);
    CHECK(r.ports == "");
    CHECK(std::abs(r.error()) <= 0.02);
  }
  CHECK(reducing.size() == 12);
  for (const auto& r : reducing) {
    INFO(r.label << " " << r.design << " at " << r.point << ": model " << r.model << ", timed " << r.timed << ", with deep FIFOs "
                 << r.timed_deep);
    CHECK(r.resources_exact);
    CHECK(r.ports == "");
    CHECK(r.timed_deep == r.timed);
    CHECK(std::abs(r.error()) <= 0.02);
  }
}

TEST_CASE("MTTKRP: an input network whose stagger covers the partial sums' hops hides them once", "[modeling]") {
  // [i,k] <[j],i,k>: four PEs along k forward partial sums 141 cycles apart (the l loop, 8 x 20
  // cycles, inside the PE); A's chain along k delivers each PE's 40 words one PE after another,
  // so the first PE starts 40 cycles in, the last 3 x 141 later, and A's whole 160-word fill is
  // behind it. Counting the fill and every hop (1,228 cycles) was 10% over the timed run.
  row r = mttkrp_row(8, "[i,k] <[j],i,k>", {"staggered", {{"i_t1", 5}, {"i_t2", 5}, {"j_t1", 8}, {"j_t2", 4}, {"k_t1", 8}, {"k_t2", 2}}});
  INFO("model " << r.model << ", timed " << r.timed);
  CHECK(r.timed == 1114);
  CHECK(std::abs(r.error()) <= 0.01);
}

TEST_CASE("MTTKRP: an input's first word takes a FIFO per level and the DRAM port's first access to the PEs", "[modeling]") {
  // [i,j] <[j,k],i> with one k per tile: six phases of 114 cycles, A's one-float feed the
  // bottleneck. The PEs end when A's last word has come down L3 -> L2 -> PE after the port's
  // first access: 3 cycles a phase the model missed (111 predicted, -2.6%).
  row r = mttkrp_row(6, "[i,j] <[j,k],i>", {"tiny phases", {{"i_t1", 6}, {"i_t2", 2}, {"j_t1", 4}, {"j_t2", 2}, {"k_t1", 1}, {"k_t2", 1}}});
  INFO("model " << r.model << ", timed " << r.timed);
  CHECK(r.timed == 684);
  CHECK(std::abs(r.error()) <= 0.005);
}

TEST_CASE("CNN: a drain along a staggered dim sends the first PE groups while the last compute", "[modeling]") {
  // [r,c] <[r,c,i],o>, two PE columns along c: cin's unbuffered L2 chain along c fills column 1
  // 44 cycles after column 0, which finishes its last tile that much earlier; the drain reads
  // column 0 first, so only column 1's 45 words follow the last PE (the whole 90 was +7.6%). At
  // the second point w's buffered chain along c starts the four columns together (its head fills
  // every column's buffer first): they finish one cycle apart and the drain counts whole.
  kernel k = catalog::cnn();
  for (const auto& p : k.params())
    if (p.value() > 6) p.set(6);
  for (const auto& d : designs(k)) {
    if (d.name() != "[r,c] <[r,c,i],o>") continue;
    model::design_model m = performance_model(d);
    named_point staggered{"staggered", {{"o_t1", 6}, {"o_t2", 6}, {"r_t1", 5}, {"r_t2", 1}, {"c_t1", 6}, {"c_t2", 3}, {"i_t1", 1}, {"i_t2", 1}}};
    named_point together{"together", {{"o_t1", 6}, {"o_t2", 6}, {"r_t1", 6}, {"r_t2", 6}, {"c_t1", 4}, {"c_t2", 1}, {"i_t1", 2}, {"i_t2", 2}}};
    for (const auto& p : {staggered, together}) {
      row r = compare(d, m, p);
      INFO(p.label << ": model " << r.model << ", timed " << r.timed);
      CHECK(r.timed == (p.label == "staggered" ? 3168 : 2826));
      CHECK(std::abs(r.error()) <= 0.01);
    }
  }
}

TEST_CASE("MM models: a slow DRAM port bounds the transfers, within 2% of the timed simulation", "[modeling]") {
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(48);
  named_point p{"I/O-bound", {{"i_t1", 24}, {"j_t1", 24}, {"k_t1", 16}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 8}}};
  // 2 and 8 bytes per cycle: a float takes two cycles, or two floats one, on every DRAM port, so
  // the top-level modules move their tiles slower than their pipelines would (measured: within
  // 0.9% on all 18 designs; at 32 bytes per cycle the port no longer bounds every design).
  for (const auto& d : designs(k)) {
    std::string text;
    design_point point = point_of(d, p, text);
    architecture a = build_architecture(d, {point, {}, false});
    buffers data(k);
    data.randomize_inputs(1);
    timed_result fast = simulate_timed(a, data);
    model::design_model fast_model = performance_model(d);
    std::vector<double> x = model_point(fast_model, point, k);
    double fast_latency = model::interpreter(fast_model).evaluate(x, {1e9, 1e9, 1e9}).latency;
    for (double bandwidth : {2.0, 8.0}) {
      modeling_options slow;
      slow.dram_bytes_per_cycle = bandwidth;
      timing_options timing;
      timing.dram_bytes_per_cycle = bandwidth;
      timed_result t = simulate_timed(a, data, timing);
      REQUIRE(t.ok());
      std::vector<double> y = model_point(fast_model, point, k);
      double got = model::interpreter(performance_model(d, slow)).evaluate(y, {1e9, 1e9, 1e9}).latency;
      INFO(d.name() << " at " << bandwidth << " B/cycle: model " << got << ", timed " << t.cycles << " (at 64 B/cycle: model "
                    << fast_latency << ", timed " << fast.cycles << ")");
      CHECK(t.cycles > fast.cycles);  // the port is the bottleneck
      CHECK(got > fast_latency);
      CHECK(std::abs(got - static_cast<double>(t.cycles)) <= 0.02 * static_cast<double>(t.cycles));
    }
  }
}

TEST_CASE("MM models: a DRAM bandwidth that is not positive is an error", "[modeling]") {
  kernel k = catalog::mm();
  modeling_options o;
  o.dram_bytes_per_cycle = 0;
  CHECK_THROWS_WITH(performance_model(designs(k).front(), o),
                    "performance_model: the DRAM bandwidth must be positive (is 0 bytes per cycle)");
}
