// The HLS project of one design: its files, determinism, error messages, and a deliberately
// broken copy whose simulation reports the failure (a deadlock in concurrent mode, an empty read
// in sequential mode) instead of hanging or passing.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/sadsl.hpp>

#include "../comm/support.hpp"
#include "csim_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

kernel small_mm() {
  kernel k = catalog::mm();
  k.get_param("I").set(4);
  k.get_param("J").set(4);
  k.get_param("K").set(3);
  return k;
}

// The first design of `k` whose name is `name`.
design design_named(const kernel& k, const std::string& name) {
  for (const auto& d : designs(k))
    if (d.name() == name) return d;
  FAIL("no design " << name);
  return designs(k).front();
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void replace_once(std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
}

std::string compile(const std::filesystem::path& dir) {
  auto [rc, out] = run_command(std::string(SADSL_CXX) +
                               " -std=c++14 -O1 -pthread -Wno-unknown-pragmas -I" SADSL_SOURCE_DIR "/include/sadsl/sim -I" +
                               dir.string() + " " + (dir / "kernel.cpp").string() + " " + (dir / "host.cpp").string() +
                               " -o " + (dir / "host").string());
  return rc == 0 ? "" : out;
}

}  // namespace

TEST_CASE("hls project: every file, deterministic, with the pragmas the architecture asks for") {
  kernel k = small_mm();
  design d = design_named(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(d, {tiling(d, tiling_shape::wide), {}});
  auto files = hls_project_files(a);
  std::vector<std::string> names;
  for (const auto& [name, text] : files) names.push_back(name);
  CHECK(names == std::vector<std::string>{"Makefile", "architecture.dot", "config.json", "hls_script.tcl", "host.cpp",
                                          "kernel.cpp", "kernel.h"});
  CHECK(files == hls_project_files(a));  // byte-identical
  architecture again = build_architecture(d, {tiling(d, tiling_shape::wide), {}});
  CHECK(files == hls_project_files(again));
  const std::string& src = files.at("kernel.cpp");
  CHECK(src.find("#pragma HLS DATAFLOW") != std::string::npos);
  CHECK(src.find("#pragma HLS PIPELINE II=1") != std::string::npos);
  CHECK(src.find("#pragma HLS INTERFACE m_axi port=A offset=slave bundle=gmem_A") != std::string::npos);
  CHECK(src.find("#pragma HLS INTERFACE s_axilite port=return bundle=control") != std::string::npos);
  CHECK(src.find("#pragma HLS STREAM variable=") != std::string::npos);
  CHECK(src.find("_ping") != std::string::npos);  // double buffers
  CHECK(files.at("kernel.h").find("#include <hls_stream.h>") != std::string::npos);
  CHECK(files.at("kernel.h").find("#include <ap_int.h>") != std::string::npos);
  CHECK(files.at("config.json").find("\"design\": \"[i,j] <[i,j],k>\"") != std::string::npos);
  CHECK(files.at("hls_script.tcl").find("set_top mm_top") != std::string::npos);
}

TEST_CASE("hls project: written atomically, and `make csim` passes in both modes") {
  kernel k = small_mm();
  design d = design_named(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(d, {tiling(d, tiling_shape::wide), {}});
  std::filesystem::path dir = std::filesystem::path(SADSL_BINARY_DIR) / "codegen_project" / "mm";
  std::filesystem::remove_all(dir);
  write_hls_project(a, dir);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) CHECK(entry.path().extension() != ".tmp");
  auto [rc, out] = run_command("make -s -C " + dir.string() + " csim CXX=" SADSL_CXX);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("PASSED\n") != std::string::npos);
  CHECK(out.rfind("PASSED\n") != out.find("PASSED\n"));  // both modes
}

TEST_CASE("hls project: a design with several phases runs them from a table, and `make csim` passes") {
  kernel k = catalog::lu_uniform();
  k.get_param("N").set(6);
  design d = designs(k).front();
  architecture a = build_architecture(d, {tiling(d, tiling_shape::tiny), {}});
  REQUIRE(a.phases.size() > 1);
  // The table, eight phases per line.
  std::string rows;
  for (size_t p = 0; p < a.phases.size(); ++p) {
    std::string row;
    for (int64_t v : a.phases[p]) row += (row.empty() ? "" : ", ") + std::to_string(v);
    rows += (p == 0 ? "" : p % 8 == 0 ? ",\n      " : ", ") + ("{" + row + "}");
  }
  std::filesystem::path dir = std::filesystem::path(SADSL_BINARY_DIR) / "codegen_project" / "lu_phases";
  std::filesystem::remove_all(dir);
  write_hls_project(a, dir);
  std::string host = read_file(dir / "host.cpp");
  CHECK(host.find("static const int phases[" + std::to_string(a.phases.size()) + "][" +
                  std::to_string(a.phases[0].size()) + "] = {\n      " + rows + "\n  };") != std::string::npos);
  CHECK(host.find("for (int p = 0; p < " + std::to_string(a.phases.size()) + "; ++p) {") != std::string::npos);
  auto [rc, out] = run_command("make -s -C " + dir.string() + " csim CXX=" SADSL_CXX);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("PASSED\n") != std::string::npos);
  CHECK(out.rfind("PASSED\n") != out.find("PASSED\n"));  // both modes
}

