#pragma once
// Affine expressions over params and loops, affine conditions, and the param and loop handles.
//
//   param N = k.param("N", 64);
//   loop i(N);                    // 0 <= i < N, named "i" after the variable in the source
//   loop j("j", i + 1, N);        // i + 1 <= j < N: bounds are affine in params and outer loops
//   A(i + 1, 2 * j - 1)           // affine indices
//   if_(i == j, ...)              // affine conditions
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "sadsl/core/identity.hpp"

namespace sadsl {

namespace detail {
struct symbol_node;
using symbol_ptr = std::shared_ptr<const symbol_node>;
}  // namespace detail

class param;
class loop;

/// constant + sum(coefficient * symbol), where a symbol is a param or a loop. A product of two
/// non-constant expressions (i * j) is kept as a "non-affine" value that carries its text, and is
/// reported as an error where it is used (index, bound or condition).
class affine {
public:
  struct term {
    detail::symbol_ptr symbol;
    int64_t coefficient;
  };

  affine(int64_t constant = 0);  // NOLINT: implicit, so that 0, N and i mix freely
  affine(int constant) : affine(int64_t{constant}) {}
  affine(const param& p);
  affine(const loop& l);
  /// The expression `1 * s` for a param or loop node (for passes that rewrite indices).
  static affine of(const detail::symbol_ptr& s);

  int64_t constant() const { return constant_; }
  /// Terms sorted by declaration order of their symbols, no zero coefficients.
  const std::vector<term>& terms() const { return terms_; }
  bool is_constant() const { return terms_.empty() && is_affine(); }
  bool is_affine() const { return nonaffine_.empty(); }
  /// The text of the offending sub-expression when !is_affine() (e.g. "i * j").
  const std::string& nonaffine_text() const { return nonaffine_; }
  /// Coefficient of a symbol (0 when absent).
  int64_t coefficient(const detail::symbol_node* s) const;
  /// The loops this expression uses, in declaration order.
  std::vector<detail::symbol_ptr> loops() const;

  std::string str() const;
  /// The value with every symbol replaced by value_of(symbol) (params: their current value).
  template <class F>
  int64_t evaluate(F&& value_of) const;

  friend affine operator+(const affine& a, const affine& b);
  friend affine operator-(const affine& a, const affine& b);
  friend affine operator-(const affine& a);
  friend affine operator*(const affine& a, const affine& b);
  friend affine operator/(const affine& a, const affine& b);
  friend affine operator%(const affine& a, const affine& b);

private:
  static affine make_nonaffine(std::string text);
  void add_term(const detail::symbol_ptr& s, int64_t c);
  std::vector<term> terms_;
  int64_t constant_ = 0;
  std::string nonaffine_;
};

affine operator+(const affine& a, const affine& b);
affine operator-(const affine& a, const affine& b);
affine operator-(const affine& a);
affine operator*(const affine& a, const affine& b);
affine operator/(const affine& a, const affine& b);
affine operator%(const affine& a, const affine& b);

/// A conjunction of affine constraints: each is `expr >= 0` or `expr == 0`.
/// Built with == < <= > >= on affine expressions and combined with &&.
class condition {
public:
  struct constraint {
    affine expr;
    bool equality;  // expr == 0 (else expr >= 0)
  };
  explicit condition(std::vector<constraint> c, std::string text) : constraints_(std::move(c)), text_(std::move(text)) {}
  const std::vector<constraint>& constraints() const { return constraints_; }
  /// The condition as the user wrote it, e.g. "k == 0 && i < N".
  const std::string& str() const { return text_; }
  friend condition operator&&(const condition& a, const condition& b);

private:
  std::vector<constraint> constraints_;
  std::string text_;
};

condition operator&&(const condition& a, const condition& b);
condition operator==(const affine& a, const affine& b);
condition operator<(const affine& a, const affine& b);
condition operator<=(const affine& a, const affine& b);
condition operator>(const affine& a, const affine& b);
condition operator>=(const affine& a, const affine& b);

/// A named problem size with a default value; the value can be changed before compilation.
class param {
public:
  const std::string& name() const;
  /// The value on this thread: the one a scoped_sizes of this thread set, else the one set().
  int64_t value() const;
  /// Overrides the value used by the interpreter and code generation, on every thread (hidden on
  /// a thread while a scoped_sizes there sets this param); sadsl::error (at the caller's line)
  /// unless value >= 1.
  void set(int64_t value, std::source_location where = std::source_location::current()) const;
  /// The param's identity.
  param_id id() const;
  const detail::symbol_ptr& node() const { return node_; }

private:
  friend class kernel;
  explicit param(detail::symbol_ptr n) : node_(std::move(n)) {}
  detail::symbol_ptr node_;
};

/// A loop iterator: lo <= it < hi, bounds affine in params and previously declared loops.
/// Loops nest in declaration order. `loop i(N)` is named after the variable ("i"), read from the
/// declaring source line; when the source is not readable, after the extent param in lower case.
class loop {
public:
  loop(const affine& extent, std::source_location where = std::source_location::current());
  loop(std::string name, const affine& extent, std::source_location where = std::source_location::current());
  loop(std::string name, const affine& lo, const affine& hi,
       std::source_location where = std::source_location::current());

  const std::string& name() const;
  const affine& lo() const;
  const affine& hi() const;
  /// The loop's identity.
  loop_id id() const;
  const detail::symbol_ptr& node() const { return node_; }

private:
  detail::symbol_ptr node_;
};

namespace detail {

enum class symbol_kind { param, loop };

/// The shared state behind a param or loop handle.
struct symbol_node {
  symbol_kind kind;
  std::string name;
  uint64_t seq;                  // global declaration order, and the key of its identity
  std::source_location where;    // where it was declared
  mutable int kernel_id = -1;    // owning kernel (loops: adopted at first use when unknown)
  mutable std::string kernel_name;
  mutable int64_t user_value = 0;  // params: the value param::set gave; read it through size_of
  affine lo, hi;                   // loops: bounds

  /// The identity of a loop (kind == loop) or of a param (kind == param): key = seq.
  loop_id loop_identity() const { return loop_id(seq, name); }
  param_id param_identity() const { return param_id(seq, name); }
};

uint64_t next_symbol_seq();

/// Problem sizes that hold on one thread only (scoped_sizes), by param node: they shadow the
/// values param::set gave, so that a compiler step can work at other sizes while other threads
/// work at theirs. The entries own their nodes: no node dies, and no new one takes its address,
/// while its override stands.
using size_overrides = std::vector<std::pair<symbol_ptr, int64_t>>;
size_overrides& thread_size_overrides();
/// A param's value on this thread: its override, else its user_value.
int64_t size_of(const symbol_node& param);

}  // namespace detail

template <class F>
int64_t affine::evaluate(F&& value_of) const {
  int64_t v = constant_;
  for (const auto& t : terms_) v += t.coefficient * value_of(*t.symbol);
  return v;
}

}  // namespace sadsl
