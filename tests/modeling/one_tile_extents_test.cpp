// one_tile_extents: a triangular design's buffer extents where a band loop has one tile, read
// off templates of their own (src/modeling/one_tile_extents.hpp).
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "sadsl/catalog/kernels.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/model/expr.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "../support/test_support.hpp"
#include "../../src/modeling/one_tile_extents.hpp"

namespace sadsl::one_tile_extents_test {

// LU's [k] <[j,i],k> at N = 24, its symbols and its templates (factors of 8 elsewhere).
struct lu_templates {
  kernel k = catalog::lu_uniform();
  std::vector<design> ds;
  model::design_model m;
  std::optional<modeling::symbols> s;
  std::vector<modeling::one_tile_template> templates;

  lu_templates() {
    k.get_param("N").set(24);
    ds = designs(k);
    s.emplace(ds.at(0), m);
    design_point p;
    for (const auto& f : ds.at(0).factors) p[f.id] = 8;
    architecture_point at{p, {}, false, false};
    at.operation_expressions = false;
    templates = modeling::one_tile_templates(ds.at(0), at, m, *s);
  }
  loop_id loop(const char* name) const {
    for (const auto& l : ds.at(0).band->loop_ids())
      if (l.name() == name) return l;
    FAIL("no loop " << name);
    return ds.at(0).band->loop_ids().front();
  }
  double at(const model::expr& e, int64_t kt, int64_t jt, int64_t it) const {
    design_point p;
    for (const auto& f : ds.at(0).factors) p[f.id] = f.id.loop.name() == "k" ? kt : f.id.loop.name() == "j" ? jt : it;
    return model::evaluate(e, model_point(m, p, k));
  }
};

TEST_CASE("one-tile extents: a template per set of loops, and the extent each shows", "[modeling][triangular]") {
  lu_templates t;
  REQUIRE(t.templates.size() == 7);  // k, j, i: every non-empty set
  const model::expr& jt = t.s->loop(t.loop("j")).t1;
  // A dim of j that is N - 1 wherever j has one tile (L_tmp's j > k), j_t1 elsewhere.
  auto shown = [&](const architecture& a) -> std::optional<int64_t> {
    for (const auto& tm : t.templates) {
      if (&tm.arch != &a) continue;
      for (const auto& l : tm.loops)
        if (l.name() == "j") return 23;
      return static_cast<int64_t>(model::evaluate(jt, tm.values));  // j_t1 there
    }
    return std::nullopt;
  };
  model::expr e = modeling::one_tile_extent(*t.s, t.templates, jt, jt, shown, "extent 0 of buffer X");
  CHECK(t.at(e, 8, 8, 8) == 8);
  CHECK(t.at(e, 8, 24, 8) == 23);
  CHECK(t.at(e, 24, 24, 24) == 23);
  CHECK(t.at(e, 24, 12, 6) == 12);  // one tile along k and i only: j_t1
}

TEST_CASE("one-tile extents: an extent no candidate gives is refused", "[modeling][triangular][errors]") {
  lu_templates t;
  const model::expr& jt = t.s->loop(t.loop("j")).t1;
  auto odd = [](const architecture&) -> std::optional<int64_t> { return 1000; };
  CHECK(sadsl::testing::message_of([&] { modeling::one_tile_extent(*t.s, t.templates, jt, jt, odd, "extent 0 of buffer X"); }) ==
        "extent 0 of buffer X: with one tile along k the architecture has 1000, which no extent the model knows gives; "
        "sadsl cannot model this design yet");
}

TEST_CASE("one-tile extents: a design tiled twice has no templates", "[modeling][triangular][errors]") {
  kernel k = catalog::mm();
  for (const auto& p : k.params()) p.set(16);
  std::vector<design> ds = designs(k);
  const design& d = ds.at(0);
  model::design_model m;
  modeling::symbols s(d, m);
  design_point p;
  for (const auto& f : d.factors) p[f.id] = f.parent ? 2 : 8;
  architecture_point at{p, {}, false, false};
  const tiling_factor* twice = nullptr;
  for (const auto& f : d.factors)
    if (f.parent && !twice) twice = &f;
  REQUIRE(twice != nullptr);
  CHECK(sadsl::testing::message_of([&] { modeling::one_tile_templates(d, at, m, s); }) ==
        "design " + d.name() + ": sadsl models a triangular design whose loops have one level of tiles; " +
            twice->id.loop.name() + " is tiled again");
}

}  // namespace sadsl::one_tile_extents_test
