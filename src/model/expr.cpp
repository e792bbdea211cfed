#include "sadsl/model/expr.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <cmath>
#include <functional>
#include <optional>
#include <unordered_set>

#include "sadsl/error.hpp"

namespace sadsl::model {

struct expr::node {
  op kind = op::constant;
  double constant = 0;
  std::size_t parameter = 0;   // a parameter's index; an index's (or a sum's index's) id
  std::string name;
  std::vector<expr> operands;  // one for ceil/floor, two for binary operations, lo hi body for sum
  bool integral = true;
  std::uint32_t depth = 1;     // saturates; leaves are 1
  std::size_t hash = 0;
  ~node();
};

// A long chain (a + a + ... + a, 300,000 terms) would be destroyed recursively, one stack frame
// per node: children this node owns alone are unlinked and destroyed from a list instead.
expr::node::~node() {
  std::vector<std::shared_ptr<const node>> pending;
  auto unlink = [&pending](std::vector<expr>& children) {
    for (expr& child : children)
      if (child.node_ && child.node_.use_count() == 1) pending.push_back(std::move(child.node_));
  };
  unlink(operands);
  while (!pending.empty()) {
    std::shared_ptr<const node> last = std::move(pending.back());
    pending.pop_back();
    unlink(const_cast<node&>(*last).operands);  // sole owner: nobody else can see it change
  }
}

namespace {

// pow2_divisor's bits: the low 52 bits of |a| + 2^52 hold |a| (an integer below 2^52), and or'ing
// in those of b + 2^52 (b a power of two) caps their lowest set bit at b; that bit, put back
// above 2^52, is the value. The compiled models' helpers do the same operations.
double lowest_power_of_two(double a, double b) {
  constexpr double big = 0x1p52;
  std::uint64_t bits = std::bit_cast<std::uint64_t>(std::fabs(a) + big) | std::bit_cast<std::uint64_t>(b + big);
  std::uint64_t lowest = bits & (~bits + 1);
  return std::bit_cast<double>(lowest | std::bit_cast<std::uint64_t>(big)) - big;
}

}  // namespace

// The same arithmetic is used for constant folding and for interpretation, so folding a constant
// never changes a result.
double apply(op kind, double a, double b) {
  switch (kind) {
    case op::add: return a + b;
    case op::sub: return a - b;
    case op::mul: return a * b;
    case op::div: return a / b;
    case op::floor_div: return std::floor(a / b);
    case op::ceil_div: return std::ceil(a / b);
    case op::min: return b < a ? b : a;  // Python's min keeps the first of equal values
    case op::max: return b > a ? b : a;
    case op::ceil: return std::ceil(a);
    case op::floor: return std::floor(a);
    case op::pow2_divisor: return lowest_power_of_two(a, b);
    case op::constant:
    case op::parameter:
    case op::index:
    case op::sum:
    case op::maximum: break;
  }
  SADSL_INTERNAL_ASSERT(false, "apply() on a leaf node, a sum or a maximum");
}

namespace {

std::size_t combine(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

bool is_whole(double v) { return std::isfinite(v) && v == std::floor(v); }

bool integral_result(op kind, bool a_integral, bool b_integral) {
  switch (kind) {
    case op::add: case op::sub: case op::mul: case op::min: case op::max:
      return a_integral && b_integral;
    case op::div: return false;
    case op::floor_div: case op::ceil_div: case op::ceil: case op::floor: case op::pow2_divisor: return true;
    case op::constant: case op::parameter: case op::index: case op::sum: case op::maximum: break;
  }
  return true;
}

}  // namespace

bool is_binary(op kind) { return operand_count(kind) == 2; }

std::size_t operand_count(op kind) {
  switch (kind) {
    case op::constant: case op::parameter: case op::index: return 0;
    case op::ceil: case op::floor: return 1;
    case op::sum: case op::maximum: return 3;
    default: return 2;
  }
}

bool is_reduction(op kind) { return kind == op::sum || kind == op::maximum; }

expr::expr() : expr(0.0) {}

expr::expr(double constant) {
  auto n = std::make_shared<node>();
  n->kind = op::constant;
  n->constant = constant;
  n->integral = is_whole(constant);
  n->hash = combine(std::hash<std::uint64_t>()(std::bit_cast<std::uint64_t>(constant)), 1);
  node_ = std::move(n);
}

// A parameter or an index: a leaf known by its number.
expr expr::numbered_leaf(op kind, std::size_t number, std::string name) {
  auto n = std::make_shared<node>();
  n->kind = kind;
  n->parameter = number;
  n->name = std::move(name);
  n->hash = combine(number, kind == op::parameter ? 2 : 3);
  return expr(std::shared_ptr<const node>(std::move(n)));
}

expr expr::parameter(std::size_t index, std::string name) { return numbered_leaf(op::parameter, index, std::move(name)); }
expr expr::index(std::size_t id, std::string name) { return numbered_leaf(op::index, id, std::move(name)); }

op expr::kind() const { return node_->kind; }
double expr::constant_value() const {
  SADSL_INTERNAL_ASSERT(kind() == op::constant, "not a constant");
  return node_->constant;
}
std::size_t expr::parameter_index() const {
  SADSL_INTERNAL_ASSERT(kind() == op::parameter, "not a parameter");
  return node_->parameter;
}
const std::string& expr::parameter_name() const { return node_->name; }
std::size_t expr::index_id() const {
  SADSL_INTERNAL_ASSERT(kind() == op::index || is_reduction(kind()), "not an index, a sum or a maximum");
  return node_->parameter;
}
const expr& expr::operand(std::size_t i) const {
  SADSL_INTERNAL_ASSERT(i < node_->operands.size(), "node has no such operand");
  return node_->operands[i];
}
const expr& expr::body() const {
  SADSL_INTERNAL_ASSERT(is_reduction(kind()), "not a sum or a maximum");
  return node_->operands[2];
}
const expr& expr::lhs() const {
  SADSL_INTERNAL_ASSERT(!node_->operands.empty(), "node has no operand");
  return node_->operands[0];
}
const expr& expr::rhs() const {
  SADSL_INTERNAL_ASSERT(node_->operands.size() >= 2, "node has no second operand");
  return node_->operands[1];
}
bool expr::is_constant(double value) const { return is_constant() && node_->constant == value; }
bool expr::is_integral() const { return node_->integral; }
std::uint32_t expr::depth() const { return node_->depth; }
std::size_t expr::hash() const { return node_->hash; }

bool expr::same_as(const expr& other) const {
  if (node_ == other.node_) return true;
  if (node_ && other.node_ && node_->hash != other.node_->hash) return false;  // most calls: no allocation
  std::vector<std::pair<const expr*, const expr*>> pending{{this, &other}};
  while (!pending.empty()) {
    auto [a, b] = pending.back();
    pending.pop_back();
    if (a->node_ == b->node_) continue;
    const node& x = *a->node_;
    const node& y = *b->node_;
    if (x.hash != y.hash || x.kind != y.kind) return false;
    if (x.kind == op::constant) {
      if (std::bit_cast<std::uint64_t>(x.constant) != std::bit_cast<std::uint64_t>(y.constant)) return false;
      continue;
    }
    if (x.kind == op::parameter || x.kind == op::index || is_reduction(x.kind))
      if (x.parameter != y.parameter) return false;
    for (std::size_t i = 0; i < x.operands.size(); ++i) pending.emplace_back(&x.operands[i], &y.operands[i]);
  }
  return true;
}

std::vector<std::size_t> parameters_of(const expr& e) {
  std::vector<std::size_t> found;
  std::vector<const expr*> pending{&e};
  while (!pending.empty()) {
    const expr* next = pending.back();
    pending.pop_back();
    if (next->kind() == op::parameter) found.push_back(next->parameter_index());
    for (std::size_t i = 0; i < operand_count(next->kind()); ++i) pending.push_back(&next->operand(i));
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

// Builds a node without simplification.
expr make_node(op kind, expr a, expr b) {
  auto n = std::make_shared<expr::node>();
  n->kind = kind;
  n->integral = integral_result(kind, a.is_integral(), b.is_integral());
  n->hash = combine(combine(static_cast<std::size_t>(kind) + 16, a.hash()), is_binary(kind) ? b.hash() : 0);
  std::uint32_t deepest = std::max(a.depth(), is_binary(kind) ? b.depth() : 0u);
  n->depth = deepest == std::numeric_limits<std::uint32_t>::max() ? deepest : deepest + 1;
  n->operands.push_back(std::move(a));
  if (is_binary(kind)) n->operands.push_back(std::move(b));
  return expr(std::shared_ptr<const expr::node>(std::move(n)));
}

namespace {

// Whether `within`, read through nested `kind` nodes (min or max; at most `budget` of them), has
// an operand equal to `e`.
bool among_operands(op kind, const expr& within, const expr& e, int& budget) {
  if (within.same_as(e)) return true;
  if (within.kind() != kind || --budget < 0) return false;
  return among_operands(kind, within.lhs(), e, budget) || among_operands(kind, within.rhs(), e, budget);
}

// max(x, y) where y is a max over x and others is y (min likewise): the latency's maxima over
// the same modules' times nest so (the main phase over every module, then the tile over the
// main phase and a few of the same modules), and this removes a twentieth of an MM model's
// operations. 64 nested nodes are searched at most.
bool absorbs(op kind, const expr& nested, const expr& e) {
  int budget = 64;
  return nested.kind() == kind && among_operands(kind, nested, e, budget);
}

// Whether m is max(x, 1) or max(1, x).
bool at_least_one(const expr& m, const expr& x) {
  return m.kind() == op::max && ((m.lhs().same_as(x) && m.rhs().is_constant(1)) || (m.rhs().same_as(x) && m.lhs().is_constant(1)));
}

// y where product is x y or y x.
std::optional<expr> cofactor(const expr& product, const expr& x) {
  if (product.kind() != op::mul) return std::nullopt;
  if (product.lhs().same_as(x)) return product.rhs();
  if (product.rhs().same_as(x)) return product.lhs();
  return std::nullopt;
}

// Simplifications that are exact in IEEE arithmetic for all finite operands (min and max up to
// the sign of a zero), except that a quotient (x y) / x is y: exact where x is not 0 and the
// product x y is exact, as at every legal point of a model, where such products are integers
// below 2^53 (counts of PEs, tiles, words and cycles) and x, a count the model divides by, is at
// least 1. (A per-PE or per-tile share of a total that the builder wrote as a product.)
expr simplify_binary(op kind, const expr& a, const expr& b) {
  if (a.is_constant() && b.is_constant()) return expr(apply(kind, a.constant_value(), b.constant_value()));
  switch (kind) {
    case op::add:
      if (b.is_constant(0)) return a;
      if (a.is_constant(0)) return b;
      break;
    case op::sub:
      if (b.is_constant(0)) return a;
      if (a.same_as(b)) return expr(0);
      break;
    case op::mul:
      if (b.is_constant(1)) return a;
      if (a.is_constant(1)) return b;
      break;
    case op::div:
      if (b.is_constant(1)) return a;
      // x / max(x, 1) is x below 1 and x / x = 1 from 1 on: min(x, 1), without a division.
      if (at_least_one(b, a)) return simplify_binary(op::min, a, expr(1));
      if (std::optional<expr> y = cofactor(a, b)) return *y;  // (x y) / x
      // (x y) / max(x, 1) is x y below 1 and y from 1 on: y min(x, 1).
      if (b.kind() == op::max)
        for (const expr& x : {b.lhs(), b.rhs()})
          if (at_least_one(b, x))
            if (std::optional<expr> y = cofactor(a, x)) return simplify_binary(op::mul, *y, simplify_binary(op::min, x, expr(1)));
      break;
    case op::floor_div:
    case op::ceil_div:
      if (b.is_constant(1) && a.is_integral()) return a;
      if (std::optional<expr> y = cofactor(a, b); y && y->is_integral()) return *y;  // (x y) / x for an integer y
      break;
    case op::min:
    case op::max:
      if (a.same_as(b) || absorbs(kind, a, b)) return a;
      if (absorbs(kind, b, a)) return b;
      break;
    default: break;
  }
  return make_node(kind, a, b);
}

expr simplify_unary(op kind, const expr& a) {
  if (a.is_constant()) return expr(apply(kind, a.constant_value(), 0));
  if (a.is_integral()) return a;
  return make_node(kind, a, expr());
}

}  // namespace

expr operator+(const expr& a, const expr& b) { return simplify_binary(op::add, a, b); }
expr operator-(const expr& a, const expr& b) { return simplify_binary(op::sub, a, b); }
expr operator*(const expr& a, const expr& b) { return simplify_binary(op::mul, a, b); }
expr operator/(const expr& a, const expr& b) { return simplify_binary(op::div, a, b); }
expr floor_div(const expr& a, const expr& b) { return simplify_binary(op::floor_div, a, b); }
expr ceil_div(const expr& a, const expr& b) { return simplify_binary(op::ceil_div, a, b); }
expr min(const expr& a, const expr& b) { return simplify_binary(op::min, a, b); }
expr max(const expr& a, const expr& b) { return simplify_binary(op::max, a, b); }
expr ceil(const expr& a) { return simplify_unary(op::ceil, a); }
expr floor(const expr& a) { return simplify_unary(op::floor, a); }
expr pow2_divisor(const expr& x, const expr& cap) {
  double c = cap.is_constant() ? cap.constant_value() : 0;
  if (!(c >= 1 && c <= 0x1p51 && std::exp2(std::floor(std::log2(c))) == c))
    throw error("pow2_divisor(" + to_string(x) + ", " + to_string(cap) + "): the cap must be a constant power of two in [1, 2^51]");
  if (c == 1) return expr(1);
  return simplify_binary(op::pow2_divisor, x, cap);
}

namespace {

// True when some node of `e` is `wanted`, visiting the first `operands(node)` operands of each.
template <class Wanted, class Operands>
bool any_node(const expr& e, Wanted wanted, Operands operands) {
  std::vector<const expr*> pending{&e};
  std::unordered_set<const void*> seen;
  while (!pending.empty()) {
    const expr* next = pending.back();
    pending.pop_back();
    if (!seen.insert(next->identity()).second) continue;
    if (wanted(*next)) return true;
    for (std::size_t i = 0; i < operands(*next); ++i) pending.push_back(&next->operand(i));
  }
  return false;
}

// True when `e` has a sum or a maximum over the index `id`.
bool binds_index(const expr& e, std::size_t id) {
  return any_node(e, [id](const expr& x) { return is_reduction(x.kind()) && x.index_id() == id; },
                  [](const expr& x) { return operand_count(x.kind()); });
}

}  // namespace

bool uses_index(const expr& e, std::size_t id) {
  // A sum (or maximum) that binds the index again hides it in its body.
  return any_node(e, [id](const expr& x) { return x.kind() == op::index && x.index_id() == id; },
                  [id](const expr& x) { return is_reduction(x.kind()) && x.index_id() == id ? 2 : operand_count(x.kind()); });
}

// Builds a summation (or maximum) node without simplification.
expr make_reduction(op kind, const expr& index, expr lo, expr hi, expr body) {
  auto n = std::make_shared<expr::node>();
  n->kind = kind;
  n->parameter = index.index_id();
  n->name = index.parameter_name();
  n->integral = body.is_integral();
  n->hash = combine(combine(combine(combine(static_cast<std::size_t>(kind) + 16, n->parameter), lo.hash()), hi.hash()),
                    body.hash());
  std::uint32_t deepest = std::max({lo.depth(), hi.depth(), body.depth()});
  n->depth = deepest == std::numeric_limits<std::uint32_t>::max() ? deepest : deepest + 1;
  n->operands = {std::move(lo), std::move(hi), std::move(body)};
  return expr(std::shared_ptr<const expr::node>(std::move(n)));
}

namespace {

constexpr std::size_t closed_form_degree = 3;
constexpr std::uint32_t closed_form_depth = 64;

// `e` as c_0 + c_1 v + ... + c_3 v^3 in the index v (coefficients free of v), if it is one.
std::optional<std::vector<expr>> polynomial_in(const expr& e, std::size_t id) {
  if (!uses_index(e, id)) return std::vector<expr>{e};
  switch (e.kind()) {
    case op::index: return std::vector<expr>{expr(0), expr(1)};
    case op::add:
    case op::sub: {
      auto a = polynomial_in(e.lhs(), id), b = polynomial_in(e.rhs(), id);
      if (!a || !b) return std::nullopt;
      std::vector<expr> c(std::max(a->size(), b->size()), expr(0));
      for (std::size_t k = 0; k < c.size(); ++k) {
        expr x = k < a->size() ? (*a)[k] : expr(0), y = k < b->size() ? (*b)[k] : expr(0);
        c[k] = e.kind() == op::add ? x + y : x - y;
      }
      return c;
    }
    case op::mul: {
      auto a = polynomial_in(e.lhs(), id), b = polynomial_in(e.rhs(), id);
      if (!a || !b || a->size() + b->size() - 2 > closed_form_degree) return std::nullopt;
      std::vector<expr> c(a->size() + b->size() - 1, expr(0));
      for (std::size_t i = 0; i < a->size(); ++i)
        for (std::size_t j = 0; j < b->size(); ++j) c[i + j] = c[i + j] + (*a)[i] * (*b)[j];
      return c;
    }
    default: return std::nullopt;
  }
}

// 1^k + 2^k + ... + n^k as a polynomial in n (Faulhaber), k <= 3; an identity for every integer
// n, so that sum(lo..hi) = power_sum(hi) - power_sum(lo - 1) whatever their signs.
expr power_sum(std::size_t k, const expr& n) {
  expr triangle = floor_div(n * (n + expr(1)), expr(2));
  switch (k) {
    case 0: return n;
    case 1: return triangle;
    case 2: return floor_div(n * (n + expr(1)) * (expr(2) * n + expr(1)), expr(6));
    default: return triangle * triangle;
  }
}

}  // namespace

namespace {

// The checks sum() and maximum() share: an index, bounds that do not use it, a body that does
// not bind it again.
void check_reduction(const char* what, const expr& index, const expr& lo, const expr& hi, const expr& body) {
  if (index.kind() != op::index)
    throw error(std::string(what) + "() over \"" + to_string(index) + "\", which is not an index (expr::index)");
  std::size_t id = index.index_id();
  if (uses_index(lo, id) || uses_index(hi, id))
    throw error(std::string(what) + "() over index " + index.parameter_name() + ": its bounds (" + to_string(lo) + ".." +
                to_string(hi) + ") use the index itself");
  if (binds_index(body, id))
    throw error(std::string(what) + "() over index " + index.parameter_name() +
                ": its body has a sum or maximum over the same index (id " + std::to_string(id) +
                "); nested sums and maxima need indices of their own");
}

}  // namespace

expr maximum(const expr& index, const expr& lo, const expr& hi, const expr& body) {
  check_reduction("maximum", index, lo, hi, body);
  return make_reduction(op::maximum, index, ceil(lo), floor(hi), body);
}

expr sum(const expr& index, const expr& lo, const expr& hi, const expr& body) {
  check_reduction("sum", index, lo, hi, body);
  std::size_t id = index.index_id();
  expr first = ceil(lo), last = floor(hi);
  // polynomial_in recurses over the body: long chains keep the loop.
  auto poly = body.depth() <= closed_form_depth ? polynomial_in(body, id) : std::nullopt;
  bool exact = poly && std::all_of(poly->begin(), poly->end(), [](const expr& c) { return c.is_integral(); });
  if (!exact) return make_reduction(op::sum, index, first, last, body);
  // The empty sum: hi < lo gives last = lo - 1, where every power sum cancels.
  expr before = first - expr(1);
  expr end = max(last, before);
  expr total = 0;
  for (std::size_t k = 0; k < poly->size(); ++k) {
    if ((*poly)[k].is_constant(0)) continue;
    total = total + (*poly)[k] * (power_sum(k, end) - power_sum(k, before));
  }
  return total;
}

namespace {

// Expressions up to this depth are evaluated recursively (fast); deeper ones with an explicit stack.
constexpr std::uint32_t recursion_limit = 256;

// The values of the indices of the sums being evaluated, by id.
using index_values = std::vector<double>;

double evaluate_any(const expr& e, std::span<const double> params, index_values& indices);

// Term by term, the index ascending: the order the emitted code adds (or compares) in. A
// maximum keeps a NaN term: once NaN, no term compares greater.
double evaluate_reduction(const expr& e, std::span<const double> params, index_values& indices) {
  double lo = evaluate_any(e.lhs(), params, indices), hi = evaluate_any(e.rhs(), params, indices);
  if (!std::isfinite(lo) || !std::isfinite(hi)) return std::numeric_limits<double>::quiet_NaN();
  std::size_t id = e.index_id();
  if (indices.size() <= id) indices.resize(id + 1, std::numeric_limits<double>::quiet_NaN());
  double outer = indices[id];
  double total = 0;
  const bool largest = e.kind() == op::maximum;
  for (double v = lo; v <= hi; v += 1) {
    indices[id] = v;
    double term = evaluate_any(e.body(), params, indices);
    if (!largest) total += term;
    else if (term > total || term != term) total = term;
  }
  indices[id] = outer;
  return total;
}

double evaluate_index(const expr& e, const index_values& indices) {
  SADSL_INTERNAL_ASSERT(e.index_id() < indices.size(), "index " + e.parameter_name() + " used outside a sum over it");
  return indices[e.index_id()];
}

double evaluate_shallow(const expr& e, std::span<const double> params, index_values& indices) {
  switch (e.kind()) {
    case op::constant: return e.constant_value();
    case op::parameter: return params[e.parameter_index()];
    case op::index: return evaluate_index(e, indices);
    case op::sum:
    case op::maximum: return evaluate_reduction(e, params, indices);
    case op::ceil:
    case op::floor: return apply(e.kind(), evaluate_shallow(e.lhs(), params, indices), 0);
    default:
      return apply(e.kind(), evaluate_shallow(e.lhs(), params, indices), evaluate_shallow(e.rhs(), params, indices));
  }
}

double evaluate_deep(const expr& root, std::span<const double> params, index_values& indices) {
  struct frame {
    const expr* e;
    bool operands_done;
  };
  std::vector<frame> work{{&root, false}};
  std::vector<double> values;
  while (!work.empty()) {
    frame f = work.back();
    work.pop_back();
    op kind = f.e->kind();
    if (f.e->depth() <= recursion_limit) {
      values.push_back(evaluate_shallow(*f.e, params, indices));
    } else if (is_reduction(kind)) {
      values.push_back(evaluate_reduction(*f.e, params, indices));  // one frame per nested sum or maximum
    } else if (!f.operands_done) {
      work.push_back({f.e, true});
      if (is_binary(kind)) work.push_back({&f.e->rhs(), false});
      work.push_back({&f.e->lhs(), false});  // evaluated first, so its value is pushed first
    } else if (is_binary(kind)) {
      double b = values.back();
      values.pop_back();
      values.back() = apply(kind, values.back(), b);
    } else {
      values.back() = apply(kind, values.back(), 0);
    }
  }
  return values.back();
}

double evaluate_any(const expr& e, std::span<const double> params, index_values& indices) {
  return e.depth() <= recursion_limit ? evaluate_shallow(e, params, indices) : evaluate_deep(e, params, indices);
}

}  // namespace

double evaluate(const expr& e, std::span<const double> params) {
  index_values indices;
  return evaluate_any(e, params, indices);
}

namespace {

int precedence(op kind) {
  switch (kind) {
    case op::add: case op::sub: return 1;
    case op::mul: case op::div: return 2;
    default: return 3;  // leaves, function calls and sums
  }
}

std::string constant_text(double v) {
  if (is_whole(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

const char* function_name(op kind) {
  switch (kind) {
    case op::ceil: return "ceil";
    case op::floor: return "floor";
    case op::floor_div: return "floor_div";
    case op::ceil_div: return "ceil_div";
    case op::min: return "min";
    case op::max: return "max";
    case op::pow2_divisor: return "pow2_divisor";
    default: return nullptr;
  }
}

}  // namespace

// In-order printing with an explicit stack (expressions may be chains of any length); each node
// is visited once per operand plus once to close, so the text is built in linear time.
std::string to_string(const expr& root) {
  static constexpr const char* symbols[] = {"", "", " + ", " - ", " * ", " / "};
  struct frame {
    const expr* e;
    bool parenthesized;
    int stage = 0;  // operands printed so far
  };
  std::string out;
  std::vector<frame> work{{&root, false}};
  while (!work.empty()) {
    frame& f = work.back();
    const expr& e = *f.e;
    op kind = e.kind();
    if (operand_count(kind) == 0) {
      out += kind == op::constant ? constant_text(e.constant_value()) : e.parameter_name();
      work.pop_back();
      continue;
    }
    if (is_reduction(kind)) {  // sum(v = lo..hi, body), maximum(v = lo..hi, body)
      static constexpr const char* separators[] = {"..", ", ", ")"};
      out += f.stage == 0 ? std::string(kind == op::sum ? "sum(" : "maximum(") + e.parameter_name() + " = "
                          : separators[f.stage - 1];
      if (f.stage == 3) {
        work.pop_back();
        continue;
      }
      const expr& next = e.operand(static_cast<std::size_t>(f.stage++));
      work.push_back({&next, false});  // invalidates f
      continue;
    }
    const char* function = function_name(kind);
    int operands = is_binary(kind) ? 2 : 1;
    if (f.stage == operands) {
      if (function || f.parenthesized) out += ')';
      work.pop_back();
      continue;
    }
    int mine = precedence(kind);
    bool first = f.stage == 0;
    if (first) out += function ? std::string(function) + "(" : f.parenthesized ? "(" : "";
    else out += function ? ", " : symbols[static_cast<int>(kind)];
    const expr& next = first ? e.lhs() : e.rhs();
    // Left-associative: a right operand of equal precedence needs parentheses.
    bool wrap = !function && (first ? precedence(next.kind()) < mine : precedence(next.kind()) <= mine);
    ++f.stage;
    work.push_back({&next, wrap});  // invalidates f
  }
  return out;
}

}  // namespace sadsl::model
