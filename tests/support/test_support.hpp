#pragma once
// Helpers shared by the Catch2 tests (header only: tests/support builds no executable).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

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

/// Compares text with tests/golden/<area>/<name>.txt; SADSL_UPDATE_GOLDEN=1 rewrites the file.
inline void check_golden(const std::string& area, const std::string& name, const std::string& text) {
  std::string path = std::string(SADSL_SOURCE_DIR) + "/tests/golden/" + area + "/" + name + ".txt";
  if (std::getenv("SADSL_UPDATE_GOLDEN")) {
    std::ofstream(path) << text;
    return;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(text == golden.str());
}

}  // namespace sadsl::testing
