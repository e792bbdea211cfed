#pragma once
// Random small kernels built through the DSL, and a naive evaluator that runs a kernel by walking
// the DSL's own loop structure (no isl): the random-kernels test (tests/poly) draws kernels from
// seeds, the fuzz target fuzz/random_kernel.cpp from its input bytes. Header only, no Catch2.
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <sadsl/sadsl.hpp>

namespace sadsl::testing {

// ---- the naive evaluator -------------------------------------------------------------------

namespace naive {

using env_t = std::map<const detail::symbol_node*, int64_t>;

inline int64_t value_of(const affine& a, const env_t& env) {
  return a.evaluate([&](const detail::symbol_node& s) {
    return s.kind == detail::symbol_kind::param ? detail::size_of(s) : env.at(&s);
  });
}

inline bool holds(const guard& g, const env_t& env) {
  bool all = true;
  for (const auto& c : g.cond.constraints()) {
    int64_t v = value_of(c.expr, env);
    all = all && (c.equality ? v == 0 : v >= 0);
  }
  return g.negated ? !all : all;
}

inline int64_t element(buffers& data, const tensor_ptr& t, const std::vector<affine>& index, const env_t& env) {
  const auto& ext = data.extents(t->name);
  int64_t at = 0;
  for (size_t d = 0; d < index.size(); ++d) {
    int64_t x = value_of(index[d], env);
    if (x < 0 || x >= ext[d]) throw std::logic_error("naive evaluator: index " + std::to_string(x) + " outside " + t->name);
    at = at * ext[d] + x;
  }
  return at;
}

// Values are int32 (computed in wrapping int64, truncated when stored) or float.
template <class P>
P eval(const expr_node& e, buffers& data, const env_t& env) {
  switch (e.op) {
    case expr_op::constant: return std::is_same_v<P, float> ? P(e.fvalue) : P(e.ivalue);
    case expr_op::read:
      if (e.tensor->type == elem_type::f32) return P(data.get<float>(e.tensor->name)[element(data, e.tensor, e.index, env)]);
      return P(data.get<int32_t>(e.tensor->name)[element(data, e.tensor, e.index, env)]);
    case expr_op::neg: return P(0) - eval<P>(*e.args[0], data, env);
    default: break;
  }
  P a = eval<P>(*e.args[0], data, env), b = eval<P>(*e.args[1], data, env);
  switch (e.op) {
    case expr_op::add: return std::is_same_v<P, float> ? P(a + b) : P(uint64_t(a) + uint64_t(b));
    case expr_op::sub: return std::is_same_v<P, float> ? P(a - b) : P(uint64_t(a) - uint64_t(b));
    case expr_op::mul: return std::is_same_v<P, float> ? P(a * b) : P(uint64_t(a) * uint64_t(b));
    case expr_op::min: return b < a ? b : a;
    case expr_op::max: return a < b ? b : a;
    default: throw std::logic_error("naive evaluator: unexpected operation");
  }
}

inline void execute(const statement_record& s, buffers& data, env_t& env) {
  for (const auto& g : s.guards)
    if (!holds(g, env)) return;
  int64_t at = element(data, s.lhs, s.lhs_index, env);
  if (s.lhs->type == elem_type::f32) data.get<float>(s.lhs->name)[at] = eval<float>(*s.value().node(), data, env);
  else data.get<int32_t>(s.lhs->name)[at] = int32_t(eval<int64_t>(*s.value().node(), data, env));
}

// Statements nest in their loops; consecutive ones with the same loop at a depth share it.
inline void walk(const std::vector<const statement_record*>& stmts, size_t depth, buffers& data, env_t& env) {
  for (size_t i = 0; i < stmts.size();) {
    if (stmts[i]->loops.size() <= depth) {
      execute(*stmts[i++], data, env);
      continue;
    }
    auto l = stmts[i]->loops[depth];
    std::vector<const statement_record*> group;
    while (i < stmts.size() && stmts[i]->loops.size() > depth && stmts[i]->loops[depth] == l) group.push_back(stmts[i++]);
    for (int64_t v = value_of(l->lo, env), hi = value_of(l->hi, env); v < hi; ++v) {
      env[l.get()] = v;
      walk(group, depth + 1, data, env);
    }
    env.erase(l.get());
  }
}

}  // namespace naive

/// Runs `k` on `data` by walking the DSL's own loops (no isl).
inline void run_naive(const kernel& k, buffers& data) {
  std::vector<const statement_record*> all;
  for (const auto& s : k.statements()) all.push_back(&s);
  naive::env_t env;
  naive::walk(all, 0, data, env);
}

// ---- the random kernel builder --------------------------------------------------------------

/// Choices from a seeded std::mt19937_64 (the random-kernels test: the seed names the kernel).
class seeded_choices {
public:
  explicit seeded_choices(uint64_t seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

private:
  std::mt19937_64 rng_;
};

/// Choices read from bytes, one byte each (the fuzz target): once they run out, every pick is
/// its lowest value and every chance fails, so any input builds a kernel.
class byte_choices {
public:
  byte_choices(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  int pick(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<unsigned>(hi - lo + 1)); }
  bool chance(double p) { return at_ < size_ && next() < p * 256; }

private:
  unsigned next() { return at_ < size_ ? data_[at_++] : 0; }
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

/// Random small kernels (affine bounds, accesses, guards, several statements, time loops) built
/// through the DSL; `Choices` is seeded_choices or byte_choices.
template <class Choices>
class random_kernel_builder {
public:
  explicit random_kernel_builder(Choices choices) : choices_(std::move(choices)) {}

