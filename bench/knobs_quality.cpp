// Benchmark of the tuning-knob search (paper 004 section 8): on failure-prone spaces, how many tests
// do the full method, pseudorandom search and the search with trivial failure handling need to reach
// 90% of the optimum? 11 seeds x 50 tests per space and method.
//
//   bench_knobs_quality [--seeds N] [--first-seed N] [--tests N] [--only TEXT] [--svg FILE] [--map]
//                       [--gabriel] [--candidates N]
//
// --gabriel uses the Gabriel-like neighbourhood instead of the 2 x knobs nearest tested points;
// --candidates N scores N random candidates per step instead of 100.
// --map prints each space's failure map instead (rows: second knob, columns: first knob; 0-9: decile
// of normalised quality, D/I/T: data memory, instruction memory, compile time limit failures).
// The last line is `tests-to-90%: full X, random Y, trivial Z`, medians over all spaces and seeds;
// a search that never reaches 90% counts as tests + 1.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "knobs/registry.hpp"
#include "knobs/statistics.hpp"
#include "knobs/svg_plot.hpp"

using namespace sadsl::knobs;
using namespace sadsl::knobs::bench;

namespace {

struct settings {
  int seeds = 11;
  int first_seed = 1;
  int tests = 50;
  std::string only;
  std::string svg;
  bool map = false;
  bool gabriel = false;
  int candidates = 100;
};

settings parse(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error("missing value after " + arg);
      return std::string(argv[++i]);
    };
    if (arg == "--seeds")
      s.seeds = std::stoi(value());
    else if (arg == "--first-seed")
      s.first_seed = std::stoi(value());
    else if (arg == "--tests")
      s.tests = std::stoi(value());
    else if (arg == "--only")
      s.only = value();
    else if (arg == "--svg")
      s.svg = value();
    else if (arg == "--map")
      s.map = true;
    else if (arg == "--gabriel")
      s.gabriel = true;
    else if (arg == "--candidates")
      s.candidates = std::stoi(value());
    else
      throw std::runtime_error("unknown argument " + arg);
  }
  return s;
}

struct method_info {
  method strategy;
  const char* name;
  const char* colour;
};
constexpr method_info methods[] = {{method::full, "full", "#1f77b4"},
                                   {method::random, "random", "#ff7f0e"},
                                   {method::trivial_failures, "trivial", "#2ca02c"}};

// The objective's value for a passing outcome.
double objective_value(const test_space& s, const outcome& o) {
  const bound_feature objective(*s.tuning.objective(), s.tuning.sensors(), "objective");
  std::vector<double> values;
  for (const std::string& name : s.tuning.sensors()) values.push_back(o.sensors.count(name) ? o.sensors.at(name) : NAN);
  return objective.evaluate(values);
}

// The best passing quality of a space, by testing every configuration.
double optimum(const test_space& s) {
  std::optional<double> best;
  for (const configuration& c : every_configuration(s.tuning)) {
    const outcome o = s.evaluate(c);
    if (!o.passed) continue;
    const double q = objective_value(s, o);
    if (!best || (s.tuning.maximizing() ? q > *best : q < *best)) best = q;
  }
  if (!best) throw std::runtime_error("space " + s.name + " has no passing configuration");
  return *best;
}

void print_map(const test_space& s) {
  const double best = optimum(s);
  const auto all = every_configuration(s.tuning);
  const std::size_t columns = s.tuning.knobs()[0].size(), rows = s.tuning.knobs()[1].size();
  std::size_t passing = 0;
  std::string text;
  for (std::size_t r = rows; r-- > 0;) {
    for (std::size_t c = 0; c < columns; ++c) {
      const outcome o = s.evaluate(all[c * rows + r]);
      if (o.passed) {
        ++passing;
        const double q = normalised(objective_value(s, o), best, s.tuning.maximizing());
        text += static_cast<char>('0' + std::min(9, static_cast<int>(q * 10)));
      } else {
        text += o.failure_kind[0] == 'd' ? 'D' : o.failure_kind[0] == 'i' ? 'I' : 'T';
      }
    }
    text += '\n';
  }
  std::size_t good = 0;
  for (const configuration& c : all) {
    const outcome o = s.evaluate(c);
    if (o.passed && normalised(objective_value(s, o), best, s.tuning.maximizing()) >= 0.9) ++good;
  }
  fmt::print("{} ({} x {}; {} of {} pass, {} within 90% of the optimum)\n{}\n", s.name, s.tuning.knobs()[0].name(),
             s.tuning.knobs()[1].name(), passing, all.size(), good, text);
}

