#include "ast_exec.hpp"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/val.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>

#include "sadsl/error.hpp"

namespace sadsl::ast_exec {

namespace {

// Schedule expressions are evaluated in 64 bits; an overflow or a zero divisor would silently run
// the wrong instances, so each is an internal error instead.
[[noreturn]] void arithmetic_failure(const char* what) {
  throw internal_error(fmt::format("interpreter: {} while evaluating a schedule expression", what));
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) arithmetic_failure("64-bit overflow in an addition");
  return r;
}

int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) arithmetic_failure("64-bit overflow in a subtraction");
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) arithmetic_failure("64-bit overflow in a multiplication");
  return r;
}

void check_divisor(int64_t a, int64_t b) {
  if (b == 0) arithmetic_failure("a division by zero");
  if (b == -1 && a == std::numeric_limits<int64_t>::min()) arithmetic_failure("64-bit overflow in a division");
}

int64_t quotient(int64_t a, int64_t b) {  // truncating, as C
  check_divisor(a, b);
  return a / b;
}

int64_t floor_quotient(int64_t a, int64_t b) {
  check_divisor(a, b);
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t remainder(int64_t a, int64_t b) {
  check_divisor(a, b);
  return a % b;
}

// to += a x b; false when a step leaves 64 bits.
bool add_into(int64_t& to, int64_t a, int64_t b) {
  return !__builtin_mul_overflow(a, b, &b) && !__builtin_add_overflow(to, b, &to);
}

// Adds x times `scale` into the affine form `into`; false where x is no sum of slots, constants
// and their products by constants, or a step leaves 64 bits. (Translation is bottom-up, so x's
// arguments are already constants, slots or affine forms where they can be.)
bool accumulate(const int_expr& x, int64_t scale, int_expr& into) {
  auto term = [&](int slot, int64_t coefficient) {
    auto at = std::find_if(into.terms.begin(), into.terms.end(), [&](const auto& t) { return t.first == slot; });
    if (at == into.terms.end()) at = into.terms.insert(into.terms.end(), {slot, 0});
    return add_into(at->second, coefficient, scale);
  };
  switch (x.op) {
    case int_op::constant: return add_into(into.value, x.value, scale);
    case int_op::slot: return term(x.slot, 1);
    case int_op::affine:
      return add_into(into.value, x.value, scale) &&
             std::all_of(x.terms.begin(), x.terms.end(), [&](const auto& t) { return term(t.first, t.second); });
    case int_op::add: return accumulate(x.args[0], scale, into) && accumulate(x.args[1], scale, into);
    case int_op::sub: return scale != std::numeric_limits<int64_t>::min() && accumulate(x.args[0], scale, into) &&
                             accumulate(x.args[1], -scale, into);
    case int_op::neg: return scale != std::numeric_limits<int64_t>::min() && accumulate(x.args[0], -scale, into);
    case int_op::mul:
      for (size_t c = 0; c < 2; ++c) {
        int64_t product = 0;
        if (x.args[c].op == int_op::constant)
          return !__builtin_mul_overflow(scale, x.args[c].value, &product) && accumulate(x.args[1 - c], product, into);
      }
      return false;
    default: return false;
  }
}

// e as constant + sum coefficient x slot when it is a sum of slots and constants and of their
// products by constants, with no step outside 64 bits (else nullopt: such an expression keeps its
// tree, and evaluating it reports the overflow as before).
std::optional<int_expr> affine_form(const int_expr& e) {
  int_expr form;
  form.op = int_op::affine;
  if (!accumulate(e, 1, form)) return std::nullopt;
  std::erase_if(form.terms, [](const auto& t) { return t.second == 0; });
  if (form.terms.empty()) form.op = int_op::constant;
  return form;
}

// How many arguments each operation takes: {min, max} (max < 0: any number from min on).
std::pair<int, int> arity(int_op op) {
  switch (op) {
    case int_op::neg: return {1, 1};
    case int_op::select: return {3, 3};
    case int_op::min: case int_op::max: case int_op::land: case int_op::lor: return {2, -1};
    default: return {2, 2};
  }
}

// Every isl object obtained here is owned by a C++ wrapper at once (isl::manage), so nothing leaks
// when a statement name is unknown and the translation throws half-way.
isl::ast_node managed(isl_ast_node* n) { return isl::manage(n); }
isl::ast_expr managed(isl_ast_expr* e) { return isl::manage(e); }

int64_t to_int64(const isl::val& v) {
  SADSL_INTERNAL_ASSERT(
      v.is_int() && v.ge(std::numeric_limits<long>::min()) && v.le(std::numeric_limits<long>::max()),
      "an isl AST constant does not fit in 64 bits");
  return v.get_num_si();
}

std::string id_name(const isl::ast_expr& e) {
  isl::id id = isl::manage(isl_ast_expr_get_id(e.get()));
  return isl_id_get_name(id.get());
}

class translator {
public:
  translator(const std::map<std::string, int64_t>& params, const std::function<int(const std::string&)>& index)
      : params_(params), index_(index) {}

  node translate_node(const isl::ast_node& tree) {
    isl_ast_node* n = tree.get();
    node out;
    switch (isl_ast_node_get_type(n)) {
      case isl_ast_node_for:
        out.kind = node_kind::for_loop;
        out.slot = slot_of(id_name(managed(isl_ast_node_for_get_iterator(n))));
        out.init = translate_expr(managed(isl_ast_node_for_get_init(n)));
        out.cond = translate_expr(managed(isl_ast_node_for_get_cond(n)));
        out.inc = translate_expr(managed(isl_ast_node_for_get_inc(n)));
        out.children.push_back(translate_node(managed(isl_ast_node_for_get_body(n))));
        break;
      case isl_ast_node_if:
        out.kind = node_kind::if_then;
        out.cond = translate_expr(managed(isl_ast_node_if_get_cond(n)));
        out.children.push_back(translate_node(managed(isl_ast_node_if_get_then_node(n))));
        if (isl_ast_node_if_has_else_node(n) == isl_bool_true)
          out.children.push_back(translate_node(managed(isl_ast_node_if_get_else_node(n))));
        break;
      case isl_ast_node_block: {
        out.kind = node_kind::block;
        isl::ast_node_list list = isl::manage(isl_ast_node_block_get_children(n));
        int count = isl_ast_node_list_n_ast_node(list.get());
        for (int i = 0; i < count; ++i)
          out.children.push_back(translate_node(managed(isl_ast_node_list_get_at(list.get(), i))));
        break;
      }
      case isl_ast_node_mark:
        return translate_node(managed(isl_ast_node_mark_get_node(n)));
      case isl_ast_node_user: {
        out.kind = node_kind::call;
        isl::ast_expr call = managed(isl_ast_node_user_get_expr(n));
        out.statement = index_(id_name(managed(isl_ast_expr_op_get_arg(call.get(), 0))));
        int args = isl_ast_expr_op_get_n_arg(call.get());
        for (int i = 1; i < args; ++i) out.args.push_back(translate_expr(managed(isl_ast_expr_op_get_arg(call.get(), i))));
        break;
      }
      default:
        SADSL_INTERNAL_ASSERT(false, "unexpected isl AST node");
    }
    return out;
  }

  int slots() const { return static_cast<int>(slots_.size()); }
  std::vector<std::string> slot_names() const {
    std::vector<std::string> out(slots_.size());
    for (const auto& [name, slot] : slots_) out[static_cast<size_t>(slot)] = name;
    return out;
  }

private:
  int slot_of(const std::string& name) {
    auto [it, inserted] = slots_.emplace(name, static_cast<int>(slots_.size()));
    return it->second;
  }

  int_expr translate_expr(const isl::ast_expr& expr) {
    isl_ast_expr* e = expr.get();
    int_expr out;
    switch (isl_ast_expr_get_type(e)) {
      case isl_ast_expr_int:
        out.value = to_int64(isl::manage(isl_ast_expr_get_val(e)));
        return out;
      case isl_ast_expr_id: {
        std::string name = id_name(expr);
        if (auto p = params_.find(name); p != params_.end()) {
          out.value = p->second;
        } else {
          out.op = int_op::slot;
          out.slot = slot_of(name);
        }
        return out;
      }
      case isl_ast_expr_op: break;
      default: SADSL_INTERNAL_ASSERT(false, "unexpected isl AST expression");
    }
    out.op = op_of(isl_ast_expr_op_get_type(e));
    int n = isl_ast_expr_op_get_n_arg(e);
    auto [least, most] = arity(out.op);
    SADSL_INTERNAL_ASSERT(n >= least && (most < 0 || n <= most),
                          fmt::format("isl AST operation {} with {} arguments", static_cast<int>(out.op), n));
    for (int i = 0; i < n; ++i) out.args.push_back(translate_expr(managed(isl_ast_expr_op_get_arg(e, i))));
    // Statement coordinates and loop bounds are mostly affine (`7 * c0 + c5`, a bound less a
    // folded size): one sum per evaluation rather than a walk of their trees, a fifth of a
    // verification run.
    if (out.op == int_op::add || out.op == int_op::sub || out.op == int_op::mul || out.op == int_op::neg)
      if (std::optional<int_expr> form = affine_form(out)) return *form;
    return out;
  }

  static int_op op_of(isl_ast_expr_op_type t) {
    switch (t) {
      case isl_ast_expr_op_and: case isl_ast_expr_op_and_then: return int_op::land;
      case isl_ast_expr_op_or: case isl_ast_expr_op_or_else: return int_op::lor;
      case isl_ast_expr_op_max: return int_op::max;
      case isl_ast_expr_op_min: return int_op::min;
      case isl_ast_expr_op_minus: return int_op::neg;
      case isl_ast_expr_op_add: return int_op::add;
      case isl_ast_expr_op_sub: return int_op::sub;
      case isl_ast_expr_op_mul: return int_op::mul;
      case isl_ast_expr_op_div: return int_op::div;
      case isl_ast_expr_op_fdiv_q: return int_op::fdiv_q;
      case isl_ast_expr_op_pdiv_q: return int_op::pdiv_q;
      case isl_ast_expr_op_pdiv_r: return int_op::pdiv_r;
      case isl_ast_expr_op_zdiv_r: return int_op::zdiv_r;
      case isl_ast_expr_op_cond: case isl_ast_expr_op_select: return int_op::select;
      case isl_ast_expr_op_eq: return int_op::eq;
      case isl_ast_expr_op_le: return int_op::le;
      case isl_ast_expr_op_lt: return int_op::lt;
      case isl_ast_expr_op_ge: return int_op::ge;
      case isl_ast_expr_op_gt: return int_op::gt;
      default: SADSL_INTERNAL_ASSERT(false, fmt::format("unexpected isl AST operation {}", static_cast<int>(t)));
    }
  }

  const std::map<std::string, int64_t>& params_;
  const std::function<int(const std::string&)>& index_;
  std::map<std::string, int> slots_;
};

class walker {
public:
  walker(const tree& t, const call_fn& call) : t_(t), call_(call), slots_(static_cast<size_t>(t.slots), 0) {}

  void walk(const node& n) {
    switch (n.kind) {
      case node_kind::for_loop:
        active_.push_back(n.slot);
        for (slots_[n.slot] = evaluate(n.init, slots_); evaluate(n.cond, slots_);
             slots_[n.slot] = checked_add(slots_[n.slot], evaluate(n.inc, slots_)))
          walk(n.children[0]);
        active_.pop_back();
        break;
      case node_kind::if_then:
        if (evaluate(n.cond, slots_)) walk(n.children[0]);
        else if (n.children.size() > 1) walk(n.children[1]);
        break;
      case node_kind::block:
        for (const auto& c : n.children) walk(c);
        break;
      case node_kind::call:
        coords_.resize(n.args.size());
        for (size_t i = 0; i < n.args.size(); ++i) coords_[i] = evaluate(n.args[i], slots_);
        call_(n.statement, coords_.data(), call_site{&t_, &active_, &slots_});
        break;
    }
  }

private:
  const tree& t_;
  const call_fn& call_;
  std::vector<int64_t> slots_, coords_;
  std::vector<int> active_;  // the slots of the enclosing loops, outermost first
};

}  // namespace

