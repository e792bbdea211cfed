#pragma once
// Running the built `sadsl` program from tests: exit status, stdout and stderr of one run.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace sadsl::testing {

struct cli_result {
  int status = -1;  ///< the exit status, or 128 + the signal that killed it (a crash shows as 134, 139, ...)
  std::string out, err;
};

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// A path for a scratch file of this test process (removed by the caller).
inline std::filesystem::path scratch_file(const std::string& name) {
  static std::atomic<int> counter{0};
  return std::filesystem::temp_directory_path() /
         ("sadsl-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
}

/// Runs `<prefix> build/sadsl <arguments>` through the shell (arguments already quoted; `prefix`
/// may set environment variables), run-time compiled models cached in build/test-model-cache
/// (warm after the first run; tests that need a cold cache set SADSL_CACHE_DIR in `prefix`).
/// `out_redirect` replaces the default capture of stdout (e.g. ">/dev/full").
inline cli_result run_sadsl(const std::string& arguments, const std::string& prefix = "", const std::string& out_redirect = "") {
  static const std::filesystem::path cache = std::filesystem::path(SADSL_BINARY_DIR) / "test-model-cache";
  auto out = scratch_file("out"), err = scratch_file("err");
  std::string command = "SADSL_CACHE_DIR=" + cache.string() + " " + prefix + " " + SADSL_BINARY_DIR + "/sadsl " + arguments +
                        " " + (out_redirect.empty() ? "> " + out.string() : out_redirect) + " 2> " + err.string();
  int status = std::system(command.c_str());
  cli_result r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace sadsl::testing
