#include "sadsl/tune/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::tune {

namespace {

// With a cutoff across designs, the order the designs are searched in decides how early a good
// cutoff is known: the exact search over sadsl's 18 MM models at 1024^3 takes 82 s in the given
// order, 49 s best first. A random search of each (a fixed number of evaluations from the seed:
// deterministic; milliseconds) ranks them, best first; it found the optimum's design first on
// sadsl's and AutoSA's MM models. (A genetic-mp search of the same length takes about a second
// per design.)
constexpr std::uint64_t ranking_evaluations = 20000;

// The result of a design that does not fit the device, or that a stop left unsearched.
search_result nothing_found(const design_space& space, const std::string& method) {
  search_result none;
  none.method = method;
  none.design = space.name();
  none.cost = std::numeric_limits<double>::infinity();
  return none;
}

// The order to search the designs in; `ranked` gets each design's ranking result (a random
// search), the fallback of a design whose own search a budget ends before it finds a point.
std::vector<std::size_t> search_order(const std::vector<design_space>& spaces, const std::string& method,
                                      const search_options& options, std::vector<std::optional<search_result>>& ranked) {
  ranked.assign(spaces.size(), std::nullopt);
  std::vector<std::size_t> order(spaces.size());
  for (std::size_t d = 0; d < order.size(); ++d) order[d] = d;
  if (method != "exact" || !options.settings.cutoff_across_designs || spaces.size() < 2) return order;
  std::vector<double> estimate(spaces.size(), std::numeric_limits<double>::infinity());
  auto ranking = make_search("random");
  for (std::size_t d = 0; d < spaces.size(); ++d) {
    search_options quick = options;
    // At most a tenth of a time budget goes to the ranking (models evaluated by the interpreter
    // take microseconds a point).
    quick.seconds = options.seconds > 0 ? options.seconds / (10.0 * static_cast<double>(spaces.size())) : 0;
    // No more draws than the space has points (a small space, LU's 7^3 tilings, whose models
    // sum over thousands of tiles a point, is searched whole by the exact search anyway).
    quick.max_evaluations = static_cast<std::uint64_t>(std::min(static_cast<double>(ranking_evaluations), spaces[d].point_count()));
    quick.threads = 1;
    quick.cutoff = std::numeric_limits<double>::infinity();
    quick.on_progress = nullptr;
    try {
      search_result r = ranking->run(spaces[d], quick);
      if (r.found) estimate[d] = r.cost;
      if (r.found) ranked[d] = std::move(r);
    } catch (const error&) {  // only a ranking: the exact search reports it in its turn
    }
    if (options.stop && options.stop->load()) break;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return estimate[a] < estimate[b]; });
  return order;
}

// The exact search of a design may use up to this many times its equal share of what is left of
// a budget (times search_settings::exact_budget_share), at most half of it while other designs
// follow. Designs' proofs differ by that much (CNN's 30 at catalog sizes: 0.02 to 0.34 s, 0.08 s
// on average, most of it building the bounds; MM's longest is the best-ranked design's, searched
// without a cutoff), and equal shares left them unproven where the whole search fits the budget
// (MM's 18 take 1.5 s unbudgeted; in 2.5 s 11 were left unproven and the best point was 657,412
// cycles, not the optimum 638,829; CNN in 5 s: 5 of 30 unproven). The designs are searched best
// first, so the time goes where the optimum likely is, and a design that finishes early leaves
// its time to the next ones.
constexpr double exact_lead = 8;

// What is left of tune_designs' budget (seconds and evaluations) as the designs are searched.
class budget {
public:
  explicit budget(const search_options& options) : options_(options) {}
  bool limited() const { return options_.seconds > 0 || options_.max_evaluations > 0; }
  // `base` with `fraction` of what is left (at least a millisecond and one evaluation).
  search_options take(search_options base, double fraction) const {
    if (options_.seconds > 0) base.seconds = std::max(1e-3, fraction * (options_.seconds - seconds_used()));
    if (options_.max_evaluations) {
      std::uint64_t rest = options_.max_evaluations - std::min(options_.max_evaluations, evaluations_);
      base.max_evaluations = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(fraction * static_cast<double>(rest)));
    }
    return base;
  }
  void spent(std::uint64_t evaluations) { evaluations_ += evaluations; }
  // Nothing is left: the designs not yet searched are not (each search would overrun it by its
  // minimum, a millisecond or an evaluation).
  bool used_up() const {
    return (options_.seconds > 0 && seconds_used() >= options_.seconds) ||
           (options_.max_evaluations && evaluations_ >= options_.max_evaluations);
  }

