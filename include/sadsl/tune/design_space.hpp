#pragma once
// The design space of one design (a dataflow x permutation model) for one problem: its tiled loops
// with the relations between their tiling factors, the device it must fit, and fast evaluation.
//
// Each loop of the kernel has a chain of tiling factors: size N -> t1 -> t2 -> ... (the model's
// split_by links). First-level tiles t1 take any integer in [1, N] (a non-divisor pads the loop
// to ceil(N / t1) * t1); every deeper factor takes the values its model parameter allows: it
// divides its parent, lies within its bounds, and is a power of two when tagged so (SIMD).
// Inferred parameters (data packing) are computed by the model, which also checks the remaining
// constraints (latency hiding) and the device limits.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sadsl/core/identity.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/tune/device.hpp"
#include "sadsl/tune/objective.hpp"

namespace sadsl::tune {

/// One loop of the kernel and its tiling chain, from the origins of the model's parameters.
struct tiled_loop {
  loop_id loop;                     ///< the loop its factors tile (factor_id::loop)
  std::string name;                 ///< the loop's printed name, e.g. "i"
  param_id size_id;                 ///< its problem size
  std::size_t size_param = 0;       ///< the problem size's index among the model's parameters
  std::int64_t size = 0;            ///< N
  std::vector<std::size_t> levels;  ///< model parameters of t1, t2, ... (outermost first)
  std::vector<tile_level> level_kinds;  ///< the tiling level of each (factor_id::level)
  std::size_t offset = 0;           ///< where this loop's values start in a tiling
};

/// Thrown by design_space::check_fits (and so by every search) when a design cannot fit the
/// device even at its smallest tiling; tune_designs skips such designs.
class does_not_fit : public error {
public:
  using error::error;
};

/// The deepest expression the symbolic searches (exact, mp) accept; see expression_depth().
inline constexpr std::uint32_t max_symbolic_depth = 1000;

/// The largest problem size: values are doubles in the models, exact up to 2^53.
inline constexpr std::int64_t max_problem_size = std::int64_t{1} << 53;

/// A point of the space: the chain values of every loop, loop after loop, outermost level first
/// (for MM: i_t1, i_t2, j_t1, j_t2, k_t1, k_t2).
using tiling = std::vector<std::int64_t>;

struct space_options {
  /// Restrict first-level tiles to divisors of their loop size (no padding), as many tuners do.
  bool divisor_tiles_only = false;
  /// The most tilings (chains) of one loop the space lists; the exact and local searches walk
  /// these lists, so a loop with more (a huge size) is refused with sadsl::error.
  std::size_t max_chains_per_loop = std::size_t{1} << 22;
  /// Listing the chains stops with sadsl::error when this becomes true or the deadline passes.
  const std::atomic<bool>* stop = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// The metrics of one point and its cost under an objective.
struct evaluation {
  model::metrics metrics;
  double cost = 0;
  bool feasible() const { return metrics.feasible != 0; }
};

class design_space {
public:
  /// `sizes` gives every problem size of the model (problem_size_origin::param). Throws
  /// sadsl::error for a missing or unknown size, one outside [1, 2^53], and for a parameter the
  /// space cannot place (tiled loops come from the factors' origins, factor_id).
  design_space(std::shared_ptr<const model::evaluator> evaluator, const std::map<param_id, std::int64_t>& sizes,
               device target, space_options options = {});
  /// The same with sizes named by the problem sizes' printed (parameter) names, as users give them.
  design_space(std::shared_ptr<const model::evaluator> evaluator, const std::map<std::string, std::int64_t>& sizes,
               device target, space_options options = {});

  /// The same space evaluated by `other`, an evaluator of the same model (e.g. compiled code, once
  /// the space is known to be valid). Throws sadsl::error when its parameters differ.
  design_space with_evaluator(std::shared_ptr<const model::evaluator> other) const;

  const std::string& name() const { return model().name; }
  const model::design_model& model() const { return evaluator_->model(); }
  const model::evaluator& evaluator() const { return *evaluator_; }
  const device& target() const { return device_; }
  const model::device_limits& limits() const { return limits_; }
  const space_options& options() const { return options_; }
  const std::vector<tiled_loop>& loops() const { return loops_; }
  /// Number of values in a tiling.
  std::size_t width() const { return width_; }

