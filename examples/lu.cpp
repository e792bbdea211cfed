// LU decomposition without pivoting, A = L U (N x N fp32), written as the uniform recurrence that
// AutoSA's LU example compiles: V carries the trailing matrix from one k to the next, U_tmp and
// L_tmp carry a row of U along j and a column of L along i. The loop nest is triangular (j and i
// start at k), so every design's partial tiles are guarded rather than zero-padded.
//
// sadsl's compiler models every LU design (docs/modeling.md, "Triangular designs": a chain of PEs
// or a grid of them) at every tiling whose factors divide N, one tile along a loop included.
// compile() tunes the 18 designs with their models and writes that flow's output under modeled/
// (polyhedral.txt, designs.txt, tuned.json, the symbolic architecture and the tuned design's HLS
// project), and this example checks the tuned point against the timed simulation; then it ranks
// designs by the timed simulation, the oracle the models are checked against
// (comm/timed_simulation.hpp), at the problem size itself: first every design at one tiling, then
// the best design at every tiling of powers of two that fits the U250 (0.7 of its DSP and BRAM).
// The chosen design is the model-tuned point unless a ranked one simulates faster. It writes
// generated/lu/ (or the folder given as first argument): report.md (the model-tuned point, both
// rankings and the chosen design's phases, from a traced timed run), tuned.json (the chosen
// design and point, its simulated cycles, throughput and resources), architecture.txt,
// architecture.dot and the chosen design's HLS project; then it C-simulates that project (g++
// against sadsl's simulation headers, sequentially as Vitis csim) at the problem size;
// `--no-csim` as second argument skips that. Deterministic: the simulation is a pure function of
// the architecture.
#include "example_flow.hpp"

#include <sadsl/comm/dump.hpp>
#include <sadsl/comm/timed_simulation.hpp>
#include <sadsl/modeling/performance_model.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace sadsl;

