// The parameters of a design's model and the expressions its counts are made of.
#include "symbols.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/error.hpp"

namespace sadsl::modeling {

symbols::symbols(const design& d, model::design_model& m) : d_(d), prog_(*d.band->source) {
  for (const auto& p : prog_.kernel().params()) {
    param_index_[p.id().key()] = m.params.size();
    model::parameter x;
    x.name = p.name();
    x.origin = model::problem_size_origin{p.id()};
    m.params.push_back(std::move(x));
  }
  std::map<factor_id, size_t> index;
  for (const auto& f : d.factors) {
    index[f.id] = m.params.size();
    model::parameter x;
    x.name = d.name_of(f.id);
    x.origin = f.id;
    x.power_of_two = f.power_of_two;
    x.lower_bound = expr(1);
    m.params.push_back(std::move(x));
  }
  auto param = [&](const factor_id& f) { return expr::parameter(index.at(f), m.params[index.at(f)].name); };
  for (const auto& f : d.factors) {
    model::parameter& x = m.params[index.at(f.id)];
    if (f.parent) {
      expr upper = param(*f.parent);
      if (f.max_value > 0) upper = model::min(upper, expr(static_cast<double>(f.max_value)));
      x.upper_bound = upper;
      x.divides.push_back(index.at(*f.parent));
      m.params[index.at(*f.parent)].split_by = index.at(f.id);
    } else {
      param_affine extent = box_extent(f.id.loop);
      x.upper_bound = of_params(extent);
      // The tuner knows a tiled loop by its problem size's split_by chain.
      if (extent.constant == 0 && extent.terms.size() == 1 && extent.terms.begin()->second == 1) {
        const uint64_t param = extent.terms.begin()->first;
        size_t size = size_of_loop(m, param, f.id.loop);
        m.params[size].split_by = index.at(f.id);
        if (size != param_index_.at(param)) {
          // A loop that shares its size counts with its own size parameter, so that the search's
          // bounds see each loop apart.
          expr own = expr::parameter(size, m.params[size].name);
          m.params[index.at(f.id)].upper_bound = own;
          loop_extent_.emplace(f.id.loop, own);
        }
      }
    }
  }
  for (const auto& l : d.band->loops)
    for (const affine* bound : {&l->lo, &l->hi})
      for (const auto& t : bound->terms()) triangular_ = triangular_ || t.symbol->kind != detail::symbol_kind::param;
  if (d.simd) simd_ = param({*d.simd, tile_level::simd});
  for (const auto& l : d.band->loop_ids()) {
    loop_terms t;
    auto own = loop_extent_.find(l);
    t.extent = own != loop_extent_.end() ? own->second : of_params(box_extent(l));
    t.t1 = param({l, tile_level::array_partition});
    t.tiles = model::ceil_div(t.extent, t.t1);
    t.space = std::find(d.space.begin(), d.space.end(), l) != d.space.end();
    bool latency = std::find(d.latency.begin(), d.latency.end(), l) != d.latency.end(), vec = d.simd == l;
    if (latency) {
      expr t2 = param({l, tile_level::latency_hiding});
      t.w = t2;
      t.latency = vec ? t2 / simd_ : t2;
    } else if (vec) {
      t.w = simd_;
    }
    t.time = t.t1 / t.w;
    loops_.emplace(l, t);
  }
  // Loops below the band (CNN's p and q): the main statement's (the one with the most loops)
  // after the band's depth, run whole inside each PE.
  const statement_info* main = nullptr;
  for (const auto& st : prog_.statements())
    if (!main || st.record->loops.size() > main->record->loops.size()) main = &st;
  for (size_t k = d.band->loops.size(); main && k < main->record->loops.size(); ++k) {
    const auto& l = *main->record->loops[k];
    inner_.emplace_back(l.seq, of_params(l.hi - l.lo, "the extent of loop " + l.name));
  }
  // The frame: time loops (band order), loops below the band, latency loops (design order), the
  // SIMD lane.
  for (const auto& l : d.band->loop_ids())
    if (!loops_.at(l).space) add_frame_dim(loops_.at(l).time, l.key());
  for (const auto& [key, extent] : inner_) add_frame_dim(extent, key);
  for (const auto& l : d.latency) add_frame_dim(loops_.at(l).latency, l.key());
  add_frame_dim(simd_, d.simd ? std::optional<uint64_t>(d.simd->key()) : std::nullopt);
}

size_t symbols::size_of_loop(model::design_model& m, uint64_t param, const loop_id& loop) {
  size_t size = param_index_.at(param);
  if (!m.params[size].split_by) return size;
  // Another loop is tiled by this size already (square MM's i, j, k over N): this loop gets a size
  // param of its own, of the same origin and value, so that each tiled loop has its chain.
  std::string name = fmt::format("{}_{}", m.params[size].name, loop.name());
  auto taken = [&](const std::string& n) {
    return std::any_of(m.params.begin(), m.params.end(), [&](const model::parameter& x) { return x.name == n; });
  };
  while (taken(name)) name += "_";
  model::parameter x;
  x.name = name;
  x.origin = m.params[size].origin;
  m.params.push_back(std::move(x));
  return m.params.size() - 1;
}

expr symbols::of_params(const affine& a, const std::string& what) const {
  if (!a.is_affine()) throw error(fmt::format("{} is not affine ({}): sadsl cannot model it", what, a.nonaffine_text()));
  expr out = static_cast<double>(a.constant());
  for (const auto& t : a.terms()) {
    if (t.symbol->kind != detail::symbol_kind::param)
      throw error(fmt::format("{} ({}) depends on loop {}: sadsl does not model triangular loop nests yet", what, a.str(),
                              t.symbol->name));
    out = out + expr(static_cast<double>(t.coefficient)) * expr::parameter(param_index_.at(t.symbol->seq), t.symbol->name);
  }
  return out;
}

symbols::param_affine symbols::extreme(const affine& a, bool upper) const {
  param_affine out;
  out.constant = a.constant();
  for (const auto& t : a.terms()) {
    if (t.symbol->kind == detail::symbol_kind::param) {
      out.terms[t.symbol->seq] += t.coefficient;
      continue;
    }
    auto l = std::find_if(d_.band->loops.begin(), d_.band->loops.end(), [&](const auto& x) { return x->seq == t.symbol->seq; });
    if (l == d_.band->loops.end())
      throw error(fmt::format("design {}: a bound ({}) depends on loop {}, outside the band: sadsl cannot model it", d_.name(),
                              a.str(), t.symbol->name));
    // The loop runs over [lo, hi): its least value is lo's least, its largest hi's largest less 1.
    bool largest = (t.coefficient > 0) == upper;
    param_affine x = largest ? extreme((*l)->hi, true) : extreme((*l)->lo, false);
    if (largest) x.constant -= 1;
    out.constant += t.coefficient * x.constant;
    for (const auto& [key, c] : x.terms) out.terms[key] += t.coefficient * c;
  }
  std::erase_if(out.terms, [](const auto& term) { return term.second == 0; });
  return out;
}

symbols::param_affine symbols::box_extent(const loop_id& l) const {
  const auto& loop = *d_.band->loops.at(d_.band->position(l));
  for (const affine* bound : {&loop.lo, &loop.hi})
    if (!bound->is_affine())
      throw error(fmt::format("the extent of loop {} is not affine ({}): sadsl cannot model it", l.name(), bound->nonaffine_text()));
  param_affine hi = extreme(loop.hi, true), lo = extreme(loop.lo, false);
  param_affine out;
  out.constant = hi.constant - lo.constant;
  out.terms = hi.terms;
  for (const auto& [key, c] : lo.terms) out.terms[key] -= c;
  std::erase_if(out.terms, [](const auto& term) { return term.second == 0; });
  return out;
}

expr symbols::of_params(const param_affine& a) const {
  expr out = static_cast<double>(a.constant);
  for (const auto& [key, c] : a.terms) {
    const auto& params = prog_.kernel().params();
    auto p = std::find_if(params.begin(), params.end(), [&](const auto& x) { return x.id().key() == key; });
    SADSL_INTERNAL_ASSERT(p != params.end(), "a bound's param is the kernel's");
    out = out + expr(static_cast<double>(c)) * expr::parameter(param_index_.at(key), p->name());
  }
  return out;
}

expr symbols::tiles_aligned() const {
  expr out = 1;
  for (const auto& l : d_.band->loops) {
    // A PE's chunk spans one value of its space loop: no bound cuts it there.
    if (loops_.at(l->loop_identity()).space) continue;
    const expr& own = loops_.at(l->loop_identity()).t1;
    std::set<uint64_t> seen;
    for (const affine* bound : {&l->lo, &l->hi})
      for (const auto& t : bound->terms()) {
        if (t.symbol->kind == detail::symbol_kind::param || !seen.insert(t.symbol->seq).second) continue;
        const loop_terms* outer = band_loop(t.symbol->seq);
        SADSL_INTERNAL_ASSERT(outer, "a band loop's bounds depend on band loops only (symbols::extreme)");
        // [own divides outer's factor]: 1 - min(1, the remainder).
        expr remainder = outer->t1 - own * model::floor_div(outer->t1, own);
        expr divides = expr(1) - model::min(expr(1), remainder);
        // Or [l has one tile and outer two or fewer]: the one chunk past outer's first tile.
        const expr& tiles = loops_.at(l->loop_identity()).tiles;
        expr one = expr(1) - model::min(expr(1), tiles - expr(1));
        expr two_or_fewer = expr(1) - model::min(expr(1), model::max(expr(0), outer->tiles - expr(2)));
        out = out * model::max(divides, one * two_or_fewer);
      }
  }
  return out;
}

std::vector<size_t> symbols::bounding_loops() const {
  std::set<size_t> out;
  for (const auto& l : d_.band->loops)
    for (const affine* bound : {&l->lo, &l->hi})
      for (const auto& t : bound->terms())
        for (size_t x = 0; x < d_.band->loops.size(); ++x)
          if (d_.band->loops[x]->seq == t.symbol->seq) out.insert(x);
  return {out.begin(), out.end()};
}

expr symbols::grid(size_t i) const {
  const loop_terms& t = loops_.at(d_.space.at(i));
  return t.t1 / t.w;
}

expr symbols::pe_count() const {
  expr n = 1;
  for (size_t i = 0; i < d_.space.size(); ++i) n = n * grid(i);
  return n;
}

expr symbols::frame_extent(size_t i) const { return frame_.at(i); }

void symbols::add_frame_dim(const expr& extent, std::optional<uint64_t> loop) {
  frame_.push_back(extent);
  frame_loop_.push_back(loop);
}

std::vector<bool> symbols::frame_dims_indexing(const access_ref& a) const {
  std::set<uint64_t> loops;
  const access_info& acc = prog_.statement(a.statement).access(a);
  for (const auto& index : acc.index)
    for (const auto& t : index.terms()) loops.insert(t.symbol->seq);
  std::vector<bool> out;
  for (const auto& l : frame_loop_) out.push_back(l && loops.count(*l) > 0);
  return out;
}

const expr* symbols::inner_loop(uint64_t key) const {
  for (const auto& [k, extent] : inner_)
    if (k == key) return &extent;
  return nullptr;
}

const loop_terms* symbols::band_loop(uint64_t key) const {
  for (const auto& [l, t] : loops_)
    if (l.key() == key) return &t;
  return nullptr;
}

affine symbols::stored_index(const access_ref& a, size_t dim) const {
  const access_info& acc = prog_.statement(a.statement).access(a);
  size_t original = dim;
  for (const auto& l : d_.layouts)
    if (l.tensor == acc.tensor->id()) original = static_cast<size_t>(l.order.at(dim));
  return acc.index.at(original);
}

namespace {

// The band loops a statement's guards equate with loop `seq` (LU's `if (i == k)`: i and k).
std::vector<uint64_t> equated_loops(const statement_record& st, uint64_t seq) {
  std::vector<uint64_t> out;
  for (const auto& g : st.guards) {
    if (g.negated) continue;
    for (const auto& c : g.cond.constraints()) {
      if (!c.equality || c.expr.terms().size() != 2) continue;
      const auto &x = c.expr.terms()[0], &y = c.expr.terms()[1];
      if (x.coefficient != -y.coefficient || std::abs(x.coefficient) != 1) continue;
      if (x.symbol->kind != detail::symbol_kind::loop || y.symbol->kind != detail::symbol_kind::loop) continue;
      if (x.symbol->seq == seq) out.push_back(y.symbol->seq);
      if (y.symbol->seq == seq) out.push_back(x.symbol->seq);
    }
  }
  return out;
}

}  // namespace

std::vector<expr> symbols::box(const std::vector<access_ref>& accesses) const {
  SADSL_INTERNAL_ASSERT(!accesses.empty(), "a box of no accesses");
  const access_info& first = prog_.statement(accesses.front().statement).access(accesses.front());
  std::vector<expr> out;
  for (size_t dim = 0; dim < first.index.size(); ++dim) {
    std::optional<expr> extent;
    for (const auto& a : accesses) {
      expr e = 1;
      affine index = stored_index(a, dim);
      for (const auto& t : index.terms()) {
        expr span;
        if (const expr* inner = inner_loop(t.symbol->seq)) {  // spanned whole in every tile
          span = *inner;
        } else {
          const loop_terms* l = band_loop(t.symbol->seq);
          if (!l) throw error(fmt::format("design {}: an access depends on loop {}, outside the band and not below it: sadsl "
                                          "does not model it yet", d_.name(), t.symbol->name));
          span = l->space ? l->w : l->t1;
          // A loop a guard equates with another (i == k) spans no more than that one does.
          for (uint64_t other : equated_loops(*prog_.statement(a.statement).record, t.symbol->seq))
            if (const loop_terms* o = band_loop(other)) span = model::min(span, o->space ? o->w : o->t1);
        }
        // An index that is one loop spans that loop's extent: 1 + (span - 1), written as span (the
        // same integer), is the expression other terms share.
        if (index.terms().size() == 1 && std::abs(t.coefficient) == 1) e = span;
        else e = e + expr(static_cast<double>(std::abs(t.coefficient))) * (span - expr(1));
      }
      extent = extent ? model::max(*extent, e) : e;
    }
    out.push_back(*extent);
  }
  return out;
}

std::vector<expr> symbols::pack_offsets(const std::vector<access_ref>& accesses, const expr& last) const {
  std::vector<expr> offsets{last};
  for (const auto& a : accesses) {
    affine index = stored_index(a, prog_.statement(a.statement).access(a).index.size() - 1);
    if (index.constant() != 0) offsets.push_back(static_cast<double>(std::abs(index.constant())));
    for (const auto& t : index.terms()) {
      const loop_terms* l = band_loop(t.symbol->seq);
      if (!l) continue;  // a loop below the band: every tile's chunk spans it from the same start
      expr c = static_cast<double>(std::abs(t.coefficient));
      offsets.push_back(c * l->t1);
      if (l->space) offsets.push_back(c * l->w);
    }
  }
  return offsets;
}

// The packing: the largest number of words w = 1, 2, 4, .. (w x element_bits <= 512) that
// divides every offset, the least of their largest power-of-two divisors at most the widest w;
// its inverse is exact (a power of two).
std::pair<expr, expr> symbols::pack_and_inverse(const std::vector<expr>& offsets, int element_bits) {
  int64_t widest = 1;
  while (2 * widest * element_bits <= dram_word_bits) widest *= 2;
  // Each offset once: a repeated one changes nothing but the work.
  std::vector<expr> distinct;
  for (const auto& q : offsets)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const expr& seen) { return seen.same_as(q); })) distinct.push_back(q);
  std::optional<expr> pack;
  for (const auto& q : distinct) {
    expr words = model::pow2_divisor(q, expr(static_cast<double>(widest)));
    pack = pack ? model::min(*pack, words) : words;
  }
  if (!pack) pack = expr(static_cast<double>(widest));
  return {*pack, expr(1) / *pack};
}

}  // namespace sadsl::modeling