int64_t evaluate(const int_expr& e, const std::vector<int64_t>& s) {
  auto a = [&](size_t i) { return evaluate(e.args[i], s); };
  switch (e.op) {
    case int_op::constant: return e.value;
    case int_op::slot: return s[e.slot];
    case int_op::affine: {
      int64_t v = e.value;
      for (auto [slot, c] : e.terms) v = checked_add(v, checked_mul(c, s[static_cast<size_t>(slot)]));
      return v;
    }
    case int_op::add: return checked_add(a(0), a(1));
    case int_op::sub: return checked_sub(a(0), a(1));
    case int_op::mul: return checked_mul(a(0), a(1));
    case int_op::neg: return checked_sub(0, a(0));
    case int_op::div: case int_op::pdiv_q: return quotient(a(0), a(1));  // exact or non-negative: truncation
    case int_op::fdiv_q: return floor_quotient(a(0), a(1));
    case int_op::pdiv_r: case int_op::zdiv_r: return remainder(a(0), a(1));
    // min and max take two or more arguments (isl folds nested bounds into one n-ary operation).
    case int_op::min: {
      int64_t m = a(0);
      for (size_t i = 1; i < e.args.size(); ++i) m = std::min(m, a(i));
      return m;
    }
    case int_op::max: {
      int64_t m = a(0);
      for (size_t i = 1; i < e.args.size(); ++i) m = std::max(m, a(i));
      return m;
    }
    case int_op::land:
      for (size_t i = 0; i < e.args.size(); ++i)
        if (!a(i)) return 0;
      return 1;
    case int_op::lor:
      for (size_t i = 0; i < e.args.size(); ++i)
        if (a(i)) return 1;
      return 0;
    case int_op::eq: return a(0) == a(1);
    case int_op::le: return a(0) <= a(1);
    case int_op::lt: return a(0) < a(1);
    case int_op::ge: return a(0) >= a(1);
    case int_op::gt: return a(0) > a(1);
    case int_op::select: return a(0) ? a(1) : a(2);
  }
  SADSL_INTERNAL_ASSERT(false, "unknown schedule expression operation");
}

