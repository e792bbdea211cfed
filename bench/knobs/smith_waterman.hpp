#pragma once
// Smith-Waterman space (paper 004 section 8.1): local alignment of a query of Q residues against a
// database of D residues, parallelised over a vertical swath of S columns that sweeps the database
// as a wavefront; the query is covered in ceil(Q / S) swaths. Knob "swath": S. Knob "share": how
// many columns share one copy of the 20 x 20 substitution table (one data memory per copy); sharing
// saves memories but serialises the lookups on the table's two ports.
// The table holds 8-bit scores packed two per 16-bit word.
#include "cgra.hpp"

namespace sadsl::knobs::bench {

inline design smith_waterman_design(const architecture& a, double swath, double share) {
  constexpr double query = 1200, database = 50000, table_words = 200;  // 20 x 20 bytes, 2 per word
  constexpr double ops_per_cell = 10;                                  // 3 gap adds, 4 max, substitution add, 2 moves
  const double tables = ceil_div(swath, share);
  const double columns_per_cluster = ceil_div(swath, a.clusters);
  const double cluster_slots = ceil_div(ops_per_cell * columns_per_cluster, a.alus_per_cluster);
  const double ii = std::max(cluster_slots, ceil_div(share, 2));
  const double ops = ops_per_cell * swath + 2 * tables + 4;  // cells, table addressing, loop control
  const double swaths = ceil_div(query, swath);
  design d;
  d.ops = ops;
  d.memories = tables + 2;                       // table copies + boundary-row stream buffers
  d.words_per_memory = table_words + 2 * share;  // the table + the sharing columns' boundary cells
  d.instructions = cluster_slots + 2;
  d.initiation_interval = ii;
  d.compute_cycles = swaths * (database + swath - 1) * ii;
  // Per swath: reload the query slice and the boundary column, pipeline fill.
  d.overhead_cycles = swaths * (2 * swath / a.stream_ports() + 30);
  return d;
}

// Data-dependent max chains make routing to timing harder than for the multiply-add kernels.
inline test_space smith_waterman_space(const architecture& a) {
  return kernel_space("smith-waterman", a, knob::range("swath", 1, 128), knob::range("share", 1, 32), 1200.0 * 50000,
                      smith_waterman_design, 41, 3.0);
}

}  // namespace sadsl::knobs::bench
