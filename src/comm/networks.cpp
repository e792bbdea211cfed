// Which I/O networks a design needs, the tokens each moves, its leaves, chunks and packing.
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>

#include <fmt/format.h>

#include "construction.hpp"
#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

// { x : x runs in the first (or last) PE along space dim `dim` }.
isl::union_set pe_edge(const instance_maps& m, const std::vector<int64_t>& grid, int dim, bool last) {
  isl_space* sp = isl_space_set_from_params(m.params.space().release());
  sp = isl_space_add_dims(sp, isl_dim_set, static_cast<unsigned>(grid.size()));
  sp = isl_space_set_tuple_name(sp, isl_dim_set, "pe");
  isl::set edge = isl::manage(isl_set_fix_si(isl_set_universe(sp), isl_dim_set, static_cast<unsigned>(dim),
                                             static_cast<int>(last ? grid[static_cast<size_t>(dim)] - 1 : 0)));
  return isl::union_set(edge).apply(m.pe.reverse());
}

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Whether every chunk starts at a multiple of `pack` elements along its last dimension, so that it
// is made of whole words (FIR's x(i + t) with one PE per i starts at odd elements).
bool words_aligned(const std::vector<isl::pw_aff>& origin, int64_t pack) {
  if (pack == 1) return true;
  isl_pw_aff* rest = isl_pw_aff_mod_val(origin.back().copy(), isl_val_int_from_si(origin.back().ctx().get(), pack));
  return isl::manage(isl_pw_aff_non_zero_set(rest)).is_empty();
}

// { x -> e : e_dim - x_dim >= shift } on the space of `elements` (the other dims free).
isl::map at_least(const isl::set& elements, int dim, int64_t shift) {
  isl_space* sp = isl_space_map_from_set(isl_set_get_space(elements.get()));
  isl_constraint* c = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_space_copy(sp)));
  c = isl_constraint_set_coefficient_si(c, isl_dim_out, dim, 1);
  c = isl_constraint_set_coefficient_si(c, isl_dim_in, dim, -1);
  c = isl_constraint_set_constant_si(c, static_cast<int>(-shift));
  return isl::manage(isl_map_add_constraint(isl_map_universe(sp), c));
}

// Whether, wherever `elements` (a chunk: stored elements, parametric in the tile and the leaf PE)
// has points, they are the whole box of `extents` from its least element along each dim. Those
// are made of whole words when the box's last extent and origin are multiples of the packing.
// Every element e of the box: e_d >= x_d for some element x, and e_d < x_d + extent for every x
// (the chunk's spread is at most the extent by box_extents, so the chunk is in the box).
bool whole_boxes(const isl::set& elements, const std::vector<int64_t>& extents) {
  isl::set box = isl::manage(isl_set_universe(isl_set_get_space(elements.get()))).intersect_params(elements.params());
  for (int d = 0; d < static_cast<int>(extents.size()); ++d) {
    box = box.intersect(elements.apply(at_least(elements, d, 0)));
    box = box.subtract(elements.apply(at_least(elements, d, extents[static_cast<size_t>(d)])));
  }
  return box.is_subset(elements);
}

}  // namespace