namespace {

// Every band member's loop as one loop over all its statements' instances ("atomic"), where isl
// would otherwise separate the iterations that run different statements into loops of their own.
// The instances run in the same order either way (the schedule's); the code is smaller and isl
// builds it about a third faster (TTMc's tiled designs: 0.35 -> 0.25 s, where isl's AST was a
// third of a design's verification run in the interpreter).
isl_schedule_node* atomic_loops(isl_schedule_node* node, void*) {
  if (isl_schedule_node_get_type(node) != isl_schedule_node_band) return node;
  isl_size members = isl_schedule_node_band_n_member(node);
  for (int m = 0; m < members; ++m) node = isl_schedule_node_band_member_set_ast_loop_type(node, m, isl_ast_loop_atomic);
  return node;
}

}  // namespace

tree translate(const isl::schedule& schedule, const isl::set& context, const std::map<std::string, int64_t>& params,
               const std::function<int(const std::string&)>& statement_index) {
  isl_ast_build* build = isl_ast_build_from_context(context.copy());
  isl_schedule* atomic = isl_schedule_map_schedule_node_bottom_up(schedule.copy(), atomic_loops, nullptr);
  isl::ast_node root = isl::manage(isl_ast_build_node_from_schedule(build, atomic));
  isl_ast_build_free(build);
  SADSL_INTERNAL_ASSERT(!root.is_null(), "isl could not generate an AST for the schedule");
  translator t(params, statement_index);
  tree out;
  out.root = t.translate_node(root);
  out.slots = t.slots();
  out.slot_names = t.slot_names();
  return out;
}

void execute(const tree& t, const call_fn& call) { walker(t, call).walk(t.root); }

std::string call_site::str() const {
  std::vector<std::string> parts;
  for (int s : *loops)
    parts.push_back(fmt::format("{} = {}", t->slot_names[static_cast<size_t>(s)], (*slots)[static_cast<size_t>(s)]));
  return parts.empty() ? "outside every loop" : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace sadsl::ast_exec
