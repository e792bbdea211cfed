// Matrix multiplication end to end: describe the kernel in the DSL, then run the flow
// (sadsl::compile, src/driver/compile.cpp): polyhedral model, every dataflow x tile order with
// array partitioning, latency hiding and SIMD, each design checked on a reduced instance by the
// reference interpreter and by running its PE array and I/O network, an exact search of every
// design for an Alveo U250, the tuned design's architecture and its HLS C.
//
// The designs are modelled by the descriptors AutoSA wrote when they are there
// (../shared/reference/odyssey/descriptors/gemm beside the source tree, or the folder given as
// second argument: the reference the checked-in generated/mm/ was tuned with); without them, by
// sadsl's own compiler-built models (compiler_models(), docs/modeling.md).
//
// Writes generated/mm/{polyhedral.txt, designs.txt, tuned.json, report.md, architecture.txt,
// architecture.dot, symbolic_architecture.txt} and the tuned design's Vitis HLS project generated/mm/<design>/ (or into the
// folder given as first argument); everything is deterministic. Then it C-simulates the tuned
// design (g++ against sadsl's simulation headers, sequentially as Vitis csim) on a reduced
// problem with the same tiling, in a temporary folder; `--no-csim` as third argument skips that.
#include "example_flow.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

using namespace sadsl;

namespace {

// The tuned design's HLS project at I, J, K = 1.5 x its first-level factors (one whole and one
// partial tile per loop, a problem small enough to simulate in seconds), built with g++ and run
// sequentially; true when the testbench prints PASSED against its plain loop nest.
bool csim_reduced(const kernel& mm, const compile_result& r) {
  const design& d = r.best_design();
  design_point point = r.best_point();
  auto t1 = [&](const std::string& name) {
    for (const auto& [f, v] : point)
      if (d.name_of(f) == name) return v;
    throw error("the tuned point has no " + name);
  };
  std::vector<int64_t> sizes = {t1("i_t1"), t1("j_t1"), t1("k_t1")};  // I, J, K: the order they were declared
  scoped_sizes reduced(mm, [&](int64_t n, int64_t) { return sizes[static_cast<size_t>(n)] * 3 / 2 + 1; });
  architecture a = build_architecture(d, {point, {}, false});
  std::printf("\nC simulation of %s at I, J, K = %lld, %lld, %lld (same tiling) ", d.name().c_str(),
              static_cast<long long>(mm.params()[0].value()), static_cast<long long>(mm.params()[1].value()),
              static_cast<long long>(mm.params()[2].value()));
  return sadsl_examples::csim_sequential(a, "mm");
}

int run(int argc, char** argv) {
  kernel mm("mm");
  param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
  auto A = mm.input<float>("A", {I, K});
  auto B = mm.input<float>("B", {K, J});
  auto C = mm.output<float>("C", {I, J});
  loop i(I), j(J), k(K);
  C(i, j) += A(i, k) * B(k, j);

  compile_options options;
  options.output = argc > 1 ? argv[1] : "generated/mm";
  std::filesystem::path models = argc > 2 ? argv[2] : SADSL_SHARED_DIR "/reference/odyssey/descriptors/gemm";
  bool odyssey = std::filesystem::is_directory(models);
  options.models = odyssey ? odyssey_models(models) : compiler_models(options.device);
  // The exact search proves the optimum: of every design in seconds over the imported models
  // (the report compares them all); over sadsl's own in about four seconds, each design
  // searched only for what beats the designs before it (the others are reported "cut off").
  options.method = "exact";
  options.search.seconds = 600;
  options.search.threads = 0;  // on every core: the optimum and its ties do not depend on the threads
  options.search.settings.cutoff_across_designs = !odyssey;
  options.hls.sim_include = "../../../include/sadsl/sim";  // from generated/mm/<design>/ (make csim)
  compile_result r = compile(mm, options);

  std::printf("%zu designs, each verified by the interpreter and the architecture executor:\n", r.designs.size());
  for (const auto& d : r.designs) std::printf("  %s\n", d.name().c_str());
  if (!r.tuned()) {
    std::printf("not tuned: %s\n", r.not_tuned.c_str());
    return 0;
  }
  std::printf("\n%s", r.report().c_str());
  std::printf("models: %s\n", odyssey ? models.c_str() : "sadsl's own (compiler_models)");
  auto best = r.tuned_configuration();
  std::printf("\nbest: %s\n", best.dump(2).c_str());
  std::printf("architecture: %lld PEs, %zu FIFOs\n", static_cast<long long>(r.tuned_architecture->pe_count()),
              r.tuned_architecture->fifos.size());
  for (const auto& s : r.steps) std::printf("  %-12s %8.3f s\n", s.name.c_str(), s.seconds);
  std::printf("wrote %s\n", options.output.c_str());
  if (argc > 3 && std::string(argv[3]) == "--no-csim") return 0;
  if (!csim_reduced(mm, r)) {
    std::fprintf(stderr, "error: the C simulation of the tuned design failed\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return sadsl_examples::report_errors([&] { return run(argc, argv); });
}
