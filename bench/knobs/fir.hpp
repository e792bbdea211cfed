#pragma once
// FIR filter space (paper 004 sections 3 and 8.1): O[j] = sum_k I[j+k] C[k], N outputs, NC taps.
// Knob "banks": the coefficients and the input window are split into that many banks, one data
// memory each, processed in parallel. Knob "accesses": coefficient reads (= MACs) per bank per
// iteration of the modulo-scheduled inner loop. Input samples travel bank to bank in registers.
#include "cgra.hpp"

namespace sadsl::knobs::bench {

inline design fir_design(const architecture& a, double banks, double accesses) {
  constexpr double outputs = 8192, taps = 1024;
  const double taps_per_bank = ceil_div(taps, banks);
  const double banks_per_cluster = ceil_div(banks, a.clusters);
  const double ops_per_bank = 2 * accesses + 1;               // multiply + add per access, one address update
  const double ops = banks * ops_per_bank + (banks - 1) + 4;  // + partial-sum reduction, loop control
  const double cluster_slots = ceil_div(banks_per_cluster * ops_per_bank, a.alus_per_cluster);
  // A bank's operations stay in its memory's cluster; a dual-ported memory serves 2 reads a cycle.
  const double ii = std::max({cluster_slots, ceil_div(accesses, 2), ceil_div(ops, a.alus())});
  const double iterations_per_output = ceil_div(taps_per_bank, accesses);
  const double reduction_depth = std::ceil(std::log2(banks));
  design d;
  d.ops = ops;
  d.memories = banks + 2;                  // one per bank + input and output stream buffers
  d.words_per_memory = 2 * taps_per_bank;  // coefficients + the bank's slice of the input window
  d.instructions = cluster_slots + 1 + 2;  // + one reduction add, + loop control
  d.initiation_interval = ii;
  d.compute_cycles = outputs * iterations_per_output * ii;
  // Each output restarts the accumulators (one bubble); the window is preloaded once; the reduction
  // tree and the pipeline fill once.
  d.overhead_cycles = outputs + taps / a.stream_ports() + 2 * reduction_depth + 12;
  return d;
}

inline test_space fir_space(const architecture& a) {
  return kernel_space("fir", a, knob::range("banks", 1, 128), knob::range("accesses", 1, 32), 8192.0 * 1024, fir_design,
                      11);
}

}  // namespace sadsl::knobs::bench
