// The statement evaluator: the interpreter's value semantics over reads given as bit patterns.
#include "sadsl/poly/evaluate.hpp"

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "value_semantics.hpp"

namespace sadsl {

namespace {

using namespace value_semantics;

struct node {
  expr_op op;
  elem_type type;
  double fvalue = 0;
  int64_t ivalue = 0;
  int read = -1;
  std::vector<node> args;
};

node compile(const expr_node& e, int& next_read) {
  node n{e.op, e.type, e.fvalue, e.ivalue, -1, {}};
  if (e.op == expr_op::read) n.read = next_read++;
  for (const auto& a : e.args) n.args.push_back(compile(*a, next_read));
  return n;
}

class evaluator {
public:
  evaluator(const uint64_t* reads, const std::string& statement) : reads_(reads), statement_(statement) {}

  template <class P>
  P eval(const node& n) const {
    switch (n.op) {
      case expr_op::constant:
        if constexpr (std::is_floating_point_v<P>) return static_cast<P>(n.fvalue);
        else return static_cast<P>(n.ivalue);
      case expr_op::read:
        return visit_type(n.type, [&](auto t) {
          using T = decltype(t);
          return convert<P>(static_cast<compute_t<T>>(element_value<T>(reads_[n.read])));
        });
      case expr_op::cast: {
        const node& arg = n.args[0];
        return visit_type(n.type, [&](auto to) {
          using To = decltype(to);
          To v = visit_type(arg.type, [&](auto from) { return convert<To>(eval<compute_t<decltype(from)>>(arg)); });
          return convert<P>(static_cast<compute_t<To>>(v));
        });
      }
      case expr_op::neg: return arithmetic<P>(0, eval<P>(n.args[0]), '-');
      default: break;
    }
    P a = eval<P>(n.args[0]), b = eval<P>(n.args[1]);
    switch (n.op) {
      case expr_op::add: return arithmetic<P>(a, b, '+');
      case expr_op::sub: return arithmetic<P>(a, b, '-');
      case expr_op::mul: return arithmetic<P>(a, b, '*');
      case expr_op::div: return divide<P>(a, b, statement_);
      case expr_op::min: return b < a ? b : a;
      case expr_op::max: return a < b ? b : a;
      default: SADSL_INTERNAL_ASSERT(false, "unexpected expression");
    }
  }

private:
  const uint64_t* reads_;
  const std::string& statement_;
};

}  // namespace

struct statement_evaluator::compiled {
  node value;
  elem_type stored;
  std::string statement;
};

statement_evaluator::statement_evaluator(const statement_record& s) : c_(std::make_unique<compiled>()) {
  int reads = 0;
  c_->value = compile(*s.value().node(), reads);
  c_->stored = s.lhs->type;
  c_->statement = s.id.name();
}

statement_evaluator::~statement_evaluator() = default;
statement_evaluator::statement_evaluator(statement_evaluator&&) noexcept = default;
statement_evaluator& statement_evaluator::operator=(statement_evaluator&&) noexcept = default;

uint64_t statement_evaluator::operator()(const uint64_t* reads) const {
  evaluator ev(reads, c_->statement);
  return visit_type(c_->stored, [&](auto t) {
    using T = decltype(t);
    return element_bits<T>(convert<T>(ev.eval<compute_t<T>>(c_->value)));
  });
}

}  // namespace sadsl