void arch_builder::plan_networks() {
  struct key {
    tensor_id tensor;
    io_group_kind kind;
    bool input;
    std::optional<int> edge;
    bool operator==(const key&) const = default;
  };
  std::vector<key> keys;
  auto network = [&](const key& k) -> network_plan& {
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == k) return networks_[i];
    keys.push_back(k);
    network_plan n;
    n.info.tensor = k.tensor;
    n.info.kind = k.kind;
    n.info.input = k.input;
    n.info.type = k.edge ? io_type::exterior : io_type::interior;
    n.info.along = k.edge;
    n.edge_dim = k.edge;
    for (int dim = 0; dim < static_cast<int>(grid_.size()); ++dim)
      if (dim != k.edge) n.grid.push_back(dim);
    n.info.cluster_order = n.grid;
    n.info.buffered_level = k.edge ? 2 : 1;
    n.info.top_level = n.info.buffered_level + static_cast<int>(n.grid.size());
    n.double_buffered = k.kind != io_group_kind::output;
    networks_.push_back(std::move(n));
    return networks_.back();
  };
  auto add = [&](const key& k, const access_ref& a, const isl::union_set& instances) {
    if (instances.is_empty()) return;
    network(k).accesses.push_back({a, instances});
  };
  for (const auto& r : routes_.reads) {
    bool read_only = !routes_.flow_chains.count(r.tensor) &&
                     std::none_of(prog_.arrays().begin(), prog_.arrays().end(),
                                  [&](const array_info& x) { return x.tensor->id() == r.tensor && x.written; });
    io_group_kind kind = read_only ? io_group_kind::read : io_group_kind::flow;
    if (r.chain_dim) add({r.tensor, kind, true, r.chain_dim}, r.access, r.chain.intersect(pe_edge(maps_, grid_, *r.chain_dim, false)));
    add({r.tensor, kind, true, std::nullopt}, r.access, r.network);
  }
  for (const auto& w : routes_.writes) {
    if (w.chain_dim)
      add({w.tensor, io_group_kind::flow, false, w.chain_dim}, w.access, w.chain.intersect(pe_edge(maps_, grid_, *w.chain_dim, true)));
    add({w.tensor, io_group_kind::flow, false, std::nullopt}, w.access, w.network);
    add({w.tensor, io_group_kind::output, false, std::nullopt}, w.access, w.drain);
  }
  std::vector<std::string> names;  // "<name> in" / "<name> out": modules are named by direction too
  for (auto& n : networks_) {
    std::string base = n.info.tensor.name() + (n.info.kind == io_group_kind::output ? "_drain" : "") + "_IO";
    std::string dir = n.info.input ? " in" : " out";
    n.info.name = base;
    for (int i = 2; std::find(names.begin(), names.end(), n.info.name + dir) != names.end(); ++i)
      n.info.name = fmt::format("{}{}", base, i);
    names.push_back(n.info.name + dir);
    bool vector = false;
    n.token_lanes = token_lanes(n.accesses.front().access, vector);
    for (const auto& a : n.accesses)
      if (token_lanes(a.access, vector) != n.token_lanes)
        throw error(fmt::format("design {}: the accesses of tensor \"{}\" served by one network move tokens of different "
                                "widths",
                                d_.name(), n.info.tensor.name()));
    n.box = box_extents(chunk(n));
  }
  for (auto& n : networks_) {
    int bits = type_size(element_of(n.info.tensor)) * 8;
    int64_t last = n.box.back();
    int64_t chosen = 0;
    for (int level = n.info.buffered_level; level <= n.info.top_level; ++level) {
      pack_id id{n.info.tensor, n.info.kind, level};
      int64_t pack = 0;
      if (auto given = point_.packs.find(id); given != point_.packs.end()) {
        pack = given->second;
        if (!whole_words_possible(n) && pack != 1)
          throw error(fmt::format("packing factor {} of tensor \"{}\" ({} group, I/O level {}): design {} is not padded "
                                  "with zeros ({}) and its chunks at this point are not all whole boxes, so they are not "
                                  "whole words: it packs one element per word",
                                  pack, n.info.tensor.name(), io_group_kind_name(n.info.kind), level, d_.name(), pad_.why_guarded));
        if (!is_power_of_two(pack) || last % pack != 0 || pack * bits > dram_word_bits)
          throw error(fmt::format("packing factor {} of tensor \"{}\" ({} group, I/O level {}) must be a power of two that "
                                  "divides {} (the buffer's last dimension) and packs at most {} bits",
                                  pack, n.info.tensor.name(), io_group_kind_name(n.info.kind), level, last, dram_word_bits));
        if (!words_aligned(chunk_origin(n), pack))
          throw error(fmt::format("packing factor {} of tensor \"{}\" ({} group, I/O level {}): the chunks of design {} "
                                  "do not start at multiples of {} elements, so they are not whole words",
                                  pack, n.info.tensor.name(), io_group_kind_name(n.info.kind), level, d_.name(), pack));
      } else {
        pack = 1;
        for (int64_t p = 1; point_.widest_packing && p * bits <= dram_word_bits && last % p == 0 && whole_words_possible(n) &&
                            words_aligned(chunk_origin(n), p);
             p *= 2)
          pack = p;
      }
      if (chosen && pack != chosen)
        throw error(fmt::format("tensor \"{}\" ({} group): every I/O level packs the same number of elements", n.info.tensor.name(),
                                io_group_kind_name(n.info.kind)));
      chosen = pack;
      n.info.packs[level] = pack;
    }
    n.info.whole_boxes = whole_boxes_of(n);
  }
}

