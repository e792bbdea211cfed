// The exact search over sadsl's own models: its lower bounds hold for the terms the compiler-built
// models use (memory-kind indicators max(0, size - c), transfers over a packing factor that spans
// several loops, phase-by-phase latency written as sums of non-negative products), and it finds
// the optimum a full scan of the space finds.
#include <catch2/catch.hpp>

#include <atomic>
#include <limits>
#include <optional>
#include <random>

#include "../../src/tune/bound.hpp"
#include "sadsl/sadsl.hpp"

using namespace sadsl;

namespace {

struct named_space {
  std::string design;
  tune::design_space space;
};

// The design spaces of some MM designs at n^3 on `device`, from compiler-built models.
std::vector<named_space> mm_spaces(int64_t n, const tune::device& device) {
  const std::vector<std::string> names = {"[i,j] <[i,j],k>", "[k] <[i,j],k>", "[i,k] <[j,k],i>", "[i] <[i,j],k>"};
  kernel k = catalog::mm();
  std::map<param_id, int64_t> sizes;
  for (const auto& p : k.params()) {
    p.set(n);
    sizes[p.id()] = n;
  }
  std::vector<named_space> out;
  for (const auto& d : designs(k))
    if (std::find(names.begin(), names.end(), d.name()) != names.end())
      out.push_back({d.name(), tune::design_space(std::make_shared<const model::evaluator>(performance_model(d)), sizes, device)});
  REQUIRE(out.size() == names.size());
  return out;
}

// The tiling of `space` that takes chain c[l] of every loop l.
tune::tiling tiling_of(const tune::design_space& space, const std::vector<size_t>& c) {
  tune::tiling t(space.width());
  for (size_t l = 0; l < space.loops().size(); ++l) {
    size_t levels = space.loops()[l].levels.size();
    for (size_t v = 0; v < levels; ++v) t[space.loops()[l].offset + v] = space.loop_chains(l)[c[l] * levels + v];
  }
  return t;
}

// The least latency over every tiling of `space`, and the exact search's optimum agrees with it.
void check_exact_equals_scan(const tune::design_space& space) {
  double best = std::numeric_limits<double>::infinity();
  std::vector<size_t> c(space.loops().size(), 0);
  for (bool more = true; more;) {
    tune::evaluation e = space.evaluate(tiling_of(space, c), tune::objective{});
    if (e.feasible()) best = std::min(best, e.metrics.latency);
    more = false;
    for (size_t l = 0; l < c.size() && !more; ++l) {
      if (++c[l] < space.loop_chain_count(l)) more = true;
      else c[l] = 0;
    }
  }
  tune::search_options o;
  o.seconds = 0;
  tune::search_result found = tune::make_search("exact")->run(space, o);
  REQUIRE(found.found);
  CHECK(found.complete);
  CHECK(found.metrics.latency == best);
}

}  // namespace

TEST_CASE("exact search: lower bounds hold for compiler-built MM models at random points", "[exact-own]") {
  std::mt19937_64 random(3);
  int checked = 0;
  for (const auto& [name, space] : mm_spaces(1024, tune::builtin_device("u250"))) {
    INFO(name);
    tune::detail::bound_model bounds(space, model::metrics_of(space.model()).latency, {0, 1, 2});
    for (int n = 0; n < 200; ++n) {
      std::vector<size_t> chain(space.loops().size());
      std::vector<uint32_t> index(chain.size());
      for (size_t l = 0; l < chain.size(); ++l) index[l] = static_cast<uint32_t>(chain[l] = random() % space.loop_chain_count(l));
      tune::evaluation e = space.evaluate(tiling_of(space, chain), tune::objective{});
      if (!e.feasible()) continue;
      ++checked;
      for (size_t level = 1; level <= chain.size(); ++level) {
        tune::detail::node_state st{level, index.data()};
        CHECK(bounds.objective_bound(st) <= e.metrics.latency * (1 + 1e-9));
        CHECK_FALSE(bounds.resources_exceed(st));
      }
    }
  }
  CHECK(checked > 100);
}


