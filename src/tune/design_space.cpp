#include "sadsl/tune/design_space.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "sadsl/error.hpp"
#include "sadsl/model/odyssey.hpp"
#include "integer_math.hpp"

namespace sadsl::tune {

namespace {

std::string format_number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

design_space::design_space(std::shared_ptr<const model::evaluator> evaluator, const std::map<param_id, std::int64_t>& sizes,
                           device target, space_options options)
    : evaluator_(std::move(evaluator)), device_(std::move(target)), limits_(device_.limits()), options_(options) {
  build_loops(sizes);
  build_rules();
  build_chains();
}

design_space::design_space(std::shared_ptr<const model::evaluator> evaluator,
                           const std::map<std::string, std::int64_t>& sizes, device target, space_options options)
    : design_space(evaluator, sizes_by_name(evaluator->model(), sizes), std::move(target), options) {}

design_space design_space::with_evaluator(std::shared_ptr<const model::evaluator> other) const {
  const auto& mine = model().params;
  const auto& theirs = other->model().params;
  bool same = mine.size() == theirs.size() &&
              std::equal(mine.begin(), mine.end(), theirs.begin(),
                         [](const model::parameter& a, const model::parameter& b) { return a.name == b.name && a.origin == b.origin; });
  if (!same) throw error("design \"" + name() + "\": another evaluator must evaluate the same model");
  design_space copy = *this;
  copy.evaluator_ = std::move(other);
  return copy;
}

std::map<param_id, std::int64_t> sizes_by_name(const model::design_model& m, const std::map<std::string, std::int64_t>& sizes) {
  std::map<param_id, std::int64_t> by_id;
  for (const auto& [name, value] : sizes) {
    std::size_t index = 0;
    try {
      index = m.parameter_index(name);
    } catch (const error&) {
      throw error("design \"" + m.name + "\" has no loop \"" + name + "\"");
    }
    const auto* size = std::get_if<model::problem_size_origin>(&m.params[index].origin);
    if (!size) throw error("design \"" + m.name + "\": \"" + name + "\" is a tiling parameter, not a loop size");
    by_id[size->param] = value;
  }
  return by_id;
}

// The loop that problem size `size_param` bounds: the loop of the factor its split_by names, with
// every factor of that loop (factor_id::loop) ordered by level; the split_by chain must agree.
tiled_loop design_space::loop_of_size(std::size_t size_param, std::vector<bool>& placed) const {
  const model::design_model& m = model();
  const model::parameter& size = m.params[size_param];
  const auto* first = std::get_if<factor_id>(&m.params[*size.split_by].origin);
  if (!first)
    throw error("design \"" + m.name + "\": \"" + size.name + "\" is split by \"" + m.params[*size.split_by].name +
                "\", which is not a tiling factor");
  tiled_loop loop{first->loop, first->loop.name(), std::get<model::problem_size_origin>(size.origin).param, size_param, 0, {}, {}, width_};
  std::vector<std::pair<tile_level, std::size_t>> factors;
  for (std::size_t i = 0; i < m.params.size(); ++i)
    if (const auto* f = std::get_if<factor_id>(&m.params[i].origin); f && f->loop == first->loop) factors.emplace_back(f->level, i);
  std::stable_sort(factors.begin(), factors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t chain = size_param;
  for (const auto& [level, index] : factors) {
    if (placed[index])
      throw error("design \"" + m.name + "\": parameter \"" + m.params[index].name + "\" tiles two loops");
    if (!loop.level_kinds.empty() && loop.level_kinds.back() == level)
      throw error("design \"" + m.name + "\": loop \"" + loop.name + "\" has two tiling factors at level " +
                  std::string(level_name(level)));
    if (m.params[chain].split_by != index)
      throw error("design \"" + m.name + "\": the split_by chain of \"" + size.name + "\" does not follow the levels of loop \"" +
                  loop.name + "\" (\"" + m.params[chain].name + "\" should be split by \"" + m.params[index].name + "\")");
    placed[index] = true;
    loop.levels.push_back(index);
    loop.level_kinds.push_back(level);
    chain = index;
  }
  return loop;
}

// Loops are the problem sizes that are tiled (have a split_by chain); the other sizes are constants.
void design_space::build_loops(const std::map<param_id, std::int64_t>& sizes) {
  const model::design_model& m = model();
  base_params_.assign(m.params.size(), 0.0);
  std::vector<bool> placed(m.params.size(), false);
  std::map<param_id, std::size_t> size_params;
  for (std::size_t i = 0; i < m.params.size(); ++i)
    if (const auto* size = std::get_if<model::problem_size_origin>(&m.params[i].origin)) size_params[size->param] = i;
  for (const auto& [id, value] : sizes) {
    if (!size_params.count(id)) throw error("design \"" + m.name + "\" has no loop \"" + id.name() + "\"");
    std::string name = m.params[size_params[id]].name;
    if (value < 1) throw error("design \"" + m.name + "\": size of loop \"" + name + "\" must be at least 1");
    if (value > max_problem_size)
      throw error("design \"" + m.name + "\": size of loop \"" + name + "\" must be at most 2^53 (" +
                  std::to_string(max_problem_size) + ")");
  }
  for (std::size_t i = 0; i < m.params.size(); ++i) {
    const model::parameter& p = m.params[i];
    const auto* size = std::get_if<model::problem_size_origin>(&p.origin);
    if (!size) continue;
    auto given = sizes.find(size->param);
    if (given == sizes.end()) throw error("design \"" + m.name + "\": no size for loop \"" + p.name + "\"");
    base_params_[i] = static_cast<double>(given->second);
    placed[i] = true;
    if (!p.split_by) continue;
    tiled_loop loop = loop_of_size(i, placed);
    loop.size = given->second;
    width_ += loop.levels.size();
    loops_.push_back(std::move(loop));
  }
  for (std::size_t i = 0; i < m.params.size(); ++i)
    if (!placed[i] && !m.params[i].inferred)
      throw error("design \"" + m.name + "\": parameter \"" + m.params[i].name + "\" (" + model::describe(m.params[i].origin) +
                  ") is neither a loop size, a tiling factor of a tiled loop nor inferred");
}

void design_space::build_rules() {
  const model::design_model& m = model();
  for (const tiled_loop& loop : loops_) {
    std::vector<level_rule> rules;
    for (std::size_t level = 0; level < loop.levels.size(); ++level) {
      const model::parameter& p = m.params[loop.levels[level]];
      level_rule rule;
      rule.param = loop.levels[level];
      rule.power_of_two = p.power_of_two;
      auto level_of = [&](std::size_t param) -> std::optional<std::size_t> {
        auto found = std::find(loop.levels.begin(), loop.levels.end(), param);
        if (found == loop.levels.end()) return std::nullopt;
        return static_cast<std::size_t>(found - loop.levels.begin());
      };
      for (std::size_t d : p.divides) {
        if (level == 0 && d == loop.size_param) rule.divides_size = true;
        auto l = level_of(d);
        if (!l) continue;
        if (level > 0 && *l == level - 1) rule.divides_parent = true;
        rule.divides.push_back(*l);
      }
      for (std::size_t d : p.multiple_of)
        if (auto l = level_of(d)) rule.multiple_of.push_back(*l);
      // A bound can prune this loop's values only if it refers to sizes and outer levels alone.
      auto usable = [&](const std::optional<model::expr>& e) {
        if (!e) return false;
        std::vector<std::size_t> refs = model::parameters_of(*e);
        return std::all_of(refs.begin(), refs.end(), [&](std::size_t r) {
          if (m.params[r].role() == model::parameter_role::problem_size) return true;
          auto l = level_of(r);
          return l && *l < level;
        });
      };
      rule.lower_usable = usable(p.lower_bound);
      rule.upper_usable = usable(p.upper_bound);
      rules.push_back(rule);
    }
    rules_.push_back(std::move(rules));
  }
}

error design_space::too_many_tilings(std::size_t loop) const {
  return error("design \"" + name() + "\": loop \"" + loops_[loop].name + "\" (size " + std::to_string(loops_[loop].size) +
               ") has more than " + std::to_string(options_.max_chains_per_loop) + " tilings; a size this large cannot be tuned");
}

// Lists every chain of every loop, level 0 walked through its range without materializing it (a
// huge size must fail on the chain limit, not allocate N values first).
void design_space::build_chains() {
  for (std::size_t l = 0; l < loops_.size(); ++l) {
    const tiled_loop& loop = loops_[l];
    std::vector<std::int64_t> flat;
    std::vector<std::int64_t> prefix;
    std::size_t chains = 0, visited = 0;
    auto check = [&] {
      if (++visited > 16 * options_.max_chains_per_loop) throw too_many_tilings(l);
      if (visited % 1024 == 0 && ((options_.stop && options_.stop->load()) ||
                                    (options_.deadline && std::chrono::steady_clock::now() >= *options_.deadline)))
        throw error("design \"" + name() + "\": stopped while listing the tilings of loop \"" + loop.name +
                    "\" (interrupted or out of time)");
    };
    std::function<void(std::int64_t)> extend = [&](std::int64_t value) {
      check();
      prefix.push_back(value);
      if (prefix.size() == loop.levels.size()) {
        if (++chains > options_.max_chains_per_loop) throw too_many_tilings(l);
        flat.insert(flat.end(), prefix.begin(), prefix.end());
      } else {
        for (std::int64_t v : level_values(l, prefix)) extend(v);
      }
      prefix.pop_back();
    };
    if (auto range = level_range(l, {})) {
      for (std::int64_t v = range->first; v <= range->second; ++v) extend(v);
    } else {
      for (std::int64_t v : level_values(l, {})) extend(v);
    }
    chains_.push_back(std::move(flat));
  }
}

double design_space::bound(const model::expr& e, std::size_t loop, std::span<const std::int64_t> outer) const {
  std::vector<double> scratch = base_params_;
  for (std::size_t level = 0; level < outer.size(); ++level)
    scratch[loops_[loop].levels[level]] = static_cast<double>(outer[level]);
  return model::evaluate(e, scratch);
}

std::optional<std::pair<std::int64_t, std::int64_t>> design_space::level_range(std::size_t loop,
                                                                               std::span<const std::int64_t> outer) const {
  const std::size_t level = outer.size();
  const level_rule& rule = rules_[loop][level];
  bool filtered = rule.power_of_two || !rule.divides.empty() || !rule.multiple_of.empty() || rule.divides_parent || rule.divides_size;
  if (level != 0 || options_.divisor_tiles_only || filtered) return std::nullopt;
  const model::parameter& p = model().params[rule.param];
  double lo = 1, hi = static_cast<double>(loops_[loop].size);
  if (rule.lower_usable) lo = std::max(lo, std::ceil(bound(*p.lower_bound, loop, outer)));
  if (rule.upper_usable) hi = std::min(hi, std::floor(bound(*p.upper_bound, loop, outer)));
  if (hi < lo) return std::nullopt;
  return std::pair{static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
}

std::vector<std::int64_t> design_space::level_values(std::size_t loop, std::span<const std::int64_t> outer) const {
  const std::size_t level = outer.size();
  const level_rule& rule = rules_[loop][level];
  const model::parameter& p = model().params[rule.param];
  std::int64_t size = loops_[loop].size;
  double lo = 1;
  double hi = level == 0 ? static_cast<double>(size) : static_cast<double>(outer[level - 1]);
  if (rule.lower_usable) lo = std::max(lo, std::ceil(bound(*p.lower_bound, loop, outer)));
  if (rule.upper_usable) hi = std::min(hi, std::floor(bound(*p.upper_bound, loop, outer)));
  std::vector<std::int64_t> values;
  auto consider = [&](std::int64_t v) {
    if (v < lo || v > hi) return;
    if (rule.power_of_two && !is_power_of_two(v)) return;
    bool related = std::all_of(rule.divides.begin(), rule.divides.end(), [&](std::size_t l) { return l >= level || outer[l] % v == 0; }) &&
                   std::all_of(rule.multiple_of.begin(), rule.multiple_of.end(), [&](std::size_t l) { return l >= level || v % outer[l] == 0; });
    if (related) values.push_back(v);
  };
  if (level == 0 && (options_.divisor_tiles_only || rule.divides_size)) {
    for (std::int64_t v : known_divisors(size)) consider(v);
  } else if (rule.divides_parent) {
    for (std::int64_t v : known_divisors(outer[level - 1])) consider(v);
  } else if (rule.power_of_two) {
    for (std::int64_t v = 1; v <= hi && v > 0; v *= 2) consider(v);
  } else if (hi >= lo) {
    if (hi - lo >= static_cast<double>(options_.max_chains_per_loop)) throw too_many_tilings(loop);
    for (auto v = static_cast<std::int64_t>(lo); v <= static_cast<std::int64_t>(hi); ++v) consider(v);
  }
  return values;
}

const std::vector<std::int64_t>& design_space::loop_chains(std::size_t loop) const { return chains_[loop]; }

std::size_t design_space::loop_chain_count(std::size_t loop) const {
  return chains_[loop].size() / loops_[loop].levels.size();
}

std::int64_t design_space::padded_size(std::size_t loop, std::int64_t t1) const {
  std::int64_t n = loops_[loop].size;
  return (n + t1 - 1) / t1 * t1;
}

double design_space::point_count() const {
  double count = 1;
  for (std::size_t l = 0; l < loops_.size(); ++l) count *= static_cast<double>(loop_chain_count(l));
  return count;
}

bool design_space::contains(const tiling& t) const {
  if (t.size() != width_) return false;
  for (std::size_t l = 0; l < loops_.size(); ++l) {
    std::span<const std::int64_t> chain(t.data() + loops_[l].offset, loops_[l].levels.size());
    for (std::size_t level = 0; level < chain.size(); ++level) {
      if (auto range = level_range(l, chain.first(level))) {
        if (chain[level] < range->first || chain[level] > range->second) return false;
        continue;
      }
      auto values = level_values(l, chain.first(level));
      if (!std::binary_search(values.begin(), values.end(), chain[level])) return false;
    }
  }
  return true;
}

tiling design_space::repair(tiling t) const {
  t.resize(width_, 1);
  for (std::size_t l = 0; l < loops_.size(); ++l) {
    std::span<std::int64_t> chain(t.data() + loops_[l].offset, loops_[l].levels.size());
    for (std::size_t level = 0; level < chain.size(); ++level) {
      if (auto range = level_range(l, chain.first(level))) {
        chain[level] = std::clamp(chain[level], range->first, range->second);
        continue;
      }
      auto values = level_values(l, chain.first(level));
      if (values.empty()) values = {1};  // nothing allowed: the model's legality test rejects the point
      chain[level] = nearest(values, chain[level]);
    }
  }
  return t;
}

tiling design_space::smallest() const {
  tiling t(width_, 0);
  return repair(t);
}

std::vector<double> design_space::parameters(const tiling& t) const {
  std::vector<double> params = base_params_;
  fill_parameters(t, params);
  return params;
}

void design_space::fill_parameters(const tiling& t, std::span<double> params) const {
  SADSL_INTERNAL_ASSERT(t.size() == width_ && params.size() == base_params_.size(), "tiling of the wrong size");
  std::copy(base_params_.begin(), base_params_.end(), params.begin());
  for (const tiled_loop& loop : loops_)
    for (std::size_t level = 0; level < loop.levels.size(); ++level)
      params[loop.levels[level]] = static_cast<double>(t[loop.offset + level]);
}

evaluation design_space::evaluate(const tiling& t, const objective& goal, std::span<double> params) const {
  fill_parameters(t, params);
  evaluation e;
  e.metrics = evaluator_->evaluate(params, limits_);
  e.cost = goal.cost(e.metrics, params);
  return e;
}

evaluation design_space::evaluate(const tiling& t, const objective& goal) const {
  std::vector<double> params(base_params_.size());
  return evaluate(t, goal, params);
}

std::string design_space::describe(const tiling& t) const {
  std::string text;
  for (const tiled_loop& loop : loops_)
    for (std::size_t level = 0; level < loop.levels.size(); ++level)
      text += (text.empty() ? "" : " ") + model().params[loop.levels[level]].name + "=" + std::to_string(t[loop.offset + level]);
  return text;
}

void design_space::check_fits() const {
  tiling t = smallest();
  evaluation e = evaluate(t, objective{});
  struct resource {
    const char* name;
    double used, usable, total;
  };
  const model::metrics& m = e.metrics;
  for (const resource& r : {resource{"DSP", m.dsp, limits_.dsp, device_.dsp}, resource{"BRAM18K", m.bram18k, limits_.bram18k, device_.bram18k},
                            resource{"URAM", m.uram, limits_.uram, device_.uram}}) {
    if (r.used <= r.usable) continue;
    throw does_not_fit("design \"" + name() + "\" cannot fit on " + device_.name + ": " + r.name + " needs " +
                format_number(r.used) + " even at the smallest tiling (" + describe(t) + ") but only " +
                format_number(r.usable) + " are usable (" + format_number(r.total) + " x " +
                format_number(device_.usable_fraction) + ")");
  }
}

std::uint32_t design_space::expression_depth() const {
  const model::design_model& m = model();
  model::metric_expressions metrics = model::metrics_of(m);
  std::uint32_t deepest = 0;
  for (const model::expr* e : {&metrics.latency, &metrics.dsp, &metrics.bram18k, &metrics.uram, &metrics.lut, &metrics.ff,
                                 &metrics.offchip_bytes})
    deepest = std::max(deepest, e->depth());
  for (const model::constraint& c : m.constraints) deepest = std::max({deepest, c.lhs.depth(), c.rhs.depth()});
  for (const model::parameter& p : m.params)
    if (p.inferred) deepest = std::max({deepest, p.inferred->lower.depth(), p.inferred->upper.depth()});
  return deepest;
}

std::shared_ptr<const model::evaluator> load_descriptor(const std::string& file, const model::evaluator_options& options) {
  return std::make_shared<const model::evaluator>(model::import_odyssey_descriptor(file), options);
}

}  // namespace sadsl::tune
