#include "sadsl/compute/expand_locals.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "sadsl/poly/dependences.hpp"

namespace sadsl {

namespace {

bool uses(const std::vector<affine>& index, const detail::symbol_ptr& l) {
  return std::any_of(index.begin(), index.end(), [&](const affine& a) { return a.coefficient(l.get()) != 0; });
}

struct expansion {
  std::vector<detail::symbol_ptr> loops;  // the expansion loops, outermost first
  tensor_ptr expanded;                    // the tensor with the leading dimensions added
  // Per read of the tensor (statement, read index): its flow distance on each expansion loop.
  std::map<std::pair<statement_id, int>, std::vector<int64_t>> read_shift;
};

// Whether tensor t can be expanded, and how.
std::optional<expansion> plan(const program& p, const std::vector<dependence>& deps, const tensor_ptr& t) {
  expansion e;
  const statement_info* first = nullptr;
  for (const auto& s : p.statements()) {
    if (s.write.tensor != t) continue;
    if (s.record->op != update_op::assign) return std::nullopt;  // an accumulation needs its storage
    if (!first) {
      first = &s;
      for (const auto& l : s.record->loops)
        if (!uses(s.record->lhs_index, l)) e.loops.push_back(l);
    } else if (s.record->loops != first->record->loops) {
      return std::nullopt;
    }
  }
  if (!first || e.loops.empty()) return std::nullopt;
  for (const auto& l : e.loops)
    if (!l->lo.loops().empty() || !l->hi.loops().empty()) return std::nullopt;
  for (const auto& s : p.statements()) {
    for (size_t r = 0; r < s.reads.size(); ++r) {
      if (s.reads[r].tensor != t) continue;
      access_ref read{s.id, static_cast<int>(r)};
      std::optional<std::vector<int64_t>> shift;
      for (const auto& d : deps) {
        if (d.kind != dep_kind::flow || d.sink_access != read) continue;
        for (const auto& v : d.distances) {
          auto c = v.constant();
          if (!c) return std::nullopt;
          std::vector<int64_t> here;
          for (const auto& l : e.loops) {
            auto at = std::find(d.loops.begin(), d.loops.end(), l->loop_identity());
            if (at == d.loops.end()) return std::nullopt;
            here.push_back((*c)[at - d.loops.begin()]);
          }
          if (shift && *shift != here) return std::nullopt;
          shift = here;
        }
      }
      if (!shift) return std::nullopt;
      e.read_shift[{s.id, read.read}] = *shift;
    }
  }
  auto node = std::make_shared<detail::tensor_node>(*t);
  std::vector<affine> extents;
  for (const auto& l : e.loops) extents.push_back(l->hi - l->lo);
  extents.insert(extents.end(), t->extents.begin(), t->extents.end());
  node->extents = std::move(extents);
  e.expanded = node;
  return e;
}

class rewriter {
public:
  explicit rewriter(const std::map<tensor_ptr, expansion>& plans) : plans_(plans) {}

  statement_record rewrite(const statement_info& s) const {
    statement_record r = *s.record;
    if (auto it = plans_.find(r.lhs); it != plans_.end()) {
      r.lhs_index = prefixed(it->second, r.lhs_index, nullptr);
      r.lhs = it->second.expanded;
    }
    // statement_info::reads lists an op='s lhs read first, then the rhs reads in this walk's order.
    int next_read = r.op == update_op::assign ? 0 : 1;
    r.rhs = expr(rewrite(s.id, r.rhs.node(), next_read));
    return r;
  }

private:
  std::vector<affine> prefixed(const expansion& e, const std::vector<affine>& index,
                               const std::vector<int64_t>* shift) const {
    std::vector<affine> out;
    for (size_t k = 0; k < e.loops.size(); ++k)
      out.push_back(affine::of(e.loops[k]) - e.loops[k]->lo - (shift ? (*shift)[k] : 0));
    out.insert(out.end(), index.begin(), index.end());
    return out;
  }

  expr_ptr rewrite(const statement_id& stmt, const expr_ptr& e, int& next_read) const {
    auto n = std::make_shared<expr_node>(*e);
    if (n->op == expr_op::read) {
      int read = next_read++;
      if (auto it = plans_.find(n->tensor); it != plans_.end()) {
        n->index = prefixed(it->second, n->index, &it->second.read_shift.at({stmt, read}));
        n->tensor = it->second.expanded;
      }
    }
    for (auto& a : n->args) a = rewrite(stmt, a, next_read);
    return n;
  }

  const std::map<tensor_ptr, expansion>& plans_;
};

}  // namespace

program expand_local_tensors(const program& p) {
  bool has_locals = std::any_of(p.arrays().begin(), p.arrays().end(),
                                [](const array_info& a) { return a.tensor->role == tensor_role::local; });
  if (!has_locals) return p;  // nothing to expand: skip the dependence analysis
  auto deps = compute_dependences(p);
  std::map<tensor_ptr, expansion> plans;
  std::vector<tensor_ptr> tensors;
  for (const auto& a : p.arrays()) {
    tensor_ptr t = a.tensor;
    if (t->role == tensor_role::local)
      if (auto e = plan(p, deps, t)) {
        plans.emplace(t, *e);
        t = e->expanded;
      }
    tensors.push_back(t);
  }
  if (plans.empty()) return p;
  rewriter r(plans);
  std::vector<statement_record> records;
  for (const auto& s : p.statements()) records.push_back(r.rewrite(s));
  return build_program(p.kernel(), records, tensors);
}

}  // namespace sadsl
