// Building architectures: every MM design at 1024^3, each bound to its sample point (non-divisor
// first-level factors) and built concretely (I/O groups, routing, networks, module programs as
// isl ASTs), with the time per design and where it goes. Usage: bench_architecture [repeats (3)]
#include <chrono>
#include <cstdio>
#include <string>

#include <sadsl/sadsl.hpp>
#include <sadsl/compute/verify.hpp>

int main(int argc, char** argv) {
  using namespace sadsl;
  using clock = std::chrono::steady_clock;
  int repeats = argc > 1 ? std::stoi(argv[1]) : 3;
  kernel mm = catalog::mm();
  auto t0 = clock::now();
  auto ds = designs(mm);
  double designs_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  std::printf("designs of MM: %zu in %.1f ms\n\n| design | PEs | modules | FIFOs | build ms (best of %d) |\n|---|---|---|---|---|\n",
              ds.size(), designs_ms, repeats);
  double total = 0;
  for (const auto& d : ds) {
    architecture_point p{sample_point(d), {}, false};
    double best = 1e300;
    architecture a;
    for (int r = 0; r < repeats; ++r) {
      auto start = clock::now();
      a = build_architecture(d, p);
      best = std::min(best, std::chrono::duration<double, std::milli>(clock::now() - start).count());
    }
    total += best;
    std::printf("| %s | %lld | %zu | %zu | %.1f |\n", d.name().c_str(), static_cast<long long>(a.pe_count()),
                a.modules.size(), a.fifos.size(), best);
  }
  std::printf("\nmean build time per design: %.1f ms (target: 20 ms)\n", total / static_cast<double>(ds.size()));
  return 0;
}
