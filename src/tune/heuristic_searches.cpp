// The sampling searches: random, simulated annealing and the evolutionary (genetic) search.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "local_search.hpp"
#include "operators.hpp"
#include "sadsl/error.hpp"
#include "searches.hpp"
#include "tracker.hpp"

namespace sadsl::tune {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

void require_budget(const std::string& method, const search_options& options) {
  if (options.seconds <= 0 && options.max_evaluations == 0 && !options.stop)
    throw error("search \"" + method + "\" needs a time or evaluation budget");
}

class random_search final : public search {
public:
  std::string name() const override { return "random"; }
  search_result run(const design_space& space, const search_options& options) const override {
    require_budget(name(), options);
    space.check_fits();
    tracker track(space, options, name());
    rng random(options.seed);
    while (!track.exhausted()) track.evaluate(random_tiling(space, random));
    return track.finish(false);
  }
};

// Annealing on relative cost differences; the temperature falls linearly with the budget used.
class annealing_search final : public search {
public:
  std::string name() const override { return "annealing"; }
  search_result run(const design_space& space, const search_options& options) const override {
    require_budget(name(), options);
    space.check_fits();
    tracker track(space, options, name());
    rng random(options.seed);
    tiling current = random_tiling(space, random);
    double cost = track.evaluate(current);
    const double start_temperature = 0.2;
    while (!track.exhausted()) {
      if (!std::isfinite(cost)) {  // restart until a feasible point is found
        current = random_tiling(space, random);
        cost = track.evaluate(current);
        continue;
      }
      tiling next = mutate(space, current, options.settings.alpha, random);
      double next_cost = track.evaluate_cached(next, true);
      double temperature = start_temperature * (1 - used_fraction(track)) + 1e-6;
      double delta = (next_cost - cost) / cost;
      if (delta <= 0 || (std::isfinite(delta) && random.chance(std::exp(-delta / temperature)))) {
        current = std::move(next);
        cost = next_cost;
      }
    }
    return track.finish(false);
  }

private:
  static double used_fraction(const tracker& track) {
    double used = 0;
    if (track.options().seconds > 0) used = track.elapsed() / track.options().seconds;
    if (track.options().max_evaluations)
      used = std::max(used, static_cast<double>(track.evaluations()) / static_cast<double>(track.options().max_evaluations));
    return std::min(used, 1.0);
  }
};

struct individual {
  tiling genes;
  double cost = infinity;
};

std::size_t tournament(const std::vector<individual>& population, rng& random) {
  std::size_t best = random.index(population.size());
  for (int round = 0; round < 2; ++round) {
    std::size_t other = random.index(population.size());
    if (population[other].cost < population[best].cost) best = other;
  }
  return best;
}

// Two parents by tournament, crossover per loop, hybrid mutation; a child equal to a parent keeps
// the parent's cost (no new evaluation).
individual breed(const design_space& space, const std::vector<individual>& population, const search_settings& knobs, rng& random) {
  const individual& a = population[tournament(population, random)];
  const individual& b = population[tournament(population, random)];
  individual child{crossover(space, a.genes, b.genes, random), infinity};
  if (random.chance(knobs.mutation_rate)) {
    child.genes = mutate(space, child.genes, knobs.alpha, random);
    // Sometimes a second loop moves too: optima often need two loops to change together (the
    // PE counts of a 2-D array share one DSP budget).
    if (random.chance(knobs.second_mutation_rate)) child.genes = mutate(space, child.genes, knobs.alpha, random);
  }
  if (child.genes == a.genes) child.cost = a.cost;
  else if (child.genes == b.genes) child.cost = b.cost;
  return child;
}

struct polish_state {
  std::unordered_set<tiling, tiling_hash> polished;  ///< points a descent started from or reached
  double deepest = infinity;                         ///< the best cost a descent with shifts reached
};

// The memetic step (sadsl's, not Odyssey's): the best individual not polished yet is replaced by
// its local optimum (local_search.hpp). Only a point better than every earlier one gets the
// costly shifts, so most descents stay cheap and many basins are visited. True when the
// population changed.
bool polish_best(const design_space& space, std::vector<individual>& population, polish_state& state, tracker& track) {
  auto unpolished = std::find_if(population.begin(), population.end(), [&](const individual& x) {
    return std::isfinite(x.cost) && !state.polished.count(x.genes);
  });
  if (unpolished == population.end()) return false;
  state.polished.insert(unpolished->genes);
  local_optimum better = descend(space, unpolished->genes, unpolished->cost, track, false);
  if (better.cost < state.deepest && !track.exhausted()) {
    better = descend(space, better.point, better.cost, track, true);
    state.deepest = better.cost;
  }
  state.polished.insert(better.point);
  // A local optimum already in the population would only be a copy: the individual stays.
  if (std::any_of(population.begin(), population.end(), [&](const individual& x) { return x.genes == better.point; })) return false;
  *unpolished = {std::move(better.point), better.cost};
  return true;
}

}  // namespace

