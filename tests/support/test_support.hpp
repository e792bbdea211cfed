#pragma once
// Helpers shared by the Catch2 tests (header only: tests/support builds no executable).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sadsl/error.hpp"

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

/// Compares text with tests/golden/<area>/<name>.txt. SADSL_UPDATE_GOLDEN=1 rewrites the file
/// and fails the test (an update run must never count as a passing run).
inline void check_golden(const std::string& area, const std::string& name, const std::string& text) {
  std::string path = std::string(SADSL_SOURCE_DIR) + "/tests/golden/" + area + "/" + name + ".txt";
  if (std::getenv("SADSL_UPDATE_GOLDEN")) {
    std::ofstream(path) << text;
    FAIL("rewrote " << path << " (SADSL_UPDATE_GOLDEN is set): review the diff, then run without it");
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(text == golden.str());
}

/// The names of identities, in order (to compare a design's loops with {"i", "j"}).
template <class Id>
std::vector<std::string> names_of(const std::vector<Id>& ids) {
  std::vector<std::string> out;
  for (const auto& x : ids) out.push_back(x.name());
  return out;
}

}  // namespace sadsl::testing
