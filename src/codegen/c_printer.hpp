#pragma once
// C text from isl ASTs: an expression printer and a walker of for / if / block / user nodes that
// prints loops and conditions itself and asks its caller for the body of each user node and for
// the pragmas of each loop. No isl printer is used: every node is read through isl's AST API.
#include <functional>
#include <string>
#include <vector>

#include <isl/cpp.h>

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

struct ast_callbacks {
  /// Writes the statements of a user node.
  std::function<void(const isl::ast_node& user, c_writer& out)> user;
  /// Pragma lines to put at the top of a loop's body (may be empty).
  std::function<std::vector<std::string>(const isl::ast_node& for_node)> loop_pragmas;
};

/// Writes the AST rooted at `root` as C statements.
void print_ast(const isl::ast_node& root, const ast_callbacks& callbacks, c_writer& out);

/// The iterator name of a for node.
std::string iterator_of(const isl::ast_node& for_node);

}  // namespace sadsl::codegen_detail
