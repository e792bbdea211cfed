#pragma once
// Helpers shared by the Catch2 tests (header only: tests/support builds no executable).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sadsl/error.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl::testing {

/// The message of the sadsl::error that f throws, or "(no sadsl::error)".
template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const sadsl::error& e) {
    return e.what();
  }
  return "(no sadsl::error)";
}

/// The interpreter with its self-check on: every executed instance in its domain, each once, all
/// of them (tests run every schedule this way).
inline void run_checked(const program& p, const isl::schedule& schedule, buffers& data,
                        std::vector<stored_layout> layouts = {}) {
  run(p, schedule, data, run_options{std::move(layouts), true});
}
inline void run_checked(const program& p, buffers& data) { run_checked(p, p.schedule(), data); }

/// Compares text with tests/golden/<area>/<name>.txt. SADSL_UPDATE_GOLDEN=1 rewrites the file
/// and fails the test (an update run must never count as a passing run).
inline void check_golden(const std::string& area, const std::string& name, const std::string& text) {
  std::string path = std::string(SADSL_SOURCE_DIR) + "/tests/golden/" + area + "/" + name + ".txt";
  if (std::getenv("SADSL_UPDATE_GOLDEN")) {
    std::ofstream(path) << text;
    FAIL_CHECK("rewrote " << path << " (SADSL_UPDATE_GOLDEN is set): review the diff, then run without it");
    return;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(text == golden.str());
}

/// ../shared/reference beside the source tree (reference data of peer tools: Odyssey's
/// descriptors and model outputs), or nothing when this checkout has none (a user's clone).
inline std::optional<std::filesystem::path> shared_reference() {
  std::filesystem::path dir = std::filesystem::path(SADSL_SHARED_DIR) / "reference";
  if (std::filesystem::is_directory(dir)) return dir;
  return std::nullopt;
}

/// Whether the shared reference data is there; when not, prints the line that makes ctest report
/// the test as skipped (tests/CMakeLists.txt: SKIP_REGULAR_EXPRESSION) with the reason.
inline bool have_shared_reference() {
  if (shared_reference()) return true;
  std::cout << "SADSL_SKIPPED: needs " << SADSL_SHARED_DIR << "/reference (reference data of peer tools), "
            << "which this checkout does not have\n";
  return false;
}

/// ../shared/reference for a test that reads it: when this checkout has none, prints the line
/// that makes ctest report the test as skipped (even though it then fails on the missing files).
inline std::filesystem::path shared_reference_dir() {
  have_shared_reference();
  return std::filesystem::path(SADSL_SHARED_DIR) / "reference";
}

/// Ends the current test as skipped when the shared reference data is missing.
#define SADSL_REQUIRE_SHARED_REFERENCE()                 \
  do {                                                   \
    if (!::sadsl::testing::have_shared_reference()) return; \
  } while (0)

/// The names of identities, in order (to compare a design's loops with {"i", "j"}).
template <class Id>
std::vector<std::string> names_of(const std::vector<Id>& ids) {
  std::vector<std::string> out;
  for (const auto& x : ids) out.push_back(x.name());
  return out;
}

}  // namespace sadsl::testing
