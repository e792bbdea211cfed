#pragma once
// The kernel: params, tensors and the statements recorded on them.
//
//   kernel mm("mm");
//   param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
//   auto A = mm.input<float>("A", {I, K});
//   auto B = mm.input<float>("B", {K, J});
//   auto C = mm.output<float>("C", {I, J});
//   loop i(I), j(J), k(K);
//   C(i, j) += A(i, k) * B(k, j);   // C starts from zero; k (rhs only) is a reduction loop
//
// Statements nest in the loops they use, in declaration order; consecutive statements sharing outer
// loops are fused under them. `under(t, body)` puts statements under a loop they do not index,
// `if_(cond, then).else_(otherwise)` restricts their domains.
#include <concepts>
#include <map>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "sadsl/dsl/affine.hpp"
#include "sadsl/dsl/expr.hpp"
#include "sadsl/dsl/types.hpp"
#include "sadsl/error.hpp"

struct isl_ctx;

namespace sadsl {

enum class tensor_role { input, output, inout, local };
std::string_view role_name(tensor_role r);

namespace detail {
struct kernel_state;

/// The shared state behind a tensor handle.
struct tensor_node {
  std::string name;
  elem_type type;
  tensor_role role;
  std::vector<affine> extents;  // affine in params
  std::source_location where;
  int kernel_id;
  uint64_t key;  // of its identity (a local tensor expanded by a pass keeps it)

  tensor_id id() const { return tensor_id(key, name); }
};
}  // namespace detail

using tensor_ptr = std::shared_ptr<const detail::tensor_node>;

enum class update_op { assign, add, sub, mul };

/// An affine condition that encloses a statement; `negated` for the else branch.
struct guard {
  condition cond;
  bool negated;
};

/// One recorded statement: lhs(index) op= rhs over its loops, restricted by its guards.
struct statement_record {
  statement_id id;  // named S0, S1, ... in recording order
  std::source_location where;
  tensor_ptr lhs;
  std::vector<affine> lhs_index;
  update_op op = update_op::assign;
  expr rhs = expr(0);
  std::vector<detail::symbol_ptr> loops;            // outermost first (declaration order)
  std::vector<detail::symbol_ptr> reduction_loops;  // loops of `op=` statements that do not index lhs
  std::vector<guard> guards;
  bool implicit_init = false;  // the zero (or one) initialization of an output before its first op=

  /// The value stored: rhs for `=`, lhs op rhs otherwise (as an expression tree with typed reads).
  expr value() const;
  /// The statement as text ("C(i, j) += A(i, k) * B(k, j)").
  std::string str() const;
};

namespace detail {
struct scope_entry {
  std::optional<guard> g;
  symbol_ptr under;
  std::source_location where;
};
std::vector<scope_entry>& active_scopes();
}  // namespace detail

class kernel;

/// A tensor element reference A(i, k): reads as a value, or is the target of = += -= *=.
class element_ref {
public:
  element_ref(std::shared_ptr<detail::kernel_state> k, tensor_ptr t, std::vector<affine> index,
         std::source_location where);
  operator expr() const;  // NOLINT: a read
  void operator=(const expr& rhs) const;
  void operator=(const element_ref& rhs) const { *this = expr(rhs); }
  void operator+=(const expr& rhs) const;
  void operator-=(const expr& rhs) const;
  void operator*=(const expr& rhs) const;

private:
  void record(update_op op, const expr& rhs) const;
  std::shared_ptr<detail::kernel_state> kernel_;
  tensor_ptr tensor_;
  std::vector<affine> index_;
  std::source_location where_;
};

/// One index of a tensor access; captures the user's source line.
struct index_arg {
  template <class X>
    requires std::convertible_to<X, affine>
  index_arg(const X& x, std::source_location w = std::source_location::current())  // NOLINT
      : value(x), where(w) {}
  affine value;
  std::source_location where;
};

/// A typed tensor handle, made by kernel::input/output/inout/local.
template <element T>
class tensor {
public:
  tensor(std::shared_ptr<detail::kernel_state> k, tensor_ptr t) : kernel_(std::move(k)), tensor_(std::move(t)) {}
  template <class... Rest>
    requires(std::convertible_to<Rest, affine> && ...)
  element_ref operator()(index_arg first, const Rest&... rest) const {
    return element_ref(kernel_, tensor_, {first.value, affine(rest)...}, first.where);
  }
  element_ref operator()(std::source_location where = std::source_location::current()) const {
    return element_ref(kernel_, tensor_, {}, where);
  }
  const std::string& name() const { return tensor_->name; }
  const tensor_ptr& node() const { return tensor_; }

private:
  std::shared_ptr<detail::kernel_state> kernel_;
  tensor_ptr tensor_;
};

class kernel {
public:
  explicit kernel(std::string name, std::source_location where = std::source_location::current());

  /// A named problem size (>= 1) with a default value.
  sadsl::param param(std::string name, int64_t default_value,
                     std::source_location where = std::source_location::current());

