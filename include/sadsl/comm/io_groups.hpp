#pragma once
// I/O analysis (paper 002 section 6.1, Algorithm 2; paper 003 "I/O Analysis"): the data a
// systolic array moves, as I/O groups built from (access, dependence) pairs.
//
//   read   (RAR) groups: read-only data, reused along the dependence;
//   flow   (RAW) groups: intermediate results passed from the statement instance that writes
//          them to the one that reads them;
//   output groups:       final results, drained to DRAM.
//
// A group's direction is its dependence distance on the space loops; its type is exterior when
// a space loop carries it (data move between neighbouring PEs) and interior otherwise (each PE
// is served on its own). Groups with the same tensor, kind, type and direction are merged. The
// copy sets are statement instances: read W_in = src ∪ dst of the dependences; flow W_in = dst,
// W_out = src; output W_out = the instances whose write no later write overwrites (final
// values). A read-only access with no reuse at all (FIR's x(i + t)) forms an interior read group
// whose W_in is all its instances.
#include <isl/cpp.h>

#include <memory>
#include <string>
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl {

enum class io_type { interior, exterior };
std::string_view io_type_name(io_type t);

struct io_group {
  std::shared_ptr<detail::kernel_state> owner;  // keeps the isl context alive (first member)
  tensor_id tensor;
  io_group_kind kind = io_group_kind::read;
  io_type type = io_type::interior;
  std::vector<int64_t> direction;      // the distance on each space loop (design order)
  std::vector<access_ref> accesses;    // the accesses the group serves
  std::vector<size_t> dependences;     // indices into design::band->deps
  isl::union_set copy_in, copy_out;    // W_in and W_out: statement instances
};

/// The I/O groups of a design, merged, in a deterministic order (tensor, then kind, type and
/// direction as first found).
std::vector<io_group> io_groups(const design& d);

/// One group per paragraph: tensor, kind, type, direction, accesses, W_in, W_out (isl notation).
std::string dump_io_groups(const design& d, const std::vector<io_group>& groups);

}  // namespace sadsl
