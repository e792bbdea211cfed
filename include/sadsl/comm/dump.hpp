#pragma once
// Readable forms of an architecture: a text dump (golden-tested, written by the examples) and a
// Graphviz drawing (the PE grid, the I/O chains, DRAM).
#include <string>

#include "sadsl/comm/architecture.hpp"

namespace sadsl {

/// The design and point, padding, PE grid, phases, then per I/O network its levels and packing,
/// per module kind its role, instances, ports, buffers and program parts, and the FIFOs.
std::string dump_architecture(const architecture& a);

/// The module programs as isl prints them (C-like), kind by kind.
std::string dump_programs(const architecture& a);

/// A Graphviz graph: one node per module instance (PEs on their grid), one edge per FIFO, one
/// node per DRAM array.
std::string architecture_dot(const architecture& a);

}  // namespace sadsl
