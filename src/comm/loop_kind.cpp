// The one rule for how a module part's loops run in hardware (pipelined, unrolled, sequential):
// HLS code generation and the timed simulation both call classify_loop.
#include <isl/ast.h>
#include <isl/id.h>

#include <set>
#include <string>

#include "sadsl/comm/architecture.hpp"

namespace sadsl {

namespace {

// The name of a bare identifier expression, or "".
std::string identifier(isl_ast_expr* e) {
  if (isl_ast_expr_get_type(e) != isl_ast_expr_id) return "";
  isl_id* id = isl_ast_expr_get_id(e);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  return name;
}

// The SIMD lane iterators of a part: the bare identifiers its vector port operations index lanes by.
std::set<std::string> lane_iterators(const module_part& part) {
  std::set<std::string> lanes;
  for (const auto& b : part.blocks)
    for (const auto& op : b.ops)
      if (op.vector && op.lane)
        if (std::string id = identifier(op.lane->get()); !id.empty()) lanes.insert(id);
  return lanes;
}

}  // namespace

std::string_view loop_kind_name(loop_kind k) {
  switch (k) {
    case loop_kind::sequential: return "sequential";
    case loop_kind::pipelined: return "pipelined";
    case loop_kind::unrolled: return "unrolled";
  }
  return "?";
}

namespace {

// True when n contains a loop whose iterator is not a lane iterator.
bool has_other_loop(const program_node& n, const std::set<std::string>& lanes) {
  if (n.what == program_node::kind::loop && !lanes.count(n.iterator)) return true;
  for (const auto& c : n.body)
    if (has_other_loop(c, lanes)) return true;
  return false;
}

}  // namespace

loop_kind classify_loop(const module_part& part, const program_node& loop) {
  std::set<std::string> lanes = lane_iterators(part);
  if (lanes.count(loop.iterator)) return loop_kind::unrolled;
  for (const auto& c : loop.body)
    if (has_other_loop(c, lanes)) return loop_kind::sequential;
  return loop_kind::pipelined;
}

}  // namespace sadsl
