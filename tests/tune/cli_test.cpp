// The `sadsl tune` command: its JSON, its error messages, and Ctrl-C (SIGINT) handling.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "support.hpp"

namespace sadsl::tune::testing {

namespace {

struct outcome {
  int status = -1;
  std::string out, err;
};

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("sadsl-tune-cli-" + std::to_string(::getpid()) + "-" + name);
}

outcome sadsl_tune(const std::string& arguments) {
  auto out = scratch("out"), err = scratch("err");
  std::string command = std::string(SADSL_BINARY_DIR) + "/sadsl tune " + arguments + " > " + out.string() + " 2> " + err.string();
  int status = std::system(command.c_str());
  outcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return o;
}

std::string kernel3_2() { return "--descriptor " + gemm_descriptor("kernel3_2") + " "; }

}  // namespace

TEST_CASE("sadsl tune prints the tuned configuration as JSON", "[tune][cli]") {
  outcome o = sadsl_tune(kernel3_2() + "--size i=1024,j=1024,k=1024 --device u250 --method exact --seconds 60 --seed 3 --json");
  REQUIRE(o.status == 0);
  auto config = nlohmann::json::parse(o.out);
  CHECK(config["latency"] == 637832.25);
  CHECK(config["params"]["i_t1"] == 129);
  CHECK(config["params"]["j_t2"] == 41);
  CHECK(config["padded_sizes"]["i"] == 1032);
  CHECK(config["dsp"] == 8600);
  CHECK(config["bram18k"] == 2515);
  CHECK(config["feasible"] == true);
  CHECK(config["proven_optimal"] == true);
  CHECK(config["seed"] == 3);
  CHECK(config["evaluations"].get<double>() > 0);
  CHECK(config["seconds"].get<double>() > 0);
  CHECK(config["dataflow"] == 3);
  CHECK(config["permutation"] == 2);
}

TEST_CASE("sadsl tune compares every design of a folder", "[tune][cli]") {
  outcome o = sadsl_tune("--descriptors " + (odyssey_dir() / "descriptors" / "gemm").string() +
                         " --size i=64,j=64,k=64 --method genetic --evaluations 3600 --seconds 0 --json");
  REQUIRE(o.status == 0);
  auto config = nlohmann::json::parse(o.out);
  REQUIRE(config["designs"].size() == 18);
  double best = config["latency"];
  for (const auto& row : config["designs"]) CHECK(row["latency"].get<double>() >= best);
}

TEST_CASE("sadsl tune error messages", "[tune][cli]") {
  std::string sizes = "--size i=64,j=64,k=64 ";
  CHECK(sadsl_tune(kernel3_2() + sizes + "--method greedy").err ==
        "unknown search method \"greedy\" (known: exact, random, annealing, genetic, mp, genetic-mp, padding)\n");
  CHECK(sadsl_tune(kernel3_2() + sizes + "--device u55c").err ==
        "sadsl tune: --device: unknown device \"u55c\" (known: u200, u250, u280, vu9p) and no such device file\n");
  CHECK(sadsl_tune(kernel3_2() + "--size i=64,j=x").err == "sadsl tune: --size: \"j=x\" is not name=integer\n");
  CHECK(sadsl_tune(kernel3_2() + "--size i=64,j=64").err == "design \"kernel3_2\": no size for loop \"k\"\n");
  CHECK(sadsl_tune(kernel3_2() + sizes + "--seconds soon").err == "sadsl tune: --seconds: \"soon\" is not a non-negative number\n");
  CHECK(sadsl_tune(kernel3_2() + sizes + "--objective power").err ==
        "unknown objective \"power\" (known: latency, throughput, offchip, dsp)\n");
  auto tiny = scratch("tiny.json");
  std::ofstream(tiny) << R"({"name": "tiny", "dsp": 100, "bram18k": 2})";
  outcome o = sadsl_tune(kernel3_2() + sizes + "--device " + tiny.string());
  std::filesystem::remove(tiny);
  CHECK(o.status == 1);
  CHECK(o.err ==
        "design \"kernel3_2\" cannot fit on tiny: BRAM18K needs 6 even at the smallest tiling "
        "(i_t1=1 i_t2=1 j_t1=1 j_t2=1 k_t1=1 k_t2=1) but only 1.4 are usable (2 x 0.7)\n");
}

TEST_CASE("Ctrl-C stops sadsl tune and it still prints the best point so far", "[tune][cli]") {
  auto out = scratch("sigint-out");
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::FILE* redirected = std::freopen(out.c_str(), "w", stdout);
    (void)redirected;
    std::string binary = std::string(SADSL_BINARY_DIR) + "/sadsl";
    std::string descriptor = gemm_descriptor("kernel3_2");
    ::execl(binary.c_str(), binary.c_str(), "tune", "--descriptor", descriptor.c_str(), "--size", "i=1024,j=1024,k=1024",
            "--method", "random", "--seconds", "120", "--json", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until the search runs (the model may be compiled first), then interrupt it.
  auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(3));
  ::kill(child, SIGINT);
  int status = 0;
  ::waitpid(child, &status, 0);
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string text = read_file(out);
  std::filesystem::remove(out);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(waited < 60);
  auto config = nlohmann::json::parse(text);
  CHECK(config["interrupted"] == true);
  CHECK(config["feasible"] == true);
  CHECK(config["seconds"].get<double>() < 60);
  CHECK(config["latency"].get<double>() >= 637832.25);
}

}  // namespace sadsl::tune::testing
