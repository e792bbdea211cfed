#include "sadsl/poly/dump.hpp"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/printer.h>
#include <isl/schedule.h>

#include <fmt/format.h>

namespace sadsl {

std::string dump_program(const program& p) {
  std::string out = fmt::format("kernel {}\ncontext: {}\n", p.kernel().name(), isl_str(p.context()));
  out += "arrays:\n";
  for (const auto& a : p.arrays()) {
    std::vector<std::string> ext;
    for (const auto& e : a.tensor->extents) ext.push_back(e.str());
    out += fmt::format("  {} {} {}[{}]: {}\n", role_name(a.tensor->role), type_name(a.tensor->type), a.tensor->name,
                       fmt::join(ext, ", "), isl_str(a.extent));
  }
  out += "statements:\n";
  for (const auto& s : p.statements()) {
    out += fmt::format("  {}: {}{}\n", s.name(), s.record->str(), s.record->implicit_init ? "  (implicit init)" : "");
    out += fmt::format("    domain: {}\n", isl_str(s.domain));
    out += fmt::format("    write:  {}\n", isl_str(s.write.relation));
    for (const auto& r : s.reads) out += fmt::format("    read:   {}\n", isl_str(r.relation));
    if (!s.reduction_loops.empty()) out += fmt::format("    reduction loops: {}\n", join_names(s.reduction_loops));
  }
  out += "schedule:\n";
  std::string tree = isl_str(p.schedule());
  out += "  " + tree + "\n";
  return out;
}

std::string dump_dependences(const program& p, const std::vector<dependence>& deps) {
  std::string out;
  for (const auto& d : deps) {
    out += fmt::format("{:<6} {} -> {} on {} (sink {}): distance {} over [{}]{}\n", dep_kind_name(d.kind), d.source.name(),
                       d.sink.name(), d.tensor.name(), access_text(p, d.sink_access), d.distance_str(), join_names(d.loops),
                       d.is_uniform() ? "" : " (non-uniform)");
    out += fmt::format("       {}\n", isl_str(d.relation));
  }
  return out;
}

std::string dump_schedule_code(const program& p, const isl::schedule& s) {
  isl_ast_build* build = isl_ast_build_from_context(p.context().copy());
  isl_ast_node* node = isl_ast_build_node_from_schedule(build, s.copy());
  isl_ast_build_free(build);
  char* text = isl_ast_node_to_C_str(node);
  std::string out = text ? text : "";
  free(text);
  isl_ast_node_free(node);
  return out;
}

}  // namespace sadsl
