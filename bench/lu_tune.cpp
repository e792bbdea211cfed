// LU (the uniform recurrence of catalog::lu_uniform) tuned end to end with sadsl's own models:
// compile() without the reduced-instance checks, its exact search to the proven optimum over the
// designs sadsl models (all 18: chains and grids of PEs, docs/modeling.md, "Triangular designs"),
// at each problem size N given. The triangular models sum one phase per tile, so their evaluation
// grows with the tile count; this prints the time of each step. Usage: bench_lu_tune [threads (2)]
// [N ...] (64 and 128 when none is given).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sadsl/sadsl.hpp>

int main(int argc, char** argv) {
  try {
    unsigned threads = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 2;
    std::vector<int64_t> sizes;
    for (int a = 2; a < argc; ++a) sizes.push_back(std::atoll(argv[a]));
    if (sizes.empty()) sizes = {64, 128};
    for (int64_t n : sizes) {
      sadsl::kernel lu = sadsl::catalog::lu_uniform();
      lu.get_param("N").set(n);
      sadsl::compile_options o;
      o.verify = false;
      o.models = sadsl::compiler_models(o.device);
      o.method = "exact";
      o.search.seconds = 0;  // to the proven optimum
      o.search.threads = threads;
      o.threads = threads;
      sadsl::compile_result r = sadsl::compile(lu, o);
      std::printf("LU N = %lld, %u threads: %zu designs modeled of %zu\n", static_cast<long long>(n), threads, r.spaces.size(),
                  r.designs.size());
      for (const auto& s : r.steps) std::printf("  %-12s %8.2f s\n", s.name.c_str(), s.seconds);
      if (r.tuned())
        std::printf("  best %s, %.0f cycles predicted\n", r.best_design().name().c_str(),
                    r.tuned_configuration().at("latency").get<double>());
      std::fflush(stdout);
    }
    return 0;
  } catch (const sadsl::error& e) {
    std::fprintf(stderr, "bench_lu_tune: %s\n", e.what());
    return 1;
  }
}
