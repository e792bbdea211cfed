// The symbolic architecture at a point (counts_at), a concrete architecture's counts (counts_of), and their
// readable forms. build_symbolic_architecture is in performance_model.cpp, beside the builder
// that reads the template architecture for both.
#include "sadsl/modeling/symbolic_architecture.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

namespace {

using network_key = architecture_counts::network_key;
using module_key = architecture_counts::module_key;

int64_t integer_value(const model::expr& e, const std::vector<double>& values, const std::string& what) {
  double v = model::evaluate(e, values);
  SADSL_INTERNAL_ASSERT(std::isfinite(v) && v == std::floor(v), what + " is not an integer: " + model::to_string(e));
  return static_cast<int64_t>(v);
}

std::string key_text(const module_key& k) {
  if (k.chain) return fmt::format("{} of the PE chain of tensor {}", module_role_name(k.role), k.chain->name());
  if (!k.network) return "PE";
  return fmt::format("{} module of the {} network of tensor {}, level {}{}", module_role_name(k.role), k.network->input ? "input" : "output",
                     k.network->tensor.name(), k.level, k.boundary ? " (boundary)" : "");
}

}  // namespace

std::optional<tensor_id> chain_of(const module_kind& k) {
  if (k.role != module_role::dummy_source && k.role != module_role::dummy_sink) return std::nullopt;
  SADSL_INTERNAL_ASSERT(!k.ports.empty(), "a dummy module without a port: " + k.name);
  return k.ports.front().tensor;
}

