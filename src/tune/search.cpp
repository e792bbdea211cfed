#include "sadsl/tune/search.hpp"

#include <utility>

#include "sadsl/error.hpp"
#include "searches.hpp"

namespace sadsl::tune {

namespace {
using factory = std::unique_ptr<search> (*)();
const std::vector<std::pair<std::string, factory>>& factories() {
  static const std::vector<std::pair<std::string, factory>> all = {
      {"exact", make_exact_search},
      {"random", make_random_search},
      {"annealing", make_annealing_search},
      {"genetic", make_genetic_search},
      {"mp", make_mp_search},
      {"genetic-mp", make_genetic_mp_search},
      {"padding", make_padding_search},
  };
  return all;
}
}  // namespace

std::vector<std::string> search_methods() {
  std::vector<std::string> names;
  for (const auto& [name, make] : factories()) names.push_back(name);
  return names;
}

std::unique_ptr<search> make_search(const std::string& method) {
  for (const auto& [name, make] : factories())
    if (name == method) return make();
  std::string known;
  for (const std::string& name : search_methods()) known += (known.empty() ? "" : ", ") + name;
  throw error("unknown search method \"" + method + "\" (known: " + known + ")");
}

void require_shallow(const design_space& space, const std::string& method) {
  std::uint32_t depth = space.expression_depth();
  if (depth > max_symbolic_depth)
    throw error("search \"" + method + "\" cannot handle design \"" + space.name() + "\": its expressions nest " +
                std::to_string(depth) + " deep, more than " + std::to_string(max_symbolic_depth) +
                " (use random, annealing, genetic or padding)");
}

}  // namespace sadsl::tune
