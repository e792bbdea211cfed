// The padding-based search (paper 000, Algorithm 1): padded problem sizes in increasing order of
// padding, loop by loop, each loop giving up after ceil(f x sqrt(N)) padded sizes in a row that
// brought no improvement; at every combination of padded sizes, all tilings whose first-level
// tiles pad exactly to those sizes are evaluated (each point once; Algorithm 1's "divisors of the
// padded size" also revisits tilings with less padding, which were met at their own size).
#include <cmath>
#include <map>

#include "searches.hpp"
#include "tracker.hpp"

namespace sadsl::tune {

namespace {

class padding_walk {
public:
  padding_walk(const design_space& space, tracker& track, double threshold_factor) : space_(space), track_(track) {
    for (std::size_t l = 0; l < space.loops().size(); ++l) {
      std::map<std::int64_t, std::vector<std::uint32_t>> by_padding;
      std::size_t levels = space.loops()[l].levels.size();
      for (std::uint32_t c = 0; c < space.loop_chain_count(l); ++c)
        by_padding[space.padded_size(l, space.loop_chains(l)[c * levels])].push_back(c);
      std::vector<std::vector<std::uint32_t>> classes;
      for (auto& [padded, chains] : by_padding) classes.push_back(std::move(chains));
      classes_.push_back(std::move(classes));
      thresholds_.push_back(static_cast<std::size_t>(std::ceil(threshold_factor * std::sqrt(static_cast<double>(space.loops()[l].size)))));
    }
    chosen_.assign(space.loops().size(), 0);
    point_.assign(space.width(), 0);
  }

  /// Returns false when a budget ended the walk.
  bool run() {
    if (space_.loops().empty()) {
      track_.evaluate({});
      return true;
    }
    walk(0);
    return !stopped_;
  }

private:
  // One loop of Algorithm 1: returns whether anything below improved the best.
  bool walk(std::size_t loop) {
    bool improved_any = false;
    std::size_t misses = 0;
    for (std::size_t p = 0; p < classes_[loop].size() && !stopped_; ++p) {
      chosen_[loop] = p;
      bool improved = loop + 1 == classes_.size() ? evaluate_combination(0) : walk(loop + 1);
      improved_any = improved_any || improved;
      misses = improved ? 0 : misses + 1;
      if (misses > thresholds_[loop]) break;
    }
    return improved_any;
  }

  bool evaluate_combination(std::size_t loop) {
    if (loop == classes_.size()) {
      if (track_.exhausted()) {
        stopped_ = true;
        return false;
      }
      double before = track_.best_cost();
      track_.evaluate(point_);
      return track_.best_cost() < before;
    }
    const tiled_loop& tl = space_.loops()[loop];
    std::size_t levels = tl.levels.size();
    bool improved = false;
    for (std::uint32_t c : classes_[loop][chosen_[loop]]) {
      if (stopped_) break;
      const std::int64_t* values = space_.loop_chains(loop).data() + static_cast<std::size_t>(c) * levels;
      std::copy(values, values + levels, point_.begin() + static_cast<long>(tl.offset));
      improved = evaluate_combination(loop + 1) || improved;
    }
    return improved;
  }

  const design_space& space_;
  tracker& track_;
  std::vector<std::vector<std::vector<std::uint32_t>>> classes_;  // per loop, per padded size (ascending)
  std::vector<std::size_t> thresholds_;
  std::vector<std::size_t> chosen_;
  tiling point_;
  bool stopped_ = false;
};

class padding_search final : public search {
public:
  std::string name() const override { return "padding"; }
  search_result run(const design_space& space, const search_options& options) const override {
    space.check_fits();
    tracker track(space, options, name());
    padding_walk walk(space, track, options.settings.padding_threshold);
    bool complete = walk.run();
    return track.finish(complete);
  }
};

}  // namespace

std::unique_ptr<search> make_padding_search() { return std::make_unique<padding_search>(); }

}  // namespace sadsl::tune