std::vector<arch_builder::pe_coordinate> arch_builder::leaf_pe(const network_plan& n) const {
  std::vector<pe_coordinate> pe(grid_.size());
  for (size_t g = 0; g < n.grid.size(); ++g) pe[static_cast<size_t>(n.grid[g])].param = static_cast<int>(g);
  if (n.edge_dim)
    pe[static_cast<size_t>(*n.edge_dim)].value = n.info.input ? 0 : grid_[static_cast<size_t>(*n.edge_dim)] - 1;
  return pe;
}

bool arch_builder::whole_boxes_of(const network_plan& n) const {
  if (pad_.zero_padded) return true;
  auto it = whole_boxes_.find(&n);
  if (it == whole_boxes_.end()) it = whole_boxes_.emplace(&n, whole_boxes(chunk(n), n.box)).first;
  return it->second;
}

bool arch_builder::whole_words_possible(const network_plan& n) const {
  if (pad_.zero_padded) return true;
  // Beside whole boxes, a guarded design packs only a network whose buffers are registers
  // (register_buffer_elements or fewer, place_buffers), whose banks cost nothing: a block RAM buffer's banks
  // multiply its BRAM18K, which the architecture cannot weigh against the words it saves (the
  // tuner does not choose packings). A padded design packs as wide as it can.
  int64_t elements = 1;
  for (int64_t e : n.box) elements *= e;
  return elements <= register_buffer_elements && whole_boxes_of(n);
}

const std::vector<isl::pw_aff>& arch_builder::chunk_origin(const network_plan& n) const {
  auto it = chunk_origins_.find(&n);
  if (it == chunk_origins_.end()) it = chunk_origins_.emplace(&n, origin_of(chunk(n))).first;
  return it->second;
}

const isl::set& arch_builder::leaf_points(const network_plan& n, size_t i) const {
  auto key = std::make_pair(&n, i);
  if (auto it = leaf_points_.find(key); it != leaf_points_.end()) return it->second;
  const network_access& a = n.accesses[i];
  const statement_info& s = prog_.statement(a.access.statement);
  return leaf_points_[key] = frame_points(frame_of(s, leaf_pe(n), s.name()), a.instances.extract_set(s.domain.space()));
}

isl::set arch_builder::chunk(const network_plan& n) const {
  if (auto it = chunks_.find(&n); it != chunks_.end()) return it->second;
  std::optional<isl::set> out;
  for (size_t i = 0; i < n.accesses.size(); ++i) {
    const access_ref& a = n.accesses[i].access;
    const local_frame f = frame_of(prog_.statement(a.statement), leaf_pe(n), a.statement.name());
    isl::set elements = leaf_points(n, i).apply(isl::manage(isl_map_from_pw_multi_aff(index_on(f, a).release())));
    out = out ? out->unite(elements) : elements;
  }
  return chunks_[&n] = out->coalesce();
}

}  // namespace sadsl::comm_detail