private:
  double seconds_used() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  const search_options& options_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::uint64_t evaluations_ = 0;
};

// One design's search in tune_designs, `left` designs (this one included) still to search.
// Exact with a budget takes exact_budget_share of exact_lead equal shares of what is left (at most
// half of it but for the last design) and, when it does not finish there (and nothing asked to
// stop), genetic-mp the rest of an equal share.
search_result search_design(const search& method, const design_space& space, const search_options& options,
                            budget& left, std::size_t designs_left) {
  const double part = options.settings.exact_budget_share, share = 1.0 / static_cast<double>(designs_left);
  if (method.name() != "exact" || !left.limited()) {
    search_result r = method.run(space, left.take(options, share));
    left.spent(r.evaluations);
    return r;
  }
  search_result first = method.run(space, left.take(options, part * (designs_left == 1 ? 1.0 : std::min(0.5, exact_lead * share))));
  left.spent(first.evaluations);
  if (first.complete || part >= 1 || (options.stop && options.stop->load())) return first;
  search_options rest = left.take(options, (1 - part) * share);
  rest.cutoff = std::numeric_limits<double>::infinity();
  search_result second = make_search("genetic-mp")->run(space, rest);
  left.spent(second.evaluations);
  search_result& better = second.found && (!first.found || second.cost < first.cost) ? second : first;
  better.evaluations = first.evaluations + second.evaluations;
  better.seconds = first.seconds + second.seconds;  // neither search completed: nor does the result
  return better;
}

}  // namespace

multi_result tune_designs(const std::vector<design_space>& spaces, const std::string& method, const search_options& options) {
  if (spaces.empty()) throw error("no designs to tune");
  double part = options.settings.exact_budget_share;
  if (!(part > 0 && part <= 1))
    throw error(fmt::format("search_settings::exact_budget_share must be in (0, 1] (is {})", part));
  auto search = make_search(method);
  multi_result result;
  budget left(options);  // the ranking's time included
  std::optional<does_not_fit> first_error;
  std::size_t fitting = 0;
  std::vector<std::optional<search_result>> ranked;
  std::vector<std::size_t> order = search_order(spaces, method, options, ranked);
  std::vector<std::optional<search_result>> found(spaces.size());
  for (std::size_t n = 0; n < order.size(); ++n) {
    std::size_t d = order[n];
    search_options share = options;
    // A design need only be searched for points that beat the designs searched before it.
    if (options.settings.cutoff_across_designs)
      for (const auto& r : found)
        if (r && r->found) share.cutoff = std::min(share.cutoff, r->cost);
    // A budget used up before this design leaves it its ranking's point (not complete), if any.
    if (left.used_up()) {
      if (ranked[d]) found[d] = std::move(*ranked[d]);
      fitting += ranked[d].has_value();
      continue;
    }
    try {
      found[d] = search_design(*search, spaces[d], share, left, spaces.size() - n);
      ++fitting;
      // The exact search may spend a small budget on its bounds before any point: then the
      // ranking's best point (method "random", not complete) is the best this design met.
      if (!found[d]->found && !found[d]->complete && ranked[d]) found[d] = std::move(*ranked[d]);
    } catch (const does_not_fit& e) {
      if (!first_error) first_error = e;
      found[d] = nothing_found(spaces[d], method);
      found[d]->complete = true;  // no point of the design fits: its whole space is searched
    }
    if (options.stop && options.stop->load()) break;
  }
  for (std::size_t d = 0; d < spaces.size(); ++d)  // in the given order; a stop leaves some unsearched
    result.per_design.push_back(found[d] ? std::move(*found[d]) : nothing_found(spaces[d], method));
  // On a tie the design searched first is the best: a later one was cut off at that cost.
  result.best_index = result.per_design.size();
  for (std::size_t d : order) {
    const search_result& r = result.per_design[d];
    if (r.found && (!result.found() || r.cost < result.best().cost)) result.best_index = d;
  }
  if (fitting == 0 && first_error) throw *first_error;
  return result;
}

