#pragma once
// Internal: the state shared by the search loop (search.cpp), candidate sampling (candidates.cpp)
// and candidate scoring (scoring.cpp).
#include <chrono>
#include <set>

#include "sadsl/tune/knobs/rng.hpp"
#include "sadsl/tune/knobs/search.hpp"

namespace sadsl::knobs::detail {

struct bound_constraint {
  bound_feature value;
  double limit;
  bool at_most;
  std::string name;
};

struct bound_proxy {
  std::string failure_kind;
  bound_feature proxy;
};

/// A problem with every feature resolved against its sensors.
struct bound_problem {
  knob_list knobs;
  std::vector<std::string> sensors;
  bound_feature objective;
  bool maximizing;
  std::vector<bound_constraint> constraints;
  std::vector<bound_proxy> proxies;
};
bound_problem bind(const problem& p);

/// What the model needs of one test, next to its public record.
struct tested_point {
  std::vector<double> coordinates;
  std::vector<double> sensors;  // by declared index; NaN where not measured
  std::optional<double> score;  // quality oriented so that higher is better, if passed
};

struct search_state {
  const bound_problem& problem;
  const search_options& options;
  rng random;
  search_result result;
  std::vector<tested_point> points;
  std::set<std::vector<std::uint32_t>> tested;
  // Constraint scaling (paper 004 section 7): the predicted log P(success) of each modelled pick and
  // whether it passed, to calibrate later predictions against the observed failure rate.
  std::optional<double> pending_log_success;
  std::vector<std::pair<double, bool>> success_record;
};

/// Up to `count` distinct untested configurations drawn uniformly (all of them if fewer remain).
std::vector<configuration> untested_candidates(search_state& s, std::size_t count);
/// The next configuration of a full or trivial-failures search (paper 004 Figure 8, lines 5-15).
std::optional<configuration> choose_modelled(search_state& s);

}  // namespace sadsl::knobs::detail