struct space_runs {
  std::vector<std::vector<double>> curves[3];  // per method, per seed
};

space_runs run_space(const test_space& s, const settings& cfg) {
  const double best = optimum(s);
  space_runs runs;
  for (int m = 0; m < 3; ++m)
    for (int seed = cfg.first_seed; seed < cfg.first_seed + cfg.seeds; ++seed) {
      search_options o;
      o.tests = cfg.tests;
      o.seed = static_cast<std::uint64_t>(seed);
      o.strategy = methods[m].strategy;
      if (cfg.gabriel) o.neighbours = neighbourhood::gabriel;
      o.candidates = cfg.candidates;
      const search_result r = search(s.tuning, s.evaluate, o);
      runs.curves[m].push_back(running_best(r, best, s.tuning.maximizing(), cfg.tests));
    }
  return runs;
}

std::vector<double> tests_to_90(const std::vector<std::vector<double>>& curves) {
  std::vector<double> out;
  for (const auto& c : curves) out.push_back(tests_to_reach(c, 0.9));
  return out;
}

plot_series summarise(const method_info& m, const std::vector<std::vector<double>>& curves, int tests) {
  plot_series s{m.name, m.colour, {}, {}, {}};
  for (int t = 0; t < tests; ++t) {
    std::vector<double> at;
    for (const auto& c : curves) at.push_back(c[static_cast<std::size_t>(t)]);
    s.median.push_back(median(at));
    s.low.push_back(quantile(at, 0.1));
    s.high.push_back(quantile(at, 0.9));
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) try {
  const settings cfg = parse(argc, argv);
  std::vector<test_space> spaces;
  for (test_space& s : all_spaces())
    if (s.name.find(cfg.only) != std::string::npos) spaces.push_back(std::move(s));
  if (cfg.map) {
    for (const test_space& s : spaces) print_map(s);
    return 0;
  }
  std::vector<std::vector<double>> all_curves[3];
  fmt::print("{:<28} {:>8} {:>8} {:>8}   median tests to 90% of the optimum ({} seeds, {} tests; {} = not reached)\n",
             "space", "full", "random", "trivial", cfg.seeds, cfg.tests, cfg.tests + 1);
  for (const test_space& s : spaces) {
    const space_runs runs = run_space(s, cfg);
    fmt::print("{:<28}", s.name);
    for (int m = 0; m < 3; ++m) {
      fmt::print(" {:>8g}", median(tests_to_90(runs.curves[m])));
      all_curves[m].insert(all_curves[m].end(), runs.curves[m].begin(), runs.curves[m].end());
    }
    fmt::print("\n");
    std::fflush(stdout);
  }
  std::vector<plot_series> series;
  for (int m = 0; m < 3; ++m) series.push_back(summarise(methods[m], all_curves[m], cfg.tests));
  fmt::print("median best quality / optimum after 10, 25, {} tests:", cfg.tests);
  for (const plot_series& s : series)
    fmt::print(" {} {:.3f} {:.3f} {:.3f};", s.name, s.median[std::min(9, cfg.tests - 1)],
               s.median[std::min(24, cfg.tests - 1)], s.median.back());
  fmt::print("\n");
  if (!cfg.svg.empty()) {
    std::ofstream(cfg.svg) << quality_plot(cfg.tests).render(
        series, fmt::format("Best quality found vs tests ({} spaces x {} seeds)", spaces.size(), cfg.seeds));
  }
  fmt::print("tests-to-90%: full {:g}, random {:g}, trivial {:g}\n", median(tests_to_90(all_curves[0])),
             median(tests_to_90(all_curves[1])), median(tests_to_90(all_curves[2])));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_knobs_quality: %s\n", e.what());
  return 1;
}
