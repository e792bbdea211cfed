// Quality vs time of every search on the 2-D MM designs (kernel3_x, 4_x, 5_x; 1024^3, U250 x 0.7):
// the best latency found, as a fraction of the exact optimum, within 0.1 s, 1 s and 5 s,
// single-threaded. Usage: bench_tune_quality [seeds for the table (1; 0: no table)]
// [seeds for the genetic-mp check (10)] [seconds for the check (1)]
#include <cstdio>
#include <string>
#include <vector>

#include "sadsl/tune/search.hpp"
#include "tune_bench_support.hpp"

int main(int argc, char** argv) {
  using namespace sadsl::tune;
  using namespace sadsl::tune::bench;
  int table_seeds = argc > 1 ? std::stoi(argv[1]) : 1;
  int check_seeds = argc > 2 ? std::stoi(argv[2]) : 10;
  double check_seconds = argc > 3 ? std::stod(argv[3]) : 1;
  const std::vector<std::string> designs = {"kernel3_0", "kernel3_1", "kernel3_2", "kernel4_0", "kernel4_1",
                                            "kernel4_2", "kernel5_0", "kernel5_1", "kernel5_2"};
  const std::vector<std::string> methods = {"random", "annealing", "genetic", "mp", "genetic-mp", "padding"};
  const std::vector<double> budgets = {0.1, 1, 5};
  auto best = optima();
  if (table_seeds > 0)
    std::printf("Mean fraction of the optimum reached (optimum / found), %d seed(s)\n\n| design | method | 0.1 s | 1 s | 5 s |\n|---|---|---|---|---|\n",
                table_seeds);
  for (const std::string& design : designs) {
    if (table_seeds < 1) break;
    design_space space = mm_space(design);
    for (const std::string& method : methods) {
      std::printf("| %s | %s |", design.c_str(), method.c_str());
      for (double seconds : budgets) {
        double sum = 0;
        for (int seed = 1; seed <= table_seeds; ++seed) {
          search_options o;
          o.seconds = seconds;
          o.seed = static_cast<std::uint64_t>(seed);
          search_result r = make_search(method)->run(space, o);
          sum += r.found ? best[design].latency / r.cost : 0;
        }
        std::printf(" %.4f |", sum / table_seeds);
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  std::printf("\ngenetic-mp, %g s, single thread: seeds (of %d) reaching >= 99%% of the optimum\n\n| design | seeds >= 99%% | worst |\n|---|---|---|\n",
              check_seconds, check_seeds);
  for (const std::string& design : designs) {
    design_space space = mm_space(design);
    int reached = 0;
    double worst = 1;
    for (int seed = 1; seed <= check_seeds; ++seed) {
      search_options o;
      o.seconds = check_seconds;
      o.seed = static_cast<std::uint64_t>(seed);
      search_result r = make_search("genetic-mp")->run(space, o);
      double q = r.found ? best[design].latency / r.cost : 0;
      reached += q >= 0.99;
      worst = std::min(worst, q);
    }
    std::printf("| %s | %d | %.4f |\n", design.c_str(), reached, worst);
    std::fflush(stdout);
  }
  return 0;
}
