// Math programming (Odyssey section 4.2): the continuous relaxation solved by Ipopt for the
// objectives Obj1 (-DSP), Obj2 (off-chip traffic) and Obj3 (traffic - DSP, normalised) under the
// device limits and the model's constraints, each solution rounded to valid points. genetic-mp
// seeds the evolutionary search with these points and polishes its individuals by local search.
#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>
#include <algorithm>
#include <cmath>

#include "operators.hpp"
#include "relaxation.hpp"
#include "sadsl/error.hpp"
#include "searches.hpp"
#include "tracker.hpp"

namespace sadsl::tune {

search_result run_genetic(const design_space& space, const search_options& options, const std::vector<tiling>& seeds,
                          bool polish, tracker& track);

namespace {

// Odyssey's three objectives, and the relaxed latency itself (sadsl's addition: the model is
// available in closed form, so the solver can aim at what is finally measured).
enum class mp_objective { compute, communication, communication_minus_compute, latency };

using Ipopt::Index;
using Ipopt::Number;

class relaxed_problem final : public Ipopt::TNLP {
public:
  relaxed_problem(const design_space& space, const relaxation& relaxed, mp_objective goal, std::vector<double> start)
      : space_(space), relaxed_(relaxed), goal_(goal), start_(std::move(start)), solution_(start_) {
    const model::design_model& m = space.model();
    const model::device_limits& lim = space.limits();
    constraints_ = {{m.dsp, -1e30, lim.dsp}, {m.bram18k, -1e30, lim.bram18k}, {m.uram, -1e30, lim.uram}};
    for (const model::constraint& c : m.constraints) {
      if (c.relation == model::constraint::kind::at_least) constraints_.push_back({c.lhs - c.rhs, 0, 1e30});
      if (c.relation == model::constraint::kind::at_most) constraints_.push_back({c.lhs - c.rhs, -1e30, 0});
    }
    std::vector<double> g(relaxed.variables());
    dsp_scale_ = std::max(1.0, lim.dsp);
    traffic_scale_ = std::max(1.0, relaxed.evaluate(m.offchip_bytes, start_.data(), g.data()));
    latency_ = model::metrics_of(m).latency;
    latency_scale_ = std::max(1.0, relaxed.evaluate(latency_, start_.data(), g.data()));
  }
  const std::vector<double>& solution() const { return solution_; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = static_cast<Index>(relaxed_.variables());
    m = static_cast<Index>(constraints_.size());
    nnz_jac = n * m;
    nnz_h = 0;
    style = TNLP::C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l, Number* g_u) override {
    Index v = 0;
    for (const tiled_loop& loop : space_.loops())
      for (std::size_t level = 0; level < loop.levels.size(); ++level, ++v) {
        x_l[v] = 1;
        x_u[v] = static_cast<double>(loop.size);
      }
    for (Index c = 0; c < m; ++c) {
      g_l[c] = constraints_[static_cast<std::size_t>(c)].lower;
      g_u[c] = constraints_[static_cast<std::size_t>(c)].upper;
    }
    return v == n;
  }
  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    std::copy(start_.begin(), start_.begin() + n, x);
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& value) override {
    value = objective(x, nullptr);
    return std::isfinite(value);
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* gradient) override {
    objective(x, gradient);
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (Index c = 0; c < m; ++c) g[c] = relaxed_.evaluate(constraints_[static_cast<std::size_t>(c)].e, x, nullptr);
    return true;
  }
  bool eval_jac_g(Index n, const Number* x, bool, Index m, Index, Index* rows, Index* cols, Number* values) override {
    if (!values) {
      for (Index c = 0; c < m; ++c)
        for (Index v = 0; v < n; ++v) rows[c * n + v] = c, cols[c * n + v] = v;
      return true;
    }
    for (Index c = 0; c < m; ++c) relaxed_.evaluate(constraints_[static_cast<std::size_t>(c)].e, x, values + c * n);
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number*, const Number*, Index,
                         const Number*, const Number*, Number, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    solution_.assign(x, x + n);
  }

private:
  struct bounded {
    model::expr e;
    double lower, upper;
  };

  double objective(const Number* x, Number* gradient) const {
    std::size_t n = relaxed_.variables();
    if (goal_ == mp_objective::latency) {
      double value = relaxed_.evaluate(latency_, x, gradient) / latency_scale_;
      if (gradient)
        for (std::size_t v = 0; v < n; ++v) gradient[v] /= latency_scale_;
      return value;
    }
    std::vector<double> g_dsp(n), g_traffic(n);
    double dsp = relaxed_.evaluate(space_.model().dsp, x, g_dsp.data()) / dsp_scale_;
    double traffic = relaxed_.evaluate(space_.model().offchip_bytes, x, g_traffic.data()) / traffic_scale_;
    double w_dsp = goal_ == mp_objective::communication ? 0 : -1;
    double w_traffic = goal_ == mp_objective::compute ? 0 : 1;
    if (gradient)
      for (std::size_t v = 0; v < n; ++v) gradient[v] = w_dsp * g_dsp[v] / dsp_scale_ + w_traffic * g_traffic[v] / traffic_scale_;
    return w_dsp * dsp + w_traffic * traffic;
  }

