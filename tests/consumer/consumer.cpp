// What a user's own program does with an installed sadsl: describe a kernel, enumerate its
// designs, and tune one of them with an evaluation budget (the models: AutoSA's descriptors in
// the folder given as first argument).
#include <cstdio>
#include <filesystem>

#include "consumer_kernel.hpp"

int main(int argc, char** argv) try {
  using namespace sadsl;
  kernel mm = consumer_mm();

  auto ds = designs(mm);
  std::printf("%zu designs\n", ds.size());
  if (ds.size() != 18) return 1;
  if (argc < 2 || !std::filesystem::is_directory(argv[1])) {
    std::printf("SADSL_SKIPPED: no descriptor folder to tune with\n");
    return 0;
  }
  compile_options o;
  model_source all = odyssey_models(argv[1]);
  std::string first = ds.front().name();
  o.models = [&](const design& d) { return d.name() == first ? all(d) : std::nullopt; };
  o.method = "random";
  o.search.seconds = 0;
  o.search.max_evaluations = 500;
  compile_result r = compile(mm, o);
  if (!r.tuned() || r.tuning->best().evaluations > 500) return 1;
  std::printf("tuned %s: %.0f cycles after %llu evaluations\n", r.best_design().name().c_str(),
              r.tuning->best().metrics.latency, static_cast<unsigned long long>(r.tuning->best().evaluations));
  return 0;
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
