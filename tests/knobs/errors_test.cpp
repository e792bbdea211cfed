// Every user mistake of the knobs API throws sadsl::error with a message naming the user's object.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sadsl/error.hpp"
#include "sadsl/tune/knobs/search.hpp"

using namespace sadsl::knobs;
using sadsl::error;

namespace {
problem one_knob() {
  problem p;
  p.add_knob(knob::range("banks", 1, 4));
  p.add_sensor("cycles");
  p.minimize(sensor("cycles"));
  return p;
}

outcome cycles(const configuration& c) { return outcome::pass({{"cycles", 100.0 / double(c["banks"])}}); }
}  // namespace

TEST_CASE("bad knob declarations") {
  CHECK_THROWS_AS(knob::range("banks", 8, 4), error);
  CHECK_THROWS_WITH(knob::range("banks", 8, 4), "knob 'banks': range 8..4 is empty (lo > hi)");
  CHECK_THROWS_WITH(knob::range("banks", 1, 4, 0), "knob 'banks': step must be at least 1, got 0");
  CHECK_THROWS_WITH(knob::power_of_two("tile", 3, 16),
                    "knob 'tile': power-of-two range needs powers of two 1 <= lo <= hi, got 3..16");
  CHECK_THROWS_WITH(knob::power_of_two("tile", 16, 4),
                    "knob 'tile': power-of-two range needs powers of two 1 <= lo <= hi, got 16..4");
  CHECK_THROWS_WITH(knob::enumeration("layout", {}), "knob 'layout': an enumeration needs at least one label");
  CHECK_THROWS_WITH(knob::enumeration("layout", {"row", "col", "row"}), "knob 'layout': label 'row' appears twice");
  CHECK_THROWS_WITH(knob::range("banks", 1, 4).scale(0),
                    "knob 'banks': distance scale must be a positive number, got 0.000000");
  CHECK_THROWS_WITH(knob::range("", 1, 4), "a knob name must not be empty");
}

TEST_CASE("bad problem declarations") {
  problem p = one_knob();
  CHECK_THROWS_WITH(p.add_knob(knob::range("banks", 1, 2)), "knob 'banks' is declared twice");
  CHECK_THROWS_WITH(p.add_sensor("cycles"), "sensor 'cycles' is declared twice");
  p.proxy("compile time limit", sensor("cycles"));
  CHECK_THROWS_WITH(p.proxy("compile time limit", sensor("cycles")),
                    "failure kind 'compile time limit' already has a proxy ('cycles')");
  CHECK_THROWS_WITH(p.proxy("", sensor("cycles")), "proxy 'cycles' needs the failure kind it predicts");
  CHECK_THROWS_WITH(sensor("cycles") <= std::numeric_limits<double>::infinity(),
                    "constraint on 'cycles': the limit must be finite");
  CHECK_THROWS_WITH(outcome::fail(""), "a failed outcome needs a failure kind (e.g. \"compile time limit\")");
  constraint unnamed = sensor("cycles") <= 10;
  CHECK(unnamed.name == "cycles <= 10");
  unnamed.name.clear();
  CHECK_THROWS_WITH(p.require(unnamed), "constraint on 'cycles' needs a name");
}

TEST_CASE("ill-formed problems are refused when a search starts") {
  problem empty;
  CHECK_THROWS_WITH(search(empty, cycles), "tuning problem has no knobs");
  problem no_objective;
  no_objective.add_knob(knob::range("banks", 1, 4));
  CHECK_THROWS_WITH(search(no_objective, cycles), "tuning problem has no objective (call maximize or minimize)");

  problem p = one_knob();
  p.maximize(sensor("throughput"));
  CHECK_THROWS_WITH(
      search(p, cycles),
      "objective 'throughput' reads sensor 'throughput', which is not declared (declared sensors: cycles)");
  problem q = one_knob();
  q.require(sensor("dsp") <= 10);
  CHECK_THROWS_WITH(search(q, cycles),
                    "constraint 'dsp <= 10' reads sensor 'dsp', which is not declared (declared sensors: cycles)");
  problem r = one_knob();
  r.proxy("timeout", sensor("ir_size"));
  CHECK_THROWS_WITH(
      search(r, cycles),
      "proxy 'ir_size' of 'timeout' reads sensor 'ir_size', which is not declared (declared sensors: cycles)");
}

TEST_CASE("bad search options") {
  search_options o;
  o.tests = 0;
  CHECK_THROWS_WITH(search(one_knob(), cycles, o), "search options: tests must be at least 1, got 0");
  o = {};
  o.candidates = 0;
  CHECK_THROWS_WITH(search(one_knob(), cycles, o), "search options: candidates must be at least 1, got 0");
  o = {};
  o.seconds = 0;
  CHECK_THROWS_WITH(search(one_knob(), cycles, o), "search options: seconds must be positive");
}

TEST_CASE("malformed outcomes name the configuration and the sensor") {
  const problem p = one_knob();
  search_options o;
  o.tests = 1;
  o.seed = 3;
  const auto first = search(p, cycles, o).history.front().config.to_string();
  CHECK_THROWS_WITH(search(
                        p,
                        [](const configuration&) {
                          return outcome::pass({{"cycels", 1.0}});
                        },
                        o),
                    "evaluation of " + first + " reported sensor 'cycels', which is not declared");
  CHECK_THROWS_WITH(search(
                        p, [](const configuration&) { return outcome::pass({}); }, o),
                    "evaluation of " + first + " passed but lacks a sensor read by objective 'cycles'");
  CHECK_THROWS_WITH(search(
                        p,
                        [](const configuration&) {
                          return outcome::pass({{"cycles", std::nan("")}});
                        },
                        o),
                    "evaluation of " + first + " reported a non-finite value for sensor 'cycles'");

  problem limited = one_knob();
  limited.add_sensor("energy");
  limited.require(sensor("energy") >= 1);
  CHECK_THROWS_WITH(search(limited, cycles, o),
                    "evaluation of " + first + " passed but lacks a sensor read by constraint 'energy'");

  problem ratio;
  ratio.add_knob(knob::range("banks", 1, 4));
  const feature ops = ratio.add_sensor("ops"), time = ratio.add_sensor("time");
  ratio.maximize(ops / time);
  CHECK_THROWS_WITH(search(
                        ratio,
                        [](const configuration&) {
                          return outcome::pass({{"ops", 1.0}, {"time", 0.0}});
                        },
                        o),
                    "objective 'ops / time' is not finite at " + first);
}

TEST_CASE("configurations refuse unknown knobs and non-enumeration labels") {
  problem p;
  p.add_knob(knob::range("banks", 1, 4));
  p.add_knob(knob::enumeration("layout", {"row", "column"}));
  p.maximize(p.add_sensor("speed"));
  search_options o;
  o.tests = 1;
  CHECK_THROWS_WITH(search(
                        p,
                        [](const configuration& c) {
                          return outcome::pass({{"speed", double(c["bank"])}});
                        },
                        o),
                    "configuration has no knob 'bank' (knobs: banks, layout)");
  CHECK_THROWS_WITH(search(
                        p,
                        [](const configuration& c) {
                          return outcome::pass({{"speed", double(c.label("banks").size())}});
                        },
                        o),
                    "knob 'banks' is not an enumeration; read its value with [\"banks\"]");
}
