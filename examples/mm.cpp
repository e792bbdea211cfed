// Matrix multiplication end to end, as far as sadsl goes today:
//   1. describe the kernel in the DSL;
//   2. compile it: polyhedral model, dependences, and the design space (every dataflow x
//      permutation, with array partitioning, latency hiding and SIMD), checked by the reference
//      interpreter on a small instance;
//   3. tune every design exactly (branch and bound) for an Alveo U250 and write the tuned
//      configuration. Until sadsl's compiler builds its own performance models (the next
//      modules), each design is tuned with the model AutoSA wrote for the same dataflow and
//      tile-loop order (../shared/reference/odyssey), imported by sadsl;
//   4. HLS C generation comes with the communication and code-generation modules.
// Writes generated/mm/{polyhedral.txt, designs.txt, tuned.json} (or into the directory given as
// first argument); everything written is deterministic.
#include <sadsl/sadsl.hpp>
#include <sadsl/tune/tune.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace sadsl;
namespace fs = std::filesystem;

namespace {

// The Odyssey descriptor of a design: kernel<D>_<P>, D the dataflow's index in
// [i] [j] [k] [i,j] [i,k] [j,k], P the tile order (0 = i,k,j; 1 = k,j,i; 2 = i,j,k), matched by the
// loops kept innermost (the design's Theorem 3.1 class).
std::string descriptor_of(const design& d, size_t dataflow_index) {
  const std::string inner = d.tile_order.back().name();
  int order = inner == "j" ? 0 : inner == "i" ? 1 : 2;
  return fmt::format("{}/reference/odyssey/descriptors/gemm/kernel{}_{}.json", SADSL_SHARED_DIR, dataflow_index, order);
}

bool interpreter_check(kernel& mm, const program& p, const std::vector<design>& ds) {
  for (auto prm : mm.params()) prm.set(prm.name() == "K" ? 16 : prm.name() == "J" ? 24 : 32);
  buffers expected(mm);
  expected.randomize_inputs(2026);
  run(p, expected, run_options{{}, true});  // with the instance check: every instance once
  factor_values tiling{{"i_t1", 12}, {"j_t1", 10}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 5}, {"k_t2", 4}};
  bool all_equal = true;
  for (const auto& d : ds) {
    buffers data(mm);
    data.randomize_inputs(2026);
    auto layouts = stored_layouts(d);
    for (const auto& l : layouts) data.permute(l.tensor.name(), l.order);
    run(*d.band->source, concrete_schedule(d, tiling), data, run_options{layouts, true});
    all_equal = all_equal && data.get<float>("C") == expected.get<float>("C");
  }
  for (auto prm : mm.params()) prm.set(1024);
  return all_equal;
}

}  // namespace

int main(int argc, char** argv) try {
  // 1. Describe.
  kernel mm("mm");
  param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
  auto A = mm.input<float>("A", {I, K});
  auto B = mm.input<float>("B", {K, J});
  auto C = mm.output<float>("C", {I, J});
  loop i(I), j(J), k(K);
  C(i, j) += A(i, k) * B(k, j);

  fs::path out = argc > 1 ? argv[1] : "generated/mm";
  fs::create_directories(out);

  // 2. Compile.
  program p = build_program(mm);
  std::string model = dump_program(p) + "dependences:\n" + dump_dependences(p, compute_dependences(p)) +
                      "loop nest:\n" + dump_schedule_code(p, p.schedule());
  std::ofstream(out / "polyhedral.txt") << model;
  std::printf("%s\n", model.c_str());

  auto ds = designs(mm);
  std::string listing;
  for (const auto& d : ds) listing += d.str();
  std::ofstream(out / "designs.txt") << listing;
  std::printf("%zu designs (dataflow x permutation):", ds.size());
  for (const auto& d : ds) std::printf(" %s", d.name().c_str());
  std::printf("\ninterpreter check of every design (I=32, J=24, K=16, non-divisor tiles): %s\n",
              interpreter_check(mm, p, ds) ? "all equal to the original kernel" : "MISMATCH");

  // 3. Tune.
  auto names = std::vector<std::string>{"[i]", "[j]", "[k]", "[i,j]", "[i,k]", "[j,k]"};
  std::vector<tune::design_space> spaces;
  std::vector<std::string> labels;
  for (const auto& d : ds) {
    size_t dataflow = std::find(names.begin(), names.end(), d.dataflow()) - names.begin();
    std::string file = descriptor_of(d, dataflow);
    if (!fs::exists(file)) {
      std::printf("no model for %s (%s not found): tuning skipped\n", d.name().c_str(), file.c_str());
      return 0;
    }
    spaces.emplace_back(tune::load_descriptor(file), std::map<std::string, std::int64_t>{{"i", 1024}, {"j", 1024}, {"k", 1024}},
                        tune::builtin_device("u250"));
    labels.push_back(d.name());
  }
  tune::search_options options;
  options.seconds = 600;  // exact search: runs to the proven optimum (about 15 s on 2 cores)
  auto result = tune::tune_designs(spaces, "exact", options);
  std::printf("\n%-20s %12s %8s %8s  %s\n", "design", "latency", "DSP", "BRAM18K", "tiling (t1/t2 per loop)");
  for (size_t x = 0; x < spaces.size(); ++x) {
    const auto& r = result.per_design[x];
    if (!r.found) continue;
    auto cfg = tune::tuned_configuration(spaces[x], r, options.goal);
    std::printf("%-20s %12.2f %8.0f %8.0f  %s%s\n", labels[x].c_str(), cfg["latency"].get<double>(),
                cfg["dsp"].get<double>(), cfg["bram18k"].get<double>(), cfg["params"].dump().c_str(),
                x == result.best_index ? "  <- best" : "");
  }
  auto best = tune::tuned_configuration(spaces[result.best_index], result.best(), options.goal);
  double seconds = 0;
  long long evaluations = 0;
  size_t proven = 0;
  for (const auto& r : result.per_design) {
    seconds += r.seconds, evaluations += static_cast<long long>(r.evaluations);
    proven += r.complete && r.found;
  }
  std::printf("\nexact search over all %zu designs: %.1f s, %lld evaluations, %zu optima proven\n", spaces.size(),
              seconds, evaluations, proven);
  best.erase("seconds");  // the checked-in configuration is deterministic
  best.erase("evaluations");
  best["sadsl_design"] = labels[result.best_index];
  std::ofstream(out / "tuned.json") << best.dump(2) << "\n";
  std::printf("best design %s: %.2f cycles; wrote %s, %s, %s\n", labels[result.best_index].c_str(),
              best["latency"].get<double>(), (out / "polyhedral.txt").c_str(), (out / "designs.txt").c_str(),
              (out / "tuned.json").c_str());
  return 0;
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
