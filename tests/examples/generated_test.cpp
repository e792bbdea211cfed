// The checked-in outputs under generated/ are what the examples produce today: each example is
// run into a temporary directory and its files are compared byte for byte.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void check_example(const std::string& name, const std::string& more_args = "") {
  fs::path out = fs::temp_directory_path() / ("sadsl_generated_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(out);
  std::string cmd = std::string(SADSL_BINARY_DIR) + "/examples/" + name + " " + out.string() + more_args + " > /dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  fs::path golden = fs::path(SADSL_SOURCE_DIR) / "generated" / name;
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(golden)) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path());
    fs::path produced = out / fs::relative(entry.path(), golden);
    REQUIRE(fs::exists(produced));
    CHECK(read(produced) == read(entry.path()));
    ++files;
  }
  for (const auto& entry : fs::recursive_directory_iterator(out))
    if (entry.is_regular_file()) CHECK(fs::exists(golden / fs::relative(entry.path(), out)));
  CHECK(files > 0);
  fs::remove_all(out);
}

}  // namespace

// examples/mm tunes with AutoSA's descriptors (../shared) when they are there, as generated/mm was made.
TEST_CASE("generated/mm is what examples/mm writes") {
  SADSL_REQUIRE_SHARED_REFERENCE();
  // The C simulation of the tuned design is tested by the codegen tests; not again here.
  check_example("mm", " " SADSL_SHARED_DIR "/reference/odyssey/descriptors/gemm --no-csim");
}
TEST_CASE("generated/mm_passes is what examples/mm_passes writes") { check_example("mm_passes"); }
// The kernel examples (example_flow.hpp) tune with sadsl's own models and the exact search to
// completion: no ../shared needed, and the output does not depend on time.
TEST_CASE("generated/gemv is what examples/gemv writes") { check_example("gemv"); }
TEST_CASE("generated/fir is what examples/fir writes") { check_example("fir"); }
TEST_CASE("generated/minplus is what examples/minplus writes") { check_example("minplus"); }
TEST_CASE("generated/mttkrp is what examples/mttkrp writes") { check_example("mttkrp"); }
TEST_CASE("generated/mm_int8 is what examples/mm_int8 writes") { check_example("mm_int8"); }
// The two largest (about 1.5 and 2 minutes of CPU with a cold model cache: verification on the
// reduced instances, compiling 40 and 30 models, and CNN's exact search).
TEST_CASE("generated/ttmc is what examples/ttmc writes") { check_example("ttmc"); }
TEST_CASE("generated/cnn is what examples/cnn writes") { check_example("cnn"); }
// LU has no model (triangular designs): its example ranks the designs by the timed simulation
// (about 40 s). The C simulation of the chosen design (compiling its 1,024-PE kernel takes minutes)
// is left to the codegen tests' LU projects.
TEST_CASE("generated/lu is what examples/lu writes") { check_example("lu", " --no-csim"); }