namespace {

kernel describe_lu() {
  kernel lu("lu");
  param N = lu.param("N", 64);
  auto A = lu.input<float>("A", {N, N});
  auto L = lu.output<float>("L", {N, N});
  auto U = lu.output<float>("U", {N, N});
  auto prev_V = lu.local<float>("prev_V", {N, N});  // the trailing matrix as step k reads it
  auto V = lu.local<float>("V", {N, N});            // ... and as step k leaves it
  auto U_tmp = lu.local<float>("U_tmp", {N, N});    // row k of U, carried along j
  auto L_tmp = lu.local<float>("L_tmp", {N, N});    // column k of L, carried along i
  loop k("k", N), j("j", k, N), i("i", k, N);       // triangular: j and i start at k
  under(j, [&] {
    under(i, [&] {
      if_(k == 0, [&] { prev_V(i, j) = A(i, j); }).else_([&] { prev_V(i, j) = V(i, j); });
      if_(j == k, [&] {
        U_tmp(i, j) = prev_V(i, j);
        U(j, i) = U_tmp(i, j);
      }).else_([&] {
        U_tmp(i, j) = U_tmp(i, j - 1);
        if_(i == k, [&] {
          L_tmp(i, j) = prev_V(i, j) / U_tmp(i, j);
          L(i, j) = L_tmp(i, j);
        }).else_([&] { L_tmp(i, j) = L_tmp(i - 1, j); });
        V(i, j) = prev_V(i, j) - L_tmp(i, j) * U_tmp(i, j);
      });
    });
  });
  return lu;
}

// One design at one tiling: its simulated cycles and what it uses.
struct candidate {
  size_t design = 0;
  design_point point;
  int64_t cycles = 0;
  resource_counts used;
  bool fits = false;
};

// Every first-level factor (LU's designs have no other) set to `t1` of its loop.
design_point tiling(const design& d, const std::map<std::string, int64_t>& t1) {
  design_point p;
  for (const auto& f : d.factors) p[f.id] = t1.at(f.id.loop.name());
  return p;
}

// The timed simulation's rules as the models assume them (II 1, no pipeline depth, FIFO latency 1),
// with the device's DRAM bandwidth per port.
timing_options timing_on(const tune::device& device) {
  timing_options timing;
  timing.dram_bytes_per_cycle = device.dram_gbytes_per_second * 1e3 / device.clock_mhz;
  return timing;
}

candidate simulate(const kernel& lu, const std::vector<design>& ds, size_t index, const design_point& point,
                   const tune::device& device) {
  candidate c;
  c.design = index;
  c.point = point;
  architecture a = build_architecture(ds[index], {point, {}, false});
  c.used = count_resources(a);
  auto limits = device.limits();
  c.fits = c.used.dsp <= limits.dsp && c.used.bram18k <= limits.bram18k && c.used.uram <= limits.uram;
  if (!c.fits) return c;  // not simulated: it could not be built on the device
  buffers data(lu);
  data.randomize_inputs(1);
  c.cycles = simulate_timed(a, data, timing_on(device)).cycles;
  return c;
}

// Fewest cycles among those that fit; ties: fewer DSPs, then the earlier candidate.
std::optional<size_t> fastest(const std::vector<candidate>& cs) {
  std::optional<size_t> best;
  for (size_t n = 0; n < cs.size(); ++n) {
    if (!cs[n].fits) continue;
    if (!best || cs[n].cycles < cs[*best].cycles || (cs[n].cycles == cs[*best].cycles && cs[n].used.dsp < cs[*best].used.dsp))
      best = n;
  }
  return best;
}

std::string point_text(const design& d, const design_point& p) {
  std::string out;
  for (const auto& [f, v] : p) out += fmt::format("{}{}={}", out.empty() ? "" : " ", d.name_of(f), v);
  return out;
}

std::string table(const std::vector<candidate>& cs, const std::vector<design>& ds, std::optional<size_t> best,
                  const tune::workload& work, const tune::device& device) {
  std::string out = "| design | point | cycles | GFLOP/s | DSP | BRAM18K | fits |\n|---|---|---:|---:|---:|---:|---|\n";
  for (size_t n = 0; n < cs.size(); ++n) {
    const candidate& c = cs[n];
    double seconds = static_cast<double>(c.cycles) / (device.clock_mhz * 1e6);
    if (!c.fits) {
      out += fmt::format("| {} | {} | | | {} | {} | no |\n", ds[c.design].name(), point_text(ds[c.design], c.point), c.used.dsp,
                         c.used.bram18k);
      continue;
    }
    out += fmt::format("| {}{} | {} | {} | {:.1f} | {} | {} | yes |\n", ds[c.design].name(), best == n ? " (best)" : "",
                       point_text(ds[c.design], c.point), c.cycles, work.operations / seconds / 1e9, c.used.dsp, c.used.bram18k);
  }
  return out;
}

// Where the chosen design's time goes: every phase (one tile of LU) from a traced timed run, with
// the module kind that finished it and the words of its busiest DRAM ports.
std::string phase_table(const architecture& a, const kernel& lu, const tune::device& device) {
  buffers data(lu);
  data.randomize_inputs(1);
  timing_options timing = timing_on(device);
  timing.trace = true;
  timed_result r = simulate_timed(a, data, timing);
  std::vector<std::string> loops;
  for (size_t position : a.phase_loops) loops.push_back(a.design->tile_order.at(position).name());
  std::string out = fmt::format("| phase | tile ({}) | cycles | last to finish | busiest DRAM read | busiest DRAM write |\n",
                                fmt::join(loops, ", "));
  out += "|---:|---|---:|---|---|---|\n";
  for (size_t p = 0; p < r.trace.size(); ++p) {
    const phase_timing& t = r.trace[p];
    const instance_timing* last = nullptr;
    std::map<bool, std::pair<int64_t, std::string>> busiest;  // by write: words, tensor
    for (const auto& m : t.instances) {
      if (!last || m.finish > last->finish) last = &m;
      const module_kind& kind = a.modules.at(static_cast<size_t>(m.kind));
      if (!kind.dram || m.dram_accesses == 0) continue;
      auto& b = busiest[kind.dram->write];
      if (m.dram_accesses > b.first) b = {m.dram_accesses, kind.dram->tensor.name()};
    }
    auto port = [&](bool write) {
      auto it = busiest.find(write);
      return it == busiest.end() ? std::string("none") : fmt::format("{} words of {}", it->second.first, it->second.second);
    };
    out += fmt::format("| {} | ({}) | {} | {} | {} | {} |\n", p, fmt::join(t.phase, ", "), t.cycles,
                       a.modules.at(static_cast<size_t>(last->kind)).name, port(false), port(true));
  }
  return out;
}

// "A_IO in: 16 elements a word, ..." for the networks that pack, or "none here".
std::string packed_networks(const architecture& a) {
  std::vector<std::string> out;
  for (const auto& n : a.networks)
    if (int64_t pack = n.packs.at(n.top_level); pack > 1) out.push_back(fmt::format("{} {}: {} elements a word", n.name, n.input ? "in" : "out", pack));
  return out.empty() ? std::string("none here") : fmt::format("{}", fmt::join(out, ", "));
}

// dir/name replaced atomically (a temporary file, then a rename).
void write(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  std::filesystem::create_directories(dir);
  std::filesystem::path tmp = dir / (name + ".tmp");
  std::ofstream out(tmp, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw error(fmt::format("cannot write {}", tmp.string()));
  std::filesystem::rename(tmp, dir / name);
}

nlohmann::ordered_json configuration(const design& d, const candidate& c, const kernel& lu, const tune::workload& work,
                                     const tune::device& device, const std::string& chosen_by) {
  double seconds = static_cast<double>(c.cycles) / (device.clock_mhz * 1e6);
  nlohmann::ordered_json j;
  j["design"] = d.name();
  j["dataflow"] = d.dataflow();
  std::vector<std::string> order;
  for (const auto& l : d.tile_order) order.push_back(l.name());
  j["tile_order"] = order;
  j["chosen_by"] = chosen_by;
  j["device"] = device.name;
  for (const auto& p : lu.params()) j["problem"][p.name()] = p.value();
  for (const auto& [f, v] : c.point) j["params"][d.name_of(f)] = v;
  j["cycles"] = c.cycles;
  j["seconds"] = seconds;
  j["throughput"] = work.operations / seconds / 1e9;
  j["throughput_unit"] = "GFLOP/s";
  j["operations"] = work.operations;
  j["dsp"] = c.used.dsp;
  j["bram18k"] = c.used.bram18k;
  j["uram"] = c.used.uram;
  j["dsp_fraction"] = static_cast<double>(c.used.dsp) / device.dsp;
  j["bram18k_fraction"] = static_cast<double>(c.used.bram18k) / device.bram18k;
  j["fits"] = c.fits;
  return j;
}

// The point compile() tuned with the designs' models, checked against the
// timed simulation: a paragraph of the report.
std::string model_tuned(const compile_result& r, const kernel& lu, const tune::device& device) {
  if (!r.tuned()) return fmt::format("No design was tuned with a model: {}\n", r.not_tuned);
  const design& d = r.best_design();
  architecture a = build_architecture(d, {r.best_point(), {}, false});
  buffers data(lu);
  data.randomize_inputs(1);
  int64_t timed = simulate_timed(a, data, timing_on(device)).cycles;
  double predicted = r.tuned_configuration().value("latency", 0.0);
  auto why = std::find_if(r.not_modeled.begin(), r.not_modeled.end(), [](const std::string& w) { return !w.empty(); });
  const std::string unmodeled = why == r.not_modeled.end() ? std::string() : fmt::format(" (not the others: \"{}\")", *why);
  return fmt::format(
      "compile() tuned the {} designs it models{} with sadsl's own models: {} at {}, predicted {:.0f} cycles, timed "
      "simulation {} ({:+.2f}%). Its configuration and HLS project are in modeled/. The models describe every tiling "
      "whose factors divide N, with two or more values of each loop a tile.\n",
      r.spaces.size(), unmodeled, d.name(), point_text(d, r.best_point()), predicted, timed,
      100 * (predicted / static_cast<double>(timed) - 1));
}

int run(int argc, char** argv) {
  kernel lu = describe_lu();
  compile_options options;
  const std::filesystem::path output = argc > 1 ? argv[1] : "generated/lu";
  options.output = output / "modeled";
  options.hls.sim_include = "../../../../include/sadsl/sim";  // from generated/lu/modeled/<design>/ (make csim)
  // compile() builds the program and the designs, checks each design on a reduced instance with
  // the interpreter and the executor, asks sadsl's compiler for their models, tunes them and
  // writes that flow's files under modeled/; the rankings below check it by simulation.
  options.models = compiler_models(options.device);
  options.method = "exact";
  options.search.seconds = 0;  // to the proven optimum, whatever it takes: the output must not depend on time
  options.search.threads = 0;  // on every core: the optimum and its ties do not depend on the threads
  compile_result r = compile(lu, options);
  const std::vector<design>& ds = r.designs;
  std::printf("lu: %zu designs, each verified by the interpreter and the architecture executor\n", ds.size());
  const tune::device& device = options.device;
  const std::string tuned_by_model = model_tuned(r, lu, device);
  std::printf("%sranking every design by the timed simulation\n", tuned_by_model.c_str());

  // 1. Every design at k, j, i tiles of 32: a 32 x 32 array for the two-dimensional designs.
  std::vector<candidate> designs_at_32;
  for (size_t n = 0; n < ds.size(); ++n)
    designs_at_32.push_back(simulate(lu, ds, n, tiling(ds[n], {{"k", 32}, {"j", 32}, {"i", 32}}), device));
  std::optional<size_t> best_design = fastest(designs_at_32);
  if (!best_design) throw error("no LU design fits the device at tiles of 32");
  const size_t chosen = designs_at_32[*best_design].design;

  // 2. The fastest design at every tiling of 16, 32 and 64 per loop.
  std::vector<candidate> tilings;
  for (int64_t k : {16, 32, 64})
    for (int64_t j : {16, 32, 64})
      for (int64_t i : {16, 32, 64}) tilings.push_back(simulate(lu, ds, chosen, tiling(ds[chosen], {{"k", k}, {"j", j}, {"i", i}}), device));
  std::optional<size_t> best_tiling = fastest(tilings);
  SADSL_INTERNAL_ASSERT(best_tiling.has_value(), "the tiling of the first ranking is among the second's");

  // 3. The chosen design: the model-tuned point where its timed run is the fastest (the models
  // search every tiling, the rankings a few), else the rankings' best.
  candidate best = tilings.at(*best_tiling);
  std::string choice = "the rankings' fastest (the model-tuned point is slower in the timed simulation)";
  if (r.tuned()) {
    auto m = std::find_if(ds.begin(), ds.end(), [&](const design& d) { return d.name() == r.best_design().name(); });
    SADSL_INTERNAL_ASSERT(m != ds.end(), "the tuned design is one of the designs");
    candidate tuned = simulate(lu, ds, static_cast<size_t>(m - ds.begin()), r.best_point(), device);
    if (tuned.fits && tuned.cycles <= best.cycles) {
      best = tuned;
      choice = "the model-tuned point (no faster one in the rankings' timed runs)";
    }
  }
  const size_t picked = best.design;

  std::string report = fmt::format(
      "# lu: {} designs ranked by the timed simulation on the {} (N = {})\n\n"
      "## Tuned with sadsl's models\n\n{}\n"
      "Each row below is a timed simulation of the design's architecture (II 1, FIFO latency 1, {:.0f} bytes per cycle "
      "per DRAM port) at the problem size, tilings with one tile along a loop included.\n\n"
      "## Every design at tiles of 32\n\n{}\n## {} at tiles of 16, 32 and 64\n\n{}\n"
      "## Chosen\n\n{} at {}, {} cycles in the timed simulation: {}.\n",
      ds.size(), device.name, lu.params()[0].value(), tuned_by_model, device.dram_gbytes_per_second * 1e3 / device.clock_mhz,
      table(designs_at_32, ds, best_design, r.work, device), ds[chosen].name(), table(tilings, ds, best_tiling, r.work, device),
      ds[picked].name(), point_text(ds[picked], best.point), best.cycles, choice);
  architecture a = build_architecture(ds[picked], {best.point, {}, false});
  report += fmt::format(
      "\n## The phases of {} at {}\n\nEvery tile is a phase of its own (a kernel invocation: its flow dependences "
      "cross tiles along every loop). A network packs its DRAM words where its chunks are whole boxes in registers "
      "({}), else it moves one float a word.\n\n{}",
      ds[picked].name(), point_text(ds[picked], best.point), packed_networks(a), phase_table(a, lu, device));
  auto config = configuration(ds[picked], best, lu, r.work, device, choice);
  if (!output.empty()) {
    write(output, "report.md", report);
    write(output, "tuned.json", config.dump(2) + "\n");
    write(output, "architecture.txt", dump_architecture(a));
    write(output, "architecture.dot", architecture_dot(a));
    hls_options hls;
    hls.sim_include = "../../../include/sadsl/sim";  // from generated/lu/<design>/ (make csim)
    write_hls_project(a, output / design_folder(ds[picked]), hls);
  }
  for (const auto& s : r.steps) std::printf("  %-12s %8.3f s\n", s.name.c_str(), s.seconds);
  std::printf("\n%s\nbest: %s, %lld cycles (timed simulation), %.1f GFLOP/s, %lld DSP\npoint: %s\nwrote %s\n", report.c_str(),
              ds[picked].name().c_str(), static_cast<long long>(best.cycles), config.value("throughput", 0.0),
              static_cast<long long>(best.used.dsp), point_text(ds[picked], best.point).c_str(), output.c_str());
  if (argc > 2 && std::string(argv[2]) == "--no-csim") return 0;
  std::printf("\nC simulation of the chosen design ");
  if (!sadsl_examples::csim_sequential(a, "lu")) {
    std::fprintf(stderr, "error: the C simulation of the chosen design failed\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return sadsl_examples::report_errors([&] { return run(argc, argv); });
}
