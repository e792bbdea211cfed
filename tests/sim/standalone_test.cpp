// The headers as generated code uses them: a C++14 program that includes <ap_int.h> and
// <hls_stream.h> is compiled with the system g++ and -I<source>/include/sadsl/sim, then run in both
// simulation modes.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string.
std::string quoted(const std::filesystem::path& path) {
  std::string text(1, '\'');
  text.append(path.string()).push_back('\'');
  return text;
}

// Runs a shell command with stdout and stderr in `log`; returns its exit status.
int run(const std::string& command, const std::filesystem::path& log) {
  std::ostringstream line;
  line << command << " > " << quoted(log) << " 2>&1";
  const int status = std::system(line.str().c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("a C++14 HLS program builds with g++ against include/sadsl/sim and runs in both modes", "[sim][standalone]") {
  const std::filesystem::path source_dir = SADSL_SOURCE_DIR;
  const std::filesystem::path work = std::filesystem::path(SADSL_BINARY_DIR) / "sim_standalone";
  std::filesystem::remove_all(work);
  std::filesystem::create_directories(work);
  std::filesystem::copy_file(source_dir / "tests/sim/programs/pack_floats.cpp", work / "pack_floats.cpp");

  std::ostringstream compile;
  compile << "g++ -std=c++14 -O1 -Wall -Wextra -Wno-unknown-pragmas -Werror -pthread -I"
          << quoted(source_dir / "include/sadsl/sim") << " " << quoted(work / "pack_floats.cpp") << " -o "
          << quoted(work / "pack_floats");
  const int compiled = run(compile.str(), work / "compile.log");
  INFO(compile.str() << "\n" << read_file(work / "compile.log"));
  REQUIRE(compiled == 0);

  for (const std::string m : {"sequential", "concurrent"}) {
    const std::filesystem::path log = work / (m + ".log");
    const int status = run(quoted(work / "pack_floats") + " " + m, log);
    const std::string output = read_file(log);
    INFO(output);
    REQUIRE(status == 0);
    REQUIRE(output == m + ": 1024 floats, 0 errors, tokens packed 64 scaled 64\n");
  }
  REQUIRE(run(quoted(work / "pack_floats") + " csim", work / "bad_mode.log") != 0);
}
