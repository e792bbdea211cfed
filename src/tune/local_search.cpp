#include "local_search.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace sadsl::tune {

namespace {

/// What one chain of a loop costs and uses with the other loops held.
struct tradeoff {
  std::size_t chain = 0;
  double cost = 0;  ///< the objective as if the point were feasible
  double dsp = 0, bram18k = 0, uram = 0;
  bool beats(const tradeoff& o) const { return cost <= o.cost && dsp <= o.dsp && bram18k <= o.bram18k && uram <= o.uram; }
};

/// The chains no other chain beats in the objective and in every resource (one per equal tuple).
std::vector<tradeoff> pareto_front(std::vector<tradeoff> all) {
  std::sort(all.begin(), all.end(), [](const tradeoff& a, const tradeoff& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    if (a.dsp != b.dsp) return a.dsp < b.dsp;
    if (a.bram18k != b.bram18k) return a.bram18k < b.bram18k;
    if (a.uram != b.uram) return a.uram < b.uram;
    return a.chain < b.chain;
  });
  std::vector<tradeoff> front;
  for (const tradeoff& t : all)
    if (std::none_of(front.begin(), front.end(), [&](const tradeoff& f) { return f.beats(t); })) front.push_back(t);
  return front;
}

class descent {
public:
  descent(const design_space& space, tracker& track, tiling start, double cost, bool with_shifts)
      : space_(space), track_(track), with_shifts_(with_shifts), params_(space.model().params.size()), best_{std::move(start), cost},
        fronts_(space.loops().size()) {}

  local_optimum run() {
    for (;;) {
      if (!sweeps()) return best_;  // the budget ran out
      std::optional<bool> improved = exchange();
      if (improved && !*improved) improved = repair();
      if (improved && !*improved && with_shifts_) improved = shift();
      if (!improved || !*improved) return best_;
    }
  }

private:
  /// A point that would beat the incumbent but overruns a resource.
  struct promising {
    tiling point;
    double overrun = 0;              ///< its largest fraction of a usable resource
    std::vector<std::size_t> loops;  ///< the loops that changed
  };
  static constexpr std::size_t max_promising = 16;
  /// Exchanges among three loops are tried while their fronts give at most this many points in all.
  static constexpr double max_combinations = 250000;
  /// A shift evaluates about this many points at most (MM: 1.5 million, all of them).
  static constexpr double max_shift = 4e6;

  // Evaluates `t` (counted, offered to the tracker); nullopt once the budget is used up.
  std::optional<evaluation> evaluate(const tiling& t) {
    if (track_.evaluations_left() == 0 || (++calls_ % 256 == 0 && track_.exhausted())) return std::nullopt;
    evaluation e = space_.evaluate(t, track_.options().goal, params_);
    track_.count(1);
    track_.offer(t, e);
    return e;
  }

  // Evaluates `t` and keeps it as the winner of the current step if it is the best so far.
  bool consider(const tiling& t) {
    std::optional<evaluation> e = evaluate(t);
    if (!e) return false;
    last_ = *e;
    if (e->cost < winner_cost_) winner_ = t, winner_cost_ = e->cost;
    return true;
  }
  void start_step() {
    winner_.clear();
    winner_cost_ = best_.cost;
  }
  // Moves to the step's winner; true when there was one.
  bool finish_step() {
    if (winner_.empty()) return false;
    best_ = {std::move(winner_), winner_cost_};
    return true;
  }

  void set_chain(tiling& t, std::size_t loop, std::size_t chain) const {
    const tiled_loop& l = space_.loops()[loop];
    const std::int64_t* values = space_.loop_chains(loop).data() + chain * l.levels.size();
    std::copy(values, values + l.levels.size(), t.begin() + static_cast<long>(l.offset));
  }

  double raw_cost(model::metrics m) const {
    m.feasible = 1;
    return track_.options().goal.cost(m, params_);
  }
  double pressure(const model::metrics& m) const {
    const model::device_limits& lim = space_.limits();
    auto share = [](double used, double usable) { return usable > 0 ? used / usable : (used > 0 ? 1e9 : 0.0); };
    return std::max({share(m.dsp, lim.dsp), share(m.bram18k, lim.bram18k), share(m.uram, lim.uram)});
  }

