#pragma once
// The pieces of an HLS project, each printed from the architecture (hls.hpp is the entry point).
#include <string>
#include <vector>

#include "c_printer.hpp"
#include "sadsl/codegen/hls.hpp"

namespace sadsl::codegen_detail {

/// What every file agrees on: the top function's name, the namespace, the phase parameters.
struct project_names {
  std::string top;
  std::string name_space;         // "" none
  std::vector<std::string> phase_params;  // t<position> of each tile loop run on the host
};

project_names names_of(const architecture& a, const hls_options& options);

/// The C type of a FIFO token of `lanes` elements (the element type, or ap_uint<bits * lanes>).
std::string token_type(elem_type e, int64_t lanes);
/// The top function's parameter list ("float* A, float* B, int t1").
std::string top_parameters(const architecture& a, const project_names& n);

/// The module functions: one per module kind, with a static function per part.
void write_modules(const architecture& a, c_writer& out);

/// Module instances in the order the top function calls them: every producer before its
/// consumers (sadsl::error when the FIFOs form a cycle). Pairs (kind, instance).
std::vector<std::pair<int, int>> call_order(const architecture& a);
/// The process name of an instance in simulation reports: kind name and coordinates, "PE_0_1".
std::string instance_name(const architecture& a, int kind, int instance);

std::string kernel_header(const architecture& a, const project_names& n);
std::string kernel_source(const architecture& a, const project_names& n);
std::string host_source(const architecture& a, const project_names& n, const hls_options& options);

}  // namespace sadsl::codegen_detail