namespace {

std::string extents_text(const std::vector<int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

std::string buffer_text(const architecture_counts::buffer_counts& b) {
  return fmt::format("{} banks {}{} BRAM18K {} URAM {}", extents_text(b.extents), b.banks, b.double_buffered ? " x2" : "",
                     b.bram18k, b.uram);
}

std::string exprs_text(const std::vector<model::expr>& v) {
  std::vector<std::string> s;
  for (const auto& e : v) s.push_back(model::to_string(e));
  return fmt::format("[{}]", fmt::join(s, ", "));
}

}  // namespace

architecture_counts counts_at(const symbolic_architecture& a, const design_point& p, const kernel& k) {
  std::vector<double> values = model_point(a.design, a.params, p, k);
  auto point = [&] {
    std::string text;
    for (size_t i = 0; i < a.params.size(); ++i)
      if (std::holds_alternative<factor_id>(a.params[i].origin))
        text += fmt::format("{}{}={}", text.empty() ? "" : " ", a.params[i].name, values[i]);
    return text;
  };
  for (size_t i = 0; i < a.params.size(); ++i)
    for (size_t size : a.params[i].divides)  // a guarded design's first-level factors: whole tiles only
      if (std::fmod(values[size], values[i]) != 0)
        throw error(fmt::format("design {} at {}: the symbolic architecture needs {} to divide {} ({}), where a guarded "
                                "design's tiles are whole; the architecture there is another",
                                a.design, point(), a.params[i].name, a.params[size].name, values[size]));
  for (const auto& c : a.constraints) {
    SADSL_INTERNAL_ASSERT(c.relation == model::constraint::kind::at_least, "a symbolic architecture's constraint: " + c.description);
    if (model::evaluate(c.lhs, values) < model::evaluate(c.rhs, values))
      throw error(fmt::format("design {} at {}: the symbolic architecture needs {}; the architecture there is another",
                              a.design, point(), c.description));
  }
  architecture_counts out;
  for (const auto& g : a.pe_grid) out.pe_grid.push_back(integer_value(g, values, "a PE grid extent"));
  out.fifos = integer_value(a.fifos, values, "the FIFO count");
  for (const auto& mod : a.modules) {
    int64_t instances = integer_value(mod.instances, values, "the instances of " + mod.name);
    if (instances == 0) continue;
    module_key key{std::nullopt, mod.chain, mod.role, mod.level, mod.boundary};
    if (mod.network >= 0) {
      const symbolic_network& n = a.networks.at(static_cast<size_t>(mod.network));
      key.network = network_key{n.tensor, n.kind, n.input};
      out.packs[*key.network] = integer_value(n.pack, values, "the packing of " + n.name);
    }
    architecture_counts::module_counts c;
    c.instances = instances;
    c.fifos_in = integer_value(mod.fifos_in, values, "the FIFOs read by " + mod.name);
    for (const auto& q : mod.ports)
      if (integer_value(q.present, values, "the presence of port " + q.name) == 1)
        c.port_lanes.push_back(integer_value(q.lanes, values, "the lanes of port " + q.name));
    for (const auto& b : mod.buffers) {
      if (integer_value(b.present, values, "the presence of " + b.name) == 0) continue;
      architecture_counts::buffer_counts bc;
      for (const auto& e : b.extents) bc.extents.push_back(integer_value(e, values, "an extent of " + b.name));
      bc.banks = integer_value(b.banks, values, "the banks of " + b.name);
      bc.double_buffered = b.double_buffered;
      bc.bram18k = integer_value(b.bram18k, values, "the BRAM18K of " + b.name);
      bc.uram = integer_value(b.uram, values, "the URAM of " + b.name);
      c.buffers.push_back(std::move(bc));
    }
    SADSL_INTERNAL_ASSERT(out.modules.emplace(key, std::move(c)).second, "two module kinds of one key: " + key_text(key));
  }
  return out;
}

architecture_counts counts_of(const architecture& a) {
  architecture_counts out;
  out.pe_grid = a.pe_grid;
  out.fifos = static_cast<int64_t>(a.fifos.size());
  for (const auto& mod : a.modules) {
    module_key key{std::nullopt, chain_of(mod), mod.role, mod.level, mod.boundary};
    if (mod.network >= 0) {
      const io_network& n = a.networks.at(static_cast<size_t>(mod.network));
      key.network = network_key{n.tensor, n.kind, n.input};
      out.packs[*key.network] = n.packs.at(n.top_level);
    }
    architecture_counts::module_counts c;
    c.instances = static_cast<int64_t>(mod.instances.size());
    for (const auto& q : mod.ports) c.port_lanes.push_back(q.lanes);
    for (const auto& f : a.fifos) c.fifos_in += &a.modules.at(static_cast<size_t>(f.consumer_kind)) == &mod ? 1 : 0;
    for (const auto& b : mod.buffers)
      c.buffers.push_back({b.extents, b.banks, b.double_buffered, buffer_bram18k(b), buffer_uram(b)});
    SADSL_INTERNAL_ASSERT(out.modules.emplace(key, std::move(c)).second, "two module kinds of one key: " + key_text(key));
  }
  return out;
}

std::string counts_difference(const architecture_counts& want, const architecture_counts& got) {
  std::string out;
  if (want.pe_grid != got.pe_grid) out += fmt::format("PE grid {} != {}\n", extents_text(want.pe_grid), extents_text(got.pe_grid));
  if (want.fifos != got.fifos) out += fmt::format("FIFOs {} != {}\n", want.fifos, got.fifos);
  for (const auto& [key, pack] : want.packs) {
    auto it = got.packs.find(key);
    if (it == got.packs.end() || it->second != pack)
      out += fmt::format("packing of tensor {} {}: {} != {}\n", key.tensor.name(), key.input ? "in" : "out", pack,
                         it == got.packs.end() ? std::string("none") : std::to_string(it->second));
  }
  for (const auto& [key, pack] : got.packs)
    if (!want.packs.count(key)) out += fmt::format("packing of tensor {}: none != {}\n", key.tensor.name(), pack);
  for (const auto& [key, m] : want.modules) {
    auto it = got.modules.find(key);
    if (it == got.modules.end()) {
      out += fmt::format("{}: {} instances != none\n", key_text(key), m.instances);
      continue;
    }
    if (it->second.instances != m.instances)
      out += fmt::format("{}: {} instances != {}\n", key_text(key), m.instances, it->second.instances);
    if (it->second.port_lanes != m.port_lanes)
      out += fmt::format("{}: port lanes {} != {}\n", key_text(key), extents_text(m.port_lanes), extents_text(it->second.port_lanes));
    if (it->second.fifos_in != m.fifos_in)
      out += fmt::format("{}: reads {} FIFOs != {}\n", key_text(key), m.fifos_in, it->second.fifos_in);
    for (size_t b = 0; b < std::max(m.buffers.size(), it->second.buffers.size()); ++b) {
      std::string w = b < m.buffers.size() ? buffer_text(m.buffers[b]) : "none";
      std::string g = b < it->second.buffers.size() ? buffer_text(it->second.buffers[b]) : "none";
      if (w != g) out += fmt::format("{}: buffer {}: {} != {}\n", key_text(key), b, w, g);
    }
  }
  for (const auto& [key, m] : got.modules)
    if (!want.modules.count(key)) out += fmt::format("{}: none != {} instances\n", key_text(key), m.instances);
  return out;
}

std::string to_string(const symbolic_architecture& a) {
  std::string out = fmt::format("symbolic architecture of {}\nPE grid: {}\nFIFOs: {}\n", a.design, exprs_text(a.pe_grid),
                                model::to_string(a.fifos));
  for (const auto& n : a.networks) {
    std::vector<model::expr> divides;  // each once
    for (const auto& q : n.pack_divides)
      if (std::none_of(divides.begin(), divides.end(), [&](const model::expr& e) { return e.same_as(q); })) divides.push_back(q);
    std::string pack = n.pack_divides.empty() ? std::string("1 (a guarded design's chunks are not whole boxes)")
                                          : fmt::format("the largest power of two <= {} dividing {}{}", n.widest_pack, exprs_text(divides),
                                                        n.packs_in_registers_only ? " where the chunk has 64 elements or fewer (registers), else 1" : "");
    out += fmt::format("network {} ({} {}): chunk {}, elements per DRAM word: {}\n", n.name, n.tensor.name(),
                       n.input ? "in" : "out", exprs_text(n.box), pack);
  }
  for (const auto& m : a.modules) {
    out += fmt::format("module {} ({}): {} instances, reading {} FIFOs\n", m.name, module_role_name(m.role),
                       model::to_string(m.instances), model::to_string(m.fifos_in));
    std::vector<std::string> ports;
    for (const auto& q : m.ports) {
      bool packed = m.network >= 0 && q.lanes.same_as(a.networks.at(static_cast<size_t>(m.network)).pack);
      ports.push_back(fmt::format("{} ({}, {} lanes{})", q.name, q.input ? "in" : "out", packed ? "packing" : model::to_string(q.lanes),
                                  q.present.is_constant(1) ? "" : ", where " + model::to_string(q.present) + " = 1"));
    }
    if (!ports.empty()) out += fmt::format("  ports: {}\n", fmt::join(ports, ", "));
    for (const auto& b : m.buffers)  // banks and memory blocks follow from the network's packing: not printed
      out += fmt::format("  buffer {} ({}{}): {}\n", b.name, type_name(b.element), b.double_buffered ? ", double buffered" : "",
                         exprs_text(b.extents));
  }
  return out;
}

}  // namespace sadsl
