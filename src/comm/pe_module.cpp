// The PE module kind: its ports (chains to its neighbours, interior networks), its local buffers
// and its program (the design's instances at its coordinates, in tile-local coordinates, with each
// read's source and each write's destinations as guarded operations).
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/union_map.h>

#include <fmt/format.h>

#include "construction.hpp"
#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

const access_route* find_route(const std::vector<access_route>& routes, const access_ref& a) {
  for (const auto& r : routes)
    if (r.access == a) return &r;
  return nullptr;
}

int add_port(module_kind& k, std::string name, bool input, elem_type e, int64_t lanes, const tensor_id& t) {
  for (size_t i = 0; i < k.ports.size(); ++i)
    if (k.ports[i].name == name) return static_cast<int>(i);
  k.ports.push_back({std::move(name), input, e, lanes, t});
  return static_cast<int>(k.ports.size()) - 1;
}

// An operation before its expressions exist: what, where, and the frame points it runs at.
struct planned_op {
  operation::kind what = operation::kind::compute;
  int port = -1, buffer = -1, slot = 0;
  int from_statement = -1, from_slot = -1;
  int64_t lanes = 1;
  bool vector = false;
  std::optional<isl::set> when;        // over the frame
  std::vector<isl::pw_aff> index;      // over the frame
};

planned_op plan_op(operation::kind what, int port, int buffer, int slot) {
  planned_op op;
  op.what = what;
  op.port = port;
  op.buffer = buffer;
  op.slot = slot;
  return op;
}

}  // namespace

