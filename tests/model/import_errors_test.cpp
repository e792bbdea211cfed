// Malformed descriptors and constraint files: each error names the file, the module and the JSON path.
#include <catch2/catch.hpp>
#include <fstream>

#include "sadsl/error.hpp"
#include "sadsl/model/odyssey.hpp"
#include "test_support.hpp"

using namespace sadsl::model;
using json = nlohmann::ordered_json;

namespace {

json kernel3_2() {
  std::ifstream in(testing::descriptor("gemm", "kernel3_2"));
  return json::parse(in);
}

std::string import_error(const json& descriptor) {
  try {
    import_odyssey_descriptor(descriptor, "kernel3_2.json", "kernel3_2");
  } catch (const sadsl::error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("descriptor with a missing key", "[odyssey][errors]") {
  json d = kernel3_2();
  d["latency"]["PE"]["child"].erase("type");
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/child: missing key \"type\"");
  d = kernel3_2();
  d.erase("memory");
  CHECK(import_error(d) == "kernel3_2.json: /: missing key \"memory\"");
  d = kernel3_2();
  d["attr"].erase("B_IO_L3_in");
  CHECK(import_error(d) == "kernel3_2.json: module \"B_IO_L3_in\": /attr: missing key \"B_IO_L3_in\"");
  d = kernel3_2();
  d["compute"]["PE"].erase("num");
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE: missing key \"num\"");
}

TEST_CASE("descriptor with an unknown node type", "[odyssey][errors]") {
  json d = kernel3_2();
  d["latency"]["A_IO_L3_in"]["child"]["type"] = "loop";
  CHECK(import_error(d) == "kernel3_2.json: module \"A_IO_L3_in\": /latency/A_IO_L3_in/child/type: unknown node type \"loop\"");
}

TEST_CASE("descriptor with bad expressions", "[odyssey][errors]") {
  json d = kernel3_2();
  d["latency"]["PE"]["bounds"][1] = "ceil((i/i_t1)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/bounds/1: bad expression \"ceil((i/i_t1)\": "
                           "expected ')' at column 14");
  d = kernel3_2();
  d["memory"]["PE"]["buf_size"] = "(i_t2*x_t2)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /memory/PE/buf_size: bad expression \"(i_t2*x_t2)\": "
                           "unknown name 'x_t2' at column 7");
  d = kernel3_2();
  d["params"][8]["bounds"][1] = "min(k_t1 8)";
  CHECK(import_error(d) == "kernel3_2.json: /params/8/bounds/1: bad expression \"min(k_t1 8)\": expected ')' at column 10");
  d = kernel3_2();
  d["compute"]["PE"]["unroll_factor"] = "log(k_t2)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/unroll_factor: bad expression \"log(k_t2)\": "
                           "unknown function 'log' at column 1");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = "ceil(i_t1, 2)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"ceil(i_t1, 2)\": "
                           "ceil() takes one argument at column 14");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = "max(i_t1)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"max(i_t1)\": "
                           "max() takes at least two arguments at column 10");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = "i_t1 $ 2";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"i_t1 $ 2\": "
                           "unexpected '$' at column 6");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = "i_t1 *";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"i_t1 *\": "
                           "unexpected end at column 7");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = ".";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \".\": bad number at column 1");
  d = kernel3_2();
  d["compute"]["PE"]["num"] = "(i_t1 & 2)";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"(i_t1 & 2)\": "
                           "expected ')' at column 7");
}

TEST_CASE("descriptor with values of the wrong type", "[odyssey][errors]") {
  json d = kernel3_2();
  d["latency"]["PE"]["bounds"] = json::array({"0"});
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/bounds: expected [lower, upper]");
  d = kernel3_2();
  d["latency"]["PE"]["child"]["child"]["child"]["child"]["type"] = "block";
  d["latency"]["PE"]["child"]["child"]["child"]["child"]["child"] = 3;
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/child/child/child/child/child: expected a list");
  d = kernel3_2();
  d["latency"]["C_drain_IO_L1_out_inter"]["child"]["child"]["child"] = json::array();
  CHECK(import_error(d) == "kernel3_2.json: module \"C_drain_IO_L1_out_inter\": "
                           "/latency/C_drain_IO_L1_out_inter/child/child/child: expected a non-empty list");
  d = kernel3_2();
  d["attr"]["PE"]["in"] = "no";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /attr/PE/in: expected an integer");
  d = kernel3_2();
  d["latency"]["PE"]["type"] = 7;
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE/type: expected a string");
  d = kernel3_2();
  d["memory"]["PE"]["num"] = json::array();
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /memory/PE/num: expected an expression string");
  d = kernel3_2();
  d["latency"]["PE"] = 1;
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /latency/PE: expected an object");
  CHECK(import_error(json::array()) == "kernel3_2.json: /: expected a JSON object");
}

TEST_CASE("descriptor with bad parameters", "[odyssey][errors]") {
  json d = kernel3_2();
  d["params"][3]["attr"] = "tile";
  CHECK(import_error(d) == "kernel3_2.json: /params/3/attr: unknown parameter attr \"tile\"");
  d = kernel3_2();
  d["params"] = json::object();
  CHECK(import_error(d) == "kernel3_2.json: /params: expected a list");
  d = kernel3_2();
  d["params"][6]["divisors"] = json::array({"x_t1"});
  CHECK(import_error(d) == "kernel3_2.json: /params/6/divisors/0: unknown parameter \"x_t1\"");
  d = kernel3_2();
  d["params"][6]["divisors"] = "i_t1";
  CHECK(import_error(d) == "kernel3_2.json: /params/6/divisors: expected a list of parameter names");
  d = kernel3_2();
  d["params"][0]["split_by"] = 3;
  CHECK(import_error(d) == "kernel3_2.json: /params/0/split_by: expected a parameter name");
  d = kernel3_2();
  d["params"][9].erase("bounds");
  CHECK(import_error(d) == "kernel3_2.json: /params/9: inferred parameter \"p9\" has no bounds");
  d = kernel3_2();
  d["params"][3]["bounds"] = json::array({"1"});
  CHECK(import_error(d) == "kernel3_2.json: /params/3/bounds: expected [lower, upper]");
  d = kernel3_2();
  d["params"][8]["attr"] = "latency_tiling_factor";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /params: the PE has a local buffer but no SIMD_tiling_factor parameter");
  d = kernel3_2();
  d["compute"]["PE"]["ele_type"] = "int8";
  CHECK(import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/ele_type: unsupported element type \"int8\" (only float)");
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
