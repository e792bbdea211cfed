#pragma once
// The state behind a kernel handle. Owns the isl context: it is freed last, after every isl object.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sadsl/dsl/kernel.hpp"

namespace sadsl::detail {

struct kernel_state {
  kernel_state(std::string name, std::source_location where);
  /// A state with the same id, objects and names as `same`, on a new isl context.
  struct new_context {};
  kernel_state(const kernel_state& same, new_context);
  ~kernel_state();
  kernel_state(const kernel_state&) = delete;
  kernel_state& operator=(const kernel_state&) = delete;

  std::string name;
  int id;
  std::source_location where;
  isl_ctx* ctx;
  std::vector<symbol_ptr> params;
  std::vector<tensor_ptr> tensors;
  std::vector<statement_record> statements;
  std::map<std::string, std::string> names;  // every declared name -> what it is ("param \"N\" (mm.cpp:3)")
  std::vector<symbol_ptr> loops;             // adopted loops, declaration order
  std::set<const tensor_node*> written;      // tensors some statement writes

  /// Registers a name; sadsl::error if it is taken.
  void claim_name(const std::string& name, const std::string& what, const std::source_location& where);
  /// Records `lhs[index] op= rhs` with the active scopes; may add an implicit initialization first.
  void record(const tensor_ptr& lhs, const std::vector<affine>& index, update_op op, const expr& rhs,
              const std::source_location& where);
};

}  // namespace sadsl::detail
