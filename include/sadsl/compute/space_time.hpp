#pragma once
// Space-time transformation (paper 002 section 3.2, Algorithm 1): a band loop is a space-loop
// candidate when every flow and read dependence distance on it is 0 or 1; each choice of one or
// two (three with the option) candidates is a dataflow, named by its space loops: [i] [j] [k]
// [i,j] [i,k] [j,k] for MM.
#include <initializer_list>
#include <string>
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl {

/// The band loops whose flow and read dependence distances are all 0 or 1.
std::vector<loop_id> space_loop_candidates(const band& b);

/// The design with `space_loops` as its space loops, or why they cannot be.
design_or_reason space_time(std::shared_ptr<const band> b, const std::vector<loop_id>& space_loops);
/// The same with the space loops given by name (`space_time(b, {"i", "j"})`).
design_or_reason space_time(std::shared_ptr<const band> b, const std::vector<std::string>& space_loops);
inline design_or_reason space_time(std::shared_ptr<const band> b, std::initializer_list<std::string> space_loops) {
  return space_time(std::move(b), std::vector<std::string>(space_loops));
}

/// Every dataflow: 1-D, then 2-D (then 3-D when max_dims = 3) arrays, in band order.
std::vector<design> space_time_candidates(std::shared_ptr<const band> b, int max_dims = 2);

}  // namespace sadsl
