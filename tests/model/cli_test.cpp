// The `sadsl` program: `eval` prints one JSON object; mistakes give one clear line on stderr and
// a documented exit status (1 bad input, 2 bad command line).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"

using namespace sadsl::model;
using sadsl::testing::run_sadsl;

namespace {

std::string kernel3_2_file() { return testing::descriptor("gemm", "kernel3_2").string(); }

void check_error(const std::string& arguments, int status, const std::string& message) {
  sadsl::testing::cli_result r = run_sadsl(arguments);
  INFO(arguments);
  CHECK(r.status == status);
  CHECK(r.out.empty());
  CHECK(r.err == message + "\n");
}

}  // namespace

TEST_CASE("sadsl eval prints the metrics, inferred parameters and origins as JSON", "[cli]") {
  for (std::string extra : {"", " --compiled"}) {
    auto r = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --device u250 --json" + extra);
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    auto result = nlohmann::json::parse(r.out);
    CHECK(result["design"] == "kernel3_2");
    CHECK(result["source"] == "AutoSA descriptor " + kernel3_2_file());
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
    CHECK(result["origins"].size() == 13);
    CHECK(result["origins"]["i_t1"]["description"] == "tiling factor of loop i (array_partition)");
    CHECK(result["origins"]["k"] == nlohmann::json{{"kind", "problem_size"}, {"param", "k"}, {"description", "problem size k"}});
    CHECK(result["origins"]["p10"]["description"] == "packing factor of tensor B (read group, I/O level 2)");
    // One point is interpreted; --compiled compiles at run time (the program has no models
    // compiled ahead of time).
    CHECK(result["backend"] == (extra.empty() ? "interpreter" : "just-in-time"));
  }
  auto vu9p = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --device vu9p --json");
  CHECK(nlohmann::json::parse(vu9p.out)["feasible"] == false);  // 8600 DSPs > 6840 x 0.7
  std::string constraints = (testing::odyssey_dir() / "constraints" / "single_test.json").string();
  auto file = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --device " + constraints + " --json");
  CHECK(nlohmann::json::parse(file.out)["feasible"] == false);
  // Text unless --json (also when it is given as --json=false).
  auto text = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --json=false");
  CHECK(text.status == 0);
  CHECK(text.out.rfind("design            kernel3_2\nsource            AutoSA descriptor ", 0) == 0);
}

TEST_CASE("sadsl emit writes the model's C++", "[cli]") {
  auto r = run_sadsl("emit --descriptor " + kernel3_2_file() + " --name gemm_kernel3_2");
  CHECK(r.status == 0);
  std::string golden = sadsl::testing::read_text(std::filesystem::path(SADSL_SOURCE_DIR) / "generated" / "model" / "gemm_kernel3_2.cpp");
  CHECK(r.out == golden);
  // --output replaces the file atomically, and only when the text changes.
  auto file = sadsl::testing::scratch_file("model.cpp");
  CHECK(run_sadsl("emit --descriptor " + kernel3_2_file() + " --name gemm_kernel3_2 --output " + file.string()).status == 0);
  CHECK(sadsl::testing::read_text(file) == golden);
  auto written = std::filesystem::last_write_time(file);
  CHECK(run_sadsl("emit --descriptor " + kernel3_2_file() + " --name gemm_kernel3_2 --output " + file.string()).status == 0);
  CHECK(std::filesystem::last_write_time(file) == written);
  std::filesystem::remove(file);
  // A device is written in place (never read first, never replaced): /dev/null takes it, /dev/full refuses.
  CHECK(run_sadsl("emit --descriptor " + kernel3_2_file() + " --output /dev/null").status == 0);
  CHECK(run_sadsl("emit --descriptor " + kernel3_2_file() + " --output /dev/zero").status == 0);
  check_error("emit --descriptor " + kernel3_2_file() + " --output /dev/full", 1,
              "sadsl emit: --output: cannot write /dev/full: No space left on device");
}

