// The imported MM models reproduce, value for value, what Odyssey's own generated model computes
// (gemm_1024/<design>.csv: 350 points per design, i = j = k = 1024, FP32, U250 x 0.7).
#include <catch2/catch.hpp>
#include <string>

#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

TEST_CASE("imported MM descriptors reproduce Odyssey's latency, DSP, BRAM and traffic exactly", "[odyssey]") {
  device_limits u250 = sadsl::tune::load_device(testing::odyssey_dir() / "constraints" / "u250.json").limits();
  std::size_t checked = 0;
  for (const std::string& design : testing::gemm_designs()) {
    interpreter model(import_odyssey_descriptor(testing::odyssey_dir() / "descriptors" / "gemm" / (design + ".json")));
    auto rows = testing::read_csv(testing::odyssey_dir() / "gemm_1024" / (design + ".csv"));
    REQUIRE(rows.size() == 350);
    for (const auto& row : rows) {
      std::vector<double> point(model.parameter_count());
      for (std::size_t i = 0; i < point.size(); ++i)
        if (!model.model().params[i].inferred) point[i] = std::stod(row.at(model.model().params[i].name));
      metrics m = model.evaluate(point, u250);
      INFO(design << " at i_t1=" << row.at("i_t1") << " j_t1=" << row.at("j_t1") << " k_t1=" << row.at("k_t1")
                  << " i_t2=" << row.at("i_t2") << " j_t2=" << row.at("j_t2") << " k_t2=" << row.at("k_t2"));
      for (std::size_t i = 0; i < point.size(); ++i)
        if (model.model().params[i].inferred) CHECK(point[i] == std::stod(row.at(model.model().params[i].name)));
      CHECK(m.legal == 1);
      CHECK(m.latency == std::stod(row.at("latency")));
      CHECK(m.latency_prologue == std::stod(row.at("latency_prologue")));
      CHECK(m.latency_main == std::stod(row.at("latency_main")));
      CHECK(m.latency_epilogue == std::stod(row.at("latency_epilogue")));
      CHECK(m.dsp == std::stod(row.at("DSP")));
      CHECK(m.bram18k == std::stod(row.at("BRAM18K")));
      CHECK(m.uram == std::stod(row.at("URAM")));
      CHECK(m.offchip_bytes == std::stod(row.at("off_chip_bytes")));
      CHECK(m.feasible == std::stod(row.at("feasible")));
      ++checked;
    }
  }
  CHECK(checked == 18 * 350);
}

TEST_CASE("kernel3_2 at Odyssey's optimum", "[odyssey]") {
  interpreter model(import_odyssey_descriptor(testing::odyssey_dir() / "descriptors" / "gemm" / "kernel3_2.json"));
  const design_model& d = model.model();
  std::vector<double> point(model.parameter_count());
  for (auto [name, value] : {std::pair{"i", 1024}, {"j", 1024}, {"k", 1024}, {"i_t1", 129}, {"j_t1", 205}, {"k_t1", 64},
                             {"i_t2", 3}, {"j_t2", 41}, {"k_t2", 8}})
    point[d.parameter_index(name)] = value;
  metrics m = model.evaluate(point, sadsl::tune::builtin_device("u250").limits());
  CHECK(m.latency == 637832.25);
  CHECK(m.dsp == 8600);
  CHECK(m.bram18k == 2515);
  CHECK(m.feasible == 1);
}
