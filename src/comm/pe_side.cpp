// The part of a buffered I/O module that serves its leaf PE: it runs the PE's own instances of
// the network's accesses, in the PE's order, one token each (one per SIMD vector when the lanes
// share a token), reading them from its buffer (feed) or storing them into it (collect).
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

std::string tuple_of(const access_ref& a) {
  return a.is_write() ? a.statement.name() + "_w" : fmt::format("{}_r{}", a.statement.name(), a.read);
}

}  // namespace

module_part arch_builder::pe_side_part(const network_plan& n, int port, int buffer, const std::vector<int64_t>& extents) {
  // The leaf PE: its grid coordinates are the module's p0.., its edge coordinate the chain's
  // first PE (inputs) or last PE (outputs).
  isl_space* sp = isl_space_set_from_params(params_.copy());
  sp = isl_space_add_dims(sp, isl_dim_set, static_cast<unsigned>(grid_.size()));
  sp = isl_space_set_tuple_name(sp, isl_dim_set, "pe");
  isl_set* pe = isl_set_universe(sp);
  for (size_t g = 0; g < n.grid.size(); ++g) {
    int p = isl_set_find_dim_by_name(pe, isl_dim_param, fmt::format("p{}", g).c_str());
    pe = isl_set_equate(pe, isl_dim_param, p, isl_dim_set, n.grid[g]);
  }
  if (n.edge_dim)
    pe = isl_set_fix_si(pe, isl_dim_set, static_cast<unsigned>(*n.edge_dim),
                        n.info.input ? 0 : static_cast<int>(grid_[static_cast<size_t>(*n.edge_dim)] - 1));
  isl::union_set at_pe = isl::union_set(isl::manage(pe)).apply(maps_.pe.reverse());
  isl::union_set at_tile = isl::union_set(fixed_to_params(params_, "tile", d_.tile_order.size(), "t")).apply(maps_.tile.reverse());
  isl::union_map key = leaf_key(n), all_chunks = chunks(n);

  struct access_part {
    access_ref access;
    isl::set instances;  // renamed to the access's tuple
    isl::pw_multi_aff index;
    isl::union_map key;
    int64_t lanes;
  };
  std::vector<access_part> parts;
  isl::union_map schedule = isl::union_map::empty(params_.ctx());
  for (size_t i = 0; i < n.accesses.size(); ++i) {
    const access_ref& a = n.accesses[i].access;
    const statement_info& s = prog_.statement(a.statement);
    std::string tuple = tuple_of(a);
    isl::set x = n.accesses[i].instances.intersect(at_pe).intersect(at_tile).extract_set(
        isl::manage(isl_space_align_params(s.domain.space().release(), params_.copy())));
    bool vector = false;
    int64_t lanes = token_lanes(a, vector);
    if (vector) x = x.intersect(isl::set(isl::manage(isl_pw_aff_zero_set(lane_of(s).release()))));
    isl::map local = isl::manage(isl_map_from_union_map(maps_.local.intersect_domain(isl::union_set(x)).release()));
    std::vector<isl::aff> pos{comm_isl::constant_on(s.domain.space(), static_cast<int64_t>(i))};
    local = isl::manage(isl_map_flat_range_product(local.release(),
                                                   comm_isl::map_of(s.domain.space(), pos, "pos").release()));
    local = isl::manage(isl_map_set_tuple_name(local.release(), isl_dim_in, tuple.c_str()));
    schedule = schedule.unite(isl::union_map(local));
    isl::map k = isl::manage(isl_map_from_union_map(key.intersect_domain(isl::union_set(x)).release()));
    k = isl::manage(isl_map_set_tuple_name(k.release(), isl_dim_in, tuple.c_str()));
    isl_pw_multi_aff* renamed_index = stored_index(a).release();
    renamed_index = isl_pw_multi_aff_set_tuple_id(renamed_index, isl_dim_in,
                                                  isl_id_alloc(isl_pw_multi_aff_get_ctx(renamed_index), tuple.c_str(), nullptr));
    isl::pw_multi_aff index = isl::manage(renamed_index);
    parts.push_back({a, comm_isl::renamed(x, tuple), index, isl::union_map(k), lanes});
  }
  const bool in = n.info.input;
  block_maker ops = [&](const std::string& tuple, const node_context& at) {
    op_block b;
    b.statement = tuple;
    for (const auto& p : parts) {
      if (isl_set_get_tuple_name(p.instances.get()) != tuple) continue;
      operation local, fifo;
      local.what = in ? operation::kind::read_local : operation::kind::write_local;
      local.buffer = buffer;
      local.lanes = p.lanes;
      for (const auto& x : position_in_box(p.index, p.key, all_chunks, p.instances)) local.index.push_back(at.value(x));
      fifo.what = in ? operation::kind::write_port : operation::kind::read_port;
      fifo.port = port;
      fifo.lanes = p.lanes;
      if (in) b.ops = {local, fifo};
      else b.ops = {fifo, local};
    }
    return b;
  };
  return make_part(in ? "feed" : "collect", false, schedule, params_only_context(extents), ops);
}

}  // namespace sadsl::comm_detail
