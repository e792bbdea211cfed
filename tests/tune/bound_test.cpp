// The exact search's lower bounds never exceed the model at any completion of a partial point.
#include <catch2/catch.hpp>
#include <random>

#include "../../src/tune/bound.hpp"
#include "support.hpp"

namespace sadsl::tune::testing {

namespace {

// Index of `t`'s chain of `loop` among the loop's chains (which are sorted lexicographically).
std::uint32_t chain_index(const design_space& space, std::size_t loop, const tiling& t) {
  std::size_t levels = space.loops()[loop].levels.size();
  const auto& chains = space.loop_chains(loop);
  for (std::uint32_t c = 0; c < space.loop_chain_count(loop); ++c)
    if (std::equal(chains.begin() + static_cast<long>(c * levels), chains.begin() + static_cast<long>((c + 1) * levels),
                   t.begin() + static_cast<long>(space.loops()[loop].offset)))
      return c;
  FAIL("tiling not in the space");
  return 0;
}

// Bounds are over the feasible completions (infeasible points may have an infinite bound).
void check_bounds(const design_space& space, std::uint64_t seed) {
  detail::bound_model bounds(space, model::metrics_of(space.model()).latency, {0, 1, 2});
  std::mt19937_64 random(seed);
  int feasible = 0;
  for (int n = 0; n < 300; ++n) {
    tiling t(space.width());
    for (auto& v : t) v = static_cast<std::int64_t>(random() % 300 + 1);
    t = space.repair(t);
    evaluation e = space.evaluate(t, objective{});
    if (!e.feasible()) continue;
    ++feasible;
    std::vector<std::uint32_t> chain(space.loops().size());
    for (std::size_t l = 0; l < chain.size(); ++l) chain[l] = chain_index(space, l, t);
    for (std::size_t level = 1; level <= chain.size(); ++level) {
      detail::node_state s{level, chain.data()};
      CHECK(bounds.objective_bound(s) <= e.metrics.latency * (1 + 1e-9));
      for (int term : bounds.direct_terms()) CHECK(bounds.term_bound(term, s) <= e.metrics.latency * (1 + 1e-9));
      CHECK_FALSE(bounds.resources_exceed(s));
    }
  }
  CHECK(feasible > 50);
}

}  // namespace

TEST_CASE("lower bounds hold at random points of MM designs", "[tune][bound]") {
  for (const std::string design : {"kernel0_0", "kernel2_2", "kernel3_2", "kernel5_0"}) {
    DYNAMIC_SECTION(design) { check_bounds(mm_space(design, 300), 5); }
  }
}

TEST_CASE("lower bounds hold at random points of a CNN design", "[tune][bound]") {
  auto ev = load_descriptor((odyssey_dir() / "descriptors" / "cnn" / "kernel3_1.json").string());
  design_space space(ev, {{"o", 64}, {"r", 28}, {"c", 28}, {"i", 32}, {"p", 3}, {"q", 3}}, builtin_device("u250"));
  detail::bound_model bounds(space, model::metrics_of(space.model()).latency, {0, 1, 2, 3});
  std::mt19937_64 random(9);
  for (int n = 0; n < 300; ++n) {
    tiling t(space.width());
    for (auto& v : t) v = static_cast<std::int64_t>(random() % 64 + 1);
    t = space.repair(t);
    evaluation e = space.evaluate(t, objective{});
    if (!e.feasible()) continue;
    std::vector<std::uint32_t> chain(space.loops().size());
    for (std::size_t l = 0; l < chain.size(); ++l) chain[l] = chain_index(space, l, t);
    for (std::size_t level = 1; level <= chain.size(); ++level)
      CHECK(bounds.objective_bound(detail::node_state{level, chain.data()}) <= e.metrics.latency * (1 + 1e-9));
  }
}

}  // namespace sadsl::tune::testing

namespace sadsl::tune::testing {

// The exact search builds the bounds once and derives those of its other candidate orders from
// them: they must bound exactly as bounds built in that order do (the couplings between a
// resource and the free loops depend on which loops are fixed first).
TEST_CASE("bounds derived for another search order equal bounds built in that order", "[tune][bound]") {
  design_space space = mm_space("kernel3_2", 300);
  model::expr latency = model::metrics_of(space.model()).latency;
  detail::bound_model relaxed(space, latency, {0, 1, 2});
  for (const std::vector<std::size_t>& order : {std::vector<std::size_t>{1, 0, 2}, std::vector<std::size_t>{2, 0, 1}}) {
    detail::bound_model derived(relaxed, order), built(space, latency, order);
    REQUIRE(derived.order() == order);
    std::mt19937_64 random(11);
    int compared = 0;
    for (int n = 0; n < 200; ++n) {
      tiling t = space.repair([&] {
        tiling raw(space.width());
        for (auto& v : raw) v = static_cast<std::int64_t>(random() % 300 + 1);
        return raw;
      }());
      std::vector<std::uint32_t> chain(space.loops().size());
      for (std::size_t l = 0; l < chain.size(); ++l) chain[l] = chain_index(space, l, t);
      for (std::size_t level = 1; level <= chain.size(); ++level) {
        detail::node_state s{level, chain.data()};
        CHECK(derived.objective_bound(s) == built.objective_bound(s));
        CHECK(derived.resources_exceed(s) == built.resources_exceed(s));
        for (int term : built.direct_terms()) CHECK(derived.term_bound(term, s) == built.term_bound(term, s));
        ++compared;
      }
    }
    CHECK(compared == 600);
  }
}

}  // namespace sadsl::tune::testing

namespace sadsl::tune::testing {

// The search asks a node's direct terms, resources and objective through one at_node, which
// reuses what the earlier questions computed; two nodes (of two bound models) asked in turn must
// not see each other's values.
TEST_CASE("a node's bounds asked together equal the bounds asked one by one", "[tune][bound]") {
  design_space space = mm_space("kernel3_2", 300);
  model::expr latency = model::metrics_of(space.model()).latency;
  detail::bound_model first(space, latency, {0, 1, 2}), second(space, latency, {2, 1, 0});
  std::mt19937_64 random(13);
  auto random_chain = [&] {
    tiling t(space.width());
    for (auto& v : t) v = static_cast<std::int64_t>(random() % 300 + 1);
    t = space.repair(t);
    std::vector<std::uint32_t> chain(space.loops().size());
    for (std::size_t l = 0; l < chain.size(); ++l) chain[l] = chain_index(space, l, t);
    return chain;
  };
  int differing = 0;
  for (int n = 0; n < 100; ++n) {
    std::vector<std::uint32_t> a = random_chain(), b = random_chain();
    detail::node_state sa{2, a.data()}, sb{1, b.data()};
    detail::bound_model::at_node here(first, sa), there(second, sb);
    for (int term : first.direct_terms()) {
      CHECK(here.term(term) == first.term_bound(term, sa));
      CHECK(there.objective() == second.objective_bound(sb));  // in between, on the other model
    }
    CHECK(here.resources_exceed() == first.resources_exceed(sa));
    CHECK(there.resources_exceed() == second.resources_exceed(sb));
    CHECK(here.objective() == first.objective_bound(sa));
    differing += first.objective_bound(sa) != second.objective_bound(sb);
  }
  CHECK(differing > 50);  // the two nodes' values differ, so a mix-up would show
}

}  // namespace sadsl::tune::testing