bool complete(const multi_result& result) {
  return std::all_of(result.per_design.begin(), result.per_design.end(), [](const search_result& r) { return r.complete; });
}

bool proven_optimal(const multi_result& result) {
  if (!result.found()) return false;
  const search_result& best = result.best();
  return best.method == "exact" && best.complete && !best.cut_off && complete(result);
}

namespace {

nlohmann::ordered_json integer_or_real(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9.0e15) return static_cast<long long>(value);
  return value;
}

void add_design(nlohmann::ordered_json& j, const design_space& space) {
  j["design"] = space.name();
  j["source"] = space.model().source;
}

// Every model parameter: its value at the point and where it comes from.
void add_params(nlohmann::ordered_json& j, const design_space& space, const search_result& r) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object(), origins = nlohmann::ordered_json::object();
  const auto& model_params = space.model().params;
  for (std::size_t p = 0; p < model_params.size(); ++p) {
    if (p < r.params.size()) params[model_params[p].name] = integer_or_real(r.params[p]);
    origins[model_params[p].name] = model::origin_json(model_params[p].origin);
  }
  j["params"] = params;
  j["origins"] = origins;
}

// Bytes per DRAM port (tensor) at the point; null when nothing was found or the model gives no
// split (AutoSA's descriptors).
nlohmann::ordered_json port_bytes(const design_space& space, const search_result& r) {
  const auto& ports = space.model().dram_ports;
  if (!r.found || ports.empty() || r.params.size() != space.model().params.size()) return nullptr;
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const model::dram_port& p : ports) j[p.tensor.name()] = integer_or_real(model::evaluate(p.bytes, r.params));
  return j;
}

void add_throughput(nlohmann::ordered_json& j, const std::optional<workload>& work, double seconds_per_run) {
  if (!work) {
    j["operations"] = nullptr;
    j["throughput"] = nullptr;
    j["throughput_unit"] = nullptr;
    return;
  }
  if (!(work->operations > 0) || !std::isfinite(work->operations))
    throw error("tuned configuration: the workload's operation count must be positive and finite");
  if (!(work->operations_per_dsp >= 0) || !std::isfinite(work->operations_per_dsp))
    throw error("tuned configuration: the workload's operations per DSP must be finite and not negative");
  j["operations"] = integer_or_real(work->operations);
  j["throughput"] = seconds_per_run > 0 ? nlohmann::ordered_json(work->operations / seconds_per_run / 1e9) : nullptr;
  j["throughput_unit"] = work->floating_point ? "GFLOP/s" : "GOP/s";
}

// Whether the search covered the whole space and what that proves. A design cut off (exact search
// across designs) has no point below the best of the designs searched before it: its point is the
// best it found, not its optimum.
void add_proof(nlohmann::ordered_json& j, const search_result& r) {
  j["complete"] = r.complete;
  j["proven_optimal"] = r.method == "exact" && r.complete && r.found && !r.cut_off;
  if (r.cut_off) j["cut_off"] = true;
}

}  // namespace

