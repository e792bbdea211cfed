// The `sadsl` program: `eval` prints one JSON object; mistakes give one clear line on stderr.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sadsl::model;

namespace {

struct run_result {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs build/sadsl with `arguments` (already shell-quoted), run-time compiled models in a temp dir.
run_result run_sadsl(const std::string& arguments) {
  static testing::temporary_cache cache("cli");
  std::filesystem::path err_file = cache.dir / "stderr.txt";
  std::string command = "SADSL_CACHE_DIR=" + cache.dir.string() + " " + SADSL_BINARY_DIR + "/sadsl " + arguments +
                        " 2>" + err_file.string();
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = ::pclose(pipe);
  std::ifstream err_in(err_file);
  std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err};
}

std::string kernel3_2_file() { return testing::descriptor("gemm", "kernel3_2").string(); }
const std::string optimum = "--size i=1024,j=1024,k=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64,k_t2=8";

void check_error(const std::string& arguments, const std::string& message) {
  run_result r = run_sadsl(arguments);
  INFO(arguments);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err == message + "\n");
}

}  // namespace

TEST_CASE("sadsl eval prints the metrics and inferred parameters as JSON", "[cli]") {
  for (std::string extra : {"", " --compiled"}) {
    run_result r = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + optimum + " --device u250 --json" + extra);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    auto result = nlohmann::json::parse(r.out);
    CHECK(result["design"] == "kernel3_2");
    CHECK(result["latency"] == 637832.25);
    CHECK(result["latency_prologue"] == 821.0);
    CHECK(result["latency_main"] == 630400.0);
    CHECK(result["latency_epilogue"] == 6611.25);
    CHECK(result["dsp"] == 8600.0);
    CHECK(result["bram18k"] == 2515.0);
    CHECK(result["uram"] == 0.0);
    CHECK(result["offchip_bytes"] == 58953760.0);
    CHECK(result["legal"] == true);
    CHECK(result["feasible"] == true);
    CHECK(result["inferred"] == nlohmann::json{{"p9", 16}, {"p10", 16}, {"p11", 4}, {"p12", 4}});
    CHECK(result["params"]["i_t1"] == 129);
    // One point is interpreted; --compiled compiles at run time (the program has no models
    // compiled ahead of time).
    CHECK(result["backend"] == (extra.empty() ? "interpreter" : "just-in-time"));
  }
  run_result vu9p = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + optimum + " --device vu9p --json");
  CHECK(nlohmann::json::parse(vu9p.out)["feasible"] == false);  // 8600 DSPs > 6840 x 0.7
  std::string constraints = (testing::odyssey_dir() / "constraints" / "single_test.json").string();
  run_result file = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + optimum + " --device " + constraints + " --json");
  CHECK(nlohmann::json::parse(file.out)["feasible"] == false);
}

TEST_CASE("sadsl emit writes the model's C++", "[cli]") {
  run_result r = run_sadsl("emit --descriptor " + kernel3_2_file() + " --name gemm_kernel3_2");
  CHECK(r.exit_code == 0);
  std::ifstream golden(std::filesystem::path(SADSL_SOURCE_DIR) / "generated" / "model" / "gemm_kernel3_2.cpp");
  CHECK(r.out == std::string(std::istreambuf_iterator<char>(golden), std::istreambuf_iterator<char>()));
}

TEST_CASE("sadsl usage errors", "[cli][errors]") {
  std::string k32 = " --descriptor " + kernel3_2_file() + " ";
  check_error("frobnicate", "sadsl: unknown command \"frobnicate\"");
  check_error("eval stray", "sadsl eval: unexpected argument \"stray\"");
  check_error("eval --descriptor", "sadsl eval: option --descriptor needs a value");
  check_error("eval --size i=1 --point i_t1=1", "sadsl eval: missing --descriptor FILE");
  check_error("eval" + k32 + "--point i_t1=1", "sadsl eval: missing --size i=N,j=N,...");
  check_error("eval" + k32 + "--size i=1024", "sadsl eval: missing --point name=N,...");
  check_error("eval" + k32 + optimum + " --bogus 1", "sadsl eval: unknown option --bogus");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point i_t1=abc",
              "sadsl eval: --point: \"i_t1=abc\" is not name=integer");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point =3", "sadsl eval: --point: \"=3\" is not name=integer");
  check_error("eval" + k32 + optimum + ",x_t1=3", "sadsl eval: --point: model \"kernel3_2\" has no parameter \"x_t1\"");
  check_error("eval" + k32 + optimum + ",p9=16", "sadsl eval: --point: \"p9\" is inferred, not given");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64",
              "sadsl eval: no value for parameter \"k_t2\" (give it with --point)");
  check_error("eval" + k32 + "--size i=1024,j=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64,k_t2=8",
              "sadsl eval: no value for parameter \"k\" (give it with --size)");
  check_error("eval" + k32 + optimum + " --device u55c",
              "sadsl eval: --device: unknown device \"u55c\" (known: u200, u250, u280, vu9p) and no such device file");
  check_error("eval --descriptor /nonexistent/k.json " + optimum, "cannot read descriptor /nonexistent/k.json");
  check_error("emit" + k32 + "--output /nonexistent/dir/k.cpp", "sadsl emit: cannot write /nonexistent/dir/k.cpp");
}
