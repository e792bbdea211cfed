// No input crashes sadsl: huge nesting, long expressions, huge or missing numbers and files that
// are not files each give a clear error or a correct answer (docs/reliability.md lists them).
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <vector>

#include "cli_support.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/odyssey.hpp"
#include "test_support.hpp"

using namespace sadsl::model;
using json = nlohmann::ordered_json;
using sadsl::testing::run_sadsl;

namespace {



// A descriptor written to a scratch file (removed when the holder goes out of scope).
struct scratch_descriptor {
  std::filesystem::path file;
  explicit scratch_descriptor(const std::string& text) : file(sadsl::testing::scratch_file("descriptor.json")) {
    std::ofstream(file) << text;
  }
  ~scratch_descriptor() { std::filesystem::remove(file); }
};

std::string repeated(const std::string& piece, std::size_t count) {
  std::string text;
  text.reserve(piece.size() * count);
  for (std::size_t i = 0; i < count; ++i) text += piece;
  return text;
}

// The descriptor's text with the value at `path` replaced by `text` (JSON that nlohmann would
// refuse to hold or to print).
std::string with_placeholder(json descriptor, const std::vector<std::string>& path, const std::string& text) {
  json* at = &descriptor;
  for (const std::string& key : path) at = &(*at)[key];
  *at = "@placeholder@";
  std::string dumped = descriptor.dump();
  return dumped.replace(dumped.find("\"@placeholder@\""), 15, text);
}


}  // namespace

TEST_CASE("JSON nested 30,000 levels deep is refused", "[robustness]") {
  scratch_descriptor deep(repeated("[", 30000) + repeated("]", 30000));
  auto r = run_sadsl("eval --descriptor " + deep.file.string() + " " + testing::optimum_arguments);
  CHECK(r.status == 1);
  CHECK(r.err == deep.file.string() + ": invalid JSON: nested deeper than 256 levels\n");
  // A loop tree 30,000 levels deep (written as text: printing such a tree would recurse too).
  std::string tree = repeated(R"({"type": "for", "bounds": ["0", "2"], "iterator": "c", "child": )", 30000) +
                     R"j({"type": "user", "child": {"user_expr": "S_0()"}})j" + repeated("}", 30000);
  scratch_descriptor loops(with_placeholder(testing::descriptor_json(), {"latency", "PE"}, tree));
  CHECK(run_sadsl("eval --descriptor " + loops.file.string() + " " + testing::optimum_arguments).err ==
        loops.file.string() + ": invalid JSON: nested deeper than 256 levels\n");
}

TEST_CASE("numbers out of range in a descriptor or device file", "[robustness]") {
  scratch_descriptor huge(with_placeholder(testing::descriptor_json(), {"memory", "A_IO_L2_in", "ele_size"}, "1e400"));
  auto r = run_sadsl("eval --descriptor " + huge.file.string() + " " + testing::optimum_arguments);
  CHECK(r.status == 1);
  CHECK(r.err == huge.file.string() + ": invalid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'\n");
  scratch_descriptor device(R"({"dsp": 1e400, "bram18k": 10})");
  auto d = run_sadsl("eval --descriptor " + testing::descriptor("gemm", "kernel3_2").string() + " " + testing::optimum_arguments + " --device " +
                     device.file.string());
  CHECK(d.status == 1);
  CHECK(d.err == "sadsl eval: --device: " + device.file.string() +
                     ": invalid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'\n");
}

// Found by fuzz/device.cpp (fuzz/corpus/device/crash-ratio-1e308.json): an Odyssey constraint's
// ratio was not checked, so 1e308 made the usable BRAM infinite and 5 five times the device's.
TEST_CASE("an Odyssey constraint's ratio is a fraction", "[robustness]") {
  for (std::string ratio : {"1e308", "5", "0"}) {
    scratch_descriptor device(R"({"DSP": {"total": 12288, "ratio": 0.7}, "BRAM18K": {"total": 5376, "ratio": )" + ratio + "}}");
    auto d = run_sadsl("eval --descriptor " + testing::descriptor("gemm", "kernel3_2").string() + " " + testing::optimum_arguments +
                       " --device " + device.file.string());
    CHECK(d.status == 1);
    CHECK(d.err == "sadsl eval: --device: " + device.file.string() + ": BRAM18K: \"ratio\" must be in (0, 1]\n");
  }
  scratch_descriptor whole(R"({"DSP": {"total": 12288, "ratio": 1}, "BRAM18K": {"total": 5376, "ratio": 0.7}})");
  CHECK(run_sadsl("eval --descriptor " + testing::descriptor("gemm", "kernel3_2").string() + " " + testing::optimum_arguments + " --device " +
                  whole.file.string()).status == 0);
}

TEST_CASE("values that would make resources wrong are refused", "[robustness]") {
  json d = testing::descriptor_json();
  d["memory"]["A_IO_L2_in"]["ele_size"] = 0;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"A_IO_L2_in\": /memory/A_IO_L2_in/ele_size: expected an integer from 1 to 64, not 0");
  d["memory"]["A_IO_L2_in"]["ele_size"] = 9223372036854775808ULL;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"A_IO_L2_in\": /memory/A_IO_L2_in/ele_size: expected an integer from 1 "
                           "to 64, not 9223372036854775808");
  d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = -1;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: expected a count of at least 1, not -1");
  d = testing::descriptor_json();
  d["memory"]["PE"]["buf_size"] = "0";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /memory/PE/buf_size: expected a count of at least 1, not 0");
  d = testing::descriptor_json();
  d["attr"]["PE"]["in"] = 4294967296LL;
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /attr/PE/in: expected an integer from -1 to 1, not 4294967296");
}

