#include "sadsl/poly/dependences.hpp"

#include <isl/flow.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace sadsl {

std::string_view dep_kind_name(dep_kind k) {
  switch (k) {
    case dep_kind::flow: return "flow";
    case dep_kind::anti: return "anti";
    case dep_kind::output: return "output";
    case dep_kind::read: return "read";
  }
  return "?";
}

std::string dependence::distance_str() const {
  if (!uniform) return fmt::format("{}", fmt::streamed(distance));
  return fmt::format("({})", fmt::join(*uniform, ", "));
}

namespace {

const statement_info& by_name(const program& p, const std::string& name) { return p.statement(name); }

size_t common_depth(const statement_info& a, const statement_info& b) {
  size_t n = 0;
  while (n < a.bands.size() && n < b.bands.size() && a.bands[n] == b.bands[n]) ++n;
  return n;
}

// The constant value of every dimension of `deltas`, when each is fixed.
std::optional<std::vector<int64_t>> fixed_point(const isl::set& deltas) {
  isl::set s = deltas.detect_equalities().coalesce();
  std::vector<int64_t> out;
  int n = static_cast<int>(s.tuple_dim());
  for (int d = 0; d < n; ++d) {
    isl::val v = isl::manage(isl_set_plain_get_val_if_fixed(s.get(), isl_dim_set, d));
    if (v.is_nan() || !v.is_int()) return std::nullopt;
    out.push_back(v.get_num_si());
  }
  return out;
}

class dependence_builder {
public:
  explicit dependence_builder(const program& p) : p_(p), schedule_(p.schedule()) {}

  void add_all() {
    for (const auto& sink : p_.statements()) {
      for (const auto& r : sink.reads) {
        auto writes = accesses_of(r.tensor, true);
        add(dep_kind::flow, sink, r, flow(r, writes, {}, {}));
        const auto* array = array_of(r.tensor);
        if (!array->written) add(dep_kind::read, sink, r, flow(r, accesses_of(r.tensor, false), {}, {}));
      }
      auto writes = accesses_of(sink.write.tensor, true);
      add(dep_kind::output, sink, sink.write, flow(sink.write, writes, {}, {}));
      add(dep_kind::anti, sink, sink.write, flow(sink.write, {}, accesses_of(sink.write.tensor, false), writes));
    }
    std::stable_sort(deps_.begin(), deps_.end(), [](const dependence& a, const dependence& b) {
      return static_cast<int>(a.kind) < static_cast<int>(b.kind);
    });
  }

  std::vector<dependence> take() { return std::move(deps_); }

private:
  const array_info* array_of(const tensor_ptr& t) const {
    for (const auto& a : p_.arrays())
      if (a.tensor == t) return &a;
    return nullptr;
  }

  // Every read (written = false) or write access of tensor t, over all statements.
  isl::union_map accesses_of(const tensor_ptr& t, bool written) const {
    isl::union_map all = isl::union_map::empty(p_.context().ctx());
    for (const auto& s : p_.statements()) {
      if (written && s.write.tensor == t) all = all.unite(isl::union_map(s.write.relation));
      if (!written)
        for (const auto& r : s.reads)
          if (r.tensor == t) all = all.unite(isl::union_map(r.relation));
    }
    return all;
  }

  // Last source (must or may, not killed) of every instance of the sink access.
  isl::union_map flow(const access_info& sink, const isl::union_map& must, const isl::union_map& may,
                      const isl::union_map& kill) const {
    isl::union_access_info info(isl::union_map(sink.relation));
    if (!must.is_null()) info = info.set_must_source(must);
    if (!may.is_null()) info = info.set_may_source(may);
    if (!kill.is_null()) info = info.set_kill(kill);
    isl::union_flow f = info.set_schedule(schedule_).compute_flow();
    return f.may_dependence().unite(f.must_dependence()).intersect_params(p_.context());
  }

  void add(dep_kind kind, const statement_info& sink, const access_info& a, const isl::union_map& rel) {
    std::vector<isl::map> maps;
    rel.foreach_map([&](isl::map m) { maps.push_back(m); });
    for (const auto& m : maps) {
      if (m.is_empty()) continue;
      const statement_info& source = by_name(p_, isl_map_get_tuple_name(m.get(), isl_dim_in));
      dependence d;
      d.kind = kind;
      d.source = source.name;
      d.sink = sink.name;
      d.tensor = a.tensor->name;
      d.sink_access = a.str();
      d.relation = m.gist_params(p_.context()).coalesce();
      size_t n = common_depth(source, sink);
      d.loops.assign(sink.loops.begin(), sink.loops.begin() + n);
      d.distance = distance_over_common_loops(d.relation, source, sink, n);
      d.uniform = fixed_point(d.distance);
      deps_.push_back(std::move(d));
    }
  }

  static isl::set distance_over_common_loops(const isl::map& rel, const statement_info& src,
                                             const statement_info& dst, size_t n) {
    isl_map* m = rel.copy();
    m = isl_map_project_out(m, isl_dim_in, n, src.loops.size() - n);
    m = isl_map_project_out(m, isl_dim_out, n, dst.loops.size() - n);
    m = isl_map_reset_tuple_id(m, isl_dim_in);
    m = isl_map_reset_tuple_id(m, isl_dim_out);
    return isl::manage(isl_map_deltas(m)).coalesce();
  }

  const program& p_;
  isl::schedule schedule_;
  std::vector<dependence> deps_;
};

}  // namespace

std::vector<dependence> compute_dependences(const program& p) {
  dependence_builder b(p);
  b.add_all();
  return b.take();
}

}  // namespace sadsl
