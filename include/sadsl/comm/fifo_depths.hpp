#pragma once
// FIFO depths. Most FIFOs hold 2 tokens (Vitis HLS's default): a PE reads what its neighbour or
// an I/O module wrote a cycle before. Where the PEs pass partial sums along a space loop (a
// reduction loop in space: CNN's i, TTMc's l, MM's k), a PE cannot write a partial sum before it
// has added its part of the reduction, so each PE along the loop starts its tiles a partial-sum
// lifetime after its upstream neighbour, and the PE at place p along it p lifetimes after the
// first. The input networks deliver every PE's data at the pace of the first ones; a FIFO from
// them into a PE that far behind must hold what arrives meanwhile, or the network stalls the
// leading PEs at every tile (docs/comm.md, "FIFO depths"). In a lifetime (a hop) the PE reads
// at most a token per cycle and at most a tile's tokens of the FIFO, so such a FIFO gets
// 2 + place x min(tokens per tile, hop) slots; the performance model counts their storage
// (modeling/fifo_storage.hpp) and the HLS code declares them at that depth.
#include <cstdint>
#include <vector>

#include "sadsl/comm/architecture.hpp"

namespace sadsl {

/// A space dim of the PE grid along which the PEs pass partial sums (an I/O network of a tensor
/// the band writes forwards along it), and which way they flow.
struct partial_sum_chain {
  int dim = 0;
  bool increasing = true;  ///< from PE 0 to PE (grid - 1) along dim (else the other way)
  tensor_id tensor;        ///< the tensor whose partial sums flow
};
std::vector<partial_sum_chain> partial_sum_chains(const architecture& a);

/// The partial-sum hops from the first PE of each chain to the PE at `pe` (PE-grid coordinates),
/// summed over the chains.
int64_t partial_sum_place(const architecture& a, const std::vector<partial_sum_chain>& chains, const std::vector<int64_t>& pe);

/// The tokens the PE-side part of buffered input module kind `kind` writes in a tile (its cycles
/// at II 1 with no pipeline depth: one token per pipelined iteration), at its first instance in
/// the first tile, a whole one.
int64_t tokens_per_tile(const architecture& a, int kind);

/// The cycles a PE runs behind its upstream neighbour along the chain: from its first read of
/// the incoming partial sums to its first write of the outgoing ones in the first tile, plus the
/// FIFO's cycle (at II 1 without pipeline depth: the performance model's wavefront hop, the
/// partial sum's lifetime in the PE). 0 when no PE reads partial sums from a neighbour.
int64_t partial_sum_hop(const architecture& a, const partial_sum_chain& c);

/// The depth of FIFOs that need no more than the default.
constexpr int64_t default_fifo_depth = 2;

/// Sets every FIFO's depth: 2, and for a FIFO from an input module into a PE, 2 plus, per chain,
/// the PE's place along it x min(tokens_per_tile(producer), partial_sum_hop).
/// build_architecture() calls it last.
void size_fifos(architecture& a);

}  // namespace sadsl
