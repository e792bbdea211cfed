#include "sadsl/compute/band.hpp"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/space.h>

#include <algorithm>

#include <fmt/format.h>

#include "sadsl/dsl/to_isl.hpp"
#include "sadsl/error.hpp"
#include "sadsl/poly/dump.hpp"
#include "init_placement.hpp"

namespace sadsl {

std::vector<loop_id> band::loop_ids() const {
  std::vector<loop_id> out;
  for (const auto& l : loops) out.push_back(l->loop_identity());
  return out;
}

std::vector<std::string> band::loop_names() const {
  std::vector<std::string> out;
  for (const auto& l : loops) out.push_back(l->name);
  return out;
}

size_t band::position(const loop_id& loop) const {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i]->seq == loop.key()) return i;
  throw error(fmt::format("\"{}\" is not a loop of the band [{}]", loop.name(), fmt::join(loop_names(), ", ")));
}

loop_id band::loop(const std::string& name) const {
  for (const auto& l : loops)
    if (l->name == name) return l->loop_identity();
  throw error(fmt::format("\"{}\" is not a loop of the band [{}]", name, fmt::join(loop_names(), ", ")));
}

affine band::extent(const loop_id& loop) const {
  const auto& l = *loops[position(loop)];
  return l.hi - l.lo;
}

std::string band_dependence::describe(const program& p) const {
  const auto& sink = p.statement(dep.sink);
  const auto& source = p.statement(dep.source);
  return fmt::format("{} dependence of {} ({}) on {} from {} ({})", dep_kind_name(dep.kind), sink.name(),
                     sink.record->str(), access_text(p, dep.sink_access), source.name(), source.record->str());
}

