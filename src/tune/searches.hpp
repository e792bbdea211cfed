#pragma once
// Internal: the constructors of the searches (explicit, so a static library keeps them all).
#include <memory>

#include <string>

#include "sadsl/tune/search.hpp"

namespace sadsl::tune {

std::unique_ptr<search> make_exact_search();
std::unique_ptr<search> make_random_search();
std::unique_ptr<search> make_annealing_search();
std::unique_ptr<search> make_genetic_search();
std::unique_ptr<search> make_mp_search();
std::unique_ptr<search> make_genetic_mp_search();
std::unique_ptr<search> make_padding_search();

/// Throws sadsl::error when `space`'s model is too deep for `method`'s symbolic transformations.
void require_shallow(const design_space& space, const std::string& method);

}  // namespace sadsl::tune