TEST_CASE("30,000 nested parentheses in a bound are refused", "[robustness]") {
  json d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = repeated("(", 30000) + "i_t1" + repeated(")", 30000);
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"" + repeated("(", 100) +
                               "...\": parentheses nested deeper than 200 at column 201");
  d["compute"]["PE"]["num"] = repeated("ceil(", 30000) + "i_t1" + repeated(")", 30000);
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"PE\": /compute/PE/num: bad expression \"" +
                               repeated("ceil(", 20) + "...\": parentheses nested deeper than 200 at column 1005");
}

TEST_CASE("a 300,000-term sum and 300,000 unary minuses are evaluated, printed and emitted", "[robustness][large]") {
  const std::string pes = "((i_t1/i_t2)*(j_t1/j_t2))";
  for (const std::string& num : {pes + repeated("+0*i_t1", 300000), repeated("-", 300000) + pes}) {
    json d = testing::descriptor_json();
    d["compute"]["PE"]["num"] = num;
    design_model m = import_odyssey_descriptor(d, "long.json", "long");
    std::vector<double> point{1024, 1024, 1024, 129, 205, 64, 3, 41, 8, 0, 0, 0, 0};
    CHECK(interpreter(m).evaluate(point, {12288 * 0.7, 5376 * 0.7, 1280 * 0.7}).dsp == 8600);
    CHECK(to_string(m.dsp).size() >= (num[0] == '-' ? 30u : 2100000u));
    CHECK(emit_cpp(m).find("sadsl_evaluate") != std::string::npos);
  }
  // Built through the API: chains of a million nodes are destroyed, compared and printed.
  expr x = expr::parameter(0, "x");
  expr chain = x, twin = x;
  for (int i = 0; i < 1000000; ++i) chain = chain + x, twin = twin + x;
  CHECK(chain.depth() == 1000001);
  CHECK(evaluate(chain, std::vector<double>{2}) == 2000002);
  CHECK(chain.same_as(twin));
  CHECK(!chain.same_as(twin + x));
  CHECK(to_string(chain).size() == 4000001);
}

TEST_CASE("600,000 sibling loops are imported and evaluated", "[robustness][large]") {
  json d = testing::descriptor_json();
  json& body = d["latency"]["A_IO_L3_in"];
  json loops = json::array();
  for (int i = 0; i < 600000; ++i)
    loops.push_back({{"type", "for"}, {"bounds", {"0", "2"}}, {"iterator", "c"}, {"child", {{"type", "user"}, {"child", {{"user_expr", "S()"}}}}}});
  body = json{{"type", "block"}, {"child", loops}};
  scratch_descriptor many(d.dump());
  auto r = run_sadsl("eval --descriptor " + many.file.string() + " " + testing::optimum_arguments + " --json");
  REQUIRE(r.status == 0);
  // The module's main latency is 600,000 loops of 2 cycles: it now dominates.
  CHECK(nlohmann::json::parse(r.out)["latency_main"] == 1200000.0);
}

TEST_CASE("a directory or a device given as a file", "[robustness]") {
  std::string dir = std::filesystem::temp_directory_path().string();
  for (std::string command : {"eval", "emit", "tune"}) {
    std::string extra = command == "eval" ? " " + testing::optimum_arguments : command == "tune" ? " --size i=64,j=64,k=64" : "";
    auto r = run_sadsl(command + " --descriptor " + dir + extra);
    INFO(command);
    CHECK(r.status == 1);
    CHECK(r.err == "cannot read descriptor " + dir + ": Is a directory\n");
  }
  auto device = run_sadsl("eval --descriptor " + testing::descriptor("gemm", "kernel3_2").string() + " " + testing::optimum_arguments +
                          " --device " + dir);
  CHECK(device.err == "sadsl eval: --device: unknown device \"" + dir + "\" (known: u200, u250, u280, vu9p) and no such device file\n");
  // /dev/zero never ends: reading stops at 256 MiB.
  auto zero = run_sadsl("eval --descriptor /dev/zero " + testing::optimum_arguments);
  CHECK(zero.status == 1);
  CHECK(zero.err == "cannot read descriptor /dev/zero: larger than 256 MiB\n");
}

TEST_CASE("sadsl tune on a model with a 300,000-term sum", "[robustness][large]") {
  json d = testing::descriptor_json();
  d["compute"]["PE"]["num"] = "((i_t1/i_t2)*(j_t1/j_t2))" + repeated("+0*i_t1", 300000);
  scratch_descriptor long_sum(d.dump());
  std::string args = "tune --descriptor " + long_sum.file.string() + " --size i=64,j=64,k=64 ";
  auto exact = run_sadsl(args + "--method exact");
  CHECK(exact.status == 1);
  CHECK(exact.err.find("search \"exact\" cannot handle design \"" + long_sum.file.stem().string() +
                       "\": its expressions nest 300007 deep, more than 1000 (use random, annealing, genetic or padding)\n") !=
        std::string::npos);
  // Compiling 300,000 additions takes minutes: the compiler is stopped at the deadline and the
  // interpreter searches instead. (Emitting the source, before the compiler starts, is not
  // interruptible and takes a few seconds here: the bound is loose.)
  auto start = std::chrono::steady_clock::now();
  auto random = run_sadsl(args + "--method random --seconds 3 --json", "SADSL_CACHE_DIR=" + long_sum.file.string() + ".cache");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 60);
  std::filesystem::remove_all(long_sum.file.string() + ".cache");
  CHECK(random.status == 0);
  CHECK(random.err.find("evaluating with the interpreter: compiling model \"" + long_sum.file.stem().string() +
                        "\" stopped: the time budget ran out\n") != std::string::npos);
  CHECK(nlohmann::json::parse(random.out)["feasible"] == true);
}
