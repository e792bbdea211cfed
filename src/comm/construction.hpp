#pragma once
// The architecture builder: one object that holds the analysis of a design point (padding,
// instance maps, routing) and builds the architecture step by step. Its steps live in separate
// files: networks.cpp (which I/O networks, their leaves and chunks), pe_module.cpp (the PE kind),
// network_modules.cpp (the I/O module kinds), wiring.cpp (instances, FIFOs, dummies).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
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
  mutable std::map<std::pair<statement_id, int>, isl::pw_multi_aff> stored_indices_;  // made once per access
  /// Elements per token of a PE port operation of this access: the SIMD lanes for a stride-1
  /// access, else 1; `vector` when the SIMD lanes share the token.
  int64_t token_lanes(const access_ref& a, bool& vector) const;
  /// Where a placement puts the PE's coordinate along a space dim: a module parameter (p<n>),
  /// a constant, or anywhere.
  struct pe_coordinate {
    int param = -1;        // p<param>
    int64_t value = -1;    // else this constant, when >= 0
  };
  /// A statement's instances in one tile at one PE, in tile-local coordinates L = (time loops,
  /// inner loops, latency points, SIMD lane): the PE's own order. Each band loop's value is
  /// linear in them — b = t1*t + w*outer + s*latency + lane — so isl builds programs over L
  /// without floors. `domain` is named `tuple`; `instance` gives the statement instance of a point.
  /// A frame named other than its statement is the statement's frame renamed, and shares its
  /// accesses' stored indices pulled back (`indices`, made once per frame, named after the statement).
  struct local_frame {
    isl::set domain;
    isl::pw_multi_aff instance;
    bool whole = true;  // domain is the instance function's domain (not restricted since)
    std::vector<std::pair<int64_t, int64_t>> box;  // per dimension, the range its points lie in (unbounded: INT64_MIN, INT64_MAX)
    std::shared_ptr<std::map<std::pair<statement_id, int>, isl::pw_multi_aff>> indices;
  };
  local_frame frame_of(const statement_info& s, const std::vector<pe_coordinate>& pe, const std::string& tuple) const;
  mutable std::map<std::tuple<statement_id, std::vector<std::pair<int, int64_t>>, std::string>, local_frame> frames_;
  /// The frame's points whose instance lies in x (a set of the statement's instances).
  isl::set frame_points(const local_frame& f, const isl::set& x) const;
  /// s (a set over frame f) without the existential variables the frame's box gives one value,
  /// or two (then the conjunction is split in two): s itself when one takes more or depends on
  /// another.
  isl::set without_box_divs(const isl::set& s, const local_frame& f) const;
  /// The range of a parameter (by name) over every frame, or null.
  const std::pair<int64_t, int64_t>* param_range(const char* name) const;
  /// Access a's stored index as a function of frame f (on the instance function's domain).
  isl::pw_multi_aff index_on(const local_frame& f, const access_ref& a) const;
  /// Where access a's element at each point of frame f lies in a buffer whose box starts at
  /// `origin` (one per dimension, over the parameters): the stored index less the origin.
  std::vector<isl::pw_aff> index_in_buffer(const local_frame& f, const access_ref& a, const std::vector<isl::pw_aff>& origin) const;
  /// The PE-order schedule of a frame: L -> [L..., position].
  isl::union_map frame_schedule(const local_frame& f, int64_t position) const;
  const statement_info& statement(const std::string& tuple) const;
  elem_type element_of(const tensor_id& t) const;
  /// The parameters' ranges for a part: kernel params fixed, tiles within range, p_i within
  /// [0, extents[i]) (unused p_i fixed to 0).
  isl::set params_only_context(const std::vector<int64_t>& extents) const;
  mutable std::map<std::vector<int64_t>, isl::set> contexts_;  // made once per extents
  /// box_origin(elements), with integers when the elements are one conjunction whose bounds the
  /// parameters' ranges order (box_origin_on_box).
  std::vector<isl::pw_aff> origin_of(const isl::set& elements) const;
  mutable std::map<std::string, std::pair<int64_t, int64_t>> param_ranges_;

  // --- networks.cpp ---
  std::vector<network_plan> networks_;
  void plan_networks();
  /// The leaf PE of network n: grid dims from p0.., the edge dim at the chain's first or last PE.
  std::vector<pe_coordinate> leaf_pe(const network_plan& n) const;
  /// The elements one leaf's PE moves through network n in tile t: a set of the tensor's stored
  /// elements with params t0.. and p0.. (the leaf's grid coordinates).
  isl::set chunk(const network_plan& n) const;
  /// The points of the leaf PE's frame (named after the statement) that run access i of network n:
  /// the chunk and the PE-side part ask for the same.
  const isl::set& leaf_points(const network_plan& n, size_t i) const;
  mutable std::map<std::pair<const network_plan*, size_t>, isl::set> leaf_points_;
  mutable std::map<const network_plan*, isl::set> chunks_;  // computed once per network
  /// Whether network n's chunks are whole boxes (io_network::whole_boxes), and whether they can
  /// be whole words: always when the design is padded with zeros; in a guarded one where they are
  /// whole boxes and its buffers are registers.
  bool whole_boxes_of(const network_plan& n) const;
  bool whole_words_possible(const network_plan& n) const;
  mutable std::map<const network_plan*, bool> whole_boxes_;
  /// box_origin(chunk(n)): where the leaf's chunk starts, per stored dim (a parametric minimum,
  /// asked by the packing choice for every candidate width and by the PE-side part).
  const std::vector<isl::pw_aff>& chunk_origin(const network_plan& n) const;
  mutable std::map<const network_plan*, std::vector<isl::pw_aff>> chunk_origins_;

  // --- pe_module.cpp ---
  void build_pe();
  std::map<tensor_id, int> local_buffers_;  // tensor -> PE buffer index


  // --- network_modules.cpp, pe_side.cpp ---
  void build_network_modules(network_plan& n);
  /// The part of a buffered module that serves its leaf PE: one token per PE read of the
  /// network (feed) or per PE write (collect), in the PE's order, from or into `buffer`.
  module_part pe_side_part(const network_plan& n, int port, int buffer, const std::vector<int64_t>& extents);

  // --- build_architecture.cpp ---
  void build_tiles();
  void build_layouts();
  void place_buffers();

  // --- wiring.cpp ---
  void wire();
  /// The part of a dummy module that takes (and drops) what a chain's last PE sends on `port`.
  module_part dummy_sink_part(int port);

  architecture out_;
};

