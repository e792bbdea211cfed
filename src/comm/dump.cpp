#include "sadsl/comm/dump.hpp"

#include <isl/ast.h>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sadsl/poly/dump.hpp"

namespace sadsl {

namespace {

std::string coords(const std::vector<int64_t>& c) {
  std::vector<std::string> s;
  for (int64_t v : c) s.push_back(std::to_string(v));
  return fmt::format("{}", fmt::join(s, ","));
}

std::string extents(const std::vector<int64_t>& e) {
  std::vector<std::string> s;
  for (int64_t v : e) s.push_back(std::to_string(v));
  return fmt::format("{}", fmt::join(s, " x "));
}

std::string instance_name(const module_kind& k, size_t i) {
  return k.instances[i].empty() ? k.name : fmt::format("{}[{}]", k.name, coords(k.instances[i]));
}


}  // namespace

std::string dump_architecture(const architecture& a) {
  const design& d = *a.design;
  std::string out = fmt::format("architecture of design {}\n", d.name());
  std::vector<std::string> point;
  for (const auto& f : d.factors) point.push_back(fmt::format("{}={}", d.name_of(f.id), a.point.factors.at(f.id)));
  out += fmt::format("  point: {}\n", fmt::join(point, " "));
  std::vector<std::string> sizes;
  for (const auto& prm : d.band->source->kernel().params())
    sizes.push_back(fmt::format("{}={}", prm.name(), a.param_values.at(prm.id())));
  out += fmt::format("  padding: {} (runs {})\n", padding_mode_name(a.padding), fmt::join(sizes, " "));
  if (a.reduction_reordered) out += "  reduction order: SIMD lanes inside the inner loops (floats may round differently)\n";
  out += fmt::format("  PE grid: {} ({} PEs)\n", extents(a.pe_grid), a.pe_count());
  std::vector<std::string> phase;
  for (size_t j : a.phase_loops) phase.push_back(d.tile_order[j].name());
  out += phase.empty() ? "  phases: 1 (no reload)\n"
                       : fmt::format("  phases: {} (tile loops on the host: {})\n", a.phases.size(), fmt::join(phase, ", "));
  out += "I/O networks:\n";
  for (const auto& n : a.networks) {
    std::vector<std::string> packs;
    for (const auto& [level, p] : n.packs) packs.push_back(fmt::format("L{}:{}", level, p));
    out += fmt::format("  {} ({}, {} {} group{}): levels L{}..L{}, buffered at L{}, packing {}\n", n.name,
                       n.input ? "in" : "out", io_type_name(n.type), io_group_kind_name(n.kind),
                       n.along ? fmt::format(", along {}", d.space[static_cast<size_t>(*n.along)].name()) : "",
                       n.buffered_level, n.top_level, n.buffered_level, fmt::join(packs, " "));
  }
  out += "modules:\n";
  for (const auto& k : a.modules) {
    out += fmt::format("  {} ({}{}{}): {} instance{}\n", k.name, module_role_name(k.role),
                       k.level ? fmt::format(", L{}", k.level) : "", k.boundary ? ", chain end" : "", k.instances.size(),
                       k.instances.size() == 1 ? "" : "s");
    std::vector<std::string> ports;
    for (const auto& p : k.ports)
      ports.push_back(fmt::format("{} {} {} x{}", p.name, p.input ? "in" : "out", type_name(p.element), p.lanes));
    if (!ports.empty()) out += fmt::format("    ports: {}\n", fmt::join(ports, ", "));
    for (const auto& b : k.buffers)
      out += fmt::format("    buffer {}: {} {}, {}{}{}\n", b.name, type_name(b.element), extents(b.extents),
                         memory_kind_name(b.memory), b.banks > 1 ? fmt::format(", {} banks", b.banks) : "",
                         b.double_buffered ? ", double-buffered" : "");
    if (k.dram) out += fmt::format("    DRAM: {} {} in words of {}\n", k.dram->write ? "writes" : "reads", k.dram->tensor.name(), k.dram->lanes);
    std::vector<std::string> parts;
    for (const auto& p : k.parts) parts.push_back(p.name + (p.previous_tile ? " (previous tile)" : ""));
    if (!parts.empty()) out += fmt::format("    parts: {}\n", fmt::join(parts, ", "));
  }
  out += fmt::format("FIFOs: {}\n", a.fifos.size());
  std::map<std::pair<std::string, std::string>, int> links;
  for (const auto& f : a.fifos)
    ++links[{a.modules[static_cast<size_t>(f.producer_kind)].name, a.modules[static_cast<size_t>(f.consumer_kind)].name}];
  for (const auto& [pair, count] : links) out += fmt::format("  {} -> {}: {}\n", pair.first, pair.second, count);
  out += "DRAM arrays:\n";
  for (const auto& l : a.layouts) {
    std::vector<std::string> order;
    for (int o : l.order) order.push_back(std::to_string(o));
    out += fmt::format("  {}: {} {} (dimensions {}){}\n", l.tensor.name(), type_name(l.element), extents(l.extents),
                       fmt::join(order, ","), l.scratch ? ", device scratch" : "");
  }
  return out;
}

std::string dump_programs(const architecture& a) {
  std::string out = "tile loops of a phase:\n" + program_text(a.tiles);
  for (const auto& k : a.modules)
    for (const auto& p : k.parts)
      out += fmt::format("{} / {}{}:\n{}", k.name, p.name, p.previous_tile ? " (previous tile)" : "", program_text(p.program));
  return out;
}

std::string architecture_dot(const architecture& a) {
  std::string out = fmt::format("digraph \"{}\" {{\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n",
                                a.design->name());
  auto id = [&](int kind, int instance) { return fmt::format("m{}_{}", kind, instance); };
  for (size_t k = 0; k < a.modules.size(); ++k) {
    const module_kind& m = a.modules[k];
    const char* color = m.role == module_role::pe ? "lightblue"
                        : m.role == module_role::io_in ? "palegreen"
                        : m.role == module_role::io_out ? "lightsalmon" : "lightgray";
    for (size_t i = 0; i < m.instances.size(); ++i)
      out += fmt::format("  {} [label=\"{}\", style=filled, fillcolor={}];\n", id(static_cast<int>(k), static_cast<int>(i)),
                         instance_name(m, i), color);
  }
  for (const auto& l : a.layouts)
    out += fmt::format("  dram_{} [label=\"DRAM {}\", shape=cylinder];\n", l.tensor.name(), l.tensor.name());
  for (const auto& f : a.fifos)
    out += fmt::format("  {} -> {};\n", id(f.producer_kind, f.producer_instance), id(f.consumer_kind, f.consumer_instance));
  for (size_t k = 0; k < a.modules.size(); ++k) {
    const module_kind& m = a.modules[k];
    if (!m.dram) continue;
    for (size_t i = 0; i < m.instances.size(); ++i) {
      std::string node = id(static_cast<int>(k), static_cast<int>(i)), dram = "dram_" + m.dram->tensor.name();
      out += m.dram->write ? fmt::format("  {} -> {};\n", node, dram) : fmt::format("  {} -> {};\n", dram, node);
    }
  }
  return out + "}\n";
}

}  // namespace sadsl
