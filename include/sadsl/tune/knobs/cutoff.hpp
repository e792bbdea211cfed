#pragma once
// The cutoff of a proxy constraint (paper 004 section 4.1, Figure 3): from the proxy values of tests
// that passed (or got past the failure in question) and of tests that failed with it.
#include <optional>
#include <vector>

#include "sadsl/tune/knobs/normal.hpp"

namespace sadsl::knobs {

/// The cutoff region runs from the lowest failed value up to the lowest failed value above the
/// highest passed value (if every failed value is at or below a passed one: up to the highest value
/// seen); the cutoff is the mean and variance of the passed and failed values inside it. Without
/// overlap it is the lowest failed value exactly. Nothing if no test has failed.
std::optional<normal> failure_cutoff(const std::vector<double>& passed, const std::vector<double>& failed);

}  // namespace sadsl::knobs
