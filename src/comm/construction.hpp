#pragma once
// The architecture builder: one object that holds the analysis of a design point (padding,
// instance maps, routing) and builds the architecture step by step. Its steps live in separate
// files: networks.cpp (which I/O networks, their leaves and chunks), pe_module.cpp (the PE kind),
// network_modules.cpp (the I/O module kinds), wiring.cpp (instances, FIFOs, dummies).
#include <optional>
#include <string>
#include <vector>

#include "programs.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/padding.hpp"
#include "sadsl/comm/routing.hpp"

namespace sadsl::comm_detail {

/// The instances of one access whose tokens a network moves.
struct network_access {
  access_ref access;
  isl::union_set instances;
};

/// A network under construction: its description, the tokens it moves, its leaves.
struct network_plan {
  io_network info;
  std::vector<network_access> accesses;  // in op order
  std::optional<int> edge_dim;           // chain networks: the leaf PEs sit at the first (in) / last (out) PE
  std::vector<int> grid;                 // leaf grid dims, cluster order g1..gm
  int pe_port = -1;                      // the PE port it serves (an interior network) or the chain port at the edge
  int64_t token_lanes = 1;               // elements per token between the leaf module and the PE
  std::vector<int64_t> box;              // the leaf chunk's bounding box (stored dims)
  bool double_buffered = true;
  std::vector<std::vector<int>> level_kinds;  // module kinds per level from the buffered one (a chain's
                                             // last modules are a kind of their own, without downstream port)
};

class arch_builder {
public:
  arch_builder(const design& d, const architecture_point& point);
  architecture build();

  // --- shared analysis (construction.cpp) ---
  const design& d_;
  architecture_point point_;
  const program& prog_;
  padding_plan pad_;
  instance_maps maps_;
  routing routes_;
  std::vector<int64_t> grid_;         // PEs per space dim
  std::vector<int64_t> tile_counts_;  // tiles per tile loop (tile order)
  int64_t simd_ = 1;
  isl::space params_;                 // kernel params + t0.. + p0..p(s-1)
  isl::set context_;                  // kernel params fixed, t and p within range

  /// The access as a function of the instance, in the tensor's stored (host) layout.
  isl::pw_multi_aff stored_index(const access_ref& a) const;
  /// Elements per token of a PE port operation of this access: the SIMD lanes for a stride-1
  /// access, else 1; `vector` when the SIMD lanes share the token.
  int64_t token_lanes(const access_ref& a, bool& vector) const;
  /// The SIMD lane of each instance (0 without SIMD).
  isl::pw_aff lane_of(const statement_info& s) const;
  /// Instances in tile t (params t0..) at PE p (params p0..).
  isl::union_set at_tile_and_pe(const isl::union_set& instances) const;
  const statement_info& statement(const std::string& tuple) const;
  elem_type element_of(const tensor_id& t) const;
  /// The parameters' ranges for a part: kernel params fixed, tiles within range, p_i within
  /// [0, extents[i]) (unused p_i fixed to 0).
  isl::set params_only_context(const std::vector<int64_t>& extents) const;

  // --- networks.cpp ---
  std::vector<network_plan> networks_;
  void plan_networks();
  /// The key of an instance for network n: x -> [T(x)..., L(x)...] (tile, leaf coordinates).
  isl::union_map leaf_key(const network_plan& n) const;
  /// The chunk of one leaf per tile: { [T..., L...] -> tensor[e] } (params: the kernel's).
  isl::union_map chunks(const network_plan& n) const;

  // --- pe_module.cpp ---
  void build_pe();
  std::map<tensor_id, int> local_buffers_;  // tensor -> PE buffer index
  std::map<tensor_id, isl::union_map> local_origin_;

  // --- network_modules.cpp, pe_side.cpp ---
  void build_network_modules(network_plan& n);
  /// The part of a buffered module that serves its leaf PE: one token per PE read of the
  /// network (feed) or per PE write (collect), in the PE's order, from or into `buffer`.
  module_part pe_side_part(const network_plan& n, int port, int buffer, const std::vector<int64_t>& extents);

  // --- build_architecture.cpp ---
  void build_tiles();
  void build_layouts();

  // --- wiring.cpp ---
  void wire();
  /// The part of a dummy module that takes (and drops) what a chain's last PE sends on `port`.
  module_part dummy_sink_part(int port);

  architecture out_;
};

/// The bounding box of the chunks of a relation { key -> element }: its extents (the largest over
/// the keys, per dimension).
std::vector<int64_t> box_extents(const isl::union_map& chunks);

/// index(x) - origin(key(x)) per dimension, as functions of the instances of `on` (a set of one
/// statement's instances): the element's position in the box of its key's chunk, whose origin is
/// the lower bound of each dimension of the chunk.
std::vector<isl::pw_aff> position_in_box(const isl::pw_multi_aff& index, const isl::union_map& key_of,
                                         const isl::union_map& chunks, const isl::set& on);

}  // namespace sadsl::comm_detail
