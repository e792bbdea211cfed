#pragma once
// Vitis HLS C++ from a concrete architecture (docs/hls.md). The architecture is the only input:
// each module kind becomes one function (its parts become functions it calls tile by tile, with
// ping-pong buffers for double-buffered parts), the top function declares every FIFO and calls
// every module instance under `#pragma HLS DATAFLOW`, in an order in which Vitis' sequential C
// simulation works. The project also holds a testbench (host.cpp) that checks the kernel against a
// plain loop nest of the original kernel, a Vitis HLS script, a Makefile for g++ C simulation
// against sadsl's simulation headers, config.json and the Graphviz drawing of the array.
#include <filesystem>
#include <map>
#include <string>

#include "sadsl/comm/architecture.hpp"

namespace sadsl {

struct hls_options {
  /// The top function; "" names it after the kernel ("<kernel>_top" after non-identifier
  /// characters become '_').
  std::string top;
  /// Wraps every generated declaration in this namespace (and names the testbench's entry
  /// `int host_main(int argc, char** argv)` instead of `main`), so that several projects can be
  /// compiled into one program. "" (the default): no namespace.
  std::string name_space;
  /// The Vitis HLS part and clock period of hls_script.tcl.
  std::string part = "xcu250-figd2104-2L-e";
  double clock_ns = 3.33;
  /// Where the Makefile finds sadsl's simulation headers (ap_int.h, hls_stream.h,
  /// sadsl_dataflow.h); "" means the installed location next to this library's headers, as known
  /// at build time.
  std::string sim_include;
  /// Seed of the testbench's pseudo-random inputs.
  uint32_t seed = 1;
};

/// Every file of the project, by file name: kernel.h, kernel.cpp, host.cpp, hls_script.tcl,
/// Makefile, config.json, architecture.dot. Deterministic: the same architecture and options give
/// the same bytes. sadsl::error when the architecture cannot be printed (it says why).
std::map<std::string, std::string> hls_project_files(const architecture& a, const hls_options& options = {});

/// Writes hls_project_files(a, options) into `dir` (created if needed), each file through a
/// temporary file and a rename, so a reader never sees a partial file.
void write_hls_project(const architecture& a, const std::filesystem::path& dir, const hls_options& options = {});

}  // namespace sadsl