nlohmann::ordered_json tuned_configuration(const design_space& space, const search_result& r, const objective& goal,
                                           const std::optional<workload>& work) {
  nlohmann::ordered_json j;
  add_design(j, space);
  j["feasible"] = r.found;
  const device& dev = space.target();
  nlohmann::ordered_json sizes = nlohmann::ordered_json::object(), padded = nlohmann::ordered_json::object();
  std::vector<model::parameter_origin> listed;
  for (std::size_t l = 0; l < space.loops().size(); ++l) {
    const tiled_loop& loop = space.loops()[l];
    // Loops that share a kernel size (square MM's N) have size params of their own with its
    // origin (N_j, N_k): the workload's size is listed once, under the first one's name.
    const model::parameter& size = space.model().params[loop.size_param];
    bool shared = std::holds_alternative<model::problem_size_origin>(size.origin) &&
                  std::find(listed.begin(), listed.end(), size.origin) != listed.end();
    if (!shared) sizes[size.name] = loop.size;
    listed.push_back(size.origin);
    if (r.found) padded[loop.name] = space.padded_size(l, r.best[loop.offset]);
  }
  j["problem_sizes"] = sizes;
  j["padded_sizes"] = padded;
  add_params(j, space, r);
  const model::metrics& m = r.metrics;
  double seconds_per_run = r.found ? m.latency / (dev.clock_mhz * 1e6) : 0;
  j["latency"] = r.found ? nlohmann::ordered_json(m.latency) : nlohmann::ordered_json(nullptr);
  j["latency_seconds"] = r.found ? nlohmann::ordered_json(seconds_per_run) : nlohmann::ordered_json(nullptr);
  add_throughput(j, work, seconds_per_run);
  j["clock_mhz"] = dev.clock_mhz;
  j["dsp"] = m.dsp;
  // As AutoSA and Odyssey report it: operations per cycle over what the DSPs used would do if
  // every one worked every cycle (for a design whose DSPs are all in PE lanes: the fraction of
  // lane cycles that compute).
  bool efficiency = r.found && work && work->operations_per_dsp > 0 && m.dsp > 0 && m.latency > 0;
  j["dsp_efficiency"] = efficiency ? nlohmann::ordered_json(work->operations / m.latency / (m.dsp * work->operations_per_dsp))
                                   : nlohmann::ordered_json(nullptr);
  j["bram18k"] = m.bram18k;
  j["uram"] = m.uram;
  j["lut"] = m.lut;
  j["ff"] = m.ff;
  j["dsp_fraction"] = dev.dsp > 0 ? m.dsp / dev.dsp : 0.0;
  j["bram18k_fraction"] = dev.bram18k > 0 ? m.bram18k / dev.bram18k : 0.0;
  j["uram_fraction"] = dev.uram > 0 ? m.uram / dev.uram : 0.0;
  j["offchip_bytes"] = m.offchip_bytes;
  j["offchip_bytes_per_port"] = port_bytes(space, r);
  j["device"] = dev.name;
  j["usable_fraction"] = dev.usable_fraction;
  j["objective"] = goal.name();
  j["method"] = r.method;
  j["seed"] = r.seed;
  j["seconds"] = r.seconds;
  j["evaluations"] = r.evaluations;
  add_proof(j, r);
  return j;
}

nlohmann::ordered_json tuned_configuration(const std::vector<design_space>& spaces, const multi_result& result,
                                           const objective& goal, const std::optional<workload>& work) {
  std::size_t shown = result.found() ? result.best_index : 0;
  nlohmann::ordered_json j = tuned_configuration(spaces.at(shown), result.per_design.at(shown), goal, work);
  j["complete"] = complete(result);
  j["proven_optimal"] = proven_optimal(result);
  return j;
}

nlohmann::ordered_json comparison_table(const std::vector<design_space>& spaces, const multi_result& result) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t d = 0; d < result.per_design.size(); ++d) {
    const search_result& r = result.per_design[d];
    nlohmann::ordered_json row;
    add_design(row, spaces[d]);
    row["feasible"] = r.found;
    row["latency"] = r.found ? nlohmann::ordered_json(r.metrics.latency) : nlohmann::ordered_json(nullptr);
    row["relative_to_best"] = r.found && result.found() ? result.best().cost / r.cost : 0.0;
    row["dsp"] = r.metrics.dsp;
    row["bram18k"] = r.metrics.bram18k;
    row["point"] = r.found ? spaces[d].describe(r.best) : "";
    row["evaluations"] = r.evaluations;
    row["seconds"] = r.seconds;
    add_proof(row, r);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace sadsl::tune
