// Every user error of the tuner library has its exact message.
#include <catch2/catch.hpp>

#include <fstream>
#include <limits>

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
  for (const char* bandwidth : {"0", "-3"})
    CHECK_THROWS_WITH(device_from_json(nlohmann::json::parse(std::string(R"({"dsp": 1, "bram18k": 1, "dram_gbytes_per_second": )") + bandwidth + "}"), "d.json"),
                      std::string(bandwidth) == "-3" ? "d.json: \"dram_gbytes_per_second\" must be a non-negative number"
                                                     : "d.json: \"dram_gbytes_per_second\" must be a positive number");
  CHECK(d.dram_gbytes_per_second == 19.2);
  CHECK(device_from_json(nlohmann::json::parse(R"({"dsp": 1, "bram18k": 1, "dram_gbytes_per_second": 4.8})"), "d.json").dram_gbytes_per_second == 4.8);
  CHECK(to_json(d)["dram_gbytes_per_second"] == 19.2);
  CHECK(builtin_device("u280").dram_gbytes_per_second == 14.375);
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

namespace sadsl::tune::testing {

namespace {
// kernel3_2 with a PE count that is a sum of 2,001 terms (the same value): 2,000 nested additions.
std::shared_ptr<const model::evaluator> deep_kernel3_2() {
  nlohmann::ordered_json d = model::testing::descriptor_json();
  std::string num = "((i_t1/i_t2)*(j_t1/j_t2))";
  for (int i = 0; i < 2000; ++i) num += "+0*i_t1";
  d["compute"]["PE"]["num"] = num;
  model::evaluator_options interpret;
  interpret.use_ahead_of_time = interpret.use_just_in_time = false;
  return std::make_shared<const model::evaluator>(model::import_odyssey_descriptor(d, "deep.json", "deep"), interpret);
}
}  // namespace

TEST_CASE("the symbolic searches refuse models nested too deep for them; the others search them", "[tune][errors]") {
  design_space space(deep_kernel3_2(), {{"i", 64}, {"j", 64}, {"k", 64}}, builtin_device("u250"));
  CHECK(space.expression_depth() == 2007);
  for (std::string method : {"exact", "mp"})
    CHECK_THROWS_WITH(make_search(method)->run(space, evaluation_budget(1000)),
                      "search \"" + method + "\" cannot handle design \"deep\": its expressions nest 2007 deep, more than "
                      "1000 (use random, annealing, genetic or padding)");
  for (std::string method : {"random", "genetic-mp"}) CHECK(make_search(method)->run(space, evaluation_budget(3000)).found);
}

TEST_CASE("tuned configurations and spaces check what they are given", "[tune][errors]") {
  design_space space = mm_space("kernel3_2", 64);
  search_result r = make_search("random")->run(space, evaluation_budget(500));
  for (double operations : {0.0, -1.0, std::numeric_limits<double>::infinity()})
    CHECK_THROWS_WITH(tuned_configuration(space, r, objective{}, workload{operations}),
                      "tuned configuration: the workload's operation count must be positive and finite");
  auto config = tuned_configuration(space, r, objective{}, workload{2.0 * 64 * 64 * 64, false});
  CHECK(config["throughput_unit"] == "GOP/s");
  CHECK(config["throughput"].get<double>() == Approx(2.0 * 64 * 64 * 64 / (r.metrics.latency / 300e6) / 1e9));
  CHECK(config["dsp_efficiency"] == nullptr);  // the workload does not say what the DSPs can do
  config = tuned_configuration(space, r, objective{}, workload{2.0 * 64 * 64 * 64, true, 0.4});
  CHECK(config["dsp_efficiency"].get<double>() == Approx(2.0 * 64 * 64 * 64 / r.metrics.latency / (r.metrics.dsp * 0.4)));
  for (double per_dsp : {-0.4, std::numeric_limits<double>::infinity()})
    CHECK_THROWS_WITH(tuned_configuration(space, r, objective{}, workload{1.0, true, per_dsp}),
                      "tuned configuration: the workload's operations per DSP must be finite and not negative");
  CHECK_THROWS_WITH(space.with_evaluator(gemm_evaluator("kernel3_0")),
                    "design \"kernel3_2\": another evaluator must evaluate the same model");
  CHECK(space.with_evaluator(gemm_evaluator("kernel3_2")).evaluate(r.best, objective{}).cost == r.cost);
}

}  // namespace sadsl::tune::testing

namespace sadsl::tune::testing {

namespace {
// A model with one problem size N and the given factors (name, origin), chained N -> first -> ...
std::shared_ptr<const model::evaluator> factors_model(const std::vector<std::pair<std::string, model::parameter_origin>>& factors) {
  model::design_model m;
  m.name = "hand";
  model::parameter n;
  n.name = "N";
  n.origin = model::problem_size_origin{param_id::fresh("N")};
  m.params.push_back(n);
  for (const auto& [name, origin] : factors) {
    m.params.back().split_by = m.params.size();
    model::parameter p;
    p.name = name;
    p.origin = origin;
    m.params.push_back(p);
  }
  m.dsp = m.bram18k = m.uram = m.lut = m.offchip_bytes = 1;
  model::evaluator_options interpret;
  interpret.use_ahead_of_time = interpret.use_just_in_time = false;
  return std::make_shared<const model::evaluator>(m, interpret);
}

std::string space_error(const std::shared_ptr<const model::evaluator>& ev, std::int64_t n = 8) {
  try {
    design_space(ev, {{"N", n}}, builtin_device("u250"));
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("design spaces built from origins check them", "[tune][errors]") {
  loop_id n = loop_id::fresh("n"), m = loop_id::fresh("m");
  factor_id t1{n, tile_level::array_partition}, t2{n, tile_level::latency_hiding};
  CHECK(space_error(factors_model({{"T", t1}, {"P", t2}})) == "(no error)");
  CHECK(space_error(factors_model({{"T", t1}, {"P", t2}}), max_problem_size + 1) ==
        "design \"hand\": size of loop \"N\" must be at most 2^53 (9007199254740992)");
  CHECK(space_error(factors_model({{"T", model::unused_pack_origin{}}})) ==
        "design \"hand\": \"N\" is split by \"T\", which is not a tiling factor");
  CHECK(space_error(factors_model({{"T", t1}, {"U", t1}})) ==
        "design \"hand\": loop \"n\" has two tiling factors at level array_partition");
  CHECK(space_error(factors_model({{"P", t2}, {"T", t1}})) ==
        "design \"hand\": the split_by chain of \"N\" does not follow the levels of loop \"n\" (\"N\" should be split by \"T\")");
  CHECK(space_error(factors_model({{"T", t1}, {"P", factor_id{m, tile_level::latency_hiding}}})) ==
        "design \"hand\": parameter \"P\" (tiling factor of loop m (latency_hiding)) is neither a loop size, a tiling factor "
        "of a tiled loop nor inferred");
  // Listing the tilings stops on the stop flag (checked every 1024 tilings).
  std::atomic<bool> stop{true};
  space_options stopped;
  stopped.stop = &stop;
  CHECK_THROWS_WITH(design_space(gemm_evaluator("kernel3_2"), {{"i", 1024}, {"j", 1024}, {"k", 1024}}, builtin_device("u250"), stopped),
                    "design \"kernel3_2\": stopped while listing the tilings of loop \"i\" (interrupted or out of time)");
}

}  // namespace sadsl::tune::testing
