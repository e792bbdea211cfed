#pragma once
// The symbolic expression IR of performance models: integer-valued parameters (problem sizes,
// tiling and packing factors) combined by + - * /, floor/ceil division, min, max, ceil, floor.
// Values are IEEE doubles, so that imported Odyssey models reproduce Python's real division
// exactly; integer-valued subexpressions stay exact below 2^53. Nodes are immutable and shared;
// the smart constructors simplify (constant folding, x*1, x+0, x/1, ceil of an integer, ...)
// only where the result is bit-identical for every finite input.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sadsl::model {

/// The operation of an expression node.
enum class op : std::uint8_t {
  constant,   ///< a literal
  parameter,  ///< a model parameter, by index
  add, sub, mul,
  div,        ///< real division
  floor_div,  ///< floor(a / b)
  ceil_div,   ///< ceil(a / b)
  min, max,
  ceil, floor
};

/// True for the two-operand operations.
bool is_binary(op kind);

/// An immutable, shared expression. Cheap to copy.
class expr {
public:
  expr();  ///< the constant 0
  expr(double constant);  // NOLINT(implicit): literals read naturally in model code
  expr(int constant) : expr(static_cast<double>(constant)) {}  // NOLINT
  /// A reference to parameter `index` of the model; `name` is used for printing only.
  static expr parameter(std::size_t index, std::string name);

  op kind() const;
  double constant_value() const;          ///< requires kind() == op::constant
  std::size_t parameter_index() const;    ///< requires kind() == op::parameter
  const std::string& parameter_name() const;
  const expr& lhs() const;  ///< first operand (binary and unary operations)
  const expr& rhs() const;  ///< second operand (binary operations)
  bool is_constant() const { return kind() == op::constant; }
  bool is_constant(double value) const;
  /// True when every value of this expression is an integer (parameters are integers).
  bool is_integral() const;
  /// Nodes on the longest path to a leaf (1 for a leaf; saturates at 2^32 - 1). Walkers use
  /// recursion only below a small depth and an explicit stack above it.
  std::uint32_t depth() const;
  /// Structural hash (equal structure -> equal hash).
  std::size_t hash() const;
  /// Structural equality.
  bool same_as(const expr& other) const;
  /// The node's identity, for memoization.
  const void* identity() const { return node_.get(); }

  struct node;

private:
  explicit expr(std::shared_ptr<const node> n) : node_(std::move(n)) {}
  friend expr make_node(op kind, expr a, expr b);
  std::shared_ptr<const node> node_;
};

expr operator+(const expr& a, const expr& b);
expr operator-(const expr& a, const expr& b);
expr operator*(const expr& a, const expr& b);
expr operator/(const expr& a, const expr& b);  ///< real division
expr floor_div(const expr& a, const expr& b);
expr ceil_div(const expr& a, const expr& b);
expr min(const expr& a, const expr& b);
expr max(const expr& a, const expr& b);
expr ceil(const expr& a);
expr floor(const expr& a);

/// The indices of the parameters `e` refers to, ascending, each once.
std::vector<std::size_t> parameters_of(const expr& e);

/// One operation on operand values (b is ignored by ceil and floor): the arithmetic of
/// evaluate() and of constant folding.
double apply(op kind, double a, double b);

/// Evaluates `e` with parameter i bound to params[i] (the reference tree-walking interpreter).
double evaluate(const expr& e, std::span<const double> params);

/// Infix text of `e`, e.g. "ceil(i / i_t1) * (i_t1 / i_t2)"; parameters print by name.
std::string to_string(const expr& e);

/// Parses an expression in the syntax of Odyssey descriptors (Python precedence: + - < * / < unary
/// minus; `/` is real division, `//` floor division; functions ceil, floor, min, max with 2+
/// arguments for min/max). `lookup` maps a name to its parameter expression or returns nullptr
/// for an unknown name. Throws sadsl::error("...at column N...") for malformed text.
using name_lookup = std::function<const expr*(std::string_view name)>;
expr parse_expression(std::string_view text, const name_lookup& lookup);

}  // namespace sadsl::model
