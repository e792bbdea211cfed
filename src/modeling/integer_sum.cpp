#include "integer_sum.hpp"

#include <algorithm>

namespace sadsl::modeling {

using model::expr;

void integer_sum::add(const expr& count, const expr& each) {
  if (count.is_constant(0) || each.is_constant(0)) return;  // a constant factor 0 (see the header)
  given_.emplace_back(count, each);
}

namespace {

// A sum of counts, each distinct one once with its multiplicity, the constants added up.
struct count_sum {
  std::vector<std::pair<expr, double>> counts;
  double constant = 0;

  void add(const expr& count) {
    if (count.is_constant()) {
      constant += count.constant_value();
      return;
    }
    auto same = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first.same_as(count); });
    if (same == counts.end()) counts.emplace_back(count, 1.0);
    else same->second += 1;
  }
  expr total() const {
    expr sum = 0;
    for (const auto& [count, times] : counts) sum = sum + expr(times) * count;
    return sum + expr(constant);
  }
};

}  // namespace

expr integer_sum::total() const {
  // Each cost once, with the sum of its counts.
  std::vector<std::pair<expr, count_sum>> by_cost;
  for (const auto& [count, each] : given_) {
    auto same = std::find_if(by_cost.begin(), by_cost.end(), [&](const auto& c) { return c.first.same_as(each); });
    if (same == by_cost.end()) same = by_cost.insert(by_cost.end(), {each, count_sum{}});
    same->second.add(count);
  }
  expr sum = 0;
  for (const auto& [each, counts] : by_cost) sum = sum + counts.total() * each;
  return sum;
}

}  // namespace sadsl::modeling
