#pragma once
// The symbolic form of a design's architecture: the module kinds, I/O networks, buffers and FIFOs
// that build_architecture makes at every point of the design, with their counts and sizes as
// model expressions over the design model's parameters (problem sizes and factors) instead of
// numbers. counts_at() evaluates it at a point; wherever its constraints hold (the tuner searches
// no other point), the concrete architecture built at that point has exactly those counts
// (tests/modeling/symbolic_architecture_test.cpp checks it at random points, non-divisor factors
// included).
//
// It is read off the template architecture by the same builder as the performance model
// (performance_model.hpp), and the model's BRAM18K and URAM are summed from it, so the two
// cannot drift apart.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/model/design_model.hpp"
#include "sadsl/modeling/performance_model.hpp"

namespace sadsl {

/// A buffer of a module kind: one copy's extents (stored order), banks and memory blocks.
struct symbolic_buffer {
  std::string name;  // for printing: "local_A"
  tensor_id tensor;
  elem_type element = elem_type::f32;
  std::vector<model::expr> extents;
  model::expr banks = 1;
  bool double_buffered = false;
  model::expr bram18k = 0, uram = 0;  // blocks of one copy (buffer_bram18k / buffer_uram)
  model::expr register_bits = 0;      // bits of one copy held in registers (64 elements or fewer)
  /// 1 where the buffer exists: a PE buffer of a value that only a recurrence carries (an inout C
  /// that no initialization writes in the PE) is not built where the loops carrying it have one
  /// iteration in a PE's tile, the value passing straight through.
  model::expr present = 1;
};

/// A port of a module kind (each instance has it where `present` is 1).
struct symbolic_port {
  std::string name;  // for printing: "A_in", "to_pe"
  bool input = true;
  elem_type element = elem_type::f32;
  model::expr lanes = 1;  // elements per token: SIMD lanes or the network's packing
  tensor_id tensor;
  model::expr present = 1;
};

/// An I/O network: the tensor it moves, the chunk (box) its buffered modules hold, and the
/// elements its top-level module packs into one DRAM word.
struct symbolic_network {
  std::string name;  // for printing: "A_IO"
  tensor_id tensor;
  io_group_kind kind = io_group_kind::read;
  bool input = true;
  elem_type element = elem_type::f32;
  std::vector<model::expr> box;
  /// The largest power of two, at most widest_pack, that divides every one of pack_divides (the
  /// chunk's last extent and the offsets where chunks start along the stored last dimension).
  model::expr pack = 1;
  std::vector<model::expr> pack_divides;
  int64_t widest_pack = 1;  // dram_word_bits of elements
  /// A guarded design's: it packs only where its buffer holds 64 elements or fewer (registers).
  bool packs_in_registers_only = false;
};

/// A module kind and its instances. A kind with no instances at a point (a reload network whose
/// loop has one tile) is not built there.
struct symbolic_module {
  std::string name;  // for printing: "A_IO_L2_in"
  module_role role = module_role::pe;
  int network = -1;  // index into symbolic_architecture::networks (I/O modules)
  int level = 0;
  bool boundary = false;
  std::optional<tensor_id> chain;  // dummies: the tensor of the PE chain they close
  model::expr instances = 1;
  std::vector<symbolic_buffer> buffers;
  std::vector<symbolic_port> ports;
  model::expr fifos_in = 0;  // FIFOs its instances read (one per input port of each)
};

struct symbolic_architecture {
  std::string design;                  // the design's name, for printing
  std::vector<model::parameter> params;  // as the design's model's (same order and origins)
  std::vector<model::expr> pe_grid;    // PEs along each space loop
  std::vector<symbolic_network> networks;
  std::vector<symbolic_module> modules;  // PE first
  model::expr fifos = 0;               // every FIFO of every instance
  /// Where these hold, the architecture is this one (at_least constraints: two or more PEs along a
  /// space loop the partial sums flow along; with one, the partial sums stay in the PE and other
  /// networks move them).
  std::vector<model::constraint> constraints;
};

/// The symbolic architecture of design d at the kernel's problem sizes (which stay parameters).
/// sadsl::error where performance_model(d, options) fails, with the same message.
symbolic_architecture build_symbolic_architecture(const design& d, const modeling_options& options = {});

/// What an architecture has at one point: the numbers that counts_at() gives and counts_of() reads off a
/// concrete architecture. Modules and networks are known by typed keys, not names.
struct architecture_counts {
  struct network_key {
    tensor_id tensor;
    io_group_kind kind = io_group_kind::read;
    bool input = true;
    auto operator<=>(const network_key&) const = default;
  };
  struct module_key {
    std::optional<network_key> network;  // I/O modules
    std::optional<tensor_id> chain;      // dummies: the tensor of the PE chain they close
    module_role role = module_role::pe;
    int level = 0;
    bool boundary = false;
    auto operator<=>(const module_key&) const = default;
  };
  struct buffer_counts {
    std::vector<int64_t> extents;
    int64_t banks = 1;
    bool double_buffered = false;
    int64_t bram18k = 0, uram = 0;
    bool operator==(const buffer_counts&) const = default;
  };
  struct module_counts {
    int64_t instances = 0;
    int64_t fifos_in = 0;  // FIFOs its instances read
    std::vector<int64_t> port_lanes;  // of each port it has, in order
    std::vector<buffer_counts> buffers;
    bool operator==(const module_counts&) const = default;
  };
  std::vector<int64_t> pe_grid;
  std::map<network_key, int64_t> packs;  // elements per DRAM word
  std::map<module_key, module_counts> modules;  // kinds with instances only
  int64_t fifos = 0;
  bool operator==(const architecture_counts&) const = default;
};

/// The counts of `a` at point p (its factors) at the kernel's current sizes. sadsl::error naming
/// the point and the constraint when one of a.constraints does not hold there.
architecture_counts counts_at(const symbolic_architecture& a, const design_point& p, const kernel& k);

/// Dummy modules: the tensor of the PE chain they close (its port's); other kinds: none.
std::optional<tensor_id> chain_of(const module_kind& k);

/// The counts of a concrete architecture.
architecture_counts counts_of(const architecture& a);

/// Readable text: per network its box and packing, per module kind its instances and buffers.
std::string to_string(const symbolic_architecture& a);

/// The differences between two counts, one line each ("" when equal): for test messages.
std::string counts_difference(const architecture_counts& want, const architecture_counts& got);

}  // namespace sadsl
