// The padding-based search (Algorithm 1) against the exact search on all 18 MM designs, and the
// divisor-only optimum (every t1 | N) against the full optimum (paper 001, table 3).
// Usage: bench_tune_padding [seconds cap for the padding search per design (60)]
#include <cstdio>

#include "sadsl/tune/search.hpp"
#include "tune_bench_support.hpp"

int main(int argc, char** argv) {
  using namespace sadsl::tune;
  using namespace sadsl::tune::bench;
  double cap = argc > 1 ? std::stod(argv[1]) : 60;
  std::printf("| design | optimum | padding found | padding evaluations | padding s | complete | exact evaluations | exact s (1 thread) "
              "| divisor-only optimum | loss without padding |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [design, best] : optima()) {
    design_space space = mm_space(design);
    search_options padding_options;
    padding_options.seconds = cap;
    search_result padding = make_search("padding")->run(space, padding_options);
    search_options exact_options;
    exact_options.seconds = 0;
    exact_options.threads = 1;
    search_result exact = make_search("exact")->run(space, exact_options);
    space_options divisors;
    divisors.divisor_tiles_only = true;
    search_result divisor_only = make_search("exact")->run(mm_space(design, divisors), exact_options);
    std::printf("| %s | %.2f | %.2f%s | %llu | %.2f | %s | %llu | %.2f | %.2f | %.1f%% |\n", design.c_str(), best.latency, padding.cost,
                padding.cost == exact.cost ? "" : " (not optimal)", static_cast<unsigned long long>(padding.evaluations),
                padding.seconds, padding.complete ? "yes" : "no", static_cast<unsigned long long>(exact.evaluations), exact.seconds,
                divisor_only.cost, 100 * (1 - exact.cost / divisor_only.cost));
    std::fflush(stdout);
  }
  return 0;
}
