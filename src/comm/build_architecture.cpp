// build_architecture: the steps of the architecture builder, in order.
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>

#include <fmt/format.h>

#include "construction.hpp"
#include "sadsl/comm/fifo_depths.hpp"
#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

std::string_view padding_mode_name(padding_mode m) { return m == padding_mode::zero_padded ? "zero-padded" : "guarded"; }

std::string_view memory_kind_name(memory_kind m) {
  switch (m) {
    case memory_kind::registers: return "registers";
    case memory_kind::bram: return "BRAM";
    case memory_kind::uram: return "URAM";
  }
  return "?";
}

std::string_view module_role_name(module_role r) {
  switch (r) {
    case module_role::pe: return "PE";
    case module_role::io_in: return "I/O in";
    case module_role::io_out: return "I/O out";
    case module_role::dummy_source: return "dummy source";
    case module_role::dummy_sink: return "dummy sink";
  }
  return "?";
}

int64_t buffer::size() const {
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  return n;
}

int64_t architecture::pe_count() const {
  int64_t n = 1;
  for (int64_t e : pe_grid) n *= e;
  return n;
}

namespace comm_detail {

namespace {

// The points of a set, lexicographically.
std::vector<std::vector<int64_t>> points_of(const isl::set& s) {
  std::vector<std::vector<int64_t>> out;
  s.foreach_point([&](isl::point p) {
    std::vector<int64_t> v;
    int n = static_cast<int>(isl_set_dim(s.get(), isl_dim_set));
    for (int i = 0; i < n; ++i) v.push_back(isl::manage(isl_point_get_coordinate_val(p.get(), isl_dim_set, i)).get_num_si());
    out.push_back(std::move(v));
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

architecture arch_builder::build() {
  out_.owner = d_.band->owner;
  out_.design = std::make_shared<const design>(d_);
  out_.point = point_;
  out_.padding = pad_.zero_padded ? padding_mode::zero_padded : padding_mode::guarded;
  out_.reduction_reordered = maps_.reduction_reordered;
  out_.pe_grid = grid_;
  out_.param_values = pad_.values;
  out_.groups = io_groups(d_);
  out_.phase_loops = routes_.phase_loops;
  plan_networks();
  build_pe();
  for (auto& n : networks_) build_network_modules(n);
  wire();
  for (const auto& n : networks_) out_.networks.push_back(n.info);
  build_tiles();
  build_layouts();
  place_buffers();
  size_fifos(out_);
  return std::move(out_);
}

// Banks: the widest access to a buffer moves that many elements per cycle, so its last dimension
// is split cyclically into as many banks. Memory: registers when tiny, URAM on request when large.
void arch_builder::place_buffers() {
  for (auto& k : out_.modules)
    for (size_t b = 0; b < k.buffers.size(); ++b) {
      buffer& buf = k.buffers[b];
      for (const auto& part : k.parts)
        for (const auto& block : part.blocks)
          for (const auto& op : block.ops)
            if (op.buffer == static_cast<int>(b)) buf.banks = std::max(buf.banks, op.lanes);
      int64_t per_bank = (buf.size() + buf.banks - 1) / buf.banks;
      buf.memory = buf.size() <= register_buffer_elements ? memory_kind::registers
                   : point_.prefer_uram && per_bank >= 4096 ? memory_kind::uram : memory_kind::bram;
    }
}

void arch_builder::build_tiles() {
  isl::set tiles = isl::manage(isl_set_from_union_set(maps_.tile.range().release()));
  // The phases: the values of the tile loops that run on the host.
  std::vector<int> phase(routes_.phase_loops.begin(), routes_.phase_loops.end());
  isl::set phase_values = tiles;
  for (int j = static_cast<int>(d_.tile_order.size()); j-- > 0;)
    if (std::find(phase.begin(), phase.end(), j) == phase.end())
      phase_values = isl::manage(isl_set_project_out(phase_values.release(), isl_dim_set, static_cast<unsigned>(j), 1));
  out_.phases = phase.empty() ? std::vector<std::vector<int64_t>>{{}} : points_of(phase_values);
  // One phase's tiles: the phase loops are the parameters t_j.
  isl::set in_phase = isl::manage(isl_set_align_params(tiles.release(), params_.copy()));
  for (int j : phase) {
    int p = isl_set_find_dim_by_name(in_phase.get(), isl_dim_param, fmt::format("t{}", j).c_str());
    in_phase = isl::manage(isl_set_equate(in_phase.release(), isl_dim_param, p, isl_dim_set, j));
  }
  std::vector<isl::aff> identity;
  for (int j = 0; j < static_cast<int>(d_.tile_order.size()); ++j) identity.push_back(comm_isl::var_on(in_phase.space(), j));
  isl::union_map schedule(comm_isl::map_of(in_phase.space(), identity, "s").intersect_domain(in_phase));
  isl::set context = isl::manage(isl_set_align_params(maps_.params.copy(), params_.copy()));
  block_maker tile = [](const std::string&, const node_context&) { return op_block{"tile", -1, {}}; };
  out_.tiles = make_part("tiles", false, schedule, context, tile, point_.isl_programs).program;
}

void arch_builder::build_layouts() {
  for (const auto& a : prog_.arrays()) {
    tensor_id t = a.tensor->id();
    bool in_dram = std::any_of(networks_.begin(), networks_.end(), [&](const network_plan& n) { return n.info.tensor == t; });
    if (!in_dram) continue;
    host_layout l;
    l.tensor = t;
    l.element = a.tensor->type;
    l.scratch = a.tensor->role == tensor_role::local;
    std::vector<int64_t> extents;
    for (const auto& e : a.tensor->extents)
      extents.push_back(e.evaluate([&](const detail::symbol_node& s) { return pad_.values.at(s.param_identity()); }));
    for (size_t i = 0; i < extents.size(); ++i) l.order.push_back(static_cast<int>(i));
    for (const auto& x : d_.layouts)
      if (x.tensor == t) l.order = x.order;
    for (int o : l.order) l.extents.push_back(extents[static_cast<size_t>(o)]);
    out_.layouts.push_back(std::move(l));
  }
}

}  // namespace comm_detail

architecture build_architecture(const design& d, const architecture_point& p) {
  try {
    return comm_detail::arch_builder(d, p).build();
  } catch (const isl::exception& e) {
    throw internal_error(fmt::format("isl failed while building the architecture of design {}: {}", d.name(), e.what()));
  }
}

}  // namespace sadsl