void arch_builder::build_pe() {
  module_kind pe;
  pe.name = "PE";
  pe.role = module_role::pe;
  for (int dim = 0; dim < static_cast<int>(grid_.size()); ++dim) pe.index_dims.push_back(dim);
  std::vector<pe_coordinate> own(grid_.size());
  for (size_t i = 0; i < grid_.size(); ++i) own[i].param = static_cast<int>(i);

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
  std::map<std::pair<tensor_id, std::pair<bool, io_group_kind>>, int> interior_port;
  for (auto& n : networks_) {
    if (n.edge_dim) {
      auto [in, out] = chain(n.info.tensor, *n.edge_dim, n.token_lanes);
      n.pe_port = n.info.input ? in : out;
    } else {
      n.pe_port = add_port(pe, n.info.name + (n.info.input ? "_in" : "_out"), n.info.input, element_of(n.info.tensor),
                           n.token_lanes, n.info.tensor);
      interior_port[{n.info.tensor, {n.info.input, n.info.kind}}] = n.pe_port;
    }
  }
  auto read_only = [&](const tensor_id& t) {
    return std::none_of(prog_.arrays().begin(), prog_.arrays().end(),
                        [&](const array_info& x) { return x.tensor->id() == t && x.written; });
  };

  // Frames, and the PE's local buffers: the values of each written tensor that stay in it.
  std::map<statement_id, local_frame> frames;
  for (const auto& s : prog_.statements()) frames.emplace(s.id, frame_of(s, own, s.name()));
  // Each route class's points in its statement's frame, made once: the local ones give both the
  // buffers' footprints and the operations' conditions.
  std::map<const isl::union_set*, isl::set> class_points;
  auto points_of = [&](const statement_info& s, const isl::union_set& u) -> const isl::set& {
    auto it = class_points.find(&u);
    if (it == class_points.end()) it = class_points.emplace(&u, frame_points(frames.at(s.id), u.extract_set(s.domain.space()))).first;
    return it->second;
  };
  std::map<tensor_id, isl::set> footprint;
  auto add_local = [&](const access_route& r) {
    if (r.local.is_empty()) return;
    const statement_info& s = prog_.statement(r.access.statement);
    const local_frame& f = frames.at(s.id);
    isl::set elements = points_of(s, r.local).apply(isl::manage(isl_map_from_pw_multi_aff(index_on(f, r.access).release())));
    auto [it, inserted] = footprint.emplace(r.tensor, elements);
    if (!inserted) it->second = it->second.unite(elements);
  };
  for (const auto& r : routes_.reads) add_local(r);
  for (const auto& w : routes_.writes) add_local(w);
  std::map<tensor_id, std::vector<isl::pw_aff>> origin;
  for (auto& [t, elements] : footprint) {
    elements = elements.coalesce();  // the reads' and writes' elements: one conjunction (its origin with integers)
    // A buffer that lives across tiles keeps each element in one place in all of them: its box
    // is the union of theirs, not each tile's own (a partial tile of a guarded design touches
    // fewer elements, so its own box would start elsewhere).
    if (routes_.persists.at(t))
      for (size_t j = routes_.key_loops.at(t); j < d_.tile_order.size(); ++j) {
        int pos = isl_set_find_dim_by_name(elements.get(), isl_dim_param, fmt::format("t{}", j).c_str());
        if (pos >= 0) elements = isl::manage(isl_set_project_out(elements.release(), isl_dim_param, static_cast<unsigned>(pos), 1));
      }
    local_buffers_[t] = static_cast<int>(pe.buffers.size());
    if (point_.operation_expressions) origin[t] = origin_of(elements);
    pe.buffers.push_back({"local_" + t.name(), t, element_of(t), box_extents(elements), false});
  }

  // Each statement's operations, planned over its frame.
  std::map<std::string, std::vector<planned_op>> plans;
  std::map<std::string, int> statement_index;
  isl::union_map schedule = isl::union_map::empty(params_.ctx());
  for (size_t si = 0; si < prog_.statements().size(); ++si) {
    const statement_info& s = prog_.statements()[si];
    const local_frame& f = frames.at(s.id);
    statement_index[s.name()] = static_cast<int>(si);
    schedule = schedule.unite(frame_schedule(f, static_cast<int64_t>(si)));
    std::vector<planned_op>& ops = plans[s.name()];
    // Without expressions an operation's points only tell whether it runs: every instance has a
    // point in the PE's frame, so the class's own instances tell as much (the local classes'
    // points are made anyway, for the buffers).
    auto points = [&](const isl::union_set& u) {
      if (!point_.operation_expressions && !class_points.count(&u)) return u.extract_set(s.domain.space());
      return points_of(s, u);
    };
    auto port_op = [&](operation::kind what, int port, int slot, const access_ref& a, const isl::set& when) {
      planned_op op = plan_op(what, port, -1, slot);
      op.lanes = token_lanes(a, op.vector);
      op.when = when;
      ops.push_back(std::move(op));
    };
    auto local_op = [&](operation::kind what, const access_ref& a, int slot, const isl::set& when) {
      const access_info& acc = s.access(a);
      planned_op op = plan_op(what, -1, local_buffers_.at(acc.tensor->id()), slot);
      op.when = when;
      if (point_.operation_expressions) op.index = index_in_buffer(f, a, origin.at(acc.tensor->id()));
      ops.push_back(std::move(op));
    };
    for (size_t r = 0; r < s.reads.size(); ++r) {
      access_ref a{s.id, static_cast<int>(r)};
      const access_route* route = find_route(routes_.reads, a);
      SADSL_INTERNAL_ASSERT(route, "no route for a read");
      int slot = static_cast<int>(r);
      if (isl::set x = points(route->local); !x.is_empty()) local_op(operation::kind::read_local, a, slot, x);
      if (isl::set x = points(route->chain); !x.is_empty()) {
        auto [in, out] = chain(route->tensor, *route->chain_dim, 1);
        port_op(operation::kind::read_port, in, slot, a, x);
        if (read_only(route->tensor)) port_op(operation::kind::write_port, out, slot, a, x);  // forward it
      }
      if (isl::set x = points(route->network); !x.is_empty()) {
        io_group_kind kind = read_only(route->tensor) ? io_group_kind::read : io_group_kind::flow;
        port_op(operation::kind::read_port, interior_port.at({route->tensor, {true, kind}}), slot, a, x);
      }
      for (const auto& [from, held] : route->shared)  // an earlier read of the iteration holds the element
        if (isl::set x = points(held); !x.is_empty()) {
          planned_op op = plan_op(operation::kind::copy_register, -1, -1, slot);
          op.from_statement = statement_index.at(prog_.statement(from.statement).name());
          op.from_slot = from.read;
          op.when = x;
          ops.push_back(std::move(op));
        }
    }
    int result = static_cast<int>(s.reads.size());
    ops.push_back(plan_op(operation::kind::compute, -1, -1, result));
    access_ref w{s.id, -1};
    const access_route* route = find_route(routes_.writes, w);
    SADSL_INTERNAL_ASSERT(route, "no route for a write");
    if (isl::set x = points(route->local); !x.is_empty()) local_op(operation::kind::write_local, w, result, x);
    if (isl::set x = points(route->chain); !x.is_empty())
      port_op(operation::kind::write_port, chain(route->tensor, *route->chain_dim, 1).second, result, w, x);
    if (isl::set x = points(route->network); !x.is_empty())
      port_op(operation::kind::write_port, interior_port.at({route->tensor, {false, io_group_kind::flow}}), result, w, x);
    if (isl::set x = points(route->drain); !x.is_empty())
      port_op(operation::kind::write_port, interior_port.at({route->tensor, {false, io_group_kind::output}}), result, w, x);
  }

  block_maker make = [&](const std::string& tuple, const node_context& at) {
    op_block b;
    b.statement = tuple;
    b.statement_index = statement_index.at(tuple);
    const local_frame& f = frames.at(prog_.statement(tuple).id);
    isl::ast_expr lane = at.value(comm_isl::var_on_set(f.domain, -1));
    for (const auto& p : plans.at(tuple)) {
      operation op;
      op.what = p.what, op.port = p.port, op.buffer = p.buffer, op.slot = p.slot, op.lanes = p.lanes, op.vector = p.vector;
      op.from_statement = p.from_statement, op.from_slot = p.from_slot;
      if (p.vector) op.lane = lane;
      if (p.when && point_.operation_expressions) op.when = at.condition(*p.when);
      for (const auto& x : p.index) op.index.push_back(at.value(x));
      b.ops.push_back(std::move(op));
    }
    return b;
  };
  // Atomic: isl would otherwise write some instances of a statement apart from its loop where the
  // tiles of two loops are not aligned (LU's PE with j_t1 not dividing k_t1: its `j == k`
  // statements as a block before the pipelined loop, three units a point where the loop's branch
  // is one), so the PE's shape, and its cycles, would follow the tiling and not its instances
  // alone. The I/O modules' parts keep isl's shape: atomic, a transfer split in two pieces would
  // run one loop over their hull, with idle iterations between them.
  pe.parts.push_back(make_part("compute", false, schedule, params_only_context(grid_), make, point_.isl_programs,
                               isl_loops::atomic));
  out_.modules.push_back(std::move(pe));
}

}  // namespace sadsl::comm_detail
