#pragma once
// The architecture executor: the second oracle, after the reference interpreter. It runs a
// concrete architecture as a network of processes — one per module instance, each walking its
// own program (the isl ASTs of its parts), FIFOs bounded at their declared depths — on host data,
// phase after phase as the host would invoke the kernel, and writes the outputs back.
//
// It checks itself: every index into a buffer or a DRAM array is in range, every FIFO is empty
// when a phase ends (each token sent was received), no final value of an output is written to
// DRAM twice. A network that cannot make progress is reported as a deadlock naming each waiting
// module and FIFO instead of hanging. It counts the tokens through every FIFO and the bytes moved
// on every DRAM port: the numbers the HLS code and the performance model must match.
#include <cstdint>
#include <map>
#include <string>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

struct execution_result {
  /// "" or why the network stopped: "deadlock in phase 0: PE[0,1] waits to read fifo_... (empty); ..."
  std::string deadlock;
  bool ok() const { return deadlock.empty(); }
  std::map<std::string, int64_t> fifo_tokens;     // tokens through each FIFO, all phases
  std::map<std::string, int64_t> dram_bytes_read;     // per tensor
  std::map<std::string, int64_t> dram_bytes_written;  // per tensor
  int64_t phases = 0;
};

/// Runs architecture a on `data` (the kernel's tensors at its current param values, which must be
/// the problem size the architecture was built for): the host pads and lays out the inputs, the
/// network runs each phase, the outputs are cropped back into `data`.
execution_result execute(const architecture& a, buffers& data);

/// "" when architecture a, run by the executor on random inputs (`seed`), computes what the
/// kernel as written computes at the current param values: every output bit for bit, or within
/// a relative 1e-5 where the architecture reorders a float reduction (a.reduction_reordered).
/// Else the deadlock report or the first output element that differs, with both values.
std::string verify_architecture(const architecture& a, uint64_t seed = 2026);
/// The same against `expected`, reference_run(kernel, seed) (compute/verify.hpp) of the design's
/// kernel or of a copy of it (tensors are matched by name).
std::string verify_architecture(const architecture& a, const buffers& expected, uint64_t seed = 2026);

/// "" when every output (and inout) tensor of k in `got` equals the one in `want`: exactly when
/// tolerance is 0, else within `tolerance` relative (at least absolute 1); else the first element
/// that differs, with both values.
std::string output_difference(const kernel& k, const buffers& got, const buffers& want, double tolerance);

}  // namespace sadsl
