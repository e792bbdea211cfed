#pragma once
// C text from isl ASTs: an expression printer and a walker of for / if / block / user nodes that
// prints loops and conditions itself and asks its caller for the body of each user node and for
// the pragmas of each loop. No isl printer is used: every node is read through isl's AST API.
#include <functional>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "sadsl/comm/program_tree.hpp"

namespace sadsl::codegen_detail {

/// Lines of C with the current indentation.
class c_writer {
public:
  void line(const std::string& text);
  void open(const std::string& text);   // "text {" and indent
  void close(const std::string& tail = "");  // unindent and "}" + tail
  void blank() { out_ += "\n"; }
  const std::string& text() const { return out_; }

private:
  std::string out_;
  int indent_ = 0;
};

/// An isl AST expression as C (integers as int; min, max, floor division through the helpers
/// sadsl_min, sadsl_max and sadsl_floord that kernel.h defines).
std::string c_expr(const isl::ast_expr& e);

/// The name of the identifier an expression is, or "" when it is not a bare identifier.
std::string id_of(const isl::ast_expr& e);

struct program_callbacks {
  /// Writes the statements of a call.
  std::function<void(const program_node& call, c_writer& out)> call;
  /// Pragma lines to put at the top of a loop's body (may be empty).
  std::function<std::vector<std::string>(const program_node& loop)> loop_pragmas;
};

/// Writes the program rooted at `n` as C statements.
void print_program(const program_node& n, const program_callbacks& callbacks, c_writer& out);

}  // namespace sadsl::codegen_detail
