#include "sadsl/comm/io_groups.hpp"

#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "sadsl/poly/dump.hpp"

namespace sadsl {

std::string_view io_type_name(io_type t) { return t == io_type::exterior ? "exterior" : "interior"; }

namespace {

using direction = std::vector<int64_t>;

// The band distance of one piece of a uniform dependence, on the space loops (its statements'
// band points are functions of their instances: no union of maps to compose with).
direction space_distance(const design& d, const dependence& dep, const isl::basic_map& piece) {
  auto placed = [&](const statement_id& s) {
    return isl::manage(isl_map_from_multi_aff(d.band->placement.at(s).copy()));
  };
  isl::map in_band = isl::map(piece).apply_domain(placed(dep.source)).apply_range(placed(dep.sink));
  isl::set deltas = in_band.deltas();
  direction out;
  for (const auto& l : d.space) {
    int pos = static_cast<int>(d.band->position(l));
    // Nearly always an equality of the piece fixes it: no parametric optima then.
    isl::val fixed = isl::manage(isl_set_plain_get_val_if_fixed(deltas.get(), isl_dim_set, static_cast<unsigned>(pos)));
    if (!fixed.is_null() && fixed.is_int()) {
      out.push_back(fixed.get_num_si());
      continue;
    }
    isl::pw_aff lo = isl::manage(isl_set_dim_min(deltas.copy(), pos));
    isl::pw_aff hi = isl::manage(isl_set_dim_max(deltas.copy(), pos));
    isl::val a = isl::manage(isl_pw_aff_min_val(lo.copy())), b = isl::manage(isl_pw_aff_max_val(hi.copy()));
    SADSL_INTERNAL_ASSERT(a.is_int() && b.is_int() && a.eq(b),
                          fmt::format("a dependence piece of design {} has no constant distance on space loop {}",
                                      d.name(), l.name()));
    out.push_back(a.get_num_si());
  }
  return out;
}

bool is_zero(const direction& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

class group_builder {
public:
  explicit group_builder(const design& d) : d_(d), p_(*d.band->source) {}

  std::vector<io_group> build() {
    for (size_t i = 0; i < d_.band->deps.size(); ++i) add_dependence(i);
    add_reads_without_reuse();
    add_final_writes();
    return std::move(groups_);
  }

private:
  io_group& group(const tensor_id& t, io_group_kind kind, const direction& dir) {
    io_type type = is_zero(dir) ? io_type::interior : io_type::exterior;
    for (auto& g : groups_)
      if (g.tensor == t && g.kind == kind && g.type == type && g.direction == dir) return g;
    io_group g;
    g.owner = d_.band->owner;
    g.tensor = t;
    g.kind = kind;
    g.type = type;
    g.direction = dir;
    g.copy_in = g.copy_out = isl::union_set::empty(p_.context().ctx());
    groups_.push_back(std::move(g));
    return groups_.back();
  }

  static void add_access(io_group& g, const access_ref& a) {
    if (std::find(g.accesses.begin(), g.accesses.end(), a) == g.accesses.end()) g.accesses.push_back(a);
  }

  static void add_dependence_index(io_group& g, size_t i) {
    if (std::find(g.dependences.begin(), g.dependences.end(), i) == g.dependences.end()) g.dependences.push_back(i);
  }

  // One group per (dependence, direction on the space loops), merged with equal ones.
  void add_dependence(size_t i) {
    const dependence& dep = d_.band->deps[i].dep;
    // Final values (output dependences) are grouped by add_final_writes: an output dependence's
    // distance on a space loop need not be constant (several PEs may overwrite one element).
    if (dep.kind == dep_kind::anti || dep.kind == dep_kind::output) return;
    std::map<direction, isl::union_map> by_direction;
    dep.relation.foreach_basic_map([&](isl::basic_map piece) {
      direction dir = space_distance(d_, dep, piece);
      auto [it, inserted] = by_direction.emplace(dir, isl::union_map(isl::map(piece)));
      if (!inserted) it->second = it->second.unite(isl::union_map(isl::map(piece)));
    });
    for (const auto& [dir, rel] : by_direction) {
      io_group& g = group(dep.tensor, dep.kind == dep_kind::read ? io_group_kind::read : io_group_kind::flow, dir);
      add_access(g, dep.sink_access);
      add_dependence_index(g, i);
      if (dep.kind == dep_kind::read) {
        g.copy_in = g.copy_in.unite(rel.domain()).unite(rel.range());
      } else {
        add_access(g, access_ref{dep.source, -1});
        g.copy_in = g.copy_in.unite(rel.range());
        g.copy_out = g.copy_out.unite(rel.domain());
      }
    }
  }

  // Reads of read-only tensors that no reuse dependence serves (FIR's x(i + t)).
  void add_reads_without_reuse() {
    for (const auto& s : p_.statements())
      for (size_t r = 0; r < s.reads.size(); ++r) {
        access_ref a{s.id, static_cast<int>(r)};
        if (written(s.reads[r].tensor->id())) continue;
        bool reused = std::any_of(d_.band->deps.begin(), d_.band->deps.end(), [&](const band_dependence& b) {
          return b.dep.kind == dep_kind::read && b.dep.sink_access == a;
        });
        if (reused) continue;
        io_group& g = group(s.reads[r].tensor->id(), io_group_kind::read, direction(d_.space.size(), 0));
        add_access(g, a);
        g.copy_in = g.copy_in.unite(isl::union_set(s.domain));
      }
  }

  // Output groups: the instances whose write of an output (or inout) tensor is final.
  void add_final_writes() {
    for (const auto& s : p_.statements()) {
      tensor_role role = s.write.tensor->role;
      if (role != tensor_role::output && role != tensor_role::inout) continue;
      isl::union_set overwritten = isl::union_set::empty(p_.context().ctx());
      for (const auto& b : d_.band->deps)
        if (b.dep.kind == dep_kind::output && b.dep.source == s.id) overwritten = overwritten.unite(b.dep.relation.domain());
      isl::union_set final_writes = isl::union_set(s.domain).subtract(overwritten);
      if (final_writes.is_empty()) continue;
      io_group& g = group(s.write.tensor->id(), io_group_kind::output, direction(d_.space.size(), 0));
      add_access(g, access_ref{s.id, -1});
      for (size_t i = 0; i < d_.band->deps.size(); ++i)
        if (d_.band->deps[i].dep.kind == dep_kind::output && d_.band->deps[i].dep.tensor == g.tensor)
          add_dependence_index(g, i);
      g.copy_out = g.copy_out.unite(final_writes);
    }
  }

  bool written(const tensor_id& t) const {
    return std::any_of(p_.arrays().begin(), p_.arrays().end(),
                       [&](const array_info& a) { return a.tensor->id() == t && a.written; });
  }

  const design& d_;
  const program& p_;
  std::vector<io_group> groups_;
};

}  // namespace

std::vector<io_group> io_groups(const design& d) {
  auto groups = group_builder(d).build();
  // Deterministic order: tensors in declaration order (their keys), then as found.
  std::stable_sort(groups.begin(), groups.end(), [](const io_group& a, const io_group& b) { return a.tensor < b.tensor; });
  for (auto& g : groups) {
    g.copy_in = g.copy_in.coalesce();
    g.copy_out = g.copy_out.coalesce();
  }
  return groups;
}

std::string dump_io_groups(const design& d, const std::vector<io_group>& groups) {
  const program& p = *d.band->source;
  std::string out;
  for (size_t i = 0; i < groups.size(); ++i) {
    const io_group& g = groups[i];
    std::vector<std::string> accesses, dir;
    for (const auto& a : g.accesses)
      accesses.push_back(fmt::format("{} {} {}", a.statement.name(), a.is_write() ? "writes" : "reads", access_text(p, a)));
    for (int64_t v : g.direction) dir.push_back(std::to_string(v));
    out += fmt::format("g{}: {} {} {} group, direction ({}), accesses: {}\n", i + 1, g.tensor.name(),
                       io_type_name(g.type), io_group_kind_name(g.kind), fmt::join(dir, ", "), fmt::join(accesses, "; "));
    if (!g.copy_in.is_empty()) out += fmt::format("    W_in:  {}\n", isl_str(g.copy_in));
    if (!g.copy_out.is_empty()) out += fmt::format("    W_out: {}\n", isl_str(g.copy_out));
  }
  return out;
}

}  // namespace sadsl