  template <element T>
  tensor<T> input(std::string name, std::vector<affine> extents,
                  std::source_location where = std::source_location::current()) {
    return make<T>(std::move(name), tensor_role::input, std::move(extents), where);
  }
  template <element T>
  tensor<T> output(std::string name, std::vector<affine> extents,
                   std::source_location where = std::source_location::current()) {
    return make<T>(std::move(name), tensor_role::output, std::move(extents), where);
  }
  template <element T>
  tensor<T> inout(std::string name, std::vector<affine> extents,
                  std::source_location where = std::source_location::current()) {
    return make<T>(std::move(name), tensor_role::inout, std::move(extents), where);
  }
  /// A temporary that lives only inside the kernel (e.g. the propagation arrays of a systolic LU).
  template <element T>
  tensor<T> local(std::string name, std::vector<affine> extents,
                  std::source_location where = std::source_location::current()) {
    return make<T>(std::move(name), tensor_role::local, std::move(extents), where);
  }

  const std::string& name() const;
  std::vector<sadsl::param> params() const;
  /// The param named `name`; sadsl::error if there is none.
  sadsl::param get_param(const std::string& name) const;
  const std::vector<tensor_ptr>& tensors() const;
  const std::vector<statement_record>& statements() const;
  /// The loops used by the statements, in declaration order.
  std::vector<detail::symbol_ptr> loops() const;

  /// The isl context that owns every isl object of this kernel.
  isl_ctx* ctx() const;
  const std::shared_ptr<detail::kernel_state>& state() const { return state_; }

  /// The same kernel on an isl context of its own: the same params, tensors, loops and
  /// statements (the same objects, so the same identities and problem sizes: setting a size sets
  /// it for both), for a compiler step that works on several threads at once, since the isl
  /// objects of one context must stay on one thread. Programs and designs built from the copy
  /// are those of this kernel, in the copy's context.
  kernel with_own_context() const;

private:
  explicit kernel(std::shared_ptr<detail::kernel_state> state) : state_(std::move(state)) {}
  template <element T>
  tensor<T> make(std::string name, tensor_role role, std::vector<affine> extents, std::source_location where) {
    return {state_, add_tensor(std::move(name), elem_type_of<T>::value, role, std::move(extents), where)};
  }
  tensor_ptr add_tensor(std::string name, elem_type t, tensor_role role, std::vector<affine> extents,
                        std::source_location where);
  std::shared_ptr<detail::kernel_state> state_;
};

/// Sets a kernel's problem sizes on this thread while it lives (a compiler step that works at
/// other sizes: verification at reduced sizes, the models' template point); other threads, and
/// this one once it ends, see the user's values. `size(n, value)` gives the value of the n-th
/// param (declaration order) from its current one.
class scoped_sizes {
public:
  template <class F>
  scoped_sizes(const kernel& k, F&& size) : saved_(detail::thread_size_overrides()) {
    std::vector<sadsl::param> params = k.params();
    detail::size_overrides now;
    for (size_t n = 0; n < params.size(); ++n) {
      int64_t value = size(static_cast<int64_t>(n), params[n].value());
      if (value < 1)
        throw error("param \"" + params[n].name() + "\" set to " + std::to_string(value) +
                    ": problem sizes must be at least 1");
      now.emplace_back(params[n].node(), value);
    }
    // An enclosing scope's sizes after these: size_of takes the first entry of a param.
    now.insert(now.end(), saved_.begin(), saved_.end());
    detail::thread_size_overrides() = std::move(now);
  }
  ~scoped_sizes() { detail::thread_size_overrides() = std::move(saved_); }
  scoped_sizes(const scoped_sizes&) = delete;
  scoped_sizes& operator=(const scoped_sizes&) = delete;

private:
  detail::size_overrides saved_;
};

/// Runs `then_body` with its statements restricted to `cond`; `.else_(body)` to the complement.
class if_ {
public:
  template <class F>
  if_(const condition& cond, F&& then_body, std::source_location where = std::source_location::current())
      : cond_(cond), where_(where) {
    run(false, std::forward<F>(then_body));
  }
  template <class F>
  void else_(F&& body) {
    run(true, std::forward<F>(body));
  }

private:
  template <class F>
  void run(bool negated, F&& body) {
    check_condition(cond_, where_);
    detail::active_scopes().push_back({guard{cond_, negated}, nullptr, where_});
    try {
      body();
    } catch (...) {
      detail::active_scopes().pop_back();
      throw;
    }
    detail::active_scopes().pop_back();
  }
  static void check_condition(const condition& c, const std::source_location& where);
  condition cond_;
  std::source_location where_;
};

/// Runs `body` with its statements placed under loop `l` (e.g. a time loop they do not index).
template <class F>
void under(const loop& l, F&& body, std::source_location where = std::source_location::current()) {
  detail::active_scopes().push_back({std::nullopt, l.node(), where});
  try {
    body();
  } catch (...) {
    detail::active_scopes().pop_back();
    throw;
  }
  detail::active_scopes().pop_back();
}

}  // namespace sadsl
