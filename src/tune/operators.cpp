#include "operators.hpp"

#include "integer_math.hpp"

namespace sadsl::tune {

tiling random_tiling(const design_space& space, rng& random) {
  tiling t(space.width());
  for (std::size_t l = 0; l < space.loops().size(); ++l) {
    const tiled_loop& loop = space.loops()[l];
    for (std::size_t level = 0; level < loop.levels.size(); ++level) {
      std::span<const std::int64_t> outer(t.data() + loop.offset, level);
      if (auto range = space.level_range(l, outer)) {
        t[loop.offset + level] = random.uniform(range->first, range->second);
        continue;
      }
      std::vector<std::int64_t> values = space.level_values(l, outer);
      t[loop.offset + level] = values.empty() ? 1 : random.pick(values);
    }
  }
  return t;
}

namespace {

// Extents of a chain: [ceil(N / t1), t1 / t2, ..., t_last].
std::vector<std::int64_t> extents(std::int64_t size, std::span<const std::int64_t> chain) {
  std::vector<std::int64_t> e;
  e.push_back((size + chain[0] - 1) / chain[0]);
  for (std::size_t level = 0; level + 1 < chain.size(); ++level) e.push_back(std::max<std::int64_t>(1, chain[level] / chain[level + 1]));
  e.push_back(chain.back());
  return e;
}

void apply_extents(std::int64_t size, const std::vector<std::int64_t>& e, std::span<std::int64_t> chain) {
  std::int64_t inner = 1;
  for (std::size_t level = chain.size(); level-- > 0;) {
    inner *= e[level + 1];
    chain[level] = std::min(inner, size);
  }
}

}  // namespace

tiling mutate(const design_space& space, const tiling& t, double alpha, rng& random) {
  tiling child = t;
  const tiled_loop& loop = space.loops()[random.index(space.loops().size())];
  std::span<std::int64_t> chain(child.data() + loop.offset, loop.levels.size());
  std::vector<std::int64_t> e = extents(loop.size, chain);
  std::size_t a = random.index(e.size());
  std::size_t b = random.index(e.size() - 1);
  if (b >= a) ++b;
  if (random.chance(alpha)) {
    const std::vector<std::int64_t>& factors = known_divisors(e[a]);
    std::int64_t f = factors.size() > 1 ? factors[1 + random.index(factors.size() - 1)] : 1;
    e[a] /= f;
    e[b] *= f;
  } else {
    std::int64_t s = random.uniform(1, e[a]);
    e[b] = (e[a] * e[b] + s - 1) / s;
    e[a] = s;
  }
  apply_extents(loop.size, e, chain);
  return space.repair(std::move(child));
}

tiling crossover(const design_space& space, const tiling& a, const tiling& b, rng& random) {
  tiling child = a;
  for (const tiled_loop& loop : space.loops())
    if (random.chance(0.5))
      std::copy(b.begin() + static_cast<long>(loop.offset), b.begin() + static_cast<long>(loop.offset + loop.levels.size()),
                child.begin() + static_cast<long>(loop.offset));
  return child;
}

}  // namespace sadsl::tune