/// The evolutionary search (Odyssey section 4.1): tournament selection, crossover per loop,
/// hybrid mutation, elitism; children equal to a point seen before are not evaluated again.
/// `seeds` (e.g. the MP solutions) go into the first population. With `polish`, one individual
/// per generation is replaced by its local optimum (see polish_best).
search_result run_genetic(const design_space& space, const search_options& options, const std::vector<tiling>& seeds,
                          bool polish, tracker& track) {
  const search_settings& knobs = options.settings;
  rng random(options.seed);
  std::size_t size = std::max<std::size_t>(knobs.population, 4);
  std::vector<individual> population;
  for (const tiling& s : seeds)
    if (population.size() < size && !track.exhausted()) population.push_back({s, track.evaluate_cached(s)});
  while (population.size() < size && !track.exhausted()) {
    tiling t = random_tiling(space, random);
    population.push_back({t, track.evaluate_cached(t)});
  }
  auto by_cost = [](const individual& a, const individual& b) { return a.cost < b.cost; };
  double best = infinity;
  std::size_t stagnant = 0;
  polish_state memetic;
  while (!track.exhausted()) {
    std::stable_sort(population.begin(), population.end(), by_cost);
    if (polish && polish_best(space, population, memetic, track)) std::stable_sort(population.begin(), population.end(), by_cost);
    // Restart around the elite when the population has converged (no progress for a while).
    stagnant = population.front().cost < best ? 0 : stagnant + 1;
    best = std::min(best, population.front().cost);
    bool restart = stagnant >= knobs.restart_generations;
    if (restart) stagnant = 0;
    std::size_t elite = std::min(knobs.elite, population.size());
    std::vector<individual> next(population.begin(), population.begin() + static_cast<long>(elite));
    std::unordered_set<tiling, tiling_hash> members;
    for (const individual& e : next) members.insert(e.genes);
    while (next.size() < population.size() && !track.exhausted()) {
      individual child = restart ? individual{random_tiling(space, random), infinity} : breed(space, population, knobs, random);
      // A copy of a member adds nothing: mutate it until it is new (a few tries).
      bool fresh = child.cost == infinity;
      for (int retry = 0; retry < 4 && members.count(child.genes); ++retry) {
        child.genes = mutate(space, child.genes, knobs.alpha, random);
        fresh = true;
      }
      if (fresh) child.cost = track.evaluate_cached(child.genes);
      members.insert(child.genes);
      next.push_back(std::move(child));
    }
    population = std::move(next);
  }
  return track.finish(false);
}

namespace {

class genetic_search final : public search {
public:
  std::string name() const override { return "genetic"; }
  search_result run(const design_space& space, const search_options& options) const override {
    require_budget(name(), options);
    space.check_fits();
    tracker track(space, options, name());
    return run_genetic(space, options, {}, false, track);
  }
};

}  // namespace

std::unique_ptr<search> make_random_search() { return std::make_unique<random_search>(); }
std::unique_ptr<search> make_annealing_search() { return std::make_unique<annealing_search>(); }
std::unique_ptr<search> make_genetic_search() { return std::make_unique<genetic_search>(); }

}  // namespace sadsl::tune