  const design_space& space_;
  const relaxation& relaxed_;
  mp_objective goal_;
  std::vector<double> start_;
  std::vector<double> solution_;
  std::vector<bounded> constraints_;
  double dsp_scale_ = 1, traffic_scale_ = 1, latency_scale_ = 1;
  model::expr latency_;
};

// The valid points around a continuous solution: t1 rounded down and up, each deeper level the
// nearest allowed values below and above its continuous value.
std::vector<tiling> roundings(const design_space& space, const std::vector<double>& x) {
  std::vector<tiling> points{tiling(space.width(), 1)};
  for (std::size_t l = 0; l < space.loops().size(); ++l) {
    const tiled_loop& loop = space.loops()[l];
    for (std::size_t level = 0; level < loop.levels.size(); ++level) {
      std::vector<tiling> next;
      double target = x[loop.offset + level];
      for (const tiling& t : points) {
        std::vector<std::int64_t> values = space.level_values(l, std::span<const std::int64_t>(t.data() + loop.offset, level));
        if (values.empty()) values = {1};
        auto above = std::lower_bound(values.begin(), values.end(), static_cast<std::int64_t>(std::ceil(target)));
        std::vector<std::int64_t> picks;
        if (above != values.end()) picks.push_back(*above);
        if (above != values.begin()) picks.push_back(*(above - 1));
        if (picks.empty()) picks.push_back(values.back());
        for (std::int64_t v : picks) {
          tiling copy = t;
          copy[loop.offset + level] = v;
          next.push_back(std::move(copy));
        }
      }
      points = std::move(next);
    }
  }
  return points;
}

std::vector<double> random_start(const design_space& space, rng& random) {
  tiling t = random_tiling(space, random);
  return std::vector<double>(t.begin(), t.end());
}

/// Solves the relaxation from `starts` random points per objective and returns every rounded
/// point, evaluated (so the tracker knows the best of them).
std::vector<tiling> solve_relaxations(const design_space& space, tracker& track, std::size_t starts, double share) {
  // The time this step may take: `share` of the time budget (the rest is for the genetic search).
  const double until = track.options().seconds > 0 ? share * track.options().seconds : 0;
  auto over = [&] { return track.exhausted() || (until > 0 && track.elapsed() >= until); };
  relaxation relaxed(space);
  rng random(track.options().seed);
  std::vector<tiling> points;
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  app->Options()->SetIntegerValue("max_iter", 200);
  if (app->Initialize() != Ipopt::Solve_Succeeded) throw error("mp search: Ipopt could not be initialised");
  for (std::size_t s = 0; s < starts; ++s) {
    std::vector<double> start = random_start(space, random);
    for (mp_objective goal : {mp_objective::latency, mp_objective::communication_minus_compute, mp_objective::compute,
                              mp_objective::communication}) {
      if (over()) return points;
      if (until > 0) app->Options()->SetNumericValue("max_cpu_time", std::max(0.001, until - track.elapsed()));
      Ipopt::SmartPtr<relaxed_problem> problem = new relaxed_problem(space, relaxed, goal, start);
      app->OptimizeTNLP(Ipopt::SmartPtr<Ipopt::TNLP>(GetRawPtr(problem)));
      for (tiling& t : roundings(space, problem->solution())) {
        if (over()) return points;
        track.evaluate_cached(t);
        points.push_back(std::move(t));
      }
    }
  }
  return points;
}

class mp_search final : public search {
public:
  std::string name() const override { return "mp"; }
  search_result run(const design_space& space, const search_options& options) const override {
    space.check_fits();
    require_shallow(space, name());
    tracker track(space, options, name());
    solve_relaxations(space, track, std::max<std::size_t>(1, options.settings.mp_starts), 1.0);
    return track.finish(!track.exhausted());
  }
};

class genetic_mp_search final : public search {
public:
  std::string name() const override { return "genetic-mp"; }
  search_result run(const design_space& space, const search_options& options) const override {
    if (options.seconds <= 0 && options.max_evaluations == 0 && !options.stop)
      throw error("search \"genetic-mp\" needs a time or evaluation budget");
    space.check_fits();
    tracker track(space, options, name());
    // The relaxation transforms the model symbolically; a model too deep for it starts from random points.
    std::vector<tiling> seeds;
    if (space.expression_depth() <= max_symbolic_depth) seeds = solve_relaxations(space, track, 1, options.settings.mp_time_share);
    // The best rounded points first: they are the ones the population starts from.
    std::stable_sort(seeds.begin(), seeds.end(), [&](const tiling& a, const tiling& b) { return track.evaluate_cached(a) < track.evaluate_cached(b); });
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    return run_genetic(space, options, seeds, options.settings.local_search, track);
  }
};

}  // namespace

std::unique_ptr<search> make_mp_search() { return std::make_unique<mp_search>(); }
std::unique_ptr<search> make_genetic_mp_search() { return std::make_unique<genetic_mp_search>(); }

}  // namespace sadsl::tune
