// The part of a buffered I/O module that serves its leaf PE: it runs the PE's own instances of
// the network's accesses, in the PE's order (over the PE's tile-local frame), one token each (one
// per SIMD vector when the lanes share a token), reading them from its buffer (feed) or storing
// them into it (collect).
#include <isl/aff.h>
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
  struct access_part {
    std::string tuple;
    int64_t lanes;
    std::vector<isl::pw_aff> position;  // in the buffer, over the frame
  };
  std::vector<access_part> parts;
  isl::union_map schedule = isl::union_map::empty(params_.ctx());
  for (size_t i = 0; i < n.accesses.size(); ++i) {
    const access_ref& a = n.accesses[i].access;
    const statement_info& s = prog_.statement(a.statement);
    std::string tuple = tuple_of(a);
    local_frame f = frame_of(s, leaf_pe(n), tuple);
    f.domain = comm_isl::renamed(leaf_points(n, i), tuple);
    f.whole = false;
    bool vector = false;
    int64_t lanes = token_lanes(a, vector);
    if (vector)  // one token per SIMD vector: its lane 0
      f.domain = f.domain.intersect(isl::manage(isl_pw_aff_zero_set(comm_isl::var_on_set(f.domain, -1).release())));
    schedule = schedule.unite(frame_schedule(f, static_cast<int64_t>(i)));
    access_part p{tuple, lanes, {}};
    if (point_.operation_expressions) p.position = index_in_buffer(f, a, chunk_origin(n));
    parts.push_back(std::move(p));
  }
  const bool in = n.info.input;
  block_maker ops = [&](const std::string& tuple, const node_context& at) {
    op_block b;
    b.statement = tuple;
    for (const auto& p : parts) {
      if (p.tuple != tuple) continue;
      operation local, fifo;
      local.what = in ? operation::kind::read_local : operation::kind::write_local;
      local.buffer = buffer;
      local.lanes = p.lanes;
      for (const auto& x : p.position) local.index.push_back(at.value(x));
      fifo.what = in ? operation::kind::write_port : operation::kind::read_port;
      fifo.port = port;
      fifo.lanes = p.lanes;
      if (in) b.ops = {local, fifo};
      else b.ops = {fifo, local};
    }
    return b;
  };
  return make_part(in ? "feed" : "collect", false, schedule, params_only_context(extents), ops, point_.isl_programs);
}

}  // namespace sadsl::comm_detail
