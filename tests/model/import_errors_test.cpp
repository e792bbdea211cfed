// Malformed descriptors and constraint files: each error names the file, the module and the JSON path.
#include <catch2/catch.hpp>
#include <fstream>

#include "sadsl/error.hpp"
#include "sadsl/model/odyssey.hpp"
#include "test_support.hpp"

using namespace sadsl::model;
using json = nlohmann::ordered_json;

TEST_CASE("descriptor with a missing key", "[odyssey][errors]") {
  json d = testing::descriptor_json();
  d["latency"]["PE"]["child"].erase("type");
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/child: missing key \"type\"");
  d = testing::descriptor_json();
  d.erase("memory");
  CHECK(testing::import_error(d) == "kernel3_2.json: /: missing key \"memory\"");
  d = testing::descriptor_json();
  d["attr"].erase("B_IO_L3_in");
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"B_IO_L3_in\": /attr: missing key \"B_IO_L3_in\"");
  d = testing::descriptor_json();
  d["compute"]["PE"].erase("num");
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE: missing key \"num\"");
}

TEST_CASE("descriptor with an unknown node type", "[odyssey][errors]") {
  json d = testing::descriptor_json();
  d["latency"]["A_IO_L3_in"]["child"]["type"] = "loop";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"A_IO_L3_in\": /latency/A_IO_L3_in/child/type: unknown node type \"loop\"");
}

TEST_CASE("descriptor with bad expressions", "[odyssey][errors]") {
  json d = testing::descriptor_json();
  d["latency"]["PE"]["bounds"][1] = "ceil((i/i_t1)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/bounds/1: bad expression \"ceil((i/i_t1)\": "
                           "expected ')' at column 14");
  d = testing::descriptor_json();
  d["memory"]["PE"]["buf_size"] = "(i_t2*x_t2)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /memory/PE/buf_size: bad expression \"(i_t2*x_t2)\": "
                           "unknown name 'x_t2' at column 7");
  d = testing::descriptor_json();
  d["params"][8]["bounds"][1] = "min(k_t1 8)";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/8/bounds/1: bad expression \"min(k_t1 8)\": expected ')' at column 10");
  d = testing::descriptor_json();
  d["compute"]["PE"]["unroll_factor"] = "log(k_t2)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/unroll_factor: bad expression \"log(k_t2)\": "
                           "unknown function 'log' at column 1");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "ceil(i_t1, 2)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"ceil(i_t1, 2)\": "
                           "ceil() takes one argument at column 14");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "max(i_t1)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"max(i_t1)\": "
                           "max() takes at least two arguments at column 10");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "i_t1 $ 2";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"i_t1 $ 2\": "
                           "unexpected '$' at column 6");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "i_t1 *";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"i_t1 *\": "
                           "unexpected end at column 7");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = ".";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \".\": bad number at column 1");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "(i_t1 & 2)";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"(i_t1 & 2)\": "
                           "expected ')' at column 7");
}

TEST_CASE("descriptor with values of the wrong type", "[odyssey][errors]") {
  json d = testing::descriptor_json();
  d["latency"]["PE"]["bounds"] = json::array({"0"});
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/bounds: expected [lower, upper]");
  d = testing::descriptor_json();
  d["latency"]["PE"]["child"]["child"]["child"]["child"]["type"] = "block";
  d["latency"]["PE"]["child"]["child"]["child"]["child"]["child"] = 3;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/child/child/child/child/child: expected a list");
  d = testing::descriptor_json();
  d["latency"]["C_drain_IO_L1_out_inter"]["child"]["child"]["child"] = json::array();
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"C_drain_IO_L1_out_inter\": "
                           "/latency/C_drain_IO_L1_out_inter/child/child/child: expected a non-empty list");
  d = testing::descriptor_json();
  d["attr"]["PE"]["in"] = "no";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /attr/PE/in: expected an integer");
  d = testing::descriptor_json();
  d["latency"]["PE"]["type"] = 7;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/type: expected a string");
  d = testing::descriptor_json();
  d["memory"]["PE"]["num"] = json::array();
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /memory/PE/num: expected an expression string");
  d = testing::descriptor_json();
  d["latency"]["PE"] = 1;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE: expected an object");
  CHECK(testing::import_error(json::array()) == "kernel3_2.json: /: expected a JSON object");
}

TEST_CASE("descriptor with bad parameters", "[odyssey][errors]") {
  json d = testing::descriptor_json();
  d["params"][3]["attr"] = "tile";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/3/attr: unknown parameter attr \"tile\"");
  d = testing::descriptor_json();
  d["params"] = json::object();
  CHECK(testing::import_error(d) == "kernel3_2.json: /params: expected a list");
  d = testing::descriptor_json();
  d["params"][6]["divisors"] = json::array({"x_t1"});
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/6/divisors/0: unknown parameter \"x_t1\"");
  d = testing::descriptor_json();
  d["params"][6]["divisors"] = "i_t1";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/6/divisors: expected a list of parameter names");
  d = testing::descriptor_json();
  d["params"][0]["split_by"] = 3;
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/0/split_by: expected a parameter name");
  d = testing::descriptor_json();
  d["params"][9].erase("bounds");
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/9: inferred parameter \"p9\" has no bounds");
  d = testing::descriptor_json();
  d["params"][3]["bounds"] = json::array({"1"});
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/3/bounds: expected [lower, upper]");
  d = testing::descriptor_json();
  d["params"][8]["attr"] = "latency_tiling_factor";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /params: the PE has a local buffer but no SIMD_tiling_factor parameter");
  d = testing::descriptor_json();
  d["compute"]["PE"]["ele_type"] = "int8";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/ele_type: unsupported element type \"int8\" (only float)");
}

TEST_CASE("descriptor files that cannot be read", "[odyssey][errors]") {
  testing::temporary_cache dir("bad-files");
  CHECK_THROWS_WITH(import_odyssey_descriptor(dir.dir / "missing.json"),
                    "cannot read descriptor " + (dir.dir / "missing.json").string() + ": No such file or directory");
  CHECK_THROWS_WITH(import_odyssey_descriptor(dir.dir), "cannot read descriptor " + dir.dir.string() + ": Is a directory");
  std::ofstream(dir.dir / "broken.json") << "{\"params\": [";
  CHECK_THROWS_WITH(import_odyssey_descriptor(dir.dir / "broken.json"),
                    (dir.dir / "broken.json").string() +
                        ": invalid JSON: [json.exception.parse_error.101] parse error at line 1, column 13: "
                        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
}
