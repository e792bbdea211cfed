// The PE module kind: its ports (chains to its neighbours, interior networks), its local buffers
// and its program (the design's instances at its coordinates, with each read's source and each
// write's destinations as guarded operations).
#include <isl/map.h>
#include <isl/union_map.h>

#include <fmt/format.h>

#include "construction.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

const access_route* find_route(const std::vector<access_route>& routes, const access_ref& a) {
  for (const auto& r : routes)
    if (r.access == a) return &r;
  return nullptr;
}

isl::set part_of(const isl::union_set& u, const statement_info& s) {
  return u.extract_set(s.domain.space());
}

int add_port(module_kind& k, std::string name, bool input, elem_type e, int64_t lanes, const tensor_id& t) {
  for (size_t i = 0; i < k.ports.size(); ++i)
    if (k.ports[i].name == name) return static_cast<int>(i);
  k.ports.push_back({std::move(name), input, e, lanes, t});
  return static_cast<int>(k.ports.size()) - 1;
}

}  // namespace

void arch_builder::build_pe() {
  module_kind pe;
  pe.name = "PE";
  pe.role = module_role::pe;
  for (int dim = 0; dim < static_cast<int>(grid_.size()); ++dim) pe.index_dims.push_back(dim);
  // Chain ports: one pair per (tensor, dim) whose data move along a space loop.
  std::map<std::pair<tensor_id, int>, std::pair<int, int>> chain_ports;
  auto chain = [&](const tensor_id& t, int dim, int64_t lanes) -> std::pair<int, int> {
    auto it = chain_ports.find({t, dim});
    if (it != chain_ports.end()) return it->second;
    bool other = std::any_of(chain_ports.begin(), chain_ports.end(), [&](const auto& c) { return c.first.first == t; });
    std::string base = other ? fmt::format("{}_{}", t.name(), d_.space[static_cast<size_t>(dim)].name()) : t.name();
    int in = add_port(pe, base + "_in", true, element_of(t), lanes, t);
    int out = add_port(pe, base + "_out", false, element_of(t), lanes, t);
    return chain_ports[{t, dim}] = {in, out};
  };
  bool vector = false;
  for (const auto& r : routes_.reads)
    if (r.chain_dim && !r.chain.is_empty()) chain(r.tensor, *r.chain_dim, token_lanes(r.access, vector));
  for (const auto& w : routes_.writes)
    if (w.chain_dim && !w.chain.is_empty()) chain(w.tensor, *w.chain_dim, token_lanes(w.access, vector));
  std::map<size_t, int> network_port;
  for (size_t i = 0; i < networks_.size(); ++i) {
    network_plan& n = networks_[i];
    if (n.edge_dim) {
      auto [in, out] = chain(n.info.tensor, *n.edge_dim, n.token_lanes);
      n.pe_port = n.info.input ? in : out;
    } else {
      n.pe_port = add_port(pe, n.info.name + (n.info.input ? "_in" : "_out"), n.info.input, element_of(n.info.tensor),
                           n.token_lanes, n.info.tensor);
    }
    network_port[i] = n.pe_port;
  }
  // Local buffers: the PE's values of each written tensor that stay in it.
  isl::union_map key = isl::manage(isl_union_map_flat_range_product(maps_.tile.copy(), maps_.pe.copy()));
  std::map<tensor_id, isl::union_map> local_chunks;
  auto add_local = [&](const access_route& r) {
    if (r.local.is_empty()) return;
    isl::union_map index(isl::manage(isl_map_from_pw_multi_aff(stored_index(r.access).release())));
    isl::union_map chunk = key.intersect_domain(r.local).reverse().apply_range(index);
    auto [it, inserted] = local_chunks.emplace(r.tensor, chunk);
    if (!inserted) it->second = it->second.unite(chunk);
  };
  for (const auto& r : routes_.reads) add_local(r);
  for (const auto& w : routes_.writes) add_local(w);
  for (const auto& [t, chunk] : local_chunks) {
    local_buffers_[t] = static_cast<int>(pe.buffers.size());
    local_origin_[t] = chunk;
    pe.buffers.push_back({"local_" + t.name(), t, element_of(t), box_extents(chunk), false});
  }
  auto network_of = [&](const tensor_id& t, bool input, io_group_kind kind) -> int {
    for (size_t i = 0; i < networks_.size(); ++i) {
      const network_plan& n = networks_[i];
      if (n.info.tensor == t && n.info.input == input && n.info.kind == kind && !n.edge_dim) return network_port.at(i);
    }
    SADSL_INTERNAL_ASSERT(false, "no network for " + t.name());
  };
  auto read_only = [&](const tensor_id& t) {
    return std::none_of(prog_.arrays().begin(), prog_.arrays().end(),
                        [&](const array_info& x) { return x.tensor->id() == t && x.written; });
  };

  block_maker ops = [&](const std::string& tuple, const node_context& at) {
    const statement_info& s = statement(tuple);
    op_block b;
    b.statement = s.name();
    for (size_t i = 0; i < prog_.statements().size(); ++i)
      if (prog_.statements()[i].id == s.id) b.statement_index = static_cast<int>(i);
    isl::ast_expr lane = at.value(lane_of(s));
    auto port_op = [&](operation::kind what, int port, int slot, const access_ref& a, const isl::set& when) {
      operation op;
      op.what = what;
      op.port = port;
      op.slot = slot;
      op.lanes = token_lanes(a, op.vector);
      if (op.vector) op.lane = lane;
      op.when = at.condition(when);
      b.ops.push_back(op);
    };
    auto local_op = [&](operation::kind what, const access_ref& a, int slot, const isl::set& when) {
      const access_info& acc = s.access(a);
      operation op;
      op.what = what;
      op.buffer = local_buffers_.at(acc.tensor->id());
      op.slot = slot;
      for (const auto& x : position_in_box(stored_index(a), key, local_origin_.at(acc.tensor->id()), s.domain.intersect_params(maps_.params)))
        op.index.push_back(at.value(x));
      op.when = at.condition(when);
      b.ops.push_back(op);
    };
    for (size_t r = 0; r < s.reads.size(); ++r) {
      access_ref a{s.id, static_cast<int>(r)};
      const access_route* route = find_route(routes_.reads, a);
      SADSL_INTERNAL_ASSERT(route, "no route for a read");
      int slot = static_cast<int>(r);
      if (isl::set x = part_of(route->local, s); !x.is_empty()) local_op(operation::kind::read_local, a, slot, x);
      if (isl::set x = part_of(route->chain, s); !x.is_empty()) {
        auto [in, out] = chain(route->tensor, *route->chain_dim, 1);
        port_op(operation::kind::read_port, in, slot, a, x);
        if (read_only(route->tensor)) port_op(operation::kind::write_port, out, slot, a, x);  // forward it
      }
      if (isl::set x = part_of(route->network, s); !x.is_empty()) {
        io_group_kind kind = read_only(route->tensor) ? io_group_kind::read : io_group_kind::flow;
        port_op(operation::kind::read_port, network_of(route->tensor, true, kind), slot, a, x);
      }
    }
    int result = static_cast<int>(s.reads.size());
    operation compute;
    compute.what = operation::kind::compute;
    compute.slot = result;
    b.ops.push_back(compute);
    access_ref w{s.id, -1};
    const access_route* route = find_route(routes_.writes, w);
    SADSL_INTERNAL_ASSERT(route, "no route for a write");
    if (isl::set x = part_of(route->local, s); !x.is_empty()) local_op(operation::kind::write_local, w, result, x);
    if (isl::set x = part_of(route->chain, s); !x.is_empty())
      port_op(operation::kind::write_port, chain(route->tensor, *route->chain_dim, 1).second, result, w, x);
    if (isl::set x = part_of(route->network, s); !x.is_empty())
      port_op(operation::kind::write_port, network_of(route->tensor, false, io_group_kind::flow), result, w, x);
    if (isl::set x = part_of(route->drain, s); !x.is_empty())
      port_op(operation::kind::write_port, network_of(route->tensor, false, io_group_kind::output), result, w, x);
    return b;
  };
  isl::union_set instances = at_tile_and_pe(maps_.domain);
  pe.parts.push_back(make_part("compute", false, maps_.local.intersect_domain(instances), params_only_context(grid_), ops));
  out_.modules.push_back(std::move(pe));
}

}  // namespace sadsl::comm_detail
