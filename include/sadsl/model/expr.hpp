#pragma once
// The symbolic expression IR of performance models: integer-valued parameters (problem sizes,
// tiling and packing factors) combined by + - * /, floor/ceil division, min, max, ceil, floor,
// and summations over an integer index (the cycles of a triangular nest, tile by tile).
// Values are IEEE doubles, so that imported Odyssey models reproduce Python's real division
// exactly; integer-valued subexpressions stay exact below 2^53. Nodes are immutable and shared;
// the smart constructors simplify (constant folding, x*1, x+0, x/1, x - x, x / max(x, 1), ceil of an integer, ...)
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
  ceil, floor,
  index,      ///< the index of an enclosing sum, by id
  sum,        ///< sum over index = lo..hi of body (operands lo, hi, body)
  pow2_divisor,  ///< the largest power of two dividing an integer, at most a cap (pow2_divisor())
  maximum     ///< the largest of 0 and body over index = lo..hi (operands lo, hi, body)
};

/// True for the two-operand operations.
bool is_binary(op kind);
/// The number of operands of a node of this kind: 0 for leaves, 1 for ceil and floor, 3 for sum
/// and maximum.
std::size_t operand_count(op kind);
/// True for the operations over an index (sum, maximum): they bind it in their body.
bool is_reduction(op kind);

/// An immutable, shared expression. Cheap to copy.
class expr {
public:
  expr();  ///< the constant 0
  expr(double constant);  // NOLINT(implicit): literals read naturally in model code
  expr(int constant) : expr(static_cast<double>(constant)) {}  // NOLINT
  /// A reference to parameter `index` of the model; `name` is used for printing only.
  static expr parameter(std::size_t index, std::string name);
  /// The index of a summation, `id` telling nested sums apart (the builder numbers them, so that
  /// equal models hash equal); `name` is used for printing only. It has a value only inside the
  /// body of a sum() over it.
  static expr index(std::size_t id, std::string name);

  op kind() const;
  double constant_value() const;          ///< requires kind() == op::constant
  std::size_t parameter_index() const;    ///< requires kind() == op::parameter
  const std::string& parameter_name() const;  ///< a parameter's or an index's (and a sum's index's)
  std::size_t index_id() const;  ///< requires kind() == op::index or is_reduction(kind()) (the index it binds)
  const expr& lhs() const;  ///< first operand (binary and unary operations; a sum's lo)
  const expr& rhs() const;  ///< second operand (binary operations; a sum's hi)
  const expr& operand(std::size_t i) const;  ///< i < operand_count(kind())
  const expr& body() const;  ///< requires is_reduction(kind())
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
  static expr numbered_leaf(op kind, std::size_t number, std::string name);
  friend expr make_node(op kind, expr a, expr b);
  friend expr make_reduction(op kind, const expr& index, expr lo, expr hi, expr body);
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
/// The largest power of two that divides the integer |x|, at most `cap` (0 gives cap): a packing
/// factor, in a handful of bit operations where a chain of divisibility tests would cost dozens.
/// `cap` must be a constant power of two in [1, 2^51] (sadsl::error otherwise). Defined for every
/// double by the bits of |x| + 2^52 (exact for integers |x| < 2^52), which the interpreter and
/// the compiled models compute alike, so all paths agree on any input.
expr pow2_divisor(const expr& x, const expr& cap);
/// The sum of `body` over the integers `index` = lo..hi (0 when hi < lo); `index` is an
/// expr::index(), lo and hi must not use it and body must not sum over it again (sadsl::error
/// otherwise: nested sums have indices of their own). A body that is a polynomial of degree 3 or less in
/// the index, with integral coefficients, gets its closed form (Faulhaber's sums, exact while
/// the values stay below 2^53); any other body stays a summation loop, evaluated term by term in
/// ascending order of the index.
expr sum(const expr& index, const expr& lo, const expr& hi, const expr& body);
/// The largest of 0 and `body` over the integers `index` = lo..hi (0 when hi < lo; NaN when a
/// value of body is NaN, or a bound is not finite): the latest of events that a model counts from
/// 0, such as the last PE of a chain to end. `index`, lo, hi and body as for sum() (sadsl::error
/// otherwise). Evaluated term by term in ascending order of the index; no closed form.
expr maximum(const expr& index, const expr& lo, const expr& hi, const expr& body);
/// True when `e` uses the index `id` (outside sums and maxima that bind it again).
bool uses_index(const expr& e, std::size_t id);

/// The indices of the parameters `e` refers to, ascending, each once.
std::vector<std::size_t> parameters_of(const expr& e);

/// One operation on operand values (b is ignored by ceil and floor): the arithmetic of
/// evaluate() and of constant folding.
double apply(op kind, double a, double b);

/// Evaluates `e` with parameter i bound to params[i] (the reference tree-walking interpreter).
/// `e` must not use an index outside a sum over it.
double evaluate(const expr& e, std::span<const double> params);

/// Infix text of `e`, e.g. "ceil(i / i_t1) * (i_t1 / i_t2)"; parameters print by name, a sum as
/// "sum(t = lo..hi, body)", a maximum as "maximum(t = lo..hi, body)".
std::string to_string(const expr& e);

/// Parses an expression in the syntax of Odyssey descriptors (Python precedence: + - < * / < unary
/// minus; `/` is real division, `//` floor division; functions ceil, floor, min, max with 2+
/// arguments for min/max). `lookup` maps a name to its parameter expression or returns nullptr
/// for an unknown name. Throws sadsl::error("...at column N...") for malformed text.
using name_lookup = std::function<const expr*(std::string_view name)>;
expr parse_expression(std::string_view text, const name_lookup& lookup);

}  // namespace sadsl::model