/// All coordinate vectors of a box [0, extents), lexicographically.
std::vector<std::vector<int64_t>> all_points(const std::vector<int64_t>& extents);

/// The bounding box of a set of elements with parameters: per dimension, the largest extent over
/// the parameters' values.
std::vector<int64_t> box_extents(const isl::set& elements);

/// The origin of a set of elements with parameters: each dimension's lower bound, a function of
/// the parameters.
std::vector<isl::pw_aff> box_origin(const isl::set& elements);

/// s without the existential variables whose values the box (per parameter, then per
/// dimension, the range the points of s lie in; INT64_MIN and INT64_MAX: unbounded) gives one
/// value, or two (then the conjunction is split in two, each with its value); s itself when a
/// variable takes more, depends on another, or is over an unbounded variable. Equal to s on the box.
isl::set without_box_divs(const isl::set& s, const std::vector<std::pair<int64_t, int64_t>>& box);

/// The same without isl's parametric minimum, for one conjunction without existential variables
/// whose dimensions each have an equality or a unit lower bound over the parameters that is at
/// least the others on the box `params` (per parameter of `elements`, its least and largest
/// value); std::nullopt otherwise.
std::optional<std::vector<isl::pw_aff>> box_origin_on_box(const isl::set& elements,
                                                          const std::vector<std::pair<int64_t, int64_t>>& params);

}  // namespace sadsl::comm_detail
