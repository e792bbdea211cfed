// sadsl's own performance models for MM 1024^3 fp32 on the U250: DSL -> all 18 designs' models
// ready to evaluate (design_models with compiler_models, then the evaluators' just-in-time
// compilation, both on `threads` threads as compile() makes them), and the
// exact search over all 18, against the same search over the models AutoSA wrote when
// ../shared/reference/odyssey is beside the tree. Usage: bench_modeling [threads (2)] [seconds per
// search (0: unlimited)] [--per-design] (the evaluation rate and the exact search of each design too)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <sadsl/sadsl.hpp>

#include "evaluation_rate.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// Exact search of all spaces together as the tuner runs them (each design only for what beats the
// designs before it), and with `per_design` of each on its own first (a table: optimum, proven or
// not, evaluations, seconds); `budget` seconds per search (0: unlimited).
void search_all(const char* what, const std::vector<sadsl::tune::design_space>& spaces, const std::vector<std::string>& names,
                unsigned threads, double budget, bool per_design) {
  sadsl::tune::search_options o;
  o.seconds = budget;
  o.threads = threads;
  if (per_design) std::printf("\nexact search per design, %s:\n\n| design | optimum (cycles) | proven | evaluations | seconds |\n|---|---|---|---|---|\n",
              what);
  for (size_t d = 0; per_design && d < spaces.size(); ++d) {
    sadsl::tune::search_result r = sadsl::tune::make_search("exact")->run(spaces[d], o);
    std::printf("| %s | %.0f | %s | %llu | %.2f |\n", names[d].c_str(), r.found ? r.metrics.latency : 0.0,
                r.complete ? "yes" : "no", static_cast<unsigned long long>(r.evaluations), r.seconds);
    std::fflush(stdout);
  }
  auto t = clock_type::now();
  sadsl::tune::multi_result r = sadsl::tune::tune_designs(spaces, "exact", o);
  double s = seconds_since(t);
  // Complete everywhere proves the best over all designs (a design cut off cannot beat it).
  bool proven = true;
  for (const auto& d : r.per_design) proven = proven && (!d.found || d.complete);
  if (!r.found()) {
    std::printf("\nexact search over all, %s: %.2f s, nothing found\n", what, s);
    return;
  }
  std::printf("\nexact search over all, %s: %.2f s, best %s at %.0f cycles%s\n", what, s, names.at(r.best_index).c_str(),
              r.best().metrics.latency, proven ? " (proven optimal: every design searched to completion)" : "");
  std::fflush(stdout);
}