namespace {

size_t common_prefix(const std::vector<int>& a, const std::vector<int>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

class band_finder {
public:
  band_finder(const program& p, const std::vector<dependence>& deps) : p_(p), deps_(deps), b_(p.kernel()) {}

  band find() {
    const auto& stmts = p_.statements();
    for (const auto& s : stmts)
      if (s.bands.empty() || s.bands[0] != stmts[0].bands.front())
        throw error(fmt::format("kernel \"{}\" has several outermost loop nests (statement {} is not in the first); "
                                "a systolic array maps one nest",
                                p_.kernel().name(), s.name()));
    main_ = &*std::max_element(stmts.begin(), stmts.end(), [](const statement_info& a, const statement_info& b) {
      return a.loops.size() < b.loops.size();
    });
    size_t depth = main_->loops.size();
    for (const auto& s : stmts) {
      size_t shared = common_prefix(s.bands, main_->bands);
      if (shared < s.bands.size()) depth = std::min(depth, shared);  // s has loops off the main path
    }
    for (; depth > 1; --depth)
      if (permutable(depth)) break;
    band out = make(depth);
    check_uniform(out);
    check_inner_loops(depth);
    return out;
  }

private:
  // S[x] -> band[x_1..x_depth]: missing loops at their first iteration, or their last for
  // statements that come after the main statement; an implicit initialization at the first
  // instance of its reduction (init_placement.hpp).
  isl::multi_aff placement(const statement_info& s, size_t depth) const {
    const auto& band_loops = main_->record->loops;
    bool after = &s > main_;
    isl::space sp = s.domain.space();
    const statement_info* reduction = detail::reduction_of(p_, s);
    auto first = reduction ? detail::first_reduction_instance(s, *reduction, depth) : std::nullopt;
    if (!first) first.emplace();
    size_t own = s.loops.size();
    std::vector<isl::aff> affs;  // all made before the list: missing_loop_at may throw
    for (size_t d = 0; d < depth; ++d) {
      if (d < own)
        affs.push_back(isl::manage(isl_aff_var_on_domain(isl_local_space_from_space(sp.copy()), isl_dim_set, d)));
      else if (d < own + first->size())
        affs.push_back((*first)[d - own]);
      else
        affs.push_back(missing_loop_at(s, *band_loops[d], after));
    }
    isl_aff_list* list = isl_aff_list_alloc(p_.context().ctx().get(), static_cast<int>(depth));
    for (auto& a : affs) list = isl_aff_list_add(list, a.release());
    isl_space* range = isl_space_set_tuple_name(isl_space_range(isl_space_map_from_domain_and_range(
                                                    sp.copy(), b_.set_space("band", {band_loops.begin(), band_loops.begin() + depth}).release())),
                                                isl_dim_set, "band");
    isl_space* map_space = isl_space_map_from_domain_and_range(sp.copy(), range);
    return isl::manage(isl_multi_aff_from_aff_list(map_space, list));
  }

  // The PEs run the loops below the band as one nest, the main statement's: a statement that
  // nests another loop there (a sequence of loops) has no place in it.
  void check_inner_loops(size_t depth) const {
    const auto& inner = main_->record->loops;
    for (const auto& s : p_.statements())
      for (size_t k = depth; k < s.record->loops.size(); ++k)
        if (s.record->loops[k] != inner.at(k))
          throw error(fmt::format("kernel \"{}\": statements {} ({}) and {} ({}) nest different loops below the band "
                                  "(\"{}\" and \"{}\"); the PEs of a systolic array run one loop nest below its band",
                                  p_.kernel().name(), s.name(), s.record->str(), main_->name(), main_->record->str(),
                                  s.record->loops[k]->name, inner[k]->name),
                      s.record->where);
  }

  // A band loop statement s lacks, at its first iteration (or its last, after the main
  // statement), as an aff on s's domain: its bound may use only loops that s has.
  isl::aff missing_loop_at(const statement_info& s, const detail::symbol_node& l, bool after) const {
    affine bound = after ? l.hi - 1 : l.lo;
    for (const auto& used : bound.loops())
      if (std::find(s.record->loops.begin(), s.record->loops.end(), used) == s.record->loops.end())
        throw error(fmt::format("kernel \"{}\": statement {} ({}) lacks loop \"{}\" of the nest, whose bound depends on loop "
                                "\"{}\" that {} lacks too; a systolic array runs every statement of its band at a point of "
                                "the whole nest",
                                p_.kernel().name(), s.name(), s.record->str(), l.name, used->name, s.name()),
                    s.record->where);
    return b_.to_aff(bound, s.domain.space(), s.record->loops);
  }

  isl::map embedding(const statement_info& s, size_t depth) const {
    return isl::manage(isl_map_from_multi_aff(placement(s, depth).release())).intersect_domain(s.domain);
  }

  isl::union_map embeddings(size_t depth) const {
    isl::union_map all = isl::union_map::empty(p_.context().ctx());
    for (const auto& s : p_.statements()) all = all.unite(isl::union_map(embedding(s, depth)));
    return all;
  }

  static isl::map in_band(const dependence& d, const isl::union_map& emb) {
    isl::union_map m = isl::union_map(d.relation).apply_domain(emb).apply_range(emb);
    return isl::manage(isl_map_from_union_map(m.release()));
  }

  // Every flow, anti and output dependence has non-negative distances on the first `depth` loops.
  bool permutable(size_t depth) const {
    isl::union_map emb = embeddings(depth);
    for (const auto& d : deps_) {
      if (d.kind == dep_kind::read) continue;  // reads commute
      isl::set deltas = in_band(d, emb).deltas();
      for (size_t l = 0; l < depth; ++l) {
        isl_set* below = isl_set_upper_bound_si(deltas.copy(), isl_dim_set, static_cast<unsigned>(l), -1);
        bool has_negative = isl_set_is_empty(below) != isl_bool_true;
        isl_set_free(below);
        if (has_negative) return false;
      }
    }
    return true;
  }

  band make(size_t depth) const {
    band out;
    out.owner = p_.kernel().state();
    out.source = std::make_shared<const program>(p_);
    out.loops.assign(main_->record->loops.begin(), main_->record->loops.begin() + depth);
    for (const auto& s : p_.statements()) out.statements.push_back(s.id);
    out.embedding = embeddings(depth);
    for (const auto& s : p_.statements()) out.placement.emplace(s.id, placement(s, depth));
    for (const auto& d : deps_) {
      band_dependence bd;
      bd.dep = d;
      isl::map rel = in_band(d, out.embedding);
      bd.deltas = rel.deltas().coalesce();
      auto distances = uniform_distances(rel);
      bd.uniform = distances.has_value();
      if (distances) bd.distances = std::move(*distances);
      out.deps.push_back(std::move(bd));
    }
    return out;
  }

  // Reported at the sink statement's recording site (and the source's, when elsewhere).
  void check_uniform(const band& b) const {
    for (const auto& d : b.deps) {
      if (d.uniform) continue;
      const auto& sink = p_.statement(d.dep.sink).record->where;
      const auto& source = p_.statement(d.dep.source).record->where;
      std::string elsewhere = format_location(source) == format_location(sink)
                                  ? ""
                                  : fmt::format(" ({} is recorded at {})", d.dep.source.name(), format_location(source));
      throw error(fmt::format("kernel \"{}\" cannot be mapped to a systolic array: the {} is not uniform over the "
                              "loops [{}]: distance {}{}",
                              p_.kernel().name(), d.describe(p_), fmt::join(b.loop_names(), ", "), isl_str(d.deltas),
                              elsewhere),
                  sink);
    }
  }

  const program& p_;
  const std::vector<dependence>& deps_;
  isl_builder b_;
  const statement_info* main_ = nullptr;
};

}  // namespace

band outermost_band(const program& p) {
  auto deps = compute_dependences(p);
  return band_finder(p, deps).find();
}

}  // namespace sadsl
