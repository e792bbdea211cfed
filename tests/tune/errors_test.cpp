// Every user error of the tuner library has its exact message.
#include <catch2/catch.hpp>

#include <fstream>

#include "sadsl/tune/tune.hpp"

#include "support.hpp"

namespace sadsl::tune::testing {

TEST_CASE("unknown method and device", "[tune][errors]") {
  CHECK_THROWS_WITH(make_search("greedy"),
                    "unknown search method \"greedy\" (known: exact, random, annealing, genetic, mp, genetic-mp, padding)");
  CHECK_THROWS_WITH(builtin_device("u55c"), "unknown device \"u55c\" (known: u200, u250, u280, vu9p)");
  CHECK_THROWS_WITH(find_device("u55c"), "unknown device \"u55c\" (known: u200, u250, u280, vu9p) and no such device file");
  CHECK_THROWS_WITH(objective_named("power"), "unknown objective \"power\" (known: latency, throughput, offchip, dsp)");
}

TEST_CASE("sizes must name the loops of the design", "[tune][errors]") {
  auto ev = gemm_evaluator("kernel3_2");
  device u250 = builtin_device("u250");
  CHECK_THROWS_WITH(design_space(ev, {{"i", 64}, {"j", 64}}, u250), "design \"kernel3_2\": no size for loop \"k\"");
  CHECK_THROWS_WITH(design_space(ev, {{"i", 64}, {"j", 64}, {"k", 64}, {"x", 3}}, u250), "design \"kernel3_2\" has no loop \"x\"");
  CHECK_THROWS_WITH(design_space(ev, {{"i", 64}, {"j", 0}, {"k", 64}}, u250), "design \"kernel3_2\": size of loop \"j\" must be at least 1");
  CHECK_THROWS_WITH(design_space(ev, {{"i", 64}, {"j", 64}, {"k", 64}, {"i_t1", 3}}, u250),
                    "design \"kernel3_2\": \"i_t1\" is a tiling parameter, not a loop size");
}

TEST_CASE("an infeasible space names the resource that cannot fit", "[tune][errors]") {
  device tiny;
  tiny.name = "tiny";
  tiny.dsp = 4;
  tiny.bram18k = 100;
  design_space space(gemm_evaluator("kernel3_2"), {{"i", 64}, {"j", 64}, {"k", 64}}, tiny);
  CHECK_THROWS_WITH(make_search("exact")->run(space, {}),
                    "design \"kernel3_2\" cannot fit on tiny: DSP needs 5 even at the smallest tiling "
                    "(i_t1=1 i_t2=1 j_t1=1 j_t2=1 k_t1=1 k_t2=1) but only 2.8 are usable (4 x 0.7)");
  CHECK_THROWS_AS(make_search("random")->run(space, evaluation_budget(10)), does_not_fit);
}

TEST_CASE("tune_designs skips designs that do not fit, by the error's type", "[tune][errors]") {
  device tiny;
  tiny.name = "tiny";
  tiny.dsp = 4;
  tiny.bram18k = 100;
  std::vector<design_space> spaces;
  spaces.emplace_back(gemm_evaluator("kernel3_2"), std::map<std::string, std::int64_t>{{"i", 64}, {"j", 64}, {"k", 64}}, tiny);
  spaces.push_back(mm_space("kernel3_2", 64));
  multi_result r = tune_designs(spaces, "random", evaluation_budget(200));
  CHECK(!r.per_design[0].found);
  CHECK(r.best_index == 1);
  // Only does_not_fit is skipped: any other error ends the run.
  search_options custom = evaluation_budget(200);
  custom.goal.kind = objective_kind::custom;
  custom.goal.function = [](const model::metrics& m, std::span<const double>) { return m.lut; };
  CHECK_THROWS_WITH(tune_designs(spaces, "exact", custom),
                    "the exact search needs an objective it can bound (latency, throughput, offchip or dsp), not a custom function");
  std::vector<design_space> none_fits{spaces[0]};
  CHECK_THROWS_AS(tune_designs(none_fits, "random", evaluation_budget(10)), does_not_fit);
}

TEST_CASE("searches refuse what they cannot do", "[tune][errors]") {
  design_space space = mm_space("kernel3_2", 64);
  search_options custom;
  custom.goal.kind = objective_kind::custom;
  custom.goal.function = [](const model::metrics& m, std::span<const double>) { return m.lut; };
  CHECK_THROWS_WITH(make_search("exact")->run(space, custom),
                    "the exact search needs an objective it can bound (latency, throughput, offchip or dsp), not a custom function");
  search_options unbounded;
  unbounded.seconds = 0;
  CHECK_THROWS_WITH(make_search("random")->run(space, unbounded), "search \"random\" needs a time or evaluation budget");
}

TEST_CASE("device JSON", "[tune][device]") {
  device d = device_from_json(nlohmann::json::parse(R"({"name": "mine", "dsp": 100, "bram18k": 50, "usable_fraction": 0.5})"), "mine.json");
  CHECK(d.limits().dsp == 50);
  CHECK(d.limits().bram18k == 25);
  CHECK(d.clock_mhz == 300);
  device odyssey = device_from_json(nlohmann::json::parse(R"({"DSP": {"total": 100, "ratio": 0.7}, "BRAM18K": {"total": 10, "ratio": 0.5}})"), "c.json");
  CHECK(odyssey.limits().dsp == Approx(70));
  CHECK(odyssey.limits().bram18k == Approx(5));
  CHECK_THROWS_WITH(device_from_json(nlohmann::json::parse(R"({"dsp": 1})"), "d.json"), "d.json: missing \"bram18k\"");
  CHECK_THROWS_WITH(device_from_json(nlohmann::json::parse(R"({"dsp": 1, "bram18k": 1, "usable_fraction": 2})"), "d.json"),
                    "d.json: \"usable_fraction\" must be in (0, 1]");
  for (const char* ports : {"1e300", "0", "2.5", "-1"})
    CHECK_THROWS_WITH(device_from_json(nlohmann::json::parse(std::string(R"({"dsp": 1, "bram18k": 1, "dram_ports": )") + ports + "}"), "d.json"),
                      std::string(ports) == "-1" ? "d.json: \"dram_ports\" must be a non-negative number"
                                                 : "d.json: \"dram_ports\" must be a whole number from 1 to 1024");
  device u250 = builtin_device("U250");
  CHECK(u250.dsp == 12288);
  CHECK(u250.limits().bram18k == Approx(3763.2));
}

TEST_CASE("Odyssey constraint files are devices", "[tune][device]") {
  model::device_limits u250 = load_device(odyssey_dir() / "constraints" / "u250.json").limits();
  CHECK(u250.dsp == 12288 * 0.7);
  CHECK(u250.bram18k == 5376 * 0.7);
  CHECK(u250.uram == 1280 * 0.7);
  model::device_limits vu9p = builtin_device("vu9p").limits();
  CHECK(vu9p.dsp == 6840 * 0.7);
  CHECK(vu9p.bram18k == 4318 * 0.7);
  CHECK(vu9p.uram == 960 * 0.7);
  model::testing::temporary_cache dir("bad-constraints");
  CHECK_THROWS_WITH(load_device(dir.dir / "none.json"),
                    "cannot read device file " + (dir.dir / "none.json").string() + ": No such file or directory");
  CHECK_THROWS_WITH(load_device(dir.dir), "cannot read device file " + dir.dir.string() + ": Is a directory");
  std::ofstream(dir.dir / "bad.json") << "{\"DSP\": 5}";
  CHECK_THROWS_WITH(load_device(dir.dir / "bad.json"),
                    (dir.dir / "bad.json").string() + ": \"DSP\" must be {\"total\": N, \"ratio\": R}");
  std::ofstream(dir.dir / "broken.json") << "[";
  CHECK_THROWS_WITH(load_device(dir.dir / "broken.json"),
                    (dir.dir / "broken.json").string() +
                        ": invalid JSON: [json.exception.parse_error.101] parse error at line 1, column 2: "
                        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
}

}  // namespace sadsl::tune::testing
