#include "sadsl/poly/dependences.hpp"

#include "sadsl/poly/dump.hpp"
#include "sadsl/error.hpp"

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
  if (!uniform) return isl_str(distance);
  std::vector<std::string> vectors;
  for (const auto& v : distances) vectors.push_back(v.str());
  return fmt::format("{}", fmt::join(vectors, " "));
}

std::vector<std::vector<int64_t>> dependence::constant_distances() const {
  std::vector<std::vector<int64_t>> out;
  for (const auto& v : distances) {
    auto c = v.constant();
    if (!c) return {};
    out.push_back(*c);
  }
  return out;
}

namespace {
std::string param_function_str(const isl::pw_aff& f);

// The affine expression of each piece of f.
std::vector<isl::aff> pieces(const isl::pw_aff& f) {
  std::vector<isl::aff> out;
  isl_pw_aff_foreach_piece(
      f.get(),
      [](isl_set* set, isl_aff* aff, void* user) {
        isl_set_free(set);
        static_cast<std::vector<isl::aff>*>(user)->push_back(isl::manage(aff));
        return isl_stat_ok;
      },
      &out);
  return out;
}

// The value of f when it is one constant piece.
std::optional<isl::val> single_constant(const isl::pw_aff& f) {
  auto p = pieces(f);
  if (p.size() != 1 || isl_aff_is_cst(p[0].get()) != isl_bool_true) return std::nullopt;
  return p[0].constant_val();
}
}  // namespace

std::optional<std::vector<int64_t>> distance_vector::constant() const {
  std::vector<int64_t> out;
  for (const auto& c : components) {
    auto k = single_constant(c);
    if (!k) return std::nullopt;
    out.push_back(k->get_num_si());
  }
  return out;
}

bool distance_vector::component_is(size_t d, int64_t v) const {
  const isl::pw_aff& c = components.at(d);
  // A constant piece (every uniform distance): compare the integers, not two pw_affs.
  if (auto k = single_constant(c); k && isl_val_is_int(k->get()) == isl_bool_true)
    return isl_val_cmp_si(k->get(), static_cast<long>(v)) == 0 || c.domain().is_empty();
  isl::pw_aff target = isl::manage(isl_pw_aff_val_on_domain(c.domain().release(), isl_val_int_from_si(c.ctx().get(), v)));
  return isl_pw_aff_is_equal(c.get(), target.get()) == isl_bool_true;
}

std::string distance_vector::str() const {
  std::vector<std::string> parts;
  for (const auto& c : components) parts.push_back(param_function_str(c));
  return fmt::format("({})", fmt::join(parts, ", "));
}

namespace {

// { sink - source } over the first n (shared) loops of source and sink.
isl::set deltas_over_common_loops(const isl::map& rel, size_t n_src, size_t n_dst, size_t n) {
  isl_map* m = rel.copy();
  m = isl_map_project_out(m, isl_dim_in, n, n_src - n);
  m = isl_map_project_out(m, isl_dim_out, n, n_dst - n);
  m = isl_map_reset_tuple_id(m, isl_dim_in);
  m = isl_map_reset_tuple_id(m, isl_dim_out);
  return isl::manage(isl_map_deltas(m)).coalesce();
}

const statement_info& by_name(const program& p, const std::string& name) { return p.statement(name); }

// The reference of access `a` of statement `s` (its write or one of its reads).
access_ref reference_of(const statement_info& s, const access_info& a) {
  if (&a == &s.write) return {s.id, -1};
  for (size_t r = 0; r < s.reads.size(); ++r)
    if (&a == &s.reads[r]) return {s.id, static_cast<int>(r)};
  SADSL_INTERNAL_ASSERT(false, "access of another statement");
}

size_t common_depth(const statement_info& a, const statement_info& b) {
  size_t n = 0;
  while (n < a.bands.size() && n < b.bands.size() && a.bands[n] == b.bands[n]) ++n;
  return n;
}

// The distance of one piece, when each dimension is a function of the params only.
std::optional<distance_vector> param_only_distance(const isl::set& deltas) {
  distance_vector out;
  int n = static_cast<int>(deltas.tuple_dim());
  for (int d = 0; d < n; ++d) {
    isl::pw_aff lo = isl::manage(isl_set_dim_min(deltas.copy(), d));
    isl::pw_aff hi = isl::manage(isl_set_dim_max(deltas.copy(), d));
    if (isl_pw_aff_is_equal(lo.get(), hi.get()) != isl_bool_true) return std::nullopt;
    out.components.push_back(lo.coalesce());
  }
  return out;
}

// The distance vectors of a relation, piece by piece: uniform when every piece has one.
bool piecewise_distances(const isl::map& rel, size_t n_src, size_t n_dst, size_t n, std::vector<distance_vector>& out) {
  bool uniform = true;
  std::vector<std::string> seen;
  rel.foreach_basic_map([&](isl::basic_map piece) {
    auto d = param_only_distance(deltas_over_common_loops(isl::map(piece), n_src, n_dst, n));
    if (!d) {
      uniform = false;
    } else if (std::string text = d->str(); std::find(seen.begin(), seen.end(), text) == seen.end()) {
      seen.push_back(text);
      out.push_back(std::move(*d));
    }
  });
  if (!uniform) out.clear();
  std::stable_sort(out.begin(), out.end(), [](const distance_vector& a, const distance_vector& b) {
    auto ca = a.constant(), cb = b.constant();
    if (ca && cb) return *ca < *cb;
    return ca.has_value() && !cb.has_value();
  });
  return uniform;
}

// A function of the params as the user would write it ("1 - K"); isl's notation when piecewise.
std::string param_function_str(const isl::pw_aff& f) {
  auto p = pieces(f);
  if (p.size() != 1) return isl_str(f);
  std::string text;
  for (const isl::aff& a : p) {
    isl::val c = a.constant_val();
    int nparam = isl_aff_dim(a.get(), isl_dim_param);
    for (int p = 0; p < nparam; ++p) {
      isl::val k = isl::manage(isl_aff_get_coefficient_val(a.get(), isl_dim_param, p));
      if (k.is_zero()) continue;
      long v = k.get_num_si();
      std::string name = isl_aff_get_dim_name(a.get(), isl_dim_param, p);
      if (text.empty()) text += v == 1 ? name : v == -1 ? "-" + name : fmt::format("{}*{}", v, name);
      else text += fmt::format(" {} {}", v < 0 ? '-' : '+', std::abs(v) == 1 ? name : fmt::format("{}*{}", std::abs(v), name));
    }
    long cv = c.get_num_si();
    if (text.empty()) text = std::to_string(cv);
    else if (cv != 0) text = fmt::format("{} {} {}", cv, text.front() == '-' ? '-' : '+', text.front() == '-' ? text.substr(1) : text);
  }
  return text;
}

class dependence_builder {
public:
  explicit dependence_builder(const program& p) : p_(p), schedule_(p.schedule()) {}