TEST_CASE("exact search: the optimum of compiler-built MM models equals a full scan's", "[exact-own]") {
  // 40^3 on a device of 64 usable DSPs: small enough to scan every tiling, tight enough that the
  // resources bind.
  tune::device tiny = tune::builtin_device("u250");
  tiny.dsp = 64 / tiny.usable_fraction;
  int compared = 0;
  for (const auto& [name, space] : mm_spaces(40, tiny)) {
    INFO(name);
    check_exact_equals_scan(space);
    ++compared;
  }
  CHECK(compared == 4);
}

TEST_CASE("exact search: the optimum of every compiler-built FIR design equals a full scan's", "[exact-own]") {
  // FIR's packing factor spans two loops (i_t2 + t_t1 - 1 values per word): its pow2_divisor is
  // bounded by 1 below and its cap above.
  kernel k = catalog::fir();
  std::map<param_id, int64_t> sizes;
  for (const auto& p : k.params()) sizes[p.id()] = p.value();
  int compared = 0;
  for (const auto& d : designs(k)) {
    INFO(d.name());
    check_exact_equals_scan(tune::design_space(std::make_shared<const model::evaluator>(performance_model(d)), sizes,
                                               tune::builtin_device("u250")));
    ++compared;
  }
  CHECK(compared == 6);
}

// A budget that runs out while the bounds are built: building them polls the budget (the
// progress callback stops the search at its first report, which comes from that poll), and
// tune_designs then reports the design's ranking result, the best point it met.
TEST_CASE("exact search: a budget spent while the bounds are built stops the search there", "[exact-own]") {
  std::vector<named_space> spaces = mm_spaces(1024, tune::builtin_device("u250"));
  std::atomic<bool> stop{false};
  int reports = 0;
  tune::search_options o;
  o.seconds = 0;
  o.stop = &stop;
  o.progress_seconds = 0;
  o.on_progress = [&](const tune::search_progress&) {
    ++reports;
    stop = true;
  };
  tune::search_result alone = tune::make_search("exact")->run(spaces[0].space, o);
  CHECK(reports == 1);
  CHECK_FALSE(alone.found);
  CHECK_FALSE(alone.complete);
  CHECK(alone.evaluations == 0);

  stop = false;
  reports = 0;
  std::vector<tune::design_space> two = {spaces[0].space, spaces[1].space};
  tune::multi_result all = tune::tune_designs(two, "exact", o);
  CHECK(reports == 1);
  REQUIRE(all.per_design.size() == 2);
  // The ranking put one first; its exact search stopped while building bounds, so its result is
  // the ranking's; the stop leaves the other unsearched.
  int ranked = 0;
  for (const auto& r : all.per_design)
    if (r.found) {
      ++ranked;
      CHECK(r.method == "random");
      CHECK_FALSE(r.complete);
      CHECK(r.evaluations == 20000);
    }
  CHECK(ranked == 1);
  CHECK(all.found());
}

// VGG16's CONV2 layer (docs/examples): a bound of `[r,c] <[r,c,i],o>` walks a tree of hundreds of
// nodes (milliseconds each), and the search looked at its clock every 4,096 nodes: a 4 s budget
// ended after 21 to 49 s. A budget holds to a fraction of a second wherever it runs out (in the
// bounds, the ranking of roots, the choice of a search order or the search).
TEST_CASE("exact search: a time budget holds where each bound takes milliseconds (CNN)", "[exact-own]") {
  kernel k = catalog::cnn();
  std::map<param_id, int64_t> sizes;
  for (const auto& p : k.params()) {
    if (p.name() != "K") p.set(p.name() == "R" || p.name() == "C" ? 224 : 64);
    sizes[p.id()] = p.value();
  }
  std::optional<tune::design_space> space;
  for (const auto& d : designs(k))
    if (d.name() == "[r,c] <[r,c,i],o>")
      space.emplace(std::make_shared<const model::evaluator>(performance_model(d)), sizes, tune::builtin_device("u250"));
  REQUIRE(space);
  for (double budget : {2.0, 4.0}) {
    tune::search_options o;
    o.seconds = budget;
    o.threads = 1;
    tune::search_result r = tune::make_search("exact")->run(*space, o);
    INFO("budget " << budget << " s, took " << r.seconds << " s");
    CHECK(r.found);
    CHECK_FALSE(r.complete);  // it needs more than 20 s: the budget, not the search, ended it
    CHECK(r.seconds < budget + 1);
  }
}
