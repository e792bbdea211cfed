// The `sadsl tune` command: its JSON, its error messages, its budgets (which count from the start
// of the command), --output, and the signals that stop it (SIGINT, SIGTERM, SIGHUP).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "../model/cli_support.hpp"
#include "support.hpp"

namespace sadsl::tune::testing {

namespace {

using sadsl::testing::read_text;
using sadsl::testing::scratch_file;

sadsl::testing::cli_result sadsl_tune(const std::string& arguments, const std::string& prefix = "") {
  return sadsl::testing::run_sadsl("tune " + arguments, prefix);
}

std::string kernel3_2() { return "--descriptor " + gemm_descriptor("kernel3_2") + " "; }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct signalled_run {
  int status = -1;
  double seconds = 0;
  std::string out, err;
};

// True once `dir` holds a file (a model's source: its compilation has started), polling for at
// most a minute.
bool wait_for_a_file(const std::filesystem::path& dir) {
  for (int tries = 0; tries < 6000; ++tries) {
    if (std::filesystem::directory_iterator(dir) != std::filesystem::directory_iterator()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Starts `sadsl tune <arguments>`, sends `signal` after `delay` seconds (or, with a `cache_dir`,
// as soon as the first model's compilation has started there), waits for it.
signalled_run tune_and_signal(const std::vector<std::string>& arguments, int signal, double delay,
                              const std::string& cache_dir = "", const std::string& compiler = "") {
  auto out = scratch_file("signal-out"), err = scratch_file("signal-err");
  auto start = std::chrono::steady_clock::now();
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr)) ::_exit(126);
    if (!cache_dir.empty()) ::setenv("SADSL_CACHE_DIR", cache_dir.c_str(), 1);
    if (!compiler.empty()) ::setenv("SADSL_CXX", compiler.c_str(), 1);
    std::string binary = std::string(SADSL_BINARY_DIR) + "/sadsl";
    std::vector<char*> argv{binary.data(), const_cast<char*>("tune")};
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  if (!cache_dir.empty()) CHECK(wait_for_a_file(cache_dir));
  ::kill(child, signal);
  int status = 0;
  ::waitpid(child, &status, 0);
  signalled_run r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), seconds_since(start), read_text(out),
                  read_text(err)};
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace

TEST_CASE("sadsl tune prints the tuned configuration as JSON", "[tune][cli]") {
  auto o = sadsl_tune(kernel3_2() + "--size i=1024,j=1024,k=1024 --device u250 --method exact --seconds 60 --seed 3 --json");
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
  CHECK(config["design"] == "kernel3_2");
  CHECK(config["source"] == "AutoSA descriptor " + gemm_descriptor("kernel3_2"));
  CHECK(config["origins"]["j_t2"]["description"] == "tiling factor of loop j (latency_hiding)");
  CHECK(config["origins"]["p12"]["tensor"] == "C");
  CHECK(config["throughput"] == nullptr);  // the descriptor does not say how much work the kernel does
  CHECK(config["interrupted"] == false);
  // With the kernel's work (2 x I x J x K for MM) the throughput follows from the latency.
  auto with_work = sadsl_tune(kernel3_2() + "--size i=1024,j=1024,k=1024 --method exact --operations 2147483648 --json");
  auto measured = nlohmann::json::parse(with_work.out);
  CHECK(measured["operations"] == 2147483648LL);
  CHECK(measured["throughput"].get<double>() == Approx(2147483648.0 / (637832.25 / 300e6) / 1e9));
  CHECK(measured["throughput_unit"] == "GFLOP/s");
}

TEST_CASE("sadsl tune compares every design of a folder", "[tune][cli]") {
  auto o = sadsl_tune("--descriptors " + (odyssey_dir() / "descriptors" / "gemm").string() +
                      " --size i=64,j=64,k=64 --method genetic --evaluations 3600 --seconds 0 --json");
  REQUIRE(o.status == 0);
  auto config = nlohmann::json::parse(o.out);
  REQUIRE(config["designs"].size() == 18);
  double best = config["latency"];
  for (const auto& row : config["designs"]) {
    CHECK(row["latency"].get<double>() >= best);
    CHECK(row["source"].get<std::string>().rfind("AutoSA descriptor ", 0) == 0);
  }
}

// The exact search over a folder cuts off the designs that cannot beat the best so far; every
// row says so, and --prove-each-design proves each design's own optimum instead.
TEST_CASE("sadsl tune --method exact over a folder says which designs were cut off", "[tune][cli]") {
  std::string folder = "--descriptors " + (odyssey_dir() / "descriptors" / "gemm").string() +
                       " --size i=256,j=256,k=256 --method exact --seconds 0 --threads 1 --json";
  auto cut = sadsl_tune(folder);
  auto each = sadsl_tune(folder + " --prove-each-design");
  REQUIRE(cut.status == 0);
  REQUIRE(each.status == 0);
  auto with_cutoff = nlohmann::json::parse(cut.out);
  auto proved = nlohmann::json::parse(each.out);
  double best = with_cutoff["latency"];
  CHECK(proved["latency"].get<double>() == best);
  CHECK(with_cutoff["proven_optimal"] == true);
  REQUIRE(with_cutoff["designs"].size() == 18);
  REQUIRE(proved["designs"].size() == 18);
  int cut_off = 0;
  for (std::size_t d = 0; d < 18; ++d) {
    const auto& row = with_cutoff["designs"][d];
    const auto& own = proved["designs"][d];
    CHECK(row["complete"] == true);
    CHECK(own["complete"] == true);
    CHECK_FALSE(own.contains("cut_off"));
    CHECK(own["proven_optimal"] == own["feasible"]);
    if (row.contains("cut_off")) {
      ++cut_off;
      CHECK(row["cut_off"] == true);
      CHECK(row["proven_optimal"] == false);
      // Its own optimum is no better than the best, and what it reports is no better than that.
      if (own["feasible"] == true) CHECK(own["latency"].get<double>() >= best);
      if (row["feasible"] == true) CHECK(row["latency"].get<double>() >= own["latency"].get<double>());
    } else {
      CHECK(row["proven_optimal"] == row["feasible"]);
      CHECK(row["latency"] == own["latency"]);
    }
  }
  CHECK(cut_off > 0);
}

TEST_CASE("sadsl tune error messages", "[tune][cli]") {
  std::string sizes = "--size i=64,j=64,k=64 ";
  auto check = [](const sadsl::testing::cli_result& r, int status, const std::string& message) {
    CHECK(r.status == status);
    CHECK(r.err == message + "\n");
    CHECK(r.out.empty());
  };
  check(sadsl_tune(kernel3_2() + sizes + "--method greedy"), 2,
        "sadsl tune: --method: unknown search method \"greedy\" (known: exact, random, annealing, genetic, mp, genetic-mp, padding)");
  check(sadsl_tune(kernel3_2() + sizes + "--device u55c"), 1,
        "sadsl tune: --device: unknown device \"u55c\" (known: u200, u250, u280, vu9p) and no such device file");
  check(sadsl_tune(kernel3_2() + "--size i=64,j=x"), 2, "sadsl tune: --size: \"j=x\" is not name=integer");
  check(sadsl_tune(kernel3_2() + "--size i=64,j=64"), 1, "design \"kernel3_2\": no size for loop \"k\"");
  check(sadsl_tune(kernel3_2() + sizes + "--seconds soon"), 2, "sadsl tune: --seconds: \"soon\" is not a non-negative number");
  check(sadsl_tune(kernel3_2() + sizes + "--seconds 1e400"), 2, "sadsl tune: --seconds: \"1e400\" is not a non-negative number");
  for (std::string bad : {"1e30", "1.5", "-1", "18446744073709551616"})
    check(sadsl_tune(kernel3_2() + sizes + "--seed " + bad), 2,
          "sadsl tune: --seed: \"" + bad + "\" is not a whole number from 0 to 18446744073709551615");
  check(sadsl_tune(kernel3_2() + sizes + "--evaluations 1.5"), 2,
        "sadsl tune: --evaluations: \"1.5\" is not a whole number from 0 to 18446744073709551615");
  check(sadsl_tune(kernel3_2() + sizes + "--threads 100000"), 2, "sadsl tune: --threads: \"100000\" is not a whole number from 0 to 1024");
  check(sadsl_tune(kernel3_2() + sizes + "--operations 0"), 2, "sadsl tune: --operations: \"0\" is not a positive number");
  check(sadsl_tune(kernel3_2() + sizes + "--objective power"), 2,
        "sadsl tune: --objective: unknown objective \"power\" (known: latency, throughput, offchip, dsp)");
  check(sadsl_tune(sizes), 2, "sadsl tune: missing --descriptor FILE (or --descriptors FOLDER)");
  check(sadsl_tune(kernel3_2() + sizes + "--seed 1 --seed 2"), 2, "sadsl tune: option --seed is given twice");
  check(sadsl_tune("--descriptors /nonexistent " + sizes), 1,
        "sadsl tune: --descriptors: cannot read folder /nonexistent: No such file or directory");
  check(sadsl_tune(kernel3_2() + "--descriptors /tmp " + sizes), 2,
        "sadsl tune: give --descriptor FILE or --descriptors FOLDER, not both");
  auto empty = scratch_file("no-descriptors");
  std::filesystem::create_directories(empty);
  check(sadsl_tune("--descriptors " + empty.string() + " " + sizes), 1,
        "sadsl tune: --descriptors: no .json descriptors in \"" + empty.string() + "\"");
  std::filesystem::remove_all(empty);
  check(sadsl_tune(kernel3_2() + "--size ''"), 2, "sadsl tune: --size: expected name=integer,...");
  auto tiny = scratch_file("tiny.json");
  std::ofstream(tiny) << R"({"name": "tiny", "dsp": 100, "bram18k": 2})";
  auto o = sadsl_tune(kernel3_2() + sizes + "--device " + tiny.string());
  std::filesystem::remove(tiny);
  check(o, 1,
        "design \"kernel3_2\" cannot fit on tiny: BRAM18K needs 6 even at the smallest tiling "
        "(i_t1=1 i_t2=1 j_t1=1 j_t2=1 k_t1=1 k_t2=1) but only 1.4 are usable (2 x 0.7)");
}

TEST_CASE("sadsl tune says when nothing feasible was found", "[tune][cli]") {
  // At 1^3 the latency-hiding constraint (i_t2 * j_t2 >= 8 * k_t2) cannot hold.
  auto r = sadsl_tune(kernel3_2() + "--size i=1,j=1,k=1 --method exact --json");
  CHECK(r.status == 1);
  CHECK(r.err == "sadsl tune: no feasible design point found\n");
  auto config = nlohmann::json::parse(r.out);
  CHECK(config["feasible"] == false);
  CHECK(config["latency"] == nullptr);
}

TEST_CASE("sadsl tune's budgets hold from the start of the command", "[tune][cli]") {
  // A size whose tilings cannot all be listed is refused in about a second (it took minutes;
  // the bound leaves room for sanitizer builds on a loaded machine).
  auto start = std::chrono::steady_clock::now();
  auto huge = sadsl_tune(kernel3_2() + "--size i=10000000,j=1024,k=1024 --seconds 2");
  CHECK(seconds_since(start) < 30);
  CHECK(huge.status == 1);
  CHECK(huge.err == "design \"kernel3_2\": loop \"i\" (size 10000000) has more than 4194304 tilings; a size this large cannot be tuned\n");
  // Annealing counts its steps: revisiting known points cannot keep it running forever.
  start = std::chrono::steady_clock::now();
  auto annealing = sadsl_tune(kernel3_2() + "--size i=64,j=64,k=64 --method annealing --seconds 0 --evaluations 100000 --json");
  CHECK(seconds_since(start) < 30);
  REQUIRE(annealing.status == 0);
  CHECK(nlohmann::json::parse(annealing.out)["evaluations"] == 100000);
  // A model that takes long to compile: the compiler is stopped at the deadline and the
  // interpreter searches for what is left (said on stderr).
  auto cache = scratch_file("slow-compiler-cache");
  std::filesystem::create_directories(cache);
  auto slow = scratch_file("slow-c++");
  std::ofstream(slow) << "#!/bin/sh\nsleep 30\n";
  std::filesystem::permissions(slow, std::filesystem::perms::owner_all);
  start = std::chrono::steady_clock::now();
  auto late = sadsl_tune(kernel3_2() + "--size i=64,j=64,k=64 --method random --seconds 2 --json",
                         "SADSL_CACHE_DIR=" + cache.string() + " SADSL_CXX=" + slow.string());
  double took = seconds_since(start);
  std::filesystem::remove_all(cache);
  std::filesystem::remove(slow);
  CHECK(took < 6);
  CHECK(late.status == 0);
  CHECK(late.err == "sadsl tune: " + gemm_descriptor("kernel3_2") +
                        ": evaluating with the interpreter: compiling model \"kernel3_2\" stopped: the time budget ran out\n");
  CHECK(nlohmann::json::parse(late.out)["feasible"] == true);
}

TEST_CASE("sadsl tune --output replaces the file atomically", "[tune][cli]") {
  auto file = scratch_file("tuned.json");
  std::string args = kernel3_2() + "--size i=64,j=64,k=64 --method random --evaluations 20000 --seconds 0 --json --output " + file.string();
  // Two runs writing the same file at once: it holds one whole configuration, never a mixture.
  std::thread other([&] { CHECK(sadsl_tune(args + " --seed 2").status == 0); });
  auto mine = sadsl_tune(args + " --seed 3");
  other.join();
  CHECK(mine.status == 0);
  CHECK(mine.out.empty());
  auto config = nlohmann::json::parse(read_text(file));
  CHECK((config["seed"] == 2 || config["seed"] == 3));
  for (const auto& entry : std::filesystem::directory_iterator(file.parent_path()))
    CHECK(entry.path().filename().string().find(file.filename().string() + ".tmp") == std::string::npos);
  std::filesystem::remove(file);
  auto failed = sadsl_tune(kernel3_2() + "--size i=64,j=64,k=64 --seconds 1 --output /nonexistent/tuned.json");
  CHECK(failed.status == 1);
  CHECK(failed.err == "sadsl tune: --output: cannot write /nonexistent/tuned.json: No such file or directory\n");
}

TEST_CASE("a signal stops sadsl tune, which writes the best point so far and says so", "[tune][cli]") {
  std::string descriptor = gemm_descriptor("kernel3_2");
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    INFO(signal);
    signalled_run r = tune_and_signal({"--descriptor", descriptor, "--size", "i=1024,j=1024,k=1024", "--method", "random",
                                       "--seconds", "120", "--json"},
                                      signal, 3, "", "/nonexistent/c++");  // no compilation: the search starts at once
    CHECK(r.status == 128 + signal);
    CHECK(r.seconds < 60);
    auto config = nlohmann::json::parse(r.out);
    CHECK(config["interrupted"] == true);
    CHECK(config["feasible"] == true);
    CHECK(config["latency"].get<double>() >= 637832.25);
  }
}

TEST_CASE("Ctrl-C while the models compile still writes a configuration", "[tune][cli]") {
  auto cache = scratch_file("interrupted-cache");
  std::filesystem::create_directories(cache);
  signalled_run r = tune_and_signal({"--descriptors", (odyssey_dir() / "descriptors" / "gemm").string(), "--size",
                                     "i=64,j=64,k=64", "--seconds", "120", "--json"},
                                    SIGINT, 0, cache.string());
  std::filesystem::remove_all(cache);
  CHECK(r.status == 130);
  CHECK(r.seconds < 30);
  auto config = nlohmann::json::parse(r.out);
  CHECK(config["interrupted"] == true);
  CHECK(r.err.find("sadsl tune: stopped by SIGINT; the best point so far was written\n") != std::string::npos);
}

}  // namespace sadsl::tune::testing
