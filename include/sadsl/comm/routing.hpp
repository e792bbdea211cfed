#pragma once
// Routing: for every statement instance of a design at a point, where each value it reads comes
// from and where each value it writes goes. Derived from the dependences, instance by instance:
//
//   a flow dependence whose source and sink run in the same PE (in the same tile, or in tiles
//     that share the tensor's local buffer) is LOCAL: the value stays in the PE;
//   one whose sink runs in the next PE along a space loop, in the same tile, moves over the
//     tensor's CHAIN (PE-to-PE FIFOs);
//   any other crosses tiles through DRAM (a reload): written out by an out-network, read back by
//     an in-network in a later phase;
//   a read with no source (input data, an inout's initial value) comes from an in-network;
//     read-only data needed by every PE along a space loop (MM's A along j) is fed to the first
//     PE and forwarded along that chain (zero-padded designs, where all PEs run the same
//     instances);
//   a final value of an output (no later write overwrites it) goes to the drain network;
//   a read whose element an earlier read of the same PE iteration brought over a chain or a
//     network (MM's C += A * B and E = A + B at k's last iteration, both reading A(i, k)) is
//     SHARED: it takes that read's register, so each element moves once per iteration and the
//     PE reads each FIFO at most once per pipelined iteration (AutoSA's PEs read a reference
//     group's element once into a register, as Vitis needs for II 1: a FIFO gives one read a
//     cycle).
//
// Each PE runs its instances in a local order: the time loops, the inner loops below the band
// (pipelined, as AutoSA does: CNN's p and q), the latency-hiding points, the SIMD lane, the
// statement's textual position.
#include <isl/cpp.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "sadsl/comm/padding.hpp"
#include "sadsl/compute/design.hpp"

namespace sadsl {

/// The coordinates of every statement instance of a design at a point.
struct instance_maps {
  std::shared_ptr<detail::kernel_state> owner;  // keeps the isl context alive (first member)
  isl::set params;           // the param values the design runs with (padded when zero-padded)
  isl::union_set domain;     // every statement instance at those values
  std::map<statement_id, isl::set> domains;  // the same, per statement (each padded loop within its bound)
  isl::union_map tile;       // S[x] -> tile[T]: tile coordinates, tile order
  isl::union_map pe;         // S[x] -> pe[P]: PE coordinates, space-loop order
  size_t inner_loops = 0;    // loops below the band placed before the latency loops
  std::map<statement_id, std::vector<isl::aff>> inner;  // per statement: those loops' values (its own or padded)
  /// S[x] -> order[b, i]: x's band point and inner loop values, the order of its PE's program
  /// (lexicographic; the statements' order breaks ties).
  isl::union_map order;
  bool reduction_reordered = false;  // the SIMD lanes of a reduction moved inside those loops
};

instance_maps instance_maps_of(const design& d, const design_point& p, const padding_plan& pad);

/// Where the instances of one access take (reads) or send (writes) their values.
struct access_route {
  access_ref access;
  tensor_id tensor;
  isl::union_set local;    // the PE's local buffer of the tensor
  isl::union_set chain;    // the tensor's chain port along `chain_dim` (the neighbour PE, or the
                           // in/out network at the chain's first/last PE)
  isl::union_set network;  // the tensor's interior in-network (reads) or reload out-network (writes)
  isl::union_set drain;    // (writes) final values, to the drain network
  std::optional<int> chain_dim;
  /// (reads) Instances that take their value from an earlier read's register in the same PE
  /// iteration (the same band point and inner loops: the same element, no token of their own),
  /// by that read. Disjoint from local, chain and network.
  std::vector<std::pair<access_ref, isl::union_set>> shared;
};

struct routing {
  std::vector<access_route> reads, writes;
  /// Written tensors whose values move between neighbouring PEs, and along which space dim.
  std::map<tensor_id, int> flow_chains;
  /// Tile-order positions of the tile loops that run on the host (a reload crosses them).
  std::vector<size_t> phase_loops;
  /// Tensors whose local buffer lives across consecutive tiles (its tile loops outermost).
  std::map<tensor_id, bool> persists;
  /// Per written tensor: how many outermost tile loops key its local buffer when it persists (the
  /// tiles that differ only in the later ones share it, so its elements keep their places there).
  std::map<tensor_id, size_t> key_loops;
};

/// PEs along each space loop: t1 over the loop's next factor (latency hiding, else SIMD).
std::vector<int64_t> pe_grid(const design& d, const design_point& p);

/// The routing of design d at point p (maps built for it). sadsl::error when the design needs a
/// communication the I/O construction does not support (it says which).
routing route(const design& d, const design_point& p, const instance_maps& maps, const padding_plan& pad);

}  // namespace sadsl