TEST_CASE("hls project: a PE whose output is wired back to its input deadlocks in concurrent mode and reads an empty FIFO in sequential mode") {
  kernel k = small_mm();
  design d = design_named(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(d, {tiling(d, tiling_shape::tiny), {}});
  std::filesystem::path dir = std::filesystem::path(SADSL_BINARY_DIR) / "codegen_project" / "broken";
  std::filesystem::remove_all(dir);
  write_hls_project(a, dir);
  // PE_0_0 reads its A from the FIFO it writes; what its A feeder sends goes to the sink instead.
  // Every FIFO keeps one reader and one writer.
  std::string src = read_file(dir / "kernel.cpp");
  replace_once(src, "PE(0, 0, fifo_A_IO_L2_in_boundary_0_to_pe, fifo_PE_0_0_A_out", "PE(0, 0, fifo_PE_0_0_A_out, fifo_PE_0_0_A_out");
  replace_once(src, "A_PE_dummy_out(0, 0, fifo_PE_0_0_A_out)", "A_PE_dummy_out(0, 0, fifo_A_IO_L2_in_boundary_0_to_pe)");
  std::ofstream(dir / "kernel.cpp") << src;
  REQUIRE(compile(dir) == "");
  auto [rc1, concurrent] = run_command((dir / "host").string() + " concurrent");
  CHECK(rc1 == 1);
  CHECK(concurrent ==
        "deadlock: B_IO_L3_in waits to write fifo_B_IO_L3_in_down (full, depth 2); "
        "B_IO_L2_in_boundary_0 waits to write fifo_B_IO_L2_in_boundary_0_to_pe (full, depth 2); "
        "PE_0_0 waits to read fifo_PE_0_0_A_out (empty); "
        "C_drain_IO_L1_out_boundary_0_0 waits to read fifo_PE_0_0_C_drain_IO_out (empty); "
        "C_drain_IO_L2_out_boundary_0 waits to read fifo_C_drain_IO_L1_out_boundary_0_0_out (empty); "
        "C_drain_IO_L3_out waits to read fifo_C_drain_IO_L2_out_boundary_0_out (empty); "
        "B_PE_dummy_out_0_0 waits to read fifo_PE_0_0_B_out (empty)\n"
        "FAILED: simulation stopped\n");
  auto [rc2, sequential] = run_command((dir / "host").string() + " sequential");
  CHECK(rc2 == 1);
  CHECK(sequential == "empty read: PE_0_0 reads fifo_PE_0_0_A_out (empty; 0 written, 0 read)\nFAILED: simulation stopped\n");
}

TEST_CASE("hls project: errors name what cannot be generated") {
  kernel k = small_mm();
  design d = design_named(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(d, {tiling(d, tiling_shape::tiny), {}});
  SECTION("a FIFO cycle") {
    // PE_0_0's A output goes back to the module that feeds it; what that module read goes to the sink.
    architecture b = a;
    auto named = [&](const std::string& name) -> fifo& {
      for (auto& f : b.fifos)
        if (f.name == name) return f;
      FAIL("no FIFO " << name);
      return b.fifos.front();
    };
    fifo& back = named("fifo_PE_0_0_A_out");
    fifo& in = named("fifo_A_IO_L3_in_down");
    std::swap(back.consumer_kind, in.consumer_kind);
    std::swap(back.consumer_instance, in.consumer_instance);
    std::swap(back.consumer_port, in.consumer_port);
    CHECK_THROWS_WITH(hls_project_files(b), Catch::Contains("HLS code generation: the FIFOs of design [i,j] <[i,j],k> form a cycle through"));
  }
  SECTION("an unconnected port") {
    architecture b = a;
    std::string name = b.fifos.back().name;
    b.fifos.pop_back();
    CHECK_THROWS_WITH(hls_project_files(b), Catch::Contains("is connected to no FIFO"));
  }
  SECTION("no design") {
    architecture b;
    CHECK_THROWS_WITH(hls_project_files(b), "HLS code generation: the architecture has no design (build it with build_architecture)");
  }
  SECTION("an unwritable directory") {
    CHECK_THROWS_WITH(write_hls_project(a, "/proc/sadsl_no_such_dir/project"), Catch::Contains("cannot create directory /proc/sadsl_no_such_dir/project"));
  }
}