  /// The values level `level` of `loop` may take when the outer levels hold `outer`
  /// (outer.size() == level), ascending.
  std::vector<std::int64_t> level_values(std::size_t loop, std::span<const std::int64_t> outer) const;
  /// When the values of that level are every integer of a range (first-level tiles), the range;
  /// else std::nullopt. Lets searches draw and clamp without listing the values.
  std::optional<std::pair<std::int64_t, std::int64_t>> level_range(std::size_t loop, std::span<const std::int64_t> outer) const;
  /// Every chain of `loop`, flattened (levels values each), in lexicographic order.
  const std::vector<std::int64_t>& loop_chains(std::size_t loop) const;
  std::size_t loop_chain_count(std::size_t loop) const;
  /// ceil(N / t1) * t1 for `loop`.
  std::int64_t padded_size(std::size_t loop, std::int64_t t1) const;
  /// Points in the space (a double: it can be large).
  double point_count() const;

  /// True when every chain relation holds (not the model's own constraints).
  bool contains(const tiling& t) const;
  /// The point of the space nearest to `t`, level by level: t1 clamped to its range, each deeper
  /// value replaced by the nearest allowed one (ties to the smaller).
  tiling repair(tiling t) const;
  /// The smallest tiling: the smallest allowed value at every level.
  tiling smallest() const;

  /// The model's parameter values for `t` (inferred ones are filled by evaluation).
  std::vector<double> parameters(const tiling& t) const;
  void fill_parameters(const tiling& t, std::span<double> params) const;
  /// Evaluates `t` (inferred parameters are written into `params`, which must have the model's
  /// parameter count).
  evaluation evaluate(const tiling& t, const objective& goal, std::span<double> params) const;
  evaluation evaluate(const tiling& t, const objective& goal) const;

  /// "i_t1=129 j_t1=205 ..." for messages.
  std::string describe(const tiling& t) const;
  /// Throws does_not_fit naming the resource that cannot fit even at the smallest tiling, if any.
  void check_fits() const;
  /// The deepest nesting of the model's metric, constraint and inference expressions. The
  /// searches that transform expressions symbolically (exact, mp) recurse over them and refuse
  /// models deeper than max_symbolic_depth; the others only evaluate them.
  std::uint32_t expression_depth() const;

  /// How one level's values are constrained, from its model parameter.
  struct level_rule {
    std::size_t param = 0;
    bool divides_parent = false;     ///< value | the previous level's value
    bool divides_size = false;       ///< value | the loop's size (a first level whose tiles must be whole)
    bool power_of_two = false;
    std::vector<std::size_t> divides;      ///< levels of the same loop this value divides
    std::vector<std::size_t> multiple_of;  ///< levels of the same loop this value is a multiple of
    bool lower_usable = false;  ///< the bound refers only to sizes and outer levels of this loop
    bool upper_usable = false;
  };

private:
  void build_loops(const std::map<param_id, std::int64_t>& sizes);
  tiled_loop loop_of_size(std::size_t size_param, std::vector<bool>& placed) const;
  void build_rules();
  void build_chains();
  error too_many_tilings(std::size_t loop) const;
  double bound(const model::expr& e, std::size_t loop, std::span<const std::int64_t> outer) const;

  std::vector<std::vector<level_rule>> rules_;  ///< per loop, per level

  std::shared_ptr<const model::evaluator> evaluator_;
  device device_;
  model::device_limits limits_;
  space_options options_;
  std::vector<tiled_loop> loops_;
  std::vector<double> base_params_;  ///< problem sizes set, everything else 0
  std::size_t width_ = 0;
  std::vector<std::vector<std::int64_t>> chains_;  ///< per loop, flattened
};

/// The sizes named by printed names as the problem sizes' identities of `model`. Throws
/// sadsl::error for a name that is not a problem size of the model.
std::map<param_id, std::int64_t> sizes_by_name(const model::design_model& model,
                                              const std::map<std::string, std::int64_t>& sizes);

/// Imports an Odyssey descriptor and selects the fastest evaluator (see model::evaluator).
std::shared_ptr<const model::evaluator> load_descriptor(const std::string& file,
                                                        const model::evaluator_options& options = {});

}  // namespace sadsl::tune
