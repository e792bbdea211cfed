// The reference interpreter. Statement values follow C semantics so that results are bit-exact
// against hand-written C++ loops: float arithmetic in float, double in double, integer types
// promoted (int64 here, wrapping; uint32 stays modulo 2^32) and truncated only when stored or cast.
#include "sadsl/poly/interpreter.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ast_exec.hpp"
#include "instance_check.hpp"
#include "value_semantics.hpp"
#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// Element address = base + sum(stride[l] * loop_l); per dimension index = offset + sum(coef * loop).
struct compiled_access {
  void* data = nullptr;
  elem_type type;
  std::string text;                         // for messages
  std::vector<int64_t> extents;
  std::vector<int64_t> dim_offset;                   // per dimension
  std::vector<std::pair<size_t, int64_t>> dim_terms;  // (loop, coefficient) of dimension 0, then 1, ...
  std::vector<size_t> dim_end;                        // per dimension: where its terms end

  int64_t element(const int64_t* loops) const {
    int64_t linear = 0;
    size_t t = 0;
    for (size_t d = 0; d < extents.size(); ++d) {
      int64_t x = dim_offset[d];
      for (; t < dim_end[d]; ++t) x += dim_terms[t].second * loops[dim_terms[t].first];
      if (x < 0 || x >= extents[d])
        throw internal_error(fmt::format("interpreter: {} index {} = {} outside [0, {})", text, d, x, extents[d]));
      linear = linear * extents[d] + x;
    }
    return linear;
  }
};

struct value_node {
  expr_op op;
  elem_type type;
  double fvalue = 0;
  int64_t ivalue = 0;
  int access = -1;  // read: index into compiled_statement::reads
  std::vector<value_node> args;
};

struct compiled_statement {
  std::string name;
  compiled_access write;
  std::vector<compiled_access> reads;
  value_node value;
};

using value_semantics::compute_t;
using value_semantics::convert;

template <class T>
T load(const compiled_access& a, int64_t at) {
  return static_cast<T*>(a.data)[at];
}

class evaluator {
public:
  evaluator(const compiled_statement& s, const int64_t* loops) : s_(s), loops_(loops) {}

  template <class P>
  P eval(const value_node& n) const {
    switch (n.op) {
      case expr_op::constant:
        if constexpr (std::is_floating_point_v<P>) return static_cast<P>(n.fvalue);
        else return static_cast<P>(n.ivalue);
      case expr_op::read: return read<P>(n);
      case expr_op::cast: return cast<P>(n);
      case expr_op::neg: return wrap<P>(0, eval<P>(n.args[0]), '-');
      default: break;
    }
    P a = eval<P>(n.args[0]), b = eval<P>(n.args[1]);
    switch (n.op) {
      case expr_op::add: return wrap<P>(a, b, '+');
      case expr_op::sub: return wrap<P>(a, b, '-');
      case expr_op::mul: return wrap<P>(a, b, '*');
      case expr_op::div: return divide<P>(a, b);
      case expr_op::min: return b < a ? b : a;
      case expr_op::max: return a < b ? b : a;
      default: SADSL_INTERNAL_ASSERT(false, "unexpected expression");
    }
  }

private:
  template <class P>
  P read(const value_node& n) const {
    const compiled_access& a = s_.reads[n.access];
    int64_t at = a.element(loops_);
    return visit_type(a.type, [&](auto t) { return convert<P>(static_cast<compute_t<decltype(t)>>(load<decltype(t)>(a, at))); });
  }

  template <class P>
  P cast(const value_node& n) const {
    const value_node& arg = n.args[0];
    return visit_type(n.type, [&](auto to) {
      using To = decltype(to);
      To v = visit_type(arg.type, [&](auto from) { return convert<To>(eval<compute_t<decltype(from)>>(arg)); });
      return convert<P>(static_cast<compute_t<To>>(v));
    });
  }

  template <class P>
  static P wrap(P a, P b, char op) {
    return value_semantics::arithmetic<P>(a, b, op);
  }

  template <class P>
  P divide(P a, P b) const {
    return value_semantics::divide<P>(a, b, s_.name);
  }

  const compiled_statement& s_;
  const int64_t* loops_;
};

class statement_compiler {
public:
  statement_compiler(buffers& data, buffers& locals, const std::vector<loop_id>& loops,
                     const std::vector<stored_layout>& layouts)
      : data_(data), locals_(locals), loops_(loops), layouts_(layouts) {}

  compiled_access access(const tensor_ptr& t, const std::vector<affine>& logical_index) {
    std::vector<affine> index = logical_index;  // in stored order
    for (const auto& l : layouts_)
      if (l.tensor == t->id())
        for (size_t d = 0; d < l.order.size(); ++d) index[d] = logical_index.at(l.order[d]);
    auto& b = t->role == tensor_role::local ? locals_.all().at(t->name) : data_.all().at(t->name);
    compiled_access a;
    a.data = std::visit([](auto& v) { return static_cast<void*>(v.data()); }, b.data);
    a.type = t->type;
    a.extents = b.extents;
    std::vector<std::string> idx;
    for (const auto& x : index) {
      idx.push_back(x.str());
      std::vector<int64_t> coef(loops_.size(), 0);
      int64_t offset = x.evaluate([&](const detail::symbol_node& s) -> int64_t {
        if (s.kind == detail::symbol_kind::param) return detail::size_of(s);
        coef[position(s.loop_identity())] += x.coefficient(&s);
        return 0;
      });
      a.dim_offset.push_back(offset);
      for (size_t l = 0; l < coef.size(); ++l)  // the loops the index uses (most use one or two)
        if (coef[l] != 0) a.dim_terms.emplace_back(l, coef[l]);
      a.dim_end.push_back(a.dim_terms.size());
    }
    a.text = fmt::format("{}({})", t->name, fmt::join(idx, ", "));
    return a;
  }

