#pragma once
// What each kernel example (gemv.cpp, fir.cpp, ...) does once it has described its kernel in the
// DSL: sadsl::compile with sadsl's own compiler-built models (compiler_models(), docs/modeling.md)
// and the exact search on an Alveo U250, each design checked on a reduced instance by the
// interpreter and the architecture executor; then it prints the report (every design's tuned
// numbers), the tuned point and the steps' times, and writes generated/<kernel>/ (or the folder
// given as first argument): polyhedral.txt, designs.txt, tuned.json, report.md,
// architecture.txt, architecture.dot, symbolic_architecture.txt and the tuned design's HLS project. Deterministic: the
// exact search runs to completion. examples/mm.cpp is the fully commented walk-through.
#include <sadsl/sadsl.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

namespace sadsl_examples {

// Runs an example's body; a sadsl::error is reported as the user's, anything else as a bug.
inline int report_errors(const std::function<int()>& body) try {
  return body();
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
} catch (const sadsl::internal_error& e) {
  std::fprintf(stderr, "internal error (a bug in sadsl, please report it): %s\n", e.what());
  return 70;
}

// Writes a's HLS project into <temporary folder>/sadsl_<name>_csim, builds it with g++ against
// sadsl's simulation headers and runs it sequentially, as Vitis csim; true when the testbench
// prints PASSED against its plain loop nest. The testbench also prints each FIFO's token count
// (the executor's numbers): they stay in csim.log there.
inline bool csim_sequential(const sadsl::architecture& a, const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("sadsl_" + name + "_csim");
  std::filesystem::remove_all(dir);
  sadsl::hls_options o;
  o.sim_include = std::filesystem::absolute(SADSL_SOURCE_DIR "/include/sadsl/sim").string();
  sadsl::write_hls_project(a, dir, o);
  std::printf("in %s:\n", dir.c_str());
  std::fflush(stdout);
  std::string log = (dir / "csim.log").string();
  std::string cmd = "make -s -C " + dir.string() + " host && { " + (dir / "host").string() + " sequential > " + log +
                    "; rc=$?; tail -n 1 " + log + "; exit $rc; }";
  return std::system(cmd.c_str()) == 0;
}

// The flow of a kernel example, its errors not caught (run_flow below catches them).
inline int flow(int argc, char** argv, const std::function<sadsl::kernel()>& describe) {
  using namespace sadsl;
  kernel k = describe();
  compile_options options;
  options.output = argc > 1 ? argv[1] : "generated/" + k.name();
  options.models = compiler_models(options.device);  // the device's DRAM bandwidth per port
  options.method = "exact";
  options.search.seconds = 0;  // to the proven optimum, whatever it takes: the output must not depend on time
  options.search.threads = 0;  // on every core: the optimum and its ties do not depend on the threads
  options.hls.sim_include = "../../../include/sadsl/sim";  // from generated/<kernel>/<design>/ (make csim)
  compile_result r = compile(k, options);
  std::printf("%s: %zu designs, each verified by the interpreter and the architecture executor\n", k.name().c_str(),
              r.designs.size());
  if (!r.tuned()) {
    std::printf("not tuned: %s\n", r.not_tuned.c_str());
    return 0;
  }
  std::printf("\n%s", r.report().c_str());
  auto best = r.tuned_configuration();
  std::printf("\nbest: %s, %.0f cycles, %.1f %s, %.0f DSP", best.value("design", "").c_str(), best.value("latency", 0.0),
              best.value("throughput", 0.0), best.value("throughput_unit", "").c_str(), best.value("dsp", 0.0));
  // Null for a design that uses no DSP (value() would throw on null).
  if (best["dsp_efficiency"].is_number()) std::printf(" at %.1f%% DSP efficiency", 100 * best["dsp_efficiency"].get<double>());
  std::printf("\npoint:");
  for (const auto& [name, value] : best["params"].items()) std::printf(" %s=%s", name.c_str(), value.dump().c_str());
  std::printf("\narchitecture: %lld PEs, %zu FIFOs\n", static_cast<long long>(r.tuned_architecture->pe_count()),
              r.tuned_architecture->fifos.size());
  for (const auto& s : r.steps) std::printf("  %-12s %8.3f s\n", s.name.c_str(), s.seconds);
  std::printf("wrote %s\n", options.output.c_str());
  return 0;
}

// `describe` builds the kernel (a DSL error there is reported like any other).
inline int run_flow(int argc, char** argv, const std::function<sadsl::kernel()>& describe) {
  return report_errors([&] { return flow(argc, argv, describe); });
}

}  // namespace sadsl_examples
