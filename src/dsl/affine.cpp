#include "sadsl/dsl/affine.hpp"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

namespace detail {
uint64_t next_symbol_seq() { return next_identity_key(); }

size_overrides& thread_size_overrides() {
  thread_local size_overrides overrides;
  return overrides;
}

int64_t size_of(const symbol_node& param) {
  for (const auto& [node, value] : thread_size_overrides())
    if (node.get() == &param) return value;
  return param.user_value;
}
}  // namespace detail

affine::affine(int64_t constant) : constant_(constant) {}
affine::affine(const param& p) { add_term(p.node(), 1); }
affine::affine(const loop& l) { add_term(l.node(), 1); }

affine affine::of(const detail::symbol_ptr& s) {
  affine a;
  a.add_term(s, 1);
  return a;
}

affine affine::make_nonaffine(std::string text) {
  affine a;
  a.nonaffine_ = std::move(text);
  return a;
}

void affine::add_term(const detail::symbol_ptr& s, int64_t c) {
  auto it = std::lower_bound(terms_.begin(), terms_.end(), s->seq,
                             [](const term& t, uint64_t seq) { return t.symbol->seq < seq; });
  if (it != terms_.end() && it->symbol == s) {
    it->coefficient += c;
    if (it->coefficient == 0) terms_.erase(it);
  } else if (c != 0) {
    terms_.insert(it, term{s, c});
  }
}

int64_t affine::coefficient(const detail::symbol_node* s) const {
  for (const auto& t : terms_)
    if (t.symbol.get() == s) return t.coefficient;
  return 0;
}

std::vector<detail::symbol_ptr> affine::loops() const {
  std::vector<detail::symbol_ptr> out;
  for (const auto& t : terms_)
    if (t.symbol->kind == detail::symbol_kind::loop) out.push_back(t.symbol);
  return out;
}

std::string affine::str() const {
  if (!is_affine()) return nonaffine_;
  std::string s;
  for (const auto& t : terms_) {
    int64_t c = t.coefficient;
    if (s.empty()) {
      if (c == -1) s += "-";
      else if (c != 1) s += fmt::format("{}*", c);
    } else {
      s += c < 0 ? " - " : " + ";
      if (c != 1 && c != -1) s += fmt::format("{}*", c < 0 ? -c : c);
    }
    s += t.symbol->name;
  }
  if (s.empty()) return std::to_string(constant_);
  if (constant_ > 0) s += fmt::format(" + {}", constant_);
  if (constant_ < 0) s += fmt::format(" - {}", -constant_);
  return s;
}

namespace {
// Parenthesizes a sum when it becomes an operand of * or /.
std::string operand_text(const affine& a) {
  std::string s = a.str();
  bool compound = a.is_affine() && (a.terms().size() + (a.constant() != 0 ? 1 : 0)) > 1;
  return compound ? "(" + s + ")" : s;
}
}  // namespace

affine operator+(const affine& a, const affine& b) {
  if (!a.is_affine() || !b.is_affine()) return affine::make_nonaffine(a.str() + " + " + b.str());
  affine r = a;
  r.constant_ += b.constant_;
  for (const auto& t : b.terms_) r.add_term(t.symbol, t.coefficient);
  return r;
}

affine operator-(const affine& a) {
  if (!a.is_affine()) return affine::make_nonaffine(std::string("-").append(operand_text(a)));
  affine r;
  r.constant_ = -a.constant_;
  for (const auto& t : a.terms_) r.add_term(t.symbol, -t.coefficient);
  return r;
}

affine operator-(const affine& a, const affine& b) {
  if (!a.is_affine() || !b.is_affine()) return affine::make_nonaffine(a.str() + " - " + operand_text(b));
  return a + (-b);
}

affine operator*(const affine& a, const affine& b) {
  if (!a.is_affine() || !b.is_affine() || (!a.is_constant() && !b.is_constant()))
    return affine::make_nonaffine(operand_text(a) + " * " + operand_text(b));
  const affine& scaled = a.is_constant() ? b : a;
  int64_t factor = a.is_constant() ? a.constant_ : b.constant_;
  affine r;
  r.constant_ = scaled.constant_ * factor;
  for (const auto& t : scaled.terms_) r.add_term(t.symbol, t.coefficient * factor);
  return r;
}

affine operator/(const affine& a, const affine& b) {
  // Integer division is quasi-affine at best; sadsl keeps indices and bounds strictly affine.
  if (a.is_constant() && b.is_constant() && b.constant() != 0 && a.constant() % b.constant() == 0)
    return affine(a.constant() / b.constant());
  return affine::make_nonaffine(operand_text(a) + " / " + operand_text(b));
}

affine operator%(const affine& a, const affine& b) {
  return affine::make_nonaffine(operand_text(a) + " % " + operand_text(b));
}

condition operator&&(const condition& a, const condition& b) {
  auto c = a.constraints_;
  c.insert(c.end(), b.constraints_.begin(), b.constraints_.end());
  return condition(std::move(c), a.text_ + " && " + b.text_);
}

namespace {
condition compare(const affine& a, const affine& b, const char* op, affine expr, bool equality) {
  return condition({{std::move(expr), equality}}, fmt::format("{} {} {}", a.str(), op, b.str()));
}
}  // namespace

condition operator==(const affine& a, const affine& b) { return compare(a, b, "==", a - b, true); }
condition operator<(const affine& a, const affine& b) { return compare(a, b, "<", b - a - 1, false); }
condition operator<=(const affine& a, const affine& b) { return compare(a, b, "<=", b - a, false); }
condition operator>(const affine& a, const affine& b) { return compare(a, b, ">", a - b - 1, false); }
condition operator>=(const affine& a, const affine& b) { return compare(a, b, ">=", a - b, false); }

const std::string& param::name() const { return node_->name; }
int64_t param::value() const { return detail::size_of(*node_); }
param_id param::id() const { return node_->param_identity(); }
void param::set(int64_t value, std::source_location where) const {
  if (value < 1)
    throw error(fmt::format("param \"{}\" set to {}: problem sizes must be at least 1", node_->name, value), where);
  node_->user_value = value;
}

}  // namespace sadsl
