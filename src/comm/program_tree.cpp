// Module programs as trees: conversion from isl's AST, and their text.
#include "sadsl/comm/program_tree.hpp"

#include <isl/ast.h>
#include <isl/id.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// The block number a user node is annotated with (comm_detail::make_part), or -1.
int block_of(isl_ast_node* user_node) {
  isl_id* id = isl_ast_node_get_annotation(user_node);
  if (!id) return -1;
  int number = std::strcmp(isl_id_get_name(id), "block") == 0
                   ? static_cast<int>(reinterpret_cast<intptr_t>(isl_id_get_user(id)))
                   : 0;
  isl_id_free(id);
  return number - 1;
}

std::string iterator_name(isl_ast_node* for_node) {
  isl_ast_expr* it = isl_ast_node_for_get_iterator(for_node);
  isl_id* id = isl_ast_expr_get_id(it);
  std::string name = isl_id_get_name(id);
  isl_id_free(id);
  isl_ast_expr_free(it);
  return name;
}

program_node from_isl(isl_ast_node* n) {
  program_node out;
  auto add = [&](isl_ast_node* child) {
    out.body.push_back(from_isl(child));
    isl_ast_node_free(child);
  };
  switch (isl_ast_node_get_type(n)) {
    case isl_ast_node_for:
      out.what = program_node::kind::loop;
      out.iterator = iterator_name(n);
      out.init = isl::manage(isl_ast_node_for_get_init(n));
      out.cond = isl::manage(isl_ast_node_for_get_cond(n));
      out.inc = isl::manage(isl_ast_node_for_get_inc(n));
      add(isl_ast_node_for_get_body(n));
      return out;
    case isl_ast_node_if:
      out.what = program_node::kind::guard;
      out.cond = isl::manage(isl_ast_node_if_get_cond(n));
      add(isl_ast_node_if_get_then_node(n));
      if (isl_ast_node_if_has_else_node(n) == isl_bool_true) add(isl_ast_node_if_get_else_node(n));
      return out;
    case isl_ast_node_block: {
      out.what = program_node::kind::sequence;
      isl_ast_node_list* list = isl_ast_node_block_get_children(n);
      int count = static_cast<int>(isl_ast_node_list_n_ast_node(list));
      for (int i = 0; i < count; ++i) add(isl_ast_node_list_get_at(list, i));
      isl_ast_node_list_free(list);
      return out;
    }
    case isl_ast_node_mark: {
      isl_ast_node* child = isl_ast_node_mark_get_node(n);
      out = from_isl(child);
      isl_ast_node_free(child);
      return out;
    }
    case isl_ast_node_user:
      out.what = program_node::kind::call;
      out.call = isl::manage(isl_ast_node_user_get_expr(n));
      out.block = block_of(n);
      return out;
    default: break;
  }
  SADSL_INTERNAL_ASSERT(false, "unexpected isl AST node");
}

std::string expr_text(const std::optional<isl::ast_expr>& e) {
  char* c = isl_ast_expr_to_C_str(e->get());
  std::string s = c ? c : "";
  std::free(c);
  return s;
}

// The layout of isl's C printer: a body on its own lines, in braces when it is a sequence or
// when an else branch follows.
class printer {
public:
  std::string text;

  // in_sequence: n is a node of a sequence (a sequence there is in braces of its own).
  void node(const program_node& n, bool in_sequence = false) {
    switch (n.what) {
      case program_node::kind::loop:
        start();
        text += "for (int " + n.iterator + " = " + expr_text(n.init) + "; " + expr_text(n.cond) + "; " + n.iterator +
                " += " + expr_text(n.inc) + ")";
        body(n.body.at(0), nullptr);
        return;
      case program_node::kind::guard:
        start();
        guard(n);
        return;
      case program_node::kind::sequence:
        if (in_sequence) return braced(n);
        for (const auto& c : n.body) node(c, true);
        return;
      case program_node::kind::call:
        start();
        text += expr_text(n.call) + ";\n";
        return;
    }
  }

  // The whole program: a sequence at the top is in braces.
  void top(const program_node& n) {
    if (n.what == program_node::kind::sequence) return braced(n);
    node(n);
  }

private:
  int indent_ = 0;

  void braced(const program_node& n) {
    start();
    text += "{\n";
    indent_ += 2;
    for (const auto& c : n.body) node(c, true);
    indent_ -= 2;
    start();
    text += "}\n";
  }

  // isl puts a body in braces when it is a sequence or an if with an else branch.
  static bool needs_braces(const program_node& b) {
    return b.what == program_node::kind::sequence || (b.what == program_node::kind::guard && b.body.size() > 1);
  }

  void start() { text += std::string(static_cast<size_t>(indent_), ' '); }

  // An if that is an else branch has its body in braces.
  void guard(const program_node& n, bool in_braces = false) {
    text += "if (" + expr_text(n.cond) + ")";
    body(n.body.at(0), n.body.size() > 1 ? &n.body[1] : nullptr, in_braces);
  }

  void body(const program_node& b, const program_node* otherwise, bool in_braces = false) {
    if (!in_braces && !otherwise && !needs_braces(b)) {
      text += "\n";
      indent_ += 2;
      node(b);
      indent_ -= 2;
      return;
    }
    in_braces_of(b);
    if (!otherwise) {
      text += "\n";
    } else if (otherwise->what == program_node::kind::guard) {
      text += " else ";
      guard(*otherwise, true);
    } else {
      text += " else";
      in_braces_of(*otherwise);
      text += "\n";
    }
  }

  // ` {`, b one level deeper, `}` (the caller ends the line).
  void in_braces_of(const program_node& b) {
    text += " {\n";
    indent_ += 2;
    node(b);
    indent_ -= 2;
    start();
    text += "}";
  }
};

}  // namespace

bool mentions_id(isl_ast_expr* e, const std::function<bool(const char*)>& named) {
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_id: {
      isl_id* id = isl_ast_expr_get_id(e);
      bool found = named(isl_id_get_name(id));
      isl_id_free(id);
      return found;
    }
    case isl_ast_expr_op: {
      bool found = false;
      for (int i = 0; !found && i < isl_ast_expr_op_get_n_arg(e); ++i) {
        isl_ast_expr* arg = isl_ast_expr_op_get_arg(e, i);
        found = mentions_id(arg, named);
        isl_ast_expr_free(arg);
      }
      return found;
    }
    default: return false;
  }
}

program_node program_from_isl(const isl::ast_node& root) { return from_isl(root.get()); }

std::string program_text(const program_node& n) {
  printer p;
  p.top(n);
  return p.text;
}

}  // namespace sadsl