  void add_all() {
    for (const auto& sink : p_.statements()) {
      for (const auto& r : sink.reads) {
        auto writes = accesses_of(r.tensor, true);
        if (!writes.is_empty()) add(dep_kind::flow, sink, r, flow(r, writes, {}, {}));  // none for an input
        const auto* array = array_of(r.tensor);
        if (!array->written)
          for (size_t l = 0; l < sink.loops.size(); ++l)
            if (!r.uses(sink.loops[l])) add(dep_kind::read, sink, r, isl::union_map(reuse_along(sink, r, l)));
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

  // { S[x] -> S[x + e_l] } within the statement's domain: the next read of the same element
  // along loop l, which the access does not use.
  static isl::map reuse_along(const statement_info& s, const access_info& a, size_t l) {
    isl::space sp = s.domain.space();
    isl_multi_aff* shift = isl_multi_aff_identity_on_domain_space(sp.copy());
    isl_aff* moved = isl_multi_aff_get_at(shift, static_cast<int>(l));
    shift = isl_multi_aff_set_at(shift, static_cast<int>(l), isl_aff_add_constant_si(moved, 1));
    isl::map next = isl::manage(isl_map_from_multi_aff(shift));
    (void)a;
    return next.intersect_domain(s.domain).intersect_range(s.domain);
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
      // Empty at every size the context allows (a reuse whose pairs need a size below 1): none.
      if (m.intersect_params(p_.context()).is_empty()) continue;
      const statement_info& source = by_name(p_, isl_map_get_tuple_name(m.get(), isl_dim_in));
      dependence d;
      d.owner = p_.kernel().state();
      d.kind = kind;
      d.source = source.id;
      d.sink = sink.id;
      d.tensor = a.tensor->id();
      d.sink_access = reference_of(sink, a);
      d.relation = m.gist_params(p_.context()).coalesce();
      size_t n = common_depth(source, sink);
      d.loops.assign(sink.loops.begin(), sink.loops.begin() + n);
      d.distance = deltas_over_common_loops(d.relation, source.loops.size(), sink.loops.size(), n);
      d.uniform = piecewise_distances(d.relation, source.loops.size(), sink.loops.size(), n, d.distances);
      deps_.push_back(std::move(d));
    }
  }

  const program& p_;
  isl::schedule schedule_;
  std::vector<dependence> deps_;
};

}  // namespace

std::string access_text(const program& p, const access_ref& a) { return p.access(a).str(); }

std::optional<std::vector<distance_vector>> uniform_distances(const isl::map& relation) {
  size_t n = relation.domain().tuple_dim();
  std::vector<distance_vector> out;
  if (!piecewise_distances(relation, n, n, n, out)) return std::nullopt;
  return out;
}

std::vector<dependence> compute_dependences(const program& p) {
  dependence_builder b(p);
  b.add_all();
  return b.take();
}

}  // namespace sadsl
