#pragma once
// The polyhedral program of a kernel: per statement its iteration domain and access relations,
// the schedule tree (textual loop order, sequences for imperfect nesting), and array metadata.
// All isl objects live in the kernel's isl context; the program keeps the kernel alive. An isl
// object copied out of a program must not outlive every handle of its kernel.
#include <isl/cpp.h>

#include <string>
#include <vector>

#include "sadsl/dsl/kernel.hpp"

namespace sadsl {

/// One access of a statement: the tensor, its relation S[loops] -> T[index] (restricted to the
/// statement's domain), and the DSL index expressions.
struct access_info {
  tensor_ptr tensor;
  std::vector<affine> index;
  isl::map relation;
  std::string str() const;
  /// Whether some index expression mentions loop l (the access moves along it).
  bool uses(const loop_id& l) const;
};

/// One access of one statement, by position: the write, or read number `read` (in
/// statement_info::reads order).
struct access_ref {
  statement_id statement;
  int read = -1;  // -1: the statement's write
  bool is_write() const { return read < 0; }
  friend bool operator==(const access_ref&, const access_ref&) = default;
};

struct statement_info {
  std::shared_ptr<const statement_record> record;  // the DSL statement (a snapshot: the kernel may grow)
  statement_id id;                  // its name (S0, S1, ...) is also its isl tuple name
  isl::set domain;
  access_info write;
  std::vector<access_info> reads;   // rhs reads left to right; for op= the lhs read comes first
  std::vector<loop_id> loops;       // outermost first
  std::vector<loop_id> reduction_loops;
  std::vector<int> bands;           // ids of the schedule bands enclosing the statement, outermost first

  const std::string& name() const { return id.name(); }
  /// The access `a` refers to (a.statement must be this statement).
  const access_info& access(const access_ref& a) const;
  /// Position of loop l among the statement's loops; sadsl::internal_error if it has no such loop.
  size_t position(const loop_id& l) const;
};

struct array_info {
  tensor_ptr tensor;
  isl::set extent;  // { T[d...] : 0 <= d_i < extent_i }
  bool written;     // some statement writes it
};

class program {
public:
  const sadsl::kernel& kernel() const { return kernel_; }
  /// Every param >= 1.
  const isl::set& context() const { return context_; }
  const isl::union_set& domain() const { return domain_; }
  const isl::union_map& reads() const { return reads_; }
  const isl::union_map& writes() const { return writes_; }
  /// The schedule tree: one band per loop, a sequence where statements or nests follow each other.
  const isl::schedule& schedule() const { return schedule_; }
  const std::vector<statement_info>& statements() const { return statements_; }
  /// The statement named `name` (S0, S1, ...); sadsl::error if there is none.
  const statement_info& statement(const std::string& name) const;
  /// The statement with identity `id`; sadsl::error if there is none.
  const statement_info& statement(const statement_id& id) const;
  /// The access a reference designates.
  const access_info& access(const access_ref& a) const { return statement(a.statement).access(a); }
  const std::vector<array_info>& arrays() const { return arrays_; }

private:
  friend program build_program(const sadsl::kernel& k, const std::vector<statement_record>& statements,
                               const std::vector<tensor_ptr>& tensors);
  explicit program(const sadsl::kernel& k) : kernel_(k) {}
  sadsl::kernel kernel_;  // first member: destroyed last, after every isl object below
  isl::set context_;
  isl::union_set domain_;
  isl::union_map reads_, writes_;
  isl::schedule schedule_;
  std::vector<statement_info> statements_;
  std::vector<array_info> arrays_;
};

/// Builds the polyhedral program of a kernel (sadsl::error if the kernel has no statement).
program build_program(const kernel& k);
/// Builds a program of kernel k's params and loops from transformed statements and tensors (the
/// statements' loops and guards as recorded; their accesses and tensors may differ).
program build_program(const kernel& k, const std::vector<statement_record>& statements,
                      const std::vector<tensor_ptr>& tensors);

}  // namespace sadsl