TEST_CASE("sadsl usage errors", "[cli][errors]") {
  std::string k32 = " --descriptor " + kernel3_2_file() + " ";
  check_error("eval stray" + k32 + testing::optimum_arguments, 2, "sadsl eval: unexpected argument \"stray\"");
  check_error("eval --descriptor", 2, "sadsl eval: --descriptor: 1 required FILE missing");
  check_error("eval --descriptor --json " + testing::optimum_arguments, 2, "sadsl eval: --descriptor: \"--json\" is an option, not a value");
  check_error("eval --size i=1 --point i_t1=1", 2, "sadsl eval: --descriptor is required");
  check_error("eval" + k32 + "--point i_t1=1", 2, "sadsl eval: --size is required");
  check_error("eval" + k32 + "--size i=1024", 2, "sadsl eval: --point is required");
  check_error("eval" + k32 + testing::optimum_arguments + " --bogus 1", 2, "sadsl eval: unknown option --bogus");
  check_error("eval" + k32 + testing::optimum_arguments + " --size i=1", 2, "sadsl eval: option --size is given twice");
  check_error("eval" + k32 + testing::optimum_arguments + " --json --json", 2, "sadsl eval: option --json is given twice");
  check_error("eval" + k32 + testing::optimum_arguments + " --json=maybe", 2, "sadsl eval: Could not convert: --json = maybe");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point i_t1=abc", 2,
              "sadsl eval: --point: \"i_t1=abc\" is not name=integer");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point =3", 2, "sadsl eval: --point: \"=3\" is not name=integer");
  check_error("eval" + k32 + "--size i=1024,j=1024,i=3 --point i_t1=3", 2, "sadsl eval: --size: \"i\" is given twice");
  for (std::string bad : {"0", "-1", "9223372036854775807", "9223372036854775808", "9007199254740993"})
    check_error("eval" + k32 + "--size i=" + bad + ",j=1,k=1 --point i_t1=1", 2,
                "sadsl eval: --size: \"i=" + bad + "\": values must be from 1 to 2^53 (9007199254740992)");
  check_error("eval" + k32 + testing::optimum_arguments + ",x_t1=3", 1, "sadsl eval: --point: model \"kernel3_2\" has no parameter \"x_t1\"");
  check_error("eval" + k32 + testing::optimum_arguments + ",p9=16", 1, "sadsl eval: --point: \"p9\" is inferred, not given");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024,i_t1=3 --point i_t2=3,j_t1=205,j_t2=41,k_t1=64,k_t2=8", 1,
              "sadsl eval: --size: \"i_t1\" (tiling factor of loop i (array_partition)) goes in --point");
  check_error("eval" + k32 + "--size i=1024,j=1024,k=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64", 1,
              "sadsl eval: no value for parameter \"k_t2\" (give it with --point)");
  check_error("eval" + k32 + "--size i=1024,j=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64,k_t2=8", 1,
              "sadsl eval: no value for parameter \"k\" (give it with --size)");
  check_error("eval" + k32 + testing::optimum_arguments + " --device u55c", 1,
              "sadsl eval: --device: unknown device \"u55c\" (known: u200, u250, u280, vu9p) and no such device file");
  check_error("eval --descriptor /nonexistent/k.json " + testing::optimum_arguments, 1,
              "cannot read descriptor /nonexistent/k.json: No such file or directory");
  check_error("emit" + k32 + "--output /nonexistent/dir/k.cpp", 1,
              "sadsl emit: --output: cannot write /nonexistent/dir/k.cpp: No such file or directory");
}

TEST_CASE("sadsl help and exit statuses", "[cli]") {
  auto help = run_sadsl("--help");
  CHECK(help.status == 0);
  CHECK(help.out.find("  tune    search the design space of one or more descriptors\n") != std::string::npos);
  CHECK(help.out.find("  2    bad command line (unknown command or option, missing or malformed value)\n") != std::string::npos);
  auto eval_help = run_sadsl("eval --help");
  CHECK(eval_help.status == 0);
  CHECK(eval_help.err.empty());
  CHECK(eval_help.out.rfind("evaluate one point of a design descriptor\nUsage: sadsl eval [OPTIONS]\n", 0) == 0);
  CHECK(eval_help.out.find("--compiled") != std::string::npos);
  CHECK(eval_help.out.find("128+N  stopped by signal N") != std::string::npos);
  auto none = run_sadsl("");
  CHECK(none.status == 2);
  CHECK(none.err.rfind("usage: sadsl <command> [options]", 0) == 0);
  auto unknown = run_sadsl("frobnicate");
  CHECK(unknown.status == 2);
  CHECK(unknown.err.rfind("sadsl: unknown command \"frobnicate\"\n\nusage:", 0) == 0);
}

TEST_CASE("sadsl fails when its standard output cannot be written", "[cli][errors]") {
  std::string args = "eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --json";
  auto full = run_sadsl(args, "", "> /dev/full");
  CHECK(full.status == 1);
  CHECK(full.err == "sadsl eval: cannot write standard output: No space left on device\n");
  auto closed = run_sadsl(args, "", ">&-");
  CHECK(closed.status == 1);
  CHECK(closed.err == "sadsl eval: cannot write standard output: Bad file descriptor\n");
}

TEST_CASE("sadsl eval --compiled fails when the model cannot be compiled", "[cli][errors]") {
  auto cache = sadsl::testing::scratch_file("empty-cache");
  std::filesystem::create_directories(cache);
  auto r = run_sadsl("eval --descriptor " + kernel3_2_file() + " " + testing::optimum_arguments + " --compiled",
                     "SADSL_CXX=/nonexistent/c++ SADSL_CACHE_DIR=" + cache.string());
  std::filesystem::remove_all(cache);
  CHECK(r.status == 1);
  CHECK(r.err == "sadsl eval: --compiled: the model could not be compiled: C++ compiler \"/nonexistent/c++\" not found\n");
}
