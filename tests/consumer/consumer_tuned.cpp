// Tunes the consumer's kernel with sadsl's own models compiled into this program
// (sadsl_add_kernel): every design that has a model must find it compiled ahead of time, so the
// check runs this with SADSL_CXX naming no compiler.
#include <cstdio>

#include "consumer_kernel.hpp"

int main() try {
  using namespace sadsl;
  kernel mm = consumer_mm();
  size_t compiled = model::ahead_of_time_models().size();
  std::printf("%zu models compiled ahead of time\n", compiled);
  compile_options o;
  o.verify = false;
  o.models = compiler_models();
  o.method = "random";
  o.search.seconds = 0;
  o.search.max_evaluations = 200;
  compile_result r = compile(mm, o);
  if (compiled == 0 || r.spaces.empty() || !r.tuned()) return 1;
  for (size_t s = 0; s < r.spaces.size(); ++s) {
    if (r.spaces[s].evaluator().active_backend() != model::backend::ahead_of_time) {
      std::printf("design %s: no model compiled ahead of time\n", r.designs[r.space_design[s]].name().c_str());
      return 1;
    }
  }
  std::printf("tuned %s with %zu models compiled ahead of time\n", r.best_design().name().c_str(), r.spaces.size());
  return 0;
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