// Points per second per core of each design's compiled model (batch, all metrics, one thread):
// the slowest, the median and the fastest of the designs, and with `per_design` each design's.
void print_evaluation_rates(const std::vector<sadsl::tune::design_space>& spaces, const std::vector<std::string>& names,
                            bool per_design) {
  std::vector<std::pair<double, std::string>> rates;
  sadsl::model::device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  for (size_t d = 0; d < spaces.size(); ++d) {
    const sadsl::model::evaluator& ev = spaces[d].evaluator();
    std::vector<double> points = sadsl::bench::sample_points(ev.model(), 1 << 14);
    std::vector<sadsl::model::metrics> out(points.size() / ev.parameter_count());
    sadsl::bench::rate r =
        sadsl::bench::best_rate(out.size(), 0.5, [&] { ev.evaluate_batch(out.size(), points, out, u250); });
    rates.emplace_back(r.per_cpu_second, names[d]);
  }
  if (rates.empty()) return;
  std::sort(rates.begin(), rates.end());
  for (size_t d = 0; per_design && d < rates.size(); ++d)
    std::printf("%s| %s | %.3g points/s/core |\n", d == 0 ? "\n| design | evaluation rate |\n|---|---|\n" : "",
                rates[d].second.c_str(), rates[d].first);
  std::printf("model evaluation (compiled, batch, all metrics, one thread): %.3g points/s/core (%s) .. %.3g median .. %.3g (%s)\n",
              rates.front().first, rates.front().second.c_str(), rates[rates.size() / 2].first, rates.back().first,
              rates.back().second.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sadsl;
  unsigned threads = argc > 1 ? static_cast<unsigned>(std::stoi(argv[1])) : 2;
  double budget = argc > 2 ? std::stod(argv[2]) : 0;
  bool per_design = argc > 3 && std::string(argv[3]) == "--per-design";
  std::printf("machine: %s\n", sadsl::bench::machine_description().c_str());
  auto t0 = clock_type::now();
  kernel mm = catalog::mm();
  std::map<param_id, int64_t> sizes;
  for (const auto& p : mm.params()) sizes[p.id()] = p.value();
  std::vector<design> ds = designs(mm);
  double designs_s = seconds_since(t0);
  // The models as compile() makes them (design_models, `threads` threads); then once more on one
  // thread, outside the total, for the ratio.
  auto t1 = clock_type::now();
  std::vector<std::optional<model::design_model>> models = design_models(ds, compiler_models(), {}, threads);
  double models_s = seconds_since(t1);
  for (size_t d = 0; d < ds.size(); ++d)
    if (!models[d]) std::printf("design %s has no model\n", ds[d].name().c_str());
  auto t2 = clock_type::now();
  std::vector<tune::design_space> spaces;
  std::vector<std::string> names;
  bool compiled = true;
  // The evaluators (the models compiled together on `threads` threads), as compile() makes them.
  std::vector<model::design_model> present;
  std::vector<size_t> present_index;
  for (size_t d = 0; d < ds.size(); ++d)
    if (models[d]) {
      present.push_back(std::move(*models[d]));
      present_index.push_back(d);
    }
  std::vector<std::shared_ptr<const model::evaluator>> evaluators(ds.size());
  std::vector<std::shared_ptr<const model::evaluator>> made = model::make_evaluators(std::move(present), {}, threads);
  for (size_t p = 0; p < made.size(); ++p) evaluators[present_index[p]] = made[p];
  for (size_t d = 0; d < ds.size(); ++d) {
    if (!evaluators[d]) continue;
    compiled = compiled && evaluators[d]->active_backend() != model::backend::interpreter;
    spaces.emplace_back(evaluators[d], sizes, tune::builtin_device("u250"));
    names.push_back(ds[d].name());
  }
  double jit_s = seconds_since(t2);
  double total_s = seconds_since(t0);
  auto t3 = clock_type::now();
  design_models(ds, compiler_models(), {}, 1);
  double one_thread_s = seconds_since(t3);
  std::printf("DSL -> %zu designs %.3f s -> models %.3f s (%u threads) -> ready to evaluate (%s) %.3f s: %.3f s in all "
              "(target 1 s)\nmodels on one thread: %.3f s (%.2fx the time on %u)\n",
              ds.size(), designs_s, models_s, threads, compiled ? "compiled" : "interpreted", jit_s, total_s, one_thread_s,
              one_thread_s / models_s, threads);
  print_evaluation_rates(spaces, names, per_design);
  search_all("sadsl's models", spaces, names, threads, budget, per_design);

  std::filesystem::path descriptors = SADSL_SHARED_DIR "/reference/odyssey/descriptors/gemm";
  if (!std::filesystem::is_directory(descriptors)) {
    std::printf("(no %s: the imported models are not compared)\n", descriptors.c_str());
    return 0;
  }
  model_source imported = odyssey_models(descriptors);
  std::vector<tune::design_space> theirs;
  std::vector<std::string> their_names;
  for (const auto& d : ds)
    if (std::optional<model::design_model> m = imported(d)) {
      theirs.emplace_back(std::make_shared<const model::evaluator>(std::move(*m)), sizes, tune::builtin_device("u250"));
      their_names.push_back(d.name());
    }
  search_all("AutoSA's models", theirs, their_names, threads, budget, per_design);
  return 0;
}
