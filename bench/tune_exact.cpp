// The exact search on all 18 Odyssey MM designs (1024^3, U250 x 0.7) against optima.csv:
// time, model evaluations, and whether the optimum matches. Usage: bench_tune_exact [threads]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sadsl/tune/design_space.hpp"
#include "sadsl/tune/search.hpp"
#include "tune_bench_support.hpp"

int main(int argc, char** argv) {
  using namespace sadsl::tune;
  using namespace sadsl::tune::bench;
  unsigned threads = argc > 1 ? static_cast<unsigned>(std::stoi(argv[1])) : 2;
  std::string only = argc > 2 ? argv[2] : "";  // one design, e.g. kernel3_2
  double total = 0;
  int matches = 0;
  std::printf("| design | optimum (cycles) | exact | match | evaluations | seconds |\n|---|---|---|---|---|---|\n");
  for (const auto& [design, best] : optima()) {
    if (!only.empty() && design != only) continue;
    double expected = best.latency;
    design_space space = mm_space(design);
    search_options options;
    options.seconds = 0;
    options.threads = threads;
    search_result r = make_search("exact")->run(space, options);
    bool match = r.found && r.complete && std::fabs(r.cost - expected) <= 1e-9 * expected;
    matches += match;
    total += r.seconds;
    std::printf("| %s | %.2f | %.2f | %s | %llu | %.3f |\n", design.c_str(), expected, r.cost, match ? "yes" : "NO",
                static_cast<unsigned long long>(r.evaluations), r.seconds);
    std::fflush(stdout);
  }
  std::printf("\n%d of 18 optima reproduced, %.2f s in total with %u threads\n", matches, total, threads);
  return matches == 18 || !only.empty() ? 0 : 1;
}