  value_node value(const expr_node& e, std::vector<compiled_access>& reads) {
    value_node n{e.op, e.type, e.fvalue, e.ivalue, -1, {}};
    if (e.op == expr_op::read) {
      n.access = static_cast<int>(reads.size());
      reads.push_back(access(e.tensor, e.index));
    }
    for (const auto& a : e.args) n.args.push_back(value(*a, reads));
    return n;
  }

private:
  size_t position(const loop_id& loop) const {
    for (size_t i = 0; i < loops_.size(); ++i)
      if (loops_[i] == loop) return i;
    SADSL_INTERNAL_ASSERT(false, "loop " + loop.name() + " is not a loop of the statement");
  }
  buffers& data_;
  buffers& locals_;
  const std::vector<loop_id>& loops_;
  const std::vector<stored_layout>& layouts_;
};

std::vector<compiled_statement> compile_statements(const program& p, buffers& data, buffers& locals,
                                                   const std::vector<stored_layout>& layouts) {
  std::vector<compiled_statement> out;
  for (const auto& s : p.statements()) {
    statement_compiler c(data, locals, s.loops, layouts);
    compiled_statement cs;
    cs.name = s.name();
    cs.write = c.access(s.record->lhs, s.record->lhs_index);
    cs.value = c.value(*s.record->value().node(), cs.reads);
    out.push_back(std::move(cs));
  }
  return out;
}

void execute_statement(const compiled_statement& s, const int64_t* loops) {
  evaluator ev(s, loops);
  int64_t at = s.write.element(loops);
  visit_type(s.write.type, [&](auto t) {
    using T = decltype(t);
    static_cast<T*>(s.write.data)[at] = convert<T>(ev.eval<compute_t<T>>(s.value));
  });
}

std::vector<tensor_ptr> tensors_of(const program& p) {
  std::vector<tensor_ptr> out;
  for (const auto& a : p.arrays()) out.push_back(a.tensor);
  return out;
}

void check_extents(const program& p, const buffers& data, const std::vector<stored_layout>& layouts) {
  buffers expected(p.kernel().name(), tensors_of(p));
  for (const auto& l : layouts) expected.permute(l.tensor.name(), l.order);
  for (const auto& [name, b] : expected.all())
    if (data.extents(name) != b.extents)
      throw error(fmt::format("buffers of kernel \"{}\" were sized for other param values than the current ones "
                              "(tensor \"{}\")",
                              p.kernel().name(), name));
}

}  // namespace

void run(const program& p, buffers& data) { run(p, p.schedule(), data, run_options{}); }

void run(const program& p, buffers& data, const run_options& options) { run(p, p.schedule(), data, options); }

void run(const program& p, const isl::schedule& schedule, buffers& data) { run(p, schedule, data, run_options{}); }

void run(const program& p, const isl::schedule& schedule, buffers& data, const std::vector<stored_layout>& layouts) {
  run(p, schedule, data, run_options{layouts, false});
}

void run(const program& p, const isl::schedule& schedule, buffers& data, const run_options& options) {
  check_extents(p, data, options.layouts);
  buffers locals(p.kernel().name(), tensors_of(p), true);  // zero-filled, for this run only
  std::vector<compiled_statement> statements = compile_statements(p, data, locals, options.layouts);
  std::map<std::string, int64_t> params;
  for (const auto& prm : p.kernel().params()) params[prm.name()] = prm.value();
  auto index = [&](const std::string& name) {
    for (size_t i = 0; i < statements.size(); ++i)
      if (statements[i].name == name) return static_cast<int>(i);
    throw error(fmt::format("schedule names statement \"{}\", which kernel \"{}\" does not have", name,
                            p.kernel().name()));
  };
  isl::set values = isl_builder(p.kernel()).param_values().intersect(p.context());
  // isl builds the AST for every size the program allows, not for these sizes: the same instances
  // in the same order at these sizes, and a fifth less of isl's work (TTMc's, CNN's and LU's
  // tiled designs: 15-25% fewer instructions in a verification run), where fixed sizes made isl
  // carry them through its eliminations. (Sizes outside the program's context run nothing.)
  ast_exec::tree tree = ast_exec::translate(schedule, values.is_empty() ? values : p.context(), params, index);
  if (!options.check_instances) {
    ast_exec::execute(tree, [&](int stmt, const int64_t* coords, const ast_exec::call_site&) {
      execute_statement(statements[stmt], coords);
    });
    return;
  }
  // Checked before executing: an instance outside its domain is reported as such, not as an access
  // out of bounds.
  detail::instance_checker checker(p, values);
  ast_exec::execute(tree, [&](int stmt, const int64_t* coords, const ast_exec::call_site& where) {
    checker.executed(stmt, coords, where);
    execute_statement(statements[stmt], coords);
  });
  checker.finish();
}

}  // namespace sadsl