  kernel make() {
    kernel k("random");
    int nparams = pick(1, 3);
    for (int p = 0; p < nparams; ++p) params_.push_back(k.param(std::string("P").append(std::to_string(p)), pick(1, 4)));
    affine big = 6;
    for (const auto& p : params_) big = big + 2 * affine(p);
    for (int l = 0, n = pick(1, 4); l < n; ++l) loops_.emplace_back(std::string("l").append(std::to_string(l)), bound(true), bound(false));
    elem_type t = chance(0.5) ? elem_type::f32 : elem_type::i32;
    for (int i = 0, n = pick(1, 3); i < n; ++i) inputs_.push_back(add(k, std::string("in").append(std::to_string(i)), t, tensor_role::input, big));
    for (int i = 0, n = pick(1, 2); i < n; ++i)
      outputs_.push_back(add(k, std::string("out").append(std::to_string(i)), t, chance(0.5) ? tensor_role::output : tensor_role::inout, big));
    for (int s = 0, n = pick(1, 4); s < n; ++s) statement(2);
    return k;
  }

private:
  struct any_tensor {
    std::variant<tensor<float>, tensor<int32_t>> handle;
    int rank;
    element_ref operator()(const std::vector<affine>& ix) const {
      return std::visit([&](const auto& t) {
        if (ix.size() == 1) return t(ix[0]);
        if (ix.size() == 2) return t(ix[0], ix[1]);
        return t(ix[0], ix[1], ix[2]);
      }, handle);
    }
  };

  int pick(int lo, int hi) { return choices_.pick(lo, hi); }
  bool chance(double p) { return choices_.chance(p); }
  const loop& any_loop() { return loops_[pick(0, static_cast<int>(loops_.size()) - 1)]; }

  affine bound(bool lower) {
    affine p = params_[pick(0, static_cast<int>(params_.size()) - 1)];
    bool outer = !loops_.empty() && chance(0.4);
    affine l = outer ? affine(any_loop()) : affine(0);
    if (lower) return chance(0.5) ? affine(pick(0, 1)) : l + pick(0, 1);
    return chance(0.6) ? p + pick(0, 2) : l + pick(1, 3);
  }

  any_tensor add(kernel& k, const std::string& name, elem_type t, tensor_role role, const affine& extent) {
    int rank = pick(1, 3);
    std::vector<affine> ext(rank, extent);
    auto make = [&]<class T>(T) -> any_tensor {
      switch (role) {
        case tensor_role::input: return {k.input<T>(name, ext), rank};
        case tensor_role::output: return {k.output<T>(name, ext), rank};
        default: return {k.inout<T>(name, ext), rank};
      }
    };
    return t == elem_type::f32 ? make(float{}) : make(int32_t{});
  }

  std::vector<affine> index(int rank) {
    std::vector<affine> ix;
    for (int d = 0; d < rank; ++d) {
      int form = pick(0, 9);  // mostly loop + c; l - 1 is often rejected (it can be negative)
      if (form == 0) ix.push_back(pick(0, 2));
      else if (form == 1) ix.push_back(affine(any_loop()) + affine(any_loop()));
      else if (form == 2) ix.push_back(affine(any_loop()) - pick(0, 1));
      else ix.push_back(affine(any_loop()) + pick(0, 2));
    }
    return ix;
  }

  expr value(int depth) {
    int form = depth == 0 ? pick(0, 2) : pick(0, 6);
    if (form == 0) return expr(pick(-3, 3));
    if (form <= 2) {
      const auto& sources = chance(0.2) ? outputs_ : inputs_;
      const auto& t = sources[pick(0, static_cast<int>(sources.size()) - 1)];
      return t(index(t.rank));
    }
    expr a = value(depth - 1), b = value(depth - 1);
    switch (pick(0, 4)) {
      case 0: return a + b;
      case 1: return a - b;
      case 2: return a * b;
      case 3: return min(a, b);
      default: return chance(0.5) ? max(a, b) : -a;
    }
  }

  condition cond() {
    affine l = any_loop();
    affine other = chance(0.5) ? affine(any_loop()) : affine(pick(0, 2));
    switch (pick(0, 3)) {
      case 0: return l == other;
      case 1: return l < other;
      case 2: return l >= other;
      default: return l <= params_[0] && l > other;
    }
  }

  void statement(int nesting) {
    int form = nesting > 0 ? pick(0, 5) : 0;
    if (form == 4) {
      if_ branch(cond(), [&] { statement(nesting - 1); });
      if (chance(0.5)) branch.else_([&] { statement(nesting - 1); });
      return;
    }
    if (form == 5) return under(any_loop(), [&] { statement(nesting - 1); });
    const auto& t = outputs_[pick(0, static_cast<int>(outputs_.size()) - 1)];
    element_ref lhs = t(index(t.rank));
    expr rhs = value(2);
    switch (pick(0, 3)) {
      case 0: lhs = rhs; break;
      case 1: lhs += rhs; break;
      case 2: lhs -= rhs; break;
      default: lhs *= rhs; break;
    }
  }

  Choices choices_;
  std::vector<param> params_;
  std::vector<loop> loops_;
  std::vector<any_tensor> inputs_, outputs_;
};

}  // namespace sadsl::testing
