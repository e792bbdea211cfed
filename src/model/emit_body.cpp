// The evaluation function of a model: straight-line code, each distinct subexpression computed
// once into a local, in first-use order (deterministic).
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include "emit_dialect.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/tile_counts.hpp"

namespace sadsl::model::emit {
namespace {

std::string numbered(char prefix, std::size_t n) {
  std::string name(1, prefix);
  name += std::to_string(n);
  return name;
}

std::string comment_text(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

// The binary exponents k of the values 2^k that `e` takes where every value it takes is a power of
// two (pow2_divisor, and minima, maxima and products of powers of two): then x / e is x times
// 2^-k, the same IEEE result without a division. Read `depth` nodes deep at most.
std::optional<std::pair<int, int>> power_of_two_exponents(const expr& e, int depth = 8) {
  if (e.kind() == op::constant) {
    int k = 0;
    double c = e.constant_value();
    if (!(c > 0) || std::frexp(c, &k) != 0.5) return std::nullopt;
    return std::pair{k - 1, k - 1};
  }
  if (e.kind() == op::pow2_divisor && e.rhs().is_constant()) return std::pair{0, std::ilogb(e.rhs().constant_value())};
  if (depth == 0 || (e.kind() != op::min && e.kind() != op::max && e.kind() != op::mul)) return std::nullopt;
  auto a = power_of_two_exponents(e.lhs(), depth - 1), b = power_of_two_exponents(e.rhs(), depth - 1);
  if (!a || !b) return std::nullopt;
  if (e.kind() == op::mul) return std::pair{a->first + b->first, a->second + b->second};
  return std::pair{std::min(a->first, b->first), std::max(a->second, b->second)};
}

// Whether `divisor` is a power of two computed at run time whose reciprocal is a normal double
// (a constant one the compiler turns into a product itself).
bool divides_by_power_of_two(const expr& divisor) {
  if (divisor.is_constant()) return false;
  auto k = power_of_two_exponents(divisor);
  return k && k->first >= -1000 && k->second <= 1000;
}

// A sum's body ceil_div(c + index x d, m) or floor_div (either operand order of the + and the x;
// c absent or d absent mean 0 and 1), with c, d and m free of the index: the loop computes
// each term from exactly these values, so the closed form can be checked against them.
struct affine_rounding {
  expr constant = 0, slope = 1, divisor;
  bool up = true;  ///< ceil_div, else floor_div
};

std::optional<affine_rounding> affine_rounding_of(const expr& sum) {
  const expr& body = sum.body();
  if (body.kind() != op::ceil_div && body.kind() != op::floor_div) return std::nullopt;
  std::size_t id = sum.index_id();
  auto is_index = [&](const expr& x) { return x.kind() == op::index && x.index_id() == id; };
  affine_rounding r;
  r.up = body.kind() == op::ceil_div;
  r.divisor = body.rhs();
  if (uses_index(r.divisor, id)) return std::nullopt;
  expr product = body.lhs();
  if (product.kind() == op::add) {
    bool index_right = uses_index(product.rhs(), id);
    r.constant = index_right ? product.lhs() : product.rhs();
    product = index_right ? product.rhs() : product.lhs();
    if (uses_index(r.constant, id)) return std::nullopt;
  }
  if (is_index(product)) return r;
  if (product.kind() != op::mul) return std::nullopt;
  if (is_index(product.lhs()) && !uses_index(product.rhs(), id)) r.slope = product.rhs();
  else if (is_index(product.rhs()) && !uses_index(product.lhs(), id)) r.slope = product.lhs();
  else return std::nullopt;
  return r;
}

// Whether a closed form's offset and divisor are constants that meet the exactness condition's
// part on them (integers, c >= 0, 1 <= m <= 2^24), so the emitted check leaves that part out.
bool settled(const affine_rounding& r) {
  auto integer = [](double v) { return std::isfinite(v) && v == std::floor(v); };
  if (!r.constant.is_constant() || !r.divisor.is_constant()) return false;
  double c = r.constant.constant_value(), m = r.divisor.constant_value();
  return integer(c) && integer(m) && c >= 0 && m >= 1 && m <= 16777216.0;
}

bool contains_sum(const expr& root) {
  std::vector<const expr*> work{&root};
  std::unordered_map<const void*, bool> seen;
  while (!work.empty()) {
    const expr* e = work.back();
    work.pop_back();
    if (is_reduction(e->kind())) return true;
    if (!seen.emplace(e->identity(), true).second) continue;
    for (std::size_t i = 0; i < operand_count(e->kind()); ++i) work.push_back(&e->operand(i));
  }
  return false;
}

// Closed-form sums computed together (one loop, dialect::affine_sums): the sums outside every
// sum's body with one c, d, m and rounding whose bounds and c, d, m hold no sum (so all of them
// can be computed before the first is needed), in groups of two or more, each sum once.
std::vector<std::vector<expr>> joint_sums(const std::vector<expr>& roots) {
  std::vector<expr> sums;
  std::unordered_map<const void*, bool> seen;
  std::vector<const expr*> work;
  for (const expr& r : roots) work.push_back(&r);
  while (!work.empty()) {
    const expr* e = work.back();
    work.pop_back();
    if (!seen.emplace(e->identity(), true).second) continue;
    bool is_sum = e->kind() == op::sum;
    if (is_sum) sums.push_back(*e);
    // A body uses its sum's (or maximum's) index: its sums are not computed ahead.
    for (std::size_t i = 0; i < (is_reduction(e->kind()) ? 2 : operand_count(e->kind())); ++i) work.push_back(&e->operand(i));
  }
  std::vector<std::vector<expr>> groups;
  for (const expr& e : sums) {
    std::optional<affine_rounding> r = affine_rounding_of(e);
    if (!r || contains_sum(e.lhs()) || contains_sum(e.rhs()) || contains_sum(r->constant) || contains_sum(r->slope) ||
        contains_sum(r->divisor))
      continue;
    auto alike = [&](const std::vector<expr>& g) {
      std::optional<affine_rounding> q = affine_rounding_of(g.front());
      return q->up == r->up && q->constant.same_as(r->constant) && q->slope.same_as(r->slope) &&
             q->divisor.same_as(r->divisor);
    };
    auto group = std::find_if(groups.begin(), groups.end(), alike);
    if (group == groups.end()) groups.push_back({e});
    else if (std::none_of(group->begin(), group->end(), [&](const expr& m) { return m.same_as(e); }))
      group->push_back(e);
  }
  std::erase_if(groups, [](const std::vector<expr>& g) { return g.size() < 2; });
  return groups;
}

class linearizer {
public:
  linearizer(const dialect& form, std::vector<std::vector<expr>> joint) : form_(form), joint_(std::move(joint)) {}

  /// The name of `root`'s value, emitting a line for every subexpression not computed yet, left
  /// operand first (an explicit stack: expressions may be chains of any length).
  std::string operand(const expr& root) {
    struct frame {
      const expr* e;
      int stage = 0;  // operands emitted so far
    };
    std::vector<frame> work{{&root}};
    std::vector<std::string> names;
    while (!work.empty()) {
      frame& f = work.back();
      const expr& e = *f.e;
      if (f.stage == 0) {
        if (const std::string* known = known_name(e)) {
          names.push_back(*known);
          work.pop_back();
          continue;
        }
        if (is_reduction(e.kind())) {
          std::string name = e.kind() == op::sum ? summation(e) : maximization(e);  // invalidates f
          by_hash_[e.hash()].emplace_back(e, name);
          names.push_back(by_identity_[e.identity()] = name);
          work.pop_back();
          continue;
        }
      }
      if (f.stage < (is_binary(e.kind()) ? 2 : 1)) {
        const expr& next = f.stage == 0 ? e.lhs() : e.rhs();
        ++f.stage;
        work.push_back({&next});  // invalidates f
        continue;
      }
      std::string b = is_binary(e.kind()) ? pop(names) : "";
      std::string a = pop(names);
      std::string name = numbered('t', next_++);
      line("const " + form_.value_type() + " " + name + " = " + value(e, a, b) + ";");
      by_hash_[e.hash()].emplace_back(e, name);
      names.push_back(by_identity_[e.identity()] = name);
      work.pop_back();
    }
    return names.back();
  }

  /// Makes `e` (and every subexpression equal to it) read `name` instead of being computed.
  void define(const expr& e, const std::string& name) {
    by_hash_[e.hash()].emplace_back(e, name);
    by_identity_[e.identity()] = name;
  }

  void line(const std::string& text) { code_ += indent_ + text + "\n"; }
  void require(const std::string& mask, const std::string& why) {
    line("legal = " + form_.both("legal", mask) + ";  // " + comment_text(why));
  }
  const dialect& form() const { return form_; }
  const std::string& code() const { return code_; }

private:
  // The value of `e` from its operands' names: a quotient by a power of two as a product.
  std::string value(const expr& e, const std::string& a, const std::string& b) const {
    bool quotient = e.kind() == op::div || e.kind() == op::floor_div || e.kind() == op::ceil_div;
    if (!quotient || !divides_by_power_of_two(e.rhs())) return form_.operation(e.kind(), a, b);
    std::string reciprocal = form_.power_of_two_reciprocal(b);
    std::string product = e.lhs().is_constant(1) ? reciprocal : form_.operation(op::mul, a, reciprocal);
    if (e.kind() == op::div) return product;
    return form_.operation(e.kind() == op::floor_div ? op::floor : op::ceil, product, "");
  }

  static std::string pop(std::vector<std::string>& names) {
    std::string last = std::move(names.back());
    names.pop_back();
    return last;
  }

  // A summation: its bounds before it, then its loop. A sum of the rounded quotient of an affine
  // function of the index (affine_rounding) is also computed in closed form, taken where the
  // dialect's check says the closed form equals the loop exactly (integers, small enough).
  std::string summation(const expr& e) {
    if (indices_.empty())
      for (const std::vector<expr>& group : joint_)
        if (std::any_of(group.begin(), group.end(), [&](const expr& m) { return m.same_as(e); }))
          return joint_summation(group, e);
    std::string lo = operand(e.lhs()), hi = operand(e.rhs());
    std::optional<affine_rounding> rounding = affine_rounding_of(e);
    if (!rounding) return summation_loop(e, lo, hi);
    std::string c = operand(rounding->constant), d = operand(rounding->slope), m = operand(rounding->divisor);
    std::string total = numbered('t', next_++);
    line(form_.value_type() + " " + total + ";");
    closed_or_loop(e, *rounding, lo, hi, c, d, m, total);
    return total;
  }

  // A maximum: its bounds before it, then its loop (no closed form).
  std::string maximization(const expr& e) {
    std::string lo = operand(e.lhs()), hi = operand(e.rhs());
    return summation_loop(e, lo, hi);
  }

  // `total` = the closed form where it is exact, else the loop.
  void closed_or_loop(const expr& e, const affine_rounding& r, const std::string& lo, const std::string& hi,
                      const std::string& c, const std::string& d, const std::string& m, const std::string& total) {
    line("if (" + form_.affine_sum_exact(lo, hi, c, d, m, settled(r)) + ") " + total + " = " +
         form_.affine_sum(lo, hi, c, d, m, r.up) + ";");
    line("else {");
    std::string outer_indent = indent_;
    indent_ += "  ";
    line(total + " = " + summation_loop(e, lo, hi) + ";");
    indent_ = outer_indent;
    line("}");
  }

  // The sums of `group` (joint_sums) where the first of them is needed: all their bounds, then one
  // loop for all where every closed form is exact, else each sum's closed form or loop. The
  // others' totals are known from here on; `e`'s is returned.
  std::string joint_summation(const std::vector<expr>& group, const expr& e) {
    affine_rounding r = *affine_rounding_of(group.front());
    std::vector<std::string> lo, hi, totals;
    for (const expr& member : group) {
      lo.push_back(operand(member.lhs()));
      hi.push_back(operand(member.rhs()));
    }
    std::string c = operand(r.constant), d = operand(r.slope), m = operand(r.divisor);
    std::string exact;
    for (std::size_t s = 0; s < group.size(); ++s) {
      totals.push_back(numbered('t', next_++));
      line(form_.value_type() + " " + totals.back() + ";");
      exact += (s ? " && " : "") + form_.affine_sum_exact(lo[s], hi[s], c, d, m, settled(r));
    }
    std::vector<std::string> together = form_.affine_sums(lo, hi, c, d, m, r.up, totals);
    std::string outer_indent = indent_;
    if (!together.empty()) {
      line("if (" + exact + ") {");
      indent_ += "  ";
      for (const std::string& text : together) line(text);
      indent_ = outer_indent;
      line("} else {");
      indent_ += "  ";
    }
    for (std::size_t s = 0; s < group.size(); ++s) closed_or_loop(group[s], r, lo[s], hi[s], c, d, m, totals[s]);
    indent_ = outer_indent;
    if (!together.empty()) line("}");
    std::string own;
    for (std::size_t s = 0; s < group.size(); ++s) {
      if (group[s].same_as(e)) own = totals[s];
      by_hash_[group[s].hash()].emplace_back(group[s], totals[s]);
      by_identity_[group[s].identity()] = totals[s];
    }
    return own;
  }

  // The loop of a summation, its body inside, in a scope of its own (what the body computes is
  // not visible after the loop). Sums nest only as deep as the model's loops.
  std::string summation_loop(const expr& e, const std::string& lo, const std::string& hi) {
    std::string total = numbered('t', next_++);
    std::string index = numbered('i', e.index_id());
    for (const auto& text : form_.sum_open(total, index, lo, hi)) line(text);
    auto outer_identity = by_identity_;
    auto outer_hash = by_hash_;
    auto outer_index = indices_.find(e.index_id()) == indices_.end() ? std::nullopt : std::optional(indices_[e.index_id()]);
    indices_[e.index_id()] = index;
    std::string outer_indent = indent_;
    indent_ += "  ";
    std::string term = operand(e.body());
    for (const auto& text : e.kind() == op::sum ? form_.sum_close(total, index, lo, hi, term) : form_.maximum_close(total, term))
      line(text);
    indent_ = outer_indent;
    line("}");
    by_identity_ = std::move(outer_identity);
    by_hash_ = std::move(outer_hash);
    if (outer_index) indices_[e.index_id()] = *outer_index;
    else indices_.erase(e.index_id());
    return total;
  }

  // A constant's, parameter's or index's text, or the name of an equal subexpression computed before.
  const std::string* known_name(const expr& e) {
    if (e.kind() == op::constant || e.kind() == op::parameter) {
      leaf_ = e.kind() == op::constant ? form_.constant(e.constant_value()) : numbered('p', e.parameter_index());
      return &leaf_;
    }
    if (e.kind() == op::index) {
      auto bound = indices_.find(e.index_id());
      SADSL_INTERNAL_ASSERT(bound != indices_.end(), "index " + e.parameter_name() + " used outside a sum over it");
      return &bound->second;
    }
    if (auto found = by_identity_.find(e.identity()); found != by_identity_.end()) return &found->second;
    auto same_hash = by_hash_.find(e.hash());
    if (same_hash == by_hash_.end()) return nullptr;
    for (const auto& [other, name] : same_hash->second)
      if (other.same_as(e)) return &(by_identity_[e.identity()] = name);
    return nullptr;
  }

  std::string leaf_;
  const dialect& form_;
  std::vector<std::vector<expr>> joint_;  // joint_sums of the model
  std::unordered_map<const void*, std::string> by_identity_;
  std::unordered_map<std::size_t, std::vector<std::pair<expr, std::string>>> by_hash_;
  std::unordered_map<std::size_t, std::string> indices_;  // the loop variable of each index in scope
  std::string code_;
  std::string indent_ = "  ";
  std::size_t next_ = 0;
};

long highest_parameter(const expr& e) {
  std::vector<std::size_t> used = parameters_of(e);
  return used.empty() ? -1 : static_cast<long>(used.back());
}

// Inferred parameter = upper bound when 1 <= lower <= upper and lower | upper (see inference).
void emit_inference(linearizer& out, const design_model& model) {
  for (std::size_t i = 0; i < model.params.size(); ++i) {
    const auto& inferred = model.params[i].inferred;
    if (!inferred) continue;
    long self = static_cast<long>(i);
    if (highest_parameter(inferred->lower) >= self || highest_parameter(inferred->upper) >= self)
      throw error("model \"" + model.name + "\": inferred parameter \"" + model.params[i].name +
                  "\" depends on itself or on a parameter after it");
    const dialect& f = out.form();
    std::string lower = out.operand(inferred->lower);
    std::string upper = out.operand(inferred->upper);
    std::string found = f.both(f.both(f.holds(constraint::kind::at_least, lower, f.constant(1)),
                                      f.holds(constraint::kind::at_least, upper, lower)),
                               f.holds(constraint::kind::divides, lower, upper));
    out.require(found, "infer " + model.params[i].name + ": largest multiple of the lower bound dividing the upper");
    std::string p = numbered('p', i);
    out.line(p + " = " + upper + ";");
    out.line(f.store_parameter(i, p));
  }
}

void emit_metrics(linearizer& out, const metric_expressions& m) {
  const dialect& f = out.form();
  std::pair<const char*, const expr*> fields[] = {
      {"latency_prologue", &m.latency_prologue}, {"latency_main", &m.latency_main},
      {"latency_epilogue", &m.latency_epilogue}, {"latency", &m.latency}, {"dsp", &m.dsp},
      {"bram18k", &m.bram18k}, {"uram", &m.uram}, {"lut", &m.lut}, {"ff", &m.ff},
      {"offchip_bytes", &m.offchip_bytes}};
  std::map<std::string, std::string> value;
  for (auto [field, e] : fields) {
    value[field] = out.operand(*e);
    out.line(f.store_metric(field, value[field]));
  }
  out.line(f.store_metric("legal", f.one_if("legal")));
  std::string fits = f.both(f.both(f.holds(constraint::kind::at_most, value["dsp"], f.limit("dsp")),
                                   f.holds(constraint::kind::at_most, value["bram18k"], f.limit("bram18k"))),
                            f.holds(constraint::kind::at_most, value["uram"], f.limit("uram")));
  out.line(f.store_metric("feasible", f.one_if(f.both("legal", fits))));
}

}  // namespace

std::string core_function(const design_model& model, const std::vector<expr>& counts, const dialect& form) {
  metric_expressions metrics = metrics_of(model);
  linearizer out(form, joint_sums(evaluated_expressions(model, metrics)));
  for (const std::string& text : form.load_parameters(model.params.size())) out.line(text);
  for (std::size_t i = 0; i < model.params.size(); ++i)
    out.line("[[maybe_unused]] " + form.value_type() + " " + numbered('p', i) + " = " + form.load_parameter(i) +
             ";  // " + comment_text(model.params[i].name));
  // Each count as the loop would compute it (ceil(a / b) and ceil_div(a, b) are the same
  // operations), from the parameters as read, none of them inferred.
  for (std::size_t k = 0; k < counts.size(); ++k) {
    std::string a = form.load_parameter_at("counts[" + std::to_string(2 * k) + "]");
    std::string b = form.load_parameter_at("counts[" + std::to_string(2 * k + 1) + "]");
    out.line("const " + form.value_type() + " " + numbered('c', k) + " = " + form.operation(op::ceil_div, a, b) + ";");
    out.define(counts[k], numbered('c', k));
  }
  out.line(form.mask_type() + " legal = " + form.all_true() + ";");
  emit_inference(out, model);
  for (const constraint& c : model.constraints) {
    std::string lhs = out.operand(c.lhs);
    std::string rhs = c.relation == constraint::kind::power_of_two ? "" : out.operand(c.rhs);
    out.require(form.holds(c.relation, lhs, rhs), c.description);
  }
  emit_metrics(out, metrics);
  return form.core_signature() + " {\n" + out.code() + "}\n";
}

}  // namespace sadsl::model::emit
