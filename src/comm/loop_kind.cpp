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

std::string iterator_name(isl_ast_node* for_node) {
  isl_ast_expr* it = isl_ast_node_for_get_iterator(for_node);
  std::string name = identifier(it);
  isl_ast_expr_free(it);
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

loop_kind classify_loop(const module_part& part, const isl::ast_node& for_node) {
  std::set<std::string> lanes = lane_iterators(part);
  if (lanes.count(iterator_name(for_node.get()))) return loop_kind::unrolled;
  struct search {
    const std::set<std::string>* lanes;
    bool other_loop = false;  // a nested loop that is not a lane loop
  } s{&lanes};
  isl_ast_node* body = isl_ast_node_for_get_body(for_node.get());
  isl_ast_node_foreach_descendant_top_down(
      body,
      [](isl_ast_node* n, void* user) -> isl_bool {
        auto* s = static_cast<search*>(user);
        if (isl_ast_node_get_type(n) == isl_ast_node_for && !s->lanes->count(iterator_name(n))) s->other_loop = true;
        return s->other_loop ? isl_bool_false : isl_bool_true;
      },
      &s);
  isl_ast_node_free(body);
  return s.other_loop ? loop_kind::sequential : loop_kind::pipelined;
}

}  // namespace sadsl
