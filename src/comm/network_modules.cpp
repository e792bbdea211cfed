// The module kinds of one I/O network. Levels run from the buffered one (beside the PEs) to the
// top (beside DRAM). A level's modules are indexed by the leaf-grid dims not yet clustered and
// chained along the next one; each moves, per tile, the chunks of the leaves below and after it
// in the chain, in one order everywhere: leaves lexicographically by the highest cluster dim
// first, then the chunk's elements in words of `pack`.
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <fmt/format.h>

#include "construction.hpp"
#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

// The kind without one of its ports (a chain's last module has no downstream port): the port's
// operations go too, the other operations keep their ports.
module_kind without_port(const module_kind& k, int port) {
  module_kind out = k;
  out.name += "_boundary";
  out.boundary = true;
  out.ports.erase(out.ports.begin() + port);
  for (auto& part : out.parts)
    for (auto& block : part.blocks) {
      std::vector<operation> kept;
      for (auto op : block.ops) {
        if (op.port == port) continue;
        if (op.port > port) --op.port;
        kept.push_back(op);
      }
      block.ops = std::move(kept);
    }
  return out;
}

int port(module_kind& k, const std::string& name, bool input, elem_type e, int64_t lanes, const tensor_id& t) {
  k.ports.push_back({name, input, e, lanes, t});
  return static_cast<int>(k.ports.size()) - 1;
}

}  // namespace