  // Coordinate descent until a whole round of sweeps leaves the point unchanged, so that the
  // fronts all describe the current point. nullopt when the budget ran out.
  std::optional<bool> sweeps() {
    bool any = false;
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t l = 0; l < fronts_.size(); ++l) {
        std::optional<bool> improved = sweep(l);
        if (!improved) return std::nullopt;
        moved = moved || *improved;
      }
      any = any || moved;
    }
    return any;
  }

  // Every chain of `loop` with the others held: moves to the best feasible one if it improves,
  // and collects the loop's trade-off front.
  std::optional<bool> sweep(std::size_t loop) {
    start_step();
    const std::size_t chains = space_.loop_chain_count(loop);
    tiling t = best_.point;
    std::vector<tradeoff> all;
    all.reserve(chains);
    for (std::size_t c = 0; c < chains; ++c) {
      set_chain(t, loop, c);
      if (!consider(t)) return std::nullopt;
      const model::metrics& m = last_.metrics;
      tradeoff o{c, raw_cost(m), m.dsp, m.bram18k, m.uram};
      if (std::isfinite(o.cost) && std::isfinite(o.dsp) && std::isfinite(o.bram18k) && std::isfinite(o.uram)) all.push_back(o);
    }
    fronts_[loop] = pareto_front(std::move(all));
    return finish_step();
  }

  // Every combination of the trade-off chains of two loops, and of three while that is not too
  // many; moves to the best. Combinations that would win but overrun a resource are remembered.
  std::optional<bool> exchange() {
    start_step();
    promising_.clear();
    const std::size_t n = fronts_.size();
    double allowance = max_combinations;  // for all triples together: models with many loops stay cheap
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        if (!combine({a, b})) return std::nullopt;
        for (std::size_t c = b + 1; c < n; ++c) {
          double count = static_cast<double>(fronts_[a].size()) * static_cast<double>(fronts_[b].size()) *
                         static_cast<double>(fronts_[c].size());
          if (count > allowance) continue;
          allowance -= count;
          if (!combine({a, b, c})) return std::nullopt;
        }
      }
    return finish_step();
  }

  // The cartesian product of the fronts of `loops` (the other loops held); false when the budget
  // ran out.
  bool combine(const std::vector<std::size_t>& loops) {
    tiling t = best_.point;
    std::vector<std::size_t> at(loops.size(), 0);
    for (std::size_t i = 0; i < loops.size(); ++i)
      if (fronts_[loops[i]].empty()) return true;
    for (;;) {
      for (std::size_t i = 0; i < loops.size(); ++i) set_chain(t, loops[i], fronts_[loops[i]][at[i]].chain);
      if (!consider(t)) return false;
      if (last_.metrics.legal != 0 && last_.metrics.feasible == 0 && raw_cost(last_.metrics) < best_.cost)
        remember(t, pressure(last_.metrics), loops);
      std::size_t i = loops.size();
      while (i-- > 0 && ++at[i] == fronts_[loops[i]].size()) at[i] = 0;
      if (i == static_cast<std::size_t>(-1)) return true;
    }
  }

  // Keeps the `max_promising` points with the smallest overrun, each once.
  void remember(const tiling& t, double overrun, const std::vector<std::size_t>& loops) {
    if (promising_.size() == max_promising && !(overrun < promising_.back().overrun)) return;
    if (std::any_of(promising_.begin(), promising_.end(), [&](const promising& p) { return p.point == t; })) return;
    auto at = std::upper_bound(promising_.begin(), promising_.end(), overrun,
                               [](double o, const promising& p) { return o < p.overrun; });
    promising_.insert(at, promising{t, overrun, loops});
    if (promising_.size() > max_promising) promising_.pop_back();
  }

  // Each promising point with one of its other loops swept: that loop may give back the
  // resource the changed ones took (a smaller k tile frees the BRAM that more PEs need).
  std::optional<bool> repair() {
    start_step();
    for (const promising& p : promising_)
      for (std::size_t c = 0; c < fronts_.size(); ++c) {
        if (std::find(p.loops.begin(), p.loops.end(), c) != p.loops.end()) continue;
        tiling t = p.point;
        for (std::size_t chain = 0; chain < space_.loop_chain_count(c); ++chain) {
          set_chain(t, c, chain);
          if (!consider(t)) return std::nullopt;
        }
      }
    return finish_step();
  }

  // The largest moves: each trade-off chain of one loop with every chain of another loop. Finds
  // the moves where the other loop's best chain only appears once resources are freed.
  std::optional<bool> shift() {
    start_step();
    // Larger spaces take every stride-th front chain, so that a shift stays near max_shift points.
    double chains = 0, planned = 0;
    for (std::size_t l = 0; l < fronts_.size(); ++l) chains += static_cast<double>(space_.loop_chain_count(l));
    for (std::size_t l = 0; l < fronts_.size(); ++l)
      planned += static_cast<double>(fronts_[l].size()) * (chains - static_cast<double>(space_.loop_chain_count(l)));
    const std::size_t stride = static_cast<std::size_t>(std::max(1.0, std::ceil(planned / max_shift)));
    for (std::size_t a = 0; a < fronts_.size(); ++a)
      for (std::size_t f = 0; f < fronts_[a].size(); f += stride)
        for (std::size_t b = 0; b < fronts_.size(); ++b) {
          if (b == a) continue;
          tiling t = best_.point;
          set_chain(t, a, fronts_[a][f].chain);
          for (std::size_t c = 0; c < space_.loop_chain_count(b); ++c) {
            set_chain(t, b, c);
            if (!consider(t)) return std::nullopt;
          }
        }
    return finish_step();
  }

  const design_space& space_;
  tracker& track_;
  bool with_shifts_;
  std::vector<double> params_;
  std::uint64_t calls_ = 0;
  local_optimum best_;
  std::vector<std::vector<tradeoff>> fronts_;  ///< per loop, at the current point
  std::vector<promising> promising_;           ///< smallest overrun first
  evaluation last_;
  tiling winner_;
  double winner_cost_ = 0;
};

}  // namespace

local_optimum descend(const design_space& space, tiling start, double cost, tracker& track, bool with_shifts) {
  return descent(space, track, std::move(start), cost, with_shifts).run();
}

}  // namespace sadsl::tune
