// Parser for the expression strings of Odyssey/AutoSA design descriptors (Python syntax subset).
#include <cctype>
#include <charconv>
#include <string>

#include "sadsl/error.hpp"
#include "sadsl/model/expr.hpp"

namespace sadsl::model {
namespace {

class parser {
public:
  parser(std::string_view text, const name_lookup& lookup) : text_(text), lookup_(lookup) {}

  expr parse_all() {
    expr e = parse_sum();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return e;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    // A long expression is quoted by its start only: the column says where the problem is.
    std::string quoted = text_.size() <= 120 ? std::string(text_) : std::string(text_.substr(0, 100)) + "...";
    throw error("bad expression \"" + quoted + "\": " + what + " at column " + std::to_string(pos_ + 1));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  void expect(char c) {
    if (!accept(std::string_view(&c, 1))) fail(std::string("expected '") + c + "'");
  }

  expr parse_sum() {
    expr e = parse_product();
    for (;;) {
      if (accept("+")) e = e + parse_product();
      else if (accept("-")) e = e - parse_product();
      else return e;
    }
  }

  expr parse_product() {
    expr e = parse_unary();
    for (;;) {
      if (accept("//")) e = floor_div(e, parse_unary());
      else if (accept("*")) e = e * parse_unary();
      else if (accept("/")) e = e / parse_unary();
      else return e;
    }
  }

  // A run of signs is read in a loop (text may hold thousands); -(-x) is x exactly in IEEE
  // arithmetic, so only the parity of the minus signs matters.
  expr parse_unary() {
    bool negative = false;
    for (;;) {
      if (accept("-")) negative = !negative;
      else if (!accept("+")) break;
    }
    expr e = parse_primary();
    return negative ? expr(0.0) - e : e;
  }

  expr parse_primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    char c = text_[pos_];
    if (c == '(') {
      nesting guard(*this);
      ++pos_;
      expr e = parse_sum();
      expect(')');
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name();
    fail("unexpected '" + std::string(1, c) + "'");
  }

  expr parse_number() {
    double value = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
    if (ec != std::errc()) fail("bad number");
    pos_ = static_cast<std::size_t>(end - text_.data());
    return expr(value);
  }

  expr parse_name() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    std::string_view name = text_.substr(start, pos_ - start);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') return parse_call(name, start);
    const expr* found = lookup_(name);
    if (!found) {
      pos_ = start;
      fail("unknown name '" + std::string(name) + "'");
    }
    return *found;
  }

  expr parse_call(std::string_view function, std::size_t start) {
    nesting guard(*this);
    ++pos_;  // '('
    std::vector<expr> args{parse_sum()};
    while (accept(",")) args.push_back(parse_sum());
    expect(')');
    if (function == "ceil" || function == "floor") {
      if (args.size() != 1) fail(std::string(function) + "() takes one argument");
      return function == "ceil" ? ceil(args[0]) : floor(args[0]);
    }
    if (function == "min" || function == "max") {
      if (args.size() < 2) fail(std::string(function) + "() takes at least two arguments");
      expr e = args[0];
      for (std::size_t i = 1; i < args.size(); ++i) e = function == "min" ? min(e, args[i]) : max(e, args[i]);
      return e;
    }
    pos_ = start;
    fail("unknown function '" + std::string(function) + "'");
  }

  // Parentheses and calls recurse: their nesting is capped so that no text overflows the stack.
  static constexpr int max_nesting = 200;
  struct nesting {
    explicit nesting(parser& p) : owner(p) {
      if (++owner.depth_ > max_nesting) owner.fail("parentheses nested deeper than " + std::to_string(max_nesting));
    }
    ~nesting() { --owner.depth_; }
    parser& owner;
  };

  std::string_view text_;
  const name_lookup& lookup_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

expr parse_expression(std::string_view text, const name_lookup& lookup) {
  return parser(text, lookup).parse_all();
}

}  // namespace sadsl::model
