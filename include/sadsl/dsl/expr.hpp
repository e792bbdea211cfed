#pragma once
// Value expressions: tensor reads, constants, + - * /, unary minus, min, max, cast<T>.
// Every expression has one element type. Literals (2, 0.5f) take the type of what they are combined
// with; mixing two different tensor types needs an explicit cast<T>(e).
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "sadsl/dsl/affine.hpp"
#include "sadsl/dsl/types.hpp"

namespace sadsl {

namespace detail {
struct tensor_node;
}

enum class expr_op { constant, read, add, sub, mul, div, neg, min, max, cast };

struct expr_node;
using expr_ptr = std::shared_ptr<const expr_node>;

struct expr_node {
  expr_op op;
  elem_type type;
  bool literal = false;     // an untyped constant whose type adapts to its context
  double fvalue = 0;        // constant, when is_float(type)
  int64_t ivalue = 0;       // constant, otherwise
  std::shared_ptr<const detail::tensor_node> tensor;  // read
  std::vector<affine> index;                          // read
  std::source_location where;                         // read: the user's call
  std::vector<expr_ptr> args;                         // operands
};

class expr {
public:
  /// A literal (any C++ arithmetic value); it takes the type of what it is combined with.
  template <class T>
    requires std::is_arithmetic_v<T>
  expr(T value)  // NOLINT: literals convert implicitly
      : node_(literal(std::is_same_v<T, float> ? elem_type::f32
                      : std::is_floating_point_v<T> ? elem_type::f64
                                                    : elem_type::i32,
                      static_cast<double>(value), static_cast<int64_t>(value))) {}
  explicit expr(expr_ptr n) : node_(std::move(n)) {}

  const expr_ptr& node() const { return node_; }
  elem_type type() const { return node_->type; }
  bool is_literal() const { return node_->literal; }
  std::string str() const;

private:
  static expr_ptr literal(elem_type t, double f, int64_t i);
  expr_ptr node_;
};

expr operator+(const expr& a, const expr& b);
expr operator-(const expr& a, const expr& b);
expr operator*(const expr& a, const expr& b);
expr operator/(const expr& a, const expr& b);
expr operator-(const expr& a);
expr min(const expr& a, const expr& b);
expr max(const expr& a, const expr& b);
/// Converts an expression to element type t (the only way to mix element types).
expr cast(elem_type t, const expr& e);
template <element T>
expr cast(const expr& e) {
  return cast(elem_type_of<T>::value, e);
}

/// A read of tensor t at `index`, recorded at the user's `where`.
expr read_of(std::shared_ptr<const detail::tensor_node> t, std::vector<affine> index, std::source_location where);
/// The expression as text, as the user would write it ("A(i, k) * B(k, j)").
std::string to_string(const expr_node& e);
/// Calls f on every tensor read in e, left to right.
void for_each_read(const expr_node& e, const std::function<void(const expr_node&)>& f);
/// A literal converted to type t (or e itself when it is not a literal).
expr_ptr with_type(const expr_ptr& e, elem_type t);

}  // namespace sadsl
