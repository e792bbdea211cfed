#pragma once
// SUMMA-style matrix multiplication space (paper 004 section 8.1, after van de Geijn and Watts):
// C = A B with N x N matrices; the array computes one R x S block of C at a time, streaming a
// column of A's stripe (R words) and a row of B's stripe (S words) per k step. Stripes are buffered
// in data memories in chunks of KC k-steps, double-buffered, next to the R x S accumulators.
// Knobs: "rows" (R) and "cols" (S). Larger blocks reuse each streamed word more (R S / (R + S)
// MACs per word) until memory, instruction memory or compile time runs out.
#include "cgra.hpp"

namespace sadsl::knobs::bench {

inline design mm_design(const architecture& a, double r, double s) {
  constexpr double n = 1000, kc = 128;
  const double words = r * s + 2 * kc * (r + s);  // accumulators + double-buffered stripe chunks
  const double memories = ceil_div(words, a.memory_words);
  const double ops = 2 * r * s + (r + s) + 6;  // MACs, operand fan-out moves, loop control
  const double compute_slots = ceil_div(2 * r * s, a.alus());
  const double io_slots = ceil_div(r + s, a.stream_ports());
  // Accumulators: a read and a write per MAC on dual-ported memories.
  const double accumulator_slots = ceil_div(r * s, std::min<double>(memories, a.memories()));
  const double ii = std::max({compute_slots, io_slots, accumulator_slots});
  const double blocks = ceil_div(n, r) * ceil_div(n, s);  // edge blocks are padded: N = 1000
  design d;
  d.ops = ops;
  d.memories = memories;
  d.words_per_memory = words / memories;
  // The busiest ALU: its share of the block's MACs, the block's drain loop, address and loop control.
  d.instructions = compute_slots + ceil_div(r * s, a.alus()) + 3;
  d.initiation_interval = ii;
  d.compute_cycles = blocks * n * ii;
  // Per block: pipeline fill and draining R S results through the stream ports.
  d.overhead_cycles = blocks * (12 + ceil_div(r * s, a.stream_ports()));
  return d;
}

inline test_space mm_space(const architecture& a) {
  return kernel_space("mm", a, knob::range("rows", 1, 64), knob::range("cols", 1, 64), 1e9, mm_design, 23);
}

}  // namespace sadsl::knobs::bench