void arch_builder::build_network_modules(network_plan& n) {
  const size_t m = n.grid.size();
  const int64_t pack = n.info.packs.at(n.info.buffered_level);
  const elem_type elem = element_of(n.info.tensor);
  const bool in = n.info.input;
  // The chunks of tile t (params t0..): { leaf[L] -> tensor[e] }, the leaf's grid coordinates
  // moved from the params p0.. into the relation's domain.
  isl::set by_leaf = chunk(n);
  isl_multi_id* leaf_ids = isl_multi_id_from_id_list(
      isl_space_set_tuple_name(isl_space_add_dims(isl_space_set_from_params(params_.copy()), isl_dim_set, static_cast<unsigned>(m)),
                               isl_dim_set, "leaf"),
      [&] {
        isl_id_list* ids = isl_id_list_alloc(params_.ctx().get(), static_cast<int>(m));
        for (size_t g = 0; g < m; ++g)
          ids = isl_id_list_add(ids, isl_id_alloc(params_.ctx().get(), fmt::format("p{}", g).c_str(), nullptr));
        return ids;
      }());
  isl::multi_id leaves = isl::manage(leaf_ids);
  isl::map chunk_t = isl::manage(isl_set_unbind_params_insert_domain(by_leaf.release(), leaves.copy()));
  chunk_t = isl::manage(isl_map_align_params(chunk_t.release(), params_.copy()));
  const int elems = static_cast<int>(isl_map_dim(chunk_t.get(), isl_dim_out));

  // xfer[L_1..L_m, w...]: the words of every leaf's chunk.
  isl::space e_space = isl::manage(isl_space_range(chunk_t.get_space().release()));
  std::vector<isl::aff> word_of;
  for (int i = 0; i < elems; ++i) {
    isl::aff x = comm_isl::var_on(e_space, i);
    word_of.push_back(i + 1 == elems ? isl::manage(isl_aff_floor(isl_aff_scale_down_ui(x.release(), static_cast<unsigned>(pack)))) : x);
  }
  isl::map words = chunk_t.apply_range(comm_isl::map_of(e_space, word_of, "word"));
  isl::set xfer_all = comm_isl::renamed(isl::manage(isl_set_flatten(isl_map_wrap(words.release()))), "xfer");
  isl::space xfer_space = xfer_all.space();
  // The word's first element, and its leaf.
  std::vector<isl::aff> first, leaf;
  for (int i = 0; i < elems; ++i) {
    isl::aff w = comm_isl::var_on(xfer_space, static_cast<int>(m) + i);
    first.push_back(i + 1 == elems ? w.scale(isl::val(w.ctx(), pack)) : w);
  }
  for (size_t g = 0; g < m; ++g) leaf.push_back(comm_isl::var_on(xfer_space, static_cast<int>(g)));
  // Built as functions: converting their maps back (isl_pw_multi_aff_from_map) costs hulls.
  isl::pw_multi_aff first_element(comm_isl::multi_aff_of(xfer_space, first, "elem"));
  isl::pw_multi_aff to_leaf(comm_isl::multi_aff_of(xfer_space, leaf, "leaf"));

  for (size_t k = 0; k <= m; ++k) {
    const int level = n.info.buffered_level + static_cast<int>(k);
    const bool buffered = k == 0, top = k == m;
    module_kind mod;
    mod.name = fmt::format("{}_L{}_{}", n.info.name, level, in ? "in" : "out");
    mod.role = in ? module_role::io_in : module_role::io_out;
    mod.network = static_cast<int>(&n - networks_.data());
    mod.level = level;
    mod.buffered = buffered;
    std::vector<int64_t> extents;
    for (size_t g = k; g < m; ++g) {
      mod.index_dims.push_back(n.grid[g]);
      extents.push_back(grid_[static_cast<size_t>(n.grid[g])]);
    }
    mod.instances = all_points(extents);
    if (top) mod.dram = dram_access{n.info.tensor, !in, pack};
    int buffer = -1;
    if (buffered) {
      buffer = 0;
      mod.buffers.push_back({"local_" + n.info.tensor.name(), n.info.tensor, elem, n.box, n.double_buffered});
    }
    // Ports.
    int up = -1, down = -1, chain = -1;
    if (in) {
      if (!top) up = port(mod, "in", true, elem, pack, n.info.tensor);
      down = buffered ? port(mod, "to_pe", false, elem, n.token_lanes, n.info.tensor)
                      : port(mod, "down", false, elem, pack, n.info.tensor);
      if (!top) chain = port(mod, "next", false, elem, pack, n.info.tensor);
    } else {
      down = buffered ? port(mod, "from_pe", true, elem, n.token_lanes, n.info.tensor)
                      : port(mod, "from_down", true, elem, pack, n.info.tensor);
      if (!top) chain = port(mod, "from_next", true, elem, pack, n.info.tensor);
      if (!top) up = port(mod, "out", false, elem, pack, n.info.tensor);
    }
    // The transfer part: the words of this module's leaves (own coordinate and later ones along
    // its chain dim g_{k+1}, its other coordinates fixed).
    isl::set xfer = isl::manage(isl_set_align_params(xfer_all.copy(), params_.copy()));
    for (size_t g = k; g < m; ++g) {
      int p = isl_set_find_dim_by_name(xfer.get(), isl_dim_param, fmt::format("p{}", g - k).c_str());
      if (g == k) {  // L_g >= p: this module and the ones after it
        isl_constraint* c = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_set_get_space(xfer.get())));
        c = isl_constraint_set_coefficient_si(c, isl_dim_set, static_cast<int>(g), 1);
        c = isl_constraint_set_coefficient_si(c, isl_dim_param, p, -1);
        xfer = isl::manage(isl_set_add_constraint(xfer.release(), c));
      } else {
        xfer = isl::manage(isl_set_equate(xfer.release(), isl_dim_param, p, isl_dim_set, static_cast<int>(g)));
      }
    }
    std::vector<isl::aff> order;  // highest cluster dim first, then the words
    for (size_t g = m; g-- > 0;) order.push_back(comm_isl::var_on(xfer_space, static_cast<int>(g)));
    for (int i = 0; i < elems; ++i) order.push_back(comm_isl::var_on(xfer_space, static_cast<int>(m) + i));
    isl::union_map xfer_schedule(comm_isl::map_of(xfer_space, order, "s").intersect_domain(xfer));
    // Own leaf at this level: L_{k+1} == own coordinate (p0).
    isl::set own = xfer, later = xfer;
    if (!top) {
      int p0 = isl_set_find_dim_by_name(xfer.get(), isl_dim_param, "p0");
      own = isl::manage(isl_set_equate(xfer.copy(), isl_dim_param, p0, isl_dim_set, static_cast<int>(k)));
      // xfer has L_k >= p0 (above): the later leaves are L_k >= p0 + 1, a constraint, not a difference.
      isl_constraint* c = isl_constraint_alloc_inequality(isl_local_space_from_space(isl_set_get_space(xfer.get())));
      c = isl_constraint_set_coefficient_si(c, isl_dim_set, static_cast<int>(k), 1);
      c = isl_constraint_set_coefficient_si(c, isl_dim_param, p0, -1);
      c = isl_constraint_set_constant_si(c, -1);
      later = isl::manage(isl_set_add_constraint(xfer.copy(), c));
    }
    // A word's position in the buffer: its first element minus the origin of its leaf's chunk.
    std::vector<isl::pw_aff> position;
    if (buffered && point_.operation_expressions) {
      for (int i = 0; i < elems; ++i) {
        // The chunk's origin over the leaf's coordinates: its origin over the params p0.., known.
        isl_multi_pw_aff* by_params = isl_multi_pw_aff_from_pw_aff(
            isl_pw_aff_align_params(chunk_origin(n)[static_cast<size_t>(i)].copy(), params_.copy()));
        isl_multi_pw_aff* by_leaf_coords = isl_multi_pw_aff_unbind_params_insert_domain(by_params, leaves.copy());
        isl::pw_aff origin = isl::manage(isl_multi_pw_aff_get_at(by_leaf_coords, 0));
        isl_multi_pw_aff_free(by_leaf_coords);
        origin = isl::manage(isl_pw_aff_align_params(origin.release(), chunk_t.get_space().release()));
        origin = isl::manage(isl_pw_aff_pullback_pw_multi_aff(origin.release(), to_leaf.copy()));
        isl::pw_aff at = isl::manage(isl_pw_multi_aff_get_at(first_element.get(), i));
        // Not restricted to xfer: a call evaluates it only there, and the restriction costs more
        // than the rest of the module.
        position.push_back(at.sub(origin).coalesce());
      }
    }
    auto xfer_ops = [&, buffered, top, up, down, chain, buffer](const std::string&, const node_context& at) {
      op_block b;
      b.statement = "xfer";
      auto op = [&](operation::kind what, int port, int buf, const isl::set& when, bool indexed) {
        operation o;
        o.what = what;
        o.port = port;
        o.buffer = buf;
        o.lanes = pack;
        bool dram = what == operation::kind::read_dram || what == operation::kind::write_dram;
        if (!when.is_null() && point_.operation_expressions) o.when = at.condition(when);
        if (indexed && !dram)
          for (const auto& x : position) o.index.push_back(at.value(x));
        if (dram && point_.operation_expressions) o.index = at.values(first_element);
        b.ops.push_back(o);
      };
      isl::set none;
      if (in) {
        if (top) op(operation::kind::read_dram, -1, -1, none, true);
        else op(operation::kind::read_port, up, -1, none, false);
        if (buffered) op(operation::kind::write_local, -1, buffer, own, true);
        else op(operation::kind::write_port, down, -1, top ? none : own, false);
        if (!top) op(operation::kind::write_port, chain, -1, later, false);
      } else {
        if (buffered) op(operation::kind::read_local, -1, buffer, own, true);
        else op(operation::kind::read_port, down, -1, top ? none : own, false);
        if (!top) op(operation::kind::read_port, chain, -1, later, false);
        if (top) op(operation::kind::write_dram, -1, -1, none, true);
        else op(operation::kind::write_port, up, -1, none, false);
      }
      return b;
    };
    isl::set context = params_only_context(extents);
    module_part transfer = make_part(buffered ? (in ? "fill" : "send") : "transfer", !in && buffered && n.double_buffered,
                                     xfer_schedule, context, xfer_ops, point_.isl_programs);
    transfer.iterates = module_part::iteration::chunk_words;
    if (buffered) {
      // The PE side: one token per PE read (or write) of the leaf PE, in the PE's order.
      module_part pe_side = pe_side_part(n, down, buffer, extents);
      if (in) {
        pe_side.previous_tile = n.double_buffered;
        mod.parts.push_back(std::move(transfer));
        mod.parts.push_back(std::move(pe_side));
      } else {
        mod.parts.push_back(std::move(pe_side));
        mod.parts.push_back(std::move(transfer));
      }
    } else {
      mod.parts.push_back(std::move(transfer));
    }
    // The last module of a chain has no downstream port.
    n.level_kinds.emplace_back();
    std::vector<std::vector<int64_t>> inner, last;
    for (const auto& c : mod.instances)
      (top || c[0] + 1 < extents[0] ? inner : last).push_back(c);
    if (!last.empty()) {
      module_kind boundary = without_port(mod, chain);
      boundary.instances = last;
      mod.instances = inner;
      if (!inner.empty()) {
        n.level_kinds.back().push_back(static_cast<int>(out_.modules.size()));
        out_.modules.push_back(std::move(mod));
      }
      n.level_kinds.back().push_back(static_cast<int>(out_.modules.size()));
      out_.modules.push_back(std::move(boundary));
    } else {
      n.level_kinds.back().push_back(static_cast<int>(out_.modules.size()));
      out_.modules.push_back(std::move(mod));
    }
  }
}

}  // namespace sadsl::comm_detail
