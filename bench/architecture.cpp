// Building architectures: every MM design at 1024^3, symbolic (factors unbound: read off the
// template architecture) and concrete, bound to its sample point (non-divisor first-level
// factors: I/O groups, routing, networks, module programs), with the time per design; then the
// symbolic form bound at that point, which must give the concrete one's counts.
// Usage: bench_architecture [repeats (3)]
#include <chrono>
#include <cstdio>
#include <string>

#include <sadsl/sadsl.hpp>
#include <sadsl/compute/verify.hpp>
#include <sadsl/modeling/symbolic_architecture.hpp>

int main(int argc, char** argv) {
  using namespace sadsl;
  using clock = std::chrono::steady_clock;
  int repeats = argc > 1 ? std::stoi(argv[1]) : 3;
  kernel mm = catalog::mm();
  auto t0 = clock::now();
  auto ds = designs(mm);
  double designs_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  std::printf("designs of MM: %zu in %.1f ms\n\n| design | PEs | modules | FIFOs | symbolic ms | concrete ms | bind us |\n"
              "|---|---|---|---|---|---|---|\n", ds.size(), designs_ms);
  double total = 0, total_symbolic = 0;
  int mismatches = 0;
  for (const auto& d : ds) {
    architecture_point p{sample_point(d), {}, false};
    double best = 1e300, best_symbolic = 1e300, best_bind = 1e300;
    architecture a;
    symbolic_architecture sym;
    architecture_counts bound;
    for (int r = 0; r < repeats; ++r) {
      auto start = clock::now();
      sym = build_symbolic_architecture(d);
      auto built = clock::now();
      bound = counts_at(sym, p.factors, mm);
      auto bound_at = clock::now();
      a = build_architecture(d, p);
      auto end = clock::now();
      best_symbolic = std::min(best_symbolic, std::chrono::duration<double, std::milli>(built - start).count());
      best_bind = std::min(best_bind, std::chrono::duration<double, std::micro>(bound_at - built).count());
      best = std::min(best, std::chrono::duration<double, std::milli>(end - bound_at).count());
    }
    total += best;
    total_symbolic += best_symbolic;
    if (!(bound == counts_of(a))) ++mismatches;
    std::printf("| %s | %lld | %zu | %zu | %.1f | %.1f | %.0f |\n", d.name().c_str(), static_cast<long long>(a.pe_count()),
                a.modules.size(), a.fifos.size(), best_symbolic, best, best_bind);
  }
  double n = static_cast<double>(ds.size());
  std::printf("\nmean per design (best of %d): symbolic %.1f ms, concrete %.1f ms (target: 20 ms)\n", repeats, total_symbolic / n,
              total / n);
  std::printf("symbolic forms bound at the sample point that differ from the concrete: %d\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
