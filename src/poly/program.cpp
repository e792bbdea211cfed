#include "sadsl/poly/program.hpp"

#include <isl/flow.h>
#include <isl/schedule.h>
#include <isl/union_set.h>

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"
#include "schedule_tree.hpp"

namespace sadsl {

std::string access_info::str() const {
  std::vector<std::string> idx;
  for (const auto& a : index) idx.push_back(a.str());
  return fmt::format("{}({})", tensor->name, fmt::join(idx, ", "));
}

bool access_info::uses(const loop_id& l) const {
  for (const auto& x : index)
    for (const auto& s : x.loops())
      if (s->loop_identity() == l) return true;
  return false;
}

const access_info& statement_info::access(const access_ref& a) const {
  SADSL_INTERNAL_ASSERT(a.statement == id, "access of another statement");
  SADSL_INTERNAL_ASSERT(a.read < static_cast<int>(reads.size()), "no such read");
  return a.is_write() ? write : reads[static_cast<size_t>(a.read)];
}

size_t statement_info::position(const loop_id& l) const {
  auto at = std::find(loops.begin(), loops.end(), l);
  SADSL_INTERNAL_ASSERT(at != loops.end(), fmt::format("loop {} is not a loop of statement {}", l.name(), name()));
  return static_cast<size_t>(at - loops.begin());
}

const statement_info& program::statement(const std::string& name) const {
  for (const auto& s : statements_)
    if (s.name() == name) return s;
  throw error(fmt::format("kernel \"{}\" has no statement \"{}\"", kernel_.name(), name));
}

const statement_info& program::statement(const statement_id& id) const {
  for (const auto& s : statements_)
    if (s.id == id) return s;
  throw error(fmt::format("kernel \"{}\" has no statement \"{}\"", kernel_.name(), id.name()));
}

namespace {

std::vector<loop_id> ids_of(const std::vector<detail::symbol_ptr>& loops) {
  std::vector<loop_id> out;
  for (const auto& l : loops) out.push_back(l->loop_identity());
  return out;
}

access_info make_access(const isl_builder& b, const statement_record& s, const isl::set& domain,
                        const tensor_ptr& t, const std::vector<affine>& index) {
  return {t, index, b.access_relation(s, *t, index).intersect_domain(domain)};
}

statement_info make_statement(const isl_builder& b, const statement_record& s) {
  statement_info info;
  info.record = std::make_shared<const statement_record>(s);
  info.id = s.id;
  info.domain = b.statement_domain(s);
  info.write = make_access(b, s, info.domain, s.lhs, s.lhs_index);
  for_each_read(*s.value().node(), [&](const expr_node& r) {
    info.reads.push_back(make_access(b, s, info.domain, r.tensor, r.index));
  });
  info.loops = ids_of(s.loops);
  info.reduction_loops = ids_of(s.reduction_loops);
  return info;
}

// An output or local tensor holds nothing the kernel did not write: a read of an element that no
// earlier statement instance wrote (isl's dataflow analysis finds no source) is a user error.
void check_reads_have_sources(const program& p) {
  for (const auto& s : p.statements()) {
    for (const auto& r : s.reads) {
      if (r.tensor->role != tensor_role::output && r.tensor->role != tensor_role::local) continue;
      isl::union_map writes = isl::union_map::empty(p.context().ctx());
      for (const auto& w : p.statements())
        if (w.write.tensor == r.tensor) writes = writes.unite(isl::union_map(w.write.relation));
      isl::union_flow flow = isl::union_access_info(isl::union_map(r.relation))
                                 .set_must_source(writes)
                                 .set_schedule(p.schedule())
                                 .compute_flow();
      isl::union_map unsourced = flow.must_no_source().unite(flow.may_no_source()).intersect_params(p.context());
      if (!unsourced.is_empty())
        throw error(fmt::format("statement {} reads {} tensor \"{}\" at {} before any statement writes that element{}",
                                s.record->str(), role_name(r.tensor->role), r.tensor->name, r.str(),
                                r.tensor->role == tensor_role::output ? "; declare it inout to read its input" : ""),
                    s.record->where);
    }
  }
}

}  // namespace

program build_program(const kernel& k) { return build_program(k, k.statements(), k.tensors()); }

program build_program(const kernel& k, const std::vector<statement_record>& statements,
                      const std::vector<tensor_ptr>& tensors) {
  if (statements.empty()) throw error(fmt::format("kernel \"{}\" has no statements", k.name()));
  program p(k);
  isl_builder b(k);
  p.context_ = b.param_context();
  p.domain_ = isl::union_set(isl::set::empty(b.param_space()));
  p.reads_ = isl::union_map::empty(b.ctx());
  p.writes_ = isl::union_map::empty(b.ctx());
  for (const auto& s : statements) {
    statement_info info = make_statement(b, s);
    p.domain_ = p.domain_.unite(isl::union_set(info.domain));
    p.writes_ = p.writes_.unite(isl::union_map(info.write.relation));
    for (const auto& r : info.reads) p.reads_ = p.reads_.unite(isl::union_map(r.relation));
    p.statements_.push_back(std::move(info));
  }
  for (const auto& t : tensors) {
    bool written = std::any_of(p.statements_.begin(), p.statements_.end(),
                               [&](const statement_info& s) { return s.write.tensor == t; });
    p.arrays_.push_back({t, b.tensor_extent_set(*t), written});
  }
  p.schedule_ = build_schedule_tree(p.statements_);
  check_reads_have_sources(p);
  return p;
}

}  // namespace sadsl
